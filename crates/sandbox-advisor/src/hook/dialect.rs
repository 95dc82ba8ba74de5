//! One hook client's dialect behind one trait: how its payload is read, and
//! how the advisor's decision is written back in its answer.
//!
//! Each client is one module ([`super::gemini_cli`] for Gemini CLI; Claude
//! Code and Codex share the renderer of [`super::output`] and the reader of
//! [`super::payload`], wrapped here by [`Shared`] until they move into modules
//! of their own). The rest of the hook (the engine, the ledger, the host log)
//! sees only the neutral [`Payload`] and a [`Decision`], so adding a client is
//! one module, one [`super::Dialect`] variant and its host table in core.

use advisor_core::Host;
use serde_json::Value;

use super::payload::{self, Malformed, Payload};
use super::reference::{EventRef, Reference};
use crate::engine::Decision;

/// A payload as one dialect read it: the neutral part every client shares,
/// and what this client's answer needs to remember of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The neutral payload the engine decides on.
    pub payload: Payload,
    /// What the client's answer needs besides the decision.
    pub call: CallFacts,
}

/// What a client told about the call that its answer may need, beside what
/// the engine decides on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CallFacts {
    /// The client's own mark that its sandbox refused the call, which a
    /// command's output cannot write (Gemini CLI's
    /// `tool_response.error.type`).
    pub marker: Option<ClientMarker>,
    /// The command's own output as the client reported it, the wrapper's
    /// noise removed (Gemini CLI: for a `deny` that replaces the result, so
    /// the model still reads what the command printed).
    pub output: Option<String>,
}

/// A client's own mark on a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientMarker {
    /// Gemini CLI's `sandbox_expansion_required`: it recognized a sandbox
    /// refusal and asks the user to widen the sandbox for the command.
    SandboxExpansionRequired,
}

impl ClientMarker {
    /// The marker's text, as the client writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientMarker::SandboxExpansionRequired => "sandbox_expansion_required",
        }
    }
}

/// One client's hook dialect.
pub trait HookDialect: Sync {
    /// Its facts: events, input and output fields.
    fn reference(&self) -> &'static Reference;

    /// The host a hook of this dialect runs in unless `--host` says otherwise.
    fn default_host(&self) -> Host;

    /// Reads one payload sent by `host`; refuses it naming the field.
    fn parse(&self, host: Host, bytes: &[u8]) -> Result<Parsed, Malformed>;

    /// The answer to `decision` on `event`, or `None` for silence (empty stdout).
    fn render(&self, event: &EventRef, decision: &Decision, call: &CallFacts) -> Option<Value>;
}

/// Claude Code and Codex: one reader and one renderer serve both (their
/// payloads share field names, their answers the `hookSpecificOutput` form).
#[derive(Debug)]
pub struct Shared(pub &'static Reference, pub Host);

impl HookDialect for Shared {
    fn reference(&self) -> &'static Reference {
        self.0
    }

    fn default_host(&self) -> Host {
        self.1
    }

    fn parse(&self, host: Host, bytes: &[u8]) -> Result<Parsed, Malformed> {
        Ok(Parsed {
            payload: payload::parse(self.0, host, bytes)?,
            call: CallFacts::default(),
        })
    }

    fn render(&self, event: &EventRef, decision: &Decision, _: &CallFacts) -> Option<Value> {
        super::output::render(event, decision)
    }
}
