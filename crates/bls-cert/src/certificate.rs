//! Certificates: making them ([`Prover`]) and checking them ([`verify`]).
//!
//! A certificate for message `m` carries the aggregate signature `σ`, the
//! aggregate key `apk`, the signer count (and stake), in accountable mode
//! the bitfield of signers, and a succinct proof that `apk`, the count and
//! the stake come from the committed keys and one boolean bitfield.
//! Verification: the threshold on the count (and stake), the proof against
//! the committee key, then `e(apk, H(m)) = e(g1, σ)` with `blst` (Ethereum
//! ciphersuite, [`sigagg_bls::DST_SIG`]).
//!
//! ## Encoding (version 1, integers little-endian)
//! `"SGBLSCRT"` · version · mode (0 accountable, 1 counting) · flags (bit 0:
//! stake) · `u32` committee size · `u32` count · `u64` stake (stake) · `apk`
//! (48 bytes) · `σ` (96 bytes) · bitfield (accountable: `ceil(n/8)` bytes,
//! SSZ bit order, padding bits zero) · proof ([`crate::piop::proof`]).
//! Everything before the proof is the certificate's statement, absorbed
//! into the proof's transcript with the committee key and the message.

use std::ops::Range;

use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::{PUBLIC_KEY_BYTES, PublicKey, SIGNATURE_BYTES, Signature, aggregate, aggregate_public_keys};

use crate::codec::{Reader, Writer};
use crate::committee::{Committee, CommitteeKey, FixedValues, MAX_COMMITTEE_SIZE};
use crate::error::{CertError, Encoded};
use crate::field::{F, KeyPoint, key_point};
use crate::msm::FixedBaseMsm;
use crate::piop::proof::Proof;
pub use crate::piop::prover::Witness;
use crate::piop::prover::{Column, Cosets, FixedColumns, ProverKey, prove};
use crate::piop::verifier::{Bits, verify as verify_proof};
use crate::piop::{Boundary, Shape};
use crate::setup::Setup;
use crate::transcript::Transcript;

const MAGIC: &[u8; 8] = b"SGBLSCRT";
const VERSION: u8 = 1;
const FLAG_STAKE: u8 = 1;

/// Whether the certificate names its signers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The bitfield is public: the verifier learns who signed (as
    /// Ethereum's aggregation bits), at a verification cost linear in the
    /// number of signers.
    Accountable,
    /// The bitfield is committed inside the proof: the certificate and its
    /// verification cost do not grow with the committee. (Not zero
    /// knowledge: the aggregate key is public, and a candidate signer set
    /// can be checked against it.)
    Counting,
}

impl Mode {
    fn byte(self) -> u8 {
        match self {
            Mode::Accountable => 0,
            Mode::Counting => 1,
        }
    }
}

/// What the prover is given to certify.
#[derive(Clone, Copy, Debug)]
pub enum Signed<'a> {
    /// Individual signatures, each with its signer's key.
    Signatures(&'a [(PublicKey, Signature)]),
    /// An aggregate signature with the bitfield of its signers (committee order).
    Aggregate {
        /// Who signed.
        signers: &'a Bitfield,
        /// The aggregate of their signatures.
        signature: &'a Signature,
    },
}

/// A succinct certificate that `count` members of a committee signed a message.
#[derive(Clone, Debug, PartialEq)]
pub struct Certificate {
    statement: Statement,
    proof: Proof,
}

/// Everything in a certificate but its proof: what the proof is about.
#[derive(Clone, Debug, PartialEq)]
struct Statement {
    mode: Mode,
    committee_size: usize,
    count: usize,
    stake: Option<u64>,
    aggregate_key: PublicKey,
    signature: Signature,
    signers: Option<Bitfield>,
}

/// The threshold a verifier requires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threshold {
    /// At least this many signers.
    pub signers: u64,
    /// At least this much stake (the committee must be weighted).
    pub stake: Option<u64>,
}

impl Threshold {
    /// At least `t` signers.
    pub fn signers(t: u64) -> Threshold {
        Threshold { signers: t, stake: None }
    }

