//! `hook --dialect claude-code|codex` as the hosts run it: one payload on
//! stdin per process. Every case is a pair of files in `tests/hooks/<dialect>/`:
//! `<case>.json`, the payload as the host writes it, and `<case>.toml`, the
//! command line and what must come out. One helper, [`check`], runs them all.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The decisions asserted here are the shipped families'.
#![cfg(feature = "all-families")]

mod common;

use std::path::{Path, PathBuf};

use advisor_core::Anchors;
use common::*;
use sandbox_advisor::hook::reference::{CLAUDE_CODE, CODEX, Reference};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    about: String,
    args: Vec<String>,
    expect: Expect,
    control: Option<Control>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    exit: i32,
    stdout: Answer,
    /// The families whose advisories were delivered (from the host log).
    #[serde(default)]
    advised: Vec<String>,
    /// The agent they were delivered to.
    agent: Option<String>,
    /// The families withheld on the failure seat (from the host log).
    #[serde(default)]
    withheld: Vec<String>,
    /// Their reasons, in the same order, when the case names them.
    #[serde(default)]
    reasons: Vec<String>,
    /// For exit 1: what the one stderr line must name.
    error_names: Option<String>,
}

#[derive(Deserialize, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Answer {
    Advisory,
    None,
}

/// The same call's structured value through `explain --value`, which must speak:
/// proof that a silent case is silent because of what the hook reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Control {
    family: String,
    value: String,
}

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/hooks")
}

fn reference(dialect: &str) -> &'static Reference {
    match dialect {
        "claude-code" => &CLAUDE_CODE,
        "codex" => &CODEX,
        other => panic!("no dialect {other}"),
    }
}

/// Every case of `dialect`, by name, sorted.
fn cases(dialect: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir().join(dialect))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

fn load(dialect: &str, name: &str) -> (Spec, Vec<u8>) {
    let dir = cases_dir().join(dialect);
    let spec = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
    let spec: Spec = toml::from_str(&spec).unwrap_or_else(|e| panic!("{dialect}/{name}: {e}"));
    assert!(!spec.about.is_empty());
    (
        spec,
        std::fs::read(dir.join(format!("{name}.json"))).unwrap(),
    )
}

/// The value of `key=` on a host-log line.
fn field<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .map(|v| v.trim_matches('"'))
}

/// Runs one case and checks it against its expectations and its snapshot.
fn check(dialect: &str, name: &str) {
    let (spec, payload) = load(dialect, name);
    let at = format!("{dialect}/{name}");
    let mut args = vec!["--log", "info", "hook", "--dialect", dialect];
    args.extend(spec.args.iter().map(String::as_str));
    let run = run(&args, payload.clone());
    let expect = &spec.expect;
    assert_eq!(run.code, expect.exit, "{at}: exit\n{}", run.stderr);

    // The host log (tracing lines) and the command's own lines.
    let (log, plain): (Vec<&str>, Vec<&str>) = run
        .stderr
        .lines()
        .partition(|l| l.contains(" sandbox_advisor::"));
    let delivered: Vec<&str> = log
        .iter()
        .filter(|l| l.contains("sandbox_advisor::advisory"))
        .copied()
        .collect();
    let advised: Vec<&str> = delivered
        .iter()
        .filter_map(|l| field(l, "family"))
        .collect();
    assert_eq!(advised, expect.advised, "{at}: advised\n{}", run.stderr);
    if let Some(agent) = &expect.agent {
        for line in &delivered {
            assert_eq!(field(line, "agent"), Some(agent.as_str()), "{at}: {line}");
        }
    }
    let withheld: Vec<&str> = log
        .iter()
        .filter(|l| l.contains("sandbox_advisor::withheld") && l.contains("seat=\"failure\""))
        .filter_map(|l| field(l, "family"))
        .collect();
    assert_eq!(withheld, expect.withheld, "{at}: withheld\n{}", run.stderr);
    if !expect.reasons.is_empty() {
        let reasons: Vec<&str> = log
            .iter()
            .filter(|l| l.contains("sandbox_advisor::withheld") && l.contains("seat=\"failure\""))
            .filter_map(|l| field(l, "reason"))
            .collect();
        assert_eq!(reasons, expect.reasons, "{at}: reasons\n{}", run.stderr);
    }

    match expect.stdout {
        Answer::None => assert_eq!(run.stdout, "", "{at}: stdout"),
        Answer::Advisory => {
            let event: serde_json::Value = serde_json::from_slice(&payload).unwrap();
            let answer = only_line(&run.stdout, &at);
            within_reference(reference(dialect), &answer, &at);
            let specific = &answer["hookSpecificOutput"];
            assert_eq!(specific["hookEventName"], event["hook_event_name"], "{at}");
            let context = specific["additionalContext"].as_str().unwrap();
            assert!(!context.trim().is_empty(), "{at}");
            assert!(
                !expect.advised.is_empty(),
                "{at}: an advisory from no family"
            );
        }
    }
    if expect.exit == 1 {
        assert_eq!(plain.len(), 1, "{at}: one stderr line\n{}", run.stderr);
        let names = expect.error_names.as_deref().unwrap();
        assert!(plain[0].contains(names), "{at}: {}", plain[0]);
    } else {
        assert!(plain.is_empty(), "{at}: {}", run.stderr);
    }
    if let Some(control) = &spec.control {
        check_control(control, &payload, &at);
    }
    let stdout = if run.stdout.is_empty() {
        "(nothing)".to_owned()
    } else {
        serde_json::to_string_pretty(&only_line(&run.stdout, &at)).unwrap()
    };
    insta::assert_snapshot!(
        format!("{dialect}-{name}"),
        format!(
            "exit {}\nstdout:\n{stdout}\nstderr:\n{}",
            run.code,
            plain.join("\n")
        )
    );
}

