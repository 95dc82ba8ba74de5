//! `explain` and `families`.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The decisions asserted here are the shipped families'.
#![cfg(feature = "all-families")]

mod common;

use common::*;

#[test]
fn a_recognized_message_prints_the_advisory_and_exits_0() {
    let out = run(
        &[
            "explain",
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let first = out.stdout.lines().next().unwrap();
    assert_eq!(
        first,
        "acl-provisioning recognizes this and speaks (host dsh on win32, mode unknown (no --mode), root none (no --root), tool pwsh)."
    );
    assert!(out.stdout.contains(r#"icacls "D:\ws""#));
    assert!(
        !out.stdout.contains("Also matched:"),
        "no other family matched"
    );
}

#[test]
fn without_a_mode_a_family_that_needs_it_withholds_and_says_how_to_resolve_it() {
    let out = run(&["explain", "PTY shell exited during startup"], "");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("pty-startup recognizes this but withholds its advisory")
    );
    assert!(out.stdout.contains(
        "no-policy-service — the sandbox mode is unknown; pass --mode (and --root) to resolve it"
    ));
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--electron",
            "PTY shell exited during startup",
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with(
        "pty-startup recognizes this and speaks (host dsh on win32, Electron host, mode workspace-write"
    ));
}

#[test]
fn a_success_value_is_explained_with_value() {
    let value = r#"{"kind":"foreground","exitCode":-1073741502,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"","truncated":false},"stderr":{"text":"","truncated":false},"sandbox":{"mode":"workspace-write","denied":false,"enforcement":"partial"}}"#;
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--root",
            r"D:\ws",
            "--value",
            value,
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stdout
            .starts_with("native-init recognizes this and speaks")
    );
}

#[test]
fn nothing_recognized_lists_every_family_and_why_then_exits_1() {
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "npm ERR! code ELIFECYCLE",
        ],
        "",
    );
    assert_eq!(out.code, 1);
    let mut lines = out.stdout.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Nothing recognized this (host dsh on win32, mode workspace-write, root none (no --root), tool pwsh). The families that looked:"
    );
    let looked: Vec<&str> = lines
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let harness: Vec<&str> = registry()
        .families_on(advisor_core::Host::Dsh)
        .map(|f| f.id().as_str())
        .collect();
    assert_eq!(
        looked, harness,
        "every family of the host, in precedence order"
    );
    assert!(
        harness.len() < family_ids().len(),
        "other hosts' families are not asked"
    );
    assert!(out.stdout.contains(&format!(
        "  {} not its shape — it looks for ",
        column("pty-startup")
    )));
}

/// A family id padded as `explain` aligns its list: to the longest id compiled in, plus one space.
fn column(id: &str) -> String {
    let width = family_ids().iter().map(|f| f.len()).max().unwrap();
    format!("{id:<width$} ")
}

#[test]
fn an_outranked_family_is_named_with_its_owner() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/sessions/cim-wmi.jsonl"
    );
    let post = std::fs::read_to_string(fixture).unwrap();
    let line: serde_json::Value = serde_json::from_str(post.lines().nth(5).unwrap()).unwrap();
    let value = line["result"]["value"].to_string();
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--root",
            r"D:\ws",
            "--value",
            &value,
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("cim-wmi-denial recognizes this and speaks")
    );
    assert!(out.stdout.ends_with(&format!(
        "\nAlso matched:\n  {} matches too, but cim-wmi-denial comes first and owns it\n",
        column("workspace-denial")
    )));
}

