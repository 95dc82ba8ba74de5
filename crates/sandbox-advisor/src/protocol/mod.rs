//! The line protocol, version [`PROTOCOL_VERSION`]: one JSON object per line in,
//! one JSON object per decision out. `docs/protocol.md` is its specification.
//!
//! Parsing reads the line where it lies, so that its memory is bounded by the
//! line's length whatever the shape of its JSON, and so that every error names
//! the field that is wrong: the line's known fields are found as slices of its
//! text, its `type` picks the line's shape, and that shape is read from them
//! with `serde_path_to_error`. Unknown fields are ignored unread.

use advisor_core::{
    AgentId, CallId, Failure, Platform, SandboxMode, SessionId, Success, ToolName, Unresolved,
};
use serde::Deserialize;
use serde::de::value::MapDeserializer;
use serde_json::Value;
use serde_json::value::RawValue;

pub mod caps;
mod fields;
mod output;
pub mod value;
mod wire;
mod wording;

use fields::{Fields, Top};
pub use output::{Output, RefusalOut, WithheldOut, family_ids};
use value::Role;
pub use wire::MEMBERS_MAX;
use wire::{
    CallLine, EndLine, HelloLine, HostLine, ModeLine, SessionLine, StartLine, UnavailableLine,
    UnavailableReason,
};

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest error text put on an output line, in characters (a bad value is
/// quoted by the parser, and a value can be megabytes long).
const ERROR_MAX_CHARS: usize = 300;

/// Every `type` an input line may carry, in the order the documentation lists them.
pub const EVENT_TYPES: [&str; 9] = [
    "hello",
    "host",
    "session",
    "sandbox-mode",
    "policy-unavailable",
    "session-start",
    "post",
    "pre",
    "agent-end",
];

/// One valid input line.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `{"type":"hello","protocol":1}`: the optional version handshake.
    Hello {
        /// The version the producer speaks.
        protocol: u32,
    },
    /// Facts about the host that produced the events.
    Host {
        /// The agent host (`host`; absent: the DeepSeek harness).
        host: advisor_core::Host,
        /// Its operating system (the path grammar of every recorded path).
        platform: Platform,
        /// Whether the host process is an Electron binary.
        electron: bool,
        /// Its temp directory, when recorded.
        tmpdir: Option<String>,
    },
    /// A session header.
    Session {
        /// The session.
        session: SessionId,
        /// Its immutable cwd (the workspace root), when recorded.
        cwd: Option<String>,
    },
    /// The session's `sandbox/mode` event (last one wins).
    SandboxMode {
        /// The session.
        session: SessionId,
        /// The mode.
        mode: SandboxMode,
    },
    /// From here on, policy resolution fails for one session, or for all.
    PolicyUnavailable {
        /// The session, or `None` for every session.
        session: Option<SessionId>,
        /// Why.
        why: Unresolved,
    },
    /// The pre-flight seat.
    SessionStart {
        /// The agent.
        agent: AgentId,
        /// Its session.
        session: Option<SessionId>,
    },
    /// A settled call (`tools/post-execute`).
    Post(Call, PostOutcome),
    /// A call about to be dispatched (`tools/pre-execute`).
    Pre(Call),
    /// The agent ended.
    AgentEnd {
        /// The agent.
        agent: AgentId,
    },
}

/// The identities and arguments a `post` or `pre` line carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The calling agent; absent for a call from outside an agent loop, which
    /// is answered but never advised and never counted.
    pub agent: Option<AgentId>,
    /// Its session; absent for an agentless call.
    pub session: Option<SessionId>,
    /// The call's id.
    pub call: CallId,
    /// The tool.
    pub tool: ToolName,
    /// The canonical arguments (`{}` when absent), as recognition reads them
    /// ([`value`]: whole up to [`value::VALUE_MAX_NODES`] JSON values).
    pub args: Value,
}

