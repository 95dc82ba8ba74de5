//! The Unix side of `file`: every step relative to a directory handle.

use std::fs::{File, Metadata};
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Gid, Mode, OFlags, Uid};
use rustix::io::Errno;

use super::{io, link_refused, refused, temp_name, too_long};
use crate::hook::install::client::Place;
use crate::hook::install::{InstallError, SETTINGS_MAX_BYTES};

/// How many random names are tried for the new file before giving up.
const TEMP_TRIES: usize = 8;

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);
const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

pub(super) struct Opened {
    place: Place,
    /// The deepest directory on the way that exists.
    dir: OwnedFd,
    /// The directories below it still to create.
    missing: Vec<&'static str>,
    /// The file, when it exists.
    file: Option<Metadata>,
}

/// What the entry `name` in `dir` is, for a message.
fn kind(dir: &OwnedFd, name: &str) -> Option<FileType> {
    rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
        .ok()
        .map(|st| FileType::from_raw_mode(st.st_mode))
}

fn kind_name(kind: Option<FileType>) -> &'static str {
    match kind {
        Some(FileType::RegularFile) => "a regular file",
        Some(FileType::Directory) => "a directory",
        Some(FileType::Symlink) => "a symbolic link",
        Some(FileType::Fifo) => "a FIFO",
        Some(FileType::Socket) => "a socket",
        Some(FileType::CharacterDevice) => "a character device",
        Some(FileType::BlockDevice) => "a block device",
        _ => "a special file",
    }
}

fn target(dir: &OwnedFd, name: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let raw = rustix::fs::readlinkat(dir, name, Vec::new()).ok()?;
    Some(PathBuf::from(std::ffi::OsString::from_vec(
        raw.into_bytes(),
    )))
}

/// The refusal for `name` in `dir` (at `path`), which is not what it must be.
fn wrong(dir: &OwnedFd, name: &str, path: &Path, place: &Place, must: &str) -> InstallError {
    match kind(dir, name) {
        Some(FileType::Symlink) => link_refused(path, target(dir, name), &place.root),
        other => refused(path, format!("it is {}, not {must}", kind_name(other))),
    }
}

pub(super) fn open(place: &Place) -> Result<(Opened, Option<Vec<u8>>), InstallError> {
    let root = rustix::fs::open(
        &place.root,
        DIR_FLAGS.difference(OFlags::NOFOLLOW),
        Mode::empty(),
    )
    .map_err(|e| io(&place.root, e.into()))?;
    let mut opened = Opened {
        place: place.clone(),
        dir: root,
        missing: Vec::new(),
        file: None,
    };
    let mut path = place.root.clone();
    for name in &place.dirs {
        path.push(name);
        if !opened.missing.is_empty() {
            opened.missing.push(name);
            continue;
        }
        match rustix::fs::openat(&opened.dir, *name, DIR_FLAGS, Mode::empty()) {
            Ok(dir) => opened.dir = dir,
            Err(Errno::NOENT) => opened.missing.push(name),
            Err(Errno::LOOP | Errno::NOTDIR) => {
                return Err(wrong(&opened.dir, name, &path, place, "a directory"));
            }
            Err(e) => return Err(io(&path, e.into())),
        }
    }
    if !opened.missing.is_empty() {
        return Ok((opened, None));
    }
    let path = place.path();
    let fd = match rustix::fs::openat(&opened.dir, place.file, FILE_FLAGS, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok((opened, None)),
        Err(Errno::LOOP | Errno::NXIO) => {
            return Err(wrong(
                &opened.dir,
                place.file,
                &path,
                place,
                "a regular file",
            ));
        }
        Err(e) => return Err(io(&path, e.into())),
    };
    let file = File::from(fd);
    let meta = file.metadata().map_err(|e| io(&path, e))?;
    if !meta.is_file() {
        return Err(wrong(
            &opened.dir,
            place.file,
            &path,
            place,
            "a regular file",
        ));
    }
    if meta.nlink() > 1 {
        return Err(refused(
            &path,
            format!(
                "it has {} names (hard links); install replaces a file by renaming a new one over \
                 it, which would leave the other names with the old text, so it edits only a file \
                 with one name",
                meta.nlink()
            ),
        ));
    }
    if meta.len() > SETTINGS_MAX_BYTES {
        return Err(too_long(&path));
    }
    let mut bytes = Vec::new();
    file.take(SETTINGS_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(&path, e))?;
    if bytes.len() as u64 > SETTINGS_MAX_BYTES {
        return Err(too_long(&path));
    }
    opened.file = Some(meta);
    Ok((opened, Some(bytes)))
}

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Gives `fd` the owner of `like` when that differs; the error when it cannot.
fn own_like(fd: impl AsFd, now: &Metadata, uid: u32, gid: u32) -> rustix::io::Result<()> {
    let new_uid = (now.uid() != uid).then(|| Uid::from_raw(uid));
    let new_gid = (now.gid() != gid).then(|| Gid::from_raw(gid));
    if new_uid.is_none() && new_gid.is_none() {
        return Ok(());
    }
    rustix::fs::fchown(fd, new_uid, new_gid)
}

