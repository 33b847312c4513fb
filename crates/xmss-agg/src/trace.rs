//! Witness generation: the five traces, computed from the statement and the
//! signatures with the same native definitions (`sigagg_xmss::hash`) the
//! signature verifier uses.
//!
//! The two Poseidon tables are filled `PackedF::WIDTH` signature blocks at a
//! time, one block per SIMD lane, walking the rows of the blocks in lock
//! step (rows of one block depend on each other; blocks are independent).

mod membership;
pub(crate) use membership::group_trace;
pub use membership::{Signer, generate_threshold, threshold_heights, threshold_log_heights};

use p3_field::{Field, PackedValue, PrimeCharacteristicRing, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use rayon::prelude::*;
use sigagg_koalabear::field::{FeArray, PackedF};
use sigagg_xmss::hash::{chain_input, codeword, message_input, tree_input};
use sigagg_xmss::{ParameterSet, Seed001, Signature, VerifyError};

use p3_air::BaseAir;

use crate::air::chain::{ChainAir, ChainCols};
use crate::air::digits::{DigitAir, DigitCols, col as dcol, limb_coefficient, range_check_at};
use crate::air::hash24::{HashAir, HashCols};
use crate::air::range::RangeCols;
use crate::air::sig::{SigAir, SigCols};
use crate::air::{chain::col as ccol, hash24::col as hcol};
use crate::config::Settings;
use crate::config::Val;
use crate::layout::*;
use crate::statement::{AggregateEntry, AggregateStatement, SlotPublic, chain_tweak_parts};

/// The witness of one signature slot, shared by the tables.
struct Slot<'a> {
    entry: &'a AggregateEntry,
    public: SlotPublic,
    sig: &'a Signature<Seed001>,
    digits: Vec<u8>,
    fe: [Val; MSG_HASH],
}

impl<'a> Slot<'a> {
    fn new(entry: &'a AggregateEntry, sig: &'a Signature<Seed001>) -> Result<Self, VerifyError> {
        let param = entry.public_key.parameter;
        let digits = codeword::<Seed001>(&param, entry.epoch, sig.rho(), &entry.message)?;
        let input = message_input::<Seed001>(&param, entry.epoch, sig.rho(), &entry.message);
        let out = p3_symmetric::Permutation::permute(Seed001::perm24(), input);
        let fe = core::array::from_fn(|j| out[j] + input[j]);
        Ok(Self { entry, public: SlotPublic::new(entry), sig, digits, fe })
    }

    /// 12-bit / 7-bit limbs `f_{k,a}` of the message-hash output.
    fn limbs(&self) -> [u32; 3 * MSG_HASH] {
        core::array::from_fn(|j| {
            let v = self.fe[j / 3].as_canonical_u32();
            (v >> (12 * (j % 3))) & if j % 3 == 2 { 0x7f } else { 0xfff }
        })
    }
}

/// All traces of one proof, in the batch order.
#[derive(Clone)]
pub struct Traces {
    /// Statement table.
    pub sig: RowMajorMatrix<Val>,
    /// Digit table.
    pub digits: RowMajorMatrix<Val>,
    /// Chain-step table.
    pub chain: RowMajorMatrix<Val>,
    /// Width-24 table.
    pub hash: RowMajorMatrix<Val>,
    /// Range table.
    pub range: RowMajorMatrix<Val>,
    /// Membership table (threshold proofs only).
    pub group: Option<RowMajorMatrix<Val>>,
}

impl Traces {
    /// The matrices in batch order.
    pub fn matrices(&self) -> Vec<&RowMajorMatrix<Val>> {
        let mut all = vec![&self.sig, &self.digits, &self.chain, &self.hash, &self.range];
        all.extend(self.group.as_ref());
        all
    }

    /// The matrices in batch order, by value.
    pub fn into_matrices(self) -> Vec<RowMajorMatrix<Val>> {
        let mut all = vec![self.sig, self.digits, self.chain, self.hash, self.range];
        all.extend(self.group);
        all
    }
}

/// The tables that verify the signatures themselves, and the values they
/// range-check.
struct SignatureTables {
    digits: RowMajorMatrix<Val>,
    chain: RowMajorMatrix<Val>,
    hash: RowMajorMatrix<Val>,
    range_values: Vec<u32>,
}

