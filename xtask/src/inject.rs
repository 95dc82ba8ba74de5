//! `cargo xtask inject`: apply each catalogued defect, run the tests that
//! claim to catch it, and report which arms stayed silent.
//!
//! What keeps a full run short (each without changing a verdict):
//! - Each package runs once unmutated (the baseline); it says which test
//!   target (`--lib`, `--test foo`) holds each test. A mutation then builds
//!   and runs only the targets holding its named tests
//!   (`cargo test -p P --lib --test foo --no-fail-fast`, see `run::plan`). The
//!   mutated library is still compiled every time (every test target of its
//!   package, and every package depending on it, builds it), so a mutation
//!   that does not compile is BROKEN as before; a named test in no target of
//!   the baseline is SILENT as before.
//! - One `cargo test` per package and mutation, without a `--no-run` pass
//!   first: a compile error stops it before any test binary starts, and the
//!   compiler's `error[E…]` / `could not compile` lines say so.
//! - Entries run grouped by the crate they mutate, those whose builds span the
//!   most workspace crates (the adapter's) first, so that a slot rebuilds a
//!   restored crate as seldom as possible; the report keeps catalogue order.
//! - Each test binary runs only the tests the entry names (`-- --exact a b`);
//!   the baseline runs only the tests some entry names, so it still says
//!   where each lives and that none already fails. Backtraces are off
//!   (`RUST_BACKTRACE=0`): a mutation makes tests panic by the dozen.
//! - Each slot keeps its own target directory across runs, incremental, with
//!   no debuginfo; `--jobs` defaults to the cores available (at most 2). An
//!   empty one starts from the dependencies the workspace's own test build
//!   compiled (`target/debug`) when they fit: built the way the slots build
//!   (CI builds its tests with `CARGO_PROFILE_DEV_DEBUG=0` too), each
//!   fingerprint with what it names, and no workspace crate built in another
//!   tree ([`seed`]). When they do not, one line says so and names the
//!   command that builds a seed, and the baseline builds its widest package
//!   in one slot alone first, the others starting from its dependencies.
//! - A build that fails in the slot rather than in the mutation (a library
//!   that does not load, a crate the mutation cannot reach that does not
//!   compile) empties the slot's target directory once and runs the entry
//!   again; the second time the run stops, reporting it once.
//!
//! The run's parts: [`select`] (which entries: `--package`, `--only`,
//! `--list`), [`slots`] (how many, their source trees, the baseline run on
//! them), [`seed`] (what an empty slot starts from), [`schedule`] (the
//! order entries run in, and the projected wall time), [`verify`] (that the
//! tree is as it was); here, the run itself.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::apply::{self, RunLock, Shared};
use crate::catalogue::{self, Entry};
use crate::report::{self, EntryResult, Report, Status};
use crate::run::{self, Settings};
use crate::targets;
use crate::tree;

mod cache;
mod schedule;
mod seed;
mod select;
mod slots;
mod verify;

use schedule::{Progress, schedule};
use select::{print_list, select};
use slots::{jobs, make_slots, run_baseline};
use verify::check_tree;

/// Environment variable that raises the cap on `--jobs` (default cap: 2).
pub const MAX_JOBS_VAR: &str = "XTASK_INJECT_MAX_JOBS";

/// Exit code when a touched file is not as it was before the run.
const TREE_NOT_RESTORED: u8 = 3;

