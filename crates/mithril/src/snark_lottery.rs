//! A lottery a SNARK can afford: Mithril's lottery with Blake2b-512 replaced
//! by one Poseidon permutation over BLS12-381's base field `Fq`, and the
//! exact-rational threshold replaced by a 64-bit target per signer.
//!
//! Blake2b inside a KZG circuit costs thousands of rows per hash; one
//! Poseidon permutation over `Fq` ([`crate::poseidon::bls12_381_fq`], t = 3,
//! x^5, 8 + 56 rounds) costs 80 S-boxes, and `Fq` is the scalar field of
//! BW6-767, the curve of the succinct certificate, where `x(σ)` is native.
//! This is the lottery of the succinct certificate only: the native STM
//! ([`crate::lottery`]) stays byte compatible with mithril-stm.
//!
//! ## The lottery value
//! * `prefix(msgp) = Blake2b-512("sigagg-mithril-lottery-prefix-v1" ‖ msgp)`
//!   read little-endian and reduced mod `q`. It is computed once per
//!   certificate, outside the circuit (the verifier knows msgp); a 512-bit
//!   value mod a 381-bit `q` is within statistical distance `q/2^512 < 2^-131`
//!   of uniform.
//! * `x(σ)`: the affine x-coordinate of the G1 signature, the 381-bit
//!   big-endian integer in σ's compressed encoding with its three flag bits
//!   cleared ([`sigma_x`]).
//! * `ev(prefix, x, j) = P(c_j, prefix, x)[1]`, one permutation `P` of the
//!   state `(c_j, prefix, x)` with the capacity cell
//!   `c_j = TAG·2^64 + j`, `TAG` = the bytes `"sigagg-mithril-lottery-v1"`
//!   as a big-endian integer (200 bits, so `c_j < 2^264 < q`), and the output
//!   is the first rate cell, as a sponge would squeeze it. The tag separates
//!   this use of the permutation from any other (a sponge over the same
//!   instance starts with capacity 0); the index sits in the capacity
//!   because the three inputs fill `t = 3` cells in one permutation. Distinct
//!   `(j, prefix, x)` are distinct permutation inputs. A signer cannot grind
//!   `ev`: BLS signatures are unique, so `x(σ)` is fixed by the key and msgp.
//!
//! ## The comparison, and why `floor(ev·2^64/q)`
//! A signer with stake share `w` wins index `j` iff
//! `floor(ev·2^64/q) < T(w)`, with `T(w) = floor(φ(w)·2^64)` and
//! `φ(w) = 1 − (1 − phi_f)^w` ([`target`]). Scaling `ev` by `2^64/q` (rather
//! than taking `ev`'s top 64 bits below bit 381, i.e. `ev >> 317`) maps a
//! uniform `ev ∈ [0, q)` onto all of `[0, 2^64)` almost uniformly, so `T` is
//! directly a probability in units of `2^-64`; `ev >> 317` only reaches
//! `[0, q/2^317) ≈ [0, 0.813·2^64)`, and its targets would have to be
//! quantisations of `φ·q/2^317`, which no longer read as probabilities.
//! In a circuit the comparison costs no division: for an integer `T`,
//! `floor(ev·2^64/q) < T ⟺ ev·2^64 < T·q ⟺ ev < B(T) = ⌈T·q/2^64⌉`
//! ([`bound`]), one comparison of two canonical field elements, with `B(T)`
//! derived once per signer from its committed 64-bit target.
//!
//! `T` is `floor`, not `ceil`: rounding down never gives a signer more than
//! its share (`T/2^64 ≤ φ`), a stake of 0 gets `T = 0` and cannot win, and
//! the decision `T/2^64 < φ` is exactly the one [`crate::lottery::Lottery`]
//! already makes for `ev/2^512 < φ` (with `ev = T·2^448`), so `T` is found by
//! binary search with mithril-stm's exact-rational series and is exactly
//! `floor(φ·2^64)`, the same `φ` (with `ln(1 − phi_f)` the f64 value) as the
//! native lottery.
//!
//! ## How far quantisation moves each win probability
//! For a uniform `ev ∈ [0, q)` the win probability of one index is
//! `P(T) = #{ev < B(T)}/q = B(T)/q`.
//! 1. **Target:** `T ≤ φ·2^64 < T + 1`, so `0 ≤ φ − T/2^64 < 2^-64` (and
//!    `> 0` for a nonzero stake, `φ` being irrational).
//! 2. **Extraction:** for `0 < T < 2^64`, `T·q/2^64` is not an integer (`q` is
//!    odd), so `T·q/2^64 < B(T) < T·q/2^64 + 1`, i.e.
//!    `0 < P(T) − T/2^64 < 1/q < 2^-380`. Equivalently, each value
//!    `v = floor(ev·2^64/q)` has `⌊q/2^64⌋` or `⌈q/2^64⌉` preimages, so
//!    `|Pr[v] − 2^-64| < 1/q` for every `v`.
//! 3. **Total, per index:** `−2^-64 < P(T) − φ < 2^-380`, so
//!    `|P(T) − φ| < 2^-64 ≈ 5.4·10^-20`; over `m` indices the expected number
//!    of wins moves by less than `m·2^-64` (`< 10^-15` at mainnet's
//!    `m = 16948`). Relative to `φ` the error is `< 2^-64/φ`: a stake whose
//!    `φ < 2^-64` gets `T = 0` and never wins (at `phi_f = 0.2` that is a share
//!    `w < 2.5·10^-19`, below one lovelace of Cardano's total stake).
//!
//! `tests/snark_lottery.rs` checks items 1-2 for the actual `q` and
//! targets, and the statistics of wins against `φ`.

