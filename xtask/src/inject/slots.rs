//! The slots a run uses: how many (`--jobs`), their copies of the sources,
//! and the unmutated baseline run on them.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::MAX_JOBS_VAR;
use super::seed::{self, Crates, SEED_COMMAND};
use crate::apply::Shared;
use crate::catalogue::Entry;
use crate::run::{self, Baseline, Settings, Slot};
use crate::targets::{self, Workspace};
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

/// The slots of a run, and what they start from.
pub(super) struct Slots {
    /// The slots.
    pub slots: Vec<Slot>,
    /// No slot had built anything and none took a seed: the baseline then
    /// builds its widest package in one slot alone first ([`run_baseline`]).
    pub cold: bool,
    /// Packages whose sources lie in the tree: their units never pass from
    /// one tree to another. `None` when `cargo metadata` failed: then
    /// nothing does.
    local: Option<BTreeSet<String>>,
}

pub(super) fn make_slots(
    root: &Path,
    state: &Path,
    jobs: usize,
    shared: &Shared,
    settings: &Settings,
) -> Result<Slots> {
    let slots = slots(root, state, jobs)?;
    let crates = seed::crates(root);
    let empty: Vec<&Slot> = slots
        .iter()
        .filter(|s| !s.target_dir.join("debug").exists())
        .collect();
    let seeded = !empty.is_empty()
        && {
            let built = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| root.join("target"), Into::into)
                .join("debug");
            let seeded = seed_slots(root, &built, &empty, crates.as_ref(), shared, settings);
            if let Err(why) = &seeded {
                eprintln!(
                    "xtask inject: {} is not used ({why}); the slots build their own dependencies; `{SEED_COMMAND}` makes a seed they start from",
                    built.display()
                );
                for slot in &empty {
                    let _ = std::fs::remove_dir_all(&slot.target_dir);
                }
            }
            seeded.is_ok()
        };
    Ok(Slots {
        cold: !seeded && empty.len() == slots.len(),
        local: crates.ok().map(|c| c.local),
        slots,
    })
}

