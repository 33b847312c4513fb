//! Committees: the validator set certificates speak about, committed once.
//!
//! A [`Committee`] holds the member keys (proofs of possession checked, via
//! [`KeyRegistry`], and kept), optional stake weights, and its [`CommitteeKey`]: the
//! KZG commitments to the fixed columns `px`, `py`, `s` and (with stake) `c`
//! of [`crate::piop`], with the setup's verifier key. The committee key is
//! the succinct form of ATMS's aggregate key: a few hundred bytes, whatever
//! the committee's size, and all a verifier needs.
//!
//! Only keys whose proofs of possession were checked make a committee, and
//! only a setup that may serve committees ([`Setup::check_for_committees`]):
//! a rogue key or a known trapdoor would let one signer certify for all.
//!
//! ## Encodings (version 2, integers little-endian, points compressed)
//! * committee key: `"SGBLSCMK"` · version · flags (bit 0: stake, bit 1:
//!   insecure development setup) · `u32 n` · `u32 N` · setup `g1`, `g2`,
//!   `τ·g2` · the setup file's SHA-256 · `[px]`, `[py]`, `[s]`, `[c]` (stake)
//!   · `u64` total stake (stake);
//! * committee: `"SGBLSCOM"` · version · `u32` key length · committee key ·
//!   `n` 48-byte keys · their `n` 96-byte proofs of possession · `n` `u64`
//!   weights (stake).
//!
//! Version 2 added the setup digest and the proofs of possession.

use std::sync::OnceLock;

use ark_ec::AffineRepr;
use ark_ff::{AdditiveGroup, Field};
use ark_serialize::Compress;
use rayon::prelude::*;
use sigagg_bls::{KeyRegistry, PUBLIC_KEY_BYTES, ProofOfPossession, PublicKey, SIGNATURE_BYTES};

use crate::codec::{Reader, Writer};
use crate::domain::{Domain, MAX_DOMAIN_SIZE};
use crate::error::{CertError, Encoded, SetupError};
use crate::field::{F, G1, G2, KeyPoint, key_point, padding_point};
use crate::piop::COUNT_BITS;
use crate::piop::prover::commit;
use crate::piop::verifier::{FixedCommitments, PreparedSetup, prepare};
use crate::setup::{Setup, SetupKey, is_development_tau};

const KEY_MAGIC: &[u8; 8] = b"SGBLSCMK";
const COMMITTEE_MAGIC: &[u8; 8] = b"SGBLSCOM";
const VERSION: u8 = 2;
const FLAG_STAKE: u8 = 1;
const FLAG_INSECURE: u8 = 2;

/// The largest committee: one row more than the keys is needed (the
/// accumulator's final value).
pub const MAX_COMMITTEE_SIZE: usize = MAX_DOMAIN_SIZE - 1;

/// What a verifier needs of a committee.
#[derive(Clone, Debug)]
pub struct CommitteeKey {
    size: usize,
    domain: Domain,
    setup: SetupKey,
    fixed: FixedCommitments,
    total_stake: Option<u64>,
    /// The setup's G2 points prepared for pairings, on first use.
    prepared: OnceLock<PreparedSetup>,
}

impl PartialEq for CommitteeKey {
    fn eq(&self, other: &Self) -> bool {
        (self.size, &self.domain, &self.setup, &self.fixed, self.total_stake)
            == (other.size, &other.domain, &other.setup, &other.fixed, other.total_stake)
    }
}

impl Eq for CommitteeKey {}

impl CommitteeKey {
    /// Number of keys `n`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The evaluation domain (`N > n` rows).
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// Whether the committee has stake weights.
    pub fn has_stake(&self) -> bool {
        self.total_stake.is_some()
    }

    /// The sum of the weights, if weighted.
    pub fn total_stake(&self) -> Option<u64> {
        self.total_stake
    }

    /// Whether the key was made with the insecure development setup (its
    /// certificates prove nothing: anyone can forge them): its flag says
    /// so, or its `τ·g2` is the development setup's whatever the flag says.
    pub fn is_insecure(&self) -> bool {
        self.setup.insecure
    }

    /// SHA-256 of the setup file the key was made with (what `sha256sum`
    /// prints for it): compare it with the ceremony's published file.
    pub fn setup_digest(&self) -> [u8; 32] {
        self.setup.digest
    }

