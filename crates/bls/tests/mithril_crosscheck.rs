//! Cross-checks MSP.B against `mithril-stm` (0.9.5, the newest release whose
//! public BLS types build without its SNARK stack; the weighting code is
//! unchanged up to 0.13.0).
//!
//! Same keys and messages on both sides; the aggregate `(ivk, mu)` must be
//! byte-identical, and each side must accept the other's results.

use mithril_stm::{BlsSignature, BlsSigningKey, BlsVerificationKey};
use sigagg_bls::msp::{
    self, DST_MITHRIL, MspSignature, MspSigningKey, MspVerificationKey, aggregate, aggregate_per_point,
    verify_aggregate_with_dst,
};

fn ikm(i: usize) -> [u8; 32] {
    let mut b = [0x5au8; 32];
    b[..8].copy_from_slice(&(i as u64).to_be_bytes());
    b
}

#[test]
fn msp_aggregate_matches_mithril_byte_for_byte() {
    let msg = b"mithril checkpoint: epoch 42, block hash 0123456789abcdef";
    for n in [1usize, 2, 3, 7, 64, 257] {
        let m_sks: Vec<BlsSigningKey> =
            (0..n).map(|i| BlsSigningKey(blst::min_sig::SecretKey::key_gen(&ikm(i), &[]).unwrap())).collect();
        let m_vks: Vec<BlsVerificationKey> = m_sks.iter().map(BlsVerificationKey::from).collect();
        let m_sigs: Vec<BlsSignature> = m_sks.iter().map(|sk| sk.sign(msg)).collect();
        let (m_ivk, m_mu) = BlsSignature::aggregate(&m_vks, &m_sigs).unwrap();
        BlsSignature::verify_aggregate(msg, &m_vks, &m_sigs).unwrap();

        // Our keys and signatures from the same key material are the same bytes.
        let sks: Vec<MspSigningKey> = (0..n).map(|i| MspSigningKey::from_key_material(&ikm(i)).unwrap()).collect();
        let vks: Vec<MspVerificationKey> = sks.iter().map(MspSigningKey::verification_key).collect();
        let sigs: Vec<MspSignature> = sks.iter().map(|sk| sk.sign_with_dst(msg, DST_MITHRIL)).collect();
        for i in 0..n {
            assert_eq!(vks[i].to_bytes(), m_vks[i].to_bytes(), "vk {i}");
            assert_eq!(sigs[i].to_bytes(), m_sigs[i].to_bytes(), "sig {i}");
        }

        // Aggregation over Mithril's bytes equals Mithril's aggregate, both ways of computing it.
        let vks: Vec<MspVerificationKey> =
            m_vks.iter().map(|v| MspVerificationKey::from_bytes(&v.to_bytes()).unwrap()).collect();
        let sigs: Vec<MspSignature> = m_sigs.iter().map(|s| MspSignature::from_bytes(&s.to_bytes()).unwrap()).collect();
        let (ivk, mu) = aggregate(&vks, &sigs).unwrap();
        assert_eq!(ivk.to_bytes(), m_ivk.to_bytes(), "ivk, n = {n}");
        assert_eq!(mu.to_bytes(), m_mu.to_bytes(), "mu, n = {n}");
        let (ivk2, mu2) = aggregate_per_point(&vks, &sigs).unwrap();
        assert_eq!((ivk2.to_bytes(), mu2.to_bytes()), (ivk.to_bytes(), mu.to_bytes()));

        // Each side verifies the other's aggregate.
        verify_aggregate_with_dst(msg, DST_MITHRIL, &vks, &sigs).unwrap();
        msp::verify_aggregated(msg, DST_MITHRIL, &ivk, &mu).unwrap();
        BlsSignature::from_bytes(&mu.to_bytes())
            .unwrap()
            .verify(msg, &BlsVerificationKey::from_bytes(&ivk.to_bytes()).unwrap())
            .unwrap();
        if n > 1 {
            // A reordering changes the weights on both sides identically.
            let (mut rv, mut rs) = (m_vks.clone(), m_sigs.clone());
            rv.reverse();
            rs.reverse();
            let (m_ivk_r, m_mu_r) = BlsSignature::aggregate(&rv, &rs).unwrap();
            let (mut ov, mut os) = (vks.clone(), sigs.clone());
            ov.reverse();
            os.reverse();
            let (ivk_r, mu_r) = aggregate(&ov, &os).unwrap();
            assert_eq!((ivk_r.to_bytes(), mu_r.to_bytes()), (m_ivk_r.to_bytes(), m_mu_r.to_bytes()));
            assert_ne!(mu_r.to_bytes(), mu.to_bytes());
        }
    }
}

#[test]
fn tampered_aggregate_fails_on_both_sides() {
    let msg = b"m";
    let m_sks: Vec<BlsSigningKey> =
        (0..4).map(|i| BlsSigningKey(blst::min_sig::SecretKey::key_gen(&ikm(i), &[]).unwrap())).collect();
    let m_vks: Vec<BlsVerificationKey> = m_sks.iter().map(BlsVerificationKey::from).collect();
    let mut m_sigs: Vec<BlsSignature> = m_sks.iter().map(|sk| sk.sign(msg)).collect();
    m_sigs[2] = m_sks[2].sign(b"other message");
    assert!(BlsSignature::verify_aggregate(msg, &m_vks, &m_sigs).is_err());
    let vks: Vec<MspVerificationKey> =
        m_vks.iter().map(|v| MspVerificationKey::from_bytes(&v.to_bytes()).unwrap()).collect();
    let sigs: Vec<MspSignature> = m_sigs.iter().map(|s| MspSignature::from_bytes(&s.to_bytes()).unwrap()).collect();
    assert!(verify_aggregate_with_dst(msg, DST_MITHRIL, &vks, &sigs).is_err());
}
