//! One hook payload, read into the neutral form both dialects share.
//!
//! The payload is read where it lies, as the protocol reads a line: the
//! fields the hook uses are borrowed slices of the text, every other field
//! is skipped unread, and only what recognition reads of `tool_input` is
//! built (`protocol::value`). So an 8 MiB payload of any shape costs about
//! its own size, and every refusal names the field that is wrong.

use std::io::Read;

use advisor_core::{AgentId, CallId, Failure, Host, Outcome, SessionId, Success, ToolName};
use serde::de::{Deserialize, Deserializer, IgnoredAny};
use serde_json::Value;
use serde_json::value::RawValue;

use super::reference::{EventKind, EventRef, Reference};
use crate::protocol::caps::short_id;
use crate::protocol::note_left_out;
use crate::protocol::value::{Role, for_recognition};

/// The longest payload read, in bytes; a longer one is refused as malformed.
pub const PAYLOAD_MAX_BYTES: usize = 8 * 1024 * 1024;

/// The longest refusal text, in characters (a quoted value can be megabytes long).
const ERROR_MAX_CHARS: usize = 300;

/// How the harness renders a failed call's message for the model: one text
/// block `Error: <message>` (`toolErrorResult`, and a `deny` materialized
/// the same way; the envelope rule is `advisor_core::envelope`'s).
pub const FAILURE_ENVELOPE: &str = "Error: ";

/// The field of Claude Code's `Bash` input that only describes the command
/// (`command`, `timeout`, `run_in_background` and `dangerouslyDisableSandbox`
/// decide what runs): left out of the call's arguments, so the fail-fast
/// budget's "identical call" is the same command however the model worded it.
pub const BASH_NOTE: &str = "description";

/// Claude Code's shell tool.
const BASH: &str = "Bash";

/// Why a payload cannot be used, naming the field; one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

impl Malformed {
    fn new(text: String) -> Self {
        let mut text = text.replace(['\n', '\r'], " ");
        if let Some((cut, _)) = text.char_indices().nth(ERROR_MAX_CHARS) {
            text.truncate(cut);
            text.push('…');
        }
        Self(text)
    }
}

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One tool event, as the advisor needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    /// The event, with its name to echo back.
    pub event: &'static EventRef,
    /// `session_id`.
    pub session: SessionId,
    /// The session, or `<session>/<agent_id>` for a subagent's call.
    pub agent: AgentId,
    /// `cwd`: the workspace root.
    pub cwd: Option<String>,
    /// `tool_name`.
    pub tool: ToolName,
    /// `tool_use_id`, or an id of this invocation alone when the payload has none.
    pub call: CallId,
    /// `tool_input` as recognition reads it (`{}` when absent or null).
    pub args: Value,
    /// How the call ended; `None` before it ran.
    pub outcome: Option<Outcome>,
    /// How many bytes at the end of the outcome's text the client wrote in
    /// a field of its own, which a command's output cannot reach: Claude
    /// Code's `tool_response.stderr` of a `Bash` call that exited 0 (the
    /// command's stdout and stderr both arrive in `stdout`; recorded in
    /// `docs/hooks/claude-code/sandbox-curl-exit0` against
    /// `control-prints-violations-exit0`). `None` for every other payload.
    pub client_tail: Option<usize>,
}

/// Reads the payload from `input`, refusing one longer than [`PAYLOAD_MAX_BYTES`]
/// without reading past the limit.
pub fn read(input: &mut dyn Read) -> Result<Vec<u8>, Malformed> {
    let mut bytes = Vec::new();
    input
        .take(PAYLOAD_MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Malformed::new(format!("cannot read it from stdin: {e}")))?;
    if bytes.len() > PAYLOAD_MAX_BYTES {
        return Err(Malformed::new(format!(
            "longer than {PAYLOAD_MAX_BYTES} bytes (8 MiB); it was not read"
        )));
    }
    Ok(bytes)
}

/// A field as it lies in the text; JSON `null` is kept (as `"null"`), absence is `None`.
#[derive(Debug, Default, Clone, Copy)]
struct Field<'a>(Option<&'a RawValue>);

impl<'de: 'a, 'a> Deserialize<'de> for Field<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(deserializer).map(|raw| Field(Some(raw)))
    }
}

