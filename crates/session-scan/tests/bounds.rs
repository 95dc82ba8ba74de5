//! Hostile input against the bounds (issue 36, items 5 and 11): files small
//! on disk that decode to far more, first lines that never end, arguments
//! and ids of any size, archives that hide their directory or share one
//! deflate stream among members, token counts of `u64::MAX`, and times of
//! the years 1 and 9999. Each case is a directory of generated files
//! scanned through [`check`], which compares every problem named and the
//! figures the case states; the peak memory of the same inputs at full size
//! is measured by `sandbox-advisor`'s long-run test (`tests/scan.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use session_scan::report::Report;
use session_scan::{Assume, Limits, Options};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file's content.
enum Body {
    Bytes(Vec<u8>),
    /// A sparse file of this many bytes (zeros, next to nothing on disk).
    Sparse(u64),
}

/// One scan: files under a fresh directory, the limits, what must come out.
struct Case<'a> {
    files: Vec<(&'a str, Body)>,
    limits: Limits,
    /// Every problem, as `<path under the directory>:<line or -> <what>`,
    /// in the report's order.
    problems: &'a [&'a str],
    sessions: u64,
    /// The most decoded bytes the scan may report.
    decoded_max: u64,
}

/// Scans the case's files and compares; returns the report for more checks.
fn check(case: Case<'_>) -> Report {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in &case.files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        match body {
            Body::Bytes(bytes) => fs::write(&path, bytes).unwrap(),
            Body::Sparse(len) => fs::File::create(&path).unwrap().set_len(*len).unwrap(),
        }
    }
    let report = session_scan::scan(
        &[dir.path().to_owned()],
        Options {
            assume: Assume::default(),
            jobs: 1,
            progress: false,
            limits: case.limits,
        },
    )
    .unwrap();
    let problems: Vec<String> = report
        .input
        .problems
        .iter()
        .map(|p| {
            let line = p.line.map_or("-".to_owned(), |l| l.to_string());
            // Relative to the scanned directory, in `/`s on every system.
            let path = p.path.strip_prefix(dir.path()).map_or_else(
                |_| p.path.display().to_string(),
                |rel| {
                    let parts: Vec<_> = rel.iter().map(|c| c.to_string_lossy()).collect();
                    parts.join("/")
                },
            );
            format!("{path}:{line} {}", p.what)
        })
        .collect();
    assert_eq!(problems, case.problems);
    assert_eq!(report.input.sessions, case.sessions, "sessions");
    assert!(
        report.input.decoded_bytes <= case.decoded_max,
        "decoded {} bytes, more than {}",
        report.input.decoded_bytes,
        case.decoded_max
    );
    report
}

fn small(decoded_bytes: u64) -> Limits {
    Limits {
        decoded_bytes,
        ..Limits::default()
    }
}

/// The text in zstd frames of at most 1 MiB each, as the writer frames it.
fn zstd(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in text.chunks(1 << 20) {
        let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        encoder.include_checksum(true).unwrap();
        encoder.write_all(chunk).unwrap();
        out.extend(encoder.finish().unwrap());
    }
    out
}

const DSH_HEADER: &str = r#"{"type":"session","version":0,"id":"s","createdAt":1,"cwd":"D:\\ws"}"#;