    /// The setup's verifier key.
    pub fn setup(&self) -> &SetupKey {
        &self.setup
    }

    /// The commitments to the fixed columns.
    pub fn commitments(&self) -> &FixedCommitments {
        &self.fixed
    }

    /// The setup's G2 points prepared for pairings (computed on first use).
    pub(crate) fn prepared(&self) -> &PreparedSetup {
        self.prepared.get_or_init(|| prepare(&self.setup))
    }

    /// Fails with [`CertError::SetupMismatch`] unless the key was made with
    /// this setup.
    pub fn check_setup(&self, setup: &SetupKey) -> Result<(), CertError> {
        if &self.setup == setup { Ok(()) } else { Err(CertError::SetupMismatch) }
    }

    /// The encoding (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.bytes(KEY_MAGIC);
        w.u8(VERSION);
        let stake = if self.has_stake() { FLAG_STAKE } else { 0 };
        let insecure = if self.setup.insecure { FLAG_INSECURE } else { 0 };
        w.u8(stake | insecure);
        w.u32(self.size as u32);
        w.u32(self.domain.size() as u32);
        w.value(&self.setup.g1, Compress::Yes);
        w.value(&self.setup.g2, Compress::Yes);
        w.value(&self.setup.tau_g2, Compress::Yes);
        w.bytes(&self.setup.digest);
        for c in [self.fixed.key_x, self.fixed.key_y, self.fixed.selector].iter().chain(&self.fixed.weight) {
            w.value(c, Compress::Yes);
        }
        if let Some(total) = self.total_stake {
            w.u64(total);
        }
        w.finish()
    }

    /// Decodes a committee key, checking every field: known flags, a
    /// committee size in range with its canonical domain, standard
    /// generators, every point in its subgroup, and a `τ·g2` other than
    /// `g2` (`τ = 1`, the ceremony's start). A key whose `τ·g2` is the
    /// development setup's is insecure whatever its flag says.
    pub fn from_bytes(bytes: &[u8]) -> Result<CommitteeKey, CertError> {
        let mut r = Reader::open(bytes, Encoded::CommitteeKey, KEY_MAGIC, VERSION)?;
        let key = CommitteeKey::read(&mut r)?;
        r.finish()?;
        Ok(key)
    }

    fn read(r: &mut Reader<'_>) -> Result<CommitteeKey, CertError> {
        let what = r.what();
        let flags = r.u8()?;
        if flags & !(FLAG_STAKE | FLAG_INSECURE) != 0 {
            return Err(CertError::Malformed { what, field: "flags" });
        }
        let size = r.u32()? as usize;
        let domain_size = r.u32()? as usize;
        let domain = committee_domain(size).map_err(|_| CertError::Malformed { what, field: "committee size" })?;
        if domain.size() != domain_size {
            return Err(CertError::Malformed { what, field: "domain size" });
        }
        let g1: G1 = r.point("setup")?;
        let g2: G2 = r.point("setup")?;
        let tau_g2: G2 = r.point("setup")?;
        if g1 != G1::generator() || g2 != G2::generator() || tau_g2.is_zero() {
            return Err(CertError::BadPoint { what, field: "setup" });
        }
        if tau_g2 == g2 {
            return Err(SetupError::KnownTrapdoor.into());
        }
        let digest: [u8; 32] = r.take(32)?.try_into().expect("took 32 bytes");
        let stake = flags & FLAG_STAKE != 0;
        let fixed = FixedCommitments {
            key_x: r.point("key column")?,
            key_y: r.point("key column")?,
            selector: r.point("selector column")?,
            weight: stake.then(|| r.point("weight column")).transpose()?,
        };
        let total_stake = stake.then(|| r.u64()).transpose()?;
        let insecure = flags & FLAG_INSECURE != 0 || is_development_tau(&tau_g2);
        let setup = SetupKey { g1, g2, tau_g2, insecure, digest };
        Ok(CommitteeKey { size, domain, setup, fixed, total_stake, prepared: OnceLock::new() })
    }
}

/// A committee: member keys with proven possession (and their proofs),
/// optional weights, and the committee key.
#[derive(Clone)]
pub struct Committee {
    registry: KeyRegistry,
    weights: Option<Vec<u64>>,
    key: CommitteeKey,
}

