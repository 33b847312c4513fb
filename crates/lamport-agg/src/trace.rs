//! Witness generation: every trace of one proof, computed from the
//! signatures with the native definitions of `sigagg-lamport`
//! (`subkey_input`, `pubkey_initial_capacity`, `pubkey_block_input`,
//! `node_input`), so the circuit proves exactly native verification.
//!
//! Permutations are written `PackedF::WIDTH` at a time (one per SIMD lane):
//! width-16 rows are independent, so any 16 rows go together; a sponge or a
//! tree path is sequential, so 16 *blocks* are walked in lock step.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use p3_air::BaseAir;
use p3_field::{PackedValue, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrix;
use rayon::prelude::*;
use sigagg_lamport::field::{DIGEST_LEN, Digest, PackedF, ZERO_DIGEST};
use sigagg_lamport::group::{node, node_input};
use sigagg_lamport::hash::{SPONGE_CAPACITY, SPONGE_RATE, pubkey_block_input, pubkey_initial_capacity, subkey_input};
use sigagg_lamport::prf::{RANDOMIZER_LEN, Randomizer};

use crate::air::hash::{HashAir, Role, pc};
use crate::air::node::{NodeAir, NodeFlags};
use crate::air::slot::{self, SlotKind};
use crate::config::Val;
use crate::layout::BLOCK;
use crate::poseidon::Perm16;
use crate::system::Instance;

/// The witness of one slot.
#[derive(Clone, Copy, Debug)]
pub struct SlotWitness<'a> {
    /// The signature's randomizer.
    pub randomizer: Randomizer,
    /// The signature's `n` digests.
    pub elements: &'a [Digest],
    /// The codeword the signature signs.
    pub bits: &'a [bool],
    /// Threshold: the signer's leaf index and membership path.
    pub leaf: Option<(u32, &'a [Digest])>,
}

/// The traces of one proof, in batch order (see [`Instance::airs`]).
#[derive(Clone, Debug)]
pub struct Traces {
    /// One matrix per AIR.
    pub tables: Vec<RowMajorMatrix<Val>>,
}

/// A width-16 job: hash sub-key `i` of slot `s`.
type Job = Option<(u32, u16)>;

/// Builds every trace. `slots` has one witness per slot (padding slots
/// repeat the last signature). The caller has verified the signatures (and
/// paths); a bad witness yields traces that do not satisfy the constraints.
pub fn generate(instance: &Instance, slots: &[SlotWitness<'_>]) -> Traces {
    let shape = &instance.shape;
    assert_eq!(slots.len(), shape.slots, "one witness per slot");
    let main_air = instance.main_air();
    let main_cols = main_air.cols();
    let (main_jobs, overflow_jobs) = assign_jobs(slots, shape.main_p16_rows(), shape.overflow_rows());

    // Width-16 rows first: they produce the sub-public-keys the sponges absorb.
    let mut main = RowMajorMatrix::new(Val::zero_vec(shape.slots * BLOCK * main_cols.width), main_cols.width);
    let (p16, active) = (main_cols.p16.expect("main table hashes"), main_cols.active.expect("main table hashes"));
    let perm16 = main_air.p16().expect("main table hashes");
    if main_cols.sponge.r_in_p16 {
        // The sponge rows read their slot's randomizer off the width-16 input.
        let spec = main_air.spec();
        let foreign = main_jobs.iter().enumerate().any(|(row, job)| {
            matches!(spec.role(row), Role::Sponge(_)) && job.is_some_and(|(s, _)| s as usize != row / BLOCK)
        });
        assert!(!foreign, "a shared codeword gives every slot's block its own hashes");
    }
    // Idle main rows hash a dummy sub-key under their block's randomizer.
    let idle_main = |row: usize| subkey_input(&slots[row / BLOCK].randomizer, 0, &ZERO_DIGEST);
    let mut hashed = fill_p16(perm16, &mut main.values, main_cols.width, p16, active, &main_jobs, slots, idle_main);
    let overflow = instance.overflow_air().map(|air| {
        let width = BaseAir::<Val>::width(air);
        let mut m = RowMajorMatrix::new(Val::zero_vec(overflow_jobs.len() * width), width);
        let idle = |_: usize| air.perm().idle_input();
        hashed.extend(fill_p16(air.perm(), &mut m.values, width, 0, air.active(), &overflow_jobs, slots, idle));
        m
    });
    let mut ys: Vec<Vec<Digest>> = slots.iter().map(|s| s.elements.to_vec()).collect();
    for (s, i, y) in hashed {
        ys[s as usize][usize::from(i)] = y;
    }

    let keys = fill_hash(main_air, &mut main.values, slots, &ys, shape.num_subkeys);
    let mut tables = vec![slot_trace(instance, slots, &keys), main];
    if let Some((_, node_air)) = instance.node_air() {
        tables.push(node_trace(node_air, shape.nodes, shape.depth, &slots[..instance.count], &keys));
    }
    tables.extend(overflow);
    Traces { tables }
}

/// Assigns every width-16 job (set codeword bit) to a row: each slot's
/// first jobs to its own block's rows, the excess of busy slots to the
/// spare rows of quiet ones, in order, and what still remains to the
/// overflow table (`overflow_rows` long).
fn assign_jobs(slots: &[SlotWitness<'_>], main_rows: usize, overflow_rows: usize) -> (Vec<Job>, Vec<Job>) {
    let mut main: Vec<Job> = vec![None; main_rows];
    let mut excess = Vec::new();
    for (s, w) in slots.iter().enumerate() {
        let ones = w.bits.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i as u16);
        for (k, i) in ones.enumerate() {
            if k < BLOCK {
                main[s * BLOCK + k] = Some((s as u32, i));
            } else {
                excess.push((s as u32, i));
            }
        }
    }
    let mut excess = excess.into_iter();
    for row in main.iter_mut().filter(|r| r.is_none()) {
        match excess.next() {
            Some(job) => *row = Some(job),
            None => break,
        }
    }
    let mut overflow: Vec<Job> = excess.map(Some).collect();
    assert!(overflow.len() <= overflow_rows, "the shape counts every job");
    overflow.resize(overflow_rows, None);
    (main, overflow)
}

/// Writes the width-16 permutations (columns `base..base + perm.cols()`) and
/// `active` bits of every row; returns `(slot, index, sub-public-key)` of
/// every job. An idle row (never sent) permutes `idle(row)`.
#[allow(clippy::too_many_arguments)]
fn fill_p16(
    perm: &Perm16,
    values: &mut [Val],
    width: usize,
    base: usize,
    active: usize,
    jobs: &[Job],
    slots: &[SlotWitness<'_>],
    idle: impl Fn(usize) -> [Val; 16] + Sync,
) -> Vec<(u32, u16, Digest)> {
    let lanes = PackedF::WIDTH;
    values
        .par_chunks_mut(lanes * width)
        .zip(jobs.par_chunks(lanes))
        .enumerate()
        .flat_map_iter(|(c, (chunk, jobs))| {
            let inputs: Vec<[Val; 16]> = jobs
                .iter()
                .enumerate()
                .map(|(l, job)| match *job {
                    Some((s, i)) => {
                        let w = &slots[s as usize];
                        subkey_input(&w.randomizer, usize::from(i), &w.elements[usize::from(i)])
                    }
                    None => idle(c * lanes + l),
                })
                .collect();
            let cols = perm.cols();
            let outputs = {
                let mut rows: Vec<&mut [Val]> = chunk.chunks_mut(width).map(|r| &mut r[base..base + cols]).collect();
                perm.write(&mut rows, &inputs)
            };
            for (row, job) in chunk.chunks_mut(width).zip(jobs) {
                row[active] = Val::from_bool(job.is_some());
            }
            jobs.iter()
                .enumerate()
                .filter_map(|(l, job)| job.map(|(s, i)| (s, i, core::array::from_fn(|k| outputs[l][k] + inputs[l][k]))))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Fills the main table's width-24 columns (sponge rows, tree rows,
/// padding) block by block, `PackedF::WIDTH` blocks in lock step. `ys[s]`
/// are slot `s`'s sub-public-keys. Returns each slot's squeezed public key.
fn fill_hash(
    air: &HashAir,
    values: &mut [Val],
    slots: &[SlotWitness<'_>],
    ys: &[Vec<Digest>],
    num_subkeys: usize,
) -> Vec<Digest> {
    let spec = *air.spec();
    let cols = *air.cols();
    let (block, width) = (spec.block, cols.width);
    let lanes = PackedF::WIDTH;
    let keys: Vec<Vec<Digest>> = values
        .par_chunks_mut(lanes * block * width)
        .enumerate()
        .map(|(g, chunk)| {
            let first = g * lanes;
            let present = chunk.len() / (block * width);
            let mut prev = vec![[Val::ZERO; 24]; lanes];
            let mut node = vec![ZERO_DIGEST; lanes];
            let mut acc = vec![Val::ZERO; lanes];
            let mut keys = vec![ZERO_DIGEST; present];
            let cols24 = air.p24().cols();
            for r in 0..block {
                let role = spec.role(r);
                // Padding rows (and idle SIMD lanes) permute the idle input.
                let mut inputs = vec![air.p24().idle_input(); lanes];
                for lane in 0..present {
                    let s = first + lane;
                    let w = &slots[s];
                    let at = lane * block * width + r * width;
                    let row = &mut chunk[at..at + width];
                    row[cols.slot] = Val::from_usize(s);
                    match role {
                        Role::Sponge(j) => {
                            let cap: [Val; SPONGE_CAPACITY] = if j == 0 {
                                pubkey_initial_capacity(&w.randomizer, num_subkeys)
                            } else {
                                core::array::from_fn(|k| prev[lane][SPONGE_RATE + k])
                            };
                            inputs[lane] = pubkey_block_input(&cap, &ys[s][2 * j], &ys[s][2 * j + 1]);
                        }
                        Role::Tree(level) => {
                            let (idx, siblings) = w.leaf.expect("threshold slots carry a path");
                            let below = if level == 1 { keys[lane] } else { node[lane] };
                            let bit = (idx >> (level - 1)) & 1;
                            let sibling = siblings[level - 1];
                            let (left, right) = if bit == 0 { (below, sibling) } else { (sibling, below) };
                            inputs[lane] = node_input(level as u32, idx >> level, &left, &right);
                            let t = cols.tree.expect("tree rows have tree columns");
                            row[t.bit] = Val::from_u32(bit);
                            row[t.cur..t.cur + DIGEST_LEN].copy_from_slice(&below);
                        }
                        Role::Pad => {}
                    }
                    let global = s * block + r;
                    let sc = cols.sponge;
                    // (Written by the width-16 rows where they hold it.)
                    if let (Role::Sponge(_), false) = (role, sc.r_in_p16) {
                        row[sc.r..sc.r + RANDOMIZER_LEN].copy_from_slice(&w.randomizer);
                    }
                    row[sc.j2] = air.periodic(pc::J2, global);
                    row[sc.is_last] = air.periodic(pc::IS_LAST, global);
                    match (sc.chunk, role) {
                        (None, _) => {
                            row[sc.bit0] = air.periodic(pc::BIT0, global);
                            row[sc.bit1] = air.periodic(pc::BIT1, global);
                        }
                        // Per-slot codewords: the witness's bits and
                        // their chunk accumulator.
                        (Some(c), Role::Sponge(j)) => {
                            let bit = |i: usize| Val::from_bool(w.bits.get(i).copied().unwrap_or(false));
                            let digit = bit(2 * j) + bit(2 * j + 1).double();
                            let start = air.periodic(pc::CHUNK_START, global) == Val::ONE;
                            acc[lane] = if start { digit } else { acc[lane] * Val::from_u32(4) + digit };
                            row[sc.bit0] = bit(2 * j);
                            row[sc.bit1] = bit(2 * j + 1);
                            row[c.acc] = acc[lane];
                            row[c.end] = air.periodic(pc::CHUNK_END, global);
                        }
                        (Some(_), _) => {}
                    }
                    if let Some(t) = cols.tree {
                        row[t.is_bottom] = air.periodic(pc::IS_BOTTOM, global);
                    }
                }
                let outputs = {
                    let mut rows: Vec<&mut [Val]> =
                        chunk.chunks_mut(block * width).map(|b| &mut b[r * width..r * width + cols24]).collect();
                    air.p24().write(&mut rows, &inputs[..present])
                };
                for lane in 0..present {
                    prev[lane] = outputs[lane];
                    match role {
                        Role::Sponge(j) if j + 1 == spec.sponge_rows => {
                            keys[lane] = core::array::from_fn(|k| outputs[lane][k]);
                        }
                        Role::Tree(_) => node[lane] = core::array::from_fn(|k| outputs[lane][k] + inputs[lane][k]),
                        _ => {}
                    }
                }
            }
            keys
        })
        .collect();
    keys.concat()
}

/// The node table: the counted slots' paths merged, one row per node,
/// the root row first, then the lower levels; padding rows permute the
/// idle input and receive nothing. A node on several paths takes each
/// path's child on its side (the same digest, for valid paths); a
/// witness with more nodes than `rows` (never a valid one) loses the
/// excess and fails its constraints.
fn node_trace(
    air: &NodeAir,
    rows: usize,
    depth: usize,
    counted: &[SlotWitness<'_>],
    keys: &[Digest],
) -> RowMajorMatrix<Val> {
    type Children = ([Digest; 2], [bool; 2]);
    let mut nodes: BTreeMap<(Reverse<usize>, u32), Children> = BTreeMap::new();
    for (w, key) in counted.iter().zip(keys) {
        let (idx, siblings) = w.leaf.expect("threshold slots carry a path");
        let mut below = *key;
        for level in 1..=depth {
            let (index, side) = (idx >> level, (idx >> (level - 1) & 1) as usize);
            let sibling = siblings.get(level - 1).copied().unwrap_or(ZERO_DIGEST);
            let (children, received) = nodes.entry((Reverse(level), index)).or_insert(([sibling; 2], [false; 2]));
            children[side] = below;
            received[side] = true;
            below = node(level as u32, index, &children[0], &children[1]);
        }
    }
    let width = BaseAir::<Val>::width(air);
    let (flags_at, perm_cols) = (air.flags_at(), air.perm().cols());
    let mut values = Val::zero_vec(rows * width);
    let mut inputs = vec![air.perm().idle_input(); rows];
    for (r, ((Reverse(level), index), (children, received))) in nodes.into_iter().take(rows).enumerate() {
        inputs[r] = node_input(level as u32, index, &children[0], &children[1]);
        let row = &mut values[r * width..(r + 1) * width];
        let [left_in, right_in] = received.map(Val::from_bool);
        NodeFlags { left_in, right_in, real: Val::ONE, root: Val::from_bool(r == 0) }.write_to(&mut row[flags_at..]);
    }
    let lanes = PackedF::WIDTH;
    for (chunk, inputs) in values.chunks_mut(lanes * width).zip(inputs.chunks(lanes)) {
        let mut rows: Vec<&mut [Val]> = chunk.chunks_mut(width).map(|r| &mut r[..perm_cols]).collect();
        air.perm().write(&mut rows, inputs);
    }
    RowMajorMatrix::new(values, width)
}

/// The slot table: keys (aggregate) or leaf indices and gap bits
/// (threshold), with a node table also the slot's key (`keys[s]`, what
/// its sponge squeezed) and whether it is counted.
fn slot_trace(instance: &Instance, slots: &[SlotWitness<'_>], keys: &[Digest]) -> RowMajorMatrix<Val> {
    let air = instance.slot_air();
    let width = p3_air::BaseAir::<Val>::width(air);
    let mut values = Val::zero_vec(slots.len() * width);
    let count = instance.count;
    for (s, row) in values.chunks_mut(width).enumerate() {
        row[slot::SLOT] = Val::from_usize(s);
        match air.kind() {
            SlotKind::Aggregate { chunks, .. } => {
                for j in 0..DIGEST_LEN + chunks {
                    row[slot::PK + j] = air.periodic(j, s);
                }
            }
            SlotKind::Threshold { depth, size, .. } => {
                let idx = |s: usize| slots[s].leaf.expect("threshold slots carry a path").0;
                row[slot::IDX] = Val::from_u32(idx(s));
                if let Some(c) = air.leaf_cols() {
                    row[c.key..c.key + DIGEST_LEN].copy_from_slice(&keys[s]);
                    row[c.counted] = Val::from_bool(s < count);
                }
                if s < count {
                    let next = if s + 1 < count { idx(s + 1) } else { size };
                    // Valid witnesses have next > idx; a bad one leaves a
                    // gap that violates the constraint.
                    let gap = next.wrapping_sub(idx(s)).wrapping_sub(1);
                    for b in 0..depth {
                        row[slot::GAP + b] = Val::from_u32((gap >> b) & 1);
                    }
                }
            }
        }
    }
    RowMajorMatrix::new(values, width)
}
