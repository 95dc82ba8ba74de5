//! Fleet throughput: `serve` sidecars fed a generated stream, with
//! `--ledger memory` (the default) and `--ledger redis://…`, alone and four
//! sharing one Redis; and Redis's own count of the requests they made.
//!
//! `cargo bench -p sandbox-advisor --bench fleet` builds the release binary
//! (the `bench` profile) and starts a throwaway `redis-server` on a free
//! loopback port (skipped, with a note, when `redis-server` is not on `PATH`
//! and `SANDBOX_ADVISOR_REQUIRE_REDIS` is unset; the memory rows still run).
//!
//! # The stream
//!
//! A `hello`, a Windows `host` with its temp directory, 1,000 sessions (each
//! a `session` with its own `cwd` and a `sandbox-mode` `workspace-write`),
//! then calls from 10,000 agents picked at random (an agent's session is
//! fixed): 90% successes of the shell tool (a foreground value, exit 0,
//! ~300 bytes of output) and 9% unrelated failures, which no family
//! recognizes, and 1% the ACL backend's failure on the session's workspace,
//! which `acl-provisioning` recognizes. One call in ten is preceded by its
//! `pre` line. Events are the `post` and `pre` lines.
//!
//! Two configurations: the budget off (the default, `{}`), where only a
//! recognized failure reaches the ledger store, and `{"enforceAfter": 1}`,
//! where every `pre` and every success of a tracked tool also reads (and
//! sometimes writes) the agent's budget record.
//!
//! # What is measured
//!
//! - events/s per sidecar: the call lines over the wall time from the first
//!   byte written to the end of its answers (the stream is written whole
//!   while the answers are read, by two threads, so `serve` never waits on
//!   the bench); for four sidecars, each sidecar's own figure and the fleet's
//!   (all events over the slowest sidecar's time);
//! - advisories/s, and the advisories heard: each agent with an ACL failure
//!   must hear exactly one, fleet-wide (checked);
//! - Redis's own count of the requests: `INFO commandstats` before and after
//!   each run (calls per command; commands a Lua script runs count too), and
//!   for each configuration one extra, untimed run under `MONITOR`, whose
//!   lines tell the clients' requests (each one round trip: every request
//!   the store sends is one command with one reply) from the commands the
//!   scripts ran (`[0 lua]`).
//!
//! `FLEET_EVENTS` (default 1,000,000 events with the budget off, a tenth of
//! that with it on; the four sidecars share that number) and `FLEET_RUNS`
//! (default 3) change the size; `FLEET_ONLY=text` runs only the cases whose
//! name holds it (`FLEET_ONLY="budget off, 1 sidecar"`);
//! `SANDBOX_ADVISOR_BIN=path` measures another build of the binary. Figures: BENCHMARKS.md, "Fleet (Redis ledger)".
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ledger_redis::testing::RedisServer;

const SESSIONS: usize = 1_000;
const AGENTS: usize = 10_000;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// One sidecar's input and what it must answer.
struct Stream {
    bytes: Vec<u8>,
    /// `post` and `pre` lines.
    events: usize,
    /// The agents with at least one ACL failure in this stream.
    acl_agents: BTreeSet<usize>,
    /// `pre` lines, successes, unrelated failures, ACL failures.
    mix: [usize; 4],
}

const COMMANDS: [&str; 6] = [
    "git status",
    "cargo build",
    "npm test",
    "Get-ChildItem",
    "pytest -q",
    "Get-Content README.md",
];

