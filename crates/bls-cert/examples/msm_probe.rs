//! CPU cost of N-point MSMs on BW6-767 G1, arkworks against the fixed-base
//! tables (development probe): `msm_probe N REPS`.
use ark_ec::VariableBaseMSM;
use ark_ff::UniformRand;
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
    let t = std::time::Instant::now();
    let tables = FixedBaseMsm::new(&bases);
    eprintln!("tables {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    for round in 0..2 {
        let t = std::time::Instant::now();
        for _ in 0..reps {
            let _ = G1Projective::msm(&bases, &scalars).unwrap();
        }
        let ark = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        let t = std::time::Instant::now();
        for _ in 0..reps {
            let _ = tables.msm(&scalars);
        }
        let ours = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        eprintln!("round {round}: arkworks {ark:.1} ms, fixed-base {ours:.1} ms per msm");
    }
}
