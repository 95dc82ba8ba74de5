//! `hook install` on the command line: what it keeps, replaces and refuses
//! in a settings file (issue 36, item 3), the commands it prints (issue 39,
//! friction 2) and `--check` without Codex (friction 5). Driven through one
//! `check`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::*;

const SHOWN_BIN: &str = "/opt/sa/sandbox-advisor";

/// The handler install writes for Claude Code with `--bin SHOWN_BIN`.
fn cc() -> String {
    format!("{} hook --dialect claude-code", written_bin(SHOWN_BIN))
}

/// What the file must hold afterwards.
enum After<'a> {
    /// Exactly what it held before.
    Unchanged,
    /// Begins with this text.
    StartsWith(&'a str),
    /// Holds each of these.
    Holds(&'a [&'a str]),
}

/// One case: the settings file before, the exit code, the file after, and
/// what stdout and stderr must say.
struct Case<'a> {
    about: &'a str,
    before: &'a str,
    code: i32,
    after: After<'a>,
    says: &'a [&'a str],
}

fn check(case: &Case<'_>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".claude/settings.json");
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    std::fs::write(&file, case.before).unwrap();
    let project = dir.path().to_str().unwrap();
    let args = [
        "hook",
        "install",
        "--client",
        "claude-code",
        "--project",
        project,
        "--bin",
        SHOWN_BIN,
    ];
    let run = run(&args, "");
    let about = case.about;
    let output = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, case.code, "{about}: {output}");
    for said in case.says {
        assert!(
            output.contains(said),
            "{about}: not said {said:?}: {output}"
        );
    }
    let after = std::fs::read_to_string(&file).unwrap();
    match case.after {
        After::Unchanged => assert_eq!(after, case.before, "{about}"),
        After::StartsWith(head) => assert!(after.starts_with(head), "{about}: {after}"),
        After::Holds(parts) => {
            for part in parts {
                assert!(after.contains(part), "{about}: {part:?} not in {after}");
            }
        }
    }
    if case.code == 0 {
        let cc = cc();
        let group =
            format!(r#""matcher": "Bash", "hooks": [{{"type": "command", "command": "{cc}"}}]"#);
        let ours = after.matches(&group).count();
        assert_eq!(ours, 3, "{about}: one advisor handler per event: {after}");
    }
}

const GATE: &str = "/opt/policy/deny-rm.sh && sandbox-advisor hook --dialect claude-code";

