//! `sandbox-advisor hook` against the binary's own start, in one paired run
//! (issue 28: a silent decision within 1.3× of `--version`).
//!
//! `cargo bench -p sandbox-advisor --bench hook_paired`
//!
//! On a shared machine two separate runs differ by more than the gap being
//! measured, so the cases run interleaved: each round spawns every case
//! once, in an order rotated from round to round, and a case's cost is
//! compared with `--version` of the same round. The report gives each case's
//! median wall time (with the quartiles) and the median of its per-round
//! ratio to `--version`.
//!
//! Every case is spawned the same way, as a host runs a hook: stdin, stdout
//! and stderr through pipes, the payload written and stdin closed, then the
//! exit waited for. The cases:
//!
//! - `version`: `sandbox-advisor --version` (the baseline, A).
//! - `post_no_match`: `hook --dialect claude-code --platform linux --mode
//!   workspace-write --state-dir <temp dir>` with a PostToolUse that matches
//!   nothing; the platform is this machine's own, so the host's temp
//!   directory is known, as on Windows, and no store is opened.
//! - `failure_4k`: the same with a PostToolUseFailure whose `error` is 4 KiB
//!   of unrelated text (the failure needles are scanned).
//! - `post_no_match_win32`: the PostToolUse with `--platform win32`: here the
//!   host has no temp directory, so temp-root's withhold is claimed on the
//!   on-disk store (opened, and one warn line the first time).
//! - `pre`: a PreToolUse (the budget off, the default).
//!
//! Each answer is checked: exit 0 and nothing on stdout.
//!
//! `ROUNDS=n` sets the number of rounds (default 400);
//! `SANDBOX_ADVISOR_BIN=path` measures another build of the binary (the
//! shipped `release` one: `cargo bench` builds the `bench` profile's, the
//! same code with line tables).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, missing_docs)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

#[path = "support/spawn.rs"]
mod spawn;

/// One case: its name, its arguments after the binary, and its stdin.
struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
}

fn hook_args(platform: &str, state_dir: &Path) -> Vec<String> {
    let state_dir = state_dir.to_str().expect("a UTF-8 temp path").to_owned();
    ["hook", "--dialect", "claude-code", "--platform", platform]
        .into_iter()
        .chain(["--mode", "workspace-write", "--state-dir"])
        .map(str::to_owned)
        .chain([state_dir])
        .collect()
}

fn payload(event: &str, extra: serde_json::Value) -> Vec<u8> {
    let mut p = json!({
        "session_id": "s1", "transcript_path": "C:\\Users\\dev\\.claude\\projects\\ws\\s.jsonl",
        "cwd": "D:\\ws", "permission_mode": "default", "hook_event_name": event,
        "tool_name": "pwsh", "tool_input": {"command": "Get-ChildItem"}, "tool_use_id": "toolu_01",
    });
    if let (Some(p), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
        p.extend(extra.clone());
    }
    p.to_string().into_bytes()
}

fn filler(bytes: usize) -> String {
    let line = "   Compiling serde v1.0.219 (registry+https://example.invalid/index)  warning: unused import\n";
    line.repeat(bytes / line.len() + 1)[..bytes].to_owned()
}

fn cases(state_dir: &Path) -> Vec<Case> {
    let listing = "\n    Directory: D:\\ws\n\nMode   LastWriteTime   Length Name\n----   -------------   ------ ----\nd----  01/12/2026 20:00        src\n-a---  01/12/2026 20:00   1024 Cargo.toml\n";
    let post = payload("PostToolUse", json!({"tool_response": listing}));
    let failure = payload(
        "PostToolUseFailure",
        json!({"error": filler(4096), "is_interrupt": false}),
    );
    vec![
        Case {
            name: "version",
            args: vec!["--version".to_owned()],
            stdin: Vec::new(),
        },
        Case {
            name: "post_no_match",
            args: hook_args("linux", state_dir),
            stdin: post.clone(),
        },
        Case {
            name: "failure_4k",
            args: hook_args("linux", state_dir),
            stdin: failure,
        },
        Case {
            name: "post_no_match_win32",
            args: hook_args("win32", state_dir),
            stdin: post,
        },
        Case {
            name: "pre",
            args: hook_args("linux", state_dir),
            stdin: payload("PreToolUse", json!({})),
        },
    ]
}

/// Spawns `bin` as a host spawns a hook and times it to its exit.
fn run(bin: &str, case: &Case) -> Duration {
    let start = Instant::now();
    let out = spawn::with_stdin(Command::new(bin).args(&case.args), &case.stdin);
    let took = start.elapsed();
    assert!(
        out.status.success(),
        "{}: exit {:?}: {}",
        case.name,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let silent = case.name == "version" || out.stdout.is_empty();
    assert!(
        silent,
        "{}: {}",
        case.name,
        String::from_utf8_lossy(&out.stdout)
    );
    took
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = (sorted.len() - 1) as f64 * q;
    sorted[at.round() as usize]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

fn main() {
    // `cargo bench` passes `--bench`; this bench takes no arguments of its own.
    let bin = std::env::var("SANDBOX_ADVISOR_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandbox-advisor").to_owned());
    let rounds: usize = std::env::var("ROUNDS").map_or(400, |r| r.parse().expect("ROUNDS"));
    let dir = tempfile::tempdir().expect("a temporary state directory");
    let cases = cases(dir.path());
    // One warm-up round: page cache, the state directory, the first-agent warn line.
    for case in &cases {
        run(&bin, case);
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); cases.len()];
    for round in 0..rounds {
        for k in 0..cases.len() {
            let i = (round + k) % cases.len();
            times[i].push(run(&bin, &cases[i]).as_secs_f64() * 1e6);
        }
    }
    println!("{bin}, {rounds} rounds, load average {}", load_average());
    println!(
        "{:<22} {:>10} {:>10} {:>10} {:>14}",
        "case", "p25 µs", "median µs", "p75 µs", "median ratio"
    );
    for (case, t) in cases.iter().zip(&times) {
        let ratios = sorted(t.iter().zip(&times[0]).map(|(b, a)| b / a).collect());
        let t = sorted(t.clone());
        println!(
            "{:<22} {:>10.0} {:>10.0} {:>10.0} {:>13.2}×",
            case.name,
            quantile(&t, 0.25),
            quantile(&t, 0.5),
            quantile(&t, 0.75),
            quantile(&ratios, 0.5)
        );
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}
