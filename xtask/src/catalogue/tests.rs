//! Tests of catalogue parsing and validation.

use super::*;

const GOOD: &str = r#"
[[mutation]]
id = "pty-substring-match"
file = "src/recognize.rs"
find = '''line == SENTENCE'''
replace = '''line.contains(SENTENCE)'''
tests = ["quoted_sentence_is_refused", "recognize::tests::longer_line_refused"]
description = "the whole-line match made a substring match"

[[mutation]]
id = "pty-equivalent"
file = "src/recognize.rs"
find = "a"
replace = "b"
tests = ["x"]
description = "d"
packages = ["family-pty", "host-adapter"]
equivalent = "cannot be told apart"
"#;

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn crate_with(root: &Path, name: &str, catalogue: &str, source: &str) {
    write(
        root,
        &format!("crates/{name}/Cargo.toml"),
        &format!("[package]\nname = \"{name}\"\n"),
    );
    write(root, &format!("crates/{name}/mutations.toml"), catalogue);
    write(root, &format!("crates/{name}/src/recognize.rs"), source);
}

#[test]
fn parses_the_documented_format() {
    let raw = parse_catalogue(GOOD).unwrap();
    assert_eq!(raw.len(), 2);
    assert_eq!(raw[0].id, "pty-substring-match");
    assert_eq!(raw[0].find, "line == SENTENCE");
    assert_eq!(raw[0].tests.len(), 2);
    assert_eq!(raw[0].packages, None);
    assert_eq!(
        raw[1].packages.as_deref().unwrap(),
        ["family-pty", "host-adapter"]
    );
    assert_eq!(raw[1].equivalent.as_deref(), Some("cannot be told apart"));
}

#[test]
fn unknown_or_missing_fields_are_rejected() {
    let typo = GOOD.replace("equivalent =", "equivalant =");
    assert!(parse_catalogue(&typo).unwrap_err().contains("equivalant"));
    let missing = GOOD.replace("description = \"d\"", "");
    assert!(
        parse_catalogue(&missing)
            .unwrap_err()
            .contains("description")
    );
    assert!(parse_catalogue("").unwrap().is_empty());
}

#[test]
fn counts_overlapping_occurrences() {
    assert_eq!(count_occurrences("line == SENTENCE", "=="), 1);
    assert_eq!(count_occurrences("aaa", "aa"), 2);
    assert_eq!(count_occurrences("é==é", "é"), 2);
    assert_eq!(count_occurrences("abc", "x"), 0);
    assert_eq!(count_occurrences("abc", ""), 0);
}

#[test]
fn kebab_case_and_paths() {
    assert!(is_kebab_case("pty-substring-match2"));
    assert!(!is_kebab_case("Pty"));
    assert!(!is_kebab_case("a--b"));
    assert!(!is_kebab_case("a_b"));
    assert!(!is_kebab_case(""));
    assert_eq!(
        normalize_relative(Path::new("crates/a/../b/./src/x.rs")),
        Some(PathBuf::from("crates/b/src/x.rs"))
    );
    assert_eq!(normalize_relative(Path::new("crates/../../x")), None);
    assert_eq!(normalize_relative(Path::new("/etc/passwd")), None);
}

#[test]
fn reads_package_name() {
    assert_eq!(
        parse_package_name("[package]\nname = \"x\"\n").unwrap(),
        "x"
    );
    assert!(parse_package_name("[workspace]\n").is_err());
}

#[test]
fn validates_against_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let catalogue = r#"
[[mutation]]
id = "ok"
file = "src/recognize.rs"
find = "line == SENTENCE"
replace = "true"
tests = ["t"]
description = "d"

[[mutation]]
id = "absent"
file = "src/recognize.rs"
find = "not there"
replace = "x"
tests = ["t"]
description = "d"

[[mutation]]
id = "twice"
file = "src/recognize.rs"
find = "SENTENCE"
replace = "x"
tests = ["t"]
description = "d"

[[mutation]]
id = "no-file"
file = "src/missing.rs"
find = "a"
replace = "b"
tests = ["t"]
description = "d"

