//! One slot's values: what the verifier derives from the statement
//! ([`SlotPublic`], periodic columns of the statement table) and what the
//! prover adds from the signature ([`SlotWitness`]), both computed by
//! `sigagg_xmss`'s own native functions so that a table filled from them
//! proves exactly what native verification checks.

use p3_field::PrimeCharacteristicRing;
use sigagg_koalabear::field::{FeArray, bytes_to_base_p};
use sigagg_koalabear::mode::compress;
use sigagg_xmss::hash::{codeword, message_input, walk_chain};
use sigagg_xmss::tweak::{message_tweak, tree_tweak};
use sigagg_xmss::{PublicKey, Signature};

use super::layout::{BASE, DIGEST, LeanFamily, MSG, PARAM, RHO, Shape};
use crate::config::Val;
use crate::statement::{AggregateEntry, AggregateStatement};

/// The statement-derived values of one slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotPublic {
    /// Hash parameter.
    pub param: [Val; PARAM],
    /// The key's root.
    pub root: [Val; DIGEST],
    /// The message as base-p digits.
    pub msg: [Val; MSG],
    /// Message-hash tweak.
    pub mtweak: [Val; 2],
    /// Leaf tweak (tree level 0 at the epoch).
    pub leaf_tweak: [Val; 2],
    /// Chain-tweak part `cb = b 2^24 - a` ([`super::bus`]).
    pub cb: Val,
    /// Chain-tweak part `a = epoch / 127`.
    pub a: Val,
    /// Chain-tweak part `ts = -clamp(a - b 2^24, 0, 2^24)`.
    pub ts: Val,
    /// Per tree level `1..=depth`: tweak digits and the direction bit.
    pub levels: Vec<[Val; 3]>,
}

/// The chain-tweak parts `(cb, a, ts)` of `epoch` ([`super::bus`]).
pub fn chain_context(epoch: u32) -> (Val, Val, Val) {
    let (a, b) = (epoch / 127, epoch % 127);
    let t = i64::from(a) - (i64::from(b) << 24);
    let t_star = t.clamp(0, 1 << 24) as u32;
    let cb = Val::from_u32(b) * Val::from_u32(1 << 24) - Val::from_u32(a);
    (cb, Val::from_u32(a), -Val::from_u32(t_star))
}

impl SlotPublic {
    /// The public values of `entry` under set `S`.
    pub fn new<S: LeanFamily>(entry: &AggregateEntry<S>) -> Self {
        let depth = Shape::of::<S>().depth;
        let epoch = entry.epoch;
        let (cb, a, ts) = chain_context(epoch);
        let levels = (1..=depth)
            .map(|l| {
                let [t0, t1] = tree_tweak(l as u8, ((u64::from(epoch)) >> l) as u32);
                [t0, t1, Val::from_u32((epoch >> (l - 1)) & 1)]
            })
            .collect();
        Self {
            param: fe_array(entry.public_key.parameter.as_slice()),
            root: fe_array(entry.public_key.root.as_slice()),
            msg: bytes_to_base_p(&entry.message),
            mtweak: message_tweak(epoch),
            leaf_tweak: tree_tweak(0, epoch),
            cb,
            a,
            ts,
            levels,
        }
    }

    /// The values every slot of a threshold proof shares: those of
    /// `epoch` and `message`, with an all-zero key (the key fields are
    /// the signers' witness there).
    pub fn shared<S: LeanFamily>(epoch: u32, message: &[u8; 32]) -> Self {
        let public_key =
            PublicKey::<S> { root: FeArray::generate(|_| Val::ZERO), parameter: FeArray::generate(|_| Val::ZERO) };
        Self::new(&AggregateEntry { public_key, epoch, message: *message })
    }

