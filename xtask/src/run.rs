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
//!
//! - [`cargo`]: one `cargo test` in a slot, its output read as it comes;
//! - [`plan`]: which packages and targets one entry builds and runs;
//! - [`entry`]: one entry from apply to verdict, and the baseline run;
//! - here: the slots and the pool of threads that drives them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Result, bail};

use crate::apply::Shared;

mod cargo;
mod entry;
mod plan;

pub use cargo::cargo;
pub use entry::{baseline_package, run_entry};
pub use plan::Baseline;

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
    /// Its target directory was emptied once in this run ([`Slot::heal`]).
    pub healed: Arc<AtomicBool>,
}

impl Slot {
    /// A slot working in `root`, building in `target_dir`.
    pub fn new(index: usize, root: PathBuf, target_dir: PathBuf, journal: PathBuf) -> Self {
        Self {
            index,
            root,
            target_dir,
            journal,
            healed: Arc::default(),
        }
    }

    /// After a build failed in the slot's target directory rather than in
    /// the source (`why`, seen running `what`): says so once and empties the
    /// directory, so that the next build starts from nothing. `Err` when it
    /// was emptied before in this run: the failure is not the seed's, and
    /// the run must stop rather than call every entry BROKEN.
    pub fn heal(&self, what: &str, why: &str) -> Result<()> {
        if self.healed.swap(true, Ordering::SeqCst) {
            bail!(
                "slot {}, {what}: {why}, again after {} was rebuilt from nothing",
                self.index,
                self.target_dir.display()
            );
        }
        eprintln!(
            "xtask inject: slot {}, {what}: {why}; not the source's doing: the slot's libraries do not fit together (a broken seed), so {} is rebuilt from nothing",
            self.index,
            self.target_dir.display()
        );
        match std::fs::remove_dir_all(&self.target_dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }
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
