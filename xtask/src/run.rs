//! Running `cargo test` for a slot, and one mutation from apply to verdict.
//!
//! A mutation builds and runs only the test targets that hold its named tests
//! (`targets::pick`, from the baseline run), in one `cargo test` invocation per
//! package: a crate that does not compile stops that invocation before any
//! test binary starts, with rustc's `error[E…]` / `could not compile` lines,
//! which makes the entry BROKEN. Building any test target of a package builds
//! the package's library, and building another package's targets builds the
//! mutated crate as their dependency, so the mutated library is always
//! compiled: "the mutated crate must still compile" is checked every time.
//! What is no longer built is the test targets holding none of the named
//! tests (a mutation that broke only such a target's compilation is judged
//! by its named tests, not BROKEN).

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::apply::{Shared, kill_group};
use crate::catalogue::Entry;
use crate::libtest::{self, Outcomes, Verdict};
use crate::report::{EntryResult, Status};
use crate::targets::{self, Pick, Workspace};

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
    /// Limit for the build part of one `cargo test` (until its first test
    /// binary starts).
    pub build_timeout: Duration,
    /// Limit for the test part of one `cargo test` (from its first test
    /// binary on).
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
    /// A test binary had started (cargo printed a `Running` line): the build
    /// was over.
    pub tests_started: bool,
    /// stdout and stderr, merged, in order.
    pub lines: Vec<String>,
}

/// Runs `cargo <args>` in the slot, with the environment that keeps insta
/// from writing into the tree, in its own process group (so Ctrl-C and
/// timeouts can stop the test binaries too). The build part may take
/// `settings.build_timeout`, the tests from the first `Running` line on
/// `settings.test_timeout`.
pub fn cargo(
    slot: &Slot,
    shared: &Shared,
    args: &[&str],
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
        // No debuginfo: smaller objects, faster links; tests behave the same.
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        // Incremental is the dev/test default for workspace crates; CI setups
        // often turn it off (CARGO_INCREMENTAL=0), which makes every mutation
        // rebuild its crates from scratch. Cargo never applies it to registry
        // crates.
        .env("CARGO_INCREMENTAL", "1")
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
    let started: Arc<OnceLock<Instant>> = Arc::default();
    let started_by_reader = Arc::clone(&started);
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
            if libtest::running_label(&line).is_some() {
                let _ = started_by_reader.set(Instant::now());
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
        let over = match started.get() {
            Some(at) => at.elapsed() > settings.test_timeout,
            None => start.elapsed() > settings.build_timeout,
        };
        if over {
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
        tests_started: started.get().is_some(),
        lines,
    })
}

