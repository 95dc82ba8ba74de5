//! `cargo xtask inject` on a scratch workspace whose `target/debug` the slot
//! cannot start from as it is (built with another profile, a library gone,
//! a library that no longer loads): inject says so in one line, builds what
//! it needs, and the arm still comes back CAUGHT.
//!
//! The scratch workspace is one crate, `a`, with one test and one arm, and a
//! dependency-free path crate `leaf` outside the workspace (to cargo, a
//! dependency like a registry crate: built once, never in the tree). Each
//! test builds it in its own temporary directory in a few seconds.
#![allow(clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The slots' profile, and the ordinary one (`cargo test` with debuginfo).
const SLOTS: &str = "0";
const ORDINARY: &str = "2";

struct Scratch {
    _dir: tempfile::TempDir,
    /// The workspace root.
    root: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let leaf = dir.path().join("leaf");
        let root = dir.path().join("ws");
        let files = [
            (
                leaf.join("Cargo.toml"),
                "[package]\nname = \"leaf\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_owned(),
            ),
            (
                leaf.join("src/lib.rs"),
                "pub fn two() -> u32 {\n    2\n}\n".to_owned(),
            ),
            (
                root.join("Cargo.toml"),
                "[workspace]\nmembers = [\"crates/a\"]\nresolver = \"2\"\n".to_owned(),
            ),
            (
                root.join("crates/a/Cargo.toml"),
                format!(
                    "[package]\nname = \"a\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                     [dependencies]\nleaf = {{ path = {:?} }}\n",
                    leaf.display().to_string()
                ),
            ),
            (
                root.join("crates/a/src/lib.rs"),
                "pub fn double(x: u32) -> u32 {\n    x * leaf::two()\n}\n\n\
                 #[cfg(test)]\nmod tests {\n    #[test]\n    fn doubles() {\n        \
                 assert_eq!(super::double(3), 6);\n    }\n}\n"
                    .to_owned(),
            ),
            (
                root.join("crates/a/mutations.toml"),
                "[[mutation]]\nid = \"a-double-adds\"\nfile = \"src/lib.rs\"\n\
                 find = '''x * leaf::two()'''\nreplace = '''x + leaf::two()'''\n\
                 tests = [\"tests::doubles\"]\ndescription = \"doubling adds\"\n"
                    .to_owned(),
            ),
        ];
        for (path, text) in files {
            fs::create_dir_all(path.parent().expect("parent")).expect("dir");
            fs::write(path, text).expect("write");
        }
        Self { _dir: dir, root }
    }

    fn target(&self) -> PathBuf {
        self.root.join("target")
    }

    /// `cargo test --no-run` in the workspace with `debug` as the dev
    /// profile's debuginfo: the build a developer or CI leaves in `target/`.
    fn build(&self, debug: &str) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args(["test", "--no-run", "--offline"])
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", self.target())
            .env("CARGO_PROFILE_DEV_DEBUG", debug)
            .output()
            .expect("cargo runs");
        assert!(output.status.success(), "{}", text(&output));
    }

    /// `cargo xtask inject --jobs 1 <more>` on the workspace: its stderr,
    /// after asserting that it succeeded and that the arm came back CAUGHT.
    fn inject(&self, more: &[&str]) -> String {
        let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["inject", "--jobs", "1"])
            .args(more)
            .arg("--root")
            .arg(&self.root)
            .env("CARGO_TARGET_DIR", self.target())
            .output()
            .expect("xtask runs");
        let stderr = text(&output);
        assert!(output.status.success(), "{stderr}");
        let report = fs::read_to_string(self.target().join("inject/report.json")).expect("report");
        let report: serde_json::Value = serde_json::from_str(&report).expect("json");
        assert_eq!(report["entries"][0]["status"], "CAUGHT", "{stderr}");
        assert_eq!(report["totals"]["caught"], 1, "{stderr}");
        stderr
    }

    /// The libraries of `name` in the slot's or the build's `deps/`.
    fn libraries(&self, debug_dir: &Path, name: &str) -> Vec<PathBuf> {
        let prefix = format!("lib{name}-");
        let mut found: Vec<PathBuf> = fs::read_dir(debug_dir.join("deps"))
            .expect("deps")
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
            })
            .collect();
        found.sort();
        found
    }
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The lines of `stderr` holding every one of `words`.
fn lines_with<'a>(stderr: &'a str, words: &[&str]) -> Vec<&'a str> {
    stderr
        .lines()
        .filter(|l| words.iter().all(|w| l.contains(w)))
        .collect()
}

const SEED_COMMAND: &str = "`CARGO_PROFILE_DEV_DEBUG=0 cargo test --workspace --no-run`";

