//! The constants WHIR's transcript absorbs mid-proof: each sub-protocol's
//! domain separator, whose seed is fixed by the statement's shape alone
//! (`p3_challenger::fs::DomainSeparator::seed`: its length, then 3-byte
//! little-endian words of protocol id, pattern hash and label), built
//! natively here; the circuit absorbs its seed as constants. The layout's
//! three separators are built with `p3_challenger::fs`'s public API as
//! `p3_sumcheck::layout` builds them (its own builders are private); the
//! tests check the whole transcript against native proofs.

use p3_challenger::fs::{DomainSeparator, FieldUnit, Hierarchy, Interaction, InteractionPattern, Kind, Length};
use p3_sumcheck::strategy::Basis;
use p3_sumcheck::transcript::SumcheckShape;
use p3_whir::WhirShape;
use sigagg_prover::config::Val;

use crate::Ext;

/// A table as WHIR's layout binds it: `(log2 rows, columns)`.
pub type TableShape = (usize, usize);

/// A sub-protocol's domain separator (absorbed by
/// [`crate::transcript::CircuitChallenger::observe_separator`]).
pub type Separator = DomainSeparator<FieldUnit<Val>>;

fn word(separator: &mut Separator, value: usize) {
    separator.instance(&(value as u64).to_be_bytes());
}

/// The layout's binding (SuffixProver: selectors not reversed, suffix
/// order): the stacked variables, the strategy, every table's shape in
/// statement order.
fn bind_layout(separator: &mut Separator, num_variables: usize, tables: &[TableShape]) {
    word(separator, num_variables);
    separator.instance(&[0]);
    separator.instance(&[1]);
    word(separator, tables.len());
    for &(h, w) in tables {
        word(separator, h);
        word(separator, w);
    }
}

fn algebra(kind: Kind, label: &'static str, length: Length) -> Interaction {
    Interaction::algebra::<Val, Ext>(Hierarchy::Atomic, kind, label, length)
}

/// Before each out-of-domain sample of the commitment.
pub fn virtual_claim(num_variables: usize, tables: &[TableShape]) -> Separator {
    let pattern = InteractionPattern::new(vec![
        algebra(Kind::Challenge, "virtual_point", Length::Scalar),
        algebra(Kind::Message, "virtual_eval", Length::Scalar),
    ])
    .expect("a well-formed pattern");
    let mut separator = DomainSeparator::new(1, b"p3-sumcheck-layout-ood", pattern);
    bind_layout(&mut separator, num_variables, tables);
    separator
}

/// Before table `t`'s opened values: every column, then `next`'s
/// successor view.
pub fn opening(num_variables: usize, tables: &[TableShape], t: usize, next: &[usize]) -> Separator {
    let width = tables[t].1;
    let mut steps = Vec::new();
    if width > 0 {
        steps.push(algebra(Kind::Message, "current_evals", Length::Fixed(width)));
    }
    if !next.is_empty() {
        steps.push(algebra(Kind::Message, "next_evals", Length::Fixed(next.len())));
    }
    let pattern = InteractionPattern::new(steps).expect("a well-formed pattern");
    let mut separator = DomainSeparator::new(1, b"p3-sumcheck-layout-opening", pattern);
    bind_layout(&mut separator, num_variables, tables);
    word(&mut separator, t);
    word(&mut separator, tables[t].0);
    word(&mut separator, width);
    (0..width).for_each(|c| word(&mut separator, c));
    word(&mut separator, next.len());
    next.iter().for_each(|&c| word(&mut separator, c));
    separator
}

/// Before the batching challenge of the initial claims.
pub fn batching(num_variables: usize, tables: &[TableShape], claims: usize, virtuals: usize) -> Separator {
    let pattern = InteractionPattern::new(vec![algebra(Kind::Challenge, "batching", Length::Scalar)])
        .expect("a well-formed pattern");
    let mut separator = DomainSeparator::new(1, b"p3-sumcheck-layout-batching", pattern);
    bind_layout(&mut separator, num_variables, tables);
    word(&mut separator, claims);
    word(&mut separator, virtuals);
    separator
}

/// Before WHIR's run, for `openings` opening batches.
pub fn whir(config: &super::Config, openings: usize) -> Separator {
    WhirShape::new(config, openings).domain_separator::<Val, Ext>()
}

/// Before a sumcheck of `rounds` rounds grinding `pow` bits each.
pub fn sumcheck(rounds: usize, pow: usize) -> Separator {
    SumcheckShape::new(rounds, pow, Basis::Evaluation).domain_separator::<Val, Ext>()
}