    /// At least `t` signers holding at least `stake`.
    pub fn with_stake(t: u64, stake: u64) -> Threshold {
        Threshold { signers: t, stake: Some(stake) }
    }
}

/// What a verified certificate establishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The certificate's mode.
    pub mode: Mode,
    /// Number of distinct committee members that signed.
    pub count: usize,
    /// Their stake, for a weighted committee.
    pub stake: Option<u64>,
    /// Who signed (accountable mode).
    pub signers: Option<Bitfield>,
    /// Whether the committee key comes from the insecure development setup,
    /// under which anyone can forge certificates.
    pub insecure_setup: bool,
}

/// A certificate before proving: its statement and the witness the proof
/// will be about. Public so that soundness tests can corrupt either.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The mode.
    pub mode: Mode,
    /// The claimed number of signers.
    pub count: usize,
    /// The claimed stake (weighted committees).
    pub stake: Option<u64>,
    /// The claimed aggregate key.
    pub aggregate_key: PublicKey,
    /// The aggregate signature.
    pub signature: Signature,
    /// The public bitfield (accountable mode).
    pub signers: Option<Bitfield>,
    /// The prover's columns.
    pub witness: Witness,
}

impl Certificate {
    /// The mode.
    pub fn mode(&self) -> Mode {
        self.statement.mode
    }

    /// Number of signers.
    pub fn count(&self) -> usize {
        self.statement.count
    }

    /// Their stake (weighted committees).
    pub fn stake(&self) -> Option<u64> {
        self.statement.stake
    }

    /// The committee's size.
    pub fn committee_size(&self) -> usize {
        self.statement.committee_size
    }

    /// The aggregate key of the signers.
    pub fn aggregate_key(&self) -> &PublicKey {
        &self.statement.aggregate_key
    }

    /// The aggregate signature.
    pub fn signature(&self) -> &Signature {
        &self.statement.signature
    }

    /// The signers (accountable mode).
    pub fn signers(&self) -> Option<&Bitfield> {
        self.statement.signers.as_ref()
    }

    /// The succinct proof.
    pub fn proof(&self) -> &Proof {
        &self.proof
    }

    /// Bytes of the proof alone.
    pub fn proof_len(&self) -> usize {
        Proof::encoded_len(self.statement.shape())
    }

    /// The encoding's parts in order with their byte ranges (tests flip
    /// bytes in each to check that every part is bound).
    pub fn layout(&self) -> Vec<(&'static str, Range<usize>)> {
        let st = &self.statement;
        let mut parts: Vec<(&'static str, usize)> = vec![
            ("magic", MAGIC.len()),
            ("version", 1),
            ("mode", 1),
            ("flags", 1),
            ("committee size", 4),
            ("count", 4),
        ];
        if st.stake.is_some() {
            parts.push(("stake", 8));
        }
        parts.extend([("aggregate key", PUBLIC_KEY_BYTES), ("signature", SIGNATURE_BYTES)]);
        if let Some(bits) = &st.signers {
            parts.push(("bitfield", Bitfield::byte_len(bits.len())));
        }
        parts.extend(Proof::layout(st.shape()));
        let mut start = 0;
        parts
            .into_iter()
            .map(|(name, len)| {
                start += len;
                (name, start - len..start)
            })
            .collect()
    }

    /// The encoding (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.statement.write(&mut w);
        self.proof.write(&mut w);
        w.finish()
    }

    /// Decodes a certificate. Every field is checked: known mode and flags,
    /// a count between 1 and the committee size, a valid non-identity
    /// aggregate key, a signature in G2's subgroup, a bitfield of the right
    /// length with clean padding, canonical proof points in their subgroup
    /// and canonical field elements, exact length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, CertError> {
        let mut r = Reader::open(bytes, Encoded::Certificate, MAGIC, VERSION)?;
        let statement = Statement::read(&mut r)?;
        let proof = Proof::read(&mut r, statement.shape())?;
        r.finish()?;
        Ok(Certificate { statement, proof })
    }
}

