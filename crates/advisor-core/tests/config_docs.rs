//! Every committed surface that lists the configuration keys holds exactly
//! what `advisor_core::config::docs` renders from `KEYS` between its
//! generated-region markers. When one differs the test fails with the lines
//! that differ; `UPDATE_DOCS=1 cargo test -p sandbox-advisor-core --test config_docs`
//! rewrites the regions.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use advisor_core::config::docs;

/// The command that rewrites every region, named in each marker and failure.
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p sandbox-advisor-core --test config_docs";

/// A region's markers in a file whose comments start with `comment` (and end
/// with `close`): `(begin, end)`.
fn markers(comment: &str, close: &str) -> (String, String) {
    (
        format!(
            "{comment} BEGIN config keys: generated from advisor_core::config::KEYS; \
             {REGENERATE}{close}"
        ),
        format!("{comment} END config keys{close}"),
    )
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

/// The lines of `committed` and `generated` that differ, position by position.
fn diff(committed: &str, generated: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (committed.lines().collect(), generated.lines().collect());
    let mut out = String::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i), b.get(i));
        if x != y {
            if let Some(x) = x {
                out.push_str(&format!("  line {}: - {x}\n", i + 1));
            }
            if let Some(y) = y {
                out.push_str(&format!("  line {}: + {y}\n", i + 1));
            }
        }
    }
    out
}

/// Checks (or, with `UPDATE_DOCS=1`, rewrites) the region of `file` between the
/// markers; returns what is wrong, if anything.
fn check(file: &str, (comment, close): (&str, &str), generated: &str) -> Option<String> {
    // The begin marker ends its line; the region is whole lines up to the end marker.
    let path = workspace_root().join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let (begin, end) = markers(comment, close);
    let (Some(b), Some(e)) = (text.find(&begin), text.find(&end)) else {
        return Some(format!(
            "{file}: no region; put these two lines where the keys go, then run `{REGENERATE}`:\n{begin}\n{end}"
        ));
    };
    if text.matches(&begin).count() != 1 || e < b {
        return Some(format!(
            "{file}: the region's markers must occur once each, in order"
        ));
    }
    let start = b + begin.len() + 1; // past the marker's line end
    let committed = &text[start.min(e)..e];
    let expected = generated;
    if committed == expected {
        return None;
    }
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        fs::write(&path, format!("{}{expected}{}", &text[..start], &text[e..])).unwrap();
        return None;
    }
    Some(format!(
        "{file}: the configuration keys differ from advisor_core::config::KEYS; \
         run `{REGENERATE}` to rewrite the region:\n{}",
        diff(committed, expected)
    ))
}

#[test]
fn every_surface_lists_the_declared_keys() {
    let surfaces = [
        (
            "bindings/node/lib/index.d.ts",
            ("  //", ""),
            docs::typescript_fields(),
        ),
        (
            "bindings/node/README.md",
            ("<!--", " -->"),
            docs::node_table(),
        ),
        (
            "docs/configuration.md",
            ("<!--", " -->"),
            docs::full_table(),
        ),
        ("docs/protocol.md", ("<!--", " -->"), docs::protocol_list()),
    ];
    let failures: Vec<String> = surfaces
        .iter()
        .filter_map(|(file, comment, generated)| check(file, *comment, generated))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
