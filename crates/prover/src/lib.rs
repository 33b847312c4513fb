//! The STARK machinery both sigagg aggregators stand on (`sigagg-xmss-agg`
//! for Seed001 XMSS, `sigagg-lamport-agg` for Lamport+): one interface to
//! the proof systems ([`backend`]), the field and its challenge extension,
//! the settings and their Merkle hash ([`config`]), the proof framing
//! ([`codec`]), the Poseidon2 and Poseidon1 block ([`paired`], [`poseidon`]), the
//! width-dependent DFT ([`dft`]), truncated SHA-256 trees ([`merkle_hash`])
//! and lookup folding ([`fold_lookups`]).
//!
//! # Proving a statement
//!
//! An aggregator writes its tables as AIRs that implement [`Table`] (an
//! AIR over KoalaBear whose constraints may use LogUp buses, with its
//! constraint degree and the width of its bus messages), describes a
//! statement as [`Tables`] (the AIRs in batch order, their heights, which
//! follow from the statement, and a digest binding the rest of it), and
//! calls three functions:
//!
//! * [`prove`]`(settings, tables, traces)` gives a [`StarkProof`];
//! * [`verify`]`(settings, tables, proof)` checks it or names why not
//!   ([`VerifyError`]);
//! * [`security_level`]`(settings, tables)` is the security the backend
//!   states for such proofs (proven and conjectured bits, grinding counted).
//!
//! The settings choose the backend ([`Settings::backend`], a [`Backend`]):
//! [`Backend::Fri`], Plonky3's univariate batch STARK with FRI ([`fri`]);
//! [`Backend::Whir`], Plonky3's multilinear `p3-multi-stark` with WHIR
//! ([`whir`]); or [`Backend::Skip`], our own multilinear prover with the
//! same WHIR commitment ([`skip_stark`]). A proof records the backend that made it, and a verifier
//! whose settings name another refuses it ([`VerifyError::WrongBackend`]).
//!
//! ```ignore
//! let tables = Tables::new(&airs, log_heights, b"my-aggregator/transcript/v1", statement.digest());
//! let proof = sigagg_prover::prove(&settings, &tables, &traces)?; // traces: one per AIR
//! sigagg_prover::verify(&settings, &tables, &proof)?;             // the verifier builds the same `tables`
//! let bits = sigagg_prover::security_level(&settings, &tables).proven_bits;
//! ```
//!
//! # Modules
//!
//! * The vocabulary every backend shares: [`table`] ([`Table`], [`Tables`],
//!   [`transcript_seed`]), [`error`] ([`ProveError`], [`VerifyError`]) and
//!   [`security`] ([`SecurityLevel`]); with [`config`] (field, settings,
//!   Merkle hash) and [`merkle_hash`].
//! * The dispatch: [`backend`] ([`StarkProof`], [`prove`], [`verify`],
//!   [`security_level`]), the only module that names every backend. The
//!   backends import the vocabulary, never the dispatch.
//! * One module per backend: [`fri`] (Plonky3's batch STARK, with our
//!   prover, verifier, quotient and security accounting), [`whir`]
//!   (`p3-multi-stark` with WHIR) and [`skip_stark`] (our multilinear
//!   STARK).
//! * The pieces of our multilinear prover: [`zerocheck`] (the AIR's
//!   symbolic analysis, the folders, the kernels, prover and verifier
//!   apart), [`logup`] (the bus argument) and [`messages`] (bus messages
//!   and lookups compiled to straight-line programs); their polynomial
//!   helpers (Lagrange basis, `eq`, interpolation, coset FFT) are the
//!   private `poly` module.
//! * The packed proof codec, [`codec`] (framing and the bit-packed serde
//!   format of [`codec::bits`]), which knows no backend: each proof type
//!   lays out its own parts ([`StarkProof::body_layout`]).
//! * The Poseidon2 and Poseidon1 block ([`paired`], [`poseidon`]), the DFT
//!   ([`dft`]) and the next-row read check ([`next_row`]).
//! * The constraint gadgets the aggregators' tables share ([`gadgets`]):
//!   sponge, Merkle path step, bits and range lookups, bus branches.

