//! The batch verifier: Plonky3's `verify_batch`, step for step, with the
//! number of quotient chunks of each table given instead of inferred.
//!
//! `p3_batch_stark::verify_batch` derives every table's quotient-chunk
//! count by evaluating all its constraints symbolically, and for tables
//! with periodic columns by walking every expression for its degree: at
//! N = 1024 (fast settings) 45 ms of a 54 ms verification, for a number
//! the table already declares ([`Table::degree`](crate::Table::degree)).
//! This verifier takes the counts from the caller
//! ([`log_quotient_chunks`]) and otherwise runs Plonky3's checks in
//! Plonky3's order through its public parts: the transcript
//! ([`BatchVerifierTranscript`]), the opening argument
//! ([`commitments_with_opening_points`]), the PCS, the constraint folder
//! and the LogUp terminal sum.
//!
//! The chunk count's soundness does not rest on the declared degree (a
//! sketch, leaving out the folding by `α` and FRI's proximity slack, which
//! Plonky3's analysis and ours, `fri::security`, carry). The verifier
//! checks `C(ζ) = Z_H(ζ)·Q(ζ)` at a random `ζ`, with `Q` recomposed from
//! the committed chunks, each proven close to degree below the trace
//! height `n` by FRI, and the count fixed by the verifier's AIRs, never by
//! the proof; whatever the count `k`, a trace that breaks a constraint
//! leaves `C − Z_H·Q` a nonzero polynomial of degree at most
//! `max(d, k + 1)·n`, which vanishes at `ζ` with probability at most that
//! over the size of the quintic extension. A declared degree below the
//! true one would make honest proofs fail, and would overstate the
//! security level, which counts the declared degree: the tests hold every
//! declared degree to at least the constraints' own and the counts to
//! Plonky3's inference (`testing::quotient_chunks_both_ways`, at the
//! heights they run: with periodic columns Plonky3's count depends on the
//! height), and the proofs to Plonky3's own byte for byte.
//!
//! Only the shapes the sigagg tables use are accepted: no preprocessed
//! columns, no zero-knowledge randomization.

use p3_air::symbolic::SymbolicExpressionExt;
use p3_air::{Air, BaseAir, RowWindow};
use p3_batch_stark::folder::VerifierConstraintFolderWithLookups;
use p3_batch_stark::verifier::commitments_with_opening_points;
use p3_batch_stark::{
    BatchProof, BatchVerificationError, BatchVerifierTranscript, Challenge, Commitment, CommonData, Domain, PcsError,
    StarkGenericConfig, Val,
};
use p3_challenger::GrindingChallenger;
use p3_commit::{Pcs, PeriodicColumns, PolynomialSpace, UnivariateStarkPcs};
use p3_field::{Algebra, BasedVectorSpace, ExtensionField, Field, PrimeCharacteristicRing, PrimeField64};
use p3_lookup::logup::LogUpGadget;
use p3_lookup::{InteractionSymbolicBuilder, LookupError, LookupProtocol, Lookups, check_multiplicity_height_bound};
use p3_matrix::dense::RowMajorMatrixView;
use p3_matrix::stack::VerticalPair;
use p3_uni_stark::{
    InvalidProofShapeError, VerificationError, VerifierConstraintFolder, recompose_quotient_from_chunks,
    validate_degree_bits,
};
use p3_util::log2_ceil_usize;

use super::batch_shape;

/// The error of [`verify_batch_with_chunks`]: Plonky3's.
pub type BatchError<SC> = BatchVerificationError<PcsError<SC>>;

/// log2 of the number of quotient chunks of a table whose constraints have
/// degree at most `degree`, as Plonky3 sizes them without zero knowledge:
/// the quotient has degree `(degree − 1)·n`, padded to a power of two, and
/// at least one chunk's worth (degree 2).
pub fn log_quotient_chunks(degree: usize) -> usize {
    log2_ceil_usize(degree.max(2) - 1)
}

