//! Issue 24: the desktop version is a fact only when the deployment gives it,
//! by the config's `hostVersion` or the `--host-version` flag (which wins), and
//! a bad spelling is an error that names the key or the flag.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The advice asserted here is the shipped runner-exit family's.
#![cfg(feature = "all-families")]

mod common;

use common::*;

const RUNNER: &str = "subprocess-local: Windows Job runner exited with exit code 0 before proving its managed range empty";

/// One run: the flags before the message, an optional config file's text, and
/// the exit code with a line the output must hold (stdout for 0, else stderr).
fn check(flags: &[&str], config: Option<&str>, code: i32, holds: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.json");
    let mut args: Vec<&str> = vec!["explain", "--electron"];
    if let Some(text) = config {
        std::fs::write(&path, text).unwrap();
        args.extend(["--config", path.to_str().unwrap()]);
    }
    args.extend(flags);
    args.push(RUNNER);
    let out = run(&args, "");
    assert_eq!(
        out.code, code,
        "{flags:?} {config:?}\n{}\n{}",
        out.stdout, out.stderr
    );
    let text = if code == 0 { &out.stdout } else { &out.stderr };
    assert!(
        text.contains(holds),
        "{flags:?} {config:?}: {holds:?} not in\n{text}"
    );
}

#[test]
fn the_version_comes_from_the_flag_or_the_config_and_the_flag_wins() {
    for (flags, config, code, holds) in [
        (&[][..], None, 0, "On Desktop before 2.0.9: a launch bug"),
        (
            &["--host-version", "2.0.8"][..],
            None,
            0,
            "The configured version is 2.0.8: update Desktop to 2.0.9 or later.",
        ),
        (
            &["--host-version", "2.0.9"][..],
            None,
            0,
            "the configured version, 2.0.9, has the fix",
        ),
        (
            &[][..],
            Some(r#"{"hostVersion": "2.0.8"}"#),
            0,
            "The configured version is 2.0.8",
        ),
        (
            &["--host-version", "2.0.8"][..],
            Some(r#"{"hostVersion": "2.0.13"}"#),
            0,
            "The configured version is 2.0.8",
        ),
        (&["--host-version", "2.0"][..], None, 2, "--host-version"),
        (
            &["--host-version", "v2.0.11"][..],
            None,
            2,
            "decimal number",
        ),
        (
            &[][..],
            Some(r#"{"hostVersion": "2.0"}"#),
            2,
            "config key `hostVersion`: must have three parts",
        ),
        (
            &[][..],
            Some(r#"{"hostVersion": 2}"#),
            2,
            "config key `hostVersion`: must be a version string",
        ),
    ] {
        check(flags, config, code, holds);
    }
}

/// The flag is on every command that reads a config for a live stream.
#[test]
fn hook_and_serve_take_the_flag_and_refuse_a_bad_one() {
    for args in [
        &["serve", "--host-version", "2.0.x"][..],
        &[
            "hook",
            "--dialect",
            "claude-code",
            "--host-version",
            "2.0.x",
        ][..],
    ] {
        let out = run(args, "");
        assert_ne!(out.code, 0, "{args:?}");
        assert!(
            out.stderr.contains("--host-version"),
            "{args:?}: {}",
            out.stderr
        );
    }
}
