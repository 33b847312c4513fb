//! # sigagg-recursion: the verifier circuit (issue 42, item 2)
//!
//! **Status.** The circuit that verifies a sigagg proof inside another.
//! Built and tested:
//!
//! * circuits over the challenge field ([`Ext`], KoalaBear's degree-5
//!   extension), recorded by a [`CircuitBuilder`] (inputs, constants, sums,
//!   differences, products, quotients, equalities, limbs) and proven by
//!   sigagg's own multilinear prover, whir-skip ([`prove`], [`verify`]; the
//!   tables' bus reads periodic columns, which the other backends do not
//!   lower);
//! * Poseidon2 permutations (Plonky3's default width 16, the recursion
//!   setting's hash) as a table on the same bus;
//! * Merkle openings of the recursion setting's trees ([`merkle`]; a path
//!   table, one row per level), checked against Plonky3's `MerkleTreeMmcs`;
//! * the transcript ([`transcript`]), challenge for challenge Plonky3's
//!   `DuplexChallenger`;
//! * sumcheck rounds in the zerocheck verifier's form ([`sumcheck`]:
//!   values at the integers, interpolation, `eq`), checked against a native
//!   run;
//! * an AIR's constraints at an opened point ([`constraints`]: Plonky3's
//!   symbolic constraints lowered to rows), checked on trace rows;
//! * whir-skip's zerocheck verifier ([`zerocheck`]), the bus argument's
//!   ([`bus`]: the fractional GKR and the shares), the proof's checks up
//!   to its opening ([`stark`]) and WHIR's opening ([`whir`]): **the whole
//!   verifier of a whir-skip-poseidon2 proof**, which refuses exactly the
//!   tampered proofs the native verifier refuses; [`child`] derives a
//!   proof's shape from its statement and takes its values as inputs or
//!   as advice (hints), so that a verifier rebuilds without the proof the
//!   circuit its prover built with it (`sigagg-merge` builds on it:
//!   Seed001 aggregates verified in one circuit).
//!
//! **Not built:** a commitment to the tables' periodic columns (their
//! verifier reads them in time linear in the circuit; past depth 1,
//! `sigagg-merge` defers a merged child's columns to the top verifier,
//! which rebuilds every circuit of the tree, instead of opening them
//! from one commitment).
//! Composed security: ARCHITECTURE.md.
//!
//! ## Design: a circuit is witness tables and operation tables
//! Every value of a circuit is a **wire**, numbered in order of creation.
//! The witness tables hold one row per wire, its value, and how many
//! times operation rows read it (wires whose values are base-field values
//! by construction in a table of one limb each, the others in one of
//! five: [`Circuit`]); operation tables hold one row per operation, read
//! their operands and result from the witness tables over one bus by wire
//! id, and check the operation. The wire numbers and
//! the kind of each operation row are fixed by the circuit, as periodic
//! columns the verifier evaluates itself: the prover chooses only values.
//! (Plonky3-recursion, Plonky3's own recursion, is built the same way; it
//! commits those columns once as preprocessed traces, which sigagg's
//! prover does not have yet: here the verifier reads them in time linear
//! in the circuit, which a recursive verifier must later afford, or
//! replace by a commitment.) New operations (a Poseidon2 permutation, a
//! Merkle step) are new tables on the same bus: their rows read and write
//! wires the arithmetic rows also use, so the verifier of a proof is one
//! circuit whatever it computes. Soundness of the five tables: [`air`].
//!
//! ## Sizing (measured, BENCHMARKS-HISTORY.md)
//! Verifying a whir-skip-poseidon2 leanSig proof of N = 1550 runs 11.6 k
//! Poseidon2 permutations (8 978 in Merkle trees, 2 668 in the
//! transcript): about 2^14 rows of a permutation table. 100 openings of
//! 64-wide rows in a depth-20 tree (`examples/openings`) prove in 0.33 s
//! through the path table (2 000 levels, 800 leaf permutations, 800
//! arithmetic rows), 1.6-1.7 s by arithmetic selections (98 800 rows).
//!
//! ```
//! use sigagg_prover::Settings;
//! use sigagg_recursion::{CircuitBuilder, Ext, prove, verify};
//! use p3_field::PrimeCharacteristicRing;
//!
//! // The statement: y = c0 + c1·x + c2·x² for public c0, c1, c2, x, y.
//! let mut b = CircuitBuilder::new();
//! let c: Vec<_> = (0..3).map(|_| b.input()).collect();
//! let (x, y) = (b.input(), b.input());
//! let value = b.horner(&c, x).unwrap();
//! b.assert_eq(value, y);
//! let circuit = b.build();
//!
//! let inputs = [Ext::ONE, Ext::TWO, Ext::from_u32(3), Ext::from_u32(10), Ext::from_u32(321)];
//! let settings = Settings::INSECURE_TEST_SKIP;
//! let proof = prove(&settings, &circuit, &inputs).unwrap();
//! verify(&settings, &circuit, &inputs, &proof).unwrap();
//! let mut wrong = inputs;
//! wrong[4] = Ext::from_u32(322);
//! assert!(verify(&settings, &circuit, &wrong, &proof).is_err());
//! assert!(prove(&settings, &circuit, &wrong).is_err());
//! ```

