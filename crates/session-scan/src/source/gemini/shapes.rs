//! The shapes a Gemini CLI chat line is read into: what tells its kind
//! first, then a message's parts, raw until a record needs them.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::source::json::{number, string};

/// What every line is read for first, in Gemini's own order of telling a
/// record (`loadConversationRecord`): `$rewindTo`, then a message (a string
/// `id`), then `$set`, then the session's metadata (`sessionId` and
/// `projectHash`).
#[derive(Deserialize)]
pub(super) struct Head<'a> {
    #[serde(default, rename = "$rewindTo", borrow, deserialize_with = "string")]
    pub(super) rewind: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(default, rename = "$set", borrow)]
    pub(super) set: Option<&'a RawValue>,
    #[serde(default, rename = "sessionId", borrow, deserialize_with = "string")]
    pub(super) session_id: Option<Cow<'a, str>>,
    #[serde(default, rename = "projectHash", borrow, deserialize_with = "string")]
    pub(super) project_hash: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
}

/// A `$set` record's messages (the whole history, rewritten), raw.
#[derive(Deserialize, Default)]
pub(super) struct Set<'a> {
    #[serde(default, borrow)]
    pub(super) messages: Option<&'a RawValue>,
}

/// A message record: `user`, `gemini` (a model response), `info`, `error`…
#[derive(Deserialize, Default)]
pub(super) struct Message<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) timestamp: Option<Cow<'a, str>>,
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) content: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pub(super) tokens: Option<&'a RawValue>,
    #[serde(default, rename = "toolCalls", borrow)]
    pub(super) tool_calls: Option<&'a RawValue>,
}

/// A response's token counts, as Gemini records them from the API's
/// `usageMetadata` (`recordMessageTokens`).
#[derive(Deserialize, Default)]
pub(super) struct Tokens {
    /// `promptTokenCount`: the prompt, cached tokens included.
    #[serde(default, deserialize_with = "number")]
    pub(super) input: Option<u64>,
    /// `candidatesTokenCount`: the answer, thoughts excluded.
    #[serde(default, deserialize_with = "number")]
    pub(super) output: Option<u64>,
    /// `cachedContentTokenCount`: the prompt's tokens read from the cache.
    #[serde(default, deserialize_with = "number")]
    pub(super) cached: Option<u64>,
    /// `thoughtsTokenCount`: the model's thinking.
    #[serde(default, deserialize_with = "number")]
    pub(super) thoughts: Option<u64>,
    /// `toolUsePromptTokenCount`: the prompt of a tool use, besides the prompt.
    #[serde(default, deserialize_with = "number")]
    pub(super) tool: Option<u64>,
}

/// One entry of a response's `toolCalls` (`recordCompletedToolCalls`).
#[derive(Deserialize, Default)]
pub(super) struct ToolCall<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub(super) args: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pub(super) result: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) status: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) timestamp: Option<Cow<'a, str>>,
    #[serde(default, rename = "resultDisplay", borrow)]
    pub(super) result_display: Option<&'a RawValue>,
}

/// A part of a result: its `functionResponse`, raw.
#[derive(Deserialize, Default)]
pub(super) struct Part<'a> {
    #[serde(default, rename = "functionResponse", borrow)]
    pub(super) function_response: Option<&'a RawValue>,
}

/// A `functionResponse`: its `response`, raw.
#[derive(Deserialize, Default)]
pub(super) struct FunctionResponse<'a> {
    #[serde(default, borrow)]
    pub(super) response: Option<&'a RawValue>,
}

/// A `response`: the tool's `output`, or its `error`.
#[derive(Deserialize, Default)]
pub(super) struct Response<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) output: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) error: Option<Cow<'a, str>>,
}

/// A text part of a message's `content`.
#[derive(Deserialize, Default)]
pub(super) struct TextPart<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) text: Option<Cow<'a, str>>,
}

/// The request Gemini writes as a refused call's `error` (its
/// `confirmationDetails`): only its `type` is read.
#[derive(Deserialize, Default)]
pub(super) struct Request<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
}

/// One styled span of a terminal line (an interactive `resultDisplay`).
#[derive(Deserialize, Default)]
pub(super) struct Span<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) text: Option<Cow<'a, str>>,
}
