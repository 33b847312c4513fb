//! The field and curves of the certificate, and the bridge from `blst` keys.
//!
//! The constraint system works in `F`, the base field of BLS12-381, which
//! is also the scalar field of BW6-767: BLS public keys (points of
//! BLS12-381's G1) are then pairs of native field elements, and KZG
//! commitments to polynomials over `F` are points of BW6-767's G1.

use std::sync::OnceLock;

use ark_ec::AffineRepr;
use ark_ff::PrimeField;
use sha2::{Digest, Sha512};
use sigagg_bls::PublicKey;

/// The field of the constraint system: BLS12-381's base field `q`
/// (381 bits), BW6-767's scalar field.
pub type F = ark_bls12_381::Fq;

/// A point of BLS12-381's G1 curve `y² = x³ + 4` over `F`, in arkworks'
/// affine form: public keys, aggregate keys and the accumulator's seed.
pub type KeyPoint = ark_bls12_381::G1Affine;

/// The pairing of the commitment scheme.
pub type Bw6 = ark_bw6_767::BW6_767;

/// A KZG commitment or opening proof: a point of BW6-767's G1.
pub type G1 = ark_bw6_767::G1Affine;

/// BW6-767's G1 in projective form.
pub type G1Projective = ark_bw6_767::G1Projective;

/// A point of BW6-767's G2 (the KZG verifier key).
pub type G2 = ark_bw6_767::G2Affine;

/// The key as a point with native coordinates.
///
/// The coordinates come from `blst`'s uncompressed encoding of a key that
/// passed `KeyValidate` (on the curve, in the subgroup, not the identity), so
/// they are canonical field elements of a valid point.
pub fn key_point(pk: &PublicKey) -> KeyPoint {
    let (x, y) = pk.affine_coordinates();
    KeyPoint::new_unchecked(F::from_be_bytes_mod_order(&x), F::from_be_bytes_mod_order(&y))
}

/// The accumulator's start point `h`: a fixed point of the curve
/// `y² = x³ + 4` over `F` that is **not** in the prime-order subgroup G1.
///
/// Why this makes the incomplete addition formula safe: the constraint
/// system adds key points to an accumulator with the affine formula, which
/// is wrong only when the two points share an x-coordinate (they are equal
/// or opposite). Every accumulator value is `h + P` for some `P` in G1 (a sum
/// of keys), and every key is in G1. If `h + P = ±pk` then `h = ±pk - P` is
/// in G1, which it is not; nor can `h + P` be the identity. So the
/// exceptional case never occurs, for any keys and any bitfield, without a
/// computational assumption and without trusting whoever picks the keys.
///
/// Derivation (nothing up the sleeve): for counter = 0, 1, ..., take
/// `x = SHA-512("sigagg-bls-cert/v1/accumulator-seed" ‖ counter as u32
/// big-endian)` as a big-endian integer reduced mod `q`; the first `x` for
/// which `x³ + 4` is a square gives the point with the smaller of its two
/// `y` values, kept if it lies outside G1 (a test pins the result).
pub fn seed_point() -> KeyPoint {
    static SEED: OnceLock<KeyPoint> = OnceLock::new();
    *SEED.get_or_init(derive_seed_point)
}

fn derive_seed_point() -> KeyPoint {
    (0u32..)
        .find_map(|counter| {
            let digest = Sha512::new()
                .chain_update(b"sigagg-bls-cert/v1/accumulator-seed")
                .chain_update(counter.to_be_bytes())
                .finalize();
            let x = F::from_be_bytes_mod_order(&digest);
            KeyPoint::get_point_from_x_unchecked(x, false).filter(|p| !p.is_in_correct_subgroup_assuming_on_curve())
        })
        .expect("half of all x give a point, and almost all points lie outside G1")
}

/// The point used for the key rows past the committee (they are never
/// added: the constraints force their bits to zero): G1's generator.
pub(crate) fn padding_point() -> KeyPoint {
    KeyPoint::generator()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::CurveGroup;
    use ark_ff::BigInteger;
    use ark_serialize::CanonicalDeserialize;
    use sigagg_bls::SecretKey;

    #[test]
    fn seed_is_on_the_curve_outside_the_subgroup_and_pinned() {
        let h = seed_point();
        assert!(h.is_on_curve());
        assert!(!h.is_in_correct_subgroup_assuming_on_curve());
        // Adding a subgroup element keeps it outside G1 (the argument above).
        let g = KeyPoint::generator();
        let moved = (h + g).into_affine();
        assert!(!moved.is_zero() && !moved.is_in_correct_subgroup_assuming_on_curve());
        // Regression pin: the derivation must never change silently.
        let x_hex: String = h.x.into_bigint().to_bytes_be().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(x_hex.len(), 96);
        assert_eq!(&x_hex[..16], SEED_X_PREFIX, "seed point changed: {x_hex}");
    }

    /// The first 8 bytes of the seed's x-coordinate, big-endian hex.
    const SEED_X_PREFIX: &str = "009c974f62984196";

    #[test]
    fn key_points_agree_with_arkworks_decoding() {
        for i in 1..6u8 {
            let pk = SecretKey::from_key_material(&[i; 32]).unwrap().public_key();
            let ours = key_point(&pk);
            // arkworks reads BLS12-381 G1 in the same (ZCash) compressed format as blst.
            let theirs = KeyPoint::deserialize_compressed(&pk.to_bytes()[..]).unwrap();
            assert_eq!(ours, theirs);
            assert!(ours.is_on_curve() && ours.is_in_correct_subgroup_assuming_on_curve());
        }
    }
}
