//! Tidy checks: every fixture file follows the one format's naming rule, every
//! advisory class has a snapshot, nothing is left half-reviewed, and no file
//! outgrows a read.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::Path;

use advisor_core::testing::Arm;

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

/// `check` reads only `*.toml`; a file in another format would sit there untested.
#[test]
fn every_fixture_file_is_a_named_toml_fixture() {
    for f in names("tests/fixtures", "") {
        assert!(
            Arm::of(&f).is_some(),
            "{f}: not pos-<case>.toml or ctl-<case>.toml"
        );
    }
}

#[test]
fn every_advisory_variant_has_a_snapshot_and_none_is_pending() {
    let snaps = names("tests/snapshots", "");
    for (variant, fixture) in [
        ("apply-denied", "pos-session-apply-denied"),
        ("apply-denied, agentless", "pos-agentless-apply-denied"),
        ("apply-other", "pos-apply-other"),
        ("read-denied", "pos-read-denied"),
        ("read-denied, labelled", "pos-read-labelled"),
        ("read-other", "pos-read-other"),
        ("no detail", "pos-no-detail-apply"),
        ("no detail, other code", "pos-no-detail-other"),
        ("tagged", "pos-tagged-line"),
        ("unsafe path", "pos-unsafe-quote-path"),
        ("href set", "pos-session-apply-denied-href"),
    ] {
        assert!(
            snaps.contains(&format!("fixtures__{fixture}.snap")),
            "no snapshot for {variant} ({fixture})"
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
    for dir in ["src", "src/advise", "src/brief", "tests"] {
        for f in names(dir, ".rs") {
            let lines = fs::read_to_string(crate_dir().join(dir).join(&f))
                .unwrap()
                .lines()
                .count();
            assert!(lines <= 400, "{dir}/{f} has {lines} lines");
        }
    }
}
