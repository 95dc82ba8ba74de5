//! Tidy check: no family crate's modules import each other in a circle.
//!
//! A module is a file directly under `src/` (`advise.rs` is `advise`) or a
//! directory there with everything below it (`advise/other.rs` is `advise`
//! too); the crate root (`lib.rs`) declares them all and is left out. One
//! module depends on another when its code names `crate::<other>`, alone or
//! inside a `crate::{…}` group; comments, string literals and character
//! literals are not code. Every `crates/family-*` crate and
//! `examples/third-party-family` is read, and a crate whose dependency graph
//! holds a circle fails, naming it (`advise -> brief -> advise`).
//!
//! What the brief and the detail both read belongs in a module both import
//! (`facts`), never in one of the two.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One module file: its path below `src/` (with `/`) and its text.
type Source = (String, String);

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

/// Every `.rs` file below `dir`, as (path relative to `base`, text), sorted.
fn sources(base: &Path, dir: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(base, &path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).unwrap().to_string_lossy();
            let text = fs::read_to_string(&path).unwrap();
            out.push((rel.replace('\\', "/"), text));
        }
    }
    out.sort();
    out
}

/// The crates the check reads: every `crates/family-*`, and the example family.
fn family_crates() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut dirs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| {
            d.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("family-"))
        })
        .collect();
    dirs.push(root.join("examples/third-party-family"));
    dirs.sort();
    dirs
}

/// The code of one file: comments, string and character literals blanked out.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        if rest.starts_with(&['/', '/']) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i..].starts_with(&['/', '*']) {
                    depth += 1;
                    i += 2;
                } else if chars[i..].starts_with(&['*', '/']) {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if chars[i] == 'r' && matches!(rest.get(1), Some('"' | '#')) {
            // A raw string: r"…", r#"…"#, with as many hashes on each side.
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            if rest.get(1 + hashes) != Some(&'"') {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push(' ');
        } else if chars[i] == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if chars[i] == '\'' && rest.get(1) == Some(&'\\') {
            // An escaped character literal: '\n', '\'', '\u{…}'.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if chars[i] == '\'' && rest.get(2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first identifier of `s`, after white space.
fn leading_ident(s: &str) -> Option<String> {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    (end > 0).then(|| s[..end].to_owned())
}

/// Every name that follows `crate::` in `code`, and every item's first name in
/// a `crate::{…}` group.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(is_ident) {
            continue;
        }
        let after = code[at + "crate::".len()..].trim_start();
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.extend(leading_ident(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 || item.is_empty() {
                    item.push(c);
                }
            }
            names.extend(leading_ident(&item));
        } else {
            names.extend(leading_ident(after));
        }
    }
    names
}

/// The module a file below `src/` belongs to; `None` for the crate root.
fn module_of(path: &str) -> Option<&str> {
    let first = path.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(path, "lib.rs" | "main.rs")).then_some(name)
}

/// Each module and the other modules of the same crate it names.
fn graph(files: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in files {
        if let Some(module) = module_of(path) {
            graph
                .entry(module.to_owned())
                .or_default()
                .extend(crate_refs(&code_only(text)));
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, deps) in &mut graph {
        deps.retain(|d| d != module && modules.contains(d));
    }
    graph
}

/// The first circle found, as `a -> b -> a`; `None` when there is none.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<String> {
        if let Some(start) = path.iter().position(|&n| n == node) {
            let mut circle = path[start..].to_vec();
            circle.push(node);
            return Some(circle.join(" -> "));
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The one check: the crate `name`'s files hold exactly the circle `expected`
/// (`None`: no circle at all).
fn check(name: &str, files: &[Source], expected: Option<&str>) {
    let graph = graph(files);
    assert_eq!(
        cycle(&graph).as_deref(),
        expected,
        "{name}: module graph {graph:?}; what two modules both read belongs in a third (`facts`) \
         that both import"
    );
}

fn synthetic(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
        .collect()
}

#[test]
fn no_family_crate_has_a_module_circle() {
    let crates = family_crates();
    assert!(crates.len() > 10, "too few family crates: {crates:?}");
    for dir in crates {
        let files = sources(&dir.join("src"), &dir.join("src"));
        check(&dir.display().to_string(), &files, None);
    }
}

#[test]
fn a_two_file_circle_is_named() {
    check(
        "synthetic",
        &synthetic(&[
            ("lib.rs", "mod advise; mod brief; use crate::advise::x;"),
            ("advise.rs", "use crate::brief;\nfn a() { brief::b() }"),
            ("brief.rs", "fn b() { crate::advise::words(); }"),
        ]),
        Some("advise -> brief -> advise"),
    );
}

#[test]
fn a_circle_through_a_module_directory_and_a_group_is_named() {
    check(
        "synthetic",
        &synthetic(&[
            ("advise.rs", "mod other;"),
            ("advise/other.rs", "use crate::{ID, brief::{a, b}};"),
            ("brief.rs", "use crate::facts::F;"),
            ("brief/words.rs", "use crate::{\n    advise,\n};"),
            ("facts.rs", ""),
        ]),
        Some("advise -> brief -> advise"),
    );
}

#[test]
fn one_way_imports_through_facts_are_no_circle() {
    check(
        "synthetic",
        &synthetic(&[
            ("advise.rs", "use crate::brief; use crate::facts::{A, B};"),
            ("brief.rs", "use crate::facts::A;"),
            ("facts.rs", "use crate::recognize::Finding;"),
            ("recognize.rs", "use crate::ID;"),
        ]),
        None,
    );
}

#[test]
fn comments_strings_and_other_crates_are_not_imports() {
    check(
        "synthetic",
        &synthetic(&[
            ("advise.rs", "use crate::brief;"),
            (
                "brief.rs",
                "//! Built from [`crate::advise`]'s words.\n\
                 /* crate::advise */ const A: &str = \"crate::advise\";\n\
                 const B: &str = r#\"crate::advise \"quoted\"\"#; const C: char = '\"';\n\
                 use other_crate::advise; use my_crate::advise::x;",
            ),
        ]),
        None,
    );
}
