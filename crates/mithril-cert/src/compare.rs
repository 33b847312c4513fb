//! The lottery comparison `ev < B` as PIOP constraints, by bit-decomposed
//! 64-bit limbs.
//!
//! `ev` is a field element (the Poseidon output) and `B = B(T) = ⌈T·q/2^64⌉`
//! the signer's bound (`sigagg_mithril::snark_lottery::bound`, `B < q`); a
//! field has no order, so the comparison is made on integers written in
//! limbs whose size the constraints bound.
//!
//! ## Layout: the same 66-row blocks as [`crate::poseidon`]
//! | column | kind | rows `r ≤ 64` of a block |
//! |---|---|---|
//! | `L0..L5` | witness | `floor(l_i / 2^(64−r))`: the top `r` bits of `ev`'s limb `l_i` (so `L_i = l_i` on row 64) |
//! | `E0..E5` | witness | the same for the limbs `d_i` of `D = B − 1 − ev` |
//! | `step` | periodic | 1 on rows 0-63 |
//! | `first` | periodic | 1 on row 0 |
//! | `end` | periodic | 1 on row 64 |
//! | `ev` | public (sparse) | the lottery value on row 64, else 0 |
//! | `B0..B5` | public (sparse) | the 64-bit limbs of `B` on row 64, else 0 |
//!
//! Row 65 is spare. In the certificate `ev` is the Poseidon block's `s1` on
//! the same row and `B0..B5` come from the committee by the membership
//! lookup; here they are public sparse columns.
//!
//! ## Constraints (each vanishes on every row of `H`)
//! For each of the twelve accumulators `A` (with `A'` its next row):
//! 1. `first·A = 0`: it starts at 0.
//! 2. `step·b·(b − 1) = 0` with `b = A' − 2A`: on rows 0-63 each step appends
//!    one bit. So on row 64, `A = Σ_{r<64} b_r 2^(63−r) ∈ [0, 2^64)`.
//!
//! Then, on row 64:
//! 3. `end·Σ_i L_i·2^(64i) − ev = 0`: `int = Σ_i l_i 2^(64i)` is an integer in
//!    `[0, 2^384)` congruent to `ev` mod `q`.
//! 4. The subtraction `D = B − 1 − int` with borrows: `t_0 = E_0 − B_0 + L_0 + 1`,
//!    `t_i = E_i − B_i + L_i + t_{i−1}/2^64` (`i = 1..5`);
//!    `end·t_i·(t_i − 2^64) = 0` for `i = 0..4` (the borrow
//!    `c_i = t_i/2^64` is 0 or 1), and `end·t_5 = 0` (no borrow out of the top limb).
//!
//! Soundness: every quantity in 4 is an integer of absolute value below
//! `2^66 ≪ q`, so each field equation `d_i − B_i + l_i + c_{i−1} = c_i·2^64`
//! (`c_{−1} = 1`, `c_5 = 0`) holds over the integers; summed with weights
//! `2^(64i)` they give `Σ d_i 2^(64i) = B − 1 − int ≥ 0`, i.e. `int < B`.
//! With 3, `int ≡ ev (mod q)` and `0 ≤ int < B ≤ q`, so `int` is `ev`'s
//! canonical value: **`ev < B` as integers**, which is the lottery's win
//! condition (`floor(ev·2^64/q) < T ⟺ ev < B(T)`). A non-canonical
//! decomposition (`int = ev + t·q`, `t ≥ 1`) has `int ≥ q ≥ B`: it can only
//! fail. `B = 0` (a target of 0) can never pass: `D = −1 − int < 0`.
//! Degrees: 3 (constraint 2 and 4), so the quotient fits three chunks.
//!
//! Cost per block: 12 witness columns (768 bits), against an estimated 5
//! with 16-bit limbs in a log-derivative range lookup (the crate docs'
//! budget); the lookup is not built. Proven with KZG in
//! [`crate::kzg::CompareBatch`].

use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField};
use sigagg_bls_cert::domain::Domain;

use crate::periodic::{Periodic, sparse_column_at};
use crate::poseidon::{BLOCK, OUTPUT_ROW};
use crate::quotient::{Quotient, check_identity, quotient};
use crate::{F, McertError};

/// Limbs per number (`6·64 = 384 ≥ 381` bits).
pub const LIMBS: usize = 6;
/// Witness columns: `L0..L5, E0..E5`.
pub const WITNESS_COLUMNS: usize = 2 * LIMBS;
/// Periodic columns: `step, first, end`.
pub const PERIODIC_COLUMNS: usize = 3;
/// Public columns: `ev, B0..B5`.
pub const PUBLIC_COLUMNS: usize = 1 + LIMBS;
/// All columns a row reads.
pub const ALL_COLUMNS: usize = WITNESS_COLUMNS + PERIODIC_COLUMNS + PUBLIC_COLUMNS;
/// Number of constraints.
pub const CONSTRAINTS: usize = 2 * WITNESS_COLUMNS + 1 + LIMBS;
/// The row holding the limbs (the Poseidon output row).
pub const END_ROW: usize = OUTPUT_ROW;

