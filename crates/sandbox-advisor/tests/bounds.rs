//! What one line may cost (issue 12, items 4 and 5): memory bounded by the
//! line whatever its JSON shape, and free text that one line cannot repeat
//! into every later answer.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

// The peak-memory measurements read /proc: Linux only.
#[cfg(target_os = "linux")]
use std::io::{BufRead, BufReader, Write};
#[cfg(target_os = "linux")]
use std::process::{Command, Stdio};

use common::*;

/// `n` copies of `item` joined by commas, inside `[` `]`.
fn array(item: &str, n: usize) -> String {
    format!("[{}]", vec![item; n].join(","))
}

#[cfg(target_os = "linux")]
fn post_with_args(args: &str) -> String {
    format!(
        r#"{{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"pwsh","args":{args},"error":{{"message":"PTY shell exited during startup"}}}}"#
    )
}

/// The peak resident set (KiB) of a fresh `serve` once it answered `line`.
#[cfg(target_os = "linux")]
fn peak_kib(line: &str) -> u64 {
    peak_kib_with(&[], line, r#"{"seq":1,"type":"post""#)
}

/// The same, with more arguments to `serve`, checking how the answer starts.
#[cfg(target_os = "linux")]
fn peak_kib_with(args: &[&str], line: &str, answer_starts: &str) -> u64 {
    let mut child = Command::new(BIN)
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(line.as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    assert!(answer.starts_with(answer_starts), "{answer:.300}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    drop(stdin);
    child.wait().unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn a_line_costs_a_few_times_its_length_whatever_the_shape_of_its_json() {
    const BYTES: usize = 4 * 1024 * 1024;
    let base = peak_kib(&post_with_args("{}"));
    let nested = format!("{}0{}", "[".repeat(100), "]".repeat(100));
    let shapes = [
        ("zeros", post_with_args(&array("0", BYTES / 2))),
        ("nested", post_with_args(&array(&nested, BYTES / 202))),
        (
            "string",
            post_with_args(&format!("\"{}\"", "x".repeat(BYTES))),
        ),
        ("objects", post_with_args(&array(r#"{"k":0}"#, BYTES / 8))),
        (
            "object members",
            post_with_args(&format!(
                "{{{}}}",
                (0..BYTES / 12)
                    .map(|i| format!("\"k{i}\":0"))
                    .collect::<Vec<_>>()
                    .join(",")
            )),
        ),
    ];
    for (shape, line) in shapes {
        let grown = peak_kib(&line).saturating_sub(base) * 1024;
        // The line, a copy of its one long string, and the reader's buffers.
        let bound = 3 * line.len() as u64 + 8 * 1024 * 1024;
        assert!(
            grown <= bound,
            "{shape}: {grown} bytes over the baseline for a {} byte line",
            line.len()
        );
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_line_over_the_limit_costs_one_buffer_not_its_length() {
    let base = peak_kib(&post_with_args("{}"));
    let line = post_with_args(&format!("\"{}\"", "x".repeat(64 * 1024 * 1024)));
    let peak = peak_kib_with(
        &["--max-line-bytes", "1048576"],
        &line,
        r#"{"seq":1,"error":"the line is 67108"#,
    );
    let grown = peak.saturating_sub(base) * 1024;
    assert!(grown < 16 * 1024 * 1024, "{grown} bytes for a skipped line");
}

/// The bundled workspace-denial call, its `args` and its `result.value` each
/// given one more member far larger than recognition reads whole.
fn padded_denial(padding: &str) -> String {
    let denial = std::fs::read_to_string(sessions_dir().join("workspace-denial.jsonl")).unwrap();
    let line = denial.lines().nth(5).unwrap();
    line.replacen(
        r#""args":{"#,
        &format!(r#""args":{{"padding":{padding},"#),
        1,
    )
    .replacen(
        r#""value":{"#,
        &format!(r#""value":{{"padding":{padding},"#),
        1,
    )
}

#[test]
fn a_large_value_is_read_for_what_recognition_needs_and_decides_the_same() {
    let plain = lines(&[HOST, SESSION, MODE, &padded_denial("0")]);
    let padded = lines(&[
        HOST,
        SESSION,
        MODE,
        &padded_denial(&array("[0,{}]", 40_000)),
    ]);
    let expected = run(&["replay", "-", "--format", "json"], plain).json();
    let got = run(&["replay", "-", "--format", "json"], padded).json();
    assert_eq!(expected[0]["advisories"][0]["family"], "workspace-denial");
    assert!(
        expected[0]["advisories"][0]["text"]
            .as_str()
            .unwrap()
            .contains(r"D:\ws\vendor\lib\config.json"),
        "the named path is read from the command"
    );
    assert_eq!(got, expected);
}

#[test]
fn a_large_args_keeps_its_whole_identity_for_fail_fast() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(&config, r#"{"enforceAfter": 1, "maxDenials": 5}"#).unwrap();
    let big = |last: &str, first_key: bool| {
        let data = format!(
            "[{},{last}]",
            vec!["[0,{\"a\":1,\"b\":2}]"; 20_000].join(",")
        );
        if first_key {
            format!(r#"{{"command":"Get-Date","data":{data}}}"#)
        } else {
            format!(r#"{{"data":{data},"command":"Get-Date"}}"#)
        }
    };
    let call = |kind: &str, id: &str, args: &str| {
        let tail = if kind == "post" {
            r#","error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}"#
        } else {
            ""
        };
        format!(
            r#"{{"type":"{kind}","agent":"a1","session":"s1","call":"{id}","tool":"pwsh","args":{args}{tail}}}"#
        )
    };
    let input = lines(&[
        HOST,
        SESSION,
        MODE,
        &call("post", "c1", &big("{\"a\":1,\"b\":2}", true)),
        // The same arguments, members in another order: the same call.
        &call("pre", "c2", &big("{\"b\":2,\"a\":1}", false)),
        // One value deep inside differs: another call.
        &call("pre", "c3", &big("{\"a\":1,\"b\":3}", true)),
        // A member the projection keeps differs: another call.
        &call(
            "pre",
            "c4",
            &big("{\"a\":1,\"b\":2}", true).replace("Get-Date", "Get-Item"),
        ),
    ]);
    let out = run(&["serve", "--config", config.to_str().unwrap()], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let refused: Vec<bool> = out.json()[1..]
        .iter()
        .map(|l| !l["refusal"].is_null())
        .collect();
    assert_eq!(refused, [true, false, false]);
}

#[test]
fn echoed_text_is_capped_so_one_line_cannot_fill_every_answer() {
    const MB: usize = 1024 * 1024;
    let message = "m".repeat(MB);
    let mut input = vec![
        HOST.to_owned(),
        format!(
            r#"{{"type":"policy-unavailable","reason":"resolver-error","message":"{message}"}}"#
        ),
    ];
    let long = |prefix: &str, n: usize| format!("{prefix}{n}{}", "i".repeat(64 * 1024));
    for n in 0..200 {
        let (agent, session) = (long("agent", n), format!("s{n}"));
        input.push(format!(
            r#"{{"type":"session-start","agent":"{agent}","session":"{session}"}}"#
        ));
        input.push(format!(
            r#"{{"type":"post","agent":"{agent}","session":"{session}","call":"{}","tool":"{}","error":{{"message":"PTY shell exited during startup"}}}}"#,
            long("call", n),
            long("tool", n)
        ));
    }
    let input = lines(&input.iter().map(String::as_str).collect::<Vec<_>>());
    for args in [
        &["--log", "debug", "serve"][..],
        &["--log", "debug", "replay", "-", "--format", "text"][..],
    ] {
        let out = run(args, input.clone());
        assert_eq!(out.code, 0, "{args:?}: {:.2000}", out.stderr);
        let total = out.stdout.len() + out.stderr.len();
        assert!(
            total < 2 * MB,
            "{args:?}: {total} bytes of output for 400 answers"
        );
    }
    let json = run(&["serve"], input).json();
    assert_eq!(json.len(), 400);
    let agents: std::collections::HashSet<&str> =
        json.iter().map(|l| l["agent"].as_str().unwrap()).collect();
    assert_eq!(agents.len(), 200, "shortened ids stay distinct");
    for line in &json {
        for field in ["agent", "call"] {
            if let Some(id) = line[field].as_str() {
                assert!(id.len() <= 256, "{field}: {} bytes", id.len());
            }
        }
    }
}
