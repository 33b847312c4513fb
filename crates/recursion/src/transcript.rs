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

use p3_field::PrimeCharacteristicRing;

use crate::Ext;
use crate::circuit::{CircuitBuilder, PERM_WIDTH, Wire};

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

    /// Absorbs a base-field value (a permutation will read it, which
    /// constrains it to the base field).
    pub fn observe(&mut self, b: &mut CircuitBuilder, value: Wire) {
        self.output.clear();
        self.input.push(value);
        if self.input.len() == RATE {
            self.duplexing(b);
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
