//! `replay`: the bundled sessions, the JSON shape, and every way a stream can be broken.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The decisions asserted here are the shipped families'.
#![cfg(feature = "all-families")]

mod common;

use common::*;

/// Every bundled session and the tally it must replay to. A session added to
/// `examples/sessions/` without a row here fails `every_bundled_session_is_listed`.
const BUNDLED: &[(&str, &str)] = &[
    (
        "acl-aggregate.jsonl",
        "events 12 | advisories 2 (acl-aggregate-failure 2) | withheld 0 | refused 0 | invalid 0",
    ),
    (
        "cim-wmi.jsonl",
        "events 16 | advisories 2 (cim-wmi-denial 2) | withheld 2 (cim-wmi-denial 1, temp-root-inside-workspace 1) | refused 0 | invalid 0",
    ),
    (
        "claude-code-sandbox.jsonl",
        "events 12 | advisories 2 (bwrap-cannot-start 1, sandbox-network-denied 1) | withheld 0 | refused 0 | invalid 0",
    ),
    (
        "codex-network.jsonl",
        "events 11 | advisories 1 (sandbox-socket-denied 1) | withheld 1 (sandbox-write-denied 1) | refused 0 | invalid 0",
    ),
    (
        "codex-sandbox.jsonl",
        "events 11 | advisories 2 (bwrap-cannot-start 1, codex-protected-path 1) | withheld 2 (codex-protected-path 1, sandbox-write-denied 1) | refused 0 | invalid 0",
    ),
    (
        "gemini-cli-sandbox.jsonl",
        "events 10 | advisories 2 (bwrap-not-found 1, ptrace-refused 1) | withheld 0 | refused 0 | invalid 0",
    ),
    (
        "mixed.jsonl",
        "events 19 | advisories 6 (acl-provisioning 2, cim-wmi-denial 1, native-init 1, pty-startup 1, workspace-denial 1) | withheld 1 (pty-startup 1) | refused 0 | invalid 0",
    ),
    (
        "native-init.jsonl",
        "events 16 | advisories 2 (native-init 2) | withheld 1 (native-init 1) | refused 0 | invalid 0",
    ),
    (
        "pty-startup.jsonl",
        "events 15 | advisories 2 (pty-startup 2) | withheld 2 (pty-startup 1, temp-root-inside-workspace 1) | refused 0 | invalid 0",
    ),
    (
        "runner-exit.jsonl",
        "events 10 | advisories 2 (runner-exit 2) | withheld 0 | refused 0 | invalid 0",
    ),
    (
        "temp-root.jsonl",
        "events 13 | advisories 5 (temp-root-inside-workspace 5) | withheld 1 (temp-root-inside-workspace 1) | refused 0 | invalid 0",
    ),
    (
        "windows-acl.jsonl",
        "events 19 | advisories 3 (acl-provisioning 3) | withheld 1 (temp-root-inside-workspace 1) | refused 2 | invalid 0",
    ),
    (
        "workspace-denial.jsonl",
        "events 14 | advisories 2 (workspace-denial 2) | withheld 2 (temp-root-inside-workspace 1, workspace-denial 1) | refused 0 | invalid 0",
    ),
];

fn tally(text: &str) -> String {
    let block = text
        .split("── tally ──\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no tally in:\n{text}"));
    block
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn every_bundled_session_replays_with_its_expected_tally() {
    for (file, expected) in BUNDLED {
        let path = sessions_dir().join(file);
        let text = run(&["replay", path.to_str().unwrap(), "--format", "text"], "");
        assert_eq!(text.code, 0, "{file}: {}", text.stderr);
        assert_eq!(tally(&text.stdout), *expected, "{file}");
        let json = run(&["replay", path.to_str().unwrap(), "--format", "json"], "");
        assert_eq!(json.code, 0, "{file}: {}", json.stderr);
        assert!(
            json.json().iter().all(|l| l.get("error").is_none()),
            "{file}"
        );
    }
}

