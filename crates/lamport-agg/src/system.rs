//! One proof instance: the shape and AIRs a statement implies, and the
//! calls into Plonky3's batch prover and verifier shared by both modes.

use std::panic::{AssertUnwindSafe, catch_unwind};

use p3_batch_stark::{
    CommonData, ProverData, ProverOnlyData, StarkInstance, prove_batch, verify_batch,
};
use p3_matrix::dense::RowMajorMatrix;
use p3_lookup::Lookups;
use p3_util::log2_strict_usize;
use sigagg_lamport::GroupKey;
use sigagg_lamport::field::Digest;

use crate::air::LampAir;
use crate::air::hash::{Codewords, HashAir, codeword_chunks};
use crate::air::hash16::Hash16Air;
use crate::air::slot::SlotAir;
use crate::config::{MerkleHash, Settings, Val, stark_config, stark_config24};
use crate::error::{ProveError, VerifyError};
use crate::layout::Shape;
use crate::poseidon::Rounds;
use crate::proof::StarkProof;

/// The AIRs of one proof and everything needed to build or check its traces.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The geometry.
    pub shape: Shape,
    /// The AIRs in batch order: slot, main, tree (if any), overflow (if any).
    pub airs: Vec<LampAir>,
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
        let jobs = (0..slots)
            .map(|s| codewords[at(s)].iter().filter(|&&b| b).count())
            .sum();
        let shape = Shape {
            num_subkeys,
            slots,
            depth: 0,
            jobs,
            rounds,
        };
        let sponge_rows = shape.sponge_rows();
        let chunks: Vec<Vec<Val>> = (0..slots)
            .map(|s| codeword_chunks(&codewords[at(s)], sponge_rows))
            .collect();
        let padded_keys: Vec<Digest> = (0..slots).map(|s| keys[at(s)]).collect();
        let mut airs = vec![
            LampAir::Slot(SlotAir::aggregate(&padded_keys, &chunks, sponge_rows)),
            LampAir::Hash(HashAir::new(
                shape.main_spec(),
                num_subkeys,
                Codewords::PerSlot,
                [Default::default(); 8],
            )),
        ];
        if shape.overflow_rows() > 0 {
            airs.push(LampAir::Hash16(Hash16Air::new(rounds)));
        }
        Self {
            shape,
            airs,
            digest,
            count,
        }
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
        let shape = Shape {
            num_subkeys,
            slots,
            depth,
            jobs,
            rounds,
        };
        let root = *group.root();
        let mut airs = vec![
            LampAir::Slot(SlotAir::threshold(
                slots,
                count,
                depth,
                group.size(),
                revealed,
            )),
            LampAir::Hash(HashAir::new(
                shape.main_spec(),
                num_subkeys,
                Codewords::Shared(codeword),
                root,
            )),
        ];
        if let Some(spec) = shape.tree_spec() {
            airs.push(LampAir::Hash(HashAir::new(
                spec,
                num_subkeys,
                Codewords::Shared(codeword),
                root,
            )));
        }
        if shape.overflow_rows() > 0 {
            airs.push(LampAir::Hash16(Hash16Air::new(rounds)));
        }
        Self {
            shape,
            airs,
            digest,
            count,
        }
    }

    /// The slot table's AIR.
    pub fn slot_air(&self) -> &SlotAir {
        match &self.airs[0] {
            LampAir::Slot(a) => a,
            _ => unreachable!("the slot table comes first"),
        }
    }

    /// The main table's AIR.
    pub fn main_air(&self) -> &HashAir {
        match &self.airs[MAIN] {
            LampAir::Hash(a) => a,
            _ => unreachable!("the main table comes second"),
        }
    }

    /// The separate tree table's AIR and batch position, if any.
    pub fn tree_air(&self) -> Option<(usize, &HashAir)> {
        self.shape.tree_spec().map(|_| match &self.airs[MAIN + 1] {
            LampAir::Hash(a) => (MAIN + 1, a),
            _ => unreachable!("the tree table follows the main table"),
        })
    }

    /// The overflow table's batch position, if any.
    pub fn overflow_index(&self) -> Option<usize> {
        (self.shape.overflow_rows() > 0).then(|| self.airs.len() - 1)
    }

    /// The overflow table's AIR, if any.
    pub fn overflow_air(&self) -> Option<&Hash16Air> {
        self.overflow_index().map(|i| match &self.airs[i] {
            LampAir::Hash16(a) => a,
            _ => unreachable!("the overflow table comes last"),
        })
    }

    /// log2 of every table height, in batch order.
    pub fn degree_bits(&self) -> Vec<usize> {
        self.shape
            .heights()
            .iter()
            .map(|&h| log2_strict_usize(h))
            .collect()
    }
}

