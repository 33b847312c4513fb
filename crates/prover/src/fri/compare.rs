//! Our FRI backend side by side with Plonky3's own derivations, for tests:
//! quotient-chunk counts, lookups and whole proofs, each computed both ways.
//! Built only for tests (`testing` feature).

use p3_batch_stark::symbolic::{get_log_num_quotient_chunks_for_domain, get_max_constraint_degree};
use p3_batch_stark::{ProverData, ProverOnlyData, StarkInstance, prove_batch};
use p3_commit::Pcs;
use p3_lookup::LogUpGadget;
use p3_matrix::dense::RowMajorMatrix;

use super::*;
use crate::config::Challenge;

/// log2 of every table's quotient-chunk count as the backend takes it
/// from the declared degrees, and as Plonky3 infers it from the
/// constraints symbolically, for tests: the two must be equal (a declared
/// degree below the true one would make honest proofs fail; see
/// [`verifier`]).
///
/// # Panics
/// If a table's declared degree is below the degree Plonky3 infers for
/// its constraints and lookups at its height: the security level, which
/// counts the declared degree, would be overstated.
pub fn quotient_chunks_both_ways<A: Table>(settings: &Settings, tables: &Tables<'_, A>) -> (Vec<usize>, Vec<usize>) {
    let config = fri_of(settings).stark_config_seeded(Vec::new());
    let lookups = A::lookups(tables.airs);
    let theirs = tables
        .airs
        .iter()
        .zip(&tables.log_heights)
        .zip(&lookups)
        .map(|((air, &log_height), lookups)| {
            let layout = air_layout(air);
            type FriPcs = <AggConfig as StarkGenericConfig>::Pcs;
            type Challenger = <AggConfig as StarkGenericConfig>::Challenger;
            let domain =
                <FriPcs as Pcs<Challenge, Challenger>>::natural_domain_for_degree(config.pcs(), 1 << log_height);
            let gadget = LogUpGadget::new();
            let degree =
                get_max_constraint_degree::<_, Challenge, A, _>(air, layout, 1 << log_height, lookups, &gadget);
            assert!(degree <= air.degree(), "a table declares degree {} below its constraints' {degree}", air.degree());
            get_log_num_quotient_chunks_for_domain::<_, Challenge, A, _>(air, layout, domain, lookups, 0, &gadget)
        })
        .collect();
    (declared_log_chunks(tables.airs), theirs)
}

/// `traces` proved against `tables` by [`prove`] and by Plonky3's own
/// `prove_batch`, each proof serialized, for tests: the two must be equal
/// byte for byte, since [`prover`] claims to run Plonky3's protocol.
pub fn proofs_both_ways<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> (Vec<u8>, Vec<u8>) {
    let fri = fri_of(settings);
    assert_eq!(fri.merkle, MerkleHash::Sha256, "compared under full-width SHA-256");
    let config = fri.fitted_to(&tables.log_heights).stark_config_seeded(tables.transcript_seed(settings));
    let instances: Vec<StarkInstance<'_, _, A>> = tables
        .airs
        .iter()
        .zip(&traces)
        .zip(&tables.public_values)
        .map(|((air, trace), public_values)| StarkInstance { air, trace, public_values: public_values.clone() })
        .collect();
    let data =
        ProverData { common: CommonData::new(None, A::lookups(tables.airs)), prover_only: ProverOnlyData::empty() };
    let theirs = prove_batch(&config, &instances, &data).expect("Plonky3's proof");
    let ours = match prove(fri, tables, traces.clone()).expect("our proof") {
        FriProof::Sha256(p) => p,
        FriProof::Sha256Trunc24(_) => unreachable!("proved under SHA-256"),
    };
    (postcard::to_allocvec(&ours).expect("serializable"), postcard::to_allocvec(&theirs).expect("serializable"))
}

/// The lookups of `tables` as the backend folds them ([`Table::lookups`])
/// and as Plonky3's own `ProverData::from_airs_and_degrees` derives them,
/// serialized, for tests (the folding skips Plonky3's symbolic degree
/// inference, so the two must be shown equal).
pub fn lookups_both_ways<A: Table>(settings: &Settings, tables: &Tables<'_, A>) -> (Vec<u8>, Vec<u8>) {
    let ours = A::lookups(tables.airs);
    let theirs = ProverData::from_airs_and_degrees(
        &fri_of(settings).stark_config_seeded(Vec::new()),
        tables.airs,
        &tables.log_heights,
    )
    .expect("no preprocessed columns")
    .common
    .lookups;
    (postcard::to_allocvec(&ours).expect("serializable"), postcard::to_allocvec(&theirs).expect("serializable"))
}

/// The FRI parameters of `settings`, which the comparisons need.
///
/// # Panics
/// If the settings are not FRI's.
fn fri_of(settings: &Settings) -> &FriSettings {
    settings.fri().expect("Plonky3's batch STARK is compared under FRI settings")
}
