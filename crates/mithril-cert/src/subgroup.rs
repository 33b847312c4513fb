//! The test `σ ∈ G1` as PIOP constraints: Scott's endomorphism test with
//! two double-and-add ladders and incomplete affine formulas.
//!
//! BLS12-381's curve `E: y² = x³ + 4` over `F_q` has `#E(F_q) = h·r` with
//! the cofactor `h = (u − 1)²/3` odd and `r` the prime order of G1. The
//! endomorphism `φ(x, y) = (βx, y)` (`β` a cube root of unity) acts on G1 as
//! multiplication by a cube root of unity mod `r`, and `−u²` is one
//! (`r = u⁴ − u² + 1`). Scott (eprint 2021/1130; the section was not rechecked here) shows for BLS12-381
//! that a point `P ∈ E(F_q)` lies in G1 **iff** `[u²]P = −φ(P)` for the
//! matching `β` ([`beta`] picks it on the generator; the tests also check
//! points with a component of order 3 and points off the subgroup fail).
//!
//! ## Layout: one 66-row block per point
//! `|u| = 0xd201000000010000` has 64 bits, the top one set. Lane 1 computes
//! `R1 = [|u|]σ`, lane 2 `R2 = [|u|]R1 = [u²]σ`, both in rows 0-63: row 0
//! holds the base (the top bit), each row `r < 63` doubles and, if bit
//! `62 − r` of `|u|` is set (periodic flag `f`), adds the base.
//!
//! | column | kind | meaning |
//! |---|---|---|
//! | `σx, σy` | witness, constant on rows 0-63 | the point tested |
//! | `Bx, By` | witness, constant on rows 0-63 | lane 2's base, `= R1` on row 63 |
//! | per lane `Rx, Ry` | witness | the accumulator |
//! | per lane `λd` | witness | the doubling's slope on row `r` |
//! | per lane `λa`, `ι` | witness | the addition's slope and `1/(D_x − P_x)` |
//! | `step, f, first, last` | periodic | rows 0-62; `f` on rows whose bit is set; row 0; row 63 |
//! | `px, py` | public (sparse) | the point on row 0 |
//!
//! ## Constraints (per lane, with base `P` and `D = 2R` written out:
//! `Dx = λd² − 2Rx`, `Dy = λd(Rx − Dx) − Ry`)
//! 1. `first·(R − P) = 0` (two coordinates): the ladder starts at the base.
//! 2. `step·(2Ry·λd − 3Rx²) = 0`: `λd` is the tangent's slope. Exceptional
//!    only for `Ry = 0`, a point of order 2; `#E(F_q)` is odd, so there is
//!    none and `λd` is unique; `D` is then exactly `2R`, never the identity.
//! 3. `f·(ι·(Dx − Px) − 1) = 0`: **`Dx ≠ Px`** on every row that adds, so
//!    `D ≠ ±P` and the chord formula below is exact and affine (without
//!    this, `Dx = Px, Dy = Py` would leave the result free).
//! 4. `f·(λa·(Dx − Px) − (Dy − Py)) = 0`: the chord's slope, unique by 3.
//! 5. `step·Rx' − f·(λa² − Dx − Px) − (step − f)·Dx = 0` and
//!    `step·Ry' − f·(λa·(Dx − Rx') − Dy) − (step − f)·Dy = 0`:
//!    `R' = D + P` where the bit is set, `R' = D` elsewhere.
//!
//! Shared:
//! 6. `first·(σy² − σx³ − 4) = 0`: σ is on the curve (then every ladder point
//!    is, as an exact group operation's result).
//! 7. `step·(σ' − σ) = 0`, `step·(B' − B) = 0`: bases constant on rows 0-63.
//! 8. `last·(B − R1) = 0`: lane 2's base is lane 1's result.
//! 9. `last·(R2x − β·σx) = 0`, `last·(R2y + σy) = 0`: `[u²]σ = −φ(σ)`.
//! 10. `first·σ − p = 0`: σ is the public point (in the certificate, the
//!     block's σ columns instead).
//!
//! Soundness: by 1-5 each lane's row 63 is exactly `[|u|]` times its base
//! in `E(F_q)`, whatever the base (no exceptional case is reachable: 2 and 3
//! exclude them, and a prover who meets one cannot satisfy 3); by 6-9,
//! `[u²]σ = −φ(σ)` for an on-curve σ, so σ ∈ G1 by Scott's theorem.
//! Completeness: for σ ∈ G1 \ {0}, `D = ±P` would mean `[a ± 1]P = 0` for a
//! partial multiple `a < 2^64`, impossible below `r`. Degree at most 4.
//! Proven with KZG in [`crate::kzg::SubgroupBatch`].

