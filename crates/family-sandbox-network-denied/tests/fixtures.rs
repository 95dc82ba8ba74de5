//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder()
            .family(family_sandbox_network_denied::SandboxNetworkDenied),
        env!("CARGO_MANIFEST_DIR"),
    );
}

/// The advisor's own sentences name no host: in every advisory of every
/// fixture, a refused host's text stands only on a quoted `> ` line, or alone
/// on a value line of a proven block when it is a plain DNS name.
#[test]
fn no_host_reaches_prose_outside_the_quote_frame() {
    use advisor_core::testing::{Case, decide, fixture_files};
    use family_sandbox_network_denied::{recognize, value};

    let registry = advisor_core::Registry::builder()
        .family(family_sandbox_network_denied::SandboxNetworkDenied)
        .build()
        .expect("the registry builds");
    let mut spoken = 0;
    for path in fixture_files(env!("CARGO_MANIFEST_DIR")) {
        let case = Case::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let Some(finding) = case.observation().and_then(recognize::recognize) else {
            continue;
        };
        let got = decide(&registry, &case);
        if got.decision != Some(advisor_core::testing::Decision::Speak) {
            continue;
        }
        spoken += 1;
        let proven = got.report.contains("\nprovenance: proven");
        // The advisory itself: everything after the summary line.
        let (_, advisory) = got.report.split_once("\nsummary: ").expect("a summary");
        for denial in &finding.denials {
            let host = denial.host.inspect();
            let as_value = value::DomainValue::new(&denial.host).is_ok();
            // The measurement paragraph is the advisor's own (it names the
            // host it measured with, `example.com`), so it is not evidence.
            let own = |l: &&str| l.starts_with("Measured: ");
            for line in advisory
                .lines()
                .skip(1)
                .filter(|l| l.contains(host) && !own(l))
            {
                let quoted = line.starts_with("> ");
                let value_line = proven && as_value && line.trim() == host;
                assert!(
                    quoted || value_line,
                    "{}: `{host}` outside the quote frame in: {line}",
                    case.name
                );
            }
        }
    }
    assert!(spoken >= 20, "only {spoken} advisories were looked at");
}
