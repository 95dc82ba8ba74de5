//! `cargo xtask mutants`: run cargo-mutants on every family crate and report
//! one row per crate.
//!
//! The family crates are the workspace members (`cargo metadata`) whose
//! package name starts with `family-`; `--package` narrows the run. Each crate gets its own
//! `cargo mutants -p <crate> --timeout <secs> -j <jobs>` (cargo-mutants builds
//! in a copy of the workspace, so the source tree is never touched), its
//! output in `target/mutants/<crate>/mutants.out`, its counts read from that
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
const FAMILY_PREFIX: &str = "family-";

/// Arguments of `cargo xtask mutants`.
#[derive(Debug, clap::Args)]
pub struct MutantsArgs {
    /// Run only these family crates (repeatable, or comma-separated).
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
    let packages = select(family_crates(&targets::load(&root)?), &args.package)?;
    check_installed()?;
    let mut rows = Vec::with_capacity(packages.len());
    for package in &packages {
        eprintln!("xtask mutants: cargo mutants -p {package}");
        rows.push(run_one(&root, package, &args)?);
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

/// The crates to run: all of them, or those `--package` names (each must be one).
pub fn select(all: Vec<String>, wanted: &[String]) -> Result<Vec<String>> {
    if wanted.is_empty() {
        return Ok(all);
    }
    if let Some(unknown) = wanted.iter().find(|w| !all.contains(w)) {
        bail!(
            "--package {unknown} is not a family crate of the workspace (known: {})",
            all.join(", ")
        );
    }
    Ok(all.into_iter().filter(|p| wanted.contains(p)).collect())
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

/// Runs cargo-mutants on one crate and reads its outcome.
fn run_one(root: &Path, package: &str, args: &MutantsArgs) -> Result<Row> {
    let out_dir = root.join("target").join("mutants").join(package);
    fs::create_dir_all(&out_dir)?;
    let start = Instant::now();
    let status = Command::new("cargo")
        .current_dir(root)
        .args(["mutants", "-p", package, "--timeout"])
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
mod tests {
    use super::*;

    fn row(package: &str, verdict: Verdict, missed: &[&str]) -> Row {
        Row {
            package: package.to_owned(),
            verdict,
            seconds: 12.4,
            missed: missed.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    #[test]
    fn only_family_crates_are_found_by_package_name() {
        // `cargo metadata --no-deps` lists the workspace members; the
        // directory a package lives in does not matter, its name does.
        let package = |dir: &str, name: &str| {
            format!(
                r#"{{"name": "{name}", "manifest_path": "/w/{dir}/Cargo.toml", "targets": [], "dependencies": []}}"#
            )
        };
        let metadata = format!(
            r#"{{"packages": [{}]}}"#,
            [
                package("crates/family-b", "family-b"),
                package("crates/family-a", "family-a"),
                package("crates/advisor-core", "advisor-core"),
                package("crates/renamed", "family-c"),
                package("crates/family-named-otherwise", "core-helpers"),
                package("examples/family-d", "family-d"),
            ]
            .join(", ")
        );
        let workspace = targets::parse_metadata(&metadata).unwrap();
        assert_eq!(
            family_crates(&workspace),
            ["family-a", "family-b", "family-c", "family-d"]
        );
    }

    #[test]
    fn package_narrows_and_unknown_names_are_errors() {
        let all = || vec!["family-a".to_owned(), "family-b".to_owned()];
        assert_eq!(select(all(), &[]).unwrap(), all());
        assert_eq!(
            select(all(), &["family-b".to_owned()]).unwrap(),
            ["family-b"]
        );
        let err = select(all(), &["advisor-core".to_owned()]).unwrap_err();
        assert!(
            err.to_string().contains("known: family-a, family-b"),
            "{err}"
        );
    }

    #[test]
    fn counts_come_from_the_outcomes_summary() {
        let json = r#"{"outcomes": [], "total_mutants": 116, "missed": 2, "caught": 80,
            "timeout": 1, "unviable": 33, "success": 0, "cargo_mutants_version": "27.1.0"}"#;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("outcomes.json");
        fs::write(&path, json).unwrap();
        assert_eq!(
            read_counts(&path).unwrap(),
            Counts {
                total_mutants: 116,
                missed: 2,
                caught: 80,
                timeout: 1,
                unviable: 33
            }
        );
        fs::write(&path, "{}").unwrap();
        assert!(read_counts(&path).is_err());
        assert!(read_counts(&dir.path().join("absent.json")).is_err());
    }

    #[test]
    fn a_crate_passes_only_when_it_ran_and_missed_nothing() {
        let ran = |missed| {
            Verdict::Ran(Counts {
                total_mutants: 3,
                missed,
                caught: 3 - missed,
                ..Counts::default()
            })
        };
        assert!(row("family-a", ran(0), &[]).passed());
        assert!(!row("family-a", ran(1), &["src/a.rs:1:1: x"]).passed());
        assert!(!row("family-a", Verdict::Failed("exit 4".into()), &[]).passed());
    }

    #[test]
    fn the_table_has_one_row_per_crate_and_lists_what_was_missed() {
        let rows = [
            row(
                "family-acl",
                Verdict::Ran(Counts {
                    total_mutants: 116,
                    caught: 90,
                    unviable: 26,
                    ..Counts::default()
                }),
                &[],
            ),
            row(
                "family-pty",
                Verdict::Ran(Counts {
                    total_mutants: 40,
                    missed: 1,
                    caught: 39,
                    ..Counts::default()
                }),
                &["src/summary.rs:12:5: replace < with <= in bound"],
            ),
            row("family-cim", Verdict::Failed("exit 4".into()), &[]),
        ];
        let text = table(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("crate       mutants  caught  missed"));
        assert!(lines[1].starts_with("family-acl      116      90       0"));
        assert!(lines[1].ends_with("  ok"));
        assert!(lines[2].ends_with("  MISSED"));
        assert!(lines[3].contains("  -  ") && lines[3].ends_with("FAILED: exit 4"));
        assert_eq!(
            &lines[4..],
            [
                "",
                "missed in family-pty:",
                "  src/summary.rs:12:5: replace < with <= in bound"
            ]
        );
    }
}
