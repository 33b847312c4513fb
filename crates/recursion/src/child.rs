//! A whole whir-skip-poseidon2 proof verified in a circuit: the proof's
//! shape derived from its statement alone ([`ProofShape`]), its values
//! as wires ([`ProofWires`]: advice from a native proof, or inputs), and
//! the verification ([`verify`]: [`crate::stark::verify`] then
//! [`crate::whir::verify`]). A merge verifies its children this way; a
//! verifier rebuilds the same circuit from the statements, without the
//! proofs.

use std::sync::Arc;

use p3_whir::QueryOpenings;
use sigagg_prover::WhirSettings;
use sigagg_prover::config::MerkleHash;
use sigagg_prover::config::{Poseidon2Challenger, Val, ValMmcsPoseidon2};
use sigagg_prover::logup::{Buses, Layout};
use sigagg_prover::skip_stark::SkipStarkProof;
use sigagg_prover::skip_stark::skip_for;
use sigagg_prover::zerocheck::{SkipAir, skip_points, summary};

use crate::Ext;
use crate::bus::{GkrLayerWires, LogUpWires};
use crate::circuit::{CircuitBuilder, DIGEST, HintFn, Wire};
use crate::error::CircuitError;
use crate::stark::{self, StarkProofWires, TableProofWires};
use crate::transcript::CircuitChallenger;
use crate::whir::{self, Config, OpenedTable, PathOracle, RoundWires, SumcheckWires, WhirProofWires};
use crate::zerocheck::ZerocheckWires;

/// A native proof of the recursion setting.
pub type NativeProof = SkipStarkProof<ValMmcsPoseidon2>;

/// What a child's verifier reads of its statement: its tables, their
/// heights (log2), the skip, the transcript's seed, and the settings its
/// opening was configured by.
#[derive(Clone, Copy, Debug)]
pub struct ChildStatement<'a, A> {
    /// The tables' AIRs, in batch order.
    pub airs: &'a [&'a A],
    /// Their heights, log2.
    pub log_heights: &'a [usize],
    /// The zerocheck's skip (`sigagg_prover::skip_stark::skip_for` of the
    /// heights).
    pub skip: usize,
    /// The transcript's seed.
    pub seed: &'a [u8],
    /// The settings (their Merkle hash must be Poseidon2).
    pub settings: &'a WhirSettings,
}

impl<A: SkipAir> ChildStatement<'_, A> {
    /// What the native verifier checks of a statement before any proof
    /// (`SkipStark::new`, `skip_stark::verify`): Poseidon2 commitments, at
    /// least one table, one height per table, the skip its heights give,
    /// every table at least as tall as the skip and WHIR's first folding.
    fn check(&self) -> Result<(), CircuitError> {
        let unsupported = CircuitError::Unsupported;
        if self.settings.merkle != MerkleHash::Poseidon2 {
            return Err(unsupported("a child committed with another hash than Poseidon2"));
        }
        if self.airs.is_empty() || self.airs.len() != self.log_heights.len() {
            return Err(unsupported("one height per table, at least one table"));
        }
        if self.skip != skip_for(self.log_heights) {
            return Err(unsupported("another skip than the statement's heights give"));
        }
        let shortest = self.log_heights.iter().copied().min().unwrap_or(0);
        let first_log_arity = self.settings.first_log_arity.min(shortest).max(1);
        if shortest < self.skip.max(first_log_arity) {
            return Err(unsupported("a table shorter than the skip or WHIR's first folding"));
        }
        Ok(())
    }

    /// The tables as the opening sees them.
    fn opened(&self) -> Vec<OpenedTable> {
        self.airs
            .iter()
            .zip(self.log_heights)
            .map(|(air, &h)| OpenedTable { log_rows: h, width: air.width(), next: air.main_next_row_columns() })
            .collect()
    }

    /// The opening's configuration.
    fn config(&self) -> Result<Config, CircuitError> {
        let shapes: Vec<(usize, usize)> = self.opened().iter().map(|t| (t.log_rows, t.width)).collect();
        sigagg_prover::whir::whir_config::<Poseidon2Challenger>(self.settings, &shapes)
            .map(|(config, _)| config)
            .map_err(|_| CircuitError::Unsupported("a statement WHIR has no configuration for"))
    }
}

