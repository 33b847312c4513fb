//! Signatures of the Ethereum ciphersuite: sign, verify, aggregate, fast
//! aggregate verify, aggregate verify and randomized batch verification.
//!
//! Every verification here runs on the calling thread with one multi-Miller
//! loop and one final exponentiation; callers parallelize across
//! independent checks with rayon.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use blst::{blst_p1_affine, blst_p2_affine};
use rand::CryptoRng;
use rayon::prelude::*;

use crate::curve::{self, g1, g2};
use crate::error::{BlsError, Object};
use crate::keys::PublicKey;

/// Domain-separation tag of message signatures (Ethereum, IETF PoP scheme).
pub const DST_SIG: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// Domain-separation tag of proofs of possession: a different tag, so that a
/// proof can never be replayed as a signature on the key's bytes.
pub const DST_POP: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// Bytes in a compressed signature.
pub const SIGNATURE_BYTES: usize = 96;
/// Bits of each random weight in batch verification: a forged batch passes
/// with probability at most 2^-64.
pub const BATCH_WEIGHT_BITS: usize = 64;

/// A BLS signature: a point of G2, checked to be on the curve and in the
/// prime-order subgroup when decoded. The identity is a valid encoding (the
/// Ethereum rules aggregate it); it never verifies against a valid key.
#[derive(Clone, Copy)]
pub struct Signature(pub(crate) blst_p2_affine);

impl Signature {
    /// Decodes a 96-byte compressed signature with the curve and subgroup checks.
    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, BlsError> {
        g2::decompress(bytes).map(Signature).map_err(|e| BlsError::from_point(Object::Signature, e))
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_BYTES] {
        g2::compress(&self.0)
    }

    /// Whether this is the identity (the aggregate of nothing).
    pub fn is_identity(&self) -> bool {
        g2::is_identity(&self.0)
    }

    /// Verifies `self` on `msg` under `pk`.
    pub fn verify(&self, pk: &PublicKey, msg: &[u8]) -> Result<(), BlsError> {
        if core_verify(pk.point(), msg, DST_SIG, &self.0) { Ok(()) } else { Err(BlsError::VerificationFailed) }
    }

    /// Wraps a point computed from subgroup points (sums of signatures,
    /// multiples of a hashed message), here or in `sigagg-horn`. *Unchecked*:
    /// neither the curve nor the subgroup is tested, which is the caller's
    /// invariant; points from anywhere else go through
    /// [`Signature::from_bytes`].
    pub fn from_affine_unchecked(p: blst_p2_affine) -> Signature {
        Signature(p)
    }

    /// The underlying affine point, for [`crate::curve`] arithmetic.
    pub fn point(&self) -> &blst_p2_affine {
        &self.0
    }
}

impl PartialEq for Signature {
    fn eq(&self, other: &Self) -> bool {
        g2::eq(&self.0, &other.0)
    }
}

impl Eq for Signature {}

impl std::fmt::Debug for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signature({})", crate::hex_short(&self.to_bytes()))
    }
}

/// `-G1`, the partner of the signature in every pairing check
/// `e(pk, H(m)) * e(-G1, sig) == 1`.
pub(crate) fn neg_g1() -> &'static blst_p1_affine {
    static NEG: OnceLock<blst_p1_affine> = OnceLock::new();
    NEG.get_or_init(|| g1::to_affine(&g1::neg(&g1::generator())))
}

/// `e(pk, H(msg)) == e(G1, sig)`, for an already validated key and signature.
pub(crate) fn core_verify(pk: &blst_p1_affine, msg: &[u8], dst: &[u8], sig: &blst_p2_affine) -> bool {
    if g1::is_identity(pk) {
        return false;
    }
    let h = curve::hash_to_g2(msg, dst);
    curve::pairing_product_is_one(&[(*pk, h), (*neg_g1(), *sig)])
}

/// Aggregates signatures by adding them (bulk addition). At least one is
/// required; the identity is a valid summand.
pub fn aggregate(signatures: &[Signature]) -> Result<Signature, BlsError> {
    if signatures.is_empty() {
        return Err(BlsError::Empty("no signatures to aggregate"));
    }
    let refs: Vec<&blst_p2_affine> = signatures.iter().map(|s| &s.0).collect();
    Ok(Signature(g2::to_affine(&g2::sum_refs(&refs))))
}

