//! The Poseidon instance over BLS12-381's base field: its parameters
//! recomputed from the paper's bounds, its Grain constants and permutation
//! against the independent Python reference (`scripts/poseidon_ref.py`),
//! and the Grain generator against instances published by others.

// The `MontConfig` derive emits `cfg(feature = "asm")` checks for a feature this crate does not have.
#![allow(unexpected_cfgs)]

use ark_bls12_381::{Fq, Fr};
use ark_ff::fields::{Fp256, MontBackend, MontConfig};
use ark_ff::{PrimeField, Zero};
use num_bigint::BigUint;
use serde_json::Value;
use sigagg_mithril::MithrilError;
use sigagg_mithril::poseidon::{
    FQ_ALPHA, FQ_FULL_ROUNDS, FQ_PARTIAL_ROUNDS, FQ_WIDTH, Grain, Poseidon, SECURITY_BITS, bls12_381_fq, mds_is_secure,
    round_numbers, satisfies_bounds, smallest_alpha,
};

/// BN254's scalar field, only to rerun the generator on the reference
/// script's `poseidonperm_x5_254_3` instance.
#[derive(MontConfig)]
#[modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617"]
#[generator = "5"]
struct Bn254FrConfig;
type Bn254Fr = Fp256<MontBackend<Bn254FrConfig, 4>>;

/// Pallas' base field, for halo2's `P128Pow5T3` instance.
#[derive(MontConfig)]
#[modulus = "28948022309329048855892746252171976963363056481941560715954676764349967630337"]
#[generator = "5"]
struct PallasFpConfig;
type PallasFp = Fp256<MontBackend<PallasFpConfig, 4>>;

fn modulus<F: PrimeField>() -> BigUint {
    F::MODULUS.into()
}

fn fe<F: PrimeField>(hex: &str) -> F {
    let v = BigUint::parse_bytes(hex.trim_start_matches("0x").as_bytes(), 16).expect("hex");
    assert!(v < modulus::<F>(), "{hex} is not below the modulus");
    F::from(v)
}

fn vectors() -> Value {
    serde_json::from_str(include_str!("vectors/poseidon_bls12_381_fq.json")).expect("vector file")
}

#[test]
fn alpha_is_the_smallest_exponent_prime_to_q_minus_one() {
    let q = modulus::<Fq>();
    assert_eq!(smallest_alpha(&q), 5);
    assert_eq!(FQ_ALPHA, 5);
    // 3 divides q − 1 (and 4 shares 2 with it): x^3 and x^4 are not permutations of Fq.
    assert!((&q - 1u32) % 3u32 == BigUint::zero());
    // Published choices on other fields: x^5 for BN254 and BLS12-381's Fr,
    // x^7 for Goldilocks (Plonky2's Poseidon).
    assert_eq!(smallest_alpha(&modulus::<Fr>()), 5);
    assert_eq!(smallest_alpha(&modulus::<Bn254Fr>()), 5);
    assert_eq!(smallest_alpha(&BigUint::from(0xffff_ffff_0000_0001u64)), 7);
}

#[test]
fn round_numbers_follow_from_the_paper_bounds() {
    let q = modulus::<Fq>();
    assert_eq!(round_numbers(&q, FQ_WIDTH, FQ_ALPHA, SECURITY_BITS), (FQ_FULL_ROUNDS, FQ_PARTIAL_ROUNDS));
    assert_eq!((FQ_FULL_ROUNDS, FQ_PARTIAL_ROUNDS), (8, 56));
    // Before the margin: (6, 52) is the cheapest secure pair; interpolation
    // (R_F + R_P >= 58) binds, so (6, 51) fails, and R_F = 4 fails the
    // statistical bound whatever R_P.
    assert!(satisfies_bounds(&q, 3, 6, 52, 5, 128));
    assert!(!satisfies_bounds(&q, 3, 6, 51, 5, 128));
    assert!(!satisfies_bounds(&q, 3, 4, 400, 5, 128));
    // 2023/537's binomial bound: at t = 2, R_F = 58 meets every other bound
    // with R_P = 1, but C(121, 6) < 2^64 is refused; R_P = 30 passes.
    assert!(!satisfies_bounds(&q, 2, 58, 1, 5, 128));
    assert!(satisfies_bounds(&q, 2, 58, 30, 5, 128));
    // The same computation gives the published round numbers of other
    // instances: R_F = 8, R_P = 56 for halo2's Pallas P128Pow5T3 (t = 3, x^5),
    // and lambdaworks' BLS12-381 base-field t = 2 and t = 3 instances.
    assert_eq!(round_numbers(&modulus::<PallasFp>(), 3, 5, 128), (8, 56));
    assert_eq!(round_numbers(&q, 2, 5, 128), (8, 56));
    // More security bits need more rounds.
    let (f, p) = round_numbers(&q, 3, 5, 256);
    assert!(3 * f + p > 3 * 8 + 56);
}

