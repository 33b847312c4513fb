//! Signatures and verification.
//!
//! Verification, exactly as the STARK must reproduce it:
//!
//! 1. natively: check the counter and compute the codeword of the message
//!    ([`crate::codeword::codeword`]);
//! 2. for every `i < n`: `y_i = G(randomizer, i, sig_i)` if codeword bit `i`
//!    is 1, else `y_i = sig_i` ([`crate::hash::subkey_input`]);
//! 3. the public-key sponge over `y_0 .. y_{n-1}` with the signature's
//!    randomizer ([`crate::hash::pubkey_block_input`]) must output the public key.
//!
//! Cost: `ones(codeword)` width-16 permutations (on average about `n/2`;
//! a fixed-shape circuit budgets `n`) and `n/2` width-24 permutations.

use core::marker::PhantomData;

use crate::codeword::{Codeword, codeword};
use crate::error::{DecodeError, VerifyError};
use crate::field::{Digest, F};
use crate::hash::{pubkey_sponge, pubkey_sponge_trace, subkey_hashes, subkey_input};
use crate::keys::PublicKey;
use crate::params::ParameterSet;
use crate::prf::Randomizer;

/// A Lamport+ signature: the mining counter (0 without mining), the key's
/// public randomizer and `n` digests (`pr_i` where the codeword bit is 1,
/// `pb_i` where it is 0).
///
/// Its shape is guaranteed by construction: only signing,
/// [`Signature::from_parts`] and decoding create one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature<S: ParameterSet> {
    counter: u32,
    randomizer: Randomizer,
    elements: Vec<Digest>,
    _set: PhantomData<S>,
}

impl<S: ParameterSet> Signature<S> {
    pub(crate) fn new_unchecked(counter: u32, randomizer: Randomizer, elements: Vec<Digest>) -> Self {
        debug_assert_eq!(elements.len(), S::NUM_SUBKEYS);
        Self { counter, randomizer, elements, _set: PhantomData }
    }

    /// Assembles a signature; rejects a wrong number of elements or a
    /// counter above the set's maximum.
    pub fn from_parts(counter: u32, randomizer: Randomizer, elements: Vec<Digest>) -> Result<Self, DecodeError> {
        if counter > S::MAX_COUNTER {
            return Err(DecodeError::CounterOutOfRange { counter, max: S::MAX_COUNTER });
        }
        if elements.len() != S::NUM_SUBKEYS {
            return Err(DecodeError::InvalidLength {
                what: "signature elements",
                expected: S::NUM_SUBKEYS,
                actual: elements.len(),
            });
        }
        Ok(Self::new_unchecked(counter, randomizer, elements))
    }

    /// The mining counter.
    pub fn counter(&self) -> u32 {
        self.counter
    }

    /// The signer's public randomizer.
    pub fn randomizer(&self) -> &Randomizer {
        &self.randomizer
    }

    /// The `n` revealed digests.
    pub fn elements(&self) -> &[Digest] {
        &self.elements
    }

    /// The sub-public-keys `y_i` this signature implies under `codeword`.
    pub fn sub_public_keys(&self, codeword: &Codeword<S>) -> Vec<Digest> {
        let revealed: Vec<(usize, Digest)> =
            codeword.bits().iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| (i, self.elements[i])).collect();
        let mut ys = self.elements.clone();
        for ((i, _), y) in revealed.iter().zip(subkey_hashes(&self.randomizer, &revealed)) {
            ys[*i] = y;
        }
        ys
    }
}

/// The public key a signature on `message` implies (verification without
/// the final comparison).
pub fn recover_public_key<S: ParameterSet>(message: &[u8], sig: &Signature<S>) -> Result<PublicKey<S>, VerifyError> {
    let cw = codeword::<S>(message, sig.counter)?;
    Ok(PublicKey::from_digest(pubkey_sponge(&sig.randomizer, &sig.sub_public_keys(&cw))))
}

/// Verifies `sig` on `message` under `pk`.
pub fn verify<S: ParameterSet>(pk: &PublicKey<S>, message: &[u8], sig: &Signature<S>) -> Result<(), VerifyError> {
    if recover_public_key(message, sig)? == *pk { Ok(()) } else { Err(VerifyError::PublicKeyMismatch) }
}

