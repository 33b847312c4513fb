//! Prints the proven and conjectured security of the named settings, and
//! the fewest FRI queries that reach 100 proven bits at each blowup.
use sigagg_xmss_agg::config::FriSettings;
use sigagg_xmss_agg::security::security_level;
use sigagg_xmss_agg::{Settings, max_signatures};

fn main() {
    for (name, s) in [("fast", Settings::FAST), ("compact", Settings::COMPACT)] {
        for n in [1usize, 1024, 8192, max_signatures(&s)] {
            let l = security_level(&s, n);
            println!(
                "{name:8} n={n:6}: proven {:.2} ({}), conjectured {:.1} ({})",
                l.proven_bits, l.proven_binding, l.conjectured_bits, l.conjectured_binding
            );
            let t = sigagg_xmss_agg::threshold::security_level(&s, n, 2 * n as u32);
            println!(
                "{name:8} threshold {n:6} of {:6}: proven {:.2}, conjectured {:.1}",
                2 * n,
                t.proven_bits,
                t.conjectured_bits
            );
        }
    }
    for (log_blowup, pow) in [(1usize, 20usize), (2, 20), (3, 22), (4, 22)] {
        let base = FriSettings { log_blowup, query_pow_bits: pow, ..FriSettings::FAST };
        let with = |num_queries| Settings::Fri(FriSettings { num_queries, ..base });
        let max = max_signatures(&with(base.num_queries));
        let queries = (20..400).find(|&q| security_level(&with(q), max).proven_bits >= 100.0).unwrap();
        println!("log_blowup {log_blowup}, query pow {pow}: {queries} queries for 100 proven bits at {max} signatures");
    }
}