#[test]
fn aggregate_members_are_passed_with_member() {
    let out = run(
        &[
            "explain",
            "--member",
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
            "sandbox-local windows-acl workspace grant failed and its cleanup also failed",
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("acl-aggregate-failure recognizes this and speaks")
    );
}

#[test]
fn explain_usage_errors_exit_2() {
    assert_eq!(run(&["explain"], "").code, 2, "no subject");
    assert_eq!(run(&["explain", "--value", "{not json"], "").code, 2);
    assert_eq!(run(&["explain", "--mode", "full", "x"], "").code, 2);
    assert_eq!(run(&["explain", "--platform", "dos", "x"], "").code, 2);
    assert_eq!(
        run(&["explain", "x", "--value", "{}"], "").code,
        2,
        "both subjects"
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.json");
    std::fs::write(&config, r#"{"hreff": "https://example.org"}"#).unwrap();
    let out = run(&["explain", "--config", config.to_str().unwrap(), "x"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("config key `hreff`"));
}

#[test]
fn families_lists_ids_descriptions_refusals_and_the_fail_fast_family() {
    let out = run(&["families", "--format", "json"], "");
    assert_eq!(out.code, 0);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let ids: Vec<&str> = listed.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        family_ids(),
        "the registry's families, in precedence order"
    );
    let registry = registry();
    let fail_fast: Vec<&str> = listed
        .iter()
        .filter(|f| f["failFast"] == true)
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    // At most one per host: the harness's, and the clients' (one for both).
    let mut expected: Vec<&str> = advisor_core::Host::ALL
        .into_iter()
        .filter_map(|h| registry.fail_fast_family_on(h))
        .map(|f| f.as_str())
        .collect();
    expected.dedup();
    assert_eq!(fail_fast, expected);
    assert_eq!(
        fail_fast,
        ["acl-provisioning", "bwrap-cannot-start", "bwrap-not-found"],
        "the shipped fail-fast families"
    );
    for f in &listed {
        assert!(!f["recognizes"].as_str().unwrap().is_empty());
        assert!(!f["refuses"].as_str().unwrap().is_empty());
    }
    let text = run(&["families"], "");
    assert!(text.stdout.starts_with(&format!(
        "{} families compiled in, in precedence order",
        ids.len()
    )));
    let position = |id: &str| ids.iter().position(|i| *i == id).unwrap() + 1;
    assert!(text.stdout.contains(&format!(
        "\n{}. acl-provisioning  [fail-fast]\n   hosts:      dsh\n   recognizes: ",
        position("acl-provisioning")
    )));
    for f in &listed {
        assert!(!f["hosts"].as_array().unwrap().is_empty(), "{f}");
    }
    assert!(text.stdout.contains(&format!(
        "{}. temp-root-inside-workspace  [pre-flight on win32]\n",
        position("temp-root-inside-workspace")
    )));
}

#[test]
fn the_readme_lists_exactly_the_registered_families_in_precedence_order() {
    let documented = readme_families();
    assert!(
        !documented.is_empty(),
        "README.md's Families table has rows"
    );
    // The rows are the registry, in its order: a family registered without a
    // row (a scaffolded one included; `cargo xtask new-family` writes its row)
    // fails here, as does a row for a family the build does not register.
    let registered = family_ids();
    let rows: Vec<&str> = documented.iter().map(|row| row.id.as_str()).collect();
    assert_eq!(
        rows, registered,
        "README.md's Families table must list exactly the registered families, in precedence order"
    );
    let registry = registry();
    for row in &documented {
        let declared: Vec<&str> = registry
            .families()
            .find(|f| f.id().as_str() == row.id)
            .map(|f| f.hosts().iter().map(|h| h.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(row.hosts, declared, "README.md's hosts for `{}`", row.id);
        let crate_readme = std::fs::read_to_string(
            repo_root()
                .join("crates")
                .join(&row.krate)
                .join("README.md"),
        )
        .unwrap_or_else(|e| panic!("`{}`: crates/{}/README.md: {e}", row.id, row.krate));
        assert!(
            crate_readme.contains(&format!("`{}`", row.id)),
            "crates/{}/README.md does not name `{}`",
            row.krate,
            row.id
        );
    }
}

/// The keys of a protocol decision line, in order (docs/protocol.md, "Output lines").
const DECISION_KEYS: [&str; 7] = [
    "seq",
    "type",
    "agent",
    "call",
    "advisories",
    "withheld",
    "refusal",
];

/// `explain` arguments, its exit code, the families that speak, the withheld `(family, reason)`.
type Case = (
    &'static [&'static str],
    i32,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

#[test]
fn explain_format_json_prints_one_protocol_decision_line() {
    // (arguments, exit code, families that speak, withheld [family, reason])
    let cases: [Case; 4] = [
        (
            &[r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)"],
            0,
            &["acl-provisioning"],
            &[],
        ),
        (
            &["PTY shell exited during startup"],
            0,
            &[],
            &[("pty-startup", "no-policy-service")],
        ),
        (
            &[
                "--mode",
                "danger-full-access",
                "PTY shell exited during startup",
            ],
            0,
            &[],
            &[("pty-startup", "unconfined-mode")],
        ),
        (
            &["--mode", "workspace-write", "npm ERR! code ELIFECYCLE"],
            1,
            &[],
            &[],
        ),
    ];
    for (args, code, speaks, withheld) in cases {
        let mut argv = vec!["explain", "--format", "json"];
        argv.extend(args);
        let out = run(&argv, "");
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
        let text = run(&[&["explain"][..], args].concat(), "");
        assert_eq!(text.code, code, "the same exit code as the text");
        let json = out.json();
        assert_eq!(json.len(), 1, "one line: {}", out.stdout);
        let line = json[0].as_object().unwrap();
        assert_eq!(line.keys().collect::<Vec<_>>(), DECISION_KEYS);
        assert_eq!(
            (&line["seq"], &line["type"], &line["agent"], &line["call"]),
            (
                &serde_json::json!(1),
                &serde_json::json!("post"),
                &serde_json::json!("explain"),
                &serde_json::json!("explain")
            )
        );
        assert_eq!(line["refusal"], serde_json::Value::Null);
        let families: Vec<&str> = line["advisories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["family"].as_str().unwrap())
            .collect();
        assert_eq!(families, speaks, "{args:?}");
        let held: Vec<(&str, &str)> = line["withheld"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| (w["family"].as_str().unwrap(), w["reason"].as_str().unwrap()))
            .collect();
        assert_eq!(held, withheld, "{args:?}");
    }

    // The advisory object is the one `replay` puts on a post line.
    let explained = run(
        &[
            "explain",
            "--format",
            "json",
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        ],
        "",
    );
    let replayed = run(
        &["replay", "-", "--format", "json"],
        lines(&[HOST, SESSION, MODE, ACL_A1]),
    );
    let keys = |v: &serde_json::Value| {
        v["advisories"][0]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&explained.json()[0]), keys(&replayed.json()[0]));
}

/// The README's `sandbox-advisor` commands, as words (single quotes honoured).
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    readme
        .lines()
        .filter_map(|l| l.strip_prefix("cargo run --release -p sandbox-advisor -- "))
        .map(|command| {
            let command = command.split(" #").next().unwrap().trim();
            let mut words = Vec::new();
            let mut word = String::new();
            let mut quoted = false;
            for c in command.chars() {
                match c {
                    '\'' => quoted = !quoted,
                    ' ' if !quoted => {
                        if !word.is_empty() {
                            words.push(std::mem::take(&mut word));
                        }
                    }
                    c => word.push(c),
                }
            }
            words.push(word);
            words
        })
        .collect()
}

/// The README's PTY example shows the main case, and says what `--electron`
/// changes. (Every README command runs in `tests/docs`.)
#[test]
fn the_readme_pty_example_shows_the_main_case() {
    let pty: Vec<Vec<String>> = readme_commands()
        .into_iter()
        .filter(|words| words.iter().any(|w| w == "PTY shell exited during startup"))
        .collect();
    assert_eq!(pty.len(), 1, "{pty:?}");
    let args: Vec<&str> = pty[0].iter().map(String::as_str).collect();
    // The main case: a packaged Electron host under a confining mode, not the hedged variant.
    assert!(args.contains(&"--electron"), "{args:?}");
    let out = run_in(&repo_root(), &args, "");
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    assert!(
        out.stdout.starts_with(
            "pty-startup recognizes this and speaks (host dsh on win32, Electron host, mode workspace-write"
        ),
        "{}",
        out.stdout
    );
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    assert!(
        readme.contains("Without `--electron`"),
        "the README says what the flag changes"
    );
}

#[test]
fn bare_issue_numbers_name_their_repository_unless_href_is_set() {
    let sentence = format!(
        "The #-numbers above are discussions in the {} repository on GitHub.",
        advisor_core::DISCUSSIONS_REPOSITORY
    );
    let message = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
    let plain = run(&["explain", "--format", "json", message], "");
    // The full account cites the discussions; the brief does not.
    let text = plain.json()[0]["advisories"][0]["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.trim_end().ends_with(&sentence), "{text}");
    assert_eq!(text.matches(&sentence).count(), 1);

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.json");
    std::fs::write(&config, r#"{"href": "https://example.org/sandbox"}"#).unwrap();
    let cited = run(
        &[
            "explain",
            "--format",
            "json",
            "--config",
            config.to_str().unwrap(),
            message,
        ],
        "",
    );
    let text = cited.json()[0]["advisories"][0]["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        !text.contains(advisor_core::DISCUSSIONS_REPOSITORY),
        "{text}"
    );

    for doc in ["docs/configuration.md", "docs/protocol.md"] {
        let doc_text = std::fs::read_to_string(repo_root().join(doc)).unwrap();
        assert!(
            doc_text.contains(advisor_core::DISCUSSIONS_REPOSITORY),
            "{doc} names the repository behind the numbers"
        );
    }
}
