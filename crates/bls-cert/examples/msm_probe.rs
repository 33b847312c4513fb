//! CPU cost of N-point MSMs on BW6-767 G1, arkworks against the fixed-base
//! tables, and the tables on scalars of 64 bits and of one bit (a
//! commitment to a column of limbs or of bits: the fixed-base MSM skips
//! zero digits) (development probe): `msm_probe N REPS`.
use ark_ec::VariableBaseMSM;
use ark_ff::UniformRand;
use ark_std::rand::RngCore;
use sigagg_bls_cert::Setup;
use sigagg_bls_cert::field::{F, G1Projective};
use sigagg_bls_cert::msm::FixedBaseMsm;

fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let reps: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let setup = Setup::insecure_development(n).unwrap();
    let bases = setup.powers_g1().to_vec();
    let rng = &mut ark_std::test_rng();
    let scalars: Vec<F> = (0..n).map(|_| F::rand(rng)).collect();
    let limbs: Vec<F> = (0..n).map(|_| F::from(rng.next_u64())).collect();
    let bits: Vec<F> = (0..n).map(|_| F::from(rng.next_u32() & 1)).collect();
    let t = std::time::Instant::now();
    let tables = FixedBaseMsm::new(&bases);
    eprintln!("tables {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let time = |scalars: &[F], f: &dyn Fn(&[F])| {
        let t = std::time::Instant::now();
        for _ in 0..reps {
            f(scalars);
        }
        t.elapsed().as_secs_f64() * 1e3 / reps as f64
    };
    for round in 0..2 {
        let ark = time(&scalars, &|s| {
            let _ = std::hint::black_box(G1Projective::msm(&bases, s).unwrap());
        });
        let ours = time(&scalars, &|s| {
            let _ = std::hint::black_box(tables.msm(s));
        });
        let ours64 = time(&limbs, &|s| {
            let _ = std::hint::black_box(tables.msm(s));
        });
        let ours1 = time(&bits, &|s| {
            let _ = std::hint::black_box(tables.msm(s));
        });
        eprintln!(
            "round {round}: arkworks {ark:.1} ms, fixed-base {ours:.1} ms per msm; 64-bit scalars {ours64:.1} ms, bits {ours1:.1} ms"
        );
    }
}
