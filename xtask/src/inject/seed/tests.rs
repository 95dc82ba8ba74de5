//! Choosing, copying and checking a seed: on fake build directories,
//! recorded cargo output, and two copies of a scratch workspace built by
//! cargo.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::*;

/// Writes `files` (relative paths) under `dir`, each holding its own path.
fn write(dir: &Path, files: &[&str]) {
    for file in files {
        let path = dir.join(file);
        fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        fs::write(&path, file).expect("write");
    }
}

/// Every file under `dir`, relative to it, sorted, space-separated.
fn listing(dir: &Path) -> String {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, found);
            } else {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, &mut found);
    let mut names: Vec<String> = found
        .iter()
        .map(|p| p.strip_prefix(dir).expect("inside").display().to_string())
        .collect();
    names.sort();
    names.join(" ")
}

const BUILD: [&str; 19] = [
    // A library, whole.
    ".fingerprint/serde-0000000000000001/lib-serde",
    ".fingerprint/serde-0000000000000001/lib-serde.json",
    "deps/libserde-0000000000000001.rlib",
    "deps/libserde-0000000000000001.rmeta",
    // A proc macro, whole.
    ".fingerprint/serde_derive-0000000000000002/lib-serde_derive",
    "deps/libserde_derive-0000000000000002.so",
    // A library whose files are gone.
    ".fingerprint/toml_edit-0000000000000003/lib-toml_edit",
    // A build script, compiled and run.
    ".fingerprint/serde-0000000000000004/build-script-build-script-build",
    "build/serde-0000000000000004/build-script-build",
    ".fingerprint/serde-0000000000000005/run-build-script-build-script-build",
    "build/serde-0000000000000005/output",
    // A build script run whose output is gone.
    ".fingerprint/libc-0000000000000006/run-build-script-build-script-build",
    // A workspace crate.
    ".fingerprint/advisor-core-0000000000000007/lib-advisor_core",
    "deps/libadvisor_core-0000000000000007.rlib",
    // A test executable.
    ".fingerprint/advisor-core-0000000000000008/test-lib-advisor_core",
    "deps/advisor_core-0000000000000008",
    // A library without a fingerprint, an incremental cache.
    "deps/libstray-0000000000000009.rlib",
    "incremental/advisor_core-1/x",
    "deps/advisor_core-0000000000000008.d",
];

#[test]
fn a_seed_takes_whole_units_from_outside_the_tree() {
    let dir = tempfile::tempdir().expect("temp dir");
    let built = dir.path().join("built");
    write(&built, &BUILD);
    let local = BTreeSet::from(["advisor-core".to_owned()]);
    let selection = select(&built, &local).expect("selected");
    assert_eq!(
        selection.incomplete,
        ["libc-0000000000000006", "toml_edit-0000000000000003"]
    );
    assert_eq!(
        selection.crates.iter().cloned().collect::<Vec<_>>(),
        ["serde", "serde_derive"]
    );
    assert_eq!(selection.len(), 4);
    let into = dir.path().join("slot/debug");
    copy(&selection, &into).expect("copied");
    assert_eq!(
        listing(&into),
        ".fingerprint/serde-0000000000000001/lib-serde \
         .fingerprint/serde-0000000000000001/lib-serde.json \
         .fingerprint/serde-0000000000000004/build-script-build-script-build \
         .fingerprint/serde-0000000000000005/run-build-script-build-script-build \
         .fingerprint/serde_derive-0000000000000002/lib-serde_derive \
         build/serde-0000000000000004/build-script-build \
         build/serde-0000000000000005/output \
         deps/libserde-0000000000000001.rlib deps/libserde-0000000000000001.rmeta \
         deps/libserde_derive-0000000000000002.so"
    );

    // The tree that built it takes its workspace crates too.
    let in_place = select(&built, &BTreeSet::new()).expect("selected");
    assert!(in_place.crates.contains("advisor_core"));
    assert_eq!(in_place.len(), 5);

    // Again, from a build holding another copy of a library the slot has:
    // the slot's stays.
    fs::write(built.join("deps/libserde-0000000000000001.rlib"), "other").expect("write");
    copy(&selection, &into).expect("copied again");
    assert_eq!(
        fs::read_to_string(into.join("deps/libserde-0000000000000001.rlib")).expect("read"),
        "deps/libserde-0000000000000001.rlib"
    );
}

#[test]
fn nothing_to_take_from_a_missing_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    let selection = select(&dir.path().join("none"), &BTreeSet::new()).expect("selected");
    assert_eq!(selection.len(), 0);
}

