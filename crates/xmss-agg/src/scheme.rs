//! What each aggregated parameter set supplies ([`AggScheme`]): the one
//! place where the aggregator learns how [`Seed001`], [`LeanSigProd`] and
//! [`Test`] differ. Every value here is derived from, or tested against,
//! `sigagg_xmss`'s native verification of the same set.
//!
//! The statement is generic over the set; Seed001's tables are in
//! [`crate::air`], the leanSig family's in [`crate::leansig`], whose digit
//! and chain tables prove [`hypercube_split`] and [`wide_chain_tweak_split`]
//! (tested here against the native verifier).

use p3_field::PrimeCharacteristicRing;
use sigagg_koalabear::mode::SpongeMode;
use sigagg_xmss::field::FeArray;
use sigagg_xmss::params::{ChainLayout, MessageHash};
use sigagg_xmss::tweak::TWEAK_LEN;
use sigagg_xmss::{LeanSigProd, ParameterSet, Seed001, Test};

use crate::config::Val;

/// How the message-hash output becomes the codeword, in the table that
/// proves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigitTable {
    /// Seed001: the base-4 expansion of a big integer (`air::digits`).
    BigInteger {
        /// Message-hash outputs that form the integer.
        hash_len: usize,
    },
    /// leanSig: each of the first `outputs` message-hash outputs `a` is
    /// `a = q d + r` with `r < q` and `d < base^z`, and `d`'s `z` base
    /// digits are the chain positions ([`hypercube_split`]).
    Hypercube {
        /// Digits per output.
        z: usize,
        /// The divisor `q`.
        q: u32,
        /// Outputs read: `ceil(NUM_CHAINS / z)`.
        outputs: usize,
    },
}

/// A parameter set the aggregator proves: what differs between the sets.
pub trait AggScheme: ParameterSet {
    /// Proof-format and transcript tag. Seed001's is `None`: its proof
    /// bytes, statement digest and transcript stay as they were; every other
    /// set writes its tag, so a proof of one set never decodes or verifies
    /// as one of another.
    const TAG: Option<u8>;
    /// Field elements per digest (chain values, tree nodes, leaves).
    const DIGEST: usize = <Self::Digest as FeArray>::LEN;
    /// Field elements of the public hash parameter.
    const PARAM: usize = <Self::Parameter as FeArray>::LEN;
    /// Field elements of the encoding randomness.
    const RHO: usize = <Self::Rho as FeArray>::LEN;
    /// Merkle tree depth (top and bottom trees together).
    const TREE_DEPTH: usize = Self::LOG_LIFETIME as usize;
    /// Chain steps per signature: `sum_i (BASE - 1 - x_i)`, the same for
    /// every valid codeword since the digits sum to `TARGET_SUM`.
    const CHAIN_STEPS: usize = Self::NUM_CHAINS * (Self::BASE - 1) - Self::TARGET_SUM;
    /// The message-hash digit table.
    const DIGITS: DigitTable;
    /// Domain separator of the statement digest.
    const STATEMENT_DOMAIN: &'static [u8];

    /// Lanes of (parameter, tweak, digest) in the width-16 chain input
    /// (as `sigagg_xmss::hash::chain_offsets`).
    fn chain_offsets() -> (usize, usize, usize) {
        let (p, h) = (Self::PARAM, Self::DIGEST);
        match Self::CHAIN_LAYOUT {
            ChainLayout::ParameterTweakDigest => (0, p, p + TWEAK_LEN),
            ChainLayout::DigestParameterTweak => (h, h + p, 0),
        }
    }

    /// Whether the leaf sponge keeps its capacity in the first lanes
    /// (leanSig's replacement mode) rather than the last (hash-sig's).
    fn capacity_first() -> bool {
        matches!(Self::SPONGE, SpongeMode::ReplaceCapacityFirst)
    }
}

/// The digit table a message hash calls for, checked against the set's
/// own `MESSAGE_HASH`.
const fn digits_of(hash: MessageHash, num_chains: usize) -> DigitTable {
    match hash {
        MessageHash::BigInteger { hash_len } => DigitTable::BigInteger { hash_len },
        MessageHash::AbortingHypercube { z, q, .. } => {
            DigitTable::Hypercube { z, q: q as u32, outputs: num_chains.div_ceil(z) }
        }
    }
}

impl AggScheme for Seed001 {
    const TAG: Option<u8> = None;
    const DIGITS: DigitTable = digits_of(Self::MESSAGE_HASH, Self::NUM_CHAINS);
    const STATEMENT_DOMAIN: &'static [u8] = b"sigagg/xmss-aggregation/statement/v1";
}

