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
//! - Each slot keeps its own target directory across runs, incremental, with
//!   no debuginfo; `--jobs` defaults to the cores available (at most 2).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::apply::{self, RunLock, Shared};
use crate::catalogue::{self, Entry};
use crate::report::{self, EntryResult, Report, Status};
use crate::run::{self, Baseline, Settings, Slot};
use crate::targets::{self, Workspace};
use crate::tree;

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
    let jobs = jobs(args.jobs, runnable.len());
    let workspace = match targets::load(&root) {
        Ok(workspace) => Some(workspace),
        Err(e) => {
            eprintln!(
                "xtask inject: {e:#}; every mutation builds and runs all test targets of its packages"
            );
            None
        }
    };
    let slots = make_slots(&root, &state, jobs)?;
    let touched: Vec<PathBuf> = runnable
        .iter()
        .map(|e| e.file.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let roots: BTreeSet<&Path> = std::iter::once(root.as_path())
        .chain(slots.iter().map(|s| s.root.as_path()))
        .collect();
    let snapshots: Vec<_> = roots.iter().map(|r| tree::snapshot(r, &touched)).collect();
    let git_before = tree::git_diff(&root, &touched);
    let leftovers_before = tree::insta_leftovers(&root);
    let settings = Settings {
        build_timeout: Duration::from_secs(args.build_timeout),
        test_timeout: Duration::from_secs(args.timeout),
        verbose: args.verbose,
        log_dir: state.join("logs"),
    };
    let start = Instant::now();
    eprintln!(
        "xtask inject: {} entries ({} runnable), {} slot(s), root {}",
        entries.len(),
        runnable.len(),
        slots.len(),
        root.display()
    );

    let baseline = if args.no_baseline || runnable.is_empty() {
        None
    } else {
        Some(run_baseline(&slots, &shared, &runnable, &settings)?)
    };
    let order = schedule(&entries, workspace.as_ref());
    let budget = args
        .budget_minutes
        .map(|m| Duration::from_secs_f64(m.max(0.0) * 60.0));
    let progress = Progress::new(start, runnable.len());
    let results = run::pool(&slots, &shared, &order, |slot, &i| {
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
            "xtask inject: [{n}/{}] {} {} ({:.1}s)",
            entries.len(),
            result.id,
            result.status.word(),
            result.seconds
        );
        if let (Some(budget), Some(projected)) = (budget, projected) {
            if projected > budget && progress.first_warning(slots.len()) {
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
    let mut in_order: Vec<Option<Result<EntryResult>>> = entries.iter().map(|_| None).collect();
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
    print!("{}", report::render(&finished, wall));
    let report_path = state.join("report.json");
    report::write_json(
        &report_path,
        &Report {
            root: &root,
            jobs: slots.len(),
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

/// Applies `--package` and `--only`; an unknown name is an error. A
/// catalogue that does not parse stays selected whatever `--only` says (its
/// ids are unknown), so it is never hidden.
fn select(entries: Vec<Entry>, args: &InjectArgs) -> Result<Vec<Entry>> {
    let packages: BTreeSet<&str> = entries.iter().map(|e| e.package.as_str()).collect();
    for package in &args.package {
        if !packages.contains(package.as_str()) {
            bail!(
                "no catalogue belongs to package `{package}` (catalogued packages: {})",
                packages.into_iter().collect::<Vec<_>>().join(", ")
            );
        }
    }
    let entries: Vec<Entry> = entries
        .into_iter()
        .filter(|e| args.package.is_empty() || args.package.contains(&e.package))
        .collect();
    for id in &args.only {
        if !entries.iter().any(|e| &e.id == id) {
            bail!("no catalogue entry has id `{id}` (see `cargo xtask inject --list`)");
        }
    }
    Ok(entries
        .into_iter()
        .filter(|e| {
            args.only.is_empty() || args.only.contains(&e.id) || e.is_unparsable_catalogue()
        })
        .collect())
}

fn print_list(entries: &[Entry], state: &Path) {
    let journals = fs::read_dir(state).into_iter().flatten().flatten();
    if journals
        .into_iter()
        .any(|j| j.file_name().to_string_lossy().contains("in-flight"))
    {
        eprintln!(
            "xtask inject: a journal from a killed run exists; the next `inject` run restores it"
        );
    }
    for e in entries {
        println!(
            "{}\t{}\t{}\t{}",
            e.id,
            e.package,
            e.file.display(),
            e.description
        );
        if let Some(why) = &e.broken {
            println!("\tBROKEN: {why}");
        }
        if let Some(reason) = &e.equivalent {
            println!("\tEQUIVALENT: {reason}");
        }
    }
    println!("{} entries", entries.len());
}

fn jobs(asked: Option<usize>, runnable: usize) -> usize {
    let cap = std::env::var(MAX_JOBS_VAR)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(2)
        .max(1);
    let Some(asked) = asked else {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        return cores.min(cap).min(runnable).max(1);
    };
    if asked > cap {
        eprintln!("xtask inject: --jobs {asked} capped at {cap} (raise with {MAX_JOBS_VAR})");
    }
    asked.min(cap).min(runnable).max(1)
}

/// The order entries run in (indices into `entries`): entries that cannot run
/// first (they finish at once), then by how many workspace crates their
/// builds span, most first, then grouped by the crate they mutate, the
/// packages they test and the file; catalogue order last. Consecutive
/// entries in a slot so rebuild the same crates, and a crate a mutation left
/// rebuilt differently is rebuilt by as few later builds as possible (the
/// adapter's builds span every family crate and advisor-core; a family
/// crate's only advisor-core and itself).
pub fn schedule(entries: &[Entry], workspace: Option<&Workspace>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_cached_key(|&i| {
        let e = &entries[i];
        let span = workspace.map_or(0, |w| targets::closure_size(w, &e.packages));
        let mut packages = e.packages.clone();
        packages.sort();
        (
            e.broken.is_none(),
            std::cmp::Reverse(span),
            e.package.clone(),
            packages,
            e.file.clone(),
            i,
        )
    });
    order
}

/// Counts finished entries and projects the run's total wall time.
struct Progress {
    /// When the run began (the baseline included).
    start: Instant,
    /// When the entries began.
    entries_start: Instant,
    /// Entries that run (not BROKEN from the catalogue).
    runnable: usize,
    /// Finished entries, and finished runnable ones.
    counts: std::sync::Mutex<(usize, usize)>,
    warned: std::sync::atomic::AtomicBool,
}

impl Progress {
    fn new(start: Instant, runnable: usize) -> Self {
        Self {
            start,
            entries_start: Instant::now(),
            runnable,
            counts: std::sync::Mutex::new((0, 0)),
            warned: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Records one finished entry (`ran`: it was runnable); returns how many
    /// finished, and for a runnable one the projected total wall time.
    fn finished(&self, ran: bool) -> (usize, Option<Duration>) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.0 += 1;
        if !ran {
            return (counts.0, None);
        }
        counts.1 += 1;
        let projected = project(
            self.start.elapsed(),
            self.entries_start.elapsed(),
            counts.1,
            self.runnable,
        );
        (counts.0, Some(projected))
    }

    /// Whether to print the budget warning now: once per run, and only after
    /// every slot has finished an entry (one entry says little).
    fn first_warning(&self, slots: usize) -> bool {
        let ran = self.counts.lock().map_or(0, |c| c.1);
        ran >= slots && !self.warned.swap(true, std::sync::atomic::Ordering::SeqCst)
    }
}

/// The projected total wall time: `elapsed` so far, plus the runnable entries
/// still to finish at the wall time per finished one so far
/// (`entries_elapsed / ran`, the slots' parallelism included).
pub fn project(
    elapsed: Duration,
    entries_elapsed: Duration,
    ran: usize,
    runnable: usize,
) -> Duration {
    if ran == 0 {
        return elapsed;
    }
    let per_entry = entries_elapsed.as_secs_f64() / ran as f64;
    elapsed + Duration::from_secs_f64(per_entry * runnable.saturating_sub(ran) as f64)
}

fn make_slots(root: &Path, state: &Path, jobs: usize) -> Result<Vec<Slot>> {
    if jobs == 1 {
        return Ok(vec![Slot {
            index: 0,
            root: root.to_path_buf(),
            target_dir: state.join("slot-0"),
            journal: state.join("in-flight.json"),
        }]);
    }
    (1..=jobs)
        .map(|n| {
            let tree_root = state.join(format!("tree-{n}"));
            tree::sync(root, &tree_root)
                .with_context(|| format!("copying the sources to {}", tree_root.display()))?;
            Ok(Slot {
                index: n,
                root: tree_root,
                target_dir: state.join(format!("slot-{n}")),
                journal: state.join(format!("in-flight-slot-{n}.json")),
            })
        })
        .collect()
}

fn run_baseline(
    slots: &[Slot],
    shared: &Shared,
    runnable: &[&Entry],
    settings: &Settings,
) -> Result<Baseline> {
    let packages: Vec<String> = runnable
        .iter()
        .flat_map(|e| e.packages.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    eprintln!(
        "xtask inject: baseline (unmutated) run of {}",
        packages.join(", ")
    );
    let results = run::pool(slots, shared, &packages, |slot, package| {
        run::baseline_package(slot, shared, package, settings)
    });
    let mut baseline = Baseline::new();
    for (package, result) in packages.into_iter().zip(results) {
        match result {
            Some(Ok(outcome)) => {
                if let Err(why) = &outcome {
                    eprintln!("xtask inject: {why}");
                }
                baseline.insert(package, outcome);
            }
            Some(Err(e)) => return Err(e),
            None => bail!("interrupted during the baseline"),
        }
    }
    Ok(baseline)
}

/// `None` when every touched file (in the real tree and every slot tree) has
/// its pre-run bytes, `git diff` of them is what it was before the run, and
/// insta left no `.snap.new`; else what differs.
fn check_tree(
    root: &Path,
    touched: &[PathBuf],
    snapshots: &[std::collections::BTreeMap<PathBuf, Option<Vec<u8>>>],
    git_before: Option<(bool, String)>,
    leftovers_before: &[PathBuf],
) -> Option<String> {
    let mut problems = Vec::new();
    for snapshot in snapshots {
        for path in tree::changed_since(snapshot) {
            problems.push(format!(
                "{} differs from its bytes before the run",
                path.display()
            ));
        }
    }
    let shown: Vec<String> = touched.iter().map(|f| f.display().to_string()).collect();
    match (git_before, tree::git_diff(root, touched)) {
        _ if touched.is_empty() => {}
        (Some(_), Some((true, _))) => eprintln!(
            "xtask inject: git diff --exit-code -- {}: clean",
            shown.join(" ")
        ),
        (Some((_, before)), Some((false, after))) if before == after => eprintln!(
            "xtask inject: git diff -- {}: these files had uncommitted edits before the run; unchanged by it",
            shown.join(" ")
        ),
        (Some(_), Some((false, after))) => problems.push(format!("git diff shows:\n{after}")),
        _ => eprintln!(
            "xtask inject: {} is not a git work tree; compared bytes only",
            root.display()
        ),
    }
    let new: Vec<String> = tree::insta_leftovers(root)
        .into_iter()
        .filter(|f| !leftovers_before.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    if !new.is_empty() {
        problems.push(format!("insta wrote into the tree: {}", new.join(", ")));
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, package: &str, packages: &[&str], file: &str) -> Entry {
        Entry {
            id: id.to_owned(),
            package: package.to_owned(),
            packages: packages.iter().map(|p| (*p).to_owned()).collect(),
            catalogue: PathBuf::from(format!("crates/{package}/mutations.toml")),
            file: PathBuf::from(file),
            find: "a".to_owned(),
            replace: "b".to_owned(),
            tests: vec!["t".to_owned()],
            description: String::new(),
            equivalent: None,
            broken: None,
        }
    }

    #[test]
    fn schedule_groups_by_crate_widest_builds_first() {
        let mut workspace = Workspace::new();
        let package = |deps: &[&str]| targets::Package {
            targets: Vec::new(),
            deps: deps.iter().map(|d| (*d).to_owned()).collect(),
        };
        workspace.insert("core".to_owned(), package(&[]));
        workspace.insert("fam-a".to_owned(), package(&["core"]));
        workspace.insert("fam-b".to_owned(), package(&["core"]));
        workspace.insert("adapter".to_owned(), package(&["fam-a", "fam-b", "core"]));
        let mut broken = entry("broken", "fam-b", &["fam-b"], "b/src/lib.rs");
        broken.broken = Some("names no tests".to_owned());
        let entries = [
            entry("core-1", "core", &["core"], "core/src/lib.rs"),
            entry("a-1", "fam-a", &["fam-a"], "a/src/y.rs"),
            entry("b-1", "fam-b", &["fam-b"], "b/src/lib.rs"),
            entry("a-2", "fam-a", &["fam-a", "adapter"], "a/src/x.rs"),
            entry("a-3", "fam-a", &["fam-a"], "a/src/x.rs"),
            entry("adapter-1", "adapter", &["adapter"], "adapter/src/lib.rs"),
            broken,
            entry("a-4", "fam-a", &["adapter"], "a/src/x.rs"),
        ];
        let ids = |workspace: Option<&Workspace>| {
            schedule(&entries, workspace)
                .into_iter()
                .map(|i| entries[i].id.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            ids(Some(&workspace)),
            "broken adapter-1 a-4 a-2 a-3 a-1 b-1 core-1"
        );
        // Without metadata: grouped by crate, then packages, then file.
        assert_eq!(ids(None), "broken adapter-1 core-1 a-4 a-2 a-3 a-1 b-1");
    }

    #[test]
    fn projects_the_total() {
        let secs = Duration::from_secs;
        // 60 s of baseline, then 10 entries in 100 s; 90 more to go.
        assert_eq!(project(secs(160), secs(100), 10, 100), secs(160 + 900));
        assert_eq!(project(secs(5), secs(0), 0, 100), secs(5));
        assert_eq!(project(secs(300), secs(240), 100, 100), secs(300));
    }
}
