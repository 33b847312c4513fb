//! WHIR's opening verifier as a circuit (`p3_whir`'s `verify_at` under
//! the SuffixProver layout, `sigagg_prover::whir`'s configuration), in
//! the native order on the same transcript: the commitment's
//! out-of-domain claims, each table's opened values, the batching
//! challenge `α` of the initial claims (weighted in placement order:
//! tallest table first, the later of equal heights first), the initial
//! sumcheck, each round's commitment, out-of-domain samples, grinding,
//! STIR queries ([`queries`]) and sumcheck, the final polynomial and its
//! queries, the final sumcheck, and the final identity
//! `claim = W(r) · g(r)`, every constraint's weight evaluated at the
//! reversed challenges ([`weights`]). Its constants (domain separators)
//! are computed natively ([`seeds`]).
//!
//! A sumcheck round sends `h(0)` and `h(∞)`, `h(1)` being the claim less
//! `h(0)`, so no round is checked on its own: a false round moves the
//! claim, which the final identity catches.

pub mod queries;
pub mod seeds;
mod weights;

use p3_field::PrimeCharacteristicRing;
use p3_whir::WhirConfig;
use sigagg_prover::config::{Poseidon2Challenger, Val};

pub use queries::{PathOracle, native_paths, no_paths};
use queries::{Site, pow_check, query};
use seeds::TableShape;
use weights::Powers;

use crate::Ext;
use crate::circuit::{CircuitBuilder, DIGEST, Wire};
use crate::error::CircuitError;
use crate::stark::OpeningClaim;
use crate::transcript::CircuitChallenger;

/// The recursion setting's WHIR configuration
/// (`sigagg_prover::whir::whir_config` for its transcript).
pub type Config = WhirConfig<Ext, Val, Poseidon2Challenger>;

/// A sumcheck's messages, as wires (`p3_sumcheck::SumcheckData`).
#[derive(Clone, Debug)]
pub struct SumcheckWires {
    /// Each round's `h(0)` and `h(∞)`.
    pub rounds: Vec<[Wire; 2]>,
    /// Each round's grinding witness (none when the sumcheck grinds no
    /// bits).
    pub pow_witnesses: Vec<Wire>,
}

/// One WHIR round, as wires (`p3_whir::WhirRoundProof`).
#[derive(Clone, Debug)]
pub struct RoundWires {
    /// The new codeword's root.
    pub commitment: [Wire; DIGEST],
    /// Its out-of-domain answers.
    pub ood_answers: Vec<Wire>,
    /// The queries' grinding witness.
    pub pow_witness: Wire,
    /// The previous codeword's queried rows.
    pub rows: Vec<Vec<Wire>>,
    /// The round's folding sumcheck.
    pub sumcheck: SumcheckWires,
}

/// A WHIR proof, as wires (`p3_whir::WhirProof`).
#[derive(Clone, Debug)]
pub struct WhirProofWires {
    /// The commitment's out-of-domain answers.
    pub initial_ood_answers: Vec<Wire>,
    /// The first folding sumcheck.
    pub initial_sumcheck: SumcheckWires,
    /// The rounds.
    pub rounds: Vec<RoundWires>,
    /// The final polynomial's values.
    pub final_poly: Vec<Wire>,
    /// The final queries' grinding witness.
    pub final_pow_witness: Wire,
    /// The last codeword's queried rows.
    pub final_rows: Vec<Vec<Wire>>,
    /// The final sumcheck (none without final rounds).
    pub final_sumcheck: Option<SumcheckWires>,
}

/// One table as the opening sees it: `2^log_rows` rows, `width` columns,
/// the AIR's next-row columns.
#[derive(Clone, Debug)]
pub struct OpenedTable {
    /// log2 of its rows.
    pub log_rows: usize,
    /// Its columns.
    pub width: usize,
    /// The columns whose successor view is opened.
    pub next: Vec<usize>,
}

/// A constraint of the final identity: its weight at the folding point.
enum Weight {
    /// `eq(point, ·)` (an out-of-domain sample).
    Eq(Vec<Wire>),
    /// A query's select weight at `ω^index`.
    Select(Wire),
}

