//! Verifying keys of merged proofs ([`MergeKey`]): a merged proof checked
//! without its verifier circuit rebuilt.
//!
//! [`crate::verify`] builds the circuit that verifies the children from
//! their statements, then its five tables and their digest: work linear in
//! the circuit (tens of milliseconds per child), repeated for every merged
//! child below. Yet the circuit depends on the statement only through each
//! child's transcript seed (a public input of the circuit,
//! `sigagg_recursion::CircuitBuilder::public`) and the values of the
//! children's periodic columns (every one deferred to the verifier: the
//! circuit reads none). So it is one circuit for every statement of one
//! shape (each aggregate's signer count, each merged child's own shape),
//! and [`MergeKey::new`] builds it once, from the shape alone, as the
//! circuit of withheld children (placeholder tables, [`crate::split`]).
//!
//! [`verify_with_key`] then does, per proof, only what depends on the
//! statement: each child's seed and columns from its statement (an
//! aggregate's tables; a merged child's through its own key, recursively,
//! its claims checked there), the claims on those columns, and the proof
//! on the key's tables with the seeds and claims written in
//! (`sigagg_recursion::VerifyingKey`).
//!
//! **Why it decides as [`crate::verify`] does.** The key's circuit is the
//! one `verify` builds: a child's part reads its tables' constraints,
//! heights and periodic columns' count (the scheme builds a statement's
//! tables and its placeholder tables with one function, which differ only
//! in the columns' values: checked per proof, heights and column counts
//! compared) and its seed, an input. The key's digest and tables under the
//! inputs are the circuit's (tested bit for bit), so the transcript and
//! every check are the same; the claims are checked on the statement's own
//! columns. Threshold certificates have no key: their tables depend on
//! their group.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::ops::Range;

use p3_air::BaseAir;
use rayon::prelude::*;
use sigagg_prover::config::{Val, seed_values};
use sigagg_prover::{SecurityLevel, Settings};
use sigagg_recursion::{CircuitAir, CircuitBuilder, CircuitError, Ext, VerifyingKey};

use crate::merge::{CHILD_SETTINGS, ChildHeader, DEFER_ABOVE, MergedProof, View, check_headers, skip_only};
use crate::statement::{Child, Withheld};
use crate::{MAX_CHILDREN, MAX_DEPTH, MergeError, MergeScheme, MergeStatement};

/// The verifying key of merged proofs of one shape of children
/// ([`crate::key`]).
pub struct MergeKey<S: MergeScheme = sigagg_xmss::Seed001> {
    circuit: VerifyingKey,
    children: Vec<Part<S>>,
    /// Per child, the numbers of its deferred claims.
    claims: Vec<Range<usize>>,
    _scheme: PhantomData<fn() -> S>,
}

/// A child's part of a key, and the placeholder view its part of the
/// circuit is built from.
type Prepared<S> = (Part<S>, View<<S as MergeScheme>::Air>);

/// A child's tables' periodic columns, table by table.
type Columns<'a> = Vec<Cow<'a, [Vec<Val>]>>;

/// What a key knows of one child.
enum Part<S: MergeScheme> {
    /// An aggregate of this many signers, and its tables' heights and
    /// periodic column counts.
    Aggregate { signers: u32, log_heights: Vec<usize>, columns: Vec<usize> },
    /// A merged proof, and the key of its circuit.
    Merged(Box<MergeKey<S>>),
    /// A withheld merged proof of these heights.
    Withheld(Vec<usize>),
}

impl<S: MergeScheme> core::fmt::Debug for MergeKey<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MergeKey")
            .field("children", &self.children.len())
            .field("circuit", &self.circuit)
            .finish_non_exhaustive()
    }
}

impl<S: MergeScheme> MergeKey<S> {
    /// The key of merged proofs whose children have the shapes of
    /// `children` (a merged proof's headers, [`MergedProof::children`]):
    /// an aggregate's signer count, a merged child's own headers (its
    /// claims are not read), a withheld child's header. Costs what one
    /// verification by [`crate::verify`] costs.
    ///
    /// # Errors
    /// No child or too many, a tree deeper than [`MAX_DEPTH`], a threshold
    /// certificate ([`MergeError::Key`]), a withheld child out of bounds.
    pub fn new(children: &[ChildHeader]) -> Result<Self, MergeError> {
        Self::at_depth(children, 1)
    }

