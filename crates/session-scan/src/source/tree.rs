//! Walking the paths given and opening what was found, without leaving them.
//!
//! On Unix a directory given is opened once (`O_DIRECTORY | O_NOFOLLOW`) and
//! held for the scan. The walk lists each directory through its own handle
//! and opens every child relative to it, `O_NOFOLLOW` on every component; a
//! file found is opened again, when its turn to be read comes, by the same
//! walk from the held handle, one component at a time. A directory swapped
//! for a link at any moment, during the walk or after it, makes that open
//! fail (`ELOOP`/`ENOTDIR`): a problem names it, and nothing outside the tree
//! is read. Only the path as given is resolved the usual way (the user typed
//! it), and its last component is not followed either.
//!
//! Elsewhere (Windows) the walk reads each directory by path and skips what
//! `symlink_metadata` calls a link (symbolic links and junctions); a file is
//! opened by its path. That leaves the window between the look and the open
//! that the Unix walk closes.
//!
//! File names are bytes: a name that is not UTF-8 is read like any other and
//! shown lossily (and escaped) in reports.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::WALK_DEPTH_MAX;

/// A file found under a path given, and how to open it again.
#[derive(Debug, Clone)]
pub struct Located {
    path: PathBuf,
    size: u64,
    #[cfg(unix)]
    root: Option<std::sync::Arc<unix::Root>>,
}

impl PartialEq for Located {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl Eq for Located {}

impl Located {
    /// A file named as it is: opened by its path, its last component not
    /// followed (a path on the command line, or in a test).
    pub fn given(path: PathBuf) -> Self {
        let size = std::fs::symlink_metadata(&path).map_or(0, |m| m.len());
        Self {
            path,
            size,
            #[cfg(unix)]
            root: None,
        }
    }

    /// The path, for labels and problems.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its size on disk when it was found (for the progress bar).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Opens it for reading: without following a link anywhere below the
    /// path given, without blocking on a FIFO put in its place
    /// (`O_NONBLOCK`), and only if it is a regular file.
    pub fn open(&self) -> io::Result<File> {
        #[cfg(unix)]
        if let Some(root) = &self.root {
            return unix::open_below(root, &self.path);
        }
        open_path(&self.path)
    }
}

/// Opens `path` as [`Located::open`] does a file given by its path.
pub(crate) fn open_path(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(flags.bits() as i32);
    }
    regular(options.open(path)?)
}