fn stream(seed: u64, events: usize) -> Stream {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(events * 600);
    out.push_str("{\"type\":\"hello\",\"protocol\":1}\n");
    out.push_str(
        "{\"type\":\"host\",\"platform\":\"win32\",\"electron\":false,\"tmpdir\":\"C:\\\\Users\\\\dev\\\\AppData\\\\Local\\\\Temp\"}\n",
    );
    for s in 0..SESSIONS {
        let _ = writeln!(
            out,
            "{{\"type\":\"session\",\"session\":\"s{s}\",\"cwd\":\"D:\\\\work\\\\s{s}\"}}"
        );
        let _ = writeln!(
            out,
            "{{\"type\":\"sandbox-mode\",\"session\":\"s{s}\",\"mode\":\"workspace-write\"}}"
        );
    }
    let stdout = "On branch main\\nYour branch is up to date with 'origin/main'.\\n\\nChanges not staged for commit:\\n  (use \\\"git add <file>...\\\" to update what will be committed)\\n\\tmodified:   src/lib.rs\\n\\tmodified:   src/main.rs\\n\\nno changes added to commit (use \\\"git add\\\" and/or \\\"git commit -a\\\")\\n";
    let mut acl_agents = BTreeSet::new();
    let mut mix = [0; 4];
    let mut written = 0;
    let mut call = 0u64;
    while written < events {
        let agent = rng.below(AGENTS);
        let s = agent % SESSIONS;
        call += 1;
        let head = format!(
            "\"agent\":\"a{agent}\",\"session\":\"s{s}\",\"call\":\"k{seed}-{call}\",\"tool\":\"pwsh\""
        );
        let roll = rng.below(1000);
        let command = if roll < 10 {
            "Get-Date"
        } else {
            COMMANDS[rng.below(COMMANDS.len())]
        };
        if rng.below(10) == 0 {
            let _ = writeln!(
                out,
                "{{\"type\":\"pre\",{head},\"args\":{{\"command\":\"{command}\"}}}}"
            );
            written += 1;
            mix[0] += 1;
        }
        let outcome = if roll < 10 {
            acl_agents.insert(agent);
            mix[3] += 1;
            format!(
                "\"error\":{{\"message\":\"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\\\work\\\\s{s})\"}}"
            )
        } else if roll < 100 {
            mix[2] += 1;
            format!(
                "\"error\":{{\"message\":\"ENOENT: no such file or directory, open 'D:\\\\work\\\\s{s}\\\\missing.txt'\"}}"
            )
        } else {
            mix[1] += 1;
            format!(
                "\"result\":{{\"value\":{{\"kind\":\"foreground\",\"exitCode\":0,\"signal\":null,\"timedOut\":false,\"aborted\":false,\"timeoutMs\":120000,\"stdout\":{{\"text\":\"{stdout}\",\"truncated\":false}},\"stderr\":{{\"text\":\"\",\"truncated\":false}},\"sandbox\":{{\"mode\":\"workspace-write\",\"denied\":false,\"enforcement\":\"partial\"}}}},\"content\":\"{stdout}\"}}"
            )
        };
        let _ = writeln!(
            out,
            "{{\"type\":\"post\",{head},\"args\":{{\"command\":\"{command}\"}},{outcome}}}"
        );
        written += 1;
    }
    Stream {
        bytes: out.into_bytes(),
        events: written,
        acl_agents,
        mix,
    }
}

/// What one sidecar answered.
#[derive(Debug, Default, Clone)]
struct Answered {
    lines: usize,
    advisories: usize,
    refusals: usize,
    errors: usize,
    seconds: f64,
    /// Host-log lines about the shared ledger (an outage would show here).
    ledger_log: Vec<String>,
}

fn bin() -> String {
    std::env::var("SANDBOX_ADVISOR_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandbox-advisor").to_owned())
}

