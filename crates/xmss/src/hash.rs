//! The tweakable hashes and the message encoding of generalized XMSS, written
//! once for every [`ParameterSet`].
//!
//! * chain step: width-16 compression of digest, parameter and chain tweak;
//! * tree node: width-24 compression of `[parameter | tweak | left | right]`;
//! * leaf: width-24 sponge over `[parameter | tweak | chain ends]`;
//! * message hash: width-24 compression, then the set's digit extraction,
//!   then the target-sum check.
//!
//! The STARK aggregation crate proves exactly these computations, so the
//! input-building functions (`chain_input`, `tree_input`, `leaf_input`,
//! `message_input`) are public: the prover and the native verifier share
//! one definition of every permutation input.

use core::ops::Range;

use p3_field::{PackedValue, PrimeCharacteristicRing, PrimeField64};
use rayon::prelude::*;
use sigagg_koalabear::mode::{compress, sponge};

use crate::error::EncodingError;
use crate::field::{F, FeArray, PackedF, base_p_to_digits, bytes_to_base_p};
use crate::params::{ChainLayout, MessageHash, ParameterSet};
use crate::prf::{self, PrfKey};
use crate::tweak::{TWEAK_LEN, chain_tweak, message_tweak, tree_tweak};

/// Messages are 32 bytes (a consensus signing root).
pub const MESSAGE_LEN: usize = 32;

/// Offsets of (parameter, tweak, digest) in the width-16 chain input.
pub fn chain_offsets<S: ParameterSet>() -> (usize, usize, usize) {
    let (p, h) = (S::Parameter::LEN, S::Digest::LEN);
    match S::CHAIN_LAYOUT {
        ChainLayout::ParameterTweakDigest => (0, p, p + TWEAK_LEN),
        ChainLayout::DigestParameterTweak => (h, h + p, 0),
    }
}

/// Width-16 input of the chain step that reaches position `pos_in_chain`.
pub fn chain_input<S: ParameterSet>(
    parameter: &S::Parameter,
    epoch: u32,
    chain_index: u8,
    pos_in_chain: u8,
    digest: &S::Digest,
) -> [F; 16] {
    let (po, to, d) = chain_offsets::<S>();
    let mut input = [F::ZERO; 16];
    input[po..po + S::Parameter::LEN].copy_from_slice(parameter.as_slice());
    input[to..to + TWEAK_LEN].copy_from_slice(&chain_tweak(epoch, chain_index, pos_in_chain));
    input[d..d + S::Digest::LEN].copy_from_slice(digest.as_slice());
    input
}

/// One chain step: from position `pos_in_chain - 1` to `pos_in_chain`.
pub fn chain_step<S: ParameterSet>(
    parameter: &S::Parameter,
    epoch: u32,
    chain_index: u8,
    pos_in_chain: u8,
    digest: &S::Digest,
) -> S::Digest {
    let out = compress(S::perm16(), &chain_input::<S>(parameter, epoch, chain_index, pos_in_chain, digest));
    S::Digest::generate(|i| out[i])
}

/// Walks `steps` steps of a chain starting from `digest` at `start_pos`.
pub fn walk_chain<S: ParameterSet>(
    parameter: &S::Parameter,
    epoch: u32,
    chain_index: u8,
    start_pos: u8,
    steps: usize,
    digest: &S::Digest,
) -> S::Digest {
    (0..steps).fold(*digest, |x, j| chain_step::<S>(parameter, epoch, chain_index, start_pos + j as u8 + 1, &x))
}

/// Width-24 input of the tree node at (`level`, `pos`) from its children.
pub fn tree_input<S: ParameterSet>(
    parameter: &S::Parameter,
    level: u8,
    pos: u32,
    left: &S::Digest,
    right: &S::Digest,
) -> [F; 24] {
    let (p, h) = (S::Parameter::LEN, S::Digest::LEN);
    let mut input = [F::ZERO; 24];
    input[..p].copy_from_slice(parameter.as_slice());
    input[p..p + TWEAK_LEN].copy_from_slice(&tree_tweak(level, pos));
    input[p + TWEAK_LEN..p + TWEAK_LEN + h].copy_from_slice(left.as_slice());
    input[p + TWEAK_LEN + h..p + TWEAK_LEN + 2 * h].copy_from_slice(right.as_slice());
    input
}

/// The tree node at (`level`, `pos`); leaves are level 0.
pub fn tree_node<S: ParameterSet>(
    parameter: &S::Parameter,
    level: u8,
    pos: u32,
    left: &S::Digest,
    right: &S::Digest,
) -> S::Digest {
    let out = compress(S::perm24(), &tree_input::<S>(parameter, level, pos, left, right));
    S::Digest::generate(|i| out[i])
}

