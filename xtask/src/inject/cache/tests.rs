use super::*;
use crate::targets::Package;

/// A scratch tree: `core`, `fam` (on core), `other` (on core) under
/// `crates/`, and `docs/`.
fn scratch() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in [
        ("Cargo.toml", "[workspace]"),
        ("Cargo.lock", "lock"),
        ("crates/core/src/lib.rs", "core"),
        ("crates/fam/src/lib.rs", "fam"),
        ("crates/fam/tests/fixtures/x.toml", "x"),
        ("crates/other/src/lib.rs", "other"),
        ("crates/fam/target/junk", "junk"),
        ("docs/hooks/a.json", "{}"),
        ("bindings/node/node_modules/m/index.js", "m"),
    ] {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let mut workspace = Workspace::new();
    for (name, deps) in [("core", &[][..]), ("fam", &["core"]), ("other", &["core"])] {
        workspace.insert(
            name.to_owned(),
            Package {
                targets: Vec::new(),
                deps: deps.iter().map(|d| (*d).to_owned()).collect(),
                dir: dir.path().join("crates").join(name),
            },
        );
    }
    (dir, workspace)
}

fn key(root: &Path, workspace: &Workspace, entry: &Entry) -> String {
    keys(root, workspace, &[entry]).unwrap()["m"].clone()
}

#[test]
fn a_key_follows_what_the_arms_tests_are_built_from_and_read() {
    let (dir, workspace) = scratch();
    let root = dir.path();
    let arm = Entry::sample("fam", &["fam"], &["t"]);
    let first = key(root, &workspace, &arm);
    assert_eq!(key(root, &workspace, &arm), first, "the same sources");
    assert_eq!(first.len(), 32);

    // Not in the closure, or never hashed: the key stays.
    for (path, text) in [
        ("crates/other/src/lib.rs", "other, edited"),
        ("crates/fam/target/junk", "more junk"),
        ("bindings/node/node_modules/m/index.js", "m2"),
    ] {
        fs::write(root.join(path), text).unwrap();
        assert_eq!(key(root, &workspace, &arm), first, "{path}");
    }

    // The mutated crate, a crate it builds on, its fixtures, the shared
    // data and the lock: each changes it.
    let mut seen = BTreeSet::from([first]);
    for (path, text) in [
        ("crates/fam/src/lib.rs", "fam, edited"),
        ("crates/core/src/lib.rs", "core, edited"),
        ("crates/fam/tests/fixtures/x.toml", "y"),
        ("docs/hooks/a.json", "[]"),
        ("Cargo.lock", "lock 2"),
        ("crates/fam/src/new.rs", ""),
    ] {
        fs::write(root.join(path), text).unwrap();
        assert!(seen.insert(key(root, &workspace, &arm)), "{path}");
    }

    // The arm itself.
    let mut other_arm = arm.clone();
    other_arm.replace = "c".to_owned();
    assert!(seen.insert(key(root, &workspace, &other_arm)));
    let mut more_tests = arm.clone();
    more_tests.tests.push("u".to_owned());
    assert!(seen.insert(key(root, &workspace, &more_tests)));
}

#[test]
fn an_arm_tested_elsewhere_follows_that_package_too() {
    let (dir, workspace) = scratch();
    let root = dir.path();
    let arm = Entry::sample("core", &["other"], &["t"]);
    let first = key(root, &workspace, &arm);
    fs::write(root.join("crates/fam/src/lib.rs"), "fam, edited").unwrap();
    assert_eq!(key(root, &workspace, &arm), first);
    fs::write(root.join("crates/other/src/lib.rs"), "other, edited").unwrap();
    assert_ne!(key(root, &workspace, &arm), first);
}

#[test]
fn the_file_round_trips_and_anything_else_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    assert!(load(&path).is_empty(), "missing");
    let arms = BTreeMap::from([(
        "m".to_owned(),
        Caught {
            key: "k".to_owned(),
            failed: vec!["t".to_owned()],
        },
    )]);
    save(&path, &arms).unwrap();
    assert_eq!(load(&path), arms);
    assert!(!path.with_extension("json.new").exists());

    fs::write(&path, r#"{"version": "inject-cache 0", "arms": {}}"#).unwrap();
    assert!(load(&path).is_empty(), "another version");
    fs::write(&path, "not json").unwrap();
    assert!(load(&path).is_empty(), "garbage");
    let big = vec![b' '; FILE_MAX_BYTES as usize + 1];
    fs::write(&path, big).unwrap();
    assert!(load(&path).is_empty(), "over the bound");
}
