//! The self-contained HTML page: one file, no network, no script. The charts
//! are inline SVG drawn here; the tables hold the JSON's figures, each cell
//! tagged with `data-json` (the JSON pointer of its value), `data-field` and,
//! where it applies, `data-family`, so a test can read them back; the JSON
//! report itself is embedded as data (`<script type="application/json">`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::table::{ranked, thousands};
use super::{Report, SessionCost};

mod days;
mod svg;
mod tables;
use days::timeline_table;
use tables::{family_table, session_table};
mod text;

pub use text::colour;
use text::{day_number, day_text, esc};

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
    days::days_table(&mut page, report);
    page.push_str(text::WORDS);
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
        "<p class=\"summary\" id=\"input\">Read {} files, {} sessions{}: {} tool calls ended, {} of them failed by their own mark (an error result or a non-zero exit, whatever the cause), {} unresolved (still running, or no result); {} bytes decoded; {} problems; {} shell results the text could not be judged from. Sessions with failures not listed one by one: {}. Report schema {}.</p>",
        span("/input/files", "files", i.files),
        span("/input/sessions", "sessions", i.sessions),
        if formats.is_empty() {
            String::new()
        } else {
            format!(" ({})", formats.join(", "))
        },
        span("/input/calls", "calls", i.calls),
        span("/input/failed_calls", "failed_calls", i.failed_calls),
        span(
            "/input/unresolved_calls",
            "unresolved_calls",
            i.unresolved_calls
        ),
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
    let t = &i.tokens;
    let _ = writeln!(
        page,
        "<p class=\"summary\" id=\"tokens\">Tokens, every response once: {} ({} input, {} cache write, {} cache read, {} output), as ccusage counts them. Days are {}'s.</p>",
        span("/input/tokens/total", "total", t.total),
        span("/input/tokens/input", "input", t.input),
        span(
            "/input/tokens/cache_creation",
            "cache_creation",
            t.cache_creation
        ),
        span("/input/tokens/cache_read", "cache_read", t.cache_read),
        span("/input/tokens/output", "output", t.output),
        esc(&i.timezone, 64),
    );
    // Shown even at 0, as every figure of the JSON is: only Gemini CLI marks
    // a result, so 0 is the usual count for the other clients.
    let _ = writeln!(
        page,
        "<p class=\"summary\" id=\"marked\">Results the client marked as its sandbox's refusal (Gemini CLI's <code>sandbox_expansion_required</code>; the other clients mark none): {}.</p>",
        span("/input/marked_results", "marked_results", i.marked_results),
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
