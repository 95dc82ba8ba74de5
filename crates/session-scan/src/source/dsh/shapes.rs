//! The shapes an event line is read into: parsed once, in place, with
//! `data` left raw until a record needs it (see `events`), every field read
//! leniently, and arrays walked one element at a time (`source::json`), so
//! nothing a line holds is built beyond the few fields a record keeps.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use crate::model::StepId;
use crate::source::json::{first, flag, number, or_default, rendered_text, string, text};

/// An event, parsed once and in place: its `data` and cited seqs stay raw
/// text until a record needs them, so the lines no record comes from (most
/// of them) and the parts of a line nothing reads (a message's content) are
/// never built into values.
#[derive(Deserialize)]
pub(super) struct Event<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, deserialize_with = "number")]
    pub(super) seq: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) seq0: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) time: Option<i64>,
    #[serde(borrow)]
    pub(super) data: Option<&'a RawValue>,
    #[serde(rename = "sourceEventSeqs", borrow)]
    pub(super) cites: Option<&'a RawValue>,
}

/// What a `tool/result` is read for: its call, whether it failed, its
/// rendered text and the harness's error code. Each level of another shape
/// than the harness writes reads as empty, as a value lookup would.
pub(super) struct ResultFacts {
    pub(super) call: Option<String>,
    pub(super) failed: bool,
    pub(super) text: String,
    pub(super) code: Option<String>,
}

#[derive(Deserialize, Default)]
struct ResultData<'a> {
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
struct ResultMessage<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(borrow)]
    source: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
struct CallIdOf<'a> {
    #[serde(rename = "callId", default, borrow, deserialize_with = "string")]
    call_id: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct ResultPart<'a> {
    /// Present (of any type) or not: a present one that is not a string
    /// names no call, and the message's `source` is not asked.
    #[serde(rename = "toolCallId", default, borrow, deserialize_with = "text")]
    tool_call_id: Option<Option<Cow<'a, str>>>,
    #[serde(rename = "isError", default, deserialize_with = "flag")]
    is_error: Option<bool>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
struct CodeOf<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    code: Option<Cow<'a, str>>,
}

impl ResultFacts {
    /// Reads a `tool/result`'s `data`.
    pub(super) fn read(raw: &str) -> Self {
        let data: ResultData<'_> = serde_json::from_str(raw).unwrap_or_default();
        let message: ResultMessage<'_> = or_default(data.message);
        let part: ResultPart<'_> = or_default(message.content.and_then(first));
        let call = match part.tool_call_id {
            Some(id) => id.map(Cow::into_owned),
            None => or_default::<CallIdOf<'_>>(message.source)
                .call_id
                .map(Cow::into_owned),
        };
        Self {
            call,
            failed: part.is_error == Some(true),
            text: rendered_text(part.content),
            code: or_default::<CodeOf<'_>>(data.error)
                .code
                .map(Cow::into_owned),
        }
    }
}

/// A packed chunk row's members, counted without reading them.
#[derive(Deserialize)]
pub(super) struct Packed {
    pub(super) texts: Option<Vec<IgnoredAny>>,
    pub(super) args: Option<Vec<IgnoredAny>>,
    pub(super) dt: Option<Vec<IgnoredAny>>,
}

/// An event's step (`turn`, `step`) and the raw parts the record kinds
/// read: a message's `usage`, a v0/v1 `chunk`, an attempt's `stream`, a
/// user message's `source`, a mode switch's `mode`.
#[derive(Deserialize, Default)]
pub(super) struct Data<'a> {
    #[serde(default, deserialize_with = "number")]
    pub(super) turn: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) step: Option<u64>,
    #[serde(borrow)]
    pub(super) usage: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) chunk: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) stream: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) source: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) mode: Option<Cow<'a, str>>,
}

impl Data<'_> {
    /// `(turn << 32) | step`, each cut to 32 bits.
    pub(super) fn step(&self) -> StepId {
        let n = |v: Option<u64>| v.unwrap_or(0) & 0xffff_ffff;
        StepId((n(self.turn) << 32) | n(self.step))
    }
}

/// A user message's `source`.
#[derive(Deserialize, Default)]
pub(super) struct MessageSource<'a> {
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) plugin: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) summary: Option<Cow<'a, str>>,
}

/// What a `tool/call` is read for: its step, and its id, tool and
/// arguments raw until the reader checks them.
#[derive(Deserialize)]
pub(super) struct CallData<'a> {
    #[serde(default, deserialize_with = "number")]
    pub(super) turn: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) step: Option<u64>,
    #[serde(rename = "callId", default, borrow, deserialize_with = "string")]
    pub(super) call_id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) arguments: Option<&'a RawValue>,
}

