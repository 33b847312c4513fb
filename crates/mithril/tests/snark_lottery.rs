//! The quantised Poseidon lottery: known answers from the independent
//! Python reference (`scripts/poseidon_ref.py`), the quantisation bounds
//! for the actual `q`, monotonicity, statistics and separation of inputs.

use ark_bls12_381::Fq;
use ark_ff::{Field, PrimeField, Zero};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde_json::Value;
use sigagg_mithril::lottery::is_lottery_won;
use sigagg_mithril::snark_lottery::{SignerLottery, bound, ev, prefix, sigma_x, target, top64, wins};
use sigagg_mithril::{MithrilError, Signature};

fn vectors() -> Value {
    serde_json::from_str(include_str!("vectors/poseidon_bls12_381_fq.json")).expect("vector file")
}

fn q() -> BigUint {
    Fq::MODULUS.into()
}

fn big(hex: &str) -> BigUint {
    BigUint::parse_bytes(hex.trim_start_matches("0x").as_bytes(), 16).expect("hex")
}

fn fe(hex: &str) -> Fq {
    let v = big(hex);
    assert!(v < q());
    Fq::from(v)
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

#[test]
fn prefix_sigma_x_and_ev_match_the_python_reference() {
    let v = vectors();
    for case in v["prefixes"].as_array().unwrap() {
        assert_eq!(prefix(&unhex(case["msgp"].as_str().unwrap())), fe(case["prefix"].as_str().unwrap()));
    }
    let points = v["sigma_x"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    let mut sign_bits = [0, 0];
    for case in points {
        let bytes = unhex(case["compressed"].as_str().unwrap());
        sign_bits[usize::from(bytes[0] & 0x20 != 0)] += 1;
        let sigma = Signature::from_bytes(&bytes).expect("k·G is a valid signature encoding");
        let x = sigma_x(&sigma);
        assert_eq!(x, fe(case["x"].as_str().unwrap()));
        // x is on the curve: x³ + 4 has a square root.
        assert!((x.square() * x + Fq::from(4u8)).sqrt().is_some());
    }
    // Both values of the sign flag are exercised.
    assert!(sign_bits[0] > 0 && sign_bits[1] > 0, "{sign_bits:?}");
    let evs = v["evs"].as_array().unwrap();
    assert!(evs.len() >= 6);
    for case in evs {
        let p = prefix(&unhex(case["msgp"].as_str().unwrap()));
        let x = fe(case["sigma_x"].as_str().unwrap());
        let j = case["index"].as_u64().unwrap();
        let e = ev(p, x, j);
        assert_eq!(e, fe(case["ev"].as_str().unwrap()), "index {j}");
        assert_eq!(top64(e), case["top64"].as_u64().unwrap());
    }
}

#[test]
fn targets_and_bounds_match_the_python_reference() {
    // The Python side computes floor(2^64·(1 − e^{w·c})) with 200-digit
    // decimals, independently of the exact-rational series used here.
    let v = vectors();
    let cases = v["targets"].as_array().unwrap();
    assert!(cases.len() >= 8);
    for case in cases {
        let (s, total) = (case["stake"].as_u64().unwrap(), case["total"].as_u64().unwrap());
        let phi_f = case["phi_f"].as_f64().unwrap();
        let t = target(s, total, phi_f).unwrap();
        assert_eq!(t, case["target"].as_u64().unwrap(), "stake {s}/{total}, phi_f {phi_f}");
        assert_eq!(bound(t), fe(case["bound"].as_str().unwrap()));
    }
}

#[test]
fn won_indices_match_the_python_reference() {
    let v = vectors();
    let won = &v["won"];
    let p = prefix(&unhex(won["msgp"].as_str().unwrap()));
    let x = fe(won["sigma_x"].as_str().unwrap());
    let t = won["target"].as_u64().unwrap();
    assert_eq!(t, target(1, 2, 0.2).unwrap());
    let want: Vec<u64> = won["indices"].as_array().unwrap().iter().map(|j| j.as_u64().unwrap()).collect();
    assert!(!want.is_empty());
    let lottery = SignerLottery::new(p, x, t);
    let m = won["m"].as_u64().unwrap();
    assert_eq!(lottery.won_indices(m), want);
    for j in 0..m {
        assert_eq!(lottery.wins(j), wins(ev(p, x, j), t), "index {j}");
    }
}

#[test]
fn zero_stake_has_target_zero_and_never_wins() {
    assert_eq!(target(0, 10, 0.2).unwrap(), 0);
    assert_eq!(target(0, u64::MAX, 0.5).unwrap(), 0);
    assert!(bound(0).is_zero());
    assert!(!wins(Fq::zero(), 0));
    let lottery = SignerLottery::new(prefix(b"m"), Fq::from(7u8), 0);
    assert!(lottery.won_indices(200).is_empty());
}

#[test]
fn target_is_monotone_in_stake() {
    let total = 200;
    let targets: Vec<u64> = (0..=total).map(|s| target(s, total, 0.2).unwrap()).collect();
    assert!(targets.windows(2).all(|w| w[0] < w[1]), "targets must increase with the stake");
    // The same share in other units gives the same target.
    assert_eq!(target(50, 200, 0.2).unwrap(), target(1, 4, 0.2).unwrap());
    // A larger stake wins every index a smaller one wins (same σ and message).
    let (p, x) = (prefix(b"monotone"), Fq::from(12345u32));
    let small = SignerLottery::new(p, x, targets[20]).won_indices(600);
    let large = SignerLottery::new(p, x, targets[60]).won_indices(600);
    assert!(!small.is_empty() && small.len() < large.len());
    assert!(small.iter().all(|j| large.contains(j)));
}

#[test]
fn full_stake_target_is_floor_of_phi_f_times_2_64() {
    // φ(1) = 1 − e^{c} with c the f64 ln(1 − 0.2): 0.2 up to the rounding of
    // 1 − 0.2 and of ln in f64 (a few 10^-17), so T lies within 2^11 of
    // floor(0.2·2^64) = 3689348814741910323, and is exactly the floor of the
    // exact rule's φ·2^64 (the Python reference and the exact decisions
    // below agree on it).
    let t = target(1, 1, 0.2).unwrap();
    assert_eq!(t, 3_689_348_814_741_909_638);
    assert!(t.abs_diff(3_689_348_814_741_910_323) < 1 << 11);
    assert_eq!(target(u64::MAX, u64::MAX, 0.2).unwrap(), t);
    // T/2^64 < φ ≤ (T+1)/2^64, decided by the native lottery's exact rule.
    assert!(is_lottery_won(0.2, &threshold(t), 1, 1).unwrap());
    assert!(!is_lottery_won(0.2, &threshold(t + 1), 1, 1).unwrap());
}

/// `ev = T·2^448` as the native lottery's 64 little-endian bytes.
fn threshold(t: u64) -> [u8; 64] {
    let mut ev = [0u8; 64];
    ev[56..].copy_from_slice(&t.to_le_bytes());
    ev
}

#[test]
fn quantisation_moves_each_win_probability_by_less_than_2_pow_minus_64() {
    let q = q();
    let two64 = BigUint::from(1u8) << 64u8;
    // Item 2 (extraction): 0 < B·2^64 − T·q < 2^64, i.e. T/2^64 < B/q < T/2^64 + 1/q,
    // and B is the first losing ev.
    let mut ts: Vec<u64> = vec![1, 2, 3, 1 << 32, 1 << 63, u64::MAX - 1, u64::MAX];
    ts.extend((1..40u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    for &t in &ts {
        let b: BigUint = bound(t).into();
        let gap = &b * &two64 - &q * t;
        assert!(gap > BigUint::zero() && gap < two64, "T = {t}");
        assert!(top64(Fq::from(&b - 1u8)) < t);
        assert!(top64(Fq::from(b.clone())) >= t);
        assert!(b < q);
    }
    // Each 64-bit value has ⌊q/2^64⌋ or ⌈q/2^64⌉ preimages in [0, q).
    let (lo, hi) = (&q / &two64, &q / &two64 + 1u8);
    for v in [0u64, 1, 2, 1 << 40, 1 << 63, u64::MAX - 1, u64::MAX] {
        let start = (&q * v + &two64 - 1u8) / &two64;
        let end = (&q * (u128::from(v) + 1) + &two64 - 1u8) / &two64;
        let count = end - start;
        assert!(count == lo || count == hi, "v = {v}");
    }
    // 1/q < 2^-380.
    assert!(q > BigUint::from(1u8) << 380u16);
    // Item 1 (target) and the total, for real targets: T/2^64 < φ < (T+1)/2^64
    // by the exact rule, and B/q is within 2^-64 of φ (numerically, in f64, too).
    for (s, total, phi_f) in
        [(1u64, 1u64, 0.2f64), (1, 3, 0.2), (123_456, 1_000_000_000, 0.2), (7, 10, 0.05), (5, 7, 0.8)]
    {
        let t = target(s, total, phi_f).unwrap();
        assert!(is_lottery_won(phi_f, &threshold(t), s, total).unwrap());
        assert!(t == u64::MAX || !is_lottery_won(phi_f, &threshold(t + 1), s, total).unwrap());
        let b: BigUint = bound(t).into();
        let p_win = ratio(&b, &q);
        let phi = 1.0 - (1.0 - phi_f).powf(s as f64 / total as f64);
        assert!((p_win - phi).abs() < 1e-15, "{s}/{total}: {p_win} vs {phi}");
    }
}

fn ratio(a: &BigUint, b: &BigUint) -> f64 {
    // a/b for a < b, from their top bits.
    let shift = b.bits().saturating_sub(100);
    (a >> shift).to_f64().unwrap() / (b >> shift).to_f64().unwrap()
}

#[test]
fn wins_is_the_comparison_with_the_bound() {
    let q = q();
    for t in [1u64, 77, 1 << 40, 3_689_348_814_741_909_638, u64::MAX] {
        let b: BigUint = bound(t).into();
        let mut evs: Vec<BigUint> = vec![BigUint::zero(), &b - 1u8, b.clone(), &b + 1u8, &q - 1u8];
        evs.extend((0..50u64).map(|j| ev(Fq::from(t), Fq::from(j), j).into()));
        for e in evs {
            let wins_by_bound = e < b;
            assert_eq!(wins(Fq::from(e.clone()), t), wins_by_bound, "T = {t}, ev = {e}");
        }
    }
}

#[test]
fn win_rate_matches_phi() {
    // w = 1/2 and 1/10 at phi_f = 0.2: φ = 1 − 0.8^w; the number of wins over
    // m indices is Binomial(m, φ) up to 2^-64; accept 4.5 standard deviations.
    let x = sigma_x(&Signature::from_bytes(&unhex(vectors()["sigma_x"][2]["compressed"].as_str().unwrap())).unwrap());
    for (s, total, seed) in [(1u64, 2u64, &b"rate a"[..]), (1, 10, &b"rate b"[..])] {
        let m = 4000u64;
        let t = target(s, total, 0.2).unwrap();
        let won = SignerLottery::new(prefix(seed), x, t).won_indices(m).len() as f64;
        let phi = 1.0 - 0.8f64.powf(s as f64 / total as f64);
        let (mean, sd) = (m as f64 * phi, (m as f64 * phi * (1.0 - phi)).sqrt());
        assert!((won - mean).abs() < 4.5 * sd, "{s}/{total}: {won} wins, expected {mean} ± {sd}");
    }
}

#[test]
fn ev_depends_on_index_sigma_and_prefix() {
    let (p, x) = (prefix(b"msg"), Fq::from(0xdead_beefu32));
    let e = ev(p, x, 5);
    assert_eq!(e, ev(p, x, 5));
    assert_ne!(e, ev(p, x, 6));
    assert_ne!(e, ev(p, x, 5 + (1 << 32)));
    assert_ne!(e, ev(p, x + Fq::from(1u8), 5));
    assert_ne!(e, ev(prefix(b"msh"), x, 5));
    // The prefix and x(σ) cells are not interchangeable.
    assert_ne!(e, ev(x, p, 5));
    // The messages hash apart even when one is a prefix of the other.
    assert_ne!(prefix(b"msg"), prefix(b"msg\0"));
}

#[test]
fn unquantisable_inputs_are_refused() {
    assert!(matches!(target(1, 2, 1.0), Err(MithrilError::PhiFUnquantisable(_))));
    assert!(matches!(target(1, 2, 0.9), Err(MithrilError::PhiFUnquantisable(_))));
    assert!(target(1, 2, 0.86).is_ok());
    for phi_f in [0.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
        assert!(matches!(target(1, 2, phi_f), Err(MithrilError::PhiFOutOfRange(_))), "{phi_f}");
    }
    assert!(matches!(target(1, 0, 0.2), Err(MithrilError::ZeroTotalStake)));
    assert!(matches!(target(3, 2, 0.2), Err(MithrilError::StakeAboveTotal { .. })));
}