#[test]
fn a_target_built_with_another_profile_is_not_used() {
    let scratch = Scratch::new();
    scratch.build(ORDINARY);
    let stderr = scratch.inject(&[]);
    let said = lines_with(
        &stderr,
        &["is not used", "built another way", "`leaf`", SEED_COMMAND],
    );
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(!stderr.contains("starts from"), "{stderr}");
}

#[test]
fn a_target_built_like_the_slots_is_used() {
    let scratch = Scratch::new();
    scratch.build(SLOTS);
    let stderr = scratch.inject(&[]);
    assert_eq!(
        lines_with(&stderr, &["slot 0 starts from"]).len(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("is not used"), "{stderr}");
    // leaf came from the seed: the same file, not a new build.
    let built = scratch.libraries(&scratch.target().join("debug"), "leaf");
    let slot = scratch.libraries(&scratch.target().join("inject/slot-0/debug"), "leaf");
    let names = |v: &[PathBuf]| {
        v.iter()
            .map(|p| p.file_name().map(|n| n.to_owned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&slot), names(&built));
}

#[test]
fn a_fingerprint_whose_library_is_gone_is_not_trusted() {
    let scratch = Scratch::new();
    scratch.build(SLOTS);
    for library in scratch.libraries(&scratch.target().join("debug"), "leaf") {
        fs::remove_file(library).expect("remove");
    }
    let stderr = scratch.inject(&[]);
    let said = lines_with(
        &stderr,
        &["is not used", "left out", "`leaf-", SEED_COMMAND],
    );
    assert_eq!(said.len(), 1, "{stderr}");
}

#[test]
fn a_slot_whose_library_no_longer_loads_is_rebuilt_once() {
    let scratch = Scratch::new();
    scratch.build(SLOTS);
    scratch.inject(&[]);
    // The slot's leaf, overwritten behind cargo's back (times kept, so its
    // fingerprint still says fresh): every build of `a` now fails to load it.
    let slot = scratch.target().join("inject/slot-0/debug");
    let libraries = scratch.libraries(&slot, "leaf");
    assert!(!libraries.is_empty());
    for library in libraries {
        let modified = fs::metadata(&library)
            .and_then(|m| m.modified())
            .expect("mtime");
        fs::write(&library, "not a library").expect("write");
        let file = fs::File::options()
            .write(true)
            .open(&library)
            .expect("open");
        file.set_modified(modified).expect("set mtime");
    }
    // Without the baseline, the arm's own build meets it first.
    let stderr = scratch.inject(&["--no-baseline", "--fresh"]);
    let said = lines_with(
        &stderr,
        &["slot 0, `a-double-adds`", "a broken seed", "`leaf`"],
    );
    assert_eq!(said.len(), 1, "{stderr}");
}

/// A second run on the same sources does not run the arm again; a change to
/// the crate it mutates, or `--fresh`, does.
#[test]
fn an_arm_caught_on_the_same_sources_is_not_run_again() {
    let scratch = Scratch::new();
    scratch.build(SLOTS);
    let first = scratch.inject(&[]);
    assert!(!first.contains("caught before"), "{first}");
    let second = scratch.inject(&[]);
    assert_eq!(
        lines_with(&second, &["1 arm(s) were caught before", "--fresh"]).len(),
        1,
        "{second}"
    );
    assert!(!second.contains("[1/"), "the arm ran again: {second}");
    let fresh = scratch.inject(&["--fresh"]);
    assert!(fresh.contains("[1/1] a-double-adds CAUGHT"), "{fresh}");
    let lib = scratch.root.join("crates/a/src/lib.rs");
    let text = fs::read_to_string(&lib).expect("read");
    fs::write(&lib, format!("{text}\n// edited\n")).expect("write");
    let edited = scratch.inject(&[]);
    assert!(edited.contains("[1/1] a-double-adds CAUGHT"), "{edited}");
}

/// A named test that fails once unmutated and passes when run again is said
/// to be flaky by name, and its arm still runs and comes back CAUGHT.
#[test]
fn a_test_that_fails_once_in_the_baseline_is_run_again() {
    let scratch = Scratch::new();
    let lib = scratch.root.join("crates/a/src/lib.rs");
    let text = fs::read_to_string(&lib).expect("read");
    let flaky = text.replace(
        "        assert_eq!(super::double(3), 6);",
        "        let marker = concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../../ran-once\");\n        \
         if std::fs::metadata(marker).is_err() {\n            \
         std::fs::write(marker, \"\").unwrap();\n            panic!(\"first run\");\n        }\n        \
         assert_eq!(super::double(3), 6);",
    );
    assert_ne!(flaky, text);
    fs::write(&lib, flaky).expect("write");
    scratch.build(SLOTS);
    let stderr = scratch.inject(&[]);
    assert_eq!(
        lines_with(&stderr, &["the baseline of `a`", "tests::doubles", "flaky"]).len(),
        1,
        "{stderr}"
    );
}
