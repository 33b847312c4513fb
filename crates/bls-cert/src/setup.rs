//! The KZG setup (powers of tau over BW6-767), its file format, the
//! insecure development setup, and the multi-party ceremony.
//!
//! A setup is `(g1, τ·g1, …, τ^(d-1)·g1)` in BW6-767's G1 and `(g2, τ·g2)`
//! in its G2. Anyone who knows `τ` can forge certificates, and no public
//! ceremony exists for this curve, so a validator set runs its own:
//!
//! 1. [`Setup::ceremony_start`]: `τ = 1` (all powers are the generator);
//! 2. each participant [`Setup::contribute`]s: draws a secret `s`, replaces
//!    every power `τ^i·g1` by `s^i·τ^i·g1` and `τ·g2` by `s·τ·g2` (so the
//!    trapdoor becomes `s·τ`), and appends `(s·g1, s·τ·g2, a Schnorr proof
//!    of knowledge of s)`, then forgets `s`;
//! 3. [`Setup::verify_ceremony`] checks with pairings that each
//!    contribution multiplies the previous trapdoor by the secret it proves
//!    knowledge of, that the last one is the setup's `τ·g2`, and that the G1
//!    powers are successive powers of that `τ`.
//!
//! The final trapdoor is the product of all secrets: unknown to everyone as
//! long as one participant was honest and erased theirs. The proofs of
//! knowledge stop a late participant from choosing its contribution as a
//! function of earlier ones to cancel them.
//!
//! [`Setup::insecure_development`] derives `τ` from a public string: it is
//! for tests and demos only, marked as such in the file header and in every
//! committee key made from it, and reported by every command that uses it.
//!
//! ## What a committee trusts about its setup
//! A committee's commitments are computed from the setup's G1 powers, so a
//! setup whose `τ` someone knows (the ceremony's start, where `τ = 1`; the
//! development setup with its flag cleared; genuine `τ·g2` beside G1 powers
//! of another, known `τ`) lets that someone forge certificates for every
//! committee built on it. [`crate::Committee::new`] therefore accepts only
//! the development setup (and marks the committee insecure) or a ceremony
//! that [`Setup::verify_ceremony`] accepts: at least one contribution, the
//! G1 powers those of its final `τ`, and that `τ` not one of the two known
//! trapdoors (1 and the development one). The committee key records the
//! setup file's SHA-256 ([`Setup::digest`], what `sha256sum` prints for the
//! file), so an operator can check it against the ceremony's published file.
//!
//! ## File format (version 1)
//! `"SGKZGBW6"` · version `u8` · flags `u8` (bit 0: insecure development) ·
//! two zero bytes · `u32` number of G1 powers `d` · `u32` number of
//! contributions `k` · `g2`, `τ·g2` · `d` G1 powers · `k` contributions
//! (`s·g1`, `s·τ·g2`, Schnorr commitment `R`, response `z`) · SHA-256 of
//! everything before. Integers are little-endian, points are arkworks'
//! uncompressed encoding (193 bytes), `z` is 48 bytes little-endian.

use std::sync::OnceLock;

use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, ScalarMul, VariableBaseMSM, pairing::Pairing};
use ark_ff::{Field, PrimeField, Zero};
use ark_serialize::{CanonicalSerialize, Compress, Validate};
use rayon::prelude::*;
use sha2::{Digest, Sha256, Sha512};
use w3f_pcs::pcs::PcsParams;
use w3f_pcs::pcs::kzg::params::KzgCommitterKey;
use w3f_pcs::pcs::kzg::urs::URS;
use zeroize::Zeroize;

use crate::codec::{POINT_BYTES_UNCOMPRESSED, Reader, Writer, decode_canonical};
use crate::domain::MAX_DOMAIN_SIZE;
use crate::error::{CertError, Encoded, SetupError};
use crate::field::{Bw6, F, G1, G1Projective, G2};

