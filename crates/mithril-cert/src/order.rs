//! Hidden won indices, strictly increasing and below `m`, as PIOP
//! constraints over the 66-row blocks (one index per block).
//!
//! | column | kind | meaning |
//! |---|---|---|
//! | `J` | witness | the block's index `j_b`, constant on rows 0-65 |
//! | `R` | witness | `j_b` accumulated bit by bit on rows 0-63 (`R = j_b` on row 64) |
//! | `G` | witness | the gap `g_b` accumulated the same way, copied to row 65 |
//! | `keep, step, first, end, bnd` | periodic | rows 0-64; 0-63; 0; 64; 65 |
//! | `not_last` | domain | `X − ω^(N−1)`: zero only on the domain's last row |
//! | `last` | domain | `L_{N−1}(X)` |
//! | `m` | public constant | the number of lottery indices |
//!
//! Constraints:
//! 1. `keep·(J' − J) = 0`: `J` is constant over the block.
//! 2. `first·R = 0`, `step·b(b − 1) = 0` with `b = R' − 2R`, `end·(R − J) = 0`:
//!    `j_b ∈ [0, 2^64)`.
//! 3. `first·G = 0`, `step·b(b − 1) = 0` with `b = G' − 2G`, `end·(G' − G) = 0`:
//!    `g_b ∈ [0, 2^64)`, on rows 64 and 65.
//! 4. `not_last·bnd·(J' − J − 1 − G) = 0`: on row 65 of every block but the
//!    last, `j_{b+1} = j_b + 1 + g_b`.
//! 5. `last·(J + G + 1 − m) = 0`: on the domain's last row (row 65 of the
//!    last block), `j_{k−1} + 1 + g_{k−1} = m`.
//!
//! Soundness: every term of 4 and 5 is an integer below `2^66 ≪ q`, so they
//! hold over the integers: `j_{b+1} > j_b` for every `b`, and
//! `j_{k−1} = m − 1 − g_{k−1} ≤ m − 1`, with `j_0 ≥ 0` from 2. So the `k`
//! indices are distinct and all below `m`. Degree at most 3. With
//! `j < 2^64`, the Poseidon capacity cell `TAG·2^64 + j` encodes `j`
//! uniquely; [`crate::lottery`] binds the Poseidon capacity cell to `J`.

use ark_ff::{AdditiveGroup, Field};
use sigagg_bls_cert::domain::Domain;

use crate::periodic::Periodic;
use crate::poseidon::BLOCK;
use crate::{F, McertError};

/// Witness columns: `J, R, G`.
pub const WITNESS_COLUMNS: usize = 3;
/// Periodic columns: `keep, step, first, end, bnd`.
pub const PERIODIC_COLUMNS: usize = 5;
/// Domain and public columns: `not_last, last, m`.
pub const KNOWN_COLUMNS: usize = 3;
/// All columns.
pub const ALL_COLUMNS: usize = WITNESS_COLUMNS + PERIODIC_COLUMNS + KNOWN_COLUMNS;
/// Number of constraints.
pub const CONSTRAINTS: usize = 9;

const END_ROW: usize = 64;

/// The periodic columns `keep, step, first, end, bnd`.
pub fn periodic_columns() -> [Periodic; PERIODIC_COLUMNS] {
    let col = |f: &dyn Fn(usize) -> bool| match Periodic::new((0..BLOCK).map(|r| F::from(f(r))).collect()) {
        Ok(p) => p,
        Err(e) => unreachable!("BLOCK > 0: {e}"),
    };
    [
        col(&|r| r <= END_ROW),
        col(&|r| r < END_ROW),
        col(&|r| r == 0),
        col(&|r| r == END_ROW),
        col(&|r| r == END_ROW + 1),
    ]
}

/// The constraints at one row.
pub fn constraints(cur: &[F], next: &[F]) -> [F; CONSTRAINTS] {
    let (j, r, g) = (cur[0], cur[1], cur[2]);
    let p = &cur[WITNESS_COLUMNS..];
    let (keep, step, first, end, bnd) = (p[0], p[1], p[2], p[3], p[4]);
    let k = &cur[WITNESS_COLUMNS + PERIODIC_COLUMNS..];
    let (not_last, last, m) = (k[0], k[1], k[2]);
    let bit = |b: F| b * (b - F::ONE);
    [
        keep * (next[0] - j),
        first * r,
        step * bit(next[1] - r.double()),
        end * (r - j),
        first * g,
        step * bit(next[2] - g.double()),
        end * (next[2] - g),
        not_last * bnd * (next[0] - j - F::ONE - g),
        last * (j + g + F::ONE - m),
    ]
}

/// `Σ α_k C_k`.
pub fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
    constraints(cur, next).iter().zip(alphas).map(|(c, a)| *c * a).sum()
}

/// The columns for indices `js` and gaps `gaps` as given (the tests force
/// inconsistent ones); one per block.
pub fn columns_from(domain: &Domain, m: u64, js: &[u64], gaps: &[u64]) -> Result<Vec<Vec<F>>, McertError> {
    let n = domain.size();
    let blocks = n / BLOCK;
    if !n.is_multiple_of(BLOCK) || js.len() != blocks || gaps.len() != blocks {
        return Err(McertError::BlockCount { given: js.len(), blocks });
    }
    let mut values = vec![vec![F::ZERO; n]; ALL_COLUMNS];
    for (k, p) in periodic_columns().iter().enumerate() {
        values[WITNESS_COLUMNS + k] = p.column(domain)?;
    }
    for (b, (j, g)) in js.iter().zip(gaps).enumerate() {
        for r in 0..BLOCK {
            let i = b * BLOCK + r;
            values[0][i] = F::from(*j);
            let bits = r.min(END_ROW);
            let top = |x: u64| if bits == 0 { 0 } else { x >> (64 - bits) };
            values[1][i] = F::from(top(*j));
            values[2][i] = F::from(top(*g));
        }
    }
    let k = WITNESS_COLUMNS + PERIODIC_COLUMNS;
    let last = domain.last_element();
    for (i, v) in values[k].iter_mut().enumerate() {
        *v = domain.element(i) - last;
    }
    values[k + 1][n - 1] = F::ONE;
    values[k + 2] = vec![F::from(m); n];
    Ok(values)
}