#[test]
fn grain_reproduces_the_reference_bn254_and_bls12_381_fr_instances() {
    // The reference script's test vectors (hadeshash code/test_vectors.txt,
    // reproduced e.g. in arkworks-rs/nimue, nimue-poseidon/src/tests.rs):
    // poseidonperm_x5_254_3 and poseidonperm_x5_255_3,
    // both t = 3, x^5, R_F = 8, R_P = 57, permutation of (0, 1, 2).
    let bn = Poseidon::<Bn254Fr>::generate(3, 5, 8, 57).unwrap();
    let mut s = [Bn254Fr::from(0u8), Bn254Fr::from(1u8), Bn254Fr::from(2u8)];
    bn.permute(&mut s).unwrap();
    let want: [Bn254Fr; 3] = [
        fe("0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"),
        fe("0x0fca49b798923ab0239de1c9e7a4a9a2210312b6a2f616d18b5a87f9b628ae29"),
        fe("0x0e7ae82e40091e63cbd4f16a6d16310b3729d4b6e138fcf54110e2867045a30c"),
    ];
    assert_eq!(s, want);

    let fr = Poseidon::<Fr>::generate(3, 5, 8, 57).unwrap();
    let mut s = [Fr::from(0u8), Fr::from(1u8), Fr::from(2u8)];
    fr.permute(&mut s).unwrap();
    let want: [Fr; 3] = [
        fe("0x28ce19420fc246a05553ad1e8c98f5c9d67166be2c18e9e4cb4b4e317dd2a78a"),
        fe("0x51f3e312c95343a896cfd8945ea82ba956c1118ce9b9859b6ea56637b4b1ddc4"),
        fe("0x3b2b69139b235626a0bfb56c9527ae66a7bf486ad8c11c14d1da0c69bbe0f79a"),
    ];
    assert_eq!(s, want);
    // The width, R_F and R_P are part of the seed: R_P = 56 gives other constants.
    let other = Poseidon::<Fr>::generate(3, 5, 8, 56).unwrap();
    assert_ne!(other.round_constants()[0], fr.round_constants()[0]);
}

#[test]
fn grain_reproduces_the_published_constants_of_this_instance() {
    // lambdaworks (lambdaclass/lambdaworks, crypto/src/hash/poseidon/bls12381/
    // t3/round_constants.csv): BLS12-381's base field, t = 3, x^5, R_F = 8,
    // R_P = 56, from `generate_params_poseidon.sage 1 0 381 3 5 128`. Its
    // MDS matrix and permutation outputs are not published there.
    let p = bls12_381_fq();
    let rc = p.round_constants();
    assert_eq!(rc.len(), 192);
    let first: [&str; 3] = [
        "05ce359a7f1c1482b1f51709cadd64f5a26af15a23f514ddd3f99c1cb19d70b5e3c89c25e6c66c03b24fb5cf098171dd",
        "0cbe7632efbacf28e284698e45f9564427171e953365ce0cea873a09cd5858899109272afc22d0f71632040fef6066e5",
        "06ec4522f086f379aedd419486800c2331968b246ea4fe3c505621f4e8bc4e43126c217b178a2ce037c5d3c62c83cfc1",
    ];
    let last: [&str; 3] = [
        "1656d48494cc233d331bebf1f7e6896573b298c6fe1ffb215a7b071e6a776951d1f6461b7efe9a2d9324234a1f0e47c4",
        "1031229bccd53f2b33fa7567acb6f4e192fb04847c20ae8ed0502a72177857178ef9a71533e8a1e782978bebf35daa7b",
        "0cb412e1f0533ef873afde5ff9ea56a03ec8d9316400a299532d54af94f71245a8df168682cb0219db57d6eeaca403d4",
    ];
    for (i, h) in first.iter().enumerate() {
        assert_eq!(rc[i], fe::<Fq>(h), "round constant {i}");
    }
    for (i, h) in last.iter().enumerate() {
        assert_eq!(rc[189 + i], fe::<Fq>(h), "round constant {}", 189 + i);
    }
    // Some from the middle of the file, in order.
    let middle: [&str; 5] = [
        "044d247198740ea72421cdfc31a8cc2b75bb91103d8c8c962bc21374299a2971bc8cc83a8047fbd8ef7f5e9d09a258ff",
        "0f320be802ad88035a89faf94d270437014388134a75436d8b3af5e25c5d12d1cdd0edcb8aea0712857246bf834a4502",
        "18e11bcc334b279a3ce4ba62a7f2980a7064fdc67f77429412440ca13c0ff0312f5a08eac1310dce3a42ab1c73833533",
        "0b402bda56cfbacc5df30977f2abe5f2c124707517a87e1be1581daced1dc76656dc7dd7c1444f30d6d231152304f458",
        "17e29412f7863adf73ed5e02424d84f6d8b50e2e3e4cbc67d82c40fec6cdcaa1f4e6dcab2b7e353f672b99e1a066587c",
    ];
    let positions: Vec<usize> =
        middle.iter().map(|h| rc.iter().position(|c| *c == fe::<Fq>(h)).expect("published constant")).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
}

