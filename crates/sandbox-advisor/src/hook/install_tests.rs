#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};

use super::*;

const CMD: &str = "/opt/bin/sandbox-advisor hook --dialect claude-code";

/// One case: the file before (or none), the client, and the file after as
/// JSON, or the refusal's text.
fn check(about: &str, before: Option<&str>, client: Client, after: Result<Value, &str>) {
    let command = command_line(Path::new("/opt/bin/sandbox-advisor"), client.dialect(), &[]);
    match (merge(before, client, &command), after) {
        (Ok(text), Ok(want)) => {
            let got: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(got, want, "{about}");
            // A second run over its own output changes nothing.
            assert_eq!(
                merge(Some(&text), client, &command).unwrap(),
                text,
                "{about}: again"
            );
        }
        (Err(why), Err(want)) => assert_eq!(why, want, "{about}"),
        (got, want) => panic!("{about}: got {got:?}, want {want:?}"),
    }
}

fn ours(command: &str) -> Value {
    json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]})
}

#[test]
fn merges_keep_every_other_hook_and_are_idempotent() {
    let codex = "/opt/bin/sandbox-advisor hook --dialect codex";
    check(
        "no file: the three Claude Code events",
        None,
        Client::ClaudeCode,
        Ok(json!({"hooks": {
            "PreToolUse": [ours(CMD)], "PostToolUse": [ours(CMD)], "PostToolUseFailure": [ours(CMD)],
        }})),
    );
    check(
        "an empty file: Codex's two events",
        Some("  \n"),
        Client::Codex,
        Ok(json!({"hooks": {"PreToolUse": [ours(codex)], "PostToolUse": [ours(codex)]}})),
    );
    let other = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]});
    check(
        "another hook and another key are kept; ours goes after them",
        Some(
            &json!({"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [other]}})
                .to_string(),
        ),
        Client::Codex,
        Ok(json!({"permissions": {"allow": ["Bash"]}, "hooks": {
            "PreToolUse": [other, ours(codex)], "PostToolUse": [ours(codex)],
        }})),
    );
    let old = ours("/old/place/sandbox-advisor hook --dialect codex --mode read-only");
    check(
        "an advisor handler from an older install is replaced where it stood",
        Some(
            &json!({"hooks": {"PreToolUse": [old, other], "PostToolUse": [other, old]}})
                .to_string(),
        ),
        Client::Codex,
        Ok(
            json!({"hooks": {"PreToolUse": [ours(codex), other], "PostToolUse": [other, ours(codex)]}}),
        ),
    );
    let shared = json!({"matcher": "*", "hooks": [
        {"type": "command", "command": "audit.sh"},
        {"type": "command", "command": "sandbox-advisor hook --dialect claude-code"},
    ]});
    check(
        "in a group shared with another handler only ours leaves, and ours goes in before it",
        Some(&json!({"hooks": {"PostToolUseFailure": [shared]}}).to_string()),
        Client::ClaudeCode,
        Ok(json!({"hooks": {
            "PostToolUseFailure": [ours(CMD), {"matcher": "*", "hooks": [{"type": "command", "command": "audit.sh"}]}],
            "PreToolUse": [ours(CMD)], "PostToolUse": [ours(CMD)],
        }})),
    );
}

#[test]
fn a_file_that_is_not_settings_is_refused_by_what_is_wrong() {
    check(
        "not JSON",
        Some("{\"hooks\": }"),
        Client::ClaudeCode,
        Err("not valid JSON at line 1 column 11: expected a JSON value"),
    );
    check(
        "an array",
        Some("[]"),
        Client::ClaudeCode,
        Err("it is not a JSON object"),
    );
    check(
        "hooks a string",
        Some(r#"{"hooks": "x"}"#),
        Client::Codex,
        Err("key `hooks` is not an object"),
    );
    check(
        "an event an object",
        Some(r#"{"hooks": {"PostToolUse": {}}}"#),
        Client::Codex,
        Err("key `hooks.PostToolUse` is not an array"),
    );
    check(
        "handlers not a list",
        Some(r#"{"hooks": {"PreToolUse": [{"hooks": 3}]}}"#),
        Client::Codex,
        Err("key `hooks.PreToolUse[0].hooks` is not an array"),
    );
}

#[test]
fn the_command_line_quotes_what_a_shell_would_read() {
    let line = |bin: &str, extra: &[&str]| {
        let extra: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
        command_line(Path::new(bin), Dialect::Codex, &extra)
    };
    assert_eq!(
        line("/usr/bin/sandbox-advisor", &[]),
        "/usr/bin/sandbox-advisor hook --dialect codex"
    );
    assert_eq!(
        line(
            "/home/a b/it's/sandbox-advisor",
            &["--mode", "workspace-write"]
        ),
        r"'/home/a b/it'\''s/sandbox-advisor' hook --dialect codex --mode workspace-write"
    );
    assert_eq!(
        line("/x/sandbox-advisor", &["--config", "$HOME/c.toml"]),
        "/x/sandbox-advisor hook --dialect codex --config '$HOME/c.toml'"
    );
    assert!(is_advisor(&line("/x/sandbox-advisor", &[])));
    assert!(!is_advisor("sandbox-advisor explain --dialect x"));
    assert!(!is_advisor("lint.sh hook --dialect codex"));
}

#[test]
fn install_writes_once_then_leaves_the_file_alone_and_refuses_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let path = Client::ClaudeCode
        .settings_path(&Scope::Project(dir.path().to_owned()))
        .unwrap();
    assert_eq!(path, dir.path().join(".claude/settings.json"));
    assert_eq!(
        install(Client::ClaudeCode, &path, CMD).unwrap(),
        Change::Written
    );
    let first = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        install(Client::ClaudeCode, &path, CMD).unwrap(),
        Change::Unchanged
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1,
        "no temp file left"
    );
    #[cfg(unix)]
    {
        let link = dir.path().join("linked.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let e = install(Client::ClaudeCode, &link, CMD)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("it is a symbolic link (edit its target, or choose another scope); nothing was changed"), "{e}");
    }
    std::fs::write(&path, "{oops").unwrap();
    let e = install(Client::ClaudeCode, &path, CMD)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("settings.json: not valid JSON at line 1 column 2"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{oops",
        "left as it was"
    );
}
