//! The packed body format: a serde data format that writes a proof as a
//! bit string, every field element in 31 bits.
//!
//! A KoalaBear element is below `2^31`, and Plonky3 serializes it for
//! binary formats as its 4 raw little-endian bytes (a serde tuple of four
//! `u8`). A byte-aligned format spends 32 bits on it; field elements are
//! most of a proof that is not Merkle digests, so the 32nd bits are about
//! 2% of a proof.
//! This format writes such a tuple in 31 bits and everything else as a
//! byte-oriented format would, only not aligned:
//!
//! * a tuple of four `u8` (what `[u8; 4]` serializes as): 31 bits, the
//!   little-endian value; encoding refuses a value of `2^31` or more;
//! * other `u8`: 8 bits; `bool` and the `Option` tag: 1 bit;
//! * wider integers, sequence and map lengths, enum variant indices:
//!   bincode's variable-length integers (below 251 one byte, else a marker
//!   byte and 2, 4, 8 or 16 bytes; signed ones zigzagged), as bytes;
//! * floats: their bits; strings and byte strings: a length, then bytes;
//!   tuples, structs and arrays: their elements in order, no length.
//!
//! Bits are written least-significant first (bit `i` of the stream is bit
//! `i % 8` of byte `i / 8`) and the last byte is padded with zeros.
//!
//! Whether a four-tuple is a packed word is decided by its first element
//! alone, in the serializer and the deserializer alike: a tuple of length
//! four (serde's `tuple`, what arrays and Rust tuples use; never a struct,
//! tuple struct or enum variant) whose first element is serialized by
//! `serialize_u8` (and decoded by `deserialize_u8`) must be four bytes.
//! Every `[u8; 4]` in sigagg's proofs is a field element; a four-tuple
//! that starts with a byte and goes on with anything else is refused by
//! both sides. The tuple reads its elements through two stateless
//! helpers, `ByteCapture` and `ByteFeed`, so a word costs four calls that
//! each inline to a move.
//!
//! The format is not self-describing (`deserialize_any` is refused), like
//! bincode. Decoding reads only what the types ask for: every primitive
//! but the unit consumes input, and every element of a sequence or map
//! (whose length the input claims) counts against a budget, so a length
//! prefix cannot make it loop or allocate beyond the input and the
//! budget.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// Why a value could not be encoded or decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, Error>;

/// Bits in a packed word: every value below `2^31`, the field's elements
/// among them.
pub const WORD_BITS: u32 = 31;

/// bincode's variable-length integer markers: a value below
/// [`SINGLE_BYTE_MAX`] + 1 is its own byte, else a marker byte announces
/// 2, 4, 8 or 16 little-endian bytes.
const SINGLE_BYTE_MAX: u8 = 250;
const U16_MARKER: u8 = 251;
const U32_MARKER: u8 = 252;
const U64_MARKER: u8 = 253;
const U128_MARKER: u8 = 254;

/// A four-tuple's mode, decided by its first element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A four-tuple before its first element.
    Unknown,
    /// A packed word: every element is a byte.
    Word,
    /// Anything else: elements in order.
    Plain,
}

fn not_four_bytes() -> Error {
    Error("a four-tuple that starts with a byte must be four bytes".into())
}

// ---------------------------------------------------------------- writing

/// Appends bits, least-significant first.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    len: u32,
}

impl BitWriter {
    /// Appends the low `bits` bits of `value` (at most 32); whole 32-bit
    /// groups go to the output, the rest (under 32 bits) waits in `acc`.
    #[inline]
    fn put(&mut self, value: u32, bits: u32) {
        debug_assert!(bits <= 32 && (bits == 32 || value >> bits == 0));
        self.acc |= u64::from(value) << self.len;
        self.len += bits;
        if self.len >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.len -= 32;
        }
    }

    fn put_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.put(u32::from(b), 8);
        }
    }

    fn bit_len(&self) -> usize {
        self.out.len() * 8 + self.len as usize
    }

    fn finish(mut self) -> Vec<u8> {
        let tail = self.len.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..tail]);
        self.out
    }
}

