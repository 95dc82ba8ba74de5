//! The shapes a Codex line is read into: the envelope first, then the
//! payload of the kinds a scan uses, its parts raw until a record needs them.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::source::json::{number, string};

/// What every line is read for first.
#[derive(Deserialize)]
pub(super) struct Envelope<'a> {
    #[serde(default, borrow)]
    pub(super) timestamp: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) ordinal: Option<u64>,
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
}

/// A line's payload, read as `P`.
#[derive(Deserialize)]
pub(super) struct Line<P> {
    pub(super) payload: P,
}

/// `session_meta`: the session's id and directory.
#[derive(Deserialize)]
pub(super) struct SessionMeta<'a> {
    #[serde(borrow)]
    pub(super) id: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(super) cwd: Option<Cow<'a, str>>,
}

/// `turn_context`: its sandbox policy, raw.
#[derive(Deserialize)]
pub(super) struct TurnContext<'a> {
    #[serde(default, borrow)]
    pub(super) sandbox_policy: Option<&'a RawValue>,
}

/// A sandbox policy's `type`, the mode.
#[derive(Deserialize, Default)]
pub(super) struct Policy<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
}

/// `response_item`: a call or its output; arguments and output raw.
#[derive(Deserialize)]
pub(super) struct ResponseItem<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) arguments: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pub(super) call_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) output: Option<&'a RawValue>,
}

/// A content item of an output: its `text`, whatever its type.
#[derive(Deserialize, Default)]
pub(super) struct Item<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) text: Option<Cow<'a, str>>,
}

/// `token_usage_record`: one response's usage, raw.
#[derive(Deserialize)]
pub(super) struct UsageRecord<'a> {
    #[serde(default, borrow)]
    pub(super) usage: Option<&'a RawValue>,
}

/// A usage's token counts.
#[derive(Deserialize, Default)]
pub(super) struct Tokens {
    #[serde(default, deserialize_with = "number")]
    pub(super) input_tokens: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) output_tokens: Option<u64>,
}

/// `event_msg`: its type and `info`, raw.
#[derive(Deserialize)]
pub(super) struct EventMsg<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(super) info: Option<&'a RawValue>,
}

/// A `token_count`'s totals, raw.
#[derive(Deserialize, Default)]
pub(super) struct Info<'a> {
    #[serde(default, borrow)]
    pub(super) total_token_usage: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pub(super) last_token_usage: Option<&'a RawValue>,
}
