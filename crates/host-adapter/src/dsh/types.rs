//! Mirror types shaped like the Rust harness's `dsh-tools` and `dsh-llm`.
//!
//! Transcribed by hand — field names and enum variants — from
//! `qiu7824/deepseek-harness-rs`:
//!
//! | mirror | source |
//! |---|---|
//! | [`ToolErrorInfo`], [`ToolFailure`], [`ToolExecution`], [`ToolExecutionResult`], [`PreToolDecision`], [`PostToolDecision`] | `crates/core/tools/src/index.rs` |
//! | [`ContentBlock`] (text only), [`ContextForm`], [`MessageSource`] (the kinds the advisor meets), [`UserMessage`], [`Role`] | `crates/core/llm/src/message.rs`, `crates/core/llm/src/types.rs` |
//!
//! The commits are recorded beside the contract tests
//! (`crates/host-adapter/tests/dsh_contract.rs`). Only what the advisor reads
//! or writes is mirrored: the cancellation signal, the schema snapshot, the
//! execution token, `meta`, `concludes_turn` and every other content block are
//! left out on purpose, and the harness's `Arc<dyn Agent>` is reduced to its id.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Structured error metadata for a failed tool call (`ToolErrorInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolErrorInfo {
    /// The error class (`HarnessError` subclass name).
    pub name: String,
    /// The internal code (`SANDBOX_RUNNER_FAILED`, `SANDBOX_SETUP_FAILED`, …).
    pub code: String,
}

/// Canonical failure detail (`ToolFailure`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFailure {
    /// Human-readable failure message without the `Error: ` envelope.
    pub message: String,
    /// Internal error class and code, when the producer threw a coded error.
    pub info: Option<ToolErrorInfo>,
}

/// One model-facing content block; the advisor only reads and writes text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ContentBlock {
    /// A text block (`{ "type": "text", "text": … }`).
    Text {
        /// The text.
        text: String,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into() }
    }
}

/// What kind of information producer-supplied context is (`ContextForm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContextForm {
    /// Instructions read out of workspace files.
    Instructions,
    /// A catalog of items available in this session.
    Catalog,
    /// Current state that a later snapshot supersedes.
    Snapshot,
    /// A one-off account of something that just happened.
    Notice,
    /// A message another agent addressed to this one.
    Relay,
    /// Material lifted out of another session's log.
    Recall,
}

/// Where a message came from (`MessageSource`), reduced to the kinds the advisor meets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum MessageSource {
    /// The user typed it.
    User {},
    /// A plugin produced it; a `notice` carries its one-line `summary`.
    Plugin {
        /// The producing plugin's name.
        plugin: String,
        /// The declared form.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        form: Option<ContextForm>,
        /// The one-line account a `notice` requires (at most 120 characters).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<String>,
    },
    /// A tool result.
    Tool {
        /// The call the result belongs to.
        #[serde(rename = "callId")]
        call_id: String,
    },
}

/// Provider-neutral conversation role (`Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The system prompt.
    System,
    /// The user side (where additional contexts land).
    User,
    /// The model.
    Assistant,
}

/// One identified user-role message (`UserMessage`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserMessage {
    /// Stable identity.
    pub id: String,
    /// Always [`Role::User`] for a context.
    pub role: Role,
    /// The model-facing blocks.
    pub content: Vec<ContentBlock>,
    /// The producer.
    pub source: MessageSource,
}

impl UserMessage {
    /// The text of every text block, joined with newlines.
    pub fn text(&self) -> String {
        join_text(&self.content)
    }

    /// The producing plugin, when the source is a plugin.
    pub fn plugin(&self) -> Option<&str> {
        match &self.source {
            MessageSource::Plugin { plugin, .. } => Some(plugin),
            _ => None,
        }
    }
}