#![forbid(unsafe_code)]

pub mod air;
pub mod bus;
pub mod child;
pub mod circuit;
pub mod constraints;
pub mod deferred;
pub mod error;
pub mod key;
pub mod merkle;
pub mod stark;
pub mod sumcheck;
pub mod transcript;
pub mod whir;
pub mod zerocheck;

use p3_field::BasedVectorSpace;
use p3_field::PrimeField32;
use p3_matrix::dense::RowMajorMatrix;
use p3_maybe_rayon::prelude::join;
use sha2::{Digest, Sha256};
use sigagg_prover::config::Val;
use sigagg_prover::skip_stark::Profiles;
use sigagg_prover::{Backend, Settings, StarkProof, Tables, codec, skip_stark};

pub use air::CircuitAir;
pub use circuit::{Census, Circuit, CircuitBuilder, DIGEST, Fixed, PERM_WIDTH, PathRow, PermRow, Relation, Row, Wire};
pub use error::CircuitError;
pub use key::VerifyingKey;

/// The values of wires: the challenge field of sigagg's proofs,
/// KoalaBear's degree-5 extension (`X^5 + X^2 − 1`).
pub type Ext = sigagg_prover::config::Challenge;

/// The tallest table: 2^24 wires or rows.
pub const MAX_LOG_HEIGHT: usize = 24;
/// The transcript's domain separator.
const DOMAIN: &[u8] = b"sigagg/recursion/circuit/v3";
/// The magic of a circuit proof's encoding.
const MAGIC: &[u8; 6] = b"SGCIRC";
/// Its version.
const VERSION: u8 = 1;

/// A proof that a circuit holds on a statement's inputs.
pub struct CircuitProof {
    /// The backend's proof of the five tables.
    pub stark: StarkProof,
}

impl CircuitProof {
    /// The encoding: magic, version, the backend's proof.
    pub fn to_bytes(&self) -> Vec<u8> {
        codec::encode(MAGIC, VERSION, &self.stark)
    }

    /// Decodes [`Self::to_bytes`]; anything else is [`CircuitError::Decode`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CircuitError> {
        codec::decode(MAGIC, VERSION, bytes, "circuit proof").map(|stark| Self { stark }).map_err(CircuitError::Decode)
    }
}

