//! Test helpers that several crates' test suites share; a dev-dependency
//! only, never part of a library.

#![forbid(unsafe_code)]

use std::collections::BTreeSet;

/// Prints the provers' phases as a tree on standard error when
/// `SIGAGG_TRACE` is set (a filter, e.g. `info`): the examples' one switch
/// for profiling. Does nothing otherwise.
pub fn trace_from_env() {
    if let Ok(filter) = std::env::var("SIGAGG_TRACE") {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        tracing_subscriber::Registry::default()
            .with(tracing_subscriber::EnvFilter::new(filter))
            .with(tracing_forest::ForestLayer::default())
            .init();
    }
}

/// The deterministic mutants of `bytes`, each with a label saying what was
/// done: one bit flipped at a spread of positions (every byte of a short
/// object; otherwise the first and last 32 bytes and 64 strided ones; every
/// bit of the first and last 4 bytes), truncations (0, 1, half, all but
/// one), extensions (`0x00`, `0xff`, a copy of itself) and runs of 4 and 32
/// bytes overwritten with `0x00` and `0xff`. Mutants equal to `bytes` are
/// left out. At most about two hundred.
pub fn mutants(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_differ_from_the_original_and_are_deterministic() {
        for len in [0usize, 1, 5, 200] {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let first = mutants(&bytes);
            assert!(first.iter().all(|(_, m)| *m != bytes));
            assert_eq!(first, mutants(&bytes));
        }
        assert!(mutants(&[0u8; 1000]).len() < 300);
    }
}