impl AggScheme for LeanSigProd {
    const TAG: Option<u8> = Some(Self::ID);
    const DIGITS: DigitTable = digits_of(Self::MESSAGE_HASH, Self::NUM_CHAINS);
    const STATEMENT_DOMAIN: &'static [u8] = b"sigagg/xmss-aggregation/statement/lean-sig-prod/v1";
}

impl AggScheme for Test {
    const TAG: Option<u8> = Some(Self::ID);
    const DIGITS: DigitTable = digits_of(Self::MESSAGE_HASH, Self::NUM_CHAINS);
    const STATEMENT_DOMAIN: &'static [u8] = b"sigagg/xmss-aggregation/statement/test/v1";
}

/// One message-hash output split for the hypercube digit table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HypercubeSplit {
    /// `a / q`, below `2^24` (`8^8`).
    pub d: u32,
    /// `a mod q`, below `q`.
    pub r: u32,
    /// `d`'s base-8 digits, least significant first: the chain positions.
    pub digits: [u8; 8],
}

/// Splits a message-hash output `a` (canonical) as `a = 127 d + r`, or
/// `None` when leanSig's hash aborts (`a >= 127 * 8^8 = p - 1`).
///
/// Why the table's constraints suffice: `r < 127` and `d < 2^24` (eight
/// digits below 8) bound `127 d + r <= 127 * 2^24 - 1 = p - 2`, so the
/// field equation `a = 127 d + r` is an integer equation, the split is
/// the unique Euclidean one, and `a <= p - 2` means the hash did not abort.
pub fn hypercube_split(a: u32) -> Option<HypercubeSplit> {
    const Q: u32 = 127;
    if u64::from(a) >= u64::from(Q) << 24 {
        return None;
    }
    let (d, r) = (a / Q, a % Q);
    Some(HypercubeSplit { d, r, digits: core::array::from_fn(|j| ((d >> (3 * j)) & 7) as u8) })
}

/// The base-p digits of the chain tweak `epoch << 24 | chain << 16 |
/// pos << 8` for any `u32` epoch (56-bit values), in the form the tables
/// prove: with `epoch = 127 a + b` (`b < 127`) and `2^24 = (p - 1) / 127`,
///
/// ```text
///     T = a p + u,   u = b 2^24 + c - a,   c = chain 2^16 + pos 2^8 < 2^24
/// ```
///
/// and `-p < u < p - 1`, so the digits are `(u + beta p, a - beta)` with the
/// borrow `beta = [u < 0] = [b 2^24 + c < a]`. The first digit's field element
/// is `u` either way; only the second depends on `beta`. Seed001's
/// epochs (`a < 2^14`) borrow only for chain 0 ([`crate::statement::chain_tweak_parts`]);
/// 32-bit epochs (`a < 2^25.02`) borrow whenever `b <= 2` and `c` is below
/// `a - b 2^24`, for any chain. Returns `(a, b, beta)`.
pub fn wide_chain_tweak_split(epoch: u32, chain: u8, pos: u8) -> (u32, u32, bool) {
    let (a, b) = (epoch / 127, epoch % 127);
    let c = (u64::from(chain) << 16) | (u64::from(pos) << 8);
    (a, b, (u64::from(b) << 24) + c < u64::from(a))
}

