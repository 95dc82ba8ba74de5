//! The page's tables over days: the timeline's figures and every session's
//! tokens per day, each cell tagged with the JSON pointer of its figure.

use std::fmt::Write as _;

use super::super::Report;
use super::num;
use super::text::esc;

pub(super) fn timeline_table(page: &mut String, report: &Report) {
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

/// Every session's tokens per day, in the report's zone.
pub(super) fn days_table(page: &mut String, report: &Report) {
    if report.days.is_empty() {
        return;
    }
    let _ = writeln!(
        page,
        "<h2>Tokens per day</h2>\n<p>Every response once, days in {}, as <code>ccusage daily</code> counts them.</p>\n<table id=\"days\"><thead><tr><th>day</th><th>total</th><th>input</th><th>cache write</th><th>cache read</th><th>output</th></tr></thead><tbody>",
        esc(&report.input.timezone, 64)
    );
    for (i, d) in report.days.iter().enumerate() {
        let p = format!("/days/{i}/tokens");
        let _ = writeln!(
            page,
            "<tr><td>{}</td>{}{}{}{}{}</tr>",
            esc(&d.day, 16),
            num(&format!("{p}/total"), "total", None, d.tokens.total),
            num(&format!("{p}/input"), "input", None, d.tokens.input),
            num(
                &format!("{p}/cache_creation"),
                "cache_creation",
                None,
                d.tokens.cache_creation
            ),
            num(
                &format!("{p}/cache_read"),
                "cache_read",
                None,
                d.tokens.cache_read
            ),
            num(&format!("{p}/output"), "output", None, d.tokens.output),
        );
    }
    page.push_str("</tbody></table>\n");
}
