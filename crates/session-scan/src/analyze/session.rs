//! One session's running figures: its calls, its steps, and per family what
//! failed, what repeated, and where the advisor spoke or withheld.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};

use advisor_core::FamilyId;
use serde_json::Value;

use crate::model::{Millis, SessionHeader, StepId, Usage};
use crate::report::{Spoke, SpokenCount, WithheldAt};

/// The most calls awaiting their result in one session; beyond it, or
/// beyond what they may keep in all ([`crate::budget::Limits::pending_bytes`]),
/// the oldest is dropped (its result, if it comes, is not matched and not
/// counted).
pub const PENDING_CALLS_MAX: usize = 65_536;

/// What a call awaiting its result costs beyond its id, tool and arguments
/// (its entry, counted against the session's pending bytes).
const PENDING_OVERHEAD: usize = 128;

/// The most steps remembered in one session; beyond it the oldest step is
/// settled early with what is known of it.
pub const STEPS_MAX: usize = 65_536;

/// The most distinct failing calls remembered per family and session for
/// telling an identical repeat; a call after that is compared with those only.
pub const DISTINCT_CALLS_MAX: usize = 4_096;

/// The most (day, family) entries of wasted tokens one session keeps for the
/// timeline; a session spanning more days leaves the rest out of it (the
/// totals still count them).
pub const DAYS_MAX: usize = 366;

/// The most withheld places listed per family and session (every one counts).
pub const WITHHELD_LISTED_MAX: usize = 16;

/// A call awaiting its result.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The tool, as the families read it.
    pub tool: String,
    /// The arguments, as the families read them, kept as compact JSON text
    /// (what they cost is then exactly their length); `null` when they did
    /// not fit the session's pending bytes.
    pub arguments: Box<str>,
    /// Its step.
    pub step: StepId,
    /// Hash of its tool and arguments.
    pub identity: u64,
    /// Its 1-based position among the session's calls.
    pub index: u64,
    /// The order it arrived in, for eviction.
    pub seq: u64,
    /// What it keeps, in bytes (counted against the session's bound).
    pub bytes: usize,
}

/// What is known of one step.
#[derive(Debug, Clone, Default)]
pub struct Step {
    /// Its usage, summed over its records.
    pub usage: Usage,
    /// When it was first seen.
    pub at: Option<Millis>,
    /// Calls it made.
    pub calls: u32,
    /// Of those, calls whose result came and was recognized, by family: all
    /// the same family so far (`Some`), or not (`mixed`).
    pub family: Option<FamilyId>,
    /// Calls whose result was recognized by the step's family.
    pub recognized: u32,
    /// A call of the step was not one family's failure.
    pub mixed: bool,
}

impl Step {
    /// The family whose failures filled every one of this step's calls.
    pub fn wasted_on(&self) -> Option<FamilyId> {
        (!self.mixed && self.calls > 0 && self.recognized == self.calls)
            .then_some(self.family)
            .flatten()
    }
}

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
    pub withheld: Vec<WithheldAt>,
    pub withheld_reasons: Vec<String>,
    /// Failing calls before the first advisory already spoken, once one is.
    pub spoken_mark: Option<u64>,
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

/// One session being read.
pub struct Session {
    pub header: SessionHeader,
    pub calls: u64,
    pub pending: HashMap<String, Pending>,
    /// The pending calls in arrival order, `(seq, call)`; an entry whose
    /// call was settled since stays until it reaches the front or the queue
    /// is compacted.
    pending_order: VecDeque<(u64, String)>,
    /// What the pending calls keep, in bytes.
    pending_bytes: usize,
    /// The bound of `pending_bytes`.
    pending_max: usize,
    pub steps: HashMap<StepId, Step>,
    /// The steps in arrival order (a step leaves only by being settled,
    /// so the front is always the oldest).
    step_order: VecDeque<StepId>,
    pub families: Vec<(FamilyId, FamilyRun)>,
    /// The family of the latest recognized failure, for an advisory already spoken.
    pub last_family: Option<FamilyId>,
    /// Wasted output tokens by UTC day (see [`day_of`]) and family.
    pub wasted_by_day: Vec<(i64, FamilyId, u64)>,
    seq: u64,
}

