//! Witness of threshold proofs: the statement table with member indices and
//! index gaps, and the membership table (group-tree paths).

use super::*;
use crate::air::group::{GroupAir, GroupCols, block_rows};
use crate::air::sig::SigCols;
use crate::air::signers::{self, ThresholdCols};
use sigagg_xmss::group::{GROUP_DIGEST, GroupKey, MembershipProof, leaf_input, node_input};

/// One real signer of a threshold proof, as the trace needs it.
pub struct Signer<'a> {
    /// The signed entry (signer key, shared epoch and message).
    pub entry: AggregateEntry,
    /// The signature.
    pub signature: &'a Signature<Seed001>,
    /// The signer's path in the group tree.
    pub path: &'a MembershipProof,
}

/// Builds the six traces of a threshold proof over `padded` slots; the
/// signers must be sorted by strictly increasing member index and their
/// paths checked. Slots past the signers repeat the last one. A failing
/// signature is reported by its position in `signers`.
pub fn generate_threshold(
    settings: &Settings,
    group: &GroupKey,
    signers: &[Signer<'_>],
    padded: usize,
) -> Result<Traces, (usize, VerifyError)> {
    let count = signers.len();
    let at = |s: usize| &signers[s.min(count - 1)];
    let entries: Vec<&AggregateEntry> = (0..padded).map(|s| &at(s).entry).collect();
    let signatures: Vec<&Signature<Seed001>> = (0..padded).map(|s| at(s).signature).collect();
    let last = count - 1;
    let slots = slots(&entries, &signatures).map_err(|(s, e)| (s.min(last), e))?;
    let (chain, hash) = crate::air::poseidon_airs(settings, None);
    let tables = signature_tables(&slots, &chain, &hash).map_err(|(s, e)| (s.min(last), e))?;

    let indices: Vec<u32> = (0..padded).map(|s| at(s).path.index()).collect();
    let gaps = signers::gaps(&indices, count, group.size);
    let sig = threshold_sig_trace(&slots, &indices, &gaps);
    let mut range_values = tables.range_values;
    range_values.extend(signers::gap_range_values(&gaps));
    let range = range_trace(&range_values);
    let paths: Vec<([Val; 24], &MembershipProof)> =
        (0..padded).map(|s| (leaf_input(&at(s).entry.public_key), at(s).path)).collect();
    let group_trace = group_trace(&GroupAir::new::<Seed001>(group, settings.stride()), group, &paths);
    Ok(Traces { sig, digits: tables.digits, chain: tables.chain, hash: tables.hash, range, group: Some(group_trace) })
}

/// Statement rows: slot counter, the slot's values (with its signer's
/// key), member index and the two gap limbs.
fn threshold_sig_trace(slots: &[Slot<'_>], indices: &[u32], gaps: &[u32]) -> RowMajorMatrix<Val> {
    let fixed = SigCols::<Val>::WIDTH;
    let width = fixed + ThresholdCols::<Val>::WIDTH;
    let mut values = Val::zero_vec(slots.len() * width);
    for (s, (slot, row)) in slots.iter().zip(values.chunks_mut(width)).enumerate() {
        SigCols::slot(s, &slot.public).write_to(row);
        ThresholdCols::slot(s, indices, gaps).write_to(&mut row[fixed..]);
    }
    RowMajorMatrix::new(values, width)
}

/// The membership table: per slot, the leaf compression then one node
/// compression per level; rows past the top hash zeros.
pub(crate) fn group_trace(
    air: &GroupAir,
    group: &GroupKey,
    members: &[([Val; 24], &MembershipProof)],
) -> RowMajorMatrix<Val> {
    let depth = group.depth();
    let block = block_rows(depth);
    let width = BaseAir::<Val>::width(air);
    let lanes = PackedF::WIDTH;
    let mut values = Val::zero_vec(members.len() * block * width);
    values.par_chunks_mut(lanes * block * width).zip(members.par_chunks(lanes)).for_each(|(chunk, group)| {
        let mut scratch = Val::zero_vec(lanes * width);
        let mut node = vec![[Val::ZERO; GROUP_DIGEST]; lanes];
        for r in 0..block {
            let mut rows = lane_rows(chunk, &mut scratch, width, block, r, 1);
            let inputs: Vec<[Val; 24]> = (0..lanes)
                .map(|lane| match group.get(lane) {
                    Some((leaf, _)) if r == 0 => *leaf,
                    Some((_, path)) if r <= depth => {
                        let sibling = &path.siblings()[r - 1];
                        if (path.index() >> (r - 1)) & 1 == 0 {
                            node_input(r, &node[lane], sibling)
                        } else {
                            node_input(r, sibling, &node[lane])
                        }
                    }
                    _ => [Val::ZERO; 24],
                })
                .collect();
            let outputs = air.perm().write(&mut rows, &inputs);
            for (lane, &(_, path)) in group.iter().enumerate() {
                node[lane] = core::array::from_fn(|j| outputs[lane][j] + inputs[lane][j]);
                let row = &mut rows[lane];
                let bit = if (1..=depth).contains(&r) { (path.index() >> (r - 1)) & 1 } else { 0 };
                let known_bits = r.min(depth);
                GroupCols::update(row, |c| {
                    c.idx = Val::from_u32(path.index());
                    c.acc = Val::from_u32(path.index() & ((1u32 << known_bits) - 1));
                    c.bit = Val::from_u32(bit);
                    c.dig = node[lane];
                    c.is_leaf = Val::from_bool(r == 0);
                });
            }
        }
    });
    values.par_chunks_mut(block * width).enumerate().for_each(|(s, rows)| {
        for row in rows.chunks_mut(width) {
            GroupCols::update(row, |c| c.sig = Val::from_usize(s));
        }
    });
    RowMajorMatrix::new(values, width)
}

/// Heights of the six tables of a threshold proof.
pub fn threshold_heights(settings: &Settings, padded: usize, group: &GroupKey) -> [usize; 6] {
    let [a, b, c, d, e] = heights(settings, padded);
    [a, b, c, d, e, padded * block_rows(group.depth())]
}

/// log2 of [`threshold_heights`], as the backend takes them.
pub fn threshold_log_heights(settings: &Settings, padded: usize, group: &GroupKey) -> Vec<usize> {
    super::log2_all(&threshold_heights(settings, padded, group))
}