const _: () = assert!(END_ROW == 64 && END_ROW < BLOCK);

/// One comparison's public values: the lottery value and the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// `ev`.
    pub ev: F,
    /// `B`, canonical.
    pub bound: F,
}

/// The periodic columns `step, first, end`.
pub fn periodic_columns() -> [Periodic; PERIODIC_COLUMNS] {
    let col = |f: &dyn Fn(usize) -> bool| match Periodic::new((0..BLOCK).map(|r| F::from(f(r))).collect()) {
        Ok(p) => p,
        Err(e) => unreachable!("BLOCK > 0: {e}"),
    };
    [col(&|r| r < END_ROW), col(&|r| r == 0), col(&|r| r == END_ROW)]
}

/// The 64-bit limbs of a field element's canonical value, least significant first.
pub fn limbs(x: F) -> [u64; LIMBS] {
    x.into_bigint().0
}

fn two_64() -> F {
    F::from(1u128 << 64)
}

/// The constraints at one row: `cur` has [`ALL_COLUMNS`] values, `next` at
/// least the witness columns.
pub fn constraints(cur: &[F], next: &[F]) -> [F; CONSTRAINTS] {
    let (step, first, end) = (cur[WITNESS_COLUMNS], cur[WITNESS_COLUMNS + 1], cur[WITNESS_COLUMNS + 2]);
    let public = WITNESS_COLUMNS + PERIODIC_COLUMNS;
    let ev = cur[public];
    let bound = &cur[public + 1..public + 1 + LIMBS];
    let (l, e) = (&cur[..LIMBS], &cur[LIMBS..WITNESS_COLUMNS]);
    let mut out = [F::ZERO; CONSTRAINTS];
    for k in 0..WITNESS_COLUMNS {
        out[k] = first * cur[k];
        let b = next[k] - cur[k].double();
        out[WITNESS_COLUMNS + k] = step * b * (b - F::ONE);
    }
    let mut recomposed = F::ZERO;
    for i in (0..LIMBS).rev() {
        recomposed = recomposed * two_64() + l[i];
    }
    out[2 * WITNESS_COLUMNS] = end * recomposed - ev;
    let inv = two_64().inverse().unwrap_or(F::ZERO);
    let mut carry = F::ONE;
    for i in 0..LIMBS {
        let t = e[i] - bound[i] + l[i] + carry;
        out[2 * WITNESS_COLUMNS + 1 + i] = if i + 1 < LIMBS { end * t * (t - two_64()) } else { end * t };
        carry = t * inv;
    }
    out
}

/// `Σ α_k C_k` at one row.
pub fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
    constraints(cur, next).iter().zip(alphas).map(|(c, a)| *c * a).sum()
}

/// The honest columns for one comparison per block, with given limbs of
/// `int` and `D` (so the tests can force dishonest ones).
pub fn columns_from_limbs(
    domain: &Domain,
    claims: &[Claim],
    limbs_of: impl Fn(usize) -> ([u64; LIMBS], [u64; LIMBS]),
) -> Result<Vec<Vec<F>>, McertError> {
    let n = domain.size();
    let blocks = n / BLOCK;
    if !n.is_multiple_of(BLOCK) || claims.len() != blocks {
        return Err(McertError::BlockCount { given: claims.len(), blocks });
    }
    let mut values = vec![vec![F::ZERO; n]; ALL_COLUMNS];
    for (k, p) in periodic_columns().iter().enumerate() {
        values[WITNESS_COLUMNS + k] = p.column(domain)?;
    }
    let public = WITNESS_COLUMNS + PERIODIC_COLUMNS;
    for (b, claim) in claims.iter().enumerate() {
        let (ev_limbs, d_limbs) = limbs_of(b);
        for (k, limb) in ev_limbs.iter().chain(&d_limbs).enumerate() {
            for r in 1..=END_ROW {
                values[k][b * BLOCK + r] = F::from(limb >> (64 - r));
            }
        }
        let end = b * BLOCK + END_ROW;
        values[public][end] = claim.ev;
        for (i, limb) in limbs(claim.bound).iter().enumerate() {
            values[public + 1 + i][end] = F::from(*limb);
        }
    }
    Ok(values)
}

/// `B − 1 − ev` in limbs, if `ev < B`.
pub fn difference(claim: &Claim) -> Option<[u64; LIMBS]> {
    if claim.ev.into_bigint() >= claim.bound.into_bigint() {
        return None;
    }
    let mut d = claim.bound.into_bigint();
    d.sub_with_borrow(&claim.ev.into_bigint());
    d.sub_with_borrow(&1u64.into());
    Some(d.0)
}

