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
use sandbox_advisor::hook::gemini_cli::GEMINI_CLI;
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

/// Where the recordings' `<run>` is put back: the scenario's directory as
/// the hook saw it. It is made in a private mount namespace (a tmpfs over
/// `/home`), so the answers name the same paths on every machine.
const RUN: &str = "/home/dev/run";

/// The host a scenario was recorded on, as far as the hook's probe looks at
/// it: the client's own configuration as the recording kept it
/// (`<scenario>.settings.json`, `<scenario>.config.toml`; for the older
/// Claude Code recordings without one, the sandbox on for `sandbox-*` and
/// `control-prints-*`), whether user namespaces were unavailable (the client
/// run inside a user namespace whose `max_user_namespaces` is 0), a real
/// read-only bind mount (`*readonly-mount*`: `<run>/ro`, or `<run>/proj/ro`
/// in the workspace), and the user (`*-as-user`: uid 65534). Each recording
/// is answered on that host again, so its answer is the one the client got.
struct Recorded {
    /// The client's settings file and its text, relative to `<run>`.
    config: Option<(&'static str, String)>,
    /// Codex's own command line (`<scenario>.argv.json`), which the hook
    /// reads from the `codex` process above it: the hook runs under a
    /// process of that name holding those arguments.
    codex_argv: Option<Vec<String>>,
    no_user_namespaces: bool,
    read_only: Option<&'static str>,
    as_user: bool,
    /// Gemini CLI: whether `bwrap` was on the client's `PATH` (hidden in
    /// `no-bwrap`); `None`: the hook keeps this process's `PATH`.
    bwrap_on_path: Option<bool>,
}

fn recorded_host(client: &str, scenario: &str) -> Recorded {
    let kept = |ext: &str| {
        std::fs::read_to_string(
            recorded_dir()
                .join(client)
                .join(format!("{scenario}.{ext}")),
        )
        .ok()
        .map(|text| text.replace("<run>", RUN))
    };
    let config = match client {
        "claude-code" => kept("settings.json")
            .or_else(|| {
                (scenario.starts_with("sandbox-") || scenario.starts_with("control-prints-"))
                    .then(|| r#"{"sandbox": {"enabled": true}}"#.to_owned())
            })
            .map(|text| ("proj/.claude/settings.json", text)),
        _ => kept("config.toml").map(|text| ("codex-home/config.toml", text)),
    };
    let codex_argv = kept("argv.json").map(|text| serde_json::from_str(&text).unwrap());
    Recorded {
        config,
        codex_argv,
        no_user_namespaces: matches!(
            (client, scenario),
            ("claude-code", "sandbox-no-userns")
                | ("codex" | "gemini-cli", "no-userns")
                | ("codex", "no-userns-bundled-bwrap")
        ),
        read_only: if scenario.contains("readonly-mount-in-workspace") {
            Some("proj/ro")
        } else if scenario.contains("readonly-mount") {
            Some("ro")
        } else {
            None
        },
        as_user: scenario.ends_with("-as-user"),
        bwrap_on_path: (client == "gemini-cli").then(|| scenario != "no-bwrap"),
    }
}

/// The hook, on the recording's host: `<run>` with its home, Codex home and
/// Claude Code project (the client's configuration as the recording had
/// it), in a private mount namespace (as root; else in a user namespace of
/// its own, whose root cannot write what the machine's root owns, like the
/// unprivileged user of the `-as-user` recordings), under a user namespace
/// without user namespaces when the recording had none.
fn hook_on(host: &Recorded, args: &[&str], stdin: String) -> Run {
    #[cfg(unix)]
    let root = rustix::process::geteuid().is_root();
    // Windows has no root to drop from (these recordings are Linux's).
    #[cfg(not(unix))]
    let root = false;
    let mut setup = format!(
        "set -e; mount -t tmpfs -o mode=0755 run /home;          mkdir -p {RUN}/proj/.claude {RUN}/home {RUN}/codex-home {RUN}/extra"
    );
    if let Some((file, _)) = &host.config {
        setup.push_str(&format!("; printf '%s' \"$SETTINGS\" > {RUN}/{file}"));
    }
    if let Some(dir) = host.read_only {
        setup.push_str(&format!(
            "; mkdir -p {RUN}/{dir}; mount --bind {RUN}/{dir} {RUN}/{dir};              mount -o remount,bind,ro {RUN}/{dir}"
        ));
    }
    if host.no_user_namespaces {
        setup.push_str("; echo 0 > /proc/sys/user/max_user_namespaces");
    }
    let mut exec = "exec".to_owned();
    // The binary the hook runs as: the build's, or for another user a copy
    // in the run directory (the build tree may lie where only its owner can
    // enter, as a clone in a 0700 directory does).
    let mut bin = BIN.to_owned();
    if host.as_user && root {
        bin = format!("{RUN}/sandbox-advisor");
        setup.push_str(&format!("; cp '{BIN}' {bin}; chown -R 65534:65534 {RUN}"));
        exec.push_str(" setpriv --reuid=65534 --regid=65534 --clear-groups");
    }
    if let Some(present) = host.bwrap_on_path {
        // The hook's PATH: one directory, holding an executable `bwrap` or
        // nothing (the setup keeps the test's own PATH).
        setup.push_str(&format!("; mkdir -p {RUN}/path-bin"));
        if present {
            setup.push_str(&format!(
                "; printf '#!/bin/sh\\n' > {RUN}/path-bin/bwrap; chmod 755 {RUN}/path-bin/bwrap"
            ));
        }
        exec.push_str(&format!(" env PATH={RUN}/path-bin"));
    }
    let mut command = std::process::Command::new("unshare");
    if root && !host.no_user_namespaces {
        command.args(["--mount", "--propagation", "private"]);
    } else {
        command.args(["--user", "--map-root-user", "--mount"]);
    }
    command.args(["--", "sh", "-c"]);
    match &host.codex_argv {
        None => {
            command
                .arg(format!("{setup}; {exec} \"$0\" \"$@\""))
                .arg(&bin)
                .args(args);
        }
        Some(argv) => {
            // A process named `codex` with Codex's arguments, running the
            // hook as its child (`; exit` keeps sh from exec'ing it).
            let hook: Vec<String> = std::iter::once(bin.as_str())
                .chain(args.iter().copied())
                .map(|a| format!("'{a}'"))
                .collect();
            command
                .arg(format!(
                    "{setup}; {exec} bash -c 'exec -a codex sh -c \"$HOOK; exit \\$?\" \"$@\"' codex \"$@\""
                ))
                .args(argv)
                .env("HOOK", hook.join(" "));
        }
    }
    command
        .env(
            "SETTINGS",
            host.config.as_ref().map_or("", |(_, t)| t.as_str()),
        )
        .env("HOME", format!("{RUN}/home"))
        .env("CODEX_HOME", format!("{RUN}/codex-home"))
        .env("CLAUDE_PROJECT_DIR", format!("{RUN}/proj"))
        .env("CLAUDE_TMPDIR", "/tmp/claude-0")
        .env_remove("TMPDIR")
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
        .replace("<run>", RUN)
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
    let run = hook_on(&recorded_host(client, scenario), &args, as_recorded(&text));
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

#[test]
fn gemini_clis_recorded_payloads() {
    let cases = payloads("gemini-cli", &GEMINI_CLI);
    assert!(cases.len() >= 20, "{} recorded payloads", cases.len());
    for case in &cases {
        check("gemini-cli", &GEMINI_CLI, case);
    }
}
