//! The framing mithril-stm 0.13 writes, and the small serde helpers that
//! give its exact shapes.
//!
//! `to_bytes` is the version byte `0x01` followed by the CBOR that
//! `ciborium` writes for a serde value: structs are definite maps keyed by
//! field name in declaration order (an indefinite map where mithril-stm
//! flattens a field), byte arrays and `Vec<u8>` are CBOR *arrays of
//! integers*, integers and floats take their shortest form. Using the same
//! serde shapes with the same writer gives the same bytes.
//!
//! Reading is strict: after a value is decoded and rebuilt, its encoding
//! must be the input, byte for byte. Every object therefore has exactly one
//! accepted encoding (no other integer widths, tags, trailing bytes or
//! map kinds), and a decoded object re-encodes to the bytes it came from.

use serde::de::{DeserializeOwned, Error as _, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{DecodeError, Item, MithrilError};

/// mithril-stm's `CODEC_VERSION_CBOR_V1`.
pub const VERSION_CBOR_V1: u8 = 1;

/// `0x01 ‖ CBOR(value)`.
pub(crate) fn to_cbor<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = vec![VERSION_CBOR_V1];
    // Writing to a Vec cannot fail, and every value here serializes (no
    // maps with non-string keys, no unsupported types).
    if ciborium::ser::into_writer(value, &mut out).is_err() {
        unreachable!("serializing plain data to a Vec does not fail");
    }
    out
}

/// Decodes `0x01 ‖ CBOR` into the wire shape `T` (not yet checked for canonicity).
pub(crate) fn from_cbor<T: DeserializeOwned>(bytes: &[u8], what: Item) -> Result<T, MithrilError> {
    match bytes.first() {
        Some(&VERSION_CBOR_V1) => {}
        other => return Err(MithrilError::decode(what, DecodeError::Version(other.copied()))),
    }
    ciborium::de::from_reader(&bytes[1..]).map_err(|e| MithrilError::decode(what, DecodeError::Cbor(e.to_string())))
}

/// Refuses `bytes` unless they are exactly `reencoded`.
pub(crate) fn require_canonical(bytes: &[u8], reencoded: &[u8], what: Item) -> Result<(), MithrilError> {
    if bytes == reencoded { Ok(()) } else { Err(MithrilError::decode(what, DecodeError::NotCanonical)) }
}

/// Compact JSON (what mithril-common hex-encodes for the network).
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    match serde_json::to_string(value) {
        Ok(s) => s,
        Err(_) => unreachable!("plain data always serializes to JSON"),
    }
}

/// Parses JSON into the wire shape `T`.
pub(crate) fn from_json<T: DeserializeOwned>(json: &str, what: Item) -> Result<T, MithrilError> {
    serde_json::from_str(json).map_err(|e| MithrilError::decode(what, DecodeError::Json(e.to_string())))
}

/// `N` bytes serialized as a tuple of `N` integers, as mithril-stm writes
/// its keys, signatures and proofs of possession (serde derives no impls
/// for arrays longer than 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fixed<const N: usize>(pub [u8; N]);

impl<const N: usize> Serialize for Fixed<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut t = serializer.serialize_tuple(N)?;
        for b in &self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}

struct FixedVisitor<const N: usize>;

impl<'de, const N: usize> Visitor<'de> for FixedVisitor<N> {
    type Value = Fixed<N>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{N} bytes as integers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fixed<N>, A::Error> {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = seq.next_element()?.ok_or_else(|| A::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<u8>()?.is_some() {
            return Err(A::Error::invalid_length(N + 1, &self));
        }
        Ok(Fixed(out))
    }
}

impl<'de, const N: usize> Deserialize<'de> for Fixed<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(N, FixedVisitor::<N>)
    }
}

/// A byte string (CBOR major type 2), for the one field mithril-stm 0.13
/// writes with `serde_bytes`: the outer certificate's `proof_bytes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ByteString(pub Vec<u8>);

impl Serialize for ByteString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

struct ByteStringVisitor;

impl<'de> Visitor<'de> for ByteStringVisitor {
    type Value = ByteString;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a byte string")
    }

    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<ByteString, E> {
        Ok(ByteString(v.to_vec()))
    }

    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<ByteString, E> {
        Ok(ByteString(v))
    }
}

impl<'de> Deserialize<'de> for ByteString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_byte_buf(ByteStringVisitor)
    }
}

/// A `()` field that serializes as `null` (mithril-stm's `PhantomData` hasher fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Null;
