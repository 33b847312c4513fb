//! The Fiat–Shamir transcript: a SHA-256 hash chain.
//!
//! Specified so that a verifier in another language needs nothing but
//! SHA-256 (no STROBE/Merlin port):
//!
//! * start: `state = SHA-256("sigagg-bls-cert/v1/transcript" ‖ protocol)`;
//! * absorb `(label, data)`:
//!   `state = SHA-256(state ‖ 0x01 ‖ u32be(|label|) ‖ label ‖ u64be(|data|) ‖ data)`;
//! * challenge `label`: `wide = SHA-256(state ‖ 0x02 ‖ u32be(|label|) ‖ label ‖ 0x00)
//!   ‖ SHA-256(… ‖ 0x01)`, the challenge is `wide` read as a little-endian
//!   integer mod `q` (512 bits reduced mod a 381-bit prime: statistically
//!   uniform to within 2^-131), then `state = SHA-256(state ‖ 0x03 ‖ wide)`.
//!
//! Points are absorbed in arkworks' compressed encoding, field elements as
//! 48 little-endian bytes: the same bytes the proof is encoded with.

use ark_ff::PrimeField;
use ark_serialize::CanonicalSerialize;
use sha2::{Digest, Sha256};

use crate::field::F;

/// A Fiat–Shamir transcript (see the module documentation for the spec).
#[derive(Clone, Debug)]
pub struct Transcript {
    state: [u8; 32],
}

impl Transcript {
    /// A transcript for one protocol, named by `protocol`.
    pub fn new(protocol: &[u8]) -> Transcript {
        let state = Sha256::new().chain_update(b"sigagg-bls-cert/v1/transcript").chain_update(protocol).finalize();
        Transcript { state: state.into() }
    }

    /// Absorbs labelled bytes.
    pub fn absorb(&mut self, label: &'static [u8], data: &[u8]) {
        self.state = Sha256::new()
            .chain_update(self.state)
            .chain_update([0x01])
            .chain_update((label.len() as u32).to_be_bytes())
            .chain_update(label)
            .chain_update((data.len() as u64).to_be_bytes())
            .chain_update(data)
            .finalize()
            .into();
    }

    /// Absorbs an arkworks value in its compressed encoding.
    pub fn absorb_value(&mut self, label: &'static [u8], value: &impl CanonicalSerialize) {
        let mut bytes = Vec::with_capacity(value.compressed_size());
        value.serialize_compressed(&mut bytes).expect("writing to a Vec cannot fail");
        self.absorb(label, &bytes);
    }

    /// A challenge field element, uniform given everything absorbed so far.
    pub fn challenge(&mut self, label: &'static [u8]) -> F {
        let half = |i: u8| {
            Sha256::new()
                .chain_update(self.state)
                .chain_update([0x02])
                .chain_update((label.len() as u32).to_be_bytes())
                .chain_update(label)
                .chain_update([i])
                .finalize()
        };
        let mut wide = [0u8; 64];
        wide[..32].copy_from_slice(&half(0));
        wide[32..].copy_from_slice(&half(1));
        self.state = Sha256::new().chain_update(self.state).chain_update([0x03]).chain_update(wide).finalize().into();
        F::from_le_bytes_mod_order(&wide)
    }

    /// `count` challenges under one label.
    pub fn challenges(&mut self, label: &'static [u8], count: usize) -> Vec<F> {
        (0..count).map(|_| self.challenge(label)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_depend_on_everything_absorbed_and_on_order() {
        let run = |steps: &[(&'static [u8], &[u8])]| {
            let mut t = Transcript::new(b"test");
            for (label, data) in steps {
                t.absorb(label, data);
            }
            t.challenge(b"c")
        };
        let base = run(&[(b"a", b"1"), (b"b", b"2")]);
        assert_eq!(base, run(&[(b"a", b"1"), (b"b", b"2")]), "deterministic");
        assert_ne!(base, run(&[(b"b", b"2"), (b"a", b"1")]), "order matters");
        assert_ne!(base, run(&[(b"a", b"12"), (b"b", b"")]), "lengths are framed");
        assert_ne!(base, run(&[(b"a", b"1"), (b"c", b"2")]), "labels matter");
        let mut t = Transcript::new(b"test");
        let (c1, c2) = (t.challenge(b"c"), t.challenge(b"c"));
        assert_ne!(c1, c2, "successive challenges differ");
        assert_ne!(Transcript::new(b"other").challenge(b"c"), Transcript::new(b"test").challenge(b"c"));
    }
}