/// The honest columns: refuses indices that are not strictly increasing
/// and below `m`.
pub fn honest_columns(domain: &Domain, m: u64, js: &[u64]) -> Result<Vec<Vec<F>>, McertError> {
    let mut gaps = Vec::with_capacity(js.len());
    for (b, j) in js.iter().enumerate() {
        let next = js.get(b + 1).copied().unwrap_or(m);
        if *j >= next {
            return Err(McertError::BadIndices { block: b });
        }
        gaps.push(next - j - 1);
    }
    columns_from(domain, m, js, &gaps)
}

/// The verifier's non-witness columns at `z ∉ H`.
pub fn verifier_columns_at(domain: &Domain, m: u64, z: F) -> Result<Vec<F>, McertError> {
    let at = domain.evaluate_at(z).ok_or(McertError::PointInDomain)?;
    let mut out = Vec::with_capacity(PERIODIC_COLUMNS + KNOWN_COLUMNS);
    for p in periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    out.extend([at.not_last, at.last_lagrange, F::from(m)]);
    Ok(out)
}

/// Every constraint on every row of `H`.
pub fn check_on_domain(values: &[Vec<F>]) -> Result<(), McertError> {
    crate::quotient::check_rows(values, ALL_COLUMNS, constraints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quotient::{check_identity, quotient};
    use ark_ff::UniformRand;
    use ark_std::test_rng;

    fn run(values: &[Vec<F>], m: u64) -> Result<(), McertError> {
        let rng = &mut test_rng();
        let domain = Domain::new(values[0].len()).unwrap();
        let alphas: Vec<F> = (0..CONSTRAINTS).map(|_| F::rand(rng)).collect();
        let zeta = F::rand(rng);
        let q = quotient(&domain, values, |cur, next| combined(cur, next, &alphas))?;
        let (mut cur, next) = q.columns_at(&domain, zeta);
        cur.truncate(WITNESS_COLUMNS);
        cur.extend(verifier_columns_at(&domain, m, zeta)?);
        check_identity(&domain, zeta, combined(&cur, &next, &alphas), q.at(&domain, zeta))
    }

    fn domain() -> Domain {
        Domain::new(3 * BLOCK).unwrap()
    }

    #[test]
    fn increasing_indices_below_m_pass() {
        for (m, js) in [(4096u64, [0u64, 7, 4095]), (3, [0, 1, 2]), (1 << 40, [5, 1 << 33, (1 << 40) - 2])] {
            let values = honest_columns(&domain(), m, &js).unwrap();
            check_on_domain(&values).unwrap();
            run(&values, m).unwrap();
        }
    }

    #[test]
    fn the_prover_refuses_bad_indices() {
        assert_eq!(honest_columns(&domain(), 4096, &[3, 3, 9]), Err(McertError::BadIndices { block: 0 }));
        assert_eq!(honest_columns(&domain(), 4096, &[3, 9, 4]), Err(McertError::BadIndices { block: 1 }));
        assert_eq!(honest_columns(&domain(), 4096, &[3, 9, 4096]), Err(McertError::BadIndices { block: 2 }));
    }

    #[test]
    fn forced_bad_indices_fail() {
        let d = domain();
        let chain = 7; // not_last·bnd·(J' − J − 1 − G)
        // A repeated index: no 64-bit gap closes the chain.
        let values = columns_from(&d, 4096, &[3, 3, 9], &[0, 5, 4086]).unwrap();
        assert_eq!(check_on_domain(&values), Err(McertError::Unsatisfied { row: BLOCK - 1, constraint: chain }));
        assert_eq!(run(&values, 4096), Err(McertError::QuotientIdentity));
        // The last index at m.
        let values = columns_from(&d, 4096, &[3, 9, 4096], &[5, 4086, 0]).unwrap();
        assert_eq!(check_on_domain(&values), Err(McertError::Unsatisfied { row: 3 * BLOCK - 1, constraint: 8 }));
        assert_eq!(run(&values, 4096), Err(McertError::QuotientIdentity));
        // A "negative" gap (q − 1) written into G directly: not a sum of bits.
        let mut values = honest_columns(&d, 4096, &[3, 9, 20]).unwrap();
        values[2][BLOCK + END_ROW] = -F::ONE;
        values[2][BLOCK + END_ROW + 1] = -F::ONE;
        assert!(check_on_domain(&values).is_err());
        assert_eq!(run(&values, 4096), Err(McertError::QuotientIdentity));
        // J changing inside a block.
        let mut values = honest_columns(&d, 4096, &[3, 9, 20]).unwrap();
        values[0][BLOCK + 30] += F::ONE;
        assert_eq!(check_on_domain(&values), Err(McertError::Unsatisfied { row: BLOCK + 29, constraint: 0 }));
        assert_eq!(run(&values, 4096), Err(McertError::QuotientIdentity));
        // Another m in the statement.
        let values = honest_columns(&d, 4096, &[3, 9, 20]).unwrap();
        assert_eq!(run(&values, 4095), Err(McertError::QuotientIdentity));
    }
}
