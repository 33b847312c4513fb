//! Scheme and proof-settings names, shared by every binding.
//!
//! The bindings choose a parameter set at run time (a string in Python, an
//! integer in C); the scheme crates choose it at compile time (a type
//! parameter). The `with_*` macros here bridge the two: each call site
//! names the generic function once and the macro instantiates it for every
//! set the operation supports.

use crate::error::{Error, Result};

/// Every signature scheme the byte-level API knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// XMSS, hash-sig's `SIGTargetSumLifetime20W2NoOff` (seed 001):
    /// signatures, aggregate and threshold proofs.
    Seed001,
    /// XMSS, leanSig's production set (lifetime 2^32): signatures.
    LeanSigProd,
    /// XMSS, leanSig's lifetime-2^8 set, **insecure**, for tests: signatures.
    Test,
    /// Lamport+ one-time signatures (seed 004), aggregate and threshold proofs.
    LamportPlus,
    /// Lamport+ with 16 mined zero bits: shorter signatures and proofs.
    LamportPlusMined,
}

impl Scheme {
    /// Every scheme.
    pub const ALL: [Scheme; 5] =
        [Scheme::Seed001, Scheme::LeanSigProd, Scheme::Test, Scheme::LamportPlus, Scheme::LamportPlusMined];

    /// The scheme's name, as the CLI's `--scheme` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Seed001 => "seed001",
            Scheme::LeanSigProd => "leansig-prod",
            Scheme::Test => "test",
            Scheme::LamportPlus => "lamport-plus",
            Scheme::LamportPlusMined => "lamport-plus-mined",
        }
    }

    /// The scheme called `name`.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|s| s.name()).collect();
            Error::argument(format!("unknown scheme {name:?}: use one of {}", names.join(", ")))
        })
    }

    /// An [`ErrorKind::Argument`](crate::ErrorKind::Argument) error: this
    /// scheme does not offer `operation`.
    pub(crate) fn unsupported(self, operation: &str, supported: &str) -> Error {
        Error::argument(format!("{operation} is not available for {}: use {supported}", self.name()))
    }
}

/// The named proof-system settings of the aggregate and threshold proofs:
/// the prover's one registry of names ([`sigagg_xmss_agg::Named`]), so that
/// a name means here what it means on the command line and in each
/// aggregator (backend, rate and proven floor, the same for every scheme).
/// Each aggregator's `settings(named)` gives its parameters.
pub use sigagg_xmss_agg::Named as ProofSettings;

/// Runs `$body` with `$S` bound to the XMSS parameter set of `$scheme`, or
/// returns an argument error naming `$op` for any other scheme.
macro_rules! with_xmss {
    ($scheme:expr, $op:expr, $S:ident => $body:expr) => {
        match $scheme {
            $crate::Scheme::Seed001 => {
                type $S = sigagg_xmss::Seed001;
                $body
            }
            $crate::Scheme::LeanSigProd => {
                type $S = sigagg_xmss::LeanSigProd;
                $body
            }
            $crate::Scheme::Test => {
                type $S = sigagg_xmss::Test;
                $body
            }
            other => Err(other.unsupported($op, "seed001, leansig-prod or test")),
        }
    };
}

/// Runs `$body` with `$S` bound to the Lamport+ parameter set of
/// `$scheme`, or returns an argument error naming `$op` (and, in the
/// `@supported` form, the schemes that offer it).
macro_rules! with_lamport {
    ($scheme:expr, $op:expr, $S:ident => $body:expr) => {
        $crate::scheme::with_lamport!(@supported "lamport-plus or lamport-plus-mined", $scheme, $op, $S => $body)
    };
    (@supported $supported:expr, $scheme:expr, $op:expr, $S:ident => $body:expr) => {
        match $scheme {
            $crate::Scheme::LamportPlus => {
                type $S = sigagg_lamport::LamportPlus;
                $body
            }
            $crate::Scheme::LamportPlusMined => {
                type $S = sigagg_lamport::LamportPlusMined;
                $body
            }
            other => Err(other.unsupported($op, $supported)),
        }
    };
}

/// Runs `$xmss` for Seed001 or `$body` with `$S` bound to the Lamport+
/// set of `$scheme` (the schemes with aggregate and threshold proofs).
macro_rules! with_provable {
    ($scheme:expr, $op:expr, seed001 => $xmss:expr, $S:ident => $body:expr) => {
        match $scheme {
            $crate::Scheme::Seed001 => $xmss,
            other => $crate::scheme::with_lamport!(@supported "seed001, lamport-plus or lamport-plus-mined", other, $op, $S => $body),
        }
    };
}

/// Runs `$body` with `$S` bound to the parameter set of `$scheme` whose
/// aggregates merge (Seed001, LeanSigProd), or returns an argument error.
macro_rules! with_mergeable {
    ($scheme:expr, $S:ident => $body:expr) => {
        match $scheme {
            $crate::Scheme::Seed001 => {
                type $S = sigagg_xmss::Seed001;
                $body
            }
            $crate::Scheme::LeanSigProd => {
                type $S = sigagg_xmss::LeanSigProd;
                $body
            }
            other => Err(other.unsupported("merging", "seed001 or leansig-prod")),
        }
    };
}

pub(crate) use {with_lamport, with_mergeable, with_provable, with_xmss};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_argument_errors() {
        for s in Scheme::ALL {
            assert_eq!(Scheme::from_name(s.name()), Ok(s));
        }
        for s in ProofSettings::ALL {
            assert_eq!(ProofSettings::from_name(s.name()), Ok(s));
        }
        let unknown = crate::Error::from(ProofSettings::from_name("fastest").unwrap_err());
        assert_eq!(unknown.kind(), crate::ErrorKind::Argument);
        assert!(unknown.message().contains("test-whir-skip"), "{unknown}");
        let e = Scheme::from_name("seed-001").unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Argument);
        assert!(e.message().contains("lamport-plus-mined"), "{e}");
        assert!(ProofSettings::from_name("FAST").is_err());
    }
}
