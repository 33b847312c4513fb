//! The builders that evaluate an AIR's batched row term `E` (constraints
//! by powers of `alpha`, bus messages by their [`MessageWeights`]) on
//! packed base-field values (the skip round), extension-field values (the
//! verifier, the scalar kernels) and packed extension-field values (the
//! ordinary rounds).

use p3_air::{AirBuilder, RowWindow};
use p3_field::PrimeCharacteristicRing;
use p3_lookup::{Count, InteractionBuilder};

use super::{ExtPacked, PExt};
use crate::config::{Challenge, PackedVal, Val};
use crate::messages::MessageProgram;

macro_rules! folder {
    ($name:ident, $v:ty, $acc:ty, $doc:literal) => {
        #[doc = $doc]
        ///
        /// Bus messages are weighted by [`Weights::messages`], or dropped
        /// where it has none.
        pub struct $name<'a> {
            local: &'a [$v],
            next: &'a [$v],
            periodic: &'a [$v],
            preprocessed: RowWindow<'a, $v>,
            first: $v,
            last: $v,
            weights: &'a Weights<$acc>,
            pub(super) acc: $acc,
            pub(super) constraints: usize,
            pub(super) messages: usize,
        }

        impl<'a> $name<'a> {
            pub(super) fn new(
                local: &'a [$v],
                next: &'a [$v],
                periodic: &'a [$v],
                first: $v,
                last: $v,
                weights: &'a Weights<$acc>,
            ) -> Self {
                Self {
                    local,
                    next,
                    periodic,
                    preprocessed: RowWindow::from_two_rows(&[], &[]),
                    first,
                    last,
                    weights,
                    acc: <$acc>::ZERO,
                    constraints: 0,
                    messages: 0,
                }
            }
        }

        impl<'a> AirBuilder for $name<'a> {
            type F = Val;
            type Expr = $v;
            type Var = $v;
            type PreprocessedWindow = RowWindow<'a, $v>;
            type MainWindow = RowWindow<'a, $v>;
            type PublicVar = Val;
            type PeriodicVar = $v;

            fn main(&self) -> Self::MainWindow {
                RowWindow::from_two_rows(self.local, self.next)
            }

            fn preprocessed(&self) -> &Self::PreprocessedWindow {
                &self.preprocessed
            }

            fn is_first_row(&self) -> $v {
                self.first
            }

            fn is_last_row(&self) -> $v {
                self.last
            }

            fn is_transition(&self) -> $v {
                <$v>::ONE - self.last
            }

            fn assert_zero<I: Into<$v>>(&mut self, x: I) {
                // The powers are drawn for the symbolic count of
                // constraints (`profile`); a constraint past it is left
                // out here, and the final check refuses the AIR for it
                // (`check_counts`).
                if let Some(power) = self.weights.constraints.get(self.constraints) {
                    self.acc += *power * x.into();
                }
                self.constraints += 1;
            }

            fn periodic_values(&self) -> &[$v] {
                self.periodic
            }
        }

        impl InteractionBuilder for $name<'_> {
            fn push_interaction<E: Into<$v>>(
                &mut self,
                _bus: &str,
                fields: impl IntoIterator<Item = E>,
                count: impl Into<Count<$v>>,
            ) {
                // Weighted as `Weights` says; without weights (no bus
                // claim: a table without messages, or a test of the
                // constraints alone), dropped. Counted either way, for
                // `check_counts`.
                if let Some(w) = self.weights.messages.get(self.messages) {
                    let (count, _) = count.into().into_parts();
                    let mut term = w.constant + w.count * count;
                    for (field, &weight) in fields.into_iter().zip(&w.fields) {
                        term += weight * field.into();
                    }
                    self.acc += term;
                }
                self.messages += 1;
            }

            fn push_local_interaction(&mut self, _tuples: impl IntoIterator<Item = (Vec<$v>, Count<$v>)>) {}
        }
    };
}

/// How one row's terms are batched into one value: a power of `alpha` per
/// constraint and, per bus message, the weights of its LogUp fraction's
/// numerator and denominator (see [`BusClaim`](super::BusClaim)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights<T> {
    /// One per constraint, in the AIR's order.
    pub constraints: Vec<T>,
    /// One per bus message, in the AIR's order; none drops the messages.
    pub messages: Vec<MessageWeights<T>>,
}

/// A bus message's term: `constant + count * count_expr + sum_i fields[i] * field_i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageWeights<T> {
    /// The count's weight.
    pub count: T,
    /// Each field's weight.
    pub fields: Vec<T>,
    /// The constant term.
    pub constant: T,
}

impl Weights<Challenge> {
    /// The weights in another representation (packed kernels).
    pub(super) fn map<U>(&self, f: impl Fn(Challenge) -> U + Copy) -> Weights<U> {
        Weights {
            constraints: self.constraints.iter().map(|&w| f(w)).collect(),
            messages: self
                .messages
                .iter()
                .map(|m| MessageWeights {
                    count: f(m.count),
                    fields: m.fields.iter().map(|&w| f(w)).collect(),
                    constant: f(m.constant),
                })
                .collect(),
        }
    }
}

folder!(
    PackedFolder,
    PackedVal,
    ExtPacked,
    "Evaluates the batched constraints of `LANES` groups at one point of the skip round."
);
folder!(ExtFolder, Challenge, Challenge, "Evaluates the batched constraints at extension-field values.");
folder!(
    ExtPackedFolder,
    PExt,
    PExt,
    "Evaluates the batched constraints at `LANES` rows of extension-field values at once."
);

/// The weighted sum of the messages [`MessageProgram::eval`] left in
/// `values`, as [`PackedFolder`] adds them.
pub(super) fn message_terms(program: &MessageProgram, values: &[PackedVal], weights: &Weights<ExtPacked>) -> ExtPacked {
    let mut acc = ExtPacked::ZERO;
    for (j, w) in weights.messages.iter().enumerate() {
        let (count, fields) = program.message(j, values);
        let mut term = w.constant + w.count * count;
        for (field, &weight) in fields.zip(&w.fields) {
            term += weight * field;
        }
        acc += term;
    }
    acc
}
