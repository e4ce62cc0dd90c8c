//! The messages as MPI sends them: arrays of `u64`, or bytes.
//!
//! * counts (tag [`COUNTS`]): `index, low 64 bits, high 64 bits` per count;
//! * a failure (tag [`FAILED`]): the index (8 bytes, little-endian), then
//!   the message in UTF-8;
//! * a batch (tag [`BATCH`]): the indices.

/// The tag of a worker's counts (a request).
pub const COUNTS: i32 = 1;
/// The tag of a worker's failure report.
pub const FAILED: i32 = 2;
/// The tag of a batch from the master.
pub const BATCH: i32 = 3;

/// Encodes counts.
pub fn encode_counts(counts: &[(usize, u128)]) -> Vec<u64> {
    counts
        .iter()
        .flat_map(|&(i, c)| [i as u64, c as u64, (c >> 64) as u64])
        .collect()
}

/// Decodes counts; `None` if the length is not a multiple of 3.
pub fn decode_counts(words: &[u64]) -> Option<Vec<(usize, u128)>> {
    if !words.len().is_multiple_of(3) {
        return None;
    }
    words
        .chunks_exact(3)
        .map(|w| {
            let i = usize::try_from(w[0]).ok()?;
            Some((i, u128::from(w[1]) | (u128::from(w[2]) << 64)))
        })
        .collect()
}

/// Encodes a failure.
pub fn encode_failure(index: usize, why: &str) -> Vec<u8> {
    let mut bytes = (index as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(why.as_bytes());
    bytes
}

/// Decodes a failure; `None` if shorter than the index.
pub fn decode_failure(bytes: &[u8]) -> Option<(usize, String)> {
    let index: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
    let index = usize::try_from(u64::from_le_bytes(index)).ok()?;
    Some((index, String::from_utf8_lossy(&bytes[8..]).into_owned()))
}

/// Encodes a batch.
pub fn encode_batch(batch: &[usize]) -> Vec<u64> {
    batch.iter().map(|&i| i as u64).collect()
}

/// Decodes a batch; `None` for an index that does not fit a `usize`.
pub fn decode_batch(words: &[u64]) -> Option<Vec<usize>> {
    words.iter().map(|&w| usize::try_from(w).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let counts = [(0, 0), (7, u128::MAX), (123_456, 1 << 70)];
        assert_eq!(decode_counts(&encode_counts(&counts)).unwrap(), counts);
        assert_eq!(decode_counts(&[1, 2]), None);
        assert_eq!(
            decode_failure(&encode_failure(42, "no")).unwrap(),
            (42, "no".to_string())
        );
        assert_eq!(decode_failure(&[1, 2]), None);
        assert_eq!(decode_batch(&encode_batch(&[3, 1, 4])).unwrap(), [3, 1, 4]);
    }
}
