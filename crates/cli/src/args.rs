//! Arguments shared by several commands: the one `--scheme` type
//! ([`sigagg_bytes::Scheme`]), settings names, message lists and lists of
//! files.
//!
//! Why here: schemes and settings are chosen by name at run time in one
//! place, the byte-level API's, so that a name means the same on the
//! command line as in the Python and C bindings; this module only turns
//! those names into clap arguments.

use std::path::{Path, PathBuf};

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sigagg_bytes::{ProofSettings, Scheme};

use crate::io::{self, CliError};

/// The XMSS parameter sets (`keygen`, `sign`, `verify --sig`, `bench xmss`).
pub const XMSS: &[Scheme] = &[Scheme::Seed001, Scheme::LeanSigProd, Scheme::Test];
/// The Lamport+ parameter sets (`sigagg lamport ...`).
pub const LAMPORT: &[Scheme] = &[Scheme::LamportPlus, Scheme::LamportPlusMined];
/// The schemes with aggregate and threshold proofs.
pub const PROVABLE: &[Scheme] = &[Scheme::LamportPlus, Scheme::LamportPlusMined, Scheme::Seed001];
/// Schemes with group keys and threshold proofs.
pub const GROUPS: &[Scheme] = &[Scheme::LamportPlus, Scheme::LamportPlusMined, Scheme::Seed001, Scheme::LeanSigProd];
/// The schemes with aggregate proofs (`aggregate`): those with threshold
/// proofs, and leanSig production signatures in leanSpec's container.
pub const AGGREGATABLE: &[Scheme] =
    &[Scheme::LamportPlus, Scheme::LamportPlusMined, Scheme::Seed001, Scheme::LeanSigProd];
/// Every scheme (`verify`).
pub const ALL: &[Scheme] =
    &[Scheme::Seed001, Scheme::LeanSigProd, Scheme::Test, Scheme::LamportPlus, Scheme::LamportPlusMined];

/// Spellings the CLI accepted before it took the byte-level API's names,
/// still accepted so that scripts keep working.
const ALIASES: &[(&str, Scheme)] = &[("lean-sig-prod", Scheme::LeanSigProd)];

/// The `--help` line of a scheme.
fn about(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::Seed001 => "XMSS seed 001 / hash-sig: Poseidon2, lifetime 2^20, 78 chains of length 4",
        Scheme::LeanSigProd => "XMSS leanSig production: Poseidon1, lifetime 2^32, 46 chains of length 8",
        Scheme::Test => "XMSS tiny insecure set for tests: lifetime 2^8",
        Scheme::LamportPlus => "Lamport+ without mining: 256 sub-keys (124-bit classical security)",
        Scheme::LamportPlusMined => "Lamport+ with 16 mined zero bits: 224 sub-keys (124-bit classical security)",
    }
}

/// A `--scheme` parser that accepts the schemes of `allowed`, by their
/// byte-level names ([`Scheme::name`]), each listed with its help line.
pub fn schemes(allowed: &'static [Scheme]) -> impl TypedValueParser<Value = Scheme> {
    let values = allowed.iter().map(|&s| {
        let aliases = ALIASES.iter().filter(move |(_, a)| *a == s).map(|(name, _)| *name);
        PossibleValue::new(s.name()).help(about(s)).aliases(aliases)
    });
    PossibleValuesParser::new(values).try_map(|name: String| {
        let alias = ALIASES.iter().find(|(a, _)| *a == name).map(|(_, s)| *s);
        alias.map_or_else(|| Scheme::from_name(&name), Ok)
    })
}

/// The registry's settings named `name` (`--settings`), or a usage error
/// listing every name.
pub fn parse_named(name: &str) -> Result<ProofSettings, CliError> {
    name.parse().map_err(|e| CliError::usage(format!("--settings: {e}")))
}

/// The name of benchmark settings, `custom` for those no name gives.
pub fn report_name(named: Option<ProofSettings>) -> &'static str {
    named.map_or("custom", ProofSettings::name)
}

