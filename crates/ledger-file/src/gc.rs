//! The collection: agents bounded by age and by count.
//!
//! It runs at most once per [`FileLimits::gc_interval`] across every process
//! sharing the directory: a process looks at `gc.stamp`'s mtime (one `stat`,
//! and at most once per interval per process), and only when the interval
//! has passed does it try — without waiting — to lock `gc.lock`. The winner
//! re-reads the stamp, renews it, lists the agents with their `touched`
//! stamps, and retires the ones past the bounds, oldest first.
//!
//! Retiring moves the agent's directory into `trash/` in one rename, then
//! removes it; a concurrent claim either found the directory (and is answered
//! as before the collection) or recreates it empty. An agent whose budget
//! lock is held right now, or whose stamp moved since the listing, is
//! skipped. What cannot be removed yet (on Windows, a file still open below
//! it) stays in `trash/` for the next collection.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fd_lock::RwLock;

use crate::claim::stamp;
use crate::fault::{At, Fault};
use crate::guard::{How, Kind, open};
use crate::layout::{Layout, TOUCHED};
use crate::limits::FileLimits;
use crate::lock::if_idle;

/// What one collection did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collected {
    /// Agents removed because nobody touched them for `max_age`.
    pub by_age: usize,
    /// Agents removed, oldest first, to get down to `max_agents`.
    pub by_count: usize,
    /// Agents due for removal but in use (their budget lock held, touched
    /// since the listing, or on Windows a file open below them): left for
    /// the next collection.
    pub skipped: usize,
    /// Agents left.
    pub kept: usize,
}

/// True when the last collection is older than `interval` (or never ran).
pub(crate) fn due(layout: &Layout, interval: Duration) -> bool {
    !fs::symlink_metadata(layout.gc_stamp())
        .and_then(|meta| meta.modified())
        .is_ok_and(|at| {
            SystemTime::now()
                .duration_since(at)
                .is_ok_and(|age| age < interval)
        })
}

/// Collects unless another process is collecting (`Ok(None)`), or, unless
/// `force`, the last collection is younger than the interval.
pub(crate) fn collect(
    layout: &Layout,
    limits: &FileLimits,
    force: bool,
) -> Result<Option<Collected>, Fault> {
    // Time has passed since the store was opened: nothing is listed or
    // removed unless the chain is still ours.
    layout.check()?;
    let lock_path = layout.gc_lock();
    let file = open(&lock_path, How::ReadWriteCreate).at("open", &lock_path)?;
    let mut lock = RwLock::new(file);
    let _held = match lock.try_write() {
        Ok(guard) => guard,
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
        Err(e) => return Err(e).at("lock", &lock_path),
    };
    if !force && !due(layout, limits.gc_interval) {
        return Ok(None);
    }
    let now = SystemTime::now();
    stamp(&layout.gc_stamp(), now)?;
    let mut agents = list(&layout.agents())?;
    agents.sort_unstable_by_key(|(touched, _)| *touched);
    let cutoff = now.checked_sub(limits.max_age).unwrap_or(UNIX_EPOCH);
    let stale = agents.partition_point(|(touched, _)| *touched < cutoff);
    let over = agents.len().saturating_sub(limits.max_agents);
    let mut done = Collected::default();
    for (i, (seen, dir)) in agents.iter().take(stale.max(over)).enumerate() {
        match retire(layout, dir, *seen) {
            false => done.skipped += 1,
            true if i < stale => done.by_age += 1,
            true => done.by_count += 1,
        }
    }
    done.kept = agents.len() - done.by_age - done.by_count;
    empty_trash(&layout.trash());
    Ok(Some(done))
}

/// Every agent directory with the time it was last touched. An entry's type
/// is the entry's own (`file_type` does not follow links): a link is not an
/// agent, and is neither counted nor followed.
fn list(agents: &Path) -> Result<Vec<(SystemTime, PathBuf)>, Fault> {
    let mut found = Vec::new();
    for entry in fs::read_dir(agents).at("list", agents)? {
        let entry = entry.at("list", agents)?;
        if entry
            .file_type()
            .is_ok_and(|kind| Kind::of(kind) == Kind::Directory)
        {
            let dir = entry.path();
            found.push((touched(&dir), dir));
        }
    }
    Ok(found)
}

/// When the agent was last touched: its stamp's mtime, else its
/// directory's; the epoch when neither can be read.
fn touched(dir: &Path) -> SystemTime {
    fs::symlink_metadata(dir.join(TOUCHED))
        .or_else(|_| fs::symlink_metadata(dir))
        .and_then(|meta| meta.modified())
        .unwrap_or(UNIX_EPOCH)
}

/// Moves an idle agent's directory to the trash and removes it; false when
/// it is in use or could not be moved.
fn retire(layout: &Layout, dir: &Path, seen: SystemTime) -> bool {
    static RETIRED: AtomicU64 = AtomicU64::new(0);
    let Some(name) = dir.file_name() else {
        return false;
    };
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let target = layout.trash().join(format!(
        "{}.{}.{nanos}.{}",
        name.to_string_lossy(),
        std::process::id(),
        RETIRED.fetch_add(1, Relaxed)
    ));
    let moved = if_idle(dir, || {
        // Any move of the stamp since the listing means someone used it
        // (or dated it): `!=`, not `>`, so that is one condition to test.
        if touched(dir) != seen {
            return false;
        }
        fs::rename(dir, &target).is_ok()
    });
    if moved == Some(true) {
        remove(&layout.trash(), &target);
        return true;
    }
    false
}

/// Removes what earlier collections could not (best effort).
fn empty_trash(trash: &Path) {
    let Ok(entries) = fs::read_dir(trash) else {
        return;
    };
    for entry in entries.flatten() {
        remove(trash, &entry.path());
    }
}

/// Removes `path`, an entry of `trash`, without following a link out of it
/// (best effort): anything but a directory is unlinked itself (a link, never
/// what it names); a directory only when it is ours and on `trash`'s device.
/// `remove_dir_all` then unlinks the links below it rather than following them.
fn remove(trash: &Path, path: &Path) {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return;
    };
    if Kind::of(meta.file_type()) != Kind::Directory {
        let _ = fs::remove_file(path);
    } else if ours(trash, &meta) {
        let _ = fs::remove_dir_all(path);
    }
}

/// True when a directory's metadata says it is ours and on `trash`'s device.
/// On Windows a directory moved into the trash is the store's own.
fn ours(trash: &Path, meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::symlink_metadata(trash)
            .is_ok_and(|t| t.dev() == meta.dev() && meta.uid() == crate::guard::euid())
    }
    #[cfg(not(unix))]
    {
        let _ = (trash, meta);
        true
    }
}
