//! One gadget's batch (one instance per 66-row block) proven end to end
//! with KZG on BW6-767, on `sigagg-bls-cert`'s machinery: its [`Setup`],
//! window-table MSM ([`FixedBaseMsm`]), verifier MSM ([`small_msm`]),
//! SHA-256 transcript and domains. A [`Gadget`] names its witness columns,
//! its constraints and the columns the verifier computes itself (periodic
//! and public); [`PoseidonBatch`], [`CompareBatch`] and [`SubgroupBatch`]
//! are the three built. It is a test bed for the PIOP of the certificate,
//! not the certificate (no encoding, no committee, one gadget per proof).
//!
//! ## Protocol
//! 1. Transcript: protocol and gadget labels, `N`, the statement.
//! 2. Prover commits the `W` witness columns; the transcript gives one `α`
//!    per constraint.
//! 3. Prover commits the quotient's chunks `Q0, Q1, Q2` ([`crate::quotient`]);
//!    the transcript gives `ζ`.
//! 4. Prover sends the witness columns at `ζ` and at `ζω`; the transcript
//!    gives `ν_1..ν_{W+1}` (the columns and the composed quotient
//!    `Q0 + ζ^N Q1 + ζ^{2N} Q2`, whose commitment the verifier forms from the
//!    chunks') and `ν'_1..ν'_W` for the values at `ζω`.
//! 5. Prover sends the KZG proofs `W1` (the ν-combination at `ζ`) and `W2`
//!    (the ν'-combination at `ζω`); the transcript gives `r`.
//!
//! The verifier evaluates the periodic and public columns itself, computes
//! `Q(ζ) = C(ζ)/Z_H(ζ)` from the constraints, and checks both openings
//! with one product of two pairings:
//! `e(A, g2) = e(W1 + r·W2, τ·g2)` with
//! `A = Σν_i C_i + ν_7 C_Q − y·g1 + ζ·W1 + r·(Σν'_k C_{s_k} − y'·g1 + ζω·W2)`.
//! Soundness is that of the PIOP ([`crate::quotient`]) plus KZG's binding
//! (q-SDH in the algebraic group model) and Fiat–Shamir; the random `ν`, `ν'`
//! and `r` make a false value in any one opening pass with probability at
//! most `1/q` each.

use ark_ec::pairing::Pairing;
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, Field, Zero};
use sigagg_bls_cert::domain::Domain;
use sigagg_bls_cert::field::{Bw6, G1, G1Projective};
use sigagg_bls_cert::msm::{FixedBaseMsm, small_msm};
use sigagg_bls_cert::piop::prover::{divide_by_linear, horner};
use sigagg_bls_cert::setup::{Setup, SetupKey};
use sigagg_bls_cert::transcript::Transcript;

use crate::poseidon::{self, BLOCK, Io};
use crate::quotient::{CHUNKS, quotient};
use crate::{F, McertError, compare, lottery, order, subgroup};

const PROTOCOL: &[u8] = b"sigagg-mithril-cert/v0/gadget-batch";

/// A PIOP gadget over 66-row blocks: its columns are the witness columns
/// first, then the columns the verifier evaluates itself.
pub trait Gadget {
    /// What the verifier knows: one instance per block.
    type Statement: ?Sized;
    /// Domain separation in the transcript.
    const LABEL: &'static [u8];
    /// Number of witness (committed) columns.
    const WITNESS: usize;
    /// Number of columns in all (witness, periodic, public).
    const ALL: usize;
    /// Number of constraints.
    const CONSTRAINTS: usize;
    /// Instances (blocks) in a statement.
    fn blocks(statement: &Self::Statement) -> usize;
    /// Absorbs the statement.
    fn absorb(statement: &Self::Statement, t: &mut Transcript);
    /// `Σ α_k C_k` at a row (`cur`: all columns; `next`: at least the witness).
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F;
    /// The verifier's non-witness columns at `z`.
    fn known_at(domain: &Domain, statement: &Self::Statement, z: F) -> Result<Vec<F>, McertError>;
}

/// Batches of Poseidon permutations ([`poseidon`]).
pub struct PoseidonBatch;
/// Batches of comparisons `ev < B` ([`compare`]).
pub struct CompareBatch;
/// Batches of subgroup tests ([`subgroup`]).
pub struct SubgroupBatch;
/// Batches of whole lottery blocks, `σ` hidden ([`lottery`]).
pub struct LotteryBatch;
/// Hidden increasing indices below `m` ([`order`]).
pub struct OrderBatch;

