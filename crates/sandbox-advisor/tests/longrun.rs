//! One `serve` process through a long day (issue 12): 1.3M events, 200k
//! agents in 200k sessions, with `ledgerCapacity` and `sessionCapacity`
//! 20,000, so both bounded maps forget all the time. Every agent still
//! active hears each advisory exactly once; an agent the advisor had to
//! forget hears it again; the peak resident set stays flat.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(all(feature = "all-families", target_os = "linux"))]

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use common::*;

const AGENTS: usize = 200_000;
const CAPACITY: usize = 20_000;
/// Agents that live the whole run, posting their failure again every so often.
const LONG_LIVED: usize = 64;
/// A long-lived agent's turn comes every this many lines (one in `LONG_LIVED`
/// turns is its own): about 9,700 other agents between its touches, far
/// fewer than `CAPACITY`, so it must never be forgotten.
const TURN_EVERY: usize = 1_000;
/// Agents that come back at the end, after every other agent: forgotten by
/// then, so they hear their advisory a second time.
const RETURNING: usize = 1_000;

const PTY: &str = r#""error":{"message":"PTY shell exited during startup"}"#;
const UNRELATED: &str = r#""error":{"message":"npm ERR! code ELIFECYCLE"}"#;
const SUCCESS: &str = r#""result":{"value":{"kind":"foreground","exitCode":0,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"ok\n","truncated":false},"stderr":{"text":"","truncated":false}},"content":"ok"}"#;

/// Whether agent `i` fails with the PTY failure (twice) rather than an unrelated one.
fn pty(i: usize) -> bool {
    i % 4 == 0
}

/// Whether agent `i` ends (`agent-end`) after its calls.
fn ends(i: usize) -> bool {
    i % 3 == 0
}

/// The agents that come back at the end: PTY agents that never ended.
fn returning() -> impl Iterator<Item = usize> {
    (0..AGENTS).filter(|&i| pty(i) && !ends(i)).take(RETURNING)
}

