//! Prints the proven and conjectured security of the named Lamport+
//! settings, and the fewest FRI queries reaching a proven target for other
//! blowups and grinding levels (for choosing settings).
//!
//! ```sh
//! cargo run --release -p sigagg-lamport-agg --example lamport_security
//! ```

use sigagg_lamport::{LamportPlus, ParameterSet};
use sigagg_lamport_agg::config::{FriSettings, Settings};
use sigagg_lamport_agg::named;
use sigagg_lamport_agg::security::{ProofShape, security_level};

const N: usize = 1024;

fn shapes() -> [(&'static str, ProofShape); 2] {
    [
        ("aggregate", ProofShape::Aggregate { signatures: N }),
        ("threshold", ProofShape::Threshold { signers: N, group_size: N as u32 }),
    ]
}

fn main() {
    let subkeys = LamportPlus::NUM_SUBKEYS;
    for name in [named::Named::Fast, named::Named::Compact] {
        let s = named::settings(name);
        let name = name.name();
        for (what, shape) in shapes() {
            let l = security_level(&s, subkeys, shape);
            println!(
                "{name:8} {what} n={N}: proven {:.2} ({}), conjectured {:.1} ({})",
                l.proven_bits, l.proven_binding, l.conjectured_bits, l.conjectured_binding
            );
        }
    }
    let (_, threshold) = shapes()[1];
    for (log_blowup, target) in [(1usize, 100.0), (3, 100.0), (4, 100.0)] {
        for pow in [20usize, 22, 24, 26, 28] {
            // Each rate with its own named setting's Merkle hash.
            let named = if log_blowup == 1 { named::FAST } else { named::COMPACT };
            let base = FriSettings { log_blowup, query_pow_bits: pow, ..*named.fri().expect("FRI settings") };
            let queries = (10..400).find(|&q| {
                let settings = Settings::Fri(FriSettings { num_queries: q, ..base });
                security_level(&settings, subkeys, threshold).proven_bits >= target
            });
            println!(
                "log_blowup {log_blowup}, query pow {pow}: {queries:?} queries for {target} proven bits (threshold, n={N})"
            );
        }
    }
}
