//! Throughput and peak memory of `scan` over a generated corpus:
//! `cargo bench -p session-scan --bench scan` (corpus size: `SCAN_BENCH_MB`,
//! default 1024 MB of decoded session text; kept in `SCAN_BENCH_DIR` when
//! set, so a second run reuses it).
//!
//! The corpus is made of the committed real recordings, scaled up, a third
//! of the bytes per producer: Claude Code transcripts repeated within one
//! file (as a long session is), Codex rollouts copied whole (their lines are
//! numbered), and DeepSeek harness sessions grown from the published
//! writer's `fixture-win-acl` by renumbering its turns (seqs, turns and
//! cited seqs shifted), written plain and as zstd frames with checksums, so
//! every reader and the frame decoder are measured. Each producer is also
//! scanned alone. Figures go to BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use session_scan::{Assume, Options, scan};

/// How many times one Claude Code transcript's lines are repeated in one generated file.
const REPEATS_PER_FILE: usize = 24;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mb: u64 = std::env::var("SCAN_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let kept = std::env::var_os("SCAN_BENCH_DIR").map(PathBuf::from);
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = kept.clone().unwrap_or_else(|| temp.path().to_owned());
    let corpus = dir.join(format!("corpus-{mb}mb"));
    if !corpus.join("done").exists() {
        let t = Instant::now();
        generate(&root, &corpus, mb << 20);
        fs::write(corpus.join("done"), b"").expect("mark");
        eprintln!("generated {corpus:?} in {:.1} s", t.elapsed().as_secs_f64());
    }
    println!(
        "| input | jobs | decoded MB | files | sessions | calls | seconds | MB/s | MB/s per core | peak RSS MB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let runs = [
        ("claude", 1),
        ("codex", 1),
        ("dsh/plain", 1),
        ("dsh/zstd", 1),
        ("", 1),
        ("", 2),
    ];
    for (part, jobs) in runs {
        let input = corpus.join(part);
        let t = Instant::now();
        let report = scan(
            std::slice::from_ref(&input),
            Options {
                assume: Assume::default(),
                jobs,
                progress: false,
                limits: session_scan::Limits::default(),
            },
        )
        .expect("scan");
        let secs = t.elapsed().as_secs_f64();
        let mb = report.input.decoded_bytes as f64 / 1e6;
        let name = if part.is_empty() { "all" } else { part };
        println!(
            "| {name} | {jobs} | {mb:.0} | {} | {} | {} | {secs:.2} | {:.0} | {:.0} | {:.0} |",
            report.input.files,
            report.input.sessions,
            report.input.calls,
            mb / secs,
            mb / secs / jobs as f64,
            peak_rss_mb(),
        );
        assert_eq!(
            report.input.problems_total, 0,
            "{:?}",
            report.input.problems
        );
    }
}

/// Peak resident set of this process so far, in MB (`VmHWM`).
fn peak_rss_mb() -> f64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Writes about `bytes` of decoded session text under `corpus`: a third each
/// Claude Code, Codex and DeepSeek harness (half plain, half zstd).
fn generate(root: &Path, corpus: &Path, bytes: u64) {
    let claude = transcripts(&root.join("examples/transcripts/claude-code"));
    let codex = transcripts(&root.join("examples/transcripts/codex"));
    let dsh = fs::read_to_string(
        root.join("scan-fixtures/dsh-writer/out/plain/--D-ws--/fixture-win-acl/session.jsonl"),
    )
    .expect("writer fixture");
    let share = bytes / 3;
    let mut n = 0usize;
    let mut written = 0u64;
    while written < share {
        n += 1;
        let src = &claude[n % claude.len()];
        let dir = corpus.join(format!("claude/p{}", n % 97));
        fs::create_dir_all(&dir).expect("dir");
        let mut file = fs::File::create(dir.join(format!("{n:08}.jsonl"))).expect("file");
        for _ in 0..REPEATS_PER_FILE {
            file.write_all(src).expect("write");
        }
        written += (src.len() * REPEATS_PER_FILE) as u64;
    }
    written = 0;
    while written < share {
        n += 1;
        let src = &codex[n % codex.len()];
        let dir = corpus.join(format!("codex/2026/12/{:02}", n % 28 + 1));
        fs::create_dir_all(&dir).expect("dir");
        let name = format!("rollout-2026-12-02T00-00-00-{n:08}.jsonl");
        fs::write(dir.join(name), src).expect("write");
        written += src.len() as u64;
    }
    written = 0;
    while written < share {
        n += 1;
        let text = grown_session(&dsh, &format!("big-{n}"), DSH_TURN_REPEATS);
        let zstd = n % 2 == 0;
        let dir = corpus.join(format!(
            "dsh/{}/--D-ws--/big-{n}",
            if zstd { "zstd" } else { "plain" }
        ));
        fs::create_dir_all(&dir).expect("dir");
        if zstd {
            fs::write(dir.join("session.jsonl.zstd"), frames(&text)).expect("write");
        } else {
            fs::write(dir.join("session.jsonl"), &text).expect("write");
        }
        written += text.len() as u64;
    }
}

