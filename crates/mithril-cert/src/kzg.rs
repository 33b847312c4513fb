//! A batch of Poseidon permutations proven end to end with KZG on BW6-767,
//! on `sigagg-bls-cert`'s machinery: its [`Setup`], window-table MSM
//! ([`FixedBaseMsm`]), verifier MSM ([`small_msm`]), SHA-256 transcript and
//! domains. The statement is the list of (input, output cell 1) of the
//! permutations, one per 66-row block; it is a test bed for the PIOP of the
//! certificate, not the certificate (no encoding, no committee).
//!
//! ## Protocol
//! 1. Transcript: protocol label, `N`, every input and output.
//! 2. Prover commits the six witness columns `s0..s2, q0..q2`; the
//!    transcript gives `α_1..α_10`.
//! 3. Prover commits the quotient's chunks `Q0, Q1, Q2` ([`crate::quotient`]);
//!    the transcript gives `ζ`.
//! 4. Prover sends the witness columns at `ζ` and `s0..s2` at `ζω`; the
//!    transcript gives `ν_1..ν_7` (the six columns and the composed
//!    quotient `Q0 + ζ^N Q1 + ζ^{2N} Q2`, whose commitment the verifier
//!    forms from the chunks') and `ν'_1..ν'_3` for the three states at `ζω`.
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
use sigagg_bls_cert::piop::prover::horner;
use sigagg_bls_cert::setup::{Setup, SetupKey};
use sigagg_bls_cert::transcript::Transcript;

use crate::poseidon::{self, BLOCK, CONSTRAINTS, Columns, Io, WIDTH, WITNESS_COLUMNS};
use crate::quotient::CHUNKS;
use crate::{F, McertError};

const PROTOCOL: &[u8] = b"sigagg-mithril-cert/v0/poseidon-batch";

/// A proof for a batch of permutations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchProof {
    /// Commitments to `s0..s2, q0..q2`.
    pub columns: [G1; WITNESS_COLUMNS],
    /// Commitments to `Q0, Q1, Q2`.
    pub quotient: [G1; CHUNKS],
    /// `s0..s2, q0..q2` at `ζ`.
    pub at_zeta: [F; WITNESS_COLUMNS],
    /// `s0..s2` at `ζω`.
    pub at_shifted: [F; WIDTH],
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
    /// A key for batches of `blocks` permutations (`N = 66·blocks`, which
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

fn statement(domain: &Domain, ios: &[Io]) -> Transcript {
    let mut t = Transcript::new(PROTOCOL);
    t.absorb(b"rows", &(domain.size() as u64).to_be_bytes());
    for io in ios {
        for v in io.input.iter().chain([&io.output]) {
            t.absorb_value(b"io", v);
        }
    }
    t
}

