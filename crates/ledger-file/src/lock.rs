//! An agent's budget lock: an exclusive [`fd_lock::RwLock`] on
//! `<agent>/budget.lock` (`flock` on Unix, `LockFileEx` on Windows; both are
//! released by the system when the holder exits or dies).
//!
//! A waiter never blocks in the kernel: it polls a non-blocking try-lock
//! with pauses from 20 µs doubling to 2 ms, and gives up with a fault after
//! [`FileLimits::lock_wait`](crate::FileLimits::lock_wait). A holder keeps the
//! lock for one read-edit-write, so only a stopped holder makes anyone wait.
//!
//! A collection moves an idle agent's directory away whole. On Unix a
//! process may then hold a lock on a file that is no longer at its path, so
//! after taking the lock it checks that the path still names the locked file
//! (device and inode), and starts over when it does not. On Windows the
//! check is not needed: a directory with an open file below it cannot be
//! renamed, so the collection fails to move it and skips it.

use std::fs::File;
use std::io;
use std::path::Path;
use std::thread::sleep;
use std::time::{Duration, Instant};

use fd_lock::RwLock;

use crate::fault::{At, DIR_ATTEMPTS, Fault, retrying};
use crate::guard::{How, open as open_file};
use crate::layout::{BUDGET_LOCK, create_agent_dir};

const FIRST_PAUSE: Duration = Duration::from_micros(20);
const LONGEST_PAUSE: Duration = Duration::from_millis(2);

/// Whether taking the lock may create the agent's directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Open {
    /// Create the directory and the lock file when missing.
    Create,
    /// Only in an agent directory that exists (the lock file is created when
    /// missing): no directory, nothing to do.
    Existing,
}

/// Runs `body` holding `agent_dir`'s budget lock; `Ok(None)` when `open` is
/// [`Open::Existing`] and the agent has no directory.
pub(crate) fn with_lock<T>(
    agent_dir: &Path,
    open: Open,
    wait: Duration,
    body: impl FnOnce() -> Result<T, Fault>,
) -> Result<Option<T>, Fault> {
    let path = agent_dir.join(BUDGET_LOCK);
    for _ in 0..DIR_ATTEMPTS {
        let file = match open_lock(agent_dir, &path, open) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound && open == Open::Existing => {
                return Ok(None);
            }
            Err(e) => return Err(e).at("open", &path),
        };
        let mut lock = RwLock::new(file);
        let started = Instant::now();
        let mut pause = FIRST_PAUSE;
        let guard = loop {
            match lock.try_write() {
                Ok(guard) => break guard,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if started.elapsed() >= wait {
                        return Err(Fault::LockBusy {
                            path,
                            waited: started.elapsed(),
                        });
                    }
                    sleep(pause);
                    pause = (pause * 2).min(LONGEST_PAUSE);
                }
                Err(e) => return Err(e).at("lock", &path),
            }
        };
        if still_linked(&guard, &path)? {
            let done = body();
            drop(guard);
            return done.map(Some);
        }
    }
    Err(Fault::Vanishing { path })
}

/// Runs `body` (moving the agent's directory away) unless another process
/// holds its budget lock, or the lock file cannot be opened or locked (the
/// agent may be in use): `None` then. An agent with no lock file is idle. On
/// Unix the lock is kept while `body` runs; on Windows it is released first,
/// since an open handle below a directory makes its rename fail.
///
/// A busy lock and a failed one are both "leave the agent for the next
/// collection", so they are one answer.
pub(crate) fn if_idle<T>(agent_dir: &Path, body: impl FnOnce() -> T) -> Option<T> {
    let path = agent_dir.join(BUDGET_LOCK);
    let file = match open_file(&path, How::ReadWrite) {
        Ok(file) => Some(file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(_) => return None,
    };
    let mut lock = file.map(RwLock::new);
    let guard = lock.as_mut().map(RwLock::try_write).transpose().ok()?;
    if cfg!(windows) {
        drop(guard);
        drop(lock);
        return Some(body());
    }
    let done = body();
    drop(guard);
    Some(done)
}

/// Opens the lock file; with [`Open::Create`] it creates the agent's
/// directory when missing, up to [`DIR_ATTEMPTS`] times (a collection may
/// move it away in between).
fn open_lock(agent_dir: &Path, path: &Path, open: Open) -> io::Result<File> {
    for _ in 1..DIR_ATTEMPTS {
        match retrying(|| open_file(path, How::ReadWriteCreate)) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && open == Open::Create => {
                create_agent_dir(agent_dir)?;
            }
            done => return done,
        }
    }
    retrying(|| open_file(path, How::ReadWriteCreate))
}

/// True when `path` still names the file `held` is open on. Anything else
/// there (nothing, another file, an error) means start over: the next open
/// reports what is wrong with the path. On Windows the directory cannot
/// have moved while the file is open, so it always does.
fn still_linked(held: &File, path: &Path) -> Result<bool, Fault> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let held = held.metadata().at("inspect", path)?;
        Ok(std::fs::symlink_metadata(path)
            .is_ok_and(|now| now.dev() == held.dev() && now.ino() == held.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = (held, path);
        Ok(true)
    }
}
