//! Proof-system settings: one typed variant per backend, each holding only
//! the parameters its backend reads, and a validating constructor.
//!
//! [`Settings`] is [`Settings::Fri`] with a [`FriSettings`], or
//! [`Settings::Whir`] / [`Settings::Skip`] with a [`WhirSettings`] (the two
//! multilinear provers share the WHIR commitment and its parameters). The
//! parameter structs have public fields, as Plonky3's `FriParameters`, so
//! settings can be written as constants and varied in experiments; every
//! entry point that takes settings from outside checks them first
//! ([`Settings::validate`]): [`Settings::new`], decoding (a proof names its
//! settings, and decoding refuses settings out of range), and the
//! backend dispatch ([`crate::prove`], [`crate::verify`],
//! [`crate::security_level`]). The ranges keep every parameter where the
//! backends are defined: Plonky3's grinding check panics on 31 or more bits
//! over KoalaBear, a FRI of no query proves nothing, and WHIR commits
//! only with the hashes it has trees for.
//!
//! # Encoding
//!
//! Settings are encoded (in proof headers) as the one flat record of all
//! fifteen parameters they were before the variants existed, a backend's
//! unread parameters zero ([`Flat`]); the same bytes decode to the same
//! settings, and a record with a nonzero parameter its backend does not
//! read is refused, so each settings value has exactly one encoding.
//! [`Settings::words`] (the transcript seed's view) keeps its order too.

use p3_commit::Mmcs;
use p3_field::TwoAdicField;
use p3_fri::{FriParameters, TwoAdicFriPcs};
use serde::{Deserialize, Serialize};

use crate::config::{
    AggConfig, AggConfig24, Backend, ConfigWith, Dft, MerkleHash, Val, transcript, val_mmcs, val_mmcs24,
};

/// The parameters of the FRI backend ([`Backend::Fri`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FriSettings {
    /// log2 of the Reed-Solomon blowup (rate `2^-log_blowup`).
    pub log_blowup: usize,
    /// Number of FRI queries.
    pub num_queries: usize,
    /// Proof-of-work bits before the FRI queries are drawn.
    pub query_pow_bits: usize,
    /// Proof-of-work bits before each FRI folding challenge.
    pub commit_pow_bits: usize,
    /// Proof-of-work bits before the opening-batching challenge.
    pub batch_pow_bits: usize,
    /// Proof-of-work bits before the lookup (LogUp) challenges.
    pub lookup_pow_bits: usize,
    /// Proof-of-work bits before the out-of-domain point.
    pub ood_pow_bits: usize,
    /// log2 of the largest FRI folding arity.
    pub max_log_arity: usize,
    /// log2 of the longest final FRI polynomial. A proof whose shortest
    /// table is shorter folds further ([`Settings::fitted`]).
    pub log_final_poly_len: usize,
    /// Merkle cap height (top tree layers sent whole, shortening every path).
    /// The named settings use 0, a single root: FRI's queries share their
    /// paths in one multi-opening per tree, so the top layers are mostly
    /// opened anyway and a cap of `2^k` digests costs more than it saves.
    pub cap_height: usize,
    /// The hash of the Merkle commitments: [`MerkleHash::Sha256`] or
    /// [`MerkleHash::Sha256Trunc24`].
    pub merkle: MerkleHash,
}

/// The parameters of the WHIR commitment, shared by both multilinear
/// provers ([`Backend::Whir`], [`Backend::Skip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WhirSettings {
    /// log2 of the inverse rate of the first codeword.
    pub log_blowup: usize,
    /// Proof-of-work bits before each round's queries.
    pub query_pow_bits: usize,
    /// log2 of every folding after the first.
    pub max_log_arity: usize,
    /// log2 of the first folding (capped at the shortest table).
    pub first_log_arity: usize,
    /// How far each round's code rate falls below the one before, in bits:
    /// round `i` (from 0) commits at rate `2^-(log_blowup + rate_step * (i + 1))`.
    /// Lower rates cost each round's encoding more memory and time and buy
    /// fewer queries (in the Johnson-bound regime a query at rate `2^-r` is
    /// worth about `r/2` bits), so they shorten the proof.
    pub rate_step: usize,
    /// The level each of WHIR's error terms is sized for; the composed
    /// level is what [`crate::security_level`] states.
    pub target_bits: usize,
    /// The hash of the Merkle commitments: [`MerkleHash::Sha256`] or
    /// [`MerkleHash::Sha256Trunc31`].
    pub merkle: MerkleHash,
}