/// The text of every text block, joined with newlines.
pub fn join_text(blocks: &[ContentBlock]) -> String {
    let mut out = String::new();
    for ContentBlock::Text { text } in blocks {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// The calling agent, reduced to its identity (the harness's `Arc<dyn Agent>`).
///
/// In the harness an agent and its session share one id, so the advisor uses
/// it for both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    /// The shared agent/session id.
    pub id: String,
}

/// One pending tool call inside the registry pipeline (`ToolExecution`), reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolExecution {
    /// The model's call id.
    pub call_id: String,
    /// The tool name.
    pub name: String,
    /// The parsed, frozen arguments.
    pub arguments: Value,
    /// The agent on whose behalf the call runs; absent for a direct call.
    pub agent: Option<Agent>,
}

/// The completed outcome of one tool call (`ToolExecutionResult`), reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolExecutionResult {
    /// Whether the call failed.
    pub is_error: bool,
    /// Present exactly when `is_error`.
    pub error: Option<ToolFailure>,
    /// Present exactly on success.
    pub value: Option<Value>,
    /// The model-facing content.
    pub content: Vec<ContentBlock>,
    /// Contexts the tool deferred.
    pub additional_contexts: Vec<UserMessage>,
}

impl ToolExecutionResult {
    /// A failure rendered the way the pipeline renders a thrown error (`Error: <message>`).
    pub fn failure(message: impl Into<String>, info: Option<ToolErrorInfo>) -> Self {
        let message = message.into();
        Self {
            is_error: true,
            content: vec![ContentBlock::text(format!("Error: {message}"))],
            error: Some(ToolFailure { message, info }),
            value: None,
            additional_contexts: Vec::new(),
        }
    }

    /// A success with its canonical value and rendering.
    pub fn success(value: Value, content: impl Into<String>) -> Self {
        Self {
            is_error: false,
            error: None,
            value: Some(value),
            content: vec![ContentBlock::text(content)],
            additional_contexts: Vec::new(),
        }
    }
}

/// The pre-dispatch decision (`PreToolDecision`).
#[derive(Debug, Clone, PartialEq)]
pub enum PreToolDecision {
    /// Run the call.
    Allow,
    /// Cancel before dispatch.
    Cancel,
    /// Deny with UI-only structured metadata; the model sees only `reason`.
    DenyWithInfo {
        /// What the model is told.
        reason: String,
        /// The structured error the denial materializes as.
        info: ToolErrorInfo,
        /// UI-only metadata.
        meta: Option<Value>,
    },
    /// Deny.
    Deny {
        /// What the model is told.
        reason: String,
    },
    /// Ask for approval.
    Ask {
        /// Why.
        reason: Option<String>,
        /// The key a remembered grant is stored under.
        grant_key: Option<String>,
        /// Whether the answer may be remembered.
        rememberable: bool,
    },
    /// Ask a human, never an automatic answerer.
    AskHuman {
        /// Why.
        reason: Option<String>,
    },
}

/// The post-dispatch decision (`PostToolDecision`).
#[derive(Debug, Clone, PartialEq)]
pub enum PostToolDecision {
    /// Keep the result, possibly replacing content or value, possibly adding contexts.
    Accept {
        /// Replacement content.
        content: Option<Vec<ContentBlock>>,
        /// Replacement value.
        value: Option<Value>,
        /// Contexts appended as user-role messages after the result.
        additional_contexts: Option<Vec<UserMessage>>,
    },
    /// Turn the result into a failure whose content is `feedback`.
    Block {
        /// The corrective feedback.
        feedback: Vec<ContentBlock>,
        /// Contexts appended as user-role messages after the result.
        additional_contexts: Option<Vec<UserMessage>>,
    },
}

impl PostToolDecision {
    /// `next()`'s answer when no listener is left: accept unchanged.
    pub fn accept() -> Self {
        PostToolDecision::Accept {
            content: None,
            value: None,
            additional_contexts: None,
        }
    }

    /// The contexts this decision carries, in order.
    pub fn additional_contexts(&self) -> &[UserMessage] {
        match self {
            PostToolDecision::Accept {
                additional_contexts,
                ..
            }
            | PostToolDecision::Block {
                additional_contexts,
                ..
            } => additional_contexts.as_deref().unwrap_or(&[]),
        }
    }
}
