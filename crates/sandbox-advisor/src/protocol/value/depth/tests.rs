//! Unit tests of the parent module.
use super::*;

/// `n` arrays in one another around `inner`.
fn nested(n: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(n), "]".repeat(n))
}

/// Prunes `text` read at `level`: the text left, what was cut, and the report.
fn run(text: &str, level: usize) -> (String, Vec<String>, Option<LeftOut>) {
    let mut cuts = Vec::new();
    let pruned = prune(text, level, &mut |gone| cuts.push(gone.to_owned()));
    (pruned.text.into_owned(), cuts, pruned.left_out)
}

#[test]
fn members_past_the_limit_are_cut_with_their_comma_and_the_rest_kept() {
    // At level 128 a value's own containers are kept, its members are not.
    let check = |text: &str, kept: &str, cut: &[&str], path: Option<&str>| {
        let (left, cuts, left_out) = run(text, MAX_DEPTH);
        assert_eq!(left, kept, "{text}");
        assert_eq!(cuts, cut, "{text}");
        assert_eq!(left_out.map(|l| l.path), path.map(str::to_owned), "{text}");
        serde_json::from_str::<serde_json::Value>(&left).unwrap();
    };
    check("[1,2]", "[1,2]", &[], None);
    check("[[1],2]", "[2]", &["[1]", ","], Some("[0]"));
    check("[1, [2], 3]", "[1, 3]", &[", [2]"], Some("[1]"));
    check("[1,[2]]", "[1]", &[",[2]"], Some("[1]"));
    check(
        "[[1], [2], 3]",
        "[  3]",
        &["[1]", ",", "[2]", ","],
        Some("[0]"),
    );
    check("[[1],[{}]]", "[]", &["[1]", ",", "[{}]"], Some("[0]"));
    check(
        r#"{"a":{"x":1},"b":"]}\"[","c":[]}"#,
        r#"{"b":"]}\"["}"#,
        &[r#""a":{"x":1}"#, ",", r#","c":[]"#],
        Some(".a"),
    );
    check(
        r#"{"k": 1 , "d": [[["s"]]] }"#,
        r#"{"k": 1  }"#,
        &[r#", "d": [[["s"]]]"#],
        Some(".d"),
    );
    check("\"[[[\"", "\"[[[\"", &[], None);
    check("7", "7", &[], None);
}

#[test]
fn the_limit_counts_levels_from_the_line() {
    for (level, depth, cut) in [
        (2, 127, false),
        (2, 128, true),
        (3, 126, false),
        (3, 127, true),
    ] {
        let text = nested(depth, "0");
        let (left, _, left_out) = run(&text, level);
        assert_eq!(left_out.is_some(), cut, "level {level} depth {depth}");
        if let Some(l) = left_out {
            assert_eq!((l.count, l.level), (1, MAX_DEPTH + 1));
            assert_eq!(left, nested(depth - 1, ""));
        }
        // What is left is always within the JSON reader's own limit.
        serde_json::from_str::<serde_json::Value>(&left).unwrap();
    }
}

#[test]
fn a_hundred_thousand_levels_cost_one_pass_and_a_bounded_stack() {
    let text = format!(
        r#"{{"command":"x","deep":{},"more":[{}]}}"#,
        nested(100_000, "1"),
        nested(200, "2")
    );
    let started = std::time::Instant::now();
    let (left, cuts, left_out) = run(&text, 2);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    let left_out = left_out.unwrap();
    assert_eq!((left_out.count, left_out.level), (2, 129));
    assert_eq!(
        cuts.iter().map(String::len).sum::<usize>() + left.len(),
        text.len()
    );
    let value: serde_json::Value = serde_json::from_str(&left).unwrap();
    assert_eq!(value["command"], "x");
    // A path 127 levels long is shown with its middle elided.
    assert!(left_out.path.starts_with(".deep[0][0]") && left_out.path.contains('…'));
    assert!(left_out.path.chars().count() <= PATH_MAX_CHARS + 1);
    assert!(left_out.describe("args").contains("2 members of `args`"));
}

#[test]
fn anything_else_is_answered_without_a_panic() {
    for text in [
        "",
        "[",
        "]]]]",
        "{\"a",
        "\"\\",
        "[[[[",
        "{{{{:,,,]",
        "\u{e9}[\u{e9}",
    ] {
        for level in [1, 2, MAX_DEPTH, MAX_DEPTH + 5] {
            let _ = run(&text.repeat(300), level);
        }
    }
}
