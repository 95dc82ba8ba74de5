//! What a hostile neighbour plants (links, FIFOs, sockets, device nodes),
//! and a snapshot of a tree to show that nothing outside the store changed.

use std::fs;
use std::os::unix::fs::{MetadataExt, symlink};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rustix::fs::{CWD, FileType, Mode, makedev, mknodat};

/// Something that is not a regular file, put where the store expects one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plant {
    /// A symbolic link to a file outside the store.
    Link,
    Fifo,
    Socket,
    /// A character device (the same as `/dev/null`); needs root.
    Device,
    Directory,
}

impl Plant {
    pub const ALL: [Plant; 5] = [
        Plant::Link,
        Plant::Fifo,
        Plant::Socket,
        Plant::Device,
        Plant::Directory,
    ];

    /// The word the store's refusal must use for it.
    pub fn word(self) -> &'static str {
        match self {
            Plant::Link => "symbolic link",
            Plant::Fifo => "FIFO",
            Plant::Socket => "socket",
            Plant::Device => "character device",
            Plant::Directory => "directory",
        }
    }

    /// Puts one at `path` (replacing a file there); a link points at
    /// `outside`. What the caller must keep alive (a socket's listener) is
    /// returned; `None` when it cannot be made here (a device, not root).
    pub fn put(self, path: &Path, outside: &Path) -> Option<Option<UnixListener>> {
        let _ = fs::remove_file(path);
        match self {
            Plant::Link => symlink(outside, path).unwrap(),
            Plant::Fifo => mknodat(CWD, path, FileType::Fifo, Mode::from(0o600), 0).unwrap(),
            Plant::Socket => return Some(Some(UnixListener::bind(path).unwrap())),
            Plant::Device if !is_root() => return None,
            Plant::Device => mknodat(
                CWD,
                path,
                FileType::CharacterDevice,
                Mode::from(0o600),
                makedev(1, 3),
            )
            .unwrap(),
            Plant::Directory => fs::create_dir(path).unwrap(),
        }
        Some(None)
    }
}

pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// One entry of a tree, as a snapshot sees it (links are not followed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    pub mode: u32,
    pub uid: u32,
    pub modified: SystemTime,
    pub contents: Option<Vec<u8>>,
    pub link: Option<PathBuf>,
}

/// Every entry under `root` (and `root` itself), sorted, links unfollowed.
pub fn snapshot(root: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    walk(root, &mut out);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn walk(path: &Path, out: &mut Vec<Entry>) {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return;
    };
    let kind = meta.file_type();
    out.push(Entry {
        path: path.to_owned(),
        mode: meta.mode(),
        uid: meta.uid(),
        modified: meta.modified().unwrap(),
        contents: kind.is_file().then(|| fs::read(path).unwrap()),
        link: kind.is_symlink().then(|| fs::read_link(path).unwrap()),
    });
    if kind.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            walk(&entry.unwrap().path(), out);
        }
    }
}

/// A tree a victim would miss: a file, and directories a week and more old
/// (what a collection by age would remove).
pub fn precious(root: &Path) {
    for dir in ["thesis", "thesis/chapter", "photos"] {
        fs::create_dir_all(root.join(dir)).unwrap();
    }
    fs::write(root.join("thesis/chapter/one.tex"), "precious").unwrap();
    fs::write(root.join("notes.txt"), "precious").unwrap();
    let old = SystemTime::now() - std::time::Duration::from_secs(30 * 24 * 3600);
    for dir in ["thesis/chapter", "thesis", "photos"] {
        let f = fs::File::open(root.join(dir)).unwrap();
        f.set_modified(old).unwrap();
    }
}