#[test]
fn every_bundled_session_is_listed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(sessions_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    on_disk.sort();
    let listed: Vec<&str> = BUNDLED.iter().map(|(f, _)| *f).collect();
    assert_eq!(on_disk, listed);
    for file in &on_disk {
        let text = std::fs::read_to_string(sessions_dir().join(file)).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(r#"{"type":"hello","protocol":1}"#),
            "{file}"
        );
        assert!(
            lines.next().unwrap().starts_with(r#"{"type":"host","#),
            "{file}"
        );
    }
    // Every family the README documents as done has a session that makes it
    // speak; one not (yet) in that table, or just scaffolded, needs none. A family that speaks
    // only on a fact the hook checks on the live host has a session where it
    // withholds for want of that fact, and none where it speaks.
    let documented = readme_families();
    assert!(!documented.is_empty());
    let parts = |head: &'static str| {
        BUNDLED
            .iter()
            .filter_map(move |(_, t)| t.split(" | ").find(|part| part.starts_with(head)))
    };
    let done = documented.iter().filter(|d| d.status != "scaffolded");
    for family in done.map(|d| &d.id) {
        let named = |part: &str| part.contains(&format!("{family} "));
        if LIVE_CHECK_ONLY.contains(&family.as_str()) {
            assert!(
                parts("withheld").any(named) && !parts("advisories").any(named),
                "{family} needs the hook's live check: a bundled session must withhold it, none speak"
            );
        } else {
            assert!(
                parts("advisories").any(named),
                "no bundled session makes {family} speak"
            );
        }
    }
}

/// The families that speak only on a fact the hook checks on the live host
/// (`sandbox-write-denied`: the host's own mount at the refused path). A
/// replay has no host to check that path on, so they withhold there.
const LIVE_CHECK_ONLY: &[&str] = &["sandbox-write-denied"];

#[test]
fn the_readme_session_shows_advisories_once_per_agent_and_a_refusal_in_text() {
    let path = sessions_dir().join("windows-acl.jsonl");
    let out = run(&["replay", path.to_str().unwrap(), "--format", "text"], "");
    let first = out.stdout.lines().next().unwrap();
    assert!(first.contains("windows-acl.config.json"), "{first}");
    assert!(first.contains("enforceAfter 2"), "{first}");
    assert!(
        out.stdout
            .contains("━━ #6 a1 · call c1 (pwsh) → acl-provisioning\n")
    );
    assert!(
        out.stdout
            .contains("━━ #10 a1 · call c4 (pwsh) refused before dispatch by acl-provisioning\n")
    );
    assert!(out.stdout.contains(
        "#19 withheld temp-root-inside-workspace for a3 (pre-flight): no-session — the call has no session\n"
    ));
    assert!(
        !out.stdout.contains("#7 "),
        "a1's second failure is not answered again"
    );
}

