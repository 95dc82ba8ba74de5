//! The figures of every session read, merged across workers and turned into
//! the [`Report`].

use std::collections::BTreeMap;

use advisor_core::FamilyId;

use super::session::Session;
use crate::model::{Format, Problem, Usage};
use crate::report::{
    DayCost, DayTokens, FamilyCost, FormatCount, InputSummary, PROBLEMS_LISTED_MAX, ReasonCount,
    Report, SCHEMA, SESSIONS_LISTED_MAX, SessionCost, SessionFamily, SpokenCount,
};

/// Everything counted so far. Bounded: per family and day a few counters,
/// at most [`SESSIONS_LISTED_MAX`] sessions and [`PROBLEMS_LISTED_MAX`]
/// problems kept (the first by path, so the listing is the same whatever the
/// order files were read in), every one counted.
#[derive(Debug, Default)]
pub struct Totals {
    /// Files read.
    pub files: u64,
    /// Decoded bytes read.
    pub decoded_bytes: u64,
    sessions: u64,
    formats: BTreeMap<Format, u64>,
    calls: u64,
    failed_calls: u64,
    unresolved_calls: u64,
    tokens: Usage,
    /// Tokens per day (at most one entry per day of 2000–2099, the readers'
    /// range, and one for responses without a time, which no day lists).
    day_tokens: BTreeMap<i64, Usage>,
    /// See [`crate::report::InputSummary::unjudged_results`].
    pub unjudged_results: u64,
    /// See [`crate::report::InputSummary::marked_results`].
    pub marked_results: u64,
    problems: BTreeMap<(String, u64, u64), Problem>,
    problems_total: u64,
    problem_seq: u64,
    families: Vec<(FamilyId, FamilyCost)>,
    listed: BTreeMap<(String, String, u64), SessionCost>,
    listed_seq: u64,
    with_failures: u64,
    days: BTreeMap<(i64, FamilyId), (u64, u64)>,
    /// Figures of days past the timeline's bound, written and never read.
    spilled: (u64, u64),
    timeline_left_out: u64,
}

/// The most (day, family) entries the timeline keeps: 20,000 (over 50 years
/// of every family); a recording's own times cannot grow it further.
pub const TIMELINE_MAX: usize = 20_000;

impl Totals {
    /// A result was read.
    pub fn calls_settled(&mut self, failed: bool) {
        self.calls += 1;
        if failed {
            self.failed_calls += 1;
        }
    }

    /// A response's tokens, on its day (a day number in the report's zone;
    /// `None` for a response without a time).
    pub fn tokens(&mut self, day: Option<i64>, usage: Usage) {
        self.tokens = self.tokens.plus(usage);
        let entry = self.day_tokens.entry(day.unwrap_or(i64::MIN)).or_default();
        *entry = entry.plus(usage);
    }

    /// The (failing calls, wasted output tokens) of a family on a day (a day
    /// number in the report's zone). Past [`TIMELINE_MAX`] entries a new day
    /// goes uncounted in the timeline (`timeline_left_out`; its figures still
    /// count everywhere else).
    pub fn day(&mut self, day: Option<i64>, family: FamilyId) -> &mut (u64, u64) {
        let day = day.unwrap_or(i64::MIN);
        if self.days.len() >= TIMELINE_MAX && !self.days.contains_key(&(day, family)) {
            self.timeline_left_out += 1;
            return &mut self.spilled;
        }
        self.days.entry((day, family)).or_default()
    }

    /// A problem.
    pub fn problem(&mut self, problem: Problem) {
        self.problems_total += 1;
        self.problem_seq += 1;
        let key = (
            problem.path.display().to_string(),
            problem.line.unwrap_or(0),
            self.problem_seq,
        );
        self.problems.insert(key, problem);
        if self.problems.len() > PROBLEMS_LISTED_MAX {
            self.problems.pop_last();
        }
    }

    fn family(&mut self, family: FamilyId) -> &mut FamilyCost {
        let at = match self.families.iter().position(|(f, _)| *f == family) {
            Some(at) => at,
            None => {
                self.families.push((
                    family,
                    FamilyCost {
                        family: family.as_str().to_owned(),
                        ..FamilyCost::default()
                    },
                ));
                self.families.len() - 1
            }
        };
        &mut self.families[at].1
    }

