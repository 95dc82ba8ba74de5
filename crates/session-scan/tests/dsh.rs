//! The DeepSeek harness reader, end to end: the published writer's v0 files
//! (`scan-fixtures/dsh-writer/out`), the constructed v1–v3 sessions
//! (`scan-fixtures/constructed`), exports, and damaged files. Every case goes
//! through [`check`], which runs the reader into a recording sink and compares
//! every event it heard, in order, with the wanted lines.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use advisor_core::Outcome;
use session_scan::model::{Problem, Record, SessionHeader, Sink, StepId};
use session_scan::source::dsh::{read_export, read_session_dir};

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
        path.strip_prefix(&self.base).unwrap_or(path).display().to_string()
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
            Record::Call { call, step: s, tool, arguments, .. } => {
                format!("call {call} {} {tool} {arguments}", step(*s))
            }
            Record::Result { call, failed, outcome: Outcome::Failure(f), .. } => {
                assert_eq!(f.content, format!("Error: {}", f.message));
                assert!(f.members.is_empty());
                format!("fail {call} failed={failed} code={} {}", or_dash(&f.code), f.message)
            }
            Record::Result { call, failed, outcome: Outcome::Success(s), .. } => {
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
        let text = format!("problem {} line={line} stopped={} {}", self.rel(&p.path), p.stopped, p.what);
        self.lines.push(text);
    }

    fn decoded(&mut self, bytes: u64) {
        self.decoded.push(bytes);
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
    let mut sink = Recorder { base: base.to_owned(), ..Recorder::default() };
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
    let mut want = vec![r"begin dsh-v0 fixture-win-acl parent=- subagent=false cwd=D:\ws platform=Win32".to_owned()];
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
    // No marker: not read as a shell value (the families stay silent).
    "ok call_ls_1 failed=false null",
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
        let plain = fs::metadata(root.join("..").join("plain").join(dir).join("session.jsonl"));
        // Decoded bytes are the plain file's size, for both encodings.
        assert_eq!(sink.decoded.last().copied(), plain.ok().map(|m| m.len()), "{dir}");
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
        records.iter().filter(|r| matches!(r, Record::Result { failed: true, .. })).count()
    };
    assert_eq!(zstd.iter().map(|r| failing(r)).collect::<Vec<_>>(), [3, 1, 0]);
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
