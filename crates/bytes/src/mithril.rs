//! Mithril stake-based threshold signatures (STM, `sigagg-mithril`) on
//! bytes: parameters, keys with proofs of possession, registration, the
//! lottery signing, the clerk's concatenation certificate and its
//! verification.
//!
//! Encodings are mithril-stm 0.13's where it has one: parameters, single
//! signatures, the aggregate verification key and the certificate (its
//! `AggregateSignature`, `0x01 ‖ CBOR`), signing keys (32-byte big-endian
//! scalar) and keys with their proof of possession (`mvk ‖ k1 ‖ k2`, 192
//! bytes). A certificate made here verifies in mithril-stm and the other
//! way round. The closed registration, which mithril-stm does not encode,
//! has a layout of its own ([`register`]).
//!
//! ```
//! use sigagg_bytes::mithril::{self, Signed};
//!
//! let params = mithril::parameters(2, 20, 0.9).unwrap();
//! let (sk_a, key_a) = mithril::keygen(Some(&[1; 32])).unwrap();
//! let (sk_b, key_b) = mithril::keygen(Some(&[2; 32])).unwrap();
//! let reg = mithril::register(&[&key_a[..], &key_b[..]], &[30, 70]).unwrap();
//! let mut sigs = vec![];
//! for sk in [&sk_a, &sk_b] {
//!     if let Signed::Won(sig) = mithril::sign(&params, &reg.registration, &sk[..], b"epoch 7").unwrap() {
//!         sigs.push(sig);
//!     }
//! }
//! let sigs: Vec<&[u8]> = sigs.iter().map(Vec::as_slice).collect();
//! let cert = mithril::aggregate(&params, &reg.registration, b"epoch 7", &sigs).unwrap();
//! assert!(mithril::verify(&params, &reg.avk, b"epoch 7", &cert).unwrap().indices >= 2);
//! let e = mithril::verify(&params, &reg.avk, b"epoch 8", &cert).unwrap_err();
//! assert_eq!(e.kind(), sigagg_bytes::ErrorKind::Verify);
//! ```

use sigagg_mithril::{
    AggregateSignature, AggregateVerificationKey, Clerk, ClosedRegistration, KeyRegistration, MithrilError, Parameters,
    RegistrationEntry, SIGNING_KEY_BYTES as SK_BYTES, Signer, SigningKey, SingleSignature, VERIFICATION_KEY_BYTES,
    VerificationKey, VerificationKeyPop,
};
use zeroize::Zeroizing;

use crate::error::{Error, ErrorKind, Result};
use crate::input::{decode, decode_each, same_length};

/// Bytes of a signing key (big-endian scalar).
pub const SIGNING_KEY_BYTES: usize = SK_BYTES;
/// Bytes of a verification key with its proof of possession
/// (`mvk ‖ k1 ‖ k2`: 96 + 48 + 48).
pub const KEY_BYTES: usize = VERIFICATION_KEY_BYTES + sigagg_mithril::POP_BYTES;

/// The first bytes of a closed registration's encoding.
const REGISTRATION_MAGIC: &[u8; 8] = b"SGMTHREG";
/// The version of that encoding.
const REGISTRATION_VERSION: u8 = 1;
/// Bytes of one entry of a closed registration: `mvk ‖ stake (u64 BE)`.
const ENTRY_BYTES: usize = VERIFICATION_KEY_BYTES + 8;

/// The parameters `(k, m, phi_f)` of a Mithril instance: a certificate
/// needs `k` distinct lottery indices out of `0..m`, and a party holding
/// all the stake wins each index with probability `phi_f` (mainnet: `k =
/// 1944`, `m = 16948`, `phi_f = 0.2`). Returns mithril-stm's encoding.
/// Refused (argument): `k = 0`, `k > m`, `phi_f` outside `(0, 1]`.
/// Signing tries every index, so it takes time linear in `m`.
pub fn parameters(k: u64, m: u64, phi_f: f64) -> Result<Vec<u8>> {
    let params = Parameters { m, k, phi_f };
    check_parameters(&params)?;
    Ok(params.to_bytes())
}

/// The `(k, m, phi_f)` of encoded parameters, checked as [`parameters`] checks them.
pub fn parameters_of(params: &[u8]) -> Result<(u64, u64, f64)> {
    let p = decode_parameters(params)?;
    Ok((p.k, p.m, p.phi_f))
}