/// A `session/end-seed` line, as the fork's first pass reads it.
#[derive(Deserialize)]
pub(super) struct Marker<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    pub(super) kind: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "number")]
    pub(super) seq: Option<u64>,
    #[serde(borrow)]
    pub(super) data: Option<&'a RawValue>,
}

/// A marker's `data`.
#[derive(Deserialize, Default)]
pub(super) struct Inherited {
    #[serde(default, deserialize_with = "flag")]
    pub(super) inherited: Option<bool>,
}

pub(super) fn contains(line: &[u8], needle: &[u8]) -> bool {
    use std::sync::LazyLock;
    // The two needles the reader looks for, built once.
    static USAGE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(USAGE_NEEDLE));
    static PLUGIN: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(PLUGIN_NEEDLE));
    match needle {
        USAGE_NEEDLE => USAGE.find(line).is_some(),
        PLUGIN_NEEDLE => PLUGIN.find(line).is_some(),
        other => memchr::memmem::find(line, other).is_some(),
    }
}

/// The seq of the last `session/end-seed` whose data is `{"inherited": true}`
/// on this line, if it is one (a cheap byte test first: most lines are not).
pub(crate) fn inherited_marker(line: &[u8]) -> Option<u64> {
    const NEEDLE: &[u8] = b"session/end-seed";
    if !contains(line, NEEDLE) {
        return None;
    }
    let event: Marker<'_> = serde_json::from_slice(line).ok()?;
    if event.kind.as_deref() != Some("session/end-seed") {
        return None;
    }
    if or_default::<Inherited>(event.data).inherited == Some(true) {
        event.seq
    } else {
        None
    }
}

/// A usage chunk's key, as a needle.
pub(super) const USAGE_NEEDLE: &[u8] = b"\"usage\"";

/// The advisor's plugin name, as a needle.
pub(super) const PLUGIN_NEEDLE: &[u8] = b"sandbox-grant-advisor";

/// How many seqs a line stands for: a packed chunk row (`seq0`) is one per
/// member (`texts` or `args`, else `dt` plus one).
pub(super) fn width(data: Option<&RawValue>) -> u64 {
    let Some(packed) = data.and_then(|d| serde_json::from_str::<Packed>(d.get()).ok()) else {
        return 1;
    };
    let members = packed
        .texts
        .map(|t| t.len())
        .or(packed.args.map(|a| a.len()))
        .or(packed.dt.map(|d| d.len() + 1))
        .unwrap_or(1);
    members.max(1) as u64
}

/// The type and seq of a line laid out as the writer lays one out,
/// `{"type":"<kind>","seq":<digits>,`, read without parsing; `None` for any
/// other layout (which the full parse then reads). A kind with an escape, a
/// seq that is not plain digits, or a line that does not end its object
/// (one cut short) is another layout.
pub(super) fn writer_prefix(line: &[u8]) -> Option<(&str, u64)> {
    if line.last() != Some(&b'}') {
        return None;
    }
    let rest = line.strip_prefix(b"{\"type\":\"")?;
    let end = memchr::memchr(b'"', rest)?;
    let (kind, rest) = rest.split_at(end);
    if kind.contains(&b'\\') {
        return None;
    }
    let rest = rest.strip_prefix(b"\",\"seq\":")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 19 || rest.get(digits) != Some(&b',') {
        return None;
    }
    let seq = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    Some((std::str::from_utf8(kind).ok()?, seq))
}

#[cfg(test)]
mod tests {
    use super::writer_prefix;

    #[test]
    fn only_the_writers_own_layout_is_read_without_a_parse() {
        for (line, want) in [
            (
                &br#"{"type":"step/start","seq":1,"time":2}"#[..],
                Some(("step/start", 1)),
            ),
            (
                br#"{"type":"assistant/chunk","seq":12345,"data":{}}"#,
                Some(("assistant/chunk", 12345)),
            ),
            (br#"{"seq":1,"type":"step/start"}"#, None),
            (br#"{"type":"step/start","seq":"1","time":2}"#, None),
            (br#"{"type":"step/start","seq":1}"#, None),
            (br#"{"type":"st\"ep","seq":1,"#, None),
            (br#"{"type":"step/start","seq":-1,"#, None),
            (br#"{"type":"step/start","seq":99999999999999999999,"#, None),
            (br#"{"type":"text-chunks","seq0":4,"#, None),
        ] {
            assert_eq!(
                writer_prefix(line),
                want,
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