pub mod backend;
pub mod bus;
pub mod codec;
pub mod columns;
pub mod config;
pub mod dft;
pub mod error;
pub mod fri;
pub mod gadgets;
pub mod kind;
pub mod logup;
pub mod merkle_hash;
pub mod messages;
pub mod named;
pub mod next_row;
pub mod paired;
mod poly;
pub mod poseidon;
pub mod row;
pub mod security;
pub mod settings;
pub mod skip_stark;
pub mod table;
pub mod whir;
pub mod zerocheck;

pub use backend::{StarkProof, prove, prove_column_major, security_level, verify};
pub use config::{Backend, Settings};
pub use error::{ProveError, VerifyError};
pub use kind::ProofKind;
pub use named::Named;
pub use poly::barycentric_weights;
pub use security::SecurityLevel;
pub use settings::{FriSettings, InvalidSettings, WhirSettings};
pub use table::{Table, Tables, transcript_seed};

use p3_air::Air;
use p3_lookup::{InteractionSymbolicBuilder, LogUpGadget, Lookups};

use crate::config::{Challenge, Val};

/// Each AIR's lookups, folded into shared columns exactly as Plonky3's
/// `ProverData::from_airs_and_degrees` folds them, but without its symbolic
/// constraint-degree inference, which costs as much as the rest of
/// verification. Plonky3 folds up to `2^c + 1` fractions' degree into one
/// column of an AIR whose quotient has `2^c` chunks, i.e. the AIR's
/// constraint degree when that is `2^c + 1` (3 for two chunks, 9 for
/// eight); `budget(air)` must be that degree. Callers should test the
/// result against Plonky3's derivation (both proof crates do).
pub fn fold_lookups<A>(airs: &[A], budget: impl Fn(&A) -> usize) -> Vec<Lookups<Val>>
where
    A: Air<InteractionSymbolicBuilder<Val, Challenge>>,
{
    let gadget = LogUpGadget::new();
    airs.iter()
        .map(|air| {
            Lookups::<Val>::from_air::<Challenge, _>(air)
                .pack_same_bus_with_degree(budget(air), |l| gadget.constraint_degree_with_transition(l, 0))
        })
        .collect()
}

/// A periodic column table: `columns[c][row]`, all of one period; `f(r,
/// row)` fills row `r` (handed over zeroed).
pub fn periodic_table(period: usize, width: usize, f: impl Fn(usize, &mut [Val])) -> Vec<Vec<Val>> {
    let mut cols = vec![vec![Val::default(); period]; width];
    let mut row = vec![Val::default(); width];
    for r in 0..period {
        row.fill(Val::default());
        f(r, &mut row);
        for (col, v) in cols.iter_mut().zip(&row) {
            col[r] = *v;
        }
    }
    cols
}

/// What [`air_enum!`] expands to names these crates.
#[doc(hidden)]
pub mod __private {
    pub use p3_air;
    pub use p3_lookup;
}