fn only_line(stdout: &str, at: &str) -> serde_json::Value {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{at}: one object on stdout: {stdout}");
    serde_json::from_str(lines[0]).unwrap()
}

/// The object uses only the fields the dialect's reference allows for its event.
fn within_reference(reference: &Reference, answer: &serde_json::Value, at: &str) {
    for key in answer.as_object().unwrap().keys() {
        assert!(reference.output_top.contains(&key.as_str()), "{at}: {key}");
    }
    let specific = answer["hookSpecificOutput"].as_object().unwrap();
    let event = reference
        .event(specific["hookEventName"].as_str().unwrap())
        .unwrap();
    for key in specific.keys() {
        assert!(event.output.contains(&key.as_str()), "{at}: {key}");
    }
}

fn check_control(control: &Control, payload: &[u8], at: &str) {
    let event: serde_json::Value = serde_json::from_slice(payload).unwrap();
    let tool = event["tool_name"].as_str().unwrap();
    let command = event["tool_input"]["command"].as_str().unwrap();
    let cwd = event["cwd"].as_str().unwrap();
    let run = run(
        &[
            "explain",
            "--format",
            "json",
            "--platform",
            "win32",
            "--mode",
            "workspace-write",
            "--root",
            cwd,
            "--tool",
            tool,
            "--command",
            command,
            "--value",
            &control.value,
        ],
        "",
    );
    assert_eq!(
        run.code, 0,
        "{at}: the control did not speak\n{}",
        run.stdout
    );
    let line = only_line(&run.stdout, at);
    assert_eq!(
        line["advisories"][0]["family"],
        control.family.as_str(),
        "{at}"
    );
}

#[test]
fn claude_code_cases() {
    for name in cases("claude-code") {
        check("claude-code", &name);
    }
}

#[test]
fn codex_cases() {
    for name in cases("codex") {
        check("codex", &name);
    }
}

/// Every event of each dialect has a case, and every family that reads the
/// producer's structured value (derived from the registry's anchors) has a
/// text-only case in each dialect that stays silent.
#[test]
fn the_cases_cover_every_event_and_every_value_family() {
    let value_families: Vec<&str> = registry()
        .families()
        .filter(|f| {
            matches!(
                f.anchors(),
                Anchors::ForegroundRun { .. } | Anchors::ForegroundRunOrFailureText { .. }
            )
        })
        .map(|f| f.id().as_str())
        .collect();
    assert!(!value_families.is_empty());
    for reference in [&CLAUDE_CODE, &CODEX] {
        let dialect = reference.dialect;
        let loaded: Vec<(Spec, serde_json::Value)> = cases(dialect)
            .iter()
            .map(|name| {
                let (spec, payload) = load(dialect, name);
                (spec, serde_json::from_slice(&payload).unwrap_or_default())
            })
            .collect();
        for event in reference.events {
            assert!(
                loaded
                    .iter()
                    .any(|(spec, p)| spec.expect.exit == 0 && p["hook_event_name"] == event.name),
                "{dialect}: no case answers {}",
                event.name
            );
        }
        for family in &value_families {
            assert!(
                loaded.iter().any(|(spec, p)| {
                    spec.control.as_ref().is_some_and(|c| c.family == *family)
                        && p["tool_response"].is_string()
                        && spec.expect.stdout == Answer::None
                }),
                "{dialect}: no text-only case for {family}"
            );
        }
        assert!(
            loaded.iter().any(|(s, _)| s.expect.exit == 1),
            "{dialect}: no malformed case"
        );
        // Each payload has its expectations, and each expectation its payload.
        for entry in std::fs::read_dir(cases_dir().join(dialect)).unwrap() {
            let path = entry.unwrap().path();
            let twin = path.with_extension(match path.extension().unwrap().to_str() {
                Some("json") => "toml",
                Some("toml") => "json",
                other => panic!("{}: unexpected file ({other:?})", path.display()),
            });
            assert!(Path::new(&twin).exists(), "{} has no twin", path.display());
        }
    }
}
