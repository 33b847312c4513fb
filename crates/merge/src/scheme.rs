//! The parameter sets whose aggregates merge: what a merge reads of a
//! child of each.

use sigagg_prover::Settings;
use sigagg_prover::zerocheck::SkipAir;
use sigagg_xmss::{LeanSigProd, Seed001, Signature};
use sigagg_xmss_agg::air::AggAir;
use sigagg_xmss_agg::leansig::system::LeanAir;
use sigagg_xmss_agg::threshold::{Certificate, ThresholdStatement};
use sigagg_xmss_agg::{AggScheme, AggregateStatement, Proof, ProveError, VerifierView, VerifyError};

/// A parameter set whose aggregate proofs merge: Seed001 (hash-sig's
/// lifetime-2^20 set) and `LeanSigProd` (what lean Ethereum validators
/// sign). Its children are verified natively before they are merged, and
/// in the circuit from what [`MergeScheme::verifier_view`] gives.
pub trait MergeScheme: AggScheme {
    /// The tables of its aggregate proofs.
    type Air: SkipAir + Send;

    /// Aggregates raw signatures into a child's proof (what a merge does
    /// with signatures given beside its children).
    ///
    /// # Errors
    /// The aggregator's refusal (an invalid signature among them).
    fn prove_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        signatures: &[Signature<Self>],
    ) -> Result<Proof, ProveError>;

    /// Verifies a child's aggregate proof natively.
    ///
    /// # Errors
    /// The aggregator's refusal.
    fn verify_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        proof: &Proof,
    ) -> Result<(), VerifyError>;

    /// A child statement's tables in batch order, their heights (log2)
    /// and its transcript's seed.
    fn verifier_view(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
    ) -> (Vec<Self::Air>, Vec<usize>, Vec<u8>);

    /// An aggregate of `signers` signers as a verifier who knows its
    /// statement only by its digest reads it: its tables with every
    /// statement column zero, their heights and its transcript's seed (a
    /// withheld child, whose periodic columns the circuit all defers).
    fn placeholder_view(
        settings: &Settings,
        signers: usize,
        digest: &[u8; 32],
    ) -> (Vec<Self::Air>, Vec<usize>, Vec<u8>);

    /// Verifies a child's threshold proof natively.
    ///
    /// # Errors
    /// The aggregator's refusal.
    fn verify_threshold(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        proof: &Proof,
    ) -> Result<Certificate, VerifyError>;

    /// A threshold child's tables, heights and seed, for a proof claiming
    /// `count` signers (and, disclosed, `signers`).
    ///
    /// # Errors
    /// Claims the aggregator refuses before any proof.
    fn threshold_view(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        count: u32,
        signers: Option<&[u32]>,
    ) -> Result<VerifierView<Self::Air>, VerifyError>;
}

impl MergeScheme for Seed001 {
    type Air = AggAir;

    fn prove_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        signatures: &[Signature<Self>],
    ) -> Result<Proof, ProveError> {
        sigagg_xmss_agg::aggregate::prove(settings, statement, signatures)
    }

    fn verify_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        proof: &Proof,
    ) -> Result<(), VerifyError> {
        sigagg_xmss_agg::aggregate::verify(settings, statement, proof)
    }

    fn verifier_view(settings: &Settings, statement: &AggregateStatement<Self>) -> (Vec<AggAir>, Vec<usize>, Vec<u8>) {
        sigagg_xmss_agg::aggregate::verifier_view(settings, statement)
    }

    fn placeholder_view(settings: &Settings, signers: usize, digest: &[u8; 32]) -> (Vec<AggAir>, Vec<usize>, Vec<u8>) {
        sigagg_xmss_agg::aggregate::placeholder_view(settings, signers, digest)
    }

    fn verify_threshold(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        proof: &Proof,
    ) -> Result<Certificate, VerifyError> {
        sigagg_xmss_agg::threshold::verify(settings, statement, proof)
    }

    fn threshold_view(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        count: u32,
        signers: Option<&[u32]>,
    ) -> Result<VerifierView<AggAir>, VerifyError> {
        sigagg_xmss_agg::threshold::verifier_view(settings, statement, count, signers)
    }
}

impl MergeScheme for LeanSigProd {
    type Air = LeanAir;

    fn prove_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        signatures: &[Signature<Self>],
    ) -> Result<Proof, ProveError> {
        sigagg_xmss_agg::leansig::aggregate::prove(settings, statement, signatures)
    }

    fn verify_child(
        settings: &Settings,
        statement: &AggregateStatement<Self>,
        proof: &Proof,
    ) -> Result<(), VerifyError> {
        sigagg_xmss_agg::leansig::aggregate::verify(settings, statement, proof)
    }

    fn verifier_view(settings: &Settings, statement: &AggregateStatement<Self>) -> (Vec<LeanAir>, Vec<usize>, Vec<u8>) {
        sigagg_xmss_agg::leansig::aggregate::verifier_view(settings, statement)
    }

    fn placeholder_view(settings: &Settings, signers: usize, digest: &[u8; 32]) -> (Vec<LeanAir>, Vec<usize>, Vec<u8>) {
        sigagg_xmss_agg::leansig::aggregate::placeholder_view::<LeanSigProd>(settings, signers, digest)
    }

    fn verify_threshold(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        proof: &Proof,
    ) -> Result<Certificate, VerifyError> {
        sigagg_xmss_agg::leansig::threshold::verify(settings, statement, proof)
    }

    fn threshold_view(
        settings: &Settings,
        statement: &ThresholdStatement<Self>,
        count: u32,
        signers: Option<&[u32]>,
    ) -> Result<VerifierView<LeanAir>, VerifyError> {
        sigagg_xmss_agg::leansig::threshold::verifier_view(settings, statement, count, signers)
    }
}
