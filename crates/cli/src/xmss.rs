//! Hash-based signature sub-commands: keygen, sign, verify, demo, bench xmss.

use clap::Args;

use crate::io::{CliError, CliResult};

#[derive(Args)]
pub struct DemoArgs {}
#[derive(Args)]
pub struct KeygenArgs {}
#[derive(Args)]
pub struct SignArgs {}
#[derive(Args)]
pub struct VerifyArgs {}
#[derive(Args)]
pub struct BenchArgs {}

pub fn demo(_a: DemoArgs) -> CliResult { Err(CliError::usage("todo")) }
pub fn keygen(_a: KeygenArgs) -> CliResult { Err(CliError::usage("todo")) }
pub fn sign(_a: SignArgs) -> CliResult { Err(CliError::usage("todo")) }
pub fn verify(_a: VerifyArgs) -> CliResult { Err(CliError::usage("todo")) }
pub fn bench(_a: BenchArgs) -> CliResult { Err(CliError::usage("todo")) }
