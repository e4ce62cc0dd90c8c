//! The [`Puzzle`] type and its parser.
//!
//! # Format
//!
//! `WORD + WORD + ... = WORD`: one or more addends joined by `+`, one `=`, and a
//! single word on the right. Words are letters `A`-`Z`; lowercase letters are
//! accepted and mean the same letter (`send+more=money` is SEND+MORE=MONEY).
//! Spaces and tabs may appear between words and operators, not inside a word. At
//! most ten distinct letters may appear, since each stands for a different digit.
//!
//! # Errors
//!
//! A [`ParseError`] names the column (1-based, in characters) of the problem (one
//! past the last character when the problem is what is missing at the end), and
//! the line when the puzzle came from a file ([`entries`]):
//!
//! ```
//! use csp_cryptarithm::Puzzle;
//!
//! let err = "SEND+M0RE=MONEY".parse::<Puzzle>().unwrap_err();
//! assert_eq!(err.to_string(), "column 7: unexpected character '0'");
//! let err = "SEND+MORE".parse::<Puzzle>().unwrap_err();
//! assert_eq!(err.to_string(), "column 10: no '=' in the equation");
//! ```

use std::fmt;

/// The most distinct letters a puzzle may use (one per decimal digit).
pub const MAX_LETTERS: usize = 10;

/// A cryptarithm: addends that sum to a result, each word a string of letters.
///
/// ```
/// use csp_cryptarithm::Puzzle;
///
/// let p: Puzzle = "send + more = money".parse().unwrap();
/// assert_eq!(p.addends(), ["SEND", "MORE"]);
/// assert_eq!(p.result(), "MONEY");
/// assert_eq!(p.letters(), ['S', 'E', 'N', 'D', 'M', 'O', 'R', 'Y']);
/// assert_eq!(p.leading_letters(), ['S', 'M']);
/// assert_eq!(p.to_string(), "SEND+MORE=MONEY");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    addends: Vec<String>,
    result: String,
    letters: Vec<char>,
}

impl Puzzle {
    /// The words on the left of `=`, uppercase, in order.
    pub fn addends(&self) -> &[String] {
        &self.addends
    }

    /// The word on the right of `=`, uppercase.
    pub fn result(&self) -> &str {
        &self.result
    }

    /// All words: the addends, then the result.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.addends
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.result.as_str()))
    }

    /// The distinct letters, in order of first appearance. A solution gives one
    /// digit per letter in this order.
    pub fn letters(&self) -> &[char] {
        &self.letters
    }

    /// The position of `letter` in [`Puzzle::letters`] (uppercase or lowercase).
    pub fn letter_index(&self, letter: char) -> Option<usize> {
        let upper = letter.to_ascii_uppercase();
        self.letters.iter().position(|&l| l == upper)
    }

    /// The letters that begin a word of two or more letters, in order of first
    /// appearance: the letters that may not be zero when leading zeros are not allowed.
    pub fn leading_letters(&self) -> Vec<char> {
        let mut out = Vec::new();
        for word in self.words() {
            let first = word.chars().next().expect("words are not empty");
            if word.len() > 1 && !out.contains(&first) {
                out.push(first);
            }
        }
        // Keep the order of `letters`.
        self.letters
            .iter()
            .copied()
            .filter(|l| out.contains(l))
            .collect()
    }
}

/// The canonical form: words and operators without spaces, `SEND+MORE=MONEY`.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.addends.join("+"), self.result)
    }
}

/// A problem in a cryptarithm's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line, 1-based, when the puzzle came from a multi-line input.
    pub line: Option<usize>,
    /// The column, 1-based in characters, when one place is at fault.
    pub column: Option<usize>,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong with a cryptarithm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The text holds no equation at all.
    Empty,
    /// A character that is not a letter, `+`, `=` or a space.
    UnexpectedCharacter(char),
    /// There is no `=`.
    NoEquals,
    /// A second `=`.
    MoreThanOneEquals,
    /// A `+` on the right of `=`: the result must be a single word.
    PlusAfterEquals,
    /// An operator (or the end) where a word was expected.
    EmptyWord,
    /// Two words separated only by spaces.
    MissingOperator,
    /// An eleventh distinct letter.
    TooManyLetters,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => f.write_str("empty equation"),
            ParseErrorKind::UnexpectedCharacter(c) => write!(f, "unexpected character {c:?}"),
            ParseErrorKind::NoEquals => f.write_str("no '=' in the equation"),
            ParseErrorKind::MoreThanOneEquals => f.write_str("more than one '='"),
            ParseErrorKind::PlusAfterEquals => {
                f.write_str("'+' after '=' (the result must be a single word)")
            }
            ParseErrorKind::EmptyWord => f.write_str("empty word (expected letters)"),
            ParseErrorKind::MissingOperator => f.write_str("missing '+' or '=' between two words"),
            ParseErrorKind::TooManyLetters => write!(
                f,
                "more than {MAX_LETTERS} distinct letters (each letter needs its own digit)"
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: {}", self.kind),
            (Some(line), None) => write!(f, "line {line}: {}", self.kind),
            (None, Some(column)) => write!(f, "column {column}: {}", self.kind),
            (None, None) => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one equation; see the [module documentation](self) for the format.
impl std::str::FromStr for Puzzle {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        parse_equation(text)
    }
}

