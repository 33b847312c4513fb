//! The framing shared by every proof encoding: a 6-byte magic, a version
//! byte, then the postcard encoding of the proof object, with nothing after.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::VerifyError;

/// `magic || version || postcard(value)`.
pub(crate) fn encode<T: Serialize>(magic: &[u8; 6], version: u8, value: &T) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.push(version);
    out.extend(postcard::to_allocvec(value).expect("in-memory serialization cannot fail"));
    out
}

/// Strict inverse of [`encode`]: wrong magic, unknown version, undecodable
/// body and trailing bytes are all typed errors.
pub(crate) fn decode<T: DeserializeOwned>(
    magic: &[u8; 6],
    version: u8,
    bytes: &[u8],
    what: &str,
) -> Result<T, VerifyError> {
    let body = bytes
        .strip_prefix(magic.as_slice())
        .ok_or_else(|| VerifyError::Malformed(format!("not a sigagg {what}")))?;
    match body.split_first() {
        Some((&v, rest)) if v == version => {
            let (value, tail) = postcard::take_from_bytes::<T>(rest)
                .map_err(|e| VerifyError::Malformed(format!("undecodable {what}: {e}")))?;
            if !tail.is_empty() {
                return Err(VerifyError::Malformed(format!(
                    "{} trailing bytes",
                    tail.len()
                )));
            }
            Ok(value)
        }
        Some((v, _)) => Err(VerifyError::Malformed(format!(
            "unsupported {what} version {v}"
        ))),
        None => Err(VerifyError::Malformed("truncated header".into())),
    }
}
