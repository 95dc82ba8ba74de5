//! The tree a scan was given (issue 36, items 10 and 12): a directory of it
//! swapped for a link, after the walk or while it runs, is never followed out
//! of it; a file name of any bytes is found, read, and shown lossily and
//! escaped. Every case goes through [`scan`] or [`read_after_swap`].

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use session_scan::model::{Problem, Record, SessionHeader, Sink};
use session_scan::report::Report;
use session_scan::source::{self, Input};
use session_scan::{Assume, Limits, Options};

const INSIDE: &str = "e314ff14-70ee-4346-8790-1149f6b61a22";
const OUTSIDE: &str = "0u7s1de0-0000-0000-0000-000000000000";

/// A real Claude Code transcript (three failing calls) under session `id`.
fn transcript(id: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/transcripts/claude-code/sandbox-no-userns.jsonl");
    fs::read_to_string(path)
        .unwrap()
        .replace(INSIDE, id)
        .into_bytes()
}

/// `root/<at>/s.jsonl` holds the inside session, `outside/<at>/s.jsonl` the
/// outside one.
fn trees(base: &Path, at: &str) -> (PathBuf, PathBuf) {
    let (root, outside) = (base.join("root"), base.join("outside"));
    for (tree, id) in [(&root, INSIDE), (&outside, OUTSIDE)] {
        fs::create_dir_all(tree.join(at)).unwrap();
        fs::write(tree.join(at).join("s.jsonl"), transcript(id)).unwrap();
    }
    (root, outside)
}

/// Puts a link to `outside/<dir>` in the place of `root/<dir>` (the real one
/// moved aside), or puts the real one back.
fn swap(root: &Path, outside: &Path, dir: &str, to_link: bool) {
    let (place, aside) = (root.join(dir), root.join(format!("{dir}.real")));
    if to_link {
        let _ = fs::rename(&place, &aside);
        let _ = std::os::unix::fs::symlink(outside.join(dir), &place);
    } else {
        let _ = fs::remove_file(&place);
        let _ = fs::rename(&aside, &place);
    }
}

fn scan(paths: &[PathBuf]) -> Report {
    session_scan::scan(
        paths,
        Options {
            assume: Assume::default(),
            jobs: 1,
            progress: false,
            limits: Limits::default(),
        },
    )
    .unwrap()
}

/// The ids of the sessions a sink heard begin, and its problems.
#[derive(Default)]
struct Heard {
    ids: Vec<String>,
    problems: Vec<String>,
}

impl Sink for Heard {
    fn begin(&mut self, header: SessionHeader) {
        self.ids.push(header.id);
    }
    fn record(&mut self, _: Record) {}
    fn end(&mut self) {}
    fn problem(&mut self, problem: Problem) {
        self.problems.push(problem.what);
    }
}

/// Walks `root`, then swaps `swapped` (a directory on the way to the one
/// session) for a link out of the tree, then reads what the walk found.
fn read_after_swap(at: &str, swapped: &str) -> Heard {
    let dir = tempfile::tempdir().unwrap();
    let (root, outside) = trees(dir.path(), at);
    let (inputs, problems) = source::discover(std::slice::from_ref(&root), Limits::default());
    assert!(problems.is_empty(), "{problems:?}");
    assert!(
        matches!(inputs.as_slice(), [Input::ClaudeCode(_)]),
        "{inputs:?}"
    );
    swap(&root, &outside, swapped, true);
    let mut heard = Heard::default();
    source::read(&inputs[0], &mut heard, Limits::default());
    heard
}

#[test]
fn a_directory_swapped_for_a_link_after_the_walk_is_not_followed() {
    for (at, swapped) in [("p", "p"), ("a/b/c", "a"), ("a/b/c", "a/b/c")] {
        let heard = read_after_swap(at, swapped);
        assert!(
            heard.ids.is_empty(),
            "{at}, {swapped} swapped: read {:?}",
            heard.ids
        );
        assert_eq!(heard.problems.len(), 1, "{:?}", heard.problems);
        assert!(
            heard.problems[0].starts_with("cannot open: a directory on the way"),
            "{:?}",
            heard.problems
        );
    }
}

#[test]
fn a_scan_racing_a_swap_never_leaves_the_tree() {
    const SCANS: usize = 150;
    let dir = tempfile::tempdir().unwrap();
    let (root, outside) = trees(dir.path(), "p/q");
    let done = AtomicBool::new(false);
    let (mut inside, mut outside_read) = (0, Vec::new());
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut to_link = true;
            while !done.load(Ordering::Relaxed) {
                swap(&root, &outside, "p", to_link);
                to_link = !to_link;
                std::thread::yield_now();
            }
            swap(&root, &outside, "p", false);
        });
        for n in 0..SCANS {
            let report = scan(std::slice::from_ref(&root));
            let ids: Vec<&str> = report.sessions.iter().map(|s| s.id.as_str()).collect();
            if ids.contains(&OUTSIDE) {
                outside_read.push(n);
            }
            inside += usize::from(ids.contains(&INSIDE));
        }
        done.store(true, Ordering::Relaxed);
    });
    assert!(
        outside_read.is_empty(),
        "{} of {SCANS} scans read outside the tree",
        outside_read.len()
    );
    // The race was run: some scans found the real directory in place.
    assert!(inside > 0, "no scan of {SCANS} read the tree at all");
}

#[test]
fn names_of_any_bytes_are_read_and_shown_lossily_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let (odd, red) = (
        dir.path().join(OsStr::from_bytes(b"\xff\xfe-s.jsonl")),
        dir.path().join(OsStr::from_bytes(b"\x1b[31mred.jsonl")),
    );
    for (path, id) in [(&odd, INSIDE), (&red, OUTSIDE)] {
        let mut text = transcript(id);
        // A broken last line: a problem names the file.
        text.extend_from_slice(b"{broken\n");
        fs::write(path, text).unwrap();
    }
    for paths in [vec![dir.path().to_owned()], vec![odd.clone(), red.clone()]] {
        let report = scan(&paths);
        assert_eq!(report.input.sessions, 2, "{:?}", report.input.problems);
        let named: Vec<String> = report
            .input
            .problems
            .iter()
            .map(|p| p.path.to_string_lossy().into_owned())
            .collect();
        assert_eq!(named.len(), 2, "{named:?}");
        // JSON holds the names lossily.
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.contains("\u{fffd}\u{fffd}-s.jsonl"), "{json}");
        // The table escapes the control character; the page escapes it too.
        let table = session_scan::report::table::render(&report);
        assert!(table.contains("\\u{1b}[31mred.jsonl"), "{table}");
        assert!(!table.contains('\u{1b}'), "a raw escape reached the table");
        let page = session_scan::report::html::render(&report);
        assert!(!page.contains('\u{1b}'), "a raw escape reached the page");
    }
}
