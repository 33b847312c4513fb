//! Parameter sets: which permutation, which input layouts, which lengths.
//!
//! A parameter set is pure data. The generic hashing in [`crate::hash`] and
//! the scheme in [`crate::keys`] / [`crate::signature`] read it; no set has
//! code of its own beyond choosing its permutations. Three sets ship:
//!
//! | set | compatible with | lifetime | chains × length | target sum | hash |
//! |---|---|---|---|---|---|
//! | [`Seed001`] | hash-sig `SIGTargetSumLifetime20W2NoOff` | 2^20 | 78 × 4 | 117 | Poseidon2 |
//! | [`LeanSigProd`] | leanSig `SIGAbortingTargetSumLifetime32Dim46Base8` | 2^32 | 46 × 8 | 200 | Poseidon1 |
//! | [`Test`] | leanSig `SchemeAbortingTargetSumLifetime8Dim46Base8` (v = 4) | 2^8 | 4 × 8 | 6 | Poseidon1 |

use std::sync::OnceLock;

use p3_koala_bear::{Poseidon1KoalaBear, Poseidon2KoalaBear};
use p3_symmetric::Permutation;
use sigagg_koalabear::mode::{SpongeMode, compress};
use sigagg_koalabear::{poseidon1, poseidon2};

use crate::field::{F, FeArray, PackedF, base_p_digits};

/// Where the digest, the hash parameter and the tweak sit in the width-16
/// input of a chain step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainLayout {
    /// `[parameter | tweak | digest | 0...]` (hash-sig).
    ParameterTweakDigest,
    /// `[digest | parameter | tweak | 0...]` (leanSig).
    DigestParameterTweak,
}

/// How a message is hashed to the chain positions (the codeword).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageHash {
    /// hash-sig: compress `[rho | parameter | tweak | message]` to
    /// `hash_len` elements, read them as one big-endian base-`p` integer and
    /// write that in base `w`, least significant digit first.
    BigInteger { hash_len: usize },
    /// leanSig's aborting hypercube hash: compress
    /// `[message | parameter | tweak | rho]`; each of the first
    /// `ceil(v / z)` outputs `a` must be below `q * w^z` (else the hash
    /// aborts), and `floor(a / q)` gives `z` base-`w` digits.
    AbortingHypercube { hash_len: usize, z: usize, q: u64 },
}

/// A generalized XMSS parameter set. See the [module docs](self).
pub trait ParameterSet:
    Copy + Default + core::fmt::Debug + PartialEq + Eq + core::hash::Hash + Send + Sync + 'static
{
    /// Human-readable name, as used on the command line.
    const NAME: &'static str;
    /// One-byte identifier written into secret-key files.
    const ID: u8;
    /// log2 of the number of epochs.
    const LOG_LIFETIME: u32;
    /// Number of hash chains `v` (the codeword's dimension).
    const NUM_CHAINS: usize;
    /// Chain length `w` (the codeword's base); chain positions are `0..w`.
    const BASE: usize;
    /// Every valid codeword's digits sum to exactly this.
    const TARGET_SUM: usize;
    /// Field elements of message encoding.
    const MSG_LEN_FE: usize = 9;
    /// Capacity of the leaf sponge.
    const CAPACITY: usize = 9;
    /// Signing gives up after this many randomness attempts.
    const MAX_TRIES: u64 = 100_000;
    /// Input layout of the chain hash.
    const CHAIN_LAYOUT: ChainLayout;
    /// Sponge variant of the leaf hash.
    const SPONGE: SpongeMode;
    /// The message hash.
    const MESSAGE_HASH: MessageHash;

    /// Public hash parameter.
    type Parameter: FeArray;
    /// Output of every tweakable hash (chain steps, tree nodes, leaves).
    type Digest: FeArray;
    /// Encoding randomness `rho`.
    type Rho: FeArray;
    /// Width-16 permutation (chain steps).
    type Perm16: Permutation<[F; 16]> + Permutation<[PackedF; 16]> + 'static;
    /// Width-24 permutation (tree nodes, leaf sponge, message hash).
    type Perm24: Permutation<[F; 24]> + Permutation<[PackedF; 24]> + 'static;

    /// The width-16 permutation.
    fn perm16() -> &'static Self::Perm16;
    /// The width-24 permutation.
    fn perm24() -> &'static Self::Perm24;
    /// The leaf sponge's capacity value (a constant per set, computed once).
    fn leaf_capacity() -> &'static [F];

    /// Number of epochs, `2^LOG_LIFETIME`.
    fn lifetime() -> u64 {
        1u64 << Self::LOG_LIFETIME
    }

    /// Leaves per bottom tree, `2^(LOG_LIFETIME / 2)`.
    fn leaves_per_bottom_tree() -> u64 {
        1u64 << (Self::LOG_LIFETIME / 2)
    }
}

/// Lengths that make up the leaf sponge's domain separator.
fn leaf_lengths<S: ParameterSet>() -> [u32; 4] {
    [S::Parameter::LEN as u32, crate::tweak::TWEAK_LEN as u32, S::NUM_CHAINS as u32, S::Digest::LEN as u32]
}

