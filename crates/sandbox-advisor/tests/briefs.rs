//! Issue 15 over the bundled sessions: every advisory's brief fits the budget
//! in both locales, `detail` and `diagnosis` are always there, and
//! `--locale zh-CN` gives every family a Chinese brief.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use advisor_core::brief::BriefSize;
use advisor_core::testing::has_chinese;
use common::{run, sessions_dir};
use serde_json::Value;

/// Every advisory of every bundled session, replayed in `locale`.
fn advisories(locale: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut sessions: Vec<_> = std::fs::read_dir(sessions_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    sessions.sort();
    for session in sessions {
        let path = session.to_str().unwrap();
        let replay = run(
            &["--locale", locale, "replay", path, "--format", "json"],
            "",
        );
        assert!(replay.code <= 1, "{path}: {}", replay.stderr);
        for line in replay.json() {
            if let Some(list) = line["advisories"].as_array() {
                out.extend(list.iter().cloned());
            }
        }
    }
    out
}

#[test]
fn every_brief_fits_and_carries_detail_and_diagnosis_in_both_locales() {
    for locale in ["en", "zh-CN"] {
        let all = advisories(locale);
        assert!(!all.is_empty(), "the bundled sessions advise");
        for a in &all {
            let family = a["family"].as_str().unwrap();
            let text = a["text"].as_str().unwrap();
            let size = BriefSize::of(text);
            assert!(
                size.fits(),
                "{locale} {family}: {size:?} is over budget:\n{text}"
            );
            assert!(
                !a["detail"].as_str().unwrap().is_empty(),
                "{family}: detail"
            );
            assert!(
                a["diagnosis"]["category"].as_str().is_some(),
                "{family}: diagnosis"
            );
            assert_ne!(
                a["diagnosis"]["category"], "unclassified",
                "{family}: its own diagnosis"
            );
        }
    }
}

#[test]
fn zh_cn_gives_every_family_a_chinese_summary_and_brief_and_an_english_detail() {
    let all = advisories("zh-CN");
    let mut seen = BTreeSet::new();
    for a in &all {
        let family = a["family"].as_str().unwrap();
        seen.insert(family.to_owned());
        assert!(
            has_chinese(a["summary"].as_str().unwrap()),
            "{family}: summary not in Chinese"
        );
        assert!(
            has_chinese(a["text"].as_str().unwrap()),
            "{family}: brief not in Chinese"
        );
        assert!(
            !has_chinese(a["detail"].as_str().unwrap()) || family == "cim-wmi-denial",
            "{family}: detail is English (except quoted 拒绝访问 evidence)"
        );
    }
    let english = advisories("en");
    let spoken: BTreeSet<String> = english
        .iter()
        .map(|a| a["family"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        seen, spoken,
        "every family that speaks in English speaks in Chinese"
    );
    for a in &english {
        assert!(
            !has_chinese(a["summary"].as_str().unwrap()),
            "{}: English summary",
            a["family"]
        );
    }
}

/// `explain` prints the brief, and the full account after it only with
/// `--detail`, as `replay` does (issue 29); without it, one line says how.
#[test]
fn explain_prints_the_brief_then_with_detail_the_full_account_and_full_text_is_configurable() {
    let message = "PTY shell exited during startup";
    let hint = sandbox_advisor::explain::FULL_ACCOUNT_HINT;
    for (extra, full) in [(None, false), (Some("--detail"), true)] {
        let mut args = vec!["explain", "--mode", "workspace-write", "--electron"];
        args.extend(extra);
        args.push(message);
        let out = run(&args, "");
        assert_eq!(out.code, 0, "{}", out.stderr);
        let brief_at = out.stdout.find("recognizes this and speaks").unwrap();
        match out.stdout.find("the full account (`detail`)") {
            Some(detail_at) => assert!(full && brief_at < detail_at, "{}", out.stdout),
            None => assert!(!full && out.stdout.contains(hint), "{}", out.stdout),
        }
        assert_eq!(out.stdout.contains(hint), !full, "{}", out.stdout);
    }

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("full.json");
    std::fs::write(&config, r#"{"advisoryText": "full"}"#).unwrap();
    let json = |extra: &[&str]| {
        let mut args = vec!["explain", "--format", "json", "--mode", "workspace-write"];
        args.extend_from_slice(extra);
        args.push(message);
        let out = run(&args, "");
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.json()[0]["advisories"][0].clone()
    };
    let brief = json(&[]);
    assert_ne!(
        brief["text"], brief["detail"],
        "the brief is not the detail"
    );
    let full = json(&["--config", config.to_str().unwrap()]);
    assert_eq!(
        full["text"], full["detail"],
        "advisoryText full gives the detail"
    );
    assert_eq!(full["detail"], brief["detail"]);
}

#[test]
fn a_bad_locale_is_a_usage_error() {
    let out = run(&["--locale", "fr", "families"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown locale `fr`"), "{}", out.stderr);
}

/// Approximate tokens: ASCII at four characters a token, anything else one each.
fn tokens(text: &str) -> usize {
    let ascii = text.chars().filter(char::is_ascii).count();
    ascii.div_ceil(4) + (text.chars().count() - ascii)
}

/// The table in BENCHMARKS.md: the largest brief and detail per family over the
/// bundled sessions, in characters and approximate tokens
/// (`cargo test -p sandbox-advisor --test briefs -- --ignored --nocapture`).
#[test]
#[ignore = "prints BENCHMARKS.md's table of advisory sizes"]
fn brief_and_detail_sizes() {
    let mut rows: std::collections::BTreeMap<String, [usize; 7]> = Default::default();
    for (locale, at) in [("en", 0), ("zh-CN", 4)] {
        for a in advisories(locale) {
            let row = rows
                .entry(a["family"].as_str().unwrap().to_owned())
                .or_default();
            let text = a["text"].as_str().unwrap();
            let detail = a["detail"].as_str().unwrap();
            let size = BriefSize::of(text);
            if at == 0 {
                row[0] = row[0].max(size.total);
                row[1] = row[1].max(size.prose);
                row[2] = row[2].max(detail.chars().count());
                row[3] = row[3].max(tokens(detail));
                row[6] = row[6].max(tokens(text));
            } else {
                row[4] = row[4].max(size.total);
                row[5] = row[5].max(tokens(text));
            }
        }
    }
    println!(
        "| family | brief (en), chars | of it prose | ≈ tokens | detail, chars | ≈ tokens | brief (zh-CN), chars | ≈ tokens |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (
        family,
        [
            total,
            prose,
            detail,
            detail_tokens,
            zh,
            zh_tokens,
            en_tokens,
        ],
    ) in rows
    {
        println!(
            "| {family} | {total} | {prose} | {en_tokens} | {detail} | {detail_tokens} | {zh} | {zh_tokens} |"
        );
    }
}

/// A brief's explain line for a value family pipes the value's JSON in: `--value -`.
#[test]
fn explain_reads_the_value_from_stdin() {
    let value = r#"{"kind":"foreground","exitCode":-1073741502,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"","truncated":false},"stderr":{"text":"","truncated":false},"sandbox":{"mode":"workspace-write","denied":false,"enforcement":"partial"}}"#;
    let piped = run(
        &[
            "explain",
            "--format",
            "json",
            "--mode",
            "workspace-write",
            "--value",
            "-",
        ],
        value,
    );
    let given = run(
        &[
            "explain",
            "--format",
            "json",
            "--mode",
            "workspace-write",
            "--value",
            value,
        ],
        "",
    );
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert_eq!(piped.stdout, given.stdout);
    let bad = run(&["explain", "--value", "-"], "not json");
    assert_eq!(bad.code, 2);
}