/// Builds every trace. `signatures[i]` should sign `statement.entries()[i]`;
/// padded slots repeat the last entry and signature.
///
/// Witness generation performs every step of verification, so it also
/// detects invalid signatures: the first one found is reported with its
/// index (the traces would not satisfy the constraints).
pub fn generate(
    settings: &Settings,
    statement: &AggregateStatement,
    signatures: &[Signature<Seed001>],
) -> Result<Traces, (usize, VerifyError)> {
    let entries: Vec<&AggregateEntry> = (0..statement.padded_len()).map(|s| statement.slot(s)).collect();
    let signatures: Vec<&Signature<Seed001>> =
        (0..entries.len()).map(|s| &signatures[s.min(signatures.len() - 1)]).collect();
    let last = statement.len() - 1;
    let slots = slots(&entries, &signatures).map_err(|(s, e)| (s.min(last), e))?;
    let sig = sig_trace(&SigAir::new(statement));
    let (chain, hash) = crate::air::poseidon_airs(settings, Some(statement.padded_len()));
    let tables = signature_tables(&slots, &chain, &hash).map_err(|(s, e)| (s.min(last), e))?;
    let range = range_trace(&tables.range_values);
    Ok(Traces { sig, digits: tables.digits, chain: tables.chain, hash: tables.hash, range, group: None })
}

/// The statement table of an aggregation.
fn sig_trace(air: &SigAir) -> RowMajorMatrix<Val> {
    let width = BaseAir::<Val>::width(air);
    let rows: Vec<SigCols<Val>> = air.rows().collect();
    let mut values = Val::zero_vec(rows.len() * width);
    for (row, cells) in rows.iter().zip(values.chunks_mut(width)) {
        row.write_to(cells);
    }
    RowMajorMatrix::new(values, width)
}

/// The witness of every slot; a failing slot is reported by its index
/// (padding slots repeat the last real one, so the first failure is real).
fn slots<'a>(
    entries: &[&'a AggregateEntry],
    signatures: &[&'a Signature<Seed001>],
) -> Result<Vec<Slot<'a>>, (usize, VerifyError)> {
    first_error_in_order(
        entries.par_iter().zip(signatures).enumerate().map(|(s, (e, sig))| Slot::new(e, sig).map_err(|err| (s, err))),
    )
}

/// The results' values, or the error of the first failing item in the
/// iterator's order. Every item runs (in parallel); rayon's own
/// short-circuit would report whichever failed first in time, so a
/// statement with several bad signatures would name a different one from
/// run to run.
pub(crate) fn first_error_in_order<T: Send, E: Send>(
    results: impl IndexedParallelIterator<Item = Result<T, E>>,
) -> Result<Vec<T>, E> {
    results.collect::<Vec<_>>().into_iter().collect()
}

