//! Security level of the XMSS proofs: what the backend the settings name
//! states (`sigagg_prover::security_level`: for the FRI backend, Plonky3's
//! `p3-security` calculator on the actual tables, grinding counted) for
//! the tables of a statement of the given size.

pub use sigagg_prover::SecurityLevel;

use crate::config::Settings;

/// The security level of `settings` when aggregating `num_signatures` signatures.
pub fn security_level(settings: &Settings, num_signatures: usize) -> SecurityLevel {
    let padded = num_signatures.next_power_of_two().max(crate::statement::MIN_PADDED);
    let airs = crate::aggregate::airs_for_shape(settings, padded);
    let log_heights = crate::trace::log_heights(settings, padded);
    sigagg_prover::security_level(settings, &crate::system::tables(&airs, log_heights, &[0; 32]))
}