#[test]
fn grain_reproduces_halo2s_pallas_instance() {
    // halo2_gadgets' P128Pow5T3 over Pallas' base field (t = 3, x^5, R_F = 8,
    // R_P = 56, the same round numbers as ours; zcash/halo2,
    // halo2_gadgets/src/poseidon/primitives/fp.rs for the constants and
    // p128pow5t3.rs for the permutation of (0, 1, 2)), written there as
    // little-endian u64 limbs and here as big-endian hex.
    let p = Poseidon::<PallasFp>::generate(3, 5, 8, 56).unwrap();
    assert_eq!(p.round_constants().len(), 192);
    assert_eq!(p.round_constants()[0], fe("0x360d7470611e473d353f628f76d110f34e71162f31003b7057538c2596426303"));
    assert_eq!(p.mds()[0][2], fe("0x07c045d5f5e9e5a6d803952bbb364fdfa0a3b71a5fb1573519d1cf25d8e8345d"));
    let mut s = [PallasFp::from(0u8), PallasFp::from(1u8), PallasFp::from(2u8)];
    p.permute(&mut s).unwrap();
    let want: [PallasFp; 3] = [
        fe("0x2a526acd0b64b45394efb364f966240ff7e69a71d0b642a0aeb1bc024aeca456"),
        fe("0x13c5d1568b4aa43076ff7dae343d5512dcd42e7fbed9dafe012a3e9628e5b82a"),
        fe("0x0a49c868c6976544256fcd597984561af7cfdfe1bda42c7b359029a1d34e9ddd"),
    ];
    assert_eq!(s, want);
}

