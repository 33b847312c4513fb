//! Rebuilding the aggregate public key of a collection from its bitfield.
//!
//! * naive: one mixed (Jacobian + affine) addition per set bit;
//! * [`Strategy::Add`]: bulk (batch-affine) addition of the present keys;
//! * [`Strategy::Subtract`]: bulk addition of the *absent* keys, subtracted
//!   from the precomputed committee key.
//!
//! [`aggregate_key`] picks whichever of the last two touches fewer points:
//! at 95 % participation that is ~1,600 absent keys instead of ~31,000
//! present ones. [`aggregate_keys`] goes one step further for a batch: the
//! 16 collections of a committee miss mostly the *same* validators (those
//! who did not vote), so that common part is subtracted once per committee
//! ([`Strategy::SubtractFromShared`]). Every sum uses add-or-double (blst's bulk addition falls
//! back to doubling on equal points) so repeated keys stay correct. A full
//! bitfield costs nothing (the committee key itself); an empty one is
//! refused, since its key would be the identity.

use std::collections::BTreeMap;

use blst::{blst_p1, blst_p1_affine};
use rayon::prelude::*;

use super::{Collection, Committee, HornError, HornValidators, Multiplicities};
use sigagg_bls::BlsError;
use sigagg_bls::PublicKey;
use sigagg_bls::bitfield::{Bitfield, BitfieldError};
use sigagg_bls::curve::g1;

/// How an aggregate key is rebuilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Bulk addition of the keys whose bit is set.
    Add,
    /// Committee key minus the bulk sum of the keys whose bit is clear.
    Subtract,
    /// Only in batches ([`aggregate_keys`]): the collections of one committee
    /// share most of their absent validators (those who did not vote), so
    /// the committee key minus the keys absent from *all* of them is computed
    /// once, and each collection then subtracts only its own extra absences.
    /// [`aggregate_key_with`] treats it as [`Strategy::Subtract`].
    SubtractFromShared,
}

impl Strategy {
    /// The strategy touching fewer points for `ones` set bits out of `len`.
    pub fn cheapest(ones: usize, len: usize) -> Strategy {
        if ones <= len - ones { Strategy::Add } else { Strategy::Subtract }
    }
}

fn check(committee: &Committee, bits: &Bitfield) -> Result<(), HornError> {
    if bits.len() != committee.len() {
        return Err(HornError::Bitfield(BitfieldError::Length {
            expected_bits: committee.len(),
            got_bytes: Bitfield::byte_len(bits.len()),
        }));
    }
    if bits.none() {
        return Err(HornError::EmptyBitfield);
    }
    Ok(())
}

fn finish(p: &blst_p1) -> Result<PublicKey, HornError> {
    PublicKey::from_affine_unchecked(g1::to_affine(p)).map_err(|_| BlsError::IdentityAggregateKey.into())
}

/// The sum with a given strategy, projective (callers batch the affine conversion).
pub(crate) fn key_projective(committee: &Committee, bits: &Bitfield, strategy: Strategy) -> blst_p1 {
    let keys = committee.keys();
    match strategy {
        Strategy::Add => {
            let present: Vec<&blst_p1_affine> = bits.ones().map(|i| &keys[i]).collect();
            g1::sum_refs(&present)
        }
        Strategy::Subtract | Strategy::SubtractFromShared => {
            let absent: Vec<&blst_p1_affine> = bits.zeros().map(|i| &keys[i]).collect();
            if absent.is_empty() {
                return *committee.total();
            }
            let mut out = *committee.total();
            g1::add_assign(&mut out, &g1::neg(&g1::sum_refs(&absent)));
            out
        }
    }
}

/// The baseline: one point addition (add-or-double) per set bit.
pub fn aggregate_key_naive(committee: &Committee, bits: &Bitfield) -> Result<PublicKey, HornError> {
    check(committee, bits)?;
    let keys = committee.keys();
    let mut acc = blst_p1::default();
    for i in bits.ones() {
        g1::add_assign_affine(&mut acc, &keys[i]);
    }
    finish(&acc)
}

