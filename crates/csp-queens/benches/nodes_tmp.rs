use csp_queens::bitboard;
fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let n: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let c = if which == "mirror" {
        bitboard::count_mirror(n).unwrap()
    } else {
        bitboard::count(n, 1).unwrap()
    };
    println!("{c}");
}