/// The statement of an [`OrderBatch`]: `m` and the number of indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderStatement {
    /// Lottery indices.
    pub m: u64,
    /// Won indices (blocks).
    pub k: usize,
}

impl Gadget for OrderBatch {
    type Statement = OrderStatement;
    const LABEL: &'static [u8] = b"order";
    const WITNESS: usize = order::WITNESS_COLUMNS;
    const ALL: usize = order::ALL_COLUMNS;
    const CONSTRAINTS: usize = order::CONSTRAINTS;
    fn blocks(statement: &OrderStatement) -> usize {
        statement.k
    }
    fn absorb(statement: &OrderStatement, t: &mut Transcript) {
        t.absorb(b"m", &statement.m.to_be_bytes());
        t.absorb(b"k", &(statement.k as u64).to_be_bytes());
    }
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
        order::combined(cur, next, alphas)
    }
    fn known_at(domain: &Domain, statement: &OrderStatement, z: F) -> Result<Vec<F>, McertError> {
        order::verifier_columns_at(domain, statement.m, z)
    }
}

impl Gadget for LotteryBatch {
    type Statement = lottery::Statement;
    const LABEL: &'static [u8] = b"lottery";
    const WITNESS: usize = lottery::WITNESS_COLUMNS;
    const ALL: usize = lottery::ALL_COLUMNS;
    const CONSTRAINTS: usize = lottery::CONSTRAINTS;
    fn blocks(statement: &lottery::Statement) -> usize {
        statement.blocks.len()
    }
    fn absorb(statement: &lottery::Statement, t: &mut Transcript) {
        t.absorb(b"m", &statement.m.to_be_bytes());
        for i in &statement.blocks {
            t.absorb_value(b"prefix", &i.prefix);
            t.absorb_value(b"bound", &i.bound);
        }
    }
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
        lottery::combined(cur, next, alphas)
    }
    fn known_at(domain: &Domain, statement: &lottery::Statement, z: F) -> Result<Vec<F>, McertError> {
        lottery::verifier_columns_at(domain, statement, z)
    }
}

impl Gadget for PoseidonBatch {
    type Statement = [Io];
    const LABEL: &'static [u8] = b"poseidon";
    const WITNESS: usize = poseidon::WITNESS_COLUMNS;
    const ALL: usize = poseidon::ALL_COLUMNS;
    const CONSTRAINTS: usize = poseidon::CONSTRAINTS;
    fn blocks(statement: &[Io]) -> usize {
        statement.len()
    }
    fn absorb(statement: &[Io], t: &mut Transcript) {
        for io in statement {
            for v in io.input.iter().chain([&io.output]) {
                t.absorb_value(b"io", v);
            }
        }
    }
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
        let row =
            poseidon::Row { columns: std::array::from_fn(|k| cur[k]), next_state: std::array::from_fn(|k| next[k]) };
        poseidon::combined(&poseidon::mds(), &row, alphas)
    }
    fn known_at(domain: &Domain, statement: &[Io], z: F) -> Result<Vec<F>, McertError> {
        Ok(poseidon::verifier_columns_at(domain, statement, z)?.to_vec())
    }
}

impl Gadget for CompareBatch {
    type Statement = [compare::Claim];
    const LABEL: &'static [u8] = b"compare";
    const WITNESS: usize = compare::WITNESS_COLUMNS;
    const ALL: usize = compare::ALL_COLUMNS;
    const CONSTRAINTS: usize = compare::CONSTRAINTS;
    fn blocks(statement: &[compare::Claim]) -> usize {
        statement.len()
    }
    fn absorb(statement: &[compare::Claim], t: &mut Transcript) {
        for c in statement {
            t.absorb_value(b"ev", &c.ev);
            t.absorb_value(b"bound", &c.bound);
        }
    }
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
        compare::combined(cur, next, alphas)
    }
    fn known_at(domain: &Domain, statement: &[compare::Claim], z: F) -> Result<Vec<F>, McertError> {
        compare::verifier_columns_at(domain, statement, z)
    }
}

