//! A [`BudgetRecord`] as bytes, for stores that keep it outside the process.
//!
//! Layout (little-endian), version 1:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | version (`1`) |
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

use super::{
    BudgetRecord, BudgetState, COUNTED_GENERATION, CallKey, REFUSED_CALLS_KEPT, WATCHED_GENERATION,
};
use crate::digest::{Digest, DigestSet};

const VERSION: u8 = 1;

/// The most bytes an encoded record takes (all sets full): 4 627.
pub const RECORD_MAX_BYTES: usize = 1
    + 4
    + 4
    + 2 * (2 + 16 * WATCHED_GENERATION)
    + (2 + 32 * REFUSED_CALLS_KEPT)
    + 2 * (2 + 16 * COUNTED_GENERATION);

/// Stored bytes that are not a budget record this build can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored budget record: {0}")]
pub struct RecordError(&'static str);

impl BudgetRecord {
    /// The record as bytes (at most [`RECORD_MAX_BYTES`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        out.push(VERSION);
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

    /// Reads bytes [`encode`](Self::encode) wrote; anything else (another
    /// version, a truncated or oversized record, trailing bytes) is an error.
    pub fn decode(bytes: &[u8]) -> Result<Self, RecordError> {
        let mut input = Reader(bytes);
        if input.take::<1>()? != [VERSION] {
            return Err(RecordError("unknown version"));
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
    use crate::budget::BudgetLimits;
    use crate::ids::CallId;
    use serde_json::json;

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
        let bytes = record.encode();
        assert!(bytes.len() <= RECORD_MAX_BYTES, "{} bytes", bytes.len());
        let mut copy = BudgetRecord::decode(&bytes).expect("decodes");
        assert_eq!(copy, record);
        assert_eq!(
            copy.admit(&CallId::new("x"), key(85), limits),
            record.admit(&CallId::new("x"), key(85), limits)
        );
        assert_eq!(
            BudgetRecord::decode(&BudgetRecord::default().encode()),
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
        let bytes = record.encode();
        assert_eq!(bytes.len(), RECORD_MAX_BYTES);
        for cut in [0, 1, 5, bytes.len() - 1] {
            assert!(BudgetRecord::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            BudgetRecord::decode(&longer),
            Err(RecordError("trailing bytes"))
        );
        let mut other = bytes;
        other[0] = 2;
        assert_eq!(
            BudgetRecord::decode(&other),
            Err(RecordError("unknown version"))
        );
        let mut oversized = BudgetRecord::default().encode();
        oversized[9..11].copy_from_slice(&65u16.to_le_bytes());
        assert!(BudgetRecord::decode(&oversized).is_err());
    }
}
