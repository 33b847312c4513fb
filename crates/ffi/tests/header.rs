//! The checked-in header, `include/sigagg.h`, is what cbindgen generates
//! from the sources now, and declares every exported function once. Run
//! with `SIGAGG_BLESS=1` to rewrite it after changing the API.

use std::path::Path;

fn dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn checked_in() -> String {
    std::fs::read_to_string(dir().join("include/sigagg.h")).unwrap_or_default()
}

#[test]
fn header_is_current() {
    let config = cbindgen::Config::from_file(dir().join("cbindgen.toml")).expect("cbindgen.toml parses");
    // cbindgen follows the `mod` declarations of lib.rs.
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir().join("src/lib.rs"))
        .generate()
        .expect("cbindgen parses the sources");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    if std::env::var_os("SIGAGG_BLESS").is_some() {
        std::fs::write(dir().join("include/sigagg.h"), &generated).expect("write the header");
    }
    assert!(
        checked_in() == generated,
        "include/sigagg.h is stale: regenerate it with `SIGAGG_BLESS=1 cargo test -p sigagg-ffi --test header`"
    );
}

/// Names of the `extern "C"` functions defined in the sources.
fn exported_functions() -> Vec<String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir().join("src")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            if let Some(rest) = line.split("extern \"C\" fn ").nth(1) {
                names.push(rest.split('(').next().unwrap().to_owned());
            }
        }
    }
    names.sort();
    names
}

#[test]
fn every_exported_function_is_declared_once() {
    let header = checked_in();
    let code: Vec<&str> = header.lines().filter(|l| !l.starts_with("//") && !l.starts_with(" *")).collect();
    let names = exported_functions();
    assert!(names.len() > 40, "{names:?}");
    for name in names {
        let call = format!("{name}(");
        let declares =
            |line: &str| line.match_indices(&call).any(|(at, _)| matches!(line[..at].chars().last(), Some(' ' | '*')));
        let declarations = code.iter().filter(|line| declares(line)).count();
        assert_eq!(declarations, 1, "{name} is declared {declarations} times in include/sigagg.h");
    }
}
