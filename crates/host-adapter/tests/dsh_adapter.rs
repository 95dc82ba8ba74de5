//! The `dsh` adapter on the mirrored waterfalls: the observe-and-enrich order
//! (decide, delegate, fold), folding onto accept and block, the fail-fast
//! refusal, structured codes as facts beside the shape, and coexistence with
//! `repeat-tool-reminder`.
#![cfg(all(feature = "dsh", feature = "acl", feature = "pty"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};

use advisor_core::testing::host;
use advisor_core::{
    Config, Outcome, Platform, PolicyQuery, PolicySource, ResolvedPolicy, SandboxMode, SessionId,
    Unresolved,
};
use async_trait::async_trait;
use host_adapter::dsh::{
    Agent, ContentBlock, ContextForm, DshAdvisor, MessageSource, PLUGIN_NAME, PostToolDecision,
    PreToolDecision, REFUSAL_CODE, RepeatReminder, Role, ToolErrorInfo, ToolExecution,
    ToolExecutionResult, UserMessage, error_code, observe,
};
use host_adapter::{HostAdapter, PolicyDefaults, SessionPolicy};
use serde_json::json;

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
const PTY: &str = "PTY shell exited during startup";

type Log = Arc<Mutex<Vec<&'static str>>>;

/// The session policy, writing `resolve` into the shared log when consulted.
struct Spy {
    inner: SessionPolicy,
    log: Log,
}

#[async_trait]
impl PolicySource for Spy {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.log.lock().unwrap().push("resolve");
        self.inner.resolve_now(query)
    }
}

fn advisor(config: serde_json::Value, log: &Log) -> DshAdvisor {
    let inner = SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    });
    for agent in ["a1", "a2"] {
        inner.open_session(&SessionId::new(agent), r"D:\ws");
        inner.set_mode(&SessionId::new(agent), SandboxMode::WorkspaceWrite);
    }
    let adapter = HostAdapter::builder()
        .host(host(Platform::Win32))
        .policy(Arc::new(Spy {
            inner,
            log: log.clone(),
        }))
        .config(Config::from_json(config).unwrap())
        .build()
        .unwrap();
    DshAdvisor::new(adapter)
}

fn exec(agent: Option<&str>, call: &str) -> ToolExecution {
    ToolExecution {
        call_id: call.into(),
        name: "pwsh".into(),
        arguments: json!({"command": "Get-Date"}),
        agent: agent.map(|id| Agent { id: id.into() }),
    }
}

fn failure(message: &str, code: Option<&str>) -> ToolExecutionResult {
    ToolExecutionResult::failure(
        message,
        code.map(|code| ToolErrorInfo {
            name: "SandboxError".into(),
            code: code.into(),
        }),
    )
}

fn theirs(plugin: &str, text: &str) -> UserMessage {
    UserMessage {
        id: format!("{plugin}-1"),
        role: Role::User,
        content: vec![ContentBlock::text(text)],
        source: MessageSource::Plugin {
            plugin: plugin.into(),
            form: Some(ContextForm::Notice),
            summary: Some("pwsh × 2".into()),
        },
    }
}

fn generic_reminder() -> UserMessage {
    theirs(
        "repeat-tool-reminder",
        "The execution path has failed 2 times with SANDBOX_SETUP_FAILED, including calls whose arguments may differ.",
    )
}

fn plugins(decision: &PostToolDecision) -> Vec<String> {
    decision
        .additional_contexts()
        .iter()
        .map(|m| m.plugin().unwrap_or("?").to_owned())
        .collect()
}