/// Parses one equation (errors carry a column but no line).
///
/// # Errors
/// See the [module documentation](self).
pub fn parse_equation(text: &str) -> Result<Puzzle, ParseError> {
    let fail = |column: Option<usize>, kind| ParseError {
        line: None,
        column,
        kind,
    };
    let mut words: Vec<String> = Vec::new();
    let mut letters: Vec<char> = Vec::new();
    let mut word = String::new();
    let mut word_ended = false; // a space followed the current word
    let mut equals = false;
    let mut columns = 0;
    for (i, c) in text.chars().enumerate() {
        let column = i + 1;
        columns = column;
        match c {
            'A'..='Z' | 'a'..='z' => {
                if word_ended {
                    return Err(fail(Some(column), ParseErrorKind::MissingOperator));
                }
                let upper = c.to_ascii_uppercase();
                if !letters.contains(&upper) {
                    if letters.len() == MAX_LETTERS {
                        return Err(fail(Some(column), ParseErrorKind::TooManyLetters));
                    }
                    letters.push(upper);
                }
                word.push(upper);
            }
            ' ' | '\t' => word_ended = !word.is_empty(),
            '+' | '=' => {
                if c == '+' && equals {
                    return Err(fail(Some(column), ParseErrorKind::PlusAfterEquals));
                }
                if c == '=' && equals {
                    return Err(fail(Some(column), ParseErrorKind::MoreThanOneEquals));
                }
                if word.is_empty() {
                    return Err(fail(Some(column), ParseErrorKind::EmptyWord));
                }
                equals |= c == '=';
                words.push(std::mem::take(&mut word));
                word_ended = false;
            }
            _ => return Err(fail(Some(column), ParseErrorKind::UnexpectedCharacter(c))),
        }
    }
    // Errors found at the end point just past the last character.
    if words.is_empty() && word.is_empty() {
        return Err(fail(Some(columns + 1), ParseErrorKind::Empty));
    }
    if !equals {
        return Err(fail(Some(columns + 1), ParseErrorKind::NoEquals));
    }
    if word.is_empty() {
        return Err(fail(Some(columns + 1), ParseErrorKind::EmptyWord));
    }
    Ok(Puzzle {
        addends: words,
        result: word,
        letters,
    })
}

/// One puzzle line of a multi-line input: its line number and the puzzle or error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line, 1-based.
    pub line: usize,
    /// The puzzle on that line, or what was wrong with it (the error carries the line).
    pub result: Result<Puzzle, ParseError>,
}

/// One [`Entry`] per equation in `input`, one equation per line; blank lines and
/// lines starting with `#` are skipped. Leading and trailing whitespace is ignored
/// (columns still count from the start of the line).
///
/// ```
/// use csp_cryptarithm::puzzle::entries;
///
/// let found: Vec<_> = entries("# demo\nSEND+MORE=MONEY\n\nA+B\n").collect();
/// assert_eq!(found[0].line, 2);
/// assert_eq!(found[1].result.as_ref().unwrap_err().to_string(), "line 4, column 4: no '=' in the equation");
/// ```
pub fn entries(input: &str) -> impl Iterator<Item = Entry> + '_ {
    input.lines().enumerate().filter_map(|(i, text)| {
        let body = text.trim();
        if body.is_empty() || body.starts_with('#') {
            return None;
        }
        let line = i + 1;
        let result = parse_equation(text.trim_end()).map_err(|mut e| {
            e.line = Some(line);
            e
        });
        Some(Entry { line, result })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<Puzzle>().unwrap_err().to_string()
    }

    #[test]
    fn spaces_case_and_many_addends() {
        let p: Puzzle = "  a +b\t+ c=  ABC ".parse().unwrap();
        assert_eq!(p.addends(), ["A", "B", "C"]);
        assert_eq!(p.result(), "ABC");
        assert_eq!(p.letters(), ['A', 'B', 'C']);
        assert_eq!(p.leading_letters(), ['A']);
        assert_eq!(p.letter_index('c'), Some(2));
        let p: Puzzle = "A=B".parse().unwrap();
        assert_eq!((p.addends().len(), p.result()), (1, "B"));
    }

    #[test]
    fn every_error_names_its_column() {
        assert_eq!(err(""), "column 1: empty equation");
        assert_eq!(err("   "), "column 4: empty equation");
        assert_eq!(err("SEND+MORE"), "column 10: no '=' in the equation");
        assert_eq!(err("A+B=C=D"), "column 6: more than one '='");
        assert_eq!(
            err("A=B+C"),
            "column 4: '+' after '=' (the result must be a single word)"
        );
        assert_eq!(err("A++B=C"), "column 3: empty word (expected letters)");
        assert_eq!(err("+A=B"), "column 1: empty word (expected letters)");
        assert_eq!(err("=AB"), "column 1: empty word (expected letters)");
        assert_eq!(err("A+B="), "column 5: empty word (expected letters)");
        assert_eq!(err("A+B= "), "column 6: empty word (expected letters)");
        assert_eq!(
            err("SE ND+A=B"),
            "column 4: missing '+' or '=' between two words"
        );
        assert_eq!(err("A-B=C"), "column 2: unexpected character '-'");
        assert_eq!(err("AÄ=C"), "column 2: unexpected character 'Ä'");
        assert_eq!(
            err("ABCDE+FGHIJ=KA"),
            "column 13: more than 10 distinct letters (each letter needs its own digit)"
        );
        // Ten letters are fine, repeated as often as needed.
        assert!("ABCDE+FGHIJ=JIHGFEDCBAABCDE".parse::<Puzzle>().is_ok());
    }

    #[test]
    fn entries_number_lines() {
        let all: Vec<Entry> = entries("\n  # c\nA+B=C\n X+=Y \n").collect();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].line, 3);
        assert_eq!(
            all[1].result.as_ref().unwrap_err().to_string(),
            "line 4, column 4: empty word (expected letters)"
        );
    }
}
