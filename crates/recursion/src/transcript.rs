//! The recursion setting's Fiat-Shamir transcript as a circuit: Plonky3's
//! `DuplexChallenger` over the default width-16 Poseidon2, rate 8, step
//! for step (`sigagg_prover::config::Poseidon2Challenger`), so that a
//! verifier circuit derives the same challenges as the native verifier.
//!
//! The native duplex: an observed value joins the input buffer (and
//! empties the output buffer); a full buffer, or a sample with pending
//! input or no output left, is a **duplexing**: the inputs overwrite the
//! first lanes of the state, the rest of the rate is zeroed and the
//! number of inputs added to lane 8 (when there were inputs), the state
//! is permuted, and its first 8 lanes become the output buffer, which
//! samples pop from the end. Here the state, the buffers and the popping
//! are the same, over wires; the permutation is a row of the permutation
//! table, the zeros the shared constant, the length tag one sum.

use p3_challenger::CanObserve;
use p3_challenger::fs::{DomainSeparator, FieldUnit};
use p3_field::PrimeCharacteristicRing;
use p3_symmetric::MerkleCap;
use sigagg_prover::config::{Val, seed_values};

use crate::Ext;
use crate::circuit::{CircuitBuilder, DIGEST, PERM_WIDTH, Wire};

/// The duplex sponge's rate.
pub const RATE: usize = 8;

/// A transcript recorded in a circuit.
#[derive(Clone, Debug)]
pub struct CircuitChallenger {
    state: [Wire; PERM_WIDTH],
    input: Vec<Wire>,
    output: Vec<Wire>,
}

impl CircuitChallenger {
    /// A fresh transcript: the zero state, empty buffers.
    pub fn new(b: &mut CircuitBuilder) -> Self {
        let zero = b.zero();
        Self { state: [zero; PERM_WIDTH], input: Vec::new(), output: Vec::new() }
    }

    /// The transcript of a whir-skip proof under the recursion setting
    /// (`sigagg_prover::config::poseidon2_transcript`): a fresh one that
    /// has absorbed `seed`, the statement's transcript seed, as public
    /// inputs ([`CircuitBuilder::public`]). The seed ends with the
    /// statement's digest: as inputs, it leaves the circuit the same for
    /// every statement of one shape.
    pub fn with_seed(b: &mut CircuitBuilder, seed: &[u8]) -> Self {
        let mut transcript = Self::new(b);
        for value in seed_values(seed) {
            let value = b.public(Ext::from(value));
            transcript.observe(b, value);
        }
        transcript
    }

    /// Absorbs constants.
    pub fn observe_constants(&mut self, b: &mut CircuitBuilder, values: &[Val]) {
        for &value in values {
            let value = b.constant(Ext::from(value));
            self.observe(b, value);
        }
    }

    /// Absorbs a native sub-protocol's domain separator: its seed, as
    /// constants (`DomainSeparator::seed`).
    pub fn observe_separator(&mut self, b: &mut CircuitBuilder, separator: &DomainSeparator<FieldUnit<Val>>) {
        self.replay(b, |r| separator.seed(r), &[]).expect("a seed observes no root");
    }

    /// Absorbs what the native `step` absorbs, the Merkle roots it
    /// observes being `roots` (in order), the rest the constants it
    /// observes (domain separators' seeds: fixed by the statement's shape).
    ///
    /// # Errors
    /// [`crate::CircuitError::Unsupported`] if `step` observes another
    /// number of roots.
    pub fn replay(
        &mut self,
        b: &mut CircuitBuilder,
        step: impl FnOnce(&mut Recorder),
        roots: &[[Wire; DIGEST]],
    ) -> Result<(), crate::CircuitError> {
        let mut recorder = Recorder(Vec::new());
        step(&mut recorder);
        if recorder.0.iter().filter(|e| e.is_none()).count() != roots.len() {
            return Err(crate::CircuitError::Unsupported("a transcript step observing another number of roots"));
        }
        let mut roots = roots.iter();
        for event in recorder.0 {
            match event {
                Some(value) => self.observe_constants(b, &[value]),
                None => self.observe_digest(b, *roots.next().expect("counted above")),
            }
        }
        Ok(())
    }

    /// Absorbs a base-field value (a permutation will read it, which
    /// constrains it to the base field).
    pub fn observe(&mut self, b: &mut CircuitBuilder, value: Wire) {
        self.output.clear();
        self.input.push(value);
        if self.input.len() == RATE {
            self.duplexing(b);
        }
    }

    /// Absorbs a Merkle root (`CanObserve<MerkleCap>` for a cap of one
    /// root): its eight values in order.
    pub fn observe_digest(&mut self, b: &mut CircuitBuilder, root: [Wire; DIGEST]) {
        for value in root {
            self.observe(b, value);
        }
    }

    /// Absorbs an extension value as its five limbs, in order.
    pub fn observe_ext(&mut self, b: &mut CircuitBuilder, value: Wire) {
        for limb in b.limbs(value) {
            self.observe(b, limb);
        }
    }

    /// Samples a base-field value.
    pub fn sample(&mut self, b: &mut CircuitBuilder) -> Wire {
        if !self.input.is_empty() || self.output.is_empty() {
            self.duplexing(b);
        }
        self.output.pop().expect("a duplexing fills the output")
    }

    /// Samples an extension value: five base samples, limb 0 first.
    pub fn sample_ext(&mut self, b: &mut CircuitBuilder) -> Wire {
        let limbs: [Wire; 5] = core::array::from_fn(|_| self.sample(b));
        b.from_limbs(limbs)
    }

    fn duplexing(&mut self, b: &mut CircuitBuilder) {
        let absorbed = self.input.len();
        for (lane, value) in self.state.iter_mut().zip(self.input.drain(..)) {
            *lane = value;
        }
        if absorbed > 0 {
            let zero = b.zero();
            self.state[absorbed..RATE].fill(zero);
            let tag = b.constant(Ext::from_usize(absorbed));
            self.state[RATE] = b.add(self.state[RATE], tag);
        }
        self.state = b.poseidon2(self.state);
        self.output = self.state[..RATE].to_vec();
    }
}

/// What a native transcript step observes, recorded for
/// [`CircuitChallenger::replay`]: each base-field value, and `None` where
/// it observes a Merkle root (one digest).
#[derive(Debug, Default)]
pub struct Recorder(Vec<Option<Val>>);

impl CanObserve<Val> for Recorder {
    fn observe(&mut self, value: Val) {
        self.0.push(Some(value));
    }
}

impl CanObserve<MerkleCap<Val, [Val; DIGEST]>> for Recorder {
    fn observe(&mut self, cap: MerkleCap<Val, [Val; DIGEST]>) {
        // A cap of one root: the recursion setting's (cap height 0).
        self.0.extend(cap.roots().iter().map(|_| None));
    }
}