/// The fields the hook reads ([`super::reference::READ_ALWAYS`], `tool_response`
/// and `error`); any other is skipped unread.
#[derive(serde::Deserialize)]
struct Raw<'a> {
    #[serde(borrow, default)]
    hook_event_name: Field<'a>,
    #[serde(borrow, default)]
    session_id: Field<'a>,
    #[serde(borrow, default)]
    agent_id: Field<'a>,
    #[serde(borrow, default)]
    cwd: Field<'a>,
    #[serde(borrow, default)]
    tool_name: Field<'a>,
    #[serde(borrow, default)]
    tool_use_id: Field<'a>,
    #[serde(borrow, default)]
    tool_input: Field<'a>,
    #[serde(borrow, default)]
    tool_response: Field<'a>,
    #[serde(borrow, default)]
    error: Field<'a>,
}

/// Reads `bytes` as one event of `dialect`, sent by `host` (which decides
/// what a `tool_response` says: see [`response`]).
pub fn parse(dialect: &'static Reference, host: Host, bytes: &[u8]) -> Result<Payload, Malformed> {
    if let Some(utf16) = crate::lines::utf16(bytes) {
        return Err(Malformed::new(format!(
            "it is {utf16}; a hook payload is UTF-8 JSON"
        )));
    }
    // A leading byte-order mark (as Windows tools write one) is not the payload's.
    let text = std::str::from_utf8(crate::lines::without_bom(bytes))
        .map_err(|e| Malformed::new(format!("not UTF-8 text: {e}")))?;
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(Malformed::new("empty".into()));
    }
    if !trimmed.starts_with('{') {
        // Say what is wrong with the text before saying it is not an object.
        serde_json::from_str::<IgnoredAny>(text).map_err(not_json)?;
        return Err(Malformed::new("not a JSON object".into()));
    }
    let raw: Raw<'_> = serde_json::from_str(text).map_err(|e| {
        if e.is_data() {
            Malformed::new(e.to_string())
        } else {
            not_json(e)
        }
    })?;
    let name = required_string("hook_event_name", raw.hook_event_name)?;
    let event = dialect.event(&name).ok_or_else(|| {
        let shown: String = name.chars().take(ERROR_MAX_CHARS).collect();
        Malformed::new(format!(
            "field `hook_event_name`: {shown:?} is not an event `hook --dialect {}` answers \
             (expected one of: {})",
            dialect.dialect,
            dialect.names()
        ))
    })?;
    let session = non_empty("session_id", required_string("session_id", raw.session_id)?)?;
    let agent = match optional_string("agent_id", raw.agent_id)? {
        Some(agent) => format!("{session}/{}", non_empty("agent_id", agent)?),
        None => session.clone(),
    };
    let call = match optional_string("tool_use_id", raw.tool_use_id)? {
        Some(call) => non_empty("tool_use_id", call)?,
        None => this_invocation(),
    };
    let tool = non_empty("tool_name", required_string("tool_name", raw.tool_name)?)?;
    let mut args = match raw.tool_input.0 {
        Some(input) if input.get() != "null" => {
            let (args, left_out) = for_recognition(input, Role::Args)
                .map_err(|e| Malformed::new(format!("field `tool_input`: {e}")))?;
            if let Some(left_out) = left_out {
                note_left_out("tool_input", &left_out);
            }
            args
        }
        _ => Value::Object(Default::default()),
    };
    if host == Host::ClaudeCode && tool == BASH {
        // The model's note on what the command does: it changes nothing about
        // what runs, and a retry rewords it, so it is not part of the call.
        if let Value::Object(fields) = &mut args {
            fields.remove(BASH_NOTE);
        }
    }
    // Claude Code's own field exists only on its Bash tool's result: another
    // tool's object (an MCP server's) is that tool's text, not the client's.
    let own_field = host == Host::ClaudeCode && tool == BASH;
    let (outcome, client_tail) = match event.kind {
        EventKind::Pre => (None, None),
        EventKind::Post => {
            let (outcome, tail) = response(raw.tool_response, host)?;
            (Some(outcome), tail.filter(|_| own_field))
        }
        EventKind::PostFailure => (Some(failure(required_string("error", raw.error)?)), None),
    };
    Ok(Payload {
        event,
        agent: AgentId::from(short_id(agent)),
        session: SessionId::from(short_id(session)),
        cwd: optional_string("cwd", raw.cwd)?,
        tool: ToolName::from(short_id(tool)),
        call: CallId::from(short_id(call)),
        args,
        outcome,
        client_tail,
    })
}