const MAGIC: &[u8; 8] = b"SGKZGBW6";
const VERSION: u8 = 1;
const FLAG_INSECURE: u8 = 1;
/// Header: magic, version, flags, two reserved bytes, two counts.
const HEADER_BYTES: usize = 8 + 1 + 1 + 2 + 4 + 4;
const CONTRIBUTION_BYTES: usize = 3 * POINT_BYTES_UNCOMPRESSED + 48;
const CHECKSUM_BYTES: usize = 32;

/// The public string the development trapdoor is derived from.
const INSECURE_TAU_SEED: &[u8] = b"sigagg-bls-cert/v1/INSECURE-development-setup";

/// One participant's contribution to a ceremony.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contribution {
    /// `s·g1` for the participant's secret `s`.
    pub secret_g1: G1,
    /// The trapdoor after this contribution, `s·τ·g2`.
    pub tau_g2: G2,
    /// Schnorr proof of knowledge of `s` for `secret_g1`: the commitment `R = k·g1`…
    pub pok_commitment: G1,
    /// … and the response `z = k + c·s`.
    pub pok_response: F,
}

/// What a verifier uses of a setup: the generators and `τ·g2`, whether it
/// is the insecure development setup, and the digest of the setup file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupKey {
    /// The G1 generator.
    pub g1: G1,
    /// The G2 generator.
    pub g2: G2,
    /// `τ·g2`.
    pub tau_g2: G2,
    /// Whether `τ` is public: the development setup's flag, or its `τ`
    /// whatever the flag says.
    pub insecure: bool,
    /// SHA-256 of the setup file ([`Setup::digest`]).
    pub digest: [u8; 32],
}

/// A KZG setup: powers of `τ` in G1, `τ` in G2, and how it was made.
#[derive(Clone, Debug)]
pub struct Setup {
    urs: URS<Bw6>,
    insecure: bool,
    contributions: Vec<Contribution>,
    /// [`Setup::digest`], on first use.
    digest: OnceLock<[u8; 32]>,
    /// [`Setup::verify_ceremony`]'s answer, on first use: a committee
    /// checks it, and one setup serves many committees.
    ceremony: OnceLock<Result<CeremonyReport, SetupError>>,
}

/// What [`Setup::verify_ceremony`] established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CeremonyReport {
    /// Number of contributions checked.
    pub contributions: usize,
    /// Number of G1 powers.
    pub powers: usize,
}

impl Setup {
    /// The deterministic **insecure** development setup with `powers` G1
    /// powers: `τ` is derived from a public string, so anyone can forge
    /// certificates under it. For tests and demos only.
    pub fn insecure_development(powers: usize) -> Result<Setup, SetupError> {
        check_size(powers)?;
        Ok(Setup::from_trapdoor(development_tau(), powers, true))
    }

    /// The start of a ceremony: `τ = 1`, no contribution yet.
    pub fn ceremony_start(powers: usize) -> Result<Setup, SetupError> {
        check_size(powers)?;
        Ok(Setup::from_trapdoor(F::ONE, powers, false))
    }

    fn from_trapdoor(tau: F, powers: usize, insecure: bool) -> Setup {
        let mut scalars = Vec::with_capacity(powers);
        let mut power = F::ONE;
        for _ in 0..powers {
            scalars.push(power);
            power *= tau;
        }
        let g1 = G1Projective::generator();
        let g2 = <Bw6 as Pairing>::G2::generator();
        let powers_in_g1 = g1.batch_mul(&scalars);
        scalars.zeroize();
        let powers_in_g2 = vec![g2.into_affine(), (g2 * tau).into_affine()];
        Setup::assemble(URS { powers_in_g1, powers_in_g2 }, insecure, Vec::new())
    }

    fn assemble(urs: URS<Bw6>, insecure: bool, contributions: Vec<Contribution>) -> Setup {
        Setup { urs, insecure, contributions, digest: OnceLock::new(), ceremony: OnceLock::new() }
    }

    /// Number of G1 powers: the setup commits polynomials of degree below this.
    pub fn powers(&self) -> usize {
        self.urs.powers_in_g1.len()
    }