/// The packed encoding of `value`.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    Ok(written(value)?.finish())
}

/// The length of `value`'s packed encoding in bits (before padding).
pub fn bit_len<T: Serialize + ?Sized>(value: &T) -> Result<usize> {
    Ok(written(value)?.bit_len())
}

/// The bits of `value`, before padding.
fn written<T: Serialize + ?Sized>(value: &T) -> Result<BitWriter> {
    let mut ser = Serializer { w: BitWriter::default() };
    value.serialize(&mut ser)?;
    Ok(ser.w)
}

struct Serializer {
    w: BitWriter,
}

impl Serializer {
    fn varint(&mut self, v: u128) {
        if v <= u128::from(SINGLE_BYTE_MAX) {
            self.w.put(v as u32, 8);
        } else if let Ok(v) = u16::try_from(v) {
            self.w.put(u32::from(U16_MARKER), 8);
            self.w.put_bytes(&v.to_le_bytes());
        } else if let Ok(v) = u32::try_from(v) {
            self.w.put(u32::from(U32_MARKER), 8);
            self.w.put_bytes(&v.to_le_bytes());
        } else if let Ok(v) = u64::try_from(v) {
            self.w.put(u32::from(U64_MARKER), 8);
            self.w.put_bytes(&v.to_le_bytes());
        } else {
            self.w.put(u32::from(U128_MARKER), 8);
            self.w.put_bytes(&v.to_le_bytes());
        }
    }

    fn unsigned(&mut self, v: u128) -> Result<()> {
        self.varint(v);
        Ok(())
    }

    fn signed(&mut self, v: i128) -> Result<()> {
        self.unsigned(((v << 1) ^ (v >> 127)) as u128)
    }

    fn length(&mut self, len: Option<usize>) -> Result<()> {
        let len = len.ok_or_else(|| Error("sequences and maps must know their length".into()))?;
        self.unsigned(len as u128)
    }

    /// A tuple's elements: a four-tuple may be a word.
    fn tuple(&mut self, len: usize) -> Compound<'_> {
        let mode = if len == 4 { Mode::Unknown } else { Mode::Plain };
        Compound { ser: self, mode, index: 0, word: 0 }
    }

    /// Any other compound's elements.
    fn fields(&mut self) -> Compound<'_> {
        Compound { ser: self, mode: Mode::Plain, index: 0, word: 0 }
    }
}

/// Every compound value: its elements in order; a four-tuple whose first
/// element is a byte is a word, its bytes gathered in `word` and written
/// as 31 bits after the fourth.
struct Compound<'a> {
    ser: &'a mut Serializer,
    mode: Mode,
    /// Bytes of the word gathered so far.
    index: u32,
    word: u32,
}

impl Compound<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self.mode {
            Mode::Plain => value.serialize(&mut *self.ser),
            Mode::Unknown => match value.serialize(ByteCapture) {
                Ok(byte) => {
                    (self.mode, self.index, self.word) = (Mode::Word, 1, u32::from(byte));
                    Ok(())
                }
                Err(NotAByte) => {
                    self.mode = Mode::Plain;
                    value.serialize(&mut *self.ser)
                }
            },
            Mode::Word => {
                let byte = value.serialize(ByteCapture).map_err(|_| not_four_bytes())?;
                if self.index == 4 {
                    return Err(not_four_bytes());
                }
                self.word |= u32::from(byte) << (8 * self.index);
                self.index += 1;
                if self.index == 4 {
                    let word = self.word;
                    if word >> WORD_BITS != 0 {
                        return Err(Error(format!("the four-byte word {word:#x} does not fit {WORD_BITS} bits")));
                    }
                    self.ser.w.put(word, WORD_BITS);
                }
                Ok(())
            }
        }
    }

    fn end(self) -> Result<()> {
        match self.mode {
            Mode::Word if self.index != 4 => Err(not_four_bytes()),
            _ => Ok(()),
        }
    }
}