    /// The public values of every slot of `statement` (padded slots
    /// repeat the last entry). What depends on the epoch and message alone
    /// (tweaks, the message's digits) is computed once per run of slots
    /// that share them: once in the common case of one message and slot.
    pub fn of_slots<S: LeanFamily>(statement: &AggregateStatement<S>) -> Vec<Self> {
        let mut shared: Option<(u32, [u8; 32], Self)> = None;
        (0..statement.padded_len())
            .map(|s| {
                let entry = statement.slot(s);
                let reuse = matches!(&shared, Some((e, m, _)) if *e == entry.epoch && *m == entry.message);
                if !reuse {
                    shared = Some((entry.epoch, entry.message, Self::new(entry)));
                }
                let mut public = shared.as_ref().expect("set above").2.clone();
                public.param = fe_array(entry.public_key.parameter.as_slice());
                public.root = fe_array(entry.public_key.root.as_slice());
                public
            })
            .collect()
    }

    /// Virtual end 0 of the sponge stream: `[0 | parameter | leaf tweak]`.
    pub fn end0(&self) -> [Val; DIGEST] {
        let mut v = [Val::ZERO; DIGEST];
        v[1..1 + PARAM].copy_from_slice(&self.param);
        v[1 + PARAM..].copy_from_slice(&self.leaf_tweak);
        v
    }
}

/// The prover's values of one slot: the signature and everything native
/// verification computes from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWitness {
    /// The statement-derived values.
    pub public: SlotPublic,
    /// The epoch.
    pub epoch: u32,
    /// The encoding randomness.
    pub rho: [Val; RHO],
    /// The message hash's first `outputs` elements, `(perm(in) + in)[..]`.
    pub outputs: Vec<Val>,
    /// The codeword: one chain start position in `0..BASE` per chain.
    pub digits: Vec<u8>,
    /// The signature's chain values, one per chain, at position `digits[i]`.
    pub hashes: Vec<[Val; DIGEST]>,
    /// The chain ends (position `BASE - 1`).
    pub ends: Vec<[Val; DIGEST]>,
    /// The Merkle co-path, leaf level first.
    pub co_path: Vec<[Val; DIGEST]>,
}

impl SlotWitness {
    /// The witness of `signature` on `entry`, its chain ends walked
    /// natively, or the native verifier's error when the codeword is
    /// invalid (the hash aborts or misses the target sum). Whether the
    /// signature leads to the key's root is checked on the width-24 trace
    /// ([`super::air::hash24::HashAir::top_digest`]).
    pub fn new<S: LeanFamily>(
        entry: &AggregateEntry<S>,
        signature: &Signature<S>,
    ) -> Result<Self, sigagg_xmss::VerifyError> {
        let mut w = Self::unwalked(entry, signature)?;
        let (parameter, epoch) = (&entry.public_key.parameter, entry.epoch);
        w.ends = (w.digits.iter().zip(signature.hashes()).enumerate())
            .map(|(i, (&x, h))| {
                fe_array(walk_chain::<S>(parameter, epoch, i as u8, x, BASE - 1 - usize::from(x), h).as_slice())
            })
            .collect();
        Ok(w)
    }

    /// [`Self::new`] without walking the chains: `ends` holds each chain's
    /// signature value, the end only of a chain that starts at the top.
    /// The chain table walks every chain as it is filled and gives the ends
    /// ([`super::air::chain::ChainAir::fill_group`]), so the prover walks
    /// them once.
    pub(crate) fn unwalked<S: LeanFamily>(
        entry: &AggregateEntry<S>,
        signature: &Signature<S>,
    ) -> Result<Self, sigagg_xmss::VerifyError> {
        let shape = Shape::of::<S>();
        let PublicKey { parameter, .. } = &entry.public_key;
        let (epoch, message) = (entry.epoch, &entry.message);
        let digits = codeword::<S>(parameter, epoch, signature.rho(), message)?;
        let hash = compress(S::perm24(), &message_input::<S>(parameter, epoch, signature.rho(), message));
        let hashes: Vec<[Val; DIGEST]> = signature.hashes().iter().map(|h| fe_array(h.as_slice())).collect();
        Ok(Self {
            public: SlotPublic::new(entry),
            epoch,
            rho: fe_array(signature.rho().as_slice()),
            outputs: hash[..shape.outputs].to_vec(),
            digits,
            ends: hashes.clone(),
            hashes,
            co_path: signature.co_path().iter().map(|h| fe_array(h.as_slice())).collect(),
        })
    }
}