/// The digit, chain and width-24 tables of `slots`, the Poseidon2 tables
/// laid out as `chain_air` and `hash_air` ([`crate::air::poseidon_airs`]);
/// fails with the first slot whose signature does not lead to its key's
/// root.
fn signature_tables(
    slots: &[Slot<'_>],
    chain_air: &ChainAir,
    hash_air: &HashAir,
) -> Result<SignatureTables, (usize, VerifyError)> {
    let (digits, range_values) = digit_trace(slots);
    let (chain, ends) = chain_trace(slots, chain_air);
    let hash = hash_trace(slots, &ends, hash_air);
    if let Some(index) = (0..slots.len()).find(|&s| top_digest(&hash, s) != slots[s].public.root) {
        return Err((index, VerifyError::RootMismatch));
    }
    Ok(SignatureTables { digits, chain, hash, range_values })
}

/// The digest of slot `s`'s top tree row.
fn top_digest(hash: &RowMajorMatrix<Val>, s: usize) -> [Val; DIGEST] {
    let row = s * P24_BLOCK + TREE_ROW + DEPTH - 1;
    HashCols::from_slice(&hash.values[row * hash.width..]).dig
}

fn digit_trace(slots: &[Slot<'_>]) -> (RowMajorMatrix<Val>, Vec<u32>) {
    let width = dcol::WIDTH;
    let air = DigitAir::new();
    let mut values = Val::zero_vec(slots.len() * DIGIT_BLOCK * width);
    let checked: Vec<Vec<u32>> = values
        .par_chunks_mut(DIGIT_BLOCK * width)
        .zip(slots.par_iter())
        .enumerate()
        .map(|(s, (block, slot))| digit_block(&air, s, slot, block))
        .collect();
    (RowMajorMatrix::new(values, width), checked.concat())
}

/// Fills one digit block; returns the values it range-checks.
fn digit_block(air: &DigitAir, s: usize, slot: &Slot<'_>, block: &mut [Val]) -> Vec<u32> {
    let width = dcol::WIDTH;
    let limbs = slot.limbs();
    let (a, b, beta) = chain_tweak_parts(slot.entry.epoch);
    let (mut carry, mut sum) = (0u64, 0u64);
    let mut checked = Vec::with_capacity(3 * DIGIT_BLOCK);
    for (r, row) in block.chunks_mut(width).enumerate() {
        let digits: [u64; DIGITS_PER_LIMB] = core::array::from_fn(|t| {
            if r < LIMBS { u64::from(slot.digits[DIGITS_PER_LIMB * r + t]) } else { (BASE - 1) as u64 }
        });
        let prev = carry;
        if r < LIMBS {
            let limb: u64 = digits.iter().enumerate().map(|(t, &x)| x << (2 * t)).sum();
            let product: u64 =
                (0..3 * MSG_HASH).map(|j| u64::from(limbs[j]) * u64::from(limb_coefficient(r, j / 3, j % 3))).sum();
            carry = (product + prev - limb) >> 12;
            debug_assert_eq!(limb + (carry << 12), product + prev);
            sum += digits.iter().sum::<u64>();
        }
        let (flag, inv) = if r < MSG_HASH {
            let top = Val::from_u32(limbs[3 * r + 2]) - Val::from_u32(127);
            (Val::from_bool(top == Val::ZERO), top.try_inverse().unwrap_or(Val::ZERO))
        } else {
            (Val::ZERO, Val::ZERO)
        };
        let rc: [u32; 3] = core::array::from_fn(|slot_index| match range_check_at(r, slot_index) {
            Some(None) => carry as u32,
            Some(Some((k, a, scale))) => limbs[3 * k + a] * scale,
            None => 0,
        });
        checked.extend(rc);
        let periodic = air.periodic_row(r);
        DigitCols {
            sig: Val::from_usize(s),
            m: periodic.m,
            is_io: periodic.is_io,
            bits: core::array::from_fn(|b| Val::from_u64((digits[b / 2] >> (b % 2)) & 1)),
            carry: Val::from_u64(carry),
            prev_carry: Val::from_u64(if r < LIMBS { prev } else { 0 }),
            sum: Val::from_u64(sum),
            f: limbs.map(Val::from_u32),
            param: slot.public.param,
            a: Val::from_u32(a),
            b: Val::from_u32(b),
            beta: beta.map(Val::from_bool),
            t1: core::array::from_fn(|k| Val::from_u32(a) - Val::from_bool(r == 0 && beta[k])),
            flag,
            inv,
            rc: rc.map(Val::from_u32),
        }
        .write_to(row);
    }
    debug_assert_eq!(carry, 0);
    debug_assert_eq!(sum, TARGET_SUM as u64);
    checked
}

/// Runs `per_group(rows, slots, extra)` over groups of `PackedF::WIDTH`
/// consecutive blocks (one SIMD lane each), in parallel over groups.
fn for_each_lane_group<'a, X: Send>(
    values: &mut [Val],
    width: usize,
    block: usize,
    slots: &'a [Slot<'a>],
    extra: &mut [X],
    per_group: impl Fn(&mut [Val], &[&Slot<'a>], &mut X) + Sync,
) {
    let lanes = PackedF::WIDTH;
    values.par_chunks_mut(lanes * block * width).zip(slots.par_chunks(lanes)).zip(extra.par_iter_mut()).for_each(
        |((chunk, group), x)| {
            let refs: Vec<&Slot<'a>> = group.iter().collect();
            per_group(chunk, &refs, x);
        },
    );
}

/// Row `r` of every slot's block in a lane group, padded with a scratch row
/// for lanes beyond the group's end. Each slot's row is `width` wide; a
/// table row holds `per_row` slots side by side (the chain table's lanes,
/// [`ChainAir`]), so slot `j` of the group is lane `j % per_row` of block
/// `j / per_row`.
fn lane_rows<'b>(
    chunk: &'b mut [Val],
    scratch: &'b mut [Val],
    width: usize,
    block: usize,
    r: usize,
    per_row: usize,
) -> Vec<&'b mut [Val]> {
    let lanes = PackedF::WIDTH;
    let present = chunk.len() / (block * width);
    let row = width * per_row;
    let mut rows: Vec<&mut [Val]> =
        chunk.chunks_mut(block * row).flat_map(|b| b[r * row..(r + 1) * row].chunks_mut(width)).collect();
    for extra in scratch.chunks_mut(width).take(lanes - present) {
        rows.push(extra);
    }
    rows
}

