//! Compiles `examples/demo.c` with the system C compiler (`$CC`, else
//! `cc`) against the static library and the checked-in header, runs it,
//! and compares its output with `examples/demo.expected`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The static library cargo built for this test run: beside the test
/// executable in `target/<profile>/deps/` (`cargo test` leaves it there;
/// only `cargo build` copies it up to `target/<profile>/`, where an older
/// copy may linger).
fn static_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let lib = exe.with_file_name("libsigagg_ffi.a");
    assert!(lib.exists(), "{} is missing", lib.display());
    lib
}

#[test]
fn c_example_compiles_runs_and_prints_what_is_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let binary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sigagg-demo");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let compiled = Command::new(&compiler)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1"])
        .arg("-I")
        .arg(dir.join("include"))
        .arg(dir.join("examples/demo.c"))
        .arg(static_library())
        .args(["-lpthread", "-ldl", "-lm"])
        .arg("-o")
        .arg(&binary)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {compiler:?}: {e}"));
    assert!(compiled.status.success(), "compiling demo.c failed:\n{}", String::from_utf8_lossy(&compiled.stderr));

    let run = Command::new(&binary).env("RAYON_NUM_THREADS", "2").output().expect("run the demo");
    let stdout = String::from_utf8(run.stdout).expect("UTF-8 output");
    assert!(run.status.success(), "the demo failed:\n{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let expected = std::fs::read_to_string(dir.join("examples/demo.expected")).expect("demo.expected");
    assert_eq!(stdout, expected, "the demo's output differs from examples/demo.expected");
}
