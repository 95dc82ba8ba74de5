//! DeepSeek harness session logs (formats v0 to v3), plain or zstd, and web
//! exports. `docs/scan/dsh-sessions.md` is the format this follows.
//!
//! - `frames`: the bytes (plain, or zstd frames decoded one by one);
//! - `header`: the first line;
//! - `events`: the events, as [`Record`](crate::model::Record)s;
//! - `usage`: which usage counts, once;
//! - `rebuild`: the rendered result text and the shell value behind it;
//! - `generations`: which file of a session directory is read;
//! - `export`: the web `/export` ZIP.
//!
//! Record semantics, where the format leaves a choice:
//!
//! - A step is `StepId((turn << 32) | step)` from the event's `data`.
//! - A result's text is its first part's text blocks joined with `\n`; a
//!   failure's message is that text without a leading `Error: `, its code the
//!   `data.error.code` the harness attached; a success's value is rebuilt
//!   from the text only for a tool that starts a process
//!   ([`advisor_core::ToolClass`]), and is `null` when the text does not read
//!   as a shell rendering.
//! - A forked session's inherited events (`seedLength` in v0/v1, before the
//!   last inherited `session/end-seed` in v2/v3) give no call, result, usage
//!   or spoken advisory: the parent's own file counts them. Their
//!   `sandbox/mode` switches are still given, so the mode in force at the
//!   fork is known.
//! - Unknown event types are skipped; a line that is not a JSON event is a
//!   problem on its 1-based line (the header is line 1) and reading goes on.

use std::cell::RefCell;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::rc::Rc;

use super::Located;
use crate::budget::{Budget, Metered, Pass};
use crate::lines::{Line, Lines};
use crate::model::{Problem, Sink};

mod events;
mod export;
mod frames;
mod generations;
mod header;
mod rebuild;
mod shapes;
mod usage;
mod zip;

use frames::{Frames, Stop};
use header::{Parsed, Seed};

/// True for a name the harness's JSONL writer gives a session file:
/// `session.jsonl`, `session.jsonl.zstd`, `session.vN.jsonl[.zstd]`.
/// The name is bytes: one that is not UTF-8 elsewhere is still read.
pub fn is_session_file_name(name: &[u8]) -> bool {
    let Some(rest) = name.strip_prefix(b"session.") else {
        return false;
    };
    let rest = rest.strip_suffix(b".zstd").unwrap_or(rest);
    let Some(rest) = rest.strip_suffix(b"jsonl") else {
        return false;
    };
    rest.is_empty()
        || rest
            .strip_prefix(b"v")
            .and_then(|v| v.strip_suffix(b"."))
            .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
}

/// Reads the highest generation among one session directory's files (see
/// `generations` for the choice), within `budget`.
pub fn read_session_dir(files: &[Located], sink: &mut dyn Sink, budget: &Budget) {
    if let Some(file) = generations::choose(files, sink, budget) {
        read_one(&mut FileSource::new(file), sink, budget);
    }
}

/// Reads a web export ZIP (see `export`), its members together within `budget`.
pub fn read_export(file: &Located, sink: &mut dyn Sink, budget: &Budget) {
    export::read(file, sink, budget);
}

/// How often [`Sink::decoded`] hears of progress, in decoded bytes. It is
/// told the running total for the current file (every [`DECODED_EVERY`]
/// bytes and once at the file's end, so the last figure is the file's decoded
/// size), not an increment.
const DECODED_EVERY: u64 = 1 << 20;

/// Something that can be read, and read again (a forked v2/v3 session is read
/// twice: once to find where its inherited prefix ends).
pub(crate) trait Source {
    /// The name problems and headers carry.
    fn label(&self) -> &Path;
    /// What the budget is spent on, for the problem when it is: `file` or
    /// `archive`.
    fn unit(&self) -> &'static str;
    /// True when the bytes are zstd frames.
    fn zstd(&self) -> bool;
    /// The bytes from the start.
    fn open(&mut self) -> io::Result<Box<dyn Read + '_>>;
}

/// A session file on disk.
pub(crate) struct FileSource {
    file: Located,
    zstd: bool,
}

impl FileSource {
    pub(crate) fn new(file: Located) -> Self {
        let zstd = file.path().extension().is_some_and(|e| e == "zstd");
        Self { file, zstd }
    }
}

impl Source for FileSource {
    fn label(&self) -> &Path {
        self.file.path()
    }
    fn unit(&self) -> &'static str {
        "file"
    }
    fn zstd(&self) -> bool {
        self.zstd
    }
    fn open(&mut self) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.file.open()?))
    }
}

/// Decoded bytes, with the reason a zstd stream stopped kept where the line
/// reader cannot hide it.
struct Body<'a> {
    inner: Result<Frames<Box<dyn Read + 'a>>, Box<dyn Read + 'a>>,
    stop: Rc<RefCell<Option<Stop>>>,
}

impl Read for Body<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match &mut self.inner {
            Ok(frames) => {
                let n = frames.read(out)?;
                if n == 0 {
                    if let Some(stop) = frames.stop() {
                        *self.stop.borrow_mut() = Some(stop.clone());
                    }
                }
                Ok(n)
            }
            Err(plain) => plain.read(out),
        }
    }
}

