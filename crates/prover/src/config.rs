//! The proof system's configuration: field, challenge extension, hashes,
//! FRI parameters, and the settings both aggregators name.

use p3_challenger::{HashChallenger, SerializingChallenger32};
use p3_commit::{ExtensionMmcs, Mmcs};
use p3_field::extension::QuinticTrinomialExtensionField;
use p3_field::{Field, TwoAdicField};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_koala_bear::KoalaBear;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_sha256::{Sha256, Sha256Compress};
use p3_symmetric::SerializingHasher;
use p3_uni_stark::StarkConfig;
use serde::{Deserialize, Serialize};

use crate::merkle_hash::{
    Sha256CompressTrunc, Sha256CompressTrunc24, Sha256CompressTrunc31, Sha256Trunc, Sha256Trunc24, Sha256Trunc31,
    TRUNCATED_BYTES,
};

/// Base field: KoalaBear.
pub type Val = KoalaBear;
/// KoalaBear's SIMD packing (one lane per row in the packed witness writers).
pub type PackedVal = <Val as Field>::Packing;
/// Challenge field: the degree-5 extension of KoalaBear (about 155 bits),
/// large enough for more than 100 bits of proven security.
pub type Challenge = QuinticTrinomialExtensionField<Val>;

/// Leaf hash: SHA-256 of a row's field elements, each as the 4 little-endian
/// bytes of its Montgomery form `v * 2^32 mod p` (Plonky3's serialization of
/// KoalaBear; pinned by a test for external verifiers).
type FieldHash = SerializingHasher<Sha256>;
/// Merkle commitments over SHA-256: leaves hash whole rows, inner nodes are
/// one SHA-256 compression of the two children.
///
/// SHA-256 rather than Keccak because it is what CPUs accelerate: SHA-NI on
/// AMD Zen and recent Intel cores, the ARMv8 SHA-2 extension, and
/// `p3-sha256`'s AVX-512 backend elsewhere. Committing the LDEs is a third
/// of the prover's time, and on a Zen 3 host a SHA-256 tree is built 2-3.5
/// times faster than the vectorized Keccak-f one (BENCHMARKS.md). It is also
/// the hash that bridges and smart contracts can check cheaply.
pub type ValMmcs = MerkleTreeMmcs<Val, u8, FieldHash, Sha256Compress, 2, 32>;
/// The same trees with SHA-256 truncated to 24 bytes ([`crate::merkle_hash`]),
/// for settings whose security target is 96 bits.
pub type ValMmcs24 = MerkleTreeMmcs<Val, u8, SerializingHasher<Sha256Trunc24>, Sha256CompressTrunc24, 2, 24>;
/// The same trees with SHA-256 truncated to 31 bytes, for settings whose
/// security target is 120 bits (the multilinear backend's).
pub type ValMmcs31 = MerkleTreeMmcs<Val, u8, SerializingHasher<Sha256Trunc31>, Sha256CompressTrunc31, 2, 31>;
/// Fiat-Shamir transcript over SHA-256.
pub type Challenger = SerializingChallenger32<Val, HashChallenger<u8, Sha256, 32>>;
type Dft = crate::dft::HybridDft;
/// The STARK configuration with the Merkle commitment scheme `M` (for both
/// the traces and the FRI layers).
pub type ConfigWith<M> =
    StarkConfig<TwoAdicFriPcs<Val, Dft, M, ExtensionMmcs<Val, Challenge, M>>, Challenge, Challenger>;
/// The STARK configuration of full-width SHA-256 commitments
/// ([`MerkleHash::Sha256`]); every XMSS proof uses it.
pub type AggConfig = ConfigWith<ValMmcs>;
/// The STARK configuration of 24-byte commitments ([`MerkleHash::Sha256Trunc24`]).
pub type AggConfig24 = ConfigWith<ValMmcs24>;

