//! `cargo xtask instructions [--update]`: the instruction-count gate.
//!
//! Runs `cargo bench --profile release -p sandbox-advisor --bench
//! instructions` (gungraun under valgrind's callgrind) with
//! `--output-format=json`, reads each bench's instruction count (callgrind's
//! `Ir`, from gungraun's machine-readable summary, one JSON object per line
//! on stdout), and compares it with the committed baseline ([`BASELINE`]).
//!
//! - A bench that grew by more than [`THRESHOLD_PERCENT`] % fails the gate,
//!   and so does a bench the baseline lacks or a bench the baseline has that
//!   did not run.
//! - One that shrank by more than that passes, with a note to record the gain.
//! - `--update` rewrites the baseline from the run (and passes).
//!
//! Instruction counts repeat exactly from run to run (the bench fixes std's
//! hash keys; see its doc comment), so the threshold only has to absorb
//! changes in the code. Nothing is installed here: a missing valgrind or
//! `gungraun-runner` is an error that names the command that installs it.
//! Exit status: 0 passed, 1 the gate failed, 2 an error.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, Result, bail};

mod files;
pub use files::{parse_baseline, parse_summaries, render_baseline};

/// The growth, in percent of the baseline, that fails the gate.
pub const THRESHOLD_PERCENT: u64 = 3;

/// The baseline, relative to the workspace root.
pub const BASELINE: &str = "crates/sandbox-advisor/benches/instructions.baseline.toml";

/// The `gungraun-runner` the bench needs: the version of the `gungraun`
/// dev-dependency (pinned in the workspace's `Cargo.toml`).
pub const RUNNER_VERSION: &str = "0.20.0";

/// Arguments of `cargo xtask instructions`.
#[derive(Debug, clap::Args)]
pub struct InstructionsArgs {
    /// Rewrite the baseline from this run instead of gating on it.
    #[arg(long)]
    pub update: bool,
}

/// What the figures were measured with (the baseline records it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tools(pub BTreeMap<String, String>);

/// The committed baseline: bench id → instructions, and what measured them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    /// `[recorded-with]`: tool → version line.
    pub recorded_with: Tools,
    /// `[instructions]`: bench id (`function::id`) → instruction count.
    pub counts: BTreeMap<String, u64>,
}

/// One bench's row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// `function::id`.
    pub bench: String,
    /// Its count in the baseline, if it is there.
    pub baseline: Option<u64>,
    /// Its count in this run, if it ran.
    pub now: Option<u64>,
}

/// How a row stands against the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Within the threshold either way.
    Within,
    /// Grew by more than the threshold: fails.
    Grew,
    /// Shrank by more than the threshold: passes, with a note.
    Shrank,
    /// Ran, but the baseline lacks it: fails.
    NotInBaseline,
    /// In the baseline, but did not run: fails.
    NotRun,
}

impl Row {
    /// Where the row stands; the threshold is compared in whole numbers.
    pub fn standing(&self) -> Standing {
        let t = THRESHOLD_PERCENT;
        match (self.baseline, self.now) {
            (None, _) => Standing::NotInBaseline,
            (Some(_), None) => Standing::NotRun,
            (Some(base), Some(now))
                if u128::from(now) * 100 > u128::from(base) * u128::from(100 + t) =>
            {
                Standing::Grew
            }
            (Some(base), Some(now))
                if u128::from(now) * 100 < u128::from(base) * u128::from(100 - t) =>
            {
                Standing::Shrank
            }
            _ => Standing::Within,
        }
    }

    /// The change in percent of the baseline (`None` when a side is missing
    /// or the baseline is 0).
    pub fn change_percent(&self) -> Option<f64> {
        let (base, now) = (self.baseline?, self.now?);
        (base != 0).then(|| (now as f64 - base as f64) * 100.0 / base as f64)
    }
}

/// Runs the subcommand.
pub fn main(args: InstructionsArgs) -> Result<ExitCode> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = root
        .canonicalize()
        .with_context(|| format!("workspace root {}", root.display()))?;
    let tools = tools(&root)?;
    let path = root.join(BASELINE);
    if args.update {
        let old = fs::read_to_string(&path)
            .ok()
            .and_then(|text| parse_baseline(&text).ok())
            .unwrap_or_default();
        let run = parse_summaries(&run_bench(&root)?)?;
        print!("{}", table(&compare(&old.counts, &run)));
        fs::write(&path, render_baseline(&run, &tools))
            .with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {BASELINE} ({} benches)", run.len());
        return Ok(ExitCode::SUCCESS);
    }
    // The baseline is read first, so a broken one is told before the run.
    let text = fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {}: record one with `cargo xtask instructions --update`",
            path.display()
        )
    })?;
    let baseline = parse_baseline(&text).with_context(|| format!("in {BASELINE}"))?;
    let run = parse_summaries(&run_bench(&root)?)?;
    let (report, passed) = judge(&baseline, &run, &tools);
    print!("{report}");
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The table and the verdict of `run` against `baseline`; `true`: passed.
pub fn judge(baseline: &Baseline, run: &[(String, u64)], tools: &Tools) -> (String, bool) {
    let rows = compare(&baseline.counts, run);
    let mut out = table(&rows);
    let of = |standing: Standing| -> Vec<&str> {
        rows.iter()
            .filter(|r| r.standing() == standing)
            .map(|r| r.bench.as_str())
            .collect()
    };
    let t = THRESHOLD_PERCENT;
    let (grew, new, gone, shrank) = (
        of(Standing::Grew),
        of(Standing::NotInBaseline),
        of(Standing::NotRun),
        of(Standing::Shrank),
    );
    let mut say = |list: &[&str], what: &str| {
        if !list.is_empty() {
            let _ = writeln!(out, "{what}: {}", list.join(", "));
        }
    };
    say(&grew, &format!("FAIL: grew by more than {t} %"));
    say(&new, "FAIL: not in the baseline");
    say(&gone, "FAIL: in the baseline but not run");
    say(
        &shrank,
        &format!("note: shrank by more than {t} % (record the gain with `--update`)"),
    );
    for (tool, recorded) in &baseline.recorded_with.0 {
        match tools.0.get(tool) {
            Some(now) if now != recorded => {
                let _ = writeln!(
                    out,
                    "note: the baseline was recorded with {recorded}; this run used {now}"
                );
            }
            _ => {}
        }
    }
    let passed = grew.is_empty() && new.is_empty() && gone.is_empty();
    if passed {
        let _ = writeln!(
            out,
            "ok: no bench grew by more than {t} % ({} run)",
            rows.len()
        );
    } else {
        let _ = writeln!(
            out,
            "If the change is intended, record it: `cargo xtask instructions --update`, \
             and commit {BASELINE} with it."
        );
    }
    (out, passed)
}

