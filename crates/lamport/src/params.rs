//! Parameter sets: the lengths of the message representative, the mining
//! difficulty and the checksum. A set is pure data; the scheme reads it.
//!
//! | set | representative L | mining k | signed bits m = L - k | checksum c | sub-keys n = m + c | signature |
//! |---|---|---|---|---|---|---|
//! | [`LamportPlus`] | 248 | 0 | 248 | 8 | 256 | 8 216 B |
//! | [`LamportPlusMined`] | 232 | 16 | 216 | 8 | 224 | 7 192 B |
//!
//! Both sets share everything else: KoalaBear digests of 8 elements
//! (≈ 248 bits), a 5-element per-key randomizer, Plonky3's default Poseidon2
//! permutations of width 16 (sub-key hash) and 24 (public-key sponge with
//! capacity 8), and a SHAKE256 message hash. See [`crate::hash`] for the
//! exact permutation inputs.
//!
//! # Security
//!
//! A one-time forgery needs one of (see Buchmann et al., "On the security
//! of the Winternitz one-time signature scheme", and section 3 of seed 004):
//!
//! 1. **Two messages with the same representative.** The zero-count checksum
//!    makes codeword domination impossible (a message part whose set bits are
//!    a subset of another's has more zeros, so a larger checksum, which cannot
//!    be a bit-subset of the smaller one), so the forged representative must
//!    *equal* the signed one. The representative does not depend on the key or
//!    on signer randomness (the threshold proof needs one public codeword for
//!    every signer of a message), so the attacker, who picks the message to be
//!    signed, looks for a collision: 2^(L/2) hashes classically; with mining,
//!    2^(k + (L-k)/2) = 2^((L+k)/2) because only one output in 2^k is
//!    admissible. Quantum (query model, Brassard-Høyer-Tapp with quantum
//!    RAM): 2^(L/3), and 2^(k/2 + (L-k)/3) with Grover-accelerated mining.
//!    Without cheap quantum RAM the best quantum collision searches are not
//!    faster than classical parallel rho (Bernstein, 2009).
//! 2. **A preimage of an unrevealed sub-public-key** under the width-16
//!    compression: 2^248 classical, 2^124 with Grover. Every sub-key hash is
//!    tweaked by the key's public randomizer and the position, so the
//!    n·(number of keys) targets on a chain are different functions and
//!    multi-target search gains nothing (as in SPHINCS+/XMSS tweakable hashes).
//! 3. **Another sub-public-key list with the same public key** under the
//!    sponge. Its capacity is 8 elements (c ≈ 248 bits); Poseidon2 is
//!    invertible, so a meet-in-the-middle on the capacity costs 2^(c/2) = 2^124
//!    classically and ≈ 2^(c/3) ≈ 2^83 in the quantum query model.
//!
//! | set | classical | quantum, query model | quantum, realistic (priced qRAM) |
//! |---|---|---|---|
//! | [`LamportPlus`] | 124 (1: 248/2, 3: 124) | 82 (1: 248/3, 3: ≈83); preimages 124 | 124 |
//! | [`LamportPlusMined`] | 124 (1: (232+16)/2, 3: 124) | 80 (1: 8 + 216/3); preimages 124 | ≈116 (1: 2^108 rho steps × 2^8 Grover mining) |
//!
//! The paper's instantiation (Rescue-Prime over a 128-bit field) claims 123
//! bits plain and 127 bits mined, counting only item 1. Here mining buys a
//! smaller n (224 instead of 256: 12.5 % fewer hashes and a smaller
//! signature) at the same classical level, since item 3 caps the level at 124
//! anyway. The price is 2^16 SHAKE256 calls per *message* when signing
//! (every signer of one message finds the same, smallest counter).

use core::fmt::Debug;
use core::hash::Hash;

