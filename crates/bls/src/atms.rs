//! Ad-hoc threshold multisignatures (ATMS) on BLS (seed 000, section 1,
//! after the Proof-of-Stake Sidechains paper).
//!
//! | algorithm | here |
//! |---|---|
//! | `PGen(1^k)` | [`pgen`]: the threshold `t` (the curve and tags are fixed) |
//! | `Gen(P)` | [`keygen`]: a key pair and its proof of possession |
//! | `Sig(sk, m)` / `Ver(m, pk, s)` | [`sig`] / [`ver`]: plain BLS |
//! | `AKey(VK)` | [`akey`]: `avk = (sum of the keys, Merkle root of the list)` |
//! | `ACheck(VK, avk)` | [`acheck_with_proofs`] (or [`acheck`] for keys already checked): recompute and compare |
//! | `ASig(m, VK, {(vk_i, s_i)})` | [`asig`]: the sum of the `d` signatures plus, for each of the `n - d` non-signers, its key and Merkle inclusion proof |
//! | `AVer(m, avk, s)` | [`aver`]: distinct, authenticated non-signer leaves; `d >= t`; pairing check under `avk.sum - sum of the non-signers' keys` |
//!
//! Keys in a list must have proven possession (rogue keys would otherwise
//! cancel honest ones in the sum); [`akey_with_proofs`] and
//! [`acheck_with_proofs`] check the proofs.

use std::collections::HashMap;

use blst::blst_p1_affine;
use rand::CryptoRng;
use rayon::prelude::*;
use thiserror::Error;

use crate::curve::g1;
use crate::error::BlsError;
use crate::keys::{PUBLIC_KEY_BYTES, PublicKey, SecretKey};
use crate::merkle::{Hash32, MAX_DEPTH, MerkleError, MerkleProof, MerkleTree};
use crate::pop::ProofOfPossession;
use crate::sig::{SIGNATURE_BYTES, Signature, SignatureSet, aggregate, batch_verify};

/// Errors of the ATMS algorithms.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AtmsError {
    /// A signature-layer error (bad point, failed pairing check, bad PoP, ...).
    #[error(transparent)]
    Bls(#[from] BlsError),
    /// A threshold of zero.
    #[error("the threshold must be at least 1")]
    InvalidThreshold,
    /// An empty key list.
    #[error("the key list is empty")]
    EmptyKeyList,
    /// A key list with the same key twice.
    #[error("the key list holds the same key at positions {first} and {second}")]
    DuplicateKey { first: usize, second: usize },
    /// A signer whose key is not in the list.
    #[error("signer #{index} is not in the key list")]
    UnknownSigner { index: usize },
    /// The same list position signed twice.
    #[error("signers #{first} and #{second} are the same key")]
    DuplicateSigner { first: usize, second: usize },
    /// An individual signature that does not verify.
    #[error("signature of signer #{index} does not verify")]
    InvalidSignature { index: usize },
    /// Fewer signers than the threshold.
    #[error("{signers} signers, below the threshold {threshold}")]
    BelowThreshold { signers: usize, threshold: usize },
    /// Two non-signer proofs for the same leaf (a key subtracted twice).
    #[error("non-signer leaf {index} is proven twice")]
    NonSignerProvenTwice { index: u64 },
    /// A non-signer proof that does not lead to the committed root.
    #[error("non-signer #{position}: key is not in the committed tree")]
    KeyNotInTree { position: usize },
    /// A non-signer proof of the wrong shape (index past the list, wrong depth).
    #[error("non-signer #{position}: malformed proof: {reason}")]
    MalformedProof { position: usize, reason: MerkleError },
    /// `ACheck` failed: the key list does not give this aggregate key.
    #[error("the aggregate key does not match the key list")]
    AggregateKeyMismatch,
    /// Malformed encoding of an ATMS object.
    #[error("malformed {what}: {reason}")]
    Encoding { what: &'static str, reason: String },
}

/// The system parameters: the threshold `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtmsParams {
    /// Minimum number of signers.
    pub threshold: usize,
}