/// The sponge input of the leaf of `epoch`: `[parameter | tweak | ends...]`.
pub fn leaf_input<S: ParameterSet>(parameter: &S::Parameter, epoch: u32, chain_ends: &[S::Digest]) -> Vec<F> {
    let mut input = Vec::with_capacity(S::Parameter::LEN + TWEAK_LEN + chain_ends.len() * S::Digest::LEN);
    input.extend_from_slice(parameter.as_slice());
    input.extend_from_slice(&tree_tweak(0, epoch));
    for end in chain_ends {
        input.extend_from_slice(end.as_slice());
    }
    input
}

/// The leaf of `epoch`: the sponge hash of the one-time public key (the chain ends).
pub fn leaf<S: ParameterSet>(parameter: &S::Parameter, epoch: u32, chain_ends: &[S::Digest]) -> S::Digest {
    let mut out = vec![F::ZERO; S::Digest::LEN];
    sponge::<F, _, 24>(
        S::perm24(),
        S::SPONGE,
        S::leaf_capacity(),
        &leaf_input::<S>(parameter, epoch, chain_ends),
        &mut out,
    );
    S::Digest::generate(|i| out[i])
}

/// Width-24 input of the message hash.
pub fn message_input<S: ParameterSet>(
    parameter: &S::Parameter,
    epoch: u32,
    rho: &S::Rho,
    message: &[u8; MESSAGE_LEN],
) -> [F; 24] {
    let msg: [F; 9] = bytes_to_base_p(message);
    let tweak = message_tweak(epoch);
    let parts: [&[F]; 4] = match S::MESSAGE_HASH {
        MessageHash::BigInteger { .. } => [rho.as_slice(), parameter.as_slice(), &tweak, &msg],
        MessageHash::AbortingHypercube { .. } => [&msg, parameter.as_slice(), &tweak, rho.as_slice()],
    };
    let mut input = [F::ZERO; 24];
    let mut at = 0;
    for part in parts {
        input[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    input
}

/// The codeword of `message` at `epoch` under randomness `rho`: one chain
/// position in `0..BASE` per chain, summing to `TARGET_SUM`. Errors when the
/// hash aborts or the sum misses the target (the signer then tries another `rho`).
pub fn codeword<S: ParameterSet>(
    parameter: &S::Parameter,
    epoch: u32,
    rho: &S::Rho,
    message: &[u8; MESSAGE_LEN],
) -> Result<Vec<u8>, EncodingError> {
    let out = compress(S::perm24(), &message_input::<S>(parameter, epoch, rho, message));
    let digits = match S::MESSAGE_HASH {
        MessageHash::BigInteger { hash_len } => base_p_to_digits(&out[..hash_len], S::BASE as u32, S::NUM_CHAINS),
        MessageHash::AbortingHypercube { z, q, .. } => hypercube_digits::<S>(&out, z, q)?,
    };
    let sum: usize = digits.iter().map(|&d| usize::from(d)).sum();
    if sum != S::TARGET_SUM {
        return Err(EncodingError::TargetSumMismatch { expected: S::TARGET_SUM, actual: sum });
    }
    Ok(digits)
}

/// leanSig's aborting hypercube digit extraction (see [`MessageHash`]).
fn hypercube_digits<S: ParameterSet>(out: &[F], z: usize, q: u64) -> Result<Vec<u8>, EncodingError> {
    let base = S::BASE as u64;
    let bound = q * base.pow(z as u32);
    let mut digits = Vec::with_capacity(S::NUM_CHAINS);
    for fe in &out[..S::NUM_CHAINS.div_ceil(z)] {
        let a = fe.as_canonical_u64();
        if a >= bound {
            return Err(EncodingError::HashAborted);
        }
        let mut d = a / q;
        for _ in 0..z {
            if digits.len() == S::NUM_CHAINS {
                break;
            }
            digits.push((d % base) as u8);
            d /= base;
        }
    }
    Ok(digits)
}

/// The chain ends (one-time public key) of `epoch`, computed from the PRF key.
pub fn chain_ends<S: ParameterSet>(prf_key: &PrfKey, parameter: &S::Parameter, epoch: u32) -> Vec<S::Digest> {
    (0..S::NUM_CHAINS)
        .map(|i| {
            let start: S::Digest = prf::chain_start(prf_key, epoch, i as u64);
            walk_chain::<S>(parameter, epoch, i as u8, 0, S::BASE - 1, &start)
        })
        .collect()
}

/// The leaves of the given epochs, computed from the PRF key: the bulk of
/// key generation. Runs in parallel, one SIMD lane per epoch.
pub fn leaves<S: ParameterSet>(prf_key: &PrfKey, parameter: &S::Parameter, epochs: Range<u64>) -> Vec<S::Digest> {
    let lanes = PackedF::WIDTH as u64;
    let batches = (epochs.end - epochs.start).div_ceil(lanes);
    (0..batches)
        .into_par_iter()
        .flat_map_iter(|b| {
            let start = epochs.start + b * lanes;
            let end = (start + lanes).min(epochs.end);
            if end - start == lanes {
                leaves_packed::<S>(prf_key, parameter, start as u32)
            } else {
                (start..end)
                    .map(|e| leaf::<S>(parameter, e as u32, &chain_ends::<S>(prf_key, parameter, e as u32)))
                    .collect()
            }
        })
        .collect()
}

/// `PackedF::WIDTH` consecutive leaves from `first_epoch`, with every
/// permutation call vectorized across epochs.
fn leaves_packed<S: ParameterSet>(prf_key: &PrfKey, parameter: &S::Parameter, first_epoch: u32) -> Vec<S::Digest> {
    let lanes = PackedF::WIDTH;
    let epoch = |lane: usize| first_epoch + lane as u32;
    let (po, to, d) = chain_offsets::<S>();
    let (plen, h) = (S::Parameter::LEN, S::Digest::LEN);
    let packed_param: Vec<PackedF> = parameter.as_slice().iter().map(|&x| PackedF::from(x)).collect();

    // Leaf sponge input, packed: [parameter | tweak | ends...].
    let mut leaf_in = vec![PackedF::ZERO; plen + TWEAK_LEN + S::NUM_CHAINS * h];
    leaf_in[..plen].copy_from_slice(&packed_param);
    for t in 0..TWEAK_LEN {
        leaf_in[plen + t] = PackedF::from_fn(|l| tree_tweak(0, epoch(l))[t]);
    }

    let mut state = [PackedF::ZERO; 16];
    state[po..po + plen].copy_from_slice(&packed_param);
    for chain in 0..S::NUM_CHAINS {
        let starts: Vec<S::Digest> = (0..lanes).map(|l| prf::chain_start(prf_key, epoch(l), chain as u64)).collect();
        for k in 0..h {
            state[d + k] = PackedF::from_fn(|l| starts[l].as_slice()[k]);
        }
        for pos in 1..S::BASE {
            let tweaks: Vec<[F; TWEAK_LEN]> =
                (0..lanes).map(|l| chain_tweak(epoch(l), chain as u8, pos as u8)).collect();
            for t in 0..TWEAK_LEN {
                state[to + t] = PackedF::from_fn(|l| tweaks[l][t]);
            }
            let out = compress(S::perm16(), &state);
            state[d..d + h].copy_from_slice(&out[..h]);
        }
        let at = plen + TWEAK_LEN + chain * h;
        leaf_in[at..at + h].copy_from_slice(&state[d..d + h]);
    }

    let capacity: Vec<PackedF> = S::leaf_capacity().iter().map(|&x| PackedF::from(x)).collect();
    let mut out = vec![PackedF::ZERO; h];
    sponge::<PackedF, _, 24>(S::perm24(), S::SPONGE, &capacity, &leaf_in, &mut out);
    (0..lanes).map(|l| S::Digest::generate(|k| out[k].as_slice()[l])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Seed001, Test};

    fn packed_matches_scalar<S: ParameterSet>() {
        let key = [7u8; 32];
        let parameter = S::Parameter::generate(|i| F::from_u32(1000 + i as u32));
        let n = PackedF::WIDTH as u64 * 2 + 3;
        let fast = leaves::<S>(&key, &parameter, 5..5 + n);
        for (i, got) in fast.iter().enumerate() {
            let e = 5 + i as u32;
            let slow = leaf::<S>(&parameter, e, &chain_ends::<S>(&key, &parameter, e));
            assert_eq!(*got, slow, "epoch {e}");
        }
    }

    #[test]
    fn packed_leaves_match_scalar_seed001() {
        packed_matches_scalar::<Seed001>();
    }

    #[test]
    fn packed_leaves_match_scalar_test() {
        packed_matches_scalar::<Test>();
    }

    #[test]
    fn walk_is_composable() {
        let p = <Seed001 as ParameterSet>::Parameter::generate(|i| F::from_u32(i as u32));
        let x = <Seed001 as ParameterSet>::Digest::generate(|i| F::from_u32(50 + i as u32));
        let direct = walk_chain::<Seed001>(&p, 9, 3, 0, 3, &x);
        let mid = walk_chain::<Seed001>(&p, 9, 3, 0, 1, &x);
        assert_eq!(direct, walk_chain::<Seed001>(&p, 9, 3, 1, 2, &mid));
    }
}
