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

/// A small deterministic generator (xorshift), so the cases are the same on every run.
struct Gen(u64);

impl Gen {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }

    fn space(&mut self) -> &'static str {
        ["", "", " ", "\n\t "][self.next(4) as usize]
    }

    /// A random JSON text up to `depth` containers deep, with spacing and
    /// strings that hold brackets, commas and escaped quotes.
    fn text(&mut self, depth: usize) -> String {
        let pick = if depth == 0 {
            self.next(3)
        } else {
            self.next(6)
        };
        match pick {
            0 => ["0", "-1.5e3", "true", "null"][self.next(4) as usize].to_owned(),
            1 => {
                [r#""a""#, r#""],[{\"}""#, r#""\\""#, r#""é,:""#][self.next(4) as usize].to_owned()
            }
            2 => "[]".to_owned(),
            3 | 4 => {
                let items: Vec<String> = (0..self.next(4)).map(|_| self.text(depth - 1)).collect();
                let sep = format!("{},{}", self.space(), self.space());
                format!("[{}{}{}]", self.space(), items.join(&sep), self.space())
            }
            _ => {
                let members: Vec<String> = (0..self.next(4))
                    .map(|i| {
                        format!(
                            "\"k{i}\"{}:{}{}",
                            self.space(),
                            self.space(),
                            self.text(depth - 1)
                        )
                    })
                    .collect();
                let sep = format!("{},{}", self.space(), self.space());
                format!("{{{}{}{}}}", self.space(), members.join(&sep), self.space())
            }
        }
    }
}

/// The tree `value` with every container deeper than `levels` removed (the value itself is level 1).
fn pruned_tree(value: &serde_json::Value, levels: usize) -> serde_json::Value {
    use serde_json::Value;
    let keep = |v: &Value| !(levels <= 1 && (v.is_array() || v.is_object()));
    match value {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .filter(|v| keep(v))
                .map(|v| pruned_tree(v, levels - 1))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| keep(v))
                .map(|(k, v)| (k.clone(), pruned_tree(v, levels - 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn the_text_left_reads_as_the_tree_with_its_deep_containers_removed() {
    let mut generator = Gen(0x9E37_79B9_7F4A_7C15);
    let mut cut_any = 0;
    for _ in 0..3000 {
        let text = generator.text(7);
        let whole: serde_json::Value = serde_json::from_str(&text).unwrap();
        // Levels kept: 1 to 5 of the value's own.
        let levels = 1 + generator.next(5) as usize;
        let (left, cuts, left_out) = run(&text, MAX_DEPTH + 1 - levels);
        let read: serde_json::Value = serde_json::from_str(&left)
            .unwrap_or_else(|e| panic!("{text:?} at {levels} levels left {left:?}: {e}"));
        assert_eq!(
            read,
            pruned_tree(&whole, levels),
            "{text:?} at {levels} levels"
        );
        assert_eq!(left_out.is_some(), !cuts.is_empty(), "{text:?}");
        cut_any += usize::from(left_out.is_some());
    }
    assert!(cut_any > 300, "only {cut_any} cases cut anything");
}