impl Gadget for SubgroupBatch {
    type Statement = [subgroup::Affine];
    const LABEL: &'static [u8] = b"subgroup";
    const WITNESS: usize = subgroup::WITNESS_COLUMNS;
    const ALL: usize = subgroup::ALL_COLUMNS;
    const CONSTRAINTS: usize = subgroup::CONSTRAINTS;
    fn blocks(statement: &[subgroup::Affine]) -> usize {
        statement.len()
    }
    fn absorb(statement: &[subgroup::Affine], t: &mut Transcript) {
        for (x, y) in statement {
            t.absorb_value(b"x", x);
            t.absorb_value(b"y", y);
        }
    }
    fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
        subgroup::combined(cur, next, alphas)
    }
    fn known_at(domain: &Domain, statement: &[subgroup::Affine], z: F) -> Result<Vec<F>, McertError> {
        subgroup::verifier_columns_at(domain, statement, z)
    }
}

/// A proof for one gadget's batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchProof {
    /// Commitments to the witness columns.
    pub columns: Vec<G1>,
    /// Commitments to `Q0, Q1, Q2`.
    pub quotient: [G1; CHUNKS],
    /// The witness columns at `ζ`.
    pub at_zeta: Vec<F>,
    /// The witness columns at `ζω`.
    pub at_shifted: Vec<F>,
    /// KZG proof at `ζ`.
    pub opening_at_zeta: G1,
    /// KZG proof at `ζω`.
    pub opening_at_shifted: G1,
}

/// The prover's key: the domain and the first `N` powers as window tables.
pub struct ProverKey {
    domain: Domain,
    msm: FixedBaseMsm,
}

impl ProverKey {
    /// A key for batches of `blocks` instances (`N = 66·blocks`, which
    /// must be a domain size); the setup needs at least `N` powers.
    pub fn new(setup: &Setup, blocks: usize) -> Result<ProverKey, McertError> {
        let n = BLOCK * blocks;
        let domain = Domain::new(n).ok_or(McertError::NoDomain(n))?;
        let powers = setup.powers_g1();
        if powers.len() < n {
            return Err(McertError::SetupTooSmall { powers: powers.len(), needed: n });
        }
        Ok(ProverKey { domain, msm: FixedBaseMsm::new(&powers[..n]) })
    }

    /// The domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    fn commit(&self, coeffs: &[F]) -> G1 {
        self.msm.msm(coeffs).into_affine()
    }
}

fn transcript_for<G: Gadget>(domain: &Domain, s: &G::Statement) -> Transcript {
    let mut t = Transcript::new(PROTOCOL);
    t.absorb(b"gadget", G::LABEL);
    t.absorb(b"rows", &(domain.size() as u64).to_be_bytes());
    G::absorb(s, &mut t);
    t
}

/// Proves that `columns` (all of the gadget's columns over the domain, the
/// witness first) satisfy its constraints for `statement`. Does not check
/// the witness: an unsatisfying one gives a proof that fails verification.
pub fn prove<G: Gadget>(
    key: &ProverKey,
    columns: &[Vec<F>],
    statement: &G::Statement,
) -> Result<BatchProof, McertError> {
    let domain = &key.domain;
    let n = domain.size();
    if G::blocks(statement) * BLOCK != n {
        return Err(McertError::BlockCount { given: G::blocks(statement), blocks: n / BLOCK });
    }
    if columns.len() != G::ALL {
        return Err(McertError::ColumnCount { got: columns.len(), expected: G::ALL });
    }
    if let Some(bad) = columns.iter().find(|c| c.len() != n) {
        return Err(McertError::ColumnLength { len: bad.len(), size: n });
    }
    let mut t = transcript_for::<G>(domain, statement);
    let fft = domain.fft();
    let witness: Vec<Vec<F>> = columns[..G::WITNESS].iter().map(|v| fft.interpolate(v)).collect();
    let commitments: Vec<G1> = witness.iter().map(|w| key.commit(w)).collect();
    for c in &commitments {
        t.absorb_value(b"column", c);
    }
    let alphas = t.challenges(b"alpha", G::CONSTRAINTS);
    let q = quotient(domain, columns, |cur, next| G::combined(cur, next, &alphas))?;
    let quotient: [G1; CHUNKS] = std::array::from_fn(|j| key.commit(&q.chunks[j]));
    for c in &quotient {
        t.absorb_value(b"quotient", c);
    }
    let zeta = t.challenge(b"zeta");
    let shifted = zeta * domain.omega();
    let at_zeta: Vec<F> = witness.iter().map(|w| horner(w, zeta)).collect();
    let at_shifted: Vec<F> = witness.iter().map(|w| horner(w, shifted)).collect();
    for v in at_zeta.iter().chain(&at_shifted) {
        t.absorb_value(b"evaluation", v);
    }
    let nus = t.challenges(b"nu", G::WITNESS + 1);
    let nus_shifted = t.challenges(b"nu-shifted", G::WITNESS);
    let z_n = domain.pow_size(zeta);
    let mut composed = q.chunks[0].clone();
    for (i, c) in composed.iter_mut().enumerate() {
        *c += z_n * q.chunks[1][i] + z_n * z_n * q.chunks[2][i];
    }
    let mut at_zeta_terms: Vec<(F, &[F])> =
        nus[..G::WITNESS].iter().zip(&witness).map(|(nu, w)| (*nu, &w[..])).collect();
    at_zeta_terms.push((nus[G::WITNESS], &composed));
    let shifted_terms: Vec<(F, &[F])> = nus_shifted.iter().zip(&witness).map(|(nu, w)| (*nu, &w[..])).collect();
    let opening_at_zeta = key.commit(&divide_by_linear(&combine(n, &at_zeta_terms), zeta));
    let opening_at_shifted = key.commit(&divide_by_linear(&combine(n, &shifted_terms), shifted));
    Ok(BatchProof { columns: commitments, quotient, at_zeta, at_shifted, opening_at_zeta, opening_at_shifted })
}

