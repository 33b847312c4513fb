//! Real objects of every kind, built once per process through the
//! byte-level API (`sigagg-bytes`) the way `crates/bytes/tests/mutation.rs`
//! builds them: proofs with the insecure `test` settings, deterministic
//! seeds everywhere, so that seeds and statements are the same in every run.

use std::sync::OnceLock;

use sigagg_bls::bitfield::Bitfield;
use sigagg_bls::msp::MspSigningKey;
use sigagg_bls::{KeyRegistry, SecretKey};
use sigagg_bytes::{
    AggregateStatement, ProofSettings, Scheme, Signer, StatefulKey, ThresholdStatement, aggregate, atms, bls, cert,
    group, lamport, prove_threshold, xmss,
};
use sigagg_horn::{
    Collection, Collector, HornParams, HornValidators, MultiplicityAggregate, SubcommitteeAggregate, verify_collection,
    verify_multiplicity_aggregate,
};

/// The proof settings of every proof here (insecure, fast).
pub const TEST: ProofSettings = ProofSettings::Test;
/// The epoch of every Seed001 signature here.
pub const EPOCH: u32 = 5;

fn refs<T: AsRef<[u8]>>(v: &[T]) -> Vec<&[u8]> {
    v.iter().map(AsRef::as_ref).collect()
}

/// BLS, ATMS and MSP.B objects.
pub struct Bls {
    pub message: Vec<u8>,
    pub secret_key: Vec<u8>,
    pub public_key: Vec<u8>,
    pub signature: Vec<u8>,
    pub pop: Vec<u8>,
    /// Four ATMS members' keys and proofs of possession.
    pub atms_keys: Vec<Vec<u8>>,
    pub atms_pops: Vec<Vec<u8>>,
    pub atms_key: Vec<u8>,
    /// Two of four signed (threshold 2).
    pub atms_signature: Vec<u8>,
    pub msp_signing_key: Vec<u8>,
    pub msp_verification_key: Vec<u8>,
    pub msp_signature: Vec<u8>,
    pub msp_pop: Vec<u8>,
}

/// The ATMS threshold of [`Bls::atms_signature`].
pub const ATMS_THRESHOLD: usize = 2;

pub fn bls() -> &'static Bls {
    static CELL: OnceLock<Bls> = OnceLock::new();
    CELL.get_or_init(|| {
        let message = b"message".to_vec();
        let (sk, pk) = bls::keygen(Some(&[1; 32])).unwrap();
        let signature = bls::sign(&*sk, &message).unwrap().to_vec();
        let pop = bls::prove_possession(&*sk).unwrap().to_vec();
        let pairs: Vec<_> = (1..=4u8).map(|i| bls::keygen(Some(&[i; 32])).unwrap()).collect();
        let atms_keys: Vec<Vec<u8>> = pairs.iter().map(|(_, pk)| pk.to_vec()).collect();
        let atms_pops: Vec<Vec<u8>> =
            pairs.iter().map(|(sk, _)| bls::prove_possession(&**sk).unwrap().to_vec()).collect();
        let atms_key = atms::aggregate_key(&refs(&atms_keys), &refs(&atms_pops)).unwrap().to_vec();
        let sigs: Vec<Vec<u8>> = [0, 2].iter().map(|&i| bls::sign(&*pairs[i].0, &message).unwrap().to_vec()).collect();
        let atms_signature =
            atms::sign(ATMS_THRESHOLD, &message, &refs(&atms_keys), &[0, 2], &refs(&sigs)).unwrap().to_vec();
        atms::verify(ATMS_THRESHOLD, &message, &atms_key, &atms_signature).unwrap();
        let msp = MspSigningKey::from_key_material(&[3; 32]).unwrap();
        Bls {
            secret_key: sk.to_vec(),
            public_key: pk.to_vec(),
            signature,
            pop,
            atms_keys,
            atms_pops,
            atms_key,
            atms_signature,
            msp_signing_key: msp.to_bytes().to_vec(),
            msp_verification_key: msp.verification_key().to_bytes().to_vec(),
            msp_signature: msp.sign(&message).to_bytes().to_vec(),
            msp_pop: msp.prove_possession().to_bytes().to_vec(),
            message,
        }
    })
}