/// `PGen`: parameters for threshold `t >= 1`.
pub fn pgen(threshold: usize) -> Result<AtmsParams, AtmsError> {
    if threshold == 0 {
        return Err(AtmsError::InvalidThreshold);
    }
    Ok(AtmsParams { threshold })
}

/// `Gen`: a fresh key pair with its proof of possession.
pub fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (SecretKey, PublicKey, ProofOfPossession) {
    let sk = SecretKey::generate(rng);
    let pk = sk.public_key();
    let pop = sk.prove_possession();
    (sk, pk, pop)
}

/// `Sig`: a local signature.
pub fn sig(sk: &SecretKey, msg: &[u8]) -> Signature {
    sk.sign(msg)
}

/// `Ver`: checks a local signature.
pub fn ver(msg: &[u8], pk: &PublicKey, signature: &Signature) -> Result<(), AtmsError> {
    Ok(signature.verify(pk, msg)?)
}

/// The aggregate key `avk = (sum of the keys, <VK>)`, with the number of
/// leaves (bound into the root as well).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateKey {
    /// Sum of all keys of the list.
    pub sum: PublicKey,
    /// Merkle root of the key list.
    pub root: Hash32,
    /// Number of keys.
    pub leaves: u64,
}

/// Bytes of an encoded [`AggregateKey`].
pub const AGGREGATE_KEY_BYTES: usize = PUBLIC_KEY_BYTES + 32 + 8;

impl AggregateKey {
    /// `sum (48) || root (32) || leaves (u64 LE)`.
    pub fn to_bytes(&self) -> [u8; AGGREGATE_KEY_BYTES] {
        let mut out = [0u8; AGGREGATE_KEY_BYTES];
        out[..48].copy_from_slice(&self.sum.to_bytes());
        out[48..80].copy_from_slice(&self.root);
        out[80..].copy_from_slice(&self.leaves.to_le_bytes());
        out
    }

    /// Decodes and validates the key.
    pub fn from_bytes(bytes: &[u8]) -> Result<AggregateKey, AtmsError> {
        if bytes.len() != AGGREGATE_KEY_BYTES {
            return Err(AtmsError::Encoding {
                what: "aggregate key",
                reason: format!("expected {AGGREGATE_KEY_BYTES} bytes, got {}", bytes.len()),
            });
        }
        let sum = PublicKey::from_bytes(&bytes[..48])?;
        let root: Hash32 = bytes[48..80].try_into().expect("32 bytes");
        let leaves = u64::from_le_bytes(bytes[80..].try_into().expect("8 bytes"));
        if leaves == 0 || crate::merkle::depth_for(leaves) > MAX_DEPTH {
            return Err(AtmsError::Encoding { what: "aggregate key", reason: format!("{leaves} leaves") });
        }
        Ok(AggregateKey { sum, root, leaves })
    }
}

/// Positions of the keys, refusing duplicates.
fn positions(keys: &[PublicKey]) -> Result<HashMap<[u8; PUBLIC_KEY_BYTES], usize>, AtmsError> {
    if keys.is_empty() {
        return Err(AtmsError::EmptyKeyList);
    }
    let mut map = HashMap::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        if let Some(first) = map.insert(k.to_bytes(), i) {
            return Err(AtmsError::DuplicateKey { first, second: i });
        }
    }
    Ok(map)
}

fn tree(keys: &[PublicKey]) -> Result<MerkleTree, AtmsError> {
    let leaves: Vec<[u8; PUBLIC_KEY_BYTES]> = keys.iter().map(PublicKey::to_bytes).collect();
    MerkleTree::new(&leaves).map_err(|e| AtmsError::Encoding { what: "key list", reason: e.to_string() })
}

/// `AKey`: the aggregate key of a list of distinct keys with proven
/// possession (for example `registry.keys()` of a [`crate::KeyRegistry`]).
pub fn akey(keys: &[PublicKey]) -> Result<AggregateKey, AtmsError> {
    positions(keys)?;
    let points: Vec<&blst_p1_affine> = keys.iter().map(PublicKey::point).collect();
    let sum = PublicKey::from_affine_unchecked(g1::to_affine(&g1::sum_refs(&points)))
        .map_err(|_| BlsError::IdentityAggregateKey)?;
    let tree = tree(keys)?;
    Ok(AggregateKey { sum, root: tree.root(), leaves: tree.leaves() })
}

