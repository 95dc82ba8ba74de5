//! One `cargo test` in a slot: started in its own process group, its merged
//! output read as it comes, stopped at its build or test time limit.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::{Settings, Slot};
use crate::apply::{Shared, kill_group};
use crate::libtest::{self, Outcomes};

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
        // A property that fails under a mutation would otherwise write its
        // case into a `*.proptest-regressions` file beside the test, in the tree.
        .env("PROPTEST_DISABLE_FAILURE_PERSISTENCE", "1")
        // A mutation makes tests panic by the dozen; capturing and printing
        // each one's backtrace cost ~0.3 s an entry. The panic message stays.
        .env("RUST_BACKTRACE", "0")
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

/// The arguments of one `cargo test` of `package`'s `targets`, running only
/// the tests named exactly `tests` (every test when there is none).
fn test_args<'a>(package: &'a str, targets: &'a [String], tests: &'a [String]) -> Vec<&'a str> {
    let mut args = vec!["test", "-p", package];
    args.extend(targets.iter().map(String::as_str));
    args.push("--no-fail-fast");
    if !tests.is_empty() {
        args.extend(["--", "--exact"]);
        args.extend(tests.iter().map(String::as_str));
    }
    args
}

/// Why a `cargo test` proves nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The source's doing: it does not compile, cargo failed, the build
    /// timed out.
    Broken(String),
    /// The slot's doing: a library did not load, or a crate the source
    /// change cannot reach did not compile (`libtest::foreign_failure`).
    Seed(String),
}

/// One `cargo test` of one package: which of its targets, which tests, and
/// which packages the source change under test can reach.
pub struct Request<'a> {
    /// The package.
    pub package: &'a str,
    /// Its targets (`--lib --test foo`, or `--lib --tests`).
    pub targets: &'a [String],
    /// The tests to run, by exact name (every test when empty).
    pub tests: &'a [String],
    /// Whether the change can reach a package (by name); when it cannot and
    /// that package fails to compile, the failure is the slot's.
    pub touched: &'a dyn Fn(&str) -> bool,
}

/// Builds and runs the request's targets in the slot, in one `cargo test
/// --no-fail-fast`; with tests named, each test binary runs only the tests
/// of exactly those names (`-- --exact a b`: the names a catalogue entry
/// lists are libtest's full names, the keys its verdict is judged on). `Err`
/// holds why the run proves nothing; `Ok` holds the outcomes and, when the
/// run was cut short, why tests are missing.
pub fn test_package(
    slot: &Slot,
    shared: &Shared,
    request: &Request<'_>,
    settings: &Settings,
    log: &mut Vec<u8>,
) -> Result<std::result::Result<(Outcomes, Option<String>), Failure>> {
    let Request {
        package,
        targets,
        tests,
        touched,
    } = *request;
    let args = test_args(package, targets, tests);
    let run = cargo(slot, shared, &args, settings, log)?;
    let parsed = libtest::parse(&run.lines);
    let command = format!("cargo test -p {package} {}", targets.join(" "));
    if !run.tests_started {
        if run.timed_out {
            let secs = settings.build_timeout.as_secs();
            return Ok(Err(Failure::Broken(format!(
                "building `{package}` took over {secs}s"
            ))));
        }
        if parsed.did_not_compile() {
            if let Some(why) = libtest::foreign_failure(&run.lines, touched) {
                return Ok(Err(Failure::Seed(why)));
            }
            let summary = libtest::error_summary(&run.lines);
            return Ok(Err(Failure::Broken(format!(
                "`{package}` does not compile: {summary}"
            ))));
        }
    }
    if !run.success && parsed.summaries == 0 && !run.timed_out && parsed.crashes.is_empty() {
        let summary = libtest::error_summary(&run.lines);
        return Ok(Err(Failure::Broken(if run.tests_started {
            format!("`{command}` ran no test: {summary}")
        } else {
            format!("`{command}` failed: {summary}")
        })));
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

#[cfg(test)]
mod tests {
    use super::test_args;

    fn check(targets: &[&str], tests: &[&str], want: &str) {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let (targets, tests) = (owned(targets), owned(tests));
        assert_eq!(test_args("p", &targets, &tests).join(" "), want);
    }

    #[test]
    fn only_the_named_tests_run() {
        check(
            &["--lib", "--test", "arms"],
            &["a::b", "c"],
            "test -p p --lib --test arms --no-fail-fast -- --exact a::b c",
        );
        check(
            &["--lib", "--tests"],
            &[],
            "test -p p --lib --tests --no-fail-fast",
        );
    }
}
