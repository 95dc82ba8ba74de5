//! One family's running figures in one session: its failures, repeats,
//! waste, and the calls its gate withheld or declined.

use std::collections::HashSet;

use crate::model::Millis;
use crate::report::{Spoke, SpokenCount, WithheldAt};

/// The most distinct failing calls remembered per family and session for
/// telling an identical repeat; a call after that is compared with those only.
pub const DISTINCT_CALLS_MAX: usize = 4_096;

/// The most withheld places, and the most declined ones, listed per family
/// and session (every one counts).
pub const WITHHELD_LISTED_MAX: usize = 16;

/// The most distinct withhold or decline reasons counted per family and
/// session (the families' codes are a few each); a call with a reason past
/// them is counted under [`REASONS_OTHER`].
pub const REASONS_MAX: usize = 32;

/// Where reasons past [`REASONS_MAX`] are counted.
pub const REASONS_OTHER: &str = "other";

/// One family's figures in one session.
#[derive(Debug, Clone, Default)]
pub struct FamilyRun {
    pub failing_calls: u64,
    pub repeats: u64,
    pub identical_repeats: u64,
    pub wasted_steps: u64,
    pub wasted_output_tokens: u64,
    pub wasted_input_tokens: u64,
    pub first_at: Option<Millis>,
    pub last_at: Option<Millis>,
    pub distinct: HashSet<u64>,
    pub would_speak: Option<Spoke>,
    /// The first withheld places.
    pub withheld: Vec<WithheldAt>,
    /// Withheld calls by reason code.
    pub withheld_calls: Vec<(String, u64)>,
    /// The first declined places.
    pub declined: Vec<WithheldAt>,
    /// Declined calls by reason code.
    pub declined_calls: Vec<(String, u64)>,
    /// Failing calls before the first advisory already spoken, once one is.
    pub spoken_mark: Option<u64>,
}

/// Counts one call under `code` among at most [`REASONS_MAX`] codes.
fn count_reason(counts: &mut Vec<(String, u64)>, code: &str) {
    let code = if counts.len() >= REASONS_MAX && !counts.iter().any(|(c, _)| c == code) {
        REASONS_OTHER
    } else {
        code
    };
    match counts.iter_mut().find(|(c, _)| c == code) {
        Some((_, n)) => *n += 1,
        None => counts.push((code.to_owned(), 1)),
    }
}

impl FamilyRun {
    /// Counts one failing call.
    pub fn failed(&mut self, identity: u64, at: Option<Millis>) {
        if self.failing_calls > 0 {
            self.repeats += 1;
            if self.distinct.contains(&identity) {
                self.identical_repeats += 1;
            }
        }
        if self.distinct.len() < DISTINCT_CALLS_MAX {
            self.distinct.insert(identity);
        }
        self.failing_calls += 1;
        if let Some(at) = at {
            self.first_at = Some(self.first_at.map_or(at, |f| f.min(at)));
            self.last_at = Some(self.last_at.map_or(at, |l| l.max(at)));
        }
    }

    /// Counts a call the family's gate withheld, and lists it while there is room.
    pub fn withheld(&mut self, at: WithheldAt) {
        count_reason(&mut self.withheld_calls, &at.reason);
        if self.withheld.len() < WITHHELD_LISTED_MAX {
            self.withheld.push(at);
        }
    }

    /// Counts a call the family's gate declined, and lists it while there is room.
    pub fn declined(&mut self, at: WithheldAt) {
        count_reason(&mut self.declined_calls, &at.reason);
        if self.declined.len() < WITHHELD_LISTED_MAX {
            self.declined.push(at);
        }
    }

    /// Calls the family recognized at all: spoken for, withheld or declined.
    pub fn decided(&self) -> u64 {
        let sum = |counts: &[(String, u64)]| counts.iter().map(|(_, n)| n).sum::<u64>();
        self.failing_calls + sum(&self.withheld_calls) + sum(&self.declined_calls)
    }

    /// Milliseconds from the first failure to the last (the readers keep
    /// only times from 2000 to 2099, so at most a century; saturated all the
    /// same).
    pub fn wall_ms(&self) -> u64 {
        match (self.first_at, self.last_at) {
            (Some(first), Some(last)) => u64::try_from(last.0.saturating_sub(first.0)).unwrap_or(0),
            _ => 0,
        }
    }

    /// The failing calls around an advisory the session already held.
    pub fn spoken(&self) -> Option<SpokenCount> {
        self.spoken_mark.map(|before| SpokenCount {
            sessions: 1,
            calls_before: before,
            calls_after: self.failing_calls - before,
        })
    }
}