/// Proof-system parameters: the backend and its own parameters. Prover and
/// verifier must use the same settings: the verifier never takes them from
/// the proof (a proof only names them, so that a mismatch is reported
/// clearly instead of as a failed check).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Flat", try_from = "Flat")]
pub enum Settings {
    /// Univariate: Plonky3's batch STARK with FRI ([`crate::fri`]).
    Fri(FriSettings),
    /// Multilinear: Plonky3's prover with the WHIR commitment ([`crate::whir`]).
    Whir(WhirSettings),
    /// Multilinear: our own prover ([`crate::skip_stark`]) with the WHIR commitment.
    Skip(WhirSettings),
}

/// Why settings were refused ([`Settings::validate`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidSettings {
    /// A parameter outside the range its backend is defined on.
    #[error("{backend:?} settings: {parameter} = {value} is outside {min}..={max}")]
    OutOfRange {
        /// The backend of the settings.
        backend: Backend,
        /// The parameter's name (its field's).
        parameter: &'static str,
        /// Its value.
        value: usize,
        /// The smallest value allowed.
        min: usize,
        /// The largest value allowed.
        max: usize,
    },
    /// A Merkle hash the backend has no trees for.
    #[error("the {} backend does not commit with {merkle:?}", backend.name())]
    UnsupportedMerkleHash {
        /// The backend of the settings.
        backend: Backend,
        /// The hash named.
        merkle: MerkleHash,
    },
    /// An encoded record sets a parameter its backend does not read (it
    /// must be zero, so that each setting has one encoding).
    #[error("{backend:?} settings do not read {parameter}, which must be 0")]
    UnreadParameter {
        /// The backend of the settings.
        backend: Backend,
        /// The parameter's name.
        parameter: &'static str,
    },
}

/// The most grinding bits a backend checks: Plonky3's challenger samples
/// fewer bits than KoalaBear has (it panics from 31 on).
pub const MAX_POW_BITS: usize = 30;

/// `Ok` when `min <= value <= max`.
const fn in_range(
    backend: Backend,
    parameter: &'static str,
    value: usize,
    min: usize,
    max: usize,
) -> Result<(), InvalidSettings> {
    if min <= value && value <= max {
        Ok(())
    } else {
        Err(InvalidSettings::OutOfRange { backend, parameter, value, min, max })
    }
}

/// Returns [`in_range`]'s error for the first `field in min..=max` that
/// `settings.field` misses (a `const fn` cannot loop over a table).
macro_rules! check_ranges {
    ($backend:expr, $settings:expr, $($field:ident in $min:literal..=$max:expr),* $(,)?) => {
        $(if let Err(e) = in_range($backend, stringify!($field), $settings.$field, $min, $max) { return Err(e); })*
    };
}

impl FriSettings {
    /// Rate 1/2 and many queries: the XMSS aggregator's `fast` setting (at
    /// least 100 proven bits for every Seed001 statement it accepts,
    /// `sigagg-xmss-agg`'s security tests).
    pub const FAST: Self = Self {
        log_blowup: 1,
        num_queries: 164,
        query_pow_bits: 20,
        commit_pow_bits: 0,
        batch_pow_bits: 16,
        lookup_pow_bits: 16,
        ood_pow_bits: 16,
        max_log_arity: 3,
        log_final_poly_len: 7,
        cap_height: 0,
        merkle: MerkleHash::Sha256,
    };

    /// Rate 1/8, fewer queries, smaller proofs: the XMSS aggregator's
    /// `compact` setting (at least 100 proven bits for Seed001).
    pub const COMPACT: Self = Self { log_blowup: 3, num_queries: 54, query_pow_bits: 22, ..Self::FAST };

    /// For fast tests. **Not secure** (about 20 bits): 40 queries, no
    /// grinding; enough that a corrupted proof is caught with overwhelming
    /// probability in negative tests.
    pub const INSECURE_TEST: Self = Self {
        log_blowup: 1,
        num_queries: 40,
        query_pow_bits: 0,
        commit_pow_bits: 0,
        batch_pow_bits: 0,
        lookup_pow_bits: 0,
        ood_pow_bits: 0,
        max_log_arity: 1,
        log_final_poly_len: 0,
        cap_height: 0,
        merkle: MerkleHash::Sha256,
    };

    /// [`Self::INSECURE_TEST`] at rate 1/8, so that functional tests reach
    /// the compact layouts (the quotient's, the paired Poseidon2 tables').
    /// **Not secure** (20 queries, no grinding).
    pub const INSECURE_TEST_COMPACT: Self = Self { log_blowup: 3, num_queries: 20, ..Self::INSECURE_TEST };

