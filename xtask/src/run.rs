//! Running `cargo test` for a slot, and one mutation from apply to verdict.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::apply::{Shared, kill_group};
use crate::catalogue::Entry;
use crate::libtest::{self, Outcomes, Verdict};
use crate::report::{EntryResult, Status};

/// Where one worker mutates and builds.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Slot number (0 = the real tree, in place).
    pub index: usize,
    /// Workspace root this slot mutates and tests.
    pub root: PathBuf,
    /// Its `CARGO_TARGET_DIR`.
    pub target_dir: PathBuf,
    /// Its journal.
    pub journal: PathBuf,
}

/// Settings shared by every run.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Limit for one `cargo test --no-run`.
    pub build_timeout: Duration,
    /// Limit for one `cargo test` run.
    pub test_timeout: Duration,
    /// Echo cargo's output.
    pub verbose: bool,
    /// Where per-entry logs go.
    pub log_dir: PathBuf,
}

/// What one cargo invocation did.
#[derive(Debug)]
pub struct CargoRun {
    /// Exit status (`None` when killed).
    pub success: bool,
    /// Killed for running past its limit.
    pub timed_out: bool,
    /// stdout and stderr, merged, in order.
    pub lines: Vec<String>,
}

/// Runs `cargo <args>` in the slot, with the environment that keeps insta
/// from writing into the tree, in its own process group (so Ctrl-C and
/// timeouts can stop the test binaries too).
pub fn cargo(
    slot: &Slot,
    shared: &Shared,
    args: &[&str],
    limit: Duration,
    settings: &Settings,
    log: &mut Vec<u8>,
) -> Result<CargoRun> {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let _ = writeln!(
        log,
        "$ (cd {} && cargo {})",
        slot.root.display(),
        args.join(" ")
    );
    let (reader, writer) = os_pipe::pipe()?;
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(&slot.root)
        .env("CI", "true")
        .env("INSTA_UPDATE", "no")
        .env_remove("INSTA_FORCE_PASS")
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .env("CARGO_TARGET_DIR", &slot.target_dir)
        .env("CARGO_TERM_COLOR", "never")
        .stdin(Stdio::null())
        .stdout(writer.try_clone()?)
        .stderr(writer)
        .process_group(0);
    let mut child = command.spawn().context("starting cargo")?;
    drop(command); // closes our copies of the pipe's write end
    let pgid = child.id();
    shared.set_child(slot.index, Some(pgid));
    let (verbose, tag) = (settings.verbose, slot.index);
    let reading = std::thread::spawn(move || {
        let mut lines = Vec::new();
        let mut reader = BufReader::new(reader);
        let mut buf = Vec::new();
        while reader.read_until(b'\n', &mut buf).unwrap_or(0) > 0 {
            let line = String::from_utf8_lossy(&buf)
                .trim_end_matches(['\n', '\r'])
                .to_owned();
            if verbose {
                eprintln!("[slot {tag}] {line}");
            }
            lines.push(line);
            buf.clear();
        }
        lines
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() > limit {
            timed_out = true;
            kill_group(pgid);
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    kill_group(pgid); // strays a test may have left holding the pipe
    shared.set_child(slot.index, None);
    let lines = reading.join().unwrap_or_default();
    for line in &lines {
        let _ = writeln!(log, "{line}");
    }
    let success = status.is_some_and(|s| s.success());
    let _ = writeln!(log, "# exit: {status:?}, timed out: {timed_out}\n");
    Ok(CargoRun {
        success,
        timed_out,
        lines,
    })
}

/// Builds then runs one package's `--lib --tests` in the slot. `Err` holds a
/// BROKEN reason (does not compile, cargo failed, build timed out); `Ok`
/// holds the outcomes and, when the run was cut short, why tests are missing.
pub fn test_package(
    slot: &Slot,
    shared: &Shared,
    package: &str,
    settings: &Settings,
    log: &mut Vec<u8>,
) -> Result<std::result::Result<(Outcomes, Option<String>), String>> {
    let base = ["test", "-p", package, "--lib", "--tests"];
    let build = cargo(
        slot,
        shared,
        &[&base[..], &["--no-run"]].concat(),
        settings.build_timeout,
        settings,
        log,
    )?;
    if build.timed_out {
        let secs = settings.build_timeout.as_secs();
        return Ok(Err(format!("building `{package}` took over {secs}s")));
    }
    if !build.success {
        let summary = libtest::error_summary(&build.lines);
        let compiler = build
            .lines
            .iter()
            .any(|l| l.starts_with("error[E") || l.contains("could not compile"));
        return Ok(Err(if compiler {
            format!("`{package}` does not compile: {summary}")
        } else {
            format!("`cargo test -p {package} --no-run` failed: {summary}")
        }));
    }
    let run = cargo(
        slot,
        shared,
        &[&base[..], &["--no-fail-fast"]].concat(),
        settings.test_timeout,
        settings,
        log,
    )?;
    let parsed = libtest::parse(&run.lines);
    if !run.success && parsed.summaries == 0 && !run.timed_out && parsed.crashes.is_empty() {
        let summary = libtest::error_summary(&run.lines);
        return Ok(Err(format!(
            "`cargo test -p {package}` ran no test: {summary}"
        )));
    }
    let missing = if run.timed_out {
        let secs = settings.test_timeout.as_secs();
        Some(format!(
            "did not finish: `{package}` tests ran past {secs}s"
        ))
    } else {
        parsed.crashes.first().map(|crash| {
            let signal = crash.rsplit_once("(signal: ").map_or("", |(_, s)| s);
            format!("no result: a test binary crashed (signal: {signal}")
        })
    };
    Ok(Ok((parsed.outcomes, missing)))
}

/// Baseline results by package: outcomes without any mutation, or why the
/// package cannot be tested at all.
pub type Baseline = BTreeMap<String, std::result::Result<Outcomes, String>>;

/// Tests `package` unmutated, for the baseline.
pub fn baseline_package(
    slot: &Slot,
    shared: &Shared,
    package: &str,
    settings: &Settings,
) -> Result<std::result::Result<Outcomes, String>> {
    let mut log = Vec::new();
    let result = test_package(slot, shared, package, settings, &mut log)?;
    fs::write(
        settings.log_dir.join(format!("baseline-{package}.log")),
        &log,
    )?;
    Ok(match result {
        Ok((outcomes, None)) => Ok(outcomes),
        Ok((_, Some(why))) => Err(format!("baseline: {why}")),
        Err(why) => Err(format!("without any mutation, {why}")),
    })
}

/// Applies one entry in the slot, tests, restores, and judges. `Err` only
/// when the source could not be restored (the run must stop).
pub fn run_entry(
    slot: &Slot,
    shared: &Shared,
    entry: &Entry,
    baseline: Option<&Baseline>,
    settings: &Settings,
) -> Result<EntryResult> {
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
    };
    if let Some(reason) = &entry.broken {
        result.detail = reason.clone();
        return Ok(result);
    }
    let mut before = Outcomes::new();
    if let Some(baseline) = baseline {
        for package in &entry.packages {
            match baseline.get(package) {
                Some(Ok(outcomes)) => libtest::merge(&mut before, outcomes.clone()),
                Some(Err(why)) => {
                    result.detail = why.clone();
                    return Ok(result);
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
            return Ok(result);
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
    let mut outcomes = Outcomes::new();
    let mut missing = "did not run".to_owned();
    let mut broken = None;
    for package in &entry.packages {
        match test_package(slot, shared, package, settings, &mut log) {
            Ok(Ok((more, cut_short))) => {
                libtest::merge(&mut outcomes, more);
                missing = cut_short.unwrap_or(missing);
            }
            Ok(Err(why)) => {
                broken = Some(why);
                break;
            }
            Err(e) => {
                broken = Some(format!("{e:#}"));
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
    if let Some(why) = broken {
        result.detail = why;
        return Ok(result);
    }
    let verdict = libtest::classify(&entry.tests, baseline.map(|_| &before), &outcomes, &missing);
    judge(&mut result, entry, verdict);
    Ok(result)
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

/// Runs `work` over `items` on the slots (one thread each); results come
/// back in item order. Stops handing out items after an `Err` or once an
/// interrupt began; items never run are `None`.
pub fn pool<T: Sync, R: Send>(
    slots: &[Slot],
    shared: &Shared,
    items: &[T],
    work: impl Fn(&Slot, &T) -> Result<R> + Sync,
) -> Vec<Option<Result<R>>> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<R>>>> =
        Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for slot in slots {
            let (next, stop, results, work) = (&next, &stop, &results, &work);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::SeqCst) || shared.exiting() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = items.get(i) else { break };
                    let result = work(slot, item);
                    if result.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    let mut results = results.lock().unwrap_or_else(|p| p.into_inner());
                    results[i] = Some(result);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner())
}
