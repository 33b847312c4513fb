//! WHIR's constraint weights at the folding point, as circuits
//! (`p3_sumcheck`'s statements): an equality constraint's `eq`, a
//! successor constraint's repeat-last weight, a query's select weight,
//! and the powers and folds both sides of the final identity use.

use p3_field::{PrimeCharacteristicRing, TwoAdicField};
use sigagg_prover::config::Val;

use crate::Ext;
use crate::circuit::{CircuitBuilder, Wire};

impl CircuitBuilder {
    /// `eq(bits, loc)` for constant bits (big-endian, `bits[0]` against
    /// `loc[0]`): the product of `loc_j` or `1 − loc_j`.
    pub(crate) fn eq_bits(&mut self, bits: &[bool], loc: &[Wire]) -> Wire {
        let one = self.constant(Ext::ONE);
        bits.iter().zip(loc).fold(one, |acc, (&bit, &l)| {
            let factor = if bit { l } else { self.sub(one, l) };
            self.mul(acc, factor)
        })
    }

    /// The repeat-last successor weight `Σ_x eq(z, x)·[succ(x) = y]`,
    /// `succ(x) = x + 1` below the last row, the last row its own
    /// successor (`p3_multilinear_util::point::Point::eval_next`), both
    /// points big-endian: a carry walks up from the lowest bit.
    pub(crate) fn next_weight(&mut self, z: &[Wire], y: &[Wire]) -> Wire {
        let one = self.constant(Ext::ONE);
        let (mut carry, mut done, mut omega) = (one, self.zero(), one);
        for (&p, &r) in z.iter().zip(y).rev() {
            let e = self.eq_at(&[p], &[r]);
            let (not_p, not_r) = (self.sub(one, p), self.sub(one, r));
            let prev = carry;
            let p_not_r = self.mul(p, not_r);
            carry = self.mul(prev, p_not_r);
            let not_p_r = self.mul(not_p, r);
            let entering = self.mul(prev, not_p_r);
            let kept = self.mul(done, e);
            done = self.add(kept, entering);
            let pr = self.mul(p, r);
            omega = self.mul(omega, pr);
        }
        self.add(done, omega)
    }

    /// A query's select weight `Π_j (loc_j·(v^(2^(m−1−j)) − 1) + 1)`,
    /// `m = loc.len()` (`Point::eval_select`).
    pub(crate) fn select_weight(&mut self, var: Wire, loc: &[Wire]) -> Wire {
        let one = self.constant(Ext::ONE);
        let mut power = var;
        let mut acc = one;
        for &l in loc.iter().rev() {
            let shifted = self.sub(power, one);
            let scaled = self.mul(l, shifted);
            let factor = self.add(scaled, one);
            acc = self.mul(acc, factor);
            power = self.mul(power, power);
        }
        acc
    }

    /// `expand(z, m) = (z^(2^(m−1)), …, z^2, z)`: an out-of-domain point
    /// on the hypercube's variables.
    pub(crate) fn expand(&mut self, z: Wire, m: usize) -> Vec<Wire> {
        let mut out = vec![z; m];
        let mut power = z;
        for slot in out.iter_mut().rev() {
            *slot = power;
            power = self.mul(power, power);
        }
        out
    }

    /// The multilinear fold of `values` (big-endian index) at the reverse
    /// of `r`: `r[0]` folds the lowest bit.
    ///
    /// # Panics
    /// If `values` is not `2^r.len()` long.
    pub(crate) fn fold(&mut self, values: &[Wire], r: &[Wire]) -> Wire {
        assert_eq!(values.len(), 1 << r.len(), "2^k values for k challenges");
        let mut v = values.to_vec();
        for &x in r {
            v = v.chunks(2).map(|pair| self.lerp(x, pair[0], pair[1])).collect();
        }
        v[0]
    }

    /// `ω_L^index` for the index's bits (lowest first):
    /// `Π_b (1 + bit_b·(ω_L^(2^b) − 1))`.
    pub(crate) fn root_power(&mut self, log_size: usize, bits: &[Wire]) -> Wire {
        let omega = Val::two_adic_generator(log_size);
        let one = self.constant(Ext::ONE);
        let mut power = omega;
        let mut acc = one;
        for &bit in bits {
            let step = self.constant(Ext::from(power - Val::ONE));
            let scaled = self.mul(bit, step);
            let factor = self.add(scaled, one);
            acc = self.mul(acc, factor);
            power = power.square();
        }
        acc
    }
}

/// Successive powers of a challenge as wires: `γ^start, γ^(start+1), …`.
pub(crate) struct Powers {
    base: Wire,
    next: Wire,
}

impl Powers {
    /// From `γ^0` (`start_at_one == false`) or `γ^1`.
    pub(crate) fn new(b: &mut CircuitBuilder, base: Wire, start_at_one: bool) -> Self {
        let next = if start_at_one { base } else { b.constant(Ext::ONE) };
        Self { base, next }
    }

    /// The next power.
    pub(crate) fn next(&mut self, b: &mut CircuitBuilder) -> Wire {
        let current = self.next;
        self.next = b.mul(current, self.base);
        current
    }
}