use std::sync::OnceLock;

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, FftField, Field};
use sigagg_bls_cert::domain::Domain;

use crate::periodic::{Periodic, sparse_column_at};
use crate::poseidon::BLOCK;
use crate::{F, McertError};

/// `|u|` for BLS12-381 (`u = −0xd201000000010000`).
pub const U_ABS: u64 = 0xd201_0000_0001_0000;
/// Ladder steps per lane: the bits below the top one.
pub const STEPS: usize = 63;
/// The row holding the lanes' results.
pub const LAST_ROW: usize = STEPS;

/// Witness columns: `σx, σy, Bx, By`, then per lane `Rx, Ry, λd, λa, ι`.
pub const WITNESS_COLUMNS: usize = 4 + 2 * LANE;
const LANE: usize = 5;
/// Periodic columns: `step, f, first, last`.
pub const PERIODIC_COLUMNS: usize = 4;
/// Public columns: `px, py`.
pub const PUBLIC_COLUMNS: usize = 2;
/// All columns.
pub const ALL_COLUMNS: usize = WITNESS_COLUMNS + PERIODIC_COLUMNS + PUBLIC_COLUMNS;
/// Constraints: 7 per lane, on-curve, 4 constancy, 2 base binding, 2 final, 2 public.
pub const CONSTRAINTS: usize = 2 * 7 + 1 + 4 + 2 + 2 + 2;

/// The cube root of unity `β` with `[u²]G = (β·Gx, −Gy)` on G1's
/// generator `G`; computed once.
pub fn beta() -> F {
    static BETA: OnceLock<F> = OnceLock::new();
    *BETA.get_or_init(|| {
        let g = ark_bls12_381::G1Affine::generator();
        let u2 = u128::from(U_ABS) * u128::from(U_ABS);
        let target = g.mul_bigint([u2 as u64, (u2 >> 64) as u64]).into_affine();
        let root = F::GENERATOR.pow(cube_root_exponent());
        let (gx, tx) = (g.x().unwrap_or(F::ZERO), target.x().unwrap_or(F::ZERO));
        if root * gx == tx { root } else { root.square() }
    })
}

/// `(q − 1)/3` as little-endian limbs.
fn cube_root_exponent() -> [u64; 6] {
    use ark_ff::{BigInteger, PrimeField};
    let mut e = F::MODULUS;
    e.sub_with_borrow(&1u64.into());
    // Divide the 384-bit integer by 3, limb by limb from the top.
    let mut rem = 0u128;
    for limb in e.0.iter_mut().rev() {
        let cur = (rem << 64) | u128::from(*limb);
        *limb = (cur / 3) as u64;
        rem = cur % 3;
    }
    debug_assert_eq!(rem, 0);
    e.0
}

/// The periodic columns `step, f, first, last`.
pub fn periodic_columns() -> [Periodic; PERIODIC_COLUMNS] {
    let col = |f: &dyn Fn(usize) -> bool| match Periodic::new((0..BLOCK).map(|r| F::from(f(r))).collect()) {
        Ok(p) => p,
        Err(e) => unreachable!("BLOCK > 0: {e}"),
    };
    [
        col(&|r| r < STEPS),
        col(&|r| r < STEPS && (U_ABS >> (STEPS - 1 - r)) & 1 == 1),
        col(&|r| r == 0),
        col(&|r| r == LAST_ROW),
    ]
}

