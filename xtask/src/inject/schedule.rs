//! The order entries run in, and the run's projected wall time.

use std::time::{Duration, Instant};

use crate::catalogue::Entry;
use crate::targets::{self, Workspace};

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
pub(super) struct Progress {
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
    pub(super) fn new(start: Instant, runnable: usize) -> Self {
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
    pub(super) fn finished(&self, ran: bool) -> (usize, Option<Duration>) {
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
    pub(super) fn first_warning(&self, slots: usize) -> bool {
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn entry(id: &str, package: &str, packages: &[&str], file: &str) -> Entry {
        Entry {
            id: id.to_owned(),
            file: PathBuf::from(file),
            ..Entry::sample(package, packages, &["t"])
        }
    }

    #[test]
    fn schedule_groups_by_crate_widest_builds_first() {
        let mut workspace = Workspace::new();
        let package = |deps: &[&str]| targets::Package {
            targets: Vec::new(),
            deps: deps.iter().map(|d| (*d).to_owned()).collect(),
            dir: Default::default(),
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
