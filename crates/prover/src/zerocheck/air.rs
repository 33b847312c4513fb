//! The AIRs the zerocheck proves ([`SkipAir`]) and what it reads of them
//! from one symbolic evaluation: the multilinear degree, the number of
//! constraints, the bus messages and the next-row reads, and the checks
//! that refuse an AIR it cannot prove soundly.

use p3_air::{Air, AirLayout, BaseAir};
use p3_lookup::InteractionSymbolicBuilder;

use super::ZerocheckError;
use super::folder::{ExtFolder, ExtPackedFolder, PackedFolder};
use crate::config::{Challenge, Val};

/// An AIR this zerocheck can prove: evaluable on packed base-field values
/// (the skip round) and on extension-field values (the other rounds and
/// the verifier).
/// Its degree comes from a symbolic evaluation ([`multilinear_degree`]).
pub trait SkipAir:
    BaseAir<Val>
    + for<'a> Air<PackedFolder<'a>>
    + for<'a> Air<ExtFolder<'a>>
    + for<'a> Air<ExtPackedFolder<'a>>
    + Air<InteractionSymbolicBuilder<Val, Challenge>>
    + Sync
{
}

impl<A> SkipAir for A where
    A: BaseAir<Val>
        + for<'a> Air<PackedFolder<'a>>
        + for<'a> Air<ExtFolder<'a>>
        + for<'a> Air<ExtPackedFolder<'a>>
        + Air<InteractionSymbolicBuilder<Val, Challenge>>
        + Sync
{
}

/// The largest degree of `air`'s constraints as multilinear polynomials:
/// every column, periodic column and selector counts one (each is
/// multilinear in the row bits, whatever its period), constants nothing.
/// An AIR's own degree hint does not count here: FRI provers count a
/// periodic column or the transition selector differently, so a hint
/// right for them may be too small for this zerocheck, whose round
/// polynomials would then lose evaluations. `None` if the AIR has
/// extension-field constraints.
pub fn multilinear_degree<A: SkipAir>(air: &A) -> Option<usize> {
    symbolic_profile(air).ok().map(|profile| profile.degree)
}

/// The degree of the zerocheck's round polynomials for `air`: its
/// [`multilinear_degree`], at least 1 (public for the verifier circuit,
/// `sigagg-recursion`, whose proof lengths it fixes).
///
/// # Errors
/// As the zerocheck refuses the AIR.
pub fn round_degree<A: SkipAir>(air: &A) -> Result<usize, ZerocheckError> {
    profile(air).map(|profile| profile.degree)
}

/// What a verifier reads of an AIR before its proof: the round
/// polynomials' degree ([`round_degree`]) and the bus messages
/// ([`messages`]), from one symbolic evaluation (a verifier circuit reads
/// both for every table of every child).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AirSummary {
    /// [`round_degree`].
    pub degree: usize,
    /// [`messages`].
    pub messages: Vec<Message>,
}

/// The [`AirSummary`] of `air`.
///
/// # Errors
/// As the zerocheck refuses the AIR.
pub fn summary<A: SkipAir>(air: &A) -> Result<AirSummary, ZerocheckError> {
    profile(air).map(|profile| AirSummary { degree: profile.degree, messages: profile.messages })
}

/// One bus message an AIR sends on every row: its bus, its number of
/// fields and its count's declared bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The bus's name.
    pub bus: String,
    /// The number of fields.
    pub fields: usize,
    /// The bound the AIR declares on its count's magnitude on one row
    /// (`Count`'s weight): the LogUp bound of
    /// [`crate::logup::check_multiplicity_bound`] sums it over the rows.
    pub weight: u32,
}

/// What the zerocheck needs to know of an AIR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The largest degree over the hypercube of a constraint, a message's
    /// count or a message's field.
    pub(crate) degree: usize,
    /// The number of constraints.
    pub(crate) constraints: usize,
    /// The bus messages, in the order the AIR pushes them.
    pub(crate) messages: Vec<Message>,
    /// The columns whose next row the AIR reads without declaring them.
    pub(crate) undeclared_next: Vec<usize>,
}

