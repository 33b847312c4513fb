//! The batch prover: Plonky3's batch-STARK protocol, run on traces the
//! prover owns.
//!
//! `p3_batch_stark::prove_batch` borrows its traces for the whole proof and
//! hands the PCS a copy of each, because it reads them once more, after the
//! commitment, to build the LogUp columns. Measured at N = 8192 (fast
//! settings, BENCHMARKS.md) that copy took 5.3 s of a process's first proof
//! (1.26 GiB of fresh pages, copied on one thread), and the borrowed traces
//! stayed resident to the end, where memory peaks (4.32 GiB at the opening).
//!
//! This prover runs the same protocol, phase for phase, through Plonky3's
//! own public transcript ([`BatchProverTranscript`]) and PCS, with the
//! quotient evaluated by `fri::quotient` (Plonky3's values, with less
//! work per point), and so emits the proof `prove_batch`
//! would, byte for byte (`testing::proofs_both_ways` and the tests that
//! call it hold it to that), which Plonky3's `verify_batch` and ours
//! ([`super::verifier`]) both accept. It differs only in what it keeps alive:
//! before the commitment it copies out the few columns the lookups read
//! ([`LookupColumns`]) and gives each trace to the PCS by value, where the
//! low-degree extension grows in the trace's own storage; the narrow copies
//! are dropped once the LogUp columns exist.
//!
//! Only what the sigagg tables use is supported: no preprocessed columns,
//! no zero-knowledge randomization. Other shapes get a [`ProveError`].

use std::fmt::Debug;

use p3_air::Air;
use p3_air::symbolic::{AirLayout, SymbolicExpressionExt};
use p3_batch_stark::folder::ProverConstraintFolderWithLookups;
use p3_batch_stark::proof::OpenedValuesWithLookups;
use p3_batch_stark::{
    BatchCommitments, BatchOpenedValues, BatchProof, BatchProverTranscript, Challenge, Commitment, Domain,
    OpenedValues, StarkGenericConfig, Val,
};
use p3_challenger::GrindingChallenger;
use p3_commit::{OpeningRequest, Pcs, PolynomialSpace, UnivariateStarkPcs};
use p3_field::{Algebra, PrimeField64};
use p3_lookup::logup::LogUpGadget;
use p3_lookup::{InteractionSymbolicBuilder, LookupProtocol, Lookups, check_multiplicity_height_bound};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::*;
use p3_uni_stark::{PcsProverError, StarkOpeningLayout};
use p3_util::log2_strict_usize;
use tracing::info_span;

use super::lookup_columns::LookupColumns;
use super::quotient::TableQuotient;
use super::{air_layout, batch_shape};
use crate::error::ProveError;