#[test]
fn json_lines_carry_the_protocol_shape() {
    let input = lines(&[
        r#"{"type":"hello","protocol":1}"#,
        HOST,
        SESSION,
        MODE,
        r#"{"type":"session-start","agent":"a1","session":"s1"}"#,
        ACL_A1,
        ACL_A1_AGAIN,
        PTY_A2,
        PRE_A1,
        r#"{"type":"agent-end","agent":"a1"}"#,
        ACL_A1,
    ]);
    let out = run(&["replay", "-", "--format", "json"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The hello line names the registry's families in precedence order; the
    // snapshot pins the rest of its shape.
    assert_eq!(
        out.json()[0]["families"],
        serde_json::json!(family_ids()),
        "{}",
        out.stdout
    );
    let shape = shape(&out).replacen(
        &serde_json::to_string(&family_ids()).unwrap(),
        r#"["<families>"]"#,
        1,
    );
    insta::assert_snapshot!(shape, @r#"
    {"seq":1,"type":"hello","protocol":1,"families":["<families>"]}
    {"seq":5,"type":"session-start","agent":"a1","advisories":[],"withheld":[],"refusal":null}
    {"seq":6,"type":"post","agent":"a1","call":"c1","advisories":[{"family":"acl-provisioning","summary":"<summary>","text":"<text>","detail":"<detail>","diagnosis":{"category":"runner_setup_failed","phase":"setup","confidence":"confirmed","source":"runner","commandStarted":false,"effects":"none","retry":"after-remedy","remedyOwner":"user"},"source":{"kind":"sandbox-grant-advisor"}}],"withheld":[],"refusal":null}
    {"seq":7,"type":"post","agent":"a1","call":"c2","advisories":[],"withheld":[],"refusal":null}
    {"seq":8,"type":"post","agent":"a2","call":"c3","advisories":[{"family":"pty-startup","summary":"<summary>","text":"<text>","detail":"<detail>","diagnosis":{"category":"console_host_error","phase":"spawn","confidence":"confirmed","source":"runner","commandStarted":false,"effects":"none","retry":"after-remedy","remedyOwner":"user"},"source":{"kind":"sandbox-grant-advisor"}}],"withheld":[],"refusal":null}
    {"seq":9,"type":"pre","agent":"a1","call":"c4","advisories":[],"withheld":[],"refusal":null}
    {"seq":11,"type":"post","agent":"a1","call":"c1","advisories":[{"family":"acl-provisioning","summary":"<summary>","text":"<text>","detail":"<detail>","diagnosis":{"category":"runner_setup_failed","phase":"setup","confidence":"confirmed","source":"runner","commandStarted":false,"effects":"none","retry":"after-remedy","remedyOwner":"user"},"source":{"kind":"sandbox-grant-advisor"}}],"withheld":[],"refusal":null}
    "#);
}

#[test]
fn malformed_lines_mid_stream_are_reported_and_nothing_decided_is_lost() {
    let input = lines(&[
        HOST,
        SESSION,
        MODE,
        ACL_A1,
        "this is not json",
        r#"{"type":"telemetry","agent":"a1"}"#,
        r#"{"type":"sandbox-mode","session":"s1","mode":"full-access"}"#,
        r#"{"type":"post","agent":"a1","session":"s1","call":"c9","tool":"pwsh"}"#,
        "[1,2]",
        r#"{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}"#,
        "",
        ACL_A1_AGAIN,
        PTY_A2,
    ]);
    let out = run(&["replay", "-", "--format", "json"], input);
    assert_eq!(out.code, 1, "invalid lines make replay exit 1");
    let json = out.json();
    let errors: Vec<String> = json
        .iter()
        .filter_map(|l| Some(format!("{} {}", l["seq"], l.get("error")?.as_str()?)))
        .collect();
    insta::assert_snapshot!(errors.join("\n"), @r#"
    5 the line is not valid JSON: expected a JSON value at column 2
    6 unknown type "telemetry" (expected one of: hello, host, session, sandbox-mode, policy-unavailable, session-start, post, pre, agent-end)
    7 `sandbox-mode` line: field `mode`: unknown variant `full-access`, expected one of `read-only`, `workspace-write`, `danger-full-access`
    8 `post` line: missing field `error` (a failed call) or `result` (a success)
    9 the line is not a JSON object
    10 the line is not valid JSON: the text ends inside an object at column 179
    "#);
    let decided: Vec<(u64, usize)> = json
        .iter()
        .filter(|l| l.get("advisories").is_some())
        .map(|l| {
            (
                l["seq"].as_u64().unwrap(),
                l["advisories"].as_array().unwrap().len(),
            )
        })
        .collect();
    // a1 was advised before the bad lines and is not advised again after them;
    // the mode survived the bad `sandbox-mode` line, so the PTY advisory speaks.
    assert_eq!(decided, [(4, 1), (12, 0), (13, 1)]);
}

#[test]
fn eof_without_newline_and_crlf_input_decide_like_lf() {
    let lf = lines(&[HOST, SESSION, MODE, ACL_A1, PTY_A2]);
    let expected = shape(&run(&["replay", "-", "--format", "json"], lf.clone()));
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(
        shape(&run(&["replay", "-", "--format", "json"], crlf)),
        expected
    );
    let unterminated = lf.trim_end().to_owned();
    let out = run(&["replay", "-", "--format", "json"], unterminated);
    assert_eq!(shape(&out), expected);
    assert_eq!(out.json().last().unwrap()["seq"], 5);
}

fn huge_post(bytes: usize) -> String {
    format!(
        r#"{{"type":"post","agent":"a9","session":"s1","call":"big","tool":"pwsh","args":{{}},"error":{{"message":"{}"}}}}"#,
        "x".repeat(bytes)
    )
}

#[test]
fn a_50_mb_line_is_decided_and_the_stream_goes_on() {
    let input = lines(&[HOST, SESSION, MODE, &huge_post(50 * 1024 * 1024), PTY_A2]);
    let started = std::time::Instant::now();
    let out = run(&["replay", "-", "--format", "json"], input);
    eprintln!("50 MB line replayed in {:?}", started.elapsed());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json = out.json();
    assert_eq!(json[0]["seq"], 4);
    assert_eq!(json[0]["call"], "big");
    assert_eq!(json[1]["seq"], 5);
    assert_eq!(json[1]["advisories"][0]["family"], "pty-startup");
}

#[test]
fn a_line_over_the_limit_is_skipped_unread_with_an_error_naming_the_limit() {
    let input = lines(&[HOST, SESSION, MODE, &huge_post(50 * 1024 * 1024), PTY_A2]);
    let out = run(
        &[
            "replay",
            "-",
            "--format",
            "json",
            "--max-line-bytes",
            "1048576",
        ],
        input,
    );
    assert_eq!(out.code, 1);
    let json = out.json();
    assert_eq!(json[0]["seq"], 4);
    let error = json[0]["error"].as_str().unwrap();
    assert!(
        error.contains("over the limit of 1048576 bytes (--max-line-bytes)"),
        "{error}"
    );
    assert_eq!(json[1]["advisories"][0]["family"], "pty-startup");
}

#[test]
fn a_late_host_line_applies_its_path_grammar_to_sessions_already_open() {
    let denial = std::fs::read_to_string(sessions_dir().join("workspace-denial.jsonl")).unwrap();
    let line = denial.lines().nth(5).unwrap();
    let input = lines(&[SESSION, MODE, HOST, line]);
    let out = run(&["replay", "-", "--format", "json"], input);
    assert_eq!(out.json()[0]["advisories"][0]["family"], "workspace-denial");
}

#[test]
fn a_config_with_an_unknown_key_is_a_usage_error_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    std::fs::write(&json, r#"{"enforceAfter": 2, "maxDenial": 1}"#).unwrap();
    let out = run(&["replay", "-", "--config", json.to_str().unwrap()], "");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("config key `maxDenial`: unknown key"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());

    let toml = dir.path().join("c.toml");
    std::fs::write(&toml, "defaultMode = \"workspace_write\"\n").unwrap();
    let out = run(&["serve", "--config", toml.to_str().unwrap()], "");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("config key `defaultMode`"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_toml_config_sets_the_deployment_default_mode() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("deploy.toml");
    std::fs::write(
        &toml,
        "defaultMode = \"workspace-write\"\nenforceAfter = 1\n",
    )
    .unwrap();
    // No sandbox-mode line: the deployment default decides, so the PTY advisory speaks.
    let input = lines(&[HOST, SESSION, PTY_A2]);
    let out = run(
        &[
            "replay",
            "-",
            "--format",
            "json",
            "--config",
            toml.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(out.json()[0]["advisories"][0]["family"], "pty-startup");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["replay", "/nonexistent/session.jsonl"], "").code, 2);
    assert_eq!(run(&["replay", "-", "--format", "yaml"], "").code, 2);
    assert_eq!(run(&["frobnicate"], "").code, 2);
    let out = run(
        &["replay", "-", "--format", "json"],
        lines(&[r#"{"type":"hello","protocol":2}"#]),
    );
    assert!(
        out.stdout
            .contains("version 2 is not supported (this build speaks 1)")
    );
}

// ── issue 18: CLI polish ──────────────────────────────────────────────────

#[test]
fn a_directory_or_a_missing_file_is_refused_by_name_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jsonl");
    let cases = [
        (
            dir.path().to_path_buf(),
            "it is a directory; give a session file",
        ),
        // ENOENT and ERROR_FILE_NOT_FOUND are both 2; the words differ.
        (missing, "(os error 2)"),
    ];
    for (path, why) in &cases {
        for format in ["text", "json"] {
            let out = run(&["replay", path.to_str().unwrap(), "--format", format], "");
            assert_eq!(out.code, 2, "{format} {path:?}");
            assert!(
                out.stderr.starts_with(&format!(
                    "sandbox-advisor: cannot read {}: ",
                    path.display()
                )),
                "{}",
                out.stderr
            );
            assert!(out.stderr.contains(why), "{}", out.stderr);
            assert!(
                out.stdout.is_empty(),
                "nothing before the error: {}",
                out.stdout
            );
        }
    }
}

#[test]
fn a_host_without_tmpdir_is_withheld_in_words_once_per_session() {
    let input = lines(&[
        r#"{"type":"host","platform":"win32"}"#,
        SESSION,
        MODE,
        r#"{"type":"session","session":"s2","cwd":"D:\\ws2"}"#,
        r#"{"type":"sandbox-mode","session":"s2","mode":"workspace-write"}"#,
        r#"{"type":"session-start","agent":"a1","session":"s1"}"#,
        r#"{"type":"session-start","agent":"a2","session":"s1"}"#,
        r#"{"type":"session-start","agent":"a3","session":"s2"}"#,
        r#"{"type":"session-start","agent":"a4","session":"s2"}"#,
    ]);
    let reason = "no-temp-dir — the host reported no temp directory (a `host` line without `tmpdir`), so the temp root cannot be compared with the workspace root";

    let text = run(&["replay", "-", "--format", "text"], input.clone());
    let withheld: Vec<&str> = text
        .stdout
        .lines()
        .filter(|l| l.contains(" withheld "))
        .collect();
    assert_eq!(
        withheld,
        [
            format!("#6 withheld temp-root-inside-workspace for a1 (pre-flight): {reason}"),
            "#7 withheld temp-root-inside-workspace for a2 (pre-flight): no-temp-dir, as told at #6 for this session".into(),
            format!("#8 withheld temp-root-inside-workspace for a3 (pre-flight): {reason}"),
            "#9 withheld temp-root-inside-workspace for a4 (pre-flight): no-temp-dir, as told at #8 for this session".into(),
        ]
    );

    // The protocol keeps its contract: every agent's line carries its withheld code.
    let json = run(&["replay", "-", "--format", "json"], input.clone());
    for line in json.json() {
        assert_eq!(
            line["withheld"],
            serde_json::json!([{"family": "temp-root-inside-workspace", "reason": "no-temp-dir"}])
        );
    }

    // serve's host log: one WARN per session, in words.
    let serve = run(&["serve"], input);
    let warned: Vec<&str> = serve
        .stderr
        .lines()
        .filter(|l| l.contains("WARN sandbox_advisor::withheld"))
        .collect();
    assert_eq!(warned.len(), 2, "{}", serve.stderr);
    assert!(warned[0].contains(reason) && warned[0].contains("session=s1"));
    assert!(warned[1].contains("session=s2"));
    assert!(!serve.stderr.contains("no-temp-dir — no-temp-dir"));
}

/// A field of the wrong type, and the error in the protocol's words.
const WRONG_TYPES: &[(&str, &str)] = &[
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","error":"boom"}"#,
        "`post` line: field `error` must be an object with a string `message` (and optional `members`, `content` and `code`), not a string",
    ),
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","error":{"message":5}}"#,
        "`post` line: field `error.message` must be a string, not the number 5",
    ),
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","error":{}}"#,
        "`post` line: missing field `error.message`",
    ),
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","error":{"message":"m","members":"x"}}"#,
        "`post` line: field `error.members` must be an array of strings, not a string",
    ),
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","error":{"message":"m","members":["x",1]}}"#,
        "`post` line: field `error.members[1]` must be a string, not the number 1",
    ),
    (
        r#"{"type":"post","agent":"a1","call":"c1","tool":"pwsh","result":"ok"}"#,
        "`post` line: field `result` must be an object with a `value` (and an optional string `content`), not a string",
    ),
    (
        r#"{"type":"pre","agent":"a1","call":["c1"],"tool":"pwsh"}"#,
        "`pre` line: field `call` must be a non-empty string, not an array",
    ),
    (
        r#"{"type":"hello","protocol":"1"}"#,
        "`hello` line: field `protocol` must be a non-negative integer, not a string",
    ),
    (
        r#"{"type":"hello","protocol":-1}"#,
        "`hello` line: field `protocol` must be a non-negative integer, not the number -1",
    ),
    (
        r#"{"type":"host","platform":"win32","electron":"yes"}"#,
        "`host` line: field `electron` must be `true` or `false`, not a string",
    ),
    (
        r#"{"type":"host","platform":7}"#,
        "`host` line: field `platform` must be one of `win32`, `linux`, `macos`, not the number 7",
    ),
    (
        r#"{"type":"policy-unavailable","reason":"resolver-error","message":{}}"#,
        "`policy-unavailable` line: field `message` must be a string, not an object",
    ),
    (
        r#"{"type":"session","session":"s1","cwd":null,"x":1}"#,
        "", // null is an absent optional field: valid
    ),
    (
        "this is not json",
        "the line is not valid JSON: expected a JSON value at column 2",
    ),
];

#[test]
fn wrong_field_types_are_worded_in_protocol_terms() {
    let input = lines(&WRONG_TYPES.iter().map(|(l, _)| *l).collect::<Vec<_>>());
    let out = run(&["replay", "-", "--format", "json"], input);
    let errors: std::collections::HashMap<u64, String> = out
        .json()
        .iter()
        .filter_map(|l| Some((l["seq"].as_u64()?, l.get("error")?.as_str()?.to_owned())))
        .collect();
    for (i, (line, expected)) in WRONG_TYPES.iter().enumerate() {
        let got = errors.get(&(i as u64 + 1)).map_or("", String::as_str);
        assert_eq!(got, *expected, "{line}");
        for rust in ["struct", "u32", "ident", "Part", "EOF", "map", "sequence"] {
            assert!(!got.contains(rust), "{rust} in {got}");
        }
    }
}

/// A session whose every line is answered with a long advisory: far more output
/// than a pipe buffers, so a reader that leaves early is seen mid-run as EPIPE.
fn loud_session(dir: &std::path::Path, name: &str, last: Option<&str>) -> String {
    let mut body = vec![HOST.to_owned(), SESSION.to_owned(), MODE.to_owned()];
    for n in 0..1500 {
        body.push(PTY_A2.replace(r#""agent":"a2""#, &format!(r#""agent":"a{n}""#)));
    }
    body.extend(last.map(str::to_owned));
    let path = dir.join(name);
    std::fs::write(
        &path,
        lines(&body.iter().map(String::as_str).collect::<Vec<_>>()),
    )
    .unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_closed_stdout_leaves_the_exit_code_as_a_full_run_would() {
    let dir = tempfile::tempdir().unwrap();
    let clean = loud_session(dir.path(), "clean.jsonl", None);
    let broken = loud_session(dir.path(), "broken.jsonl", Some("not json"));
    for (file, format, code) in [
        (&clean, "json", 0),
        (&broken, "json", 1),
        (&clean, "text", 0),
        (&broken, "text", 1),
    ] {
        // Run to the end first: the closed-pipe runs must agree with it.
        let full = run(&["replay", file, "--format", format], "");
        assert_eq!(full.code, code, "full run, {format} {file}");
        assert!(
            full.stdout.len() > 1 << 20,
            "the output must outgrow a pipe"
        );
        for _ in 0..3 {
            let (closed, first) = run_closing_stdout(&["replay", file, "--format", format], 1);
            assert_eq!(closed, code, "`| head -1`, {format} {file}");
            assert!(!first[0].is_empty());
        }
    }
}

#[test]
fn the_text_header_names_the_input_and_where_its_config_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let session = lines(&[HOST, SESSION, MODE, PTY_A2]);
    for name in ["bare.jsonl", "paired.jsonl"] {
        std::fs::write(path(name), &session).unwrap();
    }
    std::fs::write(path("paired.config.json"), r#"{"enforceAfter": 2}"#).unwrap();
    std::fs::write(path("deploy.conf"), "defaultMode = \"workspace-write\"\n").unwrap();
    // A session file's convention does not apply to stdin, even beside such a file.
    std::fs::write(path("-.config.json"), r#"{"enforceAfter": 5}"#).unwrap();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["-".into()],
            "replaying stdin — no config (stdin); defaultMode read-only, fail-fast off".into(),
        ),
        (
            vec![path("bare.jsonl")],
            format!(
                "replaying {} — no config (none beside the file); defaultMode read-only, fail-fast off",
                path("bare.jsonl")
            ),
        ),
        (
            vec![path("paired.jsonl")],
            format!(
                "replaying {} — config {} (JSON); defaultMode read-only, enforceAfter 2, maxDenials 2",
                path("paired.jsonl"),
                path("paired.config.json")
            ),
        ),
        (
            vec!["-".into(), "--config".into(), path("deploy.conf")],
            format!(
                "replaying stdin — config {} (TOML, detected from its content); defaultMode workspace-write, fail-fast off",
                path("deploy.conf")
            ),
        ),
    ];
    for (args, header) in cases {
        let mut argv = vec!["replay", "--format", "text"];
        argv.extend(args.iter().map(String::as_str));
        let out = run_in(dir.path(), &argv, session.clone());
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(out.stdout.lines().next().unwrap(), header);
    }
}
