//! The page's tables: families, sessions and the timeline's figures, each
//! cell tagged with the JSON pointer of the figure it shows.

use std::fmt::Write as _;

use super::super::Report;
use super::super::table::{duration, ranked, thousands};
use super::text::{esc, time_text};
use super::{CAP, colour, num, raw, span};

pub(super) fn family_table(page: &mut String, report: &Report) {
    page.push_str(concat!(
        "<h2>Families</h2>\n<table id=\"families\"><thead><tr>",
        "<th>family</th><th>sessions</th><th>failing calls</th><th>repeats</th>",
        "<th>identical repeats</th><th>wasted steps</th><th>wasted output tokens</th>",
        "<th>wasted input tokens</th><th>wall time</th><th>would speak (sessions)</th>",
        "<th>withheld and declined (calls in sessions, by reason)</th><th>already spoken (sessions)</th>",
        "<th>calls before it</th><th>calls after it</th></tr></thead><tbody>\n"
    ));
    for (i, f) in report.families.iter().enumerate() {
        let p = format!("/families/{i}");
        let fam = Some(f.family.as_str());
        let withheld: Vec<String> = f
            .withheld
            .iter()
            .enumerate()
            .map(|(j, w)| {
                format!(
                    r#"<li data-reason="{r}">{r}: {} calls in {}</li>"#,
                    span(&format!("{p}/withheld/{j}/calls"), "calls", w.calls),
                    span(
                        &format!("{p}/withheld/{j}/sessions"),
                        "sessions",
                        w.sessions
                    ),
                    r = esc(&w.reason, 200)
                )
            })
            .collect();
        let declined: Vec<String> = f
            .declined
            .iter()
            .enumerate()
            .map(|(j, d)| {
                format!(
                    r#"<li data-reason="{r}">declined, {r}: {} calls in {}</li>"#,
                    span(&format!("{p}/declined/{j}/calls"), "calls", d.calls),
                    span(
                        &format!("{p}/declined/{j}/sessions"),
                        "sessions",
                        d.sessions
                    ),
                    r = esc(&d.reason, 200)
                )
            })
            .collect();
        let withheld: Vec<String> = withheld.into_iter().chain(declined).collect();
        let _ = writeln!(
            page,
            r#"<tr data-family="{}"><th scope="row"><span class="sw" style="display:inline-block;width:10px;height:10px;background:{}"></span> {}</th>{}{}{}{}{}{}{}{}{}<td class="t" data-field="withheld">{}</td>{}{}{}</tr>"#,
            esc(&f.family, 200),
            colour(&f.family),
            esc(&f.family, 200),
            num(&format!("{p}/sessions"), "sessions", fam, f.sessions),
            num(
                &format!("{p}/failing_calls"),
                "failing_calls",
                fam,
                f.failing_calls
            ),
            num(&format!("{p}/repeats"), "repeats", fam, f.repeats),
            num(
                &format!("{p}/identical_repeats"),
                "identical_repeats",
                fam,
                f.identical_repeats
            ),
            num(
                &format!("{p}/wasted_steps"),
                "wasted_steps",
                fam,
                f.wasted_steps
            ),
            num(
                &format!("{p}/wasted_output_tokens"),
                "wasted_output_tokens",
                fam,
                f.wasted_output_tokens
            ),
            num(
                &format!("{p}/wasted_input_tokens"),
                "wasted_input_tokens",
                fam,
                f.wasted_input_tokens
            ),
            raw(
                &format!("{p}/wall_ms"),
                "wall_ms",
                fam,
                f.wall_ms as i64,
                &duration(f.wall_ms)
            ),
            num(
                &format!("{p}/would_speak"),
                "would_speak",
                fam,
                f.would_speak
            ),
            if withheld.is_empty() {
                "-".to_string()
            } else {
                format!("<ul>{}</ul>", withheld.concat())
            },
            num(
                &format!("{p}/spoken/sessions"),
                "spoken.sessions",
                fam,
                f.spoken.sessions
            ),
            num(
                &format!("{p}/spoken/calls_before"),
                "spoken.calls_before",
                fam,
                f.spoken.calls_before
            ),
            num(
                &format!("{p}/spoken/calls_after"),
                "spoken.calls_after",
                fam,
                f.spoken.calls_after
            ),
        );
    }
    page.push_str("</tbody></table>\n");
}