/// The AIR's bus messages, in the order it pushes them.
///
/// # Errors
/// As the zerocheck refuses the AIR.
pub fn messages<A: SkipAir>(air: &A) -> Result<Vec<Message>, ZerocheckError> {
    profile(air).map(|profile| profile.messages)
}

/// One symbolic evaluation of `air`, refused for what this zerocheck does
/// not support.
pub(crate) fn symbolic<A: SkipAir>(air: &A) -> Result<InteractionSymbolicBuilder<Val, Challenge>, ZerocheckError> {
    let layout =
        AirLayout { main_width: air.width(), num_periodic_columns: air.num_periodic_columns(), ..Default::default() };
    let builder = InteractionSymbolicBuilder::<Val, Challenge>::from_air(air, layout);
    if !builder.extension_constraints().is_empty() {
        return Err(ZerocheckError::Shape("AIRs with extension-field constraints are not supported"));
    }
    if !builder.local_interactions().is_empty() || !builder.exclusive_interactions().is_empty() {
        return Err(ZerocheckError::Shape("AIRs with local or exclusive bus messages are not supported"));
    }
    Ok(builder)
}

/// The [`Profile`], from one symbolic evaluation and one walk over it.
fn symbolic_profile<A: SkipAir>(air: &A) -> Result<Profile, ZerocheckError> {
    let builder = symbolic(air)?;
    // Bound for the whole walk: the memo remembers nodes by address.
    let constraints = builder.base_constraints();
    let interactions = builder.global_interactions();
    let mut walk = crate::next_row::Walk::default();
    let degree = constraints
        .iter()
        .chain(interactions.iter().flat_map(|i| i.fields.iter().chain([&i.count])))
        .map(|e| walk.degree(e))
        .max()
        .unwrap_or(0);
    let messages = interactions
        .iter()
        .map(|i| Message { bus: i.bus_name.clone(), fields: i.fields.len(), weight: i.count_weight })
        .collect();
    let declared = air.main_next_row_columns();
    let undeclared_next = walk.next.into_iter().filter(|c| !declared.contains(c)).collect();
    Ok(Profile { degree, constraints: constraints.len(), messages, undeclared_next })
}

/// The AIR's constraint degree over the hypercube and its number of
/// constraints, or why it cannot be proven here: besides what
/// [`symbolic`] refuses, an AIR whose next-row reads its declaration
/// misses (prover and verifier would read them as zero) or names a column
/// past the trace.
pub(crate) fn profile<A: SkipAir>(air: &A) -> Result<Profile, ZerocheckError> {
    if air.num_public_values() > 0 || air.preprocessed_width() > 0 {
        return Err(ZerocheckError::Shape("AIRs with public values or preprocessed columns are not supported"));
    }
    if air.main_next_row_columns().iter().any(|&c| c >= air.width()) {
        return Err(ZerocheckError::Shape("a declared next-row column past the trace's width"));
    }
    let profile = symbolic_profile(air)?;
    if !profile.undeclared_next.is_empty() {
        return Err(ZerocheckError::UndeclaredNextRow(profile.undeclared_next));
    }
    Ok(Profile { degree: profile.degree.max(1), ..profile })
}

/// Refuses an evaluation of the AIR that emitted `constraints` and
/// `messages` where its profile counts others (see
/// [`ZerocheckError::Count`]). Whether the evaluation weighted its
/// messages or dropped them (no bus claim) does not matter: the folders
/// count every message pushed.
pub(super) fn check_counts(profile: &Profile, constraints: usize, messages: usize) -> Result<(), ZerocheckError> {
    if (constraints, messages) == (profile.constraints, profile.messages.len()) {
        return Ok(());
    }
    Err(ZerocheckError::Count {
        constraints,
        messages,
        expected_constraints: profile.constraints,
        expected_messages: profile.messages.len(),
    })
}
