//! The shapes a Claude Code line is read into: parsed in place, the
//! message raw until a record needs it, every field of a content block read
//! leniently (see `source::json`).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::model::Usage;
use crate::source::json::{number, or_default, string, text};

/// A line, parsed once: its kind and the session's facts, and for a `user`
/// or `assistant` record its time, its message and its result, raw (a line
/// of any other kind costs one pass over its bytes and builds nothing).
#[derive(Deserialize)]
pub(super) struct Head<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(rename = "sessionId", default, borrow)]
    pub(super) session: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) cwd: Option<Cow<'a, str>>,
    /// Present (of any type) or not.
    #[serde(default, borrow, deserialize_with = "text")]
    pub(super) timestamp: Option<Option<Cow<'a, str>>>,
    #[serde(default, borrow)]
    pub(super) message: Option<&'a RawValue>,
    #[serde(rename = "toolUseResult", default, borrow)]
    pub(super) tool_use_result: Option<&'a RawValue>,
    /// The API request's id: with `message.id`, what names one response
    /// across files (a forked session copies it).
    #[serde(rename = "requestId", default, borrow, deserialize_with = "string")]
    pub(super) request: Option<Cow<'a, str>>,
    /// The session whose request wrote the record, on a copy a fork made
    /// (`requestSessionId`, the parent's id; absent on the session's own).
    #[serde(
        rename = "requestSessionId",
        default,
        borrow,
        deserialize_with = "string"
    )]
    pub(super) requested_by: Option<Cow<'a, str>>,
}

/// A message: its id, usage and content blocks, each read leniently.
#[derive(Deserialize)]
pub(super) struct Message<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) usage: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) content: Option<&'a RawValue>,
}

/// A content block: a `tool_use` (id, name, input) or a `tool_result`
/// (`tool_use_id`, `is_error`, content).
#[derive(Deserialize, Default)]
pub(super) struct Block<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) input: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) tool_use_id: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "crate::source::json::flag")]
    pub(super) is_error: Option<bool>,
    #[serde(borrow)]
    pub(super) content: Option<&'a RawValue>,
}

/// A response's token counts.
#[derive(Deserialize, Default)]
pub(super) struct Tokens<'a> {
    #[serde(default, deserialize_with = "number")]
    pub(super) input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) cache_creation_input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) cache_read_input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) output_tokens: Option<u64>,
    /// The cache writes split by lifetime; when present, their sum is the
    /// writes (as ccusage counts them), whatever the flat field says.
    #[serde(default, borrow)]
    pub(super) cache_creation: Option<&'a RawValue>,
}

/// `usage.cache_creation`.
#[derive(Deserialize, Default)]
pub(super) struct CacheCreation {
    #[serde(default, deserialize_with = "number")]
    pub(super) ephemeral_5m_input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) ephemeral_1h_input_tokens: Option<u64>,
}

/// A result object's streams, and the background task it started.
#[derive(Deserialize, Default)]
pub(super) struct Streams<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) stdout: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) stderr: Option<Cow<'a, str>>,
    #[serde(
        rename = "backgroundTaskId",
        default,
        borrow,
        deserialize_with = "string"
    )]
    pub(super) background_task: Option<Cow<'a, str>>,
}

/// A response's tokens, as Anthropic's usage splits them: `input_tokens`
/// (uncached), the cache writes (the `cache_creation` split by lifetime when
/// the record has it, else `cache_creation_input_tokens`, as ccusage reads
/// them), `cache_read_input_tokens`, `output_tokens`.
pub(super) fn usage(usage: Option<&RawValue>) -> Usage {
    let t: Tokens<'_> = or_default(usage);
    let n = |v: Option<u64>| v.unwrap_or(0);
    let cache_creation = match t.cache_creation.filter(|c| c.get().starts_with('{')) {
        Some(split) => {
            let split: CacheCreation = or_default(Some(split));
            n(split.ephemeral_5m_input_tokens).saturating_add(n(split.ephemeral_1h_input_tokens))
        }
        None => n(t.cache_creation_input_tokens),
    };
    Usage {
        input: n(t.input_tokens),
        output: n(t.output_tokens),
        cache_creation,
        cache_read: n(t.cache_read_input_tokens),
    }
}

/// A result object's `stdout` and `stderr`, joined as the hook joins them
/// (`hook::payload::streams`); a stream that is not a string is no text.
pub(super) fn streams(result: &Streams<'_>) -> String {
    let (stdout, stderr) = (
        result.stdout.as_deref().unwrap_or(""),
        result.stderr.as_deref().unwrap_or(""),
    );
    match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => stdout.to_owned(),
        (true, false) => stderr.to_owned(),
        (false, false) => format!("{stdout}\n{stderr}"),
    }
}