impl Statement {
    fn shape(&self) -> Shape {
        Shape { counting: self.mode == Mode::Counting, stake: self.stake.is_some() }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.write(&mut w);
        w.finish()
    }

    fn write(&self, w: &mut Writer) {
        w.bytes(MAGIC);
        w.u8(VERSION);
        w.u8(self.mode.byte());
        w.u8(if self.stake.is_some() { FLAG_STAKE } else { 0 });
        w.u32(self.committee_size as u32);
        w.u32(self.count as u32);
        if let Some(stake) = self.stake {
            w.u64(stake);
        }
        w.bytes(&self.aggregate_key.to_bytes());
        w.bytes(&self.signature.to_bytes());
        if let Some(bits) = &self.signers {
            w.bytes(&bits.to_bytes());
        }
    }

    /// Reads the statement and checks the total length against its shape.
    fn read(r: &mut Reader<'_>) -> Result<Statement, CertError> {
        let what = r.what();
        let mode = match r.u8()? {
            0 => Mode::Accountable,
            1 => Mode::Counting,
            _ => return Err(CertError::Malformed { what, field: "mode" }),
        };
        let flags = r.u8()?;
        if flags & !FLAG_STAKE != 0 {
            return Err(CertError::Malformed { what, field: "flags" });
        }
        let committee_size = r.u32()? as usize;
        let count = r.u32()? as usize;
        if committee_size == 0 || committee_size > MAX_COMMITTEE_SIZE {
            return Err(CertError::Malformed { what, field: "committee size" });
        }
        if count == 0 || count > committee_size {
            return Err(CertError::Malformed { what, field: "count" });
        }
        let stake = (flags & FLAG_STAKE != 0).then(|| r.u64()).transpose()?;
        let shape = Shape { counting: mode == Mode::Counting, stake: stake.is_some() };
        let bitfield_len = if shape.counting { 0 } else { Bitfield::byte_len(committee_size) };
        r.expect_remaining(PUBLIC_KEY_BYTES + SIGNATURE_BYTES + bitfield_len + Proof::encoded_len(shape))?;
        let aggregate_key = PublicKey::from_bytes(r.take(PUBLIC_KEY_BYTES)?)?;
        let signature = Signature::from_bytes(r.take(SIGNATURE_BYTES)?)?;
        let signers = (!shape.counting)
            .then(|| {
                Bitfield::from_bytes(r.take(bitfield_len)?, committee_size)
                    .map_err(|_| CertError::Malformed { what, field: "bitfield padding" })
            })
            .transpose()?;
        Ok(Statement { mode, committee_size, count, stake, aggregate_key, signature, signers })
    }
}

/// The transcript of a certificate's proof: the committee key, the
/// statement and the message are absorbed before any commitment, so the
/// proof is bound to all of them.
fn transcript(key: &CommitteeKey, statement: &[u8], message: &[u8]) -> Transcript {
    let mut t = Transcript::new(b"bls-threshold-certificate");
    t.absorb(b"committee", &key.to_bytes());
    t.absorb(b"statement", statement);
    t.absorb(b"message", message);
    t
}

/// Verifies a certificate on `message` against a committee key and a
/// threshold. Cheap checks first: the committee's size and weighting, the
/// threshold, the bitfield's count; then the proof; then the pairing.
///
/// A committee key made with the insecure development setup is refused
/// ([`CertError::InsecureSetup`]): anyone can forge its certificates, and
/// a caller that ignored a flag on success would accept forgeries. Tests
/// and demos opt in with [`verify_allowing_insecure_setup`].
pub fn verify(
    key: &CommitteeKey,
    cert: &Certificate,
    message: &[u8],
    threshold: &Threshold,
) -> Result<Verified, CertError> {
    if key.is_insecure() {
        return Err(CertError::InsecureSetup);
    }
    verify_allowing_insecure_setup(key, cert, message, threshold)
}