/// Helpers for the aggregators' tests and development examples.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    use crate::config::{FriSettings, MerkleHash, Settings, WhirSettings};

    pub use crate::fri::compare::{lookups_both_ways, proofs_both_ways, quotient_chunks_both_ways};

    /// `base` with the FRI fields named by environment variables replaced
    /// (`LOG_BLOWUP`, `QUERIES`, `QUERY_POW`, `FINAL_POLY`, `ARITY`, `CAP`,
    /// WHIR's `FIRST_ARITY`, `RATE_STEP` and `TARGET`, and `DIGEST`, 24, 31 or 32 Merkle
    /// digest bytes): for trying settings in
    /// the development examples, never in the library.
    pub fn settings_from_env(base: Settings) -> Settings {
        let env = |k: &str, v: usize| std::env::var(k).map_or(v, |s| s.parse().expect("a number"));
        let merkle = match env("DIGEST", base.merkle().digest_bytes()) {
            _ if std::env::var("MERKLE").is_ok_and(|m| m == "poseidon2") => MerkleHash::Poseidon2,
            24 => MerkleHash::Sha256Trunc24,
            31 => MerkleHash::Sha256Trunc31,
            32 if base.merkle() == MerkleHash::Poseidon2 => MerkleHash::Poseidon2,
            32 => MerkleHash::Sha256,
            other => panic!("DIGEST={other}: use 24, 31 or 32 (or MERKLE=poseidon2)"),
        };
        let whir = |w: WhirSettings| WhirSettings {
            log_blowup: env("LOG_BLOWUP", w.log_blowup),
            query_pow_bits: env("QUERY_POW", w.query_pow_bits),
            max_log_arity: env("ARITY", w.max_log_arity),
            first_log_arity: env("FIRST_ARITY", w.first_log_arity),
            rate_step: env("RATE_STEP", w.rate_step),
            target_bits: env("TARGET", w.target_bits),
            merkle,
        };
        let settings = match base {
            Settings::Fri(f) => Settings::Fri(FriSettings {
                log_blowup: env("LOG_BLOWUP", f.log_blowup),
                num_queries: env("QUERIES", f.num_queries),
                query_pow_bits: env("QUERY_POW", f.query_pow_bits),
                log_final_poly_len: env("FINAL_POLY", f.log_final_poly_len),
                max_log_arity: env("ARITY", f.max_log_arity),
                cap_height: env("CAP", f.cap_height),
                merkle,
                ..f
            }),
            Settings::Whir(w) => Settings::Whir(whir(w)),
            Settings::Skip(w) => Settings::Skip(whir(w)),
        };
        Settings::new(settings).unwrap_or_else(|e| panic!("settings from the environment: {e}"))
    }

    /// Checks an aggregator's name mapping against the registry: every name
    /// maps to settings that keep its contract ([`crate::Named::is_kept_by`])
    /// and that map back to it, and settings no name gives (the fast
    /// setting with 7 queries) map to none.
    ///
    /// # Panics
    /// On the first name that breaks this.
    pub fn assert_names_kept(
        settings: impl Fn(crate::Named) -> Settings,
        named: impl Fn(&Settings) -> Option<crate::Named>,
    ) {
        for n in crate::Named::ALL {
            assert_eq!(named(&settings(n)), Some(n));
            assert!(n.is_kept_by(&settings(n)), "{n}");
        }
        let Settings::Fri(fast) = settings(crate::Named::Fast) else { panic!("fast is a FRI setting") };
        let custom = Settings::Fri(FriSettings { num_queries: 7, ..fast });
        assert_eq!(named(&custom), None);
    }

    /// Byte positions to flip in an encoded proof of `len` bytes whose
    /// STARK body starts at bit `body_start` ([`crate::codec::last_field_start`])
    /// and has the parts `layout`, in bits ([`crate::StarkProof::body_layout`]):
    /// every header byte, the bytes of the first, middle and last bit of
    /// every part, and about 60 spread over the body.
    ///
    /// # Panics
    /// If the parts do not tile the body up to the final byte's padding,
    /// or one is empty.
    pub fn flip_positions(len: usize, body_start: usize, layout: &[(&str, usize)]) -> Vec<usize> {
        let end = body_start + layout.iter().map(|(_, n)| n).sum::<usize>();
        assert_eq!(end.div_ceil(8), len, "{layout:?}");
        let header = body_start / 8;
        let mut positions: Vec<usize> = (0..header).collect();
        let mut at = body_start;
        for (part, n) in layout {
            assert!(*n > 0, "{part} is empty");
            positions.extend([at, at + n / 2, at + n - 1].map(|bit| bit / 8));
            at += n;
        }
        positions.extend((header..len).step_by((len / 60).max(1)));
        positions
    }
}
