//! The lottery: agreement with mithril-stm 0.13.0 on hash-derived values
//! over many stakes and `phi_f`, and the boundary decided against an
//! independent high-precision threshold.

mod common;

use common::World;
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use sigagg_mithril::lottery::{Lottery, is_lottery_won};
use sigagg_mithril::{MithrilError, Parameters};

#[test]
fn lottery_agrees_with_mithril_stm_on_many_values() {
    // (phi_f, stakes): small and large shares, huge totals, zero stake,
    // phi_f from tiny to 1, including the region x >= 2 where mithril-stm's
    // early stop can differ from the exact comparison.
    let cases: Vec<(f64, Vec<u64>)> = vec![
        (0.2, vec![1, 2, 3, 1000, 123_456]),
        (0.2, vec![0, 1, u64::MAX / 4, u64::MAX / 3]),
        (0.05, vec![7, 7_000_000, 1]),
        (0.5, vec![1, 1]),
        (0.8, vec![5, 995]),
        (0.9, vec![1, 99]),
        (0.95, vec![1_000_000]),
        (0.99, vec![3, 1 << 50]),
        (0.999_999, vec![1, 2, 3]),
        (1e-9, vec![1, 10]),
        (1e-300, vec![1]),
        (1.0, vec![0, 1]),
        (1.0 - 1e-16, vec![0, 4]),
    ];
    let mut evaluations = 0u64;
    for (seed, (phi_f, stakes)) in cases.into_iter().enumerate() {
        let params = Parameters { m: 1500, k: 1, phi_f };
        let w = World::new(100 + seed as u64, params, &stakes);
        // Signing runs the lottery on every j < m; both sides must claim the same indices.
        let (ours, theirs) = w.sign_all(b"lottery cross-check");
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a.indexes, b.get_concatenation_signature_indices(), "phi_f {phi_f}, signer {}", a.signer_index);
        }
        evaluations += params.m * stakes.len() as u64;
    }
    assert!(evaluations > 40_000);
}

#[test]
fn phi_f_edge_cases_match_mithril_stm() {
    // Out of range: neither side can sign.
    for phi_f in [0.0, -0.1, 1.5, 1.0 + f64::EPSILON, f64::NAN, f64::INFINITY] {
        let w = World::new(200, Parameters { m: 20, k: 1, phi_f }, &[1, 2]);
        assert!(w.signer(0).sign(b"m").is_err());
        assert!(w.their_signer(0).create_single_signature(b"m").is_err(), "phi_f {phi_f}");
        assert!(matches!(Lottery::new(phi_f, 1, 2), Err(MithrilError::PhiFOutOfRange(_))));
    }
    // phi_f within f64::EPSILON of 1 wins every index, even with stake 0.
    for phi_f in [1.0, 1.0 - 1e-16] {
        assert!(is_lottery_won(phi_f, &[0xff; 64], 0, 10).unwrap());
        let w = World::new(201, Parameters { m: 20, k: 1, phi_f }, &[0, 3]);
        let (ours, theirs) = w.sign_all(b"m");
        assert_eq!(ours.len(), 2);
        assert!(ours.iter().all(|s| s.indexes == (0..20).collect::<Vec<u64>>()));
        assert_eq!(theirs[0].get_concatenation_signature_indices(), ours[0].indexes);
    }
    // Stake 0 never wins otherwise; a zero total is an error.
    assert!(!is_lottery_won(0.9, &[0; 64], 0, 10).unwrap());
    assert_eq!(is_lottery_won(0.2, &[0; 64], 0, 0), Err(MithrilError::ZeroTotalStake));
    // ev = 0 wins for any positive stake, ev = 2^512 - 1 never (below phi_f = 1).
    assert!(is_lottery_won(0.2, &[0; 64], 1, u64::MAX).unwrap());
    assert!(!is_lottery_won(0.999_999, &[0xff; 64], 10, 10).unwrap());
}

