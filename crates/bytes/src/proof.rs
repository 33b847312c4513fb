//! What a proof says about itself, and what its settings are worth: the
//! questions a verifier asks before it trusts an aggregate or threshold
//! proof whose settings it did not choose.
//!
//! # Why
//!
//! A proof carries the settings it was made with, and a verifier must use
//! the same ones. A verifier that takes them from the proof (the CLI's
//! `verify --proof` without `--settings`) has to know which named settings
//! those are and how many bits of security they give for this statement's
//! shape, to refuse a proof made with weak settings. [`inspect`] and
//! [`security`] answer both, for every scheme with proofs, so that no
//! caller keeps its own table of settings or security formulas.

use crate::error::{Error, ErrorKind, Result};
use crate::input::decode;
use crate::scheme::{ProofSettings, Scheme, with_provable};
use sigagg_lamport::ParameterSet;

/// What a proof answers: the aggregators' shared kind.
pub use sigagg_xmss_agg::ProofKind;

/// What a proof's encoding says about it, before any verification: none of
/// it is trusted until the proof verifies under [`ProofInfo::settings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofInfo {
    /// Aggregate or threshold.
    pub kind: ProofKind,
    /// Aggregate: the number of entries. Threshold: the number of distinct
    /// signers the proof claims.
    pub count: u32,
    /// The named settings the proof was made with; `None` when no name
    /// gives them (a verifier should then refuse it or name settings
    /// itself).
    pub settings: Option<ProofSettings>,
}

/// Decodes `proof` (of `scheme`) far enough to say what it is. A proof of
/// another scheme, or bytes that are no proof, are an
/// [`ErrorKind::Decode`] error.
pub fn inspect(scheme: Scheme, proof: &[u8]) -> Result<ProofInfo> {
    if scheme == Scheme::LeanSigProd {
        // A bare proof (a threshold certificate's; aggregates travel in
        // leanSpec's container, `crate::lean::inspect`).
        let p = decode(proof, sigagg_xmss_agg::Proof::from_bytes)?;
        if p.set != <sigagg_xmss::LeanSigProd as sigagg_xmss::ParameterSet>::ID {
            return Err(Error::new(ErrorKind::Decode, "not a leansig-prod proof"));
        }
        return Ok(ProofInfo { kind: p.kind, count: p.count, settings: sigagg_xmss_agg::named(&p.settings) });
    }
    with_provable!(scheme, "proof inspection", seed001 => {
        let p = decode(proof, sigagg_xmss_agg::Proof::from_bytes)?;
        Ok(ProofInfo { kind: p.kind, count: p.count, settings: sigagg_xmss_agg::named(&p.settings) })
    }, S => lamport_info::<S>(proof))
}

/// [`inspect`] for a Lamport+ set.
fn lamport_info<S: ParameterSet>(proof: &[u8]) -> Result<ProofInfo> {
    let p = decode(proof, sigagg_lamport_agg::Proof::from_bytes)?;
    if p.set_id != S::ID {
        return Err(Error::new(ErrorKind::Decode, format!("not a {} proof", S::NAME)));
    }
    Ok(ProofInfo { kind: p.kind, count: p.count, settings: sigagg_lamport_agg::named(&p.settings) })
}

/// The shape of a statement, which the security of a proof depends on
/// (the traces grow with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An aggregate of `signatures` entries.
    Aggregate {
        /// Number of entries.
        signatures: usize,
    },
    /// A threshold proof of `signers` members of a group of `group_size`.
    Threshold {
        /// Number of distinct signers proven.
        signers: usize,
        /// Members of the group.
        group_size: u32,
    },
}

/// Bits of security of a proof system's settings for one statement shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Security {
    /// Proven bits (the soundness bounds the aggregator can prove).
    pub proven_bits: f64,
    /// Conjectured bits (under the usual proximity-gap conjectures).
    pub conjectured_bits: f64,
}

impl From<&sigagg_xmss_agg::security::SecurityLevel> for Security {
    fn from(level: &sigagg_xmss_agg::security::SecurityLevel) -> Self {
        Security { proven_bits: level.proven_bits, conjectured_bits: level.conjectured_bits }
    }
}

