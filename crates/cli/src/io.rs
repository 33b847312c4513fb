//! File, hex and JSON helpers shared by every sub-command.

use std::fmt;
use std::path::{Path, PathBuf};

use zeroize::Zeroizing;

/// The error every sub-command returns: a message for people and an exit code
/// for scripts (1: the input was rejected, 2: the command could not run).
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub rejected: bool,
}

impl CliError {
    /// An input was read but is invalid (bad signature, malformed bytes, ...).
    pub fn rejected(message: impl fmt::Display) -> Self {
        Self { message: message.to_string(), rejected: true }
    }

    /// The command could not run (missing file, bad arguments, ...).
    pub fn usage(message: impl fmt::Display) -> Self {
        Self { message: message.to_string(), rejected: false }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub type CliResult = Result<(), CliError>;

pub fn exit_code(err: &CliError) -> i32 {
    if err.rejected { 1 } else { 2 }
}

/// The largest input any command reads, in bytes (twice as many hex
/// digits). The largest real inputs, proofs, are a few MB; the cap keeps a
/// wrong path (a device, a huge file) from exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads a file as raw bytes, or as hex when its name ends in `.hex`; at
/// most [`MAX_INPUT_BYTES`].
///
/// Secret keys pass through here too, so no copy is left behind unwiped:
/// the buffer is sized from the file's length (no reallocation) and the hex
/// text is wiped once decoded. The caller wipes what it gets
/// ([`update_key_file`] does).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    read_bytes_capped(path, MAX_INPUT_BYTES)
}

fn read_bytes_capped(path: &Path, max: u64) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| CliError::usage(format!("cannot read {}: {e}", path.display()));
    let limit = if is_hex_path(path) { 2 * max + 64 } else { max };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let expected = file.metadata().map_or(0, |m| m.len()).min(limit + 1);
    let mut raw = Zeroizing::new(Vec::with_capacity(expected as usize + 1));
    file.take(limit + 1).read_to_end(&mut raw).map_err(cannot)?;
    if raw.len() as u64 > limit {
        return Err(CliError::rejected(format!("{} is larger than {limit} bytes", path.display())));
    }
    if is_hex_path(path) {
        let text =
            std::str::from_utf8(&raw).map_err(|_| CliError::rejected(format!("{} is not hex text", path.display())))?;
        let trimmed = text.trim();
        let trimmed = trimmed.strip_prefix("0x").unwrap_or(trimmed);
        hex::decode(trimmed).map_err(|e| CliError::rejected(format!("{} is not valid hex: {e}", path.display())))
    } else {
        Ok(std::mem::take(&mut *raw))
    }
}

/// Writes raw bytes, or hex text (with a trailing newline) when the name
/// ends in `.hex`; the hex text is wiped once written (secret keys are
/// written here too).
pub fn write_bytes(path: &Path, bytes: &[u8]) -> CliResult {
    let hex_text;
    let data: &[u8] = if is_hex_path(path) {
        let mut text = vec![0u8; 2 * bytes.len() + 1];
        hex::encode_to_slice(bytes, &mut text[..2 * bytes.len()]).expect("the buffer has twice the length");
        text[2 * bytes.len()] = b'\n';
        hex_text = Zeroizing::new(text);
        &hex_text
    } else {
        bytes
    };
    std::fs::write(path, data).map_err(|e| CliError::usage(format!("cannot write {}: {e}", path.display())))
}

/// Updates a stateful secret-key file: `update` receives the key's bytes
/// and returns its new bytes and a result (a signature), which is returned
/// only once the new key is durably on disk.
///
/// Why: a one-time or stateful key signs safely only if every signature's
/// state change is stored before the signature exists. The update holds an
/// exclusive lock on a sidecar `<key>.lock` file from reading to replacing
/// (a second signer on the same key waits, then reads the updated state and
/// is refused), writes the new key to a sibling named after this process,
/// syncs it, renames it over the key and syncs the directory, so neither a
/// race nor a crash can bring back a key state that already signed. The
/// lock is on a sidecar because the rename replaces the key's inode.
pub fn update_key_file<T>(
    path: &Path,
    update: impl FnOnce(&[u8]) -> Result<(Vec<u8>, T), CliError>,
) -> Result<T, CliError> {
    let fail = |what: &str, p: &Path, e: std::io::Error| CliError::usage(format!("cannot {what} {}: {e}", p.display()));
    let lock_path = PathBuf::from(format!("{}.lock", path.display()));
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| fail("create", &lock_path, e))?;
    lock.lock().map_err(|e| fail("lock", &lock_path, e))?;
    // Both encodings of the key are wiped on return.
    let old = Zeroizing::new(read_bytes(path)?);
    let (bytes, out) = update(&old)?;
    let bytes = Zeroizing::new(bytes);
    let hex = is_hex_path(path);
    let tmp = PathBuf::from(format!("{}.{}.tmp{}", path.display(), std::process::id(), if hex { ".hex" } else { "" }));
    write_bytes(&tmp, &bytes)?;
    std::fs::File::open(&tmp).and_then(|f| f.sync_all()).map_err(|e| fail("sync", &tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| fail("replace", path, e))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Directories cannot be synced on every platform; where they can, the
    // rename is durable once this returns.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    drop(lock);
    Ok(out)
}