/// Proves that the columns satisfy the Poseidon constraints for `ios`. Does
/// not check the witness: an unsatisfying one gives a proof that fails
/// verification (the tests rely on this).
pub fn prove(key: &ProverKey, columns: &Columns, ios: &[Io]) -> Result<BatchProof, McertError> {
    let domain = &key.domain;
    let mut t = statement(domain, ios);
    let fft = domain.fft();
    let n = domain.size();
    if let Some(bad) = columns.values.iter().find(|c| c.len() != n) {
        return Err(McertError::ColumnLength { len: bad.len(), size: n });
    }
    let witness: Vec<Vec<F>> = columns.values[..WITNESS_COLUMNS].iter().map(|v| fft.interpolate(v)).collect();
    let commitments: [G1; WITNESS_COLUMNS] = std::array::from_fn(|k| key.commit(&witness[k]));
    for c in &commitments {
        t.absorb_value(b"column", c);
    }
    let alphas = t.challenges(b"alpha", CONSTRAINTS);
    let q = poseidon::prove_in_clear(domain, columns, &alphas)?;
    let quotient: [G1; CHUNKS] = std::array::from_fn(|j| key.commit(&q.chunks[j]));
    for c in &quotient {
        t.absorb_value(b"quotient", c);
    }
    let zeta = t.challenge(b"zeta");
    let shifted = zeta * domain.omega();
    let at_zeta: [F; WITNESS_COLUMNS] = std::array::from_fn(|k| horner(&witness[k], zeta));
    let at_shifted: [F; WIDTH] = std::array::from_fn(|k| horner(&witness[k], shifted));
    for v in at_zeta.iter().chain(&at_shifted) {
        t.absorb_value(b"evaluation", v);
    }
    let nus = t.challenges(b"nu", WITNESS_COLUMNS + 1);
    let nus_shifted = t.challenges(b"nu-shifted", WIDTH);
    let z_n = domain.pow_size(zeta);
    let mut composed = q.chunks[0].clone();
    for (i, c) in composed.iter_mut().enumerate() {
        *c += z_n * q.chunks[1][i] + z_n * z_n * q.chunks[2][i];
    }
    let mut at_zeta_terms: Vec<(F, &[F])> =
        nus[..WITNESS_COLUMNS].iter().zip(&witness).map(|(nu, w)| (*nu, &w[..])).collect();
    at_zeta_terms.push((nus[WITNESS_COLUMNS], &composed));
    let shifted_terms: Vec<(F, &[F])> = nus_shifted.iter().zip(&witness).map(|(nu, w)| (*nu, &w[..])).collect();
    let opening_at_zeta = key.commit(&divide_by_linear(&combine(n, &at_zeta_terms), zeta));
    let opening_at_shifted = key.commit(&divide_by_linear(&combine(n, &shifted_terms), shifted));
    Ok(BatchProof { columns: commitments, quotient, at_zeta, at_shifted, opening_at_zeta, opening_at_shifted })
}

