//! The store trusts a directory only when it is ours, and opens only
//! regular files, never through a link and never waiting on another process.
//!
//! - A directory the store uses (the state directory, `v1`, `v1/agents`,
//!   `v1/trash`, an agent's directory) must be a real directory (`lstat`: a
//!   symbolic link is refused), owned by the effective user, and writable by
//!   nobody else (no group or world write bit). The state directory's parent
//!   must not let another user rename it away: it is owned by us or root, and
//!   when others may write to it, it is sticky (like `/tmp`).
//! - Every file is opened with `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC` and the
//!   handle is `fstat`ed: a link, a FIFO, a socket, a device or a directory is
//!   refused, naming what it is. `O_NONBLOCK` makes opening a FIFO return at
//!   once instead of waiting for a writer.
//!
//! On Windows the same rules hold in Windows' terms: a directory is opened
//! as itself (`FILE_FLAG_OPEN_REPARSE_POINT`: a symbolic link, a junction or
//! any other reparse point is refused), its owner must be this process's
//! token user (or its default owner) and its DACL may give no one else but
//! `SYSTEM` and Administrators a right to add, remove or rename entries or to
//! change its access (`GetSecurityInfo`, judged in [`crate::acl`]); the state
//! directory's parent may be owned by an administrator but must not let
//! anyone else remove or rename entries. Every file is opened as itself too,
//! and refused unless it is a regular file on disk (`GetFileType`).

use std::fmt;
use std::fs::{self, File, FileType, OpenOptions};
use std::io;
use std::path::Path;

use crate::fault::{At, Fault};

/// What a file system entry is, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Link,
    /// A FIFO; on Windows, a named pipe.
    Fifo,
    #[cfg(unix)]
    Socket,
    CharDevice,
    #[cfg(unix)]
    BlockDevice,
    /// A reparse point that is not a link (Windows: a mount point of
    /// another kind, a cloud or deduplicated file).
    #[cfg(windows)]
    ReparsePoint,
    Directory,
    Regular,
    Other,
}

impl Kind {
    pub(crate) fn of(kind: FileType) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                return Kind::Fifo;
            } else if kind.is_socket() {
                return Kind::Socket;
            } else if kind.is_char_device() {
                return Kind::CharDevice;
            } else if kind.is_block_device() {
                return Kind::BlockDevice;
            }
        }
        if kind.is_symlink() {
            Kind::Link
        } else if kind.is_dir() {
            Kind::Directory
        } else if kind.is_file() {
            Kind::Regular
        } else {
            Kind::Other
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            #[cfg(not(windows))]
            Kind::Link => "symbolic link",
            #[cfg(windows)]
            Kind::Link => "symbolic link or junction",
            #[cfg(not(windows))]
            Kind::Fifo => "FIFO",
            #[cfg(windows)]
            Kind::Fifo => "named pipe",
            #[cfg(unix)]
            Kind::Socket => "socket",
            Kind::CharDevice => "character device",
            #[cfg(unix)]
            Kind::BlockDevice => "block device",
            #[cfg(windows)]
            Kind::ReparsePoint => "reparse point",
            Kind::Directory => "directory",
            Kind::Regular => "regular file",
            Kind::Other => "special file",
        })
    }
}

/// Why a directory is not trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DirProblem {
    /// It is not a real directory (a link, a file, ...).
    NotDir(Kind),
    /// Another user owns it.
    #[cfg(unix)]
    Owner { owner: u32, us: u32 },
    /// Others may write to it (the mode's permission bits).
    #[cfg(unix)]
    Writable { mode: u32 },
    /// Its parent lets another user rename it away.
    #[cfg(unix)]
    Parent { owner: u32, mode: u32 },
    /// Its owner or DACL lets another account write to it (Windows).
    #[cfg(windows)]
    Acl(crate::acl::AclProblem),
    /// Its parent's owner or DACL lets another account remove or rename it (Windows).
    #[cfg(windows)]
    ParentAcl(crate::acl::AclProblem),
}

/// What a trusted directory is, for the refusal's fix.
#[cfg(not(windows))]
pub(crate) const TRUSTED_DIR: &str =
    "a directory owned by you, mode 0700, in a parent no other user can write to";
/// What a trusted directory is, for the refusal's fix.
#[cfg(windows)]
pub(crate) const TRUSTED_DIR: &str = "a directory owned by you that no one but you, SYSTEM and \
     Administrators may write to, in a parent no one else may remove entries from, \
     as the default under %LOCALAPPDATA% is";

impl fmt::Display for DirProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirProblem::NotDir(kind) => write!(f, "it is a {kind}, not a directory"),
            #[cfg(windows)]
            DirProblem::Acl(problem) => problem.fmt(f),
            #[cfg(windows)]
            DirProblem::ParentAcl(problem) => write!(
                f,
                "its parent lets another account replace it: the parent: {problem}"
            ),
            #[cfg(unix)]
            DirProblem::Owner { owner, us } => {
                write!(f, "it is owned by uid {owner}, not by this user (uid {us})")
            }
            #[cfg(unix)]
            DirProblem::Writable { mode } => {
                write!(f, "its mode {mode:04o} lets other users write to it")
            }
            #[cfg(unix)]
            DirProblem::Parent { owner, mode } => write!(
                f,
                "its parent (uid {owner}, mode {mode:04o}) lets another user replace it"
            ),
        }
    }
}