/// The proof system that proves a statement's tables ([`crate::prove`]);
/// each states its own security ([`crate::security_level`]) and tags its
/// proofs ([`crate::StarkProof`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Backend {
    /// Univariate: Plonky3's batch STARK (`p3-batch-stark`) with FRI
    /// (`p3-fri`) over Reed-Solomon codes of rate `2^-log_blowup`
    /// ([`crate::fri`]).
    Fri,
    /// Multilinear: Plonky3's SuperSpartan-style AIR prover
    /// (`p3-multi-stark`, LogUp by fractional GKR, stacked tables) with the
    /// WHIR commitment (`p3-whir`, Johnson-bound regime) ([`crate::whir`]).
    Whir,
    /// Multilinear, our own prover ([`crate::skip_stark`]): the same WHIR
    /// commitment, a zerocheck whose first variables are a univariate
    /// skip, LogUp by `p3-multi-stark`'s fractional GKR.
    Skip,
}

impl Backend {
    /// The name used in messages and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Fri => "fri",
            Backend::Whir => "whir",
            Backend::Skip => "skip",
        }
    }

    /// Whether the backend is multilinear (a WHIR commitment, no quotient):
    /// the tables' layouts and height limits follow from that.
    pub const fn is_multilinear(self) -> bool {
        matches!(self, Backend::Whir | Backend::Skip)
    }

    /// The backend's number in [`Settings::words`].
    const fn word(self) -> usize {
        match self {
            Backend::Fri => 0,
            Backend::Whir => 1,
            Backend::Skip => 2,
        }
    }
}

/// The hash of the Merkle commitments (trace, quotient and FRI trees).
///
/// A commitment binds only as far as its hash resists collisions, so the
/// digest need be no longer than twice the security the setting claims;
/// shorter digests shorten every Merkle path of the proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MerkleHash {
    /// SHA-256, 32-byte digests: 128-bit collision resistance.
    #[default]
    Sha256,
    /// SHA-256 truncated to 24 bytes: 96-bit collision resistance, for
    /// settings that claim no more than 96 bits.
    Sha256Trunc24,
    /// SHA-256 truncated to 31 bytes: 124-bit collision resistance, for
    /// settings that claim no more than 120 bits (the multilinear
    /// backend only).
    Sha256Trunc31,
}

impl MerkleHash {
    /// Collision resistance in bits (the birthday bound: half the digest).
    pub const fn collision_bits(self) -> usize {
        self.digest_bytes() * 4
    }

    /// Bytes of one digest.
    pub const fn digest_bytes(self) -> usize {
        match self {
            MerkleHash::Sha256 => 32,
            MerkleHash::Sha256Trunc24 => TRUNCATED_BYTES,
            MerkleHash::Sha256Trunc31 => 31,
        }
    }
}

/// Proof-system parameters. Prover and verifier must use the same settings:
/// the verifier never reads them from the proof (a proof only names them, so
/// that a mismatch is reported clearly instead of as a failed check).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settings {
    /// The proof system; the fields below are its parameters. FRI reads
    /// every field but `target_bits`, `first_log_arity` and `rate_step`
    /// (zero in its settings); WHIR reads `log_blowup` (its first codeword's rate),
    /// `query_pow_bits` (its grinding), `max_log_arity` (its folding after
    /// the first round), `first_log_arity`, `rate_step`, `target_bits` and
    /// `merkle` (full-width SHA-256 or its 31-byte truncation), and the
    /// others are zero.
    pub backend: Backend,
    /// log2 of the Reed-Solomon blowup (rate 2^-log_blowup).
    pub log_blowup: usize,
    /// Number of FRI queries.
    pub num_queries: usize,
    /// Proof-of-work bits before the FRI queries are drawn (WHIR: before
    /// each round's queries).
    pub query_pow_bits: usize,
    /// Proof-of-work bits before each FRI folding challenge.
    pub commit_pow_bits: usize,
    /// Proof-of-work bits before the opening-batching challenge.
    pub batch_pow_bits: usize,
    /// Proof-of-work bits before the lookup (LogUp) challenges.
    pub lookup_pow_bits: usize,
    /// Proof-of-work bits before the out-of-domain point.
    pub ood_pow_bits: usize,
    /// log2 of the largest FRI folding arity (WHIR: of every folding after
    /// the first).
    pub max_log_arity: usize,
    /// WHIR: log2 of the first folding (capped at the shortest table).
    pub first_log_arity: usize,
    /// WHIR: how far each round's code rate falls below the one before,
    /// in bits: round `i` (from 0) commits at rate
    /// `2^-(log_blowup + rate_step * (i + 1))`. Lower rates cost each
    /// round's encoding more memory and time and buy fewer queries (in the
    /// Johnson-bound regime a query at rate `2^-r` is worth about `r/2`
    /// bits), so they shorten the proof.
    pub rate_step: usize,
    /// WHIR: the level each of its error terms is sized for; the composed
    /// level is what [`crate::security_level`] states.
    pub target_bits: usize,
    /// log2 of the longest final FRI polynomial. A proof whose shortest
    /// table is shorter folds further ([`Settings::fitted`]).
    pub log_final_poly_len: usize,
    /// Merkle cap height (top tree layers sent whole, shortening every path).
    /// The named settings use 0, a single root: FRI's queries share their
    /// paths in one multi-opening per tree, so the top layers are mostly
    /// opened anyway and a cap of 2^k digests costs more than it saves (a
    /// cap of 16 lengthened compact proofs by ~2%).
    pub cap_height: usize,
    /// The hash of the Merkle commitments; its collision resistance bounds
    /// the setting's security (`p3-security`'s commitment term).
    pub merkle: MerkleHash,
}