/// Builds and runs the `targets` (`--lib --test foo`, or `--lib --tests`) of
/// one package in the slot, in one `cargo test --no-fail-fast`. `Err` holds a
/// BROKEN reason (does not compile, cargo failed, build timed out); `Ok`
/// holds the outcomes and, when the run was cut short, why tests are missing.
pub fn test_package(
    slot: &Slot,
    shared: &Shared,
    package: &str,
    targets: &[String],
    settings: &Settings,
    log: &mut Vec<u8>,
) -> Result<std::result::Result<(Outcomes, Option<String>), String>> {
    let mut args = vec!["test", "-p", package];
    args.extend(targets.iter().map(String::as_str));
    args.push("--no-fail-fast");
    let run = cargo(slot, shared, &args, settings, log)?;
    let parsed = libtest::parse(&run.lines);
    let command = format!("cargo test -p {package} {}", targets.join(" "));
    if !run.tests_started {
        if run.timed_out {
            let secs = settings.build_timeout.as_secs();
            return Ok(Err(format!("building `{package}` took over {secs}s")));
        }
        if parsed.did_not_compile() {
            let summary = libtest::error_summary(&run.lines);
            return Ok(Err(format!("`{package}` does not compile: {summary}")));
        }
    }
    if !run.success && parsed.summaries == 0 && !run.timed_out && parsed.crashes.is_empty() {
        let summary = libtest::error_summary(&run.lines);
        return Ok(Err(if run.tests_started {
            format!("`{command}` ran no test: {summary}")
        } else {
            format!("`{command}` failed: {summary}")
        }));
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

/// Tests `package` unmutated, for the baseline.
pub fn baseline_package(
    slot: &Slot,
    shared: &Shared,
    package: &str,
    settings: &Settings,
) -> Result<std::result::Result<Outcomes, String>> {
    let mut log = Vec::new();
    let all = Pick::Everything.args().unwrap_or_default();
    let result = test_package(slot, shared, package, &all, settings, &mut log)?;
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
    workspace: Option<&Workspace>,
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
    for (package, targets) in plan(entry, baseline, workspace) {
        match test_package(slot, shared, &package, &targets, settings, &mut log) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libtest::Outcome;
    use crate::targets::Target;

    fn entry(package: &str, packages: &[&str], tests: &[&str]) -> Entry {
        Entry {
            id: "m".to_owned(),
            package: package.to_owned(),
            packages: packages.iter().map(|p| (*p).to_owned()).collect(),
            catalogue: PathBuf::from(format!("crates/{package}/mutations.toml")),
            file: PathBuf::from(format!("crates/{package}/src/lib.rs")),
            find: "a".to_owned(),
            replace: "b".to_owned(),
            tests: tests.iter().map(|t| (*t).to_owned()).collect(),
            description: String::new(),
            equivalent: None,
            broken: None,
        }
    }

    fn outcomes(tests: &[(&str, &str)]) -> Outcomes {
        let mut outcomes = Outcomes::new();
        for (name, label) in tests {
            outcomes
                .entry((*name).to_owned())
                .or_default()
                .push(((*label).to_owned(), Outcome::Passed));
        }
        outcomes
    }

    fn target(flag: &'static str, name: &str, src: &str) -> Target {
        Target {
            flag,
            name: name.to_owned(),
            src: src.to_owned(),
        }
    }

    fn fixture() -> (Baseline, Workspace) {
        let mut baseline = Baseline::new();
        baseline.insert(
            "family-x".to_owned(),
            Ok(outcomes(&[
                ("recognize::tests::unit", "unittests src/lib.rs"),
                ("refuses", "tests/recognition.rs"),
            ])),
        );
        baseline.insert(
            "host-adapter".to_owned(),
            Ok(outcomes(&[("adapter_x", "tests/family_x.rs")])),
        );
        baseline.insert("broken-pkg".to_owned(), Err("does not compile".to_owned()));
        let mut workspace = Workspace::new();
        workspace.insert(
            "family-x".to_owned(),
            targets::Package {
                targets: vec![
                    target("--lib", "family_x", "src/lib.rs"),
                    target("--test", "recognition", "tests/recognition.rs"),
                    target("--test", "gate", "tests/gate.rs"),
                ],
                deps: Default::default(),
            },
        );
        workspace.insert(
            "host-adapter".to_owned(),
            targets::Package {
                targets: vec![
                    target("--lib", "host_adapter", "src/lib.rs"),
                    target("--test", "family_x", "tests/family_x.rs"),
                    target("--test", "precedence", "tests/precedence.rs"),
                ],
                deps: Default::default(),
            },
        );
        (baseline, workspace)
    }

    fn run(package: &str, args: &[&str]) -> (String, Vec<String>) {
        (
            package.to_owned(),
            args.iter().map(|a| (*a).to_owned()).collect(),
        )
    }

    #[test]
    fn plan_runs_only_the_targets_of_the_named_tests() {
        let (baseline, workspace) = fixture();
        let plan_of = |e: &Entry| plan(e, Some(&baseline), Some(&workspace));
        assert_eq!(
            plan_of(&entry("family-x", &["family-x"], &["refuses"])),
            [run("family-x", &["--test", "recognition"])]
        );
        assert_eq!(
            plan_of(&entry(
                "family-x",
                &["family-x", "host-adapter"],
                &["recognize::tests::unit", "adapter_x", "refuses"]
            )),
            [
                run("family-x", &["--lib", "--test", "recognition"]),
                run("host-adapter", &["--test", "family_x"])
            ]
        );
        // host-adapter holds none of the named tests: it is not run.
        assert_eq!(
            plan_of(&entry(
                "family-x",
                &["family-x", "host-adapter"],
                &["refuses"]
            )),
            [run("family-x", &["--test", "recognition"])]
        );
        // Only the adapter holds them: the mutated crate builds as its dependency.
        assert_eq!(
            plan_of(&entry("family-x", &["host-adapter"], &["adapter_x"])),
            [run("host-adapter", &["--test", "family_x"])]
        );
    }

    #[test]
    fn plan_still_builds_the_mutated_library_when_no_named_test_exists() {
        let (baseline, workspace) = fixture();
        assert_eq!(
            plan(
                &entry("family-x", &["family-x", "host-adapter"], &["gone"]),
                Some(&baseline),
                Some(&workspace)
            ),
            [run("family-x", &["--lib"])]
        );
        // An equivalence claim without tests: the same compile check.
        assert_eq!(
            plan(
                &entry("family-x", &["host-adapter"], &[]),
                Some(&baseline),
                Some(&workspace)
            ),
            [run("family-x", &["--lib"])]
        );
        // No metadata for the package: every target, as the baseline ran.
        assert_eq!(
            plan(
                &entry("family-x", &["family-x"], &["gone"]),
                Some(&baseline),
                None
            ),
            [run("family-x", &["--lib", "--tests"])]
        );
    }

    #[test]
    fn plan_without_baseline_or_mapping_runs_everything() {
        let (baseline, workspace) = fixture();
        assert_eq!(
            plan(
                &entry("family-x", &["family-x", "host-adapter"], &["refuses"]),
                None,
                Some(&workspace)
            ),
            [
                run("family-x", &["--lib", "--tests"]),
                run("host-adapter", &["--lib", "--tests"])
            ]
        );
        // Tests found, but no metadata to name their targets.
        assert_eq!(
            plan(
                &entry("family-x", &["family-x"], &["refuses"]),
                Some(&baseline),
                None
            ),
            [run("family-x", &["--lib", "--tests"])]
        );
    }
}
