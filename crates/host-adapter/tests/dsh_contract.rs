//! Contract tests for the `dsh` mirror: the Rust harness's seam, transcribed by
//! hand (field names and enum variants) from the public repository
//! `qiu7824/deepseek-harness-rs`:
//!
//! | source path | commit |
//! |---|---|
//! | `crates/core/tools/src/index.rs` | `09ac2603b1c84e6f137b109e4ece65d1553d7551` |
//! | `crates/core/llm/src/message.rs` | `5098184b3c17c85f24dff2f75bb50e8b552e3e2b` |
//! | `crates/guard/repeat-tool-reminder/src/lib.rs` | `1d6f4bc401e6a76dbda434fd70e0b154a291ce87` |
//!
//! [`SOURCE`] is that transcription: every field or variant the source
//! declares, and which of them the mirror keeps. The `describe_*` helpers
//! destructure the mirror exhaustively (no `..`, no `_` arm), so a mirror that
//! gains or loses a field or variant stops compiling, and a transcription that
//! disagrees with the mirror fails here. When the harness changes, update the
//! table from its source, record the new commit above, and let these tests say
//! what the mirror must follow.
#![cfg(feature = "dsh")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use host_adapter::dsh::{
    Agent, ContentBlock, ContextForm, MessageSource, PostToolDecision, PreToolDecision,
    REPEAT_REMINDER_CODES, Role, ToolErrorInfo, ToolExecution, ToolExecutionResult, ToolFailure,
    UserMessage,
};
use serde_json::json;

/// One item as the source declares it.
struct Transcribed {
    /// `struct Name`, `enum Name` or `enum Name::Variant`.
    item: &'static str,
    /// Every field (struct, struct variant) or variant (enum) the source declares, in its order.
    source: &'static [&'static str],
    /// The ones the mirror keeps, in the same order.
    mirrored: &'static [&'static str],
}

const SOURCE: &[Transcribed] = &[
    Transcribed {
        item: "struct ToolErrorInfo",
        source: &["name", "code"],
        mirrored: &["name", "code"],
    },
    Transcribed {
        item: "struct ToolFailure",
        source: &["message", "info"],
        mirrored: &["message", "info"],
    },
    Transcribed {
        item: "struct ToolExecution",
        source: &[
            "schema",
            "permission_preset",
            "token",
            "call_id",
            "root_call_id",
            "name",
            "arguments",
            "agent",
            "parent",
            "signal",
        ],
        mirrored: &["call_id", "name", "arguments", "agent"],
    },
    Transcribed {
        item: "struct ToolExecutionResult",
        source: &[
            "is_error",
            "error",
            "value",
            "content",
            "meta",
            "additional_contexts",
            "concludes_turn",
            "canonical_token",
        ],
        mirrored: &[
            "is_error",
            "error",
            "value",
            "content",
            "additional_contexts",
        ],
    },
    Transcribed {
        item: "enum PreToolDecision",
        source: &[
            "Allow",
            "Cancel",
            "DenyWithInfo{reason,info,meta}",
            "Deny{reason}",
            "Ask{reason,grant_key,rememberable}",
            "AskHuman{reason}",
        ],
        mirrored: &[
            "Allow",
            "Cancel",
            "DenyWithInfo{reason,info,meta}",
            "Deny{reason}",
            "Ask{reason,grant_key,rememberable}",
            "AskHuman{reason}",
        ],
    },
    Transcribed {
        item: "enum PostToolDecision",
        source: &[
            "Accept{content,value,additional_contexts}",
            "Block{feedback,additional_contexts}",
        ],
        mirrored: &[
            "Accept{content,value,additional_contexts}",
            "Block{feedback,additional_contexts}",
        ],
    },
    Transcribed {
        item: "enum ContextForm",
        source: &[
            "Instructions",
            "Catalog",
            "Snapshot",
            "Notice",
            "Relay",
            "Recall",
        ],
        mirrored: &[
            "Instructions",
            "Catalog",
            "Snapshot",
            "Notice",
            "Relay",
            "Recall",
        ],
    },
    Transcribed {
        item: "enum MessageSource::Plugin",
        source: &[
            "plugin",
            "form",
            "sections",
            "summary",
            "compaction_id",
            "source_command_id",
        ],
        mirrored: &["plugin", "form", "summary"],
    },
    Transcribed {
        item: "struct Message (UserMessage)",
        source: &["id", "role", "content", "source"],
        mirrored: &["id", "role", "content", "source"],
    },
    Transcribed {
        item: "enum Role",
        source: &["System", "User", "Assistant"],
        mirrored: &["System", "User", "Assistant"],
    },
];

