//! After the run: is every touched file as it was before it?

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::tree;

/// `None` when every touched file (in the real tree and every slot tree) has
/// its pre-run bytes, `git diff` of them is what it was before the run, and
/// insta left no `.snap.new`; else what differs.
pub(super) fn check_tree(
    root: &Path,
    touched: &[PathBuf],
    snapshots: &[BTreeMap<PathBuf, Option<Vec<u8>>>],
    git_before: Option<(bool, String)>,
    leftovers_before: &[PathBuf],
) -> Option<String> {
    let mut problems = Vec::new();
    for snapshot in snapshots {
        for path in tree::changed_since(snapshot) {
            problems.push(format!(
                "{} differs from its bytes before the run",
                path.display()
            ));
        }
    }
    let shown: Vec<String> = touched.iter().map(|f| f.display().to_string()).collect();
    match (git_before, tree::git_diff(root, touched)) {
        _ if touched.is_empty() => {}
        (Some(_), Some((true, _))) => eprintln!(
            "xtask inject: git diff --exit-code -- {}: clean",
            shown.join(" ")
        ),
        (Some((_, before)), Some((false, after))) if before == after => eprintln!(
            "xtask inject: git diff -- {}: these files had uncommitted edits before the run; unchanged by it",
            shown.join(" ")
        ),
        (Some(_), Some((false, after))) => problems.push(format!("git diff shows:\n{after}")),
        _ => eprintln!(
            "xtask inject: {} is not a git work tree; compared bytes only",
            root.display()
        ),
    }
    let new: Vec<String> = tree::insta_leftovers(root)
        .into_iter()
        .filter(|f| !leftovers_before.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    if !new.is_empty() {
        problems.push(format!("insta wrote into the tree: {}", new.join(", ")));
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}
