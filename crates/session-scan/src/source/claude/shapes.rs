//! The shapes a Claude Code line is read into: parsed in place, the
//! message raw until a record needs it, every field of a content block read
//! leniently (see `source::json`).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::source::json::{number, string, text};

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
pub(super) struct Tokens {
    #[serde(default, deserialize_with = "number")]
    pub(super) input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) cache_creation_input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) cache_read_input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) output_tokens: Option<u64>,
}

/// A result object's streams.
#[derive(Deserialize, Default)]
pub(super) struct Streams<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) stdout: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) stderr: Option<Cow<'a, str>>,
}
