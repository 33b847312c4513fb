//! Bounded mutation tests of the Horn wire decoders (issue 40, item 9),
//! the companion of `crates/bytes/tests/mutation.rs` for the messages that
//! are not part of the byte-level API.
//!
//! One slot signed by independent keys ([`slot`]) gives real subcommittee
//! aggregates, collections and multiplicity aggregates; a fixed, deterministic set of mutants of each
//! encoding ([`mutants`]: bit flips at a spread of positions, truncations,
//! extensions, runs overwritten with `0x00` and `0xff`), and of a
//! collection's Snappy-compressed form, goes to its decoder. For every
//! mutant:
//!
//! 1. **no panic**, whatever the bytes;
//! 2. a raw mutant that decodes is another value that re-encodes to the
//!    mutant (the layouts have one encoding per value);
//! 3. **no mutated message is accepted**: if it decodes, verification
//!    against the round's validators and message fails, unless it decoded
//!    to the original message (only possible for the compressed form,
//!    which has several spellings).

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, SecretKey, aggregate};
use sigagg_horn::{
    Collection, Collector, HornError, HornParams, HornValidators, MultiplicityAggregate, SubcommitteeAggregate,
    verify_collection, verify_multiplicity_aggregate, wire,
};

/// The deterministic mutants of `bytes` (the same set as the byte-level
/// API's mutation test): one bit flipped at a spread of positions (every
/// byte of a short object; otherwise the first and last 32 bytes and 64
/// strided ones; every bit of the first and last 4 bytes), truncations (0,
/// 1, half, all but one), extensions (`0x00`, `0xff`, a copy of itself)
/// and runs of 4 and 32 bytes overwritten with `0x00` and `0xff`. Mutants
/// equal to `bytes` are left out.
fn mutants(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let len = bytes.len();
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut flip = |at: usize, bit: usize| {
        let mut m = bytes.to_vec();
        m[at] ^= 1 << bit;
        out.push((format!("flip byte {at} bit {bit}"), m));
    };
    let positions: BTreeSet<usize> = if len <= 128 {
        (0..len).collect()
    } else {
        (0..32).chain(len - 32..len).chain((0..64).map(|k| k * len / 64)).collect()
    };
    for &at in &positions {
        flip(at, at % 8);
    }
    let edges: BTreeSet<usize> = (0..len.min(4)).chain(len.saturating_sub(4)..len).collect();
    for &at in &edges {
        for bit in (0..8).filter(|&bit| bit != at % 8) {
            flip(at, bit);
        }
    }
    let cuts: BTreeSet<usize> = [0, 1, len / 2, len.saturating_sub(1)].into_iter().filter(|&n| n < len).collect();
    for n in cuts {
        out.push((format!("truncate to {n} bytes"), bytes[..n].to_vec()));
    }
    out.push(("append 0x00".into(), [bytes, &[0x00]].concat()));
    out.push(("append 0xff".into(), [bytes, &[0xff]].concat()));
    out.push(("append a copy".into(), bytes.repeat(2)));
    for run in [4, 32].into_iter().filter(|&run| run <= len) {
        let starts: BTreeSet<usize> = [0, len / 4, len / 2, len - run].into_iter().map(|s| s.min(len - run)).collect();
        for start in starts {
            for fill in [0x00u8, 0xff] {
                let mut m = bytes.to_vec();
                m[start..start + run].fill(fill);
                out.push((format!("fill {run} bytes at {start} with {fill:#04x}"), m));
            }
        }
    }
    out.retain(|(_, m)| m != bytes);
    out
}

/// Real messages of one slot on two committees of 128 validators
/// (subcommittees of 64), signed by independent keys.
///
/// Not `sigagg_horn::sim`: its keys are `a + i * b` (a benchmark shortcut),
/// so distinct signer sets or counts with the same sums share an aggregate
/// key, and a mutant could verify without any flaw in the decoders.
struct Slot {
    validators: HornValidators,
    message: Vec<u8>,
    aggregates: Vec<SubcommitteeAggregate>,
    collections: Vec<Collection>,
    /// Each collection with its first aggregate merged again (counts 1, 2).
    multiplicities: Vec<MultiplicityAggregate>,
}

