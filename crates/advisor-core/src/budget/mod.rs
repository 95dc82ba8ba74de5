//! The fail-fast budget: refuse an identical call that already failed provisioning.
//!
//! Only the family registered with
//! [`RegistryBuilder::fail_fast_family`](crate::registry::RegistryBuilder::fail_fast_family)
//! (which requires [`FailFast`](crate::family::FailFast)) feeds it.
//!
//! Per agent: a count of provisioning failures (once per call id), the set of
//! watched call keys (digests, at most 128), and the refusals spent in the
//! current episode. A call is refused before dispatch when `enforceAfter > 0`,
//! the count has reached `enforceAfter`, the call's key is watched, and fewer
//! than `maxDenials` refusals were spent. A watched call that later succeeds
//! stops being watched and re-arms the budget (the episode's refusals go back
//! to zero). A refusal's materialized failure is recognized by call id and key
//! together, and neither counted nor answered.

use serde_json::Value;

use crate::config::Config;
use crate::digest::{Digest, DigestSet, DigestWriter};
use crate::ids::CallId;
use crate::observation::Observation;

mod codec;
pub use codec::{RECORD_MAX_BYTES, RecordError, RecordOwner};

/// Watched calls per agent are kept in two generations of this many: at most
/// 128, and a watched call is forgotten only after 64 other distinct calls of
/// the same agent failed provisioning since it last did.
pub(crate) const WATCHED_GENERATION: usize = 64;

/// A call's identity: a 128-bit digest of the tool name and the canonical
/// arguments (object keys sorted, so two spellings of the same arguments are the
/// same call). The canonical text is streamed into the digest and never built;
/// only the 16 bytes are kept. Keys are comparable within one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallKey(Digest);

impl CallKey {
    /// Builds the key for `tool` called with `arguments`.
    pub fn new(tool: &str, arguments: &Value) -> Self {
        let mut out = DigestWriter::new();
        out.prefixed(tool.as_bytes());
        write_canonical(&mut out, arguments);
        Self(out.finish())
    }

    pub(crate) fn digest(self) -> Digest {
        self.0
    }

    pub(crate) fn from_digest(digest: Digest) -> Self {
        Self(digest)
    }
}

/// A call as the budget reads it: its id, and the tool and arguments its
/// [`CallKey`] is built from — built only by the answers that need it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BudgetCall<'a> {
    /// The call's id.
    pub(crate) id: &'a CallId,
    tool: &'a str,
    arguments: &'a Value,
}

impl<'a> BudgetCall<'a> {
    /// The call `id` to `tool` with `arguments`.
    pub(crate) fn new(id: &'a CallId, tool: &'a str, arguments: &'a Value) -> Self {
        Self {
            id,
            tool,
            arguments,
        }
    }

    /// The settled call an observation describes.
    pub(crate) fn of(observation: &'a Observation) -> Self {
        Self::new(
            &observation.call,
            observation.tool.as_str(),
            &observation.arguments,
        )
    }

    /// The call's key (hashes the canonical arguments).
    pub(crate) fn key(&self) -> CallKey {
        CallKey::new(self.tool, self.arguments)
    }
}

/// The configured bounds of the budget: `enforceAfter` and `maxDenials`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BudgetLimits {
    /// Failures before a watched call is refused; 0 turns the budget off.
    pub(crate) enforce_after: u32,
    /// Refusals per episode.
    pub(crate) max_denials: u32,
}

impl BudgetLimits {
    /// The limits a configuration sets.
    pub(crate) fn of(config: &Config) -> Self {
        Self {
            enforce_after: config.enforce_after,
            max_denials: config.max_denials,
        }
    }
}

/// Writes `value` as JSON with every object's keys in byte order. JSON's own
/// syntax keeps the stream unambiguous: strings are quoted and escaped.
fn write_canonical(out: &mut DigestWriter, value: &Value) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            write_joined(out, b"{", b"}", entries, |out, (key, value)| {
                scalar(out, key);
                out.bytes(b":");
                write_canonical(out, value);
            });
        }
        Value::Array(items) => write_joined(out, b"[", b"]", items, write_canonical),
        other => scalar(out, other),
    }
}