impl Session {
    /// A session with nothing read yet; its pending calls keep at most
    /// `pending_max` bytes.
    pub fn new(header: SessionHeader, pending_max: usize) -> Self {
        Self {
            header,
            calls: 0,
            pending: HashMap::new(),
            pending_order: VecDeque::new(),
            pending_bytes: 0,
            pending_max,
            steps: HashMap::new(),
            step_order: VecDeque::new(),
            families: Vec::new(),
            last_family: None,
            wasted_by_day: Vec::new(),
            seq: 0,
        }
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The family's figures, created on first use.
    pub fn family(&mut self, family: FamilyId) -> &mut FamilyRun {
        let at = match self.families.iter().position(|(f, _)| *f == family) {
            Some(at) => at,
            None => {
                self.families.push((family, FamilyRun::default()));
                self.families.len() - 1
            }
        };
        &mut self.families[at].1
    }

    /// The step's figures, created on first use (settling the oldest when full).
    pub fn step(&mut self, step: StepId) -> &mut Step {
        if !self.steps.contains_key(&step) {
            if self.steps.len() >= STEPS_MAX {
                if let Some(oldest) = self.step_order.pop_front() {
                    if let Some(settled) = self.steps.remove(&oldest) {
                        self.settle(&settled);
                    }
                }
            }
            self.step_order.push_back(step);
            self.steps.insert(step, Step::default());
        }
        // Inserted above when it was missing.
        self.steps.entry(step).or_default()
    }

    /// A call arrived; what it keeps counts against the session's pending
    /// bytes, the oldest pending calls dropped to make room.
    pub fn call(&mut self, call: String, step: StepId, tool: String, arguments: Value) -> u64 {
        self.calls += 1;
        let index = self.calls;
        self.step(step).calls += 1;
        let text = arguments.to_string();
        let identity = identity(&tool, &text);
        // The call's id is held twice: in the map and in the order.
        let cost =
            |arguments: &str| 2 * call.len() + tool.len() + arguments.len() + PENDING_OVERHEAD;
        let arguments: Box<str> = if cost(&text) <= self.pending_max {
            text.into()
        } else {
            "null".into()
        };
        let bytes = cost(&arguments);
        if let Some(old) = self.pending.remove(&call) {
            self.pending_bytes -= old.bytes;
        }
        while self.pending.len() >= PENDING_CALLS_MAX
            || self.pending_bytes + bytes > self.pending_max
        {
            if !self.drop_oldest() {
                break;
            }
        }
        let seq = self.next_seq();
        self.pending_order.push_back((seq, call.clone()));
        self.pending_bytes += bytes;
        self.pending.insert(
            call,
            Pending {
                identity,
                tool,
                arguments,
                step,
                index,
                seq,
                bytes,
            },
        );
        self.compact();
        index
    }

    /// The pending call `call`, which is pending no more.
    pub fn settle_call(&mut self, call: &str) -> Option<Pending> {
        let pending = self.pending.remove(call)?;
        self.pending_bytes -= pending.bytes;
        self.compact();
        Some(pending)
    }

    /// Drops the oldest pending call; false when none is left.
    fn drop_oldest(&mut self) -> bool {
        while let Some((seq, call)) = self.pending_order.pop_front() {
            if self.pending.get(&call).is_some_and(|p| p.seq == seq) {
                if let Some(old) = self.pending.remove(&call) {
                    self.pending_bytes -= old.bytes;
                }
                return true;
            }
        }
        false
    }

    /// Forgets the order's entries of settled calls once they outnumber
    /// the pending ones, so the queue stays within about twice the pending
    /// calls.
    fn compact(&mut self) {
        if self.pending_order.len() > 2 * self.pending.len() + 64 {
            let pending = &self.pending;
            self.pending_order
                .retain(|(seq, call)| pending.get(call).is_some_and(|p| p.seq == *seq));
        }
    }

    /// A call's result was recognized by `family` (or by none).
    pub fn settled_in(&mut self, step: StepId, family: Option<FamilyId>) {
        let step = self.step(step);
        match (family, step.family) {
            (Some(f), None) if !step.mixed => {
                step.family = Some(f);
                step.recognized += 1;
            }
            (Some(f), Some(g)) if f == g => step.recognized += 1,
            _ => step.mixed = true,
        }
    }

    /// Folds a settled step into its family's figures.
    pub fn settle(&mut self, step: &Step) {
        if let Some(family) = step.wasted_on() {
            let run = self.family(family);
            run.wasted_steps += 1;
            run.wasted_output_tokens = run.wasted_output_tokens.saturating_add(step.usage.output);
            run.wasted_input_tokens = run.wasted_input_tokens.saturating_add(step.usage.input);
            if let Some(at) = step.at {
                let day = day_of(at);
                let full = self.wasted_by_day.len() >= DAYS_MAX;
                match self
                    .wasted_by_day
                    .iter_mut()
                    .find(|(d, f, _)| *d == day && *f == family)
                {
                    Some(entry) => entry.2 = entry.2.saturating_add(step.usage.output),
                    None if !full => self.wasted_by_day.push((day, family, step.usage.output)),
                    // Past the bound the day is left out of the timeline only.
                    None => {}
                }
            }
        }
    }
}

/// A call's identity: its tool and its arguments as compact JSON.
pub fn identity(tool: &str, arguments: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    tool.hash(&mut hasher);
    arguments.hash(&mut hasher);
    hasher.finish()
}

/// The UTC day number (days since 1970-01-01) of a time.
pub fn day_of(at: Millis) -> i64 {
    at.0.div_euclid(86_400_000)
}

#[cfg(test)]
mod tests;
