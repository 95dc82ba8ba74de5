//! The plans of entries against a baseline and the workspace's targets.

use super::*;
use crate::libtest::Outcome;
use crate::targets::Target;

fn entry(package: &str, packages: &[&str], tests: &[&str]) -> Entry {
    Entry::sample(package, packages, tests)
}

fn outcomes(tests: &[(&str, &str)]) -> Outcomes {
    let mut outcomes = Outcomes::new();
    for (name, label) in tests {
        outcomes
            .entry((*name).to_owned())
            .or_default()
            .push(((*label).to_owned(), Outcome::Passed));
    }
    outcomes
}

fn target(flag: &'static str, name: &str, src: &str) -> Target {
    Target {
        flag,
        name: name.to_owned(),
        src: src.to_owned(),
    }
}

fn fixture() -> (Baseline, Workspace) {
    let mut baseline = Baseline::new();
    baseline.insert(
        "family-x".to_owned(),
        Ok(outcomes(&[
            ("recognize::tests::unit", "unittests src/lib.rs"),
            ("refuses", "tests/recognition.rs"),
        ])),
    );
    baseline.insert(
        "host-adapter".to_owned(),
        Ok(outcomes(&[("adapter_x", "tests/family_x.rs")])),
    );
    baseline.insert("broken-pkg".to_owned(), Err("does not compile".to_owned()));
    let mut workspace = Workspace::new();
    workspace.insert(
        "family-x".to_owned(),
        targets::Package {
            targets: vec![
                target("--lib", "family_x", "src/lib.rs"),
                target("--test", "recognition", "tests/recognition.rs"),
                target("--test", "gate", "tests/gate.rs"),
            ],
            deps: Default::default(),
            dir: Default::default(),
        },
    );
    workspace.insert(
        "host-adapter".to_owned(),
        targets::Package {
            targets: vec![
                target("--lib", "host_adapter", "src/lib.rs"),
                target("--test", "family_x", "tests/family_x.rs"),
                target("--test", "precedence", "tests/precedence.rs"),
            ],
            deps: Default::default(),
            dir: Default::default(),
        },
    );
    (baseline, workspace)
}

fn run(package: &str, args: &[&str]) -> (String, Vec<String>) {
    (
        package.to_owned(),
        args.iter().map(|a| (*a).to_owned()).collect(),
    )
}

#[test]
fn plan_runs_only_the_targets_of_the_named_tests() {
    let (baseline, workspace) = fixture();
    let plan_of = |e: &Entry| plan(e, Some(&baseline), Some(&workspace));
    assert_eq!(
        plan_of(&entry("family-x", &["family-x"], &["refuses"])),
        [run("family-x", &["--test", "recognition"])]
    );
    assert_eq!(
        plan_of(&entry(
            "family-x",
            &["family-x", "host-adapter"],
            &["recognize::tests::unit", "adapter_x", "refuses"]
        )),
        [
            run("family-x", &["--lib", "--test", "recognition"]),
            run("host-adapter", &["--test", "family_x"])
        ]
    );
    // host-adapter holds none of the named tests: it is not run.
    assert_eq!(
        plan_of(&entry(
            "family-x",
            &["family-x", "host-adapter"],
            &["refuses"]
        )),
        [run("family-x", &["--test", "recognition"])]
    );
    // Only the adapter holds them: the mutated crate builds as its dependency.
    assert_eq!(
        plan_of(&entry("family-x", &["host-adapter"], &["adapter_x"])),
        [run("host-adapter", &["--test", "family_x"])]
    );
}

#[test]
fn plan_still_builds_the_mutated_library_when_no_named_test_exists() {
    let (baseline, workspace) = fixture();
    assert_eq!(
        plan(
            &entry("family-x", &["family-x", "host-adapter"], &["gone"]),
            Some(&baseline),
            Some(&workspace)
        ),
        [run("family-x", &["--lib"])]
    );
    // An equivalence claim without tests: the same compile check.
    assert_eq!(
        plan(
            &entry("family-x", &["host-adapter"], &[]),
            Some(&baseline),
            Some(&workspace)
        ),
        [run("family-x", &["--lib"])]
    );
    // No metadata for the package: every target, as the baseline ran.
    assert_eq!(
        plan(
            &entry("family-x", &["family-x"], &["gone"]),
            Some(&baseline),
            None
        ),
        [run("family-x", &["--lib", "--tests"])]
    );
}

#[test]
fn plan_without_baseline_or_mapping_runs_everything() {
    let (baseline, workspace) = fixture();
    assert_eq!(
        plan(
            &entry("family-x", &["family-x", "host-adapter"], &["refuses"]),
            None,
            Some(&workspace)
        ),
        [
            run("family-x", &["--lib", "--tests"]),
            run("host-adapter", &["--lib", "--tests"])
        ]
    );
    // Tests found, but no metadata to name their targets.
    assert_eq!(
        plan(
            &entry("family-x", &["family-x"], &["refuses"]),
            Some(&baseline),
            None
        ),
        [run("family-x", &["--lib", "--tests"])]
    );
}