/// log2 of the five tables' heights: the extension wires', the rows', the
/// permutations', the Merkle levels', the base wires'.
fn log_heights(circuit: &Circuit) -> Result<[usize; 5], CircuitError> {
    let log = |what: &'static str, count: usize| {
        let log = circuit::table_log(count);
        if log > MAX_LOG_HEIGHT { Err(CircuitError::TooLarge { what, count }) } else { Ok(log) }
    };
    Ok([
        log("extension wires", circuit.ext_wires().len())?,
        log("rows", circuit.rows().len())?,
        log("permutations", circuit.perms().len())?,
        log("Merkle levels", circuit.paths().iter().map(|p| p.bits.len()).sum())?,
        log("base wires", circuit.base_wires().len())?,
    ])
}

/// The statement's digest, bound into the transcript: the circuit (the
/// two witness tables' sizes, every row, every permutation, every path by
/// their wires' bus ids, every fixed wire) and the inputs, as
/// little-endian 32-bit words (every count and id is below `2^25`,
/// [`MAX_LOG_HEIGHT`]) hashed by SHA-256 as they are written.
fn digest(circuit: &Circuit, inputs: &[Ext]) -> [u8; 32] {
    digest_inputs(circuit_words(circuit), inputs)
}

/// The digest's words of the circuit alone, hashed: the state that
/// [`digest_inputs`] finishes (the same for every input).
fn circuit_words(circuit: &Circuit) -> Words {
    let mut words = Words::default();
    let word = |w: usize| w as u32;
    let id = |w: &Wire| circuit.tabled_id(*w).map_or(u32::MAX, |id| id as u32);
    words.extend([word(circuit.ext_wires().len()), word(circuit.base_wires().len())]);
    words.push(word(circuit.rows().len()));
    for row in circuit.rows() {
        words.extend([row.relation as u32, id(&row.a), id(&row.b), id(&row.c)]);
    }
    words.push(word(circuit.perms().len()));
    for perm in circuit.perms() {
        words.extend(perm.inputs.iter().chain(&perm.outputs).map(id));
    }
    words.push(word(circuit.paths().len()));
    for path in circuit.paths() {
        words.push(word(path.bits.len()));
        let wires = path.leaf.iter().chain(&path.bits).chain(path.siblings.iter().flatten()).chain(&path.root);
        words.extend(wires.map(id));
    }
    let base_start = 1 << circuit::table_log(circuit.ext_wires().len());
    let ext = circuit.fixed().enumerate();
    for (wire, fixed) in ext.chain(circuit.base_fixed().enumerate().map(|(r, f)| (base_start + r, f))) {
        match fixed {
            None => {}
            Some(Fixed::Constant(c)) => {
                words.extend([word(wire), 0]);
                words.value(&c);
            }
            Some(Fixed::Input(i)) => words.extend([word(wire), word(1 + i)]),
        }
    }
    words
}

/// The digest from the circuit's words (`words`) and the inputs.
fn digest_inputs(mut words: Words, inputs: &[Ext]) -> [u8; 32] {
    words.push(inputs.len() as u32);
    inputs.iter().for_each(|v| words.value(v));
    words.finish()
}

/// SHA-256 of a stream of little-endian 32-bit words, hashed a buffer at
/// a time (the circuit's words are megabytes; they are never held whole).
#[derive(Clone, Default)]
struct Words {
    sha: Sha256,
    buffer: Vec<u8>,
}

impl Words {
    /// Bytes buffered before they are hashed.
    const BUFFER: usize = 1 << 16;

    fn push(&mut self, word: u32) {
        self.buffer.extend_from_slice(&word.to_le_bytes());
        if self.buffer.len() >= Self::BUFFER {
            self.sha.update(&self.buffer);
            self.buffer.clear();
        }
    }

    fn extend(&mut self, words: impl IntoIterator<Item = u32>) {
        words.into_iter().for_each(|w| self.push(w));
    }

    /// An extension value: its limbs' canonical words.
    fn value(&mut self, v: &Ext) {
        let limbs: &[Val] = v.as_basis_coefficients_slice();
        limbs.iter().for_each(|x| self.push(x.as_canonical_u32()));
    }

