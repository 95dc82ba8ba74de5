//! Claims (atomic create-new markers), forgetting an agent, and touching it.
//!
//! A claim creates `<agent>/claim.<slot>` with `create_new` (`O_CREAT|O_EXCL`
//! on Unix, `CREATE_NEW` on Windows): the system lets exactly one of racing
//! creators succeed, across processes, so exactly one claim is first.

use std::fs;
use std::io;
use std::path::Path;
use std::time::{Duration, SystemTime};

use advisor_core::{AgentId, Claim, Slot};

use crate::fault::{At, DIR_ATTEMPTS, Fault, retrying};
use crate::guard::{How, Kind, open};
use crate::layout::{
    BUDGET, BUDGET_CORRUPT, BUDGET_V1, CLAIM_PREFIX, Layout, TOUCHED, check_agent_dir,
    create_agent_dir, marker,
};
use crate::lock::{Open, with_lock};

/// The budget files `forget` removes beside the claims: the record, an
/// older build's version 1 record, and the last one moved aside.
const RECORDS: [&str; 3] = [BUDGET, BUDGET_V1, BUDGET_CORRUPT];

/// Claims `slot` for `agent`.
pub(crate) fn claim(
    layout: &Layout,
    agent: &AgentId,
    slot: &Slot,
    touch_every: Duration,
) -> Result<Claim, Fault> {
    let dir = layout.agent(agent);
    check_agent_dir(&dir)?;
    let path = marker(&dir, slot);
    // A marker that is not a regular file (a link, a FIFO: planted, not
    // claimed) is refused by `open` as what it is, not taken for a claim.
    let created = in_dir(&dir, || retrying(|| open(&path, How::CreateNew)));
    let claim = match created {
        Ok(_) => Claim::First,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Claim::Again,
        Err(e) => return Err(e).at("create", &path),
    };
    touch(&dir, touch_every)?;
    Ok(claim)
}

/// Forgets `agent`: under its budget lock (so no budget edit interleaves),
/// removes its claim markers, its record and a record moved aside, and
/// dates its stamp back so a collection takes the empty directory first.
///
/// Each claim reads one marker, so a claim racing a forget is answered as if
/// it came wholly before or wholly after it; no claim sees "half" an agent.
pub(crate) fn forget(layout: &Layout, agent: &AgentId, wait: Duration) -> Result<(), Fault> {
    let dir = layout.agent(agent);
    check_agent_dir(&dir)?;
    with_lock(&dir, Open::Existing, wait, || {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).at("list", &dir),
        };
        for entry in entries {
            let entry = entry.at("list", &dir)?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            // `remove_file` unlinks a link itself, never what it names; a
            // directory of that name is not the store's and is left.
            let kind = entry
                .file_type()
                .map(Kind::of)
                .at("inspect", &entry.path())?;
            let ours = name.starts_with(CLAIM_PREFIX) || RECORDS.contains(&&*name);
            if ours && kind != Kind::Directory {
                remove_file(&entry.path())?;
            }
        }
        stamp(&dir.join(TOUCHED), SystemTime::UNIX_EPOCH)
    })?;
    Ok(())
}

/// Marks the agent as used now (the collection's age), unless it was within
/// `every`: at most one stamp write per agent per `every`.
pub(crate) fn touch(dir: &Path, every: Duration) -> Result<(), Fault> {
    let path = dir.join(TOUCHED);
    let now = SystemTime::now();
    let recent = fs::symlink_metadata(&path)
        .and_then(|meta| meta.modified())
        .is_ok_and(|at| now.duration_since(at).is_ok_and(|age| age < every));
    if recent {
        return Ok(());
    }
    stamp(&path, now)
}

/// Sets `path`'s mtime (creating it). A stamp that is not a regular file (a
/// link, a FIFO) is refused; otherwise best effort: a stamp that cannot be
/// written only makes the agent look older to a collection.
pub(crate) fn stamp(path: &Path, at: SystemTime) -> Result<(), Fault> {
    match open(path, How::WriteCreate) {
        Ok(file) => {
            let _ = file.set_modified(at);
            Ok(())
        }
        Err(e)
            if e.get_ref()
                .is_some_and(|e| e.is::<crate::guard::NotRegular>()) =>
        {
            Err(e).at("stamp", path)
        }
        Err(_) => Ok(()),
    }
}

/// Runs `op` on a path inside `dir`, creating `dir` when `op` finds it
/// missing; a concurrent collection may move it away in between, so up to
/// [`DIR_ATTEMPTS`] times.
pub(crate) fn in_dir<T>(dir: &Path, mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    for _ in 1..DIR_ATTEMPTS {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => create_agent_dir(dir)?,
            done => return done,
        }
    }
    op()
}

fn remove_file(path: &Path) -> Result<(), Fault> {
    match retrying(|| fs::remove_file(path)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e).at("remove", path),
        _ => Ok(()),
    }
}