/// Checks `proof` against `airs`, their public values and `common`'s
/// lookups as `p3_batch_stark::verify_batch` does, with table `i`'s
/// quotient split into `2^log_chunks[i]` chunks (see the module docs).
pub fn verify_batch_with_chunks<SC, A>(
    config: &SC,
    airs: &[A],
    proof: &BatchProof<SC>,
    public_values: &[Vec<Val<SC>>],
    common: &CommonData<SC>,
    log_chunks: &[usize],
) -> Result<(), BatchError<SC>>
where
    SC: StarkGenericConfig,
    Val<SC>: PrimeField64,
    SymbolicExpressionExt<Val<SC>, SC::Challenge>: Algebra<SC::Challenge>,
    A: Air<InteractionSymbolicBuilder<Val<SC>, SC::Challenge>>
        + for<'a> Air<VerifierConstraintFolderWithLookups<'a, SC>>,
    SC::Challenger: GrindingChallenger<Witness = Val<SC>>,
{
    // As in Plonky3: public inputs reach the proof only through the AIRs'
    // constraints; a cell listed for the backend to bind would go unbound.
    assert!(
        airs.iter().all(|air| air.public_boundary_io().is_empty()),
        "the batch STARK binds public values only through AIR constraints"
    );
    let BatchProof {
        commitments,
        opened_values,
        opening_proof,
        lookup_terminals,
        degree_bits,
        lookup_pow_witness,
        ood_pow_witness,
    } = proof;
    let (pcs, lookups, n) = (config.pcs(), &common.lookups, airs.len());
    let counts =
        [opened_values.instances.len(), public_values.len(), degree_bits.len(), lookup_terminals.len(), lookups.len()];
    if counts.iter().any(|&c| c != n) || log_chunks.len() != n || common.preprocessed.is_some() {
        return Err(InvalidProofShapeError::InstanceCountMismatch.into());
    }
    if SC::Pcs::ZK || config.is_zk() != 0 {
        return Err(VerificationError::RandomizationError.into());
    }
    if commitments.random.is_some() || opened_values.instances.iter().any(|v| v.base_opened_values.random.is_some()) {
        return Err(VerificationError::RandomizationError.into());
    }
    let mut heights = Vec::with_capacity(n);
    for (i, &bits) in degree_bits.iter().enumerate() {
        let (log_height, _) =
            validate_degree_bits(Some(i), bits, 0, pcs.log_min_trace_height(), pcs.log_max_trace_height())?;
        if log_chunks[i] >= usize::BITS as usize {
            let got = log_chunks[i];
            return Err(InvalidProofShapeError::QuotientDomainTooLarge {
                air: Some(i),
                maximum: usize::BITS as usize - 1,
                got,
            }
            .into());
        }
        heights.push(1usize << log_height);
    }
    check_multiplicity_height_bound(lookups, &heights)?;
    for i in 0..n {
        check_shape::<SC, A>(i, &airs[i], proof, public_values[i].len(), lookups[i].len(), 1 << log_chunks[i])?;
    }
    let num_lookup_instances = lookups.iter().filter(|l| !l.is_empty()).count();
    if commitments.permutation.is_some() != (num_lookup_instances > 0) {
        return Err(LookupError::CommitmentMismatch.into());
    }

    let shape = batch_shape(config, airs, airs.iter().map(BaseAir::num_public_values).collect(), num_lookup_instances);
    let mut challenger = config.initialise_challenger();
    let mut transcript =
        BatchVerifierTranscript::<SC::Challenger, Val<SC>, Challenge<SC>, Commitment<SC>>::new(&mut challenger, shape);
    transcript.instance_bindings(degree_bits);
    transcript.main_phase(commitments.main.clone(), public_values);
    transcript.preprocessed_phase(None);
    let challenges = transcript.lookup_phase(lookups, &LogUpGadget::new(), *lookup_pow_witness)?;
    let terminal_values: Vec<Challenge<SC>> = lookup_terminals.iter().flatten().map(|t| t.0).collect();
    let alpha = transcript.permutation_phase(commitments.permutation.clone(), &terminal_values);
    transcript.quotient_phase(commitments.quotient_chunks.clone(), None);
    let zeta = transcript.ood_phase(*ood_pow_witness)?;

    let opening = commitments_with_opening_points(
        config,
        airs,
        zeta,
        commitments,
        opened_values,
        common,
        degree_bits,
        &vec![0; n],
        log_chunks,
    );
    let (rounds, quotient_domains, preprocessed_index) = match opening {
        Ok(opening) => opening,
        Err(err) => {
            transcript.abort();
            return Err(err);
        }
    };
    let opened = transcript
        .delegate(|challenger| pcs.verify_with_preprocessing(rounds, opening_proof, challenger, preprocessed_index));
    transcript.finish();
    opened.map_err(VerificationError::InvalidOpeningArgument)?;

    for (i, air) in airs.iter().enumerate() {
        let trace_domain = pcs.natural_domain_for_degree(heights[i]);
        let at_zeta = AtZeta { zeta, alpha, challenges: &challenges[i], public_values: &public_values[i] };
        at_zeta.check::<A>(i, air, proof, &quotient_domains[i], trace_domain, &lookups[i]).map_err(|e| match e {
            VerificationError::OodEvaluationMismatch { .. } => {
                VerificationError::OodEvaluationMismatch { index: Some(i) }
            }
            other => other,
        })?;
    }
    LogUpGadget::new().verify_terminal_sum(lookup_terminals)?;
    Ok(())
}