/// The aggregate key with a forced strategy (for comparisons).
pub fn aggregate_key_with(committee: &Committee, bits: &Bitfield, strategy: Strategy) -> Result<PublicKey, HornError> {
    check(committee, bits)?;
    finish(&key_projective(committee, bits, strategy))
}

/// The aggregate key with the cheaper strategy, and which one was used.
pub fn aggregate_key(committee: &Committee, bits: &Bitfield) -> Result<(PublicKey, Strategy), HornError> {
    check(committee, bits)?;
    let strategy = Strategy::cheapest(bits.count_ones(), bits.len());
    Ok((finish(&key_projective(committee, bits, strategy))?, strategy))
}

/// `base - sum of the keys set in `union` and clear in `bits``.
fn subtract_extra(committee: &Committee, base: &blst_p1, union: &Bitfield, bits: &Bitfield) -> blst_p1 {
    let keys = committee.keys();
    let extra: Vec<&blst_p1_affine> = union.ones_not_in(bits).map(|i| &keys[i]).collect();
    let mut out = *base;
    if !extra.is_empty() {
        g1::add_assign(&mut out, &g1::neg(&g1::sum_refs(&extra)));
    }
    out
}

/// Keys of the collections of one committee (all already shape-checked).
fn committee_group(
    committee: &Committee,
    group: &[(usize, &Bitfield)],
    share: bool,
) -> Vec<(usize, blst_p1, Strategy)> {
    let n = committee.len();
    let mut shared: Option<(Bitfield, blst_p1)> = None;
    if share && group.len() >= 2 {
        let mut union = Bitfield::new(n);
        for (_, b) in group {
            union.or_assign(b).expect("shape-checked bitfields");
        }
        // Worth it when the points saved over the per-collection choice
        // exceed the points of the shared subtraction itself.
        let saved: usize = group
            .iter()
            .map(|(_, b)| {
                let ones = b.count_ones();
                ones.min(n - ones).saturating_sub(union.count_ones_not_in(b))
            })
            .sum();
        if saved > union.count_zeros() {
            let base = key_projective(committee, &union, Strategy::Subtract);
            shared = Some((union, base));
        }
    }
    group
        .iter()
        .map(|&(i, bits)| {
            let ones = bits.count_ones();
            if let Some((union, base)) = &shared
                && union.count_ones_not_in(bits) < ones.min(n - ones)
            {
                return (i, subtract_extra(committee, base, union, bits), Strategy::SubtractFromShared);
            }
            let strategy = Strategy::cheapest(ones, n);
            (i, key_projective(committee, bits, strategy), strategy)
        })
        .collect()
}

fn keys_batch(
    validators: &HornValidators,
    collections: &[&Collection],
    share: bool,
) -> Vec<Result<(PublicKey, Strategy), HornError>> {
    let mut out: Vec<Result<(PublicKey, Strategy), HornError>> = vec![Err(HornError::EmptyBitfield); collections.len()];
    let mut groups: BTreeMap<u32, Vec<(usize, &Bitfield)>> = BTreeMap::new();
    for (i, c) in collections.iter().enumerate() {
        let checked = c
            .check_shape(validators.params())
            .and_then(|_| validators.committee(c.committee))
            .and_then(|committee| check(committee, &c.bits));
        match checked {
            Ok(()) => groups.entry(c.committee).or_default().push((i, &c.bits)),
            Err(e) => out[i] = Err(e),
        }
    }
    let groups: Vec<(u32, Vec<(usize, &Bitfield)>)> = groups.into_iter().collect();
    let sums: Vec<(usize, blst_p1, Strategy)> = groups
        .par_iter()
        .flat_map_iter(|(c, group)| {
            let committee = validators.committee(*c).expect("checked above");
            committee_group(committee, group, share)
        })
        .collect();
    let points: Vec<blst_p1> = sums.iter().map(|(_, p, _)| *p).collect();
    for ((i, _, strategy), p) in sums.iter().zip(g1::batch_to_affine(&points)) {
        out[*i] = PublicKey::from_affine_unchecked(p)
            .map(|k| (k, *strategy))
            .map_err(|_| BlsError::IdentityAggregateKey.into());
    }
    out
}

