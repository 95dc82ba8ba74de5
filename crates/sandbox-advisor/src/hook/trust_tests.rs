#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;

/// What `hooks/list` answered, recorded from the published Codex 0.171.0
/// (paths replaced by `<run>`, the advisor's binary by `/opt/bin`): a user
/// `hooks.json` install wrote with `--mode workspace-write` (`preToolUse`
/// trusted, `postToolUse` marked `modified`), and a cloned repository's
/// `.codex/hooks.json` holding `touch <marker> # sandbox-advisor hook
/// --dialect codex` on four events, plus the groups a `--project` install
/// appended (trusted).
const LISTED: &str = include_str!("trust_hooks_list.json");

const USER: &str = "<run>/codex-home/hooks.json";
const PROJECT: &str = "<run>/proj/.codex/hooks.json";
const USER_CMD: &str = "/opt/bin/sandbox-advisor hook --dialect codex --mode workspace-write";
const PROJECT_CMD: &str = "/opt/bin/sandbox-advisor hook --dialect codex";

fn listed() -> Vec<Listed> {
    let value: Value = serde_json::from_str(LISTED).unwrap();
    value["data"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(Listed::from_json)
        .collect()
}

/// The keys' tails (`pre_tool_use:1:0` for the project's file, `user:…` for
/// the user's).
fn keys<'a>(hooks: impl IntoIterator<Item = &'a Listed>) -> Vec<String> {
    hooks
        .into_iter()
        .map(|h| {
            let tail = h.key.rsplit(".json:").next().unwrap();
            if h.key.starts_with(USER) {
                format!("user:{tail}")
            } else {
                tail.to_owned()
            }
        })
        .collect()
}

/// One case: what install wrote, and which entries are its own, which are
/// to trust, and which others Codex would skip.
fn check(
    about: &str,
    path: &str,
    hooks: &[(&str, &str)],
    ours: &[&str],
    trust: &[&str],
    others: &[&str],
) {
    let hooks: Vec<(String, String)> = hooks
        .iter()
        .map(|(e, c)| ((*e).to_owned(), (*c).to_owned()))
        .collect();
    let written = Ours {
        path: Path::new(path),
        matcher: "Bash",
        hooks: &hooks,
    };
    let report = Report::of(listed(), &written);
    assert_eq!(keys(&report.ours), ours, "{about}: ours");
    assert_eq!(keys(report.to_trust()), trust, "{about}: to trust");
    assert_eq!(keys(&report.others_untrusted), others, "{about}: others");
}

const BOTH: [&str; 2] = ["PreToolUse", "PostToolUse"];
const HOSTILE: [&str; 4] = [
    "pre_tool_use:0:0",
    "session_start:0:0",
    "user_prompt_submit:0:0",
    "stop:0:0",
];

#[test]
fn only_the_hooks_install_wrote_are_trusted() {
    let both = |cmd| BOTH.map(|e| (e, cmd));
    check(
        "--user: the user's file only; the modified one again, since it is exactly ours",
        USER,
        &both(USER_CMD),
        &["user:pre_tool_use:0:0", "user:post_tool_use:0:0"],
        &["user:post_tool_use:0:0"],
        &HOSTILE,
    );
    check(
        "--project: our groups in the repository's file, none of its own",
        PROJECT,
        &both(PROJECT_CMD),
        &["pre_tool_use:1:0", "post_tool_use:0:0"],
        &[],
        &[&["user:post_tool_use:0:0"], HOSTILE.as_slice()].concat(),
    );
    check(
        "--user with the command line the repository's file also holds: that file is not ours",
        USER,
        &both(PROJECT_CMD),
        &[],
        &[],
        &[&["user:post_tool_use:0:0"], HOSTILE.as_slice()].concat(),
    );
    check(
        "one event written: the same command on another event is not ours",
        PROJECT,
        &[("PreToolUse", PROJECT_CMD)],
        &["pre_tool_use:1:0"],
        &[],
        &[&["user:post_tool_use:0:0"], HOSTILE.as_slice()].concat(),
    );
    check(
        "a hostile command is never ours, even on our event in our file",
        PROJECT,
        &[(
            "PreToolUse",
            "touch <run>/marker-pre # sandbox-advisor hook --dialect codex",
        )],
        &[],
        &[],
        &[&["user:post_tool_use:0:0"], HOSTILE.as_slice()].concat(),
    );
}

#[test]
fn an_entry_unlike_what_install_writes_is_not_ours() {
    let hooks = [("PreToolUse".to_owned(), PROJECT_CMD.to_owned())];
    let written = Ours {
        path: Path::new(PROJECT),
        matcher: "Bash",
        hooks: &hooks,
    };
    let base = listed()
        .into_iter()
        .find(|h| h.key.ends_with("pre_tool_use:1:0"))
        .unwrap();
    assert!(written.is(&base));
    type Change = fn(&mut Listed);
    let changed: [(&str, Change); 7] = [
        ("another advisor command line", |h| {
            h.command = "/other/sandbox-advisor hook --dialect codex".into()
        }),
        ("a managed hook", |h| h.managed = true),
        ("another handler type", |h| h.handler_type = "prompt".into()),
        ("no matcher", |h| h.matcher = None),
        ("another matcher", |h| h.matcher = Some("*".into())),
        ("a key outside its source file", |h| {
            h.key = "<run>/other.json:pre_tool_use:0:0".into()
        }),
        ("a longer command", |h| h.command.push_str(" --log debug")),
    ];
    for (about, change) in changed {
        let mut hook = base.clone();
        change(&mut hook);
        assert!(!written.is(&hook), "{about}");
    }
    assert_eq!(codex_event("PostToolUseFailure"), "postToolUseFailure");
}
