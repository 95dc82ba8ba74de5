//! `hook --dialect gemini-cli`: Gemini CLI's `BeforeTool` and `AfterTool` for
//! `run_shell_command`.
//!
//! The payload's common fields (`hook_event_name`, `session_id`, `cwd`,
//! `tool_name`, `tool_input`) are read as for the other clients
//! ([`crate::hook::payload`]); Gemini sends no call id, so each payload gets
//! one of its own. `tool_input.description`, the model's note on the command,
//! is left out of the call, as Claude Code's is. `tool_response` is read as
//! Gemini renders it ([`response`]): the output, the exit code, the wrapper's
//! noise line removed, and Gemini's own `sandbox_expansion_required` mark.
//! The answers, per path, are in [`answer`].

pub mod answer;
pub mod reference;
pub mod response;

use advisor_core::Host;
use serde_json::Value;
use serde_json::value::RawValue;

use super::dialect::{CallFacts, HookDialect, Parsed};
use super::payload::{self, Malformed};
use super::reference::{EventKind, EventRef, Reference};
use crate::engine::Decision;
pub use reference::{GEMINI_CLI, SHELL_TOOL};

/// The field of `run_shell_command`'s input that only describes the command.
pub const NOTE: &str = "description";

/// Gemini CLI's dialect.
#[derive(Debug, Clone, Copy)]
pub struct GeminiCli;

#[derive(serde::Deserialize)]
struct ResponseField<'a> {
    #[serde(borrow, default)]
    tool_response: Option<&'a RawValue>,
}

impl HookDialect for GeminiCli {
    fn reference(&self) -> &'static Reference {
        &GEMINI_CLI
    }

    fn default_host(&self) -> Host {
        Host::GeminiCli
    }

    fn parse(&self, host: Host, bytes: &[u8]) -> Result<Parsed, Malformed> {
        let mut payload = payload::parse(&GEMINI_CLI, host, bytes)?;
        let shell = payload.tool.as_str() == SHELL_TOOL;
        if shell {
            if let Value::Object(fields) = &mut payload.args {
                fields.remove(NOTE);
            }
        }
        let mut call = CallFacts::default();
        if payload.event.kind == EventKind::Post && shell {
            // `payload::parse` accepted the text: UTF-8 JSON with an object
            // `tool_response` (an object, since Gemini sends one).
            let text = std::str::from_utf8(crate::lines::without_bom(bytes))
                .map_err(|e| Malformed(format!("not UTF-8 text: {e}")))?;
            let field: ResponseField<'_> = serde_json::from_str(text)
                .map_err(|e| Malformed(format!("field `tool_response`: {e}")))?;
            let raw = field
                .tool_response
                .filter(|r| r.get().starts_with('{'))
                .ok_or_else(|| Malformed("field `tool_response` must be an object".into()))?;
            let read = response::read(raw)?;
            payload.outcome = Some(read.outcome());
            call.marker = read.marker;
            call.output = Some(read.output);
        }
        Ok(Parsed { payload, call })
    }

    fn render(&self, event: &EventRef, decision: &Decision, call: &CallFacts) -> Option<Value> {
        answer::render(event, decision, call)
    }
}

#[cfg(test)]
mod tests;