/// The constraints at one row (`cur`: [`ALL_COLUMNS`] values; `next`: at
/// least the witness columns).
pub fn constraints(cur: &[F], next: &[F]) -> [F; CONSTRAINTS] {
    let w = WITNESS_COLUMNS;
    let (step, f, first, last) = (cur[w], cur[w + 1], cur[w + 2], cur[w + 3]);
    let (px, py) = (cur[w + PERIODIC_COLUMNS], cur[w + PERIODIC_COLUMNS + 1]);
    let (sx, sy, bx, by) = (cur[0], cur[1], cur[2], cur[3]);
    let mut out = Vec::with_capacity(CONSTRAINTS);
    let three = F::from(3u64);
    for (lane, (base_x, base_y)) in [(sx, sy), (bx, by)].into_iter().enumerate() {
        let o = 4 + lane * LANE;
        let (rx, ry, ld, la, inv) = (cur[o], cur[o + 1], cur[o + 2], cur[o + 3], cur[o + 4]);
        let (nx, ny) = (next[o], next[o + 1]);
        let dx = ld.square() - rx.double();
        let dy = ld * (rx - dx) - ry;
        out.push(first * (rx - base_x));
        out.push(first * (ry - base_y));
        out.push(step * (ry.double() * ld - three * rx.square()));
        out.push(f * (inv * (dx - base_x) - F::ONE));
        out.push(f * (la * (dx - base_x) - (dy - base_y)));
        out.push(step * nx - f * (la.square() - dx - base_x) - (step - f) * dx);
        out.push(step * ny - f * (la * (dx - nx) - dy) - (step - f) * dy);
    }
    out.push(first * (sy.square() - sx.square() * sx - F::from(4u64)));
    out.extend([step * (next[0] - sx), step * (next[1] - sy), step * (next[2] - bx), step * (next[3] - by)]);
    out.extend([last * (bx - cur[4]), last * (by - cur[5])]);
    let (r2x, r2y) = (cur[4 + LANE], cur[5 + LANE]);
    out.extend([last * (r2x - beta() * sx), last * (r2y + sy)]);
    out.extend([first * sx - px, first * sy - py]);
    std::array::from_fn(|k| out[k])
}

/// `Σ α_k C_k`.
pub fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
    constraints(cur, next).iter().zip(alphas).map(|(c, a)| *c * a).sum()
}

/// An affine point `(x, y)`.
pub type Affine = (F, F);

/// One lane's rows: `(Rx, Ry, λd, λa, ι)` for rows 0-63.
type LaneRows = Vec<[F; LANE]>;

/// One lane's rows and its result.
fn lane(base: Affine) -> Result<(LaneRows, Affine), McertError> {
    let (px, py) = base;
    let (mut rx, mut ry) = base;
    let mut rows = Vec::with_capacity(LAST_ROW + 1);
    for r in 0..STEPS {
        let ld = F::from(3u64) * rx.square() * ry.double().inverse().ok_or(McertError::ExceptionalPoint)?;
        let dx = ld.square() - rx.double();
        let dy = ld * (rx - dx) - ry;
        let (mut la, mut inv) = (F::ZERO, F::ZERO);
        let (nx, ny) = if (U_ABS >> (STEPS - 1 - r)) & 1 == 1 {
            inv = (dx - px).inverse().ok_or(McertError::ExceptionalPoint)?;
            la = (dy - py) * inv;
            let nx = la.square() - dx - px;
            (nx, la * (dx - nx) - dy)
        } else {
            (dx, dy)
        };
        rows.push([rx, ry, ld, la, inv]);
        (rx, ry) = (nx, ny);
    }
    rows.push([rx, ry, F::ZERO, F::ZERO, F::ZERO]);
    Ok((rows, (rx, ry)))
}

