//! Records a `--fork-session` copied from another session: the responses
//! already counted in a directory, and the copied calls whose results are
//! skipped with them.

use std::collections::{HashSet, VecDeque};
use std::hash::{Hash, Hasher};

/// The most responses remembered across one directory's transcripts for
/// telling a copy (see [`Counted`]); past it a copy of an older response is
/// counted again, and the directory's last file gets one problem saying so.
pub const COUNTED_KEYS_MAX: usize = 1 << 20;

/// The most calls of copied records remembered per transcript, so that
/// their results are skipped too (a fork's copies come together, at its
/// start).
pub const INHERITED_CALLS_MAX: usize = 4_096;

/// The responses already counted in one directory of transcripts (one
/// project's), by a digest of `message.id` and `requestId`.
///
/// `claude --resume <id> --fork-session` writes a new transcript that
/// starts with copies of the parent's records, the same `message.id` and
/// `requestId` on each. ccusage counts such a response once, for the file
/// that comes first by path (`claude session`, ccusage 20.0.24); so does the
/// scan, so the token figures agree. The files of a directory are read in
/// path order by one worker, with one `Counted`.
#[derive(Default)]
pub struct Counted {
    keys: HashSet<u64>,
    /// A key was not remembered: [`COUNTED_KEYS_MAX`] were.
    pub full: bool,
}

impl Counted {
    /// True the first time `key` is offered in this directory.
    pub(super) fn first(&mut self, key: u64) -> bool {
        if self.keys.contains(&key) {
            return false;
        }
        if self.keys.len() >= COUNTED_KEYS_MAX {
            self.full = true;
        } else {
            self.keys.insert(key);
        }
        true
    }
}

/// What names one response across files: `message.id` and `requestId`,
/// both present (ccusage's key; without a `requestId` it removes copies
/// within a session only, as the step grouping does).
pub(super) fn response_key(message: &str, request: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    message.hash(&mut hasher);
    request.hash(&mut hasher);
    hasher.finish()
}

/// The calls of records copied from another session (a fork's), whose
/// results are skipped with them; the last [`INHERITED_CALLS_MAX`] kept.
#[derive(Default)]
pub(super) struct Inherited {
    pub(super) calls: HashSet<String>,
    order: VecDeque<String>,
}

impl Inherited {
    pub(super) fn insert(&mut self, call: String) {
        if self.order.len() >= INHERITED_CALLS_MAX {
            if let Some(old) = self.order.pop_front() {
                self.calls.remove(&old);
            }
        }
        self.order.push_back(call.clone());
        self.calls.insert(call);
    }
}
