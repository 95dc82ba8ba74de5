//! # The Rust harness's seam (`dsh` feature)
//!
//! The Rust port of the DeepSeek Harness (`qiu7824/deepseek-harness-rs`) is not
//! published as crates, so it cannot be a dependency. This module mirrors the
//! part of its seam the advisor touches — `dsh-tools`' execution and decision
//! types and `dsh-llm`'s plugin-sourced user message ([`types`]) — and mounts
//! the advisor on it ([`DshAdvisor`]).
//!
//! | waterfall / event | call | what the harness does with the answer |
//! |---|---|---|
//! | `tools/pre-execute` | [`DshAdvisor::pre_execute`] | a [`PreToolDecision::DenyWithInfo`] (code [`REFUSAL_CODE`]) materializes as a failure, which then runs post-execute |
//! | `tools/post-execute` | [`DshAdvisor::post_execute`] | the folded contexts become user-role messages after the result |
//! | `agent/session-start` | [`DshAdvisor::session_start`] | pass each message to `agent.inject` |
//! | `agent/disposed` | [`DshAdvisor::agent_end`] | — |
//!
//! The post-execute order is the harness's own observe-and-enrich order, the
//! one `repeat-tool-reminder` uses: decide first, delegate to `next`, then fold
//! the advisory onto whichever decision came back — `Accept` or `Block` — ahead
//! of the contexts already on it. A later listener can still block or replace
//! the result, and the advisory is not lost. Each advisory travels as
//! `MessageSource::Plugin { plugin: "sandbox-grant-advisor", form: Notice,
//! summary }`.
//!
//! A failure's structured code (`error.info.code`, e.g. `SANDBOX_RUNNER_FAILED`)
//! is read by [`error_code`]. It is an extra fact, never a replacement for the
//! producer's exact shape: every family still recognizes only the shapes it
//! documents, and a coded failure with an unrelated message stays silent.
//!
//! ## Mounting it
//!
//! ```
//! use std::sync::Arc;
//!
//! use advisor_core::{Config, HostFacts, Platform, SandboxMode, SessionId};
//! use host_adapter::dsh::{
//!     Agent, DshAdvisor, PostToolDecision, RepeatReminder, ToolExecution, ToolExecutionResult,
//! };
//! use host_adapter::{HostAdapter, PolicyDefaults, SessionPolicy};
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // In the harness an agent's id is also its session's id.
//! let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
//!     default_mode: Some(SandboxMode::ReadOnly), fallback_root: None, platform: Platform::Win32,
//! }));
//! policy.open_session(&SessionId::new("a1"), r"D:\ws");
//! policy.set_mode(&SessionId::new("a1"), SandboxMode::WorkspaceWrite);
//! let adapter = HostAdapter::builder()
//!     .host(HostFacts { platform: Platform::Win32, ..HostFacts::current() })
//!     .policy(policy)
//!     .config(Config::default())
//!     .build()?;
//! let advisor = DshAdvisor::new(adapter).with_repeat_reminder(RepeatReminder::Supersede);
//!
//! // tools/post-execute, with `next` standing for the rest of the waterfall.
//! let exec = ToolExecution {
//!     call_id: "c1".into(),
//!     name: "pwsh".into(),
//!     arguments: serde_json::json!({ "command": "Get-Date" }),
//!     agent: Some(Agent { id: "a1".into() }),
//! };
//! let result = ToolExecutionResult::failure("PTY shell exited during startup", None);
//! let decision = advisor
//!     .post_execute(&exec, &result, || async { PostToolDecision::accept() })
//!     .await;
//! assert_eq!(decision.additional_contexts()[0].plugin(), Some("sandbox-grant-advisor"));
//! # Ok(()) }
//! ```
//!
//! ## Coexisting with `repeat-tool-reminder`
//!
//! The harness's `repeat-tool-reminder` counts, per agent, consecutive calls
//! with the same key. For a failure coded `SANDBOX_SETUP_FAILED`,
//! `SANDBOX_RUNNER_FAILED` or one of the ten other codes in
//! [`REPEAT_REMINDER_CODES`], the key is the code itself, whatever the
//! arguments, and on the **second** such failure in a row it posts a generic
//! notice ("The execution path has failed 2 times with SANDBOX_…") as
//! `MessageSource::Plugin { plugin: "repeat-tool-reminder", form: Notice }`.
//! This advisor speaks on the **first** failure it recognizes, once per agent
//! and family. The two meet on one failure when the advisor's first
//! recognizable failure is the reminder's second coded one (the first was
//! unrecognized, or withheld), and then the model reads two accounts of one
//! sandbox failure, one generic and one specific.
//!
//! To keep one account per failure:
//!
//! 1. Register the advisor's `tools/post-execute` listener *before* the
//!    reminder's, so the advisor's listener wraps it and sees its decision.
//! 2. Build the adapter with
//!    [`with_repeat_reminder(RepeatReminder::Supersede)`](DshAdvisor::with_repeat_reminder).
//!    When the advisor delivers an advisory for a failure whose code is one of
//!    the reminder's, it drops the reminder's generic notice from that
//!    decision; every other context, and the reminder's notices on other
//!    failures, are left alone. The reminder's chain state is untouched, so
//!    it still reminds on later repeats the advisor does not explain.
//! 3. With `enforceAfter > 0` the next identical call is refused before it runs
//!    and materializes with code [`REFUSAL_CODE`], which is not one of the
//!    reminder's codes, so that chain does not reach a second repeat there.
//!
//! The alternative — excluding the shell tools from the reminder — also
//! silences its useful reminders for ordinary loops, so it is not advised.

mod adapter;
pub mod types;

pub use adapter::{
    DshAdvisor, PLUGIN_NAME, REFUSAL_CODE, REFUSAL_ERROR_NAME, REPEAT_REMINDER_CODES,
    REPEAT_REMINDER_PLUGIN, RepeatReminder, error_code, is_generic_repeat_reminder, notice,
    observe,
};
pub use types::{
    Agent, ContentBlock, ContextForm, MessageSource, PostToolDecision, PreToolDecision, Role,
    ToolErrorInfo, ToolExecution, ToolExecutionResult, ToolFailure, UserMessage,
};
