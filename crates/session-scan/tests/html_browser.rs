//! The HTML report opened in headless Chromium (#27): the charts render and
//! the tables hold the figures the JSON holds.
//!
//! Ignored by default; CI installs Debian's `chromium` and runs
//! `cargo test -p session-scan --test html_browser -- --ignored`.
//! `$CHROMIUM` names another binary. With `$SCAN_SCREENSHOT_OUT` set, the
//! screenshot is kept at `docs/scan/report.png` (the README shows it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

include!("fixtures/report/sample.rs");

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use session_scan::report::html;

const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
];

fn chromium() -> String {
    let bin = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string());
    assert!(
        Path::new(&bin).is_file(),
        "no Chromium at {bin}: install Debian's `chromium` (apt-get install -y --no-install-recommends chromium) or set $CHROMIUM to a Chromium binary"
    );
    bin
}

/// Runs Chromium once on `url` with a fresh profile directory.
fn run(bin: &str, extra: &[String], url: &str) -> Vec<u8> {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(bin)
        .args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("could not run {bin}: {e}"));
    assert!(
        out.status.success(),
        "{bin} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
#[ignore = "needs Chromium; CI runs it with -- --ignored"]
fn html_report_renders_in_chromium() {
    check(&sample(), false);
}

/// The scan of the bundled recordings (the README's example), rendered; with
/// `$SCAN_SCREENSHOT_OUT` set its screenshot becomes `docs/scan/report.png`,
/// the one the README shows.
#[test]
#[ignore = "needs Chromium; CI runs it with -- --ignored"]
fn the_bundled_scan_renders_in_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&root).unwrap();
    let paths = [
        "examples/transcripts".into(),
        "scan-fixtures/dsh-writer/out/zstd".into(),
    ];
    let report = session_scan::scan(
        &paths,
        session_scan::Options {
            assume: session_scan::Assume::default(),
            jobs: 1,
            progress: false,
            limits: session_scan::Limits::default(),
        },
    )
    .unwrap();
    assert!(report.families.len() >= 3, "{:?}", report.families);
    check(&report, true);
}

/// Opens the report's page in Chromium: the DOM holds the JSON's figures and
/// the screenshot each family's colour; `keep` copies the screenshot to
/// `docs/scan/report.png` when `$SCAN_SCREENSHOT_OUT` is set.
fn check(report: &Report, keep: bool) {
    let bin = chromium();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, html::render(report)).unwrap();
    let url = format!("file://{}", page.display());

    // The DOM: every tagged figure equals the JSON's, and every number in the
    // JSON is shown somewhere.
    let dom = String::from_utf8(run(&bin, &["--dump-dom".to_string()], &url)).unwrap();
    let json = serde_json::to_value(report).unwrap();
    let shown = figures(&dom);
    assert!(
        shown.len() > 50,
        "too few figures in the DOM: {}",
        shown.len()
    );
    for (pointer, (value, text)) in &shown {
        let want = json
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{pointer} is not in the JSON"));
        let want = want
            .as_i64()
            .unwrap_or_else(|| panic!("{pointer} is not a number in the JSON: {want}"));
        assert_eq!(*value, want, "{pointer}: the page shows {text:?}");
    }
    let mut numbers = BTreeSet::new();
    leaves(&json, String::new(), &mut numbers);
    let missing: Vec<&String> = numbers.iter().filter(|p| !shown.contains_key(*p)).collect();
    assert!(
        missing.is_empty(),
        "numbers in the JSON the page does not show: {missing:?}"
    );
    for f in &report.families {
        assert!(
            dom.contains(&format!(r#"data-family="{}""#, f.family)),
            "no cell for {}",
            f.family
        );
    }

    // The screenshot: the charts drew each family's colour in quantity.
    let png = dir.path().join("report.png");
    run(
        &bin,
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1280,2400".to_string(),
        ],
        &url,
    );
    let counts = colour_counts(&png);
    for f in &report.families {
        let colour = html::colour(&f.family);
        let rgb = hex(&colour);
        let n: u64 = counts
            .iter()
            .filter(|(c, _)| c.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 2))
            .map(|(_, n)| n)
            .sum();
        assert!(
            n >= 200,
            "{}: only {n} pixels of its colour {colour}",
            f.family
        );
    }
    if keep && std::env::var_os("SCAN_SCREENSHOT_OUT").is_some() {
        let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scan/report.png");
        std::fs::copy(&png, &out).unwrap();
    }
}

/// `data-json` pointer → (value, shown text) for every tagged element: the
/// number is `data-value` when present, else the text without separators.
fn figures(dom: &str) -> BTreeMap<String, (i64, String)> {
    let mut out = BTreeMap::new();
    for (at, _) in dom.match_indices("data-json=\"") {
        let tag_end = at + dom[at..].find('>').unwrap();
        let tag = &dom[at..tag_end];
        let pointer = attr(tag, "data-json").unwrap();
        let text_end = tag_end + dom[tag_end..].find('<').unwrap();
        let text = &dom[tag_end + 1..text_end];
        let value = match attr(tag, "data-value") {
            Some(v) => v.parse().unwrap(),
            None => text
                .replace(',', "")
                .parse()
                .unwrap_or_else(|_| panic!("{pointer}: {text:?} is not a number")),
        };
        let before = out.insert(pointer.to_string(), (value, text.to_string()));
        assert!(before.is_none(), "{pointer} is shown twice");
    }
    out
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
    Some(&tag[start..start + tag[start..].find('"')?])
}

fn leaves(v: &serde_json::Value, at: String, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Number(_) => {
            out.insert(at);
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(item, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                leaves(item, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

fn hex(colour: &str) -> [u8; 3] {
    let n = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// How many pixels of each colour the PNG holds.
fn colour_counts(path: &Path) -> BTreeMap<[u8; 3], u64> {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let mut counts = BTreeMap::new();
    for px in buf[..info.buffer_size()].chunks_exact(step) {
        *counts.entry([px[0], px[1], px[2]]).or_insert(0) += 1;
    }
    counts
}
