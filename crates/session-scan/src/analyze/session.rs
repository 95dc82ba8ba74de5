//! One session's running figures: its calls, its steps, and per family what
//! failed, what repeated, and where the advisor spoke or withheld.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

use advisor_core::FamilyId;
use serde_json::Value;

use super::family::FamilyRun;
use super::zone::Zone;
use crate::model::{Millis, SessionHeader, StepId, Usage};

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

/// The most (day, family) entries of wasted tokens one session keeps for the
/// timeline; a session spanning more days leaves the rest out of it (the
/// totals still count them).
pub const DAYS_MAX: usize = 366;

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
    /// A result said it was still running; it awaits the one that ends it.
    pub running: bool,
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
    /// Calls whose result the step's family would speak for.
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
    /// Wasted output tokens by day in the report's zone, and family.
    pub wasted_by_day: Vec<(i64, FamilyId, u64)>,
    /// Every response's tokens, copies of responses counted elsewhere left out.
    pub tokens: Usage,
    /// Calls whose result never settled them: none came, it said the call
    /// was still running, or the call was dropped past the pending bound.
    pub unresolved: u64,
    /// The days' zone.
    zone: Zone,
    seq: u64,
}

impl Session {
    /// A session with nothing read yet, its days UTC's.
    #[cfg(test)]
    pub fn new(header: SessionHeader, pending_max: usize) -> Self {
        Self::in_zone(header, pending_max, Zone::utc())
    }

    /// A session with nothing read yet, whose days are `zone`'s; its pending
    /// calls keep at most `pending_max` bytes.
    pub fn in_zone(header: SessionHeader, pending_max: usize, zone: Zone) -> Self {
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
            tokens: Usage::default(),
            unresolved: 0,
            zone,
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
                running: false,
            },
        );
        self.compact();
        index
    }

    /// A result said `call` is still running: it stays pending.
    pub fn still_running(&mut self, call: &str) {
        if let Some(pending) = self.pending.get_mut(call) {
            pending.running = true;
        }
    }

    /// The calls still pending when the session ends count as unresolved.
    pub fn close(&mut self) {
        self.unresolved += self.pending.len() as u64;
        self.pending.clear();
        self.pending_order.clear();
        self.pending_bytes = 0;
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
                    self.unresolved += 1;
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

    /// A call's result is a failure `family` would speak for (or nobody's).
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
            // Every input token the step sent: uncached, cache writes and reads.
            run.wasted_input_tokens = run.wasted_input_tokens.saturating_add(step.usage.prompt());
            if let Some(at) = step.at {
                let day = self.zone.day_of(at);
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

#[cfg(test)]
mod tests;
