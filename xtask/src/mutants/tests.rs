//! Tests of `cargo xtask mutants`: crate selection, outcome parsing, the table.

use super::*;

fn row(package: &str, verdict: Verdict, missed: &[&str]) -> Row {
    Row {
        package: package.to_owned(),
        verdict,
        seconds: 12.4,
        missed: missed.iter().map(|m| (*m).to_owned()).collect(),
    }
}

#[test]
fn only_family_crates_are_found_by_package_name() {
    // `cargo metadata --no-deps` lists the workspace members; the
    // directory a package lives in does not matter, its name does.
    let package = |dir: &str, name: &str| {
        format!(
            r#"{{"name": "{name}", "manifest_path": "/w/{dir}/Cargo.toml", "targets": [], "dependencies": []}}"#
        )
    };
    let metadata = format!(
        r#"{{"packages": [{}]}}"#,
        [
            package("crates/family-b", "sandbox-advisor-family-b"),
            package("crates/family-a", "sandbox-advisor-family-a"),
            package("crates/advisor-core", "sandbox-advisor-core"),
            package("crates/renamed", "sandbox-advisor-family-c"),
            package("crates/family-named-otherwise", "core-helpers"),
            package("examples/family-d", "sandbox-advisor-family-d"),
        ]
        .join(", ")
    );
    let workspace = targets::parse_metadata(&metadata).unwrap();
    assert_eq!(
        family_crates(&workspace),
        [
            "sandbox-advisor-family-a",
            "sandbox-advisor-family-b",
            "sandbox-advisor-family-c",
            "sandbox-advisor-family-d"
        ]
    );
}

#[test]
fn the_stores_and_core_s_modules_are_mutated_beside_the_families() {
    let package = |name: &str| {
        format!(
            r#"{{"name": "{name}", "manifest_path": "/w/crates/{name}/Cargo.toml", "targets": [], "dependencies": []}}"#
        )
    };
    let metadata = format!(
        r#"{{"packages": [{}]}}"#,
        [
            "sandbox-advisor-family-a",
            "sandbox-advisor-core",
            "sandbox-advisor-ledger-file",
            "sandbox-advisor-host-adapter"
        ]
        .map(package)
        .join(", ")
    );
    let workspace = targets::parse_metadata(&metadata).unwrap();
    let all = scopes(&workspace);
    let names: Vec<&str> = all.iter().map(|s| s.package.as_str()).collect();
    // ledger-redis is not in this workspace, so it is not run.
    assert_eq!(
        names,
        [
            "sandbox-advisor-family-a",
            "sandbox-advisor-ledger-file",
            "sandbox-advisor-core"
        ]
    );
    assert!(all[0].files.is_empty() && all[1].files.is_empty());
    assert!(
        all[2]
            .files
            .contains(&"crates/advisor-core/src/digest.rs".to_owned()),
        "{:?}",
        all[2].files
    );
}

#[test]
fn package_narrows_and_unknown_names_are_errors() {
    let whole = |p: &str| Scope {
        package: p.to_owned(),
        files: Vec::new(),
    };
    let all = || vec![whole("family-a"), whole("family-b")];
    assert_eq!(select(all(), &[]).unwrap(), all());
    assert_eq!(
        select(all(), &["family-b".to_owned()]).unwrap(),
        [whole("family-b")]
    );
    let err = select(all(), &["host-adapter".to_owned()]).unwrap_err();
    assert!(
        err.to_string().contains("known: family-a, family-b"),
        "{err}"
    );
}

#[test]
fn counts_come_from_the_outcomes_summary() {
    let json = r#"{"outcomes": [], "total_mutants": 116, "missed": 2, "caught": 80,
        "timeout": 1, "unviable": 33, "success": 0, "cargo_mutants_version": "27.1.0"}"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("outcomes.json");
    fs::write(&path, json).unwrap();
    assert_eq!(
        read_counts(&path).unwrap(),
        Counts {
            total_mutants: 116,
            missed: 2,
            caught: 80,
            timeout: 1,
            unviable: 33
        }
    );
    fs::write(&path, "{}").unwrap();
    assert!(read_counts(&path).is_err());
    assert!(read_counts(&dir.path().join("absent.json")).is_err());
}

#[test]
fn a_crate_passes_only_when_it_ran_and_missed_nothing() {
    let ran = |missed| {
        Verdict::Ran(Counts {
            total_mutants: 3,
            missed,
            caught: 3 - missed,
            ..Counts::default()
        })
    };
    assert!(row("family-a", ran(0), &[]).passed());
    assert!(!row("family-a", ran(1), &["src/a.rs:1:1: x"]).passed());
    assert!(!row("family-a", Verdict::Failed("exit 4".into()), &[]).passed());
}

#[test]
fn the_table_has_one_row_per_crate_and_lists_what_was_missed() {
    let rows = [
        row(
            "family-acl",
            Verdict::Ran(Counts {
                total_mutants: 116,
                caught: 90,
                unviable: 26,
                ..Counts::default()
            }),
            &[],
        ),
        row(
            "family-pty",
            Verdict::Ran(Counts {
                total_mutants: 40,
                missed: 1,
                caught: 39,
                ..Counts::default()
            }),
            &["src/summary.rs:12:5: replace < with <= in bound"],
        ),
        row("family-cim", Verdict::Failed("exit 4".into()), &[]),
    ];
    let text = table(&rows);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("crate       mutants  caught  missed"));
    assert!(lines[1].starts_with("family-acl      116      90       0"));
    assert!(lines[1].ends_with("  ok"));
    assert!(lines[2].ends_with("  MISSED"));
    assert!(lines[3].contains("  -  ") && lines[3].ends_with("FAILED: exit 4"));
    assert_eq!(
        &lines[4..],
        [
            "",
            "missed in family-pty:",
            "  src/summary.rs:12:5: replace < with <= in bound"
        ]
    );
}
