//! A settled tool call, exactly as much of it as a family may read.

use serde_json::Value;

use crate::ids::{AgentId, CallId, SessionId, ToolName};

/// A settled tool call: who made it, what was called, and how it ended.
///
/// A family reads nothing else. The canonical arguments are the parsed JSON the
/// harness dispatched; the outcome is either the failure the pipeline settled or
/// the success value the tool returned.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// The agent the call is attributed to.
    pub agent: AgentId,
    /// The session the call ran in, absent for an agentless call.
    pub session: Option<SessionId>,
    /// The call's id.
    pub call: CallId,
    /// The tool that was called.
    pub tool: ToolName,
    /// The call's canonical arguments.
    pub arguments: Value,
    /// How the call ended.
    pub outcome: Outcome,
}

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The pipeline settled the call as an error result.
    Failure(Failure),
    /// The tool returned a value (a non-zero exit of a shell command lands here).
    Success(Success),
}

/// An error result: the thrown error's message and what the model was shown.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Failure {
    /// The error's message, without the `Error: ` envelope.
    pub message: String,
    /// The member messages, when the thrown error was an aggregate. The session
    /// never sees these; a family may use them to choose, never to quote.
    pub members: Vec<String>,
    /// The rendered content the model saw (normally `Error: <message>`).
    pub content: String,
    /// The structured code the harness attached to the failure, when it did
    /// (deepseek-harness-rs' `info.code`, e.g. `SANDBOX_RUNNER_FAILED`). An
    /// extra fact a family may use beside the producer's exact shape, never
    /// instead of it.
    pub code: Option<String>,
}

/// A success result: the tool's canonical value and its rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct Success {
    /// The tool's canonical JSON value (never stored in durable events).
    pub value: Value,
    /// The rendered text the model saw.
    pub content: String,
}

impl Observation {
    /// The failure, if the call failed.
    pub fn failure(&self) -> Option<&Failure> {
        match &self.outcome {
            Outcome::Failure(f) => Some(f),
            Outcome::Success(_) => None,
        }
    }

    /// The success, if the call returned a value.
    pub fn success(&self) -> Option<&Success> {
        match &self.outcome {
            Outcome::Success(s) => Some(s),
            Outcome::Failure(_) => None,
        }
    }

    /// True when the call returned a value.
    pub fn is_success(&self) -> bool {
        matches!(self.outcome, Outcome::Success(_))
    }
}