/// How many values each part of a proof holds, from the statement alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofShape {
    /// Per GKR layer, its rounds (`None` without messages); then the
    /// number of shares.
    bus: Option<(usize, usize)>,
    /// Per table: skip values, rounds, values per round, local, next.
    tables: Vec<[usize; 5]>,
    /// The skip (reduction rounds per table).
    skip: usize,
    /// Per table, opened values.
    openings: Vec<usize>,
    /// WHIR: commitment out-of-domain answers; per sumcheck `(rounds,
    /// grinding)`; per round `(out-of-domain answers, rows, row width)`;
    /// final polynomial, rows and row width.
    whir: WhirShape,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct WhirShape {
    ood: usize,
    initial: (usize, bool),
    rounds: Vec<(usize, usize, usize, (usize, bool))>,
    final_poly: usize,
    final_rows: (usize, usize),
    final_sumcheck: Option<(usize, bool)>,
}

impl ProofShape {
    /// The shape of every proof of `statement`.
    ///
    /// # Errors
    /// [`CircuitError::Unsupported`] for AIRs the zerocheck refuses or a
    /// statement WHIR has no configuration for.
    pub fn of<A: SkipAir>(statement: &ChildStatement<'_, A>) -> Result<Self, CircuitError> {
        statement.check()?;
        let unsupported = |_| CircuitError::Unsupported("an AIR the zerocheck does not support");
        let summaries =
            statement.airs.iter().map(|a| summary(*a)).collect::<Result<Vec<_>, _>>().map_err(unsupported)?;
        let profiles: Vec<_> = summaries.iter().map(|s| s.messages.clone()).collect();
        let buses = Buses::of_messages(&profiles);
        let bus =
            buses.any().then(|| (Layout::new(statement.log_heights, &buses.counts()).log_size, statement.airs.len()));
        let skip = statement.skip;
        let mut tables = Vec::with_capacity(statement.airs.len());
        for ((air, &h), summary) in statement.airs.iter().zip(statement.log_heights).zip(&summaries) {
            let degree = summary.degree;
            let skip_values = skip_points(skip, degree).len() + (1 << skip);
            let rounds = h.checked_sub(skip).ok_or(CircuitError::Unsupported("a table shorter than the skip"))?;
            tables.push([skip_values, rounds, degree + 2, air.width(), air.main_next_row_columns().len()]);
        }
        let openings = tables.iter().map(|t| t[3] + t[4]).collect();
        let config = statement.config()?;
        let schedule = config.folding_schedule();
        let rows = |queries: usize, log_rows: usize| if queries >= 1 << log_rows { 1 << log_rows } else { queries };
        let whir = WhirShape {
            ood: config.commitment_ood_samples(),
            initial: (schedule[0], config.starting_folding_pow_bits() > 0),
            rounds: config
                .round_parameters()
                .iter()
                .enumerate()
                .map(|(i, rp)| {
                    let sumcheck = (schedule[i + 1], rp.folding_pow_bits > 0);
                    (rp.ood_samples, rows(rp.num_queries, rp.log_folded_domain_size), 1 << schedule[i], sumcheck)
                })
                .collect(),
            final_poly: 1 << config.final_round_config().num_variables,
            final_rows: {
                let fr = config.final_round_config();
                (rows(fr.num_queries, fr.log_folded_domain_size), 1 << schedule[config.round_parameters().len()])
            },
            final_sumcheck: (config.final_sumcheck_rounds() > 0)
                .then(|| (config.final_sumcheck_rounds(), config.final_folding_pow_bits() > 0)),
        };
        Ok(Self { bus, tables, skip, openings, whir })
    }
}