/// The chain-step table, and every slot's chain ends (the walked chain's
/// output, or the signature's own value where the digit is 3).
fn chain_trace(slots: &[Slot<'_>], air: &ChainAir) -> (RowMajorMatrix<Val>, Vec<Vec<[Val; DIGEST]>>) {
    // Each slot's rows are filled as one lane; `lane_rows` places them. A
    // group of SIMD lanes must then cover whole rows of lanes; where it
    // cannot (a build without SIMD packing), the slots are filled one to a
    // row and moved into lanes afterwards.
    let (width, per_row) = (air.lane_width(), air.lanes());
    if !PackedF::WIDTH.is_multiple_of(per_row) {
        let (one, ends) = chain_trace(slots, &air.with_lanes(1));
        return (into_lanes(&one, P16_BLOCK, per_row), ends);
    }
    let mut values = Val::zero_vec(slots.len() * P16_BLOCK * width);
    let mut ends: Vec<Vec<[Val; DIGEST]>> = slots.iter().map(|slot| slot.sig.hashes().to_vec()).collect();
    let lanes = PackedF::WIDTH;
    let mut ends_groups: Vec<&mut [Vec<[Val; DIGEST]>]> = ends.chunks_mut(lanes).collect();
    for_each_lane_group(&mut values, width, P16_BLOCK, slots, &mut ends_groups, |chunk, group, group_ends| {
        let lanes = PackedF::WIDTH;
        let steps: Vec<Vec<(usize, u8)>> = group
            .iter()
            .map(|slot| {
                slot.digits
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &x)| (x + 1..BASE as u8).map(move |pos| (i, pos)))
                    .collect()
            })
            .collect();
        let mut running: Vec<[Val; DIGEST]> = vec![[Val::ZERO; DIGEST]; lanes];
        let mut scratch = Val::zero_vec(lanes * width);
        for r in 0..P16_BLOCK {
            let mut inputs = vec![[Val::ZERO; 16]; lanes];
            let mut rows = lane_rows(chunk, &mut scratch, width, P16_BLOCK, r, per_row);
            for (lane, slot) in group.iter().enumerate() {
                if r >= CHAIN_STEPS {
                    continue;
                }
                let (i, pos) = steps[lane][r];
                let first = pos == slot.digits[i] + 1;
                let last = usize::from(pos) == BASE - 1;
                let x = if first { slot.sig.hashes()[i] } else { running[lane] };
                let param = &slot.entry.public_key.parameter;
                inputs[lane] = chain_input::<Seed001>(param, slot.entry.epoch, i as u8, pos, &x);
                let (a, b, beta) = chain_tweak_parts(slot.entry.epoch);
                ChainCols::update(rows[lane], |c| {
                    c.i = Val::from_usize(i);
                    c.pos = Val::from_u8(pos);
                    c.first = Val::from_bool(first);
                    c.last = Val::from_bool(last);
                    c.k0 = Val::from_u32(b) * Val::from_u32(1 << 24) - Val::from_u32(a) + Val::from_usize(i << 16);
                    c.t1 = core::array::from_fn(|k| Val::from_u32(a) - Val::from_bool(i == 0 && beta[k]));
                });
            }
            let outputs = air.perm().write(&mut rows, &inputs);
            for lane in 0..lanes {
                running[lane] = core::array::from_fn(|j| outputs[lane][j] + inputs[lane][j]);
            }
            for (lane, step) in steps.iter().enumerate() {
                if let Some(&(i, pos)) = step.get(r)
                    && usize::from(pos) == BASE - 1
                {
                    group_ends[lane][i] = running[lane];
                }
            }
        }
    });
    // Slot index per lane of each block.
    values.par_chunks_mut(P16_BLOCK * width * per_row).enumerate().for_each(|(b, block)| {
        for row in block.chunks_mut(width * per_row) {
            for (lane, cols) in row.chunks_mut(width).enumerate() {
                ChainCols::update(cols, |c| c.sig = Val::from_usize(b * per_row + lane));
            }
        }
    });
    (RowMajorMatrix::new(values, width * per_row), ends)
}

