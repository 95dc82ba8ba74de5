//! Reading and replacing a settings file without following a link.
//!
//! - The scope's root (the project, the home directory, `CODEX_HOME`) is
//!   opened as the user named it; every directory below it and the file are
//!   opened relative to their parent's handle, refusing a symbolic link (a
//!   `.claude` that points at `~/.claude` is refused by name).
//! - The file must be a regular file of at most [`SETTINGS_MAX_BYTES`] with
//!   one name: a hard-linked file (two names) is refused, since replacing it
//!   would leave the other name with the old text.
//! - The new text goes to a new file beside it, created exclusively under a
//!   random name (`O_CREAT | O_EXCL | O_NOFOLLOW`, so a planted file or link
//!   is never opened), given the old file's owner, group and mode before a
//!   byte is written, synced, then renamed over the old one. When the owner
//!   cannot be kept (another user's file, and this user is not root), the
//!   install refuses. A directory created on the way is created with
//!   `mkdirat` and opened without following a link. When root creates a
//!   file or a directory, it is given the owner of the directory it is in.
//! - Just before the rename, the file is looked at again: if it is no
//!   longer the file read, the install refuses instead of overwriting it.
//!
//! On Windows (no `openat`): each directory and the file are looked at
//! (`symlink_metadata`) and a symbolic link or any other reparse point is
//! refused; the read-only attribute is kept. Owners and hard links are not
//! checked there.

use std::path::{Path, PathBuf};

use advisor_core::quote::escaped;

use super::client::Place;
use super::{InstallError, SETTINGS_MAX_BYTES};

#[cfg(unix)]
#[path = "file_unix.rs"]
mod sys;
#[cfg(windows)]
#[path = "file_windows.rs"]
mod sys;

/// A settings file opened for an edit: what it holds, and the handles to
/// replace it through.
pub struct Opened {
    path: PathBuf,
    text: Option<String>,
    sys: sys::Opened,
}

impl Opened {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its text; `None` when there is no file yet.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Replaces the file with `text` (module doc).
    pub fn replace(self, text: &str) -> Result<(), InstallError> {
        self.sys.replace(&self.path, text)
    }
}

/// Opens the settings file at `place` (module doc).
pub fn open(place: &Place) -> Result<Opened, InstallError> {
    let (sys, text) = sys::open(place)?;
    let text = text
        .map(|bytes| {
            String::from_utf8(bytes).map_err(|e| {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
                refused(&place.path(), format!("it is not UTF-8 text (line {line})"))
            })
        })
        .transpose()?;
    Ok(Opened {
        path: place.path(),
        text,
        sys,
    })
}

pub(super) fn refused(path: &Path, why: String) -> InstallError {
    InstallError::Refused {
        path: path.to_owned(),
        why,
    }
}

pub(super) fn io(path: &Path, source: std::io::Error) -> InstallError {
    InstallError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The refusal of a symbolic link at `path`, below `root`.
pub(super) fn link_refused(path: &Path, target: Option<PathBuf>, root: &Path) -> InstallError {
    let to = target
        .map(|t| format!(" to {}", escaped(&t.to_string_lossy())))
        .unwrap_or_default();
    refused(
        path,
        format!(
            "it is a symbolic link{to}; install follows no link below {} (it would edit the \
             file the link leads to, not this scope's own): edit the target with the scope it \
             belongs to, or remove the link",
            escaped(&root.to_string_lossy())
        ),
    )
}

/// The longest file read, as the message says it.
pub(super) fn too_long(path: &Path) -> InstallError {
    refused(
        path,
        format!(
            "it is longer than {} MiB",
            SETTINGS_MAX_BYTES / (1024 * 1024)
        ),
    )
}

/// A name for the new file beside `file`: hidden, random, never reused.
pub(super) fn temp_name(file: &str) -> String {
    use std::hash::{BuildHasher, Hasher, RandomState};
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    format!(".{file}.{:016x}.sandbox-advisor.tmp", hasher.finish())
}