/// [`verify`], also for a committee key of the insecure development setup
/// (then [`Verified::insecure_setup`] is set, and the certificate proves
/// nothing). For tests and demos only.
pub fn verify_allowing_insecure_setup(
    key: &CommitteeKey,
    cert: &Certificate,
    message: &[u8],
    threshold: &Threshold,
) -> Result<Verified, CertError> {
    let st = &cert.statement;
    if st.committee_size != key.size() {
        return Err(CertError::CommitteeMismatch("committee size"));
    }
    if st.stake.is_some() != key.has_stake() {
        return Err(CertError::CommitteeMismatch("stake weights"));
    }
    if (st.count as u64) < threshold.signers {
        return Err(CertError::BelowThreshold { count: st.count as u64, threshold: threshold.signers });
    }
    if let Some(min) = threshold.stake {
        let stake = st.stake.ok_or(CertError::NoStake)?;
        if stake < min {
            return Err(CertError::StakeBelowThreshold { stake, threshold: min });
        }
    }
    let rows: Option<Vec<usize>> = st.signers.as_ref().map(|b| b.ones().collect());
    if let Some(rows) = &rows
        && rows.len() != st.count
    {
        return Err(CertError::CountMismatch { count: st.count as u64, bitfield: rows.len() as u64 });
    }
    let bits = match &rows {
        Some(rows) => Bits::Public(rows),
        None => Bits::Committed,
    };
    let boundary = Boundary::new(&key_point(&st.aggregate_key), st.count as u64, st.stake.unwrap_or(0));
    let mut t = transcript(key, &st.to_bytes(), message);
    // The proof and the pairing are independent: check them side by side.
    let (proof_ok, signature_ok) = rayon::join(
        || {
            verify_proof(
                key.setup(),
                key.prepared(),
                key.domain(),
                key.commitments(),
                st.shape(),
                bits,
                &cert.proof,
                &boundary,
                &mut t,
            )
        },
        || st.signature.verify(&st.aggregate_key, message).is_ok(),
    );
    if !proof_ok {
        return Err(CertError::ProofRejected);
    }
    if !signature_ok {
        return Err(CertError::SignatureRejected);
    }
    Ok(Verified {
        mode: st.mode,
        count: st.count,
        stake: st.stake,
        signers: st.signers.clone(),
        insecure_setup: key.is_insecure(),
    })
}

/// Makes certificates for one committee: holds the committee's columns in
/// the form the proof needs (built once, reused for every certificate).
pub struct Prover<'a> {
    committee: &'a Committee,
    key: ProverKey,
    points: Vec<KeyPoint>,
    row_weights: Vec<F>,
}

