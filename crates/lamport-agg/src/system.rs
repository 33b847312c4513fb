//! One proof instance: the shape and AIRs a statement implies, and the
//! calls into the backends (`sigagg_prover::prove` and `verify`) shared by
//! both modes.
//!
//! # Why the transcript seed
//!
//! Plonky3 does not absorb periodic columns or AIR constants (the codewords,
//! public keys, group root and size live there), and it leaves committing
//! them to the caller. The backend seeds the challenger with the settings
//! and a digest of the whole statement (and the public hints carried by the
//! proof), under [`TRANSCRIPT_DOMAIN`] (`sigagg_prover::transcript_seed`),
//! so every challenge is bound to it and a prover cannot choose the
//! statement after seeing the challenges.

use p3_air::BaseAir;
use p3_matrix::dense::RowMajorMatrix;
use p3_util::log2_strict_usize;
use sigagg_lamport::GroupKey;
use sigagg_lamport::field::Digest;
use sigagg_prover::{StarkProof, Table, Tables};

use crate::air::AggAir;
use crate::air::hash::{Codewords, HashAir, codeword_chunks};
use crate::air::hash16::Hash16Air;
use crate::air::node::NodeAir;
use crate::air::slot::{Leaves, SlotAir};
use crate::config::{Backend, Settings, Val};

/// Domain separator of the transcript seed.
pub const TRANSCRIPT_DOMAIN: &[u8] = b"sigagg/lamport-agg/transcript/v2";
use crate::error::{ProveError, VerifyError};
use crate::layout::Shape;
use crate::poseidon::{Outputs, Rounds};

/// The AIRs of one proof and everything needed to build or check its traces.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The geometry.
    pub shape: Shape,
    /// The AIRs in batch order: slot, main, node (if any), overflow (if any).
    pub airs: Vec<AggAir>,
    /// The transcript seed (statement digest).
    pub digest: [u8; 32],
    /// Counted slots (the first `count` slots; the rest repeat the last).
    pub count: usize,
}

/// Position of the main table in the batch.
pub const MAIN: usize = 1;

impl Instance {
    /// An aggregate instance: `codewords[i]` and `keys[i]` of entry `i`,
    /// permutations committed in layout `rounds`.
    pub fn aggregate(
        rounds: Rounds,
        num_subkeys: usize,
        codewords: &[Vec<bool>],
        keys: &[Digest],
        digest: [u8; 32],
    ) -> Self {
        let count = keys.len();
        let slots = Shape::slots_for(count);
        let at = |s: usize| s.min(count - 1);
        let jobs = (0..slots).map(|s| codewords[at(s)].iter().filter(|&&b| b).count()).sum();
        let shape = Shape { num_subkeys, slots, depth: 0, jobs, rounds, nodes: 0 };
        let sponge_rows = shape.sponge_rows();
        let chunks: Vec<Vec<Val>> = (0..slots).map(|s| codeword_chunks(&codewords[at(s)], sponge_rows)).collect();
        let padded_keys: Vec<Digest> = (0..slots).map(|s| keys[at(s)]).collect();
        let mut airs = vec![
            AggAir::Slot(SlotAir::aggregate(&padded_keys, &chunks, sponge_rows)),
            AggAir::Hash(HashAir::new(shape.main_spec(), num_subkeys, Codewords::PerSlot, [Default::default(); 8])),
        ];
        if shape.overflow_rows() > 0 {
            airs.push(AggAir::Hash16(Hash16Air::new(rounds, Outputs::Committed)));
        }
        Self { shape, airs, digest, count }
    }

