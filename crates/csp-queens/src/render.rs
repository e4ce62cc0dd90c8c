//! Text and picture formats for placements.
//!
//! Every format takes a placement `cols` (row `r` has its queen in the 0-based
//! column `cols[r]`) and ends its output with exactly one newline, so the
//! result can be written out as it is.
//!
//! The pictures follow chess: row 0 is rank 1, at the bottom, and column 0
//! is file `a`, on the left, so `a1` is the bottom-left corner (White's
//! left, a dark square). The text formats list the rows from row 0.
//!
//! | format    | example for the 4-queens solution `[1, 3, 0, 2]` |
//! |-----------|--------------------------------------------------|
//! | `board`   | `4 . . Q .` / `3 Q . . .` / `2 . . . Q` / `1 . Q . .` / `  a b c d` (rank n at the top, rank 1 at the bottom, files below) |
//! | `a1`      | `b1 d2 a3 c4` (file letter = column, rank = 1-based row) |
//! | `columns` | `2 4 1 3` (1-based columns; read back by [`crate::verify::parse_columns_line`]) |
//! | `json`    | `{"n":4,"columns":[2,4,1,3]}` (1-based columns) |
//! | `svg`     | a standalone SVG picture of the checkered board with round queens ([`svg_grid`]: several boards in one picture) |
//!
//! Columns are not required to form a solution. If some column is `n` or more
//! the pictures (`board`, `svg`) are widened to show it.
//!
//! ```
//! use csp_queens::render::{render, Format};
//! let sol = [1, 3, 0, 2];
//! assert_eq!(render(&sol, Format::Board), "4 . . Q .\n3 Q . . .\n2 . . . Q\n1 . Q . .\n  a b c d\n");
//! assert_eq!(render(&sol, "columns".parse().unwrap()), "2 4 1 3\n");
//! assert_eq!(render(&sol, Format::Json), "{\"n\":4,\"columns\":[2,4,1,3]}\n");
//! ```

use std::fmt;
use std::str::FromStr;

/// An output format; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A grid of `Q` and `.` with ranks and files, rank 1 at the bottom.
    Board,
    /// Chess notation, one square per row: `a1 e2 h3 …`.
    A1,
    /// 1-based columns separated by spaces.
    Columns,
    /// A JSON object `{"n":…,"columns":[…]}` with 1-based columns.
    Json,
    /// A standalone SVG picture.
    Svg,
}

impl Format {
    /// Every format, in documentation order.
    pub const ALL: [Format; 5] = [
        Format::Board,
        Format::A1,
        Format::Columns,
        Format::Json,
        Format::Svg,
    ];

