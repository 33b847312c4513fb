//! Horn wire messages (subcommittee aggregates, collections, multiplicity
//! aggregates, Snappy-compressed collections) on the layout of
//! `fixtures::horn_params`: no panic, canonical re-encoding of the raw
//! forms (Snappy's compressed form has many spellings: only its decoded
//! collection is checked).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sigagg_fuzz::fixtures::horn_params;
use sigagg_fuzz::{canonical, select};
use sigagg_horn::{Collection, MultiplicityAggregate, SubcommitteeAggregate, wire};

fuzz_target!(|data: &[u8]| {
    let Some((which, data)) = select(data, 4) else { return };
    let p = horn_params();
    match which {
        0 => canonical("subcommittee aggregate", data, |b| SubcommitteeAggregate::from_bytes(&p, b), |v| v.to_bytes()),
        1 => canonical("collection", data, |b| Collection::from_bytes(&p, b), Collection::to_bytes),
        2 => canonical("multiplicity aggregate", data, |b| MultiplicityAggregate::from_bytes(&p, b), |v| v.to_bytes()),
        _ => {
            if let Ok(c) = wire::collection_from_compressed(&p, data) {
                assert_eq!(Collection::from_bytes(&p, &c.to_bytes()).as_ref(), Ok(&c));
            }
        }
    }
});