/// Messages of a statement, in order.
#[derive(Args)]
pub struct MessageList {
    /// A message: 0x-prefixed hex or UTF-8 text (seed001: 64 hex digits); one
    /// for every entry, or repeat it, in statement order.
    #[arg(long = "message")]
    pub messages: Vec<String>,
    /// A file whose bytes (hex text if it ends in .hex) are a message; one
    /// for every entry, or repeat it, in order.
    #[arg(long = "message-file")]
    pub message_files: Vec<PathBuf>,
}

impl MessageList {
    /// The messages as bytes: `--message` as 0x-hex or text, except for
    /// XMSS (`xmss`), whose 32-byte messages are always hex (the `0x`
    /// optional) and whose files must hold exactly 32 bytes.
    pub fn read(&self, xmss: bool) -> Result<Vec<Vec<u8>>, CliError> {
        if xmss {
            return Ok(self.read32()?.into_iter().map(Vec::from).collect());
        }
        match (self.messages.is_empty(), self.message_files.is_empty()) {
            (false, true) => self.messages.iter().map(|m| io::parse_message(m)).collect(),
            (true, false) => self.message_files.iter().map(|p| io::read_bytes(p)).collect(),
            (true, true) => Err(CliError::usage("give --message or --message-file")),
            (false, false) => Err(CliError::usage("give either --message or --message-file, not both")),
        }
    }

    /// The one message of a threshold statement or a signature.
    pub fn read_one(&self, xmss: bool) -> Result<Vec<u8>, CliError> {
        let mut all = self.read(xmss)?;
        if all.len() != 1 {
            return Err(CliError::usage("give exactly one message"));
        }
        Ok(all.remove(0))
    }

    /// 32-byte XMSS messages: each `--message` as 64 hex digits (optionally
    /// `0x`-prefixed), each `--message-file` as exactly 32 bytes.
    fn read32(&self) -> Result<Vec<[u8; 32]>, CliError> {
        if !self.messages.is_empty() && !self.message_files.is_empty() {
            return Err(CliError::usage("give either --message or --message-file, not both"));
        }
        let from_text = self.messages.iter().map(|m| parse_message32(m));
        let from_files = self.message_files.iter().map(|p| {
            io::read_bytes(p)?.try_into().map_err(|b: Vec<u8>| {
                CliError::usage(format!("{}: a message must be 32 bytes, got {}", p.display(), b.len()))
            })
        });
        let all = from_text.chain(from_files).collect::<Result<Vec<_>, _>>()?;
        if all.is_empty() {
            return Err(CliError::usage("give --message or --message-file"));
        }
        Ok(all)
    }
}

/// Parses a 32-byte message given as hex (the `0x` optional).
pub fn parse_message32(arg: &str) -> Result<[u8; 32], CliError> {
    let bytes = io::parse_message(if arg.starts_with("0x") { arg.to_string() } else { format!("0x{arg}") }.as_str())?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| CliError::usage(format!("the message must be 32 bytes (64 hex digits), got {}", b.len())))
}

/// One value per entry of a statement with `entries` entries: `values` when
/// there is one per entry, or its single value for every entry (one
/// `--epoch` or `--message` for all signers, the consensus case); any other
/// count is a usage error naming both counts. `what` names the values
/// ("messages", "epochs").
pub fn per_entry<T: Clone>(values: Vec<T>, entries: usize, what: &str) -> Result<Vec<T>, CliError> {
    match values.as_slice() {
        [one] => Ok(vec![one.clone(); entries]),
        many if many.len() == entries => Ok(values),
        many => Err(CliError::usage(format!(
            "{entries} public keys but {} {what}: give one for all, or one per --pk",
            many.len()
        ))),
    }
}

/// The bytes of every file of `paths`, in order.
pub fn read_files(paths: &[PathBuf]) -> Result<Vec<Vec<u8>>, CliError> {
    paths.iter().map(|p| io::read_bytes(p)).collect()
}

/// A threshold child's committee, `--committee GROUP_KEY_FILE:T`: the
/// group key file and the threshold, split at the last `:`.
#[derive(Clone, Debug)]
pub struct CommitteeArg {
    /// The group key file.
    pub group: PathBuf,
    /// The threshold.
    pub threshold: u32,
}

