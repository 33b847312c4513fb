//! `sigagg`: the command-line front end.
//!
//! Every sub-command is a thin layer over a library crate: it reads files,
//! calls the library, and writes files or one JSON object. Long jobs show a
//! progress bar on standard error so that standard output stays parseable.

/// The `after_help` text of a command: one `sigagg ...` command line per
/// argument, shown at the end of its `--help`. Why a macro: every command
/// carries one and a test parses every line, so examples cannot go stale.
/// Arguments are plain words (no quotes, no shell variables): each line
/// runs as printed.
macro_rules! example {
    ($($line:literal),+ $(,)?) => {
        concat!("Example:", $("\n  sigagg ", $line),+)
    };
}

mod agg;
mod bls;
mod io;
mod lamport;
mod verify;
mod xmss;
mod xmss_agg;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "sigagg", version, about = "Aggregate thousands of signatures into one small object")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the main job end to end on built-in defaults.
    Demo(xmss::DemoArgs),
    /// Generate a hash-based key pair.
    Keygen(xmss::KeygenArgs),
    /// Sign a message with a hash-based secret key.
    Sign(xmss::SignArgs),
    /// Verify a hash-based signature (--sig) or an aggregate / threshold proof (--proof).
    Verify(verify::VerifyArgs),
    /// Commit a validator set: Merkle root and size of member keys, and each member's path.
    GroupKey(agg::GroupKeyArgs),
    /// Prove that N signatures over N messages are valid (one STARK proof).
    Aggregate(agg::AggregateArgs),
    /// Prove that at least t distinct members of a group signed one message.
    Threshold(agg::ThresholdArgs),
    /// BLS12-381 signatures, Horn, ATMS and MSP.B.
    #[command(subcommand)]
    Bls(bls::BlsCommand),
    /// Lamport+ one-time signatures (seed 004).
    #[command(subcommand)]
    Lamport(lamport::LamportCommand),
    /// Benchmarks; each prints one JSON object on standard output.
    #[command(subcommand)]
    Bench(BenchCommand),
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Key generation, signing and verification of many XMSS keys.
    Xmss(xmss::BenchArgs),
    /// One STARK proof for N Seed001 XMSS signatures.
    XmssAgg(xmss_agg::BenchArgs),
    /// One STARK proof for N Lamport+ signatures.
    LamportAgg(agg::AggBenchArgs),
    /// One t-of-n threshold proof (Lamport+ or Seed001).
    Threshold(agg::ThresholdBenchArgs),
    /// A full Horn round (seed 003).
    Horn(bls::HornBenchArgs),
    /// MSP.B aggregation, per-point scalar multiplication versus MSM.
    Msp(bls::MspBenchArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => xmss::demo(args),
        Command::Keygen(args) => xmss::keygen(args),
        Command::Sign(args) => xmss::sign(args),
        Command::Verify(args) => verify::verify(args),
        Command::GroupKey(args) => agg::group_key(args),
        Command::Aggregate(args) => agg::aggregate(args),
        Command::Threshold(args) => agg::threshold(args),
        Command::Bls(cmd) => bls::run(cmd),
        Command::Lamport(cmd) => lamport::run(cmd),
        Command::Bench(BenchCommand::Xmss(args)) => xmss::bench(args),
        Command::Bench(BenchCommand::XmssAgg(args)) => xmss_agg::bench(args),
        Command::Bench(BenchCommand::LamportAgg(args)) => agg::bench_aggregate(args),
        Command::Bench(BenchCommand::Threshold(args)) => agg::bench_threshold(args),
        Command::Bench(BenchCommand::Horn(args)) => bls::bench_horn(args),
        Command::Bench(BenchCommand::Msp(args)) => bls::bench_msp(args),
    };
    if let Err(err) = result {
        eprintln!("error: {err}");
        std::process::exit(io::exit_code(&err));
    }
}