/// Removes the new file unless the rename consumed it.
struct Temp<'a> {
    dir: &'a OwnedFd,
    name: String,
    armed: bool,
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = rustix::fs::unlinkat(self.dir, self.name.as_str(), AtFlags::empty());
        }
    }
}

impl Opened {
    pub(super) fn replace(mut self, path: &Path, text: &str) -> Result<(), InstallError> {
        let mut dir_path = self.place.root.clone();
        dir_path.extend(&self.place.dirs[..self.place.dirs.len() - self.missing.len()]);
        for name in std::mem::take(&mut self.missing) {
            dir_path.push(name);
            match rustix::fs::mkdirat(&self.dir, name, Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(e) => return Err(io(&dir_path, e.into())),
            }
            let dir = rustix::fs::openat(&self.dir, name, DIR_FLAGS, Mode::empty())
                .map_err(|_| wrong(&self.dir, name, &dir_path, &self.place, "a directory"))?;
            give_new_to_parent_owner(&self.dir, &dir);
            self.dir = dir;
        }
        let dir = &self.dir;
        let mode = if self.file.is_some() { 0o600 } else { 0o666 };
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut tries = 0;
        let (fd, name) = loop {
            let name = temp_name(self.place.file);
            match rustix::fs::openat(dir, name.as_str(), flags, Mode::from_raw_mode(mode)) {
                Ok(fd) => break (fd, name),
                Err(Errno::EXIST) if tries + 1 < TEMP_TRIES => tries += 1,
                Err(e) => return Err(io(&dir_path.join(&name), e.into())),
            }
        };
        let mut temp = Temp {
            dir,
            name,
            armed: true,
        };
        let mut file = File::from(fd);
        let now = file.metadata().map_err(|e| io(path, e))?;
        match &self.file {
            Some(old) => {
                own_like(&file, &now, old.uid(), old.gid()).map_err(|e| {
                    refused(
                        path,
                        format!(
                            "it belongs to uid {} (gid {}), and this user (uid {}) cannot give the \
                             new file that owner ({e}), so replacing it would change who owns it; \
                             run the install as its owner",
                            old.uid(),
                            old.gid(),
                            euid()
                        ),
                    )
                })?;
                let perms = std::fs::Permissions::from_mode(old.mode() & 0o7777);
                file.set_permissions(perms).map_err(|e| io(path, e))?;
            }
            None => give_new_to_parent_owner(dir, &file),
        }
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| io(path, e))?;
        drop(file);
        // The file read must still be the one there (or still none).
        let there = rustix::fs::openat(dir, self.place.file, FILE_FLAGS, Mode::empty());
        let same = match (&self.file, there) {
            (None, Err(Errno::NOENT)) => true,
            (Some(old), Ok(fd)) => File::from(fd)
                .metadata()
                .is_ok_and(|m| (m.dev(), m.ino()) == (old.dev(), old.ino())),
            _ => false,
        };
        if !same {
            return Err(refused(
                path,
                "it changed while install ran (another program replaced, created or removed it)"
                    .into(),
            ));
        }
        rustix::fs::renameat(dir, temp.name.as_str(), dir, self.place.file)
            .map_err(|e| io(path, e.into()))?;
        temp.armed = false;
        let _ = rustix::fs::fsync(dir);
        Ok(())
    }
}

/// Root creating a file or directory in a directory another user owns gives
/// it that user and group, as if they had made it; anyone else keeps it.
fn give_new_to_parent_owner(parent: &OwnedFd, new: impl AsFd) {
    if euid() != 0 {
        return;
    }
    if let Ok(st) = rustix::fs::fstat(parent) {
        let (uid, gid) = (st.st_uid, st.st_gid);
        if uid != 0 {
            let _ = rustix::fs::fchown(new, Some(Uid::from_raw(uid)), Some(Gid::from_raw(gid)));
        }
    }
}