    /// `Ok` when every parameter is in its range and the hash is one FRI
    /// commits with.
    pub const fn validate(&self) -> Result<(), InvalidSettings> {
        let b = Backend::Fri;
        check_ranges!(b, self,
            log_blowup in 1..=6,
            num_queries in 1..=1024,
            query_pow_bits in 0..=MAX_POW_BITS,
            commit_pow_bits in 0..=MAX_POW_BITS,
            batch_pow_bits in 0..=MAX_POW_BITS,
            lookup_pow_bits in 0..=MAX_POW_BITS,
            ood_pow_bits in 0..=MAX_POW_BITS,
            max_log_arity in 1..=4,
            log_final_poly_len in 0..=16,
            cap_height in 0..=8,
        );
        match self.merkle {
            MerkleHash::Sha256 | MerkleHash::Sha256Trunc24 => Ok(()),
            merkle => Err(InvalidSettings::UnsupportedMerkleHash { backend: b, merkle }),
        }
    }

    /// These settings with the final polynomial no longer than
    /// `2^(log_min_height - 1)` coefficients ([`Settings::fitted`]).
    pub fn fitted(&self, log_min_height: usize) -> Self {
        Self { log_final_poly_len: self.log_final_poly_len.min(log_min_height.saturating_sub(1)), ..*self }
    }

    /// [`Self::fitted`] to the shortest of tables of `2^log_heights[i]` rows.
    pub fn fitted_to(&self, log_heights: &[usize]) -> Self {
        self.fitted(log_heights.iter().copied().min().unwrap_or(0))
    }

    /// The configuration of full-width SHA-256 commitments, with a
    /// transcript that starts by absorbing `seed`.
    pub fn stark_config_seeded(&self, seed: Vec<u8>) -> AggConfig {
        self.config_with(val_mmcs(self.cap_height), seed)
    }

    /// The configuration of 24-byte commitments, with a transcript that
    /// starts by absorbing `seed`.
    pub fn stark_config24_seeded(&self, seed: Vec<u8>) -> AggConfig24 {
        self.config_with(val_mmcs24(self.cap_height), seed)
    }

    /// Plonky3's FRI parameters for these settings over the Merkle scheme `mmcs`.
    pub fn fri_parameters<M>(&self, mmcs: M) -> FriParameters<M> {
        FriParameters {
            log_blowup: self.log_blowup,
            log_final_poly_len: self.log_final_poly_len,
            max_log_arity: self.max_log_arity,
            num_queries: self.num_queries,
            batch_proof_of_work_bits: self.batch_pow_bits,
            commit_proof_of_work_bits: self.commit_pow_bits,
            query_proof_of_work_bits: self.query_pow_bits,
            mmcs,
        }
    }

    /// These settings' FRI and grinding parameters over the Merkle scheme `mmcs`.
    fn config_with<M: Mmcs<Val> + Clone>(&self, mmcs: M, seed: Vec<u8>) -> ConfigWith<M> {
        let fri = self.fri_parameters(p3_commit::ExtensionMmcs::new(mmcs.clone()));
        let pcs = TwoAdicFriPcs::new(Dft::default(), mmcs, fri);
        ConfigWith::new(pcs, transcript(seed))
            .with_lookup_proof_of_work_bits(self.lookup_pow_bits)
            .with_ood_proof_of_work_bits(self.ood_pow_bits)
    }
}

impl WhirSettings {
    /// WHIR at starting rate 1/2, first folding 2^6 then 2^4, round rates
    /// `2^-(2+i)`, queries sized for 125 bits per error term with 20 bits
    /// of grinding, in the Johnson-bound regime (proven); full-width
    /// SHA-256. The schedule is the fastest measured for a base-field
    /// commitment (BENCHMARKS-HISTORY.md).
    pub const WHIR: Self = Self {
        log_blowup: 1,
        query_pow_bits: 20,
        max_log_arity: 4,
        first_log_arity: 6,
        rate_step: 1,
        target_bits: 125,
        merkle: MerkleHash::Sha256,
    };

    /// WHIR for short proofs of small statements: starting rate 1/8, first
    /// folding 2^7 then 2^4, round rates falling 8-fold a round
    /// (`2^-(6+3i)`), queries sized for 126 bits per error term with 26
    /// bits of grinding (Johnson bound, proven), SHA-256 truncated to 31
    /// bytes ([`MerkleHash::Sha256Trunc31`]: 124-bit collision
    /// resistance). The composed report sums every term, the collision one
    /// included, so each term is sized a bit above [`Self::WHIR`]'s 125 to
    /// keep at least 120 proven bits at every size; the extra grinding bit
    /// keeps the query count. It commits four times the codeword of
    /// [`Self::WHIR`] and grinds 64 times longer per round for less than
    /// half the proof (figures in BENCHMARKS.md).
    pub const WHIR_COMPACT: Self = Self {
        log_blowup: 3,
        query_pow_bits: 26,
        target_bits: 126,
        first_log_arity: 7,
        rate_step: 3,
        merkle: MerkleHash::Sha256Trunc31,
        ..Self::WHIR
    };

