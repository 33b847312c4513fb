//! Tables of one permutation a row through [`crate::prove`] and
//! [`crate::verify`]: a Poseidon1 table proves, verifies, and a corrupted
//! cell fails; and an ignored measurement of Poseidon1 against Poseidon2.

use std::time::Instant;

use p3_air::{Air, AirBuilder, BaseAir};
use p3_matrix::dense::RowMajorMatrix;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sigagg_koalabear::poseidon2::{
    Constants16, Constants24, PARTIAL_16, PARTIAL_24, default_constants16, default_constants24,
};

use super::*;
use crate::{Settings, StarkProof, Table, Tables, VerifyError, codec, prove, verify};

/// A table whose every row is one permutation of the block (the rounds
/// right after the inputs), and nothing else.
#[derive(Clone, Debug)]
struct PermTable<R, const W: usize, const P: usize>(PoseidonBlock<R, W, P>);

impl<R: PoseidonRounds<W>, const W: usize, const P: usize> BaseAir<Val> for PermTable<R, W, P> {
    fn width(&self) -> usize {
        BaseAir::<Val>::width(&self.0)
    }

    /// The block reads only its own row.
    fn main_next_row_columns(&self) -> Vec<usize> {
        Vec::new()
    }
}

impl<AB: AirBuilder<F = Val>, R: PoseidonRounds<W>, const W: usize, const P: usize> Air<AB> for PermTable<R, W, P> {
    fn eval(&self, builder: &mut AB) {
        self.0.eval(builder);
    }
}

crate::air_enum! {
    /// The four tables the tests prove, as one type: the backends are
    /// compiled for one table type, not four (release test build time).
    #[derive(Clone, Debug)]
    #[allow(clippy::large_enum_variant)] // four test tables, cloned rarely
    enum AnyPerm {
        P1x16(PermTable<Poseidon1Rounds<16>, 16, PARTIAL_16>),
        P1x24(PermTable<Poseidon1Rounds<24>, 24, PARTIAL_24>),
        P2x16(PermTable<Constants16, 16, PARTIAL_16>),
        P2x24(PermTable<Constants24, 24, PARTIAL_24>),
    }
}

impl AnyPerm {
    fn degree(&self) -> usize {
        match self {
            Self::P1x16(t) => t.0.degree(),
            Self::P1x24(t) => t.0.degree(),
            Self::P2x16(t) => t.0.degree(),
            Self::P2x24(t) => t.0.degree(),
        }
    }
}

impl Table for AnyPerm {
    const BUS_WIDTH: usize = 1;

    fn degree(&self) -> usize {
        AnyPerm::degree(self)
    }
}

impl<R: PoseidonRounds<W>, const W: usize, const P: usize> PermTable<R, W, P> {
    /// The table of `rounds`' permutation, every `stride`-th full round committed.
    fn new(rounds: R, stride: usize) -> Self {
        Self(PoseidonBlock::new(rounds, stride, 0, W))
    }

    /// `2^log_rows` rows permuting random inputs (from `seed`).
    fn trace(&self, log_rows: usize, seed: u64) -> RowMajorMatrix<Val> {
        let width = BaseAir::<Val>::width(self);
        let lanes = PackedVal::WIDTH;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut values = Val::zero_vec(width << log_rows);
        for chunk in values.chunks_mut(width * lanes) {
            let inputs: Vec<[Val; W]> = (0..chunk.len() / width).map(|_| rng.random()).collect();
            self.0.write(&mut chunk.chunks_mut(width).collect::<Vec<_>>(), &inputs);
        }
        RowMajorMatrix::new(values, width)
    }
}

const DOMAIN: &[u8] = b"sigagg/prover-test/poseidon-block/v1";

/// Proves `trace` of `air` alone at `log_rows`.
fn prove_one(settings: &Settings, air: &AnyPerm, trace: RowMajorMatrix<Val>, log_rows: usize) -> StarkProof {
    let airs = [air.clone()];
    prove(settings, &Tables::new(&airs, vec![log_rows], DOMAIN, [1; 32]), vec![trace]).expect("a proof")
}

fn verify_one(settings: &Settings, air: &AnyPerm, proof: &StarkProof, log_rows: usize) -> Result<(), VerifyError> {
    let airs = [air.clone()];
    verify(settings, &Tables::new(&airs, vec![log_rows], DOMAIN, [1; 32]), proof)
}

/// A corrupted trace proved anyway: the FRI prover checks nothing, and
/// a release build of the multilinear one (no buses here) proves it too;
/// a debug build of the latter may panic or refuse instead, which only
/// that build allows. Any proof it gives must be refused as invalid.
fn assert_corrupted_rejected(settings: &Settings, air: &AnyPerm, trace: RowMajorMatrix<Val>, log_rows: usize) {
    let proved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| prove_one(settings, air, trace, log_rows)));
    match proved {
        Err(_) => assert!(cfg!(debug_assertions) && settings.backend().is_multilinear(), "{settings:?}"),
        Ok(proof) => assert!(matches!(verify_one(settings, air, &proof, log_rows), Err(VerifyError::Invalid(_)))),
    }
}

