//! `sandbox-advisor scan` under hostile input, measured like `/usr/bin/time`
//! (issue 36, item 5): each case generates its input (small on disk, huge
//! decoded), runs the binary as a child, and reads the child's peak resident
//! set from `wait4`. Asserted: the peak under the case's bound, what the
//! report says it decoded, and the problem that names the bound.
//!
//! ```sh
//! cargo test --release -p sandbox-advisor --test scan_longrun -- --ignored --nocapture
//! ```
//!
//! prints one row per case (the table in BENCHMARKS.md). Set
//! `SANDBOX_ADVISOR_BIN` to measure another build (the "before" column was
//! main's release binary) and `SCAN_LONGRUN_MEASURE_ONLY=1` to print without
//! asserting. A child is killed past [`RSS_KILL_MB`] or [`SECONDS_KILL`], so
//! a build without the bounds cannot take the machine down.

#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A child past this resident set is killed (and the case fails).
const RSS_KILL_MB: u64 = 4_096;
/// A child running longer is killed (and the case fails).
const SECONDS_KILL: u64 = 150;

/// One run of the binary: its arguments, and what must hold.
struct Case {
    name: &'static str,
    args: Vec<String>,
    /// The most peak RSS allowed, in MB.
    rss_max_mb: u64,
    /// For `--format json`: the most decoded bytes, and text every listed
    /// problem list must hold (each needle in some problem).
    decoded_max: Option<u64>,
    problems: &'static [&'static str],
    /// For a page or table written with `--out`: its largest size.
    out_max: Option<u64>,
}

/// What a run measured.
struct Measured {
    code: Option<i32>,
    seconds: f64,
    peak_mb: f64,
    killed: Option<&'static str>,
    out: PathBuf,
}

fn bin() -> String {
    std::env::var("SANDBOX_ADVISOR_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandbox-advisor").to_owned())
}