    /// [`Self::WHIR`] with round rates falling 4-fold a round
    /// (`2^-(1+2i)`): our own prover's commitment ([`Settings::WHIR_SKIP`]).
    pub const WHIR_SKIP: Self = Self { rate_step: 2, ..Self::WHIR };

    /// [`Self::WHIR_SKIP`] over Poseidon2 ([`MerkleHash::Poseidon2`]: a
    /// 123-bit collision term), queries sized for 126 bits per term, as
    /// [`Self::WHIR_COMPACT`] is for its 124-bit hash: at 125 the sum of
    /// the terms fell to 119.997 bits for leanSig's largest threshold
    /// statement (`tests/security.rs` of the XMSS aggregator).
    pub const WHIR_SKIP_POSEIDON2: Self = Self { target_bits: 126, merkle: MerkleHash::Poseidon2, ..Self::WHIR_SKIP };

    /// [`Self::WHIR_SKIP`] at starting rate 1/4: about half the queries,
    /// so shorter proofs for a slower commitment (a merged proof of two
    /// children: 208 KB against 288 KB, about 1.1x the time).
    pub const WHIR_SKIP_COMPACT: Self = Self { log_blowup: 2, ..Self::WHIR_SKIP };

    /// [`Self::WHIR`] for fast tests. **Not secure** (about 20 bits): no
    /// grinding, queries sized for 24 bits per term.
    pub const INSECURE_TEST: Self = Self { query_pow_bits: 0, target_bits: 24, ..Self::WHIR };

    /// `Ok` when every parameter is in its range and the hash is one WHIR
    /// commits with; `backend` is the multilinear prover they are for.
    pub const fn validate(&self, backend: Backend) -> Result<(), InvalidSettings> {
        let b = backend;
        check_ranges!(b, self,
            log_blowup in 1..=4,
            query_pow_bits in 0..=MAX_POW_BITS,
            max_log_arity in 1..=6,
            first_log_arity in 1..=10,
            rate_step in 1..=4,
            target_bits in 1..=192,
        );
        match (self.merkle, backend) {
            (MerkleHash::Sha256 | MerkleHash::Sha256Trunc31, _) | (MerkleHash::Poseidon2, Backend::Skip) => Ok(()),
            (merkle, _) => Err(InvalidSettings::UnsupportedMerkleHash { backend: b, merkle }),
        }
    }
}

impl Settings {
    /// The fast setting: FRI at rate 1/2 ([`FriSettings::FAST`]).
    pub const FAST: Self = Self::Fri(FriSettings::FAST);
    /// The compact setting: FRI at rate 1/8 ([`FriSettings::COMPACT`]).
    pub const COMPACT: Self = Self::Fri(FriSettings::COMPACT);
    /// FRI for fast tests ([`FriSettings::INSECURE_TEST`]). **Not secure.**
    pub const INSECURE_TEST: Self = Self::Fri(FriSettings::INSECURE_TEST);
    /// FRI at rate 1/8 for fast tests ([`FriSettings::INSECURE_TEST_COMPACT`]). **Not secure.**
    pub const INSECURE_TEST_COMPACT: Self = Self::Fri(FriSettings::INSECURE_TEST_COMPACT);
    /// Plonky3's multilinear prover with [`WhirSettings::WHIR`].
    pub const WHIR: Self = Self::Whir(WhirSettings::WHIR);
    /// Plonky3's multilinear prover with [`WhirSettings::WHIR_COMPACT`].
    pub const WHIR_COMPACT: Self = Self::Whir(WhirSettings::WHIR_COMPACT);
    /// Our own multilinear prover with [`WhirSettings::WHIR_SKIP`]: at
    /// N = 8192 Seed001 signatures about 359 KiB at 120.5 proven bits
    /// (BENCHMARKS.md). Proven security, Johnson bound.
    pub const WHIR_SKIP: Self = Self::Skip(WhirSettings::WHIR_SKIP);
    /// [`Self::WHIR_SKIP`] with Merkle trees and transcript over Poseidon2
    /// ([`MerkleHash::Poseidon2`]): what a verifier written as AIR tables
    /// can afford (recursion); its trees cost 2.4-3.5x SHA-256's to build
    /// (BENCHMARKS.md).
    pub const WHIR_SKIP_POSEIDON2: Self = Self::Skip(WhirSettings::WHIR_SKIP_POSEIDON2);
    /// Our own multilinear prover at starting rate 1/4
    /// ([`WhirSettings::WHIR_SKIP_COMPACT`]): shorter proofs, a slower
    /// commitment. Proven security, Johnson bound.
    pub const WHIR_SKIP_COMPACT: Self = Self::Skip(WhirSettings::WHIR_SKIP_COMPACT);
    /// [`Self::WHIR`] for fast tests ([`WhirSettings::INSECURE_TEST`]). **Not secure.**
    pub const INSECURE_TEST_WHIR: Self = Self::Whir(WhirSettings::INSECURE_TEST);
    /// [`Self::WHIR_SKIP`] for fast tests, on [`WhirSettings::INSECURE_TEST`]. **Not secure.**
    pub const INSECURE_TEST_SKIP: Self = Self::Skip(WhirSettings::INSECURE_TEST);

