//! One interface to the proof systems: an aggregator describes a statement
//! as [`Tables`] (its AIRs in batch order, their heights, public values and
//! a digest binding everything else), and proves, verifies and asks for
//! the security of it with [`prove`], [`verify`] and [`security_level`].
//! The settings name the backend ([`Settings::backend`]); each backend
//! states its own security, and every proof records the backend that made
//! it ([`StarkProof`]), so another backend's verifier refuses it with
//! [`VerifyError::WrongBackend`].

use p3_matrix::dense::RowMajorMatrix;
use serde::{Deserialize, Serialize};

use crate::codec;
use crate::config::{Backend, MerkleHash, Settings, Val};
use crate::error::{ProveError, VerifyError};
use crate::fri::{self, FriProof};
use crate::security::SecurityLevel;
use crate::skip_stark::{self, SkipProof};
use crate::table::{Table, Tables};
use crate::whir::{self, WhirProof};

/// A proof of a statement's tables, tagged with the backend that made it.
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one proof per call; its bulk is on the heap either way
pub enum StarkProof {
    /// [`Backend::Fri`]: a Plonky3 batch STARK with FRI.
    Fri(FriProof),
    /// [`Backend::Whir`]: a multilinear STARK with WHIR.
    Whir(WhirProof),
    /// [`Backend::Skip`]: our own multilinear STARK with WHIR.
    Skip(SkipProof),
}

impl StarkProof {
    /// The backend that made the proof.
    pub fn backend(&self) -> Backend {
        match self {
            Self::Fri(_) => Backend::Fri,
            Self::Whir(_) => Backend::Whir,
            Self::Skip(_) => Backend::Skip,
        }
    }

    /// The Merkle hash of its commitments.
    pub fn merkle(&self) -> MerkleHash {
        match self {
            Self::Fri(p) => p.merkle(),
            Self::Whir(p) => p.merkle(),
            Self::Skip(p) => p.merkle(),
        }
    }

    /// log2 of every table height, as the proof claims them.
    pub fn degree_bits(&self) -> &[usize] {
        match self {
            Self::Fri(p) => p.degree_bits(),
            Self::Whir(p) => p.degree_bits(),
            Self::Skip(p) => p.degree_bits(),
        }
    }

    /// Where the proof's bytes go, part by part: `(part, bytes)` pairs that
    /// sum to its encoded length up to a few length prefixes.
    pub fn size_breakdown(&self) -> Vec<(String, usize)> {
        match self {
            Self::Fri(p) => p.size_breakdown(),
            Self::Whir(p) => p.size_breakdown(),
            Self::Skip(p) => p.size_breakdown(),
        }
    }

    /// The parts of the proof's encoding ([`codec::encoded_bits`] of it), in
    /// encoding order, each with its encoded length in bits: they tile it
    /// exactly, tags included, so a test can flip bytes inside every part.
    pub fn body_layout(&self) -> Vec<(&'static str, usize)> {
        let mut parts = vec![("backend tag", 8)];
        match self {
            Self::Fri(p) => parts.extend(p.body_layout()),
            Self::Whir(p) => parts.extend(p.body_layout()),
            Self::Skip(p) => parts.extend(p.body_layout()),
        }
        debug_assert_eq!(parts.iter().map(|(_, n)| n).sum::<usize>(), codec::encoded_bits(self));
        parts
    }
}
/// Proves `traces` (one per table, in batch order, of the heights `tables`
/// names) with the backend `settings` name. The settings are validated
/// ([`Settings::validate`]); the traces are not: a
/// trace that breaks its constraints gives a proof the verifier refuses
/// (the FRI prover checks nothing in any build; debug builds of the
/// multilinear provers may panic on it instead). The traces are
/// taken by value: the multilinear backend frees each one once it holds
/// its column-major copy.
///
/// # Panics
/// If the traces are not one per table at the tables' heights.
pub fn prove<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<StarkProof, ProveError> {
    settings.validate().map_err(|e| ProveError(e.to_string()))?;
    match settings {
        Settings::Fri(s) => fri::prove(s, tables, traces).map(StarkProof::Fri),
        Settings::Whir(s) => whir::prove(s, tables, traces).map(StarkProof::Whir),
        Settings::Skip(s) => skip_stark::prove(s, tables, traces).map(StarkProof::Skip),
    }
}