/// Aggregates public keys (bulk addition). Refuses an empty list and an
/// identity sum.
///
/// The keys must have proven possession (see [`crate::KeyRegistry`]);
/// otherwise a rogue key can cancel the others.
pub fn aggregate_public_keys(keys: &[PublicKey]) -> Result<PublicKey, BlsError> {
    if keys.is_empty() {
        return Err(BlsError::Empty("no public keys to aggregate"));
    }
    let refs: Vec<&blst_p1_affine> = keys.iter().map(|k| k.point()).collect();
    PublicKey::from_affine_unchecked(g1::to_affine(&g1::sum_refs(&refs))).map_err(|_| BlsError::IdentityAggregateKey)
}

/// `FastAggregateVerify`: many signers, one message. The keys must have
/// proven possession; an empty list or an identity aggregate key is refused.
pub fn fast_aggregate_verify(keys: &[PublicKey], msg: &[u8], signature: &Signature) -> Result<(), BlsError> {
    let apk = aggregate_public_keys(keys)?;
    signature.verify(&apk, msg)
}

/// `AggregateVerify`: one aggregate signature over `(key_i, msg_i)` pairs.
/// With proofs of possession the messages need not be distinct.
pub fn aggregate_verify(keys: &[PublicKey], messages: &[&[u8]], signature: &Signature) -> Result<(), BlsError> {
    if keys.is_empty() {
        return Err(BlsError::Empty("no public keys"));
    }
    if keys.len() != messages.len() {
        return Err(BlsError::LengthMismatch {
            left_what: "keys",
            left: keys.len(),
            right_what: "messages",
            right: messages.len(),
        });
    }
    let mut pairs: Vec<(blst_p1_affine, blst_p2_affine)> =
        keys.par_iter().zip(messages.par_iter()).map(|(k, m)| (*k.point(), curve::hash_to_g2(m, DST_SIG))).collect();
    pairs.push((*neg_g1(), signature.0));
    if curve::pairing_product_is_one(&pairs) { Ok(()) } else { Err(BlsError::VerificationFailed) }
}

/// One `(key, message, signature)` triple of a batch.
#[derive(Clone, Copy, Debug)]
pub struct SignatureSet<'a> {
    /// The signer's key (or an aggregate of proven keys).
    pub public_key: PublicKey,
    /// The signed message.
    pub message: &'a [u8],
    /// The signature to check.
    pub signature: Signature,
}

/// Draws `n` nonzero 64-bit weights from a cryptographic RNG.
pub(crate) fn random_weights<R: CryptoRng + ?Sized>(rng: &mut R, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| {
            loop {
                let w = rng.next_u64();
                if w != 0 {
                    break w;
                }
            }
        })
        .collect()
}

