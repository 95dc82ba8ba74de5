//! The DeepSeek harness reader, end to end: the published writer's v0 files
//! (`scan-fixtures/dsh-writer/out`), the constructed v1–v3 sessions
//! (`scan-fixtures/constructed`), exports, and damaged files. Every case goes
//! through [`check`], which runs the reader into a recording sink and compares
//! every event it heard, in order, with the wanted lines.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use advisor_core::Outcome;
use session_scan::budget::Budget;
use session_scan::model::{Problem, Record, SessionHeader, Sink, StepId};
use session_scan::source::Located;
use session_scan::source::dsh;

fn read_session_dir(files: &[PathBuf], sink: &mut dyn Sink) {
    let files: Vec<Located> = files.iter().cloned().map(Located::given).collect();
    dsh::read_session_dir(&files, sink, &Budget::new(session_scan::Limits::default()));
}

fn read_export(path: &Path, sink: &mut dyn Sink) {
    let file = Located::given(path.to_owned());
    dsh::read_export(&file, sink, &Budget::new(session_scan::Limits::default()));
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn writer_out() -> PathBuf {
    repo().join("scan-fixtures/dsh-writer/out")
}

fn constructed() -> PathBuf {
    repo().join("scan-fixtures/constructed")
}

/// Everything a reader told its sink.
#[derive(Default)]
struct Recorder {
    base: PathBuf,
    lines: Vec<String>,
    records: Vec<Record>,
    headers: Vec<SessionHeader>,
    decoded: Vec<u64>,
}

fn step(s: StepId) -> String {
    format!("t{}s{}", s.0 >> 32, s.0 & 0xffff_ffff)
}

fn or_dash(s: &Option<String>) -> &str {
    s.as_deref().unwrap_or("-")
}

impl Recorder {
    fn rel(&self, path: &Path) -> String {
        path.strip_prefix(&self.base)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

impl Sink for Recorder {
    fn begin(&mut self, h: SessionHeader) {
        self.lines.push(format!(
            "begin {} {} parent={} subagent={} cwd={} platform={}",
            h.format.as_str(),
            h.id,
            or_dash(&h.parent),
            h.subagent,
            or_dash(&h.cwd),
            h.platform.map_or("-".to_owned(), |p| format!("{p:?}")),
        ));
        self.headers.push(h);
    }

    fn record(&mut self, record: Record) {
        self.lines.push(match &record {
            Record::Mode(mode) => format!("mode {mode}"),
            Record::Usage { step: s, usage, .. } => {
                format!("usage {} {}/{}", step(*s), usage.input, usage.output)
            }
            Record::Call {
                call,
                step: s,
                tool,
                arguments,
                ..
            } => {
                format!("call {call} {} {tool} {arguments}", step(*s))
            }
            Record::Result {
                call,
                failed,
                outcome: Outcome::Failure(f),
                ..
            } => {
                assert_eq!(f.content, format!("Error: {}", f.message));
                assert!(f.members.is_empty());
                format!(
                    "fail {call} failed={failed} code={} {}",
                    or_dash(&f.code),
                    f.message
                )
            }
            Record::Result {
                call,
                failed,
                outcome: Outcome::Success(s),
                ..
            } => {
                format!("ok {call} failed={failed} {}", s.value)
            }
            Record::Spoken { summary, .. } => format!("spoken {}", or_dash(summary)),
        });
        self.records.push(record);
    }

    fn end(&mut self) {
        self.lines.push("end".into());
    }

    fn problem(&mut self, p: Problem) {
        let line = p.line.map_or("-".to_owned(), |n| n.to_string());
        let text = format!(
            "problem {} line={line} stopped={} {}",
            self.rel(&p.path),
            p.stopped,
            p.what
        );
        self.lines.push(text);
    }

    fn decoded(&mut self, bytes: u64) {
        // Increments; kept as the running total, the last being the file's.
        let total = self.decoded.last().copied().unwrap_or(0) + bytes;
        self.decoded.push(total);
    }
}

enum Input<'a> {
    /// A session directory's files (by name, under the base).
    Dir(&'a [&'a str]),
    /// An export ZIP (by name, under the base).
    Export(&'a str),
}

/// Reads `input` under `base` and compares every line the sink heard with `want`.
fn check(base: &Path, input: Input<'_>, want: &[&str]) -> Recorder {
    let mut sink = Recorder {
        base: base.to_owned(),
        ..Recorder::default()
    };
    match input {
        Input::Dir(files) => {
            let files: Vec<PathBuf> = files.iter().map(|f| base.join(f)).collect();
            read_session_dir(&files, &mut sink);
        }
        Input::Export(name) => read_export(&base.join(name), &mut sink),
    }
    let got: Vec<&str> = sink.lines.iter().map(String::as_str).collect();
    assert_eq!(got, want, "reading {}", base.display());
    sink
}

const SET_CONTENT: &str = r#"{"command":"Set-Content -Path notes.txt -Value 'hello'"}"#;
const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

fn win_acl_want() -> Vec<String> {
    let mut want = vec![
        r"begin dsh-v0 fixture-win-acl parent=- subagent=false cwd=D:\ws platform=Win32".to_owned(),
    ];
    for (n, usage) in [(1, "2400/41"), (2, "2700/42"), (3, "3000/43")] {
        want.push(format!("usage t1s{n} {usage}"));
        want.push(format!("call call_acl_{n} t1s{n} pwsh {SET_CONTENT}"));
        want.push(format!("fail call_acl_{n} failed=true code=- {ACL}"));
    }
    want.extend([
        "usage t1s4 3420/17".to_owned(),
        "mode danger-full-access".to_owned(),
        "usage t2s1 3500/39".to_owned(),
        format!("call call_ok_1 t2s1 pwsh {SET_CONTENT}"),
        r#"ok call_ok_1 failed=false {"kind":"foreground","exitCode":0,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":null,"stdout":{"text":"","truncated":false},"stderr":{"text":"","truncated":false}}"#.to_owned(),
        "usage t2s2 3580/9".to_owned(),
        "end".to_owned(),
    ]);
    want
}

const SUB_WANT: &[&str] = &[
    r"begin dsh-v0 fixture-win-acl-sub parent=fixture-win-acl subagent=true cwd=D:\ws platform=Win32",
    "usage t1s1 1200/30",
    r#"call call_sub_1 t1s1 pwsh {"command":"npx prettier --write src"}"#,
    r"fail call_sub_1 failed=true code=- SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    "usage t1s2 1310/14",
    "end",
];

const POSIX_WANT: &[&str] = &[
    "begin dsh-v0 fixture-posix-ok parent=- subagent=false cwd=/home/dev/proj platform=Linux",
    "usage t1s1 900/12",
    r#"call call_ls_1 t1s1 bash {"command":"ls"}"#,
    // No marker: the renderer's clean exit, its text the stdout.
    r#"ok call_ls_1 failed=false {"kind":"foreground","exitCode":0,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":null,"stdout":{"text":"README.md\nsrc","truncated":false},"stderr":{"text":"","truncated":false}}"#,
    "usage t1s2 950/10",
    "end",
];

/// The three writer sessions of one output root, checked against the
/// README's hand count; returns their records.
fn check_writer_root(root: &Path, suffix: &str) -> Vec<Vec<Record>> {
    let file = format!("session.jsonl{suffix}");
    let win = win_acl_want();
    let win: Vec<&str> = win.iter().map(String::as_str).collect();
    let mut records = Vec::new();
    for (dir, want) in [
        ("--D-ws--/fixture-win-acl", &win[..]),
        ("--D-ws--/fixture-win-acl-sub", SUB_WANT),
        ("--home-dev-proj--/fixture-posix-ok", POSIX_WANT),
    ] {
        let sink = check(&root.join(dir), Input::Dir(&[&file]), want);
        let plain = fs::metadata(
            root.join("..")
                .join("plain")
                .join(dir)
                .join("session.jsonl"),
        );
        // Decoded bytes are the plain file's size, for both encodings.
        assert_eq!(
            sink.decoded.last().copied(),
            plain.ok().map(|m| m.len()),
            "{dir}"
        );
        records.push(sink.records);
    }
    records
}

#[test]
fn the_writer_sessions_read_as_the_hand_count_says() {
    let zstd = check_writer_root(&writer_out().join("zstd"), ".zstd");
    let plain = check_writer_root(&writer_out().join("plain"), "");
    assert_eq!(zstd, plain, "plain and zstd give identical records");
    // 3 failing calls in the parent, one in the subagent, none in the control.
    let failing = |records: &[Record]| {
        records
            .iter()
            .filter(|r| matches!(r, Record::Result { failed: true, .. }))
            .count()
    };
    assert_eq!(
        zstd.iter().map(|r| failing(r)).collect::<Vec<_>>(),
        [3, 1, 0]
    );
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    out.sort();
    out
}

/// CI runs the writer first (`npm ci && npm run write -- $DIR && npm run
/// verify` in `scan-fixtures/dsh-writer`) and names its output here: the
/// writer must reproduce the committed bytes, and the reader must read them.
#[test]
fn a_fresh_writer_output_is_the_committed_one() {
    let Some(fresh) = std::env::var_os("SCAN_DSH_WRITER_OUT") else {
        eprintln!("SCAN_DSH_WRITER_OUT is not set; the fresh writer output is not checked");
        return;
    };
    let fresh = PathBuf::from(fresh);
    let committed = writer_out();
    let names = files_under(&committed);
    assert_eq!(files_under(&fresh), names, "the same files");
    assert_eq!(names.len(), 6);
    for name in &names {
        let same = fs::read(fresh.join(name)).unwrap() == fs::read(committed.join(name)).unwrap();
        assert!(same, "{} differs from the committed one", name.display());
    }
    let zstd = check_writer_root(&fresh.join("zstd"), ".zstd");
    assert_eq!(zstd, check_writer_root(&fresh.join("plain"), ""));
}

const V2_ARGS: &str = r#"{"command":"Set-Content -Path notes.txt -Value 'hello'"}"#;

#[test]
fn constructed_sessions_read_as_built() {
    let base = constructed();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "constructed-v2-acl",
            "session.v2.jsonl",
            &[
                r"begin dsh-v2 constructed-v2-acl parent=- subagent=false cwd=D:\ws platform=Win32",
                // The failed attempt's usage, then the message's (not its stream's).
                "usage t1s1 2000/7",
                "usage t1s1 2100/40",
                &const_format(1),
                r"fail call_v2_1 failed=true code=- SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
                "usage t1s2 2300/35",
                &const_format(2),
                "fail call_v2_2 failed=true code=SANDBOX_UNAVAILABLE sandbox unavailable: the windows-acl runner failed",
                r"spoken Windows sandbox could not grant write access to D:\ws",
                "usage t1s3 2500/20",
                &const_format(3),
                r#"ok call_v2_3 failed=false {"kind":"foreground","exitCode":1,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":null,"stdout":{"text":"","truncated":false},"stderr":{"text":"Set-Content: Access to the path 'D:\\ws\\notes.txt' is denied.","truncated":false},"sandbox":{"mode":"workspace-write","denied":true}}"#,
                "mode danger-full-access",
                "end",
            ],
        ),
        (
            "constructed-v3-acl",
            "session.v3.jsonl",
            &[
                "begin dsh-v3 constructed-v3-acl parent=- subagent=false cwd=C:/Users/dev/ws platform=Win32",
                "usage t1s1 1500/3",
                "usage t1s1 1600/25",
                r#"call call_v3_1 t1s1 pwsh {"command":"New-Item -ItemType File x.txt"}"#,
                r"fail call_v3_1 failed=true code=- SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\Users\dev\ws)",
                "usage t1s2 1700/12",
                r#"call call_v3_2 t1s2 web_fetch "not json {""#,
                // Marker-shaped text from a tool that starts no process: no value.
                "ok call_v3_2 failed=false null",
                "end",
            ],
        ),
        (
            "constructed-v3-subagent",
            "session.v3.jsonl",
            &[
                "begin dsh-v3 constructed-v3-sub parent=constructed-v3-acl subagent=true cwd=/Users/dev/proj platform=Macos",
                "usage t1s1 800/20",
                r#"call call_sub_v3_1 t1s1 bash {"command":"touch /Users/dev/proj/x"}"#,
                r#"ok call_sub_v3_1 failed=false {"kind":"foreground","exitCode":1,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":null,"stdout":{"text":"","truncated":false},"stderr":{"text":"touch: /Users/dev/proj/x: Operation not permitted","truncated":false},"sandbox":{"mode":"read-only","denied":true}}"#,
                "usage t1s2 900/8",
                "end",
            ],
        ),
        // Inherited: two failing calls, their usage, an attempt, a notice;
        // only the mode in force at the fork is heard.
        (
            "constructed-v2-fork",
            "session.v2.jsonl",
            &[
                r"begin dsh-v2 constructed-v2-fork parent=constructed-v2-acl subagent=false cwd=D:\ws platform=Win32",
                "mode workspace-write",
                "usage t2s1 2600/30",
                &format!("call call_fork_1 t2s1 pwsh {V2_ARGS}"),
                r"fail call_fork_1 failed=true code=- SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
                "end",
            ],
        ),
        // seedLength 6 hides turn 1; a failed attempt's uncited usage chunk
        // counts, the retried attempt's cited one (a range pair over a packed
        // row) does not, a trailing uncited chunk settles at step/end, and a
        // message without usage counts its cited chunk.
        (
            "constructed-v1-seeded-retry",
            "session.v1.jsonl",
            &[
                "begin dsh-v1 constructed-v1-retry parent=fixture-posix-ok subagent=false cwd=/home/dev/proj platform=Linux",
                "usage t2s1 700/4",
                "usage t2s1 720/30",
                r#"call call_v1_1 t2s1 bash {"command":"ls"}"#,
                r#"ok call_v1_1 failed=false {"kind":"foreground","exitCode":2,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":null,"stdout":{"text":"out","truncated":false},"stderr":{"text":"err","truncated":false}}"#,
                "usage t2s1 50/2",
                "usage t2s2 300/3",
                "end",
            ],
        ),
    ];
    for (dir, file, want) in cases {
        check(&base.join(dir), Input::Dir(&[file]), want);
    }
}