    fn finish(mut self) -> [u8; 32] {
        self.sha.update(&self.buffer);
        self.sha.finalize().into()
    }
}

/// A statement's tables, their heights (log2) and digest.
type Statement = (Vec<CircuitAir>, [usize; 5], [u8; 32]);

/// The statement as the backend sees it: the five tables, their heights,
/// the digest. `inputs` must be as many as the circuit's.
fn statement(circuit: &Circuit, inputs: &[Ext]) -> Result<Statement, CircuitError> {
    if inputs.len() != circuit.num_inputs() {
        return Err(CircuitError::InputCount { expected: circuit.num_inputs(), found: inputs.len() });
    }
    let logs = log_heights(circuit)?;
    // The tables and the digest read the circuit apart: built side by side.
    let (airs, digest) =
        join(|| tables(circuit, inputs, &logs), || tracing::info_span!("digest").in_scope(|| digest(circuit, inputs)));
    Ok((airs, logs, digest))
}

/// The five tables of `circuit` on `inputs` at heights `logs`, built side
/// by side.
fn tables(circuit: &Circuit, inputs: &[Ext], logs: &[usize; 5]) -> Vec<CircuitAir> {
    let _airs = tracing::info_span!("tables").entered();
    let ((witness, arith), (perm, (path, base))) = join(
        || join(|| air::WitnessAir::new(circuit, inputs, logs[0]), || air::ArithAir::new(circuit, logs[1])),
        || {
            join(
                || air::PermAir::new(circuit, logs[2]),
                || (air::PathAir::new(circuit, logs[3]), air::BaseWitnessAir::new(circuit, 1 << logs[0], logs[4])),
            )
        },
    );
    vec![
        CircuitAir::Witness(witness),
        CircuitAir::Arith(arith),
        CircuitAir::Perm(perm),
        CircuitAir::Path(path),
        CircuitAir::BaseWitness(base),
    ]
}

/// What a verifier circuit of a proof of a circuit reads of its statement
/// ([`statement_view`]).
#[derive(Debug)]
pub struct StatementView {
    /// The five tables.
    pub airs: Vec<CircuitAir>,
    /// Their heights, log2.
    pub log_heights: Vec<usize>,
    /// The zerocheck's skip.
    pub skip: usize,
    /// The transcript's seed.
    pub seed: Vec<u8>,
    /// The statement's digest, which the seed ends with.
    pub digest: [u8; 32],
}

/// The statement of a proof that `circuit` holds on `inputs` under
/// `settings`, as a verifier circuit reads it ([`stark::verify`]).
///
/// # Errors
/// As [`verify`] for the statement and settings.
pub fn statement_view(settings: &Settings, circuit: &Circuit, inputs: &[Ext]) -> Result<StatementView, CircuitError> {
    skip_settings(settings)?;
    let (airs, logs, digest) = statement(circuit, inputs)?;
    let seed = Tables::new(&airs, logs.to_vec(), DOMAIN, digest).transcript_seed(settings);
    Ok(StatementView { airs, log_heights: logs.to_vec(), skip: skip_stark::skip_for(&logs), seed, digest })
}

/// The statement of a proof under `settings` of a circuit the verifier
/// does not know, whose tables are `log_heights` high and whose statement
/// digest is `digest`: the five tables with every fixed column zero. A
/// verifier circuit that defers every periodic column reads nothing else
/// of the proof's circuit (`sigagg-merge`'s withheld children).
///
/// # Errors
/// Another number of heights than five, or one above [`MAX_LOG_HEIGHT`];
/// settings of another backend.
pub fn placeholder_view(
    settings: &Settings,
    log_heights: &[usize],
    digest: [u8; 32],
) -> Result<StatementView, CircuitError> {
    skip_settings(settings)?;
    let airs = placeholder_airs(log_heights)?;
    let seed = Tables::new(&airs, log_heights.to_vec(), DOMAIN, digest).transcript_seed(settings);
    let skip = skip_stark::skip_for(log_heights);
    Ok(StatementView { airs, log_heights: log_heights.to_vec(), skip, seed, digest })
}