/// How a `post` line's call ended, with its explicit approved mode.
#[derive(Debug, Clone, PartialEq)]
pub struct PostOutcome {
    /// The explicit approved mode for this call, if any.
    pub mode: Option<SandboxMode>,
    /// The failure or the success.
    pub outcome: advisor_core::Outcome,
}

/// Reads one line (without its line terminator) into an [`Event`], or says what is
/// wrong with it, naming the field.
///
/// The line is read where it lies: a first pass finds its known fields (see
/// `fields.rs`), the line's shape is read from them, and only what
/// recognition reads of `args` and `result.value` is built (`value.rs`).
/// Identifiers and messages are kept at their sizes (`caps.rs`).
pub fn parse_line(line: &[u8]) -> Result<Event, String> {
    let text = std::str::from_utf8(line).map_err(|e| format!("the line is not UTF-8: {e}"))?;
    let top: Top<'_> = serde_json::from_str(text).map_err(|e| {
        format!(
            "the line is not valid JSON: {} at column {}",
            crate::config::json_syntax_message(&e),
            e.column()
        )
    })?;
    let Top::Object(fields) = top else {
        return Err("the line is not a JSON object".into());
    };
    let kind: String = match fields.get("type") {
        Some(raw) => serde_json::from_str(raw.get())
            .map_err(|_| "field `type` must be a string".to_owned())?,
        None => return Err("missing field `type`".into()),
    };
    if !EVENT_TYPES.contains(&kind.as_str()) {
        // Quoted only as far as an error line shows it, however long it is.
        let shown: String = kind.chars().take(ERROR_MAX_CHARS).collect();
        return Err(bounded(format!(
            "unknown type {shown:?} (expected one of: {})",
            EVENT_TYPES.join(", ")
        )));
    }
    parse_event(&kind, &fields).map_err(|e| bounded(format!("`{kind}` line: {e}")))
}

fn parse_event(kind: &str, fields: &Fields<'_>) -> Result<Event, String> {
    Ok(match kind {
        "hello" => {
            let line: HelloLine = read(fields, &["protocol"])?;
            Event::Hello {
                protocol: line.protocol,
            }
        }
        "host" => {
            let line: HostLine = read(fields, &["platform", "electron", "tmpdir", "host"])?;
            Event::Host {
                host: line.host.map_or(advisor_core::Host::Dsh, |named| named.0),
                platform: line.platform.0,
                electron: line.electron,
                tmpdir: line.tmpdir,
            }
        }
        "session" => {
            let line: SessionLine = read(fields, &["session", "cwd"])?;
            Event::Session {
                session: id("session", line.session)?,
                cwd: line.cwd,
            }
        }
        "sandbox-mode" => {
            let line: ModeLine = read(fields, &["session", "mode"])?;
            Event::SandboxMode {
                session: id("session", line.session)?,
                mode: line.mode.0,
            }
        }
        "policy-unavailable" => {
            let line: UnavailableLine = read(fields, &["reason", "session", "message"])?;
            let why = match line.reason.0 {
                UnavailableReason::NoService => Unresolved::NoPolicyService,
                UnavailableReason::ResolverError => Unresolved::ResolverError(
                    line.message
                        .map(|m| caps::capped(m, caps::MESSAGE_MAX_BYTES))
                        .as_deref()
                        .unwrap_or("recorded as failing in the event stream")
                        .into(),
                ),
            };
            Event::PolicyUnavailable {
                session: line.session.map(|s| id("session", s)).transpose()?,
                why,
            }
        }
        "session-start" => {
            let line: StartLine = read(fields, &["agent", "session"])?;
            Event::SessionStart {
                agent: id("agent", line.agent)?,
                session: line.session.map(|s| id("session", s)).transpose()?,
            }
        }
        "post" => {
            let call: CallLine = read(fields, CALL_FIELDS)?;
            let line: wire::Outcome<'_> = read(fields, OUTCOME_FIELDS)?;
            let outcome = match (line.error, line.result) {
                (Some(error), None) => advisor_core::Outcome::Failure(Failure {
                    content: error
                        .content
                        .unwrap_or_else(|| format!("Error: {}", error.message)),
                    message: error.message,
                    members: error.members.0,
                    code: error.code,
                }),
                (None, Some(result)) => advisor_core::Outcome::Success(Success {
                    value: recognized("result.value", result.value, Role::Value)?,
                    content: result.content,
                }),
                (Some(_), Some(_)) => {
                    return Err("fields `error` and `result` are exclusive; give one".into());
                }
                (None, None) => {
                    return Err(
                        "missing field `error` (a failed call) or `result` (a success)".into(),
                    );
                }
            };
            Event::Post(
                into_call(call, fields.get("args"))?,
                PostOutcome {
                    mode: line.mode.map(|m| m.0),
                    outcome,
                },
            )
        }
        "pre" => Event::Pre(into_call(read(fields, CALL_FIELDS)?, fields.get("args"))?),
        "agent-end" => {
            let line: EndLine = read(fields, &["agent"])?;
            Event::AgentEnd {
                agent: id("agent", line.agent)?,
            }
        }
        other => return Err(format!("unknown type {other:?}")),
    })
}