use ark_bls12_381::Fq;
use ark_ff::{BigInteger, PrimeField};
use blake2::Blake2b512;
use blake2::digest::Digest;
use num_bigint::BigUint;
use num_traits::Zero;

use crate::error::MithrilError;
use crate::keys::Signature;
use crate::lottery::Lottery;
use crate::poseidon::bls12_381_fq;

/// Domain tag of the message prefix hash.
pub const PREFIX_TAG: &[u8] = b"sigagg-mithril-lottery-prefix-v1";
/// Domain tag in the capacity cell (`TAG·2^64 + j`).
pub const CAPACITY_TAG: &[u8] = b"sigagg-mithril-lottery-v1";

/// The field element derived from `msgp = msg ‖ root`:
/// `Blake2b-512(PREFIX_TAG ‖ msgp)` little-endian, mod `q`.
pub fn prefix(msgp: &[u8]) -> Fq {
    let digest = Blake2b512::new().chain_update(PREFIX_TAG).chain_update(msgp).finalize();
    Fq::from_le_bytes_mod_order(&digest)
}

/// `x(σ)`: the affine x-coordinate of σ, read from its compressed encoding
/// (big-endian, the top three bits being flags). σ is already a valid
/// subgroup point, so `x < q`.
pub fn sigma_x(sigma: &Signature) -> Fq {
    let mut bytes = sigma.to_bytes();
    bytes[0] &= 0x1f;
    Fq::from_be_bytes_mod_order(&bytes)
}

/// The capacity cell for index `j`: `TAG·2^64 + j`.
pub fn capacity(index: u64) -> Fq {
    let mut bytes = CAPACITY_TAG.to_vec();
    bytes.extend_from_slice(&index.to_be_bytes());
    Fq::from_be_bytes_mod_order(&bytes)
}

/// The lottery value of index `j`: the first rate cell of
/// `Poseidon(TAG·2^64 + j, prefix, x(σ))`.
pub fn ev(prefix: Fq, sigma_x: Fq, index: u64) -> Fq {
    let mut state = [capacity(index), prefix, sigma_x];
    // The pinned instance has width 3, the state's length.
    match bls12_381_fq().permute(&mut state) {
        Ok(()) => state[1],
        Err(e) => unreachable!("the pinned instance has width 3: {e}"),
    }
}