/// `AKey` after checking every key's proof of possession (in parallel):
/// a rogue key is refused with [`BlsError::InvalidProofOfPossession`].
pub fn akey_with_proofs(entries: &[(PublicKey, ProofOfPossession)]) -> Result<AggregateKey, AtmsError> {
    let bad = entries.par_iter().enumerate().filter(|(_, (k, p))| p.verify(k).is_err()).map(|(i, _)| i).min();
    if let Some(index) = bad {
        return Err(BlsError::InvalidProofOfPossession { index }.into());
    }
    let keys: Vec<PublicKey> = entries.iter().map(|(k, _)| *k).collect();
    akey(&keys)
}

/// `ACheck`: whether `keys` produce `avk`.
///
/// This only recomputes and compares. An `avk` is safe to verify against
/// only if every key in the list has proven possession: a list that ends
/// with a rogue key `x·G - (sum of the others)` checks fine here and gives
/// `avk.sum = x·G`, under which its author alone signs for all `n` keys.
/// Checking a list received from others, use [`acheck_with_proofs`].
pub fn acheck(keys: &[PublicKey], avk: &AggregateKey) -> Result<(), AtmsError> {
    if akey(keys)? == *avk { Ok(()) } else { Err(AtmsError::AggregateKeyMismatch) }
}

/// `ACheck` after checking every key's proof of possession: a rogue key is
/// refused with [`BlsError::InvalidProofOfPossession`] before the
/// comparison.
pub fn acheck_with_proofs(entries: &[(PublicKey, ProofOfPossession)], avk: &AggregateKey) -> Result<(), AtmsError> {
    if akey_with_proofs(entries)? == *avk { Ok(()) } else { Err(AtmsError::AggregateKeyMismatch) }
}

/// A non-signer's key with its inclusion proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonSigner {
    /// The key, subtracted from the aggregate key.
    pub key: PublicKey,
    /// Its leaf in the committed key list.
    pub proof: MerkleProof,
}

/// An ATMS aggregate signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtmsSignature {
    /// Sum of the `d` signers' signatures.
    pub sigma: Signature,
    /// The `n - d` keys that did not sign, with their proofs.
    pub non_signers: Vec<NonSigner>,
}

/// `ASig`: aggregates the signatures of `signers` (key, signature) on `msg`.
///
/// Every signer must be a distinct key of `keys`; the signatures are
/// checked (one randomized batch, then one by one to name a bad one) so
/// that a bad local signature is reported here rather than making the
/// aggregate fail later. Fewer than `t` signers is an error.
pub fn asig(
    params: &AtmsParams,
    msg: &[u8],
    keys: &[PublicKey],
    signers: &[(PublicKey, Signature)],
) -> Result<AtmsSignature, AtmsError> {
    let pos = positions(keys)?;
    let mut signed_by: Vec<Option<usize>> = vec![None; keys.len()];
    for (i, (k, _)) in signers.iter().enumerate() {
        let &p = pos.get(&k.to_bytes()).ok_or(AtmsError::UnknownSigner { index: i })?;
        if let Some(first) = signed_by[p] {
            return Err(AtmsError::DuplicateSigner { first, second: i });
        }
        signed_by[p] = Some(i);
    }
    if signers.len() < params.threshold {
        return Err(AtmsError::BelowThreshold { signers: signers.len(), threshold: params.threshold });
    }
    let sets: Vec<SignatureSet<'_>> =
        signers.iter().map(|(k, s)| SignatureSet { public_key: *k, message: msg, signature: *s }).collect();
    if batch_verify(&sets).is_err() {
        let index = signers.par_iter().position_first(|(k, s)| s.verify(k, msg).is_err());
        return Err(AtmsError::InvalidSignature { index: index.unwrap_or(0) });
    }
    let sigs: Vec<Signature> = signers.iter().map(|(_, s)| *s).collect();
    let sigma = aggregate(&sigs)?;
    let tree = tree(keys)?;
    let non_signers = signed_by
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(p, _)| {
            Ok(NonSigner {
                key: keys[p],
                proof: tree
                    .prove(p as u64)
                    .map_err(|e| AtmsError::Encoding { what: "key list", reason: e.to_string() })?,
            })
        })
        .collect::<Result<_, AtmsError>>()?;
    Ok(AtmsSignature { sigma, non_signers })
}

