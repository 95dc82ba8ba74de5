//! Reading a small file without following a link: opened component by
//! component from `/` with `O_NOFOLLOW` at each step, a regular file, of the
//! right owner, bounded in bytes before it is read.

use std::path::Path;

/// Whose file a read accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// The kernel's (`/proc`): any owner (it shows as nobody inside a user
    /// namespace that does not map root); nothing can be planted there.
    Kernel,
    /// This user's or root's, and writable by no one else.
    ThisUser,
}

/// Why a read gave up.
#[derive(Debug)]
pub(super) struct Unread;

/// The file at the absolute `path`, at most `max` bytes: `Ok(None)` when it
/// does not exist; an error when a component is a link or not a directory,
/// the file is not a regular file, has the wrong owner or mode, or is larger.
///
/// Off Unix nothing is read (`Err`): the no-follow walk and the owner check
/// are written with Unix's calls, and a fact the advisor cannot read safely
/// is a fact it does not have.
#[cfg(not(unix))]
pub(super) fn read_no_follow(
    _path: &Path,
    _max: u64,
    _owner: Owner,
) -> Result<Option<Vec<u8>>, Unread> {
    Err(Unread)
}

/// The Unix walk (see the non-Unix twin above for the contract).
#[cfg(unix)]
pub(super) fn read_no_follow(
    path: &Path,
    max: u64,
    owner: Owner,
) -> Result<Option<Vec<u8>>, Unread> {
    use rustix::fs::{FileType, Mode, OFlags, fstat, openat};
    use rustix::io::Errno;
    use std::io::Read;
    use std::path::Component;

    if !path.is_absolute() {
        return Err(Unread);
    }
    let mut names = Vec::new();
    for component in path.components() {
        match component {
            Component::RootDir | Component::CurDir => {}
            Component::Normal(name) => names.push(name),
            Component::ParentDir | Component::Prefix(_) => return Err(Unread),
        }
    }
    let Some((file, dirs)) = names.split_last() else {
        return Err(Unread);
    };
    let absent = |e: Errno| {
        if e == Errno::NOENT {
            Ok(None)
        } else {
            Err(Unread)
        }
    };
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut dir = match rustix::fs::open("/", dir_flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(e) => return absent(e),
    };
    for name in dirs {
        dir = match openat(&dir, *name, dir_flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(e) => return absent(e),
        };
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match openat(&dir, *file, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(e) => return absent(e),
    };
    let stat = fstat(&fd).map_err(|_| Unread)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(Unread);
    }
    if owner == Owner::ThisUser {
        let me = rustix::process::geteuid().as_raw();
        let mine = stat.st_uid == me || stat.st_uid == 0;
        if !mine || stat.st_mode & 0o022 != 0 {
            return Err(Unread);
        }
    }
    if u64::try_from(stat.st_size).map_or(true, |size| size > max) {
        return Err(Unread);
    }
    let mut bytes = Vec::new();
    std::fs::File::from(fd)
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| Unread)?;
    if bytes.len() as u64 > max {
        return Err(Unread);
    }
    Ok(Some(bytes))
}
