//! The checked-in header, `include/sigagg.h`, is what cbindgen generates
//! from the sources now. Run with `SIGAGG_BLESS=1` to rewrite it after
//! changing the API.

use std::path::Path;

#[test]
fn header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let mut builder = cbindgen::Builder::new().with_config(config);
    for file in ["lib.rs", "boundary.rs", "xmss.rs", "lamport.rs", "proofs.rs", "bls.rs"] {
        builder = builder.with_src(dir.join("src").join(file));
    }
    let mut generated = Vec::new();
    builder.generate().expect("cbindgen parses the sources").write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    let path = dir.join("include/sigagg.h");
    if std::env::var_os("SIGAGG_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the header");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} is stale: regenerate it with `SIGAGG_BLESS=1 cargo test -p sigagg-ffi --test header`",
        path.display()
    );
}

#[test]
fn every_source_file_feeds_the_header() {
    // A new module must be added to the list above, or its functions would
    // silently miss the header.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["bls.rs", "boundary.rs", "lamport.rs", "lib.rs", "proofs.rs", "xmss.rs"]);
}
