//! Tests of the label-to-target mapping and of target picking.

use super::*;
use crate::libtest::{Outcome, parse};

/// Trimmed `cargo metadata --no-deps --format-version 1` of a workspace
/// shaped like this one (a family crate, the adapter, a CLI with a binary).
const METADATA: &str = r#"{
  "packages": [
    {
      "name": "family-acl",
      "manifest_path": "/w/crates/family-acl/Cargo.toml",
      "dependencies": [
        {"name": "advisor-core", "kind": null, "path": "/w/crates/advisor-core"},
        {"name": "serde", "kind": null},
        {"name": "advisor-core", "kind": "dev", "path": "/w/crates/advisor-core"}
      ],
      "targets": [
        {"name": "family_acl", "kind": ["lib"], "src_path": "/w/crates/family-acl/src/lib.rs"},
        {"name": "advise", "kind": ["test"], "src_path": "/w/crates/family-acl/tests/advise.rs"},
        {"name": "recognize", "kind": ["test"], "src_path": "/w/crates/family-acl/tests/recognize.rs"},
        {"name": "tidy-up", "kind": ["test"], "src_path": "/w/crates/family-acl/tests/tidy-up.rs"},
        {"name": "multi", "kind": ["test"], "src_path": "/w/crates/family-acl/tests/multi/main.rs"},
        {"name": "build-script-build", "kind": ["custom-build"], "src_path": "/w/crates/family-acl/build.rs"}
      ]
    },
    {
      "name": "advisor-core",
      "manifest_path": "/w/crates/advisor-core/Cargo.toml",
      "dependencies": [{"name": "advisor-core", "kind": "dev", "path": "/w/crates/advisor-core"}],
      "targets": [
        {"name": "advisor_core", "kind": ["lib"], "src_path": "/w/crates/advisor-core/src/lib.rs"}
      ]
    },
    {
      "name": "host-adapter",
      "manifest_path": "/w/crates/host-adapter/Cargo.toml",
      "dependencies": [{"name": "family-acl", "kind": null, "path": "/w/crates/family-acl"}],
      "targets": [
        {"name": "host_adapter", "kind": ["lib"], "src_path": "/w/crates/host-adapter/src/lib.rs"},
        {"name": "family_acl", "kind": ["test"], "src_path": "/w/crates/host-adapter/tests/family_acl.rs"},
        {"name": "hot_path", "kind": ["bench"], "src_path": "/w/crates/host-adapter/benches/hot_path.rs"},
        {"name": "acl", "kind": ["example"], "src_path": "/w/crates/host-adapter/examples/acl.rs"}
      ]
    },
    {
      "name": "sandbox-advisor",
      "manifest_path": "/w/crates/sandbox-advisor/Cargo.toml",
      "dependencies": [{"name": "host-adapter", "kind": null, "path": "/w/crates/host-adapter"}],
      "targets": [
        {"name": "sandbox_advisor", "kind": ["lib"], "src_path": "/w/crates/sandbox-advisor/src/lib.rs"},
        {"name": "sandbox-advisor", "kind": ["bin"], "src_path": "/w/crates/sandbox-advisor/src/main.rs"},
        {"name": "odd", "kind": ["test"], "src_path": "/w/crates/sandbox-advisor/src/main.rs"}
      ]
    }
  ],
  "workspace_members": [],
  "version": 1
}"#;

/// A baseline of `family-acl` as cargo prints it (unit tests, then one
/// binary per integration test; `tests::shared` is in two binaries).
const BASELINE: &str = "\
   Compiling family-acl v0.1.0 (/w/crates/family-acl)
    Finished `test` profile [unoptimized] target(s) in 9.01s
     Running unittests src/lib.rs (/w/target/debug/deps/family_acl-7e953cf6c8e35d71)

running 2 tests
test recognize::tests::refuses_sibling ... ok
test tests::shared ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/advise.rs (/w/target/debug/deps/advise-4cda0c4f6e569ca9)

running 2 tests
test snapshot_apply_other ... ok
test tests::shared ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

     Running tests/multi/main.rs (/w/target/debug/deps/multi-88545bfcbdf637b8)

running 1 test
test whole_line_only ... ignored, needs a pty

test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/recognize.rs (/w/target/debug/deps/recognize-88545bfcbdf637b8)

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/tidy-up.rs (/w/target/debug/deps/tidy_up-f44fefee94d5840c)

running 1 test
test tidy_names ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn args(v: &[&str]) -> Pick {
    Pick::Targets(names(v))
}

#[test]
fn reads_targets_and_workspace_dependencies_from_metadata() {
    let workspace = parse_metadata(METADATA).unwrap();
    let acl = &workspace["family-acl"];
    assert_eq!(
        acl.targets[0],
        Target {
            flag: "--lib",
            name: "family_acl".to_owned(),
            src: "src/lib.rs".to_owned()
        }
    );
    let srcs: Vec<(&str, &str)> = acl
        .targets
        .iter()
        .map(|t| (t.flag, t.src.as_str()))
        .collect();
    assert_eq!(
        srcs,
        [
            ("--lib", "src/lib.rs"),
            ("--test", "tests/advise.rs"),
            ("--test", "tests/recognize.rs"),
            ("--test", "tests/tidy-up.rs"),
            ("--test", "tests/multi/main.rs"),
        ],
        "the build script is no test target"
    );
    // Registry dependencies and the self dev-dependency are not workspace edges.
    assert_eq!(acl.deps, BTreeSet::from(["advisor-core".to_owned()]));
    assert!(workspace["advisor-core"].deps.is_empty());
    assert!(parse_metadata("{\"packages\": 3}").is_err());
}