/// The columns for one point per block. Any on-curve affine point can be
/// filled (a point outside G1 gives columns that fail the final
/// constraint); refuses a point that meets an exceptional case.
pub fn columns(domain: &Domain, points: &[(F, F)]) -> Result<Vec<Vec<F>>, McertError> {
    let n = domain.size();
    let blocks = n / BLOCK;
    if !n.is_multiple_of(BLOCK) || points.len() != blocks {
        return Err(McertError::BlockCount { given: points.len(), blocks });
    }
    let mut values = vec![vec![F::ZERO; n]; ALL_COLUMNS];
    for (k, p) in periodic_columns().iter().enumerate() {
        values[WITNESS_COLUMNS + k] = p.column(domain)?;
    }
    for (b, sigma) in points.iter().enumerate() {
        let (lane1, r1) = lane(*sigma)?;
        let (lane2, _) = lane(r1)?;
        for r in 0..=LAST_ROW {
            let i = b * BLOCK + r;
            for (k, v) in [sigma.0, sigma.1, r1.0, r1.1].into_iter().enumerate() {
                values[k][i] = v;
            }
            for k in 0..LANE {
                values[4 + k][i] = lane1[r][k];
                values[4 + LANE + k][i] = lane2[r][k];
            }
        }
        values[WITNESS_COLUMNS + PERIODIC_COLUMNS][b * BLOCK] = sigma.0;
        values[WITNESS_COLUMNS + PERIODIC_COLUMNS + 1][b * BLOCK] = sigma.1;
    }
    Ok(values)
}

/// Every constraint on every row of `H`.
pub fn check_on_domain(values: &[Vec<F>]) -> Result<(), McertError> {
    crate::quotient::check_rows(values, ALL_COLUMNS, constraints)
}

/// The verifier's values of the periodic and public columns at `z`.
pub fn verifier_columns_at(domain: &Domain, points: &[(F, F)], z: F) -> Result<Vec<F>, McertError> {
    let mut out = Vec::with_capacity(PERIODIC_COLUMNS + PUBLIC_COLUMNS);
    for p in periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    let xs: Vec<(usize, F)> = points.iter().enumerate().map(|(b, p)| (b * BLOCK, p.0)).collect();
    let ys: Vec<(usize, F)> = points.iter().enumerate().map(|(b, p)| (b * BLOCK, p.1)).collect();
    out.push(sparse_column_at(domain, &xs, z)?);
    out.push(sparse_column_at(domain, &ys, z)?);
    Ok(out)
}

