//! From a message to the codeword that selects which sub-keys are revealed.
//!
//! 1. **Representative** (outside any circuit; the STARK verifier recomputes
//!    it natively from the public message): the first `L` bits of
//!    `SHAKE256(DOMAIN || set id || len(message) as u64 LE || message ||
//!    counter as u32 LE)`, bits read most significant first within each
//!    byte. The length prefix makes `(message, counter)` uniquely parseable;
//!    putting the counter last lets the miner absorb the message once.
//!    The representative depends on neither the key nor signer randomness:
//!    all signers of one message share one codeword, which the threshold
//!    proof uses as a single public input.
//! 2. **Mining** (seed 004, section 3.1): a counter is admissible when the
//!    representative's first `k` bits are zero. Signers take the *smallest*
//!    admissible counter, so every honest signer of a message agrees on it;
//!    verifiers accept any admissible counter up to `MAX_COUNTER` (checking
//!    minimality would cost them the whole search).
//! 3. **Codeword** (`n = m + c` bits): the `m` representative bits after the
//!    `k` zeros, then the checksum, the number of zeros among those `m` bits,
//!    in `c` bits, least significant first. Bit `i` set means sub-key `i` is
//!    revealed and hashed by the verifier.

use core::fmt;
use core::marker::PhantomData;

use p3_field::PrimeCharacteristicRing;
use rayon::prelude::*;

use crate::error::{SignError, VerifyError};
use crate::field::F;
use crate::params::{ParameterSet, check_params};
use crate::shake::{LANES, Prefix, SHAKE256_RATE};

/// Domain-separation prefix of the message hash.
pub const MESSAGE_DOMAIN: &[u8; 20] = b"sigagg/lamport+/msg1";

/// Bytes of the buffer holding a representative (`L ≤ 256` bits).
pub const REPRESENTATIVE_BYTES: usize = 32;

/// The first `L` bits of the message hash; bits beyond `L` are zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Representative<S: ParameterSet> {
    bytes: [u8; REPRESENTATIVE_BYTES],
    _set: PhantomData<S>,
}

impl<S: ParameterSet> fmt::Debug for Representative<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: String = self.bytes.iter().map(|b| format!("{b:02x}")).collect();
        write!(f, "Representative<{}>({hex})", S::NAME)
    }
}

impl<S: ParameterSet> Representative<S> {
    /// Wraps stored bytes; `None` if a bit beyond `L` is set (such a buffer
    /// is not the output of [`representative`]).
    pub fn from_bytes(bytes: [u8; REPRESENTATIVE_BYTES]) -> Option<Self> {
        let rep = Self { bytes, _set: PhantomData };
        (rep.masked().bytes == bytes).then_some(rep)
    }

    /// The 32-byte buffer (big-endian bit order, zero beyond `L`).
    pub fn as_bytes(&self) -> &[u8; REPRESENTATIVE_BYTES] {
        &self.bytes
    }

    fn masked(mut self) -> Self {
        for (i, byte) in self.bytes.iter_mut().enumerate() {
            let first_bit = 8 * i;
            if first_bit >= S::HASH_BITS {
                *byte = 0;
            } else if first_bit + 8 > S::HASH_BITS {
                *byte &= 0xffu8 << (first_bit + 8 - S::HASH_BITS);
            }
        }
        self
    }

    /// Bit `j` (most significant first), `j < L`.
    pub fn bit(&self, j: usize) -> bool {
        (self.bytes[j / 8] >> (7 - j % 8)) & 1 == 1
    }

    /// Number of leading zero bits, at most `L`.
    pub fn leading_zeros(&self) -> usize {
        (0..S::HASH_BITS).find(|&j| self.bit(j)).unwrap_or(S::HASH_BITS)
    }

    /// Whether the mining condition holds: the first `k` bits are zero.
    pub fn is_admissible(&self) -> bool {
        self.leading_zeros() >= S::MINING_BITS
    }

    /// The codeword of this representative.
    pub fn codeword(&self) -> Codeword<S> {
        const { check_params::<S>() };
        let mut bits: Vec<bool> = (S::MINING_BITS..S::HASH_BITS).map(|j| self.bit(j)).collect();
        let zeros = bits.iter().filter(|&&b| !b).count();
        bits.extend((0..S::CHECKSUM_BITS).map(|j| (zeros >> j) & 1 == 1));
        Codeword { bits, _set: PhantomData }
    }
}