type Stream<'a> = Lines<BufReader<Metered<'a, Body<'a>>>>;

/// The decoded lines of `source`, metered by `budget` (`pass`: whether
/// this read is charged).
fn open<'a>(
    source: &'a mut dyn Source,
    stop: &Rc<RefCell<Option<Stop>>>,
    budget: &'a Budget,
    pass: Pass,
) -> io::Result<Stream<'a>> {
    let zstd = source.zstd();
    let raw = source.open()?;
    let inner = if zstd { Ok(Frames::new(raw)) } else { Err(raw) };
    let body = Body {
        inner,
        stop: Rc::clone(stop),
    };
    let metered = budget.meter(body, pass);
    Ok(Lines::new(
        BufReader::with_capacity(1 << 16, metered),
        budget.limits().line_bytes,
    ))
}

fn stopped(sink: &mut dyn Sink, path: &Path, line: Option<u64>, what: String) {
    sink.problem(Problem {
        path: path.to_owned(),
        line,
        what,
        stopped: true,
    });
}

/// The first line of `source` (at most [`crate::budget::Limits::header_bytes`]),
/// read as a header; `None` after a problem.
fn read_header(
    lines: &mut Stream<'_>,
    path: &Path,
    sink: &mut dyn Sink,
    budget: &Budget,
) -> Option<header::Header> {
    let parsed = match lines.next_line_within(budget.limits().header_bytes) {
        Ok(Some(Line::Text(text))) => header::parse(path, text, budget),
        Ok(Some(Line::TooLong)) => Parsed::NotAHeader(header::too_long(budget)),
        Ok(None) => Parsed::NotAHeader("empty: no session header".into()),
        Err(e) => {
            let what = format!("read failed: {e}; the rest of the file was not read");
            stopped(sink, path, None, what);
            return None;
        }
    };
    match parsed {
        Parsed::Known(header) => Some(*header),
        Parsed::Unknown(version) => {
            let what = format!(
                "format version {version} is not read (this scanner reads versions 0 to {}); skipped",
                header::VERSION_MAX
            );
            stopped(sink, path, Some(1), what);
            None
        }
        Parsed::NotAHeader(what) => {
            stopped(sink, path, Some(1), format!("{what}; skipped"));
            None
        }
    }
}

/// Reads one session log into `sink`: `begin`, its records, `end`.
pub(crate) fn read_one(source: &mut dyn Source, sink: &mut dyn Sink, budget: &Budget) {
    let path = source.label().to_owned();
    let unit = source.unit();
    if budget.left() == 0 {
        return stopped(sink, &path, None, budget.exhausted_what(unit));
    }
    let stop = Rc::new(RefCell::new(None));
    let (header, cut) = {
        // A look: the charged pass below reads these bytes again.
        let mut lines = match open(source, &stop, budget, Pass::Look) {
            Ok(lines) => lines,
            Err(e) => return stopped(sink, &path, None, format!("cannot open: {e}")),
        };
        let Some(header) = read_header(&mut lines, &path, sink, budget) else {
            if let Some(stop) = stop.borrow().as_ref() {
                stopped(sink, &path, None, stop.what());
            }
            return;
        };
        // A v2/v3 fork: the last inherited end-seed marker, found first.
        let mut cut = None;
        if header.seed == Seed::Marker {
            while let Ok(Some(line)) = lines.next_line() {
                if let Line::Text(text) = line {
                    cut = shapes::inherited_marker(text).or(cut);
                }
            }
        }
        (header, cut)
    };
    *stop.borrow_mut() = None;
    let mut lines = match open(source, &stop, budget, Pass::Charged) {
        Ok(lines) => lines,
        Err(e) => return stopped(sink, &path, None, format!("cannot open: {e}")),
    };
    // The header again (its line was read above).
    let _ = lines.next_line_within(budget.limits().header_bytes);
    let format = header.header.format;
    sink.begin(header.header);
    let mut events = events::Events::new(sink, path.clone(), format, header.seed, cut, budget);
    let reported = read_events(&mut lines, &mut events, &stop);
    events.finish();
    let what = stop.borrow().as_ref().map(Stop::what);
    if let Some(what) = what {
        events.stop(what);
    }
    if budget.exhausted() {
        events.stop(budget.exhausted_what(unit));
    }
    events.decoded(lines.bytes() - reported);
    events.end();
}

fn read_events(
    lines: &mut Stream<'_>,
    events: &mut events::Events<'_>,
    stop: &Rc<RefCell<Option<Stop>>>,
) -> u64 {
    let mut reported = 0;
    // The header was line 1.
    let mut number = 1;
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                events.stop(format!(
                    "read failed: {e}; the rest of the file was not read"
                ));
                break;
            }
        };
        number += 1;
        match line {
            Line::TooLong => {
                events.problem(Some(number), "a line longer than the line bound; skipped")
            }
            // The stream stops only when the line reader runs into its end,
            // so a line returned after a stop had no newline: a line cut
            // short by a torn or corrupt frame, or by the budget, not read.
            Line::Text(_) if stop.borrow().is_some() || events.spent() => {}
            Line::Text(text) => events.line(number, text),
        }
        if lines.bytes() - reported >= DECODED_EVERY {
            events.decoded(lines.bytes() - reported);
            reported = lines.bytes();
        }
    }
    reported
}
