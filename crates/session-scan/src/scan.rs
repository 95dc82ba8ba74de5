//! The driver: find the inputs, read them on `jobs` threads (one scanner
//! each, so no lock is shared while reading), merge, report.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use advisor_core::FamilyId;

use crate::analyze::{Assume, ScanError, Scanner, Totals};
use crate::budget::Limits;
use crate::model::Sink as _;
use crate::report::Report;
use crate::source::{self, Input};

/// The most worker threads.
pub const JOBS_MAX: usize = 64;

/// How a scan runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// What to assume where a recording is silent.
    pub assume: Assume,
    /// Worker threads (1 to [`JOBS_MAX`]).
    pub jobs: usize,
    /// Draw a progress bar on standard error.
    pub progress: bool,
    /// The bounds of every file read ([`Limits::default`] for the CLI).
    pub limits: Limits,
}

/// Reads every session under `paths` and reports.
pub fn scan(paths: &[PathBuf], options: Options) -> Result<Report, ScanError> {
    let (inputs, problems) = source::discover(paths, options.limits);
    let jobs = options.jobs.clamp(1, JOBS_MAX).min(inputs.len().max(1));
    let mut scanners = (0..jobs)
        .map(|_| Scanner::with_limits(options.assume, options.limits))
        .collect::<Result<Vec<_>, _>>()?;
    let order: Vec<FamilyId> = scanners
        .first()
        .map(|s| s.families().collect())
        .unwrap_or_default();
    let progress = Progress::new(&inputs);
    let next = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if options.progress {
            scope.spawn(|| progress.draw_until(&done));
        }
        let workers: Vec<_> = scanners
            .iter_mut()
            .map(|scanner| {
                let (next, inputs, progress) = (&next, &inputs, &progress);
                let limits = options.limits;
                scope.spawn(move || {
                    while let Some(input) = inputs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        scanner.totals.files += 1;
                        read_guarded(input, scanner, limits);
                        progress.finished(input);
                    }
                })
            })
            .collect();
        for worker in workers {
            // A worker that panicked lost only its own figures; the others stand.
            let _ = worker.join();
        }
        done.store(true, Ordering::Relaxed);
    });
    let mut totals = Totals::default();
    for problem in problems {
        totals.problem(problem);
    }
    for scanner in scanners {
        totals.merge(scanner.totals);
    }
    Ok(totals.report(&order))
}

/// Reads one input; a reader that panics (a bug, never the file's fault)
/// costs that file only: it is named as a problem and the worker goes on
/// with its figures intact.
fn read_guarded(input: &Input, scanner: &mut Scanner, limits: Limits) {
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        source::read(input, scanner, limits);
    }));
    if read.is_err() {
        scanner.end();
        scanner.problem(crate::model::Problem {
            path: input.path().to_owned(),
            line: None,
            what: "the scanner failed on this file (a bug in sandbox-advisor); the rest of it was not read".into(),
            stopped: true,
        });
    }
}

/// What the progress bar draws from.
struct Progress {
    total_bytes: u64,
    total_files: usize,
    bytes: AtomicU64,
    files: AtomicUsize,
    current: Mutex<String>,
}

impl Progress {
    fn new(inputs: &[Input]) -> Self {
        Self {
            total_bytes: inputs.iter().map(Input::size).sum(),
            total_files: inputs.len(),
            bytes: AtomicU64::new(0),
            files: AtomicUsize::new(0),
            current: Mutex::new(String::new()),
        }
    }

    fn finished(&self, input: &Input) {
        self.bytes.fetch_add(input.size(), Ordering::Relaxed);
        self.files.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut current) = self.current.lock() {
            current.clear();
            let name = input
                .path()
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            current.extend(name.chars().filter(|c| !c.is_control()).take(40));
        }
    }

    /// Redraws one line on standard error every 100 ms until `done`, then clears it.
    fn draw_until(&self, done: &AtomicBool) {
        let start = Instant::now();
        let mut stderr = std::io::stderr();
        while !done.load(Ordering::Relaxed) {
            let bytes = self.bytes.load(Ordering::Relaxed);
            let files = self.files.load(Ordering::Relaxed);
            let ratio = if self.total_bytes == 0 {
                1.0
            } else {
                bytes as f64 / self.total_bytes as f64
            };
            let filled = (ratio * 30.0).round() as usize;
            let current = self.current.lock().map(|c| c.clone()).unwrap_or_default();
            let secs = start.elapsed().as_secs_f64().max(0.001);
            let _ = write!(
                stderr,
                "\r\x1b[2K[{}{}] {:>3.0}%  {files}/{} files  {:.1} MB/s  {current}",
                "#".repeat(filled.min(30)),
                " ".repeat(30 - filled.min(30)),
                ratio * 100.0,
                self.total_files,
                bytes as f64 / 1e6 / secs,
            );
            let _ = stderr.flush();
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = write!(stderr, "\r\x1b[2K");
        let _ = stderr.flush();
    }
}