/// [`prove`] from column-major traces: row `c` of `columns[t]` is column
/// `c` of table `t` ([`RowMajorMatrix::transpose`] of its trace). The
/// multilinear prover ([`Settings::Skip`]) commits them as they are, so a
/// trace generator that writes columns spares the prover its
/// transposition and the row-major copy; the other backends take rows,
/// and get them back by one transposition each.
///
/// # Panics
/// As [`prove`].
pub fn prove_column_major<A: Table>(
    settings: &Settings,
    tables: &Tables<'_, A>,
    columns: Vec<RowMajorMatrix<Val>>,
) -> Result<StarkProof, ProveError> {
    match settings {
        Settings::Skip(s) => {
            settings.validate().map_err(|e| ProveError(e.to_string()))?;
            skip_stark::prove_column_major(s, tables, columns).map(StarkProof::Skip)
        }
        _ => prove(settings, tables, columns.into_iter().map(|c| c.transpose()).collect()),
    }
}

/// Verifies `proof` of `tables` under `settings`: a proof of another
/// backend or Merkle hash, or of other table heights, is refused before
/// any check. Never panics on a malformed proof.
pub fn verify<A: Table>(settings: &Settings, tables: &Tables<'_, A>, proof: &StarkProof) -> Result<(), VerifyError> {
    settings.validate().map_err(VerifyError::InvalidSettings)?;
    match (settings, proof) {
        (Settings::Fri(s), StarkProof::Fri(p)) => fri::verify(s, tables, p),
        (Settings::Whir(s), StarkProof::Whir(p)) => whir::verify(s, tables, p),
        (Settings::Skip(s), StarkProof::Skip(p)) => skip_stark::verify(s, tables, p),
        _ => Err(VerifyError::WrongBackend { expected: settings.backend(), found: proof.backend() }),
    }
}
/// The security of proofs of `tables` under `settings`, as the backend the
/// settings name states it (computed from the actual tables, grinding
/// counted). The digest and public values of `tables` do not matter.
pub fn security_level<A: Table>(settings: &Settings, tables: &Tables<'_, A>) -> SecurityLevel {
    if let Err(e) = settings.validate() {
        return SecurityLevel::none(e.to_string());
    }
    match settings {
        Settings::Fri(s) => fri::security::level(s, tables),
        Settings::Whir(s) => whir::level(s, tables),
        Settings::Skip(s) => skip_stark::level(s, tables),
    }
}

#[cfg(test)]
mod tests {
    use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
    use p3_field::PrimeCharacteristicRing;
    use p3_lookup::{Count, InteractionBuilder};

    use super::*;
    use crate::config::{FriSettings, InvalidSettings, WhirSettings};
    use crate::table::transcript_seed;

    /// Two toy tables on one bus: a counter `0, 1, ..` that receives each
    /// value as often as its second column says, and a table of values
    /// with their cubes (degree 3) that sends every value once.
    #[derive(Clone, Copy, Debug)]
    enum Toy {
        Counter,
        Cubes,
        /// `Cubes` sending with count `-(1 + is_transition - is_transition)`:
        /// a count that reads the transition selector, which the FRI
        /// quotient leaves to Plonky3's gadget.
        CubesBySelectors,
    }

    impl BaseAir<Val> for Toy {
        fn width(&self) -> usize {
            2
        }

        fn main_next_row_columns(&self) -> Vec<usize> {
            match self {
                Toy::Counter => vec![0],
                Toy::Cubes | Toy::CubesBySelectors => vec![],
            }
        }
    }

    impl<AB: InteractionBuilder<F = Val>> Air<AB> for Toy {
        fn eval(&self, builder: &mut AB) {
            let main = builder.main();
            let a: AB::Expr = main.current(0).expect("column").into();
            let b: AB::Expr = main.current(1).expect("column").into();
            match self {
                Toy::Counter => {
                    let next: AB::Expr = main.next(0).expect("column").into();
                    builder.when_first_row().assert_zero(a.clone());
                    builder.when_transition().assert_eq(next, a.clone() + AB::Expr::ONE);
                    builder.push_interaction("toy", [a], Count::provided(b));
                }
                Toy::Cubes => {
                    builder.assert_eq(b, a.clone() * a.clone() * a.clone());
                    builder.push_interaction("toy", [a], -Count::from(1));
                }
                Toy::CubesBySelectors => {
                    builder.assert_eq(b, a.clone() * a.clone() * a.clone());
                    let one = AB::Expr::ONE + builder.is_transition() - builder.is_transition();
                    builder.push_interaction("toy", [a], -Count::bounded(one, 1));
                }
            }
        }
    }