/// Keys and signatures of the hash-based schemes (no proofs).
pub struct HashSigs {
    /// XMSS, insecure `test` set: public key, signature at epoch 3 of
    /// [`HashSigs::xmss_message`], secret key after signing.
    pub xmss_test: [Vec<u8>; 3],
    pub xmss_message: [u8; 32],
    /// XMSS Seed001 public key and signature (epoch [`EPOCH`]).
    pub xmss_seed001: [Vec<u8>; 2],
    /// Lamport+ (plain, then mined): public key, signature, used secret key.
    pub lamport: [[Vec<u8>; 3]; 2],
    pub lamport_message: Vec<u8>,
}

pub fn hash_sigs() -> &'static HashSigs {
    static CELL: OnceLock<HashSigs> = OnceLock::new();
    CELL.get_or_init(|| {
        let xmss_message = [9u8; 32];
        let (pk, sk) = xmss::keygen(Scheme::Test, 0, 64, Some(&[1; 32])).unwrap();
        let sig = sk.sign(3, &xmss_message).unwrap();
        let xmss_test = [pk, sig, sk.to_bytes().unwrap().to_vec()];
        let (pk, sk) = xmss::keygen(Scheme::Seed001, 0, 1, Some(&[2; 32])).unwrap();
        let xmss_seed001 = [pk, sk.sign(EPOCH, &xmss_message).unwrap()];
        let lamport_message = b"block 1".to_vec();
        let lamport = [Scheme::LamportPlus, Scheme::LamportPlusMined].map(|scheme| {
            let (pk, sk) = lamport::keygen(scheme, Some(&[5; 32])).unwrap();
            let sig = sk.sign(&lamport_message).unwrap();
            [pk, sig, sk.to_bytes().unwrap().to_vec()]
        });
        HashSigs { xmss_test, xmss_message, xmss_seed001, lamport, lamport_message }
    })
}

/// `n` public keys of `scheme` with their signatures on `message(i)`.
fn signed(scheme: Scheme, n: u8, message: impl Fn(usize) -> Vec<u8>) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    (0..n)
        .map(|i| {
            let m = message(i as usize);
            if scheme == Scheme::Seed001 {
                let (pk, sk) = xmss::keygen(scheme, 0, 1, Some(&[i + 1; 32])).unwrap();
                (pk, sk.sign(EPOCH, &m).unwrap())
            } else {
                let (pk, sk) = lamport::keygen(scheme, Some(&[i + 1; 32])).unwrap();
                (pk, sk.sign(&m).unwrap())
            }
        })
        .unzip()
}

/// An aggregate proof of three signatures with its statement.
pub struct Aggregate {
    pub scheme: Scheme,
    pub public_keys: Vec<Vec<u8>>,
    pub messages: Vec<Vec<u8>>,
    pub epochs: Vec<u32>,
    pub proof: Vec<u8>,
}

impl Aggregate {
    /// Verifies `proof` against this statement.
    pub fn verify(&self, proof: &[u8]) -> sigagg_bytes::Result<()> {
        let (keys, messages) = (refs(&self.public_keys), refs(&self.messages));
        let statement = AggregateStatement { public_keys: &keys, messages: &messages, epochs: &self.epochs };
        sigagg_bytes::verify_aggregate(self.scheme, TEST, &statement, proof)
    }
}

