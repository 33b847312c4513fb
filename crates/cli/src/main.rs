//! `sigagg`: the command-line front end.
//!
//! Every sub-command is a thin layer over a library crate: it reads files,
//! calls the library, and writes files or one JSON object. Long jobs show a
//! progress bar on standard error so that standard output stays parseable.

#![forbid(unsafe_code)]

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

mod args;
mod bench;
mod bls;
mod cert;
mod demo;
mod io;
mod lamport;
mod lean;
mod merge;
mod mithril;
mod proofs;
mod verify;
mod xmss;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "sigagg", version, about = "Aggregate thousands of signatures into one small object")]
#[command(after_help = example!(
    "demo",
    "keygen --count 3 --out k",
    "group-key --pk k-0.pk --pk k-1.pk --pk k-2.pk --out g.key --paths m",
    "sign --sk k-0.sk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --out s-0.sig",
    "sign --sk k-2.sk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --out s-2.sig",
    "threshold --group g.key --threshold 2 --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --pk k-0.pk --sig s-0.sig --path m-0.path --pk k-2.pk --sig s-2.sig --path m-2.path --out t.proof",
    "verify --proof t.proof --group g.key --threshold 2 --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
))]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the main job end to end: N signers, one aggregate proof, one t-of-n certificate, a table.
    ///
    /// On built-in defaults: N Seed001 signers sign one message; their signatures become one
    /// STARK aggregate proof and one certificate that ceil(2N/3) members of their committed
    /// group signed, each written to a file, read back and verified. Prints what went in and
    /// came out, times, security bits and peak memory (--json: one JSON object).
    #[command(after_help = example!("demo", "demo --n 256 --out-dir proofs --json"))]
    Demo(demo::DemoArgs),
    /// Generate a hash-based key pair.
    #[command(after_help = example!("keygen --count 3 --out k"))]
    Keygen(xmss::KeygenArgs),
    /// Sign a message with a hash-based secret key.
    #[command(after_help = example!("sign --sk k-0.sk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --out s-0.sig"))]
    Sign(xmss::SignArgs),
    /// Verify a hash-based signature (--sig) or an aggregate / threshold proof (--proof).
    #[command(after_help = example!(
        "verify --pk k-0.pk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --sig s-0.sig",
        "verify --proof a.proof --pk k-0.pk --pk k-1.pk --pk k-2.pk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "verify --proof t.proof --group g.key --threshold 2 --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    ))]
    Verify(verify::VerifyArgs),
    /// Commit a validator set: Merkle root and size of member keys, and each member's path.
    #[command(after_help = example!("group-key --pk k-0.pk --pk k-1.pk --pk k-2.pk --out g.key --paths m"))]
    GroupKey(proofs::GroupKeyArgs),
    /// Prove that N signatures are valid, on their own messages or one shared message (one STARK proof).
    #[command(after_help = example!(
        "aggregate --pk k-0.pk --sig s-0.sig --pk k-1.pk --sig s-1.sig --pk k-2.pk --sig s-2.sig --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --out a.proof",
    ))]
    Aggregate(proofs::AggregateArgs),
    /// Prove that at least t distinct members of a group signed one message.
    #[command(after_help = example!(
        "threshold --group g.key --threshold 2 --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --pk k-0.pk --sig s-0.sig --path m-0.path --pk k-2.pk --sig s-2.sig --path m-2.path --out t.proof",
    ))]
    Threshold(proofs::ThresholdArgs),
    /// Prove that seed001 aggregates of one message (or of several) verify: one merged proof,
    /// without the signatures.
    ///
    /// The children are aggregates made with --settings whir-skip-poseidon2, each of its own
    /// signers; --pk gives every child's keys, child after child. Verify the merged proof with
    /// `sigagg verify --proof` and the same keys, epochs and messages.
    #[command(after_help = example!(
        "merge --child a.proof --child b.proof --pk k-0.pk --pk k-1.pk --pk k-2.pk --epoch 5 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --out m.proof",
    ))]
    Merge(merge::MergeArgs),
    /// Split a merged proof: the same proof for a verifier who knows only the kept children.
    ///
    /// Give the whole statement the merge took (--pk, --message, --epoch, --committee) and the
    /// children to keep (--keep, counted from 0); the others are withheld. Verify the split proof
    /// with `sigagg verify --proof` and the kept children's keys, messages and epochs alone.
    #[command(after_help = example!(
        "split --proof m.proof --keep 0 --pk k-0.pk --pk k-1.pk --pk k-2.pk --epoch 5 --epoch 5 --epoch 6 --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --message 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff --message ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100 --out s.proof",
    ))]
    Split(merge::SplitArgs),
    /// BLS12-381 signatures, Horn, ATMS and MSP.B.
    #[command(subcommand, after_help = example!("bls keygen --sk a.sk --pk a.pk --pop a.pop"))]
    Bls(bls::BlsCommand),
    /// Lamport+ one-time signatures (seed 004).
    #[command(subcommand, after_help = example!("lamport keygen --count 3 --out l"))]
    Lamport(lamport::LamportCommand),
    /// Mithril stake-based threshold signatures (STM, byte compatible with mithril-stm 0.13).
    #[command(subcommand, after_help = example!("mithril keygen --sk a.sk --vk a.vk"))]
    Mithril(mithril::MithrilCommand),
    /// Benchmarks; each prints one JSON object on standard output.
    #[command(subcommand, after_help = example!("bench xmss-agg --n 1024 --json"))]
    Bench(bench::BenchCommand),
}