/// The compound serializer traits, every one writing its elements through
/// [`Compound::element`]; a struct's field names are not written.
macro_rules! compound_impls {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                Compound::end(self)
            }
        }
    )*};
    ($($trait:ident :: $method:ident with key),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, _key: &'static str, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                Compound::end(self)
            }
        }
    )*};
}
compound_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);
compound_impls!(SerializeStruct::serialize_field with key, SerializeStructVariant::serialize_field with key);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.element(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}

/// The `serialize_*` and `deserialize_*` methods of integers written as
/// varints: each goes through `signed` (zigzagged) or `unsigned`.
macro_rules! varints {
    ($($method:ident ($ty:ty) by $write:ident),* $(,)?) => {$(
        fn $method(self, v: $ty) -> Result<()> {
            self.$write(v.into())
        }
    )*};
    ($($method:ident => $visit:ident by $read:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.$read()?)
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.w.put(u32::from(v), 8);
        Ok(())
    }

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.w.put(u32::from(v), 1);
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.w.put(u32::from(v as u8), 8);
        Ok(())
    }

    varints!(
        serialize_i16(i16) by signed, serialize_i32(i32) by signed, serialize_i64(i64) by signed,
        serialize_i128(i128) by signed, serialize_u16(u16) by unsigned, serialize_u32(u32) by unsigned,
        serialize_u64(u64) by unsigned, serialize_u128(u128) by unsigned,
    );

    fn serialize_f32(self, v: f32) -> Result<()> {
        self.w.put(v.to_bits(), 32);
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        self.w.put_bytes(&v.to_bits().to_le_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.unsigned(u32::from(v).into())
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        self.serialize_bytes(v.as_bytes())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.length(Some(v.len()))?;
        self.w.put_bytes(v);
        Ok(())
    }

    fn serialize_none(self) -> Result<()> {
        self.w.put(0, 1);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.w.put(1, 1);
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(())
    }

    fn serialize_unit_variant(self, _name: &'static str, index: u32, _variant: &'static str) -> Result<()> {
        self.unsigned(index.into())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.unsigned(index.into())?;
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.length(len)?;
        Ok(self.fields())
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        Ok(self.tuple(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>> {
        Ok(self.fields())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        self.unsigned(index.into())?;
        Ok(self.fields())
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.length(len)?;
        Ok(self.fields())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>> {
        Ok(self.fields())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        self.unsigned(index.into())?;
        Ok(self.fields())
    }
}

/// The value serialized was not a lone `u8` ([`ByteCapture`]).
#[derive(Debug)]
struct NotAByte;

impl fmt::Display for NotAByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a byte")
    }
}

impl std::error::Error for NotAByte {}

impl ser::Error for NotAByte {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        NotAByte
    }
}

/// A serializer that accepts one `u8` and returns it, refusing everything
/// else: how a four-tuple's elements are read into its word, with no
/// state to keep between calls.
struct ByteCapture;

macro_rules! not_a_byte {
    ($($method:ident ($($arg:ident : $ty:ty),*)),* $(,)?) => {$(
        fn $method(self, $($arg: $ty),*) -> std::result::Result<u8, NotAByte> {
            $(let _ = $arg;)*
            Err(NotAByte)
        }
    )*};
}

impl ser::Serializer for ByteCapture {
    type Ok = u8;
    type Error = NotAByte;
    type SerializeSeq = ser::Impossible<u8, NotAByte>;
    type SerializeTuple = ser::Impossible<u8, NotAByte>;
    type SerializeTupleStruct = ser::Impossible<u8, NotAByte>;
    type SerializeTupleVariant = ser::Impossible<u8, NotAByte>;
    type SerializeMap = ser::Impossible<u8, NotAByte>;
    type SerializeStruct = ser::Impossible<u8, NotAByte>;
    type SerializeStructVariant = ser::Impossible<u8, NotAByte>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> std::result::Result<u8, NotAByte> {
        Ok(v)
    }

    not_a_byte!(
        serialize_bool(v: bool), serialize_i8(v: i8), serialize_i16(v: i16), serialize_i32(v: i32),
        serialize_i64(v: i64), serialize_i128(v: i128), serialize_u16(v: u16), serialize_u32(v: u32),
        serialize_u64(v: u64), serialize_u128(v: u128), serialize_f32(v: f32), serialize_f64(v: f64),
        serialize_char(v: char), serialize_str(v: &str), serialize_bytes(v: &[u8]), serialize_none(),
        serialize_unit(), serialize_unit_struct(name: &'static str),
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> std::result::Result<u8, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> std::result::Result<u8, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> std::result::Result<u8, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_seq(self, _len: Option<usize>) -> std::result::Result<Self::SerializeSeq, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_tuple(self, _len: usize) -> std::result::Result<Self::SerializeTuple, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> std::result::Result<Self::SerializeTupleStruct, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> std::result::Result<Self::SerializeTupleVariant, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_map(self, _len: Option<usize>) -> std::result::Result<Self::SerializeMap, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> std::result::Result<Self::SerializeStruct, NotAByte> {
        Err(NotAByte)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> std::result::Result<Self::SerializeStructVariant, NotAByte> {
        Err(NotAByte)
    }
}

// ---------------------------------------------------------------- reading

/// Reads bits, least-significant first, and keeps the budget of sequence
/// elements.
struct BitReader<'a> {
    input: &'a [u8],
    pos: usize,
    budget: usize,
}

impl BitReader<'_> {
    /// Charges `units` sequence elements (or bytes of a byte string) to
    /// the budget.
    #[inline]
    fn charge(&mut self, units: usize) -> Result<()> {
        self.budget = self.budget.checked_sub(units).ok_or_else(|| Error("the decoding limit was reached".into()))?;
        Ok(())
    }

    /// The next `bits` bits (at most 32) as an integer.
    #[inline]
    fn take(&mut self, bits: u32) -> Result<u32> {
        debug_assert!(bits <= 32);
        let end = self.pos + bits as usize;
        if end > self.input.len() * 8 {
            return Err(Error("unexpected end of input".into()));
        }
        let (byte, shift) = (self.pos / 8, self.pos % 8);
        let chunk = match self.input.get(byte..byte + 8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight bytes")),
            None => {
                let mut chunk = [0u8; 8];
                chunk[..self.input.len() - byte].copy_from_slice(&self.input[byte..]);
                u64::from_le_bytes(chunk)
            }
        };
        self.pos = end;
        Ok(((chunk >> shift) & ((1u64 << bits) - 1)) as u32)
    }

    #[inline]
    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(8)? as u8)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        for b in &mut out {
            *b = self.byte()?;
        }
        Ok(out)
    }
}