    impl Table for Toy {
        const BUS_WIDTH: usize = 1;

        fn degree(&self) -> usize {
            match self {
                Toy::Counter => 2,
                Toy::Cubes | Toy::CubesBySelectors => 3,
            }
        }
    }

    const AIRS: [Toy; 2] = [Toy::Counter, Toy::Cubes];
    const DOMAIN: &[u8] = b"sigagg/prover-test/transcript/v1";

    fn tables(digest: u8) -> Tables<'static, Toy> {
        Tables::new(&AIRS, vec![4, 3], DOMAIN, [digest; 32])
    }

    /// Traces of the toy statement: 16 counter rows, 8 values `3r mod 16`.
    fn traces() -> [RowMajorMatrix<Val>; 2] {
        let values: Vec<u32> = (0..8).map(|r| 3 * r % 16).collect();
        let counter: Vec<u32> =
            (0..16u32).flat_map(|i| [i, values.iter().filter(|&&v| v == i).count() as u32]).collect();
        let cubes: Vec<u32> = values.iter().flat_map(|&v| [v, v * v * v]).collect();
        [counter, cubes].map(|cells| RowMajorMatrix::new(cells.into_iter().map(Val::from_u32).collect(), 2))
    }

    fn prove_toy(settings: &Settings, traces: &[RowMajorMatrix<Val>]) -> StarkProof {
        prove(settings, &tables(1), traces.to_vec()).expect("a proof")
    }

    /// A toy proof under `settings`, checked to verify, to record the
    /// settings' backend and hash, to verify again once re-encoded, and to
    /// have a layout that tiles its encoding (tags first); with its
    /// encoded length.
    fn round_trip(settings: &Settings) -> (StarkProof, usize) {
        let proof = prove_toy(settings, &traces());
        assert_eq!(
            (proof.backend(), proof.merkle(), proof.degree_bits()),
            (settings.backend(), settings.merkle(), &[4, 3][..])
        );
        verify(settings, &tables(1), &proof).unwrap();
        let bytes = codec::encode(b"SGTEST", 1, &proof);
        let decoded: StarkProof = codec::decode(b"SGTEST", 1, &bytes, "test proof").unwrap();
        verify(settings, &tables(1), &decoded).unwrap();
        let layout = proof.body_layout();
        assert_eq!(layout.iter().map(|(_, n)| n).sum::<usize>().div_ceil(8), bytes.len() - 7, "{layout:?}");
        assert_eq!(layout[..2], [("backend tag", 8), ("merkle hash tag", 8)]);
        (proof, bytes.len())
    }

    /// The FRI prover, which owns its traces, emits Plonky3's own proof of
    /// the same traces byte for byte; a different trace changes it.
    #[test]
    fn fri_prover_matches_plonky3_byte_for_byte() {
        let (ours, theirs) =
            crate::fri::compare::proofs_both_ways(&Settings::INSECURE_TEST, &tables(1), traces().to_vec());
        assert_eq!(ours, theirs);
        let (other, _) = crate::fri::compare::proofs_both_ways(&Settings::INSECURE_TEST, &tables(2), traces().to_vec());
        assert_ne!(ours, other);
    }

    /// Tables of two rows, whose quotient domains (four points) are
    /// smaller than a packed group of points, which therefore wraps: the
    /// FRI prover still emits Plonky3's proof byte for byte, and it
    /// verifies, but not against another statement.
    #[test]
    fn fri_prover_matches_plonky3_below_a_packed_group() {
        let tiny = |cells: [u32; 4]| RowMajorMatrix::new(cells.map(Val::from_u32).to_vec(), 2);
        // Counter rows (0, received twice) and (1, never); the value 0 twice.
        let traces = vec![tiny([0, 2, 1, 0]), tiny([0, 0, 0, 0])];
        let tables = Tables::new(&AIRS, vec![1, 1], DOMAIN, [1; 32]);
        let (ours, theirs) = crate::fri::compare::proofs_both_ways(&Settings::INSECURE_TEST, &tables, traces.clone());
        assert_eq!(ours, theirs);
        let proof = prove(&Settings::INSECURE_TEST, &tables, traces).expect("a proof");
        verify(&Settings::INSECURE_TEST, &tables, &proof).unwrap();
        let other = Tables::new(&AIRS, vec![1, 1], DOMAIN, [2; 32]);
        assert!(verify(&Settings::INSECURE_TEST, &other, &proof).is_err(), "another statement's digest");
    }

    /// Where a table's lookups read the transition selector (no
    /// `LookupProgram`), the FRI quotient takes Plonky3's own gadget, and
    /// the proof is still Plonky3's byte for byte.
    #[test]
    fn fri_prover_matches_plonky3_with_the_gadget_fallback() {
        const BY_SELECTORS: [Toy; 2] = [Toy::Counter, Toy::CubesBySelectors];
        let tables = Tables::new(&BY_SELECTORS, vec![4, 3], DOMAIN, [1; 32]);
        let lookups = Toy::lookups(&BY_SELECTORS);
        assert!(crate::messages::LookupProgram::new(&lookups[1]).is_none(), "the fallback is taken");
        let (ours, theirs) =
            crate::fri::compare::proofs_both_ways(&Settings::INSECURE_TEST, &tables, traces().to_vec());
        assert_eq!(ours, theirs);
        let proof = prove(&Settings::INSECURE_TEST, &tables, traces().to_vec()).expect("a proof");
        verify(&Settings::INSECURE_TEST, &tables, &proof).unwrap();
    }

    /// The toy tables' declared degrees split their quotients as Plonky3's
    /// symbolic inference does.
    #[test]
    fn declared_quotient_chunks_match_plonky3s_inference() {
        let (declared, inferred) = crate::fri::compare::quotient_chunks_both_ways(&Settings::INSECURE_TEST, &tables(1));
        assert_eq!(declared, inferred);
    }

    /// The FRI verifier, given the chunk counts directly, accepts the honest
    /// proof with the declared counts and refuses it under any other, and
    /// under another table's public values.
    #[test]
    fn the_fri_verifier_refuses_other_chunk_counts() {
        use p3_batch_stark::CommonData;

        use crate::fri::verifier::verify_batch_with_chunks;
        let settings = Settings::INSECURE_TEST;
        let (toy, proof) = (tables(1), prove_toy(&settings, &traces()));
        let StarkProof::Fri(crate::fri::FriProof::Sha256(proof)) = proof else { panic!("a FRI SHA-256 proof") };
        let config =
            FriSettings::INSECURE_TEST.fitted_to(&toy.log_heights).stark_config_seeded(toy.transcript_seed(&settings));
        let check = |chunks: &[usize], public_values: &[Vec<Val>]| {
            let common = CommonData::new(None, Toy::lookups(&AIRS));
            verify_batch_with_chunks(&config, &AIRS, &proof, public_values, &common, chunks)
        };
        check(&[0, 1], &toy.public_values).expect("the declared counts");
        for chunks in [[1, 1], [0, 0], [2, 1], [0, 2], [0, 64]] {
            assert!(check(&chunks, &toy.public_values).is_err(), "{chunks:?}");
        }
        assert!(check(&[0], &toy.public_values).is_err(), "one count for two tables");
        assert!(check(&[0, 1], &[vec![Val::ONE], vec![]]).is_err(), "a public value the AIR does not have");
    }

    /// Our FRI verifier and Plonky3's `verify_batch` give the same verdict
    /// on the honest toy proof and on every decodable proof with one bit
    /// flipped (every 31st bit of the encoding): ours refuses exactly what
    /// Plonky3's refuses.
    #[test]
    fn the_fri_verifier_agrees_with_plonky3s() {
        use p3_batch_stark::{CommonData, verify_batch};

        use crate::fri::FriProof;
        use crate::fri::verifier::{log_quotient_chunks, verify_batch_with_chunks};
        let settings = Settings::INSECURE_TEST;
        let toy = tables(1);
        let config =
            FriSettings::INSECURE_TEST.fitted_to(&toy.log_heights).stark_config_seeded(toy.transcript_seed(&settings));
        let chunks: Vec<usize> = AIRS.iter().map(|a| log_quotient_chunks(a.degree())).collect();
        let verdicts = |proof: &FriProof| {
            let FriProof::Sha256(p) = proof else { panic!("a SHA-256 proof") };
            let ours = verify_batch_with_chunks(
                &config,
                &AIRS,
                p,
                &toy.public_values,
                &CommonData::new(None, Toy::lookups(&AIRS)),
                &chunks,
            );
            let theirs = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                verify_batch(&config, &AIRS, p, &toy.public_values, &CommonData::new(None, Toy::lookups(&AIRS))).is_ok()
            }));
            (ours.is_ok(), theirs.unwrap_or(false))
        };
        let StarkProof::Fri(honest) = prove_toy(&settings, &traces()) else { panic!("a FRI proof") };
        assert_eq!(verdicts(&honest), (true, true));
        let bytes = codec::encode(b"SGTEST", 1, &honest);
        let mut decoded = 0;
        for bit in (0..8 * bytes.len()).step_by(31) {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            let Ok(proof) = codec::decode::<FriProof>(b"SGTEST", 1, &flipped, "test proof") else { continue };
            decoded += 1;
            let (ours, theirs) = verdicts(&proof);
            assert_eq!(ours, theirs, "bit {bit}");
        }
        assert!(decoded > 100, "only {decoded} flipped proofs decoded");
    }

    /// Both Merkle hashes of the FRI backend round-trip ([`round_trip`]).
    #[test]
    fn proves_and_verifies_in_both_hashes() {
        for merkle in [MerkleHash::Sha256, MerkleHash::Sha256Trunc24] {
            round_trip(&Settings::INSECURE_TEST.with_merkle(merkle));
        }
    }

    /// The multilinear backend commits with full-width SHA-256 or its
    /// 31-byte truncation: each proof round-trips ([`round_trip`]), the
    /// shorter digests shorten it, and settings naming the other hash
    /// refuse it; each backend refuses the hash it does not support, as a
    /// typed error and before any work.
    #[test]
    fn whir_proves_in_both_of_its_hashes() {
        let full = Settings::INSECURE_TEST_WHIR;
        let short = full.with_merkle(MerkleHash::Sha256Trunc31);
        let ((full_proof, full_len), (short_proof, short_len)) = (round_trip(&full), round_trip(&short));
        assert!(short_len < full_len, "31-byte digests shorten the proof: {short_len} vs {full_len}");
        let (t24, t31) = (MerkleHash::Sha256Trunc24, MerkleHash::Sha256Trunc31);
        assert_eq!(
            verify(&short, &tables(1), &full_proof),
            Err(VerifyError::WrongMerkleHash { expected: t31, found: MerkleHash::Sha256 })
        );
        assert_eq!(
            verify(&full, &tables(1), &short_proof),
            Err(VerifyError::WrongMerkleHash { expected: MerkleHash::Sha256, found: t31 })
        );
        let whir24 = full.with_merkle(t24);
        let unsupported = InvalidSettings::UnsupportedMerkleHash { backend: Backend::Whir, merkle: t24 };
        assert!(prove(&whir24, &tables(1), traces().to_vec()).is_err());
        assert_eq!(verify(&whir24, &tables(1), &full_proof), Err(VerifyError::InvalidSettings(unsupported)));
        assert_eq!(security_level(&whir24, &tables(1)).proven_bits, 0.0);
        let fri31 = Settings::INSECURE_TEST.with_merkle(t31);
        assert!(prove(&fri31, &tables(1), traces().to_vec()).is_err());
    }

    /// Another statement digest or domain, other heights, another Merkle
    /// hash and a backend tag this build does not know are all refused.
    #[test]
    fn refusals_are_typed() {
        let settings = Settings::INSECURE_TEST;
        let proof = prove_toy(&settings, &traces());
        assert!(matches!(verify(&settings, &tables(2), &proof), Err(VerifyError::Invalid(_))));
        let other_domain = Tables::new(&AIRS, vec![4, 3], b"another domain", [1; 32]);
        assert!(matches!(verify(&settings, &other_domain, &proof), Err(VerifyError::Invalid(_))));
        let taller = Tables::new(&AIRS, vec![5, 3], DOMAIN, [1; 32]);
        assert_eq!(verify(&settings, &taller, &proof), Err(VerifyError::ShapeMismatch));
        let short = settings.with_merkle(MerkleHash::Sha256Trunc24);
        assert_eq!(
            verify(&short, &tables(1), &proof),
            Err(VerifyError::WrongMerkleHash { expected: MerkleHash::Sha256Trunc24, found: MerkleHash::Sha256 })
        );
        let mut bytes = codec::encode(b"SGTEST", 1, &proof);
        assert_eq!(bytes[7], 0, "the backend tag opens the body");
        bytes[7] = 1;
        assert!(codec::decode::<StarkProof>(b"SGTEST", 1, &bytes, "test proof").is_err());
    }

    /// A trace that breaks a constraint: the FRI prover checks nothing, in
    /// any build, and the verifier refuses its proof.
    #[test]
    fn a_broken_trace_is_refused() {
        let settings = Settings::INSECURE_TEST;
        let mut broken = traces();
        broken[1].values[5] += Val::ONE;
        let proof = prove_toy(&settings, &broken);
        assert!(matches!(verify(&settings, &tables(1), &proof), Err(VerifyError::Invalid(_))));
    }

    /// The multilinear backend proves the same statement, refuses another
    /// digest, other heights, a broken trace and flipped bytes, and each
    /// backend's verifier refuses the other's proof with a typed error.
    #[test]
    fn whir_proves_and_the_backends_refuse_each_other() {
        multilinear_proves_and_refuses(Settings::INSECURE_TEST_WHIR);
    }

    /// So does our own multilinear prover; it and the `p3-multi-stark`
    /// backend refuse each other's proofs, and it states its security.
    #[test]
    fn skip_proves_and_the_backends_refuse_each_other() {
        let skip = Settings::INSECURE_TEST_SKIP;
        multilinear_proves_and_refuses(skip);
        round_trip(&skip.with_merkle(MerkleHash::Sha256Trunc31));
        let whir = Settings::INSECURE_TEST_WHIR;
        let (skip_proof, whir_proof) = (prove_toy(&skip, &traces()), prove_toy(&whir, &traces()));
        assert_eq!(
            verify(&skip, &tables(1), &whir_proof),
            Err(VerifyError::WrongBackend { expected: Backend::Skip, found: Backend::Whir })
        );
        assert_eq!(
            verify(&whir, &tables(1), &skip_proof),
            Err(VerifyError::WrongBackend { expected: Backend::Whir, found: Backend::Skip })
        );
        let level = security_level(&Settings::Skip(WhirSettings::WHIR), &tables(1));
        assert!(level.proven_bits > 100.0, "{level:?}");
        let t24 = skip.with_merkle(MerkleHash::Sha256Trunc24);
        assert!(prove(&t24, &tables(1), traces().to_vec()).is_err());
        assert_eq!(security_level(&t24, &tables(1)).proven_bits, 0.0);
    }

    /// The recursion-friendly setting of our multilinear prover (Poseidon2
    /// Merkle trees and transcript) proves and refuses as the SHA-256 one
    /// does; each refuses the other's proofs by their tag; the other
    /// backends do not commit with Poseidon2; and it states the SHA-256
    /// setting's security but for the 123-bit collision term.
    #[test]
    fn skip_proves_and_refuses_with_poseidon2() {
        let (sha, p2) = (Settings::INSECURE_TEST_SKIP, Settings::INSECURE_TEST_SKIP.with_merkle(MerkleHash::Poseidon2));
        multilinear_proves_and_refuses(p2);
        round_trip(&p2);
        assert_eq!(
            verify(&p2, &tables(1), &prove_toy(&sha, &traces())),
            Err(VerifyError::WrongMerkleHash { expected: MerkleHash::Poseidon2, found: MerkleHash::Sha256 })
        );
        assert_eq!(
            verify(&sha, &tables(1), &prove_toy(&p2, &traces())),
            Err(VerifyError::WrongMerkleHash { expected: MerkleHash::Sha256, found: MerkleHash::Poseidon2 })
        );
        for other in [Settings::INSECURE_TEST, Settings::INSECURE_TEST_WHIR] {
            let other = other.with_merkle(MerkleHash::Poseidon2);
            assert!(prove(&other, &tables(1), traces().to_vec()).is_err(), "{other:?}");
            assert_eq!(security_level(&other, &tables(1)).proven_bits, 0.0);
        }
        let secure = Settings::Skip(WhirSettings::WHIR_SKIP);
        let (by_sha, by_p2) = (
            security_level(&secure, &tables(1)),
            security_level(&secure.with_merkle(MerkleHash::Poseidon2), &tables(1)),
        );
        assert!(by_p2.proven_bits > 100.0 && by_p2.proven_bits <= by_sha.proven_bits, "{by_p2:?} {by_sha:?}");
    }

    /// [`whir_proves_and_the_backends_refuse_each_other`] for the
    /// multilinear backend `settings` name.
    fn multilinear_proves_and_refuses(whir: Settings) {
        let proof = prove_toy(&whir, &traces());
        assert_eq!((proof.backend(), proof.degree_bits()), (whir.backend(), &[4, 3][..]));
        verify(&whir, &tables(1), &proof).unwrap();
        let bytes = codec::encode(b"SGTEST", 1, &proof);
        let decoded: StarkProof = codec::decode(b"SGTEST", 1, &bytes, "test proof").unwrap();
        verify(&whir, &tables(1), &decoded).unwrap();
        assert_eq!(proof.body_layout().iter().map(|(_, n)| n).sum::<usize>().div_ceil(8), bytes.len() - 7);
        assert!(matches!(verify(&whir, &tables(2), &proof), Err(VerifyError::Invalid(_))));
        let taller = Tables::new(&AIRS, vec![5, 3], DOMAIN, [1; 32]);
        assert_eq!(verify(&whir, &taller, &proof), Err(VerifyError::ShapeMismatch));

        let fri = prove_toy(&Settings::INSECURE_TEST, &traces());
        assert_eq!(
            verify(&whir, &tables(1), &fri),
            Err(VerifyError::WrongBackend { expected: whir.backend(), found: Backend::Fri })
        );
        assert_eq!(
            verify(&Settings::INSECURE_TEST, &tables(1), &proof),
            Err(VerifyError::WrongBackend { expected: Backend::Fri, found: whir.backend() })
        );

        for at in (7..bytes.len()).step_by(bytes.len() / 50) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x04;
            if let Ok(p) = codec::decode::<StarkProof>(b"SGTEST", 1, &flipped, "test proof") {
                assert!(verify(&whir, &tables(1), &p).is_err(), "flip at {at} accepted");
            }
        }

        let mut broken = traces();
        broken[1].values[5] += Val::ONE;
        if let Ok(Ok(proof)) = std::panic::catch_unwind(|| prove(&whir, &tables(1), broken.to_vec())) {
            assert!(matches!(verify(&whir, &tables(1), &proof), Err(VerifyError::Invalid(_))));
        }
    }

    /// The transcript seed holds the domain, every setting (the backend
    /// first) and the digest.
    #[test]
    fn the_seed_binds_settings_and_statement() {
        let (fast, test) = (Settings::FAST, Settings::INSECURE_TEST);
        let seed = transcript_seed(DOMAIN, &fast, &[1; 32]);
        assert_eq!(seed.len(), DOMAIN.len() + 15 * 8 + 32);
        assert_eq!(seed[DOMAIN.len()..DOMAIN.len() + 8], [0; 8], "Backend::Fri");
        assert_ne!(seed, transcript_seed(DOMAIN, &test, &[1; 32]));
        assert_ne!(seed, transcript_seed(DOMAIN, &fast, &[2; 32]));
        assert_eq!(seed, tables(1).transcript_seed(&fast));
    }

    /// The backend's lookup folding equals Plonky3's derivation, and the
    /// backend states a security level that grows with the settings.
    #[test]
    fn lookups_and_security() {
        let (ours, theirs) = crate::fri::compare::lookups_both_ways(&Settings::INSECURE_TEST, &tables(1));
        assert_eq!(ours, theirs);
        let test = security_level(&Settings::INSECURE_TEST, &tables(0));
        let fast = security_level(&Settings::FAST, &tables(0));
        assert!(test.proven_bits < 20.0 && fast.proven_bits > 80.0, "{test:?} {fast:?}");
    }
}