/// The five tables of [`placeholder_view`]. Their fixed columns have one
/// row each, whatever the heights (which the caller passes on apart): a
/// verifier circuit that defers every periodic column never reads them,
/// and a header that claims tall tables costs no memory.
fn placeholder_airs(log_heights: &[usize]) -> Result<Vec<CircuitAir>, CircuitError> {
    let &[witness, _, _, _, _] = log_heights else {
        return Err(CircuitError::Unsupported("a circuit proof has five tables"));
    };
    if let Some(&log) = log_heights.iter().find(|&&log| log > MAX_LOG_HEIGHT) {
        return Err(CircuitError::TooLarge { what: "rows of a withheld table", count: 1 << log.min(63) });
    }
    let empty = CircuitBuilder::new().build();
    Ok(vec![
        CircuitAir::Witness(air::WitnessAir::new(&empty, &[], 0)),
        CircuitAir::Arith(air::ArithAir::new(&empty, 0)),
        CircuitAir::Perm(air::PermAir::new(&empty, 0)),
        CircuitAir::Path(air::PathAir::new(&empty, 0)),
        CircuitAir::BaseWitness(air::BaseWitnessAir::new(&empty, 1 << witness, 0)),
    ])
}

/// The security a proof that `circuit` holds on `inputs` has under
/// `settings` (whir-skip's statement for the five tables' heights).
///
/// # Errors
/// As [`verify`] for the statement and settings.
pub fn security_level(
    settings: &Settings,
    circuit: &Circuit,
    inputs: &[Ext],
) -> Result<sigagg_prover::SecurityLevel, CircuitError> {
    let whir = skip_settings(settings)?;
    let (airs, logs, digest) = statement(circuit, inputs)?;
    Ok(skip_stark::level(whir, &Tables::new(&airs, logs.to_vec(), DOMAIN, digest)))
}

/// Proves that `circuit` holds on `inputs`: computes the witness
/// ([`Circuit::witness`], which refuses inputs the circuit does not
/// accept) and proves its five tables under `settings`.
pub fn prove(settings: &Settings, circuit: &Circuit, inputs: &[Ext]) -> Result<CircuitProof, CircuitError> {
    prove_traces(settings, circuit, inputs, honest_traces(circuit, inputs)?)
}

/// Proves that `circuit`, whose every input is public or a deferred
/// claim's, holds on the inputs its own witness computes
/// ([`deferred::witness`]: one pass over the wires), and returns those
/// inputs with the proof.
///
/// # Errors
/// As [`prove`], and a circuit with an input neither public nor given by a
/// deferred claim.
pub fn prove_deferred(settings: &Settings, circuit: &Circuit) -> Result<(Vec<Ext>, CircuitProof), CircuitError> {
    let (inputs, values) = deferred::witness(circuit)?;
    let traces = air::traces(circuit, &values, log_heights(circuit)?);
    drop(values);
    let proof = prove_traces(settings, circuit, &inputs, traces)?;
    Ok((inputs, proof))
}

/// Proves `traces` as the tables of `circuit` on `inputs`, unchecked: for
/// soundness tests, whose forged traces the verifier must refuse.
pub fn prove_traces(
    settings: &Settings,
    circuit: &Circuit,
    inputs: &[Ext],
    traces: Vec<RowMajorMatrix<Val>>,
) -> Result<CircuitProof, CircuitError> {
    let whir = skip_settings(settings)?;
    let (airs, logs, digest) = statement(circuit, inputs)?;
    let tables = Tables::new(&airs, logs.to_vec(), DOMAIN, digest);
    Ok(CircuitProof { stark: StarkProof::Skip(skip_stark::prove(whir, &tables, traces)?) })
}

