//! BLS sub-commands: `sigagg bls ...`, `sigagg bench horn`, `sigagg bench msp`.

use clap::{Args, Subcommand};

use crate::io::{CliError, CliResult};

#[derive(Subcommand)]
pub enum BlsCommand {
    /// Not yet available.
    Keygen,
}

#[derive(Args)]
pub struct HornBenchArgs {}

#[derive(Args)]
pub struct MspBenchArgs {}

pub fn run(_cmd: BlsCommand) -> CliResult {
    Err(CliError::usage("BLS commands are not available yet"))
}

pub fn bench_horn(_args: HornBenchArgs) -> CliResult {
    Err(CliError::usage("bench horn is not available yet"))
}

pub fn bench_msp(_args: MspBenchArgs) -> CliResult {
    Err(CliError::usage("bench msp is not available yet"))
}