/// Writes `items` between `open` and `close`, a comma between two items.
///
/// The separator is a value that becomes `,` after the first item, not a
/// test on the item's index. An object's entries each begin with a quoted
/// key, so with a comma more or less in front of them two different objects
/// still get two keys and one object one key: a mutated index test there
/// could be told apart by no test (an equivalent mutant), so there is none.
/// Between array items the comma matters (`[1,2]` is not `[12]`), and the
/// same line writes it.
fn write_joined<T>(
    out: &mut DigestWriter,
    open: &[u8],
    close: &[u8],
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut DigestWriter, T),
) {
    out.bytes(open);
    let mut separator: &[u8] = b"";
    for item in items {
        out.bytes(separator);
        separator = b",";
        write(out, item);
    }
    out.bytes(close);
}

fn scalar<T: serde::Serialize + ?Sized>(out: &mut DigestWriter, value: &T) {
    // Writing into a digest cannot fail, and a string, number, bool or null
    // always serializes.
    let _ = serde_json::to_writer(out, value);
}

/// One agent's budget.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct BudgetState {
    failures: u32,
    watched: DigestSet<WATCHED_GENERATION>,
    denials: u32,
}

/// Refusals remembered per agent while their materialized failure is awaited.
pub(crate) const REFUSED_CALLS_KEPT: usize = 16;

/// Counted call ids are kept in two generations of this many: at most 128 per
/// agent, and a call id is forgotten only after 64 other failures of the same
/// agent were counted since.
pub(crate) const COUNTED_GENERATION: usize = 64;

/// One agent's fail-fast budget: the failures counted, the calls watched, the
/// refusals spent and awaited. In-process it is the fail-fast half of the
/// agent's ledger entry, allocated only once used; a shared store keeps it as
/// bytes ([`encode`](Self::encode), at most [`RECORD_MAX_BYTES`]) and edits it
/// under its own lock.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BudgetRecord {
    budget: BudgetState,
    /// Refused calls awaiting their materialized failure: (call id, call key).
    refused: Vec<(Digest, CallKey)>,
    /// Call ids whose failure was counted, or whose refusal was settled.
    settled: DigestSet<COUNTED_GENERATION>,
}

impl BudgetRecord {
    /// Counts a provisioning failure of `call`, once per call id: the same
    /// `post` sent twice is one failure.
    pub(crate) fn count_failure(&mut self, call: &CallId, key: CallKey) -> bool {
        let counted = self.settled.insert(Digest::of_str(call.as_str()));
        if counted {
            self.budget.record_failure(key);
        }
        counted
    }

    /// Admits or refuses `call` before dispatch; a refusal spends one of the
    /// episode's refusals and is remembered until its materialized failure
    /// is posted.
    pub(crate) fn admit(
        &mut self,
        call: &CallId,
        key: CallKey,
        limits: BudgetLimits,
    ) -> BudgetVerdict {
        let verdict = self
            .budget
            .check(&key, limits.enforce_after, limits.max_denials);
        if matches!(verdict, BudgetVerdict::Refuse { .. }) {
            self.record_refusal(call, key);
        }
        verdict
    }

    /// True when the budget watches any call (else a success has nothing to
    /// re-arm, and the success path can skip building the call's key).
    pub(crate) fn is_watching(&self) -> bool {
        !self.budget.watched.is_empty()
    }

    /// A success of `key`: a watched call stops being watched and re-arms the
    /// budget; true when it was watched.
    pub(crate) fn record_success(&mut self, key: &CallKey) -> bool {
        self.budget.record_success(key)
    }

    /// Remembers a refusal until its materialized failure is posted. A host
    /// that never posts it must not grow this list (or the scan over it)
    /// without bound: the oldest of [`REFUSED_CALLS_KEPT`] is dropped.
    pub(crate) fn record_refusal(&mut self, call: &CallId, key: CallKey) {
        if self.refused.len() >= REFUSED_CALLS_KEPT {
            self.refused.remove(0);
        }
        self.refused.push((Digest::of_str(call.as_str()), key));
    }

    /// True (and forgotten) when `call` is the materialized failure of one of
    /// our refusals: the same call id *and* the same tool and arguments, so an
    /// unrelated call that reuses the id is answered as any other.
    pub(crate) fn take_refusal(&mut self, call: &CallId, key: impl FnOnce() -> CallKey) -> bool {
        if self.refused.is_empty() {
            return false;
        }
        let id = Digest::of_str(call.as_str());
        if !self.refused.iter().any(|(refused, _)| *refused == id) {
            return false;
        }
        let key = key();
        match self.refused.iter().position(|r| *r == (id, key)) {
            Some(i) => {
                self.refused.remove(i);
                self.settled.insert(id);
                true
            }
            None => false,
        }
    }
}

