//! Helpers shared by the end-to-end tests: run the binary, make a scratch
//! folder, read a successful run's output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `sigagg` binary in `dir`.
pub fn sigagg(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sigagg")).current_dir(dir).args(args).output().expect("binary runs")
}

/// A fresh, empty scratch folder; the process id keeps test binaries apart.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sigagg-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Standard output of a run that must have succeeded (its stderr otherwise).
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
