//! The self-contained HTML page: one file, no network, no script. The charts
//! are inline SVG drawn here; the tables hold the JSON's figures, each cell
//! tagged with `data-json` (the JSON pointer of its value), `data-field` and,
//! where it applies, `data-family`, so a test can read them back; the JSON
//! report itself is embedded as data (`<script type="application/json">`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::table::{duration, ranked, thousands};
use super::{Report, SessionCost};

mod svg;
mod text;

pub use text::colour;
use text::{day_number, day_text, esc, time_text};

/// How wide the charts are drawn, in CSS pixels.
const WIDTH: u32 = 1160;
/// The most sessions in the per-session chart.
const CHART_SESSIONS: usize = 20;
/// Long untrusted text is cut here in the tables.
const CAP: usize = 2000;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;color:#222;margin:24px;max-width:1232px}\
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\
.summary{color:#444}.legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin:12px 0}\
.legend span.sw{display:inline-block;width:16px;height:16px;vertical-align:-3px;margin-right:6px;border-radius:2px}\
table{border-collapse:collapse;margin:8px 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;vertical-align:top}\
th{background:#f3f3f3;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td.t{min-width:110px;max-width:420px;overflow-wrap:anywhere}td.w{min-width:180px}.scroll{overflow-x:auto}\
td ul{margin:0;padding-left:16px}#sessions{font-size:12px}#sessions td{padding:3px 5px}code{font-size:12px}\
svg.chart{display:block;margin:6px 0 16px}svg text{font:12px system-ui,sans-serif;fill:#222}\
svg text.ct{font-size:14px;font-weight:600}svg text.tick{fill:#555;font-size:11px}\
svg text.axis{fill:#333;font-size:12px}svg text.value{fill:#333;font-size:11px}\
.charts2{display:flex;gap:24px;flex-wrap:wrap}";

/// The report as one HTML file that needs no network.
pub fn render(report: &Report) -> String {
    let mut page = String::new();
    page.push_str(concat!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<title>sandbox-advisor scan: what sandbox failures cost</title>\n<style>"
    ));
    page.push_str(STYLE);
    page.push_str("</style>\n</head>\n<body>\n");
    page.push_str("<h1>What sandbox failures cost</h1>\n");
    summary(&mut page, report);
    if report.families.is_empty() {
        let _ = writeln!(
            page,
            "<p id=\"nothing\">No sandbox failure was found in {} sessions.</p>",
            thousands(report.input.sessions)
        );
    } else {
        legend(&mut page, report);
        charts(&mut page, report);
        family_table(&mut page, report);
        session_table(&mut page, report);
        timeline_table(&mut page, report);
    }
    problems(&mut page, report);
    embedded_json(&mut page, report);
    page.push_str("</body>\n</html>\n");
    page
}

/// A numeric cell: the value shown with separators, its JSON pointer and
/// field name as attributes.
fn num(ptr: &str, field: &str, family: Option<&str>, value: u64) -> String {
    format!(
        r#"<td class="n" data-json="{ptr}" data-field="{field}"{}>{}</td>"#,
        family_attr(family),
        thousands(value)
    )
}

/// A cell whose text is a rendering (a duration, a time): the raw number
/// is in `data-value`.
fn raw(ptr: &str, field: &str, family: Option<&str>, value: i64, shown: &str) -> String {
    format!(
        r#"<td class="n" data-json="{ptr}" data-field="{field}"{} data-value="{value}">{}</td>"#,
        family_attr(family),
        esc(shown, 100)
    )
}

fn family_attr(family: Option<&str>) -> String {
    family
        .map(|f| format!(r#" data-family="{}""#, esc(f, 200)))
        .unwrap_or_default()
}

fn span(ptr: &str, field: &str, value: u64) -> String {
    format!(
        r#"<span data-json="{ptr}" data-field="{field}">{}</span>"#,
        thousands(value)
    )
}

fn summary(page: &mut String, report: &Report) {
    let i = &report.input;
    let formats: Vec<String> = i
        .formats
        .iter()
        .enumerate()
        .map(|(n, f)| {
            format!(
                "{} {}",
                esc(f.format.as_str(), 40),
                span(
                    &format!("/input/formats/{n}/sessions"),
                    "sessions",
                    f.sessions
                )
            )
        })
        .collect();
    let _ = writeln!(
        page,
        "<p class=\"summary\" id=\"input\">Read {} files, {} sessions{}: {} tool calls, {} failed by their own mark; {} bytes decoded; {} problems; {} shell results the text could not be judged from. Sessions with failures not listed one by one: {}. Report schema {}.</p>",
        span("/input/files", "files", i.files),
        span("/input/sessions", "sessions", i.sessions),
        if formats.is_empty() {
            String::new()
        } else {
            format!(" ({})", formats.join(", "))
        },
        span("/input/calls", "calls", i.calls),
        span("/input/failed_calls", "failed_calls", i.failed_calls),
        span("/input/decoded_bytes", "decoded_bytes", i.decoded_bytes),
        span("/input/problems_total", "problems_total", i.problems_total),
        span(
            "/input/unjudged_results",
            "unjudged_results",
            i.unjudged_results
        ),
        span(
            "/sessions_left_out",
            "sessions_left_out",
            report.sessions_left_out
        ),
        span("/schema", "schema", u64::from(report.schema)),
    );
}

/// Every family in the report: the family table's, then any only in
/// sessions or the timeline, in first-seen order.
fn all_families(report: &Report) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let names = report
        .families
        .iter()
        .map(|f| f.family.as_str())
        .chain(
            report
                .sessions
                .iter()
                .flat_map(|s| s.families.iter().map(|f| f.family.as_str())),
        )
        .chain(report.timeline.iter().map(|d| d.family.as_str()));
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn legend(page: &mut String, report: &Report) {
    page.push_str("<div class=\"legend\" id=\"legend\">");
    for family in all_families(report) {
        let _ = write!(
            page,
            r#"<span data-family="{f}" data-colour="{c}"><span class="sw" style="background:{c}"></span>{f}</span>"#,
            f = esc(family, 200),
            c = colour(family)
        );
    }
    page.push_str("</div>\n");
}

fn charts(page: &mut String, report: &Report) {
    page.push_str("<h2>Waste per family</h2>\n<div class=\"charts2\">");
    let half = WIDTH / 2 - 12;
    let tokens: Vec<svg::Bar<'_>> = report
        .families
        .iter()
        .map(|f| svg::Bar {
            label: &f.family,
            detail: String::new(),
            segments: vec![svg::Segment {
                family: &f.family,
                value: f.wasted_output_tokens,
            }],
        })
        .collect();
    page.push_str(&svg::bars(
        "chart-family-tokens",
        "Wasted output tokens per family",
        "output tokens in steps whose every call failed",
        half,
        &tokens,
    ));
    let calls: Vec<svg::Bar<'_>> = report
        .families
        .iter()
        .map(|f| svg::Bar {
            label: &f.family,
            detail: String::new(),
            segments: vec![svg::Segment {
                family: &f.family,
                value: f.failing_calls,
            }],
        })
        .collect();
    page.push_str(&svg::bars(
        "chart-family-calls",
        "Failing calls per family",
        "failing calls",
        half,
        &calls,
    ));
    page.push_str("</div>\n");

    let top: Vec<&SessionCost> = ranked(&report.sessions)
        .into_iter()
        .take(CHART_SESSIONS)
        .collect();
    let bars: Vec<svg::Bar<'_>> = top
        .iter()
        .map(|s| svg::Bar {
            label: &s.id,
            detail: format!("{} ({})", s.path, s.format.as_str()),
            segments: s
                .families
                .iter()
                .map(|f| svg::Segment {
                    family: &f.family,
                    value: f.wasted_output_tokens,
                })
                .collect(),
        })
        .collect();
    let _ = writeln!(
        page,
        "<h2>Per session</h2>\n<p>The {} sessions with the most wasted output tokens (of {} listed), stacked by family.</p>",
        top.len(),
        thousands(report.sessions.len() as u64)
    );
    page.push_str(&svg::bars(
        "chart-sessions",
        "Wasted output tokens per session",
        "output tokens in steps whose every call failed",
        WIDTH,
        &bars,
    ));

    page.push_str("\n<h2>Over time</h2>\n");
    page.push_str(&svg::columns(
        "chart-timeline",
        "Failing calls per day, stacked by family",
        "failing calls",
        WIDTH,
        &days(report),
    ));
    page.push('\n');
}

/// The timeline as one column per day; the days between the first and the
/// last are filled in (empty) when the span is at most a year.
fn days(report: &Report) -> Vec<svg::Column<'_>> {
    let mut by_day: BTreeMap<&str, Vec<svg::Segment<'_>>> = BTreeMap::new();
    for d in &report.timeline {
        by_day.entry(&d.day).or_default().push(svg::Segment {
            family: &d.family,
            value: d.failing_calls,
        });
    }
    let numbers: Option<Vec<i64>> = by_day.keys().map(|d| day_number(d)).collect();
    let span = numbers
        .as_ref()
        .and_then(|n| Some((*n.first()?, *n.last()?)));
    match span {
        Some((first, last)) if last - first <= 366 => (first..=last)
            .map(|n| {
                let day = day_text(n);
                let segments = by_day.remove(day.as_str()).unwrap_or_default();
                svg::Column { day, segments }
            })
            .collect(),
        _ => by_day
            .into_iter()
            .map(|(day, segments)| svg::Column {
                day: day.to_string(),
                segments,
            })
            .collect(),
    }
}

fn family_table(page: &mut String, report: &Report) {
    page.push_str(concat!(
        "<h2>Families</h2>\n<table id=\"families\"><thead><tr>",
        "<th>family</th><th>sessions</th><th>failing calls</th><th>repeats</th>",
        "<th>identical repeats</th><th>wasted steps</th><th>wasted output tokens</th>",
        "<th>wasted input tokens</th><th>wall time</th><th>would speak (sessions)</th>",
        "<th>withheld (sessions, by reason)</th><th>already spoken (sessions)</th>",
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
                    r#"<li data-reason="{r}">{r}: {}</li>"#,
                    span(
                        &format!("{p}/withheld/{j}/sessions"),
                        "sessions",
                        w.sessions
                    ),
                    r = esc(&w.reason, 200)
                )
            })
            .collect();
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

fn session_table(page: &mut String, report: &Report) {
    let _ = writeln!(
        page,
        "<h2>Sessions</h2>\n<p>Most wasted output tokens first. {} more sessions with failures were not listed.</p>",
        thousands(report.sessions_left_out)
    );
    page.push_str(concat!(
        "<div class=\"scroll\"><table id=\"sessions\"><thead><tr><th>session</th><th>calls</th><th>family</th>",
        "<th>failing calls</th><th>repeats (identical)</th><th>wasted steps</th>",
        "<th>wasted output tokens</th><th>wasted input tokens</th><th>first failure, last (UTC)</th>",
        "<th>wall time</th><th>would speak</th><th>withheld</th>",
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
                .collect();
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
                if withheld.is_empty() {
                    "-".to_string()
                } else {
                    format!("<ul>{}</ul>", withheld.concat())
                },
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

fn timeline_table(page: &mut String, report: &Report) {
    page.push_str(concat!(
        "<details><summary>Per day and family (the chart's figures)</summary>",
        "<table id=\"timeline\"><thead><tr><th>day (UTC)</th><th>family</th>",
        "<th>failing calls</th><th>wasted output tokens</th></tr></thead><tbody>\n"
    ));
    for (i, d) in report.timeline.iter().enumerate() {
        let fam = Some(d.family.as_str());
        let _ = writeln!(
            page,
            r#"<tr data-family="{}"><td>{}</td><td>{}</td>{}{}</tr>"#,
            esc(&d.family, 200),
            esc(&d.day, 40),
            esc(&d.family, 200),
            num(
                &format!("/timeline/{i}/failing_calls"),
                "failing_calls",
                fam,
                d.failing_calls
            ),
            num(
                &format!("/timeline/{i}/wasted_output_tokens"),
                "wasted_output_tokens",
                fam,
                d.wasted_output_tokens
            ),
        );
    }
    page.push_str("</tbody></table></details>\n");
}

fn problems(page: &mut String, report: &Report) {
    let i = &report.input;
    if i.problems.is_empty() && i.problems_total == 0 {
        return;
    }
    let _ = writeln!(
        page,
        "<h2>Problems</h2>\n<p>{} files or lines could not be read.</p>\n<ul id=\"problems\">",
        thousands(i.problems_total)
    );
    for (n, p) in i.problems.iter().enumerate() {
        let line = p
            .line
            .map(|l| format!(":{}", span(&format!("/input/problems/{n}/line"), "line", l)))
            .unwrap_or_default();
        let _ = writeln!(
            page,
            "<li data-problem=\"{n}\"><code>{}</code>{line}: {}{}</li>",
            esc(&p.path.to_string_lossy(), CAP),
            esc(&p.what, CAP),
            if p.stopped {
                " (the rest of the file was not read)"
            } else {
                ""
            }
        );
    }
    let more = i.problems_total.saturating_sub(i.problems.len() as u64);
    if more > 0 {
        let _ = writeln!(page, "<li>and {} more</li>", thousands(more));
    }
    page.push_str("</ul>\n");
}

/// The JSON report as data. Every `<` (only ever inside a JSON string) is
/// written `\u003c`, still the same JSON: a stronger form of escaping `</`
/// as `<\/`, so the text can neither end the element nor, with `<!--` and
/// `<script`, switch the parser into a script-escape state.
fn embedded_json(page: &mut String, report: &Report) {
    let json = serde_json::to_string(report).unwrap_or_else(|_| "null".to_string());
    let json = json.replace('<', "\\u003c");
    let _ = writeln!(
        page,
        "<script type=\"application/json\" id=\"report-data\">{json}</script>"
    );
}