/// A DeepSeek session: the header, then `lines`.
fn dsh(lines: &[String]) -> Vec<u8> {
    let mut text = format!("{DSH_HEADER}\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text.into_bytes()
}

/// A `tool/call` line whose `arguments` is the JSON string of `arguments`.
fn dsh_call(seq: u64, arguments: &str) -> String {
    let arguments = serde_json::to_string(arguments).unwrap();
    format!(
        r#"{{"type":"tool/call","seq":{seq},"time":1768500003000,"data":{{"turn":1,"step":{seq},"callId":"c{seq}","name":"pwsh","arguments":{arguments}}}}}"#
    )
}

/// `n` zeros as a JSON array, `[0,0,…]`.
fn zeros(n: usize) -> String {
    format!("[{}]", vec!["0"; n].join(","))
}

/// A real Claude Code transcript with `edit` applied to each line (1-based).
fn claude(edit: impl Fn(usize, String) -> String) -> Vec<u8> {
    let text =
        fs::read_to_string(repo().join("examples/transcripts/claude-code/sandbox-no-userns.jsonl"))
            .unwrap();
    let mut out = String::new();
    for (n, line) in text.lines().enumerate() {
        out.push_str(&edit(n + 1, line.to_owned()));
        out.push('\n');
    }
    out.into_bytes()
}

/// The transcript's three failing results are on these lines, and the
/// assistant records that made their calls on these.
const CLAUDE_RESULTS: [usize; 3] = [25, 31, 34];
const CLAUDE_CALLS: [usize; 3] = [22, 28, 33];
const CLAUDE_SESSION: &str = "8b63e65a-92b3-4621-b779-fea50d662ec8";

/// A deflated ZIP of `members`.
fn zip(members: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in members {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// `archive` (one member) with its central directory entry repeated
/// `copies` times, each copy renamed by its last digit: every entry points
/// at the one local header and its one deflate stream.
fn overlapping(archive: &[u8], copies: u8) -> Vec<u8> {
    let cd = archive.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    let end = archive
        .windows(4)
        .rposition(|w| w == b"PK\x05\x06")
        .unwrap();
    let entry = &archive[cd..end];
    let mut out = archive[..cd].to_vec();
    for n in 0..copies {
        let mut copy = entry.to_vec();
        // The name's digit sits before `.jsonl`, at the entry's end.
        let at = copy.len() - ".jsonl".len() - 1;
        copy[at] = b'0' + n;
        out.extend(copy);
    }
    let count = u16::from(copies).to_le_bytes();
    let size = (u32::try_from(entry.len()).unwrap() * u32::from(copies)).to_le_bytes();
    let mut record = archive[end..].to_vec();
    record[8..10].copy_from_slice(&count);
    record[10..12].copy_from_slice(&count);
    record[12..16].copy_from_slice(&size);
    out.extend(record);
    out
}

#[test]
fn a_first_line_past_the_header_bound_is_refused_without_reading_on() {
    // 16 GiB of zeros, 12 KiB on disk: the first line never ends.
    check(Case {
        files: vec![("--D-ws--/s/session.jsonl", Body::Sparse(16 << 30))],
        limits: Limits::default(),
        problems: &[
            "--D-ws--/s/session.jsonl:1 the first line is longer than 16 KiB, so it is no session header; skipped",
        ],
        sessions: 0,
        decoded_max: 0,
    });
}

#[test]
fn a_long_first_line_is_no_header_in_a_file_or_an_archive() {
    let long = format!("{}\n", "x".repeat(1 << 20)).into_bytes();
    let archive = zip(&[("s.jsonl", &long)], zip::CompressionMethod::Deflated);
    let too_long = "the first line is longer than 16 KiB, so it is no session header; skipped";
    check(Case {
        files: vec![
            ("--D-ws--/s/session.jsonl", Body::Bytes(long)),
            ("x.zip", Body::Bytes(archive)),
        ],
        limits: Limits::default(),
        problems: &[
            &format!("--D-ws--/s/session.jsonl:1 {too_long}"),
            &format!("x.zip!/s.jsonl:1 {too_long}"),
        ],
        sessions: 0,
        decoded_max: 0,
    });
}

#[test]
fn a_working_directory_past_its_bound_is_unknown() {
    use session_scan::model::{Problem, Record, SessionHeader, Sink};
    use session_scan::source::{self, Input, Located};
    #[derive(Default)]
    struct Cwds(Vec<Option<String>>);
    impl Sink for Cwds {
        fn begin(&mut self, header: SessionHeader) {
            self.0.push(header.cwd);
        }
        fn record(&mut self, _: Record) {}
        fn end(&mut self) {}
        fn problem(&mut self, _: Problem) {}
    }
    let dir = tempfile::tempdir().unwrap();
    let long = format!("/{}", "d".repeat(5_000));
    let files = [
        (
            "session.jsonl",
            dsh(&[]),
            DSH_HEADER.replace(r"D:\\ws", &long),
        ),
        ("claude.jsonl", claude(|_, line| line), String::new()),
        (
            "rollout-x.jsonl",
            fs::read(repo().join("examples/transcripts/codex/no-userns.jsonl")).unwrap(),
            String::new(),
        ),
    ];
    let mut cwds = Cwds::default();
    for (name, text, header) in files {
        let text = String::from_utf8(text).unwrap();
        // Every working directory the file records becomes the long one.
        let text = if header.is_empty() {
            text.replace(
                r#""cwd":"/home/dev/run/proj""#,
                &format!(r#""cwd":"{long}""#),
            )
        } else {
            text.replacen(DSH_HEADER, &header, 1)
        };
        assert!(
            text.contains(&long),
            "{name} records no working directory to lengthen"
        );
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        let file = Located::given(path);
        let input = match name {
            "session.jsonl" => Input::DshSession(vec![file]),
            "claude.jsonl" => Input::ClaudeCode(vec![file]),
            _ => Input::Codex(file),
        };
        source::read(&input, &mut cwds, Limits::default());
    }
    assert_eq!(cwds.0, [None, None, None]);
}

#[test]
fn a_file_decodes_no_more_than_its_budget() {
    // 64 MiB of lines in zstd frames (a few KiB on disk), and a rollout
    // whose one line never ends.
    let mut lines = vec![dsh_call(1, "dir")];
    lines.extend(std::iter::repeat_n(
        r#"{"type":"step/start","seq":2,"data":{}}"#.to_owned(),
        1 << 20,
    ));
    let bomb = zstd(&dsh(&lines));
    assert!(bomb.len() < 256 << 10, "{} bytes on disk", bomb.len());
    check(Case {
        files: vec![
            ("--D-ws--/s/session.jsonl.zstd", Body::Bytes(bomb)),
            ("rollout-x.jsonl", Body::Sparse(256 << 20)),
        ],
        limits: small(4 << 20),
        problems: &[
            "--D-ws--/s/session.jsonl.zstd:- more than 4 MiB decoded from this file; the rest of it was not read",
            "rollout-x.jsonl:- more than 4 MiB decoded from this file; the rest of it was not read",
            "rollout-x.jsonl:- no `session_meta` line; no session read",
        ],
        sessions: 1,
        decoded_max: 8 << 20,
    });
}

#[test]
fn arguments_past_their_bounds_are_not_built() {
    let long = "x".repeat(2 << 20);
    let many = zeros(100_000);
    let claude = claude(|n, line| match n {
        22 => line.replacen(r#""input":{"#, &format!(r#""input":{{"many":{many},"#), 1),
        28 => line.replacen(r#""input":{"#, &format!(r#""input":{{"long":"{long}","#), 1),
        _ => line,
    });
    let codex = fs::read_to_string(repo().join("examples/transcripts/codex/no-userns.jsonl"))
        .unwrap()
        .replacen(
            r#""arguments":"{"#,
            &format!(r#""arguments":"{{\"many\":{many},"#),
            1,
        );
    check(Case {
        files: vec![
            (
                "--D-ws--/s/session.jsonl",
                Body::Bytes(dsh(&[
                    dsh_call(1, &many),
                    dsh_call(2, &long),
                    dsh_call(3, "dir"),
                ])),
            ),
            ("c/claude.jsonl", Body::Bytes(claude)),
            ("rollout-x.jsonl", Body::Bytes(codex.into_bytes())),
        ],
        limits: Limits::default(),
        problems: &[
            "--D-ws--/s/session.jsonl:2 a tool/call's arguments holding more than 4096 JSON values; the call is judged without them",
            "--D-ws--/s/session.jsonl:3 a tool/call's arguments longer than 1 MiB; the call is judged without them",
            "c/claude.jsonl:22 a `tool_use` input holding more than 4096 JSON values; the call is judged without them",
            "c/claude.jsonl:28 a `tool_use` input longer than 1 MiB; the call is judged without them",
            "rollout-x.jsonl:10 a `function_call`'s arguments holding more than 4096 JSON values; the call is judged without them",
        ],
        sessions: 3,
        decoded_max: 16 << 20,
    });
}

#[test]
fn long_ids_are_cut_and_stay_distinct() {
    let id = |end: &str| format!("{}{end}", "x".repeat(300_000));
    let with = |end: &str| {
        let id = id(end);
        claude(|_, line| line.replace(CLAUDE_SESSION, &id))
    };
    // A header id that fits the header bound is cut; one past it is no header.
    let header_id = |id: &str| {
        let mut text = dsh(&[]);
        let header = DSH_HEADER.replace(r#""id":"s""#, &format!(r#""id":"{id}""#));
        text.splice(..DSH_HEADER.len(), header.bytes());
        text
    };
    let report = check(Case {
        files: vec![
            ("a.jsonl", Body::Bytes(with("a"))),
            ("b.jsonl", Body::Bytes(with("b"))),
            (
                "--D-ws--/s/session.jsonl",
                Body::Bytes(header_id(&"y".repeat(10_000))),
            ),
            (
                "--D-ws--/t/session.jsonl",
                Body::Bytes(header_id(&"z".repeat(20 << 20))),
            ),
        ],
        limits: Limits::default(),
        problems: &[
            "--D-ws--/t/session.jsonl:1 the first line is longer than 16 KiB, so it is no session header; skipped",
        ],
        sessions: 3,
        // Each transcript's lines repeat the id: 36 lines of 300 KB.
        decoded_max: 32 << 20,
    });
    let ids: Vec<&str> = report.sessions.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_ne!(ids[0], ids[1]);
    for shown in &ids {
        assert!(shown.len() <= 256 && shown.contains("…#"), "{shown}");
    }
    let page = session_scan::report::html::render(&report);
    assert!(page.len() < 256 << 10, "a page of {} bytes", page.len());
}

#[test]
fn an_archive_that_hides_its_directory_or_shares_a_stream_is_not_read() {
    let session = dsh(&[dsh_call(1, "dir")]);
    let one = zip(&[("s0.jsonl", &session)], zip::CompressionMethod::Deflated);
    let mut trailing = one.clone();
    trailing.extend(vec![0u8; 70 << 10]);
    // An end record declaring a central directory of 100 MiB.
    let mut huge = one.clone();
    let end = huge.len() - 22;
    huge[end + 12..end + 16].copy_from_slice(&(100u32 << 20).to_le_bytes());
    check(Case {
        files: vec![
            ("trailing.zip", Body::Bytes(trailing)),
            ("shared.zip", Body::Bytes(overlapping(&one, 3))),
            ("huge.zip", Body::Bytes(huge)),
            ("fine.zip", Body::Bytes(one)),
        ],
        limits: Limits::default(),
        problems: &[
            "huge.zip:- not a readable ZIP archive: a central directory of 104857600 bytes (more than 64 MiB)",
            "shared.zip:- not a readable ZIP archive: members overlap (the layout of a zip bomb); not one is read",
            "trailing.zip:- not a readable ZIP archive: no end-of-central-directory record in its last 65,557 bytes (not a ZIP archive, or more bytes after it than a ZIP comment holds)",
        ],
        sessions: 1,
        decoded_max: 1 << 20,
    });
}

#[test]
fn an_archive_decodes_no_more_than_one_budget_and_checks_its_members() {
    let big = dsh(&vec![
        r#"{"type":"step/start","seq":2,"data":{}}"#.to_owned();
        80_000
    ]);
    assert!(big.len() > 3 << 20);
    let mut stored = zip(
        &[("s.jsonl", &dsh(&[dsh_call(1, "dir")]))],
        zip::CompressionMethod::Stored,
    );
    // One member whose declared size is short of its data.
    let mut lied = stored.clone();
    let entry = lied.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    let size = u32::from_le_bytes(lied[entry + 24..entry + 28].try_into().unwrap());
    lied[entry + 24..entry + 28].copy_from_slice(&(size - 10).to_le_bytes());
    // One whose data is not what its CRC-32 says.
    let at = stored.windows(3).position(|w| w == b"dir").unwrap();
    stored[at] = b'D';
    check(Case {
        files: vec![
            (
                "two.zip",
                Body::Bytes(zip(
                    &[("a.jsonl", &big), ("b.jsonl", &big)],
                    zip::CompressionMethod::Deflated,
                )),
            ),
            ("flipped.zip", Body::Bytes(stored)),
            ("lied.zip", Body::Bytes(lied)),
        ],
        limits: small(4 << 20),
        problems: &[
            "flipped.zip!/s.jsonl:- read failed: its CRC-32 does not match; the rest of the file was not read",
            "lied.zip!/s.jsonl:- read failed: it decodes to more than its declared size; the rest of the file was not read",
            "two.zip!/b.jsonl:- more than 4 MiB decoded from this archive; the rest of it was not read",
        ],
        // `lied.zip`'s member fails at its first read, before its header.
        sessions: 3,
        // One budget for the two members of `two.zip`, and the few bytes of
        // `flipped.zip`.
        decoded_max: (4 << 20) + (1 << 10),
    });
}

#[test]
fn totals_saturate_and_times_outside_the_range_are_refused() {
    let transcript = claude(|n, line| {
        if CLAUDE_CALLS.contains(&n) {
            // Every response says it cost u64::MAX output tokens.
            let at = line.find(r#""output_tokens":"#).unwrap() + r#""output_tokens":"#.len();
            let end = at + line[at..].find([',', '}']).unwrap();
            format!("{}{}{}", &line[..at], u64::MAX, &line[end..])
        } else if n == CLAUDE_RESULTS[0] {
            replace_timestamp(&line, "0001-01-01T00:00:00.000Z")
        } else if n == CLAUDE_RESULTS[2] {
            replace_timestamp(&line, "9999-12-31T23:59:59.999Z")
        } else {
            line
        }
    });
    let dsh_times = dsh(&[
        dsh_call(1, "dir").replace("1768500003000", "0"),
        dsh_call(2, "dir").replace("1768500003000", "253402300799999"),
    ]);
    let refused =
        "is not a time from 2000-01-01 to 2099-12-31 (UTC); the record is read without a time";
    let report = check(Case {
        files: vec![
            ("a.jsonl", Body::Bytes(transcript.clone())),
            ("b.jsonl", Body::Bytes(transcript)),
            ("--D-ws--/s/session.jsonl", Body::Bytes(dsh_times)),
        ],
        limits: Limits::default(),
        problems: &[
            &format!("--D-ws--/s/session.jsonl:2 `time` {refused}"),
            &format!("--D-ws--/s/session.jsonl:3 `time` {refused}"),
            &format!("a.jsonl:25 `timestamp` {refused}"),
            &format!("a.jsonl:34 `timestamp` {refused}"),
            &format!("b.jsonl:25 `timestamp` {refused}"),
            &format!("b.jsonl:34 `timestamp` {refused}"),
        ],
        sessions: 3,
        decoded_max: 1 << 20,
    });
    let family = &report.families[0];
    assert_eq!(
        (
            family.family.as_str(),
            family.wasted_steps,
            family.wasted_output_tokens,
            family.wall_ms
        ),
        ("bwrap-cannot-start", 6, u64::MAX, 0),
        "{family:?}"
    );
    for session in &report.sessions {
        assert_eq!(session.families[0].wasted_output_tokens, u64::MAX);
    }
    let tokens: u64 = report
        .timeline
        .iter()
        .map(|d| d.wasted_output_tokens)
        .max()
        .unwrap();
    assert_eq!(tokens, u64::MAX);
    let table = session_scan::report::table::render(&report);
    assert!(table.contains("18,446,744,073,709,551,615"), "{table}");
}

fn replace_timestamp(line: &str, with: &str) -> String {
    let at = line.find(r#""timestamp":""#).unwrap() + r#""timestamp":""#.len();
    let end = at + line[at..].find('"').unwrap();
    format!("{}{with}{}", &line[..at], &line[end..])
}
