//! Every fixture in `tests/fixtures/` through the family, one snapshot each;
//! and the other hosts' cases in `tests/hosts/`, through the registry alone.

use advisor_core::testing::{Case, decide};

fn registry() -> advisor_core::RegistryBuilder {
    advisor_core::Registry::builder().family(family_bwrap_cannot_start::BwrapCannotStart)
}

#[test]
fn fixtures() {
    advisor_core::testing::check(registry(), env!("CARGO_MANIFEST_DIR"));
}

/// The same line from a host this family does not serve: the registry must
/// never ask it. (Kept apart from `tests/fixtures/`: core's `check` compares
/// every fixture against the recognizers run without the registry's host
/// filter, so a case the host filter alone decides cannot live there.)
#[test]
fn other_hosts_never_reach_the_family() {
    let registry = registry().build().expect("the registry builds");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hosts");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/hosts exists") {
        let path = entry.expect("a directory entry").path();
        let case = Case::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let got = decide(&registry, &case);
        assert_eq!(got.family, None, "{}: {}", path.display(), got.report);
        seen += 1;
    }
    assert!(seen >= 2, "the host cases are missing");
}

/// Gemini CLI's recorded failure reaches the family through the registry's
/// host filter (which `fixtures` does not apply), and is spoken on.
#[test]
fn gemini_cli_reaches_the_family() {
    let registry = registry().build().expect("the registry builds");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pos-gemini-cli-recorded-no-userns.toml");
    let case = Case::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let got = decide(&registry, &case);
    assert_eq!(
        got.family.as_deref(),
        Some(family_bwrap_cannot_start::ID.as_str()),
        "{}",
        got.report
    );
}
