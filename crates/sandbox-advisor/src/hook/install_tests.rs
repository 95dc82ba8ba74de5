#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::claude_code::ClaudeCode;
use super::codex::Codex;
use super::*;

const BIN: &str = "/opt/bin/sandbox-advisor";

fn command(client: &dyn HookClient) -> String {
    Handler::new(std::path::Path::new(BIN), client.dialect(), None, None)
        .unwrap()
        .command_line()
}

/// One case: the file before (or none), the client, and the whole file
/// after, or the refusal's text. A second run over the result changes
/// nothing.
fn check(about: &str, before: Option<&str>, client: &dyn HookClient, after: Result<&str, &str>) {
    let command = command(client);
    match (merge(before, client, &command), after) {
        (Ok((text, _)), Ok(want)) => {
            assert_eq!(text, want, "{about}");
            let (again, plan) = merge(Some(&text), client, &command).unwrap();
            assert!(
                plan.edits.is_empty(),
                "{about}: a second run edits {plan:?}"
            );
            assert_eq!(again, text, "{about}: again");
        }
        (Err(why), Err(want)) => assert_eq!(why, want, "{about}"),
        (got, want) => panic!("{about}: got {got:?}, want {want:?}"),
    }
}

const CC: &str = "/opt/bin/sandbox-advisor hook --dialect claude-code";

#[test]
fn a_new_file_gets_the_stable_layout() {
    let cmd = "/opt/bin/sandbox-advisor hook --dialect codex";
    let group = |indent: &str| {
        format!(
            "{indent}{{\n{indent}  \"matcher\": \"Bash\",\n{indent}  \"hooks\": [\n{indent}    {{\n{indent}      \"type\": \"command\",\n{indent}      \"command\": \"{cmd}\"\n{indent}    }}\n{indent}  ]\n{indent}}}"
        )
    };
    let g = group("      ");
    let want = format!(
        "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n{g}\n    ],\n    \"PostToolUse\": [\n{g}\n    ]\n  }}\n}}\n"
    );
    check("no file", None, &Codex, Ok(&want));
    check("only whitespace", Some(" \n"), &Codex, Ok(&want));
}

#[test]
fn every_byte_outside_the_advisors_groups_is_kept() {
    // Numbers in every form, escapes, key order, 4-space indentation, CRLF.
    let before = "{\r\n    \"z\": 123456789012345678901234567890,\r\n    \"e\": [1e5, -0.0E-7, 1E+2],\r\n    \"s\": \"\\u00e9\\ud83d\\ude00\\/é\",\r\n    \"hooks\": {\r\n        \"PreToolUse\": [\r\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}\r\n        ]\r\n    },\r\n    \"a\": true\r\n}";
    let ours = |i: &str| {
        format!(
            "{i}{{\r\n{i}    \"matcher\": \"Bash\",\r\n{i}    \"hooks\": [\r\n{i}        {{\r\n{i}            \"type\": \"command\",\r\n{i}            \"command\": \"{CC}\"\r\n{i}        }}\r\n{i}    ]\r\n{i}}}"
        )
    };
    let (o12, o8) = (
        ours("            "),
        ours("        ").trim_start().to_owned(),
    );
    let after = format!(
        "{{\r\n    \"z\": 123456789012345678901234567890,\r\n    \"e\": [1e5, -0.0E-7, 1E+2],\r\n    \"s\": \"\\u00e9\\ud83d\\ude00\\/é\",\r\n    \"hooks\": {{\r\n        \"PreToolUse\": [\r\n            {{\"matcher\": \"Bash\", \"hooks\": [{{\"type\": \"command\", \"command\": \"lint.sh\"}}]}},\r\n{o12}\r\n        ],\r\n        \"PostToolUse\": [\r\n            {o8_},\r\n        \"PostToolUseFailure\": [\r\n            {o8_}\r\n    }},\r\n    \"a\": true\r\n}}",
        o8_ = format!(
            "{}\r\n        ]",
            o8.replace("\r\n        ", "\r\n            ")
        )
    );
    check(
        "CRLF, 4 spaces, numbers and escapes",
        Some(before),
        &ClaudeCode,
        Ok(&after),
    );
}