/// Test helpers shared with other modules' tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use ark_bls12_381::{Fr, G1Affine, G1Projective};
    use ark_ff::{PrimeField, Zero};

    /// A point of order 3 on E(F_q).
    pub(crate) fn order_three() -> G1Projective {
        let mut x = F::from(1u64);
        loop {
            if let Some(p) = G1Affine::get_point_from_x_unchecked(x, true) {
                let h: u128 = (0x396c_8c00_5555_e156u128 << 64) | 0x8c00_aaab_0000_aaab;
                let t = p.mul_bigint(Fr::MODULUS).into_affine().mul_bigint([(h / 3) as u64, ((h / 3) >> 64) as u64]);
                if !t.is_zero() {
                    assert!((t + t + t).is_zero());
                    return t;
                }
            }
            x += F::ONE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quotient::{check_identity, quotient};
    use ark_bls12_381::{Fr, G1Affine, G1Projective};
    use ark_ec::PrimeGroup;
    use ark_ff::UniformRand;
    use ark_std::test_rng;

    fn xy(p: G1Projective) -> (F, F) {
        let a = p.into_affine();
        (a.x().unwrap(), a.y().unwrap())
    }

    fn in_g1(count: usize) -> Vec<(F, F)> {
        let rng = &mut test_rng();
        (0..count).map(|_| xy(G1Projective::generator() * Fr::rand(rng))).collect()
    }

    fn run(values: &[Vec<F>], points: &[(F, F)]) -> Result<(), McertError> {
        let rng = &mut test_rng();
        let domain = Domain::new(BLOCK * points.len()).unwrap();
        let alphas: Vec<F> = (0..CONSTRAINTS).map(|_| F::rand(rng)).collect();
        let zeta = F::rand(rng);
        let q = quotient(&domain, values, |cur, next| combined(cur, next, &alphas))?;
        let (mut cur, next) = q.columns_at(&domain, zeta);
        cur.truncate(WITNESS_COLUMNS);
        cur.extend(verifier_columns_at(&domain, points, zeta)?);
        check_identity(&domain, zeta, combined(&cur, &next, &alphas), q.at(&domain, zeta))
    }

    #[test]
    fn beta_is_a_cube_root_of_unity_matching_minus_u_squared() {
        let b = beta();
        assert_ne!(b, F::ONE);
        assert_eq!(b.square() * b, F::ONE);
        // On another G1 point too.
        let (x, y) = in_g1(1)[0];
        let u2 = u128::from(U_ABS) * u128::from(U_ABS);
        let p = G1Affine::new(x, y);
        assert_eq!(xy(p.mul_bigint([u2 as u64, (u2 >> 64) as u64])), (b * x, -y));
    }

    #[test]
    fn points_of_g1_pass() {
        let points = in_g1(3);
        let values = columns(&Domain::new(3 * BLOCK).unwrap(), &points).unwrap();
        check_on_domain(&values).unwrap();
        run(&values, &points).unwrap();
    }

    #[test]
    fn a_point_with_an_order_three_component_fails() {
        let mut points = in_g1(3);
        let (x, y) = points[1];
        points[1] = xy(G1Affine::new(x, y) + tests_support::order_three());
        let values = columns(&Domain::new(3 * BLOCK).unwrap(), &points).unwrap();
        let final_x = 2 * 7 + 1 + 4 + 2;
        assert_eq!(
            check_on_domain(&values),
            Err(McertError::Unsatisfied { row: BLOCK + LAST_ROW, constraint: final_x })
        );
        assert_eq!(run(&values, &points), Err(McertError::QuotientIdentity));
    }

    #[test]
    fn points_off_the_subgroup_fail() {
        let mut x = F::from(7u64);
        let mut tried = 0;
        while tried < 3 {
            if let Some(p) = G1Affine::get_point_from_x_unchecked(x, false)
                && !p.is_in_correct_subgroup_assuming_on_curve()
            {
                let points = [(p.x, p.y)];
                let values = columns(&Domain::new(BLOCK).unwrap(), &points).unwrap();
                assert!(check_on_domain(&values).is_err());
                assert_eq!(run(&values, &points), Err(McertError::QuotientIdentity));
                tried += 1;
            }
            x += F::ONE;
        }
    }

    #[test]
    fn forged_ladders_fail() {
        let points = in_g1(1);
        let domain = Domain::new(BLOCK).unwrap();
        let honest = columns(&domain, &points).unwrap();
        // A point off the curve.
        let mut off = points.clone();
        off[0].1 += F::ONE;
        let values = columns(&domain, &off).unwrap_or_else(|_| honest.clone());
        assert!(check_on_domain(&values).is_err());
        assert!(run(&values, &off).is_err());
        // The doubling slope, an addition slope, the inverse of one added row,
        // the accumulator of lane 2 and lane 2's base.
        let first_add = (0..STEPS).find(|r| (U_ABS >> (STEPS - 1 - r)) & 1 == 1).unwrap();
        for (column, row) in [(6, 5), (7, first_add), (8, first_add), (4 + LANE, 30), (2, 10)] {
            let mut v = honest.clone();
            v[column][row] += F::ONE;
            assert!(check_on_domain(&v).is_err(), "column {column} row {row}");
            assert_eq!(run(&v, &points), Err(McertError::QuotientIdentity), "column {column} row {row}");
        }
        // Another public point.
        assert_eq!(run(&honest, &in_g1(2)[1..]), Err(McertError::QuotientIdentity));
    }
}