/// Verifies a batch proof for `ios` (one per block of a domain of
/// `66·ios.len()` rows) under a setup key.
pub fn verify(setup: &SetupKey, ios: &[Io], proof: &BatchProof) -> Result<(), McertError> {
    let n = BLOCK * ios.len();
    let domain = Domain::new(n).ok_or(McertError::NoDomain(n))?;
    let mut t = statement(&domain, ios);
    for c in &proof.columns {
        t.absorb_value(b"column", c);
    }
    let alphas = t.challenges(b"alpha", CONSTRAINTS);
    for c in &proof.quotient {
        t.absorb_value(b"quotient", c);
    }
    let zeta = t.challenge(b"zeta");
    let vanishing = domain.pow_size(zeta) - F::ONE;
    let vanishing_inv = vanishing.inverse().ok_or(McertError::PointInDomain)?;
    let known = poseidon::verifier_columns_at(&domain, ios, zeta)?;
    let mut row = poseidon::Row { columns: [F::ZERO; poseidon::ALL_COLUMNS], next_state: proof.at_shifted };
    row.columns[..WITNESS_COLUMNS].copy_from_slice(&proof.at_zeta);
    row.columns[WITNESS_COLUMNS..].copy_from_slice(&known);
    let quotient_at_zeta = poseidon::combined(&poseidon::mds(), &row, &alphas) * vanishing_inv;
    for v in proof.at_zeta.iter().chain(&proof.at_shifted) {
        t.absorb_value(b"evaluation", v);
    }
    let nus = t.challenges(b"nu", WITNESS_COLUMNS + 1);
    let nus_shifted = t.challenges(b"nu-shifted", WIDTH);
    t.absorb_value(b"opening", &proof.opening_at_zeta);
    t.absorb_value(b"opening", &proof.opening_at_shifted);
    let r = t.challenge(b"batch");

    let z_n = domain.pow_size(zeta);
    let shifted = zeta * domain.omega();
    let nu_q = nus[WITNESS_COLUMNS];
    let y: F = proof.at_zeta.iter().zip(&nus).map(|(v, nu)| *v * nu).sum::<F>() + nu_q * quotient_at_zeta;
    let y_shifted: F = proof.at_shifted.iter().zip(&nus_shifted).map(|(v, nu)| *v * nu).sum();
    let mut bases: Vec<G1> = proof.columns.to_vec();
    let mut scalars: Vec<F> = nus[..WITNESS_COLUMNS].to_vec();
    for (s, nu) in scalars.iter_mut().zip(&nus_shifted) {
        *s += r * nu;
    }
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

/// The quotient of `p(X) − p(x)` by `X − x` (synthetic division).
fn divide_by_linear(p: &[F], x: F) -> Vec<F> {
    let mut quotient = vec![F::ZERO; p.len().saturating_sub(1)];
    let mut carry = F::ZERO;
    for i in (1..p.len()).rev() {
        carry = p[i] + carry * x;
        quotient[i - 1] = carry;
    }
    quotient
}

#[cfg(test)]
mod tests {
    use super::*;
    use sigagg_mithril::snark_lottery;

    fn batch(blocks: usize) -> (Setup, ProverKey, Columns, Vec<Io>) {
        let setup = Setup::insecure_development(BLOCK * blocks).unwrap();
        let key = ProverKey::new(&setup, blocks).unwrap();
        let inputs: Vec<[F; WIDTH]> = (0..blocks as u64)
            .map(|j| [snark_lottery::capacity(j), snark_lottery::prefix(b"msgp"), F::from(11 * j + 5)])
            .collect();
        let (columns, ios) = poseidon::honest_columns(key.domain(), &inputs).unwrap();
        (setup, key, columns, ios)
    }

    #[test]
    fn an_honest_batch_proves_and_verifies() {
        let (setup, key, columns, ios) = batch(3);
        let proof = prove(&key, &columns, &ios).unwrap();
        verify(&setup.key(), &ios, &proof).unwrap();
        // The outputs are the SNARK lottery's values.
        for (j, io) in ios.iter().enumerate() {
            assert_eq!(io.output, snark_lottery::ev(io.input[1], io.input[2], j as u64));
        }
    }

    #[test]
    fn every_part_of_a_tampered_proof_is_refused() {
        let (setup, key, columns, ios) = batch(1);
        let proof = prove(&key, &columns, &ios).unwrap();
        let vk = setup.key();
        let other = (proof.opening_at_zeta + setup.key().g1).into_affine();
        let mut tampered: Vec<(String, BatchProof)> = Vec::new();
        for k in 0..WITNESS_COLUMNS {
            let mut p = proof.clone();
            p.columns[k] = other;
            tampered.push((format!("column commitment {k}"), p));
            let mut p = proof.clone();
            p.at_zeta[k] += F::ONE;
            tampered.push((format!("column {k} at zeta"), p));
        }
        for k in 0..CHUNKS {
            let mut p = proof.clone();
            p.quotient[k] = other;
            tampered.push((format!("quotient chunk {k}"), p));
        }
        for k in 0..WIDTH {
            let mut p = proof.clone();
            p.at_shifted[k] += F::ONE;
            tampered.push((format!("state {k} at zeta*omega"), p));
        }
        let mut p = proof.clone();
        p.opening_at_zeta = other;
        tampered.push(("opening at zeta".into(), p));
        let mut p = proof.clone();
        p.opening_at_shifted = proof.opening_at_zeta;
        tampered.push(("opening at zeta*omega".into(), p));
        for (what, p) in tampered {
            assert_eq!(verify(&vk, &ios, &p), Err(McertError::ProofRejected), "{what}");
        }
    }

    #[test]
    fn a_cheating_witness_or_another_statement_is_refused() {
        let (setup, key, columns, ios) = batch(3);
        let vk = setup.key();
        // A wrong S-box output in block 1, forced past any check.
        let mut bad = columns.clone();
        bad.values[0][BLOCK + 20] += F::ONE;
        let proof = prove(&key, &bad, &ios).unwrap();
        assert_eq!(verify(&vk, &ios, &proof), Err(McertError::ProofRejected));
        // An honest proof checked against another claimed lottery value.
        let proof = prove(&key, &columns, &ios).unwrap();
        let mut claims = ios.clone();
        claims[2].output += F::ONE;
        assert_eq!(verify(&vk, &claims, &proof), Err(McertError::ProofRejected));
        // Another setup.
        let other = Setup::ceremony_start(BLOCK * 3).unwrap();
        assert_eq!(verify(&other.key(), &ios, &proof), Err(McertError::ProofRejected));
        // A batch size with no domain.
        assert_eq!(verify(&vk, &ios[..2], &proof), Err(McertError::NoDomain(2 * BLOCK)));
    }
}