/// `table`, one slot's block of `block` rows after another, with `per_row`
/// slots side by side: row `r` of block `b` holds row `r` of slots
/// `per_row b .. per_row (b + 1)`, in lane order.
fn into_lanes(table: &RowMajorMatrix<Val>, block: usize, per_row: usize) -> RowMajorMatrix<Val> {
    let width = table.width;
    let mut values = Val::zero_vec(table.values.len());
    values.par_chunks_mut(block * width * per_row).enumerate().for_each(|(b, out)| {
        for (r, row) in out.chunks_mut(width * per_row).enumerate() {
            for (lane, cols) in row.chunks_mut(width).enumerate() {
                let from = ((b * per_row + lane) * block + r) * width;
                cols.copy_from_slice(&table.values[from..from + width]);
            }
        }
    });
    RowMajorMatrix::new(values, width * per_row)
}

/// The virtual end `v` of a slot's sponge stream (0 is `[param | leaf tweak]`;
/// `v = 79` is the zero padding past the stream).
fn stream_end(slot: &Slot<'_>, ends: &[[Val; DIGEST]], v: usize) -> [Val; DIGEST] {
    match v {
        0 => core::array::from_fn(|j| if j < PARAM { slot.public.param[j] } else { slot.public.leaf_tweak[j - PARAM] }),
        v if v < STREAM_ENDS => ends[v - 1],
        _ => [Val::ZERO; DIGEST],
    }
}

