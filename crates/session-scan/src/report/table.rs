//! The terminal table.
//!
//! Plain ASCII layout, no colour codes. Every piece of text that came from a
//! file (paths, ids, summaries, reasons, family ids) goes through
//! [`visible`] first: control and bidi characters become `\u{..}` escapes, so
//! a crafted session id cannot move the cursor or inject terminal escapes,
//! and long text is cut to a fixed length.

use std::fmt::Write as _;

use super::words::plural;
pub use super::words::{duration, is_unsafe, thousands, visible};
use super::{FamilyCost, ReasonCount, Report, SessionCost, SessionFamily};

/// The most sessions listed one by one in the table.
pub const TOP_SESSIONS: usize = 20;
/// The most problems listed one by one in the table.
pub const TOP_PROBLEMS: usize = 20;

const CAP_FAMILY: usize = 32;
const CAP_ID: usize = 48;
/// Paths are shown whole (escaped), so they can be copied; this only bounds
/// a crafted one.
const CAP_PATH: usize = 4_096;
const CAP_TEXT: usize = 120;

/// The report as a plain-text table.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    header(&mut out, report);
    if report.families.is_empty() {
        let _ = writeln!(
            out,
            "\nNo sandbox failure was found in {} {}.",
            thousands(report.input.sessions),
            plural(report.input.sessions, "session", "sessions")
        );
    } else {
        families(&mut out, &report.families);
        sessions(&mut out, report);
    }
    problems(&mut out, report);
    out
}

fn header(out: &mut String, report: &Report) {
    let input = &report.input;
    let formats = if input.formats.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = input
            .formats
            .iter()
            .map(|f| format!("{} {}", f.format.as_str(), thousands(f.sessions)))
            .collect();
        format!(" ({})", list.join(", "))
    };
    let _ = writeln!(
        out,
        "Scanned {} {}, {} {}{}.\nCalls: {} ended, {} failed, {} unresolved; {} {}; days in {}.",
        thousands(input.files),
        plural(input.files, "file", "files"),
        thousands(input.sessions),
        plural(input.sessions, "session", "sessions"),
        formats,
        thousands(input.calls),
        thousands(input.failed_calls),
        thousands(input.unresolved_calls),
        thousands(input.problems_total),
        plural(input.problems_total, "problem", "problems"),
        visible(&input.timezone, CAP_FAMILY),
    );
    let t = &input.tokens;
    let _ = writeln!(
        out,
        "Tokens: {} ({} in, {} cache write, {} cache read, {} out).",
        thousands(t.total),
        thousands(t.input),
        thousands(t.cache_creation),
        thousands(t.cache_read),
        thousands(t.output),
    );
    if input.unjudged_results > 0 {
        let _ = writeln!(
            out,
            "{} shell {} not judged: the log keeps only their rendered text, and it did not say enough.",
            thousands(input.unjudged_results),
            plural(input.unjudged_results, "result", "results"),
        );
    }
    if input.marked_results > 0 {
        let _ = writeln!(
            out,
            "{} {} marked by the client as its sandbox's refusal (Gemini CLI's `sandbox_expansion_required`).",
            thousands(input.marked_results),
            plural(input.marked_results, "result", "results"),
        );
    }
}

fn families(out: &mut String, families: &[FamilyCost]) {
    let _ = writeln!(out, "\nPer family");
    let head = [
        "family", "sessions", "failing", "repeats", "steps", "out tok", "in tok", "wall", "speaks",
        "withheld", "spoken",
    ];
    let rows: Vec<Vec<String>> = families
        .iter()
        .map(|f| {
            let withheld = f
                .withheld
                .iter()
                .map(|w| w.calls)
                .fold(0u64, u64::saturating_add);
            vec![
                visible(&f.family, CAP_FAMILY),
                thousands(f.sessions),
                thousands(f.failing_calls),
                format!(
                    "{} ({})",
                    thousands(f.repeats),
                    thousands(f.identical_repeats)
                ),
                thousands(f.wasted_steps),
                thousands(f.wasted_output_tokens),
                thousands(f.wasted_input_tokens),
                duration(f.wall_ms),
                thousands(f.would_speak),
                thousands(withheld),
                format!(
                    "{} ({}/{})",
                    thousands(f.spoken.sessions),
                    thousands(f.spoken.calls_before),
                    thousands(f.spoken.calls_after)
                ),
            ]
        })
        .collect();
    grid(out, "  ", &head, &rows);
    for line in LEGEND {
        let _ = writeln!(out, "  {line}");
    }
    reasons(out, families, "withheld", |f| &f.withheld);
    reasons(out, families, "declined", |f| &f.declined);
}

/// What the columns mean (docs/scan/report.md says more).
const LEGEND: [&str; 4] = [
    "failing: calls it would speak for; repeats: failures after a session's first (identical);",
    "steps: model responses spent only on its failures, with their output and input tokens;",
    "wall: first failure to last; speaks: sessions it would speak in; withheld: calls it held back;",
    "spoken: sessions already advised (failures before/after). See docs/scan/report.md.",
];

