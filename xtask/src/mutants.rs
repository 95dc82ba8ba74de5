//! `cargo xtask mutants`: run cargo-mutants on the crates that are kept at
//! 0 missed mutants, and report one row per crate.
//!
//! What runs ([`scopes`]): every workspace member whose package name starts
//! with `family-` (the whole crate), the shared stores `ledger-file` and
//! `ledger-redis` (the whole crate), and advisor-core's ledger, budget, quote
//! and digest modules (only those files: the rest of core is covered by the
//! catalogue and the families' mutants). `--package` narrows the run. Each
//! crate gets its own `cargo mutants -p <crate> [--file <glob>…] --timeout
//! <secs> -j <jobs>` (cargo-mutants builds in a copy of the workspace, so the
//! source tree is never touched), its output in
//! `target/mutants/<crate>/mutants.out`, its counts read from that
//! directory's `outcomes.json`. Exit status: 0 when every crate ran and no
//! mutant was missed; 1 when one was missed or a crate could not be run to
//! the end; 2 on a usage error (an unknown `--package`, no cargo-mutants).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::targets::{self, Workspace};

/// The prefix that makes a workspace package a family crate.
const FAMILY_PREFIX: &str = "sandbox-advisor-family-";

/// Crates beside the families that are mutated: whole, or only the files
/// the globs name (relative to the workspace root, as cargo-mutants' `--file`
/// takes them). A crate listed here that the workspace lacks is skipped.
const MORE: &[(&str, &[&str])] = &[
    ("sandbox-advisor-ledger-file", &[]),
    ("sandbox-advisor-ledger-redis", &[]),
    (
        "sandbox-advisor-core",
        &[
            "crates/advisor-core/src/ledger/**",
            "crates/advisor-core/src/budget/**",
            "crates/advisor-core/src/quote/**",
            "crates/advisor-core/src/digest.rs",
        ],
    ),
];

/// One cargo-mutants run: a package, and the files it is narrowed to
/// (empty: the whole crate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The package name.
    pub package: String,
    /// `--file` globs; empty mutates the whole crate.
    pub files: Vec<String>,
}

/// Arguments of `cargo xtask mutants`.
#[derive(Debug, clap::Args)]
pub struct MutantsArgs {
    /// Run only these crates (repeatable, or comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "PKG")]
    pub package: Vec<String>,
    /// Seconds one mutant's tests may take (cargo mutants --timeout).
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    pub timeout: u64,
    /// Mutants built and tested in parallel (cargo mutants -j).
    #[arg(long, short, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Workspace root (default: the directory above xtask's manifest).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// The summary cargo-mutants writes at the top level of `outcomes.json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct Counts {
    /// Mutants generated.
    pub total_mutants: usize,
    /// Mutants whose tests still passed: code no test constrains.
    pub missed: usize,
    /// Mutants a test failed on.
    pub caught: usize,
    /// Mutants whose tests ran past the timeout.
    pub timeout: usize,
    /// Mutants that did not build.
    pub unviable: usize,
}

/// How one crate's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// cargo-mutants ran to the end; its counts.
    Ran(Counts),
    /// It did not (the unmutated baseline failed, or cargo-mutants errored).
    Failed(String),
}

/// One crate's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The package name.
    pub package: String,
    /// How its run ended.
    pub verdict: Verdict,
    /// Seconds the run took.
    pub seconds: f64,
    /// The missed mutants, one `file:line:col: description` each.
    pub missed: Vec<String>,
}

