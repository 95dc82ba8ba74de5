//! What can go wrong on disk, naming the file; and the retries Windows needs.

use std::io;
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::Duration;

use advisor_core::{DigestKeyInUse, StoreFault};

use crate::guard::{DirProblem, Kind, NotRegular};

/// The store's name on the host log.
pub(crate) const STORE: &str = "file";

/// A fault of the on-disk ledger. Each names the file it concerns.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Fault {
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    #[error(
        "{} is not a budget record ({why}); moved it to {}, the next edit starts from an empty record",
        path.display(),
        aside.display()
    )]
    CorruptRecord {
        path: PathBuf,
        aside: PathBuf,
        why: String,
    },
    #[error("{} is not 32 hex digits; delete it, and the processes sharing the directory make a new key", path.display())]
    BadKey { path: PathBuf },
    #[error("{} stayed locked by another process for {waited:?}", path.display())]
    LockBusy { path: PathBuf, waited: Duration },
    #[error("{} kept being removed under this process (a concurrent forget or collection)", path.display())]
    Vanishing { path: PathBuf },
    #[error(
        "{} is not a safe state directory: {problem}; remove it or choose another --state-dir \
         (it must be {})",
        path.display(),
        crate::guard::TRUSTED_DIR
    )]
    UntrustedDir { path: PathBuf, problem: DirProblem },
    #[error(
        "cannot {op} {}: it is a {kind}, not a regular file (the store opens no links, FIFOs, \
         sockets or devices); remove it",
        path.display()
    )]
    NotRegular {
        op: &'static str,
        path: PathBuf,
        kind: Kind,
    },
    #[error("limits: {0}")]
    Limits(&'static str),
    #[error(transparent)]
    KeyInUse(#[from] DigestKeyInUse),
}

impl From<Fault> for StoreFault {
    fn from(fault: Fault) -> Self {
        StoreFault::new(STORE, fault)
    }
}

/// Attaches the operation and the path to an I/O error.
pub(crate) trait At<T> {
    fn at(self, op: &'static str, path: &Path) -> Result<T, Fault>;
}

impl<T> At<T> for io::Result<T> {
    fn at(self, op: &'static str, path: &Path) -> Result<T, Fault> {
        self.map_err(|source| {
            match source
                .get_ref()
                .and_then(|e| e.downcast_ref::<NotRegular>())
            {
                Some(NotRegular(kind)) => Fault::NotRegular {
                    op,
                    path: path.to_owned(),
                    kind: *kind,
                },
                None => Fault::Io {
                    op,
                    path: path.to_owned(),
                    source,
                },
            }
        })
    }
}

/// The pauses between attempts at an operation Windows refused for a
/// moment: doubling from 1 ms, 511 ms in all. A virus scanner or an indexer
/// opens a file that was just written or renamed, often without sharing its
/// deletion, for as long as its scan takes: milliseconds for a record, more on
/// a loaded machine. Half a second outlasts that, and keeps an edit that
/// retries under the agent's budget lock well inside another waiter's
/// `lock_wait` (2 s).
pub(crate) const PAUSES: [Duration; 9] = [
    Duration::from_millis(1),
    Duration::from_millis(2),
    Duration::from_millis(4),
    Duration::from_millis(8),
    Duration::from_millis(16),
    Duration::from_millis(32),
    Duration::from_millis(64),
    Duration::from_millis(128),
    Duration::from_millis(256),
];

/// True for the errors Windows gives while another process (or a virus
/// scanner) has the file open or its deletion pending: access denied
/// (`ERROR_ACCESS_DENIED`, also a delete-pending name), `ERROR_SHARING_VIOLATION`
/// (32) and `ERROR_LOCK_VIOLATION` (33). Never on other systems, where a
/// refused permission is final.
pub(crate) fn is_transient(error: &io::Error) -> bool {
    cfg!(windows)
        && (error.kind() == io::ErrorKind::PermissionDenied
            || matches!(error.raw_os_error(), Some(32 | 33)))
}

/// Runs `op`, again after each of [`PAUSES`] while it fails transiently
/// (at most 511 ms in all).
pub(crate) fn retrying<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    for pause in PAUSES {
        match op() {
            Err(error) if is_transient(&error) => sleep(pause),
            done => return done,
        }
    }
    op()
}

/// How many times an operation inside an agent's directory is tried when a
/// concurrent forget or collection removed the directory under it.
pub(crate) const DIR_ATTEMPTS: usize = 3;

/// Whether [`persist`] may replace an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replace {
    /// Atomically replace it: `rename`; on Windows `std::fs::rename`, which
    /// is `MoveFileExW` with `MOVEFILE_REPLACE_EXISTING` and, when that is
    /// refused because another process has the target open (the lock-free
    /// look at `budget` that every edit takes), the POSIX rename of Windows
    /// 10 1809 and later on NTFS, which replaces a file other handles hold
    /// open when they share its deletion (every handle the standard library
    /// opens does).
    Yes,
    /// Fail with `AlreadyExists` (`renameat2(RENAME_NOREPLACE)` or `link`;
    /// `MoveFileExW` without the flag).
    No,
}

/// Moves a temporary file to `target` in one atomic step, again after each of
/// [`PAUSES`] while Windows refuses for a moment (another process has the
/// target open without sharing its deletion, or holds the temporary file).
pub(crate) fn persist(
    mut file: tempfile::NamedTempFile,
    target: &Path,
    replace: Replace,
) -> io::Result<()> {
    if replace == Replace::Yes {
        // Closed first: a handle of ours would be one more reason to refuse.
        let mut temp = file.into_temp_path();
        retrying(|| std::fs::rename(&temp, target))?;
        temp.disable_cleanup(true);
        return Ok(());
    }
    let mut pauses = PAUSES.iter();
    loop {
        let result = file.persist_noclobber(target);
        match result {
            Ok(_) => return Ok(()),
            Err(failed) => match pauses.next() {
                Some(pause) if is_transient(&failed.error) => {
                    file = failed.file;
                    sleep(*pause);
                }
                _ => return Err(failed.error),
            },
        }
    }
}