fn check_parameters(p: &Parameters) -> Result<()> {
    if p.k == 0 || p.k > p.m {
        return Err(Error::argument(format!("need 1 <= k <= m, got k = {} and m = {}", p.k, p.m)));
    }
    if !(p.phi_f > 0.0 && p.phi_f <= 1.0) {
        return Err(Error::from(MithrilError::PhiFOutOfRange(p.phi_f)));
    }
    Ok(())
}

fn decode_parameters(params: &[u8]) -> Result<Parameters> {
    let p = decode(params, Parameters::from_bytes)?;
    check_parameters(&p).map_err(|e| e.with_kind(ErrorKind::Decode).context("parameters"))?;
    Ok(p)
}

/// A new signing key and its verification key with proof of possession
/// (what a party registers): `(signing key, key)`. With `seed` (at least
/// 32 bytes of key material) the key is deterministic, derived by IETF
/// KeyGen as mithril-stm derives it from its 32 random bytes; without,
/// 32 bytes come from the operating system.
pub fn keygen(seed: Option<&[u8]>) -> Result<(Zeroizing<[u8; SIGNING_KEY_BYTES]>, [u8; KEY_BYTES])> {
    let sk = match seed {
        Some(seed) => SigningKey::from_key_material(seed)?,
        None => SigningKey::generate(&mut rand::rng()),
    };
    Ok((Zeroizing::new(sk.to_bytes()), sk.verification_key_pop().to_bytes()))
}

/// The verification key with proof of possession of `signing_key`.
pub fn key_of(signing_key: &[u8]) -> Result<[u8; KEY_BYTES]> {
    Ok(decode(signing_key, SigningKey::from_bytes)?.verification_key_pop().to_bytes())
}

/// A closed registration and the key certificates verify against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    /// The closed registration, for signers and the clerk:
    /// `"SGMTHREG" ‖ 0x01 ‖ n (u32 BE) ‖ n × (mvk ‖ stake u64 BE)`, the
    /// entries in leaf order (by stake, then key bytes; a party's signer
    /// index is its position).
    pub registration: Vec<u8>,
    /// The aggregate verification key (mithril-stm's encoding): the Merkle
    /// root of the entries, their number and the total stake. All a
    /// verifier needs.
    pub avk: Vec<u8>,
}

/// Registers the parties `keys[i]` (verification key with proof of
/// possession, [`KEY_BYTES`]) with stake `stakes[i]` and closes the
/// registration. Each proof of possession is checked (verify error: a
/// possible rogue key); a key given twice is an argument error, as are
/// stakes summing to zero or past `u64`.
pub fn register(keys: &[&[u8]], stakes: &[u64]) -> Result<Registration> {
    same_length(("keys", keys.len()), ("stakes", stakes.len()))?;
    let parties = decode_each(keys, "key", VerificationKeyPop::from_bytes)?;
    let mut registration = KeyRegistration::new();
    for (i, (party, &stake)) in parties.iter().zip(stakes).enumerate() {
        registration.register(stake, party).map_err(|e| Error::from(e).context(format!("key {i}")))?;
    }
    let closed = registration.close()?;
    Ok(Registration { registration: encode_registration(&closed), avk: closed.aggregate_verification_key().to_bytes() })
}

/// The aggregate verification key of a closed registration.
pub fn aggregate_verification_key(registration: &[u8]) -> Result<Vec<u8>> {
    Ok(decode_registration(registration)?.aggregate_verification_key().to_bytes())
}

fn encode_registration(closed: &ClosedRegistration) -> Vec<u8> {
    let entries = closed.entries();
    let mut out = Vec::with_capacity(REGISTRATION_MAGIC.len() + 5 + entries.len() * ENTRY_BYTES);
    out.extend_from_slice(REGISTRATION_MAGIC);
    out.push(REGISTRATION_VERSION);
    out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    for e in entries {
        out.extend_from_slice(&e.vk.to_bytes());
        out.extend_from_slice(&e.stake.to_be_bytes());
    }
    out
}