/// Parses `--committee g.key:2`.
pub fn parse_committee(value: &str) -> Result<CommitteeArg, String> {
    let (path, t) = value.rsplit_once(':').ok_or("expected GROUP_KEY_FILE:THRESHOLD, e.g. g.key:2")?;
    let threshold = t.parse().map_err(|e| format!("bad threshold {t:?}: {e}"))?;
    Ok(CommitteeArg { group: PathBuf::from(path), threshold })
}

/// The committees' group keys read, paired with their thresholds.
pub fn read_committees(committees: &[CommitteeArg]) -> Result<Vec<(Vec<u8>, u32)>, CliError> {
    committees.iter().map(|c| Ok((io::read_bytes(&c.group)?, c.threshold))).collect()
}

/// The byte API's committees, borrowing `read` ([`read_committees`]).
pub fn committee_views(read: &[(Vec<u8>, u32)]) -> Vec<sigagg_bytes::merge::Committee<'_>> {
    read.iter()
        .map(|(group_key, threshold)| sigagg_bytes::merge::Committee { group_key, threshold: *threshold })
        .collect()
}

/// Borrowed slices of `items`, the form the byte-level API takes.
pub fn slices(items: &[Vec<u8>]) -> Vec<&[u8]> {
    items.iter().map(Vec::as_slice).collect()
}

/// A 32-byte `--seed` given as hex (the `0x` optional).
pub fn parse_seed(hex_seed: &str) -> Result<[u8; 32], CliError> {
    let bytes =
        hex::decode(hex_seed.trim_start_matches("0x")).map_err(|e| CliError::usage(format!("bad --seed: {e}")))?;
    bytes.try_into().map_err(|_| CliError::usage("--seed must be 32 bytes (64 hex digits)"))
}

/// Key `index`'s seed of a batch made from one `--seed`: the index XORed
/// into its last 8 bytes, so every key of the batch differs.
pub fn batch_seed(mut seed: [u8; 32], index: usize) -> [u8; 32] {
    for (s, i) in seed[24..].iter_mut().zip((index as u64).to_le_bytes()) {
        *s ^= i;
    }
    seed
}

/// The file `PREFIX.ext` of a batch of one, or `PREFIX-i.ext` of a larger
/// batch (`.hex` appended with `hex`).
pub fn numbered(prefix: &Path, count: usize, i: usize, ext: &str, hex: bool) -> PathBuf {
    let base = if count == 1 { prefix.display().to_string() } else { format!("{}-{i}", prefix.display()) };
    PathBuf::from(format!("{base}.{ext}{}", if hex { ".hex" } else { "" }))
}

/// The file member `i`'s path goes to: `PREFIX-i.path` (`.path.hex` with `--hex`).
pub fn path_file(prefix: &Path, i: usize, hex: bool) -> PathBuf {
    PathBuf::from(format!("{}-{i}.path{}", prefix.display(), if hex { ".hex" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_names_are_the_byte_level_ones_plus_the_old_spelling() {
        let parser = schemes(ALL);
        let cmd = clap::Command::new("t");
        let parse = |v: &str| parser.parse_ref(&cmd, None, std::ffi::OsStr::new(v));
        for &s in ALL {
            assert_eq!(parse(s.name()).unwrap(), s);
        }
        assert_eq!(parse("lean-sig-prod").unwrap(), Scheme::LeanSigProd);
        assert!(parse("seed-001").is_err());
        assert!(schemes(LAMPORT).parse_ref(&cmd, None, std::ffi::OsStr::new("seed001")).is_err());
    }

    #[test]
    fn unknown_settings_names_are_usage_errors_listing_every_name() {
        let e = parse_named("fastest").unwrap_err().to_string();
        for name in ProofSettings::names() {
            assert!(e.contains(name), "{e}");
        }
        for named in ProofSettings::ALL {
            assert_eq!(parse_named(named.name()).unwrap(), named);
        }
    }
}