impl std::fmt::Debug for Committee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Committee").field("size", &self.registry.len()).field("key", &self.key).finish()
    }
}

impl Committee {
    /// Commits a validator set: the keys of `registry` (whose proofs of
    /// possession it checked) in their registry order, and optionally one
    /// stake weight per key.
    ///
    /// Refused: a registry with unchecked keys ([`CertError::UncheckedKeys`])
    /// and a setup that may not serve committees
    /// ([`Setup::check_for_committees`]: a ceremony that does not verify or
    /// has no contribution, a known trapdoor). The development setup is
    /// accepted and makes an insecure committee key.
    ///
    /// Costs one FFT and one multi-scalar multiplication of `N` points per
    /// fixed column, and, the first time a ceremony is used, its check.
    pub fn new(setup: &Setup, registry: KeyRegistry, weights: Option<Vec<u64>>) -> Result<Committee, CertError> {
        let size = registry.len();
        let domain = committee_domain(size)?;
        let total_stake = weights.as_deref().map(|w| total_stake(size, w)).transpose()?;
        if registry.proofs().is_none() {
            return Err(CertError::UncheckedKeys);
        }
        setup.check_for_committees()?;
        let committer = setup.committer_key(domain.size())?;
        let values = FixedValues::new(registry.keys(), weights.as_deref(), domain.size());
        let fft = domain.fft();
        let commit_values = |v: &Vec<F>| commit(&committer, &fft.interpolate(v));
        let fixed = FixedCommitments {
            key_x: commit_values(&values.key_x),
            key_y: commit_values(&values.key_y),
            selector: commit_values(&values.selector),
            weight: values.weight.as_ref().map(commit_values),
        };
        let key = CommitteeKey { size, domain, setup: setup.key(), fixed, total_stake, prepared: OnceLock::new() };
        Ok(Committee { registry, weights, key })
    }

    /// The committee key.
    pub fn key(&self) -> &CommitteeKey {
        &self.key
    }

    /// The member keys, by index.
    pub fn keys(&self) -> &[PublicKey] {
        self.registry.keys()
    }

    /// The registry (key → index lookups).
    pub fn registry(&self) -> &KeyRegistry {
        &self.registry
    }

    /// The stake weights, if any.
    pub fn weights(&self) -> Option<&[u64]> {
        self.weights.as_deref()
    }

    /// Recomputes the committee key from the member keys with `setup` and
    /// fails unless it is the stored one: a committee file whose key was
    /// altered (or made with another setup) is caught here.
    pub fn check_key(&self, setup: &Setup) -> Result<(), CertError> {
        let fresh = Committee::new(setup, self.registry.clone(), self.weights.clone())?;
        if fresh.key == self.key { Ok(()) } else { Err(CertError::CommitteeKeyMismatch) }
    }

    /// The encoding (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let key = self.key.to_bytes();
        let mut w = Writer::default();
        w.bytes(COMMITTEE_MAGIC);
        w.u8(VERSION);
        w.u32(key.len() as u32);
        w.bytes(&key);
        for k in self.keys() {
            w.bytes(&k.to_bytes());
        }
        for p in self.registry.proofs().expect("a committee's registry holds its proofs") {
            w.bytes(&p.to_bytes());
        }
        for weight in self.weights.iter().flatten() {
            w.u64(*weight);
        }
        w.finish()
    }

    /// The committee key inside a committee encoding, without decoding the
    /// member keys (a verifier given the prover's committee file needs only
    /// this part). The file's length must still be the one its key implies:
    /// a truncated or extended committee file is refused.
    pub fn key_from_bytes(bytes: &[u8]) -> Result<CommitteeKey, CertError> {
        let mut r = Reader::open(bytes, Encoded::Committee, COMMITTEE_MAGIC, VERSION)?;
        let key_len = r.u32()? as usize;
        let key = CommitteeKey::from_bytes(r.take(key_len)?)?;
        r.expect_remaining(members_len(&key))?;
        Ok(key)
    }

    /// Decodes a committee: its key, and the member keys (each validated:
    /// on the curve, in the subgroup, not the identity; distinct) with
    /// their proofs of possession, which are checked again (one pairing per
    /// key, in parallel): a committee file is data from outside.
    pub fn from_bytes(bytes: &[u8]) -> Result<Committee, CertError> {
        let what = Encoded::Committee;
        let mut r = Reader::open(bytes, what, COMMITTEE_MAGIC, VERSION)?;
        let key_len = r.u32()? as usize;
        let key = CommitteeKey::from_bytes(r.take(key_len)?)?;
        let n = key.size;
        r.expect_remaining(members_len(&key))?;
        let keys = r
            .take(n * PUBLIC_KEY_BYTES)?
            .par_chunks(PUBLIC_KEY_BYTES)
            .map(PublicKey::from_bytes)
            .collect::<Result<Vec<_>, _>>()?;
        let proofs = r
            .take(n * SIGNATURE_BYTES)?
            .par_chunks(SIGNATURE_BYTES)
            .map(ProofOfPossession::from_bytes)
            .collect::<Result<Vec<_>, _>>()?;
        let weights = key.has_stake().then(|| (0..n).map(|_| r.u64()).collect::<Result<Vec<_>, _>>()).transpose()?;
        r.finish()?;
        if let (Some(w), Some(total)) = (&weights, key.total_stake)
            && total_stake(n, w)? != total
        {
            return Err(CertError::Malformed { what, field: "total stake" });
        }
        let entries: Vec<(PublicKey, ProofOfPossession)> = keys.into_iter().zip(proofs).collect();
        let registry = KeyRegistry::from_keys_with_proofs(&entries)?;
        Ok(Committee { registry, weights, key })
    }
}

