//! Bounded mutation tests of the Horn wire decoders (issue 40, item 9),
//! the companion of `crates/bytes/tests/mutation.rs` for the messages that
//! are not part of the byte-level API.
//!
//! One slot signed by independent keys ([`slot`]) gives real subcommittee
//! aggregates, collections and multiplicity aggregates; a fixed, deterministic set of mutants of each
//! encoding (`sigagg_testkit::mutants`: bit flips at a spread of positions, truncations,
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

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{KeyRegistry, SecretKey, aggregate};
use sigagg_horn::{
    Collection, Collector, HornError, HornParams, HornValidators, MultiplicityAggregate, SubcommitteeAggregate,
    verify_collection, verify_multiplicity_aggregate, wire,
};
use sigagg_testkit::mutants;

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
