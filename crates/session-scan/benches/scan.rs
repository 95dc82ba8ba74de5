//! Throughput and peak memory of `scan` over a generated corpus:
//! `cargo bench -p session-scan --bench scan` (corpus size: `SCAN_BENCH_MB`,
//! default 1024 MB of decoded session text; kept in `SCAN_BENCH_DIR` when
//! set, so a second run reuses it).
//!
//! The corpus is made of the committed real recordings, scaled up: Claude
//! Code and Codex transcripts repeated within one file (as a long session
//! is), and DeepSeek harness session directories copied, zstd and plain, so
//! every reader and the frame decoder are measured. Figures go to
//! BENCHMARKS.md.

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
        "| jobs | decoded MB | files | sessions | calls | seconds | MB/s | MB/s per core | peak RSS MB |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for jobs in [1, 2] {
        let t = Instant::now();
        let report = scan(
            std::slice::from_ref(&corpus),
            Options {
                assume: Assume::default(),
                jobs,
                progress: false,
            },
        )
        .expect("scan");
        let secs = t.elapsed().as_secs_f64();
        let mb = report.input.decoded_bytes as f64 / 1e6;
        println!(
            "| {jobs} | {mb:.0} | {} | {} | {} | {secs:.2} | {:.0} | {:.0} | {:.0} |",
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

/// Writes about `bytes` of decoded session text under `corpus`: half Claude
/// Code, a third Codex, the rest DeepSeek harness sessions.
fn generate(root: &Path, corpus: &Path, bytes: u64) {
    let claude = transcripts(&root.join("examples/transcripts/claude-code"));
    let codex = transcripts(&root.join("examples/transcripts/codex"));
    let dsh = root.join("scan-fixtures/dsh-writer/out");
    let mut written = 0u64;
    let mut n = 0usize;
    while written < bytes {
        n += 1;
        let (src, dir) = if n % 6 < 3 {
            (
                &claude[n % claude.len()],
                corpus.join(format!("claude/p{}", n % 97)),
            )
        } else if n % 6 < 5 {
            (
                &codex[n % codex.len()],
                corpus.join(format!("codex/2026/12/{:02}", n % 28 + 1)),
            )
        } else {
            written += copy_dsh(&dsh, &corpus.join(format!("dsh/{n}")));
            continue;
        };
        fs::create_dir_all(&dir).expect("dir");
        let name = if dir.starts_with(corpus.join("codex")) {
            format!("rollout-2026-12-02T00-00-00-{n:08}.jsonl")
        } else {
            format!("{n:08}.jsonl")
        };
        // A Codex rollout numbers its lines (`ordinal`), so it is copied whole.
        let repeats = if dir.starts_with(corpus.join("codex")) {
            1
        } else {
            REPEATS_PER_FILE
        };
        let mut file = fs::File::create(dir.join(name)).expect("file");
        for _ in 0..repeats {
            file.write_all(src).expect("write");
        }
        written += (src.len() * repeats) as u64;
    }
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

/// Copies the writer's session tree (zstd and plain roots); returns the
/// decoded bytes it holds (the plain files' size, twice).
fn copy_dsh(from: &Path, to: &Path) -> u64 {
    let mut decoded = 0;
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).expect("under");
        let dest = to.join(rel);
        fs::create_dir_all(dest.parent().expect("parent")).expect("dir");
        fs::copy(&entry, &dest).expect("copy");
        if entry.extension().is_some_and(|x| x == "jsonl") {
            decoded += 2 * fs::metadata(&entry).expect("meta").len();
        }
    }
    decoded
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("dir").filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
