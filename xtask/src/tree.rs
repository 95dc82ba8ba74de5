//! Source trees for parallel slots, and the end-of-run check that every
//! touched file is as it was.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

/// Directories copied into a slot's tree (besides every top-level file).
/// `docs` and `scan-fixtures` hold what tests read as data (`docs/hooks/`, the
/// recorded client payloads; the DeepSeek sessions `session-scan` reads).
pub const COPIED_DIRS: [&str; 6] = [
    ".cargo",
    "crates",
    "docs",
    "examples",
    "scan-fixtures",
    "xtask",
];

/// Names never copied, at any depth (`node_modules`: the writer's npm install).
const SKIPPED: [&str; 3] = ["target", ".git", "node_modules"];

/// Brings `tree` up to date with the sources of `root`: every top-level file
/// and `COPIED_DIRS`, without `target/` or `.git/`. Only files whose bytes
/// differ are written, so unchanged files keep their mtimes and the slot's
/// target dir stays warm; files gone from `root` are removed.
///
/// A tree found at another path than the one it was made at (a moved
/// checkout, or a `target/` carried between clones by a build cache) is made
/// again from nothing: cargo judges a unit fresh by its sources' mtimes, which
/// a move keeps, while the tests' binaries hold `CARGO_MANIFEST_DIR` of the
/// old path and would read fixtures that are no longer there.
pub fn sync(root: &Path, tree: &Path) -> Result<()> {
    let stamp = made_at_stamp(tree);
    let here = std::path::absolute(tree)?;
    if fs::symlink_metadata(tree).is_ok()
        && fs::read(&stamp).ok().as_deref() != Some(here.as_os_str().as_encoded_bytes())
    {
        remove(tree).with_context(|| format!("removing {}, made elsewhere", tree.display()))?;
    }
    fs::create_dir_all(tree)?;
    fs::write(&stamp, here.as_os_str().as_encoded_bytes())
        .with_context(|| format!("writing {}", stamp.display()))?;
    let mut wanted = Vec::new();
    for child in fs::read_dir(root).with_context(|| format!("listing {}", root.display()))? {
        let child = child?;
        let name = child.file_name();
        let kind = child.file_type()?;
        let is_dir = kind.is_dir() || (kind.is_symlink() && child.path().is_dir());
        if (is_dir && COPIED_DIRS.iter().any(|d| name == *d)) || (!is_dir && kind.is_file()) {
            wanted.push(name);
        }
    }
    for child in fs::read_dir(tree)? {
        let child = child?;
        if !wanted.contains(&child.file_name()) {
            remove(&child.path())?;
        }
    }
    for name in wanted {
        sync_path(&root.join(&name), &tree.join(&name))?;
    }
    Ok(())
}

/// Where [`sync`] records the path a tree was made at: beside it, since the
/// tree itself holds only what `root` holds.
fn made_at_stamp(tree: &Path) -> PathBuf {
    let mut name = tree.file_name().unwrap_or_default().to_os_string();
    name.push(".made-at");
    tree.with_file_name(name)
}

fn remove(path: &Path) -> Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if meta.is_dir() {
        fs::remove_dir_all(path)?;
    } else {
        fs::remove_file(path)?;
    }
    Ok(())
}

fn sync_path(src: &Path, dst: &Path) -> Result<()> {
    let meta = fs::metadata(src).with_context(|| format!("reading {}", src.display()))?;
    if meta.is_dir() {
        if fs::symlink_metadata(dst).is_ok_and(|m| !m.is_dir()) {
            remove(dst)?;
        }
        fs::create_dir_all(dst)?;
        let mut names = Vec::new();
        for child in fs::read_dir(src)? {
            let name = child?.file_name();
            if !SKIPPED.iter().any(|s| name == *s) {
                names.push(name);
            }
        }
        for child in fs::read_dir(dst)? {
            let child = child?;
            if !names.contains(&child.file_name()) {
                remove(&child.path())?;
            }
        }
        for name in names {
            sync_path(&src.join(&name), &dst.join(&name))?;
        }
    } else {
        if fs::symlink_metadata(dst).is_ok_and(|m| m.is_dir()) {
            remove(dst)?;
        }
        let bytes = fs::read(src)?;
        if fs::read(dst).ok().as_ref() != Some(&bytes) {
            fs::write(dst, &bytes).with_context(|| format!("copying to {}", dst.display()))?;
            fs::set_permissions(dst, meta.permissions())?;
        }
    }
    Ok(())
}

/// The bytes of `files` (relative to `root`), to compare after the run.
pub fn snapshot(root: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    files
        .iter()
        .map(|f| (root.join(f), fs::read(root.join(f)).ok()))
        .collect()
}

/// Files whose bytes are not those of `before`.
pub fn changed_since(before: &BTreeMap<PathBuf, Option<Vec<u8>>>) -> Vec<PathBuf> {
    before
        .iter()
        .filter(|(path, bytes)| fs::read(path).ok() != **bytes)
        .map(|(path, _)| path.clone())
        .collect()
}

/// `git diff --exit-code -- files` in `root`: `Some((clean, diff))`, or
/// `None` when `root` is not a git work tree (or git is missing).
pub fn git_diff(root: &Path, files: &[PathBuf]) -> Option<(bool, String)> {
    if files.is_empty() {
        // `git diff --` without paths would diff the whole tree.
        return Some((true, String::new()));
    }
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["diff", "--no-ext-diff", "--exit-code", "--"])
        .args(files)
        .output()
        .ok()?;
    match output.status.code() {
        Some(0) => Some((true, String::new())),
        Some(1) => Some((false, String::from_utf8_lossy(&output.stdout).into_owned())),
        _ => None,
    }
}

