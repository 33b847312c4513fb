//! The security level of the FRI backend, computed with Plonky3's
//! `p3-security` calculator from the actual tables and settings.
//!
//! The batch is modelled as one STARK whose ALI batches every constraint of
//! every table (plus the LogUp constraints), whose trace length is the
//! tallest table's, whose opening batch is the sum of every table's
//! committed columns, and whose LogUp term counts every interaction of every
//! table as if it sat on the tallest table. Each of these choices can only
//! lower the reported level. Grinding is counted at every site the prover
//! grinds and the verifier checks (FRI query and commit phases, the batching
//! challenge, the lookup challenges and the out-of-domain point).

use p3_air::BaseAir;
use p3_air::symbolic::AirLayout;
use p3_batch_stark::num_batched_openings;
use p3_field::Field;
use p3_lookup::InteractionSymbolicBuilder;
use p3_security::grinding::GrindingSites;
use p3_security::logup::{self, LogUpAir};
use p3_security::shape::{InstanceShape, StarkAirParams};
use p3_security::stark::{conjectured_security_report, proven_security_report};
use p3_uni_stark::OpeningShape;

use crate::config::{Challenge, FriSettings, Val};
use crate::security::SecurityLevel;
use crate::table::{Table, Tables};

/// Extension degree of the challenge field.
const CHALLENGE_DIM: usize = 5;

/// The security level of `settings` for proofs of `tables`.
pub(crate) fn level<A: Table>(settings: &FriSettings, tables: &Tables<'_, A>) -> SecurityLevel {
    let airs = tables.airs;
    // The largest degree over the tables (9 with paired Poseidon2 tables),
    // and its quotient chunks for every table (conservative for the rest).
    let max_degree = airs.iter().map(A::degree).max().unwrap_or(3);
    let quotient_chunks = (max_degree - 1).next_power_of_two();
    // The prover's own lookup folding (tested equal to Plonky3's derivation,
    // without its symbolic degree inference).
    let all_lookups = A::lookups(airs);
    let mut num_constraints = 0;
    let mut batched = 0;
    let mut interactions = 0;
    for (air, lookups) in airs.iter().zip(&all_lookups) {
        let layout = AirLayout {
            main_width: BaseAir::<Val>::width(air),
            num_periodic_columns: air.num_periodic_columns(),
            ..Default::default()
        };
        let builder = InteractionSymbolicBuilder::<Val, Challenge>::from_air(air, layout);
        // Every lookup column adds its pin constraint; the accumulator adds three.
        let lookup_constraints = if lookups.is_empty() { 0 } else { lookups.len() + 3 };
        num_constraints +=
            builder.base_constraints().len() + builder.extension_constraints().len() + lookup_constraints;
        batched += num_batched_openings(
            layout.main_width,
            !air.main_next_row_columns().is_empty(),
            0,
            false,
            quotient_chunks,
            lookups.len(),
            CHALLENGE_DIM,
            OpeningShape::new(),
        );
        interactions += lookups.iter().map(|l| l.elements.len()).sum::<usize>();
    }
    let fri = settings.fri_parameters(());
    let regime = fri.security_regime();
    let grinding = GrindingSites {
        out_of_domain: settings.ood_pow_bits,
        lookup_challenge: settings.lookup_pow_bits,
        ..fri.grinding_sites()
    };
    let air = StarkAirParams {
        num_constraints,
        max_constraint_degree: max_degree,
        num_quotient_chunks: quotient_chunks,
        max_combo: 2,
    };
    let shape = InstanceShape {
        log_trace_length: tables.log_heights.iter().copied().max().unwrap_or(0),
        modulus_bits: <Challenge as Field>::bits(),
        collision_resistance: settings.merkle.collision_bits(),
        num_batched_functions: batched,
    };
    let lookup_air = LogUpAir { num_interactions: interactions, max_message_width: A::BUS_WIDTH };
    let extras: Vec<_> = logup::security_term(&lookup_air, &shape, &grinding).into_iter().collect();
    let proven = proven_security_report(&regime, &air, &shape, &extras, &grinding);
    let conjectured = conjectured_security_report(&regime, &air, &shape, &extras, &grinding);
    let (_, proven_term) = proven.binding();
    SecurityLevel {
        proven_bits: proven.security_bits(),
        proven_binding: proven_term.label.to_string(),
        conjectured_bits: conjectured.security_bits(),
        conjectured_binding: conjectured.binding().label.to_string(),
    }
}
