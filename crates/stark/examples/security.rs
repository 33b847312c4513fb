//! Prints the proven and conjectured security of the named settings.
use sigagg_stark::Settings;
use sigagg_stark::security::security_level;

fn main() {
    for (name, s) in [("fast", Settings::FAST), ("compact", Settings::COMPACT)] {
        for n in [1usize, 1024, 8192, 65536] {
            let l = security_level(&s, n);
            println!("{name:8} n={n:6}: proven {:.1} ({}), conjectured {:.1} ({})", l.proven_bits, l.proven_binding, l.conjectured_bits, l.conjectured_binding);
        }
    }
}