/// Proves `traces` (one per AIR, in batch order) without checking them
/// first, with the Merkle hash `settings` name.
pub fn prove(
    settings: &Settings,
    instance: &Instance,
    traces: &[RowMajorMatrix<Val>],
) -> Result<StarkProof, ProveError> {
    assert_eq!(traces.len(), instance.airs.len(), "one trace per AIR");
    // The same call for both configurations (their types differ only in
    // the digest, which Plonky3's bounds make awkward to abstract over).
    macro_rules! prove_with {
        ($config:expr) => {{
            let instances: Vec<StarkInstance<'_, _, LampAir>> = instance
                .airs
                .iter()
                .zip(traces)
                .map(|(air, trace)| StarkInstance { air, trace, public_values: vec![] })
                .collect();
            let data = ProverData { common: CommonData::new(None, lookups(&instance.airs)), prover_only: ProverOnlyData::empty() };
            prove_batch(&$config, &instances, &data).map_err(|e| ProveError::Prover(format!("{e:?}")))?
        }};
    }
    let settings = &settings.fitted_to(&instance.degree_bits());
    Ok(match settings.merkle {
        MerkleHash::Sha256 => StarkProof::Sha256(prove_with!(stark_config(settings, &instance.digest))),
        MerkleHash::Sha256Trunc24 => StarkProof::Sha256Trunc24(prove_with!(stark_config24(settings, &instance.digest))),
    })
}

/// Verifies `proof` against the AIRs of `instance`. The table heights come
/// from the statement, never from the proof: a proof whose heights differ
/// is rejected before any check (a taller table would, for example, give
/// the prover spare rows the statement did not pay for). So is a proof
/// whose Merkle hash is not the one `settings` name.
///
/// Plonky3's verifier reports malformed proofs as errors; a panic on some
/// unforeseen malformed input would still be caught here and reported as
/// [`VerifyError::Invalid`], so untrusted bytes never abort the caller.
pub fn verify(settings: &Settings, instance: &Instance, proof: &StarkProof) -> Result<(), VerifyError> {
    if proof.degree_bits() != instance.degree_bits() {
        return Err(VerifyError::ShapeMismatch);
    }
    if proof.merkle() != settings.merkle {
        return Err(VerifyError::SettingsMismatch);
    }
    let settings = &settings.fitted_to(&instance.degree_bits());
    let public_values = vec![Vec::new(); instance.airs.len()];
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let airs = &instance.airs;
        match proof {
            StarkProof::Sha256(p) => {
                let config = stark_config(settings, &instance.digest);
                verify_batch(&config, airs, p, &public_values, &CommonData::new(None, lookups(airs))).map_err(|e| format!("{e:?}"))
            }
            StarkProof::Sha256Trunc24(p) => {
                let config = stark_config24(settings, &instance.digest);
                verify_batch(&config, airs, p, &public_values, &CommonData::new(None, lookups(airs))).map_err(|e| format!("{e:?}"))
            }
        }
        .map_err(VerifyError::Invalid)
    }));
    outcome.unwrap_or_else(|_| Err(VerifyError::Invalid("the verifier rejected a malformed proof".into())))
}

/// The lookups of every table, folded as Plonky3's
/// `ProverData::from_airs_and_degrees` folds them but without its symbolic
/// degree inference (each table's budget is its constraint degree,
/// [`LampAir::degree`]). Prover and verifier both call it, so they agree
/// by construction; a test checks it equals Plonky3's own derivation.
pub(crate) fn lookups(airs: &[LampAir]) -> Vec<Lookups<Val>> {
    sigagg_prover::fold_lookups(airs, LampAir::degree)
}

/// This crate's lookups for `instance`, serialized, and those Plonky3's
/// `ProverData::from_airs_and_degrees` derives (for tests).
#[doc(hidden)]
pub fn lookups_both_ways(instance: &Instance) -> (Vec<u8>, Vec<u8>) {
    let ours = lookups(&instance.airs);
    let settings = match instance.shape.rounds {
        Rounds::Every => crate::config::TEST,
        Rounds::Paired => crate::config::TEST_COMPACT,
    };
    let config = stark_config(&settings, &instance.digest);
    let theirs =
        ProverData::from_airs_and_degrees(&config, &instance.airs, &instance.degree_bits())
            .expect("no preprocessed columns")
            .common
            .lookups;
    (
        postcard::to_allocvec(&ours).expect("serializable"),
        postcard::to_allocvec(&theirs).expect("serializable"),
    )
}

#[cfg(test)]
mod tests {
    use sigagg_lamport::{LamportPlus, LamportPlusMined, ParameterSet};

    use super::*;

    fn codeword(n: usize, ones: usize) -> Vec<bool> {
        (0..n).map(|i| i < ones).collect()
    }

    /// The prover and verifier skip Plonky3's degree inference when folding
    /// lookups; the result must equal Plonky3's own for every table layout:
    /// both sets, with and without the overflow table, the separate tree
    /// table (plain set) and tree rows in the main table (mined set), with
    /// and without a revealed bitmap, in both permutation layouts.
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
            instances.push(Instance::threshold(
                rounds,
                n,
                &word,
                &group,
                5,
                Some(&[0, 1, 2, 4, 6]),
                digest,
            ));
        }
        assert!(instances.iter().any(|i| i.overflow_index().is_some()));
        assert!(instances.iter().any(|i| i.overflow_index().is_none()));
        assert!(instances.iter().any(|i| i.tree_air().is_some()));
        assert!(
            instances
                .iter()
                .any(|i| i.tree_air().is_none() && i.shape.depth > 0)
        );
        for instance in &instances {
            let (ours, theirs) = lookups_both_ways(instance);
            assert_eq!(ours, theirs, "shape {:?}", instance.shape);
        }
    }
}