/// Records the verification of the opening `proof` of the commitment
/// `root` under `config` for `tables`, establishing `claims` (each table's
/// point and opened values, from [`crate::stark::verify`]).
///
/// # Errors
/// [`CircuitError::Unsupported`] for a proof or claims of another shape
/// than the configuration fixes.
pub fn verify(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    config: &Config,
    tables: &[OpenedTable],
    (root, claims): ([Wire; DIGEST], &[OpeningClaim]),
    proof: &WhirProofWires,
    paths: &PathOracle,
) -> Result<(), CircuitError> {
    let n = config.num_variables();
    let shapes: Vec<TableShape> = tables.iter().map(|t| (t.log_rows, t.width)).collect();
    check_shapes(config, tables, claims, proof)?;
    // The native verifier refuses a statement whose claims leave WHIR
    // short of its target (a property of the shape alone).
    let opened: usize = claims.iter().map(|c| c.values.len()).sum();
    config
        .validate_initial_claims(opened + config.commitment_ood_samples())
        .map_err(|_| CircuitError::Unsupported("more opened values than WHIR's configuration secures"))?;

    // The commitment's out-of-domain claims, then each table's values.
    let mut virtuals = Vec::with_capacity(proof.initial_ood_answers.len());
    for &answer in &proof.initial_ood_answers {
        transcript.observe_separator(b, &seeds::virtual_claim(n, &shapes));
        let z = transcript.sample_ext(b);
        transcript.observe_ext(b, answer);
        virtuals.push((b.expand(z, n), answer));
    }
    for (t, (table, claim)) in tables.iter().zip(claims).enumerate() {
        transcript.observe_separator(b, &seeds::opening(n, &shapes, t, &table.next));
        for &v in &claim.values {
            transcript.observe_ext(b, v);
        }
    }
    transcript.observe_separator(b, &seeds::whir(config, tables.len()));
    transcript.observe_separator(b, &seeds::batching(n, &shapes, opened, virtuals.len()));
    let alpha = transcript.sample_ext(b);

    // The initial claim: Σ α^i v_i in placement order, virtual claims last.
    let placement = placement(tables);
    let mut alphas = Powers::new(b, alpha, false);
    let mut claimed = b.zero();
    let mut alpha_of: Vec<Vec<Wire>> = vec![Vec::new(); tables.len()];
    let mut virtual_alphas = Vec::with_capacity(virtuals.len());
    for &t in &placement {
        for &v in &claims[t].values {
            let a = alphas.next(b);
            alpha_of[t].push(a);
            let weighted = b.mul(a, v);
            claimed = b.add(claimed, weighted);
        }
    }
    for &(_, answer) in &virtuals {
        let a = alphas.next(b);
        virtual_alphas.push(a);
        let weighted = b.mul(a, answer);
        claimed = b.add(claimed, weighted);
    }

    let schedule = config.folding_schedule();
    let mut all_r = sumcheck(
        b,
        transcript,
        &proof.initial_sumcheck,
        (schedule[0], config.starting_folding_pow_bits()),
        &mut claimed,
    )?;
    let mut fold_r = all_r.clone();
    let mut prev_root = root;
    let mut rounds: Vec<(usize, Wire, Vec<Weight>)> = Vec::with_capacity(proof.rounds.len());
    for (i, (rp, round)) in config.round_parameters().iter().zip(&proof.rounds).enumerate() {
        transcript.observe_digest(b, round.commitment);
        let mut constraints = Vec::new();
        let mut answers = Vec::new();
        for &answer in &round.ood_answers {
            let z = transcript.sample_ext(b);
            transcript.observe_ext(b, answer);
            constraints.push(Weight::Eq(b.expand(z, rp.num_variables)));
            answers.push(answer);
        }
        pow_check(b, transcript, rp.pow_bits, round.pow_witness);
        let site = Site { index: i, log_rows: rp.log_folded_domain_size, queries: rp.num_queries, base_rows: i == 0 };
        let indices = query(b, transcript, &site, prev_root, &round.rows, paths)?;
        let gamma = transcript.sample_ext(b);
        let fold_weights = b.eq_table(&fold_r);
        let mut gammas = Powers::new(b, gamma, true);
        for &answer in &answers {
            let g = gammas.next(b);
            let weighted = b.mul(g, answer);
            claimed = b.add(claimed, weighted);
        }
        for (row, bits) in round.rows.iter().zip(&indices) {
            let folded = b.dot(&fold_weights, row);
            let g = gammas.next(b);
            let weighted = b.mul(g, folded);
            claimed = b.add(claimed, weighted);
            constraints.push(Weight::Select(b.root_power(rp.log_folded_domain_size, bits)));
        }
        rounds.push((rp.num_variables, gamma, constraints));
        fold_r = sumcheck(b, transcript, &round.sumcheck, (schedule[i + 1], rp.folding_pow_bits), &mut claimed)?;
        all_r.extend(&fold_r);
        prev_root = round.commitment;
    }

    // The final polynomial, checked at every final query.
    let fr = config.final_round_config();
    for &v in &proof.final_poly {
        transcript.observe_ext(b, v);
    }
    pow_check(b, transcript, fr.pow_bits, proof.final_pow_witness);
    let site = Site {
        index: proof.rounds.len(),
        log_rows: fr.log_folded_domain_size,
        queries: fr.num_queries,
        base_rows: proof.rounds.is_empty(),
    };
    let indices = query(b, transcript, &site, prev_root, &proof.final_rows, paths)?;
    let fold_weights = b.eq_table(&fold_r);
    for (row, bits) in proof.final_rows.iter().zip(&indices) {
        let folded = b.dot(&fold_weights, row);
        let var = b.root_power(fr.log_folded_domain_size, bits);
        let at = b.horner(&proof.final_poly, var).ok_or(CircuitError::Unsupported("an empty final polynomial"))?;
        b.assert_eq(at, folded);
    }
    let final_r = match &proof.final_sumcheck {
        Some(data) => sumcheck(
            b,
            transcript,
            data,
            (config.final_sumcheck_rounds(), config.final_folding_pow_bits()),
            &mut claimed,
        )?,
        None => Vec::new(),
    };
    all_r.extend(&final_r);

    // The final identity: claim = W(reversed r) · g(final r).
    let rrev: Vec<Wire> = all_r.iter().rev().copied().collect();
    let mut weight = initial_weight(b, tables, claims, &placement, &alpha_of, &rrev);
    for ((point, _), &a) in virtuals.iter().zip(&virtual_alphas) {
        let eq = b.eq_at(point, &rrev);
        let weighted = b.mul(a, eq);
        weight = b.add(weight, weighted);
    }
    for (m, gamma, constraints) in &rounds {
        let loc = &rrev[..*m];
        let mut gammas = Powers::new(b, *gamma, true);
        for c in constraints {
            let w = match c {
                Weight::Eq(point) => b.eq_at(point, loc),
                Weight::Select(var) => b.select_weight(*var, loc),
            };
            let g = gammas.next(b);
            let weighted = b.mul(g, w);
            weight = b.add(weight, weighted);
        }
    }
    let final_value = b.fold(&proof.final_poly, &final_r);
    let expected = b.mul(weight, final_value);
    b.assert_eq(claimed, expected);
    Ok(())
}