/// Verifies a batch proof for `statement` (one instance per block of a
/// domain of `66·blocks` rows) under a setup key.
pub fn verify<G: Gadget>(setup: &SetupKey, statement: &G::Statement, proof: &BatchProof) -> Result<(), McertError> {
    if proof.columns.len() != G::WITNESS || proof.at_zeta.len() != G::WITNESS || proof.at_shifted.len() != G::WITNESS {
        return Err(McertError::MalformedProof);
    }
    let n = BLOCK * G::blocks(statement);
    let domain = Domain::new(n).ok_or(McertError::NoDomain(n))?;
    let mut t = transcript_for::<G>(&domain, statement);
    for c in &proof.columns {
        t.absorb_value(b"column", c);
    }
    let alphas = t.challenges(b"alpha", G::CONSTRAINTS);
    for c in &proof.quotient {
        t.absorb_value(b"quotient", c);
    }
    let zeta = t.challenge(b"zeta");
    let vanishing = domain.pow_size(zeta) - F::ONE;
    let vanishing_inv = vanishing.inverse().ok_or(McertError::PointInDomain)?;
    let mut cur = proof.at_zeta.clone();
    cur.extend(G::known_at(&domain, statement, zeta)?);
    let quotient_at_zeta = G::combined(&cur, &proof.at_shifted, &alphas) * vanishing_inv;
    for v in proof.at_zeta.iter().chain(&proof.at_shifted) {
        t.absorb_value(b"evaluation", v);
    }
    let nus = t.challenges(b"nu", G::WITNESS + 1);
    let nus_shifted = t.challenges(b"nu-shifted", G::WITNESS);
    t.absorb_value(b"opening", &proof.opening_at_zeta);
    t.absorb_value(b"opening", &proof.opening_at_shifted);
    let r = t.challenge(b"batch");

    let z_n = domain.pow_size(zeta);
    let shifted = zeta * domain.omega();
    let nu_q = nus[G::WITNESS];
    let y: F = proof.at_zeta.iter().zip(&nus).map(|(v, nu)| *v * nu).sum::<F>() + nu_q * quotient_at_zeta;
    let y_shifted: F = proof.at_shifted.iter().zip(&nus_shifted).map(|(v, nu)| *v * nu).sum();
    let mut bases: Vec<G1> = proof.columns.clone();
    let mut scalars: Vec<F> = nus[..G::WITNESS].iter().zip(&nus_shifted).map(|(nu, nu_s)| *nu + r * nu_s).collect();
    bases.extend(proof.quotient);
    scalars.extend([nu_q, nu_q * z_n, nu_q * z_n * z_n]);
    bases.extend([setup.g1, proof.opening_at_zeta, proof.opening_at_shifted]);
    scalars.extend([-(y + r * y_shifted), zeta, r * shifted]);
    let a = small_msm(&bases, &scalars);
    let b = proof.opening_at_zeta.into_group() + proof.opening_at_shifted * r;
    let pairs = G1Projective::normalize_batch(&[a, -b]);
    if Bw6::multi_pairing([pairs[0], pairs[1]], [setup.g2, setup.tau_g2]).is_zero() {
        Ok(())
    } else {
        Err(McertError::ProofRejected)
    }
}