    /// `settings`, once validated ([`Self::validate`]).
    pub const fn new(settings: Settings) -> Result<Settings, InvalidSettings> {
        match settings.validate() {
            Ok(()) => Ok(settings),
            Err(e) => Err(e),
        }
    }

    /// `Ok` when the backend's parameters are in range and its hash is one
    /// it commits with.
    pub const fn validate(&self) -> Result<(), InvalidSettings> {
        match self {
            Settings::Fri(f) => f.validate(),
            Settings::Whir(w) => w.validate(Backend::Whir),
            Settings::Skip(w) => w.validate(Backend::Skip),
        }
    }

    /// The proof system the settings choose.
    pub const fn backend(&self) -> Backend {
        match self {
            Settings::Fri(_) => Backend::Fri,
            Settings::Whir(_) => Backend::Whir,
            Settings::Skip(_) => Backend::Skip,
        }
    }

    /// The FRI parameters, if the backend is FRI.
    pub const fn fri(&self) -> Option<&FriSettings> {
        match self {
            Settings::Fri(f) => Some(f),
            _ => None,
        }
    }

    /// The WHIR parameters, if the backend is multilinear.
    pub const fn whir(&self) -> Option<&WhirSettings> {
        match self {
            Settings::Whir(w) | Settings::Skip(w) => Some(w),
            Settings::Fri(_) => None,
        }
    }

    /// log2 of the (first) codeword's blowup.
    pub const fn log_blowup(&self) -> usize {
        match self {
            Settings::Fri(f) => f.log_blowup,
            Settings::Whir(w) | Settings::Skip(w) => w.log_blowup,
        }
    }

    /// The hash of the Merkle commitments; its collision resistance bounds
    /// the setting's security (`p3-security`'s commitment term).
    pub const fn merkle(&self) -> MerkleHash {
        match self {
            Settings::Fri(f) => f.merkle,
            Settings::Whir(w) | Settings::Skip(w) => w.merkle,
        }
    }

    /// These settings committing with `merkle` instead.
    pub const fn with_merkle(self, merkle: MerkleHash) -> Self {
        match self {
            Settings::Fri(f) => Settings::Fri(FriSettings { merkle, ..f }),
            Settings::Whir(w) => Settings::Whir(WhirSettings { merkle, ..w }),
            Settings::Skip(w) => Settings::Skip(WhirSettings { merkle, ..w }),
        }
    }

    /// log2 of the tallest table a proof can have with these settings: its
    /// low-degree extension (the height times the blowup) must fit in
    /// KoalaBear's two-adic subgroup (order 2^24).
    pub const fn max_log_height(&self) -> usize {
        let two_adicity = <Val as TwoAdicField>::TWO_ADICITY;
        match self {
            Settings::Fri(f) => two_adicity.saturating_sub(f.log_blowup),
            // The tallest table is stacked with the others into one
            // polynomial; WHIR encodes it folded by 2^first_log_arity, so
            // the stacked arity may exceed the two-adicity by that much
            // less the rate. The tallest table is left room for 2^8
            // columns and the rest of the statement beside it (2^20 rows
            // for `WHIR`, 2^19 for `WHIR_COMPACT`).
            Settings::Whir(w) | Settings::Skip(w) => (two_adicity + w.first_log_arity).saturating_sub(w.log_blowup + 9),
        }
    }

    /// The settings a proof whose shortest table has `2^log_min_height`
    /// rows runs with: the final FRI polynomial shrinks to
    /// `2^(log_min_height - 1)` coefficients where the settings allow a
    /// longer one, because FRI rolls every table into the folding before
    /// it stops, and a table no taller than the final polynomial would never
    /// be rolled in. The multilinear settings are returned as they are.
    ///
    /// Prover and verifier call it with heights that follow from the
    /// statement, so the prover has no say. The final polynomial's length
    /// does not enter the soundness error (`p3-security` counts only the
    /// rounds' arity and the domain size); it only trades the last folding
    /// rounds, whose openings every query pays for, against coefficients
    /// sent once (BENCHMARKS-HISTORY.md).
    pub fn fitted(&self, log_min_height: usize) -> Settings {
        match self {
            Settings::Fri(f) => Settings::Fri(f.fitted(log_min_height)),
            other => *other,
        }
    }

