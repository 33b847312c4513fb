//! Sumcheck rounds as circuits, in the form whir-skip's zerocheck verifier
//! reads them (`sigagg_prover::zerocheck`): a round sends its polynomial's
//! values at `0, 1, …, d + 1`; the verifier checks `p(0) + p(1)` against
//! the running claim, absorbs the values, samples `r` and continues with
//! `p(r)`, the interpolation through the integer nodes.

use p3_field::PrimeCharacteristicRing;
use sigagg_prover::barycentric_weights;

use crate::Ext;
use crate::circuit::{CircuitBuilder, Wire};
use crate::transcript::CircuitChallenger;

impl CircuitBuilder {
    /// The polynomial through `(i, values[i])` for `i = 0, 1, …` at `x`
    /// ([`Self::interpolate_at`] on the integer nodes).
    ///
    /// # Panics
    /// If `values` is empty.
    pub fn interpolate_at_integers(&mut self, values: &[Wire], x: Wire) -> Wire {
        let nodes: Vec<Ext> = (0..values.len()).map(Ext::from_usize).collect();
        self.interpolate_at(&nodes, values, x)
    }

    /// The polynomial through `(nodes[i], values[i])` at `x`.
    ///
    /// # Panics
    /// If `values` is empty or not as long as `nodes`.
    pub fn interpolate_at(&mut self, nodes: &[Ext], values: &[Wire], x: Wire) -> Wire {
        assert_eq!(nodes.len(), values.len(), "one value per node");
        let basis = self.lagrange_basis(nodes, x);
        self.dot(values, &basis)
    }

    /// The Lagrange basis of the distinct constant `nodes` at `x`:
    /// `L_i(x) = c_i · Π_{j≠i} (x − nodes[j])`, `c_i = 1 / Π_{j≠i}
    /// (nodes[i] − nodes[j])`, the products from prefix and suffix
    /// products, so no division by `x − nodes[j]` (0 when `x` is a node).
    ///
    /// # Panics
    /// If `nodes` is empty.
    pub fn lagrange_basis(&mut self, nodes: &[Ext], x: Wire) -> Vec<Wire> {
        let n = nodes.len();
        assert!(n > 0, "at least one node");
        let diffs: Vec<Wire> =
            nodes.iter().map(|&node| if node == Ext::ZERO { x } else { self.constant_sub(x, node) }).collect();
        // prefix[i] = Π_{j<i} diffs[j], suffix[i] = Π_{j>i} diffs[j] (None: 1).
        let mut prefix: Vec<Option<Wire>> = vec![None; n];
        for i in 1..n {
            prefix[i] = Some(self.mul_opt(prefix[i - 1], diffs[i - 1]));
        }
        let mut suffix: Vec<Option<Wire>> = vec![None; n];
        for i in (0..n - 1).rev() {
            suffix[i] = Some(self.mul_opt(suffix[i + 1], diffs[i + 1]));
        }
        barycentric_weights(nodes)
            .into_iter()
            .enumerate()
            .map(|(i, weight)| {
                let c = self.constant(weight);
                [prefix[i], suffix[i]].into_iter().flatten().fold(c, |acc, f| self.mul(acc, f))
            })
            .collect()
    }

    /// `x − c` for a constant `c`.
    fn constant_sub(&mut self, x: Wire, c: Ext) -> Wire {
        let c = self.constant(c);
        self.sub(x, c)
    }

    /// `acc · w`, or `w` when there is no `acc` (an empty product).
    fn mul_opt(&mut self, acc: Option<Wire>, w: Wire) -> Wire {
        match acc {
            Some(a) => self.mul(a, w),
            None => w,
        }
    }

    /// `eq(τ, x)` for every `x` of the cube, bit `i` of the index being
    /// `τ[i]`'s coordinate (1 for an empty `τ`).
    pub fn eq_table(&mut self, tau: &[Wire]) -> Vec<Wire> {
        let one = self.constant(Ext::ONE);
        let mut table = vec![one];
        for &t in tau {
            let not_t = self.sub(one, t);
            let high: Vec<Wire> = table.iter().map(|&v| self.mul(v, t)).collect();
            let low: Vec<Wire> = table.iter().map(|&v| self.mul(v, not_t)).collect();
            table = low.into_iter().chain(high).collect();
        }
        table
    }

    /// `Σ a_i · b_i`.
    ///
    /// # Panics
    /// If the slices differ in length or are empty.
    pub fn dot(&mut self, a: &[Wire], b: &[Wire]) -> Wire {
        assert_eq!(a.len(), b.len(), "one factor per factor");
        let terms: Vec<Wire> = a.iter().zip(b).map(|(&x, &y)| self.mul(x, y)).collect();
        terms[1..].iter().fold(terms[0], |acc, &t| self.add(acc, t))
    }

    /// `eq(a, b) = Π (a_i b_i + (1 − a_i)(1 − b_i))`.
    ///
    /// # Panics
    /// If the points differ in length, or are empty.
    pub fn eq_at(&mut self, a: &[Wire], b: &[Wire]) -> Wire {
        assert_eq!(a.len(), b.len(), "points of one dimension");
        assert!(!a.is_empty(), "a point of at least one coordinate");
        let one = self.constant(Ext::ONE);
        let factors: Vec<Wire> = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| {
                let xy = self.mul(x, y);
                let (nx, ny) = (self.sub(one, x), self.sub(one, y));
                let both = self.mul(nx, ny);
                self.add(xy, both)
            })
            .collect();
        factors[1..].iter().fold(factors[0], |acc, &f| self.mul(acc, f))
    }
}

/// One ordinary sumcheck round: checks `values[0] + values[1] = claim`,
/// absorbs the values, samples `r`; returns `(p(r), r)`.
///
/// # Panics
/// If there are fewer than two values.
pub fn round(b: &mut CircuitBuilder, transcript: &mut CircuitChallenger, claim: Wire, values: &[Wire]) -> (Wire, Wire) {
    assert!(values.len() >= 2, "a round polynomial's values at 0 and 1 at least");
    let sum = b.add(values[0], values[1]);
    b.assert_eq(sum, claim);
    for &v in values {
        transcript.observe_ext(b, v);
    }
    let r = transcript.sample_ext(b);
    (b.interpolate_at_integers(values, r), r)
}
