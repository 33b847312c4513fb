//! One won index's lottery in one 66-row block: the three gadgets wired
//! together, with `σ` hidden.
//!
//! Public: `m`, and per block `prefix(msgp)` and the bound `B` (in the
//! certificate `B` comes from the committee by the membership lookup, and
//! `prefix` is one constant; here both are sparse public columns). Witness:
//! `σ`, the index `j` and every gadget column. The blocks prove: **for
//! hidden indices `j_0 < … < j_{k−1} < m` and points `σ_b`, each
//! `σ_b ∈ G1` and `Poseidon(TAG·2^64 + j_b, prefix_b, x(σ_b))[1] < B_b`**.
//!
//! Columns: the witness columns of [`poseidon`], [`compare`], [`subgroup`]
//! and [`crate::order`] side by side, then their periodic columns, then
//! `order`'s domain columns and `m`, then the public ones (`prefix` on
//! row 0, `B0..B5` on row 64). The constraints are
//! the three gadgets' constraints unchanged, with their public columns
//! replaced by expressions in the witness, which turns them into bindings:
//! * Poseidon's `in0 = start·(TAG·2^64 + J)` with `J` the order gadget's
//!   hidden index (constraint 7 becomes `start·(s0 − TAG·2^64 − J) = 0`),
//!   `in1 = prefix` (public), `in2 = start·σx`
//!   (constraint 9 becomes `start·(s2 − σx) = 0`: the hashed x is the tested
//!   point's), `out = end·s1` (constraint 10 becomes trivial);
//! * the comparison's `ev = end·s1` (its constraint 3 becomes
//!   `end·(Σ L_i 2^(64i) − s1) = 0`: the compared value is the hash output
//!   on the same row), its `B_i` public;
//! * the subgroup test's `px = first·σx`, `py = first·σy` (trivial: `σ` is
//!   not public).
//!
//! Soundness is the conjunction of the three gadgets' (module docs) with
//! the two bindings; all degrees stay at most 4 (a binding is a selector
//! times a witness column).

use ark_ff::AdditiveGroup;
use sigagg_bls_cert::domain::Domain;
use sigagg_mithril::snark_lottery;

use crate::periodic::sparse_column_at;
use crate::poseidon::{self, BLOCK, OUTPUT_ROW};
use crate::{F, McertError, compare, order, subgroup};

const PW: usize = poseidon::WITNESS_COLUMNS;
const CW: usize = compare::WITNESS_COLUMNS;
const SW: usize = subgroup::WITNESS_COLUMNS;
const OW: usize = order::WITNESS_COLUMNS;
/// Witness columns.
pub const WITNESS_COLUMNS: usize = PW + CW + SW + OW;
const PP: usize = poseidon::PERIODIC_COLUMNS;
const CP: usize = compare::PERIODIC_COLUMNS;
const SP: usize = subgroup::PERIODIC_COLUMNS;
const OP: usize = order::PERIODIC_COLUMNS;
/// Periodic columns (the four gadgets', side by side).
pub const PERIODIC_COLUMNS: usize = PP + CP + SP + OP;
/// The order gadget's domain columns and `m`.
pub const KNOWN_COLUMNS: usize = order::KNOWN_COLUMNS;
/// Public columns: `prefix`, `B0..B5`.
pub const PUBLIC_COLUMNS: usize = 1 + compare::LIMBS;
/// All columns.
pub const ALL_COLUMNS: usize = WITNESS_COLUMNS + PERIODIC_COLUMNS + KNOWN_COLUMNS + PUBLIC_COLUMNS;
/// Constraints: the four gadgets'.
pub const CONSTRAINTS: usize =
    poseidon::CONSTRAINTS + compare::CONSTRAINTS + subgroup::CONSTRAINTS + order::CONSTRAINTS;

/// One block as the prover knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The won index `j` (hidden).
    pub index: u64,
    /// `prefix(msgp)`.
    pub prefix: F,
    /// The signer's bound `B`.
    pub bound: F,
}

/// One block's public values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Public {
    /// `prefix(msgp)`.
    pub prefix: F,
    /// The signer's bound `B`.
    pub bound: F,
}

impl Instance {
    /// What the verifier sees of it.
    pub fn public(&self) -> Public {
        Public { prefix: self.prefix, bound: self.bound }
    }
}

/// What the verifier knows: `m` and each block's public values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Lottery indices.
    pub m: u64,
    /// One per block.
    pub blocks: Vec<Public>,
}