/// Table `i`'s opened values have the widths and counts its AIR, public
/// values, lookups and `chunks` quotient chunks fix, and its terminal is
/// present exactly when it has lookups (Plonky3's shape checks, less the
/// preprocessed and randomization ones, refused earlier).
fn check_shape<SC: StarkGenericConfig, A: BaseAir<Val<SC>>>(
    i: usize,
    air: &A,
    proof: &BatchProof<SC>,
    num_public_values: usize,
    num_lookups: usize,
    chunks: usize,
) -> Result<(), BatchError<SC>> {
    let opened = &proof.opened_values.instances[i];
    let base = &opened.base_opened_values;
    let width = air.width();
    if num_public_values != air.num_public_values() {
        return Err(InvalidProofShapeError::PublicValuesLengthMismatch {
            expected: air.num_public_values(),
            got: num_public_values,
        }
        .into());
    }
    if base.trace_local.len() != width {
        return Err(InvalidProofShapeError::TraceLocalWidthMismatch {
            air: i,
            expected: width,
            got: base.trace_local.len(),
        }
        .into());
    }
    match (&base.trace_next, air.main_next_row_columns().is_empty()) {
        (Some(next), false) if next.len() == width => {}
        (None, true) => {}
        (Some(_), true) => return Err(InvalidProofShapeError::UnexpectedTraceNext { air: Some(i) }.into()),
        _ => return Err(InvalidProofShapeError::TraceNextMismatch { air: Some(i) }.into()),
    }
    if base.quotient_chunks.len() != chunks {
        let got = base.quotient_chunks.len();
        return Err(InvalidProofShapeError::QuotientChunksCountMismatch { air: i, expected: chunks, got }.into());
    }
    if base.quotient_chunks.iter().any(|c| c.len() != Challenge::<SC>::DIMENSION) {
        return Err(InvalidProofShapeError::QuotientChunkDimensionMismatch { air: i }.into());
    }
    if base.preprocessed.is_some() {
        return Err(InvalidProofShapeError::UnexpectedPreprocessedValues { air: Some(i) }.into());
    }
    let expected = if num_lookups == 0 { 0 } else { (num_lookups + 1) * Challenge::<SC>::DIMENSION };
    if opened.permutation_local.len() != expected || opened.permutation_next.len() != expected {
        return Err(LookupError::PermutationWidthMismatch { air: i, expected }.into());
    }
    let (expected_present, got_present) = (num_lookups > 0, proof.lookup_terminals[i].is_some());
    if expected_present != got_present {
        return Err(LookupError::TerminalPresenceMismatch { air: i, expected_present, got_present }.into());
    }
    Ok(())
}