/// Reads [`Registration::registration`]: the keys must decode (in the
/// subgroup), the entries be in leaf order with no key twice and a total
/// stake that is a nonzero `u64`. Proofs of possession were checked when
/// the registration was made and are not stored.
fn decode_registration(bytes: &[u8]) -> Result<ClosedRegistration> {
    let bad = |why: String| Error::new(ErrorKind::Decode, format!("registration: {why}"));
    let head = REGISTRATION_MAGIC.len() + 5;
    if bytes.len() < head || &bytes[..REGISTRATION_MAGIC.len()] != REGISTRATION_MAGIC {
        return Err(bad("not a sigagg Mithril registration (magic SGMTHREG)".into()));
    }
    if bytes[8] != REGISTRATION_VERSION {
        return Err(bad(format!("unsupported version {}", bytes[8])));
    }
    let n = u32::from_be_bytes([bytes[9], bytes[10], bytes[11], bytes[12]]) as usize;
    let body = &bytes[head..];
    if n == 0 || body.len() != n.saturating_mul(ENTRY_BYTES) {
        return Err(bad(format!("{} bytes of entries for {n} entries of {ENTRY_BYTES} bytes", body.len())));
    }
    let entries = body
        .chunks_exact(ENTRY_BYTES)
        .enumerate()
        .map(|(i, c)| {
            let vk = VerificationKey::from_bytes(&c[..VERIFICATION_KEY_BYTES])
                .map_err(|e| bad(format!("entry {i}: {e}")))?;
            let stake = u64::from_be_bytes(c[VERIFICATION_KEY_BYTES..].try_into().expect("8 bytes"));
            Ok(RegistrationEntry { stake, vk })
        })
        .collect::<Result<Vec<_>>>()?;
    ClosedRegistration::from_trusted_entries(entries).map_err(|e| bad(e.to_string()))
}

/// What signing gave: Mithril signs only where the signature wins at least
/// one lottery index (mithril-stm's `Signer::sign` returns `None`
/// otherwise), so losing is an outcome, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signed {
    /// The single signature (mithril-stm's encoding): σ on `message ‖
    /// root`, the indices it won, the signer's index.
    Won(Vec<u8>),
    /// The signature won no index: nothing to send.
    NoIndexWon,
}

/// Signs `message` (any bytes) with `signing_key`, whose key must be in
/// the closed `registration` (argument error otherwise); its stake is the
/// registered one. Deterministic: the same inputs give the same bytes.
pub fn sign(params: &[u8], registration: &[u8], signing_key: &[u8], message: &[u8]) -> Result<Signed> {
    let params = decode_parameters(params)?;
    let closed = decode_registration(registration)?;
    let key = decode(signing_key, SigningKey::from_bytes).map_err(|e| e.context("signing key"))?;
    let vk = key.verification_key();
    let stake = closed
        .entries()
        .iter()
        .find(|e| e.vk == vk)
        .map(|e| e.stake)
        .ok_or_else(|| Error::from(MithrilError::NotRegistered))?;
    let signer = Signer::new(key, stake, &closed, params)?;
    match signer.sign(message) {
        Ok(sig) => Ok(Signed::Won(sig.to_bytes())),
        Err(MithrilError::NoIndexWon) => Ok(Signed::NoIndexWon),
        Err(e) => Err(e.into()),
    }
}

/// Verifies one single signature on `message` against its signer's entry
/// in `registration` (σ, then each claimed index in the lottery).
pub fn verify_signature(params: &[u8], registration: &[u8], message: &[u8], signature: &[u8]) -> Result<()> {
    let params = decode_parameters(params)?;
    let closed = decode_registration(registration)?;
    let sig = decode(signature, SingleSignature::from_bytes)?;
    let entry = closed.entry(sig.signer_index).map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))?;
    let avk = closed.aggregate_verification_key();
    sig.verify(&params, &entry.vk, entry.stake, &avk, message).map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))
}

/// The clerk: a concatenation certificate (mithril-stm's
/// `AggregateSignature` encoding) for `message` from single signatures of
/// `registration` (any order). Signatures that do not verify are skipped;
/// an index two signers claim goes to the smaller σ; signers are taken
/// until `k` distinct indices are covered. Fewer than `k` valid indices,
/// or a signature naming a signer index past the registration, is a
/// prove error.
pub fn aggregate(params: &[u8], registration: &[u8], message: &[u8], signatures: &[&[u8]]) -> Result<Vec<u8>> {
    let params = decode_parameters(params)?;
    let closed = decode_registration(registration)?;
    let sigs = decode_each(signatures, "signature", SingleSignature::from_bytes)?;
    let proof =
        Clerk::new(params, closed).aggregate(&sigs, message).map_err(|e| Error::from(e).with_kind(ErrorKind::Prove))?;
    Ok(AggregateSignature::Concatenation(proof).to_bytes())
}