/// Decodes one `T` from the start of `input`, returning it with the number
/// of bits read; at most `budget` sequence and map elements (and bytes of
/// byte strings) are read.
pub fn from_bytes<'de, T: de::Deserialize<'de>>(input: &[u8], budget: usize) -> Result<(T, usize)> {
    let mut de = Deserializer { r: BitReader { input, pos: 0, budget } };
    let value = T::deserialize(&mut de)?;
    Ok((value, de.r.pos))
}

struct Deserializer<'a> {
    r: BitReader<'a>,
}

impl<'b> Deserializer<'b> {
    fn varint(&mut self) -> Result<u128> {
        Ok(match self.r.byte()? {
            b @ 0..=SINGLE_BYTE_MAX => b.into(),
            U16_MARKER => u16::from_le_bytes(self.r.bytes()?).into(),
            U32_MARKER => u32::from_le_bytes(self.r.bytes()?).into(),
            U64_MARKER => u64::from_le_bytes(self.r.bytes()?).into(),
            U128_MARKER => u128::from_le_bytes(self.r.bytes()?),
            _ => return Err(Error("invalid integer marker".into())),
        })
    }

    fn unsigned<T: TryFrom<u128>>(&mut self) -> Result<T> {
        T::try_from(self.varint()?).map_err(|_| Error("integer out of range".into()))
    }

    fn signed<T: TryFrom<i128>>(&mut self) -> Result<T> {
        let z = self.varint()?;
        let v = ((z >> 1) as i128) ^ -((z & 1) as i128);
        T::try_from(v).map_err(|_| Error("integer out of range".into()))
    }