/// The tables' placement in the stacked polynomial: by height, tallest
/// first, the later of equal heights first (a stable ascending sort,
/// walked backwards).
fn placement(tables: &[OpenedTable]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tables.len()).collect();
    order.sort_by_key(|&t| tables[t].log_rows);
    order.reverse();
    order
}

/// The initial claims' weight: per table, each column's
/// `eq(selector ‖ point, r)` and each next-row column's
/// `eq(selector, r_top) · next(point, r_rows)`, weighted by its `α` power;
/// a table's selectors are the slots its columns take in placement order.
fn initial_weight(
    b: &mut CircuitBuilder,
    tables: &[OpenedTable],
    claims: &[OpeningClaim],
    placement: &[usize],
    alpha_of: &[Vec<Wire>],
    rrev: &[Wire],
) -> Wire {
    let n = rrev.len();
    let mut weight = b.zero();
    let mut offset = 0usize;
    for &t in placement {
        let (table, point) = (&tables[t], &claims[t].point);
        let s = n - table.log_rows;
        let (top, rows) = rrev.split_at(s);
        let on_rows = b.eq_at(point, rows);
        let next = (!table.next.is_empty()).then(|| b.next_weight(point, rows));
        let slots: Vec<usize> = (0..table.width).map(|c| (offset >> table.log_rows) + c).collect();
        offset += table.width << table.log_rows;
        let selectors = selector_weights(b, &slots, top);
        let alphas = &alpha_of[t];
        for c in 0..table.width {
            let eq = b.mul(selectors[c], on_rows);
            let weighted = b.mul(alphas[c], eq);
            weight = b.add(weight, weighted);
        }
        for (j, &c) in table.next.iter().enumerate() {
            let w = b.mul(selectors[c], next.expect("next-row columns"));
            let weighted = b.mul(alphas[table.width + j], w);
            weight = b.add(weight, weighted);
        }
    }
    weight
}