/// `floor(2^512 · (1 − e^{−x}))` and its fractional part in units of 2^-900, with `x = −(stake/total)·ln(1 − phi_f)`
/// (the f64 logarithm, as mithril-stm takes it), from the alternating series of
/// `e^{−x}` in fixed point with 900 fractional bits: independent of the Taylor
/// bounds under test.
fn threshold(phi_f: f64, stake: u64, total: u64) -> (BigInt, BigInt) {
    let c = BigRational::from_float((1.0 - phi_f).ln()).unwrap();
    let x = -(BigRational::new(BigInt::from(stake), BigInt::from(total)) * c);
    let (xn, xd) = (x.numer().clone(), x.denom().clone());
    let p = 900u32;
    let one = BigInt::one() << p;
    let mut term = one.clone();
    let mut sum = one.clone();
    let mut n = 1u64;
    while !term.is_zero() {
        term = -(&term * &xn) / (&xd * BigInt::from(n));
        sum += &term;
        n += 1;
    }
    // 2^512 (1 - e^-x) in fixed point, and its floor.
    let scaled = ((&one - &sum) << 512u32) >> p;
    let frac = ((&one - &sum) << 512u32) - (&scaled << p);
    assert!(frac.sign() != Sign::Minus && frac < one);
    (scaled, frac)
}

fn le64(v: &BigInt) -> [u8; 64] {
    let (_, bytes) = v.to_bytes_le();
    let mut out = [0u8; 64];
    out[..bytes.len()].copy_from_slice(&bytes);
    out
}

#[test]
fn boundary_is_strict_and_exact() {
    // Mainnet phi_f and others with x < 2, where the Taylor rule is exact:
    // ev = floor(T) wins, ev = floor(T) + 1 loses, T = 2^512 (1 - (1 - phi_f)^w).
    let cases = [
        (0.2, 1, 1),
        (0.2, 1, 3),
        (0.2, 123_456_789, 45_000_000_000_000_000),
        (0.2, u64::MAX - 1, u64::MAX),
        (0.5, 1, 2),
        (0.65, 17, 19),
        (0.8, 1, 1),
        (0.86, 1, 1),
        (1e-6, 1, 1 << 40),
    ];
    for (phi_f, stake, total) in cases {
        let (t, frac) = threshold(phi_f, stake, total);
        // T is irrational: its fractional part is far from 0 and 1 at this precision.
        assert!(frac.bits() > 300 && ((BigInt::one() << 900u32) - &frac).bits() > 300, "T too close to an integer");
        let below = le64(&t);
        let above = le64(&(&t + 1));
        assert!(is_lottery_won(phi_f, &below, stake, total).unwrap(), "floor(T) wins: {phi_f} {stake}/{total}");
        assert!(!is_lottery_won(phi_f, &above, stake, total).unwrap(), "floor(T)+1 loses: {phi_f} {stake}/{total}");
        let mut lottery = Lottery::new(phi_f, stake, total).unwrap();
        // The cached bounds give the same answers, in any order.
        assert!(!lottery.wins(&above));
        assert!(lottery.wins(&below));
        assert!(!lottery.wins(&le64(&(&t + 1000))));
        assert!(lottery.wins(&le64(&(&t - 1000))));
    }
}

#[test]
fn early_stop_of_mithril_stm_is_reproduced_for_large_x() {
    // phi_f = 0.95 and the whole stake: x = -ln(0.05) ~ 2.996. mithril-stm's
    // first step compares q = 1/(1 - p) with 1 + x + 1.5 x^2 ~ 17.46 and stops
    // with a loss for q above it, though the exact rule (q < e^x = 20) would
    // let p up to 0.95 win. Values p in (1 - 1/17.46, 0.95) therefore lose here,
    // as there.
    let phi_f = 0.95;
    let (t, _) = threshold(phi_f, 1, 1);
    let two512 = BigInt::one() << 512u32;
    let p_0945 = &two512 * BigInt::from(945) / BigInt::from(1000);
    assert!(p_0945 < t, "0.945 is below the exact threshold 0.95");
    assert!(!is_lottery_won(phi_f, &le64(&p_0945), 1, 1).unwrap(), "mithril-stm's early stop: a loss");
    // Below 1 - 1/(1 + x + 1.5x^2) ~ 0.9427 the series decides exactly: a win.
    let p_094 = &two512 * BigInt::from(94) / BigInt::from(100);
    assert!(is_lottery_won(phi_f, &le64(&p_094), 1, 1).unwrap());
    assert!(t.to_f64().unwrap() / two512.to_f64().unwrap() > 0.949);
}