#[test]
fn maps_running_labels_to_cargo_selectors() {
    let workspace = parse_metadata(METADATA).unwrap();
    let acl = &workspace["family-acl"].targets;
    let selector =
        |label: &str, targets: &[Target]| target_of_label(label, targets).map(Target::args);
    assert_eq!(
        selector("unittests src/lib.rs", acl),
        Some(names(&["--lib"]))
    );
    assert_eq!(
        selector("tests/advise.rs", acl),
        Some(names(&["--test", "advise"]))
    );
    // The target name, not the binary's file name (`tidy_up-…`).
    assert_eq!(
        selector("tests/tidy-up.rs", acl),
        Some(names(&["--test", "tidy-up"]))
    );
    assert_eq!(
        selector("tests/multi/main.rs", acl),
        Some(names(&["--test", "multi"]))
    );
    assert_eq!(selector("tests/gone.rs", acl), None);
    // A unit-test label never names an integration test, nor the reverse.
    assert_eq!(selector("unittests tests/advise.rs", acl), None);
    assert_eq!(selector("src/lib.rs", acl), None);

    let adapter = &workspace["host-adapter"].targets;
    assert_eq!(
        selector("benches/hot_path.rs", adapter),
        Some(names(&["--bench", "hot_path"]))
    );
    assert_eq!(
        selector("unittests examples/acl.rs", adapter),
        Some(names(&["--example", "acl"]))
    );
    let cli = &workspace["sandbox-advisor"].targets;
    assert_eq!(
        selector("unittests src/main.rs", cli),
        Some(names(&["--bin", "sandbox-advisor"]))
    );
    assert_eq!(
        selector("src/main.rs", cli),
        Some(names(&["--test", "odd"]))
    );
}

#[test]
fn parse_files_each_test_under_its_binary_label() {
    let parsed = parse(&lines(BASELINE));
    assert_eq!(
        parsed.binaries,
        [
            "unittests src/lib.rs",
            "tests/advise.rs",
            "tests/multi/main.rs",
            "tests/recognize.rs",
            "tests/tidy-up.rs"
        ]
    );
    assert_eq!(
        parsed.outcomes["tests::shared"],
        [
            ("unittests src/lib.rs".to_owned(), Outcome::Passed),
            ("tests/advise.rs".to_owned(), Outcome::Passed)
        ]
    );
    assert_eq!(
        parsed.outcomes["tidy_names"],
        [("tests/tidy-up.rs".to_owned(), Outcome::Passed)]
    );
}

#[test]
fn picks_only_the_targets_holding_the_named_tests() {
    let workspace = parse_metadata(METADATA).unwrap();
    let targets = Some(workspace["family-acl"].targets.as_slice());
    let baseline = parse(&lines(BASELINE)).outcomes;
    let pick_for = |tests: &[&str]| pick(&names(tests), &baseline, targets);

    assert_eq!(
        pick_for(&["recognize::tests::refuses_sibling"]),
        args(&["--lib"])
    );
    assert_eq!(
        pick_for(&["snapshot_apply_other"]),
        args(&["--test", "advise"])
    );
    // A name in two binaries selects both; `--lib` comes first.
    assert_eq!(
        pick_for(&["tests::shared"]),
        args(&["--lib", "--test", "advise"])
    );
    assert_eq!(
        pick_for(&["tidy_names", "whole_line_only", "snapshot_apply_other"]),
        args(&["--test", "advise", "--test", "multi", "--test", "tidy-up"])
    );
    // A name that is nowhere picks nothing beside the others (it is SILENT
    // by `classify`: no result).
    assert_eq!(
        pick_for(&["nope", "tidy_names"]),
        args(&["--test", "tidy-up"])
    );
    assert_eq!(pick_for(&["nope"]), Pick::Nothing);
    assert_eq!(Pick::Nothing.args(), None);
    // No metadata, or a label no target fits: every target, as the baseline.
    assert_eq!(
        pick(&names(&["tidy_names"]), &baseline, None),
        Pick::Everything
    );
    let without_tidy: Vec<Target> = workspace["family-acl"]
        .targets
        .iter()
        .filter(|t| t.name != "tidy-up")
        .cloned()
        .collect();
    assert_eq!(
        pick(&names(&["tidy_names"]), &baseline, Some(&without_tidy)),
        Pick::Everything
    );
    assert_eq!(Pick::Everything.args(), Some(names(&ALL_TARGETS)));
}

#[test]
fn closure_counts_workspace_dependencies() {
    let workspace = parse_metadata(METADATA).unwrap();
    let size = |p: &[&str]| closure_size(&workspace, &names(p));
    assert_eq!(size(&["advisor-core"]), 1);
    assert_eq!(size(&["family-acl"]), 2);
    assert_eq!(size(&["host-adapter"]), 3);
    assert_eq!(size(&["family-acl", "host-adapter"]), 3);
    assert_eq!(size(&["sandbox-advisor"]), 4);
    assert_eq!(size(&["not-a-member"]), 1);
}
