//! The line protocol, version [`PROTOCOL_VERSION`]: one JSON object per line in,
//! one JSON object per decision out. `docs/protocol.md` is its specification.
//!
//! Parsing is two-step so that every error names the field that is wrong: the
//! line becomes a [`serde_json::Value`], its `type` picks the line's shape, and
//! that shape is read with `serde_path_to_error`. Unknown fields are ignored.

use advisor_core::{
    AgentId, CallId, Failure, Platform, SandboxMode, SessionId, Success, ToolName, Unresolved,
};
use serde::Deserialize;
use serde_json::Value;

mod output;
mod wire;

pub use output::{Output, RefusalOut, WithheldOut, family_ids};
use wire::{
    CallFields, EndLine, HelloLine, HostLine, ModeLine, PostLine, SessionLine, StartLine,
    UnavailableLine, UnavailableReason,
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
    /// The calling agent.
    pub agent: AgentId,
    /// Its session; absent for an agentless call.
    pub session: Option<SessionId>,
    /// The call's id.
    pub call: CallId,
    /// The tool.
    pub tool: ToolName,
    /// The canonical arguments (`{}` when absent).
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
pub fn parse_line(line: &[u8]) -> Result<Event, String> {
    let text = std::str::from_utf8(line).map_err(|e| format!("the line is not UTF-8: {e}"))?;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "the line is not valid JSON: {} at column {}",
            crate::config::json_syntax_message(&e),
            e.column()
        )
    })?;
    let Value::Object(map) = &value else {
        return Err("the line is not a JSON object".into());
    };
    let kind = match map.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(_) => return Err("field `type` must be a string".into()),
        None => return Err("missing field `type`".into()),
    };
    if !EVENT_TYPES.contains(&kind.as_str()) {
        return Err(bounded(format!(
            "unknown type {kind:?} (expected one of: {})",
            EVENT_TYPES.join(", ")
        )));
    }
    parse_event(&kind, value).map_err(|e| bounded(format!("`{kind}` line: {e}")))
}

fn parse_event(kind: &str, value: Value) -> Result<Event, String> {
    Ok(match kind {
        "hello" => {
            let line: HelloLine = read(value)?;
            Event::Hello {
                protocol: line.protocol,
            }
        }
        "host" => {
            let line: HostLine = read(value)?;
            Event::Host {
                platform: line.platform,
                electron: line.electron,
                tmpdir: line.tmpdir,
            }
        }
        "session" => {
            let line: SessionLine = read(value)?;
            Event::Session {
                session: id("session", &line.session)?,
                cwd: line.cwd,
            }
        }
        "sandbox-mode" => {
            let line: ModeLine = read(value)?;
            Event::SandboxMode {
                session: id("session", &line.session)?,
                mode: line.mode,
            }
        }
        "policy-unavailable" => {
            let line: UnavailableLine = read(value)?;
            let why = match line.reason {
                UnavailableReason::NoService => Unresolved::NoPolicyService,
                UnavailableReason::ResolverError => Unresolved::ResolverError(
                    line.message
                        .as_deref()
                        .unwrap_or("recorded as failing in the event stream")
                        .into(),
                ),
            };
            Event::PolicyUnavailable {
                session: line
                    .session
                    .as_deref()
                    .map(|s| id("session", s))
                    .transpose()?,
                why,
            }
        }
        "session-start" => {
            let line: StartLine = read(value)?;
            Event::SessionStart {
                agent: id("agent", &line.agent)?,
                session: line
                    .session
                    .as_deref()
                    .map(|s| id("session", s))
                    .transpose()?,
            }
        }
        "post" => {
            let call: CallFields = read(&value)?;
            let line: PostLine = read(value)?;
            let outcome = match (line.error, line.result) {
                (Some(error), None) => advisor_core::Outcome::Failure(Failure {
                    content: error
                        .content
                        .unwrap_or_else(|| format!("Error: {}", error.message)),
                    message: error.message,
                    members: error.members,
                }),
                (None, Some(result)) => advisor_core::Outcome::Success(Success {
                    value: result.value,
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
                call.into_call()?,
                PostOutcome {
                    mode: line.mode,
                    outcome,
                },
            )
        }
        "pre" => {
            let line: CallFields = read(value)?;
            Event::Pre(line.into_call()?)
        }
        "agent-end" => {
            let line: EndLine = read(value)?;
            Event::AgentEnd {
                agent: id("agent", &line.agent)?,
            }
        }
        other => return Err(format!("unknown type {other:?}")),
    })
}

fn read<'de, T, D>(value: D) -> Result<T, String>
where
    T: Deserialize<'de>,
    D: serde::Deserializer<'de>,
    D::Error: std::fmt::Display,
{
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        in_protocol_terms(&path, &inner)
    })
}

