//! The dialects' field sets, as facts read from their public references.
//!
//! Nothing here is parsed at run time from a schema: the tables are what the
//! parser is allowed to read and what the renderer is allowed to write, and
//! the tests hold both to them (`reads_only_documented_fields`,
//! `emits_only_documented_fields`).
//!
//! Sources:
//!
//! - **Codex**: the generated JSON schemas in `openai/codex`,
//!   `codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json`,
//!   `post-tool-use.command.input.schema.json`,
//!   `pre-tool-use.command.output.schema.json` and
//!   `post-tool-use.command.output.schema.json` (every one
//!   `additionalProperties: false`). `agent_id` and `agent_type` are from
//!   `codex-rs/hooks/src/schema.rs` of a later revision, where the tool
//!   events carry them only when a subagent made the call. The output
//!   tables keep the fields every revision read allows: a later one dropped
//!   `updatedToolOutput` from PostToolUse, so it is not listed.
//! - **Claude Code**: the hooks reference (code.claude.com/docs/en/hooks):
//!   the common input fields, each tool event's own, and each event's
//!   `hookSpecificOutput` fields; the Agent SDK's hook input types agree
//!   (`agent_id` and `agent_type` on a subagent's events; `error` and
//!   `is_interrupt` on PostToolUseFailure).
//! - **Recorded**: `docs/hooks/` holds the payloads the published clients
//!   (Claude Code 2.1.332, Codex 0.171.0) sent a hook on this kind of
//!   machine; `tests/recorded.rs` holds the input tables to every one of them
//!   (Claude Code's `prompt_id`, `effort` and `duration_ms` came from there).

/// What a hook event is to the advisor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Before the tool runs: the fail-fast check (`pre`).
    Pre,
    /// After the tool ran, with its response (`post`).
    Post,
    /// After the tool failed, with the error's text (`post`, Claude Code only).
    PostFailure,
}

/// One event of one dialect.
#[derive(Debug, PartialEq, Eq)]
pub struct EventRef {
    /// The event's name, as `hook_event_name` carries it and `hookEventName` echoes it.
    pub name: &'static str,
    /// What it is to the advisor.
    pub kind: EventKind,
    /// Every input field the reference documents for it.
    pub input: &'static [&'static str],
    /// Every field its `hookSpecificOutput` may hold.
    pub output: &'static [&'static str],
    /// The values `hookSpecificOutput.permissionDecision` may take (empty: the field is not allowed).
    pub decisions: &'static [&'static str],
}

/// One dialect's facts.
#[derive(Debug, PartialEq, Eq)]
pub struct Reference {
    /// The dialect's name on the command line.
    pub dialect: &'static str,
    /// The top-level fields an output object may hold.
    pub output_top: &'static [&'static str],
    /// The tool events this hook answers.
    pub events: &'static [EventRef],
}

impl Reference {
    /// The event named `name`, when this dialect has it.
    pub fn event(&self, name: &str) -> Option<&'static EventRef> {
        self.events.iter().find(|e| e.name == name)
    }

    /// The events' names, for an error.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.events.iter().map(|e| e.name).collect();
        names.join(", ")
    }
}

/// The fields the parser reads, on every event (`payload.rs`).
pub const READ_ALWAYS: [&str; 7] = [
    "hook_event_name",
    "session_id",
    "agent_id",
    "cwd",
    "tool_name",
    "tool_use_id",
    "tool_input",
];

/// Claude Code: the three tool events.
pub static CLAUDE_CODE: Reference = Reference {
    dialect: "claude-code",
    output_top: &[
        "continue",
        "stopReason",
        "suppressOutput",
        "systemMessage",
        "decision",
        "reason",
        "hookSpecificOutput",
    ],
    events: &[
        EventRef {
            name: "PreToolUse",
            kind: EventKind::Pre,
            input: &[
                "session_id",
                "transcript_path",
                "cwd",
                "permission_mode",
                "hook_event_name",
                "agent_id",
                "agent_type",
                "tool_name",
                "tool_input",
                "tool_use_id",
                // Seen in 2.1.332's payloads (docs/hooks/claude-code/); not read.
                "prompt_id",
                "effort",
            ],
            output: &[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ],
            decisions: &["allow", "deny", "ask"],
        },
        EventRef {
            name: "PostToolUse",
            kind: EventKind::Post,
            input: &[
                "session_id",
                "transcript_path",
                "cwd",
                "permission_mode",
                "hook_event_name",
                "agent_id",
                "agent_type",
                "tool_name",
                "tool_input",
                "tool_response",
                "tool_use_id",
                // Seen in 2.1.332's payloads (docs/hooks/claude-code/); not read.
                "prompt_id",
                "effort",
                "duration_ms",
            ],
            output: &["hookEventName", "additionalContext", "updatedMCPToolOutput"],
            decisions: &[],
        },
        EventRef {
            name: "PostToolUseFailure",
            kind: EventKind::PostFailure,
            input: &[
                "session_id",
                "transcript_path",
                "cwd",
                "permission_mode",
                "hook_event_name",
                "agent_id",
                "agent_type",
                "tool_name",
                "tool_input",
                "tool_use_id",
                "error",
                "is_interrupt",
                // Seen in 2.1.332's payloads (docs/hooks/claude-code/); not read.
                "prompt_id",
                "effort",
                "duration_ms",
            ],
            output: &["hookEventName", "additionalContext"],
            decisions: &[],
        },
    ],
};

/// Codex: its two tool events.
pub static CODEX: Reference = Reference {
    dialect: "codex",
    output_top: &[
        "continue",
        "decision",
        "hookSpecificOutput",
        "reason",
        "stopReason",
        "suppressOutput",
        "systemMessage",
    ],
    events: &[
        EventRef {
            name: "PreToolUse",
            kind: EventKind::Pre,
            input: &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
                "turn_id",
                "agent_id",
                "agent_type",
            ],
            output: &[
                "additionalContext",
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
            ],
            // The latest schema read allows only these two (an earlier one also `ask`).
            decisions: &["allow", "deny"],
        },
        EventRef {
            name: "PostToolUse",
            kind: EventKind::Post,
            input: &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_response",
                "tool_use_id",
                "transcript_path",
                "turn_id",
                "agent_id",
                "agent_type",
            ],
            output: &["additionalContext", "hookEventName", "updatedMCPToolOutput"],
            decisions: &[],
        },
    ],
};