fn make_aggregate(scheme: Scheme) -> Aggregate {
    let seed001 = scheme == Scheme::Seed001;
    let message = |i: usize| if seed001 { vec![0x42; 32] } else { format!("block {i}").into_bytes() };
    let (public_keys, sigs) = signed(scheme, 3, message);
    let messages: Vec<Vec<u8>> = if seed001 { vec![message(0)] } else { (0..3).map(message).collect() };
    let epochs = if seed001 { vec![EPOCH] } else { vec![] };
    let (keys, msgs) = (refs(&public_keys), refs(&messages));
    let statement = AggregateStatement { public_keys: &keys, messages: &msgs, epochs: &epochs };
    let proof = aggregate(scheme, TEST, &statement, &refs(&sigs)).unwrap();
    let a = Aggregate { scheme, public_keys, messages, epochs, proof };
    a.verify(&a.proof).unwrap();
    a
}

/// The XMSS (Seed001) aggregate proof.
pub fn xmss_aggregate() -> &'static Aggregate {
    static CELL: OnceLock<Aggregate> = OnceLock::new();
    CELL.get_or_init(|| make_aggregate(Scheme::Seed001))
}

/// The Lamport+ aggregate proof.
pub fn lamport_aggregate() -> &'static Aggregate {
    static CELL: OnceLock<Aggregate> = OnceLock::new();
    CELL.get_or_init(|| make_aggregate(Scheme::LamportPlus))
}

/// leanSig production-set proofs (`SGXAGS`, `SGXTHS`): an aggregate of
/// three signatures and a 2-of-4 threshold certificate of three signers,
/// disclosed, under the insecure test settings; keys with one genuine
/// leaf, so that no 2^32-epoch key is generated.
pub struct LeanProofs {
    pub aggregate: Vec<u8>,
    pub threshold: Vec<u8>,
}

/// The leanSig proofs.
pub fn lean_proofs() -> &'static LeanProofs {
    static CELL: OnceLock<LeanProofs> = OnceLock::new();
    CELL.get_or_init(|| {
        use rand::SeedableRng;
        use sigagg_xmss::{LeanSigProd, single_epoch_key_and_signature};
        use sigagg_xmss_agg::leansig::{aggregate, threshold};
        use sigagg_xmss_agg::threshold::{Disclosure, Signer, ThresholdStatement};
        let settings = sigagg_xmss_agg::Settings::INSECURE_TEST;
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        let message = [0x42; 32];
        let (keys, sigs): (Vec<_>, Vec<_>) = (0..4)
            .map(|_| single_epoch_key_and_signature::<LeanSigProd, _>(&mut rng, EPOCH, &message).unwrap())
            .unzip();
        let entries = keys[..3]
            .iter()
            .map(|pk| sigagg_xmss_agg::AggregateEntry { public_key: *pk, epoch: EPOCH, message })
            .collect();
        let statement = sigagg_xmss_agg::AggregateStatement::from_entries(entries).unwrap();
        let proof = aggregate::prove(&settings, &statement, &sigs[..3]).unwrap();
        aggregate::verify(&settings, &statement, &proof).unwrap();
        let tree = sigagg_xmss::group::GroupTree::new(keys).unwrap();
        let statement = ThresholdStatement::for_set(tree.key(), EPOCH, message, THRESHOLD).unwrap();
        let signers: Vec<Signer<LeanSigProd>> =
            [0u32, 2, 3].iter().map(|&i| Signer::from_tree(&tree, i, sigs[i as usize].clone()).unwrap()).collect();
        let certificate = threshold::prove(&settings, &statement, &signers, Disclosure::Signers).unwrap();
        threshold::verify(&settings, &statement, &certificate).unwrap();
        LeanProofs { aggregate: proof.to_bytes(), threshold: certificate.to_bytes() }
    })
}

/// A 2-of-4 threshold proof (three signers, disclosed) with its group.
pub struct Threshold {
    pub scheme: Scheme,
    pub group_key: Vec<u8>,
    pub paths: Vec<Vec<u8>>,
    pub message: Vec<u8>,
    pub epoch: Option<u32>,
    pub proof: Vec<u8>,
}

/// The threshold of every threshold proof here.
pub const THRESHOLD: u32 = 2;