/// Rearranges a row of the composite into the three gadgets' rows (their
/// public columns replaced by the bindings) and returns `Σ α_k C_k`.
pub fn combined(cur: &[F], next: &[F], alphas: &[F]) -> F {
    let w = WITNESS_COLUMNS;
    let (pw, cw, sw, ow) = (&cur[..PW], &cur[PW..PW + CW], &cur[PW + CW..PW + CW + SW], &cur[PW + CW + SW..w]);
    let per = &cur[w..w + PERIODIC_COLUMNS];
    let (pp, cp, sp, op) = (&per[..PP], &per[PP..PP + CP], &per[PP + CP..PP + CP + SP], &per[PP + CP + SP..]);
    let known = &cur[w + PERIODIC_COLUMNS..w + PERIODIC_COLUMNS + KNOWN_COLUMNS];
    let public = &cur[w + PERIODIC_COLUMNS + KNOWN_COLUMNS..];
    let (prefix, bound) = (public[0], &public[1..]);
    let (sigma_x, sigma_y) = (sw[0], sw[1]);
    let s1 = pw[1];
    let j = ow[0];
    // Poseidon: start is periodic 5, end periodic 6.
    let (start, end) = (pp[5], pp[6]);
    let mut p_row = [F::ZERO; poseidon::ALL_COLUMNS];
    p_row[..PW].copy_from_slice(pw);
    p_row[PW..PW + PP].copy_from_slice(pp);
    p_row[PW + PP..].copy_from_slice(&[start * (snark_lottery::capacity(0) + j), prefix, start * sigma_x, end * s1]);
    let p = poseidon::Row { columns: p_row, next_state: [next[0], next[1], next[2]] };
    let (pa, rest) = alphas.split_at(poseidon::CONSTRAINTS);
    let (ca, rest) = rest.split_at(compare::CONSTRAINTS);
    let (sa, oa) = rest.split_at(subgroup::CONSTRAINTS);
    let mut total = poseidon::combined(&poseidon::mds(), &p, pa);
    // Comparison: its end is periodic 2.
    let mut c_row = Vec::with_capacity(compare::ALL_COLUMNS);
    c_row.extend_from_slice(cw);
    c_row.extend_from_slice(cp);
    c_row.push(cp[2] * s1);
    c_row.extend_from_slice(bound);
    total += compare::combined(&c_row, &next[PW..PW + CW], ca);
    // Subgroup: its first is periodic 2.
    let mut s_row = Vec::with_capacity(subgroup::ALL_COLUMNS);
    s_row.extend_from_slice(sw);
    s_row.extend_from_slice(sp);
    s_row.extend([sp[2] * sigma_x, sp[2] * sigma_y]);
    total += subgroup::combined(&s_row, &next[PW + CW..PW + CW + SW], sa);
    // Order: unchanged.
    let mut o_row = Vec::with_capacity(order::ALL_COLUMNS);
    o_row.extend_from_slice(ow);
    o_row.extend_from_slice(op);
    o_row.extend_from_slice(known);
    total += order::combined(&o_row, &next[PW + CW + SW..w], oa);
    total
}

/// The columns for one `(σ, instance)` per block, with the comparison's
/// limbs given by `limbs_of` (the honest ones from [`honest_columns`];
/// tests force others). `σ` must be an affine point on the curve; the
/// indices are taken as given (gaps saturate at 0 when they do not
/// increase, so bad indices give failing columns, not an error).
pub fn columns_with(
    domain: &Domain,
    m: u64,
    blocks: &[(subgroup::Affine, Instance)],
    limbs_of: impl Fn(usize, &compare::Claim) -> ([u64; compare::LIMBS], [u64; compare::LIMBS]),
) -> Result<Vec<Vec<F>>, McertError> {
    let inputs: Vec<[F; poseidon::WIDTH]> =
        blocks.iter().map(|(s, inst)| [snark_lottery::capacity(inst.index), inst.prefix, s.0]).collect();
    let (p, ios) = poseidon::honest_columns(domain, &inputs)?;
    let claims: Vec<compare::Claim> =
        ios.iter().zip(blocks).map(|(io, (_, inst))| compare::Claim { ev: io.output, bound: inst.bound }).collect();
    let c = compare::columns_from_limbs(domain, &claims, |b| limbs_of(b, &claims[b]))?;
    let points: Vec<subgroup::Affine> = blocks.iter().map(|(s, _)| *s).collect();
    let s = subgroup::columns(domain, &points)?;
    let js: Vec<u64> = blocks.iter().map(|(_, i)| i.index).collect();
    let gaps: Vec<u64> =
        (0..js.len()).map(|b| js.get(b + 1).copied().unwrap_or(m).saturating_sub(js[b]).saturating_sub(1)).collect();
    let o = order::columns_from(domain, m, &js, &gaps)?;
    let mut out = Vec::with_capacity(ALL_COLUMNS);
    out.extend_from_slice(&p.values[..PW]);
    out.extend_from_slice(&c[..CW]);
    out.extend_from_slice(&s[..SW]);
    out.extend_from_slice(&o[..OW]);
    out.extend_from_slice(&p.values[PW..PW + PP]);
    out.extend_from_slice(&c[CW..CW + CP]);
    out.extend_from_slice(&s[SW..SW + SP]);
    out.extend_from_slice(&o[OW..]);
    let n = domain.size();
    let mut public = vec![vec![F::ZERO; n]; PUBLIC_COLUMNS];
    for (b, (_, inst)) in blocks.iter().enumerate() {
        public[0][b * BLOCK] = inst.prefix;
        for (i, limb) in compare::limbs(inst.bound).iter().enumerate() {
            public[1 + i][b * BLOCK + OUTPUT_ROW] = F::from(*limb);
        }
    }
    out.extend(public);
    Ok(out)
}

