//! `serve` as a child process: interleaved writes and reads, state across lines, exit 0 at EOF.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The decisions asserted here are the shipped families'.
#![cfg(feature = "all-families")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::*;

struct Sidecar {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Sidecar {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(args)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line, which must arrive while stdin is still open.
    fn answer(&mut self) -> serde_json::Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("no answer within 20 s: the sidecar must flush each line");
        serde_json::from_str(&line).unwrap()
    }

    fn nothing_pending(&self) -> bool {
        self.lines.recv_timeout(Duration::from_millis(200)).is_err()
    }
}

#[test]
fn serve_answers_each_line_as_it_arrives_and_keeps_state() {
    let mut sidecar = Sidecar::start(&["--log", "info"]);
    sidecar.send(r#"{"type":"hello","protocol":1}"#);
    assert_eq!(sidecar.answer()["protocol"], 1);

    for fact in [HOST, SESSION, MODE] {
        sidecar.send(fact);
    }
    assert!(sidecar.nothing_pending(), "facts produce no output");

    sidecar.send(ACL_A1);
    let first = sidecar.answer();
    assert_eq!(
        (first["seq"].as_u64(), first["call"].as_str()),
        (Some(5), Some("c1"))
    );
    assert_eq!(first["advisories"][0]["family"], "acl-provisioning");

    sidecar.send("{not json");
    let error = sidecar.answer();
    assert_eq!(error["seq"], 6);
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("the line is not valid JSON")
    );

    sidecar.send(ACL_A1_AGAIN);
    let again = sidecar.answer();
    assert_eq!(again["seq"], 7);
    assert_eq!(
        again["advisories"],
        serde_json::json!([]),
        "once per agent, across lines"
    );

    sidecar.send(PRE_A1);
    assert_eq!(sidecar.answer()["refusal"], serde_json::Value::Null);

    sidecar.send(r#"{"type":"agent-end","agent":"a1"}"#);
    sidecar.send(ACL_A1);
    assert_eq!(
        sidecar.answer()["advisories"][0]["family"],
        "acl-provisioning"
    );

    drop(sidecar.stdin.take());
    let status = sidecar.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "exits 0 at EOF");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut sidecar.child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.contains(" INFO sandbox_advisor::advisory"),
        "the host log goes to stderr: {stderr}"
    );
}

#[test]
fn a_delivery_is_info_and_a_withhold_is_warn_on_the_host_log() {
    // a1 is advised (a delivery); a3's call has no session, so the pre-flight withholds.
    let input = lines(&[
        HOST,
        SESSION,
        MODE,
        ACL_A1,
        r#"{"type":"post","agent":"a3","call":"c8","tool":"pwsh","error":{"message":"npm ERR! code ELIFECYCLE"}}"#,
    ]);
    // (arguments, a delivery line expected, a withhold line expected)
    let cases: [(&[&str], Option<&str>, Option<&str>); 4] = [
        (&["serve"], None, Some(" WARN sandbox_advisor::withheld")),
        (
            &["--log", "info", "serve"],
            Some(" INFO sandbox_advisor::advisory"),
            Some(" WARN sandbox_advisor::withheld"),
        ),
        (&["--log", "error", "serve"], None, None),
        (
            &["--log", "info", "replay", "-", "--format", "json"],
            Some(" INFO sandbox_advisor::advisory"),
            Some(" WARN sandbox_advisor::withheld"),
        ),
    ];
    for (args, delivered, withheld) in cases {
        let out = run(args, input.clone());
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let has = |needle: &str| out.stderr.lines().filter(|l| l.contains(needle)).count();
        assert_eq!(
            has("sandbox_advisor::advisory"),
            usize::from(delivered.is_some()),
            "{args:?}: {}",
            out.stderr
        );
        if let Some(level) = delivered {
            assert_eq!(has(level), 1, "{args:?}: {}", out.stderr);
        }
        assert_eq!(
            has(" WARN sandbox_advisor::withheld"),
            usize::from(withheld.is_some()),
            "{args:?}: {}",
            out.stderr
        );
    }
}

#[test]
fn serve_exits_0_when_its_stdout_is_closed_even_with_stdin_open() {
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for line in [HOST, SESSION, MODE, ACL_A1] {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    stdin.flush().unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("serve kept running with its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    drop(stdin);
}

#[test]
fn serve_with_fail_fast_refuses_and_ignores_its_own_materialized_failure() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(&config, r#"{"enforceAfter": 2, "maxDenials": 1}"#).unwrap();
    let input = lines(&[
        HOST,
        SESSION,
        MODE,
        ACL_A1,
        ACL_A1_AGAIN,
        PRE_A1,
        r#"{"type":"post","agent":"a1","session":"s1","call":"c4","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"refused"}}"#,
        r#"{"type":"pre","agent":"a1","session":"s1","call":"c5","tool":"pwsh","args":{"command":"Get-Date"}}"#,
    ]);
    let out = run(&["serve", "--config", config.to_str().unwrap()], input);
    assert_eq!(out.code, 0);
    let json = out.json();
    assert_eq!(json[2]["refusal"]["family"], "acl-provisioning");
    assert!(
        json[2]["refusal"]["reason"]
            .as_str()
            .unwrap()
            .contains("Refusals left before identical calls go through regardless: 0.")
    );
    assert_eq!(json[3]["advisories"], serde_json::json!([]));
    assert_eq!(
        json[4]["refusal"],
        serde_json::Value::Null,
        "maxDenials spent"
    );
}