/// A Lamport+ parameter set. See the [module docs](self) for the sets and
/// their security. Implementations are checked at compile time by
/// [`check_params`] (called from every entry point).
pub trait ParameterSet: Copy + Default + Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Name used on the command line and in benchmarks.
    const NAME: &'static str;
    /// One-byte identifier, written into secret keys and mixed into the PRF
    /// and the message hash, so that one seed yields unrelated keys per set.
    const ID: u8;
    /// L: bits of the message hash that form the representative (≤ 256).
    const HASH_BITS: usize;
    /// k: leading zero bits that mining must produce; 0 disables mining.
    const MINING_BITS: usize;
    /// c: bits of the checksum (the number of zero bits among the signed bits).
    const CHECKSUM_BITS: usize;
    /// Largest mining counter a signature may carry: 0 without mining;
    /// with mining, 2^(k+6) - 1, so that an honest signer fails with
    /// probability (1 - 2^-k)^(2^(k+6)) ≈ e^-64 and a verifier never
    /// handles an absurd counter.
    const MAX_COUNTER: u32;
    /// Classical security level in bits (see the module docs).
    const CLASSICAL_SECURITY_BITS: u32;
    /// Quantum security level in bits in the query model, the minimum over
    /// all attacks (collision-type attacks dominate; preimages give 124).
    const QUANTUM_SECURITY_BITS: u32;

    /// m: the signed bits of the representative (those after the k zeros).
    const MESSAGE_BITS: usize = Self::HASH_BITS - Self::MINING_BITS;
    /// n = m + c: sub-keys per key, digests per signature, codeword length.
    const NUM_SUBKEYS: usize = Self::MESSAGE_BITS + Self::CHECKSUM_BITS;
}

/// Compile-time sanity of a parameter set: the representative fits its
/// 32-byte buffer, the checksum can count every zero, the sponge absorbs
/// whole pairs of sub-public-keys, and a counter is allowed iff mining is on.
pub const fn check_params<S: ParameterSet>() {
    assert!(S::HASH_BITS <= 256 && S::HASH_BITS > S::MINING_BITS);
    assert!(S::CHECKSUM_BITS < 32 && (1usize << S::CHECKSUM_BITS) > S::MESSAGE_BITS);
    assert!(S::NUM_SUBKEYS.is_multiple_of(2) && S::NUM_SUBKEYS >= 2);
    assert!((S::MAX_COUNTER == 0) == (S::MINING_BITS == 0));
    assert!(S::MINING_BITS < 26, "mining must stay feasible");
}

/// Lamport+ without mining: a 248-bit representative, 256 sub-keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LamportPlus;

impl ParameterSet for LamportPlus {
    const NAME: &'static str = "lamport-plus";
    const ID: u8 = 1;
    const HASH_BITS: usize = 248;
    const MINING_BITS: usize = 0;
    const CHECKSUM_BITS: usize = 8;
    const MAX_COUNTER: u32 = 0;
    const CLASSICAL_SECURITY_BITS: u32 = 124;
    const QUANTUM_SECURITY_BITS: u32 = 82;
}

/// Lamport+ with mining (seed 004, section 3.1): a 232-bit representative
/// whose first 16 bits must be zero, so 216 signed bits and 224 sub-keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LamportPlusMined;

impl ParameterSet for LamportPlusMined {
    const NAME: &'static str = "lamport-plus-mined";
    const ID: u8 = 2;
    const HASH_BITS: usize = 232;
    const MINING_BITS: usize = 16;
    const CHECKSUM_BITS: usize = 8;
    const MAX_COUNTER: u32 = (1 << 22) - 1;
    const CLASSICAL_SECURITY_BITS: u32 = 124;
    const QUANTUM_SECURITY_BITS: u32 = 80;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_lengths() {
        const { check_params::<LamportPlus>() };
        const { check_params::<LamportPlusMined>() };
        assert_eq!(LamportPlus::MESSAGE_BITS, 248);
        assert_eq!(LamportPlus::NUM_SUBKEYS, 256);
        assert_eq!(LamportPlusMined::MESSAGE_BITS, 216);
        assert_eq!(LamportPlusMined::NUM_SUBKEYS, 224);
    }

    /// The stated classical levels follow from the lengths: min(collision
    /// on the representative, sponge capacity / 2).
    #[test]
    fn stated_levels_match_the_formulas() {
        fn classical<S: ParameterSet>() -> u32 {
            let collision = (S::HASH_BITS + S::MINING_BITS) / 2;
            let sponge = 248 / 2;
            collision.min(sponge) as u32
        }
        fn quantum<S: ParameterSet>() -> u32 {
            let collision = S::MINING_BITS as f64 / 2.0 + S::MESSAGE_BITS as f64 / 3.0;
            let sponge = 8.0 * f64::from(crate::field::P).log2() / 3.0;
            collision.min(sponge).min(124.0).floor() as u32
        }
        assert_eq!(classical::<LamportPlus>(), LamportPlus::CLASSICAL_SECURITY_BITS);
        assert_eq!(classical::<LamportPlusMined>(), LamportPlusMined::CLASSICAL_SECURITY_BITS);
        assert_eq!(quantum::<LamportPlus>(), LamportPlus::QUANTUM_SECURITY_BITS);
        assert_eq!(quantum::<LamportPlusMined>(), LamportPlusMined::QUANTUM_SECURITY_BITS);
    }
}