    /// The G1 powers `τ^i·g1`.
    pub fn powers_g1(&self) -> &[G1] {
        &self.urs.powers_in_g1
    }

    /// Whether this is the insecure development setup: its flag, or its
    /// `τ` under a cleared flag.
    pub fn is_insecure(&self) -> bool {
        self.insecure || is_development_tau(&self.urs.powers_in_g2[1])
    }

    /// SHA-256 of the setup's file encoding: what `sha256sum` prints for
    /// the file. Committee keys record it; it names the ceremony transcript
    /// (every power and every contribution) a committee was built on.
    pub fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| Sha256::digest(self.to_bytes()).into())
    }

    /// Whether committees may be built on this setup: the development setup
    /// (whose committees are marked insecure), or a ceremony that
    /// [`Setup::verify_ceremony`] accepts. The ceremony's check runs once
    /// per setup value and its answer is kept. Anything else, above all a
    /// ceremony without contributions (`τ = 1`), a development setup whose
    /// flag was cleared, or G1 powers that are not those of `τ·g2`'s `τ`,
    /// is refused: whoever knows its `τ` forges certificates.
    pub fn check_for_committees(&self) -> Result<(), SetupError> {
        if self.insecure {
            return Ok(());
        }
        self.ceremony.get_or_init(|| self.verify_ceremony()).clone().map(|_| ())
    }

    /// The contributions made so far.
    pub fn contributions(&self) -> &[Contribution] {
        &self.contributions
    }

    /// The verifier's part.
    pub fn key(&self) -> SetupKey {
        SetupKey {
            g1: self.urs.powers_in_g1[0],
            g2: self.urs.powers_in_g2[0],
            tau_g2: self.urs.powers_in_g2[1],
            insecure: self.is_insecure(),
            digest: self.digest(),
        }
    }

    /// The first `powers` G1 powers, for polynomials of degree below `powers`.
    pub(crate) fn powers_for(&self, powers: usize) -> Result<&[G1], CertError> {
        if powers > self.powers() {
            return Err(CertError::SetupTooSmall { needed: powers, available: self.powers() });
        }
        Ok(&self.urs.powers_in_g1[..powers])
    }

    /// The committer key for polynomials of degree below `powers`.
    pub(crate) fn committer_key(&self, powers: usize) -> Result<KzgCommitterKey<G1>, CertError> {
        if powers > self.powers() {
            return Err(CertError::SetupTooSmall { needed: powers, available: self.powers() });
        }
        let urs = URS::<Bw6> {
            powers_in_g1: self.urs.powers_in_g1[..powers].to_vec(),
            powers_in_g2: self.urs.powers_in_g2.clone(),
        };
        Ok(urs.ck())
    }

    /// Adds a contribution whose secret is derived from `entropy` (at least
    /// 32 bytes from a cryptographic source; the caller erases it). Every
    /// G1 power and `τ·g2` is re-randomized; the secret is erased before
    /// returning.
    pub fn contribute(&mut self, entropy: &[u8]) -> Result<&Contribution, SetupError> {
        if self.insecure {
            return Err(SetupError::ContributeToInsecure);
        }
        self.contribute_secret(derive_scalar(entropy, b"secret"), derive_scalar(entropy, b"pok-nonce"));
        Ok(self.contributions.last().expect("just pushed"))
    }

    /// Multiplies the trapdoor by `secret` and appends the contribution with
    /// its proof of knowledge (nonce `nonce`); erases both.
    fn contribute_secret(&mut self, mut secret: F, mut nonce: F) {
        let mut scalars = Vec::with_capacity(self.powers());
        let mut power = F::ONE;
        for _ in 0..self.powers() {
            scalars.push(power);
            power *= secret;
        }
        power.zeroize();
        let updated: Vec<G1Projective> =
            self.urs.powers_in_g1.par_iter().zip(scalars.par_iter()).map(|(p, s)| *p * *s).collect();
        scalars.zeroize();
        self.urs.powers_in_g1 = G1Projective::normalize_batch(&updated);
        let previous_tau = self.urs.powers_in_g2[1];
        let tau_g2 = (previous_tau * secret).into_affine();
        self.urs.powers_in_g2[1] = tau_g2;
        let g1 = G1::generator();
        let secret_g1 = (g1 * secret).into_affine();
        let pok_commitment = (g1 * nonce).into_affine();
        let index = self.contributions.len();
        let challenge = pok_challenge(index, &previous_tau, &secret_g1, &tau_g2, &pok_commitment);
        let pok_response = nonce + challenge * secret;
        secret.zeroize();
        nonce.zeroize();
        self.contributions.push(Contribution { secret_g1, tau_g2, pok_commitment, pok_response });
        self.digest = OnceLock::new();
        self.ceremony = OnceLock::new();
    }

    /// Checks the whole ceremony (see the module documentation). Refuses the
    /// development setup, a ceremony without contributions, and a final `τ`
    /// that is public (1, or the development setup's). Costs one subgroup
    /// check per point and two multi-scalar multiplications.
    pub fn verify_ceremony(&self) -> Result<CeremonyReport, SetupError> {
        if self.insecure {
            return Err(SetupError::InsecureDevelopmentSetup);
        }
        if self.contributions.is_empty() {
            return Err(SetupError::NoContributions);
        }
        let key = self.key();
        if key.g1 != G1::generator() || key.g2 != G2::generator() {
            return Err(SetupError::NotStandardGenerators);
        }
        self.check_points()?;
        let mut previous = key.g2;
        for (index, c) in self.contributions.iter().enumerate() {
            check_contribution(index, c, &previous)?;
            previous = c.tau_g2;
        }
        if previous != key.tau_g2 {
            return Err(SetupError::FinalTauMismatch);
        }
        if key.tau_g2 == key.g2 || is_development_tau(&key.tau_g2) {
            return Err(SetupError::KnownTrapdoor);
        }
        self.check_powers()?;
        Ok(CeremonyReport { contributions: self.contributions.len(), powers: self.powers() })
    }

    /// Every point on the curve, in the subgroup, and nonzero.
    fn check_points(&self) -> Result<(), SetupError> {
        let bad_g1 = |p: &G1| p.is_zero() || !p.is_on_curve() || !p.is_in_correct_subgroup_assuming_on_curve();
        let bad_g2 = |p: &G2| p.is_zero() || !p.is_on_curve() || !p.is_in_correct_subgroup_assuming_on_curve();
        if let Some(index) = self.urs.powers_in_g1.par_iter().position_first(bad_g1) {
            return Err(SetupError::BadPoint { what: "G1 power", index });
        }
        if let Some(index) = self.urs.powers_in_g2.iter().position(bad_g2) {
            return Err(SetupError::BadPoint { what: "G2 power", index });
        }
        for (index, c) in self.contributions.iter().enumerate() {
            if bad_g1(&c.secret_g1) || bad_g1(&c.pok_commitment) || bad_g2(&c.tau_g2) {
                return Err(SetupError::BadPoint { what: "contribution", index });
            }
        }
        Ok(())
    }

    /// The G1 powers are successive powers of the `τ` in `τ·g2`:
    /// `e(Σ ρ_i P_{i+1}, g2) = e(Σ ρ_i P_i, τ·g2)` for random 128-bit `ρ_i`
    /// (a wrong power survives with probability at most 2^-128). The `ρ_i`
    /// are derived from a hash of the whole setup ([`Setup::digest`]), which
    /// is fixed before they are drawn.
    fn check_powers(&self) -> Result<(), SetupError> {
        let powers = &self.urs.powers_in_g1;
        let seed = self.digest();
        let rhos: Vec<F> = (0..powers.len() - 1)
            .into_par_iter()
            .map(|i| {
                let h = Sha256::new().chain_update(seed).chain_update((i as u64).to_le_bytes()).finalize();
                F::from_le_bytes_mod_order(&h[..16])
            })
            .collect();
        let shifted = G1Projective::msm(&powers[1..], &rhos).expect("equal lengths");
        let base = G1Projective::msm(&powers[..powers.len() - 1], &rhos).expect("equal lengths");
        let key = self.key();
        let lhs = Bw6::multi_pairing([shifted.into_affine(), (-base).into_affine()], [key.g2, key.tau_g2]);
        if lhs.is_zero() { Ok(()) } else { Err(SetupError::PowersInconsistent) }
    }

    /// The file encoding (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.encoded_len());
        w.bytes(MAGIC);
        w.u8(VERSION);
        w.u8(if self.insecure { FLAG_INSECURE } else { 0 });
        w.bytes(&[0, 0]);
        w.u32(self.powers() as u32);
        w.u32(self.contributions.len() as u32);
        for p in &self.urs.powers_in_g2 {
            w.value(p, Compress::No);
        }
        for p in &self.urs.powers_in_g1 {
            w.value(p, Compress::No);
        }
        for c in &self.contributions {
            w.value(&c.secret_g1, Compress::No);
            w.value(&c.tau_g2, Compress::No);
            w.value(&c.pok_commitment, Compress::No);
            w.field(&c.pok_response);
        }
        let mut bytes = w.finish();
        let checksum = Sha256::digest(&bytes);
        bytes.extend_from_slice(&checksum);
        bytes
    }

    fn encoded_len(&self) -> usize {
        HEADER_BYTES
            + (2 + self.powers()) * POINT_BYTES_UNCOMPRESSED
            + self.contributions.len() * CONTRIBUTION_BYTES
            + CHECKSUM_BYTES
    }

    /// Decodes a setup file for use (proving, making committee keys).
    ///
    /// Checked: the layout, the checksum (accidental corruption only: it is
    /// unkeyed, so anyone who edits the file recomputes it), canonical
    /// encodings, every point on its curve, and the generators and `τ·g2`
    /// in their subgroups. Not checked here, because it costs a scalar
    /// multiplication per power: the G1 powers' subgroup membership and
    /// their consistency with `τ·g2`, which [`Setup::verify_ceremony`]
    /// establishes. Powers that are not those of `τ·g2`'s `τ` *can* make a
    /// verifier accept forgeries: a committee's commitments are computed
    /// from them. [`crate::Committee::new`] therefore verifies the ceremony
    /// ([`Setup::check_for_committees`]); a prover given bad powers only
    /// makes certificates that fail.
    pub fn from_bytes(bytes: &[u8]) -> Result<Setup, CertError> {
        let what = Encoded::Setup;
        let mut r = Reader::open(bytes, what, MAGIC, VERSION)?;
        let flags = r.u8()?;
        if flags & !FLAG_INSECURE != 0 {
            return Err(CertError::Malformed { what, field: "flags" });
        }
        if r.take(2)? != [0, 0] {
            return Err(CertError::Malformed { what, field: "reserved bytes" });
        }
        let powers = r.u32()? as usize;
        let contributions = r.u32()? as usize;
        check_size(powers)?;
        if contributions > powers {
            return Err(CertError::Malformed { what, field: "contribution count" });
        }
        r.expect_remaining(
            (2 + powers) * POINT_BYTES_UNCOMPRESSED + contributions * CONTRIBUTION_BYTES + CHECKSUM_BYTES,
        )?;
        let body = &bytes[..bytes.len() - CHECKSUM_BYTES];
        if Sha256::digest(body).as_slice() != &bytes[body.len()..] {
            return Err(SetupError::ChecksumMismatch.into());
        }
        let g2 = uncompressed::<G2>(&mut r, Validate::Yes, "G2 generator")?;
        let tau_g2 = uncompressed::<G2>(&mut r, Validate::Yes, "tau in G2")?;
        let raw = r.take(powers * POINT_BYTES_UNCOMPRESSED)?;
        let powers_in_g1 = raw
            .par_chunks(POINT_BYTES_UNCOMPRESSED)
            .map(|chunk| {
                decode_canonical::<G1>(chunk, Compress::No, Validate::No)
                    .filter(|p| p.is_on_curve())
                    .ok_or(CertError::BadPoint { what, field: "G1 power" })
            })
            .collect::<Result<Vec<G1>, CertError>>()?;
        if powers_in_g1[0] != G1::generator() || g2 != G2::generator() {
            return Err(SetupError::NotStandardGenerators.into());
        }
        let mut list = Vec::with_capacity(contributions);
        for _ in 0..contributions {
            list.push(Contribution {
                secret_g1: uncompressed::<G1>(&mut r, Validate::Yes, "contribution")?,
                tau_g2: uncompressed::<G2>(&mut r, Validate::Yes, "contribution")?,
                pok_commitment: uncompressed::<G1>(&mut r, Validate::Yes, "contribution")?,
                pok_response: r.field("contribution response")?,
            });
        }
        r.take(CHECKSUM_BYTES)?;
        r.finish()?;
        let urs = URS { powers_in_g1, powers_in_g2: vec![g2, tau_g2] };
        let setup = Setup::assemble(urs, flags & FLAG_INSECURE != 0, list);
        // Every field was checked canonical, so these bytes are the
        // setup's encoding: its digest without encoding it again.
        setup.digest.set(Sha256::digest(bytes).into()).expect("a new setup has no digest yet");
        Ok(setup)
    }
}

