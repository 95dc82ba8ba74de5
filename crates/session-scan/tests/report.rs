//! The table and the HTML page, rendered from hand-built reports
//! (`fixtures/report/sample.rs`): snapshots of the table, and the escapes
//! hostile text needs in both.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

include!("fixtures/report/sample.rs");

use session_scan::report::{html, table};

/// One case: the report, its name, and what must (and must not) appear.
struct Case {
    name: &'static str,
    report: Report,
    table_has: &'static [&'static str],
    html_has: &'static [&'static str],
}

fn check(case: Case) {
    let text = table::render(&case.report);
    insta::assert_snapshot!(format!("table_{}", case.name), text);
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{}: raw control character in the table",
        case.name
    );
    assert!(
        !text.contains('\u{202e}'),
        "{}: bidi override in the table",
        case.name
    );
    for want in case.table_has {
        assert!(
            text.contains(want),
            "{}: table lacks {want:?}:\n{text}",
            case.name
        );
    }

    let page = html::render(&case.report);
    assert!(!page.contains('\x1b'), "{}: raw ESC in the page", case.name);
    assert!(page.contains(
        r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"#
    ));
    // The only script element is the JSON block, and it is data.
    let lower = page.to_ascii_lowercase();
    assert_eq!(
        lower.matches("<script").count(),
        1,
        "{}: a second <script",
        case.name
    );
    assert_eq!(
        lower.matches("</script").count(),
        1,
        "{}: a second </script",
        case.name
    );
    assert!(lower.contains(r#"<script type="application/json" id="report-data">"#));
    // Injected markup only ever appears escaped: no tag it opens exists.
    for bad in ["<img", "<svg onload", "<b>", "<i>"] {
        assert!(
            !lower.contains(bad),
            "{}: raw {bad:?} in the page",
            case.name
        );
    }
    for url in page
        .match_indices("http:")
        .chain(page.match_indices("https:"))
        .map(|(i, _)| &page[i..(i + 30).min(page.len())])
    {
        assert!(
            url.starts_with("http://www.w3.org/2000/svg"),
            "{}: a URL other than the SVG namespace: {url}",
            case.name
        );
    }
    for want in case.html_has {
        assert!(page.contains(want), "{}: page lacks {want:?}", case.name);
    }

    // The embedded JSON is the report itself.
    let start = page.find(r#"id="report-data">"#).unwrap() + r#"id="report-data">"#.len();
    let end = start + page[start..].find("</script>").unwrap();
    let embedded: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(
        embedded,
        serde_json::to_value(&case.report).unwrap(),
        "{}",
        case.name
    );
}

#[test]
fn empty_report() {
    check(Case {
        name: "empty",
        report: empty(),
        table_has: &["No sandbox failure was found in 7 sessions."],
        html_has: &["No sandbox failure was found in 7 sessions."],
    });
}

#[test]
fn sample_report() {
    check(Case {
        name: "sample",
        report: sample(),
        table_has: &["1,606,997", "3m 12s", "1h 02m", "call #3"],
        html_has: &[
            r#"<td class="n" data-json="/families/0/failing_calls" data-field="failing_calls" data-family="acl-provisioning">19</td>"#,
            r#"id="chart-family-tokens""#,
            r#"id="chart-sessions""#,
            r#"id="chart-timeline""#,
            // The words explained, and the figures ccusage can check.
            r#"<dt>wasted steps</dt>"#,
            r#"<dt>would speak</dt>"#,
            r#"<dt>failed by their own mark</dt>"#,
            "docs/scan/report.md",
            r#"data-json="/input/tokens/total""#,
            r#"data-json="/input/unresolved_calls""#,
        ],
    });
}

/// The table fits a 120-column terminal wherever it prints its own words
/// and figures (issue 39: it was 174 wide); only text from the files (a
/// summary line, a path) may run longer, and a path is never cut short.
#[test]
fn the_table_is_narrow_and_paths_whole() {
    let mut report = sample();
    let long = format!("/home/ana/{}/session.jsonl", "deep/".repeat(30));
    report.sessions[0].path = long.clone();
    let text = table::render(&report);
    let from_files = |line: &str| line.starts_with("       ") || line.trim_start().starts_with('/');
    for line in text.lines().filter(|l| !from_files(l)) {
        assert!(
            line.chars().count() <= 120,
            "{} wide: {line}",
            line.chars().count()
        );
    }
    assert!(text.contains(&long), "the path is cut:\n{text}");
}

#[test]
fn hostile_text() {
    check(Case {
        name: "hostile",
        report: hostile(),
        table_has: &[
            "evil\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\u{d}\\u{202e}id",
            "</script><script>",
        ],
        html_has: &[
            "evil\\u{1b}[2J",
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;quoted&#39;",
            "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
            r#"data-family="fam&quot;ily&lt;b&gt;\u{1b}[1m""#,
            "\\u003c/script>\\u003cscript>alert(2)\\u003c/script> \\u003c!-- x",
        ],
    });
}

#[test]
fn many_problems_are_cut_at_twenty() {
    let mut r = sample();
    r.input.problems = (1..=25)
        .map(|n| problem("/x.jsonl", Some(n), "line is not JSON", false))
        .collect();
    r.input.problems_total = 31;
    let text = table::render(&r);
    assert!(text.contains("/x.jsonl:20 - line is not JSON"));
    assert!(!text.contains("/x.jsonl:21 "));
    assert!(text.contains("  and 11 more"));
}

#[test]
fn long_cells_are_ellipsized() {
    let mut r = sample();
    r.sessions[0].id = "x".repeat(500);
    let text = table::render(&r);
    assert!(text.contains(&format!("{}...", "x".repeat(45))));
    assert!(!text.contains(&"x".repeat(49)));
}

#[test]
fn family_colours_are_fixed_by_id() {
    let a = html::colour("acl-provisioning");
    assert_eq!(a, html::colour("acl-provisioning"));
    assert_ne!(a, html::colour("temp-root-inside-workspace"));
    assert!(a.starts_with('#') && a.len() == 7);
}

/// Every key the JSON report can hold, in the sample (which fills every
/// field), is the one `docs/scan/report.md` documents, and the other way round.
#[test]
fn the_documented_schema_is_the_serialized_one() {
    fn keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.insert(k.clone());
                    keys(v, out);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
            _ => {}
        }
    }
    let mut serialized = std::collections::BTreeSet::new();
    keys(&serde_json::to_value(sample()).unwrap(), &mut serialized);
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scan/report.md"),
    )
    .unwrap();
    let schema = doc
        .split("## The JSON report")
        .nth(1)
        .and_then(|section| section.split("```text\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the schema block");
    let documented: std::collections::BTreeSet<String> = schema
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    assert_eq!(documented, serialized, "docs/scan/report.md's schema block");
}