/// `AVer`: verifies an ATMS signature against the aggregate key.
///
/// Checks, cheapest first: the non-signers are distinct leaves; `d = n -
/// #non-signers >= t`; every proof leads to `avk.root`; then one pairing
/// check of `sigma` under `avk.sum - sum of the non-signers' keys`.
pub fn aver(params: &AtmsParams, msg: &[u8], avk: &AggregateKey, signature: &AtmsSignature) -> Result<(), AtmsError> {
    let mut seen = std::collections::HashSet::with_capacity(signature.non_signers.len());
    for ns in &signature.non_signers {
        if !seen.insert(ns.proof.index) {
            return Err(AtmsError::NonSignerProvenTwice { index: ns.proof.index });
        }
    }
    let non_signers = signature.non_signers.len() as u64;
    let signers = avk.leaves.saturating_sub(non_signers);
    if non_signers > avk.leaves || (signers as usize) < params.threshold {
        return Err(AtmsError::BelowThreshold { signers: signers as usize, threshold: params.threshold });
    }
    signature.non_signers.par_iter().enumerate().try_for_each(|(position, ns)| {
        ns.proof.verify(&avk.root, avk.leaves, &ns.key.to_bytes()).map_err(|e| match e {
            MerkleError::Mismatch => AtmsError::KeyNotInTree { position },
            reason => AtmsError::MalformedProof { position, reason },
        })
    })?;
    let absent: Vec<&blst_p1_affine> = signature.non_signers.iter().map(|n| n.key.point()).collect();
    let mut apk = g1::from_affine(avk.sum.point());
    g1::add_assign(&mut apk, &g1::neg(&g1::sum_refs(&absent)));
    let apk = PublicKey::from_affine_unchecked(g1::to_affine(&apk)).map_err(|_| BlsError::IdentityAggregateKey)?;
    Ok(signature.sigma.verify(&apk, msg)?)
}