/// Each family's `what` reasons, with their calls and sessions.
fn reasons(
    out: &mut String,
    families: &[FamilyCost],
    what: &str,
    of: fn(&FamilyCost) -> &[ReasonCount],
) {
    let lines: Vec<String> = families
        .iter()
        .filter(|f| !of(f).is_empty())
        .map(|f| {
            let list: Vec<String> = of(f)
                .iter()
                .map(|r| {
                    format!(
                        "{} {} ({})",
                        visible(&r.reason, CAP_FAMILY),
                        thousands(r.calls),
                        thousands(r.sessions)
                    )
                })
                .collect();
            format!("{}: {}", visible(&f.family, CAP_FAMILY), list.join(", "))
        })
        .collect();
    if !lines.is_empty() {
        let _ = writeln!(out, "  {what} by reason: calls (sessions)");
        for line in lines {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// The sessions in the order the table lists them: most wasted output tokens
/// first, then most failing calls, then by path.
pub fn ranked(sessions: &[SessionCost]) -> Vec<&SessionCost> {
    let mut ranked: Vec<&SessionCost> = sessions.iter().collect();
    ranked.sort_by(|a, b| {
        let key = |s: &SessionCost| {
            let sum = |figure: fn(&SessionFamily) -> u64| {
                s.families
                    .iter()
                    .map(figure)
                    .fold(0u64, u64::saturating_add)
            };
            (sum(|f| f.wasted_output_tokens), sum(|f| f.failing_calls))
        };
        key(b)
            .cmp(&key(a))
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.id.cmp(&b.id))
    });
    ranked
}

fn sessions(out: &mut String, report: &Report) {
    let ranked = ranked(&report.sessions);
    let shown = ranked.len().min(TOP_SESSIONS);
    let _ = writeln!(
        out,
        "\nTop sessions (by wasted output tokens, then failing calls)"
    );
    for (n, session) in ranked.iter().take(TOP_SESSIONS).enumerate() {
        let mut what = format!(
            "{}, {} {}",
            session.format.as_str(),
            thousands(session.calls),
            plural(session.calls, "call", "calls")
        );
        if session.subagent {
            what.push_str(", subagent");
        }
        if let Some(parent) = &session.parent {
            let _ = write!(what, ", from {}", visible(parent, CAP_ID));
        }
        let _ = writeln!(
            out,
            "{:>3}. {} ({what})\n     {}",
            n + 1,
            visible(&session.id, CAP_ID),
            visible(&session.path, CAP_PATH)
        );
        let head = [
            "family", "failing", "repeats", "steps", "out tok", "in tok", "wall",
        ];
        let rows: Vec<Vec<String>> = session.families.iter().map(session_row).collect();
        grid(out, "     ", &head, &rows);
        for family in &session.families {
            let name = visible(&family.family, CAP_FAMILY);
            if let Some(spoke) = &family.would_speak {
                let _ = writeln!(
                    out,
                    "     would speak for {name} at call #{}:\n       {}",
                    thousands(spoke.call_index),
                    visible(&spoke.summary, CAP_TEXT)
                );
            }
            for w in &family.withheld {
                let _ = writeln!(
                    out,
                    "     withheld for {name} at call #{}: {} ({})",
                    thousands(w.call_index),
                    visible(&w.reason, CAP_FAMILY),
                    visible(&w.why, CAP_TEXT)
                );
            }
            for d in &family.declined {
                let _ = writeln!(
                    out,
                    "     declined for {name} at call #{}: {}",
                    thousands(d.call_index),
                    visible(&d.reason, CAP_FAMILY)
                );
            }
            if let Some(spoken) = &family.spoken {
                let _ = writeln!(
                    out,
                    "     already spoken for {name}: failing calls {} before it, {} after",
                    thousands(spoken.calls_before),
                    thousands(spoken.calls_after)
                );
            }
        }
    }
    let more = (ranked.len() - shown) as u64 + report.sessions_left_out;
    if more > 0 {
        let _ = writeln!(
            out,
            "     and {} more {} with failures",
            thousands(more),
            plural(more, "session", "sessions")
        );
    }
}

fn session_row(f: &SessionFamily) -> Vec<String> {
    vec![
        visible(&f.family, CAP_FAMILY),
        thousands(f.failing_calls),
        format!(
            "{} ({})",
            thousands(f.repeats),
            thousands(f.identical_repeats)
        ),
        thousands(f.wasted_steps),
        thousands(f.wasted_output_tokens),
        thousands(f.wasted_input_tokens),
        duration(f.wall_ms),
    ]
}

fn problems(out: &mut String, report: &Report) {
    let input = &report.input;
    if input.problems_total == 0 && input.problems.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nProblems ({})", thousands(input.problems_total));
    for p in input.problems.iter().take(TOP_PROBLEMS) {
        let path = visible(&p.path.to_string_lossy(), CAP_PATH);
        let place = match p.line {
            Some(line) => format!("{path}:{line}"),
            None => path,
        };
        let stopped = if p.stopped {
            " (rest of file not read)"
        } else {
            ""
        };
        let _ = writeln!(out, "  {place} - {}{stopped}", visible(&p.what, CAP_TEXT));
    }
    let listed = input.problems.len().min(TOP_PROBLEMS) as u64;
    let total = input.problems_total.max(input.problems.len() as u64);
    if total > listed {
        let _ = writeln!(out, "  and {} more", thousands(total - listed));
    }
}

/// Lays rows out in columns: the first left-aligned, the rest right-aligned.
fn grid(out: &mut String, indent: &str, head: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        let mut text = String::from(indent);
        for (i, (cell, w)) in cells.zip(&widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            if i == 0 {
                text.push_str(cell);
                text.extend(std::iter::repeat_n(' ', pad));
            } else {
                text.push_str("  ");
                text.extend(std::iter::repeat_n(' ', pad));
                text.push_str(cell);
            }
        }
        let _ = writeln!(out, "{}", text.trim_end());
    };
    line(out, &mut head.iter().copied());
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(out, &mut rule.iter().map(String::as_str));
    for row in rows {
        line(out, &mut row.iter().map(String::as_str));
    }
}
