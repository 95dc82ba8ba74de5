//! The result of an `inject` run: the table, the `SILENT ARMS:` line, the
//! totals, and `target/inject/report.json`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

/// The four results an entry can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Every named test ran and FAILED.
    Caught,
    /// Some named test passed or did not run.
    Silent,
    /// Declared equivalent: never counted as caught.
    Equivalent,
    /// The entry could not prove anything (bad catalogue entry, no build...).
    Broken,
}

impl Status {
    /// The word printed in the table.
    pub fn word(self) -> &'static str {
        match self {
            Status::Caught => "CAUGHT",
            Status::Silent => "SILENT",
            Status::Equivalent => "EQUIVALENT",
            Status::Broken => "BROKEN",
        }
    }
}

/// One entry's result.
#[derive(Debug, Clone, Serialize)]
pub struct EntryResult {
    /// Mutation id.
    pub id: String,
    /// The catalogue's package.
    pub package: String,
    /// Packages whose tests ran.
    pub packages: Vec<String>,
    /// Mutated file, relative to the workspace root.
    pub file: PathBuf,
    /// The result.
    pub status: Status,
    /// Named tests that FAILED under the mutation.
    pub failed: Vec<String>,
    /// Named tests that passed or did not run, each with why.
    pub silent: Vec<String>,
    /// Broken reason, equivalence reason, or other note.
    pub detail: String,
    /// Wall time of apply + build + test + restore.
    pub seconds: f64,
    /// The full cargo output, when anything ran.
    pub log: Option<PathBuf>,
    /// Not run: caught before on the same sources (`inject::cache`).
    pub cached: bool,
}

impl EntryResult {
    /// The text of the table's tests column.
    pub fn tests_column(&self) -> String {
        match self.status {
            Status::Caught => self.failed.join(", "),
            Status::Silent => self.silent.join(", "),
            Status::Equivalent | Status::Broken => self.detail.clone(),
        }
    }
}

/// Totals of a run.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Totals {
    /// CAUGHT entries.
    pub caught: usize,
    /// SILENT entries.
    pub silent: usize,
    /// EQUIVALENT entries.
    pub equivalent: usize,
    /// BROKEN entries.
    pub broken: usize,
}

/// Counts results by status.
pub fn totals(results: &[EntryResult]) -> Totals {
    let mut t = Totals::default();
    for r in results {
        match r.status {
            Status::Caught => t.caught += 1,
            Status::Silent => t.silent += 1,
            Status::Equivalent => t.equivalent += 1,
            Status::Broken => t.broken += 1,
        }
    }
    t
}

/// Renders the table, the `SILENT ARMS:` section and the totals.
pub fn render(results: &[EntryResult], wall_seconds: f64) -> String {
    let header = [
        "ID",
        "PACKAGE",
        "RESULT",
        "FAILING / SILENT TESTS",
        "SECONDS",
    ];
    let rows: Vec<[String; 5]> = results
        .iter()
        .map(|r| {
            [
                r.id.clone(),
                r.package.clone(),
                r.status.word().to_owned(),
                r.tests_column(),
                if r.cached {
                    "cached".to_owned()
                } else {
                    format!("{:.1}", r.seconds)
                },
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: [&str; 5]| {
        let mut text = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i == 4 {
                let _ = write!(text, "{cell:>w$}", w = widths[i]);
            } else {
                let _ = write!(text, "{cell:<w$}  ", w = widths[i]);
            }
        }
        let _ = writeln!(out, "{}", text.trim_end());
    };
    line(&mut out, header);
    for row in &rows {
        line(&mut out, [&row[0], &row[1], &row[2], &row[3], &row[4]]);
    }
    out.push('\n');
    let silent: Vec<&EntryResult> = results
        .iter()
        .filter(|r| r.status == Status::Silent)
        .collect();
    if silent.is_empty() {
        out.push_str("SILENT ARMS: none\n");
    } else {
        out.push_str("SILENT ARMS:\n");
        for r in silent {
            let _ = writeln!(out, "  {} ({}): {}", r.id, r.package, r.silent.join(", "));
        }
    }
    let t = totals(results);
    let _ = writeln!(
        out,
        "totals: {} caught, {} silent, {} equivalent, {} broken ({} entries) in {:.1}s",
        t.caught,
        t.silent,
        t.equivalent,
        t.broken,
        results.len(),
        wall_seconds
    );
    let cached = results.iter().filter(|r| r.cached).count();
    if cached > 0 {
        let _ = writeln!(
            out,
            "cached: {cached} of the caught were caught before on these same sources and did not run (--fresh runs them)"
        );
    }
    out
}

/// What `report.json` holds.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// The workspace root.
    pub root: &'a Path,
    /// Parallel slots used.
    pub jobs: usize,
    /// Whether the unmutated packages were tested first.
    pub baseline: bool,
    /// Per-entry results, in catalogue order.
    pub entries: &'a [EntryResult],
    /// Totals.
    pub totals: Totals,
    /// Wall time of the whole run.
    pub wall_seconds: f64,
    /// `None` when every touched file is as before the run, else what differs.
    pub tree_problem: Option<String>,
}

/// Writes `report.json`.
pub fn write_json(path: &Path, report: &Report<'_>) -> Result<()> {
    let text = serde_json::to_string_pretty(report)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, status: Status) -> EntryResult {
        EntryResult {
            id: id.to_owned(),
            package: "scratch".to_owned(),
            packages: vec!["scratch".to_owned()],
            file: PathBuf::from("crates/scratch/src/lib.rs"),
            status,
            failed: vec!["tests::a".to_owned()],
            silent: vec!["b (passed)".to_owned()],
            detail: "reason".to_owned(),
            seconds: 1.5,
            log: None,
            cached: false,
        }
    }

    #[test]
    fn silent_arms_line() {
        let all_caught = render(&[result("a", Status::Caught)], 2.0);
        assert!(all_caught.contains("\nSILENT ARMS: none\n"), "{all_caught}");
        assert!(
            all_caught
                .contains("totals: 1 caught, 0 silent, 0 equivalent, 0 broken (1 entries) in 2.0s")
        );
        let text = render(
            &[result("a", Status::Caught), result("s", Status::Silent)],
            2.0,
        );
        assert!(
            text.contains("\nSILENT ARMS:\n  s (scratch): b (passed)\n"),
            "{text}"
        );
        assert!(!text.contains("SILENT ARMS: none"));
    }

    #[test]
    fn table_columns() {
        let text = render(
            &[
                result("a", Status::Caught),
                result("broken-one", Status::Broken),
            ],
            0.0,
        );
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "ID          PACKAGE  RESULT  FAILING / SILENT TESTS  SECONDS"
        );
        assert_eq!(
            lines.next().unwrap(),
            "a           scratch  CAUGHT  tests::a                    1.5"
        );
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("broken-one  scratch  BROKEN  reason")
        );
    }
}
