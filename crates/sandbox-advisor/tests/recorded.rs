//! The payloads the real clients sent (`docs/hooks/`), read by the hook as
//! each client runs it, and the answers, kept beside them in
//! `docs/hooks/answers/` as snapshots: what the advisor says to each
//! recorded event, in the host the dialect names.
//!
//! Two checks per payload: every field it carries is in the dialect's
//! reference table for its event (so a field a new client version adds is
//! seen here first), and the hook's answer is its snapshot.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use std::path::{Path, PathBuf};

use common::*;
use sandbox_advisor::hook::reference::{CLAUDE_CODE, CODEX, Reference};

fn recorded_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/hooks")
}

/// The mode each client ran a scenario under, as the recording script set
/// it (its names say it, `.ci/clients.sh`): Codex under `workspace-write`,
/// but `readonly-*` under `read-only`, and the controls run with the sandbox
/// off (`control-readonly-mount`, `*full-access*`) under
/// `danger-full-access`; Claude Code's sandbox has no mode of this vocabulary.
fn mode(client: &str, scenario: &str) -> Option<&'static str> {
    match (client, scenario) {
        ("codex", "control-readonly-mount") => Some("danger-full-access"),
        ("codex", s) if s.contains("full-access") => Some("danger-full-access"),
        ("codex", s) if s.starts_with("readonly-") => Some("read-only"),
        ("codex", _) => Some("workspace-write"),
        _ => None,
    }
}

/// Every `<scenario>.<Event>.json` of `client`, sorted.
fn payloads(client: &str, reference: &Reference) -> Vec<(String, String, PathBuf)> {
    let mut out: Vec<_> = std::fs::read_dir(recorded_dir().join(client))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_owned();
            let mut parts = name.split('.');
            let (scenario, event, ext) = (parts.next()?, parts.next()?, parts.next()?);
            (ext == "json" && parts.next().is_none() && reference.event(event).is_some())
                .then(|| (scenario.to_owned(), event.to_owned(), path))
        })
        .collect();
    out.sort();
    out
}

/// The recordings replaced the run's own paths with `<run>`, `<run-dashed>`
/// and `<repo>` (docs/hooks/README.md); a path again here, as the client
/// wrote one, so that the families read paths, not placeholders.
fn as_recorded(text: &str) -> String {
    text.replace("<run-dashed>", "-home-dev-run")
        .replace("<run>", "/home/dev/run")
        .replace("<repo>", "/home/dev/sandbox-advisor")
}

fn check(client: &str, reference: &Reference, (scenario, event, path): &(String, String, PathBuf)) {
    let at = format!("{client}/{scenario}.{event}");
    let text = std::fs::read_to_string(path).unwrap();
    let payload: serde_json::Value = serde_json::from_str(&text).unwrap();
    let documented = reference.event(event).unwrap().input;
    for key in payload.as_object().unwrap().keys() {
        assert!(
            documented.contains(&key.as_str()),
            "{at}: the client sent `{key}`, which the {client} reference table for {event} lacks"
        );
    }
    let mut args = vec![
        "--log",
        "info",
        "hook",
        "--dialect",
        client,
        "--platform",
        "linux",
        "--ledger",
        "memory",
    ];
    if let Some(mode) = mode(client, scenario) {
        args.extend(["--mode", mode]);
    }
    let run = run(&args, as_recorded(&text).into_bytes());
    assert_eq!(run.code, 0, "{at}: {}", run.stderr);
    let told: Vec<String> = run
        .stderr
        .lines()
        .filter(|l| {
            l.contains("sandbox_advisor::advisory") || l.contains("sandbox_advisor::withheld")
        })
        .map(|l| {
            let kind = if l.contains("::advisory") {
                "advised"
            } else {
                "withheld"
            };
            let field = |k: &str| {
                l.split_whitespace()
                    .find_map(|w| w.strip_prefix(k)?.strip_prefix('='))
                    .unwrap_or("-")
                    .trim_matches('"')
                    .to_owned()
            };
            format!("{kind} {} {}", field("family"), field("reason"))
        })
        .collect();
    let answer = match run.stdout.trim() {
        "" => "(silent)".to_owned(),
        json => {
            serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(json).unwrap())
                .unwrap()
        }
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new("../../../docs/hooks/answers"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(format!("hook --dialect {client} {}", args[5..].join(" ")));
    settings.bind(|| {
        insta::assert_snapshot!(
            format!("{client}-{scenario}-{event}"),
            format!(
                "host log: {}\n\n{answer}\n",
                if told.is_empty() {
                    "(nothing)".into()
                } else {
                    told.join("; ")
                }
            )
        );
    });
}

#[test]
fn claude_codes_recorded_payloads() {
    let cases = payloads("claude-code", &CLAUDE_CODE);
    assert!(cases.len() >= 20, "{} recorded payloads", cases.len());
    for case in &cases {
        check("claude-code", &CLAUDE_CODE, case);
    }
}

#[test]
fn codexs_recorded_payloads() {
    let cases = payloads("codex", &CODEX);
    assert!(cases.len() >= 18, "{} recorded payloads", cases.len());
    for case in &cases {
        check("codex", &CODEX, case);
    }
}
