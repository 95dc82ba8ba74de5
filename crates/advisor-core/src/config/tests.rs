//! Unit tests of the parent module.
use super::*;
use serde_json::json;

fn err(v: serde_json::Value) -> String {
    Config::from_json(v).unwrap_err().to_string()
}

#[test]
fn defaults_match_the_original_plugin() {
    let c = Config::from_json(json!({})).unwrap();
    assert_eq!((c.enforce_after, c.max_denials), (0, 2));
    assert_eq!(
        (c.ledger_capacity, c.session_capacity),
        (DEFAULT_LEDGER_CAPACITY, DEFAULT_SESSION_CAPACITY)
    );
    assert_eq!(c, Config::default());
    assert!(c.tracks("anything"));
}

/// Each bad document and the whole message the core gives for it, the same
/// sentence the Node plugin and the CLI's file give (the cross-surface table
/// is `crates/sandbox-advisor/tests/config_wording.rs`).
const REFUSED: &[(&str, &str)] = &[
    (
        r#"{"enforceAfterr": 1}"#,
        "config key `enforceAfterr`: unknown key; expected one of `enforceAfter`, `maxDenials`, `include`, `exclude`, `href`, `ledgerCapacity`, `sessionCapacity`, `locale`, `advisoryText`, `hostVersion`",
    ),
    (
        r#"{"defaultMode": "read-only"}"#,
        "config key `defaultMode`: unknown key; expected one of `enforceAfter`, `maxDenials`, `include`, `exclude`, `href`, `ledgerCapacity`, `sessionCapacity`, `locale`, `advisoryText`, `hostVersion`",
    ),
    (
        r#"{"maxDenials": "two"}"#,
        "config key `maxDenials`: must be a whole number from 1 to 4294967295, not the string \"two\"",
    ),
    (
        r#"{"maxDenials": 0}"#,
        "config key `maxDenials`: must be a whole number from 1 to 4294967295, not the number 0",
    ),
    (
        r#"{"enforceAfter": 2, "maxDenials": 0}"#,
        "config key `maxDenials`: must be a whole number from 1 to 4294967295, not the number 0",
    ),
    (
        r#"{"enforceAfter": -1}"#,
        "config key `enforceAfter`: must be a whole number from 0 to 4294967295, not the number -1",
    ),
    (
        r#"{"enforceAfter": 1.5}"#,
        "config key `enforceAfter`: must be a whole number from 0 to 4294967295, not the number 1.5",
    ),
    (
        r#"{"enforceAfter": 4294967296}"#,
        "config key `enforceAfter`: must be a whole number from 0 to 4294967295, not the number 4294967296",
    ),
    (
        r#"{"include": "bash"}"#,
        "config key `include`: must be a list of tool-name patterns (strings), not the string \"bash\"",
    ),
    (
        r#"{"include": ["bash", 3]}"#,
        "config key `include[1]`: must be a string (a tool-name pattern), not the number 3",
    ),
    (
        r#"{"include": ["bash", ""]}"#,
        "config key `include[1]`: a pattern must not be empty",
    ),
    (
        r#"{"href": "not a url"}"#,
        "config key `href`: must be an http or https URL (a string without whitespace, at most 2048 bytes), not the string \"not a url\"",
    ),
    (
        r#"{"ledgerCapacity": 0}"#,
        "config key `ledgerCapacity`: must be a whole number of at least 1, not the number 0",
    ),
    (
        r#"{"sessionCapacity": 0}"#,
        "config key `sessionCapacity`: must be a whole number of at least 1, not the number 0",
    ),
    (
        r#"{"sessionCapacity": "many"}"#,
        "config key `sessionCapacity`: must be a whole number of at least 1, not the string \"many\"",
    ),
    (
        r#"{"locale": "fr"}"#,
        "config key `locale`: must be `en` or `zh-CN`, not the string \"fr\"",
    ),
    (
        r#"{"advisoryText": true}"#,
        "config key `advisoryText`: must be `brief` or `full`, not `true`",
    ),
    (
        r#"{"hostVersion": 2}"#,
        "config key `hostVersion`: must be a version string MAJOR.MINOR.PATCH such as \"2.0.11\", not the number 2",
    ),
    (
        r#"{"maxDenials": "\u001b[2J"}"#,
        "config key `maxDenials`: must be a whole number from 1 to 4294967295, not the string \"\\u{1B}[2J\"",
    ),
    ("[1]", "config key `.`: must be a table of keys, not a list"),
    (
        "{",
        "config key `.`: EOF while parsing an object at line 1 column 1",
    ),
];