/// The field elements of [`wide_chain_tweak_split`]'s digits.
pub fn wide_chain_tweak(epoch: u32, chain: u8, pos: u8) -> [Val; 2] {
    let (a, b, beta) = wide_chain_tweak_split(epoch, chain, pos);
    let c = (u32::from(chain) << 16) | (u32::from(pos) << 8);
    let u = Val::from_u32(b) * Val::from_u32(1 << 24) + Val::from_u32(c) - Val::from_u32(a);
    [u, Val::from_u32(a) - Val::from_bool(beta)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use p3_field::PrimeField32;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use sigagg_koalabear::mode::compress;
    use sigagg_xmss::hash::{chain_offsets, codeword, message_input};
    use sigagg_xmss::single_epoch_key_and_signature;
    use sigagg_xmss::tweak::chain_tweak;

    fn same_shape<S: AggScheme>() {
        assert_eq!(S::chain_offsets(), chain_offsets::<S>(), "{}", S::NAME);
        assert_eq!(S::CHAIN_STEPS + S::TARGET_SUM, S::NUM_CHAINS * (S::BASE - 1));
    }

    #[test]
    fn shapes_follow_the_native_sets() {
        same_shape::<Seed001>();
        same_shape::<LeanSigProd>();
        same_shape::<Test>();
        assert_eq!((Seed001::DIGEST, Seed001::PARAM, Seed001::RHO, Seed001::TREE_DEPTH), (7, 5, 6, 20));
        assert_eq!((LeanSigProd::DIGEST, LeanSigProd::PARAM, LeanSigProd::RHO, LeanSigProd::TREE_DEPTH), (8, 5, 7, 32));
        assert_eq!(LeanSigProd::CHAIN_STEPS, 46 * 7 - 200);
        assert_eq!(LeanSigProd::DIGITS, DigitTable::Hypercube { z: 8, q: 127, outputs: 6 });
        assert_eq!(Test::DIGITS, DigitTable::Hypercube { z: 8, q: 127, outputs: 1 });
        assert_eq!(Seed001::DIGITS, DigitTable::BigInteger { hash_len: 5 });
        assert!(LeanSigProd::capacity_first() && Test::capacity_first() && !Seed001::capacity_first());
        assert_ne!(LeanSigProd::TAG, Test::TAG);
        assert!(LeanSigProd::TAG.is_some() && Seed001::TAG.is_none());
    }

    /// The split's bound: the largest `(d, r)` the table admits is `p - 2`,
    /// the largest output that does not abort.
    #[test]
    fn hypercube_split_bounds() {
        let p = Val::ORDER_U32;
        assert_eq!(127 * ((1u64 << 24) - 1) + 126, u64::from(p) - 2);
        assert_eq!(hypercube_split(p - 2).map(|s| (s.d, s.r)), Some(((1 << 24) - 1, 126)));
        assert_eq!(hypercube_split(p - 1), None);
        assert_eq!(hypercube_split(0).map(|s| s.digits), Some([0; 8]));
        let s = hypercube_split(127 * 0o76543210 + 5).unwrap();
        assert_eq!((s.r, s.digits), (5, [0, 1, 2, 3, 4, 5, 6, 7]));
    }

    /// The split of the actual message-hash outputs gives `codeword`'s digits.
    fn split_matches_codeword<S: AggScheme>(epochs: &[u32]) {
        let DigitTable::Hypercube { outputs, .. } = S::DIGITS else { panic!("not a hypercube set") };
        let mut rng = StdRng::seed_from_u64(41);
        for (k, &epoch) in epochs.iter().enumerate() {
            let message = [k as u8; 32];
            let (pk, sig) = single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &message).unwrap();
            let out = compress(S::perm24(), &message_input::<S>(&pk.parameter, epoch, sig.rho(), &message));
            let mut digits = Vec::new();
            for fe in &out[..outputs] {
                let s = hypercube_split(fe.as_canonical_u32()).expect("a signed message does not abort");
                assert_eq!(127 * s.d + s.r, fe.as_canonical_u32());
                digits.extend(s.digits);
            }
            digits.truncate(S::NUM_CHAINS);
            assert_eq!(digits, codeword::<S>(&pk.parameter, epoch, sig.rho(), &message).unwrap());
            assert_eq!(digits.iter().map(|&x| usize::from(x)).sum::<usize>(), S::TARGET_SUM);
        }
    }

    #[test]
    fn hypercube_split_matches_codeword_test_set() {
        split_matches_codeword::<Test>(&[0, 1, 200, 255]);
    }

    #[test]
    fn hypercube_split_matches_codeword_lean_sig_prod() {
        split_matches_codeword::<LeanSigProd>(&[5, (1 << 31) + 7, u32::MAX]);
    }

    /// The wide split equals the native chain tweak for every chain and
    /// position, at epochs on both sides of every borrow frontier, up to
    /// `2^32 - 1`.
    #[test]
    fn wide_chain_tweak_matches_native() {
        let mut epochs = vec![0u32, 1, 126, 127, 254, 127 * 257, 127 * 2000, 1 << 20, (1 << 31) + 3, u32::MAX];
        // Frontiers: a around b 2^24 + c for b = 0, 1, 2.
        for b in 0..3u32 {
            for a in [(b << 24) - b.min(1), b << 24, (b << 24) + 1, (b << 24) + 0x2d_0700, (1u32 << 25) + 264_000] {
                if let Some(e) = a.checked_mul(127).and_then(|x| x.checked_add(b)) {
                    epochs.push(e);
                }
            }
        }
        let mut borrows = [0usize; 3];
        for &epoch in &epochs {
            for chain in 0..64u8 {
                for pos in 1..=7u8 {
                    assert_eq!(
                        wide_chain_tweak(epoch, chain, pos),
                        chain_tweak(epoch, chain, pos),
                        "{epoch} {chain} {pos}"
                    );
                    let (_, b, beta) = wide_chain_tweak_split(epoch, chain, pos);
                    if beta {
                        borrows[b as usize] += 1;
                    }
                }
            }
        }
        // Every borrow case occurs, and chains other than 0 borrow.
        assert!(borrows.iter().all(|&n| n > 0), "{borrows:?}");
        assert!(wide_chain_tweak_split(u32::MAX - u32::MAX % 127, 45, 7).2);
    }
}