/// `cargo metadata` of a workspace at `/w`: a member, a path crate inside the
/// tree, and crates from elsewhere.
const METADATA: &str = r#"{
  "workspace_members": ["m"],
  "packages": [
    {"id": "m", "name": "advisor-core", "version": "0.1.0", "manifest_path": "/w/crates/advisor-core/Cargo.toml",
     "targets": [{"name": "advisor_core", "kind": ["lib"]}]},
    {"id": "v", "name": "vendored", "version": "0.1.0", "manifest_path": "/w/vendor/vendored/Cargo.toml",
     "targets": [{"name": "vendored", "kind": ["lib"]}]},
    {"id": "i", "name": "itoa", "version": "1.0.19", "manifest_path": "/r/itoa-1.0.19/Cargo.toml",
     "targets": [{"name": "itoa", "kind": ["lib"]}]},
    {"id": "c", "name": "cfg-if", "version": "1.0.4", "manifest_path": "/r/cfg-if-1.0.4/Cargo.toml",
     "targets": [{"name": "cfg_if", "kind": ["lib"]}]},
    {"id": "s", "name": "serde", "version": "1.0.229", "manifest_path": "/r/serde-1.0.229/Cargo.toml",
     "targets": [{"name": "serde", "kind": ["lib"]}, {"name": "build-script-build", "kind": ["custom-build"]}]},
    {"id": "f", "name": "memchr", "version": "2.7.4", "manifest_path": "/r/memchr-2.7.4/Cargo.toml",
     "targets": [{"name": "memchr", "kind": ["lib"]}]},
    {"id": "p", "name": "unicode-macro", "version": "0.1.0", "manifest_path": "/r/unicode-macro-0.1.0/Cargo.toml",
     "targets": [{"name": "unicode_macro", "kind": ["proc-macro"]}]},
    {"id": "u", "name": "unicode-ident", "version": "1.0.27", "manifest_path": "/r/unicode-ident-1.0.27/Cargo.toml",
     "targets": [{"name": "unicode_ident", "kind": ["lib"]}]},
    {"id": "a", "name": "autocfg", "version": "1.5.1", "manifest_path": "/r/autocfg-1.5.1/Cargo.toml",
     "targets": [{"name": "autocfg", "kind": ["lib"]}]},
    {"id": "t", "name": "termtree", "version": "0.5.1", "manifest_path": "/r/termtree-0.5.1/Cargo.toml",
     "targets": [{"name": "termtree", "kind": ["lib"]}]},
    {"id": "d", "name": "toml", "version": "0.8.23", "manifest_path": "/r/toml-0.8.23/Cargo.toml",
     "targets": [{"name": "toml", "kind": ["lib"]}]}
  ],
  "resolve": {"nodes": [
    {"id": "m", "features": [], "deps": [
      {"pkg": "d", "dep_kinds": [{"kind": null}]},
      {"pkg": "v", "dep_kinds": [{"kind": null}]},
      {"pkg": "i", "dep_kinds": [{"kind": null}]},
      {"pkg": "c", "dep_kinds": [{"kind": "build"}, {"kind": null}]},
      {"pkg": "f", "dep_kinds": [{"kind": null}]},
      {"pkg": "p", "dep_kinds": [{"kind": null}]},
      {"pkg": "a", "dep_kinds": [{"kind": "build"}]},
      {"pkg": "t", "dep_kinds": [{"kind": "dev"}]}
    ]},
    {"id": "v", "deps": [], "features": []},
    {"id": "i", "deps": [], "features": []},
    {"id": "c", "deps": [], "features": []},
    {"id": "s", "deps": [], "features": []},
    {"id": "f", "deps": [], "features": ["std"]},
    {"id": "p", "deps": [{"pkg": "u", "dep_kinds": [{"kind": null}]}], "features": []},
    {"id": "u", "deps": [], "features": []},
    {"id": "a", "deps": [], "features": []},
    {"id": "t", "deps": [], "features": []},
    {"id": "d", "deps": [{"pkg": "s", "dep_kinds": [{"kind": null}]}], "features": []}
  ]}
}"#;

#[test]
fn crates_in_the_tree_and_dependency_free_ones() {
    let crates = parse_crates(METADATA, Path::new("/w")).expect("parsed");
    assert_eq!(
        crates.local.iter().cloned().collect::<Vec<_>>(),
        ["advisor-core", "vendored"]
    );
    // Not serde (a build script), memchr (a feature), the proc macro, toml
    // (a dependency), what lies in the tree, nor what is built only for the
    // host (autocfg, a build dependency; unicode-ident, under the proc
    // macro) or only for tests (termtree).
    assert_eq!(
        crates.leaves,
        [
            ("itoa@1.0.19".to_owned(), "itoa".to_owned()),
            ("cfg-if@1.0.4".to_owned(), "cfg_if".to_owned()),
        ]
    );
    let mut selection = Selection::default();
    selection.crates.insert("cfg_if".to_owned());
    let probes = probe_specs(&crates, &selection);
    assert_eq!(probes, [&("cfg-if@1.0.4".to_owned(), "cfg_if".to_owned())]);
}