    /// The name accepted by [`FromStr`] and printed by [`fmt::Display`].
    pub fn name(self) -> &'static str {
        match self {
            Format::Board => "board",
            Format::A1 => "a1",
            Format::Columns => "columns",
            Format::Json => "json",
            Format::Svg => "svg",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that [`Format::from_str`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat {
    /// The name given.
    pub given: String,
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown format `{}`; valid formats are ", self.given)?;
        for (i, format) in Format::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(format.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    /// Parses a format name, ignoring ASCII case and surrounding whitespace.
    ///
    /// ```
    /// use csp_queens::render::Format;
    /// assert_eq!("SVG".parse::<Format>(), Ok(Format::Svg));
    /// let err = "png".parse::<Format>().unwrap_err();
    /// assert_eq!(err.to_string(), "unknown format `png`; valid formats are board, a1, columns, json, svg");
    /// ```
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        let wanted = s.trim();
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownFormat {
                given: s.to_string(),
            })
    }
}

/// Renders `cols` in `format`; see the module docs.
pub fn render(cols: &[u32], format: Format) -> String {
    match format {
        Format::Board => board(cols),
        Format::A1 => a1(cols),
        Format::Columns => columns(cols),
        Format::Json => json(cols),
        Format::Svg => svg(cols),
    }
}

/// Appends the decimal digits of `value` without allocating.
fn push_number(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    let at = write_digits(&mut digits, value);
    // ASCII digits are always valid UTF-8.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Writes the decimal digits of `value` at the end of `digits`; returns where
/// they start.
#[inline]
fn write_digits(digits: &mut [u8; 20], value: u64) -> usize {
    // Two digits per division: "00" to "99" side by side.
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut at = digits.len();
    let mut rest = value;
    while rest >= 100 {
        let pair = (rest % 100) as usize * 2;
        rest /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if rest >= 10 {
        let pair = rest as usize * 2;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        digits[at] = b'0' + rest as u8;
    }
    at
}

/// Decimal width of `value`.
fn decimal_width(value: u64) -> usize {
    value.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The width of the pictured board: `n`, or more to show off-board queens.
fn picture_width(cols: &[u32]) -> usize {
    let widest = cols.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    widest.max(cols.len())
}

/// The `board` format, as a chess diagram: rank `n` (the last row) at the
/// top and rank 1 (row 0) at the bottom, each line starting with its rank
/// number, then the squares, `Q` or `.`, separated by spaces; the file
/// letters under the last line. Past 26 columns the files have two
/// letters (`aa`, `ab`, ...) and every square is as wide as the widest.
///
/// ```
/// use csp_queens::render::board;
/// assert_eq!(board(&[1, 3, 0, 2]), "4 . . Q .\n3 Q . . .\n2 . . . Q\n1 . Q . .\n  a b c d\n");
/// assert_eq!(board(&[]), "");
/// ```
pub fn board(cols: &[u32]) -> String {
    let n = cols.len();
    if n == 0 {
        return String::new();
    }
    let width = picture_width(cols);
    let files: Vec<String> = (0..width as u32)
        .map(|c| {
            let mut f = String::new();
            push_file(&mut f, c);
            f
        })
        .collect();
    let cell = files.iter().map(String::len).max().unwrap_or(1);
    let label = decimal_width(n as u64);
    let mut out = String::with_capacity((n + 1) * (label + (cell + 1) * width + 1));
    for (row, &col) in cols.iter().enumerate().rev() {
        let rank = (row + 1).to_string();
        out.push_str(&" ".repeat(label - rank.len()));
        out.push_str(&rank);
        for x in 0..width {
            out.push_str(&" ".repeat(cell));
            out.push(if x == col as usize { 'Q' } else { '.' });
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(label));
    for f in &files {
        out.push_str(&" ".repeat(cell + 1 - f.len()));
        out.push_str(f);
    }
    out.push('\n');
    out
}

/// Appends the spreadsheet-style file letters of the 0-based column `col`:
/// `a` … `z`, `aa`, `ab`, … (bijective base 26).
fn push_file(out: &mut String, col: u32) {
    let mut letters = [0u8; 8];
    let mut at = letters.len();
    let mut rest = u64::from(col) + 1;
    while rest > 0 {
        rest -= 1;
        at -= 1;
        letters[at] = b'a' + (rest % 26) as u8;
        rest /= 26;
    }
    for &l in &letters[at..] {
        out.push(char::from(l));
    }
}

/// The name of the square in column `col` (0-based) of row `row` (0-based)
/// in `a1` notation.
///
/// ```
/// use csp_queens::render::square_name;
/// assert_eq!(square_name(0, 0), "a1");
/// assert_eq!(square_name(7, 25), "z8");
/// assert_eq!(square_name(9, 26), "aa10");
/// assert_eq!(square_name(0, 701), "zz1");
/// assert_eq!(square_name(0, 702), "aaa1");
/// ```
pub fn square_name(row: usize, col: u32) -> String {
    let mut out = String::new();
    push_file(&mut out, col);
    push_number(&mut out, row as u64 + 1);
    out
}

/// The `a1` format: square names separated by spaces.
///
/// ```
/// use csp_queens::render::a1;
/// assert_eq!(a1(&[0, 4, 7, 5, 2, 6, 1, 3]), "a1 e2 h3 f4 c5 g6 b7 d8\n");
/// ```
pub fn a1(cols: &[u32]) -> String {
    let per = 2 + decimal_width(cols.len() as u64) + 1;
    let mut out = String::with_capacity(cols.len() * per + 1);
    for (row, &col) in cols.iter().enumerate() {
        if row > 0 {
            out.push(' ');
        }
        push_file(&mut out, col);
        push_number(&mut out, row as u64 + 1);
    }
    out.push('\n');
    out
}

/// Appends 1-based columns separated by `sep`.
fn push_columns(out: &mut String, cols: &[u32], sep: u8) {
    // Bytes first and one UTF-8 validation at the end: a 10^7-queens line is
    // about 70 MB, so the per-digit cost matters.
    let mut bytes = std::mem::take(out).into_bytes();
    let mut digits = [0u8; 20];
    for (row, &col) in cols.iter().enumerate() {
        if row > 0 {
            bytes.push(sep);
        }
        let at = write_digits(&mut digits, u64::from(col) + 1);
        bytes.extend_from_slice(&digits[at..]);
    }
    *out = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// The `columns` format: 1-based columns separated by spaces.
///
/// ```
/// assert_eq!(csp_queens::render::columns(&[1, 3, 0, 2]), "2 4 1 3\n");
/// ```
pub fn columns(cols: &[u32]) -> String {
    let per = decimal_width(cols.len() as u64) + 1;
    let mut out = String::with_capacity(cols.len() * per + 1);
    push_columns(&mut out, cols, b' ');
    out.push('\n');
    out
}

/// The `json` format: `{"n":<n>,"columns":[<1-based columns>]}`.
pub fn json(cols: &[u32]) -> String {
    let per = decimal_width(cols.len() as u64) + 1;
    let mut out = String::with_capacity(cols.len() * per + 32);
    out.push_str("{\"n\":");
    push_number(&mut out, cols.len() as u64);
    out.push_str(",\"columns\":[");
    push_columns(&mut out, cols, b',');
    out.push_str("]}\n");
    out
}

/// The `svg` format: a standalone SVG document showing the board as a chess
/// diagram (row 0 at the bottom, the square of row 0, column 0 dark, as
/// `a1` on a chess board) and every queen as a dark disc. Each square is 10
/// user units; the picture is at most about 800 pixels wide.
pub fn svg(cols: &[u32]) -> String {
    let n = cols.len();
    let width = picture_width(cols).max(1);
    let height = n.max(1);
    let mut out = String::with_capacity(400 + 60 * n);
    push_svg_start(&mut out, width * 10, height * 10, width.max(height));
    out.push_str("  <title>");
    push_number(&mut out, n as u64);
    out.push_str("-queens placement</title>\n");
    push_checker(&mut out, height);
    push_board(&mut out, cols, width, height);
    out.push_str("</svg>\n");
    out
}

/// Several placements of one board size as one SVG document: a grid of
/// boards drawn as [`svg`] draws one, `per_row` to a row, each with its
/// caption under it (a `<text>`, escaped), and the document's `title`.
/// Browsers and XML tools take it as one picture, as they do not a list of
/// documents.
///
/// ```
/// use csp_queens::render::svg_grid;
/// let s = svg_grid("two", &[(vec![1, 3, 0, 2], "1".into()), (vec![2, 0, 3, 1], "2".into())], 8);
/// assert_eq!(s.matches("<svg").count(), 1);
/// assert_eq!(s.matches("<circle").count(), 8);
/// ```
pub fn svg_grid(title: &str, boards: &[(Vec<u32>, String)], per_row: usize) -> String {
    let per_row = per_row.max(1);
    let width = boards
        .iter()
        .map(|(c, _)| picture_width(c))
        .max()
        .unwrap_or(0)
        .max(1);
    let height = boards
        .iter()
        .map(|(c, _)| c.len())
        .max()
        .unwrap_or(0)
        .max(1);
    // Each board is 10 units a square, with a square's margin around it
    // and a line for its caption below.
    let (cell_w, cell_h) = (width * 10 + 10, height * 10 + 20);
    let columns = boards.len().clamp(1, per_row);
    let rows = boards.len().div_ceil(per_row).max(1);
    let mut out = String::with_capacity(400 + boards.len() * (200 + 90 * height));
    push_svg_start(
        &mut out,
        columns * cell_w + 10,
        rows * cell_h + 10,
        width.max(height),
    );
    out.push_str("  <title>");
    push_escaped(&mut out, title);
    out.push_str("</title>\n");
    push_checker(&mut out, height);
    for (k, (cols, caption)) in boards.iter().enumerate() {
        let (x, y) = (10 + (k % per_row) * cell_w, 10 + (k / per_row) * cell_h);
        out.push_str("  <g transform=\"translate(");
        push_number(&mut out, x as u64);
        out.push(' ');
        push_number(&mut out, y as u64);
        out.push_str(")\">\n");
        push_board(&mut out, cols, width, height);
        out.push_str("  <text x=\"");
        push_number(&mut out, width as u64 * 5);
        out.push_str("\" y=\"");
        push_number(&mut out, height as u64 * 10 + 8);
        out.push_str("\" font-family=\"sans-serif\" font-size=\"7\" text-anchor=\"middle\">");
        push_escaped(&mut out, caption);
        out.push_str("</text>\n  </g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// The XML declaration and the opening `<svg>` of a picture `w` × `h`
/// units, scaled so that a square (10 units) of a board of `side` squares
/// is at most 48 pixels and the board about 800.
fn push_svg_start(out: &mut String, w: usize, h: usize, side: usize) {
    let pixels_per_square = (800 / side.max(1)).clamp(1, 48);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
    push_number(out, (w * pixels_per_square / 10) as u64);
    out.push_str("\" height=\"");
    push_number(out, (h * pixels_per_square / 10) as u64);
    out.push_str("\" viewBox=\"0 0 ");
    push_number(out, w as u64);
    out.push(' ');
    push_number(out, h as u64);
    out.push_str("\">\n");
}

/// The checkered pattern of a board `height` squares high, `a1` dark.
fn push_checker(out: &mut String, height: usize) {
    out.push_str(concat!(
        "  <defs>\n",
        "    <pattern id=\"checker\" width=\"20\" height=\"20\" patternUnits=\"userSpaceOnUse\"",
        // The pattern's dark squares fall on even x + y counted from the
        // top; a1, at the bottom, must be one of them.
    ));
    out.push_str(if height.is_multiple_of(2) {
        " y=\"10\">\n"
    } else {
        ">\n"
    });
    out.push_str(concat!(
        "      <rect width=\"20\" height=\"20\" fill=\"#f0d9b5\"/>\n",
        "      <rect width=\"10\" height=\"10\" fill=\"#b58863\"/>\n",
        "      <rect x=\"10\" y=\"10\" width=\"10\" height=\"10\" fill=\"#b58863\"/>\n",
        "    </pattern>\n",
        "  </defs>\n",
    ));
}

/// One board at the origin of the current user space: the squares, then
/// a disc for every queen (row 0 at the bottom).
fn push_board(out: &mut String, cols: &[u32], width: usize, height: usize) {
    out.push_str("  <rect width=\"");
    push_number(out, width as u64 * 10);
    out.push_str("\" height=\"");
    push_number(out, height as u64 * 10);
    out.push_str("\" fill=\"url(#checker)\"/>\n");
    for (row, &col) in cols.iter().enumerate() {
        out.push_str("  <circle cx=\"");
        push_number(out, u64::from(col) * 10 + 5);
        out.push_str("\" cy=\"");
        push_number(out, (height - 1 - row) as u64 * 10 + 5);
        out.push_str("\" r=\"3.5\" fill=\"#1a1a1a\" stroke=\"#ffffff\" stroke-width=\"0.6\"/>\n");
    }
}

/// Appends `text` with the characters XML reserves escaped.
fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_match_std_formatting() {
        let mut values: Vec<u64> = vec![0, 9, 10, 99, 100, 101, 999, 1000, 65_535, u64::MAX];
        values.extend((0..64).map(|k| 1u64 << k));
        values.extend((1..20).map(|k| 10u64.pow(k) - 1));
        for v in values {
            let mut s = String::new();
            push_number(&mut s, v);
            assert_eq!(s, v.to_string());
        }
        let cols: Vec<u32> = (0..2000).rev().collect();
        let want: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
        assert_eq!(columns(&cols), want.join(" ") + "\n");
    }

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
        assert!(" Board ".parse::<Format>().is_ok());
        assert!("".parse::<Format>().is_err());
    }

    #[test]
    fn numbers() {
        let mut s = String::new();
        for v in [0u64, 7, 10, 99, 100, 4_294_967_296, u64::MAX] {
            s.clear();
            push_number(&mut s, v);
            assert_eq!(s, v.to_string());
            assert_eq!(decimal_width(v), v.to_string().len());
        }
    }

    #[test]
    fn files_are_bijective_base_26() {
        let name = |c| square_name(0, c);
        assert_eq!(name(25), "z1");
        assert_eq!(name(26), "aa1");
        assert_eq!(name(27), "ab1");
        assert_eq!(name(51), "az1");
        assert_eq!(name(52), "ba1");
        assert_eq!(name(u32::MAX), "mwlqkwv1");
    }

    #[test]
    fn off_board_columns_widen_the_picture() {
        assert_eq!(board(&[2]), "1 . . Q\n  a b c\n");
        assert_eq!(board(&[]), "");
        assert_eq!(columns(&[]), "\n");
        assert_eq!(json(&[]), "{\"n\":0,\"columns\":[]}\n");
    }

    #[test]
    fn boards_are_chess_diagrams() {
        // The first 8-queens solution: a1 e2 h3 f4 c5 g6 b7 d8.
        let b = board(&[0, 4, 7, 5, 2, 6, 1, 3]);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0], "8 . . . Q . . . ."); // d8
        assert_eq!(lines[7], "1 Q . . . . . . ."); // a1, bottom left
        assert_eq!(lines[8], "  a b c d e f g h");
        // Two-digit ranks align; two-letter files widen every square.
        let b = board(&(0..10).collect::<Vec<u32>>());
        assert!(b.starts_with("10 . . . . . . . . . Q\n 9 . . "));
        let cols: Vec<u32> = (0..27).collect();
        let b = board(&cols);
        assert!(b.ends_with("  y  z aa\n"), "{b}");
        assert!(b.lines().next().unwrap().ends_with(".  Q"));
        assert!(b.lines().last().unwrap().starts_with("    a  b"));
    }

    #[test]
    fn svg_is_well_formed_enough() {
        let s = svg(&[1, 3, 0, 2]);
        assert!(s.starts_with("<?xml"));
        assert!(s.ends_with("</svg>\n"));
        assert_eq!(s.matches("<circle").count(), 4);
        // Row 0 at the bottom: its queen, in column 1, is at y = 35.
        assert!(s.contains("cx=\"15\" cy=\"35\""));
        assert!(s.contains("cx=\"25\" cy=\"5\""));
        // a1 dark on even and odd boards: the pattern moves by a square.
        assert!(s.contains("userSpaceOnUse\" y=\"10\">"));
        assert!(svg(&[0, 2, 4, 1, 3]).contains("userSpaceOnUse\">"));
        assert!(s.contains("viewBox=\"0 0 40 40\""));
        // Tags balance.
        assert_eq!(s.matches("<svg").count(), s.matches("</svg>").count());
        assert_eq!(
            s.matches("<pattern").count(),
            s.matches("</pattern>").count()
        );
    }

    #[test]
    fn large_columns_output_is_fast_and_exact() {
        let n = 1_000_000u32;
        let cols: Vec<u32> = (0..n).rev().collect();
        let text = columns(&cols);
        assert!(text.starts_with("1000000 999999 "));
        assert!(text.ends_with(" 2 1\n"));
        assert_eq!(text.split_ascii_whitespace().count(), n as usize);
    }
}