/// Runs one `serve` on `stream` with `ledger` and `config`; returns when its
/// stdout closed. `start` is shared by a fleet, so all start together.
fn serve(ledger: &str, config: &str, stream: &Stream) -> Answered {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("advisor.json");
    std::fs::write(&path, config).unwrap();
    let mut child = Command::new(bin())
        .args(["--log", "warn", "serve", "--ledger", ledger, "--config"])
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let answered = std::thread::scope(|scope| {
        let started = Instant::now();
        scope.spawn(move || {
            stdin.write_all(&stream.bytes).unwrap();
            drop(stdin);
        });
        let mut answered = Answered::default();
        let mut reader = BufReader::with_capacity(1 << 20, stdout);
        let mut line = Vec::with_capacity(64 * 1024);
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).unwrap() == 0 {
                break;
            }
            answered.lines += 1;
            if contains(&line, b"\"advisories\":[{") {
                answered.advisories += 1;
            }
            if contains(&line, b"\"refusal\":{") {
                answered.refusals += 1;
            }
            if contains(&line, b"\"type\":\"error\"") {
                answered.errors += 1;
            }
        }
        answered.seconds = started.elapsed().as_secs_f64();
        answered
    });
    let status = child.wait().unwrap();
    assert!(status.success(), "serve exited with {status}");
    let log = log.join().unwrap();
    Answered {
        ledger_log: log
            .lines()
            .filter(|l| l.contains("ledger"))
            .map(str::to_owned)
            .collect(),
        ..answered
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// `INFO commandstats`: calls per command.
fn commandstats(port: u16) -> BTreeMap<String, u64> {
    let out = Command::new("redis-cli")
        .args(["-p", &port.to_string(), "INFO", "commandstats"])
        .output()
        .expect("redis-cli");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter_map(|l| {
            let (name, rest) = l.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = rest
                .strip_prefix("calls=")?
                .split(',')
                .next()?
                .parse()
                .ok()?;
            Some((name.to_owned(), calls))
        })
        .collect()
}

fn delta(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    after
        .iter()
        .map(|(k, v)| (k.clone(), v - before.get(k).copied().unwrap_or(0)))
        .filter(|(k, v)| *v > 0 && k != "info")
        .collect()
}

fn flush(port: u16) {
    let out = Command::new("redis-cli")
        .args(["-p", &port.to_string(), "FLUSHALL"])
        .output()
        .expect("redis-cli");
    assert!(out.status.success());
}

/// One run: `streams.len()` sidecars at once.
struct Run {
    per_sidecar: Vec<Answered>,
    events: usize,
    advisories: usize,
    expected: usize,
    seconds: f64,
    commands: BTreeMap<String, u64>,
}

fn run(ledger: &str, config: &str, streams: &[Stream], redis: Option<u16>) -> Run {
    if let Some(port) = redis {
        // Each run starts from an empty Redis: every advisory is new again.
        flush(port);
    }
    let before = redis.map(commandstats).unwrap_or_default();
    let per_sidecar: Vec<Answered> = std::thread::scope(|scope| {
        let handles: Vec<_> = streams
            .iter()
            .map(|s| scope.spawn(move || serve(ledger, config, s)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = redis.map(commandstats).unwrap_or_default();
    let expected = match ledger {
        // Each sidecar on its own: an agent it saw fail hears it from it.
        "memory" => streams.iter().map(|s| s.acl_agents.len()).sum(),
        _ => streams
            .iter()
            .flat_map(|s| s.acl_agents.iter())
            .collect::<BTreeSet<_>>()
            .len(),
    };
    for a in &per_sidecar {
        assert!(a.ledger_log.is_empty(), "{:?}", a.ledger_log);
        assert_eq!(a.errors, 0);
    }
    Run {
        events: streams.iter().map(|s| s.events).sum(),
        advisories: per_sidecar.iter().map(|a| a.advisories).sum(),
        seconds: per_sidecar.iter().map(|a| a.seconds).fold(0.0, f64::max),
        per_sidecar,
        expected,
        commands: delta(&before, &after),
    }
}

/// The requests Redis received from clients, by command, and the commands
/// its scripts ran, by command, from one `MONITOR`ed run.
fn monitored(port: u16, config: &str, streams: &[Stream], url: &str) -> (Run, Monitor) {
    flush(port);
    let mut monitor = Command::new("redis-cli")
        .args(["-p", &port.to_string(), "MONITOR"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-cli MONITOR");
    let out = BufReader::new(monitor.stdout.take().unwrap());
    let (send, recv) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut seen = Monitor::default();
        for line in out.lines() {
            let Ok(line) = line else { break };
            if line == "OK" {
                let _ = send.send(());
                continue;
            }
            // `1701234567.123456 [0 127.0.0.1:5555] "EVAL" "…"` or `[0 lua] "SET" …`.
            let Some((from, rest)) = line.split_once("] ") else {
                continue;
            };
            let command = rest.split('"').nth(1).unwrap_or("?").to_ascii_lowercase();
            if command == "flushall" || command == "info" {
                continue;
            }
            let map = if from.ends_with(" lua") {
                &mut seen.scripted
            } else {
                &mut seen.requests
            };
            *map.entry(command).or_default() += 1;
        }
        seen
    });
    recv.recv_timeout(Duration::from_secs(10))
        .expect("MONITOR answered OK");
    let result = run(url, config, streams, None);
    // Let the monitor drain what the server already sent, then stop it.
    std::thread::sleep(Duration::from_millis(500));
    let _ = monitor.kill();
    let _ = monitor.wait();
    (result, reader.join().unwrap())
}

#[derive(Debug, Default)]
struct Monitor {
    requests: BTreeMap<String, u64>,
    scripted: BTreeMap<String, u64>,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn spread(xs: &[f64]) -> (f64, f64) {
    (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(0.0, f64::max),
    )
}

fn k(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn uptime() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn env_usize(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

struct Case<'a> {
    name: String,
    ledger: &'a str,
    config: &'a str,
    sidecars: usize,
    events: usize,
}

fn main() {
    let runs = env_usize("FLEET_RUNS").unwrap_or(3).max(1);
    let events_off = env_usize("FLEET_EVENTS").unwrap_or(1_000_000);
    let events_on = env_usize("FLEET_EVENTS").unwrap_or(100_000);
    let server = RedisServer::start();
    let url = server.as_ref().map(RedisServer::url);
    let port = server.as_ref().map(RedisServer::port);
    println!("binary: {}", bin());
    println!("load average at start: {}", uptime());
    println!(
        "stream: {SESSIONS} sessions, {AGENTS} agents; 90% successes, 9% unrelated failures, \
         1% ACL failures; a pre before one call in ten; {runs} runs each"
    );
    println!();

    let off = "{}";
    let on = "{\"enforceAfter\": 1}";
    let mut cases = Vec::new();
    for (budget, config, events) in [("off", off, events_off), ("on", on, events_on)] {
        cases.push(Case {
            name: format!("budget {budget}, 1 sidecar, memory"),
            ledger: "memory",
            config,
            sidecars: 1,
            events,
        });
        if let Some(url) = &url {
            cases.push(Case {
                name: format!("budget {budget}, 1 sidecar, redis"),
                ledger: url,
                config,
                sidecars: 1,
                events,
            });
            cases.push(Case {
                name: format!("budget {budget}, 4 sidecars, redis"),
                ledger: url,
                config,
                sidecars: 4,
                events,
            });
        }
    }
    if url.is_none() {
        println!("(the Redis rows are skipped: no redis-server)");
    }
    if let Ok(only) = std::env::var("FLEET_ONLY") {
        cases.retain(|c| c.name.contains(&only));
    }

    println!(
        "| case | events | events/s per sidecar, median [min–max] | fleet events/s | advisories (expected) | refusals | advisories/s | Redis commands per advisory (commandstats) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut monitored_cases = Vec::new();
    for case in &cases {
        let per = case.events / case.sidecars;
        let streams: Vec<Stream> = (0..case.sidecars)
            .map(|i| stream(i as u64 + 1, per))
            .collect();
        let redis = (case.ledger != "memory").then_some(port).flatten();
        let mut per_sidecar_rates = Vec::new();
        let mut fleet_rates = Vec::new();
        let mut advisory_rates = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let r = run(case.ledger, case.config, &streams, redis);
            assert_eq!(
                r.advisories, r.expected,
                "{}: exactly once per agent",
                case.name
            );
            for (a, s) in r.per_sidecar.iter().zip(&streams) {
                per_sidecar_rates.push(s.events as f64 / a.seconds);
            }
            fleet_rates.push(r.events as f64 / r.seconds);
            advisory_rates.push(r.advisories as f64 / r.seconds);
            last = Some(r);
        }
        let r = last.unwrap();
        let (lo, hi) = spread(&per_sidecar_rates);
        let per_advisory = if r.commands.is_empty() {
            "—".to_owned()
        } else {
            r.commands
                .iter()
                .map(|(c, n)| format!("{c} {:.2}", *n as f64 / r.advisories as f64))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "| {} | {} | {} [{}–{}] | {} | {} ({}) | {} | {} | {} |",
            case.name,
            r.events,
            k(median(per_sidecar_rates.clone())),
            k(lo),
            k(hi),
            k(median(fleet_rates)),
            r.advisories,
            r.expected,
            r.per_sidecar.iter().map(|a| a.refusals).sum::<usize>(),
            k(median(advisory_rates)),
            per_advisory,
        );
        if let (Some(port), Some(url)) = (redis, &url) {
            monitored_cases.push((case.name.clone(), case.config, streams, port, url.clone()));
        }
    }
    println!();
    println!("load average at the end of the timed runs: {}", uptime());
    println!();
    println!("Requests (round trips) Redis received, from one MONITOR'ed run per case:");
    println!();
    println!(
        "| case | events | advisories | requests, by command | per advisory | per event | script commands, by command |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, config, streams, port, url) in &monitored_cases {
        let (r, m) = monitored(*port, config, streams, url);
        let requests: u64 = m.requests.values().sum();
        let show = |map: &BTreeMap<String, u64>| {
            map.iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "| {name} | {} | {} | {requests}: {} | {:.3} | {:.4} | {} |",
            r.events,
            r.advisories,
            show(&m.requests),
            requests as f64 / r.advisories as f64,
            requests as f64 / r.events as f64,
            show(&m.scripted),
        );
    }
    println!();
    println!("Streams (summed over a case's sidecars):");
    println!();
    println!("| case | pre | successes | unrelated failures | ACL failures | agents with one |");
    println!("|---|---|---|---|---|---|");
    for (name, _, streams, _, _) in &monitored_cases {
        let sum = |i: usize| streams.iter().map(|s| s.mix[i]).sum::<usize>();
        let agents = streams
            .iter()
            .flat_map(|s| s.acl_agents.iter())
            .collect::<BTreeSet<_>>()
            .len();
        println!(
            "| {name} | {} | {} | {} | {} | {agents} |",
            sum(0),
            sum(1),
            sum(2),
            sum(3)
        );
    }
    println!();
    println!("load average at the end: {}", uptime());
    drop(server);
}
