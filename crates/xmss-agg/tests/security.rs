//! The stated security levels: every shipped setting reaches its promised
//! proven level (p3-security, grinding counted) at every statement size it
//! accepts, for aggregation and threshold proofs alike.

use sigagg_xmss_agg::security::security_level;
use sigagg_xmss_agg::threshold;
use sigagg_xmss_agg::{Settings, max_signatures};

fn sizes(settings: &Settings) -> Vec<usize> {
    vec![1, 3, 1024, max_signatures(settings)]
}

#[test]
fn fast_and_compact_reach_100_proven_bits() {
    for settings in [Settings::FAST, Settings::COMPACT] {
        for n in sizes(&settings) {
            let level = security_level(&settings, n);
            assert!(level.proven_bits >= 100.0, "{settings:?} at {n}: {level:?}");
            assert!(level.conjectured_bits >= level.proven_bits, "{level:?}");
            let level = threshold::security_level(&settings, n, (n as u32).max(2) * 3);
            assert!(level.proven_bits >= 100.0, "threshold {settings:?} at {n}: {level:?}");
        }
    }
}

#[test]
fn the_test_setting_is_insecure_and_says_so() {
    let level = security_level(&Settings::INSECURE_TEST, 4);
    assert!(level.proven_bits < 80.0, "{level:?}");
}

/// The multilinear settings state at least 120 proven bits (WHIR in the
/// Johnson-bound regime; `p3-multi-stark`'s composed report, or ours for
/// `whir-skip`: AIR, buses, opening and collision terms) at every size they
/// accept, for both proof kinds; their insecure test counterparts say they
/// are insecure.
#[test]
fn whir_reaches_120_proven_bits() {
    for settings in [Settings::WHIR, Settings::WHIR_COMPACT, Settings::WHIR_SKIP] {
        for n in sizes(&settings) {
            let level = security_level(&settings, n);
            assert!(level.proven_bits >= 120.0, "{settings:?} aggregate at {n}: {level:?}");
            let level = threshold::security_level(&settings, n, (n as u32).max(2) * 3);
            assert!(level.proven_bits >= 120.0, "{settings:?} threshold at {n}: {level:?}");
        }
    }
    for insecure in [Settings::INSECURE_TEST_WHIR, Settings::INSECURE_TEST_SKIP] {
        let level = security_level(&insecure, 4);
        assert!(level.proven_bits > 0.0 && level.proven_bits < 80.0, "{level:?}");
    }
}

/// Every secure name of the registry keeps its promise for Seed001: the
/// smallest and the largest statement it accepts, aggregate and threshold,
/// state at least the name's floor.
#[test]
fn every_secure_name_reaches_its_floor() {
    use sigagg_xmss_agg::{Named, settings};
    for named in Named::ALL.into_iter().filter(|n| !n.is_insecure()) {
        let s = settings(named);
        let floor = named.floor_bits() as f64;
        for n in [1, max_signatures(&s)] {
            let level = security_level(&s, n);
            assert!(level.proven_bits >= floor, "{named} aggregate at {n}: {level:?}");
            let level = threshold::security_level(&s, n, (n as u32).max(2) * 3);
            assert!(level.proven_bits >= floor, "{named} threshold at {n}: {level:?}");
        }
    }
}

/// LeanSigProd's tables: every secure name reaches its floor at the
/// smallest and the largest aggregate it accepts (the tables differ from
/// Seed001's, so the level is computed from them).
#[test]
fn lean_sig_prod_names_reach_their_floors() {
    use sigagg_xmss::LeanSigProd;
    use sigagg_xmss_agg::leansig::aggregate::{max_signatures, security_level};
    use sigagg_xmss_agg::{Named, settings};
    for named in Named::ALL.into_iter().filter(|n| !n.is_insecure()) {
        let s = settings(named);
        for n in [1, max_signatures::<LeanSigProd>(&s)] {
            let level = security_level::<LeanSigProd>(&s, n);
            assert!(level.proven_bits >= named.floor_bits() as f64, "{named:?} at {n}: {level:?}");
            // Threshold proofs (one more table), in a group of 2^29 and of n.
            for size in [n as u32, 1 << 29] {
                let level = sigagg_xmss_agg::leansig::threshold::security_level::<LeanSigProd>(&s, n, size);
                assert!(level.proven_bits >= named.floor_bits() as f64, "{named:?} threshold {n} of {size}: {level:?}");
            }
        }
    }
}