/// Seeds the `empty` slots from the build in `built` (see [`seed`]): the
/// first one, then a probe that the libraries fit the slots' profile, then
/// the others. `Err` says why the build is not used.
fn seed_slots(
    root: &Path,
    built: &Path,
    empty: &[&Slot],
    crates: Result<&Crates, &anyhow::Error>,
    shared: &Shared,
    settings: &Settings,
) -> std::result::Result<(), String> {
    if !built.join("deps").is_dir() {
        return Err("no build there".to_owned());
    }
    let crates = crates.map_err(|e| format!("{e:#}"))?;
    for (n, slot) in empty.iter().enumerate() {
        let start = std::time::Instant::now();
        // Workspace crates only into the tree that built them.
        let in_place = slot.root == root;
        let skip = if in_place {
            BTreeSet::new()
        } else {
            crates.local.clone()
        };
        let selection = seed::select(built, &skip).map_err(|e| format!("{e:#}"))?;
        let into = slot.target_dir.join("debug");
        seed::copy(&selection, &into).map_err(|e| format!("copying it: {e:#}"))?;
        let left_out = match selection.incomplete.first() {
            Some(first) => format!(
                "; {} fingerprint(s) left out, what they name missing (`{first}`…)",
                selection.incomplete.len()
            ),
            None => String::new(),
        };
        if n == 0 {
            probe(slot, crates, &selection, shared, settings).map_err(|why| why + &left_out)?;
        }
        eprintln!(
            "xtask inject: slot {} starts from {} units built in {}{} ({:.1}s)",
            slot.index,
            selection.len(),
            built.display(),
            left_out,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Has cargo build, in the seeded slot, a few dependency-free crates the
/// seed holds: they are fresh there only when the seed was built the way the
/// slots build (profile, compiler, flags). `Err` says why the seed is not
/// used.
fn probe(
    slot: &Slot,
    crates: &Crates,
    selection: &seed::Selection,
    shared: &Shared,
    settings: &Settings,
) -> std::result::Result<(), String> {
    let probes = seed::probe_specs(crates, selection);
    if probes.is_empty() {
        return Err("it holds no dependency-free library to check it by".to_owned());
    }
    let mut args = vec!["build", "--message-format=json"];
    for (spec, _) in &probes {
        args.extend(["-p", spec.as_str()]);
    }
    let mut log = Vec::new();
    let run = run::cargo(slot, shared, &args, settings, &mut log).map_err(|e| format!("{e:#}"))?;
    let _ = std::fs::write(settings.log_dir.join("seed-probe.log"), &log);
    if !run.success {
        return Err(format!(
            "`cargo {}` failed; see {}",
            args.join(" "),
            settings.log_dir.join("seed-probe.log").display()
        ));
    }
    match seed::unfit(&run.lines, &probes) {
        Ok(rebuilt) if rebuilt.is_empty() => Ok(()),
        Ok(rebuilt) => Err(format!(
            "built another way than the slots build: another profile, compiler or flags; cargo rebuilt `{}` from it",
            rebuilt.join("`, `")
        )),
        Err(e) => Err(format!("{e:#}")),
    }
}

fn slots(root: &Path, state: &Path, jobs: usize) -> Result<Vec<Slot>> {
    if jobs == 1 {
        return Ok(vec![Slot::new(
            0,
            root.to_path_buf(),
            state.join("slot-0"),
            state.join("in-flight.json"),
        )]);
    }
    (1..=jobs)
        .map(|n| {
            let tree_root = state.join(format!("tree-{n}"));
            tree::sync(root, &tree_root)
                .with_context(|| format!("copying the sources to {}", tree_root.display()))?;
            Ok(Slot::new(
                n,
                tree_root,
                state.join(format!("slot-{n}")),
                state.join(format!("in-flight-slot-{n}.json")),
            ))
        })
        .collect()
}

/// After a build, each slot gets the units the others built from sources
/// outside the tree: a package's own feature set of its dependencies
/// (`cargo test -p P` unifies features over P alone) is then compiled in
/// one slot, not in each. Workspace crates stay in the slot that built them
/// (see [`seed`]); without `cargo metadata` to tell them apart nothing moves.
fn share_dependencies(slots: &Slots) {
    let Some(local) = &slots.local else {
        return;
    };
    for from in &slots.slots {
        let built = from.target_dir.join("debug");
        let Ok(selection) = seed::select(&built, local) else {
            continue;
        };
        for into in slots.slots.iter().filter(|s| s.index != from.index) {
            if let Err(e) = seed::copy(&selection, &into.target_dir.join("debug")) {
                eprintln!(
                    "xtask inject: slot {} keeps its own builds (copying slot {}'s: {e:#})",
                    into.index, from.index
                );
            }
        }
    }
}

/// The tests that the entries testing `package` name: the only ones its
/// baseline runs.
fn named_in(runnable: &[&Entry], package: &str) -> Vec<String> {
    runnable
        .iter()
        .filter(|e| e.packages.iter().any(|p| p == package))
        .flat_map(|e| e.tests.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

pub(super) fn run_baseline(
    slots: &Slots,
    shared: &Shared,
    runnable: &[&Entry],
    workspace: Option<&Workspace>,
    settings: &Settings,
) -> Result<Baseline> {
    let mut packages: Vec<String> = runnable
        .iter()
        .flat_map(|e| e.packages.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // The widest builds first, so that no slot starts the longest one last
    // while the other waits.
    packages.sort_by_cached_key(|p| {
        let span = workspace.map_or(0, |w| targets::closure_size(w, std::slice::from_ref(p)));
        (std::cmp::Reverse(span), p.clone())
    });
    let named: Vec<Vec<String>> = packages.iter().map(|p| named_in(runnable, p)).collect();
    let jobs: Vec<(&String, &Vec<String>)> = packages.iter().zip(&named).collect();
    eprintln!(
        "xtask inject: baseline (unmutated) run of {}",
        packages.join(", ")
    );
    let work = |slot: &Slot, (package, tests): &(&String, &Vec<String>)| {
        run::baseline_package(slot, shared, package, tests, settings)
    };
    // Cold slots would each compile the same dependencies side by side: the
    // widest package builds alone first, with every core, and the other
    // slots start from its dependencies.
    let alone = usize::from(slots.cold && slots.slots.len() > 1 && jobs.len() > 1);
    let mut results = Vec::new();
    if alone == 1 {
        eprintln!(
            "xtask inject: no slot has a seed: slot {} builds `{}` alone first, the others start from its dependencies",
            slots.slots[0].index, packages[0]
        );
        results = run::pool(&slots.slots[..1], shared, &jobs[..1], work);
        if !matches!(results.first(), Some(Some(Ok(_)))) {
            if let Some(Some(Err(e))) = results.pop() {
                return Err(e);
            }
            bail!("interrupted during the baseline");
        }
        share_dependencies(slots);
    }
    let rest = run::pool(&slots.slots, shared, &jobs[alone..], work);
    results.extend(rest);
    share_dependencies(slots);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(packages: &[&str], tests: &[&str]) -> Entry {
        Entry::sample(packages[0], packages, tests)
    }

    #[test]
    fn a_baseline_runs_the_tests_its_package_is_named_for() {
        let entries = [
            entry(&["core"], &["b", "a"]),
            entry(&["core", "adapter"], &["a", "c"]),
            entry(&["adapter"], &["d"]),
        ];
        let runnable: Vec<&Entry> = entries.iter().collect();
        let check = |package: &str, want: &str| {
            assert_eq!(named_in(&runnable, package).join(" "), want, "{package}");
        };
        check("core", "a b c");
        check("adapter", "a c d");
        check("cli", "");
    }
}