/// `Σ c_i p_i`, each `p_i` of at most `n` coefficients.
fn combine(n: usize, terms: &[(F, &[F])]) -> Vec<F> {
    let mut out = vec![F::ZERO; n];
    for (c, p) in terms {
        for (o, x) in out.iter_mut().zip(p.iter()) {
            *o += *c * x;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bls12_381::{Fr, G1Projective as BlsG1};
    use ark_ec::PrimeGroup;
    use ark_ff::UniformRand;
    use ark_std::test_rng;
    use sigagg_mithril::snark_lottery;

    fn setup(blocks: usize) -> (Setup, ProverKey) {
        let setup = Setup::insecure_development(BLOCK * blocks).unwrap();
        let key = ProverKey::new(&setup, blocks).unwrap();
        (setup, key)
    }

    fn poseidon_batch(key: &ProverKey, blocks: usize) -> (Vec<Vec<F>>, Vec<Io>) {
        let inputs: Vec<[F; poseidon::WIDTH]> = (0..blocks as u64)
            .map(|j| [snark_lottery::capacity(j), snark_lottery::prefix(b"msgp"), F::from(11 * j + 5)])
            .collect();
        let (columns, ios) = poseidon::honest_columns(key.domain(), &inputs).unwrap();
        (columns.values, ios)
    }

    /// Every commitment, evaluation and opening of `proof` altered in turn.
    fn tampered(proof: &BatchProof, other: G1) -> Vec<(String, BatchProof)> {
        let mut out = Vec::new();
        for k in 0..proof.columns.len() {
            let mut p = proof.clone();
            p.columns[k] = other;
            out.push((format!("column commitment {k}"), p));
            let mut p = proof.clone();
            p.at_zeta[k] += F::ONE;
            out.push((format!("column {k} at zeta"), p));
            let mut p = proof.clone();
            p.at_shifted[k] += F::ONE;
            out.push((format!("column {k} at zeta*omega"), p));
        }
        for k in 0..CHUNKS {
            let mut p = proof.clone();
            p.quotient[k] = other;
            out.push((format!("quotient chunk {k}"), p));
        }
        let mut p = proof.clone();
        p.opening_at_zeta = other;
        out.push(("opening at zeta".into(), p));
        let mut p = proof.clone();
        p.opening_at_shifted = proof.opening_at_zeta;
        out.push(("opening at zeta*omega".into(), p));
        out
    }

    #[test]
    fn an_honest_poseidon_batch_proves_and_verifies() {
        let (setup, key) = setup(3);
        let (columns, ios) = poseidon_batch(&key, 3);
        let proof = prove::<PoseidonBatch>(&key, &columns, &ios).unwrap();
        verify::<PoseidonBatch>(&setup.key(), &ios, &proof).unwrap();
        for (j, io) in ios.iter().enumerate() {
            assert_eq!(io.output, snark_lottery::ev(io.input[1], io.input[2], j as u64));
        }
    }

    #[test]
    fn every_part_of_a_tampered_poseidon_proof_is_refused() {
        let (setup, key) = setup(1);
        let (columns, ios) = poseidon_batch(&key, 1);
        let proof = prove::<PoseidonBatch>(&key, &columns, &ios).unwrap();
        let other = (proof.opening_at_zeta + setup.key().g1).into_affine();
        for (what, p) in tampered(&proof, other) {
            assert_eq!(verify::<PoseidonBatch>(&setup.key(), &ios, &p), Err(McertError::ProofRejected), "{what}");
        }
        let mut short = proof.clone();
        short.columns.pop();
        assert_eq!(verify::<PoseidonBatch>(&setup.key(), &ios, &short), Err(McertError::MalformedProof));
        let mut short = proof.clone();
        short.at_shifted.push(F::ONE);
        assert_eq!(verify::<PoseidonBatch>(&setup.key(), &ios, &short), Err(McertError::MalformedProof));
        // The prover refuses a wrong number of columns instead of panicking.
        assert_eq!(
            prove::<PoseidonBatch>(&key, &columns[..5], &ios),
            Err(McertError::ColumnCount { got: 5, expected: poseidon::ALL_COLUMNS })
        );
    }

    #[test]
    fn a_cheating_poseidon_witness_or_another_statement_is_refused() {
        let (setup, key) = setup(3);
        let vk = setup.key();
        let (columns, ios) = poseidon_batch(&key, 3);
        // A wrong S-box output in block 1, forced past any check.
        let mut bad = columns.clone();
        bad[0][BLOCK + 20] += F::ONE;
        let proof = prove::<PoseidonBatch>(&key, &bad, &ios).unwrap();
        assert_eq!(verify::<PoseidonBatch>(&vk, &ios, &proof), Err(McertError::ProofRejected));
        // An honest proof checked against another claimed lottery value.
        let proof = prove::<PoseidonBatch>(&key, &columns, &ios).unwrap();
        let mut claims = ios.clone();
        claims[2].output += F::ONE;
        assert_eq!(verify::<PoseidonBatch>(&vk, &claims, &proof), Err(McertError::ProofRejected));
        // Another setup.
        let other = Setup::ceremony_start(BLOCK * 3).unwrap();
        assert_eq!(verify::<PoseidonBatch>(&other.key(), &ios, &proof), Err(McertError::ProofRejected));
        // A batch size with no domain.
        assert_eq!(verify::<PoseidonBatch>(&vk, &ios[..2], &proof), Err(McertError::NoDomain(2 * BLOCK)));
    }

    fn compare_claims() -> Vec<compare::Claim> {
        let prefix = snark_lottery::prefix(b"kzg compare");
        (0..3u64)
            .map(|j| {
                let ev = snark_lottery::ev(prefix, F::from(40 + j), j);
                compare::Claim { ev, bound: snark_lottery::bound(snark_lottery::top64(ev) + 1) }
            })
            .collect()
    }

    #[test]
    fn comparisons_prove_and_verify_and_a_forced_loss_is_refused() {
        let (setup, key) = setup(3);
        let vk = setup.key();
        let claims = compare_claims();
        let columns = compare::honest_columns(key.domain(), &claims).unwrap();
        let proof = prove::<CompareBatch>(&key, &columns, &claims).unwrap();
        verify::<CompareBatch>(&vk, &claims, &proof).unwrap();
        let other = (proof.opening_at_zeta + vk.g1).into_affine();
        for (what, p) in tampered(&proof, other) {
            assert_eq!(verify::<CompareBatch>(&vk, &claims, &p), Err(McertError::ProofRejected), "{what}");
        }
        // The largest losing bound for block 0, with a wrapped difference.
        let mut losing = claims.clone();
        losing[0].bound = snark_lottery::bound(snark_lottery::top64(losing[0].ev));
        let columns = compare::columns_from_limbs(key.domain(), &losing, |b| {
            let c = &losing[b];
            let mut d = ark_ff::PrimeField::into_bigint(c.bound);
            ark_ff::BigInteger::sub_with_borrow(&mut d, &ark_ff::PrimeField::into_bigint(c.ev));
            ark_ff::BigInteger::sub_with_borrow(&mut d, &1u64.into());
            (compare::limbs(c.ev), d.0)
        })
        .unwrap();
        let proof = prove::<CompareBatch>(&key, &columns, &losing).unwrap();
        assert_eq!(verify::<CompareBatch>(&vk, &losing, &proof), Err(McertError::ProofRejected));
    }

    #[test]
    fn subgroup_tests_prove_and_verify_and_an_order_three_shift_is_refused() {
        let (setup, key) = setup(1);
        let vk = setup.key();
        let p = (BlsG1::generator() * Fr::rand(&mut test_rng())).into_affine();
        let points = [(p.x, p.y)];
        let columns = subgroup::columns(key.domain(), &points).unwrap();
        let proof = prove::<SubgroupBatch>(&key, &columns, &points).unwrap();
        verify::<SubgroupBatch>(&vk, &points, &proof).unwrap();
        let other = (proof.opening_at_zeta + vk.g1).into_affine();
        for (what, p) in tampered(&proof, other) {
            assert_eq!(verify::<SubgroupBatch>(&vk, &points, &p), Err(McertError::ProofRejected), "{what}");
        }
        let shifted = (p + subgroup::tests_support::order_three()).into_affine();
        let points = [(shifted.x, shifted.y)];
        let columns = subgroup::columns(key.domain(), &points).unwrap();
        let proof = prove::<SubgroupBatch>(&key, &columns, &points).unwrap();
        assert_eq!(verify::<SubgroupBatch>(&vk, &points, &proof), Err(McertError::ProofRejected));
    }

    /// Timing of one Poseidon batch: `MCERT_BLOCKS` blocks (default 47,
    /// `N = 3102`). `cargo test --release -p sigagg-mithril-cert -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing, run in release by hand"]
    fn timing_poseidon_batch() {
        let blocks: usize = std::env::var("MCERT_BLOCKS").ok().and_then(|v| v.parse().ok()).unwrap_or(47);
        let start = std::time::Instant::now();
        let (setup, key) = setup(blocks);
        let tables = start.elapsed();
        let (columns, ios) = poseidon_batch(&key, blocks);
        let start = std::time::Instant::now();
        let proof = prove::<PoseidonBatch>(&key, &columns, &ios).unwrap();
        let proving = start.elapsed();
        let start = std::time::Instant::now();
        verify::<PoseidonBatch>(&setup.key(), &ios, &proof).unwrap();
        let verifying = start.elapsed();
        let n = BLOCK * blocks;
        let committed = PoseidonBatch::WITNESS + CHUNKS;
        println!(
            "poseidon batch: {blocks} permutations, N = {n}: setup+tables {tables:?}, prove {proving:?} \
             ({:.1} us per committed cell, {committed} polynomials), verify {verifying:?}",
            proving.as_secs_f64() * 1e6 / (n * committed) as f64
        );
    }

    fn lottery_blocks(count: usize) -> Vec<(subgroup::Affine, lottery::Instance)> {
        let rng = &mut test_rng();
        let prefix = snark_lottery::prefix(b"msg || root");
        (0..count as u64)
            .map(|j| {
                let p = (BlsG1::generator() * Fr::rand(rng)).into_affine();
                let ev = snark_lottery::ev(prefix, p.x, 3 * j);
                let bound = snark_lottery::bound(snark_lottery::top64(ev) + 1);
                ((p.x, p.y), lottery::Instance { index: 3 * j, prefix, bound })
            })
            .collect()
    }

    const M: u64 = 4096;

    fn statement_of(blocks: &[(subgroup::Affine, lottery::Instance)]) -> lottery::Statement {
        lottery::Statement { m: M, blocks: blocks.iter().map(|(_, i)| i.public()).collect() }
    }

    #[test]
    fn whole_lottery_blocks_prove_and_verify_with_sigma_and_indices_hidden() {
        let (setup, key) = setup(3);
        let vk = setup.key();
        let blocks = lottery_blocks(3);
        let statement = statement_of(&blocks);
        let columns = lottery::honest_columns(key.domain(), M, &blocks).unwrap();
        lottery::check_on_domain(&columns).unwrap();
        let proof = prove::<LotteryBatch>(&key, &columns, &statement).unwrap();
        verify::<LotteryBatch>(&vk, &statement, &proof).unwrap();
        // Another m, prefix or bound in the statement.
        for change in 0..3 {
            let mut other = statement.clone();
            match change {
                0 => other.m -= 1,
                1 => other.blocks[0].prefix += F::ONE,
                _ => other.blocks[2].bound += F::ONE,
            }
            assert_eq!(verify::<LotteryBatch>(&vk, &other, &proof), Err(McertError::ProofRejected), "change {change}");
        }
        let other = (proof.opening_at_zeta + vk.g1).into_affine();
        for (what, p) in tampered(&proof, other).into_iter().step_by(7) {
            assert_eq!(verify::<LotteryBatch>(&vk, &statement, &p), Err(McertError::ProofRejected), "{what}");
        }
    }

    #[test]
    fn a_repeated_hidden_index_is_refused() {
        let (setup, key) = setup(3);
        let vk = setup.key();
        let mut blocks = lottery_blocks(3);
        // Block 1 reuses block 0's index, with a bound it wins.
        blocks[1].1.index = blocks[0].1.index;
        let ev = snark_lottery::ev(blocks[1].1.prefix, blocks[1].0.0, blocks[1].1.index);
        blocks[1].1.bound = snark_lottery::bound(snark_lottery::top64(ev) + 1);
        let statement = statement_of(&blocks);
        assert_eq!(lottery::honest_columns(key.domain(), M, &blocks), Err(McertError::BadIndices { block: 0 }));
        let columns = lottery::columns_with(key.domain(), M, &blocks, |_, c| {
            (compare::limbs(c.ev), compare::difference(c).unwrap())
        })
        .unwrap();
        assert!(lottery::check_on_domain(&columns).is_err());
        let proof = prove::<LotteryBatch>(&key, &columns, &statement).unwrap();
        assert_eq!(verify::<LotteryBatch>(&vk, &statement, &proof), Err(McertError::ProofRejected));
    }

    #[test]
    fn cheating_lottery_blocks_are_refused() {
        let (setup, key) = setup(1);
        let vk = setup.key();
        let mut blocks = lottery_blocks(1);
        // sigma plus a point of order 3, with a generous bound: the hash and
        // the comparison pass, the subgroup test does not.
        let (x, y) = blocks[0].0;
        let shifted = (ark_bls12_381::G1Affine::new(x, y) + subgroup::tests_support::order_three()).into_affine();
        blocks[0].0 = (shifted.x, shifted.y);
        blocks[0].1.bound = snark_lottery::bound(u64::MAX);
        let statement = statement_of(&blocks);
        let columns = lottery::honest_columns(key.domain(), M, &blocks).unwrap();
        let final_x = poseidon::CONSTRAINTS + compare::CONSTRAINTS + 2 * 7 + 1 + 4 + 2;
        assert_eq!(
            lottery::check_on_domain(&columns),
            Err(McertError::Unsatisfied { row: subgroup::LAST_ROW, constraint: final_x })
        );
        let proof = prove::<LotteryBatch>(&key, &columns, &statement).unwrap();
        assert_eq!(verify::<LotteryBatch>(&vk, &statement, &proof), Err(McertError::ProofRejected));

        // The hash of one point, the subgroup test of another (both in G1):
        // the binding s2 = sigma_x fails.
        let blocks = lottery_blocks(1);
        let statement = statement_of(&blocks);
        let mut columns = lottery::honest_columns(key.domain(), M, &blocks).unwrap();
        let other = lottery_blocks(2)[1].0;
        let other_cols = subgroup::columns(key.domain(), &[other]).unwrap();
        let start = poseidon::WITNESS_COLUMNS + compare::WITNESS_COLUMNS;
        columns[start..start + subgroup::WITNESS_COLUMNS].clone_from_slice(&other_cols[..subgroup::WITNESS_COLUMNS]);
        let input_binding = 2 * poseidon::WIDTH + 2;
        assert_eq!(
            lottery::check_on_domain(&columns),
            Err(McertError::Unsatisfied { row: 0, constraint: input_binding })
        );
        let proof = prove::<LotteryBatch>(&key, &columns, &statement).unwrap();
        assert_eq!(verify::<LotteryBatch>(&vk, &statement, &proof), Err(McertError::ProofRejected));

        // A lost index (the largest losing bound), forced with a wrapped difference.
        let mut blocks = lottery_blocks(1);
        let ev = snark_lottery::ev(blocks[0].1.prefix, blocks[0].0.0, blocks[0].1.index);
        blocks[0].1.bound = snark_lottery::bound(snark_lottery::top64(ev));
        let statement = statement_of(&blocks);
        assert_eq!(lottery::honest_columns(key.domain(), M, &blocks), Err(McertError::NotBelowBound { block: 0 }));
        let columns = lottery::columns_with(key.domain(), M, &blocks, |_, c| {
            let mut d = ark_ff::PrimeField::into_bigint(c.bound);
            ark_ff::BigInteger::sub_with_borrow(&mut d, &ark_ff::PrimeField::into_bigint(c.ev));
            ark_ff::BigInteger::sub_with_borrow(&mut d, &1u64.into());
            (compare::limbs(c.ev), d.0)
        })
        .unwrap();
        let proof = prove::<LotteryBatch>(&key, &columns, &statement).unwrap();
        assert_eq!(verify::<LotteryBatch>(&vk, &statement, &proof), Err(McertError::ProofRejected));
    }

    #[test]
    fn hidden_indices_prove_and_verify_and_a_repeat_is_refused() {
        let (setup, key) = setup(3);
        let vk = setup.key();
        let statement = OrderStatement { m: 4096, k: 3 };
        let columns = order::honest_columns(key.domain(), 4096, &[2, 900, 4095]).unwrap();
        let proof = prove::<OrderBatch>(&key, &columns, &statement).unwrap();
        verify::<OrderBatch>(&vk, &statement, &proof).unwrap();
        let smaller = OrderStatement { m: 4095, k: 3 };
        assert_eq!(verify::<OrderBatch>(&vk, &smaller, &proof), Err(McertError::ProofRejected));
        let other = (proof.opening_at_zeta + vk.g1).into_affine();
        for (what, p) in tampered(&proof, other) {
            assert_eq!(verify::<OrderBatch>(&vk, &statement, &p), Err(McertError::ProofRejected), "{what}");
        }
        let repeated = order::columns_from(key.domain(), 4096, &[900, 900, 4095], &[0, 3194, 0]).unwrap();
        let proof = prove::<OrderBatch>(&key, &repeated, &statement).unwrap();
        assert_eq!(verify::<OrderBatch>(&vk, &statement, &proof), Err(McertError::ProofRejected));
    }
}
