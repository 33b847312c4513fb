//! The statement every backend proves: its tables ([`Table`], an AIR with
//! LogUp buses; [`Tables`], the AIRs of one statement at their heights)
//! and the seed of its transcript ([`transcript_seed`]). Part of the
//! vocabulary the backends share: they import it, never the dispatcher
//! ([`crate::backend`]).

use p3_air::{Air, BaseAir, DebugConstraintBuilder};
use p3_batch_stark::folder::{ProverConstraintFolderWithLookups, VerifierConstraintFolderWithLookups};
use p3_lookup::{InteractionSymbolicBuilder, Lookups};

use crate::config::{AggConfig, AggConfig24, Challenge, Settings, Val};

/// One table of a statement, as every backend proves it: an AIR over
/// KoalaBear whose constraints may send and receive on LogUp buses.
///
/// The supertraits are the constraint builders the backends run the AIR
/// with (Plonky3's batch STARK over both Merkle hashes, `p3-multi-stark`'s
/// folders); an AIR written for any `InteractionBuilder<F = Val>` has them
/// all.
pub trait Table:
    BaseAir<Val>
    + Air<InteractionSymbolicBuilder<Val, Challenge>>
    + for<'a> Air<DebugConstraintBuilder<'a, Val, Challenge>>
    + for<'a> Air<ProverConstraintFolderWithLookups<'a, AggConfig>>
    + for<'a> Air<ProverConstraintFolderWithLookups<'a, AggConfig24>>
    + for<'a> Air<VerifierConstraintFolderWithLookups<'a, AggConfig>>
    + for<'a> Air<VerifierConstraintFolderWithLookups<'a, AggConfig24>>
    + p3_multi_stark::folder::ProverAir<Val, Challenge>
    + crate::zerocheck::SkipAir
    + Clone
    + Sized
{
    /// The widest message any table of the statement sends on a bus (the
    /// LogUp term of the security level).
    const BUS_WIDTH: usize;

    /// The largest degree of this table's constraints: the budget its
    /// lookups are folded to ([`crate::fold_lookups`]).
    fn degree(&self) -> usize;

    /// The lookups of `tables`, folded into shared columns. Prover and
    /// verifier both call it, so they agree by construction; an aggregator
    /// whose lookups depend only on which tables a statement has may cache
    /// them.
    fn lookups(tables: &[Self]) -> Vec<Lookups<Val>> {
        crate::fold_lookups(tables, Self::degree)
    }
}

/// A statement as the backends see it.
///
/// Plonky3 absorbs neither periodic columns nor AIR constants into its
/// transcript, and that is where the aggregators put most of a statement
/// (keys, epochs, messages, codewords, group roots). So the transcript
/// starts from [`transcript_seed`]: a domain separator, the settings and
/// `digest`, which must bind every part of the statement the public values
/// do not.
#[derive(Clone, Debug)]
pub struct Tables<'a, A> {
    /// The AIRs, in batch order.
    pub airs: &'a [A],
    /// log2 of each table's height. They follow from the statement, never
    /// from a proof: the verifier refuses a proof of other heights.
    pub log_heights: Vec<usize>,
    /// Each table's public values (none today: the aggregators bind their
    /// statements through `digest`).
    pub public_values: Vec<Vec<Val>>,
    /// The transcript's domain separator: one per kind of proof.
    pub domain: &'a [u8],
    /// A collision-resistant digest of the statement.
    pub digest: [u8; 32],
}

impl<'a, A> Tables<'a, A> {
    /// `airs` at heights `2^log_heights[i]`, without public values, for
    /// the statement whose digest is `digest` (domain-separated by `domain`).
    pub fn new(airs: &'a [A], log_heights: Vec<usize>, domain: &'a [u8], digest: [u8; 32]) -> Self {
        Self { public_values: vec![Vec::new(); airs.len()], airs, log_heights, domain, digest }
    }

    /// The seed of this statement's transcript under `settings`.
    pub fn transcript_seed(&self, settings: &Settings) -> Vec<u8> {
        transcript_seed(self.domain, settings, &self.digest)
    }
}

/// The Fiat-Shamir seed of a proof under `settings` of the statement whose
/// digest is `statement_digest`: `domain || settings.words() (8 bytes
/// each, little-endian) || statement_digest`. The challenger absorbs it
/// before anything else, so every challenge depends on the statement, the
/// settings and the backend they name.
pub fn transcript_seed(domain: &[u8], settings: &Settings, statement_digest: &[u8; 32]) -> Vec<u8> {
    let mut seed = domain.to_vec();
    settings.words().iter().for_each(|w| seed.extend(w.to_le_bytes()));
    seed.extend_from_slice(statement_digest);
    seed
}

/// Declares an aggregator's table enum: one variant per AIR of its batch,
/// with the `BaseAir` and `Air` impls that forward to the variant, so that
/// one proof can hold tables of different types.
///
/// The enum must have an inherent `fn degree(&self) -> usize` (the largest
/// constraint degree of the variant's table), which becomes its
/// `max_constraint_degree`; the caller writes the [`Table`] impl, whose
/// `degree` is usually that method and whose `lookups` may cache.
///
/// ```ignore
/// sigagg_prover::air_enum! {
///     /// One AIR of the batch.
///     #[derive(Clone, Debug)]
///     pub enum AggAir {
///         /// The statement table.
///         Sig(sig::SigAir),
///         /// The range table.
///         Range(range::RangeAir),
///     }
/// }
/// ```
#[macro_export]
macro_rules! air_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident($ty:ty) ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant($ty) ),+
        }

        impl $crate::__private::p3_air::BaseAir<$crate::config::Val> for $name {
            fn width(&self) -> usize {
                match self { $( Self::$variant(a) => $crate::__private::p3_air::BaseAir::<$crate::config::Val>::width(a) ),+ }
            }

            fn num_periodic_columns(&self) -> usize {
                match self {
                    $( Self::$variant(a) => $crate::__private::p3_air::BaseAir::<$crate::config::Val>::num_periodic_columns(a) ),+
                }
            }

            fn periodic_columns(&self) -> ::std::borrow::Cow<'_, [::std::vec::Vec<$crate::config::Val>]> {
                match self {
                    $( Self::$variant(a) => $crate::__private::p3_air::BaseAir::<$crate::config::Val>::periodic_columns(a) ),+
                }
            }

            fn main_next_row_columns(&self) -> ::std::vec::Vec<usize> {
                match self {
                    $( Self::$variant(a) => $crate::__private::p3_air::BaseAir::<$crate::config::Val>::main_next_row_columns(a) ),+
                }
            }

            fn max_constraint_degree(&self) -> Option<usize> {
                Some($name::degree(self))
            }
        }

        impl<AB: $crate::__private::p3_lookup::InteractionBuilder<F = $crate::config::Val>>
            $crate::__private::p3_air::Air<AB> for $name
        {
            fn eval(&self, builder: &mut AB) {
                match self { $( Self::$variant(a) => $crate::__private::p3_air::Air::<AB>::eval(a, builder) ),+ }
            }
        }
    };
}
