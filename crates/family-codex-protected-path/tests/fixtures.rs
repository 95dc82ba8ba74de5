//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder().family(family_codex_protected_path::CodexProtectedPath),
        env!("CARGO_MANIFEST_DIR"),
    );
}

/// The advisor's own sentences name no path: in every advisory of every
/// fixture, the refused path stands only inside the quoted `> ` line; and no
/// advisory offers another sandbox mode or a run outside the sandbox on a
/// line a program could have printed.
#[test]
fn no_path_outside_the_quote_frame_and_no_weakening_remedy() {
    use advisor_core::testing::{Case, Decision, decide, fixture_files};
    use family_codex_protected_path::recognize;

    let registry = advisor_core::Registry::builder()
        .family(family_codex_protected_path::CodexProtectedPath)
        .build()
        .expect("the registry builds");
    let mut spoken = 0;
    for path in fixture_files(env!("CARGO_MANIFEST_DIR")) {
        let case = Case::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let Some(finding) = case.observation().and_then(recognize::recognize) else {
            continue;
        };
        let got = decide(&registry, &case);
        if got.decision != Some(Decision::Speak) {
            continue;
        }
        spoken += 1;
        let (_, advisory) = got.report.split_once("\nsummary: ").expect("a summary");
        let refused = finding.path.inspect();
        for line in advisory.lines().filter(|l| l.contains(refused)) {
            assert!(
                line.starts_with("> "),
                "{}: path in prose: {line}",
                case.name
            );
        }
        for weakening in ["danger-full-access", "require_escalated", "--sandbox"] {
            assert!(
                !advisory.contains(weakening),
                "{}: offers `{weakening}`",
                case.name
            );
        }
    }
    assert!(spoken >= 8, "only {spoken} advisories were looked at");
}
