//! Gemini CLI 0.61.0's tool events, as facts: the fields its hooks receive
//! (recorded in `docs/hooks/gemini-cli/`, and its shipped
//! `docs/hooks/reference.md`) and the fields an answer may hold.

use crate::hook::reference::{EventKind, EventRef, Reference};

/// Gemini CLI's shell tool, the only tool the advisor's handler matches.
pub const SHELL_TOOL: &str = "run_shell_command";

/// The input fields of both tool events (recorded; `mcp_context` and
/// `original_request_name` from its reference, for MCP tools).
const COMMON: [&str; 9] = [
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "timestamp",
    "tool_name",
    "tool_input",
    "mcp_context",
    "original_request_name",
];

/// Gemini CLI: `BeforeTool` and `AfterTool`.
pub static GEMINI_CLI: Reference = Reference {
    dialect: "gemini-cli",
    // Its reference's common output fields; `decision` and `reason` act on
    // both tool events.
    output_top: &[
        "systemMessage",
        "suppressOutput",
        "continue",
        "stopReason",
        "decision",
        "reason",
        "hookSpecificOutput",
    ],
    events: &[
        EventRef {
            name: "BeforeTool",
            kind: EventKind::Pre,
            input: &COMMON,
            output: &["tool_input"],
            decisions: &[],
        },
        EventRef {
            name: "AfterTool",
            kind: EventKind::Post,
            input: &[
                "session_id",
                "transcript_path",
                "cwd",
                "hook_event_name",
                "timestamp",
                "tool_name",
                "tool_input",
                "mcp_context",
                "original_request_name",
                "tool_response",
            ],
            output: &["additionalContext", "tailToolCallRequest"],
            decisions: &[],
        },
    ],
};

/// The values of the top-level `decision` Gemini CLI reads (`block` is an
/// alias of `deny`).
pub const DECISIONS: [&str; 3] = ["allow", "deny", "block"];