    /// [`Self::fitted`] to the shortest of tables of `2^log_heights[i]` rows.
    pub fn fitted_to(&self, log_heights: &[usize]) -> Settings {
        match self {
            Settings::Fri(f) => Settings::Fri(f.fitted_to(log_heights)),
            other => *other,
        }
    }

    /// Every how many full rounds the Poseidon2 tables commit a state: 2
    /// (degree-9 constraints, [`crate::paired`]) where the blowup is at
    /// least 8, so the FRI quotient still fits the extension domain, and
    /// always with the multilinear backend, which has no quotient (its
    /// zerocheck's rounds grow with the degree, but its commitment shrinks
    /// with the columns: the paired layout proves faster in less memory,
    /// BENCHMARKS.md); else 1. An aggregator may commit one table every
    /// round where that measured faster (the XMSS width-24 table under
    /// WHIR, `sigagg_xmss_agg::air::hash_stride`).
    pub const fn stride(&self) -> usize {
        match self {
            Settings::Fri(f) if f.log_blowup < 3 => 1,
            _ => 2,
        }
    }

    /// Whether tables may send mutually exclusive bus messages as one
    /// exclusive group ([`crate::gadgets::bus::push_branches`]): the FRI backend commits
    /// one LogUp column per group; the multilinear backend commits none
    /// and takes only plain interactions.
    pub const fn exclusive_buses(&self) -> bool {
        matches!(self, Settings::Fri(_))
    }

    /// Every parameter, in a fixed order, for transcript seeds and
    /// statement digests (a backend's unread parameters are 0): two
    /// settings with equal words are equal.
    pub fn words(&self) -> [u64; 15] {
        let f = Flat::from(*self);
        [
            f.backend.word(),
            f.log_blowup,
            f.num_queries,
            f.query_pow_bits,
            f.commit_pow_bits,
            f.batch_pow_bits,
            f.lookup_pow_bits,
            f.ood_pow_bits,
            f.max_log_arity,
            f.log_final_poly_len,
            f.cap_height,
            f.merkle.word(),
            f.first_log_arity,
            f.rate_step,
            f.target_bits,
        ]
        .map(|v| v as u64)
    }

    /// `Ok` when the settings' Merkle hash resists collisions to at least
    /// `min_bits` bits (a proof claiming more than 96 bits cannot commit
    /// with 24-byte digests); otherwise the name of the hash.
    pub const fn check_collision_bits(&self, min_bits: usize) -> Result<(), MerkleHash> {
        let merkle = self.merkle();
        if merkle.collision_bits() >= min_bits { Ok(()) } else { Err(merkle) }
    }
}

impl From<FriSettings> for Settings {
    fn from(f: FriSettings) -> Self {
        Settings::Fri(f)
    }
}

/// The encoded form of [`Settings`]: every backend's parameters in one
/// record, in the order proofs have always carried them, the parameters
/// the backend does not read zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Flat {
    backend: Backend,
    log_blowup: usize,
    num_queries: usize,
    query_pow_bits: usize,
    commit_pow_bits: usize,
    batch_pow_bits: usize,
    lookup_pow_bits: usize,
    ood_pow_bits: usize,
    max_log_arity: usize,
    first_log_arity: usize,
    rate_step: usize,
    target_bits: usize,
    log_final_poly_len: usize,
    cap_height: usize,
    merkle: MerkleHash,
}

impl From<Settings> for Flat {
    fn from(s: Settings) -> Self {
        let zero = Flat {
            backend: s.backend(),
            log_blowup: s.log_blowup(),
            num_queries: 0,
            query_pow_bits: 0,
            commit_pow_bits: 0,
            batch_pow_bits: 0,
            lookup_pow_bits: 0,
            ood_pow_bits: 0,
            max_log_arity: 0,
            first_log_arity: 0,
            rate_step: 0,
            target_bits: 0,
            log_final_poly_len: 0,
            cap_height: 0,
            merkle: s.merkle(),
        };
        match s {
            Settings::Fri(f) => Flat {
                num_queries: f.num_queries,
                query_pow_bits: f.query_pow_bits,
                commit_pow_bits: f.commit_pow_bits,
                batch_pow_bits: f.batch_pow_bits,
                lookup_pow_bits: f.lookup_pow_bits,
                ood_pow_bits: f.ood_pow_bits,
                max_log_arity: f.max_log_arity,
                log_final_poly_len: f.log_final_poly_len,
                cap_height: f.cap_height,
                ..zero
            },
            Settings::Whir(w) | Settings::Skip(w) => Flat {
                query_pow_bits: w.query_pow_bits,
                max_log_arity: w.max_log_arity,
                first_log_arity: w.first_log_arity,
                rate_step: w.rate_step,
                target_bits: w.target_bits,
                ..zero
            },
        }
    }
}