    /// A session that ended.
    pub(super) fn session(&mut self, session: Session) {
        self.sessions += 1;
        self.unresolved_calls += session.unresolved;
        *self.formats.entry(session.header.format).or_default() += 1;
        for (day, family, tokens) in &session.wasted_by_day {
            add(&mut self.day(Some(*day), *family).1, *tokens);
        }
        let mut families = Vec::new();
        for (family, run) in &session.families {
            if run.decided() == 0 {
                continue;
            }
            let wall_ms = run.wall_ms();
            let spoken = run.spoken();
            let cost = self.family(*family);
            cost.sessions += u64::from(run.failing_calls > 0);
            cost.failing_calls += run.failing_calls;
            cost.repeats += run.repeats;
            cost.identical_repeats += run.identical_repeats;
            cost.wasted_steps += run.wasted_steps;
            add(&mut cost.wasted_output_tokens, run.wasted_output_tokens);
            add(&mut cost.wasted_input_tokens, run.wasted_input_tokens);
            add(&mut cost.wall_ms, wall_ms);
            cost.would_speak += u64::from(run.would_speak.is_some());
            for (code, calls) in &run.withheld_calls {
                add_reason(&mut cost.withheld, code, *calls, 1);
            }
            for (code, calls) in &run.declined_calls {
                add_reason(&mut cost.declined, code, *calls, 1);
            }
            if let Some(spoken) = spoken {
                add_spoken(&mut cost.spoken, spoken);
            }
            families.push(SessionFamily {
                family: family.as_str().to_owned(),
                failing_calls: run.failing_calls,
                repeats: run.repeats,
                identical_repeats: run.identical_repeats,
                wasted_steps: run.wasted_steps,
                wasted_output_tokens: run.wasted_output_tokens,
                wasted_input_tokens: run.wasted_input_tokens,
                first_at: run.first_at,
                last_at: run.last_at,
                wall_ms,
                would_speak: run.would_speak.clone(),
                withheld_calls: run.withheld_calls.iter().map(|(_, n)| n).sum(),
                withheld: run.withheld.clone(),
                declined_calls: run.declined_calls.iter().map(|(_, n)| n).sum(),
                declined: run.declined.clone(),
                spoken,
            });
        }
        if families.is_empty() {
            return;
        }
        self.with_failures += 1;
        let header = session.header;
        let cost = SessionCost {
            path: header.path.display().to_string(),
            id: header.id,
            format: header.format,
            parent: header.parent,
            subagent: header.subagent,
            calls: session.calls,
            unresolved_calls: session.unresolved,
            tokens: session.tokens.into(),
            families,
        };
        self.listed_seq += 1;
        self.listed
            .insert((cost.path.clone(), cost.id.clone(), self.listed_seq), cost);
        if self.listed.len() > SESSIONS_LISTED_MAX {
            self.listed.pop_last();
        }
    }

    /// Adds another worker's figures.
    pub fn merge(&mut self, other: Totals) {
        self.files += other.files;
        add(&mut self.decoded_bytes, other.decoded_bytes);
        self.sessions += other.sessions;
        for (format, n) in other.formats {
            *self.formats.entry(format).or_default() += n;
        }
        self.calls += other.calls;
        self.failed_calls += other.failed_calls;
        self.unresolved_calls += other.unresolved_calls;
        self.tokens = self.tokens.plus(other.tokens);
        for (day, usage) in other.day_tokens {
            let entry = self.day_tokens.entry(day).or_default();
            *entry = entry.plus(usage);
        }
        self.unjudged_results += other.unjudged_results;
        self.marked_results += other.marked_results;
        self.problems_total += other.problems_total;
        for ((path, line, _), problem) in other.problems {
            self.problem_seq += 1;
            self.problems
                .insert((path, line, self.problem_seq), problem);
            if self.problems.len() > PROBLEMS_LISTED_MAX {
                self.problems.pop_last();
            }
        }
        for (family, cost) in other.families {
            let mine = self.family(family);
            mine.sessions += cost.sessions;
            mine.failing_calls += cost.failing_calls;
            mine.repeats += cost.repeats;
            mine.identical_repeats += cost.identical_repeats;
            mine.wasted_steps += cost.wasted_steps;
            add(&mut mine.wasted_output_tokens, cost.wasted_output_tokens);
            add(&mut mine.wasted_input_tokens, cost.wasted_input_tokens);
            add(&mut mine.wall_ms, cost.wall_ms);
            mine.would_speak += cost.would_speak;
            for r in cost.withheld {
                add_reason(&mut mine.withheld, &r.reason, r.calls, r.sessions);
            }
            for r in cost.declined {
                add_reason(&mut mine.declined, &r.reason, r.calls, r.sessions);
            }
            add_spoken(&mut mine.spoken, cost.spoken);
        }
        self.with_failures += other.with_failures;
        for ((path, id, _), cost) in other.listed {
            self.listed_seq += 1;
            self.listed.insert((path, id, self.listed_seq), cost);
            if self.listed.len() > SESSIONS_LISTED_MAX {
                self.listed.pop_last();
            }
        }
        self.timeline_left_out += other.timeline_left_out;
        for ((day, family), (calls, tokens)) in other.days {
            let mine = self.day((day != i64::MIN).then_some(day), family);
            add(&mut mine.0, calls);
            add(&mut mine.1, tokens);
        }
    }

