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

/// The host a scenario was recorded on, as far as the hook's probe looks at
/// it: whether the project's `.claude/settings.json` turned Claude Code's
/// sandbox on, and whether user namespaces were unavailable (the client run
/// inside a user namespace whose `max_user_namespaces` is 0). Each recording
/// is answered on that host again, so its answer is the one the client got.
struct Recorded {
    claude_sandbox: bool,
    no_user_namespaces: bool,
}

fn recorded_host(client: &str, scenario: &str) -> Recorded {
    match client {
        "claude-code" => Recorded {
            claude_sandbox: scenario.starts_with("sandbox-")
                || scenario.starts_with("control-prints-"),
            no_user_namespaces: scenario == "sandbox-no-userns",
        },
        _ => Recorded {
            claude_sandbox: false,
            no_user_namespaces: scenario.starts_with("no-userns"),
        },
    }
}

/// The hook, on the recording's host: its own home, Codex home and Claude
/// Code project (settings as the recording had them) in `dir`, under a user
/// namespace without user namespaces when the recording had none.
fn hook_on(host: &Recorded, dir: &Path, args: &[&str], stdin: String) -> Run {
    let project = dir.join("proj");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    if host.claude_sandbox {
        std::fs::write(
            project.join(".claude/settings.json"),
            r#"{"sandbox": {"enabled": true}}"#,
        )
        .unwrap();
    }
    let mut command = if host.no_user_namespaces {
        let mut c = std::process::Command::new("unshare");
        c.args(["--user", "--map-root-user", "--", "sh", "-c"])
            .arg("echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\"")
            .arg(BIN);
        c
    } else {
        std::process::Command::new(BIN)
    };
    command
        .args(args)
        .env("HOME", dir.join("home"))
        .env("CODEX_HOME", dir.join("codex-home"))
        .env("CLAUDE_PROJECT_DIR", &project)
        .env_remove("CLAUDE_CONFIG_DIR");
    run_command(&mut command, stdin.into_bytes())
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
    let host = tempfile::tempdir().unwrap();
    let run = hook_on(
        &recorded_host(client, scenario),
        host.path(),
        &args,
        as_recorded(&text),
    );
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
