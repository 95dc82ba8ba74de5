//! What the hook answers Gemini CLI, per path, as measured with the real
//! client (`docs/hooks/gemini-cli/`, `.ci/clients.sh test`):
//!
//! - **BeforeTool, a fail-fast refusal**: `{"decision": "deny", "reason": R}`;
//!   the model gets `Tool execution blocked: R` and the command does not run.
//! - **AfterTool, an advisory, no marker** (curl's exit 7, `bwrap: not found`,
//!   any result Gemini did not mark): `hookSpecificOutput.additionalContext`,
//!   which Gemini appends to the function response inside `<hook_context>`.
//! - **AfterTool, an advisory, Gemini's `sandbox_expansion_required`
//!   marker**: there Gemini delivers no `additionalContext`; it waits for the
//!   user to approve an expansion (forever in a headless run, and in the
//!   interactive one it proposes paths read from the output's text, often the
//!   wrong ones). So the answer is `{"decision": "deny", "reason": R}`: the
//!   model gets R in place of the result, the run goes on, and no dialog opens.
//!   R is the advisory, then the command's own output quoted, so nothing the
//!   command printed is lost. The advisory says what the user may approve or
//!   set and why; an approval the model asks for on a retry still goes
//!   through Gemini's own dialog, so the user keeps that choice.
//! - **Anything else**: silence (empty stdout), and Gemini goes on as without
//!   a hook, dialog included.

use advisor_core::Untrusted;
use serde_json::{Map, Value, json};

use crate::engine::Decision;
use crate::hook::dialect::CallFacts;
use crate::hook::output::ADVISORY_SEPARATOR;
use crate::hook::reference::{EventKind, EventRef};

/// Before the quoted output in a `deny`'s reason.
pub const OUTPUT_HEADING: &str =
    "What the command printed (Gemini CLI shows this note in place of its result):";

/// The answer to `decision` on `event`, or `None` for silence.
pub fn render(event: &EventRef, decision: &Decision, call: &CallFacts) -> Option<Value> {
    match event.kind {
        EventKind::Pre => {
            let refusal = decision.refusal.as_ref()?;
            Some(json!({ "decision": "deny", "reason": refusal.reason }))
        }
        EventKind::Post | EventKind::PostFailure => {
            if decision.advisories.is_empty() {
                return None;
            }
            let texts: Vec<&str> = decision
                .advisories
                .iter()
                .map(|a| a.text.as_str())
                .collect();
            let text = texts.join(ADVISORY_SEPARATOR);
            if call.marker.is_some() {
                let mut reason = text;
                if let Some(output) = call.output.as_deref().filter(|o| !o.trim().is_empty()) {
                    let quoted = Untrusted::new(output);
                    reason.push_str(&format!(
                        "{ADVISORY_SEPARATOR}{OUTPUT_HEADING}\n{}",
                        quoted.quote_block()
                    ));
                }
                return Some(json!({ "decision": "deny", "reason": reason }));
            }
            let mut specific = Map::new();
            specific.insert("additionalContext".into(), json!(text));
            Some(json!({ "hookSpecificOutput": specific }))
        }
    }
}