/// A proof's values as wires.
#[derive(Clone, Debug)]
pub struct ProofWires {
    /// Up to the opening.
    pub stark: StarkProofWires,
    /// Each table's opened values.
    pub openings: Vec<Vec<Wire>>,
    /// The opening.
    pub whir: WhirProofWires,
}

impl ProofWires {
    /// Wires for a proof of `shape`, each made by `next` in the order of
    /// [`values`].
    fn build(shape: &ProofShape, next: &mut dyn FnMut() -> Wire) -> Self {
        let mut many = |n: usize| -> Vec<Wire> { (0..n).map(|_| next()).collect() };
        let commitment: [Wire; DIGEST] = many(DIGEST).try_into().expect("a digest");
        let bus = shape.bus.map(|(layers, shares)| LogUpWires {
            root_denominator: many(1)[0],
            layers: (0..layers)
                .map(|i| GkrLayerWires {
                    rounds: (0..i).map(|_| many(3).try_into().expect("three values")).collect(),
                    claims: many(4).try_into().expect("four values"),
                })
                .collect(),
            shares: many(shares),
        });
        let tables = shape
            .tables
            .iter()
            .map(|&[skip_values, rounds, per_round, local, next]| TableProofWires {
                zerocheck: ZerocheckWires {
                    skip_values: many(skip_values),
                    rounds: (0..rounds).map(|_| many(per_round)).collect(),
                    local: many(local),
                    next: many(next),
                },
                reduction: (0..shape.skip).map(|_| many(3).try_into().expect("three values")).collect(),
            })
            .collect();
        let openings = shape.openings.iter().map(|&n| many(n)).collect();
        let w = &shape.whir;
        let initial_ood_answers = many(w.ood);
        let initial_sumcheck = sumcheck_wires(&mut many, w.initial);
        let rounds = w
            .rounds
            .iter()
            .map(|&(ood, rows, width, sc)| RoundWires {
                commitment: many(DIGEST).try_into().expect("a digest"),
                ood_answers: many(ood),
                pow_witness: many(1)[0],
                rows: (0..rows).map(|_| many(width)).collect(),
                sumcheck: sumcheck_wires(&mut many, sc),
            })
            .collect();
        let final_poly = many(w.final_poly);
        let final_pow_witness = many(1)[0];
        let final_rows = (0..w.final_rows.0).map(|_| many(w.final_rows.1)).collect();
        let final_sumcheck = w.final_sumcheck.map(|sc| sumcheck_wires(&mut many, sc));
        Self {
            stark: StarkProofWires { commitment, bus, tables },
            openings,
            whir: WhirProofWires {
                initial_ood_answers,
                initial_sumcheck,
                rounds,
                final_poly,
                final_pow_witness,
                final_rows,
                final_sumcheck,
            },
        }
    }

    /// The statement's next inputs, one per value of a proof of `shape`
    /// (a child whose proof is public: tests).
    pub fn inputs(b: &mut CircuitBuilder, shape: &ProofShape) -> Self {
        Self::build(shape, &mut || b.input())
    }

    /// Advice: one hint whose values are a proof's `values` ([`values`]),
    /// checked against `shape` when the witness runs; `None` for a
    /// verifier's build, which never runs it.
    pub fn advice(b: &mut CircuitBuilder, shape: &ProofShape, values: Option<Arc<Vec<Ext>>>) -> Self {
        let mut count = 0;
        let _ = Self::build(shape, &mut || {
            count += 1;
            Wire(0)
        });
        let compute: HintFn = Arc::new(move |_| {
            let v = values.as_ref().ok_or("no proof to give")?;
            if v.len() != count { Err(format!("a proof of {} values, not {count}", v.len())) } else { Ok(v.to_vec()) }
        });
        let wires = b.hint(&[], count, compute);
        let mut wires = wires.into_iter();
        Self::build(shape, &mut || wires.next().expect("counted"))
    }
}

