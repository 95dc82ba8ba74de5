//! A [`BudgetRecord`] as bytes, for stores that keep it outside the process.
//!
//! Layout (little-endian), version 2:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | version (`2`) |
//! | 16 | the owner: [`RecordOwner`], a keyed digest of the agent's id |
//! | 4 | failures counted |
//! | 4 | refusals spent this episode |
//! | 2 + 16·n | watched calls, young generation (n ≤ 64) |
//! | 2 + 16·n | watched calls, old generation (n ≤ 64) |
//! | 2 + 32·n | refusals awaiting their failure: call id digest, call key (n ≤ 16) |
//! | 2 + 16·n | settled call ids, young generation (n ≤ 64) |
//! | 2 + 16·n | settled call ids, old generation (n ≤ 64) |
//!
//! Digests are only comparable under one key, so every process sharing a
//! store must use the store's [`DigestKey`](crate::DigestKey).
//!
//! **The owner.** A call key names the tool and its arguments, not the agent,
//! so agent A's record copied onto agent B's key would refuse B's identical
//! calls (issue 36: B's `make test` was denied twice though B never failed).
//! Every record carries its agent's [`RecordOwner`] and is read only for that
//! agent: a record bound to another agent is read as absent
//! ([`BudgetRecord::decode_stored`], logged once per process). The owner is
//! a digest of the agent's raw id under a domain of its own (`budget-owner`),
//! not the [`AgentKey`](crate::AgentKey) a store names the agent by, so a
//! store's key names do not give it away: minting a record for an agent
//! takes the digest key *and* the agent's id.
//!
//! **Version 1** (the same layout without the owner) is not read: its
//! records could belong to anyone. The stores keep version 2 under a new
//! name (`budget.v2` on disk, `…:budget:v2` in Redis), so a build of either
//! version never reads, deletes or moves aside the other's records; a
//! version 1 record is left to expire and is deleted by `forget`. An upgrade
//! starts every agent's budget empty once: the budget fails open.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::{
    BudgetRecord, BudgetState, COUNTED_GENERATION, CallKey, REFUSED_CALLS_KEPT, WATCHED_GENERATION,
};
use crate::digest::{Digest, DigestSet, DigestWriter};
use crate::ids::AgentId;

const VERSION: u8 = 2;

/// The most bytes an encoded record takes (all sets full): 4 643.
pub const RECORD_MAX_BYTES: usize = 1
    + 16
    + 4
    + 4
    + 2 * (2 + 16 * WATCHED_GENERATION)
    + (2 + 32 * REFUSED_CALLS_KEPT)
    + 2 * (2 + 16 * COUNTED_GENERATION);

/// Whose budget a stored record is: a keyed digest of the agent's id, under
/// this process's digest key and a domain of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOwner(Digest);

impl RecordOwner {
    /// The owner a record of `agent` carries.
    pub fn of(agent: &AgentId) -> Self {
        let mut writer = DigestWriter::new();
        writer.prefixed(b"budget-owner");
        writer.prefixed(agent.as_str().as_bytes());
        Self(writer.finish())
    }
}