    fn length(&mut self) -> Result<usize> {
        self.unsigned()
    }

    fn bool_bit(&mut self) -> Result<bool> {
        Ok(self.r.take(1)? == 1)
    }

    fn byte_string(&mut self) -> Result<Vec<u8>> {
        let len = self.length()?;
        self.r.charge(len)?;
        let mut out = Vec::with_capacity(len.min(self.r.input.len()));
        for _ in 0..len {
            out.push(self.r.byte()?);
        }
        Ok(out)
    }

    /// A tuple's elements: a four-tuple may be a word.
    fn tuple(&mut self, len: usize) -> Access<'_, 'b> {
        let mode = if len == 4 { Mode::Unknown } else { Mode::Plain };
        Access { de: self, mode, index: 0, len, counted: false, word: 0 }
    }

    /// A struct's, tuple struct's or variant's `len` fields.
    fn fields(&mut self, len: usize) -> Access<'_, 'b> {
        Access { de: self, mode: Mode::Plain, index: 0, len, counted: false, word: 0 }
    }

    /// A sequence's or map's elements, `len` read from the input.
    fn counted(&mut self) -> Result<Access<'_, 'b>> {
        let len = self.length()?;
        Ok(Access { de: self, mode: Mode::Plain, index: 0, len, counted: true, word: 0 })
    }
}

/// The reading side of [`Compound`].
struct Access<'a, 'b> {
    de: &'a mut Deserializer<'b>,
    mode: Mode,
    index: usize,
    len: usize,
    /// Whether the input claimed `len` (a sequence or map), so that each
    /// element is charged to the budget; a tuple's or struct's length is
    /// its type's.
    counted: bool,
    /// The packed word, read at its first byte.
    word: u32,
}

impl<'de> de::SeqAccess<'de> for Access<'_, '_> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        if self.counted {
            self.de.r.charge(1)?;
        }
        let value = match self.mode {
            Mode::Plain => seed.deserialize(&mut *self.de)?,
            Mode::Unknown => {
                let mut word = None;
                let value = seed.deserialize(Probe { de: &mut *self.de, word: &mut word })?;
                match word {
                    Some(word) => (self.mode, self.word) = (Mode::Word, word),
                    None => self.mode = Mode::Plain,
                }
                value
            }
            Mode::Word => seed.deserialize(ByteFeed((self.word >> (8 * self.index)) as u8))?,
        };
        self.index += 1;
        Ok(Some(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.index)
    }
}

impl<'de> de::MapAccess<'de> for Access<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        self.de.r.charge(1)?;
        self.index += 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.index)
    }
}

impl<'de> de::EnumAccess<'de> for &mut Deserializer<'_> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let index: u32 = self.unsigned()?;
        let value = seed.deserialize(index.into_deserializer())?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Deserializer<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.fields(len))
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.fields(fields.len()))
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'_> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error("the packed format is not self-describing".into()))
    }

    #[inline]
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u8(self.r.byte()?)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_bool(self.bool_bit()?)
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i8(self.r.byte()? as i8)
    }

    varints!(
        deserialize_i16 => visit_i16 by signed, deserialize_i32 => visit_i32 by signed,
        deserialize_i64 => visit_i64 by signed, deserialize_i128 => visit_i128 by signed,
        deserialize_u16 => visit_u16 by unsigned, deserialize_u32 => visit_u32 by unsigned,
        deserialize_u64 => visit_u64 by unsigned,
    );

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u128(self.varint()?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(f32::from_bits(self.r.take(32)?))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(f64::from_bits(u64::from_le_bytes(self.r.bytes()?)))
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let c = char::from_u32(self.unsigned()?).ok_or_else(|| Error("invalid char".into()))?;
        visitor.visit_char(c)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = String::from_utf8(self.byte_string()?).map_err(|_| Error("invalid UTF-8".into()))?;
        visitor.visit_string(s)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_byte_buf(self.byte_string()?)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.bool_bit()? { visitor.visit_some(self) } else { visitor.visit_none() }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.counted()?)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.tuple(len))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_seq(self.fields(len))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(self.counted()?)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_seq(self.fields(fields.len()))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error("the packed format has no identifiers".into()))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(Error("the packed format is not self-describing".into()))
    }
}