/// A document the core must refuse, with exactly this message.
fn check(text: &str, expected: &str) {
    let got = Config::from_json_str(text).map_err(|e| e.to_string());
    assert_eq!(got.err().as_deref(), Some(expected), "{text}");
}

#[test]
fn errors_name_the_key() {
    for (text, expected) in REFUSED {
        check(text, expected);
    }
    assert_eq!(
        Config::from_json(json!({"sessionCapacity": 7}))
            .unwrap()
            .session_capacity,
        7
    );
}

/// Every declared default is the core's own, and every declared word parses.
#[test]
fn the_declaration_agrees_with_the_core() {
    let defaults = Config::default();
    for k in KEYS.iter().filter(|k| k.surface == Surface::Core) {
        let shown = match k.name {
            "enforceAfter" => json!(defaults.enforce_after),
            "maxDenials" => json!(defaults.max_denials),
            "ledgerCapacity" => json!(defaults.ledger_capacity),
            "sessionCapacity" => json!(defaults.session_capacity),
            "include" | "exclude" => json!([]),
            "locale" => json!("en"),
            "advisoryText" => json!("brief"),
            "href" | "hostVersion" => serde_json::Value::Null,
            other => panic!("{other}: a core key this test does not know"),
        };
        let declared = match k.default {
            DefaultValue::Number(n) => json!(n),
            DefaultValue::EmptyList => json!([]),
            DefaultValue::Word(w) => json!(w),
            DefaultValue::Unset => serde_json::Value::Null,
        };
        assert_eq!(shown, declared, "{}", k.name);
        if let KeyKind::Choice(words) = k.kind {
            for w in words {
                assert!(
                    Config::from_json(json!({ k.name: w })).is_ok(),
                    "{}: {w}",
                    k.name
                );
            }
        }
        assert!(
            !k.meaning.contains("*/"),
            "{}: would end a doc comment",
            k.name
        );
    }
}

#[test]
fn host_version_is_optional_and_its_errors_name_the_key() {
    assert_eq!(Config::from_json(json!({})).unwrap().host_version, None);
    assert_eq!(
        Config::from_json(json!({"hostVersion": "2.0.10"}))
            .unwrap()
            .host_version,
        Some(crate::HostVersion::new(2, 0, 10))
    );
    for bad in [json!("2.0"), json!("v2.0.11"), json!(""), json!(2)] {
        assert!(
            err(json!({ "hostVersion": bad })).starts_with("config key `hostVersion`:"),
            "{bad}"
        );
    }
}

#[test]
fn exclude_wins_over_include() {
    let c = Config::from_json(json!({"include": ["b*", "pwsh"], "exclude": ["bash-*"]})).unwrap();
    assert!(c.tracks("bash"));
    assert!(c.tracks("pwsh"));
    assert!(!c.tracks("bash-1"));
    assert!(!c.tracks("read_file"));
}

/// Only `*` is a wildcard; every other character is itself, as in the original.
#[test]
fn only_the_star_is_a_wildcard() {
    for (pattern, name, expected) in [
        ("pwsh", "pwsh", true),
        ("pwsh", "pwsh2", false),
        ("pwsh", "xpwsh", false),
        ("pw?h", "pwsh", false),
        ("pw?h", "pw?h", true),
        ("[bp]ash", "bash", false),
        ("[bp]ash", "[bp]ash", true),
        ("*", "", true),
        ("*", "anything", true),
        ("b*", "b", true),
        ("b*", "bash", true),
        ("b*", "ab", false),
        ("*sh", "bash", true),
        ("*sh", "bash-x", false),
        ("b*s*h", "bash", true),
        ("b*s*h", "bsh", true),
        ("b*s*h", "bh", false),
        ("a*a", "a", false),
        ("a*a", "aa", true),
        ("**", "x", true),
        ("Bash", "bash", false),
        ("dsh-*-pwsh", "dsh-tool-pwsh", true),
        ("dsh-*-pwsh", "dsh-pwsh", false),
    ] {
        let p = ToolPattern::new(pattern).unwrap();
        assert_eq!(p.matches(name), expected, "{pattern:?} against {name:?}");
    }
}