/// How many times the writer's session's events are repeated in one grown session.
const DSH_TURN_REPEATS: u64 = 2_000;

/// The writer's session with its events repeated `times`, each copy's seqs,
/// turns, cited seqs and times shifted past the last, under a new id.
fn grown_session(text: &str, id: &str, times: u64) -> String {
    use serde_json::Value;
    let mut lines = text.lines();
    let mut header: Value = serde_json::from_str(lines.next().expect("header")).expect("json");
    header["id"] = Value::from(id);
    let events: Vec<Value> = lines
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let end = |e: &Value| {
        e["seq"].as_u64().map(|s| s + 1).unwrap_or_else(|| {
            e["seq0"].as_u64().unwrap_or(0)
                + e["data"]["texts"].as_array().map_or(1, Vec::len) as u64
        })
    };
    let span = events.iter().map(end).max().unwrap_or(0);
    let turns = events
        .iter()
        .filter_map(|e| e["data"]["turn"].as_u64())
        .max()
        .unwrap_or(0);
    let mut out = serde_json::to_string(&header).expect("json") + "\n";
    for k in 0..times {
        for event in &events {
            let mut e = event.clone();
            for key in ["seq", "seq0"] {
                if let Some(seq) = e[key].as_u64() {
                    e[key] = Value::from(seq + k * span);
                }
            }
            for key in ["time", "time0"] {
                if let Some(t) = e[key].as_u64() {
                    e[key] = Value::from(t + k * 100_000);
                }
            }
            if let Some(turn) = e["data"]["turn"].as_u64() {
                e["data"]["turn"] = Value::from(turn + k * turns);
            }
            if let Some(cited) = e.get_mut("sourceEventSeqs").and_then(Value::as_array_mut) {
                for c in cited {
                    shift(c, k * span);
                }
            }
            out += &serde_json::to_string(&e).expect("json");
            out += "\n";
        }
    }
    out
}

fn shift(cited: &mut serde_json::Value, by: u64) {
    match cited {
        serde_json::Value::Array(pair) => pair.iter_mut().for_each(|c| shift(c, by)),
        other => {
            if let Some(seq) = other.as_u64() {
                *other = serde_json::Value::from(seq + by);
            }
        }
    }
}

/// The text as the writer lays it out: the header line alone in the first
/// zstd frame, then one checksummed frame per batch of 64 lines.
fn frames(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut lines = text.split_inclusive('\n');
    let mut frame = |chunk: &str| {
        let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).expect("encoder");
        encoder.include_checksum(true).expect("checksum");
        encoder.write_all(chunk.as_bytes()).expect("compress");
        out.extend(encoder.finish().expect("frame"));
    };
    frame(lines.next().unwrap_or(""));
    let rest: Vec<&str> = lines.collect();
    for batch in rest.chunks(64) {
        frame(&batch.concat());
    }
    out
}

fn transcripts(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("transcripts")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files.iter().map(|p| fs::read(p).expect("read")).collect()
}
