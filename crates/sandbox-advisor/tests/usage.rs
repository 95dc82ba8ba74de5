//! What a command line gets back: the exit code, and the lines that say what
//! was meant — for a mistyped flag, a flag a subcommand does not take, a help
//! page, a Redis URL that cannot be used and a Redis outage (issue 29).

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;

/// The password every Redis URL here carries: no output may show it.
const SECRET: &str = "hunter2";

/// Runs `args` with `stdin` and checks the exit code and the output (stdout
/// and stderr together): it holds each of `says`, and none of those written
/// `!text`, and never [`SECRET`].
fn check(args: &[&str], stdin: &str, code: i32, says: &[&str]) {
    let out = run(args, stdin);
    let output = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(out.code, code, "{args:?}: {output}");
    for said in says {
        match said.strip_prefix('!') {
            Some(absent) => assert!(
                !output.contains(absent),
                "{args:?} says {absent:?}:\n{output}"
            ),
            None => assert!(output.contains(said), "{args:?} lacks {said:?}:\n{output}"),
        }
    }
    assert!(
        !output.contains(SECRET),
        "{args:?} shows the password:\n{output}"
    );
}

#[test]
fn a_mistyped_flag_is_answered_with_the_flag_meant() {
    check(
        &["explain", "--mdoe", "workspace-write", "x"],
        "",
        2,
        &["a similar argument exists: '--mode'"],
    );
    check(&["replay", "--detial", "x.jsonl"], "", 2, &["'--detail'"]);
    check(&["families", "--dialcet", "codex"], "", 2, &["'--dialect'"]);
    // A subcommand too.
    check(&["explian", "x"], "", 2, &["'explain'"]);
}

/// Each subcommand's `--log` states its own default; the top level's names both.
#[test]
fn each_help_states_its_own_log_default() {
    let warn = "Host-log level on stderr (default: warn)";
    let off = "Host-log level on stderr (default: off)";
    // (Help wraps at the terminal's width: the line is checked up to the wrap.)
    let both = "(default: warn for `serve` and `hook`";
    for (args, default) in [
        (&["--help"][..], both),
        (&["serve", "--help"], warn),
        (&["hook", "--help"], warn),
        (&["replay", "--help"], off),
        (&["explain", "--help"], off),
        (&["scan", "--help"], off),
        (&["families", "--help"], off),
        (&["collect", "--help"], off),
        (&["hook", "install", "--help"], off),
    ] {
        let other = if default == both { warn } else { both };
        check(args, "", 0, &[default, &format!("!{other}")]);
    }
}

/// `--locale` is offered where an advisory or brief is written, and refused
/// in words elsewhere, before or after the subcommand.
#[test]
fn locale_is_offered_only_where_advisories_are_written() {
    let listed = "--locale <LOCALE>";
    for name in ["explain", "replay", "serve", "hook", "scan"] {
        check(&[name, "--help"], "", 0, &[listed]);
    }
    for args in [&["collect", "--help"][..], &["families", "--help"]] {
        check(args, "", 0, &[&format!("!{listed}")]);
    }
    let refused = |name: &str| format!("--locale: `{name}` writes no advisory or brief");
    check(
        &["collect", "--locale", "zh-CN"],
        "",
        2,
        &[&refused("collect")],
    );
    check(
        &["--locale", "zh-CN", "collect"],
        "",
        2,
        &[&refused("collect")],
    );
    check(
        &["families", "--locale", "en"],
        "",
        2,
        &[&refused("families")],
    );
    check(
        &["hook", "install", "--client", "codex", "--locale", "en"],
        "",
        2,
        &[&refused("hook install")],
    );
    // Still taken before the subcommand that uses it.
    check(
        &["--locale", "zh-CN", "explain", "x"],
        "",
        1,
        &["Nothing recognized"],
    );
}