/// The system allocator, with transparent huge pages asked for on the
/// provers' large buffers (`sigagg_alloc`: 0.88x the multilinear prover's
/// wall time at N = 4096).
#[global_allocator]
static ALLOC: sigagg_alloc::HugePages = sigagg_alloc::HugePages;

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => demo::demo(args),
        Command::Keygen(args) => xmss::keygen(args),
        Command::Sign(args) => xmss::sign(args),
        Command::Verify(args) => verify::verify(args),
        Command::GroupKey(args) => proofs::group_key(args),
        Command::Aggregate(args) => proofs::aggregate(args),
        Command::Threshold(args) => proofs::threshold(args),
        Command::Merge(args) => merge::merge(args),
        Command::Split(args) => merge::split(args),
        Command::Bls(cmd) => bls::run(cmd),
        Command::Lamport(cmd) => lamport::run(cmd),
        Command::Mithril(cmd) => mithril::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
    };
    if let Err(err) = result {
        eprintln!("error: {err}");
        std::process::exit(io::exit_code(&err));
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::Cli;

    /// The example lines of a command's `after_help`, without `sigagg`.
    fn examples(cmd: &clap::Command) -> Vec<String> {
        let help = cmd.get_after_help().map(|h| h.to_string()).unwrap_or_default();
        help.lines().filter_map(|l| l.trim().strip_prefix("sigagg ")).map(str::to_string).collect()
    }

    /// Every command, from `sigagg` itself to each leaf, ends its `--help`
    /// with at least one example; every example line parses as a `sigagg`
    /// command line, one of them runs the command itself, and none needs a
    /// shell (no quotes, no variables).
    fn check(cmd: &clap::Command, path: &[&str]) {
        let lines = examples(cmd);
        assert!(!lines.is_empty(), "`sigagg {}` has no example in its --help", path.join(" "));
        for line in &lines {
            assert!(!line.contains(['"', '\'', '$', '\\']), "{line}: needs a shell");
            let words = std::iter::once("sigagg").chain(line.split_whitespace());
            if let Err(e) = Cli::try_parse_from(words) {
                panic!("example `sigagg {line}` does not parse: {e}");
            }
        }
        let own = path.join(" ");
        let runs_itself = |l: &String| own.is_empty() || *l == own || l.starts_with(&format!("{own} "));
        assert!(lines.iter().any(runs_itself), "no example of `sigagg {own}` runs it: {lines:?}");
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let sub_path: Vec<&str> = path.iter().copied().chain([sub.get_name()]).collect();
            check(sub, &sub_path);
        }
    }

    #[test]
    fn every_command_has_a_parsing_example() {
        check(&Cli::command(), &[]);
    }
}
