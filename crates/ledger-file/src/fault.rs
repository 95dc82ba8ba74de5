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
         (it must be a directory owned by you, mode 0700, in a parent no other user can write to)",
        path.display()
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

/// The pauses between attempts at an operation Windows refused for a moment.
pub(crate) const PAUSES: [Duration; 5] = [
    Duration::from_millis(1),
    Duration::from_millis(2),
    Duration::from_millis(4),
    Duration::from_millis(8),
    Duration::from_millis(16),
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
/// (at most 31 ms in all).
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
    /// Atomically replace it (`rename`; `MoveFileExW` with `MOVEFILE_REPLACE_EXISTING`).
    Yes,
    /// Fail with `AlreadyExists` (`renameat2(RENAME_NOREPLACE)` or `link`;
    /// `MoveFileExW` without the flag).
    No,
}

/// Moves a temporary file to `target` in one atomic step, again after each of
/// [`PAUSES`] while Windows refuses for a moment (another process has the
/// target open).
pub(crate) fn persist(
    mut file: tempfile::NamedTempFile,
    target: &Path,
    replace: Replace,
) -> io::Result<()> {
    let mut pauses = PAUSES.iter();
    loop {
        let result = match replace {
            Replace::Yes => file.persist(target),
            Replace::No => file.persist_noclobber(target),
        };
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
