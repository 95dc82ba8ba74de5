//! The slots a run uses: how many (`--jobs`), their copies of the sources,
//! and the unmutated baseline run on them.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::MAX_JOBS_VAR;
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

pub(super) fn make_slots(root: &Path, state: &Path, jobs: usize) -> Result<Vec<Slot>> {
    let slots = slots(root, state, jobs)?;
    let built = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), Into::into)
        .join("debug");
    for slot in &slots {
        let into = slot.target_dir.join("debug");
        if into.exists() || !built.join("deps").is_dir() {
            continue;
        }
        let start = std::time::Instant::now();
        match seed(&built, &into) {
            Ok(()) => eprintln!(
                "xtask inject: slot {} starts from the dependencies built in {} ({:.1}s)",
                slot.index,
                built.display(),
                start.elapsed().as_secs_f64()
            ),
            Err(e) => {
                eprintln!(
                    "xtask inject: slot {} builds from scratch: {e:#}",
                    slot.index
                );
                let _ = std::fs::remove_dir_all(&into);
            }
        }
    }
    Ok(slots)
}

/// Copies a build's compiled libraries, build-script outputs and fingerprints
/// (not its test executables or incremental caches) into a slot's target
/// directory, times kept, over nothing the slot already has. Cargo then finds every registry crate built
/// with the slot's profile fresh, so a slot builds only the workspace's own
/// crates (their fingerprints name the slot's source paths, so they rebuild
/// there). When the build's profile differs (e.g. with debuginfo), nothing
/// matches and the slot builds as from scratch.
fn seed(built: &Path, into: &Path) -> Result<()> {
    let deps = into.join("deps");
    std::fs::create_dir_all(&deps)?;
    let mut libraries = Vec::new();
    for entry in std::fs::read_dir(built.join("deps"))? {
        let path = entry?.path();
        let kind = path.extension().and_then(|e| e.to_str());
        if matches!(kind, Some("rlib" | "rmeta" | "so")) {
            libraries.push(path);
        }
    }
    let mut copies: Vec<(Vec<std::path::PathBuf>, std::path::PathBuf)> = vec![(libraries, deps)];
    let dirs: Vec<_> = [".fingerprint", "build"]
        .iter()
        .map(|d| built.join(d))
        .filter(|d| d.is_dir())
        .collect();
    copies.push((dirs, into.to_path_buf()));
    for (from, to) in copies {
        for chunk in from.chunks(256) {
            let status = std::process::Command::new("cp")
                // Never over a file the slot has: a library both built is
                // the same library.
                .args(["-a", "-n"])
                .args(chunk)
                .arg(&to)
                .status()
                .context("starting cp")?;
            if !status.success() {
                bail!("cp -a into {} failed: {status}", to.display());
            }
        }
    }
    Ok(())
}

fn slots(root: &Path, state: &Path, jobs: usize) -> Result<Vec<Slot>> {
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

/// After the baseline, each slot gets the libraries the others built: a
/// package's own feature set of its dependencies (`cargo test -p P` unifies
/// features over P alone) is then compiled in one slot, not in each.
fn share_dependencies(slots: &[Slot]) {
    for from in slots {
        for into in slots.iter().filter(|s| s.index != from.index) {
            let (built, into_dir) = (from.target_dir.join("debug"), into.target_dir.join("debug"));
            if !built.join("deps").is_dir() {
                continue;
            }
            if let Err(e) = seed(&built, &into_dir) {
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
    slots: &[Slot],
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
    let results = run::pool(slots, shared, &jobs, |slot, (package, tests)| {
        run::baseline_package(slot, shared, package, tests, settings)
    });
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
    use std::path::PathBuf;

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

    #[test]
    fn a_slot_is_seeded_with_libraries_and_fingerprints_not_executables() {
        let dir = tempfile::tempdir().expect("temp dir");
        let built = dir.path().join("built");
        for file in [
            "deps/libserde-1.rlib",
            "deps/libserde-1.rmeta",
            "deps/libderive-2.so",
            "deps/arms-3",
            "deps/arms-3.d",
            ".fingerprint/serde-1/lib-serde",
            "build/serde-4/output",
            "incremental/arms-5/x",
        ] {
            let path = built.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
            std::fs::write(&path, file).expect("write");
        }
        let into = dir.path().join("slot/debug");
        seed(&built, &into).expect("seeded");
        let mut found: Vec<String> = walk(&into)
            .iter()
            .map(|p| p.strip_prefix(&into).expect("inside").display().to_string())
            .collect();
        found.sort();
        assert_eq!(
            found.join(" "),
            ".fingerprint/serde-1/lib-serde build/serde-4/output deps/libderive-2.so \
             deps/libserde-1.rlib deps/libserde-1.rmeta"
        );
        // Again, from a build that has one more library and another copy of
        // one the slot has: the new one arrives, the slot's stays.
        std::fs::write(built.join("deps/libserde-1.rlib"), "other").expect("write");
        std::fs::write(built.join("deps/libtoml-6.rlib"), "toml").expect("write");
        seed(&built, &into).expect("seeded again");
        let read = |f: &str| std::fs::read_to_string(into.join(f)).expect("read");
        assert_eq!(read("deps/libserde-1.rlib"), "deps/libserde-1.rlib");
        assert_eq!(read("deps/libtoml-6.rlib"), "toml");
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                files.extend(walk(&path));
            } else {
                files.push(path);
            }
        }
        files
    }
}