fn regular(file: File) -> io::Result<File> {
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// What the walk tells: files, and what it could not read.
pub(crate) trait Visit {
    /// A place that could not be read, and why.
    fn problem(&mut self, path: &Path, what: String);
    /// A regular file; `given` when it was a path given; `open` opens it now
    /// (for a look at its first line).
    fn file(&mut self, file: Located, given: bool, open: &dyn Fn() -> io::Result<File>);
}

/// Walks `path` (a path given) into `visit`.
pub(crate) fn walk(path: &Path, visit: &mut dyn Visit) {
    #[cfg(unix)]
    unix::walk(path, visit);
    #[cfg(not(unix))]
    portable::walk(path, visit);
}

#[cfg(unix)]
mod unix {
    use std::ffi::{OsStr, OsString};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt as _;
    use std::path::{Component, Path, PathBuf};
    use std::sync::Arc;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use super::{Located, Visit, WALK_DEPTH_MAX, open_path, regular};

    /// A directory given, held open for the scan.
    #[derive(Debug)]
    pub(super) struct Root {
        fd: OwnedFd,
        path: PathBuf,
    }

    const DIR: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);
    /// The words for a directory that could not be listed, or a directory on
    /// the way to a file that could not be opened.
    fn cannot(doing: &str, e: &io::Error) -> String {
        if is_link_error(e) {
            format!("{doing}: it is now a link, or not a directory; links are not followed")
        } else {
            format!("{doing}: {e}")
        }
    }

    /// True for what opening through a link with `O_NOFOLLOW` (or a link's
    /// target that is no directory) fails with.
    fn is_link_error(e: &io::Error) -> bool {
        let code = e.raw_os_error();
        code == Some(rustix::io::Errno::LOOP.raw_os_error())
            || code == Some(rustix::io::Errno::NOTDIR.raw_os_error())
    }

    const FILE: OFlags = OFlags::RDONLY
        .union(OFlags::NOFOLLOW)
        .union(OFlags::NONBLOCK)
        .union(OFlags::CLOEXEC);

    pub(super) fn walk(path: &Path, visit: &mut dyn Visit) {
        let meta = match std::fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(e) => return visit.problem(path, format!("cannot read: {e}")),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            return visit.problem(path, "a symbolic link; links are not followed".into());
        }
        if kind.is_file() {
            let file = Located::given(path.to_owned());
            return visit.file(file, true, &|| open_path(path));
        }
        if !kind.is_dir() {
            return visit.problem(path, "not a regular file or directory".into());
        }
        let fd = match rustix::fs::open(path, DIR, Mode::empty()) {
            Ok(fd) => fd,
            Err(e) => return visit.problem(path, cannot("cannot list", &e.into())),
        };
        let root = Arc::new(Root {
            fd,
            path: path.to_owned(),
        });
        dir(visit, &root, root.fd.as_fd(), path, 0);
    }

    /// Walks the directory open as `fd` (at `path`, `depth` levels below
    /// the path given).
    fn dir(visit: &mut dyn Visit, root: &Arc<Root>, fd: BorrowedFd<'_>, path: &Path, depth: usize) {
        let mut names: Vec<OsString> = match rustix::fs::Dir::read_from(fd) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|e| OsStr::from_bytes(e.file_name().to_bytes()).to_owned())
                .filter(|n| n != "." && n != "..")
                .collect(),
            Err(e) => return visit.problem(path, cannot("cannot list", &e.into())),
        };
        names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        for name in names {
            let child = path.join(&name);
            let stat = match rustix::fs::statat(fd, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => stat,
                Err(e) => {
                    visit.problem(&child, format!("cannot read: {}", io::Error::from(e)));
                    continue;
                }
            };
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::Symlink => {
                    visit.problem(&child, "a symbolic link; links are not followed".into());
                }
                FileType::Directory if depth + 1 >= WALK_DEPTH_MAX => visit.problem(
                    &child,
                    format!("deeper than {WALK_DEPTH_MAX} levels below a given path; not read"),
                ),
                FileType::Directory => {
                    match rustix::fs::openat(fd, name.as_os_str(), DIR, Mode::empty()) {
                        Ok(sub) => dir(visit, root, sub.as_fd(), &child, depth + 1),
                        Err(e) => visit.problem(&child, cannot("cannot list", &e.into())),
                    }
                }
                FileType::RegularFile => {
                    let file = Located {
                        path: child,
                        size: u64::try_from(stat.st_size).unwrap_or(0),
                        root: Some(Arc::clone(root)),
                    };
                    visit.file(file, false, &|| open_at(fd, &name));
                }
                _ => {}
            }
        }
    }

    /// Opens `name` in the directory `fd` as a regular file, not following a link.
    fn open_at(fd: BorrowedFd<'_>, name: &OsStr) -> io::Result<File> {
        let file = rustix::fs::openat(fd, name, FILE, Mode::empty())?;
        regular(File::from(file))
    }

    /// Opens `path`, found below `root`, one component at a time from the
    /// held handle, following no link on the way.
    pub(super) fn open_below(root: &Root, path: &Path) -> io::Result<File> {
        let rest = path
            .strip_prefix(&root.path)
            .map_err(|_| io::Error::other("not below the directory given"))?;
        let mut parts: Vec<&OsStr> = Vec::new();
        for component in rest.components() {
            match component {
                Component::Normal(part) => parts.push(part),
                _ => {
                    return Err(io::Error::other(
                        "not a plain path below the directory given",
                    ));
                }
            }
        }
        let Some((name, dirs)) = parts.split_last() else {
            return Err(io::Error::other("the directory given is not a file"));
        };
        let mut held: Option<OwnedFd> = None;
        for part in dirs {
            let at = held.as_ref().map_or(root.fd.as_fd(), AsFd::as_fd);
            let next = rustix::fs::openat(at, *part, DIR, Mode::empty())
                .map_err(|e| io::Error::other(cannot("a directory on the way", &e.into())))?;
            held = Some(next);
        }
        let at = held.as_ref().map_or(root.fd.as_fd(), AsFd::as_fd);
        open_at(at, name).map_err(|e| {
            if is_link_error(&e) {
                io::Error::other("it is now a link; links are not followed")
            } else {
                e
            }
        })
    }
}

/// The walk by path, for platforms without `openat` (Windows). Compiled in
/// Unix tests too, so it keeps building where it is not used.
#[cfg(any(not(unix), test))]
pub(crate) mod portable {
    use std::fs;
    use std::path::{Path, PathBuf};

    use super::{Located, Visit, WALK_DEPTH_MAX, open_path};

    pub(crate) fn walk(path: &Path, visit: &mut dyn Visit) {
        visit_path(visit, path, 0, true);
    }

    fn visit_path(visit: &mut dyn Visit, path: &Path, depth: usize, given: bool) {
        let meta = match fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(e) => return visit.problem(path, format!("cannot read: {e}")),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            return visit.problem(path, "a symbolic link; links are not followed".into());
        }
        if kind.is_dir() {
            if depth >= WALK_DEPTH_MAX {
                return visit.problem(
                    path,
                    format!("deeper than {WALK_DEPTH_MAX} levels below a given path; not read"),
                );
            }
            let entries = match fs::read_dir(path) {
                Ok(entries) => entries,
                Err(e) => return visit.problem(path, format!("cannot list: {e}")),
            };
            let mut children: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            children.sort_by(|a, b| {
                a.as_os_str()
                    .as_encoded_bytes()
                    .cmp(b.as_os_str().as_encoded_bytes())
            });
            for child in children {
                visit_path(visit, &child, depth + 1, false);
            }
            return;
        }
        if !kind.is_file() {
            if given {
                visit.problem(path, "not a regular file or directory".into());
            }
            return;
        }
        let file = Located {
            path: path.to_owned(),
            size: meta.len(),
            #[cfg(unix)]
            root: None,
        };
        visit.file(file, given, &|| open_path(path));
    }
}

#[cfg(all(test, unix))]
mod tests;