#[test]
fn only_the_advisors_own_groups_are_replaced_and_the_rest_is_listed() {
    let ours =
        format!(r#"{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{CC}"}}]}}"#);
    let gate = r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/policy/deny-rm.sh && sandbox-advisor hook --dialect claude-code"}]}"#;
    let audit = format!(
        r#"{{"matcher": "Write|Edit", "hooks": [{{"type": "command", "command": "{CC}"}}]}}"#
    );
    let old = r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "'/old place/sandbox-advisor' hook --dialect=claude-code --mode read-only"}]}"#;
    let before = format!(
        r#"{{"hooks": {{"PreToolUse": [{gate}, {old}, {audit}, {old}], "PostToolUse": [{old}], "PostToolUseFailure": [{ours}]}}}}"#
    );
    let after = format!(
        r#"{{"hooks": {{"PreToolUse": [{gate}, {ours}, {audit}], "PostToolUse": [{ours}], "PostToolUseFailure": [{ours}]}}}}"#
    );
    check(
        "old forms replaced, gate and audit kept",
        Some(&before),
        &ClaudeCode,
        Ok(&after),
    );
    let (_, plan) = merge(Some(&before), &ClaudeCode, CC).unwrap();
    let at = |list: &[Found]| list.iter().map(|f| f.at.clone()).collect::<Vec<_>>();
    assert_eq!(
        at(&plan.replaced),
        [
            "hooks.PreToolUse[1]",
            "hooks.PreToolUse[3]",
            "hooks.PostToolUse[0]"
        ]
    );
    assert_eq!(
        at(&plan.kept),
        [
            "hooks.PreToolUse[0].hooks[0]",
            "hooks.PreToolUse[2].hooks[0]"
        ]
    );
}