fn uncompressed<P: CanonicalSerialize + ark_serialize::CanonicalDeserialize>(
    r: &mut Reader<'_>,
    validate: Validate,
    field: &'static str,
) -> Result<P, CertError> {
    let what = r.what();
    decode_canonical(r.take(POINT_BYTES_UNCOMPRESSED)?, Compress::No, validate)
        .ok_or(CertError::BadPoint { what, field })
}

fn check_size(powers: usize) -> Result<(), SetupError> {
    if (2..=MAX_DOMAIN_SIZE).contains(&powers) {
        Ok(())
    } else {
        Err(SetupError::BadSize { got: powers, max: MAX_DOMAIN_SIZE })
    }
}

/// The development setup's trapdoor, derived from a public string.
fn development_tau() -> F {
    F::from_be_bytes_mod_order(&Sha512::digest(INSECURE_TAU_SEED))
}

/// Whether `tau_g2` is the development setup's `τ·g2` (computed once).
pub(crate) fn is_development_tau(tau_g2: &G2) -> bool {
    static DEVELOPMENT_TAU_G2: OnceLock<G2> = OnceLock::new();
    tau_g2 == DEVELOPMENT_TAU_G2.get_or_init(|| (G2::generator() * development_tau()).into_affine())
}

/// A nonzero scalar from entropy: SHA-512 of a purpose label and the entropy,
/// reduced mod `q` (statistically uniform).
fn derive_scalar(entropy: &[u8], purpose: &[u8]) -> F {
    let mut digest = Sha512::new()
        .chain_update(b"sigagg-bls-cert/v1/ceremony/")
        .chain_update(purpose)
        .chain_update(entropy)
        .finalize();
    let s = F::from_le_bytes_mod_order(&digest);
    digest.as_mut_slice().zeroize();
    if s.is_zero() { F::ONE } else { s }
}