/// Verifies many signature sets at once with random weights from the
/// thread-local CSPRNG (seeded from the operating system).
///
/// Checks `prod_m e(sum_{i: m_i = m} r_i pk_i, H(m)) * e(-G1, sum_i r_i sig_i) == 1`:
/// one hash per distinct message, two multi-scalar multiplications and a
/// single final exponentiation. Sound because every signature was
/// subgroup-checked at decoding and the weights are secret, nonzero and
/// 64 bits long. `Ok` only if (except with probability 2^-64) every set verifies.
pub fn batch_verify(sets: &[SignatureSet<'_>]) -> Result<(), BlsError> {
    batch_verify_with_rng(sets, &mut rand::rng())
}

/// [`batch_verify`] with an explicit cryptographic RNG.
pub fn batch_verify_with_rng<R: CryptoRng + ?Sized>(sets: &[SignatureSet<'_>], rng: &mut R) -> Result<(), BlsError> {
    if sets.is_empty() {
        return Err(BlsError::Empty("no signature sets"));
    }
    let weights = random_weights(rng, sets.len());
    let mut groups: BTreeMap<&[u8], Vec<usize>> = BTreeMap::new();
    for (i, set) in sets.iter().enumerate() {
        groups.entry(set.message).or_default().push(i);
    }
    let groups: Vec<(&[u8], Vec<usize>)> = groups.into_iter().collect();
    let mut pairs: Vec<(blst_p1_affine, blst_p2_affine)> = groups
        .par_iter()
        .map(|(msg, idx)| {
            let keys: Vec<&blst_p1_affine> = idx.iter().map(|&i| sets[i].public_key.point()).collect();
            let scalars: Vec<u8> = idx.iter().flat_map(|&i| weights[i].to_le_bytes()).collect();
            let p = g1::msm_refs(&keys, &scalars, BATCH_WEIGHT_BITS);
            (g1::to_affine(&p), curve::hash_to_g2(msg, DST_SIG))
        })
        .collect();
    let sigs: Vec<&blst_p2_affine> = sets.iter().map(|s| s.signature.point()).collect();
    let scalars: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
    let s = g2::msm_refs(&sigs, &scalars, BATCH_WEIGHT_BITS);
    pairs.push((*neg_g1(), g2::to_affine(&s)));
    if curve::pairing_product_is_one(&pairs) { Ok(()) } else { Err(BlsError::VerificationFailed) }
}

/// Hash to G2 under an arbitrary tag, returning the affine coordinates as
/// big-endian field elements `(x.c0, x.c1, y.c0, y.c1)`; exposed for the
/// RFC 9380 test vectors.
pub fn hash_to_g2_coordinates(msg: &[u8], dst: &[u8]) -> [[u8; 48]; 4] {
    let p = curve::hash_to_g2(msg, dst);
    let mut out = [[0u8; 48]; 4];
    let fps = [&p.x.fp[0], &p.x.fp[1], &p.y.fp[0], &p.y.fp[1]];
    for (o, fp) in out.iter_mut().zip(fps) {
        // SAFETY: valid references, 48-byte output buffer.
        unsafe { blst::blst_bendian_from_fp(o.as_mut_ptr(), fp) };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SecretKey;
    use rand::SeedableRng;

    fn key(i: u8) -> SecretKey {
        SecretKey::from_key_material(&[i; 32]).unwrap()
    }

    #[test]
    fn sign_verify_round_trip_and_wrong_inputs() {
        let sk = key(1);
        let pk = sk.public_key();
        let sig = sk.sign(b"hello");
        sig.verify(&pk, b"hello").unwrap();
        assert_eq!(sig.verify(&pk, b"hellp"), Err(BlsError::VerificationFailed));
        assert_eq!(sig.verify(&key(2).public_key(), b"hello"), Err(BlsError::VerificationFailed));
        let decoded = Signature::from_bytes(&sig.to_bytes()).unwrap();
        assert_eq!(decoded, sig);
        // Tampered: another valid point (the signature on a different message).
        let other = sk.sign(b"other");
        assert_eq!(other.verify(&pk, b"hello"), Err(BlsError::VerificationFailed));
        // The identity signature never verifies against a valid key.
        let mut inf = [0u8; 96];
        inf[0] = 0xc0;
        let id = Signature::from_bytes(&inf).unwrap();
        assert!(id.is_identity());
        assert_eq!(id.verify(&pk, b"hello"), Err(BlsError::VerificationFailed));
    }

    #[test]
    fn malformed_signature_bytes_are_typed_errors() {
        let sig = key(3).sign(b"m").to_bytes();
        assert!(matches!(Signature::from_bytes(&sig[..95]), Err(BlsError::WrongLength { .. })));
        let mut no_flag = sig;
        no_flag[0] &= 0x7f;
        assert_eq!(Signature::from_bytes(&no_flag), Err(BlsError::BadEncoding { what: Object::Signature }));
        // Infinity flag with nonzero bits.
        let mut bad_inf = [0u8; 96];
        bad_inf[0] = 0xc0;
        bad_inf[95] = 1;
        assert_eq!(Signature::from_bytes(&bad_inf), Err(BlsError::BadEncoding { what: Object::Signature }));
    }

    #[test]
    fn aggregation_and_fast_aggregate_verify() {
        let sks: Vec<SecretKey> = (10..20).map(key).collect();
        let pks: Vec<PublicKey> = sks.iter().map(|s| s.public_key()).collect();
        let sigs: Vec<Signature> = sks.iter().map(|s| s.sign(b"vote")).collect();
        let agg = aggregate(&sigs).unwrap();
        fast_aggregate_verify(&pks, b"vote", &agg).unwrap();
        assert_eq!(fast_aggregate_verify(&pks[1..], b"vote", &agg), Err(BlsError::VerificationFailed));
        assert_eq!(fast_aggregate_verify(&pks, b"vote!", &agg), Err(BlsError::VerificationFailed));
        assert!(matches!(fast_aggregate_verify(&[], b"vote", &agg), Err(BlsError::Empty(_))));
        assert!(matches!(aggregate(&[]), Err(BlsError::Empty(_))));
        // Repeated key: aggregating [pk, pk] must double, and verify sig+sig.
        let twice = aggregate(&[sigs[0], sigs[0]]).unwrap();
        fast_aggregate_verify(&[pks[0], pks[0]], b"vote", &twice).unwrap();
    }

    #[test]
    fn identity_aggregate_key_is_refused() {
        // pk and -pk: the sum is the identity. A -pk has no PoP in practice, but
        // the aggregate check must hold on its own.
        let pk = key(4).public_key();
        let neg = PublicKey::from_affine_unchecked(g1::to_affine(&g1::neg(&g1::from_affine(pk.point())))).unwrap();
        let mut inf = [0u8; 96];
        inf[0] = 0xc0;
        let id = Signature::from_bytes(&inf).unwrap();
        assert_eq!(fast_aggregate_verify(&[pk, neg], b"x", &id), Err(BlsError::IdentityAggregateKey));
    }

    #[test]
    fn aggregate_verify_distinct_messages() {
        let sks: Vec<SecretKey> = (30..34).map(key).collect();
        let pks: Vec<PublicKey> = sks.iter().map(|s| s.public_key()).collect();
        let msgs: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 5]).collect();
        let msg_refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
        let sigs: Vec<Signature> = sks.iter().zip(&msgs).map(|(s, m)| s.sign(m)).collect();
        let agg = aggregate(&sigs).unwrap();
        aggregate_verify(&pks, &msg_refs, &agg).unwrap();
        let mut swapped = msg_refs.clone();
        swapped.swap(0, 1);
        assert_eq!(aggregate_verify(&pks, &swapped, &agg), Err(BlsError::VerificationFailed));
        assert!(matches!(aggregate_verify(&pks, &msg_refs[..3], &agg), Err(BlsError::LengthMismatch { .. })));
    }

    #[test]
    fn batch_verification_accepts_valid_and_rejects_forged_pairs() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let sks: Vec<SecretKey> = (40..48).map(key).collect();
        let msgs: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i % 3; 4]).collect();
        let mut sets: Vec<SignatureSet<'_>> = sks
            .iter()
            .zip(&msgs)
            .map(|(s, m)| SignatureSet { public_key: s.public_key(), message: m, signature: s.sign(m) })
            .collect();
        batch_verify_with_rng(&sets, &mut rng).unwrap();
        batch_verify(&sets).unwrap();
        // Forge: S1 + S', S2 - S' keeps the plain sum but breaks each set.
        let delta = key(99).sign(b"delta");
        let d = g2::from_affine(delta.point());
        let mut s0 = g2::from_affine(sets[0].signature.point());
        g2::add_assign(&mut s0, &d);
        let mut s1 = g2::from_affine(sets[1].signature.point());
        g2::add_assign(&mut s1, &g2::neg(&d));
        sets[0].signature = Signature(g2::to_affine(&s0));
        sets[1].signature = Signature(g2::to_affine(&s1));
        // The naive aggregate check of the two still passes...
        let agg = aggregate(&[sets[0].signature, sets[1].signature]).unwrap();
        aggregate_verify(&[sets[0].public_key, sets[1].public_key], &[sets[0].message, sets[1].message], &agg).unwrap();
        // ...but the randomized batch does not.
        assert_eq!(batch_verify(&sets), Err(BlsError::VerificationFailed));
        assert!(matches!(batch_verify(&[]), Err(BlsError::Empty(_))));
    }

    #[test]
    fn weights_are_nonzero() {
        struct Zeros(u32);
        // An RNG that returns zero first: the weight loop must skip it.
        impl rand::TryRng for Zeros {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok(0)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                self.0 += 1;
                Ok(if self.0 < 3 { 0 } else { self.0 as u64 })
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                dst.fill(0);
                Ok(())
            }
        }
        impl rand::TryCryptoRng for Zeros {}
        let w = random_weights(&mut Zeros(0), 2);
        assert_eq!(w, vec![3, 4]);
    }
}