/// The sponge's capacity value: a width-24 compression of the four lengths
/// `[parameter, tweak, number of chains, digest]` read as one 128-bit
/// big-endian integer written in base `p`.
fn domain_separator<Pm, const CAP: usize>(perm: &Pm, lengths: [u32; 4]) -> [F; CAP]
where
    Pm: Permutation<[F; 24]>,
{
    let acc = lengths.iter().fold(0u128, |acc, &l| (acc << 32) | u128::from(l));
    let input: [F; 24] = base_p_digits(acc);
    let out = compress(perm, &input);
    core::array::from_fn(|i| out[i])
}

fn capacity_of<S: ParameterSet>(cell: &'static OnceLock<[F; 9]>) -> &'static [F] {
    cell.get_or_init(|| domain_separator::<_, 9>(S::perm24(), leaf_lengths::<S>()))
}

/// The parameter set of seed 001 and of hash-sig's `SIGTargetSumLifetime20W2NoOff`:
/// Poseidon2, lifetime 2^20, target-sum Winternitz encoding with 2-bit
/// chunks (78 chains of length 4), target sum 117 (offset delta = 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seed001;

impl ParameterSet for Seed001 {
    const NAME: &'static str = "seed001";
    const ID: u8 = 1;
    const LOG_LIFETIME: u32 = 20;
    const NUM_CHAINS: usize = 78;
    const BASE: usize = 4;
    const TARGET_SUM: usize = 117;
    const CHAIN_LAYOUT: ChainLayout = ChainLayout::ParameterTweakDigest;
    const SPONGE: SpongeMode = SpongeMode::AdditiveCapacityLast;
    const MESSAGE_HASH: MessageHash = MessageHash::BigInteger { hash_len: 5 };
    type Parameter = [F; 5];
    type Digest = [F; 7];
    type Rho = [F; 6];
    type Perm16 = Poseidon2KoalaBear<16>;
    type Perm24 = Poseidon2KoalaBear<24>;

    fn perm16() -> &'static Self::Perm16 {
        poseidon2::hashsig16()
    }
    fn perm24() -> &'static Self::Perm24 {
        poseidon2::hashsig24()
    }
    fn leaf_capacity() -> &'static [F] {
        static CAP: OnceLock<[F; 9]> = OnceLock::new();
        capacity_of::<Self>(&CAP)
    }
}

/// The instantiation Ethereum's lean consensus runs: leanSig's
/// `SIGAbortingTargetSumLifetime32Dim46Base8`. Poseidon1, lifetime 2^32 (a
/// top tree over 2^16 bottom trees of 2^16 leaves), 46 chains of length 8,
/// target sum 200, aborting hypercube message hash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LeanSigProd;

/// The aborting hypercube hash of leanSig on KoalaBear: p = 127 * 8^8 + 1.
const LEAN_HYPERCUBE: MessageHash = MessageHash::AbortingHypercube { hash_len: 8, z: 8, q: 127 };

impl ParameterSet for LeanSigProd {
    const NAME: &'static str = "lean-sig-prod";
    const ID: u8 = 2;
    const LOG_LIFETIME: u32 = 32;
    const NUM_CHAINS: usize = 46;
    const BASE: usize = 8;
    const TARGET_SUM: usize = 200;
    const CHAIN_LAYOUT: ChainLayout = ChainLayout::DigestParameterTweak;
    const SPONGE: SpongeMode = SpongeMode::ReplaceCapacityFirst;
    const MESSAGE_HASH: MessageHash = LEAN_HYPERCUBE;
    type Parameter = [F; 5];
    type Digest = [F; 8];
    type Rho = [F; 7];
    type Perm16 = Poseidon1KoalaBear<16>;
    type Perm24 = Poseidon1KoalaBear<24>;

    fn perm16() -> &'static Self::Perm16 {
        poseidon1::default16()
    }
    fn perm24() -> &'static Self::Perm24 {
        poseidon1::default24()
    }
    fn leaf_capacity() -> &'static [F] {
        static CAP: OnceLock<[F; 9]> = OnceLock::new();
        capacity_of::<Self>(&CAP)
    }
}

/// A tiny set for fast tests: leanSig's lifetime-2^8 instantiation
/// (`SchemeAbortingTargetSumLifetime8Dim46Base8`, whose dimension is in fact
/// 4): 4 chains of length 8, target sum 6, Poseidon1. Not secure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Test;

impl ParameterSet for Test {
    const NAME: &'static str = "test";
    const ID: u8 = 3;
    const LOG_LIFETIME: u32 = 8;
    const NUM_CHAINS: usize = 4;
    const BASE: usize = 8;
    const TARGET_SUM: usize = 6;
    const CHAIN_LAYOUT: ChainLayout = ChainLayout::DigestParameterTweak;
    const SPONGE: SpongeMode = SpongeMode::ReplaceCapacityFirst;
    const MESSAGE_HASH: MessageHash = LEAN_HYPERCUBE;
    type Parameter = [F; 5];
    type Digest = [F; 8];
    type Rho = [F; 7];
    type Perm16 = Poseidon1KoalaBear<16>;
    type Perm24 = Poseidon1KoalaBear<24>;

    fn perm16() -> &'static Self::Perm16 {
        poseidon1::default16()
    }
    fn perm24() -> &'static Self::Perm24 {
        poseidon1::default24()
    }
    fn leaf_capacity() -> &'static [F] {
        static CAP: OnceLock<[F; 9]> = OnceLock::new();
        capacity_of::<Self>(&CAP)
    }
}