/// Aggregate keys of many collections, in parallel over committees, with
/// the shared subtraction of [`Strategy::SubtractFromShared`] where it saves
/// work and one shared inversion for all projective-to-affine conversions.
pub fn aggregate_keys(validators: &HornValidators, collections: &[&Collection]) -> Vec<Result<PublicKey, HornError>> {
    keys_batch(validators, collections, true).into_iter().map(|r| r.map(|(k, _)| k)).collect()
}

/// [`aggregate_keys`], also telling which strategy each key used.
pub fn aggregate_keys_with_strategies(
    validators: &HornValidators,
    collections: &[&Collection],
) -> Vec<Result<(PublicKey, Strategy), HornError>> {
    keys_batch(validators, collections, true)
}

/// Batch reconstruction without the shared subtraction: each collection on
/// its own with the cheaper of add and subtract (for comparison).
pub fn aggregate_keys_independent(
    validators: &HornValidators,
    collections: &[&Collection],
) -> Vec<Result<PublicKey, HornError>> {
    keys_batch(validators, collections, false).into_iter().map(|r| r.map(|(k, _)| k)).collect()
}

fn msm_where(committee: &Committee, counts: &[u8], pick: impl Fn(u8) -> Option<u8>) -> blst_p1 {
    let keys = committee.keys();
    let (points, scalars): (Vec<&blst_p1_affine>, Vec<u8>) =
        counts.iter().enumerate().filter_map(|(i, &c)| pick(c).map(|s| (&keys[i], s))).unzip();
    g1::msm_refs(&points, &scalars, 4)
}

/// `sum count_i * pk_i` by multi-scalar multiplication over 4-bit scalars
/// (blst's Pippenger with `nbits = 4`: a single bucket pass).
///
/// When most members share one nonzero count `m` (merging all 16
/// aggregates of a healthy subcommittee gives 15 almost everywhere), the
/// same sum is `m * K + sum (c_i - m) * pk_i` with the precomputed committee
/// key `K`: two MSMs over only the members whose count differs from `m`
/// (one for `c_i > m`, one, subtracted, for `c_i < m`). The cheaper form
/// is used.
pub fn multiplicity_key(committee: &Committee, counts: &Multiplicities) -> Result<PublicKey, HornError> {
    if counts.len() != committee.len() {
        return Err(HornError::Bitfield(BitfieldError::Length {
            expected_bits: committee.len() * 4,
            got_bytes: counts.len().div_ceil(2),
        }));
    }
    if counts.is_zero() {
        return Err(HornError::EmptyBitfield);
    }
    let c = counts.counts();
    let mut hist = [0usize; 16];
    for &x in c {
        hist[x as usize] += 1;
    }
    let mode = (1..16u8).max_by_key(|&m| hist[m as usize]).expect("nonempty range");
    let direct_points = c.len() - hist[0];
    let complement_points = c.len() - hist[mode as usize];
    let sum = if complement_points < direct_points {
        let mut acc = g1::mul(committee.total_affine(), &[mode], 4);
        g1::add_assign(&mut acc, &msm_where(committee, c, |x| (x > mode).then(|| x - mode)));
        let below = msm_where(committee, c, |x| (x < mode).then(|| mode - x));
        g1::add_assign(&mut acc, &g1::neg(&below));
        acc
    } else {
        msm_where(committee, c, |x| (x > 0).then_some(x))
    };
    finish(&sum)
}

/// Reference for [`multiplicity_key`]: `count_i` repeated add-or-double
/// steps per member.
pub fn multiplicity_key_naive(committee: &Committee, counts: &Multiplicities) -> Result<PublicKey, HornError> {
    if counts.len() != committee.len() {
        return Err(HornError::Bitfield(BitfieldError::Length {
            expected_bits: committee.len() * 4,
            got_bytes: counts.len().div_ceil(2),
        }));
    }
    if counts.is_zero() {
        return Err(HornError::EmptyBitfield);
    }
    let mut acc = blst_p1::default();
    for (key, &c) in committee.keys().iter().zip(counts.counts()) {
        for _ in 0..c {
            g1::add_assign_affine(&mut acc, key);
        }
    }
    finish(&acc)
}