/// The multilinear settings of `settings` ([`CircuitError::Backend`] for
/// another backend's), validated. Circuits are proven by whir-skip alone,
/// through its own entry points, so that this crate does not compile the
/// other backends.
fn skip_settings(settings: &Settings) -> Result<&sigagg_prover::WhirSettings, CircuitError> {
    let Settings::Skip(whir) = settings else { return Err(CircuitError::Backend(settings.backend())) };
    settings.validate().map_err(|e| CircuitError::Prove(sigagg_prover::ProveError(e.to_string())))?;
    Ok(whir)
}

/// The traces of an honest proof: the witness of `circuit` on `inputs`, in
/// the five tables (for soundness tests to corrupt before
/// [`prove_traces`]).
pub fn honest_traces(circuit: &Circuit, inputs: &[Ext]) -> Result<Vec<RowMajorMatrix<Val>>, CircuitError> {
    let values = circuit.witness(inputs)?;
    Ok(air::traces(circuit, &values, log_heights(circuit)?))
}

/// The five tables' traces for the wire values `values` of `circuit`,
/// honest or not ([`Circuit::witness_unchecked`]: for soundness tests).
pub fn traces_of(circuit: &Circuit, values: &[Ext]) -> Result<Vec<RowMajorMatrix<Val>>, CircuitError> {
    if values.len() != circuit.num_wires() {
        return Err(CircuitError::Unsupported("one value per wire"));
    }
    Ok(air::traces(circuit, values, log_heights(circuit)?))
}

/// Checks that `proof` shows `circuit` holding on `inputs` under
/// `settings`. Never panics on a malformed proof.
pub fn verify(
    settings: &Settings,
    circuit: &Circuit,
    inputs: &[Ext],
    proof: &CircuitProof,
) -> Result<(), CircuitError> {
    verify_level(settings, circuit, inputs, proof).map(drop)
}

/// [`verify`], and the proof's security ([`security_level`]) from the
/// same tables: a caller that reports it builds them once.
pub fn verify_level(
    settings: &Settings,
    circuit: &Circuit,
    inputs: &[Ext],
    proof: &CircuitProof,
) -> Result<sigagg_prover::SecurityLevel, CircuitError> {
    skip_settings(settings)?;
    let (airs, logs, digest) = tracing::info_span!("statement").in_scope(|| statement(circuit, inputs))?;
    verify_tables(settings, (&airs, None), &logs, digest, proof)
}

/// [`verify`] on the statement `view` already built from the circuit and
/// its inputs ([`statement_view`] under the same `settings`): for a caller
/// that needs the view too, such as the parent of a merged proof.
///
/// # Errors
/// As [`verify`].
pub fn verify_view(settings: &Settings, view: &StatementView, proof: &CircuitProof) -> Result<(), CircuitError> {
    verify_tables(settings, (&view.airs, None), &view.log_heights, view.digest, proof).map(drop)
}

/// The proof checked against the statement's tables, heights and digest;
/// its security from them.
fn verify_tables(
    settings: &Settings,
    (airs, profiles): (&[CircuitAir], Option<&Profiles>),
    logs: &[usize],
    digest: [u8; 32],
    proof: &CircuitProof,
) -> Result<sigagg_prover::SecurityLevel, CircuitError> {
    let whir = skip_settings(settings)?;
    let tables = Tables::new(airs, logs.to_vec(), DOMAIN, digest);
    match &proof.stark {
        StarkProof::Skip(p) => {
            let computed;
            let profiles = match profiles {
                Some(profiles) => profiles,
                None => {
                    computed = Profiles::of_tables(airs)?;
                    &computed
                }
            };
            tracing::info_span!("skip verify").in_scope(|| skip_stark::verify_profiled(whir, &tables, profiles, p))?;
            Ok(skip_stark::level_profiled(whir, &tables, profiles))
        }
        other => {
            Err(sigagg_prover::VerifyError::WrongBackend { expected: Backend::Skip, found: other.backend() }.into())
        }
    }
}