/// The Fiat–Shamir challenge of a contribution's proof of knowledge; it
/// binds the contribution's position and the trapdoor it builds on, so a
/// proof cannot be replayed elsewhere.
fn pok_challenge(index: usize, previous_tau: &G2, secret_g1: &G1, tau_g2: &G2, commitment: &G1) -> F {
    let mut bytes = Vec::new();
    for value in [previous_tau as &dyn ErasedSerialize, secret_g1, tau_g2, commitment] {
        value.write(&mut bytes);
    }
    let digest = Sha512::new()
        .chain_update(b"sigagg-bls-cert/v1/ceremony/pok")
        .chain_update((index as u64).to_le_bytes())
        .chain_update(&bytes)
        .finalize();
    F::from_le_bytes_mod_order(&digest)
}

/// Object-safe compressed serialization, for hashing mixed point types.
trait ErasedSerialize {
    fn write(&self, out: &mut Vec<u8>);
}

impl<T: CanonicalSerialize> ErasedSerialize for T {
    fn write(&self, out: &mut Vec<u8>) {
        self.serialize_compressed(out).expect("writing to a Vec cannot fail");
    }
}

/// Checks contribution `index` against the trapdoor before it.
fn check_contribution(index: usize, c: &Contribution, previous_tau: &G2) -> Result<(), SetupError> {
    let g1 = G1::generator();
    let challenge = pok_challenge(index, previous_tau, &c.secret_g1, &c.tau_g2, &c.pok_commitment);
    // z·g1 = R + c·(s·g1)
    if g1 * c.pok_response != c.pok_commitment + c.secret_g1 * challenge {
        return Err(SetupError::BadProofOfKnowledge { index });
    }
    // e(s·g1, τ·g2) = e(g1, s·τ·g2)
    let check = Bw6::multi_pairing([c.secret_g1, (-g1.into_group()).into_affine()], [*previous_tau, c.tau_g2]);
    if check.is_zero() { Ok(()) } else { Err(SetupError::DoesNotExtend { index }) }
}

