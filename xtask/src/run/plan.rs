//! Which packages, and which of their test targets, one entry builds and runs.

use std::collections::BTreeMap;

use crate::catalogue::Entry;
use crate::libtest::Outcomes;
use crate::targets::{self, Pick, Workspace};

/// The `cargo test` runs one entry needs: `(package, target arguments)`.
///
/// With a baseline, each package of `entry.packages` runs only its targets
/// holding a named test (`targets::pick`), and a package holding none is not
/// run. When no package holds any (every named test is missing, hence SILENT
/// whatever happens), the mutated crate's library still builds (`--lib`), so a
/// mutation that does not compile stays BROKEN. Without a baseline every
/// package runs every target.
pub fn plan(
    entry: &Entry,
    baseline: Option<&Baseline>,
    workspace: Option<&Workspace>,
) -> Vec<(String, Vec<String>)> {
    let everything = || Pick::Everything.args().unwrap_or_default();
    let Some(baseline) = baseline else {
        return entry
            .packages
            .iter()
            .map(|p| (p.clone(), everything()))
            .collect();
    };
    let mut runs = Vec::new();
    for package in &entry.packages {
        let known = workspace.and_then(|w| w.get(package));
        let pick = match baseline.get(package) {
            Some(Ok(outcomes)) => {
                targets::pick(&entry.tests, outcomes, known.map(|p| p.targets.as_slice()))
            }
            _ => Pick::Everything,
        };
        if let Some(args) = pick.args() {
            runs.push((package.clone(), args));
        }
    }
    if runs.is_empty() {
        let has_lib = workspace
            .and_then(|w| w.get(&entry.package))
            .is_some_and(|p| p.targets.iter().any(|t| t.flag == "--lib"));
        let args = if has_lib {
            vec!["--lib".to_owned()]
        } else {
            everything()
        };
        runs.push((entry.package.clone(), args));
    }
    runs
}

/// Baseline results by package: outcomes without any mutation, or why the
/// package cannot be tested at all.
pub type Baseline = BTreeMap<String, std::result::Result<Outcomes, String>>;

#[cfg(test)]
mod tests;