impl TryFrom<Flat> for Settings {
    type Error = InvalidSettings;

    /// The settings `f` encodes, validated; a nonzero parameter the backend
    /// does not read is refused.
    fn try_from(f: Flat) -> Result<Self, InvalidSettings> {
        let unread: &[(&'static str, usize)] = match f.backend {
            Backend::Fri => {
                &[("first_log_arity", f.first_log_arity), ("rate_step", f.rate_step), ("target_bits", f.target_bits)]
            }
            Backend::Whir | Backend::Skip => &[
                ("num_queries", f.num_queries),
                ("commit_pow_bits", f.commit_pow_bits),
                ("batch_pow_bits", f.batch_pow_bits),
                ("lookup_pow_bits", f.lookup_pow_bits),
                ("ood_pow_bits", f.ood_pow_bits),
                ("log_final_poly_len", f.log_final_poly_len),
                ("cap_height", f.cap_height),
            ],
        };
        if let Some(&(parameter, _)) = unread.iter().find(|(_, v)| *v != 0) {
            return Err(InvalidSettings::UnreadParameter { backend: f.backend, parameter });
        }
        let whir = WhirSettings {
            log_blowup: f.log_blowup,
            query_pow_bits: f.query_pow_bits,
            max_log_arity: f.max_log_arity,
            first_log_arity: f.first_log_arity,
            rate_step: f.rate_step,
            target_bits: f.target_bits,
            merkle: f.merkle,
        };
        Settings::new(match f.backend {
            Backend::Fri => Settings::Fri(FriSettings {
                log_blowup: f.log_blowup,
                num_queries: f.num_queries,
                query_pow_bits: f.query_pow_bits,
                commit_pow_bits: f.commit_pow_bits,
                batch_pow_bits: f.batch_pow_bits,
                lookup_pow_bits: f.lookup_pow_bits,
                ood_pow_bits: f.ood_pow_bits,
                max_log_arity: f.max_log_arity,
                log_final_poly_len: f.log_final_poly_len,
                cap_height: f.cap_height,
                merkle: f.merkle,
            }),
            Backend::Whir => Settings::Whir(whir),
            Backend::Skip => Settings::Skip(whir),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every named constant, secure and insecure.
    const ALL: [Settings; 10] = [
        Settings::FAST,
        Settings::COMPACT,
        Settings::INSECURE_TEST,
        Settings::INSECURE_TEST_COMPACT,
        Settings::WHIR,
        Settings::WHIR_COMPACT,
        Settings::WHIR_SKIP,
        Settings::WHIR_SKIP_COMPACT,
        Settings::INSECURE_TEST_WHIR,
        Settings::INSECURE_TEST_SKIP,
    ];

    fn encode<T: Serialize>(value: &T) -> Vec<u8> {
        crate::codec::encode(b"SGTEST", 1, value)
    }

    fn decode(bytes: &[u8]) -> Result<Settings, String> {
        crate::codec::decode(b"SGTEST", 1, bytes, "settings")
    }

    /// The final polynomial shrinks to fit the shortest table and never
    /// grows past the settings' own; multilinear settings are not fitted.
    #[test]
    fn fitted_final_polynomial() {
        for f in [FriSettings::FAST, FriSettings::COMPACT] {
            let s = Settings::Fri(f);
            assert_eq!(s.fitted(4), Settings::Fri(FriSettings { log_final_poly_len: 3, ..f }));
            assert_eq!(s.fitted(7), Settings::Fri(FriSettings { log_final_poly_len: 6, ..f }));
            assert_eq!(s.fitted(20), s);
            assert_eq!(s.fitted_to(&[17, 4, 10]), s.fitted(4));
        }
        assert_eq!(FriSettings::INSECURE_TEST.fitted(4).log_final_poly_len, 0);
        assert_eq!(Settings::WHIR.fitted(2), Settings::WHIR);
    }

    /// The multilinear settings' schedules: the compact one starts at rate
    /// 1/8 and steps 8-fold a round, and each leaves the tallest table
    /// room in KoalaBear's two-adic domain after the first folding.
    #[test]
    fn multilinear_schedules() {
        let (whir, compact) = (WhirSettings::WHIR, WhirSettings::WHIR_COMPACT);
        assert_eq!((whir.log_blowup, whir.rate_step), (1, 1));
        assert_eq!((compact.log_blowup, compact.rate_step), (3, 3));
        assert_eq!(Settings::WHIR.max_log_height(), 20);
        assert_eq!(Settings::WHIR_COMPACT.max_log_height(), 19);
        assert_ne!(Settings::WHIR.words(), Settings::WHIR_COMPACT.words());
        assert_ne!(Settings::WHIR.words(), Settings::WHIR_SKIP.words());
        assert_ne!(Settings::WHIR.words(), Settings::Skip(whir).words(), "the backend is a word");
    }

    /// Every named constant is valid, and round-trips through its encoding.
    #[test]
    fn named_constants_are_valid_and_round_trip() {
        for s in ALL {
            assert_eq!(s.validate(), Ok(()), "{s:?}");
            assert_eq!(decode(&encode(&s)), Ok(s));
        }
    }

    /// The encoding is the flat fifteen-parameter record proofs carried
    /// before the variants: pinned for the fast and the WHIR settings,
    /// field by field (backend tag, then each parameter as a one-byte
    /// varint, then the hash's tag), and a word order the transcripts fix.
    #[test]
    fn encoding_is_the_flat_record() {
        let flat = |s: Settings| encode(&Flat::from(s));
        assert_eq!(encode(&Settings::FAST), flat(Settings::FAST));
        let fast = Flat {
            backend: Backend::Fri,
            log_blowup: 1,
            num_queries: 164,
            query_pow_bits: 20,
            commit_pow_bits: 0,
            batch_pow_bits: 16,
            lookup_pow_bits: 16,
            ood_pow_bits: 16,
            max_log_arity: 3,
            first_log_arity: 0,
            rate_step: 0,
            target_bits: 0,
            log_final_poly_len: 7,
            cap_height: 0,
            merkle: MerkleHash::Sha256,
        };
        assert_eq!(Flat::from(Settings::FAST), fast);
        assert_eq!(Settings::FAST.words(), [0, 1, 164, 20, 0, 16, 16, 16, 3, 7, 0, 32, 0, 0, 0]);
        assert_eq!(Settings::WHIR_SKIP.words(), [2, 1, 0, 20, 0, 0, 0, 0, 4, 0, 0, 32, 6, 2, 125]);
        assert_eq!(Settings::WHIR_COMPACT.words(), [1, 3, 0, 26, 0, 0, 0, 0, 4, 0, 0, 31, 7, 3, 126]);
    }

    /// Out-of-range parameters, hashes a backend has no trees for and
    /// nonzero unread parameters are refused, by the constructor and by
    /// decoding; grinding of 31 bits (where Plonky3's check would panic)
    /// is among them.
    #[test]
    fn invalid_settings_are_refused() {
        let fri = FriSettings::FAST;
        let cases = [
            Settings::Fri(FriSettings { query_pow_bits: 31, ..fri }),
            Settings::Fri(FriSettings { ood_pow_bits: 64, ..fri }),
            Settings::Fri(FriSettings { num_queries: 0, ..fri }),
            Settings::Fri(FriSettings { log_blowup: 0, ..fri }),
            Settings::Fri(FriSettings { max_log_arity: 0, ..fri }),
            Settings::Fri(FriSettings { merkle: MerkleHash::Sha256Trunc31, ..fri }),
            Settings::Whir(WhirSettings { merkle: MerkleHash::Sha256Trunc24, ..WhirSettings::WHIR }),
            Settings::Skip(WhirSettings { query_pow_bits: 40, ..WhirSettings::WHIR }),
            Settings::Skip(WhirSettings { rate_step: 0, ..WhirSettings::WHIR }),
            Settings::Whir(WhirSettings { target_bits: 0, ..WhirSettings::WHIR }),
        ];
        for s in cases {
            let err = Settings::new(s).unwrap_err();
            assert_eq!(s.validate(), Err(err.clone()));
            assert!(decode(&encode(&Flat::from(s))).is_err(), "{s:?}");
        }
        assert_eq!(
            Settings::new(Settings::Fri(FriSettings { query_pow_bits: 31, ..fri })),
            Err(InvalidSettings::OutOfRange {
                backend: Backend::Fri,
                parameter: "query_pow_bits",
                value: 31,
                min: 0,
                max: 30
            })
        );
        let with_unread = |f: Flat| encode(&f);
        let fast = Flat::from(Settings::FAST);
        assert!(decode(&with_unread(Flat { target_bits: 1, ..fast })).is_err());
        let whir = Flat::from(Settings::WHIR);
        assert!(decode(&with_unread(Flat { num_queries: 1, ..whir })).is_err());
        assert!(decode(&with_unread(Flat { cap_height: 1, ..whir })).is_err());
    }
}
