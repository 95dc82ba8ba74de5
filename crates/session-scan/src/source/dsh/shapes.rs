//! The shapes an event line is read into: parsed once, in place, with
//! `data` left raw until a record needs it (see `events`).

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::model::StepId;

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

/// A number field read leniently: anything that is not one of its type is
/// absent, as the value-based reading always took it. Nothing is built: a
/// string, array or object in its place is skipped.
pub(super) fn number<'de, D, N>(d: D) -> Result<Option<N>, D::Error>
where
    D: serde::Deserializer<'de>,
    N: TryFrom<i128>,
{
    struct Lenient;
    impl<'de> serde::de::Visitor<'de> for Lenient {
        type Value = Option<i128>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(i128::from(v)))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(i128::from(v)))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(None)
        }
    }
    Ok(d.deserialize_any(Lenient)?
        .and_then(|n| N::try_from(n).ok()))
}

/// What a `tool/result` is read for: its call, whether it failed, its
/// rendered text and the harness's error code.
pub(super) struct ResultFacts {
    pub(super) call: Option<String>,
    pub(super) failed: bool,
    pub(super) text: String,
    pub(super) code: Option<String>,
}

#[derive(Deserialize)]
struct ResultData<'a> {
    #[serde(borrow)]
    message: Option<ResultMessage<'a>>,
    error: Option<ResultError>,
}

#[derive(Deserialize)]
struct ResultMessage<'a> {
    #[serde(borrow)]
    content: Option<Vec<ResultPart<'a>>>,
    source: Option<ResultSource>,
}

#[derive(Deserialize)]
struct ResultSource {
    #[serde(rename = "callId")]
    call_id: Option<String>,
}

#[derive(Deserialize)]
struct ResultPart<'a> {
    #[serde(rename = "toolCallId")]
    tool_call_id: Option<String>,
    #[serde(rename = "isError")]
    is_error: Option<bool>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ResultError {
    code: Option<String>,
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: Option<String>,
    text: Option<String>,
}

impl ResultFacts {
    /// Read typed, building only what is kept; `None` for any shape the
    /// types do not take (a field of another type), which
    /// [`ResultFacts::of_value`] then reads.
    pub(super) fn typed(raw: &str) -> Option<Self> {
        let data: ResultData<'_> = serde_json::from_str(raw).ok()?;
        let message = data.message;
        let (part, source) = match message {
            Some(m) => (m.content.and_then(|c| c.into_iter().next()), m.source),
            None => (None, None),
        };
        let text = match part.as_ref().and_then(|p| p.content) {
            Some(content) if content.get().starts_with('"') => {
                serde_json::from_str::<String>(content.get()).ok()?
            }
            Some(content) if content.get().starts_with('[') => {
                let blocks: Vec<Block> = serde_json::from_str(content.get()).ok()?;
                let texts: Vec<String> = blocks
                    .into_iter()
                    .filter(|b| b.kind.as_deref() == Some("text"))
                    .filter_map(|b| b.text)
                    .collect();
                texts.join("\n")
            }
            _ => String::new(),
        };
        let failed = part.as_ref().and_then(|p| p.is_error) == Some(true);
        let call = match part.as_ref().map(|p| &p.tool_call_id) {
            Some(Some(id)) => Some(id.clone()),
            _ => source.and_then(|s| s.call_id),
        };
        Some(Self {
            call,
            failed,
            text,
            code: data.error.and_then(|e| e.code),
        })
    }

    /// Read from the parsed value, whatever its shape.
    pub(super) fn of_value(data: &Value) -> Self {
        let message = data.get("message").unwrap_or(&Value::Null);
        let part = message
            .get("content")
            .and_then(Value::as_array)
            .and_then(|parts| parts.first())
            .unwrap_or(&Value::Null);
        let call = part
            .get("toolCallId")
            .or_else(|| message.get("source").and_then(|s| s.get("callId")))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let code = data
            .get("error")
            .and_then(|e| e.get("code"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        Self {
            call,
            failed: part.get("isError").and_then(Value::as_bool) == Some(true),
            text: super::rebuild::rendered_text(part),
            code,
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

/// What an `assistant/message` (or a `step/end`) is read for: its step and
/// usage (its content is skipped unbuilt).
#[derive(Deserialize)]
pub(super) struct MessageData {
    #[serde(default, deserialize_with = "number")]
    pub(super) turn: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) step: Option<u64>,
    pub(super) usage: Option<Value>,
}

impl MessageData {
    pub(super) fn step(&self) -> StepId {
        let n = |v: Option<u64>| v.unwrap_or(0) & 0xffff_ffff;
        StepId((n(self.turn) << 32) | n(self.step))
    }
}

/// What a `tool/call` is read for.
#[derive(Deserialize)]
pub(super) struct CallData {
    #[serde(default, deserialize_with = "number")]
    pub(super) turn: Option<u64>,
    #[serde(default, deserialize_with = "number")]
    pub(super) step: Option<u64>,
    #[serde(rename = "callId")]
    pub(super) call_id: Option<Value>,
    pub(super) name: Option<Value>,
    pub(super) arguments: Option<Value>,
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

/// A usage chunk's key, as a needle.
pub(super) const USAGE_NEEDLE: &[u8] = b"\"usage\"";

/// The advisor's plugin name, as a needle.
pub(super) const PLUGIN_NEEDLE: &[u8] = b"sandbox-grant-advisor";

/// The step of an event's `data`: `(turn << 32) | step`.
pub(super) fn step_of(data: &Value) -> StepId {
    let n = |k: &str| data.get(k).and_then(Value::as_u64).unwrap_or(0) & 0xffff_ffff;
    StepId((n("turn") << 32) | n("step"))
}

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