    /// A threshold instance: `count` signers of the message with `codeword`
    /// in `group`; `revealed` lists their leaf indices when the bitmap is
    /// public; permutations committed in layout `rounds`.
    pub fn threshold(
        rounds: Rounds,
        num_subkeys: usize,
        codeword: &[bool],
        group: &GroupKey,
        count: usize,
        revealed: Option<&[u32]>,
        digest: [u8; 32],
    ) -> Self {
        let slots = Shape::slots_for(count);
        let depth = group.depth();
        let jobs = slots * codeword.iter().filter(|&&b| b).count();
        let mut shape = Shape { num_subkeys, slots, depth, jobs, rounds, nodes: 0 };
        let leaves = if shape.has_node_table() {
            shape.nodes = Shape::node_rows_for(count, group.size(), depth);
            Leaves::Nodes
        } else {
            Leaves::InBlock
        };
        let root = *group.root();
        let mut airs = vec![
            AggAir::Slot(SlotAir::threshold(slots, count, depth, group.size(), revealed, leaves)),
            AggAir::Hash(HashAir::new(shape.main_spec(), num_subkeys, Codewords::Shared(codeword), root)),
        ];
        if shape.has_node_table() {
            airs.push(AggAir::Node(NodeAir::new(rounds, depth, root, Outputs::Committed)));
        }
        if shape.overflow_rows() > 0 {
            airs.push(AggAir::Hash16(Hash16Air::new(rounds, Outputs::Committed)));
        }
        Self { shape, airs, digest, count }
    }

    /// The slot table's AIR.
    pub fn slot_air(&self) -> &SlotAir {
        match &self.airs[0] {
            AggAir::Slot(a) => a,
            _ => unreachable!("the slot table comes first"),
        }
    }

    /// The main table's AIR.
    pub fn main_air(&self) -> &HashAir {
        match &self.airs[MAIN] {
            AggAir::Hash(a) => a,
            _ => unreachable!("the main table comes second"),
        }
    }

    /// The node table's AIR and batch position, if any.
    pub fn node_air(&self) -> Option<(usize, &NodeAir)> {
        self.shape.has_node_table().then(|| match &self.airs[MAIN + 1] {
            AggAir::Node(a) => (MAIN + 1, a),
            _ => unreachable!("the node table follows the main table"),
        })
    }

    /// The overflow table's batch position, if any.
    pub fn overflow_index(&self) -> Option<usize> {
        (self.shape.overflow_rows() > 0).then(|| self.airs.len() - 1)
    }

    /// The overflow table's AIR, if any.
    pub fn overflow_air(&self) -> Option<&Hash16Air> {
        self.overflow_index().map(|i| match &self.airs[i] {
            AggAir::Hash16(a) => a,
            _ => unreachable!("the overflow table comes last"),
        })
    }

    /// log2 of every table height, in batch order.
    pub fn degree_bits(&self) -> Vec<usize> {
        self.shape.heights().iter().map(|&h| log2_strict_usize(h)).collect()
    }

    /// The instance `build` makes in the layout `settings` give
    /// ([`Rounds::for_settings`], then [`Self::for_backend`]). A function
    /// of the statement and the settings, so prover and verifier build the
    /// same instance.
    pub fn for_settings(settings: &Settings, build: impl Fn(Rounds) -> Instance) -> Instance {
        build(Rounds::for_settings(settings)).for_backend(settings)
    }

    /// The same instance with its bus groups in the form the backend of
    /// `settings` takes ([`HashAir::with_exclusive_buses`]), and its
    /// permutations' output lanes committed as the backend is best served
    /// ([`Outputs`], [`HashAir::with_outputs`]):
    ///
    /// * FRI: every lane the tables read (its quotient bounds the degree);
    /// * our multilinear prover: none;
    /// * `p3-multi-stark`: the lanes messages read, unless leaving the
    ///   sub-key digest out too, or every lane, brings the stacked
    ///   commitment under a smaller power of two (at n = 1024, a Lamport+
    ///   plain threshold whose codeword has 161-192 ones, 1 message in
    ///   60 000: no lane). It evaluates message fields from their symbolic
    ///   trees, row by row: degree-9 sub-key fields take it about 1.8
    ///   times as long (and the key's too, 3.7 times), which only a
    ///   commitment half the size (and half the memory) pays for.
    ///
    /// The choice is a function of the statement and the settings, so the
    /// verifier makes the same one.
    pub fn for_backend(self, settings: &Settings) -> Self {
        let instance = self.with_exclusive_buses(settings.exclusive_buses());
        match settings.backend() {
            Backend::Fri => instance.with_outputs(Outputs::Committed),
            Backend::Skip => instance.with_outputs(Outputs::None),
            Backend::Whir => instance
                .clone()
                .with_outputs(Outputs::ForMessages)
                .or_smaller(instance.clone().with_outputs(Outputs::ForKeys))
                .or_smaller(instance.with_outputs(Outputs::None)),
        }
    }

