//! The two files the gate reads: gungraun's JSON summaries (one object per
//! line of the bench's stdout under `--output-format=json`) and the
//! committed baseline (TOML), which `--update` also writes.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::{Baseline, Tools};

/// gungraun's summary of one bench (the fields read; the rest is skipped).
#[derive(Deserialize)]
struct Summary {
    function_name: String,
    id: Option<String>,
    profiles: Vec<Profile>,
}

#[derive(Deserialize)]
struct Profile {
    tool: String,
    data: ProfileData,
}

#[derive(Deserialize)]
struct ProfileData {
    total: Total,
}

#[derive(Deserialize)]
struct Total {
    metrics: Metrics,
}

#[derive(Deserialize)]
struct Metrics {
    #[serde(rename = "Ir")]
    ir: Metric,
}

#[derive(Deserialize)]
struct Metric {
    values: Values,
}

#[derive(Deserialize)]
struct Values {
    new: u64,
}

/// Each bench's id and instruction count, in run order, from the bench's
/// stdout under `--output-format=json` (a line that is not a JSON object
/// is skipped: the bench's own output).
pub fn parse_summaries(stdout: &str) -> Result<Vec<(String, u64)>> {
    let mut run: Vec<(String, u64)> = Vec::new();
    for (n, line) in stdout.lines().enumerate() {
        if !line.trim_start().starts_with('{') {
            continue;
        }
        let summary: Summary = serde_json::from_str(line)
            .with_context(|| format!("gungraun's summary, line {} of its output", n + 1))?;
        let bench = match summary.id {
            Some(id) => format!("{}::{id}", summary.function_name),
            None => summary.function_name,
        };
        let Some(callgrind) = summary.profiles.iter().find(|p| p.tool == "Callgrind") else {
            bail!("gungraun's summary of {bench} has no Callgrind profile");
        };
        if run.iter().any(|(b, _)| *b == bench) {
            bail!("gungraun's output names {bench} twice");
        }
        run.push((bench, callgrind.data.total.metrics.ir.values.new));
    }
    if run.is_empty() {
        bail!("gungraun's output held no bench summary");
    }
    Ok(run)
}

/// Reads the baseline's text; an error names the line, table or key that is wrong.
pub fn parse_baseline(text: &str) -> Result<Baseline> {
    let table: toml::Table = text.parse().context("not valid TOML")?;
    let mut baseline = Baseline::default();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("instructions", toml::Value::Table(counts)) => {
                for (bench, count) in counts {
                    let n = match count {
                        toml::Value::Integer(n) => u64::try_from(n).ok(),
                        _ => None,
                    };
                    let Some(n) = n else {
                        bail!(
                            "[instructions] \"{bench}\": expected a whole number of instructions (0 or more)"
                        );
                    };
                    baseline.counts.insert(bench, n);
                }
            }
            ("recorded-with", toml::Value::Table(tools)) => {
                for (tool, version) in tools {
                    let toml::Value::String(version) = version else {
                        bail!("[recorded-with] {tool}: expected a string (a version line)");
                    };
                    baseline.recorded_with.0.insert(tool, version);
                }
            }
            ("instructions" | "recorded-with", _) => bail!("`{key}` must be a table"),
            _ => bail!("unknown key `{key}` (expected [instructions] and [recorded-with])"),
        }
    }
    if baseline.counts.is_empty() {
        bail!("no [instructions] table, or an empty one");
    }
    Ok(baseline)
}

/// The baseline file for `run`, measured with `tools`.
pub fn render_baseline(run: &[(String, u64)], tools: &Tools) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""));
    let mut out = String::from(
        "# Instruction counts of sandbox-advisor's `instructions` bench, release profile\n\
         # (callgrind's Ir of each bench's measured function; bench id = function::id).\n\
         # `cargo xtask instructions` fails when one grows by more than 3 %.\n\
         # Regenerate: `cargo xtask instructions --update`, and commit this file\n\
         # with the change that moved the figures.\n\n[recorded-with]\n",
    );
    for (tool, version) in &tools.0 {
        let _ = writeln!(out, "{tool} = {}", quote(version));
    }
    out.push_str("\n[instructions]\n");
    for (bench, n) in run {
        let _ = writeln!(out, "{} = {n}", quote(bench));
    }
    out
}