/// The deserializer a four-tuple hands its first element: a `u8` there
/// starts a word (31 bits read at once, kept in `word`); anything else is
/// read as usual and the tuple is plain.
struct Probe<'p, 'b> {
    de: &'p mut Deserializer<'b>,
    word: &'p mut Option<u32>,
}

macro_rules! forward {
    ($($method:ident ($($arg:ident : $ty:ty),*)),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.de.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Probe<'_, '_> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let word = self.de.r.take(WORD_BITS)?;
        *self.word = Some(word);
        visitor.visit_u8(word as u8)
    }

    forward!(
        deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(), deserialize_i32(),
        deserialize_i64(), deserialize_i128(), deserialize_u16(), deserialize_u32(), deserialize_u64(),
        deserialize_u128(), deserialize_f32(), deserialize_f64(), deserialize_char(), deserialize_str(),
        deserialize_string(), deserialize_bytes(), deserialize_byte_buf(), deserialize_option(),
        deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str), deserialize_seq(), deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize), deserialize_map(),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(), deserialize_ignored_any(),
    );
}

/// The deserializer a word hands its later elements: the byte it already
/// holds, for a `u8`; anything else is refused, as the serializer refuses
/// it.
struct ByteFeed(u8);

macro_rules! refuse {
    ($($method:ident ($($arg:ident : $ty:ty),*)),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* _visitor: V) -> Result<V::Value> {
            $(let _ = $arg;)*
            Err(not_four_bytes())
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ByteFeed {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u8(self.0)
    }

    refuse!(
        deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(), deserialize_i32(),
        deserialize_i64(), deserialize_i128(), deserialize_u16(), deserialize_u32(), deserialize_u64(),
        deserialize_u128(), deserialize_f32(), deserialize_f64(), deserialize_char(), deserialize_str(),
        deserialize_string(), deserialize_bytes(), deserialize_byte_buf(), deserialize_option(),
        deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str), deserialize_seq(), deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize), deserialize_map(),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
        deserialize_identifier(), deserialize_ignored_any(),
    );
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + fmt::Debug>(value: &T) -> Vec<u8> {
        let bytes = to_bytes(value).unwrap();
        let (decoded, read) = from_bytes::<T>(&bytes, 1 << 20).unwrap();
        assert_eq!(&decoded, value);
        assert_eq!(read, bit_len(value).unwrap());
        assert_eq!(read.div_ceil(8), bytes.len());
        bytes
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum Shape {
        Unit,
        Newtype([u8; 4]),
        Tuple(u8, [u8; 4]),
        Struct { flag: bool, words: Vec<[u8; 4]> },
    }

    /// A four-byte array takes 31 bits; other arrays, tuples and
    /// sequences of bytes take 8 bits a byte.
    #[test]
    fn words_take_31_bits() {
        assert_eq!(bit_len(&[7u8, 0, 0, 0]).unwrap(), 31);
        assert_eq!(bit_len(&[[1u8, 2, 3, 4]; 3]).unwrap(), 93);
        assert_eq!(bit_len(&[1u8, 2, 3]).unwrap(), 24);
        assert_eq!(bit_len(&[1u8; 5]).unwrap(), 40);
        // A sequence is never a word, whatever its length.
        assert_eq!(bit_len(&vec![1u8; 4]).unwrap(), 8 + 32);
        // Four-tuples whose first element is not a byte are plain.
        assert_eq!(bit_len(&(1u16, 2u8, 3u8, 4u8)).unwrap(), 32);
        assert_eq!(bit_len(&(true, 2u8, 3u8, 4u8)).unwrap(), 25);
        // Nested: four words.
        assert_eq!(bit_len(&[[0u8; 4]; 4]).unwrap(), 4 * 31);
        // Structs, tuple structs and variants are never words.
        #[derive(Serialize)]
        struct Four(u8, u8, u8, u8);
        assert_eq!(bit_len(&Four(1, 2, 3, 0xff)).unwrap(), 32);
        assert_eq!(bit_len(&Shape::Tuple(1, [0; 4])).unwrap(), 8 + 8 + 31);
        // A 31-byte digest.
        assert_eq!(bit_len(&[0xffu8; 31]).unwrap(), 248);
    }

    /// Every shape of the data model round-trips, misaligned words included.
    #[test]
    fn round_trips() {
        round_trip(&[0x7fff_ffffu32.to_le_bytes(), 0u32.to_le_bytes(), 12345u32.to_le_bytes()]);
        round_trip(&(true, [1u8, 2, 3, 0x40], Some(5u8), None::<u64>, -3i32, 70000u32, u64::MAX, i128::MIN));
        round_trip(&vec![Shape::Unit, Shape::Newtype([9, 9, 9, 9]), Shape::Tuple(3, [4, 5, 6, 7])]);
        round_trip(&Shape::Struct { flag: false, words: vec![[1, 2, 3, 4]; 5] });
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Four {
            a: u8,
            b: u16,
            c: u8,
            d: [u8; 4],
        }
        round_trip(&Four { a: 0xff, b: 300, c: 0x80, d: [1, 2, 3, 4] });
        round_trip(&(String::from("sigagg"), 'x', 1.5f32, -2.25f64, (), vec![(1u16, [2u8; 4])]));
        let map: std::collections::BTreeMap<u8, [u8; 4]> = [(1, [1; 4]), (2, [2; 4])].into();
        round_trip(&map);
    }

    /// A word of `2^31` or more cannot be encoded; a four-tuple that starts
    /// with a byte and goes on with anything else is refused both ways.
    #[test]
    fn refuses_what_does_not_pack() {
        assert!(to_bytes(&[0u8, 0, 0, 0x80]).is_err());
        assert!(to_bytes(&(1u8, 2u16, 3u8, 4u8)).is_err());
        assert!(to_bytes(&(1u8, 2u8, 3u8, true)).is_err());
        let bytes = to_bytes(&[1u8, 2, 3, 4]).unwrap();
        assert!(from_bytes::<(u8, u16, u8, u8)>(&bytes, 100).is_err());
    }

    /// Truncated input, bad markers and a budget overrun are errors, and a
    /// huge length prefix reads no further than the input.
    #[test]
    fn bounded_decoding() {
        let bytes = to_bytes(&vec![[1u8, 2, 3, 4]; 8]).unwrap();
        for len in 0..bytes.len() {
            assert!(from_bytes::<Vec<[u8; 4]>>(&bytes[..len], 1 << 20).is_err(), "{len}");
        }
        assert!(from_bytes::<Vec<[u8; 4]>>(&bytes, 7).is_err());
        assert!(from_bytes::<Vec<[u8; 4]>>(&bytes, 8).is_ok());
        assert!(from_bytes::<u32>(&[255], 100).is_err());
        let mut huge = vec![U64_MARKER];
        huge.extend(u64::MAX.to_le_bytes());
        assert!(from_bytes::<Vec<u8>>(&huge, 1 << 20).is_err());
        // Zero-sized elements still cost one unit each.
        let units = to_bytes(&vec![(); 1000]).unwrap();
        assert!(from_bytes::<Vec<()>>(&units, 100).is_err());
        assert_eq!(from_bytes::<Vec<()>>(&units, 2000).unwrap().0.len(), 1000);
        // Not self-describing.
        assert!(from_bytes::<serde::de::IgnoredAny>(&bytes, 100).is_err());
    }

    /// The bit order: least-significant first across byte boundaries.
    #[test]
    fn bit_order() {
        // true (bit 0), then the word 1 in bits 1..32.
        assert_eq!(to_bytes(&(true, [1u8, 0, 0, 0])).unwrap(), vec![0b11, 0, 0, 0]);
        // A word, then a byte starting at bit 31.
        assert_eq!(to_bytes(&([0u8; 4], 0xffu8)).unwrap(), vec![0, 0, 0, 0x80, 0x7f]);
    }
}
