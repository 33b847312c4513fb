//! The lottery: which indices a signer wins.
//!
//! For index `j`, `ev = Blake2b-512("map" ‖ msgp ‖ j as u64 LE ‖ σ)` read as
//! a little-endian integer below `2^512`; the signer wins `j` iff
//! `ev / 2^512 < φ(w) = 1 − (1 − phi_f)^w` with `w = stake / total_stake`.
//!
//! ## The exact rule (mithril-stm's default `num-integer` backend)
//! With `q = 2^512 / (2^512 − ev)`, `c` the exact rational value of the f64
//! `(1.0 − phi_f).ln()` and `x = −w·c ≥ 0`, the win condition is `q < e^x`.
//! It is decided with exact rationals by a Taylor series of `e^x` with an
//! early stop: after adding the term `x^(n−1)/(n−1)!` to the partial sum
//! `S_n` and computing the next term `t_n = x^n/n!`, the bound is
//! `err_n = 3·t_n`; `q > S_n + err_n` is a loss, `q < S_n − err_n` a win,
//! and otherwise the next term is added; after 1000 terms it is a loss.
//!
//! **Boundary cases.** The comparison is strict (`q = e^x` is impossible
//! for `x ≠ 0`, `e^x` being irrational). Every quantity is an exact
//! rational, so the result depends only on `(ev, stake, total_stake, phi_f)`
//! and this implementation decides every case as mithril-stm does,
//! including the cases where the early stop differs from the true
//! comparison (only possible when `x ≥ 2`, i.e. `phi_f ≥ 0.8647` and a large
//! stake share). Before the series: a zero total stake is an error;
//! `|phi_f − 1| < f64::EPSILON` wins every index for every stake (even 0);
//! otherwise `phi_f` must be in `(0, 1]`. A stake of 0 gives `x = 0`, and
//! never wins. `ln` is Rust's `f64::ln`, as in mithril-stm.
//!
//! One input is refused before the series, unlike in mithril-stm: a stake
//! above the total stake (impossible in a registration, whose total is the
//! sum of its stakes). mithril-stm runs its 1000 terms for it, and with
//! `x` in the billions the terms grow to gigabit rationals: a forged
//! certificate entry would cost a verifier a minute before its Merkle path
//! is even looked at.
//!
//! The bounds `S_n ± err_n` depend only on `x`, so [`Lottery`] computes
//! them once per signer and compares each `q` against the cached list.

use blake2::Blake2b512;
use blake2::digest::Digest;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::error::MithrilError;

/// Mithril's Taylor-series limit.
const TERMS: usize = 1000;

/// `ev` for index `j`: `Blake2b-512("map" ‖ msgp ‖ j LE ‖ σ)`.
pub fn lottery_value(msgp: &[u8], index: u64, sigma: &[u8; 48]) -> [u8; 64] {
    Blake2b512::new()
        .chain_update(b"map")
        .chain_update(msgp)
        .chain_update(index.to_le_bytes())
        .chain_update(sigma)
        .finalize()
        .into()
}

/// A signer's lottery: its stake share under `phi_f`, with the Taylor
/// bounds computed so far.
#[derive(Clone, Debug)]
pub struct Lottery {
    rule: Rule,
}

#[derive(Clone, Debug)]
enum Rule {
    /// `phi_f` is 1 (within `f64::EPSILON`): every index wins.
    Always,
    /// The exact series.
    Series(Box<Series>),
}

#[derive(Clone, Debug)]
struct Series {
    x: BigRational,
    /// `(S_n − err_n, S_n + err_n)` for the terms computed so far.
    bounds: Vec<(BigRational, BigRational)>,
    sum: BigRational,
    term: BigRational,
    divisor: BigInt,
}

impl Lottery {
    /// The lottery of a party with `stake` out of `total_stake`.
    pub fn new(phi_f: f64, stake: u64, total_stake: u64) -> Result<Lottery, MithrilError> {
        if total_stake == 0 {
            return Err(MithrilError::ZeroTotalStake);
        }
        if stake > total_stake {
            return Err(MithrilError::StakeAboveTotal { stake, total_stake });
        }
        if (phi_f - 1.0).abs() < f64::EPSILON {
            return Ok(Lottery { rule: Rule::Always });
        }
        if !(phi_f > 0.0 && phi_f <= 1.0) {
            return Err(MithrilError::PhiFOutOfRange(phi_f));
        }
        let c = BigRational::from_float((1.0 - phi_f).ln()).ok_or(MithrilError::PhiFOutOfRange(phi_f))?;
        let w = BigRational::new(BigInt::from(stake), BigInt::from(total_stake));
        let x = -(w * c);
        let series = Series { term: x.clone(), x, bounds: Vec::new(), sum: BigRational::one(), divisor: BigInt::one() };
        Ok(Lottery { rule: Rule::Series(Box::new(series)) })
    }

    /// Whether `ev` (64 bytes, little-endian) wins.
    pub fn wins(&mut self, ev: &[u8; 64]) -> bool {
        match &mut self.rule {
            Rule::Always => true,
            Rule::Series(series) => series.wins(ev),
        }
    }
}

impl Series {
    /// Adds the next term and records `(S_n − err_n, S_n + err_n)`.
    fn extend(&mut self) {
        self.sum += &self.term;
        self.divisor += 1;
        self.term = &self.term * &self.x / BigRational::from_integer(self.divisor.clone());
        let err = self.term.abs() * BigInt::from(3);
        self.bounds.push((&self.sum - &err, &self.sum + &err));
    }

    fn wins(&mut self, ev: &[u8; 64]) -> bool {
        let max = BigInt::one() << 512;
        let ev = BigInt::from(BigUint::from_bytes_le(ev));
        let gap: BigInt = &max - ev;
        if gap.is_zero() {
            return false;
        }
        let q = BigRational::new_raw(max, gap);
        for n in 0..TERMS {
            if n == self.bounds.len() {
                self.extend();
            }
            let (low, high) = &self.bounds[n];
            if q > *high {
                return false;
            }
            if q < *low {
                return true;
            }
        }
        false
    }
}

/// Whether `ev` wins for `stake` of `total_stake` under `phi_f` (a one-off
/// [`Lottery`]).
pub fn is_lottery_won(phi_f: f64, ev: &[u8; 64], stake: u64, total_stake: u64) -> Result<bool, MithrilError> {
    Ok(Lottery::new(phi_f, stake, total_stake)?.wins(ev))
}