impl<'a> Prover<'a> {
    /// Prepares to certify for `committee` with the setup its key was made
    /// with ([`CertError::SetupMismatch`] otherwise).
    pub fn new(setup: &Setup, committee: &'a Committee) -> Result<Prover<'a>, CertError> {
        let committee_key = committee.key();
        committee_key.check_setup(&setup.key())?;
        let domain = committee_key.domain();
        let cosets = Cosets::new(domain);
        let committer = FixedBaseMsm::new(setup.powers_for(domain.size())?);
        let values = FixedValues::new(committee.keys(), committee.weights(), domain.size());
        let column = |v: &Vec<F>| Column::from_values(&cosets, v);
        let fixed = FixedColumns {
            key_x: column(&values.key_x),
            key_y: column(&values.key_y),
            selector: column(&values.selector),
            weight: values.weight.as_ref().map(column),
        };
        let row_weights = values.row_weights(committee.keys().len()).to_vec();
        let points = values.points;
        Ok(Prover { committee, key: ProverKey { cosets, committer, fixed }, points, row_weights })
    }

    /// The committee.
    pub fn committee(&self) -> &Committee {
        self.committee
    }

    /// Certifies that the given signers signed `message`. Refuses (with a
    /// typed error, before any proving) keys outside the committee, a
    /// member given twice, no signer, a bitfield of the wrong length, and
    /// signatures that do not verify.
    pub fn certify(&self, message: &[u8], signed: Signed<'_>, mode: Mode) -> Result<Certificate, CertError> {
        Ok(self.prove_draft(&self.draft(message, signed, mode)?, message))
    }

    /// The certificate's parts before proving, after every check of
    /// [`Prover::certify`]: what it would prove, and the honest witness.
    pub fn draft(&self, message: &[u8], signed: Signed<'_>, mode: Mode) -> Result<Draft, CertError> {
        let (signers, signature) = self.check_signed(message, signed)?;
        let keys: Vec<PublicKey> = signers.ones().map(|i| self.committee.keys()[i]).collect();
        let aggregate_key = aggregate_public_keys(&keys).map_err(|_| CertError::IdentityAggregateKey)?;
        let stake = self.committee.weights().map(|w| signers.ones().map(|i| w[i]).sum());
        let signed_rows: Vec<bool> = (0..signers.len()).map(|i| signers.get(i).unwrap_or(false)).collect();
        let witness = Witness::honest(&self.points, &self.row_weights, &signed_rows, self.key.cosets.domain().size());
        Ok(Draft {
            mode,
            count: keys.len(),
            stake,
            aggregate_key,
            signature,
            signers: (mode == Mode::Accountable).then_some(signers),
            witness,
        })
    }

    /// Proves a draft as it is, **without any check** of the statement or
    /// the witness. [`Prover::certify`] proves only checked drafts; soundness
    /// tests prove corrupted ones and expect verification to fail.
    pub fn prove_draft(&self, draft: &Draft, message: &[u8]) -> Certificate {
        let statement = Statement {
            mode: draft.mode,
            committee_size: self.points.len(),
            count: draft.count,
            stake: draft.stake,
            aggregate_key: draft.aggregate_key,
            signature: draft.signature,
            signers: draft.signers.clone(),
        };
        let boundary =
            Boundary::new(&key_point(&statement.aggregate_key), statement.count as u64, statement.stake.unwrap_or(0));
        let mut t = transcript(self.committee.key(), &statement.to_bytes(), message);
        let proof = prove(&self.key, statement.shape(), &draft.witness, &boundary, &mut t);
        Certificate { statement, proof }
    }

    /// Checks the input and returns the signers' bitfield and the verified
    /// aggregate signature.
    fn check_signed(&self, message: &[u8], signed: Signed<'_>) -> Result<(Bitfield, Signature), CertError> {
        let n = self.points.len();
        match signed {
            Signed::Signatures(list) => {
                if list.is_empty() {
                    return Err(CertError::NoSigners);
                }
                let mut bits = Bitfield::new(n);
                for (pk, _) in list {
                    let index = self
                        .committee
                        .registry()
                        .position(pk)
                        .ok_or_else(|| CertError::UnknownSigner { key: hex(&pk.to_bytes()) })?;
                    if bits.get(index).expect("registry indices are below n") {
                        return Err(CertError::DuplicateSigner { index });
                    }
                    bits.set(index).expect("registry indices are below n");
                }
                let signatures: Vec<Signature> = list.iter().map(|(_, s)| *s).collect();
                let signature = aggregate(&signatures)?;
                let keys: Vec<PublicKey> = list.iter().map(|(k, _)| *k).collect();
                if signature.verify(&aggregate_public_keys(&keys)?, message).is_err() {
                    let position = list.iter().position(|(k, s)| s.verify(k, message).is_err());
                    return Err(position.map_or(CertError::InvalidAggregateSignature, |position| {
                        CertError::InvalidSignature { position }
                    }));
                }
                Ok((bits, signature))
            }
            Signed::Aggregate { signers, signature } => {
                if signers.len() != n {
                    return Err(CertError::BitfieldLength { expected: n, got: signers.len() });
                }
                if signers.none() {
                    return Err(CertError::NoSigners);
                }
                let keys: Vec<PublicKey> = signers.ones().map(|i| self.committee.keys()[i]).collect();
                signature
                    .verify(&aggregate_public_keys(&keys)?, message)
                    .map_err(|_| CertError::InvalidAggregateSignature)?;
                Ok((signers.clone(), *signature))
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
