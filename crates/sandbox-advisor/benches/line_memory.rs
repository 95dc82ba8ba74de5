//! Peak memory of `serve` for one long line of each JSON shape (issue 12).
//!
//! `cargo bench -p sandbox-advisor --bench line_memory` builds the release
//! binary, then, for each shape, starts `serve` in a fresh process, sends one
//! `post` line of about 32 MiB (`LINE_MIB` to change it), waits for its answer
//! and reads the child's `VmHWM` (peak resident set) from `/proc/<pid>/status`
//! before closing its stdin. A one-line run gives the baseline. Linux only.
//! `SANDBOX_ADVISOR_BIN=path` measures another build of the binary instead.

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// A `post` line around `args`, with a failure message `message`.
fn post(args: &str, message: &str) -> String {
    format!(
        r#"{{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"pwsh","args":{args},"error":{{"message":"{message}"}}}}"#
    )
}

/// `n` copies of `item` joined by commas, inside `[` `]`.
fn array(item: &str, n: usize) -> String {
    let mut out = String::with_capacity(n * (item.len() + 1) + 2);
    out.push('[');
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item);
    }
    out.push(']');
    out
}

/// The shapes, each about `bytes` long.
fn shapes(bytes: usize) -> Vec<(&'static str, String)> {
    const PTY: &str = "PTY shell exited during startup";
    let nested = format!("{}0{}", "[".repeat(100), "]".repeat(100));
    vec![
        (
            "args: array of zeros `[0,0,…]`",
            post(&array("0", bytes / 2), PTY),
        ),
        (
            "args: nesting 100 deep, repeated `[[[…0…]]],…`",
            post(&array(&nested, bytes / (nested.len() + 1)), PTY),
        ),
        (
            "args: one long string",
            post(&format!("\"{}\"", "x".repeat(bytes)), PTY),
        ),
        (
            "args: many small objects `[{\"k\":0},…]`",
            post(&array(r#"{"k":0}"#, bytes / 8), PTY),
        ),
        (
            "error.message: one long string",
            post("{}", &"x".repeat(bytes)),
        ),
    ]
}

/// Peak RSS of a fresh `serve` after it answered `line`, in KiB, and the seconds it took.
fn peak(bin: &str, line: &str) -> Result<(u64, f64)> {
    let mut child = Command::new(bin)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let started = Instant::now();
    stdin.write_all(line.as_bytes())?;
    stdin.write_all(b"\n")?;
    stdin.flush()?;
    let mut answer = String::new();
    stdout.read_line(&mut answer)?;
    let seconds = started.elapsed().as_secs_f64();
    if !answer.contains("\"seq\":1") {
        return Err(format!("unexpected answer: {}", &answer[..answer.len().min(200)]).into());
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))?;
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or("no VmHWM")?;
    drop(stdin);
    child.wait()?;
    Ok((hwm, seconds))
}

fn main() -> Result<()> {
    let bin = std::env::var("SANDBOX_ADVISOR_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandbox-advisor").to_owned());
    let mib: usize = std::env::var("LINE_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let (base, _) = peak(&bin, &post("{}", "PTY shell exited during startup"))?;
    println!("binary: {bin}");
    println!("baseline (one short line): {:.1} MiB", base as f64 / 1024.0);
    println!();
    println!("| line ({mib} MiB) | bytes | peak RSS | (peak − baseline) / line | time |");
    println!("|---|---|---|---|---|");
    for (name, line) in shapes(mib * 1024 * 1024) {
        let (hwm, seconds) = peak(&bin, &line)?;
        let growth = hwm.saturating_sub(base) as f64 * 1024.0 / line.len() as f64;
        println!(
            "| {name} | {} | {:.0} MiB | {growth:.2}× | {seconds:.2} s |",
            line.len(),
            hwm as f64 / 1024.0
        );
    }
    Ok(())
}