[[mutation]]
id = "escapes"
file = "../../../outside.rs"
find = "a"
replace = "b"
tests = ["t"]
description = "d"

[[mutation]]
id = "no-tests"
file = "src/recognize.rs"
find = "line == SENTENCE"
replace = "true"
tests = []
description = "d"
"#;
    crate_with(root, "pty", catalogue, "if line == SENTENCE { SENTENCE }");
    crate_with(
        root,
        "other",
        "[[mutation]]\nid = \"ok\"\nfile = \"src/recognize.rs\"\nfind = \"b\"\nreplace = \"c\"\ntests = [\"t\"]\ndescription = \"d\"\n",
        "abc",
    );
    write(
        root,
        "examples/bad/Cargo.toml",
        "[package]\nname = \"bad\"\n",
    );
    write(
        root,
        "examples/bad/mutations.toml",
        "[[mutation]]\nid = 3\n",
    );

    let entries = load(root).unwrap();
    let broken = |id: &str, catalogue: &str| {
        entries
            .iter()
            .find(|e| e.id == id && e.catalogue.starts_with(catalogue))
            .unwrap()
            .broken
            .clone()
    };
    assert_eq!(entries.len(), 8);
    assert!(broken("ok", "crates/pty").unwrap().contains("duplicate id"));
    assert!(
        broken("ok", "crates/other")
            .unwrap()
            .contains("duplicate id")
    );
    assert!(
        broken("absent", "crates")
            .unwrap()
            .contains("occurs 0 times")
    );
    assert!(
        broken("twice", "crates")
            .unwrap()
            .contains("occurs 2 times")
    );
    assert!(
        broken("no-file", "crates")
            .unwrap()
            .contains("does not exist")
    );
    assert!(broken("escapes", "crates").unwrap().contains("outside"));
    assert!(
        broken("no-tests", "crates")
            .unwrap()
            .contains("names no tests")
    );
    let bad = entries.iter().find(|e| e.package == "bad").unwrap();
    assert!(bad.broken.as_deref().unwrap().contains("does not parse"));
    let pty = entries.iter().find(|e| e.id == "absent").unwrap();
    assert_eq!(pty.package, "pty");
    assert_eq!(pty.packages, ["pty"]);
    assert_eq!(pty.file, Path::new("crates/pty/src/recognize.rs"));
}

#[test]
fn the_example_in_docs_parses() {
    let doc = include_str!("../../../docs/mutations.md");
    let block = doc
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap();
    let raw = parse_catalogue(block).unwrap();
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].id, "pty-substring-match");
    assert!(raw[0].equivalent.is_some());
    assert_eq!(raw[0].packages.as_ref().unwrap().len(), 2);
}

/// This repository's own catalogue, as `cargo xtask inject` will load it:
/// every entry applies (its file exists and its `find` occurs exactly once)
/// and names packages that exist. A code move or a rename that strands an
/// arm fails here, in the test step, rather than minutes into an inject run.
#[test]
fn this_workspaces_catalogue_applies_and_names_real_packages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let entries = load(&root).unwrap();
    assert!(entries.len() > 100, "{} entries", entries.len());
    let broken: Vec<String> = entries
        .iter()
        .filter_map(|e| e.broken.as_ref().map(|why| format!("{}: {why}", e.id)))
        .collect();
    assert!(broken.is_empty(), "broken entries: {broken:#?}");
    let mut known = std::collections::BTreeSet::new();
    for dir in CATALOGUE_DIRS {
        for child in fs::read_dir(root.join(dir)).unwrap() {
            let manifest = child.unwrap().path().join("Cargo.toml");
            if let Ok(name) = fs::read_to_string(&manifest)
                .map_err(|e| e.to_string())
                .and_then(|t| parse_package_name(&t))
            {
                known.insert(name);
            }
        }
    }
    let strays: Vec<String> = entries
        .iter()
        .flat_map(|e| e.packages.iter().map(move |p| (e, p)))
        .filter(|(_, p)| !known.contains(p.as_str()))
        .map(|(e, p)| format!("{}: {p}", e.id))
        .collect();
    assert!(strays.is_empty(), "packages no crate is named: {strays:#?}");
}