pub(super) fn session_table(page: &mut String, report: &Report) {
    let _ = writeln!(
        page,
        "<h2>Sessions</h2>\n<p>Most wasted output tokens first. {} more sessions with failures were not listed.</p>",
        thousands(report.sessions_left_out)
    );
    page.push_str(concat!(
        "<div class=\"scroll\"><table id=\"sessions\"><thead><tr><th>session</th><th>calls</th><th>family</th>",
        "<th>failing calls</th><th>repeats (identical)</th><th>wasted steps</th>",
        "<th>wasted output tokens</th><th>wasted input tokens</th><th>first failure, last (UTC)</th>",
        "<th>wall time</th><th>would speak</th><th>withheld, declined</th>",
        "<th>already spoken: calls before / after</th></tr></thead><tbody>\n"
    ));
    let order = ranked(&report.sessions);
    for s in order {
        let idx = report
            .sessions
            .iter()
            .position(|x| std::ptr::eq(x, s))
            .unwrap_or(0);
        let p = format!("/sessions/{idx}");
        let rows = s.families.len().max(1);
        let mut about = format!(
            "<code>{}</code><br>{}{}",
            esc(&s.id, CAP),
            esc(s.format.as_str(), 40),
            if s.subagent { ", subagent" } else { "" }
        );
        if let Some(parent) = &s.parent {
            let _ = write!(about, ", from <code>{}</code>", esc(parent, CAP));
        }
        let _ = write!(about, "<br><small>{}</small>", esc(&s.path, CAP));
        let _ = write!(
            about,
            "<br><small>{} unresolved; tokens {} ({} in, {} cache write, {} cache read, {} out)</small>",
            span(
                &format!("{p}/unresolved_calls"),
                "unresolved_calls",
                s.unresolved_calls
            ),
            span(&format!("{p}/tokens/total"), "total", s.tokens.total),
            span(&format!("{p}/tokens/input"), "input", s.tokens.input),
            span(
                &format!("{p}/tokens/cache_creation"),
                "cache_creation",
                s.tokens.cache_creation
            ),
            span(
                &format!("{p}/tokens/cache_read"),
                "cache_read",
                s.tokens.cache_read
            ),
            span(&format!("{p}/tokens/output"), "output", s.tokens.output),
        );
        let head = format!(
            r#"<td class="t" rowspan="{rows}" data-field="session">{about}</td><td class="n" rowspan="{rows}" data-json="{p}/calls" data-field="calls">{}</td>"#,
            thousands(s.calls)
        );
        if s.families.is_empty() {
            let _ = writeln!(
                page,
                r#"<tr data-session="{idx}">{head}<td colspan="11">-</td></tr>"#
            );
        }
        for (j, f) in s.families.iter().enumerate() {
            let q = format!("{p}/families/{j}");
            let fam = Some(f.family.as_str());
            // The first failure as `MM-DD HH:MM:SS`, the last as the time
            // alone when it is the same day; the full stamp in the tooltip.
            let first_day = f.first_at.map(|at| day_of(&time_text(at.0)).to_string());
            let time = |field: &str, at: Option<crate::model::Millis>| match at {
                Some(at) => {
                    let full = time_text(at.0);
                    let clock = full.get(11..19).unwrap_or(&full);
                    let short = full.get(5..19).unwrap_or(&full);
                    let shown = if field == "last_at" && first_day.as_deref() == Some(day_of(&full))
                    {
                        format!("to {clock}")
                    } else if field == "last_at" {
                        format!("to {short}")
                    } else {
                        short.to_string()
                    };
                    format!(
                        r#"<span data-json="{q}/{field}" data-field="{field}" data-value="{}" title="{full}">{shown}</span>"#,
                        at.0,
                    )
                }
                None => "-".to_string(),
            };
            let speak = match &f.would_speak {
                Some(w) => format!(
                    "at call #{} (<code>{}</code>{}): {}",
                    span(&format!("{q}/would_speak/call_index"), "would_speak.call_index", w.call_index),
                    esc(&w.call, 200),
                    w.at.map(|at| format!(
                        r#", <span data-json="{q}/would_speak/at" data-field="would_speak.at" data-value="{}">{}</span>"#,
                        at.0,
                        time_text(at.0)
                    ))
                    .unwrap_or_default(),
                    esc(&w.summary, CAP)
                ),
                None => "-".to_string(),
            };
            let withheld: Vec<String> = f
                .withheld
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    format!(
                        r#"<li data-reason="{}">call #{}: <code>{}</code>: {}</li>"#,
                        esc(&w.reason, 200),
                        span(
                            &format!("{q}/withheld/{k}/call_index"),
                            "withheld.call_index",
                            w.call_index
                        ),
                        esc(&w.reason, 200),
                        esc(&w.why, CAP)
                    )
                })
                .chain(f.declined.iter().enumerate().map(|(k, d)| {
                    format!(
                        r#"<li data-reason="{r}">call #{}: declined, <code>{r}</code></li>"#,
                        span(
                            &format!("{q}/declined/{k}/call_index"),
                            "declined.call_index",
                            d.call_index
                        ),
                        r = esc(&d.reason, 200),
                    )
                }))
                .collect();
            let withheld = {
                let mut cell = format!(
                    "{} withheld, {} declined",
                    span(
                        &format!("{q}/withheld_calls"),
                        "withheld_calls",
                        f.withheld_calls
                    ),
                    span(
                        &format!("{q}/declined_calls"),
                        "declined_calls",
                        f.declined_calls
                    ),
                );
                if !withheld.is_empty() {
                    let _ = write!(cell, "<ul>{}</ul>", withheld.concat());
                }
                cell
            };
            let spoken = match &f.spoken {
                Some(sp) => format!(
                    "{} / {}<br><small>in {} session</small>",
                    span(
                        &format!("{q}/spoken/calls_before"),
                        "spoken.calls_before",
                        sp.calls_before
                    ),
                    span(
                        &format!("{q}/spoken/calls_after"),
                        "spoken.calls_after",
                        sp.calls_after
                    ),
                    span(
                        &format!("{q}/spoken/sessions"),
                        "spoken.sessions",
                        sp.sessions
                    ),
                ),
                None => "-".to_string(),
            };
            let _ = writeln!(
                page,
                r#"<tr data-session="{idx}" data-family="{}">{}<td><span class="sw" style="display:inline-block;width:10px;height:10px;background:{}"></span> {}</td>{}<td class="n">{} ({})</td>{}{}{}<td class="n">{}<br>{}</td>{}<td class="t w" data-field="would_speak">{}</td><td class="t" data-field="withheld">{}</td><td class="t" data-field="spoken">{}</td></tr>"#,
                esc(&f.family, 200),
                if j == 0 { head.as_str() } else { "" },
                colour(&f.family),
                esc(&f.family, 200),
                num(
                    &format!("{q}/failing_calls"),
                    "failing_calls",
                    fam,
                    f.failing_calls
                ),
                span(&format!("{q}/repeats"), "repeats", f.repeats),
                span(
                    &format!("{q}/identical_repeats"),
                    "identical_repeats",
                    f.identical_repeats
                ),
                num(
                    &format!("{q}/wasted_steps"),
                    "wasted_steps",
                    fam,
                    f.wasted_steps
                ),
                num(
                    &format!("{q}/wasted_output_tokens"),
                    "wasted_output_tokens",
                    fam,
                    f.wasted_output_tokens
                ),
                num(
                    &format!("{q}/wasted_input_tokens"),
                    "wasted_input_tokens",
                    fam,
                    f.wasted_input_tokens
                ),
                time("first_at", f.first_at),
                time("last_at", f.last_at),
                raw(
                    &format!("{q}/wall_ms"),
                    "wall_ms",
                    fam,
                    f.wall_ms as i64,
                    &duration(f.wall_ms)
                ),
                speak,
                withheld,
                spoken,
            );
        }
    }
    page.push_str("</tbody></table></div>\n");
}

/// `YYYY-MM-DD` of a [`time_text`] stamp.
fn day_of(stamp: &str) -> &str {
    stamp.get(..10).unwrap_or(stamp)
}
