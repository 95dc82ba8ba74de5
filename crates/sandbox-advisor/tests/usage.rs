//! What a mistyped command line gets back: the exit code, and a line that
//! says what was meant.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;

/// Runs `args` and checks the exit code and that stderr holds `hint`.
fn check(args: &[&str], code: i32, hint: &str) {
    let out = run(args, "");
    assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
    assert!(
        out.stderr.contains(hint),
        "{args:?}: stderr lacks {hint:?}:\n{}",
        out.stderr
    );
}

#[test]
fn a_mistyped_flag_is_answered_with_the_flag_meant() {
    check(
        &["explain", "--mdoe", "workspace-write", "x"],
        2,
        "a similar argument exists: '--mode'",
    );
    check(&["replay", "--detial", "x.jsonl"], 2, "'--detail'");
    check(&["families", "--dialcet", "codex"], 2, "'--dialect'");
    // A subcommand too.
    check(&["explian", "x"], 2, "'explain'");
}