/// `tool_response`, as `host` writes it. Nothing in it, nor in any other
/// JSON, is taken for the producer's value (the module doc of
/// [`crate::hook`] says why); what it yields is text:
///
/// - the harness's bridges (`Host::Dsh`) flatten a result to text, and a
///   failed call's text begins with [`FAILURE_ENVELOPE`]: that is a failure;
/// - Codex sends a command's bare output as a string, with no exit code and
///   no mark of failure: it is a success whose text is that output, so only
///   a family whose producer's own line is distinctive reads it
///   (`Anchors::OutputText`);
/// - Claude Code sends an object; for Bash its `stdout` and `stderr` are the
///   text (a sandbox denial can end in a success), joined by a newline.
///
/// With it, for an object, the length of its `stderr` (the end of the text).
fn response(field: Field<'_>, host: Host) -> Result<(Outcome, Option<usize>), Malformed> {
    let Some(raw) = field.0 else {
        return Err(Malformed::new("missing field `tool_response`".into()));
    };
    if !raw.get().starts_with('"') {
        let (content, tail) = if host != Host::Dsh && raw.get().starts_with('{') {
            let (content, stderr) = streams(raw)?;
            (content, Some(stderr))
        } else {
            (String::new(), None)
        };
        let success = Outcome::Success(Success {
            value: Value::Null,
            content,
        });
        return Ok((success, tail));
    }
    let text = read_string("tool_response", raw)?;
    let envelope = (host == Host::Dsh)
        .then(|| text.strip_prefix(FAILURE_ENVELOPE))
        .flatten();
    let outcome = match envelope {
        Some(message) => Outcome::Failure(Failure {
            message: message.to_owned(),
            content: text,
            members: Vec::new(),
            code: None,
        }),
        None => Outcome::Success(Success {
            value: Value::Null,
            content: text,
        }),
    };
    Ok((outcome, None))
}

/// The `stdout` and `stderr` strings of a `tool_response` object (Claude
/// Code's Bash result), joined by a newline, and the length of `stderr`,
/// which ends the text; any other field is skipped, and an object without
/// them is no text.
fn streams(raw: &RawValue) -> Result<(String, usize), Malformed> {
    #[derive(serde::Deserialize)]
    struct Streams<'a> {
        #[serde(borrow, default)]
        stdout: Field<'a>,
        #[serde(borrow, default)]
        stderr: Field<'a>,
    }
    let streams: Streams<'_> = serde_json::from_str(raw.get())
        .map_err(|e| Malformed::new(format!("field `tool_response`: {e}")))?;
    let stdout = optional_string("tool_response.stdout", streams.stdout)?.unwrap_or_default();
    let stderr = optional_string("tool_response.stderr", streams.stderr)?.unwrap_or_default();
    let tail = stderr.len();
    let text = match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => stdout,
        (true, false) => stderr,
        (false, false) => format!("{stdout}\n{stderr}"),
    };
    Ok((text, tail))
}

/// `error` of a PostToolUseFailure: the failure's message, rendered as the harness renders one.
fn failure(message: String) -> Outcome {
    Outcome::Failure(Failure {
        content: format!("{FAILURE_ENVELOPE}{message}"),
        message,
        members: Vec::new(),
        code: None,
    })
}

fn not_json(e: serde_json::Error) -> Malformed {
    Malformed::new(format!(
        "not valid JSON: {} at line {} column {}",
        crate::config::json_syntax_message(&e),
        e.line(),
        e.column()
    ))
}

fn required_string(name: &str, field: Field<'_>) -> Result<String, Malformed> {
    match field.0 {
        Some(raw) => read_string(name, raw),
        None => Err(Malformed::new(format!("missing field `{name}`"))),
    }
}

/// A string field that may be absent or null.
fn optional_string(name: &str, field: Field<'_>) -> Result<Option<String>, Malformed> {
    match field.0 {
        Some(raw) if raw.get() != "null" => read_string(name, raw).map(Some),
        _ => Ok(None),
    }
}

fn read_string(name: &str, raw: &RawValue) -> Result<String, Malformed> {
    let what = match raw.get().as_bytes().first() {
        Some(b'"') => {
            return serde_json::from_str(raw.get()).map_err(|e| {
                let plain = crate::config::json_syntax_message(&e);
                Malformed::new(format!("field `{name}` is not valid text: {plain}"))
            });
        }
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    };
    Err(Malformed::new(format!(
        "field `{name}` must be a string, not {what}"
    )))
}

/// An identifier's text, which must not be empty; it is kept at the
/// protocol's size (`protocol::caps::short_id`) once whole.
fn non_empty(name: &str, raw: String) -> Result<String, Malformed> {
    if raw.is_empty() {
        Err(Malformed::new(format!("field `{name}` must not be empty")))
    } else {
        Ok(raw)
    }
}

/// A call id for a payload without `tool_use_id`: this process's own, so it
/// is never taken for another call's.
fn this_invocation() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("hook-{}-{nanos}", std::process::id())
}