fn artifact(name: &str, fresh: bool) -> String {
    format!(
        r#"{{"reason":"compiler-artifact","package_id":"x","target":{{"kind":["lib"],"name":"{name}"}},"fresh":{fresh}}}"#
    )
}

#[test]
fn cargo_says_which_probed_crates_it_rebuilt() {
    let leaves = [
        ("itoa@1.0.19".to_owned(), "itoa".to_owned()),
        ("cfg-if@1.0.4".to_owned(), "cfg_if".to_owned()),
    ];
    let probes: Vec<&(String, String)> = leaves.iter().collect();
    let check = |lines: &[String], want: Result<&[&str], &str>| {
        let got = unfit(lines, &probes).map_err(|e| e.to_string());
        let want = want
            .map(|w| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
            .map_err(str::to_owned);
        assert_eq!(got, want, "{lines:?}");
    };
    let finished = r#"{"reason":"build-finished","success":true}"#.to_owned();
    check(
        &[
            artifact("itoa", true),
            artifact("cfg-if", true),
            finished.clone(),
        ],
        Ok(&[]),
    );
    check(
        &[
            "   Compiling itoa v1.0.19".to_owned(),
            artifact("itoa", false),
            artifact("cfg-if", true),
        ],
        Ok(&["itoa"]),
    );
    check(
        &[artifact("serde", false), finished],
        Err("cargo reported on none of the probed crates"),
    );
}

/// `cargo <args>` in `tree`, building in `target`.
fn cargo_in(tree: &Path, target: &Path, args: &[&str]) -> std::process::Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .arg("--offline")
        .current_dir(tree)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .output()
        .expect("cargo runs")
}

/// Two copies of a workspace, as two slots have, each with its own target
/// directory: `top` built in the first (against its own `base`), `base`
/// built in the second, before. The first's `top` carries the same unit hash
/// in the second and looks fresh there, but was compiled against another
/// build of `base`: taken over, it fails to load (the control). The seed
/// leaves workspace crates out, and `top` builds.
#[test]
fn a_workspace_crate_built_in_another_tree_stays_there() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("ws");
    let files = [
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/base\", \"crates/top\"]\nresolver = \"2\"\n",
        ),
        (
            "crates/base/Cargo.toml",
            "[package]\nname = \"base\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "crates/base/src/lib.rs",
            "pub fn one() -> u32 {\n    1\n}\n",
        ),
        (
            "crates/top/Cargo.toml",
            "[package]\nname = \"top\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nbase = { path = \"../base\" }\n",
        ),
        (
            "crates/top/src/lib.rs",
            "pub fn two() -> u32 {\n    base::one() + 1\n}\n",
        ),
        (
            "crates/top/tests/two.rs",
            "#[test]\nfn two() {\n    assert_eq!(top::two(), 2);\n}\n",
        ),
    ];
    for (path, text) in files {
        write(&root, &[path]);
        fs::write(root.join(path), text).expect("write");
    }
    let ok = |output: std::process::Output| {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
    };
    ok(cargo_in(
        &root,
        &root.join("target"),
        &["generate-lockfile"],
    ));
    let (one, two) = (dir.path().join("tree-1"), dir.path().join("tree-2"));
    crate::tree::sync(&root, &one).expect("tree 1");
    crate::tree::sync(&root, &two).expect("tree 2");
    let (t1, t2) = (dir.path().join("slot-1"), dir.path().join("slot-2"));
    ok(cargo_in(&two, &t2, &["build", "-p", "base"]));
    ok(cargo_in(&one, &t1, &["build", "-p", "top"]));
    let control = dir.path().join("control");
    ok(Command::new("cp")
        .arg("-a")
        .arg(&t2)
        .arg(&control)
        .output()
        .expect("cp"));

    let crates = crates(&two).expect("cargo metadata");
    assert_eq!(
        crates.local.iter().cloned().collect::<Vec<_>>(),
        ["base", "top"]
    );
    let build_top = |target: &Path, skip: &BTreeSet<String>| {
        let selection = select(&t1.join("debug"), skip).expect("selected");
        copy(&selection, &target.join("debug")).expect("copied");
        cargo_in(&two, target, &["test", "-p", "top", "--no-run"])
    };

    let taken = build_top(&control, &BTreeSet::new());
    let stderr = String::from_utf8_lossy(&taken.stderr);
    let lines: Vec<String> = stderr.lines().map(str::to_owned).collect();
    assert!(!taken.status.success(), "{stderr}");
    assert!(
        crate::libtest::foreign_failure(&lines, &|_| true).is_some(),
        "{stderr}"
    );

    ok(build_top(&t2, &crates.local));
}