    /// `other` where its stacked commitment is a smaller power of two of
    /// cells than this instance's, else this instance.
    fn or_smaller(self, other: Instance) -> Instance {
        if other.cells().next_power_of_two() < self.cells().next_power_of_two() { other } else { self }
    }

    /// The same instance with its bus groups sent as exclusive
    /// interactions or not ([`HashAir::with_exclusive_buses`]).
    fn with_exclusive_buses(mut self, exclusive: bool) -> Self {
        self.airs = self
            .airs
            .into_iter()
            .map(|air| match air {
                AggAir::Hash(h) => AggAir::Hash(h.with_exclusive_buses(exclusive)),
                other => other,
            })
            .collect();
        self
    }

    /// The same instance with its permutations' output lanes committed as
    /// `outputs` says ([`HashAir::with_outputs`]; [`Self::for_backend`]
    /// chooses).
    pub fn with_outputs(mut self, outputs: Outputs) -> Self {
        self.airs = self
            .airs
            .into_iter()
            .map(|air| match air {
                AggAir::Hash(h) => AggAir::Hash(h.with_outputs(outputs)),
                AggAir::Hash16(h) => AggAir::Hash16(Hash16Air::new(h.perm().rounds(), outputs)),
                AggAir::Node(h) => AggAir::Node(h.with_outputs(outputs)),
                other => other,
            })
            .collect();
        self
    }

    /// Committed cells: every table's height times its width.
    pub fn cells(&self) -> usize {
        self.shape.heights().iter().zip(&self.airs).map(|(h, air)| h * BaseAir::<Val>::width(air)).sum()
    }

    /// The instance's tables for the backends, bound by its digest.
    pub fn tables(&self) -> Tables<'_, AggAir> {
        Tables::new(&self.airs, self.degree_bits(), TRANSCRIPT_DOMAIN, self.digest)
    }
}

/// Proves `traces` (one per AIR, in batch order) without checking them
/// first, with the backend and Merkle hash `settings` name.
pub fn prove(
    settings: &Settings,
    instance: &Instance,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<StarkProof, ProveError> {
    assert_eq!(traces.len(), instance.airs.len(), "one trace per AIR");
    sigagg_prover::prove(settings, &instance.tables(), traces).map_err(|e| ProveError::Prover(e.0))
}

/// Verifies `proof` against the AIRs of `instance`. The table heights come
/// from the statement, never from the proof: a proof whose heights differ
/// is rejected before any check (a taller table would, for example, give
/// the prover spare rows the statement did not pay for). So is a proof
/// of another backend or Merkle hash than `settings` name.
///
/// A panic of the backend's verifier on some unforeseen malformed input
/// is caught and reported as [`VerifyError::Invalid`], so untrusted bytes
/// never abort the caller.
pub fn verify(settings: &Settings, instance: &Instance, proof: &StarkProof) -> Result<(), VerifyError> {
    Ok(sigagg_prover::verify(settings, &instance.tables(), proof)?)
}

impl Table for AggAir {
    const BUS_WIDTH: usize = crate::bus::WIDTH;

    /// Each table's budget is its constraint degree ([`AggAir::degree`]).
    fn degree(&self) -> usize {
        AggAir::degree(self)
    }
}

/// The FRI test settings of `instance`'s round layout, under which the
/// `*_both_ways` helpers compare it with Plonky3.
#[cfg(any(test, feature = "testing"))]
fn test_settings(instance: &Instance) -> Settings {
    match instance.shape.rounds {
        Rounds::Every => crate::named::TEST,
        Rounds::Paired => crate::named::TEST_COMPACT,
    }
}

/// This crate's lookups for `instance`, serialized, and those Plonky3's
/// `ProverData::from_airs_and_degrees` derives (for tests).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn lookups_both_ways(instance: &Instance) -> (Vec<u8>, Vec<u8>) {
    sigagg_prover::testing::lookups_both_ways(&test_settings(instance), &instance.tables())
}

/// log2 of every table's quotient-chunk count for `instance`, from the
/// declared degrees and from Plonky3's symbolic inference (for tests).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn quotient_chunks_both_ways(instance: &Instance) -> (Vec<usize>, Vec<usize>) {
    sigagg_prover::testing::quotient_chunks_both_ways(&test_settings(instance), &instance.tables())
}

#[cfg(test)]
mod tests {
    use sigagg_lamport::{LamportPlus, LamportPlusMined, ParameterSet};