/// What a verified certificate holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Signatures (distinct signers) in the certificate.
    pub signatures: u64,
    /// Lottery indices they won, all distinct (at least `k`).
    pub indices: u64,
}

/// Verifies a concatenation `certificate` on `message` against the
/// aggregate verification key `avk` and `params`, as mithril-stm does
/// (each index won and below `m`, all distinct, at least `k`, the entries
/// in the Merkle tree, one MSP.B check of all σ's). A certificate or key
/// that does not decode is a decode error; every other refusal a verify
/// error naming the reason.
pub fn verify(params: &[u8], avk: &[u8], message: &[u8], certificate: &[u8]) -> Result<Verified> {
    let params = decode_parameters(params)?;
    let avk = decode(avk, AggregateVerificationKey::from_bytes)?;
    let cert = decode(certificate, AggregateSignature::from_bytes)?;
    cert.verify(message, &avk, &params).map_err(|e| Error::from(e).with_kind(ErrorKind::Verify))?;
    let AggregateSignature::Concatenation(proof) = &cert;
    Ok(Verified {
        signatures: proof.signatures.len() as u64,
        indices: proof.signatures.iter().map(|s| s.sig.indexes.len() as u64).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct World {
        params: Vec<u8>,
        sks: Vec<Zeroizing<[u8; 32]>>,
        reg: Registration,
    }

    fn world(k: u64, m: u64, phi_f: f64, stakes: &[u64]) -> World {
        let params = parameters(k, m, phi_f).unwrap();
        let pairs: Vec<_> = (0..stakes.len()).map(|i| keygen(Some(&[i as u8 + 1; 32])).unwrap()).collect();
        let keys: Vec<&[u8]> = pairs.iter().map(|(_, k)| &k[..]).collect();
        let reg = register(&keys, stakes).unwrap();
        World { params, sks: pairs.into_iter().map(|(sk, _)| sk).collect(), reg }
    }

    impl World {
        fn sign_all(&self, msg: &[u8]) -> Vec<Vec<u8>> {
            self.sks
                .iter()
                .filter_map(|sk| match sign(&self.params, &self.reg.registration, &sk[..], msg).unwrap() {
                    Signed::Won(s) => Some(s),
                    Signed::NoIndexWon => None,
                })
                .collect()
        }
    }

    fn views(v: &[Vec<u8>]) -> Vec<&[u8]> {
        v.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn register_sign_aggregate_verify_and_refusals() {
        let w = world(6, 30, 0.8, &[5, 10, 20, 40]);
        let msg = b"checkpoint";
        let sigs = w.sign_all(msg);
        assert!(!sigs.is_empty());
        // Signing is deterministic.
        assert_eq!(sigs, w.sign_all(msg));
        for s in &sigs {
            verify_signature(&w.params, &w.reg.registration, msg, s).unwrap();
            let e = verify_signature(&w.params, &w.reg.registration, b"other", s).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Verify);
        }
        let cert = aggregate(&w.params, &w.reg.registration, msg, &views(&sigs)).unwrap();
        let v = verify(&w.params, &w.reg.avk, msg, &cert).unwrap();
        assert!(v.indices >= 6 && v.signatures >= 1, "{v:?}");
        assert_eq!(aggregate_verification_key(&w.reg.registration).unwrap(), w.reg.avk);

        let other = verify(&w.params, &w.reg.avk, b"other", &cert).unwrap_err();
        assert_eq!(other.kind(), ErrorKind::Verify);
        let tighter = parameters(v.indices + 1, 30, 0.8).unwrap();
        let e = verify(&tighter, &w.reg.avk, msg, &cert).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Verify);
        assert!(e.message().contains("needed"), "{e}");
        let e = verify(&w.params, &w.reg.avk, msg, &cert[..cert.len() - 1]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Decode);
        // Another registration's key: the Merkle path does not lead to its root.
        let w2 = world(6, 30, 0.8, &[5, 10, 20, 41]);
        assert_eq!(verify(&w.params, &w2.reg.avk, msg, &cert).unwrap_err().kind(), ErrorKind::Verify);
        // Too few indices for the clerk: a prove error.
        let all = parameters(30, 30, 0.8).unwrap();
        let e = aggregate(&all, &w.reg.registration, msg, &views(&sigs)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Prove, "{e}");
        // Every byte of the certificate with its top bit flipped: never
        // accepted, never a panic. (The top bit: a low bit of a lottery
        // index can turn it into another index the same signer won, which
        // is a valid certificate; 128 more is at or above m here.)
        for i in 0..cert.len() {
            let mut bad = cert.clone();
            bad[i] ^= 0x80;
            let e = verify(&w.params, &w.reg.avk, msg, &bad).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Decode | ErrorKind::Verify), "byte {i}: {e}");
        }
    }

    #[test]
    fn losing_the_lottery_is_an_outcome() {
        // One index, a tiny stake share and phi_f: the small party loses.
        let w = world(1, 1, 0.01, &[1, 1_000_000]);
        assert_eq!(sign(&w.params, &w.reg.registration, &w.sks[0][..], b"m").unwrap(), Signed::NoIndexWon);
    }

    #[test]
    fn bad_arguments_and_encodings_are_typed() {
        assert_eq!(parameters(0, 10, 0.2).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(parameters(11, 10, 0.2).unwrap_err().kind(), ErrorKind::Argument);
        for phi_f in [0.0, -0.5, 1.5, f64::NAN] {
            assert_eq!(parameters(1, 10, phi_f).unwrap_err().kind(), ErrorKind::Argument, "{phi_f}");
        }
        assert_eq!(parameters_of(&parameters(3, 10, 0.2).unwrap()).unwrap(), (3, 10, 0.2));
        assert_eq!(keygen(Some(&[1; 31])).unwrap_err().kind(), ErrorKind::Argument);
        let (sk, key) = keygen(Some(&[9; 32])).unwrap();
        assert_eq!(key_of(&sk[..]).unwrap(), key);
        assert_eq!(keygen(Some(&[9; 32])).unwrap().1, key);
        let (_, other) = keygen(Some(&[8; 32])).unwrap();
        // A proof of possession of another key: refused.
        let mut swapped = key;
        swapped[96..].copy_from_slice(&other[96..]);
        let e = register(&[&swapped[..]], &[1]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Verify);
        assert!(e.message().starts_with("key 0:"), "{e}");
        assert_eq!(register(&[&key[..], &key[..]], &[1, 2]).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(register(&[&key[..]], &[0]).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(register(&[&key[..]], &[1, 2]).unwrap_err().kind(), ErrorKind::Argument);
        assert_eq!(register(&[&key[..1]], &[1]).unwrap_err().kind(), ErrorKind::Decode);
        // A key outside the registration cannot sign.
        let w = world(1, 10, 0.5, &[1, 2]);
        let e = sign(&w.params, &w.reg.registration, &sk[..], b"m").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Argument);
        // Registration encodings: truncated, reordered, bad magic.
        let r = &w.reg.registration;
        assert_eq!(aggregate_verification_key(&r[..r.len() - 1]).unwrap_err().kind(), ErrorKind::Decode);
        let mut swapped = r[..13].to_vec();
        swapped.extend_from_slice(&r[13 + ENTRY_BYTES..]);
        swapped.extend_from_slice(&r[13..13 + ENTRY_BYTES]);
        assert_eq!(aggregate_verification_key(&swapped).unwrap_err().kind(), ErrorKind::Decode);
        let mut magic = r.clone();
        magic[0] ^= 1;
        assert_eq!(aggregate_verification_key(&magic).unwrap_err().kind(), ErrorKind::Decode);
        let mut count = r.clone();
        count[9..13].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(aggregate_verification_key(&count).unwrap_err().kind(), ErrorKind::Decode);
        // Parameters that decode but are out of range are a decoding failure.
        let bad = Parameters { m: 5, k: 9, phi_f: 0.2 }.to_bytes();
        assert_eq!(sign(&bad, r, &w.sks[0][..], b"m").unwrap_err().kind(), ErrorKind::Decode);
    }
}
