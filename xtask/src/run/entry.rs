//! One entry from apply to verdict, and the unmutated baseline of a package.

use std::fs;
use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};

use super::cargo::{Failure, Request, test_package};
use super::plan::{Baseline, plan};
use super::{Settings, Slot};
use crate::apply::Shared;
use crate::catalogue::Entry;
use crate::libtest::{self, Outcomes, Verdict};
use crate::report::{EntryResult, Status};
use crate::targets::{self, Pick, Workspace};

/// Tests `package` unmutated, for the baseline: every test target is built,
/// and of their tests those named in `tests` run (all of them when `tests`
/// is empty). The entries' verdicts read only named tests: where each lives,
/// and whether it already fails.
pub fn baseline_package(
    slot: &Slot,
    shared: &Shared,
    package: &str,
    tests: &[String],
    settings: &Settings,
) -> Result<std::result::Result<Outcomes, String>> {
    let all = Pick::Everything.args().unwrap_or_default();
    // Unmutated, every compile error is the source's; only a library that
    // does not load is the slot's.
    let request = Request {
        package,
        targets: &all,
        tests,
        touched: &|_| true,
    };
    let mut log = Vec::new();
    // `heal` succeeds once per slot and run, so this tries at most twice.
    let result = loop {
        match test_package(slot, shared, &request, settings, &mut log)? {
            Err(Failure::Seed(why)) => slot.heal(&format!("the baseline of `{package}`"), &why)?,
            result => break result,
        }
    };
    // A named test that fails unmutated makes its arms BROKEN: one that only
    // failed once (a test racing another, a loaded machine) is run once more,
    // and said by name.
    let result = match result {
        Ok((first, None)) if failed(&first).next().is_some() => {
            log.extend_from_slice(b"\n# again: a named test failed without any mutation\n");
            match test_package(slot, shared, &request, settings, &mut log)? {
                Ok((second, None)) => {
                    let flaky: Vec<&str> = failed(&first)
                        .filter(|t| failed(&second).all(|u| u != *t))
                        .collect();
                    if !flaky.is_empty() {
                        eprintln!(
                            "xtask inject: the baseline of `{package}`: {} failed, then passed when run again (a flaky test; see {})",
                            flaky.join(", "),
                            settings
                                .log_dir
                                .join(format!("baseline-{package}.log"))
                                .display()
                        );
                    }
                    Ok((second, None))
                }
                _ => Ok((first, None)),
            }
        }
        other => other,
    };
    fs::write(
        settings.log_dir.join(format!("baseline-{package}.log")),
        &log,
    )?;
    Ok(match result {
        Ok((outcomes, None)) => Ok(outcomes),
        Ok((_, Some(why))) => Err(format!("baseline: {why}")),
        Err(Failure::Broken(why) | Failure::Seed(why)) => {
            Err(format!("without any mutation, {why}"))
        }
    })
}

/// The tests of `outcomes` that failed somewhere.
fn failed(outcomes: &Outcomes) -> impl Iterator<Item = &str> {
    outcomes
        .iter()
        .filter(|(_, r)| r.iter().any(|(_, o)| *o == crate::libtest::Outcome::Failed))
        .map(|(t, _)| t.as_str())
}

/// Applies one entry in the slot, tests, restores, and judges. When the
/// build fails in the slot rather than in the mutation, the slot is rebuilt
/// from nothing ([`Slot::heal`]) and the entry runs again. `Err` when the
/// source could not be restored, or the slot fails so again (the run must
/// stop).
pub fn run_entry(
    slot: &Slot,
    shared: &Shared,
    entry: &Entry,
    baseline: Option<&Baseline>,
    workspace: Option<&Workspace>,
    settings: &Settings,
) -> Result<EntryResult> {
    // `heal` succeeds once per slot and run, so this tries at most twice.
    loop {
        match attempt(slot, shared, entry, baseline, workspace, settings)? {
            Attempt::Done(result) => return Ok(result),
            Attempt::Seed(why) => {
                // The retry writes the entry's log again: keep this one.
                let log = settings.log_dir.join(format!("{}.log", entry.id));
                let _ = fs::rename(&log, log.with_extension("broken-seed.log"));
                slot.heal(&format!("`{}`", entry.id), &why)?;
            }
        }
    }
}

/// How one try at an entry ended.
enum Attempt {
    /// With a verdict.
    Done(EntryResult),
    /// With a build that failed in the slot, not in the mutation.
    Seed(String),
}

