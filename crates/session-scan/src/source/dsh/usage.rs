//! Token usage: where each format records it, and the v0/v1 usage chunks that
//! wait to learn whether a message cites them.
//!
//! - `assistant/message.data.usage` is a response's usage (all versions).
//!   `inputTokens` already includes cached reads (the writer fixture has
//!   `inputTokens` 2400 with `cacheReadTokens` 2048) and `outputTokens`
//!   includes reasoning, so they map to [`Usage`] as they are.
//! - v0/v1: every attempt streams a `usage` chunk. A message cites its
//!   attempt's chunks in `sourceEventSeqs`, so a cited usage chunk repeats the
//!   message's usage and is never counted; a usage chunk that no message cites
//!   is an attempt that ended without one (failed, retried, cancelled) and is
//!   counted on its own. A message without `usage` counts its cited usage
//!   chunk instead (one of the two, never both).
//! - v2/v3: an attempt without a message is an `assistant/attempt` whose
//!   `stream` holds its usage chunk (the last one counts); usage chunks inside
//!   a message's `stream` never count.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::budget::Budget;
use crate::model::{Millis, StepId, Usage};
use crate::source::json::{each, number, or_default, string};

/// The most v0/v1 usage chunks kept while they wait for a message or the end
/// of their step. Past it the oldest is counted as an attempt without a
/// message (and the file gets one problem saying so).
pub(crate) const PENDING_MAX: usize = 4096;

/// The most seqs or ranges read from one message's `sourceEventSeqs`; the
/// rest are not read (a chunk cited only past them counts as an attempt
/// without a message).
pub(crate) const CITES_MAX: usize = 4096;

#[derive(Deserialize, Default)]
struct Tokens {
    #[serde(rename = "inputTokens", default, deserialize_with = "number")]
    input: Option<u64>,
    #[serde(rename = "outputTokens", default, deserialize_with = "number")]
    output: Option<u64>,
}

/// A usage object's tokens, or `None` when it has neither count.
pub(crate) fn tokens(usage: Option<&RawValue>) -> Option<Usage> {
    let Tokens { input, output } = or_default(usage);
    if input.is_none() && output.is_none() {
        return None;
    }
    Some(Usage {
        input: input.unwrap_or(0),
        output: output.unwrap_or(0),
    })
}

/// A usage chunk, or a stream record around one.
#[derive(Deserialize, Default)]
struct ChunkShape<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    kind: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    usage: Option<&'a RawValue>,
    #[serde(borrow)]
    chunk: Option<&'a RawValue>,
}

/// The usage of a `usage` chunk (`{"type":"usage","usage":{…}}`).
pub(crate) fn of_chunk(chunk: Option<&RawValue>) -> Option<Usage> {
    let chunk: ChunkShape<'_> = or_default(chunk);
    if chunk.kind.as_deref() != Some("usage") {
        return None;
    }
    tokens(chunk.usage)
}

/// The last usage in a v2/v3 `stream`: a record `{"type":"chunk","chunk":…}`
/// holding a usage chunk, or a bare usage chunk. The stream is walked one
/// record at a time.
pub(crate) fn of_stream(stream: Option<&RawValue>) -> Option<Usage> {
    let mut last = None;
    if let Some(stream) = stream {
        each(stream, |record| {
            let outer: ChunkShape<'_> = or_default(Some(record));
            let found = match outer.kind.as_deref() {
                Some("chunk") => of_chunk(outer.chunk),
                _ => of_chunk(Some(record)),
            };
            if found.is_some() {
                last = found;
            }
        });
    }
    last
}

/// The seqs a `sourceEventSeqs` cites: numbers, and `[start, end]` pairs
/// (inclusive), kept as ranges and never expanded; at most [`CITES_MAX`],
/// each element built only within the budget's value bound.
pub(crate) fn cites(list: Option<&RawValue>, budget: &Budget) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let Some(list) = list else {
        return out;
    };
    each(list, |item| {
        if out.len() >= CITES_MAX {
            return;
        }
        let cited = match budget.value(item.get()) {
            Ok(Value::Number(n)) => n.as_u64().map(|s| (s, s)),
            Ok(Value::Array(pair)) => match pair.as_slice() {
                [a, b] => a.as_u64().zip(b.as_u64()),
                _ => None,
            },
            _ => None,
        };
        out.extend(cited);
    });
    out
}