#[tokio::test]
async fn decides_then_delegates_then_folds_ahead_of_downstream_contexts() {
    let log = Log::default();
    let advisor = advisor(json!({}), &log);
    let next_log = log.clone();
    let decision = advisor
        .post_execute(
            &exec(Some("a1"), "c1"),
            &failure(PTY, None),
            || async move {
                next_log.lock().unwrap().push("next");
                PostToolDecision::Accept {
                    content: None,
                    value: None,
                    additional_contexts: Some(vec![theirs("other", "theirs")]),
                }
            },
        )
        .await;
    // Decided first (the pre-flight and the PTY gate both consult the policy), then delegated.
    let log = log.lock().unwrap().clone();
    assert_eq!(log.last(), Some(&"next"), "{log:?}");
    assert!(
        log[..log.len() - 1].iter().all(|e| *e == "resolve") && log.len() >= 2,
        "{log:?}"
    );
    assert_eq!(plugins(&decision), [PLUGIN_NAME, "other"]);
    let ours = &decision.additional_contexts()[0];
    let MessageSource::Plugin {
        plugin,
        form,
        summary,
    } = &ours.source
    else {
        panic!("not a plugin source: {ours:?}");
    };
    assert_eq!(
        (plugin.as_str(), *form),
        (PLUGIN_NAME, Some(ContextForm::Notice))
    );
    assert!(summary.as_ref().is_some_and(|s| s.chars().count() <= 120));
    assert!(ours.text().contains(PTY));
}

#[tokio::test]
async fn folds_onto_a_block_and_keeps_what_downstream_replaced() {
    let log = Log::default();
    let advisor = advisor(json!({}), &log);
    let decision = advisor
        .post_execute(&exec(Some("a1"), "c1"), &failure(ACL, None), || async {
            PostToolDecision::Block {
                feedback: vec![ContentBlock::text("blocked by policy")],
                additional_contexts: None,
            }
        })
        .await;
    let PostToolDecision::Block { feedback, .. } = &decision else {
        panic!("a block must stay a block: {decision:?}");
    };
    assert_eq!(feedback, &[ContentBlock::text("blocked by policy")]);
    assert_eq!(plugins(&decision), [PLUGIN_NAME]);

    let replaced = advisor
        .post_execute(&exec(Some("a2"), "c1"), &failure(ACL, None), || async {
            PostToolDecision::Accept {
                content: Some(vec![ContentBlock::text("replaced")]),
                value: None,
                additional_contexts: None,
            }
        })
        .await;
    let PostToolDecision::Accept { content, .. } = &replaced else {
        panic!("{replaced:?}");
    };
    assert_eq!(
        content.as_deref(),
        Some(&[ContentBlock::text("replaced")][..])
    );
    assert_eq!(plugins(&replaced), [PLUGIN_NAME]);
}

#[tokio::test]
async fn once_per_agent_and_silence_leaves_the_decision_untouched() {
    let log = Log::default();
    let advisor = advisor(json!({}), &log);
    let first = advisor
        .post_execute(&exec(Some("a1"), "c1"), &failure(ACL, None), || async {
            PostToolDecision::accept()
        })
        .await;
    assert_eq!(plugins(&first), [PLUGIN_NAME]);
    for (agent, call) in [(Some("a1"), "c2"), (None, "c3")] {
        let again = advisor
            .post_execute(&exec(agent, call), &failure(ACL, None), || async {
                PostToolDecision::accept()
            })
            .await;
        // Nothing to add: `next`'s decision comes back as it was (no empty list added).
        assert_eq!(again, PostToolDecision::accept());
    }
}

#[tokio::test]
async fn a_code_is_a_fact_beside_the_shape_never_instead_of_it() {
    let log = Log::default();
    let advisor = advisor(json!({}), &log);
    let coded = failure("sandbox runner failed", Some("SANDBOX_RUNNER_FAILED"));
    assert_eq!(error_code(&coded), Some("SANDBOX_RUNNER_FAILED"));
    let silent = advisor
        .post_execute(&exec(Some("a1"), "c1"), &coded, || async {
            PostToolDecision::accept()
        })
        .await;
    assert_eq!(silent, PostToolDecision::accept());

    let mut with_code = observe(
        &exec(Some("a1"), "c2"),
        &failure(ACL, Some("SANDBOX_SETUP_FAILED")),
    )
    .unwrap();
    let without = observe(&exec(Some("a1"), "c2"), &failure(ACL, None));
    // The code reaches the observation as an extra fact, and nothing else differs.
    let Outcome::Failure(f) = &mut with_code.outcome else {
        panic!("a failure")
    };
    assert_eq!(f.code.take().as_deref(), Some("SANDBOX_SETUP_FAILED"));
    assert_eq!(
        Some(with_code),
        without,
        "the code must not change what is recognized"
    );
    let spoken = advisor
        .post_execute(
            &exec(Some("a1"), "c2"),
            &failure(ACL, Some("SANDBOX_SETUP_FAILED")),
            || async { PostToolDecision::accept() },
        )
        .await;
    assert_eq!(plugins(&spoken), [PLUGIN_NAME]);
}

