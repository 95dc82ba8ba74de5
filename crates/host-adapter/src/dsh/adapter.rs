//! [`DshAdvisor`]: the host adapter on the Rust harness's waterfalls.

use std::future::Future;

use advisor_core::{
    Advisory, AgentId, CallId, Failure, Observation, Outcome, PendingCall, SOURCE_KIND, SessionId,
    Success, ToolName,
};
use serde_json::{Value, json};

use super::types::{
    Agent, ContentBlock, ContextForm, MessageSource, PostToolDecision, PreToolDecision, Role,
    ToolErrorInfo, ToolExecution, ToolExecutionResult, UserMessage, join_text,
};
use crate::{HostAdapter, PostExecute};

/// The plugin name the advisor's notices carry (the original plugin's).
pub const PLUGIN_NAME: &str = SOURCE_KIND;

/// The structured error a fail-fast refusal materializes as.
pub const REFUSAL_ERROR_NAME: &str = "SandboxAdvisorRefusal";

/// The code of that error, so other listeners can tell the refusal from a real failure.
pub const REFUSAL_CODE: &str = "SANDBOX_ADVISOR_REFUSED";

/// The harness's own repeat guard (`crates/guard/repeat-tool-reminder`).
pub const REPEAT_REMINDER_PLUGIN: &str = "repeat-tool-reminder";

/// The codes on which `repeat-tool-reminder` keys one execution-failure chain
/// across differing arguments and reminds on its second repeat (transcribed).
pub const REPEAT_REMINDER_CODES: [&str; 12] = [
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

/// How the generic execution-failure reminder's opening reads (transcribed).
const REPEAT_REMINDER_OPENING: &str = "The execution path has failed ";

/// What to do with `repeat-tool-reminder`'s generic sandbox reminder when it
/// lands on the same failure as one of this advisor's advisories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RepeatReminder {
    /// Leave every downstream context alone (the default: never touch another
    /// plugin's output unasked).
    #[default]
    Keep,
    /// Drop the generic reminder from a decision this advisor enriches with a
    /// specific advisory for the same coded failure, so one failure carries one
    /// account of the sandbox. Only works when the advisor's listener runs
    /// outside the reminder's (registered first).
    Supersede,
}

/// The advisor mounted on the Rust harness's `tools/pre-execute` and
/// `tools/post-execute` waterfalls, in the harness's observe-and-enrich order.
pub struct DshAdvisor {
    adapter: HostAdapter,
    repeat_reminder: RepeatReminder,
}

impl DshAdvisor {
    /// Wraps a built adapter.
    pub fn new(adapter: HostAdapter) -> Self {
        Self {
            adapter,
            repeat_reminder: RepeatReminder::Keep,
        }
    }

    /// Chooses how to treat `repeat-tool-reminder`'s generic sandbox reminder.
    pub fn with_repeat_reminder(mut self, policy: RepeatReminder) -> Self {
        self.repeat_reminder = policy;
        self
    }

    /// The wrapped adapter.
    pub fn adapter(&self) -> &HostAdapter {
        &self.adapter
    }

    /// `tools/pre-execute`: refuses a fail-fast call without delegating (so no
    /// later listener asks for approval of a call that is refused anyway);
    /// otherwise delegates and returns `next`'s decision untouched.
    pub async fn pre_execute<Fut>(
        &self,
        exec: &ToolExecution,
        next: impl FnOnce() -> Fut,
    ) -> PreToolDecision
    where
        Fut: Future<Output = PreToolDecision>,
    {
        if let Some(agent) = &exec.agent {
            let call = PendingCall {
                agent: AgentId::new(&agent.id),
                session: Some(SessionId::new(&agent.id)),
                call: CallId::new(&exec.call_id),
                tool: ToolName::new(&exec.name),
                arguments: exec.arguments.clone(),
            };
            if let Some(refusal) = self.adapter.pre_execute(&call).refusal {
                return PreToolDecision::DenyWithInfo {
                    reason: refusal.reason,
                    info: ToolErrorInfo {
                        name: REFUSAL_ERROR_NAME.to_owned(),
                        code: REFUSAL_CODE.to_owned(),
                    },
                    meta: Some(json!({ "family": refusal.family.as_str() })),
                };
            }
        }
        next().await
    }

    /// `tools/post-execute`: decides first, then delegates to `next`, then folds
    /// the advisories onto whichever decision came back (accept or block), ahead
    /// of the downstream contexts. A later listener can still block or replace,
    /// and the advisory is not lost.
    pub async fn post_execute<Fut>(
        &self,
        exec: &ToolExecution,
        result: &ToolExecutionResult,
        next: impl FnOnce() -> Fut,
    ) -> PostToolDecision
    where
        Fut: Future<Output = PostToolDecision>,
    {
        let ours = match observe(exec, result) {
            Some(observation) => {
                let decision = self
                    .adapter
                    .post_execute(PostExecute {
                        observation,
                        approved_mode: None,
                    })
                    .await;
                notices(
                    &decision.additional_contexts,
                    &exec.call_id,
                    exec.agent.as_ref(),
                )
            }
            None => Vec::new(),
        };
        let downstream = next().await;
        let supersede = self.repeat_reminder == RepeatReminder::Supersede
            && error_code(result).is_some_and(|code| REPEAT_REMINDER_CODES.contains(&code));
        fold(downstream, ours, supersede)
    }