impl Settings {
    /// The fast setting: rate 1/2 and many queries; at least 100 proven bits
    /// for every Seed001 statement it accepts (`sigagg-xmss-agg`'s
    /// `security` module; Lamport+ names its own settings).
    pub const FAST: Self = Self {
        backend: Backend::Fri,
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
        first_log_arity: 0,
        rate_step: 0,
        target_bits: 0,
    };

    /// The compact setting: rate 1/8, fewer queries, smaller proofs; at
    /// least 100 proven bits for every Seed001 statement it accepts.
    pub const COMPACT: Self = Self {
        backend: Backend::Fri,
        log_blowup: 3,
        num_queries: 54,
        query_pow_bits: 22,
        commit_pow_bits: 0,
        batch_pow_bits: 16,
        lookup_pow_bits: 16,
        ood_pow_bits: 16,
        max_log_arity: 3,
        log_final_poly_len: 7,
        cap_height: 0,
        merkle: MerkleHash::Sha256,
        first_log_arity: 0,
        rate_step: 0,
        target_bits: 0,
    };

    /// Settings for fast tests. **Not secure** (about 20 bits): 40 queries,
    /// no grinding; enough that a corrupted proof is caught with
    /// overwhelming probability in negative tests.
    pub const INSECURE_TEST: Self = Self {
        backend: Backend::Fri,
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
        first_log_arity: 0,
        rate_step: 0,
        target_bits: 0,
    };

    /// [`Self::INSECURE_TEST`] at rate 1/8, so that functional tests reach
    /// the compact settings' layouts (the quotient's, the paired Poseidon2
    /// tables'). **Not secure** (20 queries, no grinding).
    pub const INSECURE_TEST_COMPACT: Self = Self { log_blowup: 3, num_queries: 20, ..Self::INSECURE_TEST };

    /// The multilinear setting ([`Backend::Whir`]): WHIR at starting rate
    /// 1/2, first folding 2^6 then 2^4, round rates `2^-(2+i)`, queries
    /// sized for 125 bits per error term with 20 bits of grinding, in the
    /// Johnson-bound regime (proven); full-width SHA-256. The schedule is
    /// the fastest measured for a base-field commitment (issue 21's spike,
    /// BENCHMARKS-HISTORY.md).
    pub const WHIR: Self = Self {
        backend: Backend::Whir,
        log_blowup: 1,
        num_queries: 0,
        query_pow_bits: 20,
        commit_pow_bits: 0,
        batch_pow_bits: 0,
        lookup_pow_bits: 0,
        ood_pow_bits: 0,
        max_log_arity: 4,
        log_final_poly_len: 0,
        cap_height: 0,
        merkle: MerkleHash::Sha256,
        first_log_arity: 6,
        rate_step: 1,
        target_bits: 125,
    };