/// `T(w) = floor(φ(w)·2^64)` for `w = stake/total_stake`,
/// `φ(w) = 1 − (1 − phi_f)^w` with `ln(1 − phi_f)` the f64 value, exactly:
/// binary search on `T` with the exact decision `T/2^64 < φ` of
/// [`Lottery`]. Refuses what [`Lottery::new`] refuses, and `phi_f` with
/// `−ln(1 − phi_f) ≥ 2` (including `phi_f = 1`), where mithril-stm's series
/// can stop early on the wrong side; below that bound its decisions are exact.
/// (Its one remaining caveat, a loss after 1000 terms, would need `φ` within
/// `6·2^1000/1000! < 10^-2200` of a multiple of `2^-64`; the result would then be one
/// too low, never too high.)
pub fn target(stake: u64, total_stake: u64, phi_f: f64) -> Result<u64, MithrilError> {
    let mut lottery = Lottery::new(phi_f, stake, total_stake)?;
    if !(phi_f > 0.0 && -(1.0 - phi_f).ln() < 2.0) {
        return Err(MithrilError::PhiFUnquantisable(phi_f));
    }
    let mut below = |t: u128| -> bool {
        // ev = T·2^448 as 64 little-endian bytes: T in the top 8 bytes.
        let mut ev = [0u8; 64];
        ev[56..].copy_from_slice(&(t as u64).to_le_bytes());
        lottery.wins(&ev)
    };
    if !below(0) {
        return Ok(0);
    }
    // Invariant: T = lo is below φ, T = hi is not (hi = 2^64 since φ < 1).
    let (mut lo, mut hi) = (0u128, 1u128 << 64);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo as u64)
}

/// `B(T) = ⌈T·q/2^64⌉`: `ev` wins against `T` iff `ev < B(T)`, and `B(T)/q`
/// is the win probability of one index.
pub fn bound(target: u64) -> Fq {
    let q: BigUint = Fq::MODULUS.into();
    let scaled = q * target;
    let b: BigUint = (&scaled >> 64u8) + u32::from(!(&scaled % (BigUint::from(1u8) << 64u8)).is_zero());
    // b ≤ q·(2^64 − 1)/2^64 + 1 < q: a canonical element.
    Fq::from(b)
}

/// `floor(ev·2^64/q)`, the 64-bit value compared with a target.
pub fn top64(ev: Fq) -> u64 {
    let q: BigUint = Fq::MODULUS.into();
    let v: BigUint = ev.into();
    let r = (v << 64u8) / q;
    // ev < q, so r < 2^64.
    r.iter_u64_digits().next().unwrap_or(0)
}

/// Whether `ev` wins against `target`: `floor(ev·2^64/q) < target`.
pub fn wins(ev: Fq, target: u64) -> bool {
    top64(ev) < target
}

/// A signer's quantised lottery for one message: its prefix, `x(σ)` and
/// target, with `B(T)` computed once.
#[derive(Clone, Debug)]
pub struct SignerLottery {
    prefix: Fq,
    sigma_x: Fq,
    bound: <Fq as PrimeField>::BigInt,
}

impl SignerLottery {
    /// The lottery of σ (with x-coordinate `sigma_x`) on `prefix`, at `target`.
    pub fn new(prefix: Fq, sigma_x: Fq, target: u64) -> SignerLottery {
        SignerLottery { prefix, sigma_x, bound: bound(target).into_bigint() }
    }

    /// Whether index `j` is won (`ev < B(T)`, the same as [`wins`]).
    pub fn wins(&self, index: u64) -> bool {
        ev(self.prefix, self.sigma_x, index).into_bigint() < self.bound
    }

    /// The indices `j < m` won, ascending.
    pub fn won_indices(&self, m: u64) -> Vec<u64> {
        if self.bound.is_zero() {
            return Vec::new();
        }
        (0..m).filter(|&j| self.wins(j)).collect()
    }
}