/// The security of proofs of `scheme` made with `settings` for statements
/// of `shape`, as the scheme's aggregator computes it.
pub fn security(scheme: Scheme, settings: ProofSettings, shape: Shape) -> Result<Security> {
    if scheme == Scheme::LeanSigProd {
        use sigagg_xmss::LeanSigProd;
        use sigagg_xmss_agg::leansig::{aggregate, threshold};
        let s = sigagg_xmss_agg::settings(settings);
        let level = match shape {
            Shape::Aggregate { signatures } => aggregate::security_level::<LeanSigProd>(&s, signatures),
            Shape::Threshold { signers, group_size } => {
                threshold::security_level::<LeanSigProd>(&s, signers, group_size)
            }
        };
        return Ok(Security::from(&level));
    }
    with_provable!(scheme, "proof security", seed001 => {
        let s = sigagg_xmss_agg::settings(settings);
        let level = match shape {
            Shape::Aggregate { signatures } => sigagg_xmss_agg::security::security_level(&s, signatures),
            Shape::Threshold { signers, group_size } => {
                sigagg_xmss_agg::threshold::security_level(&s, signers, group_size)
            }
        };
        Ok(Security::from(&level))
    }, S => {
        use sigagg_lamport_agg::security::{ProofShape, security_level};
        let shape = match shape {
            Shape::Aggregate { signatures } => ProofShape::Aggregate { signatures },
            Shape::Threshold { signers, group_size } => ProofShape::Threshold { signers, group_size },
        };
        let level = security_level(&sigagg_lamport_agg::settings(settings), S::NUM_SUBKEYS, shape);
        Ok(Security::from(&level))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AggregateStatement, aggregate, lamport};

    #[test]
    fn inspect_names_kind_count_and_settings() {
        let scheme = Scheme::LamportPlus;
        let pairs: Vec<_> = (0..2u8).map(|i| lamport::keygen(scheme, Some(&[i + 1; 32])).unwrap()).collect();
        let messages: [&[u8]; 2] = [b"m0", b"m1"];
        let sigs: Vec<Vec<u8>> = pairs.iter().zip(messages).map(|((_, sk), m)| sk.sign(m).unwrap()).collect();
        let pks: Vec<&[u8]> = pairs.iter().map(|(pk, _)| &pk[..]).collect();
        let sigs: Vec<&[u8]> = sigs.iter().map(|s| &s[..]).collect();
        let statement = AggregateStatement { public_keys: &pks, messages: &messages, epochs: &[] };
        let proof = aggregate(scheme, ProofSettings::Test, &statement, &sigs).unwrap();
        let info = inspect(scheme, &proof).unwrap();
        assert_eq!(info, ProofInfo { kind: ProofKind::Aggregate, count: 2, settings: Some(ProofSettings::Test) });
        assert_eq!(inspect(Scheme::LamportPlusMined, &proof).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(inspect(Scheme::Seed001, &proof).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(inspect(scheme, &proof[..10]).unwrap_err().kind(), ErrorKind::Decode);
        assert_eq!(inspect(Scheme::Test, &proof).unwrap_err().kind(), ErrorKind::Argument);
    }

    #[test]
    fn named_settings_reach_their_floor_and_test_settings_do_not() {
        for scheme in [Scheme::Seed001, Scheme::LamportPlus] {
            let shape = Shape::Aggregate { signatures: 1024 };
            let fast = security(scheme, ProofSettings::Fast, shape).unwrap();
            assert!(fast.proven_bits >= 100.0 && fast.conjectured_bits >= fast.proven_bits, "{scheme:?} {fast:?}");
            let test = security(scheme, ProofSettings::Test, Shape::Threshold { signers: 3, group_size: 4 }).unwrap();
            assert!(test.proven_bits < 80.0, "{scheme:?} {test:?}");
        }
        assert_eq!(
            security(Scheme::Test, ProofSettings::Fast, Shape::Aggregate { signatures: 1 }).unwrap_err().kind(),
            ErrorKind::Argument
        );
    }
}