    /// The multilinear setting for short proofs of small statements
    /// ([`Backend::Whir`]): WHIR at starting rate 1/8, first folding 2^7
    /// then 2^4, round rates falling 8-fold a round (`2^-(6+3i)`), queries
    /// sized for 126 bits per error term with 26 bits of grinding, in the
    /// Johnson-bound regime (proven); SHA-256 truncated to 31 bytes
    /// ([`MerkleHash::Sha256Trunc31`]: 124-bit collision resistance; 2 KB
    /// less of Merkle paths at n = 1024). The composed report sums every
    /// term, the collision one included, so each term is sized a bit above
    /// the 125 of [`Self::WHIR`] to keep at least 120 proven bits at every
    /// size (121.2 at n = 1024); the extra grinding bit keeps the query
    /// count. Against [`Self::WHIR`] it commits four times the codeword and
    /// grinds 64 times longer per round for less than half the proof (the
    /// Lamport+ threshold proof at n = 1024: 146-148 KiB against 321 KiB;
    /// the schedule was chosen by the sweep in BENCHMARKS.md).
    pub const WHIR_COMPACT: Self = Self {
        log_blowup: 3,
        query_pow_bits: 26,
        target_bits: 126,
        first_log_arity: 7,
        rate_step: 3,
        merkle: MerkleHash::Sha256Trunc31,
        ..Self::WHIR
    };

    /// Our own multilinear prover ([`Backend::Skip`]) with [`Self::WHIR`]'s
    /// commitment, except that round rates fall 4-fold a round
    /// (`2^-(1+2i)`): at N = 8192 Seed001 signatures 359 KiB at 120.5
    /// proven bits in 17.9 s (BENCHMARKS.md). Proven security, Johnson
    /// bound, as [`Self::WHIR`].
    pub const WHIR_SKIP: Self = Self { backend: Backend::Skip, rate_step: 2, ..Self::WHIR };

    /// [`Self::WHIR`] for fast tests. **Not secure** (about 20 bits): no
    /// grinding, queries sized for 24 bits per term.
    pub const INSECURE_TEST_WHIR: Self = Self { query_pow_bits: 0, target_bits: 24, ..Self::WHIR };

    /// [`Self::WHIR_SKIP`] for fast tests: [`Self::INSECURE_TEST_WHIR`]'s
    /// commitment. **Not secure** (about 20 bits).
    pub const INSECURE_TEST_SKIP: Self = Self { backend: Backend::Skip, ..Self::INSECURE_TEST_WHIR };

    /// log2 of the tallest table a proof can have with these settings: its
    /// low-degree extension (the height times the blowup) must fit in
    /// KoalaBear's two-adic subgroup (order 2^24).
    pub const fn max_log_height(&self) -> usize {
        let two_adicity = <Val as TwoAdicField>::TWO_ADICITY;
        match self.backend {
            Backend::Fri => two_adicity.saturating_sub(self.log_blowup),
            // The tallest table is stacked with the others into one
            // polynomial; WHIR encodes it folded by 2^first_log_arity, so
            // the stacked arity may exceed the two-adicity by that much
            // less the rate. The tallest table is left room for 2^8
            // columns and the rest of the statement beside it (2^20 rows
            // for `WHIR`, 2^19 for `WHIR_COMPACT`).
            Backend::Whir | Backend::Skip => (two_adicity + self.first_log_arity).saturating_sub(self.log_blowup + 9),
        }
    }

    /// The settings a proof whose shortest table has `2^log_min_height`
    /// rows runs with: the final FRI polynomial shrinks to
    /// `2^(log_min_height - 1)` coefficients where the settings allow a
    /// longer one, because FRI rolls every table into the folding before
    /// it stops, and a table no taller than the final polynomial would never
    /// be rolled in.
    ///
    /// Prover and verifier call it with heights that follow from the
    /// statement, so the prover has no say. The final polynomial's length
    /// does not enter the soundness error (`p3-security` counts only the
    /// rounds' arity and the domain size); it only trades the last folding
    /// rounds, whose openings every query pays for, against coefficients
    /// sent once. Named settings allow `2^7`: at n = 1024 that saves 2-4%
    /// of a proof against `2^3` (BENCHMARKS.md).
    pub fn fitted(&self, log_min_height: usize) -> Settings {
        Settings { log_final_poly_len: self.log_final_poly_len.min(log_min_height.saturating_sub(1)), ..*self }
    }

