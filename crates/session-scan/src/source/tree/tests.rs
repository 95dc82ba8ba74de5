//! The walks by handle and by path agree, and follow no link.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;

use super::*;

/// What a walk told, in order.
#[derive(Default, Debug, PartialEq)]
struct Seen(Vec<String>);

impl Visit for Seen {
    fn problem(&mut self, path: &Path, what: String) {
        self.0.push(format!("problem {} {what}", path.display()));
    }
    fn file(&mut self, file: Located, given: bool, open: &dyn Fn() -> io::Result<File>) {
        let opened = open().map(|_| "opens").unwrap_or("does not open");
        self.0.push(format!(
            "file {} given={given} {opened}",
            file.path().display()
        ));
    }
}

#[test]
fn both_walks_see_the_same_files_names_of_any_bytes_and_no_links() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path().join("tree");
    let outside = dir.path().join("outside.jsonl");
    std::fs::write(&outside, b"{}\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(root.join("a/b")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(root.join("a/b/s.jsonl"), b"{}\n").unwrap_or_else(|e| panic!("{e}"));
    let odd = root.join(OsStr::from_bytes(b"a/\xff\xfe.jsonl"));
    std::fs::write(&odd, b"{}\n").unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&outside, root.join("a/l.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(root.join("a"), root.join("linked"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut by_handle, mut by_path) = (Seen::default(), Seen::default());
    unix::walk(&root, &mut by_handle);
    portable::walk(&root, &mut by_path);
    assert_eq!(by_handle, by_path);
    let shown = format!("{:?}", by_handle.0);
    assert!(shown.contains("a/b/s.jsonl given=false opens"), "{shown}");
    assert!(
        shown.contains("a/\u{fffd}\u{fffd}.jsonl given=false opens"),
        "{shown}"
    );
    assert!(shown.contains("l.jsonl a symbolic link"), "{shown}");
    assert!(shown.contains("linked a symbolic link"), "{shown}");
    assert_eq!(by_handle.0.len(), 4, "{shown}");
}