/// Every permutation input of one verification, in the order the
/// verifier computes them: what a STARK trace of it contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerificationInputs<S: ParameterSet> {
    /// The codeword (recomputed natively from the public message).
    pub codeword: Codeword<S>,
    /// `(i, subkey_input(randomizer, i, sig_i))` for every set bit `i`, by
    /// increasing `i`; the sub-public-key is `Trunc_8(Perm16(x) + x)`.
    pub subkey_inputs: Vec<(usize, [F; 16])>,
    /// The `n/2` width-24 sponge inputs; the key is lanes 0..8 of the last
    /// permutation's output.
    pub sponge_inputs: Vec<[F; 24]>,
    /// The public key the signature implies.
    pub public_key: Digest,
}

impl<S: ParameterSet> VerificationInputs<S> {
    /// Permutations of this verification: `(width 16, width 24)`.
    pub fn permutation_count(&self) -> (usize, usize) {
        (self.subkey_inputs.len(), self.sponge_inputs.len())
    }
}

/// The permutation inputs of verifying `sig` on `message` (checks the
/// counter; does not compare with a public key).
pub fn verification_inputs<S: ParameterSet>(
    message: &[u8],
    sig: &Signature<S>,
) -> Result<VerificationInputs<S>, VerifyError> {
    let cw = codeword::<S>(message, sig.counter)?;
    let subkey_inputs = cw
        .bits()
        .iter()
        .enumerate()
        .filter(|(_, b)| **b)
        .map(|(i, _)| (i, subkey_input(&sig.randomizer, i, &sig.elements[i])))
        .collect();
    let (sponge_inputs, public_key) = pubkey_sponge_trace(&sig.randomizer, &sig.sub_public_keys(&cw));
    Ok(VerificationInputs { codeword: cw, subkey_inputs, sponge_inputs, public_key })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::keygen_from_seed;
    use crate::params::{LamportPlus, LamportPlusMined};
    use p3_field::PrimeCharacteristicRing;
    use p3_symmetric::Permutation;
    use sigagg_koalabear::mode::compress;
    use sigagg_koalabear::poseidon2;

    #[test]
    fn round_trip() {
        let (pk, mut sk) = keygen_from_seed::<LamportPlus>([5; 32]);
        let sig = sk.sign(b"hello").unwrap();
        assert_eq!(verify(&pk, b"hello", &sig), Ok(()));
        assert_eq!(verify(&pk, b"hellp", &sig), Err(VerifyError::PublicKeyMismatch));
        let mut bad = sig.clone();
        bad.elements[17][3] += F::ONE;
        assert_eq!(verify(&pk, b"hello", &bad), Err(VerifyError::PublicKeyMismatch));
    }

    /// Replaying the listed permutation inputs by hand reproduces the key:
    /// the inputs are the whole computation.
    fn inputs_replay<S: ParameterSet>(seed: u8) {
        let (pk, mut sk) = keygen_from_seed::<S>([seed; 32]);
        let msg = b"trace me";
        let sig = sk.sign(msg).unwrap();
        let vi = verification_inputs(msg, &sig).unwrap();
        assert_eq!(vi.public_key, *pk.digest());
        assert_eq!(vi.permutation_count(), (vi.codeword.ones(), S::NUM_SUBKEYS / 2));
        let mut ys = sig.elements().to_vec();
        for (i, input) in &vi.subkey_inputs {
            let out = compress(poseidon2::default16(), input);
            ys[*i] = core::array::from_fn(|k| out[k]);
        }
        // Each sponge input's rate holds the next pair of y's, and its
        // capacity is the previous output's.
        let mut last = [F::ZERO; 24];
        for (j, input) in vi.sponge_inputs.iter().enumerate() {
            assert_eq!(&input[..8], &ys[2 * j]);
            assert_eq!(&input[8..16], &ys[2 * j + 1]);
            if j > 0 {
                assert_eq!(&input[16..], &last[16..]);
            }
            last = *input;
            poseidon2::default24().permute_mut(&mut last);
        }
        assert_eq!(&last[..8], pk.digest());
    }

    #[test]
    fn verification_inputs_replay_plain() {
        inputs_replay::<LamportPlus>(6);
    }

    #[test]
    fn verification_inputs_replay_mined() {
        inputs_replay::<LamportPlusMined>(7);
    }

    #[test]
    fn from_parts_checks_shape() {
        let r = [F::ZERO; 5];
        assert!(Signature::<LamportPlus>::from_parts(0, r, vec![[F::ZERO; 8]; 256]).is_ok());
        assert!(Signature::<LamportPlus>::from_parts(0, r, vec![[F::ZERO; 8]; 255]).is_err());
        assert!(Signature::<LamportPlus>::from_parts(1, r, vec![[F::ZERO; 8]; 256]).is_err());
        assert!(Signature::<LamportPlusMined>::from_parts(1 << 22, r, vec![[F::ZERO; 8]; 224]).is_err());
    }
}