/// Writes the stream; returns how many lines it wrote and how many of them
/// produce an output line.
fn write_stream(out: &mut impl Write) -> std::io::Result<(usize, usize)> {
    let mut answered = 0;
    let mut lines = 0usize;
    let mut extra = 0usize;
    let mut line = |out: &mut dyn Write, text: &str, answers: bool| -> std::io::Result<()> {
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
        lines += 1;
        answered += usize::from(answers);
        if lines % TURN_EVERY == 0 {
            let j = (lines / TURN_EVERY) % LONG_LIVED;
            out.write_all(
                br#"{"type":"sandbox-mode","session":"s-long","mode":"workspace-write"}"#,
            )?;
            out.write_all(b"\n")?;
            let post = format!(
                r#"{{"type":"post","agent":"long{j}","session":"s-long","call":"l{lines}","tool":"pwsh",{PTY}}}"#
            );
            out.write_all(post.as_bytes())?;
            out.write_all(b"\n")?;
            answered += 1;
            extra += 2;
        }
        Ok(())
    };
    line(out, r#"{"type":"hello","protocol":1}"#, true)?;
    line(out, HOST, false)?;
    line(
        out,
        r#"{"type":"session","session":"s-long","cwd":"D:\\long"}"#,
        false,
    )?;
    for i in 0..AGENTS {
        let (a, s) = (format!("a{i}"), format!("s{i}"));
        line(
            out,
            &format!(r#"{{"type":"session","session":"{s}","cwd":"D:\\ws\\{i}"}}"#),
            false,
        )?;
        line(
            out,
            &format!(r#"{{"type":"sandbox-mode","session":"{s}","mode":"workspace-write"}}"#),
            false,
        )?;
        line(
            out,
            &format!(r#"{{"type":"session-start","agent":"{a}","session":"{s}"}}"#),
            true,
        )?;
        let call = |c: &str, outcome: &str| {
            format!(
                r#"{{"type":"post","agent":"{a}","session":"{s}","call":"{c}","tool":"pwsh","args":{{"command":"npm test"}},{outcome}}}"#
            )
        };
        line(out, &call("c0", SUCCESS), true)?;
        if pty(i) {
            line(out, &call("c1", PTY), true)?;
            line(out, &call("c2", PTY), true)?;
        } else {
            line(out, &call("c1", UNRELATED), true)?;
        }
        line(
            out,
            &format!(
                r#"{{"type":"pre","agent":"{a}","session":"{s}","call":"c3","tool":"pwsh","args":{{"command":"npm test"}}}}"#
            ),
            true,
        )?;
        if ends(i) {
            line(
                out,
                &format!(r#"{{"type":"agent-end","agent":"{a}"}}"#),
                false,
            )?;
        }
    }
    for i in returning() {
        line(
            out,
            &format!(
                r#"{{"type":"post","agent":"a{i}","session":"s{i}","call":"c9","tool":"pwsh",{PTY}}}"#
            ),
            true,
        )?;
    }
    out.flush()?;
    Ok((lines + extra, answered))
}

fn vm_hwm_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// What the reader saw.
#[derive(Default)]
struct Seen {
    lines: usize,
    errors: Vec<String>,
    /// Advisories per (agent, family).
    advised: HashMap<(String, String), usize>,
    /// VmHWM (KiB) when half the answers had arrived.
    half_way_kib: u64,
}

#[test]
#[ignore = "about 110 s in a debug build (10 s in release); .ci/run runs it in release: cargo test --release -p sandbox-advisor --test longrun -- --ignored"]
fn a_long_day_of_one_serve_is_exactly_once_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(
        &config,
        format!(r#"{{"ledgerCapacity": {CAPACITY}, "sessionCapacity": {CAPACITY}}}"#),
    )
    .unwrap();
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(["serve", "--config", config.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let read_so_far = Arc::new(AtomicUsize::new(0));
    let writer = std::thread::spawn(move || {
        let mut out = BufWriter::with_capacity(1 << 16, stdin);
        let (events, answered) = write_stream(&mut out).unwrap();
        // Kept open until the peak is read: at EOF the process exits.
        (out.into_inner().unwrap(), events, answered)
    });
    let progress = read_so_far.clone();
    let reader = std::thread::spawn(move || {
        let mut seen = Seen::default();
        for line in BufReader::with_capacity(1 << 16, stdout).lines() {
            let line = line.unwrap();
            seen.lines += 1;
            if seen.lines == AGENTS * 2 {
                seen.half_way_kib = vm_hwm_kib(pid);
            }
            progress.store(seen.lines, Ordering::Release);
            if line.contains(r#""advisories":[]"#) {
                continue;
            }
            let json: serde_json::Value = serde_json::from_str(&line).unwrap();
            if let Some(error) = json.get("error") {
                seen.errors.push(error.to_string());
                continue;
            }
            for advisory in json["advisories"].as_array().into_iter().flatten() {
                let key = (
                    json["agent"].as_str().unwrap().to_owned(),
                    advisory["family"].as_str().unwrap().to_owned(),
                );
                *seen.advised.entry(key).or_default() += 1;
            }
        }
        seen
    });
    let (stdin, events, answered) = writer.join().unwrap();
    assert!(events >= 1_000_000, "{events} events");
    // Every line answered while stdin is still open: the process is idle, at its peak.
    let deadline = Instant::now() + std::time::Duration::from_secs(900);
    while read_so_far.load(Ordering::Acquire) < answered && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let peak_kib = vm_hwm_kib(pid);
    drop(stdin);
    let status = child.wait().unwrap();
    let seen = reader.join().unwrap();
    eprintln!(
        "longrun: {events} events, {} answers in {:.1?}; peak {} KiB (about half-way {} KiB)",
        seen.lines,
        started.elapsed(),
        peak_kib,
        seen.half_way_kib
    );
    assert_eq!(seen.lines, answered);
    assert_eq!(status.code(), Some(0));
    assert!(
        seen.errors.is_empty(),
        "{:?}",
        &seen.errors[..seen.errors.len().min(5)]
    );
    let count = |agent: &str| {
        seen.advised
            .get(&(agent.to_owned(), "pty-startup".to_owned()))
            .copied()
            .unwrap_or(0)
    };
    let back: std::collections::HashSet<usize> = returning().collect();
    for i in 0..AGENTS {
        let expected = match (pty(i), back.contains(&i)) {
            (false, _) => 0,
            (true, false) => 1,
            // Forgotten after 190,000 other agents: never seen, so told again.
            (true, true) => 2,
        };
        assert_eq!(count(&format!("a{i}")), expected, "agent a{i}");
    }
    for j in 0..LONG_LIVED {
        assert_eq!(count(&format!("long{j}")), 1, "long-lived agent long{j}");
    }
    assert_eq!(
        seen.advised.values().sum::<usize>(),
        AGENTS / 4 + RETURNING + LONG_LIVED,
        "no other advisory"
    );
    assert!(
        peak_kib < 128 * 1024,
        "peak {peak_kib} KiB: memory is not bounded by the capacities"
    );
    assert!(
        peak_kib < seen.half_way_kib + 16 * 1024,
        "peak {peak_kib} KiB, {} KiB half-way: still growing",
        seen.half_way_kib
    );
}