    /// `agent/session-start`: the pre-flight advisories, to `agent.inject`.
    pub async fn session_start(&self, agent: &Agent) -> Vec<UserMessage> {
        let decision = self
            .adapter
            .session_start(&AgentId::new(&agent.id), Some(&SessionId::new(&agent.id)))
            .await;
        notices(&decision.additional_contexts, "session-start", Some(agent))
    }

    /// `agent/disposed`: forget the agent.
    pub fn agent_end(&self, agent: &Agent) {
        self.adapter.agent_end(&AgentId::new(&agent.id));
    }
}

/// The observation a settled call gives the core, or `None` for a direct call
/// with no agent (there is nobody to advise once).
///
/// A failure's `info.code` is not part of it: the code never stands in for the
/// producer's exact shape (see [`error_code`]).
pub fn observe(exec: &ToolExecution, result: &ToolExecutionResult) -> Option<Observation> {
    let agent = exec.agent.as_ref()?;
    let content = join_text(&result.content);
    let outcome = match (&result.error, result.is_error) {
        (Some(error), true) => Outcome::Failure(Failure {
            message: error.message.clone(),
            members: Vec::new(),
            content,
            code: error.info.as_ref().map(|info| info.code.clone()),
        }),
        (None, true) => Outcome::Failure(Failure {
            message: content
                .strip_prefix("Error: ")
                .unwrap_or(&content)
                .to_owned(),
            members: Vec::new(),
            content,
            code: None,
        }),
        (_, false) => Outcome::Success(Success {
            value: result.value.clone().unwrap_or(Value::Null),
            content,
        }),
    };
    Some(Observation {
        agent: AgentId::new(&agent.id),
        session: Some(SessionId::new(&agent.id)),
        call: CallId::new(&exec.call_id),
        tool: ToolName::new(&exec.name),
        arguments: exec.arguments.clone(),
        outcome,
    })
}

/// The structured error code of a failed result (`error.info.code`).
///
/// An extra fact beside the producer's shape, never a replacement for it: no
/// shipped family recognizes a failure from its code alone, and the core's
/// [`Observation`] has no slot for it. The adapter reads it to coexist with
/// `repeat-tool-reminder`, which keys on these codes.
pub fn error_code(result: &ToolExecutionResult) -> Option<&str> {
    let info = result.error.as_ref()?.info.as_ref()?;
    result.is_error.then_some(info.code.as_str())
}

/// One advisory as the plugin-sourced `notice` the harness's loop appends.
pub fn notice(advisory: &Advisory, call: &str, agent: Option<&Agent>) -> UserMessage {
    let agent = agent.map_or("", |a| a.id.as_str());
    UserMessage {
        id: format!("{PLUGIN_NAME}:{agent}:{call}:{}", advisory.family),
        role: Role::User,
        content: vec![ContentBlock::text(advisory.text.clone())],
        source: MessageSource::Plugin {
            plugin: PLUGIN_NAME.to_owned(),
            form: Some(ContextForm::Notice),
            summary: Some(advisory.summary.as_str().to_owned()),
        },
    }
}

fn notices(advisories: &[Advisory], call: &str, agent: Option<&Agent>) -> Vec<UserMessage> {
    advisories.iter().map(|a| notice(a, call, agent)).collect()
}

/// True for `repeat-tool-reminder`'s generic execution-failure reminder.
pub fn is_generic_repeat_reminder(message: &UserMessage) -> bool {
    message.plugin() == Some(REPEAT_REMINDER_PLUGIN)
        && matches!(message.content.first(), Some(ContentBlock::Text { text }) if text.starts_with(REPEAT_REMINDER_OPENING))
}

/// Puts `ours` ahead of the downstream decision's contexts, keeping its kind.
fn fold(downstream: PostToolDecision, ours: Vec<UserMessage>, supersede: bool) -> PostToolDecision {
    if ours.is_empty() {
        return downstream;
    }
    let merge = |theirs: Option<Vec<UserMessage>>| {
        let mut merged = ours;
        merged.extend(
            theirs
                .unwrap_or_default()
                .into_iter()
                .filter(|m| !(supersede && is_generic_repeat_reminder(m))),
        );
        Some(merged)
    };
    match downstream {
        PostToolDecision::Accept {
            content,
            value,
            additional_contexts,
        } => PostToolDecision::Accept {
            content,
            value,
            additional_contexts: merge(additional_contexts),
        },
        PostToolDecision::Block {
            feedback,
            additional_contexts,
        } => PostToolDecision::Block {
            feedback,
            additional_contexts: merge(additional_contexts),
        },
    }
}
