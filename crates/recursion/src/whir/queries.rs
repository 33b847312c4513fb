//! WHIR's grinding checks and STIR queries as circuits: a transcript
//! sample's bits (canonical), a proof of work's zero bits,
//! query indices, the Merkle path of every queried row and the row's fold
//! at the previous round's challenges.
//!
//! **Bits of a sample.** 31 bits, each a bit, summing to the sample. For
//! a query index, the top seven not all set, so the sum is below
//! `0x7f00_0000 = p − 1`: below `p`, hence the canonical value's bits, and
//! not `p − 1`, the one value the native index sampling draws again
//! (refused here with probability `2^-31` per uniform sample, a
//! completeness loss; nothing false passes). For a proof of work, whose
//! native check accepts `p − 1`: the top seven all set only if the sample
//! is `p − 1` (`top · (s − (p − 1)) = 0`), the canonical bits again. The
//! two differ because a ground sample is not uniform: it has its low
//! `pow_bits` zero, as `p − 1` does (its low 24), so it is `p − 1` with
//! probability `2^-(31 − pow_bits)`, about 1% at 24 bits, not `2^-31`.
//!
//! **Paths.** The proof carries one pruned multiproof per query site;
//! the circuit climbs one full path per query, whose siblings a hint
//! expands natively from the query indices' wires ([`PathOracle`]). The
//! hint is advice: the path's rows recompute the site's root from the
//! row and the index bits, whatever siblings it gives.

use std::sync::Arc;

use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
use p3_matrix::Dimensions;
use p3_whir::{PcsProof, QueryOpenings};
use sigagg_prover::config::{Val, ValMmcsPoseidon2, val_mmcs_poseidon2};

use crate::Ext;
use crate::circuit::{CircuitBuilder, DIGEST, HintFn, Wire};
use crate::error::CircuitError;
use crate::transcript::CircuitChallenger;

/// Bits of a sample.
const SAMPLE_BITS: usize = 31;

/// Expands query site `site`'s multiproof (round `i`'s queries are site
/// `i`, the final queries site `R`) of a tree of `2^log_rows` rows into
/// one full path of siblings per query, given the site's query indices:
/// native work for the witness (`(site, log_rows, indices)`).
pub type PathOracle = Arc<dyn Fn(usize, usize, &[usize]) -> Result<Vec<Vec<[Val; DIGEST]>>, String> + Send + Sync>;

/// A [`PathOracle`] for a verifier's build of the circuit, which never
/// runs hints.
pub fn no_paths() -> PathOracle {
    Arc::new(|_, _, _| Err("a verifier's circuit has no paths to give".into()))
}

/// The [`PathOracle`] of a native proof: Plonky3's
/// `MerkleTreeMmcs::restore_and_recompute_paths` on each site's rows and
/// pruned multiproof.
pub fn native_paths(proof: &PcsProof<Val, Ext, ValMmcsPoseidon2>) -> PathOracle {
    let sites: Vec<QueryOpenings<Val, Ext, _>> =
        proof.whir.rounds.iter().map(|r| r.openings.clone()).chain([proof.whir.final_openings.clone()]).collect();
    Arc::new(move |site, log_rows, indices| {
        let openings = sites.get(site).ok_or("no such query site")?;
        let (rows, pruned): (Vec<Vec<Val>>, _) = match openings {
            QueryOpenings::Base(o) => (o.rows.clone(), &o.proof),
            QueryOpenings::Extension(o) => (
                o.rows
                    .iter()
                    .map(|r| r.iter().flat_map(|e| e.as_basis_coefficients_slice().to_vec()).collect())
                    .collect(),
                &o.proof,
            ),
        };
        let width = rows.first().map_or(0, Vec::len);
        let dims = [Dimensions { width, height: 1 << log_rows }];
        let opened: Vec<Vec<&[Val]>> = rows.iter().map(|r| vec![r.as_slice()]).collect();
        let paths = val_mmcs_poseidon2(0)
            .restore_and_recompute_paths(&dims, indices, &opened, pruned)
            .map_err(|e| format!("{e:?}"))?;
        Ok(paths.into_iter().map(|p| p.siblings).collect())
    })
}

/// A sample's 31 bits, lowest first, below `p − 1` (a query index's).
pub(crate) fn sample_bits(b: &mut CircuitBuilder, sample: Wire) -> Vec<Wire> {
    let (bits, top) = bits_and_top(b, sample);
    let zero = b.zero();
    b.assert_eq(top, zero);
    bits
}

/// A sample's 31 bits, lowest first, its canonical value's, `p − 1`
/// included (a proof of work's).
fn canonical_bits(b: &mut CircuitBuilder, sample: Wire) -> Vec<Wire> {
    let (bits, top) = bits_and_top(b, sample);
    let p_minus_one = b.constant(Ext::from(Val::from_u32(0x7f00_0000)));
    let offset = b.sub(sample, p_minus_one);
    let at_top = b.mul(top, offset);
    let zero = b.zero();
    b.assert_eq(at_top, zero);
    bits
}

/// A sample's 31 bits and the product of the top seven (one exactly when
/// all are set, the sum then at least `p − 1`).
fn bits_and_top(b: &mut CircuitBuilder, sample: Wire) -> (Vec<Wire>, Wire) {
    let bits = b.bits(sample, SAMPLE_BITS);
    let top = bits[24..].iter().skip(1).fold(bits[24], |acc, &bit| b.mul(acc, bit));
    (bits, top)
}