impl Threshold {
    /// Verifies `proof` against this statement.
    pub fn verify(&self, proof: &[u8]) -> sigagg_bytes::Result<sigagg_bytes::Certificate> {
        let statement = ThresholdStatement {
            group_key: &self.group_key,
            threshold: THRESHOLD,
            message: &self.message,
            epoch: self.epoch,
        };
        sigagg_bytes::verify_threshold(self.scheme, TEST, &statement, proof)
    }
}

fn make_threshold(scheme: Scheme) -> Threshold {
    let message = vec![0x17; 32];
    let (pks, sigs) = signed(scheme, 4, |_| message.clone());
    let g = group(scheme, &refs(&pks)).unwrap();
    let epoch = (scheme == Scheme::Seed001).then_some(EPOCH);
    let signers: Vec<Signer<'_>> = [3usize, 0, 2]
        .iter()
        .map(|&i| Signer { public_key: &pks[i], signature: &sigs[i], path: &g.paths[i] })
        .collect();
    let statement = ThresholdStatement { group_key: &g.key, threshold: THRESHOLD, message: &message, epoch };
    let proof = prove_threshold(scheme, TEST, &statement, &signers, true).unwrap();
    let t = Threshold { scheme, group_key: g.key, paths: g.paths, message, epoch, proof };
    t.verify(&t.proof).unwrap();
    t
}

/// The XMSS (Seed001) threshold proof.
pub fn xmss_threshold() -> &'static Threshold {
    static CELL: OnceLock<Threshold> = OnceLock::new();
    CELL.get_or_init(|| make_threshold(Scheme::Seed001))
}

/// The Lamport+ (mined) threshold proof.
pub fn lamport_threshold() -> &'static Threshold {
    static CELL: OnceLock<Threshold> = OnceLock::new();
    CELL.get_or_init(|| make_threshold(Scheme::LamportPlusMined))
}

/// Succinct BLS certificates: a ceremony setup with one contribution, a
/// development setup, a weighted committee of four, and an accountable
/// and a counting certificate of three signers.
pub struct Cert {
    pub setup: Vec<u8>,
    pub development_setup: Vec<u8>,
    pub committee: Vec<u8>,
    pub committee_key: Vec<u8>,
    pub message: Vec<u8>,
    pub accountable: Vec<u8>,
    pub counting: Vec<u8>,
}

/// Signer and stake thresholds of the certificates here.
pub const CERT_THRESHOLD: u64 = 3;
pub const CERT_STAKE_THRESHOLD: u64 = 20;

impl Cert {
    /// Verifies `certificate` against the committee key.
    pub fn verify(&self, certificate: &[u8]) -> sigagg_bytes::Result<cert::CertificateInfo> {
        cert::verify_certificate(
            &self.committee_key,
            certificate,
            &self.message,
            CERT_THRESHOLD,
            Some(CERT_STAKE_THRESHOLD),
            false,
        )
    }
}

pub fn cert() -> &'static Cert {
    static CELL: OnceLock<Cert> = OnceLock::new();
    CELL.get_or_init(|| {
        let sks: Vec<[u8; 32]> = (1..=4u8).map(|i| *bls::keygen(Some(&[i; 32])).unwrap().0).collect();
        let pks: Vec<[u8; 48]> = sks.iter().map(|sk| bls::public_key(sk).unwrap()).collect();
        let pops: Vec<[u8; 96]> = sks.iter().map(|sk| bls::prove_possession(sk).unwrap()).collect();
        let (pks, pops) = (refs(&pks), refs(&pops));
        let setup = cert::contribute(&cert::ceremony_start(4).unwrap(), &[7; 64]).unwrap();
        let development_setup = cert::development_setup(4).unwrap();
        let files = cert::committee(&setup, &pks, &pops, Some(&[5, 6, 7, 8])).unwrap();
        let message = b"checkpoint".to_vec();
        let signing = [0u32, 2, 3];
        let sigs: Vec<[u8; 96]> = signing.iter().map(|&i| bls::sign(&sks[i as usize], &message).unwrap()).collect();
        let accountable = cert::certify(&setup, &files.committee, &message, &signing, &refs(&sigs), true).unwrap();
        let agg = bls::aggregate(&refs(&sigs)).unwrap();
        let counting = cert::certify_aggregate(&setup, &files.committee, &message, &[0b1101], &agg, false).unwrap();
        let c = Cert {
            setup,
            development_setup,
            committee: files.committee,
            committee_key: files.key,
            message,
            accountable,
            counting,
        };
        c.verify(&c.accountable).unwrap();
        c.verify(&c.counting).unwrap();
        c
    })
}