/// A fixed-size array from a slice of the family's length.
fn fe_array<const N: usize>(x: &[Val]) -> [Val; N] {
    core::array::from_fn(|i| x[i])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use sigagg_xmss::hash::{leaf, tree_node};
    use sigagg_xmss::tweak::chain_tweak;
    use sigagg_xmss::{LeanSigProd, Test, single_epoch_key_and_signature};

    /// A valid entry and signature of `S` at `epoch`.
    pub(crate) fn signed<S: LeanFamily>(seed: u64, epoch: u32) -> (AggregateEntry<S>, Signature<S>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let message = [seed as u8; 32];
        let (public_key, sig) = single_epoch_key_and_signature::<S, _>(&mut rng, epoch, &message).unwrap();
        (AggregateEntry { public_key, epoch, message }, sig)
    }

    /// The witness recomputes the key's root through the public levels.
    fn witness_reaches_root<S: LeanFamily>(epoch: u32) {
        let (entry, sig) = signed::<S>(7, epoch);
        let w = SlotWitness::new(&entry, &sig).unwrap();
        let p = &entry.public_key.parameter;
        let ends: Vec<S::Digest> = w.ends.iter().map(|e| S::Digest::generate(|i| e[i])).collect();
        let mut node = leaf::<S>(p, epoch, &ends);
        for (l, sibling) in (1..).zip(sig.co_path()) {
            let bit = w.public.levels[l - 1][2];
            let (left, right) = if bit == Val::ZERO { (node, *sibling) } else { (*sibling, node) };
            node = tree_node::<S>(p, l as u8, ((u64::from(epoch)) >> l) as u32, &left, &right);
        }
        assert_eq!(node, entry.public_key.root);
        assert_eq!(w.digits.iter().map(|&d| usize::from(d)).sum::<usize>(), S::TARGET_SUM);
    }

    /// The shared computation gives each slot what its own would: runs of
    /// a shared message and epoch, a change of either, and padding.
    #[test]
    fn slot_publics_share_only_what_is_shared() {
        let mut entries: Vec<AggregateEntry<Test>> = (0..5).map(|i| signed::<Test>(i, 9).0).collect();
        entries[1].message = entries[0].message;
        entries[2].message = entries[0].message;
        entries[3].epoch = 10;
        let statement = AggregateStatement::from_entries(entries).unwrap();
        let expected: Vec<SlotPublic> =
            (0..statement.padded_len()).map(|s| SlotPublic::new(statement.slot(s))).collect();
        assert_eq!(SlotPublic::of_slots(&statement), expected);
    }

    #[test]
    fn witness_matches_native_verification() {
        witness_reaches_root::<Test>(77);
        witness_reaches_root::<LeanSigProd>(u32::MAX - 5);
    }

    /// The per-slot context gives every chain tweak, through the
    /// relations the chain table proves.
    #[test]
    fn context_gives_the_chain_tweaks() {
        for epoch in [0u32, 126, 127 * (1 << 24) + 2, 127 * ((1 << 24) + 0x2d_0700) + 1, (1 << 31) + 3, u32::MAX] {
            let (cb, a, ts) = chain_context(epoch);
            for i in 0..46u32 {
                for pos in 1..8u32 {
                    let (k0, s) = (cb + Val::from_u32(i << 16), ts + Val::from_u32(i << 16));
                    let [t0, t1] = chain_tweak(epoch, i as u8, pos as u8);
                    assert_eq!(t0, k0 + Val::from_u32(256 * pos));
                    let beta = a - t1;
                    assert!(beta == Val::ZERO || beta == Val::ONE, "{epoch} {i} {pos}");
                    let w = (Val::ONE - beta.double()) * (s + Val::from_u32(256 * pos)) - beta;
                    assert!(p3_field::PrimeField32::as_canonical_u32(&w) < 1 << 24, "{epoch} {i} {pos}");
                    // The other borrow bit makes `w` negative, in `[-2^24, -1]`.
                    let wrong = Val::ONE - beta;
                    let w = (Val::ONE - wrong.double()) * (s + Val::from_u32(256 * pos)) - wrong;
                    assert!(p3_field::PrimeField32::as_canonical_u32(&w) >= sigagg_koalabear::field::P - (1 << 24));
                }
            }
        }
    }
}