fn slot() -> Slot {
    let params = HornParams::new(2, 128, 64).unwrap();
    let n = params.committees() * params.committee_size();
    let sks: Vec<SecretKey> = (0..n as u32)
        .map(|i| SecretKey::from_key_material(&[&i.to_le_bytes()[..], &[0x48; 28]].concat()).unwrap())
        .collect();
    let registry = KeyRegistry::from_keys_unchecked(sks.iter().map(SecretKey::public_key).collect()).unwrap();
    let validators = HornValidators::contiguous(params, &registry).unwrap();
    let message = b"slot 7".to_vec();
    let (size, sub) = (params.committee_size(), params.subcommittee_size());
    let mut aggregates = Vec::new();
    for c in 0..params.committees() {
        for s in 0..params.subcommittees() {
            let mut bits = Bitfield::new(sub);
            let mut sigs = Vec::new();
            for j in (0..sub).filter(|j| (j * 7 + c * 3 + s) % 5 != 0) {
                bits.set(j).unwrap();
                sigs.push(sks[c * size + s * sub + j].sign(&message));
            }
            let signature = aggregate(&sigs).unwrap();
            aggregates.push(SubcommitteeAggregate { committee: c as u32, subcommittee: s as u32, bits, signature });
        }
    }
    let (mut collections, mut multiplicities) = (Vec::new(), Vec::new());
    for c in 0..params.committees() as u32 {
        let mut collector = Collector::new(params, c).unwrap();
        let own: Vec<&SubcommitteeAggregate> = aggregates.iter().filter(|a| a.committee == c).collect();
        for a in &own {
            collector.offer_verified((*a).clone(), &validators, &message).unwrap();
        }
        let collection = collector.collection().unwrap();
        let mut m = MultiplicityAggregate::from_collection(&collection);
        m.merge_subcommittee_aggregate(&params, own[0]).unwrap();
        collections.push(collection);
        multiplicities.push(m);
    }
    Slot { validators, message, aggregates, collections, multiplicities }
}

/// Failures found so far, reported together at the end of a test.
#[derive(Default)]
struct Findings(Vec<String>);

impl Findings {
    /// Feeds every mutant of `bytes` (an encoding of `original`) to
    /// `decode`; a decoded mutant must re-encode to itself when `canonical`
    /// and must fail `verify` unless it is `original`.
    #[allow(clippy::too_many_arguments)]
    fn check<T: PartialEq + Debug>(
        &mut self,
        what: &str,
        bytes: &[u8],
        original: &T,
        canonical: bool,
        decode: impl Fn(&[u8]) -> Result<T, HornError>,
        encode: impl Fn(&T) -> Vec<u8>,
        verify: impl Fn(&T) -> Result<(), HornError>,
    ) {
        assert_eq!(decode(bytes).as_ref(), Ok(original), "{what}: the original decodes");
        assert_eq!(verify(original), Ok(()), "{what}: the original verifies");
        for (label, mutant) in mutants(bytes) {
            let decoded = match catch_unwind(AssertUnwindSafe(|| decode(&mutant))) {
                Err(_) => {
                    self.0.push(format!("{what}: {label}: PANIC in decoding"));
                    continue;
                }
                Ok(Err(_)) => continue,
                Ok(Ok(value)) => value,
            };
            if canonical && encode(&decoded) != mutant {
                self.0.push(format!("{what}: {label}: decoded, but re-encodes to other bytes"));
            }
            if decoded == *original {
                if canonical {
                    self.0.push(format!("{what}: {label}: decoded to the original"));
                }
                continue;
            }
            match catch_unwind(AssertUnwindSafe(|| verify(&decoded))) {
                Err(_) => self.0.push(format!("{what}: {label}: PANIC in verification")),
                Ok(Ok(())) => self.0.push(format!("{what}: {label}: ACCEPTED: {decoded:?}")),
                Ok(Err(_)) => {}
            }
        }
    }

    fn assert_none(self) {
        assert!(self.0.is_empty(), "{} mutation failures:\n{}", self.0.len(), self.0.join("\n"));
    }
}

#[test]
fn horn_wire_messages() {
    let round = slot();
    let (v, m) = (&round.validators, round.message.as_slice());
    let p = *v.params();
    let mut f = Findings::default();
    for a in &round.aggregates {
        f.check(
            "subcommittee aggregate",
            &a.to_bytes(),
            a,
            true,
            |b| SubcommitteeAggregate::from_bytes(&p, b),
            SubcommitteeAggregate::to_bytes,
            |x| x.verify(v, m),
        );
    }
    for c in &round.collections {
        f.check(
            "collection",
            &c.to_bytes(),
            c,
            true,
            |b| Collection::from_bytes(&p, b),
            Collection::to_bytes,
            |x| verify_collection(v, m, x),
        );
        f.check(
            "compressed collection",
            &wire::compress(&c.to_bytes()),
            c,
            false,
            |b| wire::collection_from_compressed(&p, b),
            |x| wire::compress(&x.to_bytes()),
            |x| verify_collection(v, m, x),
        );
    }
    for a in &round.multiplicities {
        f.check(
            "multiplicity aggregate",
            &a.to_bytes(),
            a,
            true,
            |b| MultiplicityAggregate::from_bytes(&p, b),
            MultiplicityAggregate::to_bytes,
            |x| verify_multiplicity_aggregate(v, m, x),
        );
    }
    f.assert_none();
}