    fn at_depth(children: &[ChildHeader], depth: usize) -> Result<Self, MergeError> {
        if children.is_empty() {
            return Err(MergeError::Empty);
        }
        if children.len() > MAX_CHILDREN {
            return Err(MergeError::TooManyChildren(children.len()));
        }
        if depth > MAX_DEPTH {
            return Err(MergeError::TooDeep(depth));
        }
        let parts: Vec<Result<Prepared<S>, MergeError>> =
            children.par_iter().map(|header| Self::part(header, depth)).collect();
        let mut b = CircuitBuilder::new();
        b.defer_periodic_above(DEFER_ABOVE);
        let (mut claims, mut parts_only) = (Vec::new(), Vec::new());
        for part in parts {
            let (part, view) = part?;
            let first_claim = b.num_deferred();
            view.record(&mut b, None)?;
            if b.num_deferred() - first_claim != view.num_periodic_columns() {
                return Err(MergeError::Key("a child's claims are not one per periodic column"));
            }
            claims.push(first_claim..b.num_deferred());
            parts_only.push(part);
        }
        let circuit = VerifyingKey::new(&b.build())?;
        Ok(Self { circuit, children: parts_only, claims, _scheme: PhantomData })
    }

    /// One child's part of the key and the placeholder view its circuit
    /// part is built from.
    fn part(header: &ChildHeader, depth: usize) -> Result<Prepared<S>, MergeError> {
        let aggregate = |signers: u32| -> Result<Prepared<S>, MergeError> {
            Withheld::Aggregate { signers, digest: [0; 32] }.check()?;
            let (airs, log_heights, seed) = S::placeholder_view(&CHILD_SETTINGS, signers as usize, &[0; 32]);
            let columns = airs.iter().map(|a| a.num_periodic_columns()).collect();
            Ok((
                Part::Aggregate { signers, log_heights: log_heights.clone(), columns },
                View::Scheme(airs, log_heights, seed),
            ))
        };
        let merged = |log_heights: &[usize]| sigagg_recursion::placeholder_view(&CHILD_SETTINGS, log_heights, [0; 32]);
        match header {
            ChildHeader::Aggregate { signers } | ChildHeader::Withheld(Withheld::Aggregate { signers, .. }) => {
                aggregate(*signers)
            }
            ChildHeader::Merged { children, .. } => {
                let inner = Self::at_depth(children, depth + 1)?;
                let view = merged(inner.circuit.log_heights())?;
                Ok((Part::Merged(Box::new(inner)), View::Circuit(view)))
            }
            ChildHeader::Withheld(w @ Withheld::Merged { log_heights, .. }) => {
                w.check()?;
                Ok((Part::Withheld(log_heights.clone()), View::Circuit(merged(log_heights)?)))
            }
            ChildHeader::Threshold { .. } => {
                Err(MergeError::Key("a threshold certificate's tables depend on its group: it has no key"))
            }
        }
    }

    /// The five heights (log2) of the key's circuit's tables.
    pub fn log_heights(&self) -> &[usize] {
        self.circuit.log_heights()
    }

    /// Whether merged proofs with the headers `headers` are of the key's
    /// shape: each aggregate of the key's count (kept or withheld), each
    /// merged child of its key's shape (or withheld, of its heights).
    pub fn fits(&self, headers: &[ChildHeader]) -> bool {
        headers.len() == self.children.len()
            && self.children.iter().zip(headers).all(|(part, header)| match (part, header) {
                (
                    Part::Aggregate { signers, .. },
                    ChildHeader::Aggregate { signers: s }
                    | ChildHeader::Withheld(Withheld::Aggregate { signers: s, .. }),
                ) => signers == s,
                (Part::Merged(key), ChildHeader::Merged { children, .. }) => key.fits(children),
                (Part::Merged(key), ChildHeader::Withheld(Withheld::Merged { log_heights, .. })) => {
                    key.log_heights() == log_heights.as_slice()
                }
                (Part::Withheld(h), ChildHeader::Withheld(Withheld::Merged { log_heights, .. })) => h == log_heights,
                _ => false,
            })
    }