    /// [`Self::fitted`] to the shortest of tables of `2^log_heights[i]` rows.
    pub fn fitted_to(&self, log_heights: &[usize]) -> Settings {
        self.fitted(log_heights.iter().copied().min().unwrap_or(0))
    }

    /// Every how many full rounds the Poseidon2 tables commit a state: 2
    /// (degree-9 constraints, [`crate::paired`]) where the blowup is at
    /// least 8, so the FRI quotient still fits the extension domain, and
    /// always with the multilinear backend, which has no quotient (its
    /// zerocheck's rounds grow with the degree, but its commitment shrinks
    /// with the columns: at N = 8192 the paired layout proves faster in
    /// less memory, BENCHMARKS.md); else 1. An aggregator may
    /// commit one table every round where that measured faster (the XMSS
    /// width-24 table under WHIR, `sigagg_xmss_agg::air::hash_stride`).
    pub const fn stride(&self) -> usize {
        if self.log_blowup >= 3 || self.backend.is_multilinear() { 2 } else { 1 }
    }

    /// Whether tables may send mutually exclusive bus messages as one
    /// exclusive group ([`crate::bus::push_branches`]): the FRI backend commits
    /// one LogUp column per group; the multilinear backend commits none
    /// and takes only plain interactions.
    pub const fn exclusive_buses(&self) -> bool {
        matches!(self.backend, Backend::Fri)
    }

    /// Every field, in declaration order, for transcript seeds and
    /// statement digests: two settings with equal words are equal.
    pub fn words(&self) -> [u64; 15] {
        [
            self.backend.word(),
            self.log_blowup,
            self.num_queries,
            self.query_pow_bits,
            self.commit_pow_bits,
            self.batch_pow_bits,
            self.lookup_pow_bits,
            self.ood_pow_bits,
            self.max_log_arity,
            self.log_final_poly_len,
            self.cap_height,
            self.merkle.digest_bytes(),
            self.first_log_arity,
            self.rate_step,
            self.target_bits,
        ]
        .map(|v| v as u64)
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

    /// These settings' FRI and grinding parameters over the Merkle scheme `mmcs`.
    fn config_with<M: Mmcs<Val> + Clone>(&self, mmcs: M, seed: Vec<u8>) -> ConfigWith<M> {
        let fri = FriParameters {
            log_blowup: self.log_blowup,
            log_final_poly_len: self.log_final_poly_len,
            max_log_arity: self.max_log_arity,
            num_queries: self.num_queries,
            batch_proof_of_work_bits: self.batch_pow_bits,
            commit_proof_of_work_bits: self.commit_pow_bits,
            query_proof_of_work_bits: self.query_pow_bits,
            mmcs: ExtensionMmcs::new(mmcs.clone()),
        };
        let pcs = TwoAdicFriPcs::new(Dft::default(), mmcs, fri);
        ConfigWith::new(pcs, transcript(seed))
            .with_lookup_proof_of_work_bits(self.lookup_pow_bits)
            .with_ood_proof_of_work_bits(self.ood_pow_bits)
    }

    /// `Ok` when the settings' Merkle hash resists collisions to at least
    /// `min_bits` bits (a proof claiming more than 96 bits cannot commit
    /// with 24-byte digests); otherwise the name of the hash.
    pub fn check_collision_bits(&self, min_bits: usize) -> Result<(), MerkleHash> {
        if self.merkle.collision_bits() >= min_bits { Ok(()) } else { Err(self.merkle) }
    }
}

/// The Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs(cap_height: usize) -> ValMmcs {
    ValMmcs::new(FieldHash::new(Sha256), Sha256Compress, cap_height)
}

/// The 24-byte Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs24(cap_height: usize) -> ValMmcs24 {
    ValMmcs24::new(SerializingHasher::new(Sha256Trunc::<24>), Sha256CompressTrunc::<24>, cap_height)
}

/// The 31-byte Merkle commitment scheme with Merkle caps of `cap_height` layers.
pub fn val_mmcs31(cap_height: usize) -> ValMmcs31 {
    ValMmcs31::new(SerializingHasher::new(Sha256Trunc::<31>), Sha256CompressTrunc::<31>, cap_height)
}

