//! `--config FILE`: the format a name implies or the content shows, and every
//! error in the file's own terms, naming the file, the position or the key.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use common::*;

/// A file that must be refused: its name, its text, and the error (`{path}` is the file).
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "c.json",
        r#"{"enforceAfter": 2, "maxDenial": 1}"#,
        "config {path}: config key `maxDenial`: unknown key; expected one of `enforceAfter`, `maxDenials`, `include`, `exclude`, `href`, `ledgerCapacity`, `sessionCapacity`, `locale`, `advisoryText`, `hostVersion`, `defaultMode`, `fallbackRoot`, `ledger`, `stateDir`",
    ),
    (
        "c.json",
        "{\"enforceAfter\": 1,}",
        "parse error in {path} at line 1 column 20: trailing comma (read as JSON)",
    ),
    (
        "c.json",
        "{\n  \"enforceAfter\": 1\n",
        "parse error in {path} at line 3 column 1: the text ends inside an object (read as JSON)",
    ),
    (
        "c.conf",
        "{\"enforceAfter\": 1,}",
        "parse error in {path} at line 1 column 20: trailing comma (read as JSON, detected from its content)",
    ),
    (
        "c.json",
        r#"{"maxDenials": "2"}"#,
        "config {path}: config key `maxDenials`: must be a whole number from 1 to 4294967295, not the string \"2\"",
    ),
    (
        "c.json",
        r#"{"maxDenials": 0}"#,
        "config {path}: config key `maxDenials`: must be a whole number from 1 to 4294967295, not the number 0",
    ),
    (
        "c.json",
        r#"{"enforceAfter": -1}"#,
        "config {path}: config key `enforceAfter`: must be a whole number from 0 to 4294967295, not the number -1",
    ),
    (
        "c.json",
        r#"{"include": "pwsh"}"#,
        "config {path}: config key `include`: must be a list of tool-name patterns (strings), not the string \"pwsh\"",
    ),
    (
        "c.json",
        r#"{"exclude": ["bash", 7]}"#,
        "config {path}: config key `exclude[1]`: must be a string (a tool-name pattern), not the number 7",
    ),
    (
        "c.json",
        r#"{"ledgerCapacity": 0}"#,
        "config {path}: config key `ledgerCapacity`: must be a whole number of at least 1, not the number 0",
    ),
    (
        "c.json",
        r#"{"href": 5}"#,
        "config {path}: config key `href`: must be an http or https URL (a string without whitespace, at most 2048 bytes), not the number 5",
    ),
    (
        "c.toml",
        "defaultMode = \"workspace_write\"\n",
        "config {path}: config key `defaultMode`: must be one of `read-only`, `workspace-write`, `danger-full-access`, not the string \"workspace_write\"",
    ),
    (
        "c.toml",
        "fallbackRoot = true\n",
        "config {path}: config key `fallbackRoot`: must be a non-empty string, not `true`",
    ),
    (
        "advisor",
        "enforceAfter = 'x'\n",
        "config {path}: config key `enforceAfter`: must be a whole number from 0 to 4294967295, not the string \"x\"",
    ),
    (
        "c.json",
        "[1]",
        "config {path}: the document must be a table of keys, not a list",
    ),
];

#[test]
fn a_refused_config_is_one_line_naming_the_file_and_the_key_or_position() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, expected) in REFUSED {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        for command in ["replay", "serve", "explain"] {
            let mut args = vec![command, "--config", path];
            if command == "explain" {
                args.push("x");
            }
            let out = run(&args, "");
            assert_eq!(out.code, 2, "{command} {name} {text}");
            assert_eq!(
                out.stderr,
                format!("sandbox-advisor: {}\n", expected.replace("{path}", path)),
                "{command} {name} {text}"
            );
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn a_toml_syntax_error_gives_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(&path, "enforceAfter = 1\nmaxDenials = = 2\n").unwrap();
    let out = run(&["replay", "-", "--config", path.to_str().unwrap()], "");
    assert_eq!(out.code, 2);
    let prefix = format!(
        "sandbox-advisor: parse error in {} at line 2 column 14: ",
        path.display()
    );
    assert!(out.stderr.starts_with(&prefix), "{}", out.stderr);
    assert!(out.stderr.ends_with(" (read as TOML)\n"), "{}", out.stderr);
}

/// A file that must be accepted: its name, its text, and what the header says of it.
const ACCEPTED: &[(&str, &str, &str)] = &[
    (
        "bom.json",
        "\u{feff}{\"enforceAfter\": 2}",
        "(JSON); defaultMode read-only, enforceAfter 2, maxDenials 2",
    ),
    (
        "bom.toml",
        "\u{feff}enforceAfter = 3\n",
        "(TOML); defaultMode read-only, enforceAfter 3, maxDenials 2",
    ),
    (
        "deploy.conf",
        "# the deployment\ndefaultMode = \"workspace-write\"\n",
        "(TOML, detected from its content); defaultMode workspace-write, fail-fast off",
    ),
    (
        "advisor-config",
        "\u{feff}\n  {\"fallbackRoot\": \"D:\\\\ws\"}",
        "(JSON, detected from its content); defaultMode read-only, fail-fast off, fallbackRoot D:\\ws",
    ),
];

#[test]
fn a_byte_order_mark_is_ignored_and_an_unknown_extension_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, header) in ACCEPTED {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let out = run(&["replay", "-", "--format", "text", "--config", path], "");
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert_eq!(
            out.stdout.lines().next().unwrap(),
            format!("replaying stdin — config {path} {header}"),
        );
        assert_eq!(run(&["serve", "--config", path], "").code, 0, "{name}");
    }
}