/// One batch proof of `traces` (one per AIR, in batch order) with the given
/// public values and lookups, table `i`'s quotient split into
/// `2^log_chunks[i]` chunks ([`super::verifier::log_quotient_chunks`]), as
/// `p3_batch_stark::prove_batch` would make it from the same inputs when
/// its symbolic inference finds those counts, without keeping the traces
/// past their commitment (see the module docs).
pub fn prove_batch_owned<SC, A>(
    config: &SC,
    airs: &[A],
    traces: Vec<RowMajorMatrix<Val<SC>>>,
    public_values: &[Vec<Val<SC>>],
    lookups: &[Lookups<Val<SC>>],
    log_chunks: &[usize],
) -> Result<BatchProof<SC>, ProveError>
where
    SC: StarkGenericConfig,
    A: Air<InteractionSymbolicBuilder<Val<SC>, SC::Challenge>> + for<'a> Air<ProverConstraintFolderWithLookups<'a, SC>>,
    Val<SC>: PrimeField64,
    SymbolicExpressionExt<Val<SC>, SC::Challenge>: Algebra<SC::Challenge>,
    Domain<SC>: PolynomialSpace<Val = crate::config::Val> + Send + Sync,
    SC::Pcs: Sync,
    PcsProverError<SC>: Send + Debug,
    SC::Challenger: GrindingChallenger<Witness = Val<SC>>,
    <SC::Pcs as Pcs<SC::Challenge, SC::Challenger>>::ProverData: Sync,
{
    let n = airs.len();
    if traces.len() != n || public_values.len() != n || lookups.len() != n || log_chunks.len() != n {
        return Err(ProveError(format!(
            "{n} tables but {} traces, {} public-value lists, {} lookup lists and {} chunk counts",
            traces.len(),
            public_values.len(),
            lookups.len(),
            log_chunks.len()
        )));
    }
    if SC::Pcs::ZK || config.is_zk() != 0 {
        return Err(ProveError("the owned-trace prover has no zero-knowledge randomization".into()));
    }
    if airs.iter().any(|air| air.preprocessed_trace().is_some() || !air.public_boundary_io().is_empty()) {
        return Err(ProveError(
            "the owned-trace prover takes no preprocessed columns or boundary public values".into(),
        ));
    }
    let pcs = config.pcs();
    let gadget = LogUpGadget::new();
    let heights: Vec<usize> = traces.iter().map(|t| t.height()).collect();
    let log_heights: Vec<usize> = heights.iter().map(|&h| log2_strict_usize(h)).collect();
    check_multiplicity_height_bound(lookups, &heights)
        .map_err(|e| ProveError(format!("lookup multiplicities: {e:?}")))?;
    let domains: Vec<Domain<SC>> = heights.iter().map(|&h| pcs.natural_domain_for_degree(h)).collect();
    let layouts: Vec<AirLayout> = airs.iter().map(air_layout).collect();

    let num_lookup_instances = lookups.iter().filter(|l| !l.is_empty()).count();
    let shape = batch_shape(config, airs, public_values.iter().map(Vec::len).collect(), num_lookup_instances);
    let mut challenger = config.initialise_challenger();
    let mut transcript =
        BatchProverTranscript::<SC::Challenger, Val<SC>, Challenge<SC>, Commitment<SC>>::new(&mut challenger, shape);
    transcript.instance_bindings(&log_heights);

    // Main commitment: the lookups' columns first, then the traces by value.
    let lookup_columns: Vec<Option<LookupColumns<Val<SC>>>> = info_span!("copy lookup columns").in_scope(|| {
        traces.iter().zip(lookups).map(|(t, l)| (!l.is_empty()).then(|| LookupColumns::of(t, l))).collect()
    });
    let (main_commit, main_data) = pcs
        .commit(domains.iter().copied().zip(traces))
        .inspect_err(|_| transcript.abort())
        .map_err(pcs_error("trace commitment"))?;
    let pub_vals: Vec<&[Val<SC>]> = public_values.iter().map(Vec::as_slice).collect();
    transcript.main_phase(main_commit.clone(), &pub_vals);
    transcript.preprocessed_phase(None);

    // LogUp columns, from the narrow copies, which go once they are built.
    let (challenges, lookup_pow_witness) = transcript.lookup_phase(lookups, &gadget);
    let mut terminals = vec![None; n];
    let mut permutation_inputs = Vec::new();
    for (i, columns) in lookup_columns.into_iter().enumerate() {
        let Some(columns) = columns else { continue };
        let (permutation, terminal) = info_span!("generate lookup columns", air_idx = i).in_scope(|| {
            gadget.generate_permutation::<Val<SC>, SC::Challenge>(
                &columns.trace,
                &None,
                &public_values[i],
                &columns.lookups,
                &challenges[i],
            )
        });
        terminals[i] = terminal;
        permutation_inputs.push((domains[i], permutation.flatten_to_base()));
    }
    let permutation = if permutation_inputs.is_empty() {
        None
    } else {
        let committed = pcs.commit(permutation_inputs).inspect_err(|_| transcript.abort());
        Some(committed.map_err(pcs_error("permutation commitment"))?)
    };
    let terminal_values: Vec<Challenge<SC>> = terminals.iter().flatten().map(|t| t.0).collect();
    let alpha = transcript.permutation_phase(permutation.as_ref().map(|(c, _)| c.clone()), &terminal_values);
    let permutation_data = permutation.as_ref().map(|(_, data)| data);
    let permutation_index: Vec<usize> = lookups
        .iter()
        .scan(0, |next, l| {
            let index = *next;
            *next += usize::from(!l.is_empty());
            Some(index)
        })
        .collect();

    // Quotients, one instance per task as in Plonky3.
    type Chunks<SC> = (Vec<Domain<SC>>, Vec<RowMajorMatrix<Val<SC>>>);
    let per_instance: Vec<Chunks<SC>> = (0..n)
        .into_par_iter()
        .map(|i| {
            let _span = info_span!("compute quotient", air_idx = i).entered();
            let quotient_domain = domains[i].create_disjoint_domain(heights[i] << log_chunks[i]);
            let main = pcs.get_evaluations_on_domain(&main_data, i, quotient_domain);
            let perm = permutation_data
                .filter(|_| !lookups[i].is_empty())
                .map(|data| pcs.get_evaluations_on_domain(data, permutation_index[i], quotient_domain));
            let perm_vals: Vec<Challenge<SC>> = terminals[i].iter().map(|t| t.0).collect();
            let values = TableQuotient {
                air: &airs[i],
                public_values: &public_values[i],
                layout: layouts[i],
                trace_domain: domains[i],
                quotient_domain,
                main: &main,
                permutation: perm.as_ref(),
                lookups: &lookups[i],
                permutation_values: &perm_vals,
                challenges: &challenges[i],
            }
            .values(pcs, &gadget, alpha);
            let chunks = 1 << log_chunks[i];
            let flat = RowMajorMatrix::new_col(values).flatten_to_base();
            let chunk_domains = quotient_domain.split_domains(chunks);
            let evals = chunk_domains.iter().copied().zip(quotient_domain.split_evals(chunks, flat));
            let ldes = pcs.get_quotient_ldes(evals, chunks)?;
            Ok((chunk_domains, ldes))
        })
        .collect::<Result<_, PcsProverError<SC>>>()
        .inspect_err(|_| transcript.abort())
        .map_err(pcs_error("quotient evaluations"))?;
    let chunk_counts: Vec<usize> = per_instance.iter().map(|(d, _)| d.len()).collect();
    let quotient_ldes = per_instance.into_iter().flat_map(|(_, ldes)| ldes).collect();
    let (quotient_commit, quotient_data) =
        pcs.commit_ldes(quotient_ldes).inspect_err(|_| transcript.abort()).map_err(pcs_error("quotient commitment"))?;
    transcript.quotient_phase(quotient_commit.clone(), None);

    // Openings: main at zeta (and the next row where read), quotient chunks
    // at zeta, LogUp columns at zeta and the next row.
    let (zeta, ood_pow_witness) = transcript.ood_phase();
    let next = |i: usize| domains[i].next_point(zeta).expect("two-adic domains have a next point");
    let main_points = (0..n)
        .map(|i| if airs[i].main_next_row_columns().is_empty() { vec![zeta] } else { vec![zeta, next(i)] })
        .collect();
    let quotient_points = chunk_counts.iter().flat_map(|&c| (0..c).map(|_| vec![zeta])).collect();
    let mut rounds = vec![
        OpeningRequest { prover_data: &main_data, points: main_points },
        OpeningRequest { prover_data: &quotient_data, points: quotient_points },
    ];
    if let Some((_, data)) = &permutation {
        let points = (0..n).filter(|&i| !lookups[i].is_empty()).map(|i| vec![zeta, next(i)]).collect();
        rounds.push(OpeningRequest { prover_data: data, points });
    }
    let opening = transcript.delegate(|challenger| pcs.open_with_preprocessing(rounds, challenger, None));
    let (opened, opening_proof) = opening.inspect_err(|_| transcript.abort()).map_err(pcs_error("opening"))?;
    transcript.finish();

    let layout = StarkOpeningLayout::new(false);
    let mut main_values = opened[layout.trace].iter();
    let mut quotient_values_iter = opened[layout.quotient].iter();
    let mut permutation_values = opened.get(layout.preprocessed).into_iter().flatten();
    let instances = (0..n)
        .map(|i| {
            let main = main_values.next().expect("one main opening per table");
            let quotient_chunks = (0..chunk_counts[i])
                .map(|_| quotient_values_iter.next().expect("one opening per chunk")[0].clone())
                .collect();
            let (permutation_local, permutation_next) = if lookups[i].is_empty() {
                (vec![], vec![])
            } else {
                let v = permutation_values.next().expect("one LogUp opening per table with lookups");
                (v[0].clone(), v[1].clone())
            };
            OpenedValuesWithLookups {
                base_opened_values: OpenedValues {
                    trace_local: main[0].clone(),
                    trace_next: main.get(1).cloned(),
                    preprocessed: None,
                    quotient_chunks,
                    random: None,
                },
                permutation_local,
                permutation_next,
            }
        })
        .collect();

    Ok(BatchProof {
        commitments: BatchCommitments {
            main: main_commit,
            quotient_chunks: quotient_commit,
            random: None,
            permutation: permutation.map(|(c, _)| c),
        },
        opened_values: BatchOpenedValues { instances },
        opening_proof,
        lookup_terminals: terminals,
        degree_bits: log_heights,
        lookup_pow_witness,
        ood_pow_witness,
    })
}

/// A PCS failure in `phase`, as a [`ProveError`].
fn pcs_error<E: Debug>(phase: &'static str) -> impl Fn(E) -> ProveError {
    move |e| ProveError(format!("PCS {phase} failed: {e:?}"))
}