/// A Fiat-Shamir transcript that starts by absorbing `seed`.
pub fn transcript(seed: Vec<u8>) -> Challenger {
    Challenger::from_hasher(seed, Sha256)
}

#[cfg(test)]
mod tests {
    /// The final polynomial shrinks to fit the shortest table and never
    /// grows past the settings' own.
    #[test]
    fn fitted_final_polynomial() {
        for s in [Settings::FAST, Settings::COMPACT] {
            assert_eq!(s.fitted(4).log_final_poly_len, 3);
            assert_eq!(s.fitted(7).log_final_poly_len, 6);
            assert_eq!(s.fitted(20).log_final_poly_len, s.log_final_poly_len);
            assert_eq!(s.fitted_to(&[17, 4, 10]), s.fitted(4));
            assert_eq!(Settings { log_final_poly_len: 3, ..s.fitted(4) }, Settings { log_final_poly_len: 3, ..s });
        }
        assert_eq!(Settings::INSECURE_TEST.fitted(4).log_final_poly_len, 0);
    }

    /// The multilinear settings' schedules: the compact one starts at rate
    /// 1/8 and steps 8-fold a round, and each leaves the tallest table
    /// room in KoalaBear's two-adic domain after the first folding.
    #[test]
    fn multilinear_schedules() {
        assert_eq!((Settings::WHIR.log_blowup, Settings::WHIR.rate_step), (1, 1));
        assert_eq!((Settings::WHIR_COMPACT.log_blowup, Settings::WHIR_COMPACT.rate_step), (3, 3));
        assert_eq!(Settings::WHIR.max_log_height(), 20);
        assert_eq!(Settings::WHIR_COMPACT.max_log_height(), 19);
        assert_ne!(Settings::WHIR.words(), Settings::WHIR_COMPACT.words());
        assert_ne!(Settings::WHIR.words(), Settings { rate_step: 2, ..Settings::WHIR }.words());
    }

    use p3_commit::Mmcs;
    use p3_field::{PrimeCharacteristicRing, PrimeField32};
    use p3_matrix::dense::RowMajorMatrix;
    use sha2_ref::{Digest, Sha256 as RefSha256};

    use super::*;

    /// A row as the leaf hash reads it: each value `v` in Montgomery form,
    /// `v * 2^32 mod p`, as a 4-byte little-endian word.
    fn row_bytes(row: &[Val]) -> Vec<u8> {
        let p = u64::from(Val::ORDER_U32);
        row.iter().flat_map(|v| (((u64::from(v.as_canonical_u32()) << 32) % p) as u32).to_le_bytes()).collect()
    }

    /// The commitment format an external verifier must reproduce: a leaf is
    /// SHA-256 of the row's values in Montgomery form as 4-byte little-endian words,
    /// and a node is one SHA-256 compression (standard initial value, no
    /// padding) of the 64-byte concatenation of its children.
    #[test]
    fn merkle_root_is_plain_sha256() {
        let rows: Vec<Vec<Val>> = (0..2).map(|r| (0..5).map(|c| Val::from_u32(1_000 * r + c + 7)).collect()).collect();
        let leaves: Vec<[u8; 32]> = rows.iter().map(|r| RefSha256::digest(row_bytes(r)).into()).collect();

        // One row: the root is the leaf.
        let (root, _) = val_mmcs(0).commit_matrix(RowMajorMatrix::new(rows[0].clone(), 5));
        assert_eq!(root.as_ref(), &[leaves[0]]);

        // Two rows: the root compresses the two leaves.
        let (root, _) = val_mmcs(0).commit_matrix(RowMajorMatrix::new(rows.concat(), 5));
        let mut state =
            [0x6a09e667u32, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
        let block: [u8; 64] = [leaves[0], leaves[1]].concat().try_into().unwrap();
        sha2_ref::block_api::compress256(&mut state, &[block]);
        let expected: [u8; 32] = state.iter().flat_map(|w| w.to_be_bytes()).collect::<Vec<u8>>().try_into().unwrap();
        assert_eq!(root.as_ref(), &[expected]);
        // And it is not the padded hash of the same 64 bytes (domain separation
        // between leaves and nodes rests on this).
        assert_ne!(root.as_ref(), &[<[u8; 32]>::from(RefSha256::digest(block))]);
    }
}