/// What a table's constraint check at `ζ` needs beyond its opened values.
struct AtZeta<'a, SC: StarkGenericConfig> {
    zeta: SC::Challenge,
    alpha: SC::Challenge,
    challenges: &'a [SC::Challenge],
    public_values: &'a [Val<SC>],
}

impl<SC: StarkGenericConfig> AtZeta<'_, SC> {
    /// Table `i`'s constraints, with its lookups' and folded by `alpha`,
    /// evaluated at `ζ` from the opened values, equal `Z_H(ζ)` times the
    /// quotient recomposed from its chunks.
    fn check<A>(
        &self,
        i: usize,
        air: &A,
        proof: &BatchProof<SC>,
        quotient_domains: &[Domain<SC>],
        trace_domain: Domain<SC>,
        lookups: &Lookups<Val<SC>>,
    ) -> Result<(), VerificationError<PcsError<SC>>>
    where
        A: for<'a> Air<VerifierConstraintFolderWithLookups<'a, SC>>,
    {
        let opened = &proof.opened_values.instances[i];
        let base = &opened.base_opened_values;
        let quotient = recompose_quotient_from_chunks::<SC>(quotient_domains, &base.quotient_chunks, self.zeta)?;
        if trace_domain.vanishing_poly_at_point(self.zeta).is_zero() {
            return Err(VerificationError::OodPointInDomain);
        }
        let selectors = trace_domain.selectors_at_point(self.zeta);
        let periodic = air.periodic_columns();
        let periodic = PeriodicColumns::new(&periodic, trace_domain.size())?;
        let periodic_values: Vec<SC::Challenge> = trace_domain.evaluate_periodic_columns_at(periodic, self.zeta);
        let zeros = SC::Challenge::zero_vec(air.width());
        let trace_next = base.trace_next.as_deref().unwrap_or(&zeros);
        let (perm_local, perm_next) =
            (extension_row::<SC>(&opened.permutation_local), extension_row::<SC>(&opened.permutation_next));
        let terminal: Vec<SC::Challenge> = proof.lookup_terminals[i].iter().map(|t| t.0).collect();
        let empty: [SC::Challenge; 0] = [];
        let inner = VerifierConstraintFolder {
            main: VerticalPair::new(
                RowMajorMatrixView::new_row(&base.trace_local),
                RowMajorMatrixView::new_row(trace_next),
            ),
            preprocessed: VerticalPair::new(RowMajorMatrixView::new_row(&empty), RowMajorMatrixView::new_row(&empty)),
            preprocessed_window: RowWindow::from_two_rows(&empty, &empty),
            periodic_values: &periodic_values,
            public_values: self.public_values,
            is_first_row: selectors.is_first_row,
            is_last_row: selectors.is_last_row,
            is_transition: selectors.is_transition,
            alpha: self.alpha,
            accumulator: SC::Challenge::ZERO,
        };
        let mut folder = VerifierConstraintFolderWithLookups {
            inner,
            permutation: VerticalPair::new(
                RowMajorMatrixView::new_row(&perm_local),
                RowMajorMatrixView::new_row(&perm_next),
            ),
            permutation_challenges: self.challenges,
            permutation_values: &terminal,
        };
        LogUpGadget::new().eval_air_and_lookups(air, &mut folder, lookups);
        if folder.inner.accumulator * selectors.inv_vanishing != quotient {
            return Err(VerificationError::OodEvaluationMismatch { index: None });
        }
        Ok(())
    }
}

/// Opened LogUp columns, flattened to base-field coordinates, as
/// extension-field values (the shape checks fixed the length).
fn extension_row<SC: StarkGenericConfig>(flat: &[SC::Challenge]) -> Vec<SC::Challenge> {
    flat.chunks_exact(Challenge::<SC>::DIMENSION)
        .map(|chunk| Challenge::<SC>::from_ext_basis_coefficients(chunk).expect("DIMENSION coefficients"))
        .collect()
}
