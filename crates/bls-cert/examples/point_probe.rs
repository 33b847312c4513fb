//! Cost of decoding one BW6-767 G1 point (development probe).
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use sigagg_bls_cert::field::{F, G1, G1Projective};

fn main() {
    let p = (G1Projective::generator() * F::from(123456789u64)).into_affine();
    let mut bytes = Vec::new();
    p.serialize_compressed(&mut bytes).unwrap();
    let reps = 200;
    let t = std::time::Instant::now();
    for _ in 0..reps {
        let _ = G1::deserialize_with_mode(&bytes[..], Compress::Yes, Validate::No).unwrap();
    }
    eprintln!("decompress (sqrt) {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let t = std::time::Instant::now();
    for _ in 0..reps {
        assert!(p.is_in_correct_subgroup_assuming_on_curve());
    }
    eprintln!("subgroup check {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let r = F::MODULUS;
    let t = std::time::Instant::now();
    for _ in 0..reps {
        assert!(p.mul_bigint(r).is_zero());
    }
    eprintln!("mul_bigint r {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    let naf = r.find_wnaf(5).unwrap();
    eprintln!("r: {} bits, wnaf nonzero {}", r.num_bits(), naf.iter().filter(|d| **d != 0).count());
}
