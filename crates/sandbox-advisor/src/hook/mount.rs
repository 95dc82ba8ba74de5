//! Whether the host's own mount at a path is writable, checked from the
//! hook: outside the client's sandbox, as the client's user.
//!
//! A sandboxed write refused with `EROFS` and a write to a really read-only
//! mount print the same line. The hook can tell them apart: it runs outside
//! the sandbox, so where the host's mount at the path is writable, the
//! refusal was the sandbox's. This module answers that question and no
//! other:
//!
//! - The path must be absolute (a family resolves a relative one first). It
//!   is walked from `/` one component at a time, each opened relative to its
//!   parent with `O_PATH | O_NOFOLLOW`, so no link is followed: a component
//!   that is a link ends the check ([`Unchecked::ThroughLink`]), since the
//!   write inside the sandbox went wherever the link points.
//! - A path that does not exist is judged by its nearest existing ancestor
//!   ([`Judged::Ancestor`]), the directory the write would have created
//!   something in.
//! - The judged file's mount is read with `fstatvfs` (`ST_RDONLY`), and
//!   whether this user could write it with `faccessat2(W_OK, AT_EACCESS)`
//!   (relative to the handles already open). Nothing is written, created or
//!   read.
//! - The whole walk runs on a thread of its own, bounded by a deadline: a
//!   hung mount (an NFS server gone, a FUSE daemon that does not answer)
//!   blocks that thread, not the hook, and the answer is then
//!   [`Unchecked::TimedOut`]. The blocked thread ends with the process (the
//!   kernel's waits for both are killable), and the hook is one process per
//!   event.
//! - At most [`COMPONENTS_MAX`] components are walked.

use std::path::{Component, Path};
use std::sync::mpsc;
use std::time::Duration;

/// How long the hook waits for the answer.
pub const DEADLINE: Duration = Duration::from_millis(400);

/// The most components of a path walked.
pub const COMPONENTS_MAX: usize = 256;

/// The host's mount at the judged file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mount {
    /// Mounted read-write.
    Writable,
    /// Mounted read-only (`ST_RDONLY`).
    ReadOnly,
}

/// Which file the mount was read at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    /// The path itself, which exists.
    Path,
    /// Its nearest existing ancestor; the path does not exist.
    Ancestor,
}

/// What the host says about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MountCheck {
    /// The mount's state.
    pub mount: Mount,
    /// Where it was read.
    pub judged: Judged,
    /// Whether this user could write the judged file (create in it, for an
    /// ancestor), by the kernel's own access check; `false` on a read-only
    /// mount.
    pub user_may_write: bool,
}

/// Why the host's view could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unchecked {
    /// The path is not absolute.
    NotAbsolute,
    /// A component of the path is a link (not followed).
    ThroughLink,
    /// A component could not be opened for another reason than its absence
    /// (no search permission, not a directory), or the mount could not be
    /// read; the errno.
    Unreadable(i32),
    /// The path has more than [`COMPONENTS_MAX`] components, or a `..`.
    Unusual,
    /// The answer did not come within the deadline (a hung mount).
    TimedOut,
    /// The check could not be started (no thread).
    NotStarted,
}

impl Unchecked {
    /// The stable kebab-case code for the host log.
    pub fn code(self) -> &'static str {
        match self {
            Unchecked::NotAbsolute => "path-not-absolute",
            Unchecked::ThroughLink => "path-through-link",
            Unchecked::Unreadable(_) => "path-unreadable",
            Unchecked::Unusual => "path-unusual",
            Unchecked::TimedOut => "mount-check-timed-out",
            Unchecked::NotStarted => "mount-check-not-started",
        }
    }
}

/// The host's mount at `path`, as core's fact.
pub fn fact(path: &Path) -> advisor_core::MountFact {
    use Judged as J;
    use advisor_core::{Judged as CoreJudged, MountFact};
    let judged = |j| match j {
        J::Path => CoreJudged::Path,
        J::Ancestor => CoreJudged::Ancestor,
    };
    match check(path, DEADLINE) {
        Ok(found) => match found.mount {
            Mount::Writable => MountFact::Writable {
                judged: judged(found.judged),
                user_may_write: found.user_may_write,
            },
            Mount::ReadOnly => MountFact::ReadOnly {
                judged: judged(found.judged),
            },
        },
        Err(why) => MountFact::Unknown(why.code()),
    }
}

/// The host's mount at `path`, within `deadline`.
pub fn check(path: &Path, deadline: Duration) -> Result<MountCheck, Unchecked> {
    let path = path.to_path_buf();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("sandbox-advisor-mount".into())
        .spawn(move || {
            let _ = tx.send(walk(&path));
        })
        .map_err(|_| Unchecked::NotStarted)?;
    rx.recv_timeout(deadline)
        .unwrap_or(Err(Unchecked::TimedOut))
}

/// The walk itself, on the checking thread.
fn walk(path: &Path) -> Result<MountCheck, Unchecked> {
    use rustix::fs::{FileType, Mode, OFlags, fstat, openat};
    use rustix::io::Errno;

    if !path.is_absolute() {
        return Err(Unchecked::NotAbsolute);
    }
    let mut names = Vec::new();
    for component in path.components() {
        match component {
            Component::RootDir | Component::CurDir => {}
            Component::Normal(name) => names.push(name),
            Component::ParentDir | Component::Prefix(_) => return Err(Unchecked::Unusual),
        }
        if names.len() > COMPONENTS_MAX {
            return Err(Unchecked::Unusual);
        }
    }
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let unreadable = |e: Errno| Unchecked::Unreadable(e.raw_os_error());
    let mut at =
        rustix::fs::open("/", flags | OFlags::DIRECTORY, Mode::empty()).map_err(unreadable)?;
    // The directory holding `at`, and `at`'s name in it, once past the root.
    let mut parent = None;
    let mut judged = Judged::Path;
    for name in names {
        match openat(&at, name, flags, Mode::empty()) {
            Ok(next) => {
                let kind = FileType::from_raw_mode(fstat(&next).map_err(unreadable)?.st_mode);
                if kind == FileType::Symlink {
                    return Err(Unchecked::ThroughLink);
                }
                parent = Some((std::mem::replace(&mut at, next), name));
            }
            Err(Errno::NOENT) => {
                judged = Judged::Ancestor;
                break;
            }
            Err(e) => return Err(unreadable(e)),
        }
    }
    let stat = rustix::fs::fstatvfs(&at).map_err(unreadable)?;
    let mount = if stat.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY) {
        Mount::ReadOnly
    } else {
        Mount::Writable
    };
    // The kernel's own check, as this user: to create in the ancestor
    // directory, or to write the file itself (named in its parent, not
    // followed: it is no link).
    use rustix::fs::{Access, AtFlags, accessat};
    let user_may_write = match (judged, &parent) {
        (Judged::Path, Some((dir, name))) => accessat(
            dir,
            *name,
            Access::WRITE_OK,
            AtFlags::EACCESS | AtFlags::SYMLINK_NOFOLLOW,
        ),
        _ => accessat(&at, ".", Access::WRITE_OK, AtFlags::EACCESS),
    }
    .is_ok();
    Ok(MountCheck {
        mount,
        judged,
        user_may_write,
    })
}
