//! `cargo xtask inject`: apply each catalogued defect, run the tests that
//! claim to catch it, and report which arms stayed silent.

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
    /// (capped at 2 unless XTASK_INJECT_MAX_JOBS says more).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Run only the catalogues of these packages (repeatable, or comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "PKG")]
    pub package: Vec<String>,
    /// Workspace root (default: the directory above xtask's manifest).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Seconds one `cargo test` run of one package may take.
    #[arg(long, default_value_t = 600, value_name = "SECS")]
    pub timeout: u64,
    /// Seconds one build (`cargo test --no-run`) may take.
    #[arg(long, default_value_t = 1800, value_name = "SECS")]
    pub build_timeout: u64,
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
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = run::pool(&slots, &shared, &entries, |slot, entry| {
        let result = run::run_entry(slot, &shared, entry, baseline.as_ref(), &settings)?;
        let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        eprintln!(
            "xtask inject: [{n}/{}] {} {} ({:.1}s)",
            entries.len(),
            result.id,
            result.status.word(),
            result.seconds
        );
        Ok(result)
    });
    let mut finished: Vec<EntryResult> = Vec::new();
    let mut fatal = None;
    for result in results.into_iter().flatten() {
        match result {
            Ok(result) => finished.push(result),
            Err(e) => fatal = Some(e),
        }
    }
    let wall = start.elapsed().as_secs_f64();

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

fn jobs(asked: usize, runnable: usize) -> usize {
    let cap = std::env::var(MAX_JOBS_VAR)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(2)
        .max(1);
    if asked > cap {
        eprintln!("xtask inject: --jobs {asked} capped at {cap} (raise with {MAX_JOBS_VAR})");
    }
    asked.min(cap).min(runnable).max(1)
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