fn const_format(n: u32) -> String {
    format!("call call_v2_{n} t1s{n} pwsh {V2_ARGS}")
}

/// Zstd frames as the writer makes them: the header line alone, then the
/// rest, each with a content checksum.
fn zstd_frames(text: &str) -> Vec<u8> {
    let split = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut out = Vec::new();
    for part in [&text[..split], &text[split..]] {
        let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        encoder.include_checksum(true).unwrap();
        encoder.write_all(part.as_bytes()).unwrap();
        out.extend(encoder.finish().unwrap());
    }
    out
}

const TWO_GENS_V2: &[&str] = &[
    r"begin dsh-v2 constructed-two-gens parent=- subagent=false cwd=D:\ws platform=Win32",
    "usage t1s1 1000/10",
    r#"call call_gen_1 t1s1 pwsh {"command":"Set-Content -Path notes.txt -Value 'hello'"}"#,
    r"fail call_gen_1 failed=true code=- SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    "end",
];

#[test]
fn only_the_highest_generation_is_read() {
    let committed = constructed().join("constructed-two-gens");
    check(
        &committed,
        Input::Dir(&["session.jsonl", "session.v2.jsonl"]),
        TWO_GENS_V2,
    );
    check(
        &committed,
        Input::Dir(&["session.v2.jsonl", "session.jsonl"]),
        TWO_GENS_V2,
    );

    // The v0 generation compressed, as the writer stores it.
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    let v0 = fs::read_to_string(committed.join("session.jsonl")).unwrap();
    let v2 = fs::read_to_string(committed.join("session.v2.jsonl")).unwrap();
    fs::write(base.join("session.jsonl.zstd"), zstd_frames(&v0)).unwrap();
    fs::write(base.join("session.v2.jsonl"), &v2).unwrap();
    check(
        base,
        Input::Dir(&["session.jsonl.zstd", "session.v2.jsonl"]),
        TWO_GENS_V2,
    );
    // Alone, the v0 file counts its usage once (the chunk is cited).
    let mut v0_want = TWO_GENS_V2.to_vec();
    v0_want[0] =
        r"begin dsh-v0 constructed-two-gens parent=- subagent=false cwd=D:\ws platform=Win32";
    check(base, Input::Dir(&["session.jsonl.zstd"]), &v0_want);

    // A v4 generation is not read; the highest known one is.
    let v4 = v2.replacen("\"version\":2", "\"version\":4", 1);
    fs::write(base.join("session.v4.jsonl"), &v4).unwrap();
    let mut want = vec![
        "problem session.v4.jsonl line=1 stopped=true format version 4 is not read (this scanner reads versions 0 to 3); generation v2 is read instead",
    ];
    want.extend(TWO_GENS_V2);
    check(
        base,
        Input::Dir(&["session.v4.jsonl", "session.v2.jsonl"]),
        &want,
    );
    // Alone, it is skipped.
    check(
        base,
        Input::Dir(&["session.v4.jsonl"]),
        &[
            "problem session.v4.jsonl line=1 stopped=true format version 4 is not read (this scanner reads versions 0 to 3)",
        ],
    );

    // Two files claiming version 2: the one whose name agrees is read.
    fs::write(base.join("session.v3.jsonl"), &v2).unwrap();
    let mut want = vec![
        "problem session.v3.jsonl line=1 stopped=false named for version 3 but its header says version 2; the header is followed",
        "problem session.v2.jsonl line=1 stopped=false 1 other file(s) of this session also claim version 2 (session.v3.jsonl); only this one is read",
    ];
    want.extend(TWO_GENS_V2);
    check(
        base,
        Input::Dir(&["session.v3.jsonl", "session.v2.jsonl"]),
        &want,
    );
}