/// The `n`-bit codeword: signed bits, then the zero-count checksum.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Codeword<S: ParameterSet> {
    bits: Vec<bool>,
    _set: PhantomData<S>,
}

impl<S: ParameterSet> fmt::Debug for Codeword<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self.bits.iter().map(|&b| if b { '1' } else { '0' }).collect();
        write!(f, "Codeword<{}>({s})", S::NAME)
    }
}

impl<S: ParameterSet> Codeword<S> {
    /// The `n` bits; bit `i` set: sub-key `i` is revealed and hashed.
    pub fn bits(&self) -> &[bool] {
        &self.bits
    }

    /// The signed part (the first `m` bits).
    pub fn message_bits(&self) -> &[bool] {
        &self.bits[..S::MESSAGE_BITS]
    }

    /// The checksum's value (the number of zeros among the signed bits).
    pub fn checksum(&self) -> usize {
        self.bits[S::MESSAGE_BITS..].iter().rev().fold(0, |acc, &b| (acc << 1) | usize::from(b))
    }

    /// Number of set bits: the sub-key hashes one verification computes.
    pub fn ones(&self) -> usize {
        self.bits.iter().filter(|&&b| b).count()
    }

    /// The bits packed into field elements, `chunk_bits` per element, least
    /// significant first: element `j` is `sum_i bit[j * chunk_bits + i] * 2^i`
    /// (the last element may hold fewer bits). With `chunk_bits ≤ 30` every
    /// partial sum stays below `p`, the form a bit accumulator in an AIR checks.
    ///
    /// # Panics
    /// If `chunk_bits` is 0 or above 30 (a caller's constant, not input).
    pub fn to_field_chunks(&self, chunk_bits: usize) -> Vec<F> {
        assert!((1..=30).contains(&chunk_bits), "chunk_bits must be in 1..=30");
        self.bits
            .chunks(chunk_bits)
            .map(|c| F::from_u32(c.iter().rev().fold(0u32, |acc, &b| (acc << 1) | u32::from(b))))
            .collect()
    }
}

/// The message hash with everything but the counter absorbed.
fn prefix<S: ParameterSet>(message: &[u8]) -> Prefix<SHAKE256_RATE> {
    Prefix::new(&[MESSAGE_DOMAIN, &[S::ID], &(message.len() as u64).to_le_bytes(), message])
}

fn wrap<S: ParameterSet>(bytes: [u8; REPRESENTATIVE_BYTES]) -> Representative<S> {
    Representative { bytes, _set: PhantomData }.masked()
}

/// The representative of `message` under `counter` (any counter; see
/// [`checked_representative`] for the verifier's checks).
pub fn representative<S: ParameterSet>(message: &[u8], counter: u32) -> Representative<S> {
    wrap(prefix::<S>(message).finish(&counter.to_le_bytes()))
}

/// Counters tried per parallel block while mining.
const MINING_BLOCK: u32 = 1 << 13;

/// The smallest admissible counter and its representative. Without mining
/// this is counter 0. With `k = 16` it costs 2^16 SHAKE256 calls on average,
/// evaluated several at a time (one Keccak-f state per SIMD lane, 8 with
/// AVX-512) over parallel blocks (rayon) searched in increasing order, so
/// the result is the smallest counter however many threads run.
pub fn mine<S: ParameterSet>(message: &[u8]) -> Result<(u32, Representative<S>), SignError> {
    const { check_params::<S>() };
    let base = prefix::<S>(message);
    let first = wrap::<S>(base.finish(&0u32.to_le_bytes()));
    if first.is_admissible() {
        return Ok((0, first));
    }
    let lanes = LANES as u32;
    let mut start = 1u32;
    while start <= S::MAX_COUNTER {
        // MAX_COUNTER < 2^26 (check_params), so nothing overflows.
        let groups = MINING_BLOCK / lanes;
        let found = (0..groups).into_par_iter().find_map_first(|g| {
            let first = start + g * lanes;
            let counters: [u32; LANES] = core::array::from_fn(|l| first + l as u32);
            let outs = base.finish_many(&counters.map(u32::to_le_bytes));
            counters
                .into_iter()
                .zip(outs)
                .map(|(c, out)| (c, wrap::<S>(out)))
                .find(|(c, rep)| *c <= S::MAX_COUNTER && rep.is_admissible())
        });
        if let Some(found) = found {
            return Ok(found);
        }
        start += MINING_BLOCK;
    }
    Err(SignError::MiningExhausted { max_counter: S::MAX_COUNTER })
}