    /// The report, its days UTC's; `order` lists the families in registry
    /// order.
    pub fn report(self, order: &[FamilyId]) -> Report {
        self.report_in(order, "UTC")
    }

    /// The report, its days named in `timezone`; `order` lists the
    /// families in registry order.
    pub fn report_in(mut self, order: &[FamilyId], timezone: &str) -> Report {
        self.families
            .sort_by_key(|(f, _)| order.iter().position(|o| o == f).unwrap_or(usize::MAX));
        for (_, cost) in &mut self.families {
            cost.withheld.sort_by(|a, b| a.reason.cmp(&b.reason));
            cost.declined.sort_by(|a, b| a.reason.cmp(&b.reason));
        }
        let listed = self.listed.len() as u64;
        Report {
            schema: SCHEMA,
            input: InputSummary {
                files: self.files,
                sessions: self.sessions,
                formats: self
                    .formats
                    .into_iter()
                    .map(|(format, sessions)| FormatCount { format, sessions })
                    .collect(),
                calls: self.calls,
                failed_calls: self.failed_calls,
                unresolved_calls: self.unresolved_calls,
                tokens: self.tokens.into(),
                timezone: timezone.to_owned(),
                decoded_bytes: self.decoded_bytes,
                problems: self.problems.into_values().collect(),
                problems_total: self.problems_total,
                unjudged_results: self.unjudged_results,
                marked_results: self.marked_results,
            },
            families: self.families.into_iter().map(|(_, c)| c).collect(),
            sessions: self.listed.into_values().collect(),
            sessions_left_out: self.with_failures - listed,
            timeline: self
                .days
                .into_iter()
                .filter(|((day, _), _)| *day != i64::MIN)
                .map(|((day, family), (calls, tokens))| DayCost {
                    day: date(day),
                    family: family.as_str().to_owned(),
                    failing_calls: calls,
                    wasted_output_tokens: tokens,
                })
                .collect(),
            days: self
                .day_tokens
                .into_iter()
                .filter(|(day, _)| *day != i64::MIN)
                .map(|(day, usage)| DayTokens {
                    day: date(day),
                    tokens: usage.into(),
                })
                .collect(),
        }
    }
}

/// Adds `calls` in `sessions` to `reason`'s count in `counts`.
fn add_reason(counts: &mut Vec<ReasonCount>, reason: &str, calls: u64, sessions: u64) {
    match counts.iter_mut().find(|r| r.reason == reason) {
        Some(count) => {
            count.calls += calls;
            count.sessions += sessions;
        }
        None => counts.push(ReasonCount {
            reason: reason.to_owned(),
            calls,
            sessions,
        }),
    }
}

/// Adds `more` to `total`, saturating: token counts and times come from the
/// recordings, and a recording may say anything (`u64::MAX` tokens per
/// response), so a total stops at the largest figure rather than wrapping.
fn add(total: &mut u64, more: u64) {
    *total = total.saturating_add(more);
}

fn add_spoken(total: &mut SpokenCount, more: SpokenCount) {
    total.sessions += more.sessions;
    total.calls_before += more.calls_before;
    total.calls_after += more.calls_after;
}

/// `YYYY-MM-DD` of a day number (days since 1970-01-01, proleptic Gregorian).
pub fn date(day: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::date;

    #[test]
    fn days_are_civil_dates() {
        for (day, want) in [
            (0, "1970-01-01"),
            (-1, "1969-12-31"),
            (20_468, "2026-01-15"),
            (11_016, "2000-02-29"),
        ] {
            assert_eq!(date(day), want, "day {day}");
        }
    }
}