impl AtmsSignature {
    /// `sigma (96) || count u32 LE || per non-signer: key (48) || index u64 LE
    /// || depth u8 || depth x 32-byte siblings`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(100 + self.non_signers.len() * (57 + 32 * 20));
        out.extend_from_slice(&self.sigma.to_bytes());
        out.extend_from_slice(&(self.non_signers.len() as u32).to_le_bytes());
        for ns in &self.non_signers {
            out.extend_from_slice(&ns.key.to_bytes());
            out.extend_from_slice(&ns.proof.index.to_le_bytes());
            out.push(ns.proof.siblings.len() as u8);
            for s in &ns.proof.siblings {
                out.extend_from_slice(s);
            }
        }
        out
    }

    /// Decodes, validating every point; lengths are checked before any
    /// allocation so that a short input cannot announce a huge count.
    pub fn from_bytes(bytes: &[u8]) -> Result<AtmsSignature, AtmsError> {
        let bad = |reason: String| AtmsError::Encoding { what: "ATMS signature", reason };
        let mut r = Reader { bytes, at: 0 };
        let sigma = Signature::from_bytes(r.take(SIGNATURE_BYTES).map_err(bad)?)?;
        let count = u32::from_le_bytes(r.take(4).map_err(bad)?.try_into().expect("4 bytes")) as usize;
        const MIN_ENTRY: usize = PUBLIC_KEY_BYTES + 8 + 1;
        if count > r.remaining() / MIN_ENTRY {
            return Err(bad(format!("{count} non-signers cannot fit in {} bytes", r.remaining())));
        }
        let mut non_signers = Vec::with_capacity(count);
        for _ in 0..count {
            let key = PublicKey::from_bytes(r.take(PUBLIC_KEY_BYTES).map_err(bad)?)?;
            let index = u64::from_le_bytes(r.take(8).map_err(bad)?.try_into().expect("8 bytes"));
            let depth = r.take(1).map_err(bad)?[0] as usize;
            if depth > MAX_DEPTH {
                return Err(bad(format!("proof depth {depth} above {MAX_DEPTH}")));
            }
            let siblings =
                r.take(32 * depth).map_err(bad)?.chunks(32).map(|c| c.try_into().expect("32 bytes")).collect();
            non_signers.push(NonSigner { key, proof: MerkleProof { index, siblings } });
        }
        if r.remaining() != 0 {
            return Err(bad(format!("{} trailing bytes", r.remaining())));
        }
        Ok(AtmsSignature { sigma, non_signers })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.remaining() < n {
            return Err(format!("truncated: needed {n} more bytes at offset {}", self.at));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    struct Setup {
        sks: Vec<SecretKey>,
        keys: Vec<PublicKey>,
        pops: Vec<ProofOfPossession>,
    }

    fn setup(n: usize) -> Setup {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(n as u64);
        let (mut sks, mut keys, mut pops) = (vec![], vec![], vec![]);
        for _ in 0..n {
            let (sk, pk, pop) = keygen(&mut rng);
            sks.push(sk);
            keys.push(pk);
            pops.push(pop);
        }
        Setup { sks, keys, pops }
    }

    fn signers(s: &Setup, which: &[usize], msg: &[u8]) -> Vec<(PublicKey, Signature)> {
        which.iter().map(|&i| (s.keys[i], sig(&s.sks[i], msg))).collect()
    }

    #[test]
    fn round_trip_with_threshold() {
        let s = setup(7);
        let params = pgen(4).unwrap();
        let entries: Vec<_> = s.keys.iter().copied().zip(s.pops.iter().copied()).collect();
        let avk = akey_with_proofs(&entries).unwrap();
        assert_eq!(avk, akey(&s.keys).unwrap());
        acheck(&s.keys, &avk).unwrap();
        let msg = b"sidechain certificate";
        for set in [&[0usize, 2, 3, 6][..], &[1, 2, 3, 4, 5], &[0, 1, 2, 3, 4, 5, 6]] {
            let sg = asig(&params, msg, &s.keys, &signers(&s, set, msg)).unwrap();
            assert_eq!(sg.non_signers.len(), 7 - set.len());
            aver(&params, msg, &avk, &sg).unwrap();
            let decoded = AtmsSignature::from_bytes(&sg.to_bytes()).unwrap();
            assert_eq!(decoded, sg);
            aver(&params, msg, &avk, &decoded).unwrap();
            assert_eq!(AggregateKey::from_bytes(&avk.to_bytes()).unwrap(), avk);
        }
        ver(msg, &s.keys[0], &sig(&s.sks[0], msg)).unwrap();
        assert!(ver(b"other", &s.keys[0], &sig(&s.sks[0], msg)).is_err());
        assert_eq!(pgen(0), Err(AtmsError::InvalidThreshold));
    }

    #[test]
    fn below_threshold_is_refused_by_asig_and_aver() {
        let s = setup(6);
        let params = pgen(4).unwrap();
        let avk = akey(&s.keys).unwrap();
        let msg = b"m";
        assert_eq!(
            asig(&params, msg, &s.keys, &signers(&s, &[0, 1, 2], msg)),
            Err(AtmsError::BelowThreshold { signers: 3, threshold: 4 })
        );
        // A valid 3-of-6 signature made under a lower threshold fails AVer at t = 4.
        let low = asig(&pgen(3).unwrap(), msg, &s.keys, &signers(&s, &[0, 1, 2], msg)).unwrap();
        aver(&pgen(3).unwrap(), msg, &avk, &low).unwrap();
        assert_eq!(aver(&params, msg, &avk, &low), Err(AtmsError::BelowThreshold { signers: 3, threshold: 4 }));
    }

    #[test]
    fn non_signer_proven_twice_is_refused() {
        let s = setup(6);
        let params = pgen(2).unwrap();
        let avk = akey(&s.keys).unwrap();
        let msg = b"m";
        let mut sg = asig(&params, msg, &s.keys, &signers(&s, &[0, 1, 2, 3], msg)).unwrap();
        // Claim non-signer 4 twice (and drop 5): its key would be subtracted twice.
        sg.non_signers[1] = sg.non_signers[0].clone();
        assert_eq!(aver(&params, msg, &avk, &sg), Err(AtmsError::NonSignerProvenTwice { index: 4 }));
    }

    #[test]
    fn proof_for_a_key_not_in_the_tree_is_refused() {
        let s = setup(6);
        let outsider = setup(9).keys[8];
        let params = pgen(2).unwrap();
        let avk = akey(&s.keys).unwrap();
        let msg = b"m";
        let mut sg = asig(&params, msg, &s.keys, &signers(&s, &[0, 1, 2, 3], msg)).unwrap();
        sg.non_signers[0].key = outsider;
        assert_eq!(aver(&params, msg, &avk, &sg), Err(AtmsError::KeyNotInTree { position: 0 }));
        // A proof pointing past the list.
        let mut sg2 = asig(&params, msg, &s.keys, &signers(&s, &[0, 1, 2, 3], msg)).unwrap();
        sg2.non_signers[0].proof.index = 7;
        assert!(matches!(aver(&params, msg, &avk, &sg2), Err(AtmsError::MalformedProof { position: 0, .. })));
    }

    #[test]
    fn duplicate_keys_and_bad_signers_are_refused() {
        let s = setup(5);
        let mut dup = s.keys.clone();
        dup[3] = dup[1];
        assert_eq!(akey(&dup), Err(AtmsError::DuplicateKey { first: 1, second: 3 }));
        assert_eq!(acheck(&dup, &akey(&s.keys).unwrap()), Err(AtmsError::DuplicateKey { first: 1, second: 3 }));
        assert_eq!(akey(&[]), Err(AtmsError::EmptyKeyList));
        let params = pgen(2).unwrap();
        let msg = b"m";
        let mut sgs = signers(&s, &[0, 1, 2], msg);
        sgs.push(sgs[1]);
        assert_eq!(asig(&params, msg, &s.keys, &sgs), Err(AtmsError::DuplicateSigner { first: 1, second: 3 }));
        let outsider = setup(7).keys[6];
        let mut sgs = signers(&s, &[0, 1, 2], msg);
        sgs[2].0 = outsider;
        assert_eq!(asig(&params, msg, &s.keys, &sgs), Err(AtmsError::UnknownSigner { index: 2 }));
        // A tampered local signature (signer 1 signed another message).
        let mut sgs = signers(&s, &[0, 1, 2], msg);
        sgs[1].1 = sig(&s.sks[1], b"other");
        assert_eq!(asig(&params, msg, &s.keys, &sgs), Err(AtmsError::InvalidSignature { index: 1 }));
        // ACheck against another list.
        assert_eq!(acheck(&s.keys[..4], &akey(&s.keys).unwrap()), Err(AtmsError::AggregateKeyMismatch));
    }

    #[test]
    fn wrong_message_and_tampered_aggregate_are_refused() {
        let s = setup(5);
        let params = pgen(3).unwrap();
        let avk = akey(&s.keys).unwrap();
        let sg = asig(&params, b"m", &s.keys, &signers(&s, &[0, 2, 4], b"m")).unwrap();
        assert!(matches!(aver(&params, b"n", &avk, &sg), Err(AtmsError::Bls(BlsError::VerificationFailed))));
        let mut t = sg.clone();
        t.sigma = sig(&s.sks[0], b"m");
        assert!(matches!(aver(&params, b"m", &avk, &t), Err(AtmsError::Bls(BlsError::VerificationFailed))));
        // Hiding a non-signer (claiming it signed) breaks the pairing check.
        let mut hidden = sg.clone();
        hidden.non_signers.pop();
        assert!(matches!(aver(&params, b"m", &avk, &hidden), Err(AtmsError::Bls(BlsError::VerificationFailed))));
    }

    #[test]
    fn rogue_key_is_refused_at_akey() {
        let s = setup(3);
        // The attacker registers pk* = x*G - pk_0 with a proof made for x*G.
        let x = SecretKey::from_key_material(&[3u8; 32]).unwrap();
        let mut rogue = g1::from_affine(x.public_key().point());
        g1::add_assign(&mut rogue, &g1::neg(&g1::from_affine(s.keys[0].point())));
        let rogue = PublicKey::from_affine_unchecked(g1::to_affine(&rogue)).unwrap();
        let mut entries: Vec<_> = s.keys.iter().copied().zip(s.pops.iter().copied()).collect();
        entries.push((rogue, x.prove_possession()));
        assert_eq!(akey_with_proofs(&entries), Err(BlsError::InvalidProofOfPossession { index: 3 }.into()));
    }

    /// The rogue-key attack `acheck` alone cannot stop: the last key cancels
    /// the others, the list checks, and its author signs for all of them.
    /// `acheck_with_proofs` refuses the list.
    #[test]
    fn a_rogue_list_passes_acheck_but_not_acheck_with_proofs() {
        let s = setup(3);
        let x = SecretKey::from_key_material(&[5u8; 32]).unwrap();
        let mut rogue = g1::from_affine(x.public_key().point());
        for k in &s.keys {
            g1::add_assign(&mut rogue, &g1::neg(&g1::from_affine(k.point())));
        }
        let rogue = PublicKey::from_affine_unchecked(g1::to_affine(&rogue)).unwrap();
        let mut keys = s.keys.clone();
        keys.push(rogue);
        let avk = akey(&keys).unwrap();
        acheck(&keys, &avk).unwrap();
        let forged = AtmsSignature { sigma: sig(&x, b"m"), non_signers: vec![] };
        assert!(aver(&pgen(4).unwrap(), b"m", &avk, &forged).is_ok(), "the attack works on an unchecked list");
        let mut entries: Vec<_> = s.keys.iter().copied().zip(s.pops.iter().copied()).collect();
        assert_eq!(acheck_with_proofs(&entries, &akey(&s.keys).unwrap()), Ok(()));
        entries.push((rogue, x.prove_possession()));
        assert_eq!(acheck_with_proofs(&entries, &avk), Err(BlsError::InvalidProofOfPossession { index: 3 }.into()));
    }

    #[test]
    fn malformed_encodings_are_typed_errors() {
        let s = setup(4);
        let params = pgen(2).unwrap();
        let sg = asig(&params, b"m", &s.keys, &signers(&s, &[0, 1], b"m")).unwrap();
        let bytes = sg.to_bytes();
        for cut in [0, 50, 96, 99, 100, 150, bytes.len() - 1] {
            assert!(AtmsSignature::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(AtmsSignature::from_bytes(&long), Err(AtmsError::Encoding { .. })));
        // A huge announced count in a short message.
        let mut huge = bytes[..100].to_vec();
        huge[96..100].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(AtmsSignature::from_bytes(&huge), Err(AtmsError::Encoding { .. })));
        // A depth above the maximum.
        let mut deep = bytes.clone();
        deep[100 + 48 + 8] = 200;
        assert!(matches!(AtmsSignature::from_bytes(&deep), Err(AtmsError::Encoding { .. })));
        // A bad point in a non-signer key.
        let mut bad_key = bytes.clone();
        bad_key[100] &= 0x7f;
        assert!(matches!(AtmsSignature::from_bytes(&bad_key), Err(AtmsError::Bls(BlsError::BadEncoding { .. }))));
        let avk = akey(&s.keys).unwrap().to_bytes();
        assert!(AggregateKey::from_bytes(&avk[..87]).is_err());
        let mut zero_leaves = avk;
        zero_leaves[80..].fill(0);
        assert!(AggregateKey::from_bytes(&zero_leaves).is_err());
    }
}