/// Why stored bytes are not this agent's record: bytes that are no record
/// this build can read (another version, truncated, oversized, trailing
/// bytes), or a record bound to another agent ([`is_foreign`](Self::is_foreign)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored budget record: {0}")]
pub struct RecordError(&'static str);

const FOREIGN: &str = "bound to another agent";

impl RecordError {
    /// True for a well-formed record bound to another agent.
    pub fn is_foreign(&self) -> bool {
        self.0 == FOREIGN
    }
}

/// Whether a record bound to another agent was already logged at `warn` by
/// this process.
static FOREIGN_LOGGED: AtomicBool = AtomicBool::new(false);

impl BudgetRecord {
    /// The record as bytes (at most [`RECORD_MAX_BYTES`]), bound to `owner`.
    pub fn encode(&self, owner: RecordOwner) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        out.push(VERSION);
        out.extend_from_slice(&owner.0.bits().to_le_bytes());
        out.extend_from_slice(&self.budget.failures.to_le_bytes());
        out.extend_from_slice(&self.budget.denials.to_le_bytes());
        for generation in self.budget.watched.generations() {
            digests(&mut out, generation);
        }
        put_len(&mut out, self.refused.len());
        for (call, key) in &self.refused {
            out.extend_from_slice(&call.bits().to_le_bytes());
            out.extend_from_slice(&key.digest().bits().to_le_bytes());
        }
        for generation in self.settled.generations() {
            digests(&mut out, generation);
        }
        out
    }

    /// Reads bytes [`encode`](Self::encode) wrote for `owner`; anything else
    /// is an error: another version, a truncated or oversized record,
    /// trailing bytes, or a record bound to another agent
    /// ([`RecordError::is_foreign`]).
    pub fn decode(bytes: &[u8], owner: RecordOwner) -> Result<Self, RecordError> {
        let mut input = Reader(bytes);
        if input.take::<1>()? != [VERSION] {
            return Err(RecordError("unknown version"));
        }
        if input.digest()? != owner.0 {
            return Err(RecordError(FOREIGN));
        }
        let failures = u32::from_le_bytes(input.take()?);
        let denials = u32::from_le_bytes(input.take()?);
        let watched = input.set::<WATCHED_GENERATION>()?;
        let refused_len = input.len(REFUSED_CALLS_KEPT)?;
        let mut refused = Vec::with_capacity(refused_len);
        for _ in 0..refused_len {
            let call = input.digest()?;
            let key = CallKey::from_digest(input.digest()?);
            refused.push((call, key));
        }
        let settled = input.set::<COUNTED_GENERATION>()?;
        if !input.0.is_empty() {
            return Err(RecordError("trailing bytes"));
        }
        Ok(Self {
            budget: BudgetState {
                failures,
                watched,
                denials,
            },
            refused,
            settled,
        })
    }

    /// What a store read at `owner`'s record, as the budget takes it:
    /// `Ok(Some)` its record; `Ok(None)` a record bound to another agent,
    /// read as absent (the edit starts from an empty record, and the store
    /// replaces or removes the foreign one), logged once per process at
    /// `warn` naming `at` (the key or the file), later ones at `debug`;
    /// `Err` bytes that are no record (the store's corrupt-record rule).
    pub fn decode_stored(
        bytes: &[u8],
        owner: RecordOwner,
        at: &str,
    ) -> Result<Option<Self>, RecordError> {
        match Self::decode(bytes, owner) {
            Ok(record) => Ok(Some(record)),
            Err(error) if error.is_foreign() => {
                let at = crate::quote::log_field(at);
                if FOREIGN_LOGGED.swap(true, Relaxed) {
                    tracing::debug!(target: "sandbox_advisor::ledger", at = %at, "a budget record bound to another agent, read as absent");
                } else {
                    tracing::warn!(target: "sandbox_advisor::ledger", at = %at, "a budget record bound to another agent was read as absent and will be replaced or removed: someone who can write the store copied or forged it (logged once per process)");
                }
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    // Every collection is bounded far below u16::MAX.
    out.extend_from_slice(&(len as u16).to_le_bytes());
}

fn digests(out: &mut Vec<u8>, items: impl ExactSizeIterator<Item = Digest>) {
    put_len(out, items.len());
    for digest in items {
        out.extend_from_slice(&digest.bits().to_le_bytes());
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], RecordError> {
        let (head, rest) = self
            .0
            .split_first_chunk::<N>()
            .ok_or(RecordError("truncated"))?;
        self.0 = rest;
        Ok(*head)
    }

    fn len(&mut self, max: usize) -> Result<usize, RecordError> {
        let len = usize::from(u16::from_le_bytes(self.take()?));
        if len > max {
            return Err(RecordError("a set is larger than its bound"));
        }
        Ok(len)
    }

    fn digest(&mut self) -> Result<Digest, RecordError> {
        Ok(Digest::from_bits(u128::from_le_bytes(self.take()?)))
    }

    fn generation(&mut self, max: usize) -> Result<Vec<Digest>, RecordError> {
        let len = self.len(max)?;
        (0..len).map(|_| self.digest()).collect()
    }

    fn set<const G: usize>(&mut self) -> Result<DigestSet<G>, RecordError> {
        let young = self.generation(G)?;
        let old = self.generation(G)?;
        DigestSet::from_generations(young, old).ok_or(RecordError("a set is larger than its bound"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::{BudgetLimits, BudgetVerdict};
    use crate::ids::CallId;
    use serde_json::json;

    fn owner() -> RecordOwner {
        RecordOwner::of(&AgentId::new("a1"))
    }

    fn key(i: usize) -> CallKey {
        CallKey::new("pwsh", &json!({ "command": format!("npm test {i}") }))
    }

    #[test]
    fn a_record_survives_the_round_trip_and_keeps_deciding_alike() {
        let mut record = BudgetRecord::default();
        for i in 0..300 {
            record.count_failure(&CallId::new(format!("c{i}")), key(i % 90));
        }
        let limits = BudgetLimits {
            enforce_after: 1,
            max_denials: 40,
        };
        for i in 0..30 {
            record.admit(&CallId::new(format!("r{i}")), key(80 + i % 10), limits);
        }
        let bytes = record.encode(owner());
        assert!(bytes.len() <= RECORD_MAX_BYTES, "{} bytes", bytes.len());
        let mut copy = BudgetRecord::decode(&bytes, owner()).expect("decodes");
        assert_eq!(copy, record);
        assert_eq!(
            copy.admit(&CallId::new("x"), key(85), limits),
            record.admit(&CallId::new("x"), key(85), limits)
        );
        assert_eq!(
            BudgetRecord::decode(&BudgetRecord::default().encode(owner()), owner()),
            Ok(BudgetRecord::default())
        );
    }

    #[test]
    fn a_full_record_fits_the_documented_bound_and_bad_bytes_are_refused() {
        let mut record = BudgetRecord::default();
        let limits = BudgetLimits {
            enforce_after: 1,
            max_denials: u32::MAX,
        };
        // 1 024 is a whole number of generations: both generations end full.
        for i in 0..1024 {
            record.count_failure(&CallId::new(format!("c{i}")), key(i));
        }
        for i in 900..1024 {
            record.admit(&CallId::new(format!("r{i}")), key(i), limits);
        }
        let bytes = record.encode(owner());
        assert_eq!(bytes.len(), RECORD_MAX_BYTES);
        for cut in [0, 1, 5, bytes.len() - 1] {
            assert!(
                BudgetRecord::decode(&bytes[..cut], owner()).is_err(),
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            BudgetRecord::decode(&longer, owner()),
            Err(RecordError("trailing bytes"))
        );
        let mut other = bytes;
        other[0] = 3;
        assert_eq!(
            BudgetRecord::decode(&other, owner()),
            Err(RecordError("unknown version"))
        );
        let mut oversized = BudgetRecord::default().encode(owner());
        oversized[25..27].copy_from_slice(&65u16.to_le_bytes());
        assert!(BudgetRecord::decode(&oversized, owner()).is_err());
    }

    /// Issue 36 item 7: a record is read only for the agent it was written
    /// for. Another agent's record, byte for byte, is foreign: read as
    /// absent by a store, never as this agent's history; a version 1 record
    /// (no owner) is not read at all.
    #[test]
    fn a_record_is_bound_to_its_agent() {
        let limits = BudgetLimits {
            enforce_after: 1,
            max_denials: 2,
        };
        let mut record = BudgetRecord::default();
        record.count_failure(&CallId::new("c1"), key(1));
        let a1 = record.encode(owner());
        let a2 = RecordOwner::of(&AgentId::new("a2"));
        assert_ne!(a2, owner());
        let foreign = BudgetRecord::decode(&a1, a2).unwrap_err();
        assert!(foreign.is_foreign(), "{foreign}");
        assert_eq!(BudgetRecord::decode_stored(&a1, a2, "a2's key"), Ok(None));
        let mut own = BudgetRecord::decode_stored(&a1, owner(), "a1's key")
            .unwrap()
            .unwrap();
        assert!(matches!(
            own.admit(&CallId::new("c2"), key(1), limits),
            BudgetVerdict::Refuse { .. }
        ));
        // The owner is not the name a store gives the agent.
        let named = crate::AgentKey::of(&AgentId::new("a1"));
        assert_ne!(format!("{:032x}", owner().0.bits()), named.as_str());
        // Version 1: the same layout without the owner.
        let mut v1 = vec![1u8];
        v1.extend_from_slice(&a1[17..]);
        let old = BudgetRecord::decode_stored(&v1, owner(), "old").unwrap_err();
        assert!(!old.is_foreign(), "{old}");
        assert_eq!(old, RecordError("unknown version"));
        assert_eq!(
            BudgetRecord::decode_stored(&a1[..10], owner(), "cut"),
            Err(RecordError("truncated"))
        );
    }
}
