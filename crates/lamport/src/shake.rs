//! SHAKE128 / SHAKE256 on Plonky3's Keccak-f, for the PRF and the message
//! hash.
//!
//! Only the pattern both need: a fixed prefix (absorbed once), a 4-byte
//! per-call suffix (sub-key index, mining counter), at most one rate block
//! of output. Compared with a general-purpose XOF this saves the extra
//! permutation a reader spends on its next block, and
//! [`Prefix::finish_many`] runs one Keccak-f state per SIMD lane (8 with
//! AVX-512), which is what makes key derivation and mining cheap. The
//! outputs are standard SHAKE (FIPS 202), checked against the `sha3` crate.

use p3_keccak::{KeccakF, VECTOR_LEN};
use p3_symmetric::Permutation;
use zeroize::{Zeroize, Zeroizing};

/// SHAKE128's rate in bytes.
pub(crate) const SHAKE128_RATE: usize = 168;
/// SHAKE256's rate in bytes.
pub(crate) const SHAKE256_RATE: usize = 136;
/// How many suffixes [`Prefix::finish_many`] evaluates at once.
pub(crate) const LANES: usize = VECTOR_LEN;

/// A SHAKE state (rate `RATE` bytes) after absorbing every whole block of a
/// prefix, and the prefix bytes not yet absorbed.
///
/// The PRF's prefixes hold a key's seed (in `tail`, or mixed into `state`):
/// both are wiped on drop, and so are the padded messages built from them.
#[derive(Clone, Debug)]
pub(crate) struct Prefix<const RATE: usize> {
    state: [u64; 25],
    tail: Vec<u8>,
}

impl<const RATE: usize> Drop for Prefix<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
        self.tail.zeroize();
    }
}

fn xor_block(state: &mut [u64; 25], block: &[u8]) {
    for (word, chunk) in state.iter_mut().zip(block.chunks_exact(8)) {
        *word ^= u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
    }
}

/// The first `OUT` bytes of the state (`OUT` at most the rate, so one
/// permutation's output suffices).
fn output<const OUT: usize>(state: &[u64; 25]) -> [u8; OUT] {
    let mut out = [0u8; OUT];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = state[i / 8].to_le_bytes()[i % 8];
    }
    out
}

impl<const RATE: usize> Prefix<RATE> {
    /// Absorbs the concatenation of `parts`.
    pub(crate) fn new(parts: &[&[u8]]) -> Self {
        let mut p = Self { state: [0; 25], tail: Vec::with_capacity(2 * RATE) };
        for part in parts {
            p.tail.extend_from_slice(part);
            if p.tail.len() >= RATE {
                let whole = p.tail.len() / RATE * RATE;
                for block in p.tail[..whole].chunks_exact(RATE) {
                    xor_block(&mut p.state, block);
                    KeccakF.permute_mut(&mut p.state);
                }
                p.tail.drain(..whole);
            }
        }
        p
    }

    /// `tail || suffix` with SHAKE's padding (`0x1F`, zeros, `0x80`): one
    /// or two blocks, depending only on the lengths.
    fn padded(&self, suffix: &[u8]) -> Zeroizing<Vec<u8>> {
        let mut msg = Zeroizing::new(Vec::with_capacity(2 * RATE));
        msg.extend_from_slice(&self.tail);
        msg.extend_from_slice(suffix);
        msg.push(0x1f);
        let padded_len = msg.len().div_ceil(RATE) * RATE;
        msg.resize(padded_len, 0);
        *msg.last_mut().expect("non-empty") |= 0x80;
        msg
    }

    /// The first `OUT ≤ RATE` output bytes of SHAKE(prefix || suffix).
    pub(crate) fn finish<const OUT: usize>(&self, suffix: &[u8]) -> [u8; OUT] {
        const { assert!(OUT <= RATE) };
        let mut state = self.state;
        for block in self.padded(suffix).chunks_exact(RATE) {
            xor_block(&mut state, block);
            KeccakF.permute_mut(&mut state);
        }
        output(&state)
    }

    /// [`Prefix::finish`] for [`LANES`] suffixes of one length at once.
    pub(crate) fn finish_many<const OUT: usize>(&self, suffixes: &[[u8; 4]; LANES]) -> [[u8; OUT]; LANES] {
        const { assert!(OUT <= RATE) };
        let padded: Vec<Zeroizing<Vec<u8>>> = suffixes.iter().map(|s| self.padded(s)).collect();
        let mut packed: [[u64; LANES]; 25] = core::array::from_fn(|w| [self.state[w]; LANES]);
        for b in 0..padded[0].len() / RATE {
            for (lane, msg) in padded.iter().enumerate() {
                for (w, chunk) in msg[b * RATE..(b + 1) * RATE].chunks_exact(8).enumerate() {
                    packed[w][lane] ^= u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
                }
            }
            KeccakF.permute_mut(&mut packed);
        }
        core::array::from_fn(|lane| output(&core::array::from_fn(|w| packed[w][lane])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    use sha3::{Shake128, Shake256};

    fn reference<H: Default + Update + ExtendableOutput, const OUT: usize>(parts: &[&[u8]]) -> [u8; OUT] {
        let mut h = H::default();
        for p in parts {
            h.update(p);
        }
        let mut out = [0u8; OUT];
        h.finalize_xof().read(&mut out);
        out
    }

    fn matches<H: Default + Update + ExtendableOutput, const RATE: usize, const OUT: usize>() {
        // Lengths around one and two blocks exercise every padding case,
        // including a suffix straddling a block boundary.
        for len in (0..2 * RATE + 8).chain([RATE * 3 - 4, RATE * 3 - 5, RATE * 3 - 3, 1000]) {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let prefix = Prefix::<RATE>::new(&[b"ab", &msg, b"c"]);
            let suffixes: [[u8; 4]; LANES] = core::array::from_fn(|i| (i as u32 * 977 + len as u32).to_le_bytes());
            let many = prefix.finish_many::<OUT>(&suffixes);
            for (s, got) in suffixes.iter().zip(&many) {
                let want = reference::<H, OUT>(&[b"ab", &msg, b"c", s]);
                assert_eq!(prefix.finish::<OUT>(s), want, "len {len}");
                assert_eq!(*got, want, "len {len} packed");
            }
        }
    }

    #[test]
    fn shake256_matches_sha3() {
        matches::<Shake256, SHAKE256_RATE, 32>();
        matches::<Shake256, SHAKE256_RATE, SHAKE256_RATE>();
    }

    #[test]
    fn shake128_matches_sha3() {
        matches::<Shake128, SHAKE128_RATE, 128>();
        matches::<Shake128, SHAKE128_RATE, 7>();
    }
}
