//! The security of a certificate, and what it rests on.
//!
//! A verified certificate says: at least `t` distinct keys of the
//! committed set (with at least the stated stake) signed the message. A
//! forger must break one of these:
//!
//! | part | assumption | level |
//! |---|---|---|
//! | the BLS signatures (BLS12-381, Ethereum ciphersuite, proofs of possession) | co-CDH in BLS12-381, random oracle for hash-to-G2 | about 117–120 bits (the pairing's target field `F_q^12`, 4 572 bits, against the tower number field sieve; Pollard rho on the 255-bit group: 127) |
//! | KZG commitments on BW6-767 | q-DLOG / q-SDH with `q < 213 966` powers, in the algebraic group model | about 128 bits: BW6-767 was built for it (its 767-bit field gives `F_p^6` of 4 602 bits); Pollard rho on the 381-bit group: 190 |
//! | the setup | at least one ceremony contributor honest (erased their secret), and the committee key's setup being that ceremony's (its recorded digest, [`crate::CommitteeKey::setup_digest`], checked against the published ceremony file); none for the development setup, which is **insecure** and refused by [`crate::verify`] | — |
//! | the committee's keys | each key's proof of possession checked when the committee was made (else a rogue key signs for all) | as the BLS row |
//! | the polynomial IOP | none: soundness error at most `(4N + 20)/q < 2^-359` per proof | information-theoretic |
//! | Fiat–Shamir | SHA-256 as a random oracle; challenges 512-bit hashes reduced mod the 381-bit `q` (bias < 2^-131) | 128 bits (collisions of SHA-256) |
//! | the accumulator's incomplete addition | none: its start point lies outside the prime-order subgroup ([`crate::field::seed_point`]) | unconditional |
//!
//! The certificate is therefore as strong as BLS12-381 itself, the weakest
//! row: [`CONJECTURED_BITS`]. There is no "proven" level in the sense the
//! STARK crates report one (a bound from a soundness theorem with no
//! computational assumption): every pairing-based level is an estimate of
//! the best known attack.
//!
//! What the certificate does not claim: zero knowledge. In counting mode
//! the signers' bitfield stays inside the proof, but the aggregate key is
//! public, and anyone can test a candidate signer set against it.

/// Estimated security of BLS12-381 (the signatures), in bits.
pub const BLS12_381_BITS: u32 = 117;

/// Estimated security of BW6-767 (the commitments), in bits.
pub const BW6_767_BITS: u32 = 128;

/// A certificate's conjectured security under a sound setup: the weaker
/// of the two curves.
pub const CONJECTURED_BITS: u32 = if BLS12_381_BITS < BW6_767_BITS { BLS12_381_BITS } else { BW6_767_BITS };

/// `log2` of the polynomial IOP's soundness error at domain size `n`: the
/// verifier's checks at a random `ζ` of a 381-bit field pass for a false
/// statement with probability at most `(4N + 20) / q`: the degree of the
/// quotient identity, plus one for each random combination (at most 7
/// constraints, 12 openings at `ζ`, the two opening points).
pub fn piop_soundness_bits(domain_size: usize) -> f64 {
    let q_bits = 380.0; // q > 2^380
    q_bits - ((4 * domain_size + 20) as f64).log2()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::MAX_DOMAIN_SIZE;

    #[test]
    fn the_weakest_curve_bounds_the_certificate() {
        assert_eq!(CONJECTURED_BITS, 117);
        assert!(piop_soundness_bits(MAX_DOMAIN_SIZE) > 359.0);
        assert!(piop_soundness_bits(2162) > piop_soundness_bits(MAX_DOMAIN_SIZE));
    }
}
