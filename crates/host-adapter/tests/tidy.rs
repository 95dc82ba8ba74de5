//! Tidy checks, rust-analyzer style: "every X has Y", as plain tests.
//!
//! For every family the standard registry compiles in, its crate (found by the
//! `FamilyId::new("<id>")` in some `crates/*/src/lib.rs`, not by a table kept
//! here) has a README that says what it recognizes and what it refuses, at
//! least one positive and one control fixture named by the rule, at least one insta snapshot and a mutation
//! catalogue, and its id is lowercase kebab-case. Across the shipped crates,
//! no source file grows past [`MAX_LINES`] unless [`LONG_FILES`] says why.
// These tests walk every shipped family, so they need them all compiled in.
#![cfg(feature = "all-families")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use advisor_core::testing::Arm;

/// The longest a source file may be before it needs a reason.
const MAX_LINES: usize = 400;

/// Source files allowed past [`MAX_LINES`], relative to the workspace root, with why.
/// An entry whose file no longer needs it fails the check, so the list cannot go stale.
const LONG_FILES: &[(&str, &str)] = &[];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file below `dir` (recursively), sorted; empty when `dir` does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// One registered family and the crate that defines it.
struct FamilyCrate {
    id: &'static str,
    dir: PathBuf,
}

/// The standard registry's families, each mapped to the crate whose `src/lib.rs`
/// declares its id.
fn family_crates() -> Vec<FamilyCrate> {
    let crates = workspace_root().join("crates");
    let dirs: Vec<PathBuf> = fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("src/lib.rs").is_file())
        .collect();
    let registry = host_adapter::standard_registry().build().unwrap();
    registry
        .families()
        .map(|family| {
            let id = family.id().as_str();
            let declaration = format!("FamilyId::new(\"{id}\")");
            let owners: Vec<&PathBuf> = dirs
                .iter()
                .filter(|d| read(&d.join("src/lib.rs")).contains(&declaration))
                .collect();
            assert_eq!(
                owners.len(),
                1,
                "`{id}` must be declared by exactly one crate's src/lib.rs: {owners:?}"
            );
            FamilyCrate {
                id,
                dir: owners[0].clone(),
            }
        })
        .collect()
}

#[test]
fn the_standard_registry_is_not_empty() {
    assert!(
        family_crates().len() >= 7,
        "the shipped families are all compiled in"
    );
}

/// The shipped families that read every tool's results, each with why. Every
/// other shipped family is a sandbox family: it reads only the results of
/// tools that start a process in the sandbox (issue 23 item 10), never a
/// `web_fetch` body.
const ANY_TOOL: &[(&str, &str)] = &[(
    "runner-exit",
    "the Job runner fails under glob and grep too (ripgrep, started outside the sandbox), \
     and the recognizer takes only a message that is the runner's own line",
)];

#[test]
fn every_shipped_family_reads_only_process_tools_or_says_why() {
    let registry = host_adapter::standard_registry().build().unwrap();
    assert!(registry.families().count() >= 7);
    for family in registry.families() {
        let id = family.id();
        let expected = if ANY_TOOL.iter().any(|(any, _)| *any == id.as_str()) {
            advisor_core::ToolScope::Any
        } else {
            advisor_core::ToolScope::SandboxProcess
        };
        assert_eq!(family.tools(), expected, "{id}");
    }
}

#[test]
fn every_family_id_is_kebab_case() {
    for f in family_crates() {
        let words_ok = f.id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
        assert!(words_ok, "`{}` is not lowercase kebab-case", f.id);
        assert!(
            f.id.as_bytes()[0].is_ascii_lowercase(),
            "`{}` starts with a digit",
            f.id
        );
    }
}

/// A README heading (any level) naming what the family recognizes, and one naming what it refuses.
#[test]
fn every_family_readme_says_what_it_recognizes_and_refuses() {
    for f in family_crates() {
        let path = f.dir.join("README.md");
        assert!(path.is_file(), "`{}`: no {}", f.id, path.display());
        let readme = read(&path);
        let headings: Vec<String> = readme
            .lines()
            .filter(|l| l.starts_with('#'))
            .map(str::to_lowercase)
            .collect();
        for word in ["recognizes", "refuses"] {
            assert!(
                headings.iter().any(|h| h.contains(word)),
                "`{}`: README.md has no heading with `{word}` (headings: {headings:?})",
                f.id
            );
        }
    }
}

/// Every file under a family's `tests/fixtures` follows the one naming rule
/// (`pos-<case>.toml` speaks, `ctl-<case>.toml` does not), and each family has both arms.
#[test]
fn every_family_has_positive_and_control_fixtures_named_by_the_rule() {
    for f in family_crates() {
        let fixtures = files(&f.dir.join("tests/fixtures"));
        assert!(!fixtures.is_empty(), "`{}`: no tests/fixtures", f.id);
        let arms: Vec<Option<Arm>> = fixtures.iter().map(|p| Arm::of(&file_name(p))).collect();
        for (path, arm) in fixtures.iter().zip(&arms) {
            assert!(
                arm.is_some(),
                "`{}`: {} is not named pos-<case>.toml or ctl-<case>.toml",
                f.id,
                path.display()
            );
        }
        for want in [Arm::Positive, Arm::Control] {
            assert!(
                arms.contains(&Some(want)),
                "`{}`: no {want:?} fixture among its {}",
                f.id,
                fixtures.len()
            );
        }
    }
}