#[tokio::test]
async fn refuses_a_failing_call_before_dispatch_without_delegating() {
    let log = Log::default();
    let advisor = advisor(json!({"enforceAfter": 1, "maxDenials": 1}), &log);
    advisor
        .post_execute(&exec(Some("a1"), "c1"), &failure(ACL, None), || async {
            PostToolDecision::accept()
        })
        .await;
    let delegated = Arc::new(Mutex::new(false));
    let flag = delegated.clone();
    let refused = advisor
        .pre_execute(&exec(Some("a1"), "c2"), || async move {
            *flag.lock().unwrap() = true;
            PreToolDecision::Allow
        })
        .await;
    assert!(
        !*delegated.lock().unwrap(),
        "a refusal must not run the rest of the chain"
    );
    let PreToolDecision::DenyWithInfo { reason, info, meta } = &refused else {
        panic!("{refused:?}");
    };
    assert!(reason.starts_with("sandbox-advisor refused this call"));
    assert_eq!(info.code, REFUSAL_CODE);
    assert_eq!(meta.as_ref().unwrap()["family"], "acl-provisioning");
    // The harness materializes the denial and runs post-execute on it: not counted, not answered.
    let materialized = failure(reason, Some(REFUSAL_CODE));
    let answer = advisor
        .post_execute(&exec(Some("a1"), "c2"), &materialized, || async {
            PostToolDecision::accept()
        })
        .await;
    assert_eq!(answer, PostToolDecision::accept());
    // The budget (one denial) is spent: the identical call goes through to `next`.
    let allowed = advisor
        .pre_execute(&exec(Some("a1"), "c3"), || async { PreToolDecision::Allow })
        .await;
    assert_eq!(allowed, PreToolDecision::Allow);
    // An agentless call is never refused.
    let direct = advisor
        .pre_execute(&exec(None, "c4"), || async { PreToolDecision::Allow })
        .await;
    assert_eq!(direct, PreToolDecision::Allow);
}

#[tokio::test]
async fn the_generic_repeat_reminder_is_kept_unless_superseded() {
    let reminded = || async {
        PostToolDecision::Accept {
            content: None,
            value: None,
            additional_contexts: Some(vec![generic_reminder(), theirs("other", "x")]),
        }
    };
    let coded_acl = failure(ACL, Some("SANDBOX_SETUP_FAILED"));
    let log = Log::default();
    let keep = advisor(json!({}), &log);
    let kept = keep
        .post_execute(&exec(Some("a1"), "c1"), &coded_acl, reminded)
        .await;
    assert_eq!(
        plugins(&kept),
        [PLUGIN_NAME, "repeat-tool-reminder", "other"]
    );

    let supersede = advisor(json!({}), &log).with_repeat_reminder(RepeatReminder::Supersede);
    let one_account = supersede
        .post_execute(&exec(Some("a1"), "c1"), &coded_acl, reminded)
        .await;
    assert_eq!(plugins(&one_account), [PLUGIN_NAME, "other"]);
    // Already advised: nothing of ours on this failure, so the reminder stands.
    let later = supersede
        .post_execute(&exec(Some("a1"), "c2"), &coded_acl, reminded)
        .await;
    assert_eq!(plugins(&later), ["repeat-tool-reminder", "other"]);
    // An uncoded failure is not the reminder's chain: its contexts are not ours to drop.
    let uncoded = supersede
        .post_execute(&exec(Some("a2"), "c1"), &failure(ACL, None), reminded)
        .await;
    assert_eq!(
        plugins(&uncoded),
        [PLUGIN_NAME, "repeat-tool-reminder", "other"]
    );
}

#[tokio::test]
async fn session_start_answers_with_notices_or_nothing() {
    let log = Log::default();
    let advisor = advisor(json!({}), &log);
    // The temp root is unknown (no temp dir in the host facts): withheld, so no notice.
    let notices = advisor.session_start(&Agent { id: "a1".into() }).await;
    assert!(notices.is_empty(), "{notices:?}");
    advisor.agent_end(&Agent { id: "a1".into() });
}