/// Runs the subcommand.
pub fn main(args: MutantsArgs) -> Result<ExitCode> {
    let root = match &args.root {
        Some(root) => root.clone(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    };
    let root = root
        .canonicalize()
        .with_context(|| format!("workspace root {}", root.display()))?;
    let scopes = select(scopes(&targets::load(&root)?), &args.package)?;
    check_installed()?;
    let mut rows = Vec::with_capacity(scopes.len());
    for scope in &scopes {
        eprintln!(
            "xtask mutants: cargo mutants -p {} {}",
            scope.package,
            scope.files.join(" ")
        );
        rows.push(run_one(&root, scope, &args)?);
    }
    print!("{}", table(&rows));
    Ok(if rows.iter().all(Row::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The names of the workspace packages that start with [`FAMILY_PREFIX`],
/// sorted.
pub fn family_crates(workspace: &Workspace) -> Vec<String> {
    workspace
        .keys()
        .filter(|name| name.starts_with(FAMILY_PREFIX))
        .cloned()
        .collect()
}

/// Every run: the family crates, then [`MORE`]'s crates that the workspace has.
pub fn scopes(workspace: &Workspace) -> Vec<Scope> {
    let whole = |package: String| Scope {
        package,
        files: Vec::new(),
    };
    let more = MORE
        .iter()
        .filter(|(package, _)| workspace.contains_key(*package))
        .map(|(package, files)| Scope {
            package: (*package).to_owned(),
            files: files.iter().map(|f| (*f).to_owned()).collect(),
        });
    family_crates(workspace)
        .into_iter()
        .map(whole)
        .chain(more)
        .collect()
}

/// The runs to make: all of them, or those `--package` names (each must be one).
pub fn select(all: Vec<Scope>, wanted: &[String]) -> Result<Vec<Scope>> {
    if wanted.is_empty() {
        return Ok(all);
    }
    let known = |w: &String| all.iter().any(|s| &s.package == w);
    if let Some(unknown) = wanted.iter().find(|w| !known(w)) {
        let names: Vec<&str> = all.iter().map(|s| s.package.as_str()).collect();
        bail!(
            "--package {unknown} is not a crate that is mutated (known: {})",
            names.join(", ")
        );
    }
    Ok(all
        .into_iter()
        .filter(|s| wanted.contains(&s.package))
        .collect())
}

fn check_installed() -> Result<()> {
    let ok = Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        bail!("cargo-mutants is not installed: run `cargo install --locked cargo-mutants`");
    }
    Ok(())
}

/// Runs cargo-mutants on one crate (narrowed to its files) and reads its outcome.
fn run_one(root: &Path, scope: &Scope, args: &MutantsArgs) -> Result<Row> {
    let package = scope.package.as_str();
    let out_dir = root.join("target").join("mutants").join(package);
    fs::create_dir_all(&out_dir)?;
    let start = Instant::now();
    let mut command = Command::new("cargo");
    command.current_dir(root).args(["mutants", "-p", package]);
    for glob in &scope.files {
        command.arg("--file").arg(glob);
    }
    let status = command
        .arg("--timeout")
        .arg(args.timeout.to_string())
        .arg("-j")
        .arg(args.jobs.to_string())
        .arg("-o")
        .arg(&out_dir)
        .status()
        .with_context(|| format!("starting cargo mutants for {package}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let results = out_dir.join("mutants.out");
    let counts = read_counts(&results.join("outcomes.json"));
    let verdict = match (status.code(), counts) {
        // 0: all caught; 2: some missed; 3: some timed out. Each ran to the end.
        (Some(0 | 2 | 3), Ok(counts)) => Verdict::Ran(counts),
        (code, counts) => Verdict::Failed(failure(code, counts.err())),
    };
    let missed = fs::read_to_string(results.join("missed.txt"))
        .map(|text| text.lines().map(str::to_owned).collect())
        .unwrap_or_default();
    Ok(Row {
        package: package.to_owned(),
        verdict,
        seconds,
        missed,
    })
}

fn failure(code: Option<i32>, unread: Option<anyhow::Error>) -> String {
    let exit = match code {
        Some(4) => "the unmutated baseline failed (exit 4)".to_owned(),
        Some(code) => format!("cargo mutants exited {code}"),
        None => "cargo mutants was killed by a signal".to_owned(),
    };
    match unread {
        Some(e) => format!("{exit}; {e:#}"),
        None => exit,
    }
}

/// The summary counts of an `outcomes.json`.
pub fn read_counts(path: &Path) -> Result<Counts> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

impl Row {
    /// Ran to the end with no mutant missed.
    pub fn passed(&self) -> bool {
        matches!(self.verdict, Verdict::Ran(c) if c.missed == 0)
    }
}

/// The per-crate table, then every missed mutant under its crate.
pub fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.package.len())
        .chain(std::iter::once("crate".len()))
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>7}  {:>6}  {:>6}  {:>7}  {:>8}  {:>7}  result",
        "crate", "mutants", "caught", "missed", "timeout", "unviable", "seconds"
    );
    for row in rows {
        let (counts, result) = match &row.verdict {
            Verdict::Ran(c) if c.missed == 0 => (Some(*c), "ok".to_owned()),
            Verdict::Ran(c) => (Some(*c), "MISSED".to_owned()),
            Verdict::Failed(why) => (None, format!("FAILED: {why}")),
        };
        let c = counts.unwrap_or_default();
        let cell = |n: usize| {
            if counts.is_some() {
                n.to_string()
            } else {
                "-".to_owned()
            }
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>7}  {:>6}  {:>6}  {:>7}  {:>8}  {:>7.0}  {result}",
            row.package,
            cell(c.total_mutants),
            cell(c.caught),
            cell(c.missed),
            cell(c.timeout),
            cell(c.unviable),
            row.seconds,
        );
    }
    for row in rows.iter().filter(|r| !r.missed.is_empty()) {
        let _ = writeln!(out, "\nmissed in {}:", row.package);
        for line in &row.missed {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

#[cfg(test)]
mod tests;
