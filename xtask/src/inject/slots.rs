//! The slots a run uses: how many (`--jobs`), their copies of the sources,
//! and the unmutated baseline run on them.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::MAX_JOBS_VAR;
use crate::apply::Shared;
use crate::catalogue::Entry;
use crate::run::{self, Baseline, Settings, Slot};
use crate::tree;

pub(super) fn jobs(asked: Option<usize>, runnable: usize) -> usize {
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

pub(super) fn make_slots(root: &Path, state: &Path, jobs: usize) -> Result<Vec<Slot>> {
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

pub(super) fn run_baseline(
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
