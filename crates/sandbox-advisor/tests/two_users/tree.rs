//! A snapshot of a tree (names, types, owners, modes, mtimes, contents,
//! link targets; links are not followed), and a tree a victim would miss.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// One entry of a tree as a snapshot sees it.
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

/// The victim's home: `projects/thesis` and `Documents/*` a month old (what
/// a collection by age, or an emptied trash, would remove), and files.
pub fn precious(home: &Path) {
    for dir in ["projects/thesis", "Documents/taxes", "Documents/letters"] {
        fs::create_dir_all(home.join(dir)).unwrap();
    }
    fs::write(home.join("projects/thesis/main.tex"), "precious").unwrap();
    fs::write(home.join("Documents/taxes/2025.pdf"), "precious").unwrap();
    let old = SystemTime::now() - Duration::from_secs(30 * 24 * 3600);
    for dir in ["projects/thesis", "Documents/taxes", "Documents/letters"] {
        fs::File::open(home.join(dir))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
}