fn writer_file(encoding: &str, dir: &str) -> Vec<u8> {
    let name = if encoding == "zstd" {
        "session.jsonl.zstd"
    } else {
        "session.jsonl"
    };
    fs::read(writer_out().join(encoding).join(dir).join(name)).unwrap()
}

/// `(start, length)` of every zstd frame.
fn frames_of(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut frames = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = zstd::zstd_safe::find_frame_compressed_size(&bytes[at..]).unwrap();
        frames.push((at, len));
        at += len;
    }
    frames
}

#[test]
fn a_torn_last_frame_keeps_the_lines_before_it() {
    let bytes = writer_file("zstd", "--D-ws--/fixture-win-acl-sub");
    let frames = frames_of(&bytes);
    assert_eq!(frames.len(), 3);
    let (start, len) = frames[2];
    let cut = start + len / 2;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("session.jsonl.zstd"), &bytes[..cut]).unwrap();
    let torn = format!(
        "problem session.jsonl.zstd line=- stopped=true the last zstd frame is cut short at byte {cut}; the lines before it were read"
    );
    // The second frame ends with the first step's tool/result.
    let mut want = SUB_WANT[..4].to_vec();
    want.extend([torn.as_str(), "end"]);
    check(dir.path(), Input::Dir(&["session.jsonl.zstd"]), &want);
}