/// Entropy for tests (never for a real contribution, which takes entropy
/// from a cryptographic source).
#[cfg(test)]
pub(crate) fn test_entropy(i: u8) -> [u8; 32] {
    Sha256::digest([b"test entropy".as_slice(), &[i]].concat()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn development_setup_round_trips_and_is_refused_by_the_ceremony_check() {
        let setup = Setup::insecure_development(8).unwrap();
        assert!(setup.is_insecure() && setup.key().insecure);
        let bytes = setup.to_bytes();
        let back = Setup::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(setup.verify_ceremony(), Err(SetupError::InsecureDevelopmentSetup));
        assert_eq!(Setup::insecure_development(8).unwrap().to_bytes(), bytes, "deterministic");
    }

    #[test]
    fn ceremony_with_contributions_verifies_and_round_trips() {
        let mut setup = Setup::ceremony_start(6).unwrap();
        assert_eq!(setup.verify_ceremony(), Err(SetupError::NoContributions));
        setup.contribute(&test_entropy(1)).unwrap();
        setup.contribute(&test_entropy(2)).unwrap();
        let report = setup.verify_ceremony().unwrap();
        assert_eq!(report, CeremonyReport { contributions: 2, powers: 6 });
        let back = Setup::from_bytes(&setup.to_bytes()).unwrap();
        assert_eq!(back.verify_ceremony(), Ok(report));
        assert!(Setup::insecure_development(4).unwrap().contribute(b"x").is_err());
    }

    #[test]
    fn malformed_or_non_extending_contributions_are_refused() {
        let mut setup = Setup::ceremony_start(5).unwrap();
        setup.contribute(&test_entropy(3)).unwrap();
        setup.contribute(&test_entropy(4)).unwrap();
        let g1 = G1::generator();

        // A forged proof of knowledge.
        let mut bad = setup.clone();
        bad.contributions[1].pok_response += F::ONE;
        assert_eq!(bad.verify_ceremony(), Err(SetupError::BadProofOfKnowledge { index: 1 }));

        // A contribution that does not build on the previous trapdoor: its
        // tau is replaced by one built from scratch with a valid proof.
        let mut bad = setup.clone();
        let mut fresh = Setup::ceremony_start(5).unwrap();
        fresh.contribute(&test_entropy(5)).unwrap();
        bad.contributions[1] = fresh.contributions[0].clone();
        assert!(matches!(
            bad.verify_ceremony(),
            Err(SetupError::DoesNotExtend { index: 1 } | SetupError::BadProofOfKnowledge { index: 1 })
        ));

        // Powers that are not powers of the final tau.
        let mut bad = setup.clone();
        bad.urs.powers_in_g1[3] = (bad.urs.powers_in_g1[3] + g1).into_affine();
        assert_eq!(bad.verify_ceremony(), Err(SetupError::PowersInconsistent));

        // A final tau that is not the last contribution's.
        let mut bad = setup.clone();
        bad.urs.powers_in_g2[1] = bad.contributions[0].tau_g2;
        assert_eq!(bad.verify_ceremony(), Err(SetupError::FinalTauMismatch));

        // A zero secret (identity) is refused.
        let mut bad = setup.clone();
        bad.contributions[0].secret_g1 = G1::zero();
        assert_eq!(bad.verify_ceremony(), Err(SetupError::BadPoint { what: "contribution", index: 0 }));
    }

    #[test]
    fn ceremonies_ending_on_a_known_trapdoor_are_refused() {
        // A contributor whose secret is 1 leaves tau = 1; one whose secret
        // is the development trapdoor turns a fresh ceremony into it.
        for secret in [F::ONE, development_tau()] {
            let mut setup = Setup::ceremony_start(4).unwrap();
            setup.contribute_secret(secret, F::from(7u64));
            assert_eq!(setup.verify_ceremony(), Err(SetupError::KnownTrapdoor));
            assert_eq!(setup.check_for_committees(), Err(SetupError::KnownTrapdoor));
        }
        let mut setup = Setup::ceremony_start(4).unwrap();
        setup.contribute_secret(development_tau(), F::from(7u64));
        assert!(setup.is_insecure() && setup.key().insecure, "the development tau is insecure whatever the flag says");
    }

    #[test]
    fn only_the_development_setup_and_verified_ceremonies_serve_committees() {
        assert_eq!(Setup::insecure_development(4).unwrap().check_for_committees(), Ok(()));
        let mut setup = Setup::ceremony_start(4).unwrap();
        assert_eq!(setup.check_for_committees(), Err(SetupError::NoContributions));
        setup.contribute(&test_entropy(9)).unwrap();
        assert_eq!(setup.check_for_committees(), Ok(()), "contributing clears the kept answer");
        let mut bad = Setup::from_bytes(&setup.to_bytes()).unwrap();
        bad.urs.powers_in_g1[2] = bad.urs.powers_in_g1[1];
        assert_eq!(bad.check_for_committees(), Err(SetupError::PowersInconsistent));
    }

    #[test]
    fn the_digest_is_the_files_sha256_and_follows_contributions() {
        let mut setup = Setup::ceremony_start(4).unwrap();
        let before = setup.digest();
        assert_eq!(before, <[u8; 32]>::from(Sha256::digest(setup.to_bytes())));
        setup.contribute(&test_entropy(10)).unwrap();
        assert_ne!(setup.digest(), before);
        assert_eq!(setup.key().digest, <[u8; 32]>::from(Sha256::digest(setup.to_bytes())));
        // A decoded file's digest (taken from its bytes) is its encoding's.
        let back = Setup::from_bytes(&setup.to_bytes()).unwrap();
        assert_eq!(back.digest(), <[u8; 32]>::from(Sha256::digest(back.to_bytes())));
    }

    #[test]
    fn corrupted_files_are_refused() {
        let mut setup = Setup::ceremony_start(4).unwrap();
        setup.contribute(&test_entropy(6)).unwrap();
        let bytes = setup.to_bytes();
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 3 * POINT_BYTES_UNCOMPRESSED + 10] ^= 1;
        assert_eq!(Setup::from_bytes(&flipped).unwrap_err(), SetupError::ChecksumMismatch.into());
        assert!(matches!(Setup::from_bytes(&bytes[..bytes.len() - 1]), Err(CertError::WrongLength { .. })));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Setup::from_bytes(&longer), Err(CertError::WrongLength { .. })));
        let mut magic = bytes.clone();
        magic[0] ^= 1;
        assert!(matches!(Setup::from_bytes(&magic), Err(CertError::BadMagic { .. })));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(Setup::from_bytes(&version), Err(CertError::UnsupportedVersion { version: 9, .. })));
        assert!(matches!(Setup::ceremony_start(1), Err(SetupError::BadSize { .. })));
    }
}