/// The honest columns; refuses a block whose `ev` is not below its bound.
pub fn honest_columns(domain: &Domain, claims: &[Claim]) -> Result<Vec<Vec<F>>, McertError> {
    let mut ds = Vec::with_capacity(claims.len());
    for (block, c) in claims.iter().enumerate() {
        ds.push(difference(c).ok_or(McertError::NotBelowBound { block })?);
    }
    columns_from_limbs(domain, claims, |b| (limbs(claims[b].ev), ds[b]))
}

/// Every constraint on every row of `H`.
pub fn check_on_domain(values: &[Vec<F>]) -> Result<(), McertError> {
    crate::quotient::check_rows(values, ALL_COLUMNS, constraints)
}

/// The prover's quotient, in the clear.
pub fn prove_in_clear(domain: &Domain, values: &[Vec<F>], alphas: &[F]) -> Result<Quotient, McertError> {
    quotient(domain, values, |cur, next| combined(cur, next, alphas))
}

/// The verifier's check at `ζ` from the witness columns at `ζ` and `ζω`
/// and `Q(ζ)`; it evaluates the periodic and public columns itself.
pub fn verify_in_clear(
    domain: &Domain,
    claims: &[Claim],
    alphas: &[F],
    zeta: F,
    at_zeta: &[F; WITNESS_COLUMNS],
    at_shifted: &[F; WITNESS_COLUMNS],
    quotient_at_zeta: F,
) -> Result<(), McertError> {
    let blocks = domain.size() / BLOCK;
    if !domain.size().is_multiple_of(BLOCK) || claims.len() != blocks {
        return Err(McertError::BlockCount { given: claims.len(), blocks });
    }
    let mut cur = at_zeta.to_vec();
    cur.extend(verifier_columns_at(domain, claims, zeta)?);
    check_identity(domain, zeta, combined(&cur, at_shifted, alphas), quotient_at_zeta)
}