/// A grinding check of `pow_bits` bits on `witness`: none (and a witness
/// of zero, as the native proof must carry) for 0 bits; otherwise the
/// witness absorbed and the low bits of the next sample zero.
pub(crate) fn pow_check(b: &mut CircuitBuilder, transcript: &mut CircuitChallenger, pow_bits: usize, witness: Wire) {
    let zero = b.zero();
    if pow_bits == 0 {
        b.assert_eq(witness, zero);
        return;
    }
    transcript.observe(b, witness);
    let sample = transcript.sample(b);
    let bits = canonical_bits(b, sample);
    for &bit in &bits[..pow_bits] {
        b.assert_eq(bit, zero);
    }
}

/// One query site's shape.
pub(crate) struct Site {
    /// Its number ([`PathOracle`]).
    pub(crate) index: usize,
    /// log2 of the queried codeword's rows.
    pub(crate) log_rows: usize,
    /// Queries (all rows when they are at least as many).
    pub(crate) queries: usize,
    /// Whether rows hold base-field values (the first codeword's).
    pub(crate) base_rows: bool,
}

/// A site's queries: each row's index bits (lowest first) and its Merkle
/// path checked against `root`; returns the index bits per query.
/// `rows[q]` are the queried rows' values (the previous codeword's `2^k`
/// values at the index).
pub(crate) fn query(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    site: &Site,
    root: [Wire; DIGEST],
    rows: &[Vec<Wire>],
    paths: &PathOracle,
) -> Result<Vec<Vec<Wire>>, CircuitError> {
    let l = site.log_rows;
    if l == 0 {
        return Err(CircuitError::Unsupported("a codeword of one row"));
    }
    let all = site.queries >= 1 << l;
    let count = if all { 1 << l } else { site.queries };
    if rows.len() != count {
        return Err(CircuitError::Unsupported("another number of queried rows"));
    }
    let indices: Vec<Vec<Wire>> = if all {
        (0..count).map(|i| (0..l).map(|bit| b.constant(Ext::from_bool((i >> bit) & 1 == 1))).collect()).collect()
    } else {
        (0..count)
            .map(|_| {
                let sample = transcript.sample(b);
                sample_bits(b, sample)[..l].to_vec()
            })
            .collect()
    };
    let siblings = sibling_hint(b, site, &indices, paths);
    for ((row, bits), siblings) in rows.iter().zip(&indices).zip(siblings.chunks(l * DIGEST)) {
        let leaf_values: Vec<Wire> =
            if site.base_rows { row.clone() } else { row.iter().flat_map(|&e| b.limbs(e)).collect() };
        let leaf = b.leaf_hash(&leaf_values);
        let siblings: Vec<[Wire; DIGEST]> = siblings.chunks(DIGEST).map(|d| core::array::from_fn(|i| d[i])).collect();
        let reached = b.merkle_path(leaf, bits, &siblings);
        for (r, w) in reached.into_iter().zip(root) {
            b.assert_eq(r, w);
        }
    }
    Ok(indices)
}

/// The siblings of every query's path at `site`, level by level, digest
/// by digest: a hint on the index bits.
fn sibling_hint(b: &mut CircuitBuilder, site: &Site, indices: &[Vec<Wire>], paths: &PathOracle) -> Vec<Wire> {
    let (l, number, count) = (site.log_rows, site.index, indices.len());
    let paths = paths.clone();
    let compute: HintFn = Arc::new(move |bits: &[Ext]| {
        let indices: Vec<usize> = bits
            .chunks(l)
            .map(|bs| bs.iter().enumerate().map(|(i, bit)| usize::from(*bit == Ext::ONE) << i).sum())
            .collect();
        let expanded = paths(number, l, &indices)?;
        if expanded.len() != count || expanded.iter().any(|p| p.len() != l) {
            return Err("paths of another shape".into());
        }
        Ok(expanded.into_iter().flatten().flatten().map(Ext::from).collect())
    });
    let inputs: Vec<Wire> = indices.iter().flatten().copied().collect();
    b.hint_base(&inputs, count * l * DIGEST, compute)
}

#[cfg(test)]
mod tests {
    use p3_field::PrimeField32;

    use super::*;

    /// The bits of `value` under `decompose`, or the row that refuses it.
    fn decomposed(value: u32, decompose: fn(&mut CircuitBuilder, Wire) -> Vec<Wire>) -> Option<u32> {
        let mut b = CircuitBuilder::new();
        let sample = b.input();
        let bits = decompose(&mut b, sample);
        let circuit = b.build();
        let values = circuit.witness(&[Ext::from(Val::from_u32(value))]).ok()?;
        let bit = |w: &Wire| {
            let limbs: &[Val] = values[w.index()].as_basis_coefficients_slice();
            limbs[0].as_canonical_u32()
        };
        Some(bits.iter().enumerate().map(|(i, w)| bit(w) << i).sum())
    }

    /// A proof of work's sample may be `p − 1`: its native check accepts
    /// it, and a ground sample (low bits zero, as `p − 1`'s low 24 are) is
    /// `p − 1` far more often than a uniform one. A query index's may not
    /// (the native sampling draws again). Every other value decomposes
    /// canonically under both.
    #[test]
    fn a_proof_of_works_sample_may_be_p_minus_one_and_a_query_indexs_may_not() {
        let p_minus_one = 0x7f00_0000;
        assert_eq!(decomposed(p_minus_one, canonical_bits), Some(p_minus_one));
        assert_eq!(decomposed(p_minus_one, sample_bits), None);
        for value in [0, 1, 0x00ff_ffff, 0x7eff_ffff, 0x7e00_0000, 12_345_678] {
            assert_eq!(decomposed(value, canonical_bits), Some(value));
            assert_eq!(decomposed(value, sample_bits), Some(value));
        }
    }
}