#[test]
fn a_handler_with_other_words_or_another_shape_is_never_ours() {
    let group = |matcher: &str, handlers: &str| {
        format!(
            r#"{{"hooks": {{"PostToolUse": [{{"matcher": "{matcher}", "hooks": [{handlers}]}}]}}}}"#
        )
    };
    let cmd = |c: &str| format!(r#"{{"type": "command", "command": "{c}"}}"#);
    for (about, text) in [
        (
            "a comment hiding a command",
            group(
                "Bash",
                &cmd("touch /x # sandbox-advisor hook --dialect codex"),
            ),
        ),
        ("another matcher", group("*", &cmd(CC))),
        (
            "a second handler in the group",
            group("Bash", &format!("{}, {}", cmd(CC), cmd("audit.sh"))),
        ),
        (
            "a timeout on the handler",
            group(
                "Bash",
                &format!(r#"{{"type": "command", "command": "{CC}", "timeout": 5}}"#),
            ),
        ),
        (
            "an extra flag",
            group("Bash", &cmd(&format!("{CC} --log debug"))),
        ),
        (
            "another dialect",
            group(
                "Bash",
                &cmd("/opt/bin/sandbox-advisor hook --dialect codex"),
            ),
        ),
    ] {
        let (_, plan) = merge(Some(&text), &ClaudeCode, CC).unwrap();
        assert!(plan.replaced.is_empty(), "{about}: {plan:?}");
        assert_eq!(plan.kept.len(), 1, "{about}");
        assert!(
            plan.edits.iter().all(|e| e.range.is_empty()),
            "{about}: only insertions"
        );
    }
}

#[test]
fn the_inserted_text_follows_the_files_layout() {
    let cmd = "/opt/bin/sandbox-advisor hook --dialect codex";
    let g = format!(r#"{{"matcher":"Bash","hooks":[{{"type":"command","command":"{cmd}"}}]}}"#);
    check(
        "one line, no spaces",
        Some(r#"{"hooks":{"PreToolUse":[]},"x":1}"#),
        &Codex,
        Ok(&format!(
            r#"{{"hooks":{{"PreToolUse":[{g}],"PostToolUse":[{g}]}},"x":1}}"#
        )),
    );
    let t = |n: usize| "\t".repeat(n);
    let group = |i: usize| {
        format!(
            "{{\n{a}\"matcher\": \"Bash\",\n{a}\"hooks\": [\n{b}{{\n{c}\"type\": \"command\",\n{c}\"command\": \"{cmd}\"\n{b}}}\n{a}]\n{z}}}",
            a = t(i + 1),
            b = t(i + 2),
            c = t(i + 3),
            z = t(i)
        )
    };
    check(
        "tabs, an empty array",
        Some("{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t]\n\t}\n}\n"),
        &Codex,
        Ok(&format!(
            "{{\n\t\"hooks\": {{\n\t\t\"PreToolUse\": [\n\t\t\t{}\n\t\t],\n\t\t\"PostToolUse\": [\n\t\t\t{}\n\t\t]\n\t}}\n}}\n",
            group(3),
            group(3)
        )),
    );
}

#[test]
fn a_file_that_is_not_settings_is_refused_by_what_is_wrong() {
    for (about, text, why) in [
        (
            "not JSON",
            "{\"hooks\": }",
            "not valid JSON at line 1 column 11: expected a JSON value",
        ),
        (
            "a trailing comma",
            "{\"a\": 1,\n}",
            "not valid JSON at line 2 column 1: expected a key in double quotes",
        ),
        ("an array", "[]", "it is not a JSON object"),
        (
            "hooks a string",
            r#"{"hooks": "x"}"#,
            "key `hooks` is not an object",
        ),
        (
            "an event an object",
            r#"{"hooks": {"PostToolUse": {}}}"#,
            "key `hooks.PostToolUse` is not an array",
        ),
        (
            "handlers not a list",
            r#"{"hooks": {"PreToolUse": [{"hooks": 3}]}}"#,
            "key `hooks.PreToolUse[0].hooks` is not an array",
        ),
        (
            "a duplicate key, deep",
            "{\"a\": {\"b\": 1,\n \"c\\u0022\": 2,\n \"c\\\"\": 3}}",
            "the key \"c\\\"\" appears twice in one object (line 2 and line 3): JSON with a duplicate key is ambiguous, since programs differ on which of the two they keep, so install cannot tell what the client reads; remove one of them",
        ),
        (
            "too deep",
            &format!("{{\"a\": {}{}}}", "[".repeat(200), "]".repeat(200)),
            "nested deeper than 128 levels at line 1",
        ),
        (
            "too many values",
            &format!("{{\"a\": [{}0]}}", "0,\n".repeat(100_000)),
            "it holds more than 100000 values (a settings file holds far fewer); line 99999",
        ),
    ] {
        check(about, Some(text), &Codex, Err(why));
    }
}

#[cfg(unix)]
mod on_disk {
    use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

    use super::*;
    use crate::hook::Dialect;

    fn place(dir: &std::path::Path) -> Place {
        ClaudeCode.place(&Scope::Project(dir.to_owned())).unwrap()
    }

    fn handler() -> Handler {
        Handler::new(std::path::Path::new(BIN), Dialect::ClaudeCode, None, None).unwrap()
    }

    #[test]
    fn install_writes_once_keeps_the_mode_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let place = place(dir.path());
        assert_eq!(place.path(), dir.path().join(".claude/settings.json"));
        assert_eq!(
            install(&ClaudeCode, &place, &handler()).unwrap().change,
            Change::Written
        );
        let path = place.path();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::fs::write(&path, "{\"apiKeyHelper\": \"x\"}").unwrap();
        assert_eq!(
            install(&ClaudeCode, &place, &handler()).unwrap().change,
            Change::Written
        );
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(
            first.starts_with("{\"apiKeyHelper\": \"x\", \"hooks\": {"),
            "{first}"
        );
        assert_eq!(
            std::fs::metadata(&path).unwrap().mode() & 0o777,
            0o640,
            "the mode is kept"
        );
        assert_eq!(
            install(&ClaudeCode, &place, &handler()).unwrap().change,
            Change::Unchanged
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temp file left: {names:?}");
    }

    #[test]
    fn a_file_replaced_or_created_while_install_runs_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let place = place(dir.path());
        let opened = file::open(&place).unwrap();
        std::fs::create_dir(dir.path().join(".claude")).unwrap();
        std::fs::write(place.path(), "{\"theirs\": 1}").unwrap();
        let e = opened.replace("{}").unwrap_err().to_string();
        assert!(e.contains("it changed while install ran"), "{e}");
        let opened = file::open(&place).unwrap();
        std::fs::write(dir.path().join("other.json"), "{\"other\": 2}").unwrap();
        std::fs::rename(dir.path().join("other.json"), place.path()).unwrap();
        let e = opened.replace("{}").unwrap_err().to_string();
        assert!(e.contains("it changed while install ran"), "{e}");
        assert_eq!(
            std::fs::read_to_string(place.path()).unwrap(),
            "{\"other\": 2}"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path().join(".claude"))
            .unwrap()
            .collect();
        assert_eq!(names.len(), 1, "no temp file left: {names:?}");
    }

    #[test]
    fn a_link_on_the_way_a_hard_link_and_a_fifo_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("home/.claude");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("settings.json"), "{}").unwrap();
        let project = dir.path().join("p");
        std::fs::create_dir(&project).unwrap();
        let refusal = |why: &str| {
            let e = install(&ClaudeCode, &place(&project), &handler())
                .unwrap_err()
                .to_string();
            assert!(e.contains(why) && e.ends_with("nothing was changed"), "{e}");
            e
        };
        symlink(&elsewhere, project.join(".claude")).unwrap();
        let e = refusal("/p/.claude: it is a symbolic link to ");
        assert!(e.contains("home/.claude"), "{e}");
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("settings.json")).unwrap(),
            "{}"
        );
        std::fs::remove_file(project.join(".claude")).unwrap();
        std::fs::create_dir(project.join(".claude")).unwrap();
        let file = project.join(".claude/settings.json");
        symlink(elsewhere.join("settings.json"), &file).unwrap();
        refusal("/p/.claude/settings.json: it is a symbolic link to ");
        std::fs::remove_file(&file).unwrap();
        std::fs::hard_link(elsewhere.join("settings.json"), &file).unwrap();
        refusal("it has 2 names (hard links)");
        std::fs::remove_file(&file).unwrap();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &file,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        refusal("it is a FIFO, not a regular file");
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("settings.json")).unwrap(),
            "{}"
        );
    }
}