    /// The circuit's inputs for the children `children` with headers
    /// `headers` and the proof's claims `claims`: each child's seed from
    /// its statement, and every claim checked on the statement's columns
    /// (a merged child's own claims through its key).
    fn inputs(&self, children: &[Child<S>], headers: &[ChildHeader], claims: &[Ext]) -> Result<Vec<Ext>, MergeError> {
        if !self.fits(headers) || children.len() != headers.len() {
            return Err(MergeError::Key("merged proof of another shape of children than the key's"));
        }
        let views: Vec<Result<KeyView<S::Air>, MergeError>> = children
            .par_iter()
            .zip(headers)
            .zip(&self.children)
            .enumerate()
            .map(|(index, ((child, header), part))| Self::view(index, child, header, part))
            .collect();
        let views = views.into_iter().collect::<Result<Vec<_>, _>>()?;

        // The circuit's public inputs are the children's seeds, in order
        // (`CircuitChallenger::with_seed`), each of a length fixed by its
        // settings.
        let key = &self.circuit;
        let seeds: Vec<Ext> = views.iter().flat_map(|v| seed_values(&v.seed)).map(Ext::from).collect();
        if seeds.len() != key.publics().len() {
            return Err(MergeError::Key("children's seeds of another length than the key's"));
        }
        let inputs = key.inputs_with(&seeds, claims)?;
        // Every claim on its column, side by side (a merged child's
        // columns are its circuit's, the size of a circuit), in the order
        // the circuit defers them: table by table, column by column.
        let tables: Vec<Option<Columns<'_>>> = views
            .iter()
            .map(|view| match &view.tables {
                Tables::Scheme(airs) => Some(airs.iter().map(|a| a.periodic_columns()).collect()),
                Tables::Circuit(airs) => Some(airs.iter().map(|a| a.periodic_columns()).collect()),
                Tables::Withheld => None,
            })
            .collect();
        let mut checks: Vec<(usize, &[Val])> = Vec::with_capacity(key.claims().len());
        for (columns, range) in tables.iter().zip(&self.claims) {
            let Some(columns) = columns else { continue };
            let columns: Vec<&[Val]> = columns.iter().flat_map(|t| t.iter().map(Vec::as_slice)).collect();
            if columns.len() != range.len() {
                return Err(MergeError::Key("a child's claims are not one per periodic column"));
            }
            checks.extend(range.clone().zip(columns));
        }
        if let Some(&(claim, _)) =
            checks.par_iter().find_first(|(claim, column)| !key.claims()[*claim].holds(column, &inputs))
        {
            return Err(CircuitError::Deferred { claim }.into());
        }
        Ok(inputs)
    }

    /// Child `index`'s seed and, unless withheld, its tables, from its
    /// statement (checked against the key's part).
    fn view(
        index: usize,
        child: &Child<S>,
        header: &ChildHeader,
        part: &Part<S>,
    ) -> Result<KeyView<S::Air>, MergeError> {
        let invalid = |reason: String| MergeError::ChildInvalid { index, reason };
        let shape = || MergeError::Key("a child of another shape than the key's");
        match (child, header, part) {
            (Child::Aggregate(s), _, Part::Aggregate { log_heights, columns, .. }) => {
                let (airs, heights, seed) = S::verifier_view(&CHILD_SETTINGS, s);
                let counts: Vec<usize> = airs.iter().map(|a| a.num_periodic_columns()).collect();
                if &heights != log_heights || &counts != columns {
                    return Err(shape());
                }
                Ok(KeyView { seed, tables: Tables::Scheme(airs) })
            }
            (Child::Merged(m), ChildHeader::Merged { children, claims }, Part::Merged(key)) => {
                let inputs = key.inputs(m.children(), children, claims).map_err(|e| invalid(e.to_string()))?;
                let view = key.circuit.view(&CHILD_SETTINGS, &inputs)?;
                Ok(KeyView { seed: view.seed, tables: Tables::Circuit(view.airs) })
            }
            (Child::Withheld(Withheld::Aggregate { signers, digest }), ChildHeader::Withheld(_), _) => {
                let (_, _, seed) = S::placeholder_view(&CHILD_SETTINGS, *signers as usize, digest);
                Ok(KeyView { seed, tables: Tables::Withheld })
            }
            (Child::Withheld(Withheld::Merged { log_heights, digest }), ChildHeader::Withheld(_), _) => {
                let view = sigagg_recursion::placeholder_view(&CHILD_SETTINGS, log_heights, *digest)?;
                Ok(KeyView { seed: view.seed, tables: Tables::Withheld })
            }
            _ => Err(shape()),
        }
    }
}

/// What a key's verification reads of one child: its seed and its
/// tables, whose periodic columns its claims are checked on.
struct KeyView<A> {
    seed: Vec<u8>,
    tables: Tables<A>,
}

/// A child's tables: its scheme's, a merged child's circuit's, or none
/// (withheld: its claims go unchecked).
enum Tables<A> {
    Scheme(Vec<A>),
    Circuit(Vec<CircuitAir>),
    Withheld,
}

/// Checks `proof` of `statement` under `settings` with `key` (built for
/// the proof's shape of children, [`MergeKey::new`]): [`crate::verify`]
/// without the verifier circuit rebuilt at any level, and the proof's
/// security. Never panics on a malformed proof.
///
/// # Errors
/// A key of another shape ([`MergeError::Key`]), and as [`crate::verify`].
pub fn verify_with_key<S: MergeScheme>(
    key: &MergeKey<S>,
    settings: &Settings,
    statement: &MergeStatement<S>,
    proof: &MergedProof,
) -> Result<SecurityLevel, MergeError> {
    skip_only(settings)?;
    check_headers(statement, &proof.children)?;
    let inputs = key.inputs(statement.children(), &proof.children, &proof.claims)?;
    Ok(key.circuit.verify(settings, &inputs, &proof.proof)?)
}