/// The bytes of a committee encoding after its key: the member keys, their
/// proofs of possession and (with stake) their weights.
fn members_len(key: &CommitteeKey) -> usize {
    let weight_bytes = if key.has_stake() { 8 } else { 0 };
    key.size * (PUBLIC_KEY_BYTES + SIGNATURE_BYTES + weight_bytes)
}

/// The number of setup powers a committee of `size` keys needs (its
/// domain's size): what a setup for committees of up to `size` keys must hold.
pub fn powers_for_committee(size: usize) -> Result<usize, CertError> {
    Ok(committee_domain(size)?.size())
}

/// The domain of a committee of `size` keys: the smallest with more rows.
fn committee_domain(size: usize) -> Result<Domain, CertError> {
    if size == 0 {
        return Err(CertError::EmptyCommittee);
    }
    Domain::with_at_least(size + 1).ok_or(CertError::CommitteeTooLarge { n: size, max: MAX_COMMITTEE_SIZE })
}

fn total_stake(keys: usize, weights: &[u64]) -> Result<u64, CertError> {
    if weights.len() != keys {
        return Err(CertError::WeightsLength { keys, weights: weights.len() });
    }
    weights.iter().try_fold(0u64, |acc, w| acc.checked_add(*w)).ok_or(CertError::StakeOverflow)
}

/// The fixed columns' values over `H` (see the table of [`crate::piop`]).
pub(crate) struct FixedValues {
    /// The member keys as points.
    pub points: Vec<KeyPoint>,
    pub key_x: Vec<F>,
    pub key_y: Vec<F>,
    pub selector: Vec<F>,
    pub weight: Option<Vec<F>>,
}

impl FixedValues {
    pub fn new(keys: &[PublicKey], weights: Option<&[u64]>, size: usize) -> FixedValues {
        let points: Vec<KeyPoint> = keys.par_iter().map(key_point).collect();
        let (pad_x, pad_y) = padding_point().xy().expect("the generator is not the identity");
        let coordinate = |pick: fn(&KeyPoint) -> F, pad: F| {
            let mut column: Vec<F> = points.iter().map(pick).collect();
            column.resize(size, pad);
            column
        };
        let mut selector = vec![F::ONE; keys.len()];
        selector.resize(size, F::ZERO);
        let weight = weights.map(|w| {
            let shift = F::from(1u64 << COUNT_BITS);
            let mut column: Vec<F> = w.iter().map(|w| F::from(*w) * shift + F::ONE).collect();
            column.resize(size, F::ZERO);
            column
        });
        FixedValues { key_x: coordinate(|p| p.x, pad_x), key_y: coordinate(|p| p.y, pad_y), selector, weight, points }
    }

    /// The weight column's values on the key rows: `c` with stake, `s` without.
    pub fn row_weights(&self, keys: usize) -> &[F] {
        &self.weight.as_ref().unwrap_or(&self.selector)[..keys]
    }
}
