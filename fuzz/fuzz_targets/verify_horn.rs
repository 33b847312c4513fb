//! Horn wire messages (subcommittee aggregates, collections, multiplicity
//! aggregates) decoded and verified against the validators and message of
//! one slot signed by independent keys (`fixtures::horn`): no panic, and only the round's
//! own messages are accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::{fixtures, select};
use sigagg_horn::{
    Collection, MultiplicityAggregate, SubcommitteeAggregate, verify_collection, verify_multiplicity_aggregate,
};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 3) else { return };
    let round = fixtures::horn();
    let (v, m) = (&round.validators, round.message.as_slice());
    let p = v.params();
    match which {
        0 => {
            if let Ok(a) = SubcommitteeAggregate::from_bytes(p, data)
                && a.verify(v, m).is_ok()
            {
                assert!(round.aggregates.contains(&a), "a mutated subcommittee aggregate was accepted");
            }
        }
        1 => {
            if let Ok(c) = Collection::from_bytes(p, data)
                && verify_collection(v, m, &c).is_ok()
            {
                assert!(round.collections.contains(&c), "a mutated collection was accepted");
            }
        }
        _ => {
            if let Ok(a) = MultiplicityAggregate::from_bytes(p, data)
                && verify_multiplicity_aggregate(v, m, &a).is_ok()
            {
                assert!(round.multiplicities.contains(&a), "a mutated multiplicity aggregate was accepted");
            }
        }
    }
});