/// A call's fields; its `args` (any JSON) is taken from the line's text as it lies.
fn into_call(line: CallLine, args: Option<&RawValue>) -> Result<Call, String> {
    Ok(Call {
        agent: line.agent.map(|a| id("agent", a)).transpose()?,
        session: line.session.map(|s| id("session", s)).transpose()?,
        call: id("call", line.call)?,
        tool: id("tool", line.tool)?,
        args: match args {
            Some(raw) if raw.get() != "null" => recognized("args", raw, Role::Args)?,
            _ => Value::Object(Default::default()),
        },
    })
}

/// The fields of a call, but `args`, which is not read through serde.
const CALL_FIELDS: &[&str] = &["agent", "session", "call", "tool"];
/// The fields of a `post` line's outcome.
const OUTCOME_FIELDS: &[&str] = &["mode", "error", "result"];

/// Reads a line's shape from its fields `names` (those the shape declares),
/// naming the field that is wrong. Handing it only those spares reading a
/// field the shape would skip (a long `args`) once more.
fn read<'a, T: Deserialize<'a>>(fields: &Fields<'a>, names: &[&str]) -> Result<T, String> {
    let mut present = fields.in_order();
    present.retain(|(name, _)| names.contains(name));
    let map = MapDeserializer::<_, serde_json::Error>::new(present.into_iter());
    serde_path_to_error::deserialize(map).map_err(|e| {
        let path = e.path().to_string();
        let inner = wording::without_position(e.inner());
        wording::in_protocol_terms(&path, &inner)
    })
}

/// The part of a JSON value recognition reads. A member nested too deep is
/// left out ([`value::MAX_DEPTH`]), with a note on the host log.
fn recognized(field: &str, raw: &RawValue, role: Role) -> Result<Value, String> {
    let (value, left_out) = value::for_recognition(raw, role)
        .map_err(|e| format!("field `{field}`: {}", wording::without_position(&e)))?;
    if let Some(left_out) = left_out {
        note_left_out(field, &left_out);
    }
    Ok(value)
}

/// Tells the host log (`info`) what of `field` was left out for depth; the
/// path is text the advisor did not write, so it is escaped.
pub(crate) fn note_left_out(field: &str, left_out: &value::LeftOut) {
    tracing::info!(
        target: "sandbox_advisor::protocol",
        "{}",
        advisor_core::quote::log_field(&left_out.describe(field))
    );
}

/// An identifier: non-empty, and kept at its size ([`caps::short_id`]).
fn id<T: From<String>>(field: &str, raw: String) -> Result<T, String> {
    if raw.is_empty() {
        Err(format!("field `{field}` must not be empty"))
    } else {
        Ok(T::from(caps::short_id(raw)))
    }
}

fn bounded(mut text: String) -> String {
    if let Some((cut, _)) = text.char_indices().nth(ERROR_MAX_CHARS) {
        text.truncate(cut);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests;
