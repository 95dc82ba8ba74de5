//! Unit tests of the parent module.
use super::*;

fn json(text: &str) -> Result<FileConfig, ParseError> {
    FileConfig::parse(text, Syntax::Json)
}

#[test]
fn toml_and_json_carry_the_same_keys() {
    let toml = FileConfig::parse(
        "enforceAfter = 2\ndefaultMode = \"workspace-write\"\nfallbackRoot = 'D:\\ws'\n",
        Syntax::Toml,
    )
    .unwrap();
    let json =
        json(r#"{"enforceAfter":2,"defaultMode":"workspace-write","fallbackRoot":"D:\\ws"}"#)
            .unwrap();
    assert_eq!(toml, json);
    assert_eq!(json.core.enforce_after, 2);
    assert_eq!(json.fallback_root.as_deref(), Some(r"D:\ws"));
}

#[test]
fn errors_name_the_key_in_the_files_terms() {
    let e = |t: &str| json(t).unwrap_err().to_string();
    assert!(e(r#"{"enforceAftr":1}"#).starts_with("config key `enforceAftr`: unknown key"));
    assert!(e(r#"{"defaultMode":"full"}"#).starts_with("config key `defaultMode`:"));
    assert!(e(r#"{"fallbackRoot":3}"#).starts_with("config key `fallbackRoot`:"));
    assert_eq!(e("[]"), "the document must be a table of keys, not a list");
    assert_eq!(
        e(r#"{"maxDenials":"x"}"#),
        "config key `maxDenials`: must be a whole number from 1 to 4294967295, not the string \"x\""
    );
    assert_eq!(
        e(r#"{"include":["ok",3]}"#),
        "config key `include[1]`: must be a string (a tool-name pattern), not the number 3"
    );
    let t = FileConfig::parse("maxDenials = 'x'", Syntax::Toml).unwrap_err();
    assert!(t.to_string().starts_with("config key `maxDenials`:"));
}

#[test]
fn the_file_takes_every_declared_key_and_the_core_its_own() {
    // Each unknown-key message lists the keys its surface takes.
    let listed = |reason: &str| -> Vec<String> {
        let list = reason.split("expected one of").nth(1).unwrap();
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let ConfigError::Invalid { reason, .. } =
        Config::from_json(serde_json::json!({"zz": 1})).unwrap_err();
    let core: Vec<&str> = keys::keys_of(Surface::Core).map(|k| k.name).collect();
    assert_eq!(listed(&reason), core);
    let Err(ParseError::Key(KeyError::Key { reason, .. })) = json(r#"{"zz":1}"#) else {
        panic!("not a key error")
    };
    let all: Vec<&str> = advisor_core::config::KEYS.iter().map(|k| k.name).collect();
    assert_eq!(listed(&reason), all);
}

#[test]
fn syntax_errors_give_line_and_column() {
    assert_eq!(
        json("{\n  \"enforceAfter\": 1,\n}").unwrap_err(),
        ParseError::Syntax {
            line: 3,
            column: 1,
            message: "trailing comma".into()
        }
    );
    let ParseError::Syntax { line, column, .. } =
        FileConfig::parse("enforceAfter = 1\nmaxDenials = = 2\n", Syntax::Toml).unwrap_err()
    else {
        panic!("not a syntax error")
    };
    assert_eq!((line, column), (2, 14));
}

#[test]
fn format_by_name_then_by_content() {
    let of = |name: &str, text: &str| Format::of(Path::new(name), text);
    assert_eq!(of("a.TOML", "{").syntax, Syntax::Toml);
    assert_eq!(of("a.json", "x = 1").syntax, Syntax::Json);
    assert_eq!(
        of("a.conf", "  {\"enforceAfter\": 1}"),
        Format {
            syntax: Syntax::Json,
            detected: true
        }
    );
    assert_eq!(of("advisor", "enforceAfter = 1").syntax, Syntax::Toml);
}

#[test]
fn the_ledger_keys_choose_the_store_and_name_a_bad_value() {
    let c = json(r#"{"ledger":"redis://127.0.0.1:6379/0","stateDir":"/var/lib/sa"}"#).unwrap();
    assert_eq!(
        c.ledger,
        Some(LedgerSpec::Redis("redis://127.0.0.1:6379/0".into()))
    );
    assert_eq!(c.state_dir.as_deref(), Some(Path::new("/var/lib/sa")));
    let t = FileConfig::parse("ledger = 'file'", Syntax::Toml).unwrap();
    assert_eq!(t.ledger, Some(LedgerSpec::File));
    let e = |t: &str| json(t).unwrap_err().to_string();
    assert!(
        e(r#"{"ledger":"postgres://x"}"#)
            .starts_with("config key `ledger`: must be `memory`, `file` or"),
        "{}",
        e(r#"{"ledger":"postgres://x"}"#)
    );
    assert!(e(r#"{"ledger":3}"#).contains("the number 3"));
    assert!(e(r#"{"stateDir":""}"#).starts_with("config key `stateDir`:"));
    assert!(e(r#"{"zz":1}"#).contains("`ledger`, `stateDir`"));
}