/// `eq(bits(slot), top)` for consecutive slots (big-endian selector bits
/// of `top.len()` bits): the low bits' `eq` table once, each high part's
/// product once.
fn selector_weights(b: &mut CircuitBuilder, slots: &[usize], top: &[Wire]) -> Vec<Wire> {
    let s = top.len();
    let low = (usize::BITS - slots.len().leading_zeros()) as usize;
    let low = low.min(s);
    // top's last `low` coordinates carry the slot's low bits, reversed
    // for `eq_table` (whose index bit i is its i-th coordinate).
    let low_coords: Vec<Wire> = top[s - low..].iter().rev().copied().collect();
    let table = b.eq_table(&low_coords);
    let mut highs: std::collections::HashMap<usize, Wire> = std::collections::HashMap::new();
    slots
        .iter()
        .map(|&slot| {
            let high = slot >> low;
            let high_weight = *highs.entry(high).or_insert_with(|| {
                let bits: Vec<bool> = (0..s - low).map(|j| (high >> (s - low - 1 - j)) & 1 == 1).collect();
                b.eq_bits(&bits, &top[..s - low])
            });
            b.mul(high_weight, table[slot & ((1 << low) - 1)])
        })
        .collect()
}

/// A WHIR sumcheck of `rounds` rounds grinding `pow` bits: its seed, then
/// per round `h(0)`, `h(∞)`, the grinding, the challenge `r`, and the
/// claim moved to `h(r) = h(0)·(1 − r) + h(1)·r + h(∞)·r·(r − 1)`.
fn sumcheck(
    b: &mut CircuitBuilder,
    transcript: &mut CircuitChallenger,
    data: &SumcheckWires,
    (rounds, pow): (usize, usize),
    claimed: &mut Wire,
) -> Result<Vec<Wire>, CircuitError> {
    if data.rounds.len() != rounds || data.pow_witnesses.len() != if pow > 0 { rounds } else { 0 } {
        return Err(CircuitError::Unsupported("a sumcheck of another shape"));
    }
    if rounds == 0 {
        return Ok(Vec::new());
    }
    transcript.observe_separator(b, &seeds::sumcheck(rounds, pow));
    let one = b.constant(Ext::ONE);
    let mut rs = Vec::with_capacity(rounds);
    for (j, &[h0, hinf]) in data.rounds.iter().enumerate() {
        transcript.observe_ext(b, h0);
        transcript.observe_ext(b, hinf);
        if pow > 0 {
            pow_check(b, transcript, pow, data.pow_witnesses[j]);
        }
        let r = transcript.sample_ext(b);
        let h1 = b.sub(*claimed, h0);
        let diff = b.sub(h1, h0);
        let linear = b.mul(r, diff);
        let r_minus_one = b.sub(r, one);
        let quadratic = b.mul(r, r_minus_one);
        let leading = b.mul(hinf, quadratic);
        let partial = b.add(h0, linear);
        *claimed = b.add(partial, leading);
        rs.push(r);
    }
    Ok(rs)
}

/// The proof's and the claims' lengths against the configuration.
fn check_shapes(
    config: &Config,
    tables: &[OpenedTable],
    claims: &[OpeningClaim],
    proof: &WhirProofWires,
) -> Result<(), CircuitError> {
    let shape = |ok: bool, what: &'static str| if ok { Ok(()) } else { Err(CircuitError::Unsupported(what)) };
    shape(claims.len() == tables.len(), "one claim per table")?;
    for (t, c) in tables.iter().zip(claims) {
        shape(c.values.len() == t.width + t.next.len() && c.point.len() == t.log_rows, "a claim of another shape")?;
    }
    shape(proof.initial_ood_answers.len() == config.commitment_ood_samples(), "commitment out-of-domain answers")?;
    shape(proof.rounds.len() == config.round_parameters().len(), "rounds")?;
    for (rp, round) in config.round_parameters().iter().zip(&proof.rounds) {
        shape(round.ood_answers.len() == rp.ood_samples, "round out-of-domain answers")?;
    }
    let schedule = config.folding_schedule();
    for (i, round) in proof.rounds.iter().enumerate() {
        shape(round.rows.iter().all(|r| r.len() == 1 << schedule[i]), "queried rows of another width")?;
    }
    let fr = config.final_round_config();
    shape(
        proof.final_rows.iter().all(|r| r.len() == 1 << schedule[proof.rounds.len()]),
        "queried rows of another width",
    )?;
    shape(proof.final_poly.len() == 1 << fr.num_variables, "the final polynomial")?;
    shape(proof.final_sumcheck.is_some() == (config.final_sumcheck_rounds() > 0), "the final sumcheck")?;
    let n: usize = config.folding_schedule().iter().sum::<usize>() + config.final_sumcheck_rounds();
    shape(n == config.num_variables(), "a folding schedule of another size")
}