/// Runs the binary, reaping it with `wait4` for its peak resident set.
#[allow(unsafe_code)]
#[allow(
    clippy::zombie_processes,
    reason = "reaped by wait4 below: std's wait would lose the rusage"
)]
fn measure(args: &[String], out: PathBuf) -> Measured {
    let started = Instant::now();
    let child = Command::new(bin())
        .args(args)
        .stdout(Stdio::from(File::create(&out).unwrap()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut killed = None;
    loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data the kernel fills in; `wait4` is
        // called on our own child, which std never waits for (it is
        // dropped unwaited below), so the pid is ours until reaped here.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &raw mut status, libc::WNOHANG, &raw mut usage) };
        assert!(reaped >= 0, "wait4: {}", std::io::Error::last_os_error());
        if reaped == pid {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            return Measured {
                code,
                seconds: started.elapsed().as_secs_f64(),
                // Linux reports ru_maxrss in KiB.
                peak_mb: usage.ru_maxrss as f64 / 1024.0,
                killed,
                out,
            };
        }
        // Not reaped yet, so the pid is still this child's.
        let rss_mb = fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(0, |kib| kib / 1024);
        let over = if rss_mb > RSS_KILL_MB {
            Some("killed past 4 GB")
        } else if started.elapsed() > Duration::from_secs(SECONDS_KILL) {
            Some("killed after 150 s")
        } else {
            None
        };
        if let (Some(why), None) = (over, killed) {
            killed = Some(why);
            // SAFETY: signalling our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Set in the child that writes the inputs into the directory it names.
const GENERATE_INTO: &str = "SCAN_LONGRUN_GENERATE_INTO";

/// This process's peak resident set (`VmHWM`), in MB.
fn own_peak_mb() -> f64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// A zstd frame of `text`, checksummed, as the harness's writer frames.
fn frame(text: &[u8]) -> Vec<u8> {
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
    encoder.include_checksum(true).unwrap();
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

/// `text` deflated (raw deflate, as a ZIP member holds it), and its CRC-32.
fn deflate(text: &[u8]) -> (Vec<u8>, u32) {
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(text).unwrap();
    let mut crc = flate2::Crc::new();
    crc.update(text);
    (encoder.finish().unwrap(), crc.sum())
}

/// A ZIP member's local header, for a deflated member.
fn local_header(name: &str, crc: u32, compressed: u32, size: u32) -> Vec<u8> {
    let mut h = b"PK\x03\x04".to_vec();
    h.extend([20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    h.extend(crc.to_le_bytes());
    h.extend(compressed.to_le_bytes());
    h.extend(size.to_le_bytes());
    h.extend(u16::try_from(name.len()).unwrap().to_le_bytes());
    h.extend([0, 0]);
    h.extend(name.as_bytes());
    h
}

/// A central directory entry pointing at the local header at `offset`.
fn entry(name: &str, crc: u32, compressed: u32, size: u32, offset: u32) -> Vec<u8> {
    let mut e = b"PK\x01\x02".to_vec();
    e.extend([20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    e.extend(crc.to_le_bytes());
    e.extend(compressed.to_le_bytes());
    e.extend(size.to_le_bytes());
    e.extend(u16::try_from(name.len()).unwrap().to_le_bytes());
    e.extend([0u8; 12]);
    e.extend(offset.to_le_bytes());
    e.extend(name.as_bytes());
    e
}

/// The end records for `count` entries in `size` bytes at `offset`: zip64
/// ones (record and locator) first, then the classic one saturated.
fn end(count: u64, size: u64, offset: u64) -> Vec<u8> {
    let record_at = offset + size;
    let mut e = b"PK\x06\x06".to_vec();
    e.extend(44u64.to_le_bytes());
    e.extend([45, 0, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    e.extend(count.to_le_bytes());
    e.extend(count.to_le_bytes());
    e.extend(size.to_le_bytes());
    e.extend(offset.to_le_bytes());
    e.extend(b"PK\x06\x07");
    e.extend(0u32.to_le_bytes());
    e.extend(record_at.to_le_bytes());
    e.extend(1u32.to_le_bytes());
    e.extend(b"PK\x05\x06");
    e.extend([0u8; 4]);
    e.extend([0xff; 12]);
    e.extend([0, 0]);
    e
}

const DSH_HEADER: &str = r#"{"type":"session","version":0,"id":"s","createdAt":1,"cwd":"D:\\ws"}"#;
const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)";

/// `n` lines of a step opening, as the harness writes them.
fn steps(n: usize) -> Vec<u8> {
    "{\"type\":\"step/start\",\"seq\":2,\"data\":{}}\n"
        .repeat(n)
        .into_bytes()
}

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// Every case's input, under `dir`.
fn generate(dir: &Path) {
    // 40 pending calls of 48 MiB arguments, in zstd frames: the argument
    // text is one frame written 40 times, each call's end its own frame.
    let mut session = frame(format!("{DSH_HEADER}\n").as_bytes());
    let prefix = frame(
        format!(
            r#"{{"type":"tool/call","data":{{"turn":1,"arguments":"{}"#,
            "x".repeat(48 << 20)
        )
        .as_bytes(),
    );
    for n in 0..40 {
        session.extend(&prefix);
        session.extend(frame(
            format!("\",\"step\":{n},\"callId\":\"c{n}\",\"name\":\"pwsh\"}},\"seq\":{n}}}\n")
                .as_bytes(),
        ));
    }
    write(&dir.join("pending/--D-ws--/s/session.jsonl.zstd"), &session);

    // One 60 MiB Claude Code line of `[0,0,…]`, and four names for it.
    let mut line =
        br#"{"type":"user","sessionId":"z","cwd":"/w","message":{"content":"go"}}"#.to_vec();
    line.extend(br#"
{"type":"assistant","sessionId":"z","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":["#);
    line.extend("0,".repeat(30 << 20).as_bytes());
    line.extend(b"0]}}]}}\n");
    let zeros = dir.join("zeros/one/z.jsonl");
    write(&zeros, &line);
    for n in 0..4 {
        let link = dir.join(format!("zeros/four/z{n}.jsonl"));
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        fs::hard_link(&zeros, link).unwrap();
    }

    // 20 sessions with 20 MiB ids, a failing call each.
    let id = "i".repeat(20 << 20);
    let mut long = frame(
        DSH_HEADER
            .replace(r#""id":"s""#, &format!(r#""id":"{id}""#))
            .as_bytes(),
    );
    long.extend(frame(b"\n"));
    long.extend(frame(
        format!(
            "{{\"type\":\"tool/call\",\"seq\":1,\"data\":{{\"callId\":\"c\",\"name\":\"pwsh\",\"arguments\":\"{{}}\"}}}}\n{{\"type\":\"tool/result\",\"seq\":2,\"data\":{{\"message\":{{\"content\":[{{\"toolCallId\":\"c\",\"isError\":true,\"content\":\"{ACL}\"}}]}}}}}}\n"
        )
        .as_bytes(),
    ));
    for n in 0..20 {
        write(
            &dir.join(format!("ids/--D-ws--/s{n}/session.jsonl.zstd")),
            &long,
        );
    }

    // 1,000,000 members behind 70 KiB of trailing bytes.
    let mut many = local_header("x", 0, 0, 0);
    let cd_at = many.len() as u64;
    let one = entry("x", 0, 0, 0, 0);
    for _ in 0..1_000_000 {
        many.extend(&one);
    }
    let cd_size = many.len() as u64 - cd_at;
    many.extend(end(1_000_000, cd_size, cd_at));
    many.extend(vec![0u8; 70 << 10]);
    write(&dir.join("many/export.zip"), &many);

    // 400 members sharing one deflate stream of 64 MiB of lines.
    let mut text = format!("{DSH_HEADER}\n").into_bytes();
    text.extend(steps((64 << 20) / 40));
    let (deflated, crc) = deflate(&text);
    let (compressed, size) = (
        u32::try_from(deflated.len()).unwrap(),
        u32::try_from(text.len()).unwrap(),
    );
    let mut shared = local_header("s.jsonl", crc, compressed, size);
    shared.extend(&deflated);
    let cd_at = shared.len() as u64;
    for n in 0..400 {
        shared.extend(entry(&format!("s{n:03}.jsonl"), crc, compressed, size, 0));
    }
    let cd_size = shared.len() as u64 - cd_at;
    shared.extend(end(400, cd_size, cd_at));
    write(&dir.join("shared/export.zip"), &shared);

    // 16 members of 128 MiB each, one stream apiece (the same bytes).
    let mut text = format!("{DSH_HEADER}\n").into_bytes();
    text.extend(steps((128 << 20) / 40));
    let (deflated, crc) = deflate(&text);
    let (compressed, size) = (
        u32::try_from(deflated.len()).unwrap(),
        u32::try_from(text.len()).unwrap(),
    );
    let mut apart = Vec::new();
    let mut entries = Vec::new();
    for n in 0..16 {
        let name = format!("s{n:02}.jsonl");
        entries.extend(entry(
            &name,
            crc,
            compressed,
            size,
            u32::try_from(apart.len()).unwrap(),
        ));
        apart.extend(local_header(&name, crc, compressed, size));
        apart.extend(&deflated);
    }
    let cd_at = apart.len() as u64;
    apart.extend(&entries);
    apart.extend(end(16, entries.len() as u64, cd_at));
    write(&dir.join("apart/export.zip"), &apart);

    // 16 GiB of zeros, 12 KiB on disk: a session whose first line never
    // ends, and a rollout whose one line never ends.
    for name in ["sparse/--D-ws--/s/session.jsonl", "sparse/rollout-x.jsonl"] {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        File::create(&path).unwrap().set_len(16 << 30).unwrap();
    }
}

fn cases(dir: &Path) -> Vec<Case> {
    let arg = |p: &str| dir.join(p).display().to_string();
    let json = |jobs: &str, paths: &[&str]| {
        let mut args: Vec<String> = ["scan", "--no-progress", "--format", "json", "--jobs", jobs]
            .map(String::from)
            .to_vec();
        args.extend(paths.iter().map(|p| arg(p)));
        args
    };
    let out = |format: &str, path: &str| {
        ["scan", "--no-progress", "--format", format, "--jobs", "1"]
            .map(String::from)
            .into_iter()
            .chain([arg(path)])
            .collect()
    };
    vec![
        Case {
            name: "DeepSeek zstd session, 40 pending calls of 48 MiB arguments",
            args: json("1", &["pending"]),
            rss_max_mb: 100,
            decoded_max: Some(2 << 30),
            problems: &["arguments longer than 1 MiB; the call is judged without them"],
            out_max: None,
        },
        Case {
            name: "Claude Code, one 60 MiB line of [0,0,…]",
            args: json("1", &["zeros/one"]),
            rss_max_mb: 100,
            decoded_max: Some(61 << 20),
            problems: &["input longer than 1 MiB; the call is judged without them"],
            out_max: None,
        },
        Case {
            name: "the same, four files, --jobs 4",
            args: json("4", &["zeros/four"]),
            rss_max_mb: 350,
            decoded_max: Some(4 * (61 << 20)),
            problems: &["input longer than 1 MiB; the call is judged without them"],
            out_max: None,
        },
        Case {
            name: "20 sessions with 20 MiB ids, table",
            args: out("table", "ids"),
            rss_max_mb: 30,
            decoded_max: None,
            problems: &[],
            out_max: Some(64 << 10),
        },
        Case {
            name: "20 sessions with 20 MiB ids, HTML",
            args: out("html", "ids"),
            rss_max_mb: 30,
            decoded_max: None,
            problems: &[],
            out_max: Some(256 << 10),
        },
        Case {
            name: "export of 1,000,000 members behind 70 KiB of trailing bytes",
            args: json("1", &["many"]),
            rss_max_mb: 30,
            decoded_max: Some(0),
            problems: &["no end-of-central-directory record in its last 65,557 bytes"],
            out_max: None,
        },
        Case {
            name: "export of 400 members sharing one deflate stream (64 MiB each)",
            args: json("1", &["shared"]),
            rss_max_mb: 30,
            decoded_max: Some(0),
            problems: &["members overlap"],
            out_max: None,
        },
        Case {
            name: "export of 16 members of 128 MiB, one stream each",
            args: json("1", &["apart"]),
            rss_max_mb: 30,
            decoded_max: Some(1 << 30),
            problems: &["more than 1 GiB decoded from this archive"],
            out_max: None,
        },
        Case {
            name: "16 GiB sparse files: a session, a rollout",
            args: json("1", &["sparse"]),
            rss_max_mb: 100,
            decoded_max: Some(1 << 30),
            problems: &[
                "the first line is longer than 16 KiB",
                "more than 1 GiB decoded from this file",
            ],
            out_max: None,
        },
    ]
}

#[test]
#[ignore = "a few seconds in release, minutes in debug; .ci/run runs it: cargo test --release -p sandbox-advisor --test scan_longrun -- --ignored"]
fn hostile_input_costs_no_more_than_the_bounds() {
    // A child's peak RSS starts from its parent's at the spawn (exec keeps
    // the high-water mark), so the inputs are written by a child of their
    // own and this process stays small.
    if let Some(dir) = std::env::var_os(GENERATE_INTO) {
        return generate(Path::new(&dir));
    }
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let generated = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "hostile_input_costs_no_more_than_the_bounds",
        ])
        .env(GENERATE_INTO, dir.path())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(generated.success(), "writing the inputs failed");
    println!(
        "inputs generated in {:.1} s; this process's peak RSS, the floor of every figure below: {:.0} MB",
        t.elapsed().as_secs_f64(),
        own_peak_mb()
    );
    let on_disk = |sub: &str| -> u64 {
        let out = Command::new("du")
            .args(["-sk", &dir.path().join(sub).display().to_string()])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .and_then(|k| k.parse().ok())
            .unwrap_or(0)
    };
    let measure_only = std::env::var_os("SCAN_LONGRUN_MEASURE_ONLY").is_some();
    println!("| case | seconds | peak RSS MB | output bytes | exit |");
    println!("|---|---:|---:|---:|---|");
    let mut failures = Vec::new();
    for (n, case) in cases(dir.path()).into_iter().enumerate() {
        let run = measure(&case.args, dir.path().join(format!("out-{n}")));
        let out_len = fs::metadata(&run.out).map_or(0, |m| m.len());
        println!(
            "| {} | {:.2} | {:.0} | {} | {} |",
            case.name,
            run.seconds,
            run.peak_mb,
            out_len,
            run.killed
                .map_or_else(|| format!("{:?}", run.code), ToString::to_string)
        );
        if measure_only {
            continue;
        }
        let mut wrong = Vec::new();
        if run.killed.is_some() || run.code != Some(0) {
            wrong.push(format!("exit {:?}, {:?}", run.code, run.killed));
        }
        if run.peak_mb > case.rss_max_mb as f64 {
            wrong.push(format!(
                "peak {:.0} MB > {} MB",
                run.peak_mb, case.rss_max_mb
            ));
        }
        if let Some(max) = case.out_max {
            if out_len > max {
                wrong.push(format!("output of {out_len} bytes > {max}"));
            }
        }
        if let Some(max) = case.decoded_max {
            let report: serde_json::Value =
                serde_json::from_slice(&fs::read(&run.out).unwrap()).unwrap_or_default();
            let decoded = report["input"]["decoded_bytes"]
                .as_u64()
                .unwrap_or(u64::MAX);
            if decoded > max {
                wrong.push(format!("decoded {decoded} > {max}"));
            }
            let problems = report["input"]["problems"].to_string();
            for needle in case.problems {
                if !problems.contains(needle) {
                    wrong.push(format!("no problem says {needle:?}: {problems:.400}"));
                }
            }
        }
        if !wrong.is_empty() {
            failures.push(format!("{}: {}", case.name, wrong.join("; ")));
        }
    }
    for sub in [
        "pending", "zeros", "ids", "many", "shared", "apart", "sparse",
    ] {
        println!("{sub}: {} KiB on disk", on_disk(sub));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