/// A sumcheck's wires: `(rounds, whether it grinds)`.
fn sumcheck_wires(many: &mut impl FnMut(usize) -> Vec<Wire>, (rounds, pow): (usize, bool)) -> SumcheckWires {
    SumcheckWires {
        rounds: (0..rounds).map(|_| many(2).try_into().expect("two values")).collect(),
        pow_witnesses: if pow { many(rounds) } else { Vec::new() },
    }
}

/// Records the verification of a proof of `statement` whose values are
/// `proof`, its query paths from `paths`.
///
/// # Errors
/// As [`crate::stark::verify`] and [`crate::whir::verify`].
pub fn verify<A: SkipAir>(
    b: &mut CircuitBuilder,
    statement: &ChildStatement<'_, A>,
    proof: &ProofWires,
    paths: &PathOracle,
) -> Result<(), CircuitError> {
    statement.check()?;
    let mut transcript = CircuitChallenger::with_seed(b, statement.seed);
    let shape = (statement.airs, statement.skip, statement.log_heights);
    let claims = stark::verify(b, &mut transcript, shape, &proof.stark, &proof.openings)?;
    let config = statement.config()?;
    whir::verify(
        b,
        &mut transcript,
        &config,
        &statement.opened(),
        (proof.stark.commitment, &claims),
        &proof.whir,
        paths,
    )
}

/// Every value of `proof` in the order [`ProofWires`] reads them (base
/// values as extension values).
pub fn values(proof: &NativeProof) -> Vec<Ext> {
    let mut v: Vec<Ext> = Vec::new();
    let base = |v: &mut Vec<Ext>, x: Val| v.push(Ext::from(x));
    proof.commitment.roots()[0].iter().for_each(|&x| base(&mut v, x));
    if let Some(bus) = &proof.bus {
        v.push(bus.gkr.root_denominator);
        for layer in &bus.gkr.layers {
            v.extend(layer.round_polys.iter().flatten());
            let c = &layer.claims;
            v.extend([c.n0, c.d0, c.n1, c.d1]);
        }
        v.extend(&bus.shares);
    }
    for t in &proof.tables {
        let z = &t.zerocheck;
        v.extend(z.skip_values.iter().chain(z.rounds.iter().flatten()).chain(&z.local).chain(&z.next));
        v.extend(t.reduction.iter().flatten());
    }
    for batch in &proof.opening.evals {
        v.extend(batch.current().iter().chain(batch.next()));
    }
    let w = &proof.opening.whir;
    let sumcheck = |v: &mut Vec<Ext>, d: &p3_sumcheck::SumcheckData<Val, Ext>| {
        v.extend(d.polynomial_evaluations.iter().flatten());
        d.pow_witnesses.iter().for_each(|&x| v.push(Ext::from(x)));
    };
    let rows = |v: &mut Vec<Ext>, o: &QueryOpenings<Val, Ext, _>| match o {
        QueryOpenings::Base(o) => o.rows.iter().flatten().for_each(|&x| v.push(Ext::from(x))),
        QueryOpenings::Extension(o) => v.extend(o.rows.iter().flatten()),
    };
    v.extend(&w.initial_ood_answers);
    sumcheck(&mut v, &w.initial_sumcheck);
    for round in &w.rounds {
        if let Some(c) = &round.commitment {
            c.roots()[0].iter().for_each(|&x| base(&mut v, x));
        }
        v.extend(&round.ood_answers);
        base(&mut v, round.pow_witness);
        rows(&mut v, &round.openings);
        sumcheck(&mut v, &round.sumcheck);
    }
    if let Some(g) = &w.final_poly {
        v.extend(g.as_slice());
    }
    base(&mut v, w.final_pow_witness);
    rows(&mut v, &w.final_openings);
    if let Some(d) = &w.final_sumcheck {
        sumcheck(&mut v, d);
    }
    v
}