/// One row per bench: the run's in run order, then the baseline's that did not run.
pub fn compare(baseline: &BTreeMap<String, u64>, run: &[(String, u64)]) -> Vec<Row> {
    let ran = run.iter().map(|(bench, now)| Row {
        bench: bench.clone(),
        baseline: baseline.get(bench).copied(),
        now: Some(*now),
    });
    let not_run = baseline
        .iter()
        .filter(|(bench, _)| !run.iter().any(|(b, _)| b == *bench))
        .map(|(bench, base)| Row {
            bench: bench.clone(),
            baseline: Some(*base),
            now: None,
        });
    ran.chain(not_run).collect()
}

/// The table: bench, baseline, now, change, and a word where it matters.
pub fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.bench.len())
        .chain(std::iter::once("bench".len()))
        .max()
        .unwrap_or(0);
    let count = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), thousands);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>12}  {:>12}  {:>8}",
        "bench", "baseline", "now", "change"
    );
    for row in rows {
        let change = row
            .change_percent()
            .map_or_else(|| "-".to_owned(), |p| format!("{p:+.2}%"));
        let word = match row.standing() {
            Standing::Within => "",
            Standing::Grew => "  GREW",
            Standing::Shrank => "  shrank",
            Standing::NotInBaseline => "  NOT IN BASELINE",
            Standing::NotRun => "  NOT RUN",
        };
        let line = format!(
            "{:<width$}  {:>12}  {:>12}  {change:>8}{word}",
            row.bench,
            count(row.baseline),
            count(row.now),
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The version lines of rustc, valgrind and gungraun-runner; an error when
/// valgrind or the runner of [`RUNNER_VERSION`] is missing.
fn tools(root: &Path) -> Result<Tools> {
    let version = |program: &str, arg: &str| -> Option<String> {
        let out = Command::new(program)
            .arg(arg)
            .current_dir(root)
            .stdin(Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        out.status.success().then(|| text.trim().to_owned())
    };
    let install = format!("cargo install --locked gungraun-runner --version {RUNNER_VERSION}");
    let Some(valgrind) = version("valgrind", "--version") else {
        bail!(
            "valgrind not found on PATH: install the system package (`apt-get install valgrind`)"
        );
    };
    let runner = version("gungraun-runner", "--version");
    match runner
        .as_deref()
        .and_then(|r| r.strip_prefix("gungraun-runner "))
    {
        Some(v) if v == RUNNER_VERSION => {}
        Some(v) => {
            bail!("gungraun-runner {v} found, the bench needs {RUNNER_VERSION}: run `{install}`")
        }
        None => bail!("gungraun-runner not found on PATH: run `{install}`"),
    }
    let rustc = version("rustc", "--version").context("rustc --version failed")?;
    Ok(Tools(BTreeMap::from([
        ("gungraun-runner".to_owned(), RUNNER_VERSION.to_owned()),
        ("rustc".to_owned(), rustc),
        ("valgrind".to_owned(), valgrind),
    ])))
}

/// Builds and runs the bench; its stdout (gungraun's JSON summaries).
///
/// With the `release` profile, not `bench`: the code is the same (the two
/// differ in line tables only, and gave the same counts), and CI's earlier
/// `cargo test --release -p sandbox-advisor` has then built every dependency
/// (gungraun is a dev-dependency), where `bench` would build them all again.
fn run_bench(root: &Path) -> Result<String> {
    let args = [
        "bench",
        "--profile",
        "release",
        "-p",
        "sandbox-advisor",
        "--bench",
        "instructions",
        "--",
        "--output-format=json",
    ];
    eprintln!("xtask instructions: cargo {}", args.join(" "));
    let out = Command::new("cargo")
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .context("starting cargo bench")?;
    if !out.status.success() {
        bail!("cargo bench failed ({})", out.status);
    }
    String::from_utf8(out.stdout).context("gungraun's output is not UTF-8")
}

#[cfg(test)]
mod tests;