/// The verifier's periodic and public columns at `z` (`O(66)` and
/// `O(blocks)` each).
pub fn verifier_columns_at(domain: &Domain, claims: &[Claim], z: F) -> Result<Vec<F>, McertError> {
    let mut out = Vec::with_capacity(PERIODIC_COLUMNS + PUBLIC_COLUMNS);
    for p in periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    let at_end = |f: &dyn Fn(&Claim) -> F| -> Vec<(usize, F)> {
        claims.iter().enumerate().map(|(b, c)| (b * BLOCK + END_ROW, f(c))).collect()
    };
    out.push(sparse_column_at(domain, &at_end(&|c| c.ev), z)?);
    for i in 0..LIMBS {
        out.push(sparse_column_at(domain, &at_end(&|c| F::from(limbs(c.bound)[i])), z)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use ark_std::test_rng;
    use sigagg_mithril::snark_lottery;

    /// Three blocks: lottery values from the real Poseidon lottery, bounds
    /// from targets chosen so that each wins.
    fn claims() -> Vec<Claim> {
        let prefix = snark_lottery::prefix(b"msg and root");
        (0..3u64)
            .map(|j| {
                let ev = snark_lottery::ev(prefix, F::from(17 + j), j);
                let top = snark_lottery::top64(ev);
                // Targets at the edge (top + 1: the smallest that wins), and above.
                let target = [top + 1, top.saturating_add(1 << 40), u64::MAX][j as usize];
                assert!(snark_lottery::wins(ev, target));
                Claim { ev, bound: snark_lottery::bound(target) }
            })
            .collect()
    }

    fn domain() -> Domain {
        Domain::new(3 * BLOCK).unwrap()
    }

    fn run(values: &[Vec<F>], claims: &[Claim]) -> Result<(), McertError> {
        let rng = &mut test_rng();
        let domain = domain();
        let alphas: Vec<F> = (0..CONSTRAINTS).map(|_| F::rand(rng)).collect();
        let zeta = F::rand(rng);
        let q = prove_in_clear(&domain, values, &alphas)?;
        let (at, at_shifted) = q.columns_at(&domain, zeta);
        let at: [F; WITNESS_COLUMNS] = std::array::from_fn(|k| at[k]);
        let at_shifted: [F; WITNESS_COLUMNS] = std::array::from_fn(|k| at_shifted[k]);
        verify_in_clear(&domain, claims, &alphas, zeta, &at, &at_shifted, q.at(&domain, zeta))
    }

    #[test]
    fn winning_claims_satisfy_the_constraints_and_the_identity() {
        let claims = claims();
        let values = honest_columns(&domain(), &claims).unwrap();
        check_on_domain(&values).unwrap();
        run(&values, &claims).unwrap();
    }

    #[test]
    fn the_gadget_agrees_with_the_native_lottery_at_the_boundary() {
        let prefix = snark_lottery::prefix(b"boundary");
        let ev = snark_lottery::ev(prefix, F::from(3u64), 9);
        let top = snark_lottery::top64(ev);
        for target in [0, top.saturating_sub(1), top, top + 1, top + 2] {
            let claim = Claim { ev, bound: snark_lottery::bound(target) };
            assert_eq!(difference(&claim).is_some(), snark_lottery::wins(ev, target), "target {target}");
        }
    }

    #[test]
    fn a_losing_claim_is_refused_by_the_prover() {
        let mut claims = claims();
        let top = snark_lottery::top64(claims[1].ev);
        claims[1].bound = snark_lottery::bound(top); // the largest target that loses
        assert_eq!(honest_columns(&domain(), &claims), Err(McertError::NotBelowBound { block: 1 }));
    }

    #[test]
    fn forced_losing_witnesses_fail() {
        let mut claims = claims();
        let domain = domain();
        let top = snark_lottery::top64(claims[1].ev);
        claims[1].bound = snark_lottery::bound(top);
        let wrapped = |c: &Claim| {
            // D = B − 1 − ev mod 2^384: the top borrow is 1.
            let mut d = c.bound.into_bigint();
            d.sub_with_borrow(&c.ev.into_bigint());
            d.sub_with_borrow(&1u64.into());
            d.0
        };
        let values = columns_from_limbs(&domain, &claims, |b| (limbs(claims[b].ev), wrapped(&claims[b]))).unwrap();
        assert_eq!(
            check_on_domain(&values),
            Err(McertError::Unsatisfied { row: BLOCK + END_ROW, constraint: 2 * WITNESS_COLUMNS + LIMBS })
        );
        assert_eq!(run(&values, &claims), Err(McertError::QuotientIdentity));
        // A zero target: no witness at all passes (D = −1 − ev wraps).
        let mut zero = self::claims();
        zero[0].bound = snark_lottery::bound(0);
        let values = columns_from_limbs(&domain, &zero, |b| (limbs(zero[b].ev), wrapped(&zero[b]))).unwrap();
        assert!(check_on_domain(&values).is_err());
    }

    #[test]
    fn a_non_canonical_decomposition_fails() {
        // int = ev + q (below 2^384) with its honest-looking difference:
        // B − 1 − int < 0, so the subtraction wraps.
        let claims = claims();
        let domain = domain();
        let mut int = claims[2].ev.into_bigint();
        int.add_with_carry(&F::MODULUS);
        let mut d = claims[2].bound.into_bigint();
        d.sub_with_borrow(&int);
        d.sub_with_borrow(&1u64.into());
        let values = columns_from_limbs(&domain, &claims, |b| {
            if b == 2 { (int.0, d.0) } else { (limbs(claims[b].ev), difference(&claims[b]).unwrap()) }
        })
        .unwrap();
        assert!(
            matches!(check_on_domain(&values), Err(McertError::Unsatisfied { row, .. }) if row == 2 * BLOCK + END_ROW)
        );
        assert_eq!(run(&values, &claims), Err(McertError::QuotientIdentity));
    }

    #[test]
    fn a_digit_that_is_not_a_bit_fails() {
        // Block 0, limb L1: append a digit 2 or 3 on row 10 (every later
        // step is a bit again; the limb ends 2^54 higher, not by bits).
        let claims = claims();
        let mut values = honest_columns(&domain(), &claims).unwrap();
        for (r, v) in values[1].iter_mut().enumerate().take(END_ROW + 1).skip(11) {
            *v += F::from(2u64 << (r - 11));
        }
        assert_eq!(check_on_domain(&values), Err(McertError::Unsatisfied { row: 10, constraint: WITNESS_COLUMNS + 1 }));
        assert_eq!(run(&values, &claims), Err(McertError::QuotientIdentity));
    }

    #[test]
    fn a_nonzero_start_or_a_wrong_claim_fails() {
        let claims = claims();
        let honest = honest_columns(&domain(), &claims).unwrap();
        let mut values = honest.clone();
        values[LIMBS][BLOCK] = F::ONE; // E0 starts at 1 in block 1
        assert_eq!(check_on_domain(&values), Err(McertError::Unsatisfied { row: BLOCK, constraint: LIMBS }));
        assert_eq!(run(&values, &claims), Err(McertError::QuotientIdentity));
        // The honest witness against another lottery value or another bound.
        let mut other = claims.clone();
        other[0].ev += F::ONE;
        assert_eq!(run(&honest, &other), Err(McertError::QuotientIdentity));
        let mut other = claims.clone();
        other[2].bound -= F::ONE;
        assert_eq!(run(&honest, &other), Err(McertError::QuotientIdentity));
    }
}
