//! Lamport+ sub-commands: `sigagg lamport ...`.

use clap::Subcommand;

use crate::io::{CliError, CliResult};

#[derive(Subcommand)]
pub enum LamportCommand {
    /// Not yet available.
    Keygen,
}

pub fn run(_cmd: LamportCommand) -> CliResult {
    Err(CliError::usage("Lamport+ commands are not available yet"))
}