/// The codes `repeat-tool-reminder`'s `observe` matches, in its order.
const REMINDER_CODES: [&str; 12] = [
    "SANDBOX_SETUP_FAILED",
    "ENVIRONMENT_VALIDATION_FAILED",
    "ENVIRONMENT_PROBE_TIMEOUT",
    "APP_EXECUTION_ALIAS_UNSUPPORTED",
    "SANDBOX_SETUP_TIMEOUT",
    "SANDBOX_RUNNER_FAILED",
    "SANDBOX_RUNNER_TIMEOUT",
    "SANDBOX_UNAVAILABLE",
    "SHELL_STARTUP_FAILED",
    "SHELL_TIMEOUT",
    "TERMINAL_STARTUP_FAILED",
    "TERMINAL_STARTUP_TIMEOUT",
];

fn transcribed(item: &str) -> &'static Transcribed {
    SOURCE.iter().find(|t| t.item == item).unwrap()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn info() -> ToolErrorInfo {
    ToolErrorInfo {
        name: "SandboxError".into(),
        code: "SANDBOX_RUNNER_FAILED".into(),
    }
}

fn describe_info(v: &ToolErrorInfo) -> Vec<String> {
    let ToolErrorInfo { name: _, code: _ } = v;
    names(&["name", "code"])
}

fn describe_failure(v: &ToolFailure) -> Vec<String> {
    let ToolFailure {
        message: _,
        info: _,
    } = v;
    names(&["message", "info"])
}

fn describe_execution(v: &ToolExecution) -> Vec<String> {
    let ToolExecution {
        call_id: _,
        name: _,
        arguments: _,
        agent: _,
    } = v;
    names(&["call_id", "name", "arguments", "agent"])
}

fn describe_result(v: &ToolExecutionResult) -> Vec<String> {
    let ToolExecutionResult {
        is_error: _,
        error: _,
        value: _,
        content: _,
        additional_contexts: _,
    } = v;
    names(&[
        "is_error",
        "error",
        "value",
        "content",
        "additional_contexts",
    ])
}

fn describe_pre(v: &PreToolDecision) -> &'static str {
    match v {
        PreToolDecision::Allow => "Allow",
        PreToolDecision::Cancel => "Cancel",
        PreToolDecision::DenyWithInfo {
            reason: _,
            info: _,
            meta: _,
        } => "DenyWithInfo{reason,info,meta}",
        PreToolDecision::Deny { reason: _ } => "Deny{reason}",
        PreToolDecision::Ask {
            reason: _,
            grant_key: _,
            rememberable: _,
        } => "Ask{reason,grant_key,rememberable}",
        PreToolDecision::AskHuman { reason: _ } => "AskHuman{reason}",
    }
}

fn describe_post(v: &PostToolDecision) -> &'static str {
    match v {
        PostToolDecision::Accept {
            content: _,
            value: _,
            additional_contexts: _,
        } => "Accept{content,value,additional_contexts}",
        PostToolDecision::Block {
            feedback: _,
            additional_contexts: _,
        } => "Block{feedback,additional_contexts}",
    }
}

fn describe_form(v: ContextForm) -> &'static str {
    match v {
        ContextForm::Instructions => "Instructions",
        ContextForm::Catalog => "Catalog",
        ContextForm::Snapshot => "Snapshot",
        ContextForm::Notice => "Notice",
        ContextForm::Relay => "Relay",
        ContextForm::Recall => "Recall",
    }
}

fn describe_plugin_source(v: &MessageSource) -> Vec<String> {
    match v {
        MessageSource::Plugin {
            plugin: _,
            form: _,
            summary: _,
        } => names(&["plugin", "form", "summary"]),
        MessageSource::User {} | MessageSource::Tool { call_id: _ } => Vec::new(),
    }
}

fn describe_message(v: &UserMessage) -> Vec<String> {
    let UserMessage {
        id: _,
        role: _,
        content: _,
        source: _,
    } = v;
    names(&["id", "role", "content", "source"])
}

fn describe_role(v: Role) -> &'static str {
    match v {
        Role::System => "System",
        Role::User => "User",
        Role::Assistant => "Assistant",
    }
}

fn notice() -> UserMessage {
    UserMessage {
        id: "m1".into(),
        role: Role::User,
        content: vec![ContentBlock::text("advice")],
        source: MessageSource::Plugin {
            plugin: "sandbox-grant-advisor".into(),
            form: Some(ContextForm::Notice),
            summary: Some("one line".into()),
        },
    }
}

/// Every decision and type the mirror has, one value each.
fn check(item: &str, described: Vec<String>) {
    let t = transcribed(item);
    assert_eq!(
        described,
        names(t.mirrored),
        "{item}: the mirror and the transcription disagree"
    );
}

#[test]
fn the_transcription_is_consistent() {
    for t in SOURCE {
        let mut rest = t.source.iter();
        for kept in t.mirrored {
            assert!(
                rest.any(|s| s == kept),
                "{}: `{kept}` is mirrored but not in the source, or out of order",
                t.item
            );
        }
    }
}

