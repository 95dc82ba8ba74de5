//! Tidy checks: every fixture is exercised, every advisory class has a
//! snapshot, nothing is left half-reviewed, and no file outgrows a read.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::Path;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn names(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(crate_dir().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(ext))
        .collect();
    out.sort();
    out
}

#[test]
fn every_fixture_is_used_and_both_kinds_exist() {
    let tests = ["tests/recognize.rs", "tests/advise.rs", "tests/classes.rs"]
        .map(|f| fs::read_to_string(crate_dir().join(f)).unwrap())
        .join("\n");
    let fixtures = names("tests/fixtures", ".fixture");
    for f in &fixtures {
        let stem = f.trim_end_matches(".fixture");
        assert!(
            tests.contains(&format!("\"{stem}\"")),
            "fixture {stem} is not used by any test"
        );
        assert!(
            stem.starts_with("pos_") || stem.starts_with("neg_"),
            "{stem}: pos_ or neg_"
        );
    }
    assert!(fixtures.iter().filter(|f| f.starts_with("neg_")).count() >= 10);
}

#[test]
fn every_advisory_variant_has_a_snapshot_and_none_is_pending() {
    let snaps = names("tests/snapshots", "");
    for variant in [
        "apply_denied",
        "apply_other",
        "read_denied",
        "read_denied_labelled",
        "read_other",
        "no_detail",
        "no_detail_other",
        "tagged",
        "unsafe_path",
        "href_set",
    ] {
        assert!(
            snaps.contains(&format!("advise__{variant}.snap")),
            "no snapshot for {variant}"
        );
    }
    assert!(
        !snaps.iter().any(|s| s.ends_with(".snap.new")),
        "pending snapshot review"
    );
}

#[test]
fn readme_and_catalogue_exist_and_files_stay_small() {
    for f in ["README.md", "mutations.toml"] {
        assert!(crate_dir().join(f).is_file(), "{f} missing");
    }
    for dir in ["src", "src/advise", "tests"] {
        for f in names(dir, ".rs") {
            let lines = fs::read_to_string(crate_dir().join(dir).join(&f))
                .unwrap()
                .lines()
                .count();
            assert!(lines <= 400, "{dir}/{f} has {lines} lines");
        }
    }
}