#[test]
fn pinned_instance_matches_the_python_reference() {
    let v = vectors();
    let p = bls12_381_fq();
    assert_eq!(v["field_modulus"].as_str().unwrap(), format!("0x{:x}", modulus::<Fq>()));
    assert_eq!(v["width"].as_u64().unwrap() as usize, p.width());
    assert_eq!(v["alpha"].as_u64().unwrap(), p.alpha());
    assert_eq!(v["full_rounds"].as_u64().unwrap() as usize, p.full_rounds());
    assert_eq!(v["partial_rounds"].as_u64().unwrap() as usize, p.partial_rounds());
    let rc: Vec<Fq> = v["round_constants"].as_array().unwrap().iter().map(|h| fe(h.as_str().unwrap())).collect();
    assert_eq!(rc, p.round_constants());
    let mds: Vec<Vec<Fq>> = v["mds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|h| fe(h.as_str().unwrap())).collect())
        .collect();
    assert_eq!(mds, p.mds());
    assert!(mds_is_secure(p.mds()));
    let perms = v["permutations"].as_array().unwrap();
    assert!(perms.len() >= 4);
    for case in perms {
        let mut state: Vec<Fq> = case["input"].as_array().unwrap().iter().map(|h| fe(h.as_str().unwrap())).collect();
        let want: Vec<Fq> = case["output"].as_array().unwrap().iter().map(|h| fe(h.as_str().unwrap())).collect();
        p.permute(&mut state).unwrap();
        assert_eq!(state, want);
    }
}

#[test]
fn grain_seed_and_widths_are_checked() {
    // R_P above 10 bits does not fit the seed.
    assert!(matches!(Grain::new(381, 3, 8, 1024), Err(MithrilError::PoseidonParameters(_))));
    assert!(matches!(Poseidon::<Fq>::generate(3, 5, 7, 56), Err(MithrilError::PoseidonParameters(_))));
    assert!(matches!(Poseidon::<Fq>::generate(1, 5, 8, 56), Err(MithrilError::PoseidonParameters(_))));
    let p = bls12_381_fq();
    let mut short = [Fq::zero(); 2];
    assert!(matches!(p.permute(&mut short), Err(MithrilError::PoseidonParameters(_))));
    let mut long = [Fq::zero(); 4];
    assert!(p.permute(&mut long).is_err());
}

#[test]
fn grain_bits_are_the_self_shrunk_lfsr() {
    // Two generators with the same seed agree; a different seed differs
    // within the first 64 bits.
    let mut a = Grain::new(381, 3, 8, 56).unwrap();
    let mut b = Grain::new(381, 3, 8, 56).unwrap();
    let mut c = Grain::new(381, 3, 8, 57).unwrap();
    let xa = a.integer(64);
    assert_eq!(xa, b.integer(64));
    assert_ne!(xa, c.integer(64));
    // The output is balanced-looking: 4096 bits have between 1900 and 2200 ones.
    let ones: u32 = (0..4096).map(|_| u32::from(a.bit())).sum();
    assert!((1900..2200).contains(&ones), "{ones}");
}

/// GF(151), only to exercise the MDS rejection path.
#[derive(MontConfig)]
#[modulus = "151"]
#[generator = "6"]
struct F151Config;
type F151 = ark_ff::Fp64<MontBackend<F151Config, 1>>;

/// GF(167), likewise.
#[derive(MontConfig)]
#[modulus = "167"]
#[generator = "5"]
struct F167Config;
type F167 = ark_ff::Fp64<MontBackend<F167Config, 1>>;

/// The well-formed Cauchy candidates (distinct draws, no zero `x_i + y_j`)
/// the generator draws after the round constants, up to and including `until`.
fn mds_candidates<F: PrimeField>(t: usize, full: usize, partial: usize, until: &[Vec<F>]) -> Vec<Vec<Vec<F>>> {
    let p = modulus::<F>();
    let n = F::MODULUS_BIT_SIZE as usize;
    let mut g = Grain::new(n, t, full, partial).unwrap();
    for _ in 0..(full + partial) * t {
        while g.integer(n) >= p {}
    }
    let mut out = Vec::new();
    while out.last().is_none_or(|m: &Vec<Vec<F>>| m != until) && out.len() < 1000 {
        let draws: Vec<F> = (0..2 * t).map(|_| F::from(g.integer(n))).collect();
        if (0..draws.len()).any(|i| (0..i).any(|j| draws[i] == draws[j])) {
            continue;
        }
        let (xs, ys) = draws.split_at(t);
        if xs.iter().any(|x| ys.iter().any(|y| (*x + y).is_zero())) {
            continue;
        }
        out.push(xs.iter().map(|x| ys.iter().map(|y| ark_ff::Field::inverse(&(*x + y)).unwrap()).collect()).collect());
    }
    out
}

fn check_small_field<F: PrimeField>(case: &Value) {
    let alpha = case["alpha"].as_u64().unwrap();
    assert_eq!(smallest_alpha(&modulus::<F>()), alpha);
    let p = Poseidon::<F>::generate(3, alpha, 8, 56).unwrap();
    let num = |v: &Value| F::from(v.as_u64().unwrap());
    let head: Vec<F> = case["round_constants_head"].as_array().unwrap().iter().map(num).collect();
    assert_eq!(&p.round_constants()[..head.len()], &head[..]);
    let mds: Vec<Vec<F>> =
        case["mds"].as_array().unwrap().iter().map(|row| row.as_array().unwrap().iter().map(num).collect()).collect();
    assert_eq!(p.mds(), &mds[..]);
    // A well-formed candidate before the chosen one was refused by the
    // checks, here as in the Python reference.
    let candidates = mds_candidates::<F>(3, 8, 56, &mds);
    let (chosen, earlier) = candidates.split_last().unwrap();
    assert_eq!(chosen, &mds);
    assert!(mds_is_secure(chosen));
    assert!(!earlier.is_empty() && earlier.iter().all(|m| !mds_is_secure(m)));
    let mut s = [F::from(0u8), F::from(1u8), F::from(2u8)];
    p.permute(&mut s).unwrap();
    let want: Vec<F> = case["perm_012"].as_array().unwrap().iter().map(num).collect();
    assert_eq!(&s[..], &want[..]);
}

#[test]
fn mds_rejection_agrees_with_the_python_reference_on_tiny_fields() {
    let v = vectors();
    let cases = v["small_fields"].as_array().unwrap();
    assert_eq!(cases[0]["p"].as_u64().unwrap(), 151);
    assert_eq!(cases[1]["p"].as_u64().unwrap(), 167);
    check_small_field::<F151>(&cases[0]);
    check_small_field::<F167>(&cases[1]);
}