    use super::*;

    fn codeword(n: usize, ones: usize) -> Vec<bool> {
        (0..n).map(|i| i < ones).collect()
    }

    /// Which layout each backend proves: FRI commits every output lane it
    /// reads, our prover none, `p3-multi-stark` the messages' lanes unless
    /// leaving more out halves the stacked commitment. At n = 1024 (plain
    /// set, 2^25 cells at most, the node table 2^10 rows) that happens for
    /// codewords of 161-192 ones, which need no lane, and no other count.
    #[test]
    fn layouts_follow_the_backend_and_the_commitment() {
        use crate::named::{COMPACT, WHIR_COMPACT, WHIR_SKIP};
        let group = GroupKey::new(Digest::default(), 1024).unwrap();
        let n = LamportPlus::NUM_SUBKEYS;
        let instance = |ones: usize, settings: &Settings| {
            Instance::for_settings(settings, |rounds| {
                Instance::threshold(rounds, n, &codeword(n, ones), &group, 1024, None, [0; 32])
            })
        };
        let width = |i: &Instance| BaseAir::<Val>::width(&i.airs[MAIN]);
        let committed = width(&instance(128, &COMPACT));
        for ones in [120, 144, 145, 160, 161, 192, 193, 200] {
            let whir = instance(ones, &WHIR_COMPACT);
            assert_eq!(whir.shape.heights()[2], 1024, "the node table");
            let fewer = if (161..=192).contains(&ones) { 24 } else { 8 };
            assert_eq!(width(&whir), committed - fewer, "{ones} ones");
            assert_eq!(whir.cells() <= 1 << 25, ones <= 192, "{ones} ones: {} cells", whir.cells());
            let skip = instance(ones, &WHIR_SKIP);
            assert_eq!((skip.shape.rounds, width(&skip)), (Rounds::Paired, committed - 24));
            assert_eq!(width(&instance(ones, &COMPACT)), committed);
        }
    }

    /// The prover and verifier skip Plonky3's degree inference when folding
    /// lookups; the result must equal Plonky3's own for every table layout:
    /// both sets, with and without the overflow table, the node table
    /// (plain set) and tree rows in the main table (mined set), with
    /// and without a revealed bitmap, in both permutation layouts; and
    /// every table's lookups compile for the FRI quotient.
    #[test]
    fn lookups_match_plonky3_derivation() {
        let digest = [3u8; 32];
        let group = GroupKey::new(Digest::default(), 7).unwrap();
        let mut instances = Vec::new();
        for (rounds, n) in [Rounds::Every, Rounds::Paired]
            .into_iter()
            .flat_map(|r| [(r, LamportPlus::NUM_SUBKEYS), (r, LamportPlusMined::NUM_SUBKEYS)])
        {
            for (count, ones) in [(3, n / 2), (20, n / 2 + 9)] {
                let words = vec![codeword(n, ones); count];
                let keys = vec![Digest::default(); count];
                instances.push(Instance::aggregate(rounds, n, &words, &keys, digest));
            }
            let word = codeword(n, n / 2 + 3);
            instances.push(Instance::threshold(rounds, n, &word, &group, 5, None, digest));
            instances.push(Instance::threshold(rounds, n, &word, &group, 5, Some(&[0, 1, 2, 4, 6]), digest));
        }
        assert!(instances.iter().any(|i| i.overflow_index().is_some()));
        assert!(instances.iter().any(|i| i.overflow_index().is_none()));
        assert!(instances.iter().any(|i| i.node_air().is_some()));
        assert!(instances.iter().any(|i| i.node_air().is_none() && i.shape.depth > 0));
        for instance in &instances {
            let (ours, theirs) = lookups_both_ways(instance);
            assert_eq!(ours, theirs, "shape {:?}", instance.shape);
            let (declared, inferred) = quotient_chunks_both_ways(instance);
            assert_eq!(declared, inferred, "shape {:?}", instance.shape);
            // The FRI quotient evaluates every table's LogUp constraints
            // from compiled lookups, not Plonky3's gadget.
            let compiled = AggAir::lookups(&instance.airs)
                .iter()
                .all(|l| sigagg_prover::messages::LookupProgram::new(l).is_some());
            assert!(compiled, "shape {:?}", instance.shape);
        }
    }
}