#[test]
fn install_keeps_what_the_user_wrote_and_replaces_only_its_own_handler() {
    let group = |matcher: &str, command: &str| {
        format!(
            r#"{{"matcher": "{matcher}", "hooks": [{{"type": "command", "command": "{command}"}}]}}"#
        )
    };
    let gate = group("Bash", GATE);
    let audit = group("Write|Edit", &cc());
    let dialect_eq = group(
        "Bash",
        "/usr/local/bin/sandbox-advisor hook --dialect=claude-code",
    );
    let cases = [
        Case {
            about: "numbers of every form stay as written",
            before: r#"{"n": 123456789012345678901234567890, "e": 1e5, "f": -0.10E-3}"#,
            code: 0,
            after: After::StartsWith(
                r#"{"n": 123456789012345678901234567890, "e": 1e5, "f": -0.10E-3, "hooks": {"#,
            ),
            says: &["wrote "],
        },
        Case {
            about: "a duplicate key is refused by name and line",
            before: "{\"hooks\": {},\n \"hooks\": {\"PreToolUse\": []}}",
            code: 2,
            after: After::Unchanged,
            says: &[
                "the key \"hooks\" appears twice in one object (line 1 and line 2)",
                "nothing was changed",
            ],
        },
        Case {
            about: "a policy gate that runs the advisor stays, and is listed",
            before: &format!(r#"{{"hooks": {{"PreToolUse": [{gate}]}}}}"#),
            code: 0,
            after: After::StartsWith(&format!(r#"{{"hooks": {{"PreToolUse": [{gate}, "#)),
            says: &[
                "left as they are",
                "hooks.PreToolUse[0].hooks[0] (line 1):",
                &format!("> {GATE}"),
            ],
        },
        Case {
            about: "an audit hook on another matcher stays",
            before: &format!(r#"{{"hooks": {{"PostToolUse": [{audit}]}}}}"#),
            code: 0,
            after: After::Holds(&[&audit]),
            says: &["hooks.PostToolUse[0].hooks[0] (line 1)"],
        },
        Case {
            about: "--dialect=claude-code is the advisor's handler: replaced, not mounted twice",
            before: &format!(r#"{{"hooks": {{"PreToolUse": [{dialect_eq}]}}}}"#),
            code: 0,
            after: After::StartsWith(&format!(
                r#"{{"hooks": {{"PreToolUse": [{}], "#,
                group("Bash", &cc())
            )),
            says: &["replaced", "hooks.PreToolUse[0] (line 1)"],
        },
    ];
    for case in &cases {
        check(case);
    }
}

/// The trust command printed after a Codex install repeats every flag: run
/// as printed, it finds the file up to date (issue 39, friction 2).
#[test]
fn the_printed_trust_command_repeats_every_flag() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("my project");
    std::fs::create_dir(&project).unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(&config, "{}").unwrap();
    let (project, config) = (project.to_str().unwrap(), config.to_str().unwrap());
    let first = run(
        &[
            "hook",
            "install",
            "--client",
            "codex",
            "--project",
            project,
            "--mode",
            "workspace-write",
            "--config",
            config,
            "--codex",
            "/nonexistent/codex",
        ],
        "",
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    let file = Path::new(project).join(".codex/hooks.json");
    let written = std::fs::read_to_string(&file).unwrap();
    let line = first
        .stdout
        .lines()
        .find(|l| l.contains("--trust"))
        .expect("a trust command");
    let line = line.trim_start().trim_start_matches("- ");
    // On Windows a PowerShell line, elsewhere a POSIX one.
    let words = if cfg!(windows) {
        powershell_words(line.strip_prefix("& ").expect("PowerShell's call operator"))
    } else {
        shell_words(line)
    };
    let bin = std::fs::canonicalize(BIN).unwrap();
    assert_eq!(std::fs::canonicalize(&words[0]).unwrap(), bin, "{line}");
    let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let again = run(&words, "");
    assert!(
        again.stdout.starts_with("already up to date: "),
        "{line}\n{}",
        again.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written, "{line}");
}

/// `--check` with no Codex reports the files, says why trust is unknown,
/// and exits 1 (issue 39, friction 5); Claude Code's check needs no client.
#[test]
fn check_reports_what_is_installed_even_without_codex() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().to_str().unwrap();
    let install = |client: &str, extra: &[&str]| {
        let args = [
            &[
                "hook",
                "install",
                "--client",
                client,
                "--project",
                project,
                "--bin",
                SHOWN_BIN,
            ][..],
            extra,
        ]
        .concat();
        run(&args, "")
    };
    let check = install("codex", &["--check", "--codex", "/nonexistent/codex"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check.stdout.starts_with("NOT MOUNTED: ") && check.stdout.contains("does not exist"),
        "{}",
        check.stdout
    );
    assert_eq!(install("codex", &["--codex", "/nonexistent/codex"]).code, 0);
    let check = install("codex", &["--check", "--codex", "/nonexistent/codex"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    let bin = written_bin(SHOWN_BIN);
    for said in [
        &format!("mounted: PreToolUse\n  > {bin} hook --dialect codex\n"),
        "mounted: PostToolUse\n",
        "TRUST NOT CHECKED: cannot start `/nonexistent/codex app-server`",
    ] {
        assert!(
            check.stdout.contains(said),
            "{said:?} not in {}",
            check.stdout
        );
    }
    let check = install(
        "codex",
        &[
            "--check",
            "--mode",
            "read-only",
            "--codex",
            "/nonexistent/codex",
        ],
    );
    assert!(
        check.stdout.contains(&format!(
            "DIFFERS: the flags given would write\n  > {bin} hook --dialect codex --mode read-only"
        )),
        "{}",
        check.stdout
    );
    assert_eq!(install("claude-code", &["--check"]).code, 1);
    assert_eq!(install("claude-code", &[]).code, 0);
    let check = install("claude-code", &["--check"]);
    assert_eq!(
        (check.code, check.stdout.matches("mounted: ").count()),
        (0, 3),
        "{}",
        check.stdout
    );
}

/// The words of a command as PowerShell reads plain words and single-quoted
/// literals (`''` inside is one quote).
fn powershell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '\'' {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\'' if chars.peek() == Some(&'\'') => {
                        chars.next();
                        word.push('\'');
                    }
                    '\'' => break,
                    c => word.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        words.push(word);
    }
    words
}

/// The words of a command as a POSIX shell reads plain and single-quoted words.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => (quoted, started) = (!quoted, true),
            '\\' if !quoted => {
                word.extend(chars.next());
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}
