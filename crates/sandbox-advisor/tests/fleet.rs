//! A fleet: several `serve` sidecars sharing one real `redis-server`
//! (`--ledger redis://…`). Skipped with a note when `redis-server` is not
//! installed, unless `SANDBOX_ADVISOR_REQUIRE_REDIS` is set (as in CI).

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The ACL family is the shipped one.
#![cfg(feature = "all-families")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::BIN;
use ledger_redis::testing::RedisServer;
use serde_json::{Value, json};

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

/// One `serve` process: its stdin, its answer lines, its host log.
struct Sidecar {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    log: Arc<Mutex<String>>,
    _config: tempfile::TempDir,
}

impl Sidecar {
    /// A sidecar on `url`, named by `--ledger`.
    fn start(url: &str, config: &Value) -> Self {
        Self::start_with(&["--ledger", url], config)
    }

    /// A sidecar on `url`, named by the config key `ledger`.
    fn start_configured(url: &str, config: &Value) -> Self {
        let mut config = config.clone();
        config["ledger"] = json!(url);
        Self::start_with(&[], &config)
    }

    fn start_with(ledger: &[&str], config: &Value) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("advisor.json");
        std::fs::write(&path, config.to_string()).unwrap();
        let mut child = Command::new(BIN)
            .args(["--log", "info", "serve"])
            .args(ledger)
            .arg("--config")
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let _ = send.send(serde_json::from_str(&line.unwrap()).unwrap());
            }
        });
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let mut log = sink.lock().unwrap();
                log.push_str(&line.unwrap());
                log.push('\n');
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut sidecar = Self {
            child,
            stdin,
            lines,
            log,
            _config: dir,
        };
        for line in [
            json!({"type": "host", "platform": "win32", "electron": false}),
            json!({"type": "session", "session": "s1", "cwd": "D:\\ws"}),
            json!({"type": "sandbox-mode", "session": "s1", "mode": "workspace-write"}),
        ] {
            sidecar.send(&line);
        }
        sidecar
    }

    fn send(&mut self, line: &Value) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next answer line.
    fn answer(&self) -> Value {
        self.lines.recv_timeout(Duration::from_secs(20)).unwrap()
    }

    fn log_count(&self, needle: &str) -> usize {
        self.log.lock().unwrap().matches(needle).count()
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(agent: &str, call: &str) -> Value {
    json!({
        "type": "post", "agent": agent, "session": "s1", "call": call, "tool": "pwsh",
        "args": {"command": "Get-Date"},
        "error": {"message": ACL, "content": format!("Error: {ACL}")},
    })
}

fn pre(agent: &str, call: &str) -> Value {
    json!({
        "type": "pre", "agent": agent, "session": "s1", "call": call, "tool": "pwsh",
        "args": {"command": "Get-Date"},
    })
}

fn advisories(answer: &Value) -> usize {
    answer["advisories"].as_array().map_or(0, Vec::len)
}

/// Sends `line(i)` to every sidecar, then reads one answer from each: the
/// sidecars decide at the same time.
fn to_all(fleet: &mut [Sidecar], line: impl Fn(usize) -> Value) -> Vec<Value> {
    for (i, sidecar) in fleet.iter_mut().enumerate() {
        sidecar.send(&line(i));
    }
    fleet.iter().map(Sidecar::answer).collect()
}

#[test]
fn four_sidecars_fifty_agents_exactly_fifty_advisories() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    // Two name Redis on the command line, two in their configuration.
    let mut fleet: Vec<Sidecar> = (0..4)
        .map(|i| match i % 2 {
            0 => Sidecar::start(&redis.url(), &json!({})),
            _ => Sidecar::start_configured(&redis.url(), &json!({})),
        })
        .collect();
    let mut per_agent = vec![0; 50];
    for (agent, heard) in per_agent.iter_mut().enumerate() {
        let answers = to_all(&mut fleet, |w| {
            post(&format!("a{agent}"), &format!("w{w}c{agent}"))
        });
        assert!(answers.iter().all(|a| a["type"] == "post"), "{answers:?}");
        *heard = answers.iter().map(advisories).sum::<usize>();
    }
    assert_eq!(per_agent.iter().sum::<usize>(), 50, "{per_agent:?}");
    assert!(per_agent.iter().all(|&n| n == 1), "{per_agent:?}");
}

#[test]
fn the_budget_holds_fleet_wide() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let config = json!({"enforceAfter": 1, "maxDenials": 2});
    let mut fleet: Vec<Sidecar> = (0..4)
        .map(|_| Sidecar::start(&redis.url(), &config))
        .collect();
    let answers = to_all(&mut fleet, |w| post("a1", &format!("f{w}")));
    assert_eq!(answers.iter().map(advisories).sum::<usize>(), 1);
    let mut refused = 0;
    for round in 0..3 {
        let answers = to_all(&mut fleet, |w| pre("a1", &format!("p{round}w{w}")));
        refused += answers.iter().filter(|a| !a["refusal"].is_null()).count();
    }
    assert_eq!(refused, 2, "twelve identical calls on four workers");
    let answers = to_all(&mut fleet, |w| pre("a2", &format!("q{w}")));
    assert!(
        answers.iter().all(|a| a["refusal"].is_null()),
        "another agent"
    );
}

#[test]
fn a_redis_outage_is_answered_through_disclosed_once_and_recovered_from() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let mut fleet: Vec<Sidecar> = (0..2)
        .map(|_| Sidecar::start(&redis.url(), &json!({})))
        .collect();
    let heard = |answers: &[Value]| answers.iter().map(advisories).sum::<usize>();
    for agent in 0..5 {
        let answers = to_all(&mut fleet, |w| post(&format!("a{agent}"), &format!("w{w}")));
        assert_eq!(heard(&answers), 1, "before the outage");
    }
    redis.kill();
    for agent in 5..25 {
        let answers = to_all(&mut fleet, |w| post(&format!("a{agent}"), &format!("w{w}")));
        assert!(
            answers.iter().all(|a| a["type"] == "post"),
            "every event is answered"
        );
        assert!((1..=2).contains(&heard(&answers)), "{answers:?}");
        // Never twice from one process.
        let again = to_all(&mut fleet, |w| post(&format!("a{agent}"), &format!("x{w}")));
        assert_eq!(heard(&again), 0);
    }
    for sidecar in &fleet {
        assert_eq!(
            sidecar.log_count("shared ledger unavailable"),
            1,
            "{}",
            sidecar.log.lock().unwrap()
        );
    }
    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut probe = 0;
    loop {
        probe += 1;
        let answers = to_all(&mut fleet, |w| {
            post(&format!("probe{probe}"), &format!("w{w}"))
        });
        let back = fleet.iter().all(|s| s.log_count("reachable again") == 1);
        if heard(&answers) == 1 && back {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "delivery never resumed: {answers:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    for agent in 0..10 {
        let answers = to_all(&mut fleet, |w| {
            post(&format!("after{agent}"), &format!("w{w}"))
        });
        assert_eq!(heard(&answers), 1, "shared again after the restart");
    }
    for sidecar in &fleet {
        assert_eq!(sidecar.log_count("shared ledger unavailable"), 1);
    }
    // The restarted Redis came back empty; the sidecars put the fleet's
    // digest key back when they reconnected, so one that joins now digests
    // under it and shares their ledger: these agents were told already.
    let mut late = [Sidecar::start(&redis.url(), &json!({}))];
    for agent in 0..10 {
        let answers = to_all(&mut late, |_| post(&format!("after{agent}"), "late"));
        assert_eq!(heard(&answers), 0, "a sidecar joining after the restart");
    }
}
