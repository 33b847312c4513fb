#!/usr/bin/env bash
# The project's one test command (what CI runs, see .ci/run):
#   0. cargo fmt --check (rustfmt.toml) and cargo clippy --workspace
#      --all-targets --release -D warnings (the workspace's lints,
#      Cargo.toml);
#   1. cargo test --workspace --release on the libraries, binaries and test
#      targets, then the doc tests: the Rust tests, among them the C ABI's
#      (crates/ffi/tests: the checked-in header is current, and
#      examples/demo.c compiles with the system C compiler, runs and prints
#      what examples/demo.expected says). The Rust examples are timing and
#      measuring programs that no test runs: step 0's clippy already
#      compiles them (type and borrow checks, lints), so they are not built
#      a second time in release mode, which took a quarter of this step's
#      compile time;
#   2. the Python package: maturin builds the abi3 wheel in the workspace's
#      target directory (reusing the release build of step 1), pip installs
#      it into a virtualenv under that directory, and pytest runs
#      bindings/python/tests.
# Needs Rust (with rustfmt and clippy), Python 3.9 or later with venv and pip, a C compiler; maturin,
# pytest, PyYAML and Dask distributed (the tree example's test) come from PyPI. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
venv="$target/python-venv"
wheels="$target/python-wheels"

step() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }

step "Style: cargo fmt --all --check"
cargo fmt --all --check

# In the release profile, so that the build scripts (blst's C library among
# them) and proc-macros it builds are the ones step 1 reuses (CI time).
step "Lints: cargo clippy --workspace --all-targets --release -D warnings"
cargo clippy --workspace --all-targets --release --quiet -- -D warnings

step "Rust and C: cargo test --workspace --release --lib --bins --tests"
cargo test --workspace --release --lib --bins --tests

step "Rust: doc tests (cargo test --workspace --release --doc)"
cargo test --workspace --release --doc

step "Python: virtualenv with maturin, pytest, PyYAML, Dask distributed"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9.4,<2" "pytest>=8" "pyyaml>=6" "distributed>=2024.1"

step "Python: build and install the wheel"
rm -rf "$wheels"
log="$target/python-wheel-build.log"
"$venv/bin/maturin" build --release --manifest-path bindings/python/Cargo.toml --out "$wheels" 2>&1 | tee "$log"
# The wheel's build should reuse step 1's Plonky3 and proof crates (see the
# feature pins in bindings/python/Cargo.toml); say so when it did not.
recompiled=$(grep -oE 'Compiling (p3-[a-z0-9-]+|sigagg-(xmss|lamport|xmss-agg|lamport-agg)) ' "$log" | sort -u | tr '\n' ' ' || true)
if [ -n "$recompiled" ]; then
    echo "warning: the wheel build compiled again what cargo test had built: $recompiled" >&2
    echo "warning: update the feature pins in bindings/python/Cargo.toml (see its comment)" >&2
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheels"/sigagg-*.whl

step "Python: pytest"
"$venv/bin/python" -m pytest -q bindings/python/tests

step "all tests passed"