#[test]
fn a_corrupt_frame_is_named_and_stops_the_file() {
    let mut bytes = writer_file("zstd", "--D-ws--/fixture-win-acl-sub");
    let frames = frames_of(&bytes);
    let (start, len) = frames[1];
    // The last byte of frame 1 is its checksum's.
    bytes[start + len - 1] ^= 0x55;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("session.jsonl.zstd"), &bytes).unwrap();
    let what = format!(
        "problem session.jsonl.zstd line=- stopped=true zstd frame 1 (counting from 0) at byte {start} does not decode (Restored data doesn't match checksum); the rest of the file was not read"
    );
    check(
        dir.path(),
        Input::Dir(&["session.jsonl.zstd"]),
        &[SUB_WANT[0], &what, "end"],
    );
}

#[test]
fn a_malformed_line_is_named_and_the_rest_read() {
    let text = String::from_utf8(writer_file("plain", "--D-ws--/fixture-win-acl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // Line 34 is the third call's tool/call (seq 34: the packed row on
    // line 6 holds seqs 4 to 6).
    assert!(lines[33].contains("\"callId\":\"call_acl_3\"") && lines[33].contains("tool/call"));
    lines[33] = "{\"type\":\"tool/call\",";
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("session.jsonl"), lines.join("\n") + "\n").unwrap();
    let mut want = win_acl_want();
    let at = want
        .iter()
        .position(|l| l.starts_with("call call_acl_3"))
        .unwrap();
    want[at] = "problem session.jsonl line=34 stopped=false not a JSON event; skipped".into();
    let want: Vec<&str> = want.iter().map(String::as_str).collect();
    check(dir.path(), Input::Dir(&["session.jsonl"]), &want);
}

#[test]
fn an_export_reads_the_root_and_its_subagents() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("export.zip");
    let mut zip = zip::ZipWriter::new(fs::File::create(&path).unwrap());
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in [
        (
            "session.jsonl",
            writer_file("plain", "--D-ws--/fixture-win-acl"),
        ),
        (
            "subagents/fixture-win-acl-sub/session.jsonl",
            writer_file("plain", "--D-ws--/fixture-win-acl-sub"),
        ),
        ("subagents/bogus/session.jsonl", b"not a header\n".to_vec()),
        ("media/img-1.png", vec![0x89, b'P', b'N', b'G']),
    ] {
        zip.start_file(name, deflated).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap();
    let mut want = win_acl_want();
    want.extend(SUB_WANT.iter().map(|s| s.to_string()));
    want.push(
        "problem export.zip!/subagents/bogus/session.jsonl line=1 stopped=true the first line is not JSON; skipped"
            .into(),
    );
    let want: Vec<&str> = want.iter().map(String::as_str).collect();
    let sink = check(dir.path(), Input::Export("export.zip"), &want);
    let paths: Vec<PathBuf> = sink.headers.iter().map(|h| h.path.clone()).collect();
    assert_eq!(
        paths,
        [
            dir.path().join("export.zip!/session.jsonl"),
            dir.path()
                .join("export.zip!/subagents/fixture-win-acl-sub/session.jsonl"),
        ]
    );
}

#[test]
fn an_export_of_too_many_members_is_not_read() {
    // A zip64 end-of-central-directory record declaring 200,000 members.
    let mut bytes = Vec::new();
    bytes.extend(b"PK\x06\x06");
    bytes.extend(44u64.to_le_bytes());
    bytes.extend([45, 0, 45, 0]);
    bytes.extend([0u8; 8]);
    bytes.extend(200_000u64.to_le_bytes());
    bytes.extend(200_000u64.to_le_bytes());
    bytes.extend([0u8; 16]);
    bytes.extend(b"PK\x06\x07");
    bytes.extend(0u32.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    bytes.extend(1u32.to_le_bytes());
    bytes.extend(b"PK\x05\x06");
    bytes.extend([0xff; 16]);
    bytes.extend([0, 0]);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("big.zip"), &bytes).unwrap();
    check(
        dir.path(),
        Input::Export("big.zip"),
        &[
            "problem big.zip line=- stopped=true an archive of 200000 members (more than 100000); not read",
        ],
    );
    fs::write(dir.path().join("junk.zip"), b"not a zip").unwrap();
    let sink = Recorder {
        base: dir.path().to_owned(),
        ..Recorder::default()
    };
    let mut sink = sink;
    read_export(&dir.path().join("junk.zip"), &mut sink);
    assert_eq!(sink.lines.len(), 1);
    assert!(
        sink.lines[0]
            .starts_with("problem junk.zip line=- stopped=true not a readable ZIP archive"),
        "{:?}",
        sink.lines
    );
}

#[test]
fn odd_input_is_named_never_panicked_on() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    let lines = [
        r#"{"type":"session","version":0,"id":"odd","createdAt":1}"#,
        r#"[1,2]"#,
        r#"{"type":"tool/call","seq":"x","data":5}"#,
        r#"{"type":"tool/call","seq":1,"time":"t","data":{"turn":-1,"step":2.5,"callId":"c1","name":"bash","arguments":7}}"#,
        r#"{"type":"tool/result","data":{"message":{"content":"nope"}}}"#,
        r#"{"type":"tool/result","data":{"message":{"source":{"callId":"c1"},"content":[{"content":[{"type":"text","text":5}],"isError":"yes"}]}}}"#,
        r#"{"type":"assistant/message","seq":9,"data":{"turn":1,"step":1,"usage":{"inputTokens":"10","outputTokens":3}},"sourceEventSeqs":[[0,18446744073709551615],"x",{}]}"#,
        r#"{"type":"sandbox/mode","data":{"mode":"full"}}"#,
        r#"{"type":"assistant/chunk","seq":20,"data":{"turn":1,"step":2,"chunk":{"type":"usage","usage":{"inputTokens":1}}}}"#,
        "",
        r#"{"type":"text-chunks","seq0":21,"data":{"texts":[]}}"#,
        r#"{"type":"user/message","data":{"source":{"kind":"plugin","plugin":"sandbox-grant-advisor"}}}"#,
    ];
    fs::write(base.join("session.jsonl"), lines.join("\n")).unwrap();
    check(
        base,
        Input::Dir(&["session.jsonl"]),
        &[
            "begin dsh-v0 odd parent=- subagent=false cwd=- platform=-",
            "problem session.jsonl line=2 stopped=false an event without a string \"type\"; skipped",
            "problem session.jsonl line=3 stopped=false a tool/call without a string callId and name; skipped",
            "call c1 t0s0 bash 7",
            "problem session.jsonl line=5 stopped=false a tool/result without a call id; skipped",
            "ok c1 failed=false null",
            "usage t1s1 0/3",
            "problem session.jsonl line=8 stopped=false a sandbox/mode without a known mode; skipped",
            "problem session.jsonl line=10 stopped=false not a JSON event; skipped",
            // The last line has no newline; a plain file's last line is read.
            "spoken -",
            // The usage chunk no message cited, at the end of the file.
            "usage t1s2 1/0",
            "end",
        ],
    );
    // The generation choice reads each header first and names what it cannot use.
    let not_a_header = "problem session.jsonl line=1 stopped=true the first line is not a session header with a version; skipped";
    for (bytes, want) in [
        (&b""[..], not_a_header),
        (b"\n", not_a_header),
        (b"\x28\xb5\x2f", not_a_header),
        (
            b"{\"type\":\"session\",\"version\":1}\n",
            "problem session.jsonl line=1 stopped=true the session header has no string \"id\"; skipped",
        ),
    ] {
        fs::write(base.join("session.jsonl"), bytes).unwrap();
        check(base, Input::Dir(&["session.jsonl"]), &[want]);
    }
    // A zstd-named file that is not zstd, and one torn inside its first frame.
    for (bytes, want) in [
        (
            &b"plain text\n"[..],
            "problem session.jsonl.zstd line=1 stopped=true zstd frame 0 (counting from 0) at byte 0 has no zstd magic; the rest of the file was not read",
        ),
        (
            b"\x28\xb5\x2f\xfd\x04",
            "problem session.jsonl.zstd line=1 stopped=true the last zstd frame is cut short at byte 5; the lines before it were read",
        ),
    ] {
        fs::write(base.join("session.jsonl.zstd"), bytes).unwrap();
        check(base, Input::Dir(&["session.jsonl.zstd"]), &[want]);
    }
}