/// A table of 32 width-16 Poseidon1 permutations (and one of width 24)
/// proves and verifies with the insecure test settings of both backends,
/// strides 1 and 2; with one partial round's S-box output changed in
/// one row, the proof fails.
#[test]
fn a_poseidon1_table_proves_and_a_corrupted_cell_fails() {
    const LOG_ROWS: usize = 5;
    let cases = [(Settings::INSECURE_TEST, 1), (Settings::INSECURE_TEST_COMPACT, 2), (Settings::INSECURE_TEST_SKIP, 2)];
    for (settings, stride) in cases {
        let table = PermTable::<_, 16, PARTIAL_16>::new(Poseidon1Rounds::default16().clone(), stride);
        let trace = table.trace(LOG_ROWS, stride as u64);
        let (_, partial, _) = table.0.halves();
        let air = AnyPerm::P1x16(table);
        let proof = prove_one(&settings, &air, trace.clone(), LOG_ROWS);
        verify_one(&settings, &air, &proof, LOG_ROWS).unwrap_or_else(|e| panic!("{settings:?}: {e}"));
        let mut bad = trace;
        bad.values[9 * bad.width + partial + 4] += Val::ONE;
        assert_corrupted_rejected(&settings, &air, bad, LOG_ROWS);
    }
    let table = PermTable::<_, 24, PARTIAL_24>::new(Poseidon1Rounds::default24().clone(), 2);
    let trace = table.trace(LOG_ROWS, 9);
    let air = AnyPerm::P1x24(table);
    let proof = prove_one(&Settings::INSECURE_TEST_SKIP, &air, trace, LOG_ROWS);
    verify_one(&Settings::INSECURE_TEST_SKIP, &air, &proof, LOG_ROWS).unwrap();
}

/// One measurement: the median of three proofs' times, the proof's size.
fn measure(name: &str, air: &AnyPerm, trace: RowMajorMatrix<Val>, log_rows: usize, settings: &Settings) -> String {
    let mut times: Vec<f64> = Vec::new();
    let mut proof = None;
    for _ in 0..3 {
        let t = trace.clone();
        let start = Instant::now();
        proof = Some(prove_one(settings, air, t, log_rows));
        times.push(start.elapsed().as_secs_f64());
    }
    let proof = proof.expect("three proofs");
    let start = Instant::now();
    verify_one(settings, air, &proof, log_rows).expect("the proof verifies");
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    times.sort_by(f64::total_cmp);
    format!(
        r#"{{"table": "{name}", "log_perms": {log_rows}, "columns": {}, "prove_s_median": {:.3}, "prove_s": [{:.3}, {:.3}, {:.3}], "proof_bytes": {}, "verify_ms": {verify_ms:.1}}}"#,
        BaseAir::<Val>::width(air),
        times[1],
        times[0],
        times[1],
        times[2],
        codec::encode(b"SGTEST", 1, &proof).len(),
    )
}

/// Prove time and proof size of 2^14 width-24 and 2^15 width-16
/// permutations, Poseidon1 against Poseidon2, stride 2, `WHIR_SKIP`; one
/// JSON object a table.
#[test]
#[ignore = "a measurement: RAYON_NUM_THREADS=2 cargo test --release -p sigagg-prover poseidon1_against_poseidon2 -- --ignored --nocapture"]
fn poseidon1_against_poseidon2() {
    let s = Settings::WHIR_SKIP;
    let p1x24 = PermTable::<_, 24, PARTIAL_24>::new(Poseidon1Rounds::default24().clone(), 2);
    let p2x24 = PermTable::<_, 24, PARTIAL_24>::new(default_constants24().clone(), 2);
    let p1x16 = PermTable::<_, 16, PARTIAL_16>::new(Poseidon1Rounds::default16().clone(), 2);
    let p2x16 = PermTable::<_, 16, PARTIAL_16>::new(default_constants16().clone(), 2);
    let rows = [
        measure("poseidon1-24", &AnyPerm::P1x24(p1x24.clone()), p1x24.trace(14, 1), 14, &s),
        measure("poseidon2-24", &AnyPerm::P2x24(p2x24.clone()), p2x24.trace(14, 1), 14, &s),
        measure("poseidon1-16", &AnyPerm::P1x16(p1x16.clone()), p1x16.trace(15, 1), 15, &s),
        measure("poseidon2-16", &AnyPerm::P2x16(p2x16.clone()), p2x16.trace(15, 1), 15, &s),
    ];
    println!("[\n  {}\n]", rows.join(",\n  "));
}