#[test]
fn every_family_has_an_insta_snapshot() {
    for f in family_crates() {
        let snapshots = files(&f.dir.join("tests/snapshots"));
        assert!(
            snapshots.iter().any(|p| file_name(p).ends_with(".snap")),
            "`{}`: no insta snapshot under tests/snapshots",
            f.id
        );
    }
}

#[test]
fn every_family_has_a_mutation_catalogue() {
    for f in family_crates() {
        let path = f.dir.join("mutations.toml");
        assert!(path.is_file(), "`{}`: no mutations.toml", f.id);
        assert!(
            read(&path).contains("[[mutation]]"),
            "`{}`: mutations.toml holds no [[mutation]]",
            f.id
        );
    }
}

/// Shipped code only: `crates/*` and `examples/*`. `xtask` is development
/// tooling and is left to its own judgement.
#[test]
fn no_source_file_outgrows_a_read() {
    let root = workspace_root();
    let mut sources = Vec::new();
    for group in ["crates", "examples"] {
        for member in fs::read_dir(root.join(group)).unwrap() {
            let src = member.unwrap().path().join("src");
            sources.extend(
                files(&src)
                    .into_iter()
                    .filter(|p| p.extension().is_some_and(|e| e == "rs")),
            );
        }
    }
    assert!(!sources.is_empty());
    let mut too_long = Vec::new();
    let mut allowed_long = Vec::new();
    for path in &sources {
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let lines = read(path).lines().count();
        let allowed = LONG_FILES.iter().any(|(f, _)| *f == relative);
        if lines > MAX_LINES && !allowed {
            too_long.push(format!("{relative}: {lines} lines"));
        }
        if lines > MAX_LINES && allowed {
            allowed_long.push(relative);
        }
    }
    assert!(
        too_long.is_empty(),
        "over {MAX_LINES} lines; split them, or add them to LONG_FILES with a reason: {too_long:#?}"
    );
    for (file, reason) in LONG_FILES {
        assert!(!reason.trim().is_empty(), "{file}: an entry needs a reason");
        assert!(
            allowed_long.iter().any(|f| f == file),
            "{file} is in LONG_FILES but is no longer over {MAX_LINES} lines (or is gone): drop the entry"
        );
    }
}

/// Text that points at material outside the repository: the build machine's
/// shared reference directory and its other checkouts. A reader of a clone
/// has none of it, so a file must cite what the repository holds.
const OUTSIDE: &[&str] = &[
    "../shared/",
    "shared/reference/",
    "/work/shared",
    "/work/main",
    "/work/wt-",
    "wt-clients",
];

/// Directories no tracked text lives in (build output, installed packages).
const UNTRACKED: &[&str] = &["target", "node_modules", ".git", "artifacts", "corpus"];

/// The first outside reference in `text`, as `line: pattern`.
fn outside_reference(text: &str) -> Option<String> {
    text.lines().enumerate().find_map(|(i, line)| {
        OUTSIDE
            .iter()
            .find(|p| line.contains(*p))
            .map(|p| format!("line {}: `{p}`", i + 1))
    })
}

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = file_name(&path);
        if path.is_symlink() || UNTRACKED.contains(&name.as_str()) {
            continue;
        }
        if path.is_dir() {
            text_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_file_points_outside_the_repository() {
    for (text, found) in [
        ("see ../shared/reference/clients.md", true),
        ("recorded on branch wt-clients", true),
        ("/work/shared/seeds/003.md", true),
        ("docs/hooks/README.md", false),
        ("cwd D:/work/proj", false),
    ] {
        assert_eq!(outside_reference(text).is_some(), found, "{text}");
    }
    let root = workspace_root();
    let mut all = Vec::new();
    text_files(&root, &mut all);
    // This file names the patterns it looks for.
    let this = root.join("crates/host-adapter/tests/tidy.rs");
    let offenders: Vec<String> = all
        .iter()
        .filter(|path| **path != this)
        .filter_map(|path| {
            let text = fs::read_to_string(path).ok()?;
            let relative = path.strip_prefix(&root).unwrap().display();
            outside_reference(&text).map(|at| format!("{relative} {at}"))
        })
        .collect();
    assert!(
        all.len() > 500,
        "only {} files found under {}",
        all.len(),
        root.display()
    );
    assert!(
        offenders.is_empty(),
        "these cite material the repository does not hold; cite a file it holds instead: {offenders:#?}"
    );
}