/// The verifier's view: the representative of `message` under `counter`,
/// after checking the counter's range and the mining condition.
pub fn checked_representative<S: ParameterSet>(message: &[u8], counter: u32) -> Result<Representative<S>, VerifyError> {
    if counter > S::MAX_COUNTER {
        return Err(VerifyError::CounterOutOfRange { counter, max: S::MAX_COUNTER });
    }
    let rep = representative::<S>(message, counter);
    if !rep.is_admissible() {
        return Err(VerifyError::InsufficientWork { required: S::MINING_BITS, found: rep.leading_zeros() });
    }
    Ok(rep)
}

/// The codeword of `message` under `counter`, after the verifier's checks.
pub fn codeword<S: ParameterSet>(message: &[u8], counter: u32) -> Result<Codeword<S>, VerifyError> {
    checked_representative::<S>(message, counter).map(|r| r.codeword())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LamportPlus, LamportPlusMined};
    use p3_field::PrimeField32;

    #[test]
    fn codeword_shape_and_checksum() {
        for msg in [&b""[..], b"a", b"hello world", &[0xffu8; 100][..]] {
            let cw = representative::<LamportPlus>(msg, 0).codeword();
            assert_eq!(cw.bits().len(), 256);
            let zeros = cw.message_bits().iter().filter(|&&b| !b).count();
            assert_eq!(cw.checksum(), zeros);
        }
    }

    #[test]
    fn representative_is_masked_to_l_bits() {
        let rep = representative::<LamportPlusMined>(b"mask", 5);
        assert!(rep.as_bytes()[29..].iter().all(|&b| b == 0));
        let rep = representative::<LamportPlus>(b"mask", 0);
        assert_eq!(rep.as_bytes()[31], 0);
        assert_eq!(Representative::<LamportPlus>::from_bytes(*rep.as_bytes()), Some(rep));
        let mut bad = *rep.as_bytes();
        bad[31] = 1;
        assert_eq!(Representative::<LamportPlus>::from_bytes(bad), None);
    }

    #[test]
    fn domination_is_impossible() {
        // If one codeword's bits were a subset of another's, a forger could
        // use the second signature for the first message. The checksum rules
        // it out; check it on many pairs, including ones built to dominate.
        let cws: Vec<Codeword<LamportPlus>> =
            (0..200u32).map(|i| representative::<LamportPlus>(&i.to_le_bytes(), 0).codeword()).collect();
        let subset = |a: &Codeword<LamportPlus>, b: &Codeword<LamportPlus>| {
            a.bits().iter().zip(b.bits()).all(|(&x, &y)| !x || y)
        };
        for a in &cws {
            for b in &cws {
                assert!(a == b || !subset(a, b));
            }
        }
    }

    #[test]
    fn mining_finds_the_smallest_admissible_counter() {
        let msg = b"mine me";
        let (c, rep) = mine::<LamportPlusMined>(msg).unwrap();
        assert!(rep.leading_zeros() >= 16);
        assert_eq!(representative::<LamportPlusMined>(msg, c), rep);
        for smaller in c.saturating_sub(50)..c {
            assert!(!representative::<LamportPlusMined>(msg, smaller).is_admissible());
        }
        assert_eq!(checked_representative::<LamportPlusMined>(msg, c), Ok(rep));
        assert!(matches!(
            checked_representative::<LamportPlusMined>(msg, c + 1),
            Err(VerifyError::InsufficientWork { required: 16, .. })
        ));
        assert_eq!(mine::<LamportPlus>(msg).unwrap().0, 0);
        assert_eq!(
            checked_representative::<LamportPlus>(msg, 1),
            Err(VerifyError::CounterOutOfRange { counter: 1, max: 0 })
        );
    }

    #[test]
    fn length_prefix_separates_message_and_counter() {
        // "ab" with counter c must differ from "a" followed by other bytes.
        let a = representative::<LamportPlus>(b"ab", 0);
        let b = representative::<LamportPlus>(b"a", u32::from_le_bytes([b'b', 0, 0, 0]));
        assert_ne!(a, b);
    }

    #[test]
    fn field_chunks_pack_little_endian() {
        let cw = representative::<LamportPlus>(b"chunks", 0).codeword();
        let chunks = cw.to_field_chunks(30);
        assert_eq!(chunks.len(), 256usize.div_ceil(30));
        for (i, &b) in cw.bits().iter().enumerate() {
            let v = chunks[i / 30].as_canonical_u32();
            assert_eq!((v >> (i % 30)) & 1 == 1, b);
        }
    }
}
