//! leanSpec's aggregation API on files (`sigagg_bytes::lean`):
//! `sigagg aggregate --scheme leansig-prod` writes leanSpec's SSZ container
//! `AggregatedSignatureProof` (participants bitlist and proof), and
//! `sigagg verify --scheme leansig-prod --proof` checks one against the
//! participants' keys, one message and one slot (`--epoch`).
//!
//! Keys and signatures are leanSig's SSZ (what `sigagg keygen` and `sign`
//! write for leansig-prod); settings default to `whir-skip`, leanSpec's
//! default here.

use std::time::Instant;

use serde_json::json;
use sigagg_bytes::lean;

use crate::args;
use crate::io::{self, CliError, CliResult};
use crate::proofs::{AggregateArgs, ChosenSettings, invalid};
use crate::verify::VerifyArgs;

/// The one slot of a leanSpec aggregate.
fn slot(epochs: &[u32]) -> Result<u32, CliError> {
    match epochs {
        [slot] => Ok(*slot),
        _ => Err(CliError::usage("leansig-prod: give exactly one --epoch, the slot every signer signed at")),
    }
}

/// `sigagg aggregate --scheme leansig-prod`.
pub fn aggregate(args: AggregateArgs) -> CliResult {
    let settings = args::parse_named(args.settings.as_deref().unwrap_or(lean::DEFAULT_SETTINGS.name()))?;
    let slot = slot(&args.epochs)?;
    let message = args.messages.read_one(true)?;
    if args.sigs.len() != args.pks.len() {
        return Err(CliError::usage(format!(
            "give one --sig per --pk: {} --pk, {} --sig",
            args.pks.len(),
            args.sigs.len()
        )));
    }
    let participants = match args.participants.as_slice() {
        [] => None,
        indices if indices.len() == args.pks.len() => Some(lean::participants(indices).map_err(CliError::usage)?),
        indices => {
            return Err(CliError::usage(format!(
                "give one --participant per --pk: {} --pk, {} --participant",
                args.pks.len(),
                indices.len()
            )));
        }
    };
    let (pks, sigs) = (args::read_files(&args.pks)?, args::read_files(&args.sigs)?);
    let t = Instant::now();
    let container =
        lean::aggregate(settings, participants.as_deref(), &args::slices(&pks), &args::slices(&sigs), &message, slot)
            .map_err(CliError::rejected)?;
    io::write_bytes(&args.out, &container)?;
    eprintln!(
        "aggregated {} leansig-prod signatures in {:.2} s ({} bytes, leanSpec's AggregatedSignatureProof)",
        pks.len(),
        t.elapsed().as_secs_f64(),
        container.len()
    );
    Ok(())
}

/// `sigagg verify --scheme leansig-prod --proof`: verifies the container
/// against the command line's keys (the participants', in bit order),
/// message and slot, under the settings [`ChosenSettings`] picks, and
/// prints one JSON object. Rejected proofs are `CliError::rejected`.
pub fn verify_proof(args: &VerifyArgs) -> CliResult {
    if args.group.is_some() || args.threshold.is_some() {
        return Err(CliError::usage(
            "leansig-prod proofs are aggregates: give --pk, --epoch and --message (no --group)",
        ));
    }
    let proof_path = args.proof.as_deref().ok_or_else(|| CliError::usage("give --proof"))?;
    let slot = slot(&args.epochs)?;
    let message = args.messages.read_one(true)?;
    let container = io::read_bytes(proof_path)?;
    let info = lean::inspect(&container).map_err(invalid)?;
    let chosen = ChosenSettings::choose(args, info.settings)?;
    let pks = args::read_files(&args.pks)?;
    lean::verify(chosen.named, &container, &args::slices(&pks), &message, slot).map_err(invalid)?;
    let level = lean::security(chosen.named, pks.len());
    let security = chosen.accept((level.proven_bits, level.conjectured_bits))?;
    io::print_json(&json!({
        "valid": true,
        "kind": "aggregate",
        "scheme": sigagg_bytes::Scheme::LeanSigProd.name(),
        "container": "AggregatedSignatureProof",
        "count": pks.len(),
        "participants": info.participants,
        "slot": slot,
        "settings": chosen.named.name(),
        "proven_bits": security.0,
        "conjectured_bits": security.1,
    }));
    Ok(())
}