/// insta leftovers (`*.snap.new`, `*.pending-snap`) under the source
/// directories of `root`, relative to it.
pub fn insta_leftovers(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(children) = fs::read_dir(dir) else {
            return;
        };
        for child in children.flatten() {
            let (path, name) = (child.path(), child.file_name());
            let name = name.to_string_lossy();
            if SKIPPED.iter().any(|s| name == *s) {
                continue;
            }
            if child.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &path, found);
            } else if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
                found.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
            }
        }
    }
    let mut found = Vec::new();
    for dir in COPIED_DIRS {
        walk(root, &root.join(dir), &mut found);
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_copies_sources_only_and_keeps_unchanged_files() {
        let dir = tempfile::tempdir().unwrap();
        let (root, tree) = (dir.path().join("root"), dir.path().join("tree"));
        for (path, text) in [
            ("Cargo.toml", "[workspace]"),
            ("crates/a/src/lib.rs", "pub fn a() {}"),
            ("crates/a/src/keep.rs", "pub fn k() {}"),
            ("crates/a/target/junk", "x"),
            ("target/debug/big", "x"),
            ("docs/mutations.md", "x"),
            ("clients/node_modules/x", "x"),
        ] {
            fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            fs::write(root.join(path), text).unwrap();
        }
        sync(&root, &tree).unwrap();
        assert_eq!(
            fs::read_to_string(tree.join("crates/a/src/lib.rs")).unwrap(),
            "pub fn a() {}"
        );
        assert!(tree.join("Cargo.toml").is_file());
        assert!(!tree.join("crates/a/target").exists());
        assert!(!tree.join("target").exists());
        assert!(tree.join("docs/mutations.md").is_file());
        assert!(!tree.join("clients").exists());

        let mtime = || {
            fs::metadata(tree.join("crates/a/src/keep.rs"))
                .unwrap()
                .modified()
                .unwrap()
        };
        let before = mtime();
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(root.join("crates/a/src/lib.rs"), "pub fn b() {}").unwrap();
        fs::remove_file(root.join("Cargo.toml")).unwrap();
        fs::write(tree.join("crates/a/stray.rs"), "x").unwrap();
        fs::write(root.join("Cargo.lock"), "lock").unwrap();
        sync(&root, &tree).unwrap();
        assert_eq!(
            fs::read_to_string(tree.join("crates/a/src/lib.rs")).unwrap(),
            "pub fn b() {}"
        );
        assert!(!tree.join("Cargo.toml").exists());
        assert!(!tree.join("crates/a/stray.rs").exists());
        assert_eq!(fs::read_to_string(tree.join("Cargo.lock")).unwrap(), "lock");
        assert_eq!(mtime(), before, "an unchanged file must not be rewritten");
    }

    #[test]
    fn a_tree_moved_elsewhere_is_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("crates/a/src")).unwrap();
        fs::write(root.join("crates/a/src/lib.rs"), "pub fn a() {}").unwrap();
        let first = dir.path().join("old/tree-1");
        fs::create_dir_all(first.parent().unwrap()).unwrap();
        sync(&root, &first).unwrap();
        let mtime = |tree: &Path| {
            fs::metadata(tree.join("crates/a/src/lib.rs"))
                .unwrap()
                .modified()
                .unwrap()
        };
        let before = mtime(&first);

        // Same path again: kept, the unchanged file untouched.
        std::thread::sleep(std::time::Duration::from_millis(20));
        sync(&root, &first).unwrap();
        assert_eq!(mtime(&first), before);

        // The state directory moves, as a build cache carries it between clones.
        let moved = dir.path().join("new");
        fs::rename(dir.path().join("old"), &moved).unwrap();
        let tree = moved.join("tree-1");
        sync(&root, &tree).unwrap();
        assert!(
            mtime(&tree) > before,
            "a moved tree's files must be new to cargo"
        );
        assert_eq!(
            fs::read_to_string(tree.join("crates/a/src/lib.rs")).unwrap(),
            "pub fn a() {}"
        );
        assert_eq!(
            fs::read(moved.join("tree-1.made-at")).unwrap(),
            std::path::absolute(&tree)
                .unwrap()
                .as_os_str()
                .as_encoded_bytes()
        );
    }

    #[test]
    fn finds_insta_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for path in [
            "crates/a/tests/snapshots/x.snap",
            "crates/a/tests/snapshots/x.snap.new",
            "crates/a/src/.lib.rs.pending-snap",
            "crates/a/target/y.snap.new",
        ] {
            fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            fs::write(root.join(path), "").unwrap();
        }
        assert_eq!(
            insta_leftovers(root),
            [
                PathBuf::from("crates/a/src/.lib.rs.pending-snap"),
                PathBuf::from("crates/a/tests/snapshots/x.snap.new")
            ]
        );
    }

    #[test]
    fn snapshot_detects_changes() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("f"), "1").unwrap();
        let snap = snapshot(dir.path(), &[PathBuf::from("f")]);
        assert!(changed_since(&snap).is_empty());
        fs::write(dir.path().join("f"), "2").unwrap();
        assert_eq!(changed_since(&snap), [dir.path().join("f")]);
    }
}
