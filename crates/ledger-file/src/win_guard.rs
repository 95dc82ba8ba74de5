//! The Windows side of [`crate::guard`]: each directory and file is opened
//! as itself (`FILE_FLAG_OPEN_REPARSE_POINT`), its type read from the handle,
//! and a directory's owner and DACL judged by [`crate::acl`].

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use windows_sys::Win32::Storage::FileSystem::{
    FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_BACKUP_SEMANTICS, FILE_FLAG_OPEN_REPARSE_POINT,
    FILE_READ_ATTRIBUTES, READ_CONTROL,
};

use crate::acl::{judge, right};
use crate::fault::{At, Fault};
use crate::guard::{DirProblem, Kind};
use crate::win32;

/// What an entry is, from the metadata of a handle opened on it: a reparse
/// point is a link (a symbolic link or a junction) or some other reparse
/// point, never what it points at.
pub(crate) fn kind_of(meta: &Metadata) -> Kind {
    let kind = Kind::of(meta.file_type());
    if meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0 && kind != Kind::Link {
        return Kind::ReparsePoint;
    }
    kind
}

/// Opens a directory (or whatever is at `path`) to read its attributes and
/// security, as itself unless `follow`.
fn open_dir(path: &Path, follow: bool) -> io::Result<File> {
    let mut flags = FILE_FLAG_BACKUP_SEMANTICS;
    if !follow {
        flags |= FILE_FLAG_OPEN_REPARSE_POINT;
    }
    OpenOptions::new()
        .access_mode(READ_CONTROL | FILE_READ_ATTRIBUTES)
        .custom_flags(flags)
        .open(path)
}

/// Checks that `path` is a real directory (no reparse point), owned by us,
/// and that its DACL lets no one else write to it.
pub(crate) fn check_dir(path: &Path) -> Result<(), Fault> {
    let untrusted = |problem| Fault::UntrustedDir {
        path: path.to_owned(),
        problem,
    };
    let dir = open_dir(path, false).at("inspect", path)?;
    let kind = kind_of(&dir.metadata().at("inspect", path)?);
    if kind != Kind::Directory {
        return Err(untrusted(DirProblem::NotDir(kind)));
    }
    let security = win32::security(&dir).at("read the owner and DACL of", path)?;
    let us = win32::us().at("read this process's user for", path)?;
    judge(&security, us, right::DIR_WRITE, false).map_err(|p| untrusted(DirProblem::Acl(p)))
}

/// Checks that `dir`'s parent lets no one else remove or rename `dir`: it
/// is owned by us, an administrator or the system, and its DACL gives no
/// one else the right to remove its entries or to change its access. The
/// parent's own path may pass through links; only what it resolves to counts.
pub(crate) fn check_parent(dir: &Path) -> Result<(), Fault> {
    let parent = match dir.parent() {
        Some(parent) if parent.as_os_str().is_empty() => Path::new("."),
        Some(parent) => parent,
        None => return Ok(()),
    };
    let handle = open_dir(parent, true).at("inspect", parent)?;
    let security = win32::security(&handle).at("read the owner and DACL of", parent)?;
    let us = win32::us().at("read this process's user for", parent)?;
    judge(&security, us, right::PARENT_WRITE, true).map_err(|p| Fault::UntrustedDir {
        path: dir.to_owned(),
        problem: DirProblem::ParentAcl(p),
    })
}

/// Opens every file as itself, never through a reparse point.
pub(crate) fn as_itself(options: &mut OpenOptions) {
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
}

/// What `file` is: a reparse point opened as itself, a directory, what
/// `GetFileType` says a handle that is not on disk is (a pipe, a character
/// device), or a regular file.
pub(crate) fn kind_of_open(file: &File) -> io::Result<Kind> {
    let kind = kind_of(&file.metadata()?);
    if kind != Kind::Regular {
        return Ok(kind);
    }
    Ok(win32::not_on_disk(file).unwrap_or(Kind::Regular))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FileStore;

    /// The user's own `%LOCALAPPDATA%` is trusted as a directory of the
    /// store would be, and as the default directory's parent (read only:
    /// nothing is created there).
    #[test]
    fn local_app_data_is_trusted_as_the_defaults_parent() -> Result<(), Fault> {
        let dir = FileStore::default_dir().ok_or(Fault::Limits("no default directory"))?;
        check_parent(&dir)?;
        check_dir(dir.parent().ok_or(Fault::Limits("no parent"))?)
    }
}