/// The Horn layout of every wire message here: two committees of 128
/// validators, subcommittees of 64.
pub fn horn_params() -> HornParams {
    HornParams::new(2, 128, 64).unwrap()
}

/// Real Horn messages of one slot, signed by independent keys.
///
/// Not `sigagg_horn::sim`: its keys are `a + i * b` (a benchmark shortcut),
/// so distinct signer sets or counts with the same sums share an aggregate
/// key and "verify"; only independent keys stand for the real property.
pub struct Horn {
    pub validators: HornValidators,
    pub message: Vec<u8>,
    /// Every subcommittee's aggregate (a fixed pattern of signers).
    pub aggregates: Vec<SubcommitteeAggregate>,
    /// Per committee, the collection of its two aggregates.
    pub collections: Vec<Collection>,
    /// Per committee, its collection with its first aggregate merged once
    /// more (counts 1 and 2).
    pub multiplicities: Vec<MultiplicityAggregate>,
}

pub fn horn() -> &'static Horn {
    static CELL: OnceLock<Horn> = OnceLock::new();
    CELL.get_or_init(|| {
        let params = horn_params();
        let n = params.committees() * params.committee_size();
        let sks: Vec<SecretKey> = (0..n as u32)
            .map(|i| SecretKey::from_key_material(&[&i.to_le_bytes()[..], &[0x48; 28]].concat()).unwrap())
            .collect();
        let registry = KeyRegistry::from_keys_unchecked(sks.iter().map(SecretKey::public_key).collect()).unwrap();
        let validators = HornValidators::contiguous(params, &registry).unwrap();
        let message = b"slot 7".to_vec();
        let (size, sub) = (params.committee_size(), params.subcommittee_size());
        let mut aggregates = Vec::new();
        for c in 0..params.committees() {
            for s in 0..params.subcommittees() {
                let mut bits = Bitfield::new(sub);
                let mut sigs = Vec::new();
                for j in (0..sub).filter(|j| (j * 7 + c * 3 + s) % 5 != 0) {
                    bits.set(j).unwrap();
                    sigs.push(sks[c * size + s * sub + j].sign(&message));
                }
                let signature = sigagg_bls::aggregate(&sigs).unwrap();
                aggregates.push(SubcommitteeAggregate { committee: c as u32, subcommittee: s as u32, bits, signature });
            }
        }
        let mut collections = Vec::new();
        let mut multiplicities = Vec::new();
        for c in 0..params.committees() as u32 {
            let mut collector = Collector::new(params, c).unwrap();
            let own: Vec<&SubcommitteeAggregate> = aggregates.iter().filter(|a| a.committee == c).collect();
            for a in &own {
                collector.offer_verified((*a).clone(), &validators, &message).unwrap();
            }
            let collection = collector.collection().unwrap();
            let mut m = MultiplicityAggregate::from_collection(&collection);
            m.merge_subcommittee_aggregate(&params, own[0]).unwrap();
            collections.push(collection);
            multiplicities.push(m);
        }
        let h = Horn { validators, message, aggregates, collections, multiplicities };
        for a in &h.aggregates {
            a.verify(&h.validators, &h.message).unwrap();
        }
        for c in &h.collections {
            verify_collection(&h.validators, &h.message, c).unwrap();
        }
        for m in &h.multiplicities {
            verify_multiplicity_aggregate(&h.validators, &h.message, m).unwrap();
        }
        h
    })
}