/// What a field takes, in the protocol's words (`docs/protocol.md`), by its
/// path with array indices dropped.
fn expected(path: &str) -> Option<&'static str> {
    Some(match path {
        "protocol" => "a non-negative integer",
        "platform" => "one of `win32`, `linux`, `macos`",
        "electron" => "`true` or `false`",
        "session" | "agent" | "call" | "tool" => "a non-empty string",
        "tmpdir" | "cwd" | "message" | "error.message" | "error.content" | "error.members[]"
        | "result.content" => "a string",
        "mode" => "one of `read-only`, `workspace-write`, `danger-full-access`",
        "reason" => "`no-service` or `resolver-error`",
        "error" => "an object with a string `message` (and optional `members` and `content`)",
        "error.members" => "an array of strings",
        "result" => "an object with a `value` (and an optional string `content`)",
        _ => return None,
    })
}

/// A JSON value as serde describes it (`string "x"`, `integer `5``, `map`, …),
/// as the protocol says it; a string's content is not repeated.
fn json_kind(unexpected: &str) -> Option<String> {
    let literal = || unexpected.split('`').nth(1);
    let word = |prefix: &str| unexpected.starts_with(prefix);
    Some(if word("string") {
        "a string".into()
    } else if word("integer") || word("floating point") {
        format!("the number {}", literal()?)
    } else if word("boolean") {
        format!("`{}`", literal()?)
    } else if word("map") {
        "an object".into()
    } else if word("sequence") {
        "an array".into()
    } else if word("unit") {
        "null".into()
    } else {
        return None;
    })
}

/// Rewrites a deserializer's error (which names Rust types: `struct ErrorPart`,
/// `u32`) in the protocol's terms: what the field takes, and what it held.
fn in_protocol_terms(path: &str, inner: &str) -> String {
    let field: String = {
        let mut out = String::with_capacity(path.len());
        let mut skipping = false;
        for c in path.chars() {
            match c {
                '[' => {
                    skipping = true;
                    out.push_str("[]");
                }
                ']' => skipping = false,
                c if !skipping => out.push(c),
                _ => {}
            }
        }
        out
    };
    let wrong = inner
        .strip_prefix("invalid type: ")
        .or_else(|| inner.strip_prefix("invalid value: "));
    if let (Some(rest), Some(takes)) = (wrong, expected(&field)) {
        let held = rest.split(", expected").next().and_then(json_kind);
        return match held {
            Some(held) => format!("field `{path}` must be {takes}, not {held}"),
            None => format!("field `{path}` must be {takes}"),
        };
    }
    if let Some(missing) = inner.strip_prefix("missing field `") {
        if path != "." {
            let name = missing.trim_end_matches('`');
            return format!("missing field `{path}.{name}`");
        }
    }
    if path == "." {
        inner.to_owned()
    } else {
        format!("field `{path}`: {inner}")
    }
}

fn id<T: From<String>>(field: &str, raw: &str) -> Result<T, String> {
    if raw.is_empty() {
        Err(format!("field `{field}` must not be empty"))
    } else {
        Ok(T::from(raw.to_owned()))
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
