//! `cargo xtask gen-log --bytes N [--out FILE] [--seed S]`: a realistic mixed
//! event log in the CLI's line protocol (`docs/protocol.md`), for load tests,
//! fuzz seeds and `replay` timings.
//!
//! What it writes: a `hello` and a Windows `host` line, then sessions (each
//! with its `cwd` and a `sandbox-mode`, mostly `workspace-write`) and many
//! agents in them (`session-start` … `agent-end`), and mostly ordinary
//! successful shell results of varied sizes (git, cargo, npm, pytest and
//! PowerShell outputs, file reads, greps), with `pre` lines and ordinary
//! failures sprinkled in. About one post in forty is a failure of one of the
//! families, built from the family's producer sample (`family!` key
//! `sample:`); each family appears at least once when `N` leaves about 2 KiB
//! per family (16 KiB for seven). The families are the standard registry's
//! ([`families::shapes`]): a family added to the registry appears here with
//! no edit to xtask, and one that declares no sample is named on stderr and
//! left out.
//!
//! The output is deterministic for a seed (a xorshift generator, no `rand`),
//! and its size is `N` within a few hundred bytes (the last line may overshoot).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::json;

use self::log::Log;

mod families;
mod log;
mod output;
mod rng;

/// Arguments of `cargo xtask gen-log`.
#[derive(Debug, clap::Args)]
pub struct GenLogArgs {
    /// Size to write, in bytes; `K`, `M` and `G` suffixes are binary (`64M`).
    #[arg(long, value_parser = parse_size)]
    pub bytes: u64,
    /// Write here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The generator's seed; the same seed and size give the same log.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the task.
pub fn main(args: GenLogArgs) -> Result<ExitCode> {
    let written = match &args.out {
        Some(path) => {
            let file = File::create(path).with_context(|| format!("{}", path.display()))?;
            let mut out = BufWriter::new(file);
            let written = generate(args.bytes, args.seed, &mut out)?;
            out.flush()?;
            written
        }
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let written = generate(args.bytes, args.seed, &mut out)?;
            out.flush()?;
            written
        }
    };
    if let Some(path) = &args.out {
        eprintln!("gen-log: {} bytes to {}", written.bytes, path.display());
    }
    if !written.unsampled.is_empty() {
        eprintln!(
            "gen-log: no producer sample (family! key `sample:`), so no failures of {}",
            written.unsampled.join(", ")
        );
    }
    if !written.missing.is_empty() {
        eprintln!(
            "gen-log: too short for a failure of every family; none of {}",
            written.missing.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `123`, `64K`, `10M`, `1G` (binary multiples).
fn parse_size(raw: &str) -> Result<u64> {
    let raw = raw.trim();
    let (digits, unit) = match raw.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => raw.split_at(i),
        None => (raw, ""),
    };
    let scale: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        other => bail!("unknown size unit `{other}` (use K, M or G)"),
    };
    let n: u64 = digits
        .parse()
        .with_context(|| format!("`{raw}` is not a size"))?;
    n.checked_mul(scale)
        .with_context(|| format!("`{raw}` is too large"))
}

/// The room kept for one family line not written yet (a producer sample's line is a few hundred bytes).
const FAMILY_LINE_MAX: u64 = 2048;

/// Below this many bytes left, only short lines are written.
const TAIL: u64 = 1200;

/// What [`generate`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Bytes written.
    pub bytes: u64,
    /// The families of which the log holds no failure (it was too short).
    pub missing: Vec<&'static str>,
    /// The registered families that declare no producer sample (left out).
    pub unsampled: Vec<&'static str>,
    /// How many family failures the log holds.
    pub family_posts: u64,
}

/// Writes about `bytes` bytes of log to `out`; says what was written.
pub fn generate(bytes: u64, seed: u64, out: &mut impl Write) -> Result<Written> {
    let registered = families::shapes()?;
    let mut log = Log::new(out, seed, bytes, registered.shapes);
    log.line(&json!({"type": "hello", "protocol": 1}))?;
    log.line(&json!({
        "type": "host", "platform": "win32", "electron": false,
        "tmpdir": r"C:\Users\dev\AppData\Local\Temp",
    }))?;
    let families = log.shapes.len() as u64;
    while log.written < bytes {
        let remaining = bytes - log.written;
        // Room kept for the families not seen yet, so a long result cannot crowd them out.
        let unseen = log.seen.iter().filter(|s| !**s).count() as u64;
        let reserve = unseen * FAMILY_LINE_MAX;
        // Family i (from 0), when not seen yet, is forced in once the log
        // passes (i + 1) / (n + 1) of its size, n families in all (eighths for seven).
        let due = log.seen.iter().enumerate().position(|(i, seen)| {
            !*seen
                && (log.written.saturating_mul(families + 1) >= bytes.saturating_mul(i as u64 + 1)
                    || remaining <= reserve + TAIL)
        });
        if let Some(shape) = due {
            let agent = log.agent()?;
            log.family(agent, shape)?;
            continue;
        }
        if remaining < TAIL {
            // The tail: small lines only, so the total lands close to `bytes`.
            if log.agents.is_empty() {
                log.start_agent()?;
            } else {
                log.end_agent()?;
            }
            continue;
        }
        let agent = log.agent()?;
        let room = remaining.saturating_sub(reserve + TAIL);
        match log.rng.below(100) {
            0..=2 => {
                let shape = log.rng.index(log.shapes.len());
                log.family(agent, shape)?;
            }
            3..=5 => log.ordinary_failure(agent)?,
            6..=11 => log.pre(agent)?,
            12..=13 => log.end_agent()?,
            14..=21 => {
                let size = log.result_size(room);
                log.read_file(agent, size)?;
            }
            _ => {
                let size = log.result_size(room);
                log.ordinary(agent, size)?;
            }
        }
    }
    let missing = log
        .shapes
        .iter()
        .zip(&log.seen)
        .filter(|(_, seen)| !**seen)
        .map(|(shape, _)| shape.family)
        .collect();
    Ok(Written {
        bytes: log.written,
        missing,
        unsampled: registered.unsampled,
        family_posts: log.families_written,
    })
}

#[cfg(test)]
mod tests;