/// The honest columns; refuses a block whose index is not won, and indices
/// that are not strictly increasing and below `m`.
pub fn honest_columns(
    domain: &Domain,
    m: u64,
    blocks: &[(subgroup::Affine, Instance)],
) -> Result<Vec<Vec<F>>, McertError> {
    for (b, (s, inst)) in blocks.iter().enumerate() {
        let ev = snark_lottery::ev(inst.prefix, s.0, inst.index);
        if compare::difference(&compare::Claim { ev, bound: inst.bound }).is_none() {
            return Err(McertError::NotBelowBound { block: b });
        }
        if inst.index >= blocks.get(b + 1).map_or(m, |(_, next)| next.index) {
            return Err(McertError::BadIndices { block: b });
        }
    }
    columns_with(domain, m, blocks, |_, claim| {
        (compare::limbs(claim.ev), compare::difference(claim).unwrap_or([0; compare::LIMBS]))
    })
}

/// The verifier's periodic, domain and public columns at `z`.
pub fn verifier_columns_at(domain: &Domain, statement: &Statement, z: F) -> Result<Vec<F>, McertError> {
    let mut out = Vec::with_capacity(PERIODIC_COLUMNS + KNOWN_COLUMNS + PUBLIC_COLUMNS);
    for p in poseidon::periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    for p in compare::periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    for p in subgroup::periodic_columns() {
        out.push(p.evaluate(domain, z)?);
    }
    // The order gadget's periodic, domain and `m` columns.
    out.extend(order::verifier_columns_at(domain, statement.m, z)?);
    let at = |row: usize, f: &dyn Fn(&Public) -> F| -> Vec<(usize, F)> {
        statement.blocks.iter().enumerate().map(|(b, i)| (b * BLOCK + row, f(i))).collect()
    };
    out.push(sparse_column_at(domain, &at(0, &|i| i.prefix), z)?);
    for l in 0..compare::LIMBS {
        out.push(sparse_column_at(domain, &at(OUTPUT_ROW, &|i| F::from(compare::limbs(i.bound)[l])), z)?);
    }
    Ok(out)
}

/// Every constraint on every row of `H`.
pub fn check_on_domain(values: &[Vec<F>]) -> Result<(), McertError> {
    // Each constraint on its own: one unit vector of α at a time.
    crate::quotient::check_rows(values, ALL_COLUMNS, |cur, next| {
        let mut alphas = vec![F::ZERO; CONSTRAINTS];
        (0..CONSTRAINTS)
            .map(|k| {
                alphas[k] = F::from(1u64);
                let v = combined(cur, next, &alphas);
                alphas[k] = F::ZERO;
                v
            })
            .collect::<Vec<F>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bls12_381::{Fr, G1Projective};
    use ark_ec::{CurveGroup, PrimeGroup};
    use ark_ff::{Field, UniformRand};
    use ark_std::test_rng;

    #[test]
    fn the_compared_value_must_be_the_hash_output() {
        let p = (G1Projective::generator() * Fr::rand(&mut test_rng())).into_affine();
        let prefix = snark_lottery::prefix(b"binding");
        let ev = snark_lottery::ev(prefix, p.x, 5);
        let blocks = [((p.x, p.y), Instance { index: 5, prefix, bound: snark_lottery::bound(u64::MAX) })];
        let domain = Domain::new(BLOCK).unwrap();
        check_on_domain(&honest_columns(&domain, 4096, &blocks).unwrap()).unwrap();
        // Compare ev − 1 (which also wins) instead of the hash output.
        let columns = columns_with(&domain, 4096, &blocks, |_, claim| {
            let other = compare::Claim { ev: claim.ev - F::ONE, bound: claim.bound };
            (compare::limbs(other.ev), compare::difference(&other).unwrap())
        })
        .unwrap();
        assert_ne!(ev, F::ZERO);
        let recomposition = poseidon::CONSTRAINTS + 2 * compare::WITNESS_COLUMNS;
        assert_eq!(
            check_on_domain(&columns),
            Err(McertError::Unsatisfied { row: OUTPUT_ROW, constraint: recomposition })
        );
        // The wrong number of columns is a typed error.
        assert_eq!(
            check_on_domain(&columns[1..]),
            Err(McertError::ColumnCount { got: ALL_COLUMNS - 1, expected: ALL_COLUMNS })
        );
    }
}
