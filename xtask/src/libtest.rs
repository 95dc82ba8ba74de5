//! Reading `cargo test` output (cargo's stderr and libtest's stdout, merged).
//! What a mutation did to the named tests is judged in [`verdict`].

use std::collections::BTreeMap;

mod verdict;

pub use verdict::{Verdict, classify};

/// What libtest said about one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `test x ... ok`
    Passed,
    /// `test x ... FAILED`
    Failed,
    /// `test x ... ignored`
    Ignored,
}

/// Every result seen, by test name; each name may occur in several test
/// binaries (`(binary, outcome)`).
pub type Outcomes = BTreeMap<String, Vec<(String, Outcome)>>;

/// What one `cargo test` output held.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Per-test results.
    pub outcomes: Outcomes,
    /// Number of `test result:` summary lines (one per test binary run).
    pub summaries: usize,
    /// Labels of the test binaries cargo started (`unittests src/lib.rs`,
    /// `tests/arms.rs`), in order.
    pub binaries: Vec<String>,
    /// Compiler / cargo error lines seen before any test binary ran.
    pub build_errors: Vec<String>,
    /// cargo's `process didn't exit successfully` lines: test binaries that
    /// crashed or were killed before reporting every test.
    pub crashes: Vec<String>,
}

/// Parses one libtest result line: `test <name> ... ok|FAILED|ignored`.
pub fn parse_test_line(line: &str) -> Option<(String, Outcome)> {
    let rest = line.strip_prefix("test ")?;
    let (name, status) = rest.split_once(" ... ")?;
    let status = status.split_whitespace().next()?.trim_end_matches(',');
    let outcome = match status {
        "ok" => Outcome::Passed,
        "FAILED" => Outcome::Failed,
        "ignored" => Outcome::Ignored,
        _ => return None,
    };
    let name = name.strip_suffix(" - should panic").unwrap_or(name).trim();
    if name.is_empty() {
        return None;
    }
    Some((name.to_owned(), outcome))
}

/// The label of a cargo `Running` line: `unittests src/lib.rs` for
/// `     Running unittests src/lib.rs (target/debug/deps/x-0123)`,
/// `tests/arms.rs` for an integration test. Labels are paths relative to the
/// package root, as cargo prints them.
pub fn running_label(line: &str) -> Option<&str> {
    let running = line.trim_start().strip_prefix("Running ")?;
    let label = running.split(" (").next().unwrap_or(running).trim();
    // `Running `rustc …`` (cargo -v) is a build step, not a test binary.
    (!label.is_empty() && !label.starts_with('`')).then_some(label)
}

/// Whether a line is one rustc or cargo prints when a crate does not
/// compile (`error[E0308]: ...`, ``error: could not compile `x` ...``).
pub fn is_compile_error(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("error[E") || (line.starts_with("error") && line.contains("could not compile"))
}

/// rustc's errors for a crate it cannot load: not found (E0463), another
/// build of it than the one its dependents were compiled against (E0460,
/// E0464), built for another target or by another compiler (E0461, E0462,
/// E0514), unreadable (E0786).
const LOAD_ERRORS: [&str; 7] = [
    "error[E0460]",
    "error[E0461]",
    "error[E0462]",
    "error[E0463]",
    "error[E0464]",
    "error[E0514]",
    "error[E0786]",
];

/// Why a build that did not compile failed in the slot's target directory
/// rather than in the source: a library did not load (no edit of a crate's
/// source makes a library it depends on fail to load), or a crate
/// `touched(crate)` says the source change cannot reach failed to compile.
/// `None` when the failure is the source's.
pub fn foreign_failure(lines: &[String], touched: &dyn Fn(&str) -> bool) -> Option<String> {
    let mut load = None;
    let mut failed = Vec::new();
    for line in lines {
        let line = line.trim_start();
        if running_label(line).is_some() {
            break;
        }
        if load.is_none() && LOAD_ERRORS.iter().any(|code| line.starts_with(code)) {
            load = Some(line.trim_end().to_owned());
        }
        if let Some(rest) = line.strip_prefix("error: could not compile `") {
            if let Some((name, _)) = rest.split_once('`') {
                failed.push(name.to_owned());
            }
        }
    }
    let named = |name: &str| format!("`{name}` does not build");
    if let Some(load) = load {
        let who = failed
            .first()
            .map_or("a crate does not build".to_owned(), |c| named(c));
        return Some(format!("{who}: {load}"));
    }
    let untouched = failed.iter().find(|c| !touched(c))?;
    let first = lines
        .iter()
        .map(|l| l.trim())
        .find(|l| l.starts_with("error"))
        .unwrap_or("");
    Some(format!("{}: {first}", named(untouched)))
}

/// Parses merged `cargo test` output.
pub fn parse(lines: &[String]) -> Parsed {
    let mut parsed = Parsed::default();
    let mut binary: Option<String> = None;
    // After a binary's `failures:` line comes captured test output, which may
    // itself look like result lines; its results were all printed before.
    let mut in_failures = false;
    for line in lines {
        let trimmed = line.trim_start();
        if let Some(label) = running_label(trimmed) {
            binary = Some(label.to_owned());
            parsed.binaries.push(label.to_owned());
            in_failures = false;
            continue;
        }
        if trimmed == "failures:" {
            in_failures = true;
            continue;
        }
        if trimmed.starts_with("process didn't exit successfully: ")
            && trimmed.contains("(signal: ")
        {
            parsed.crashes.push(trimmed.to_owned());
            continue;
        }
        if trimmed.starts_with("test result: ") {
            parsed.summaries += 1;
            continue;
        }
        if binary.is_none() {
            if trimmed.starts_with("error[E") || trimmed.starts_with("error: ") {
                parsed.build_errors.push(trimmed.to_owned());
            }
            continue;
        }
        if in_failures {
            continue;
        }
        if let Some((name, outcome)) = parse_test_line(line) {
            let at = binary.clone().unwrap_or_default();
            parsed.outcomes.entry(name).or_default().push((at, outcome));
        }
    }
    parsed
}

impl Parsed {
    /// Whether the build failed to compile: a compiler error came before any
    /// test binary started (cargo builds every selected target before it
    /// runs one, and a failed build runs none).
    pub fn did_not_compile(&self) -> bool {
        self.build_errors.iter().any(|l| is_compile_error(l))
    }
}

/// Merges `more` into `into`.
pub fn merge(into: &mut Outcomes, more: Outcomes) {
    for (name, results) in more {
        into.entry(name).or_default().extend(results);
    }
}

/// The first few compiler error lines of an output, for a BROKEN reason.
pub fn error_summary(lines: &[String]) -> String {
    let errors: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.starts_with("error"))
        .take(3)
        .collect();
    if errors.is_empty() {
        lines
            .iter()
            .rev()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .unwrap_or("no output")
            .to_owned()
    } else {
        errors.join("; ")
    }
}

#[cfg(test)]
mod tests;
