//! Known-answer regression vectors. There is no reference implementation
//! of this instantiation, so these values were produced by this crate when
//! the scheme was specified; they pin every definition (PRF, sub-key hash,
//! sponge, message hash, mining, encodings, group tree) so that a change to
//! any of them — which would invalidate every key and every proof built on
//! them — fails here first.

use p3_field::PrimeCharacteristicRing;
use sha3::{Digest as _, Sha3_256};
use sigagg_lamport::field::digest_to_bytes;
use sigagg_lamport::hash::subkey_hash;
use sigagg_lamport::{
    Digest, F, GroupTree, LamportPlus, LamportPlusMined, ParameterSet, Randomizer, keygen_from_seed, representative,
    verify,
};

const MESSAGE: &[u8] = b"sigagg lamport+ known answer";

fn check<S: ParameterSet>(pk_hex: &str, counter: u32, rep_hex: &str, sig_sha3: &str) {
    let seed: [u8; 32] = core::array::from_fn(|i| i as u8);
    let (pk, mut sk) = keygen_from_seed::<S>(seed);
    assert_eq!(hex::encode(pk.to_bytes()), pk_hex, "{} public key", S::NAME);
    let sig = sk.sign(MESSAGE).unwrap();
    assert_eq!(sig.counter(), counter, "{} counter", S::NAME);
    assert_eq!(hex::encode(representative::<S>(MESSAGE, counter).as_bytes()), rep_hex, "{} representative", S::NAME);
    assert_eq!(hex::encode(Sha3_256::digest(sig.to_bytes())), sig_sha3, "{} signature", S::NAME);
    assert_eq!(verify(&pk, MESSAGE, &sig), Ok(()));
}

#[test]
fn plain_vector() {
    check::<LamportPlus>(
        "28e111437cd26100a3db763d6c87127784aae07cf5d6567ee4133948c04a3762",
        0,
        "17e156648e5e3d879a45ebedac596b3ba7a2c5e6b898ea884a9935f90f2b3000",
        "ccb2eb37aef829b3951b3506e14d5e4388dd54f321dcb9cb55a4983fbcdfcdd8",
    );
}

#[test]
fn mined_vector() {
    check::<LamportPlusMined>(
        "53ff04124039bf2fde40147355a43333b14fb13514d36e095f06351dabd7a83c",
        6890,
        "0000d946b02f6e7d209d4a28e2df2d1c1cb8c18c3d750e227634cf8d7b000000",
        "cf0190cecc598a262002249a4dc898e0a4946593d94a0b6306548a565907e7a7",
    );
}

#[test]
fn sub_key_hash_vector() {
    let r: Randomizer = core::array::from_fn(|i| F::from_u32(i as u32 + 1));
    let x: Digest = core::array::from_fn(|i| F::from_u32(100 + i as u32));
    assert_eq!(
        hex::encode(digest_to_bytes(&subkey_hash(&r, 5, &x))),
        "502f4312c36b430f95a08f60b341941fe2e85b5b0131fc0b542536469ae01a26"
    );
}

#[test]
fn group_root_vector() {
    let leaves: Vec<Digest> = (0..3).map(|j| core::array::from_fn(|i| F::from_u32(1 + 8 * j + i as u32))).collect();
    let key = GroupTree::from_digests(leaves).unwrap().key();
    assert_eq!(hex::encode(key.to_bytes()), "91dc1a1a50c2722ba738522bcd76c56f575a9a4eb4642e2a38647351ea66605603000000");
}