/// What the budget says about a call about to be dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetVerdict {
    /// Let it through.
    Allow,
    /// Refuse it; this many refusals remain in the episode afterwards.
    Refuse { left: u32 },
}

impl BudgetState {
    /// Records a provisioning failure of `key`.
    fn record_failure(&mut self, key: CallKey) {
        self.failures = self.failures.saturating_add(1);
        self.watched.insert(key.digest());
    }

    /// Records a success of `key`: a watched call stops being watched and re-arms the budget.
    fn record_success(&mut self, key: &CallKey) -> bool {
        let watched = self.watched.remove(&key.digest());
        if watched {
            self.denials = 0;
        }
        watched
    }

    /// Decides whether `key` is refused, spending a refusal if so.
    fn check(&mut self, key: &CallKey, enforce_after: u32, max_denials: u32) -> BudgetVerdict {
        if enforce_after == 0
            || self.failures < enforce_after
            || !self.watched.contains(&key.digest())
        {
            return BudgetVerdict::Allow;
        }
        if self.denials >= max_denials {
            return BudgetVerdict::Allow;
        }
        self.denials += 1;
        BudgetVerdict::Refuse {
            left: max_denials - self.denials,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_ignores_object_key_order() {
        let a = CallKey::new(
            "bash",
            &json!({"command": "ls", "cwd": {"x": 1, "y": [2, {"b": 1, "a": 2}]}}),
        );
        let b = CallKey::new(
            "bash",
            &json!({"cwd": {"y": [2, {"a": 2, "b": 1}], "x": 1}, "command": "ls"}),
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            CallKey::new(
                "pwsh",
                &json!({"command": "ls", "cwd": {"x": 1, "y": [2, {"b": 1, "a": 2}]}})
            )
        );
        assert_ne!(
            a,
            CallKey::new(
                "bash",
                &json!({"command": "ls -a", "cwd": {"x": 1, "y": [2, {"a": 2, "b": 1}]}})
            )
        );
    }

    /// The reproduction: one agent with N distinct failing calls kept
    /// every full key in a list searched linearly (33 s at 160k calls).
    #[test]
    fn watched_calls_are_bounded_per_agent_and_keep_the_newest() {
        let mut state = BudgetState::default();
        let key = |i: u32| CallKey::new("bash", &json!({"command": format!("npm test {i}")}));
        for i in 0..10_000 {
            state.record_failure(key(i));
        }
        assert!(
            state.watched.len() <= 2 * WATCHED_GENERATION,
            "{} watched",
            state.watched.len()
        );
        for i in 10_000 - WATCHED_GENERATION as u32..10_000 {
            assert_eq!(
                state.check(&key(i), 1, u32::MAX),
                BudgetVerdict::Refuse {
                    left: u32::MAX - state.denials
                }
            );
        }
    }

    #[test]
    fn remembered_call_ids_are_bounded_and_a_duplicate_counts_once() {
        let mut ff = BudgetRecord::default();
        let key = CallKey::new("bash", &json!({"command": "npm test"}));
        ff.count_failure(&CallId::new("c0"), key);
        ff.count_failure(&CallId::new("c0"), key);
        assert_eq!(ff.budget.failures, 1, "the same post twice counts once");
        for i in 1..10_000 {
            ff.count_failure(&CallId::new(format!("c{i}")), key);
        }
        assert_eq!(ff.budget.failures, 10_000);
        assert!(ff.settled.len() <= 2 * COUNTED_GENERATION);
        for i in 0..100 {
            ff.record_refusal(&CallId::new(format!("r{i}")), key);
        }
        assert_eq!(ff.refused.len(), REFUSED_CALLS_KEPT);
        assert!(ff.take_refusal(&CallId::new("r99"), || key));
        assert!(!ff.take_refusal(&CallId::new("r0"), || key), "dropped");
        let other = CallKey::new("pwsh", &json!({"command": "npm test"}));
        assert!(
            !ff.take_refusal(&CallId::new("r98"), || other),
            "another tool"
        );
    }

    #[test]
    fn key_keeps_array_order() {
        assert_ne!(
            CallKey::new("t", &json!([1, 2])),
            CallKey::new("t", &json!([2, 1]))
        );
    }
}
