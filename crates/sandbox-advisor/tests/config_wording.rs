//! One sentence for one bad value on every surface (issue 29): the core's
//! `Config::from_json`, the CLI's `--config` file as JSON and as TOML, and (in
//! `bindings/node/test/config-wording.test.mjs`) the Node plugin all read the
//! cases of `crates/advisor-core/tests/fixtures/config-wording.json`. And the
//! `--config` help of every command that reads a file lists every declared key.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use advisor_core::Config;
use advisor_core::config::KEYS;
use sandbox_advisor::config::{FileConfig, Syntax};
use serde_json::Value;

const CASES: &str = include_str!("../../advisor-core/tests/fixtures/config-wording.json");

/// The same bad document on each Rust surface gives exactly `message`.
fn check(config: &Value, message: &str, toml: bool) {
    let core = Config::from_json(config.clone()).map_err(|e| e.to_string());
    assert_eq!(core.err().as_deref(), Some(message), "core: {config}");
    let json = FileConfig::parse(&config.to_string(), Syntax::Json).map_err(|e| e.to_string());
    assert_eq!(json.err().as_deref(), Some(message), "CLI JSON: {config}");
    if toml {
        // A flat table of strings, numbers, booleans and lists: each JSON value
        // is also that value's TOML.
        let text: String = config
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k} = {v}\n"))
            .collect();
        let parsed = FileConfig::parse(&text, Syntax::Toml).map_err(|e| e.to_string());
        assert_eq!(parsed.err().as_deref(), Some(message), "CLI TOML: {text}");
    }
}

#[test]
fn a_bad_value_gets_one_sentence_on_every_surface() {
    let cases: Value = serde_json::from_str(CASES).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() > 10);
    for case in cases {
        let toml = case.get("toml").and_then(Value::as_bool).unwrap_or(true);
        check(&case["config"], case["message"].as_str().unwrap(), toml);
    }
}

#[test]
fn the_config_help_lists_every_declared_key() {
    for args in [
        &["replay", "--help"][..],
        &["serve", "--help"],
        &["explain", "--help"],
        &["hook", "--help"],
    ] {
        let out = common::run(args, "");
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let help = out
            .stdout
            .split("--config <CONFIG>")
            .nth(1)
            .unwrap_or_default();
        let width = KEYS.iter().map(|k| k.name.len()).max().unwrap();
        for key in KEYS {
            let line = format!("  {:width$}  {}", key.name, key.kind.takes());
            assert!(help.contains(&line), "{args:?}: no {line:?} in\n{help}");
        }
    }
}

/// `docs/configuration.md`'s two example files are valid and say the same.
#[test]
fn the_configuration_docs_examples_are_one_configuration() {
    let doc = include_str!("../../../docs/configuration.md");
    let block = |fence: &str| {
        let start = doc.find(fence).unwrap() + fence.len();
        doc[start..].split("```").next().unwrap()
    };
    let toml = FileConfig::parse(block("```toml\n"), Syntax::Toml).unwrap();
    let json = FileConfig::parse(block("```json\n"), Syntax::Json).unwrap();
    assert_eq!(toml, json);
    assert_eq!(toml.core.enforce_after, 2);
}