/// A Redis URL that cannot be used is refused in words naming the flag or the
/// key and what is wrong, never with the redis crate's `InvalidClientConfig`
/// and never with the password; a hook still never exits 2.
#[test]
fn a_bad_redis_url_is_told_in_words_without_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("fleet.json");
    let url = format!("redis://u:{SECRET}@cache:6379/x");
    std::fs::write(&config, format!(r#"{{"ledger":"{url}"}}"#)).unwrap();
    let flag = "invalid value for '--ledger <LEDGER>': ";
    let port = format!("redis://:{SECRET}@host:notaport/0");
    let no_host = format!("redis://:{SECRET}@/0");
    for (args, code, said) in [
        (
            &["serve", "--ledger", &port][..],
            2,
            format!("{flag}the Redis URL's port \"notaport\" is not a number from 1 to 65535"),
        ),
        (
            &["serve", "--ledger", "redis:/x"],
            2,
            format!("{flag}must be `memory`, `file` or `redis://host:port/db`, not \"redis:/x\""),
        ),
        (
            &["serve", "--ledger", "redis://host/abc"],
            2,
            format!("{flag}the Redis URL's database \"abc\" is not a whole number from 0"),
        ),
        (
            &["serve", "--ledger", "redis://0.0.0.0:6379"],
            2,
            format!("{flag}the Redis URL names a wildcard address"),
        ),
        (
            &["hook", "--dialect", "codex", "--ledger", &no_host],
            1,
            format!("{flag}the Redis URL names no host"),
        ),
        (
            &["serve", "--config", config.to_str().unwrap()],
            2,
            "config key `ledger`: the Redis URL's database \"x\" is not a whole number".into(),
        ),
    ] {
        check(args, "", code, &[&said, "!InvalidClientConfig"]);
    }
}

/// An unreachable Redis (nothing listens on port 1): the warning says who
/// answers meanwhile — `serve` its own in-memory ledger, a hook the on-disk store.
#[cfg(feature = "all-families")]
#[test]
fn a_redis_outage_says_who_answers_meanwhile() {
    let url = format!("redis://:{SECRET}@127.0.0.1:1/0");
    let stream = lines(&[HOST, SESSION, MODE, ACL_A1]);
    let payload = serde_json::json!({
        "session_id": "s1", "cwd": r"D:\ws", "hook_event_name": "PostToolUseFailure",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": "c1",
        "error": r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)", "is_interrupt": false,
    })
    .to_string();
    let hook = [
        "hook",
        "--dialect",
        "claude-code",
        "--host",
        "dsh",
        "--platform",
        "win32",
    ];
    let in_memory = "shared ledger unavailable; answering from this process's own in-memory ledger until it is back";
    let on_disk = "shared ledger unavailable; answering from the on-disk store until it is back";
    let cases: [(Vec<&str>, &str, &[&str]); 3] = [
        (
            vec!["serve", "--ledger", &url],
            &stream,
            &[in_memory, "!on-disk"],
        ),
        (
            [&hook[..], &["--ledger", &url]].concat(),
            &payload,
            &[on_disk, "!in-memory", "additionalContext"],
        ),
        (
            [&["--log", "info"][..], &hook, &["--ledger", &url]].concat(),
            &payload,
            &[
                "Redis unreachable when first needed: this process answers from the on-disk store",
                on_disk,
            ],
        ),
    ];
    for (args, stdin, says) in cases {
        check(&args, stdin, 0, says);
    }
}

/// `serve --mode` is the sessions' mode until a `sandbox-mode` line states
/// one, over the config's `defaultMode` (issue 29: it was refused).
#[cfg(feature = "all-families")]
#[test]
fn serve_takes_mode_over_the_configs_default_mode() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("unconfined.toml");
    std::fs::write(&config, "defaultMode = \"danger-full-access\"\n").unwrap();
    let config = config.to_str().unwrap();
    let stream = lines(&[
        r#"{"type":"host","platform":"win32","electron":true,"tmpdir":"C:\\Users\\dev\\AppData\\Local\\Temp"}"#,
        SESSION,
        PTY_A2,
    ]);
    let speaks = |mode: &str| format!("Persistent shell `pwsh` cannot start under {mode}");
    let cases: [(&[&str], &[&str]); 4] = [
        (&["serve"], &[&speaks("read-only")]),
        (
            &["serve", "--config", config],
            &[r#""reason":"unconfined-mode""#],
        ),
        (
            &["serve", "--config", config, "--mode", "workspace-write"],
            &[&speaks("workspace-write"), "!unconfined-mode"],
        ),
        (
            &[
                "replay",
                "-",
                "--format",
                "json",
                "--mode",
                "workspace-write",
            ],
            &[&speaks("workspace-write")],
        ),
    ];
    for (args, says) in cases {
        check(args, &stream, 0, says);
    }
    check(
        &["serve", "--mode", "bogus"],
        "",
        2,
        &["unknown sandbox mode \"bogus\""],
    );
}