#[test]
fn every_struct_keeps_the_source_field_names() {
    let failure = ToolExecutionResult::failure("boom", Some(info()));
    check("struct ToolErrorInfo", describe_info(&info()));
    check(
        "struct ToolFailure",
        describe_failure(failure.error.as_ref().unwrap()),
    );
    let exec = ToolExecution {
        call_id: "c1".into(),
        name: "pwsh".into(),
        arguments: json!({}),
        agent: Some(Agent { id: "a1".into() }),
    };
    check("struct ToolExecution", describe_execution(&exec));
    check("struct ToolExecutionResult", describe_result(&failure));
    check("struct Message (UserMessage)", describe_message(&notice()));
    check(
        "enum MessageSource::Plugin",
        describe_plugin_source(&notice().source),
    );
}

#[test]
fn every_decision_variant_is_built_and_named_as_the_source_names_it() {
    let pre = [
        PreToolDecision::Allow,
        PreToolDecision::Cancel,
        PreToolDecision::DenyWithInfo {
            reason: "r".into(),
            info: info(),
            meta: None,
        },
        PreToolDecision::Deny { reason: "r".into() },
        PreToolDecision::Ask {
            reason: None,
            grant_key: None,
            rememberable: false,
        },
        PreToolDecision::AskHuman { reason: None },
    ];
    check(
        "enum PreToolDecision",
        pre.iter().map(|d| describe_pre(d).to_owned()).collect(),
    );
    let post = [
        PostToolDecision::accept(),
        PostToolDecision::Block {
            feedback: vec![ContentBlock::text("no")],
            additional_contexts: Some(vec![notice()]),
        },
    ];
    check(
        "enum PostToolDecision",
        post.iter().map(|d| describe_post(d).to_owned()).collect(),
    );
    let forms = [
        ContextForm::Instructions,
        ContextForm::Catalog,
        ContextForm::Snapshot,
        ContextForm::Notice,
        ContextForm::Relay,
        ContextForm::Recall,
    ];
    check(
        "enum ContextForm",
        forms.iter().map(|f| describe_form(*f).to_owned()).collect(),
    );
    let roles = [Role::System, Role::User, Role::Assistant];
    check(
        "enum Role",
        roles.iter().map(|r| describe_role(*r).to_owned()).collect(),
    );
}

#[test]
fn decisions_have_the_shape_the_harness_reads() {
    // `next()` with no listener left accepts unchanged: nothing replaced, no context.
    assert_eq!(
        PostToolDecision::accept(),
        PostToolDecision::Accept {
            content: None,
            value: None,
            additional_contexts: None
        }
    );
    assert!(PostToolDecision::accept().additional_contexts().is_empty());
    let block = PostToolDecision::Block {
        feedback: vec![ContentBlock::text("no")],
        additional_contexts: Some(vec![notice()]),
    };
    assert_eq!(block.additional_contexts(), &[notice()]);
    // A thrown error settles as `Error: <message>` content with the message kept bare.
    let failure = ToolExecutionResult::failure("boom", Some(info()));
    assert!(failure.is_error && failure.value.is_none());
    assert_eq!(failure.content, vec![ContentBlock::text("Error: boom")]);
    assert_eq!(failure.error.as_ref().unwrap().message, "boom");
    let success = ToolExecutionResult::success(json!({"kind": "foreground"}), "ok");
    assert!(!success.is_error && success.error.is_none() && success.value.is_some());
}

#[test]
fn a_plugin_notice_has_the_wire_shape_of_the_source() {
    let wire = serde_json::to_value(notice()).unwrap();
    assert_eq!(
        wire,
        json!({
            "id": "m1",
            "role": "user",
            "content": [{"type": "text", "text": "advice"}],
            "source": {"kind": "plugin", "plugin": "sandbox-grant-advisor", "form": "notice", "summary": "one line"},
        })
    );
    let back: UserMessage = serde_json::from_value(wire).unwrap();
    assert_eq!(back, notice());
    // Optional fields are omitted, not null, as the source's serde attributes say.
    let bare = MessageSource::Plugin {
        plugin: "p".into(),
        form: None,
        summary: None,
    };
    assert_eq!(
        serde_json::to_value(bare).unwrap(),
        json!({"kind": "plugin", "plugin": "p"})
    );
    assert_eq!(
        serde_json::to_value(MessageSource::Tool {
            call_id: "c1".into()
        })
        .unwrap(),
        json!({"kind": "tool", "callId": "c1"})
    );
    assert_eq!(
        serde_json::to_value(MessageSource::User {}).unwrap(),
        json!({"kind": "user"})
    );
}

#[test]
fn the_reminder_codes_are_the_source_codes() {
    assert_eq!(REPEAT_REMINDER_CODES, REMINDER_CODES);
}