/// Arguments of `cargo xtask inject`.
#[derive(Debug, clap::Args)]
pub struct InjectArgs {
    /// Run only these ids (repeatable, or comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    pub only: Vec<String>,
    /// Print the catalogue (id, package, file, description) and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Mutations run in parallel, each slot in its own copy of the sources
    /// (default: the cores available; capped at 2 unless XTASK_INJECT_MAX_JOBS
    /// says more).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only the catalogues of these packages (repeatable, or comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "PKG")]
    pub package: Vec<String>,
    /// Workspace root (default: the directory above xtask's manifest).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Seconds the tests of one `cargo test` of one package may take (from its
    /// first test binary on).
    #[arg(long, default_value_t = 600, value_name = "SECS")]
    pub timeout: u64,
    /// Seconds the build part of one `cargo test` may take (until its first
    /// test binary starts).
    #[arg(long, default_value_t = 1800, value_name = "SECS")]
    pub build_timeout: u64,
    /// Warn when the projected wall time of the run exceeds this many minutes
    /// (and at the end, when the run took longer). Changes no result.
    #[arg(long, value_name = "N")]
    pub budget_minutes: Option<f64>,
    /// Skip the unmutated baseline run (a named test that already fails would
    /// then count as caught).
    #[arg(long)]
    pub no_baseline: bool,
    /// Run every arm, also those caught before on the same sources
    /// (`target/inject/caught.json`, see the module `cache`), and record anew.
    #[arg(long)]
    pub fresh: bool,
    /// Echo cargo's output to stderr.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Runs the subcommand.
pub fn main(args: InjectArgs) -> Result<ExitCode> {
    let root = match &args.root {
        Some(root) => root.clone(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    };
    let root = root
        .canonicalize()
        .with_context(|| format!("workspace root {}", root.display()))?;
    let state = root.join("target").join("inject");
    let entries = select(catalogue::load(&root)?, &args)?;
    if args.list {
        print_list(&entries, &state);
        return Ok(ExitCode::SUCCESS);
    }
    fs::create_dir_all(state.join("logs"))?;
    let lock_path = state.join("run.lock");
    let _lock = RunLock::take(&lock_path)?;
    for message in apply::recover_stale_journals(&state)? {
        eprintln!("xtask inject: {message}");
    }
    // Re-read: a restored journal may have changed what the catalogue sees.
    let entries = select(catalogue::load(&root)?, &args)?;
    let shared = Shared::default();
    let handler_shared = shared.clone();
    ctrlc::set_handler(move || {
        eprintln!("\nxtask inject: interrupted, restoring sources");
        for message in handler_shared.interrupt() {
            eprintln!("xtask inject: {message}");
        }
        RunLock::remove_at(&lock_path);
        std::process::exit(130);
    })?;

    if entries.is_empty() {
        eprintln!(
            "xtask inject: no mutation catalogue entry found under {}",
            root.display()
        );
    }
    let runnable: Vec<&Entry> = entries.iter().filter(|e| e.broken.is_none()).collect();
    let workspace = match targets::load(&root) {
        Ok(workspace) => Some(workspace),
        Err(e) => {
            eprintln!(
                "xtask inject: {e:#}; every mutation builds and runs all test targets of its packages"
            );
            None
        }
    };
    // Arms caught before on the same sources do not run again.
    let cache_path = state.join(cache::FILE);
    let mut remembered = cache::load(&cache_path);
    let keys = match workspace.as_ref().map(|w| cache::keys(&root, w, &runnable)) {
        Some(Ok(keys)) => keys,
        Some(Err(e)) => {
            eprintln!("xtask inject: no cache keys ({e:#}); every arm runs");
            Default::default()
        }
        None => Default::default(),
    };
    let cached: Vec<Option<EntryResult>> = entries
        .iter()
        .map(|e| {
            let key = keys.get(&e.id)?;
            let caught = remembered.get(&e.id).filter(|c| c.key == *key)?;
            (!args.fresh && e.broken.is_none() && e.equivalent.is_none())
                .then(|| cache::result(e, caught))
        })
        .collect();
    let runnable: Vec<&Entry> = runnable
        .into_iter()
        .filter(|e| !cached.iter().flatten().any(|c| c.id == e.id))
        .collect();
    let from_cache = cached.iter().flatten().count();
    if from_cache > 0 {
        eprintln!(
            "xtask inject: {from_cache} arm(s) were caught before on these same sources ({}); they do not run again (--fresh runs them)",
            cache_path.display()
        );
    }
    let jobs = jobs(args.jobs, runnable.len());
    let settings = Settings {
        build_timeout: Duration::from_secs(args.build_timeout),
        test_timeout: Duration::from_secs(args.timeout),
        verbose: args.verbose,
        log_dir: state.join("logs"),
    };
    let slots = make_slots(&root, &state, jobs, &shared, &settings)?;
    let touched: Vec<PathBuf> = runnable
        .iter()
        .map(|e| e.file.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let roots: BTreeSet<&Path> = std::iter::once(root.as_path())
        .chain(slots.slots.iter().map(|s| s.root.as_path()))
        .collect();
    let snapshots: Vec<_> = roots.iter().map(|r| tree::snapshot(r, &touched)).collect();
    let git_before = tree::git_diff(&root, &touched);
    let leftovers_before = tree::insta_leftovers(&root);
    let start = Instant::now();
    eprintln!(
        "xtask inject: {} entries ({} runnable), {} slot(s), root {}",
        entries.len(),
        runnable.len(),
        slots.slots.len(),
        root.display()
    );

    let baseline = if args.no_baseline || runnable.is_empty() {
        None
    } else {
        Some(run_baseline(
            &slots,
            &shared,
            &runnable,
            workspace.as_ref(),
            &settings,
        )?)
    };
    let mut order = schedule(&entries, workspace.as_ref());
    order.retain(|i| cached[*i].is_none());
    let budget = args
        .budget_minutes
        .map(|m| Duration::from_secs_f64(m.max(0.0) * 60.0));
    let progress = Progress::new(start, runnable.len());
    let total = order.len();
    let results = run::pool(&slots.slots, &shared, &order, |slot, &i| {
        let entry = &entries[i];
        let result = run::run_entry(
            slot,
            &shared,
            entry,
            baseline.as_ref(),
            workspace.as_ref(),
            &settings,
        )?;
        let (n, projected) = progress.finished(entry.broken.is_none());
        eprintln!(
            "xtask inject: [{n}/{total}] {} {} ({:.1}s)",
            result.id,
            result.status.word(),
            result.seconds
        );
        if let (Some(budget), Some(projected)) = (budget, projected) {
            if projected > budget && progress.first_warning(slots.slots.len()) {
                eprintln!(
                    "xtask inject: WARNING: projected total {:.1} min exceeds --budget-minutes {:.1} (after {n} of {} entries)",
                    projected.as_secs_f64() / 60.0,
                    budget.as_secs_f64() / 60.0,
                    entries.len()
                );
            }
        }
        Ok(result)
    });
    // Back to catalogue order.
    let mut in_order: Vec<Option<Result<EntryResult>>> =
        cached.into_iter().map(|c| c.map(Ok)).collect();
    for (i, result) in order.iter().zip(results) {
        in_order[*i] = result;
    }
    let mut finished: Vec<EntryResult> = Vec::new();
    let mut fatal = None;
    for result in in_order.into_iter().flatten() {
        match result {
            Ok(result) => finished.push(result),
            Err(e) => fatal = Some(e),
        }
    }
    let wall = start.elapsed().as_secs_f64();
    if let Some(budget) = budget {
        if wall > budget.as_secs_f64() {
            eprintln!(
                "xtask inject: WARNING: the run took {:.1} min, over --budget-minutes {:.1}",
                wall / 60.0,
                budget.as_secs_f64() / 60.0
            );
        }
    }

    let tree_problem = check_tree(&root, &touched, &snapshots, git_before, &leftovers_before);
    if tree_problem.is_none() {
        if args.only.is_empty() && args.package.is_empty() {
            // The whole catalogue ran: arms no longer in it are forgotten.
            remembered.retain(|id, _| entries.iter().any(|e| e.id == *id));
        }
        remember(&mut remembered, &finished, &keys);
        if let Err(e) = cache::save(&cache_path, &remembered) {
            eprintln!("xtask inject: {e:#}");
        }
    }
    print!("{}", report::render(&finished, wall));
    let report_path = state.join("report.json");
    report::write_json(
        &report_path,
        &Report {
            root: &root,
            jobs: slots.slots.len(),
            baseline: baseline.is_some(),
            entries: &finished,
            totals: report::totals(&finished),
            wall_seconds: wall,
            tree_problem: tree_problem.clone(),
        },
    )?;
    eprintln!("xtask inject: report written to {}", report_path.display());
    if let Some(e) = fatal {
        eprintln!("xtask inject: run stopped: {e:#}");
    }
    if let Some(problem) = tree_problem {
        eprintln!("\n!!! xtask inject: THE SOURCE TREE IS NOT AS IT WAS !!!\n{problem}");
        return Ok(ExitCode::from(TREE_NOT_RESTORED));
    }
    let bad = finished
        .iter()
        .any(|r| matches!(r.status, Status::Silent | Status::Broken));
    Ok(if bad || finished.len() < entries.len() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Records each arm that ran: a CAUGHT one under its key, any other forgotten.
fn remember(
    remembered: &mut std::collections::BTreeMap<String, cache::Caught>,
    finished: &[EntryResult],
    keys: &std::collections::BTreeMap<String, String>,
) {
    for result in finished.iter().filter(|r| !r.cached) {
        match keys.get(&result.id) {
            Some(key) if result.status == Status::Caught => {
                remembered.insert(
                    result.id.clone(),
                    cache::Caught {
                        key: key.clone(),
                        failed: result.failed.clone(),
                    },
                );
            }
            _ => {
                remembered.remove(&result.id);
            }
        }
    }
}