/// Parses a message given on the command line: `0x`-prefixed hex, or UTF-8 text.
pub fn parse_message(arg: &str) -> Result<Vec<u8>, CliError> {
    match arg.strip_prefix("0x") {
        Some(h) => hex::decode(h).map_err(|e| CliError::usage(format!("bad hex message: {e}"))),
        None => Ok(arg.as_bytes().to_vec()),
    }
}

fn is_hex_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "hex")
}

/// Prints one JSON object on standard output.
pub fn print_json(value: &serde_json::Value) {
    println!("{}", serde_json::to_string_pretty(value).expect("JSON values always serialize"));
}

/// A progress bar on standard error for `len` steps of a long job.
pub fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Number of worker threads rayon will use.
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// Peak resident memory of this process so far (Linux `VmHWM`), in bytes;
/// `None` where `/proc` is unavailable.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Restarts the peak-memory count ([`peak_rss_bytes`]) from the current
/// resident memory (Linux: writing 5 to `/proc/self/clear_refs`), so that
/// each step of a sequence reports its own peak rather than the largest so
/// far; `false` where that is not possible (the count then keeps running).
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// A spinner on standard error for a step whose length is unknown (a
/// proof); drawn only when standard error is a terminal.
pub fn spinner(what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("static template"));
    bar.set_message(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// One timed prove-and-verify run of a proof benchmark.
pub struct ProofRun {
    /// Seconds spent proving.
    pub prove_s: f64,
    /// Seconds spent decoding the proof bytes and verifying them.
    pub verify_s: f64,
    /// Length of the encoded proof.
    pub proof_bytes: usize,
    /// Peak resident memory right after proving.
    pub peak_rss_bytes: Option<u64>,
    /// Peak resident memory before proving (keys, signatures, statement).
    pub rss_before_prove_bytes: Option<u64>,
}

impl ProofRun {
    /// Times `prove`, encodes the proof with `encode` and drops it, then times
    /// `verify` on the bytes (decoding included), so every benchmark measures
    /// the same steps.
    pub fn measure<P>(
        prove: impl FnOnce() -> Result<P, CliError>,
        encode: impl FnOnce(&P) -> Vec<u8>,
        verify: impl FnOnce(&[u8]) -> CliResult,
    ) -> Result<Self, CliError> {
        Self::measure_stored(prove, encode, Ok, verify)
    }

    /// [`ProofRun::measure`] with one more step, untimed: the encoded proof
    /// passes through `store`, and `verify` gets what `store` returns. The
    /// demo writes the proof to a file and reads it back there, so what it
    /// verifies is what a recipient would read.
    pub fn measure_stored<P>(
        prove: impl FnOnce() -> Result<P, CliError>,
        encode: impl FnOnce(&P) -> Vec<u8>,
        store: impl FnOnce(Vec<u8>) -> Result<Vec<u8>, CliError>,
        verify: impl FnOnce(&[u8]) -> CliResult,
    ) -> Result<Self, CliError> {
        let rss_before_prove_bytes = peak_rss_bytes();
        let start = std::time::Instant::now();
        let proof = prove()?;
        let prove_s = start.elapsed().as_secs_f64();
        let peak_rss_bytes = peak_rss_bytes();
        let bytes = encode(&proof);
        drop(proof);
        let bytes = store(bytes)?;
        let start = std::time::Instant::now();
        verify(&bytes)?;
        let verify_s = start.elapsed().as_secs_f64();
        Ok(Self { prove_s, verify_s, proof_bytes: bytes.len(), peak_rss_bytes, rss_before_prove_bytes })
    }

    /// The benchmark's JSON object: its own fields `head` plus the fields every
    /// proof benchmark prints (settings, security in bits as `(proven,
    /// conjectured)`, threads, timings, size, memory); `signatures` is what
    /// `sigs_per_s` counts.
    pub fn report(
        &self,
        head: serde_json::Value,
        settings: &sigagg_xmss_agg::Settings,
        bits: (f64, f64),
        signatures: usize,
    ) -> serde_json::Value {
        let mut out = head;
        let common = serde_json::json!({
            "backend": settings.backend().name(),
            "log_blowup": settings.log_blowup(),
            "num_queries": settings.fri().map_or(0, |f| f.num_queries),
            "query_pow_bits": settings.fri().map_or_else(|| settings.whir().map_or(0, |w| w.query_pow_bits), |f| f.query_pow_bits),
            "security_bits": bits.0,
            "security_bits_conjectured": bits.1,
            "threads": threads(),
            "prove_s": self.prove_s,
            "sigs_per_s": signatures as f64 / self.prove_s,
            "proof_bytes": self.proof_bytes,
            "verify_s": self.verify_s,
            "peak_rss_bytes": self.peak_rss_bytes,
            "rss_before_prove_bytes": self.rss_before_prove_bytes,
        });
        if let (Some(out), serde_json::Value::Object(common)) = (out.as_object_mut(), common) {
            out.extend(common);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads each add 1 to a counter file 40 times through
    /// `update_key_file`; the lock makes every read-modify-write whole, so
    /// no update is lost (each one reads the other's last state).
    #[test]
    fn key_file_updates_are_serialized() {
        let dir = std::env::temp_dir().join(format!("sigagg-key-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = dir.join("counter.hex");
        write_bytes(&key, &0u32.to_le_bytes()).unwrap();
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    for _ in 0..40 {
                        update_key_file(&key, |b| {
                            let v = u32::from_le_bytes(b.try_into().unwrap());
                            std::thread::yield_now();
                            Ok(((v + 1).to_le_bytes().to_vec(), ()))
                        })
                        .unwrap();
                    }
                });
            }
        });
        assert_eq!(read_bytes(&key).unwrap(), 80u32.to_le_bytes());
        // A refused update leaves the key as it was.
        let err = update_key_file::<()>(&key, |_| Err(CliError::rejected("no"))).unwrap_err();
        assert!(err.rejected);
        assert_eq!(read_bytes(&key).unwrap(), 80u32.to_le_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn inputs_over_the_cap_are_rejected() {
        let dir = std::env::temp_dir().join(format!("sigagg-io-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (bin, hex) = (dir.join("a.bin"), dir.join("a.hex"));
        std::fs::write(&bin, [7u8; 10]).unwrap();
        std::fs::write(&hex, "0x".to_string() + &"07".repeat(10) + "\n").unwrap();
        assert_eq!(read_bytes_capped(&bin, 10).unwrap(), [7u8; 10]);
        assert_eq!(read_bytes_capped(&hex, 10).unwrap(), [7u8; 10]);
        let err = read_bytes_capped(&bin, 9).unwrap_err();
        assert!(err.rejected && err.message.contains("larger than 9 bytes"), "{err}");
        std::fs::write(&hex, "07".repeat(200)).unwrap();
        assert!(read_bytes_capped(&hex, 10).unwrap_err().rejected);
        assert!(!read_bytes_capped(&dir.join("missing"), 10).unwrap_err().rejected);
        // A device that never ends is cut at the cap, not read forever.
        if Path::new("/dev/zero").exists() {
            assert!(read_bytes_capped(Path::new("/dev/zero"), 1 << 10).unwrap_err().rejected);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Raw and hex files round-trip through `write_bytes` and `read_bytes`
    /// (the hex text is built in place, lower case, newline-terminated).
    #[test]
    fn bytes_round_trip_raw_and_hex() {
        let dir = std::env::temp_dir().join(format!("sigagg-io-rt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data: Vec<u8> = (0..=255u8).collect();
        for name in ["k.bin", "k.hex"] {
            let path = dir.join(name);
            write_bytes(&path, &data).unwrap();
            assert_eq!(read_bytes(&path).unwrap(), data, "{name}");
        }
        let text = std::fs::read_to_string(dir.join("k.hex")).unwrap();
        assert_eq!(text, hex::encode(&data) + "\n");
        write_bytes(&dir.join("e.hex"), &[]).unwrap();
        assert_eq!(read_bytes(&dir.join("e.hex")).unwrap(), Vec::<u8>::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