/// A v0/v1 usage chunk not yet settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chunk {
    pub seq: u64,
    pub step: StepId,
    pub usage: Usage,
    pub at: Option<Millis>,
}

/// Usage chunks waiting for the message that may cite them.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    chunks: VecDeque<Chunk>,
    /// True once a chunk was settled early because the bound was reached.
    pub overflowed: bool,
}

impl Pending {
    /// Keeps `chunk`; returns the oldest when the bound forces it out.
    pub(crate) fn push(&mut self, chunk: Chunk) -> Option<Chunk> {
        let evicted = if self.chunks.len() >= PENDING_MAX {
            self.overflowed = true;
            self.chunks.pop_front()
        } else {
            None
        };
        self.chunks.push_back(chunk);
        evicted
    }

    /// Removes the chunks `cites` names; returns the last of them.
    pub(crate) fn take_cited(&mut self, cites: &[(u64, u64)]) -> Option<Chunk> {
        let cited = |c: &Chunk| cites.iter().any(|&(a, b)| a <= c.seq && c.seq <= b);
        let last = self.chunks.iter().rev().find(|c| cited(c)).copied();
        self.chunks.retain(|c| !cited(c));
        last
    }

    /// Removes and returns, in order, the chunks `settled` selects.
    pub(crate) fn take(&mut self, settled: impl Fn(&Chunk) -> bool) -> Vec<Chunk> {
        let (out, keep): (Vec<Chunk>, Vec<Chunk>) = self.chunks.drain(..).partition(|c| settled(c));
        self.chunks = keep.into();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn cites_take_numbers_and_ranges() {
        let budget = Budget::new(crate::budget::Limits::default());
        let list = raw(r#"[1, [3, 5], 9, "x", [1], [2, "y"]]"#);
        assert_eq!(cites(Some(&list), &budget), vec![(1, 1), (3, 5), (9, 9)]);
        assert_eq!(cites(None, &budget), Vec::<(u64, u64)>::new());
        let many = raw(&format!("[{}]", vec!["7"; CITES_MAX + 10].join(",")));
        assert_eq!(cites(Some(&many), &budget).len(), CITES_MAX);
    }

    #[test]
    fn pending_is_bounded_and_settles_by_citation() {
        let chunk = |seq| Chunk {
            seq,
            step: StepId(1),
            usage: Usage {
                input: seq,
                output: 0,
            },
            at: None,
        };
        let mut pending = Pending::default();
        for seq in 0..PENDING_MAX as u64 {
            assert_eq!(pending.push(chunk(seq)), None);
        }
        assert_eq!(pending.push(chunk(PENDING_MAX as u64)), Some(chunk(0)));
        assert!(pending.overflowed);
        assert_eq!(pending.take_cited(&[(5, 7)]), Some(chunk(7)));
        assert_eq!(pending.take_cited(&[(5, 7)]), None);
        let early = pending.take(|c| c.seq < 4);
        assert_eq!(early, vec![chunk(1), chunk(2), chunk(3)]);
        assert_eq!(pending.take(|_| true).len(), PENDING_MAX - 6);
    }

    #[test]
    fn stream_usage_is_the_last_usage_chunk() {
        let stream = raw(r#"[
            {"type":"text-chunks","time0":1,"index":0,"dt":[1],"texts":["a","b"]},
            {"type":"chunk","time":2,"chunk":{"type":"usage","usage":{"inputTokens":5,"outputTokens":1}}},
            {"type":"chunk","time":3,"chunk":{"type":"usage","usage":{"inputTokens":7,"outputTokens":2}}},
            {"type":"chunk","time":4,"chunk":{"type":"finish","reason":{"kind":"error"}}}
        ]"#);
        assert_eq!(
            of_stream(Some(&stream)),
            Some(Usage {
                input: 7,
                output: 2
            })
        );
        assert_eq!(of_stream(Some(&raw("[]"))), None);
        assert_eq!(tokens(Some(&raw(r#"{"cacheReadTokens": 3}"#))), None);
    }
}
