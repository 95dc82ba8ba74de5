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

use serde_json::Value;

use crate::model::{Millis, StepId, Usage};

/// The most v0/v1 usage chunks kept while they wait for a message or the end
/// of their step. Past it the oldest is counted as an attempt without a
/// message (and the file gets one problem saying so).
pub(crate) const PENDING_MAX: usize = 4096;

/// A usage object's tokens, or `None` when it has neither count.
pub(crate) fn tokens(usage: &Value) -> Option<Usage> {
    let count = |key: &str| usage.get(key).and_then(Value::as_u64);
    let (input, output) = (count("inputTokens"), count("outputTokens"));
    if input.is_none() && output.is_none() {
        return None;
    }
    Some(Usage {
        input: input.unwrap_or(0),
        output: output.unwrap_or(0),
    })
}

/// The usage of a `usage` chunk (`{"type":"usage","usage":{…}}`).
pub(crate) fn of_chunk(chunk: &Value) -> Option<Usage> {
    if chunk.get("type").and_then(Value::as_str) != Some("usage") {
        return None;
    }
    tokens(chunk.get("usage")?)
}

/// The last usage in a v2/v3 `stream`: a record `{"type":"chunk","chunk":…}`
/// holding a usage chunk, or a bare usage chunk.
pub(crate) fn of_stream(stream: &Value) -> Option<Usage> {
    let records = stream.as_array()?;
    records
        .iter()
        .rev()
        .find_map(|record| match record.get("type").and_then(Value::as_str) {
            Some("chunk") => of_chunk(record.get("chunk")?),
            _ => of_chunk(record),
        })
}

/// The seqs a `sourceEventSeqs` cites: numbers, and `[start, end]` pairs
/// (inclusive), kept as ranges and never expanded.
pub(crate) fn cites(list: Option<&Value>) -> Vec<(u64, u64)> {
    let Some(items) = list.and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| match item {
            Value::Number(n) => n.as_u64().map(|s| (s, s)),
            Value::Array(pair) => match pair.as_slice() {
                [a, b] => Some((a.as_u64()?, b.as_u64()?)),
                _ => None,
            },
            _ => None,
        })
        .collect()
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
    use serde_json::json;

    #[test]
    fn cites_take_numbers_and_ranges() {
        let list = json!([1, [3, 5], 9, "x", [1], [2, "y"]]);
        assert_eq!(cites(Some(&list)), vec![(1, 1), (3, 5), (9, 9)]);
        assert_eq!(cites(None), Vec::<(u64, u64)>::new());
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
        let stream = json!([
            {"type":"text-chunks","time0":1,"index":0,"dt":[1],"texts":["a","b"]},
            {"type":"chunk","time":2,"chunk":{"type":"usage","usage":{"inputTokens":5,"outputTokens":1}}},
            {"type":"chunk","time":3,"chunk":{"type":"usage","usage":{"inputTokens":7,"outputTokens":2}}},
            {"type":"chunk","time":4,"chunk":{"type":"finish","reason":{"kind":"error"}}}
        ]);
        assert_eq!(
            of_stream(&stream),
            Some(Usage {
                input: 7,
                output: 2
            })
        );
        assert_eq!(of_stream(&json!([])), None);
        assert_eq!(tokens(&json!({"cacheReadTokens": 3})), None);
    }
}