fn hash_trace(slots: &[Slot<'_>], ends: &[Vec<[Val; DIGEST]>], air: &HashAir) -> RowMajorMatrix<Val> {
    use crate::air::hash24::{Role, role};
    let width = BaseAir::<Val>::width(air);
    let mut values = Val::zero_vec(slots.len() * P24_BLOCK * width);
    let capacity = Seed001::leaf_capacity();
    let lanes = PackedF::WIDTH;
    let mut end_groups: Vec<&[Vec<[Val; DIGEST]>]> = ends.chunks(lanes).collect();
    for_each_lane_group(&mut values, width, P24_BLOCK, slots, &mut end_groups, |chunk, group, ends| {
        let mut prev_out: Vec<[Val; 24]> = vec![[Val::ZERO; 24]; lanes];
        let mut prev_dig: Vec<[Val; DIGEST]> = vec![[Val::ZERO; DIGEST]; lanes];
        let mut scratch = Val::zero_vec(lanes * width);
        for r in 0..P24_BLOCK {
            let mut inputs = vec![[Val::ZERO; 24]; lanes];
            let mut rows = lane_rows(chunk, &mut scratch, width, P24_BLOCK, r, 1);
            for (lane, slot) in group.iter().enumerate() {
                let param = &slot.entry.public_key.parameter;
                let epoch = slot.entry.epoch;
                let mut row = HashCols::from_slice(rows[lane]);
                match role(r) {
                    Role::Message => {
                        inputs[lane] = message_input::<Seed001>(param, epoch, slot.sig.rho(), &slot.entry.message);
                    }
                    Role::Sponge(k) => {
                        let (v0, e0) = window(k);
                        let mut w = [Val::ZERO; 3 * DIGEST];
                        for s in 0..3 {
                            let v = v0 + s;
                            w[DIGEST * s..DIGEST * (s + 1)].copy_from_slice(&stream_end(slot, &ends[lane], v));
                            let free = (1..STREAM_ENDS).contains(&v) && usize::from(slot.digits[v - 1]) == BASE - 1;
                            row.flags[s] = Val::from_bool(free);
                        }
                        row.w = w;
                        let mut input = [Val::ZERO; 24];
                        for t in 0..RATE {
                            let absorbed = if k == 0 { Val::ZERO } else { prev_out[lane][t] };
                            input[t] = absorbed + w[e0 + t];
                        }
                        for j in 0..CAPACITY {
                            input[RATE + j] = if k == 0 { capacity[j] } else { prev_out[lane][RATE + j] };
                        }
                        inputs[lane] = input;
                    }
                    Role::Tree(level) => {
                        let bit = (epoch >> (level - 1)) & 1;
                        let sibling = slot.sig.co_path()[level - 1];
                        let node = prev_dig[lane];
                        let (left, right) = if bit == 0 { (node, sibling) } else { (sibling, node) };
                        inputs[lane] = tree_input::<Seed001>(param, level as u8, epoch >> level, &left, &right);
                        row.bit = Val::from_u32(bit);
                    }
                    Role::Pad => {}
                }
                row.write_to(rows[lane]);
            }
            let outputs = air.perm().write(&mut rows, &inputs);
            let compress = matches!(role(r), Role::Message | Role::Tree(_));
            for lane in 0..lanes {
                let dig: [Val; DIGEST] =
                    core::array::from_fn(|j| outputs[lane][j] + if compress { inputs[lane][j] } else { Val::ZERO });
                HashCols::update(rows[lane], |c| c.dig = dig);
                prev_out[lane] = outputs[lane];
                prev_dig[lane] = dig;
            }
        }
    });
    let periodic: Vec<_> = (0..P24_BLOCK).map(|r| air.periodic_row(r)).collect();
    values.par_chunks_mut(P24_BLOCK * width).enumerate().for_each(|(s, block)| {
        for (row, p) in block.chunks_mut(width).zip(&periodic) {
            HashCols::update(row, |c| {
                c.sig = Val::from_usize(s);
                (c.is_msg, c.is_sponge, c.is_tree, c.is_top) = (p.is_msg, p.is_sponge, p.is_tree, p.is_top);
                (c.v0, c.level, c.recv_a, c.has_c) = (p.v0, p.level, p.recv_a, p.has_c);
            });
        }
    });
    RowMajorMatrix::new(values, width)
}

pub(crate) fn range_trace(checked: &[u32]) -> RowMajorMatrix<Val> {
    let height = 1usize << RANGE_BITS;
    let mut counts = vec![0u32; height];
    // A value outside the table (only from a tampered witness) is left
    // uncounted: its lookup then has no match and the proof fails.
    for &v in checked {
        if let Some(c) = counts.get_mut(v as usize) {
            *c += 1;
        }
    }
    let width = RangeCols::<Val>::WIDTH;
    let mut values = Val::zero_vec(height * width);
    for (r, row) in values.chunks_mut(width).enumerate() {
        RangeCols { value: Val::from_usize(r), mult: Val::from_u32(counts[r]) }.write_to(row);
    }
    RowMajorMatrix::new(values, width)
}

/// Heights of the five tables for a padded statement of `n` slots under
/// `settings` (the chain table's lanes, [`crate::air::lanes`]).
pub fn heights(settings: &Settings, n: usize) -> [usize; 5] {
    [n, n * DIGIT_BLOCK, n * P16_BLOCK / crate::air::lanes(settings), n * P24_BLOCK, 1 << RANGE_BITS]
}

/// log2 of [`heights`]: the table heights as a statement gives them to
/// the backend.
pub fn log_heights(settings: &Settings, n: usize) -> Vec<usize> {
    log2_all(&heights(settings, n))
}

/// log2 of every height (each a power of two).
pub(crate) fn log2_all(heights: &[usize]) -> Vec<usize> {
    heights.iter().map(|&h| p3_util::log2_strict_usize(h)).collect()
}

// The tables' own columns sit between the permutations' input columns and
// rounds (the chain's last two input lanes are a constant tail, no columns).
const _: () = assert!(ccol::SIG == 14 && hcol::SIG == 24);

/// The digest type of Seed001 is `[F; 7]`.
const _: () = assert!(<<Seed001 as ParameterSet>::Digest as FeArray>::LEN == DIGEST);

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use sigagg_xmss::single_epoch_key_and_signature;

    use super::*;

    /// Moving one-slot rows into lanes gives the table that filling the
    /// lanes directly gives (the path of builds without SIMD packing
    /// against the usual one), slot indices and chain ends included.
    #[test]
    fn lanes_moved_afterwards_match_lanes_filled_directly() {
        let mut rng = StdRng::seed_from_u64(5);
        let (entries, sigs): (Vec<AggregateEntry>, Vec<_>) = (0..3u32)
            .map(|i| {
                let message = [i as u8; 32];
                let (public_key, sig) =
                    single_epoch_key_and_signature::<Seed001, _>(&mut rng, 7 * i, &message).unwrap();
                (AggregateEntry { public_key, epoch: 7 * i, message }, sig)
            })
            .unzip();
        let statement = AggregateStatement::new(entries).unwrap();
        let entries: Vec<&AggregateEntry> = (0..statement.padded_len()).map(|s| statement.slot(s)).collect();
        let sigs: Vec<&Signature<Seed001>> = (0..entries.len()).map(|s| &sigs[s.min(2)]).collect();
        let slots = slots(&entries, &sigs).unwrap();
        for per_row in [2, 4] {
            let (direct, direct_ends) = chain_trace(&slots, &ChainAir::new(1, per_row));
            let (one, one_ends) = chain_trace(&slots, &ChainAir::new(1, 1));
            assert_eq!(direct_ends, one_ends);
            assert_eq!(into_lanes(&one, P16_BLOCK, per_row), direct, "{per_row} lanes");
            assert_eq!(direct.width, per_row * one.width);
        }
    }
}