fn attempt(
    slot: &Slot,
    shared: &Shared,
    entry: &Entry,
    baseline: Option<&Baseline>,
    workspace: Option<&Workspace>,
    settings: &Settings,
) -> Result<Attempt> {
    let start = Instant::now();
    let mut result = EntryResult {
        id: entry.id.clone(),
        package: entry.package.clone(),
        packages: entry.packages.clone(),
        file: entry.file.clone(),
        status: Status::Broken,
        failed: Vec::new(),
        silent: Vec::new(),
        detail: String::new(),
        seconds: 0.0,
        log: None,
        cached: false,
    };
    if let Some(reason) = &entry.broken {
        result.detail = reason.clone();
        return Ok(Attempt::Done(result));
    }
    let mut before = Outcomes::new();
    if let Some(baseline) = baseline {
        for package in &entry.packages {
            match baseline.get(package) {
                Some(Ok(outcomes)) => libtest::merge(&mut before, outcomes.clone()),
                Some(Err(why)) => {
                    result.detail = why.clone();
                    return Ok(Attempt::Done(result));
                }
                None => {}
            }
        }
    }
    let file = slot.root.join(&entry.file);
    let guard = match shared.apply(
        slot.index,
        &slot.journal,
        &file,
        &entry.id,
        &entry.find,
        &entry.replace,
    ) {
        Ok(guard) => guard,
        Err(e) => {
            result.detail = format!("cannot apply: {e:#}");
            return Ok(Attempt::Done(result));
        }
    };
    let mut log = Vec::new();
    let _ = writeln!(
        log,
        "# {}: {}\n# in {}\n",
        entry.id,
        entry.description,
        file.display()
    );
    // The mutated package and every workspace package depending on it.
    let touched = |package: &str| {
        workspace.is_none_or(|w| {
            package == entry.package || targets::depends_on(w, package, &entry.package)
        })
    };
    let mut outcomes = Outcomes::new();
    let mut missing = "did not run".to_owned();
    let mut broken = None;
    for (package, targets) in plan(entry, baseline, workspace) {
        let request = Request {
            package: &package,
            targets: &targets,
            tests: &entry.tests,
            touched: &touched,
        };
        match test_package(slot, shared, &request, settings, &mut log) {
            Ok(Ok((more, cut_short))) => {
                libtest::merge(&mut outcomes, more);
                missing = cut_short.unwrap_or(missing);
            }
            Ok(Err(failure)) => {
                broken = Some(failure);
                break;
            }
            Err(e) => {
                broken = Some(Failure::Broken(format!("{e:#}")));
                break;
            }
        }
    }
    guard
        .restore()
        .with_context(|| format!("restoring {} after `{}`", file.display(), entry.id))?;
    let log_path = settings.log_dir.join(format!("{}.log", entry.id));
    if fs::write(&log_path, &log).is_ok() {
        result.log = Some(log_path);
    }
    result.seconds = start.elapsed().as_secs_f64();
    match broken {
        Some(Failure::Seed(why)) => return Ok(Attempt::Seed(why)),
        Some(Failure::Broken(why)) => {
            result.detail = why;
            return Ok(Attempt::Done(result));
        }
        None => {}
    }
    let verdict = libtest::classify(&entry.tests, baseline.map(|_| &before), &outcomes, &missing);
    judge(&mut result, entry, verdict);
    Ok(Attempt::Done(result))
}

fn judge(result: &mut EntryResult, entry: &Entry, verdict: Verdict) {
    let silent_text = |silent: &[(String, String)]| {
        silent
            .iter()
            .map(|(t, why)| format!("{t} ({why})"))
            .collect::<Vec<_>>()
    };
    match (verdict, &entry.equivalent) {
        (Verdict::Broken(why), _) => result.detail = why,
        (Verdict::Caught(failed), None) => {
            result.status = Status::Caught;
            result.failed = failed;
        }
        (Verdict::Silent(silent, failed), None) => {
            result.status = Status::Silent;
            result.silent = silent_text(&silent);
            result.failed = failed;
        }
        (Verdict::Caught(failed), Some(reason)) => {
            result.status = Status::Equivalent;
            result.detail = if failed.is_empty() {
                reason.clone()
            } else {
                format!(
                    "{reason} [claim looks stale: {} FAILED under it]",
                    failed.join(", ")
                )
            };
            result.failed = failed;
        }
        (Verdict::Silent(silent, failed), Some(reason)) => {
            result.status = Status::Equivalent;
            result.silent = silent_text(&silent);
            result.failed = failed;
            result.detail = reason.clone();
        }
    }
}