/// An open refused because of what the path is: carried inside an
/// [`io::Error`] so that every open goes through one function, and turned
/// into [`Fault::NotRegular`] by [`At::at`].
#[derive(Debug, thiserror::Error)]
#[error("it is a {0}, not a regular file")]
pub(crate) struct NotRegular(pub(crate) Kind);

/// The effective user id (the owner every trusted directory must have).
#[cfg(unix)]
pub(crate) fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

#[cfg(windows)]
pub(crate) use crate::win_guard::{check_dir, check_parent};

/// Checks that `path` is a real directory, ours, writable by nobody else.
#[cfg(not(windows))]
pub(crate) fn check_dir(path: &Path) -> Result<(), Fault> {
    let meta = fs::symlink_metadata(path).at("inspect", path)?;
    let untrusted = |problem| Fault::UntrustedDir {
        path: path.to_owned(),
        problem,
    };
    let kind = Kind::of(meta.file_type());
    if kind != Kind::Directory {
        return Err(untrusted(DirProblem::NotDir(kind)));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let us = euid();
        if meta.uid() != us {
            return Err(untrusted(DirProblem::Owner {
                owner: meta.uid(),
                us,
            }));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(untrusted(DirProblem::Writable {
                mode: meta.mode() & 0o7777,
            }));
        }
    }
    Ok(())
}

/// Checks that `dir`'s parent does not let another user rename `dir` away
/// and put something else in its place: the parent is owned by us or root,
/// and is sticky when others may write to it. The parent's own path may pass
/// through links (`/tmp` is one on macOS); only its final state counts.
#[cfg(not(windows))]
pub(crate) fn check_parent(dir: &Path) -> Result<(), Fault> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let parent = match dir.parent() {
            Some(parent) if parent.as_os_str().is_empty() => Path::new("."),
            Some(parent) => parent,
            None => return Ok(()),
        };
        let meta = fs::metadata(parent).at("inspect", parent)?;
        let owner_ok = meta.uid() == euid() || meta.uid() == 0;
        let others_write = meta.mode() & 0o022 != 0;
        let sticky = meta.mode() & 0o1000 != 0;
        if !owner_ok || (others_write && !sticky) {
            return Err(Fault::UntrustedDir {
                path: dir.to_owned(),
                problem: DirProblem::Parent {
                    owner: meta.uid(),
                    mode: meta.mode() & 0o7777,
                },
            });
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// A builder of owner-only directories (0700 on Unix; on Windows a new
/// directory inherits its parent's access).
pub(crate) fn dir_builder() -> fs::DirBuilder {
    let builder = fs::DirBuilder::new();
    #[cfg(unix)]
    let builder = {
        let mut builder = builder;
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
    };
    builder
}

/// Creates `dir` (its parent must exist) owner-only (0700 on Unix) when it is
/// missing, then checks it with [`check_dir`].
pub(crate) fn ensure_dir(dir: &Path) -> Result<(), Fault> {
    match dir_builder().create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e).at("create", dir),
        _ => {}
    }
    check_dir(dir)
}

/// How a file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    /// Read an existing file.
    Read,
    /// Read and write an existing file.
    ReadWrite,
    /// Read and write, creating it when missing.
    ReadWriteCreate,
    /// Write, creating it when missing.
    WriteCreate,
    /// Create a new file (`O_EXCL`); fails with `AlreadyExists`.
    CreateNew,
    /// Create a new owner-only file (0600 on Unix) to read and write (`O_EXCL`).
    CreatePrivate,
}

/// Opens `path` without following a link and without blocking, and refuses
/// anything that is not a regular file (as an [`io::Error`] carrying
/// [`NotRegular`]). An error on an existing path that is not a regular file
/// (`ELOOP` for a link, `ENXIO` for a FIFO opened to write or a socket,
/// `EEXIST` for a new file) is reported as what the path is.
pub(crate) fn open(path: &Path, how: How) -> io::Result<File> {
    let mut options = OpenOptions::new();
    match how {
        How::Read => options.read(true),
        How::ReadWrite => options.read(true).write(true),
        How::ReadWriteCreate => options.read(true).write(true).create(true).truncate(false),
        How::WriteCreate => options.write(true).create(true).truncate(false),
        How::CreateNew => options.write(true).create_new(true),
        How::CreatePrivate => options.read(true).write(true).create_new(true),
    };
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let flags = OFlags::NOFOLLOW
            .union(OFlags::NONBLOCK)
            .union(OFlags::CLOEXEC);
        options.custom_flags(flags.bits() as i32);
        if how == How::CreatePrivate {
            options.mode(0o600);
        }
    }
    #[cfg(windows)]
    crate::win_guard::as_itself(&mut options);
    let file = match options.open(path) {
        Ok(file) => file,
        // A missing path stays `NotFound` (the `lstat` below fails too).
        Err(e) => {
            return Err(
                match fs::symlink_metadata(path).map(|m| Kind::of(m.file_type())) {
                    Ok(kind) if kind != Kind::Regular => io::Error::other(NotRegular(kind)),
                    _ => e,
                },
            );
        }
    };
    #[cfg(not(windows))]
    let kind = Kind::of(file.metadata()?.file_type());
    #[cfg(windows)]
    let kind = crate::win_guard::kind_of_open(&file)?;
    if kind != Kind::Regular {
        return Err(io::Error::other(NotRegular(kind)));
    }
    Ok(file)
}
