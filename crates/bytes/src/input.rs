//! Checks of call arguments shared by the modules: fixed-length byte
//! strings, per-item decoding of lists, and lists that may give one value
//! for all entries.

use crate::error::{Error, ErrorKind, Result};

/// `bytes` as an array of exactly `N` bytes, or an argument error naming `what`.
pub(crate) fn array<const N: usize>(bytes: &[u8], what: &str) -> Result<[u8; N]> {
    bytes.try_into().map_err(|_| Error::argument(format!("{what} must be {N} bytes, got {}", bytes.len())))
}

/// Decodes `bytes` with `decode`. Every failure is an
/// [`ErrorKind::Decode`] error, whatever the typed error's usual kind (a
/// group key of size zero is a decoding failure here, a bad argument when
/// a group is formed).
pub(crate) fn decode<T, E: Into<Error>>(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> std::result::Result<T, E>,
) -> Result<T> {
    decode(bytes).map_err(|e| e.into().with_kind(ErrorKind::Decode))
}

/// Decodes every item of `items` with `decode` (see [`decode`]); a
/// failure names the item (`"{what} {index}: ..."`).
pub(crate) fn decode_each<T, E: Into<Error>>(
    items: &[&[u8]],
    what: &str,
    decode: impl Fn(&[u8]) -> std::result::Result<T, E>,
) -> Result<Vec<T>> {
    items
        .iter()
        .enumerate()
        .map(|(i, bytes)| self::decode(bytes, &decode).map_err(|e| e.context(format!("{what} {i}"))))
        .collect()
}

/// `values` for `n` entries: one value per entry, or one for all of them.
pub(crate) fn per_entry<T: Clone>(values: &[T], n: usize, what: &str) -> Result<Vec<T>> {
    match values {
        [one] => Ok(vec![one.clone(); n]),
        many if many.len() == n => Ok(many.to_vec()),
        _ => {
            Err(Error::argument(format!("give one {what} for all {n} entries, or one per entry; got {}", values.len())))
        }
    }
}

/// An argument error unless `a` and `b` have the same length.
pub(crate) fn same_length(a: (&str, usize), b: (&str, usize)) -> Result<()> {
    if a.1 == b.1 { Ok(()) } else { Err(Error::argument(format!("{} {} but {} {}", a.1, a.0, b.1, b.0))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_entry_broadcasts_one_value_and_checks_lengths() {
        assert_eq!(per_entry(&[7], 3, "epoch").unwrap(), vec![7, 7, 7]);
        assert_eq!(per_entry(&[1, 2, 3], 3, "epoch").unwrap(), vec![1, 2, 3]);
        assert!(per_entry::<u32>(&[], 3, "epoch").is_err());
        assert!(per_entry(&[1, 2], 3, "epoch").is_err());
    }

    #[test]
    fn arrays_and_lists_report_what_is_wrong() {
        assert_eq!(array::<2>(&[1, 2], "x").unwrap(), [1, 2]);
        assert!(array::<2>(&[1], "x").unwrap_err().message().contains("x must be 2 bytes, got 1"));
        let e = decode_each(&[&[1u8][..], &[][..]], "item", |b| {
            if b.is_empty() { Err(Error::argument("empty")) } else { Ok(b[0]) }
        })
        .unwrap_err();
        assert_eq!(e.message(), "item 1: empty");
        assert_eq!(e.kind(), ErrorKind::Decode);
        assert!(same_length(("keys", 2), ("signatures", 3)).is_err());
    }
}
