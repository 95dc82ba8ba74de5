//! What reading one file, or one archive with all its members, may cost.
//!
//! Every reader is handed a [`Budget`] and takes its bounds from it: the
//! decoded bytes it may read ([`Budget::meter`]), the first line it reads to
//! tell a header ([`Limits::header_bytes`]), the longest line it holds, the
//! JSON it builds into values ([`Budget::value`]), and how long an id or a
//! name may be before it is cut ([`Budget::text`]). The analysis takes from
//! the same [`Limits`] what a session's calls awaiting their result may keep.
//! `docs/scan/report.md` states each bound; nothing a file holds can make a
//! scan hold more.

use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::io::{self, Read};

use serde_json::Value;
use serde_json::value::RawValue;

/// The bounds of one scan. [`Limits::default`] is what `sandbox-advisor scan`
/// uses; a test may shrink them to reach a bound with a small input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Decoded bytes read from one file, or from one archive's members
    /// together; past it the rest is not read and a problem says so.
    pub decoded_bytes: u64,
    /// The most bytes of a first line read to tell a file's format or to read
    /// a session header; a longer first line is no header, and the file is
    /// not read further.
    pub header_bytes: usize,
    /// The longest line held; a longer one is skipped without being held.
    pub line_bytes: usize,
    /// The longest arguments (JSON text) a call keeps; longer ones are left
    /// out (the call is judged without them, and a problem names its line).
    pub arguments_bytes: usize,
    /// The most JSON values (every array, object, string, number…) built
    /// from one piece of text; text holding more is not built.
    pub value_nodes: usize,
    /// What the calls awaiting their result keep in one session, arguments
    /// and ids together; past it the oldest are dropped.
    pub pending_bytes: usize,
    /// The longest id or name kept (session, call, tool, archive member);
    /// a longer one is cut, and a digest of the whole keeps it distinct.
    pub text_bytes: usize,
    /// The longest working directory kept; a longer one is unknown.
    pub cwd_bytes: usize,
}

/// Decoded bytes per file or archive: 1 GiB.
pub const DECODED_BYTES_MAX: u64 = 1 << 30;
/// The first line read to tell a format or read a header: 16 KiB.
pub const HEADER_BYTES_MAX: usize = 16 << 10;
/// The longest line held: 64 MiB. Claude Code writes pasted images (up to
/// 5 MB each, base64) and prompt snapshots on one line, so the bound is far
/// above what a session holds.
pub const LINE_BYTES_MAX: usize = 64 << 20;
/// The longest arguments a call keeps: 1 MiB of JSON text.
pub const ARGUMENTS_BYTES_MAX: usize = 1 << 20;
/// The most JSON values built from one piece of text: 4,096.
pub const VALUE_NODES_MAX: usize = 4_096;
/// What one session's calls awaiting their result keep: 16 MiB.
pub const PENDING_BYTES_MAX: usize = 16 << 20;
/// The longest id or name kept: 256 bytes.
pub const TEXT_BYTES_MAX: usize = 256;
/// The longest working directory kept: 4 KiB (Linux's `PATH_MAX`).
pub const CWD_BYTES_MAX: usize = 4 << 10;

impl Default for Limits {
    fn default() -> Self {
        Self {
            decoded_bytes: DECODED_BYTES_MAX,
            header_bytes: HEADER_BYTES_MAX,
            line_bytes: LINE_BYTES_MAX,
            arguments_bytes: ARGUMENTS_BYTES_MAX,
            value_nodes: VALUE_NODES_MAX,
            pending_bytes: PENDING_BYTES_MAX,
            text_bytes: TEXT_BYTES_MAX,
            cwd_bytes: CWD_BYTES_MAX,
        }
    }
}

/// Why text was not built into a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotBuilt {
    /// It is longer than [`Limits::arguments_bytes`] (a call's arguments).
    TooLong,
    /// It holds more values than [`Limits::value_nodes`].
    TooMany,
    /// It is not JSON.
    NotJson,
}

/// How a call's arguments recorded as a JSON string are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strings {
    /// A string holding JSON is that JSON; other text stays a string (the
    /// harness's and Codex's arguments are JSON text).
    Parsed,
    /// A string stays a string (Claude Code's `input` is an object).
    Kept,
}

/// One file's (or one archive's) budget: the [`Limits`], and the decoded
/// bytes spent so far. Readers share it by reference.
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    decoded: Cell<u64>,
    exhausted: Cell<bool>,
}

/// Whether a pass over the bytes is charged to the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// The bytes read count against [`Limits::decoded_bytes`].
    Charged,
    /// A look ahead at bytes a charged pass reads again (a forked session's
    /// first pass): bounded by what is left, but not charged.
    Look,
}

impl Budget {
    /// A fresh budget.
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            decoded: Cell::new(0),
            exhausted: Cell::new(false),
        }
    }

    /// The bounds.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Decoded bytes charged so far.
    pub fn decoded(&self) -> u64 {
        self.decoded.get()
    }

    /// Decoded bytes left to read.
    pub fn left(&self) -> u64 {
        self.limits.decoded_bytes.saturating_sub(self.decoded.get())
    }

    /// True once a charged read stopped at [`Limits::decoded_bytes`].
    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }

    /// The problem's words once the budget is spent; `what` names the file
    /// or the archive.
    pub fn exhausted_what(&self, what: &str) -> String {
        format!(
            "more than {} decoded from this {what}; the rest of it was not read",
            bytes_text(self.limits.decoded_bytes)
        )
    }

    /// `inner`, ending (as if at its end) once the budget's decoded bytes
    /// are spent.
    pub fn meter<R: Read>(&self, inner: R, pass: Pass) -> Metered<'_, R> {
        Metered {
            budget: self,
            inner,
            pass,
            looked: 0,
        }
    }

    /// `text` cut to [`Limits::text_bytes`]: kept whole when it fits;
    /// otherwise its start, `…#`, and 16 hex digits of a digest of the whole,
    /// so two long ids that share a start stay two ids.
    pub fn text(&self, text: String) -> String {
        cut(text, self.limits.text_bytes)
    }

    /// The value of `text` (JSON), unless it holds more than
    /// [`Limits::value_nodes`] values; counted before anything is built.
    pub fn value(&self, text: &str) -> Result<Value, NotBuilt> {
        if nodes_over(text.as_bytes(), self.limits.value_nodes) {
            return Err(NotBuilt::TooMany);
        }
        serde_json::from_str(text).map_err(|_| NotBuilt::NotJson)
    }

    /// A call's arguments, raw JSON text, as the families read them: built
    /// only when at most [`Limits::arguments_bytes`] long and holding at
    /// most [`Limits::value_nodes`] values.
    pub fn arguments(&self, raw: &RawValue, strings: Strings) -> Result<Value, NotBuilt> {
        if raw.get().len() > self.limits.arguments_bytes {
            return Err(NotBuilt::TooLong);
        }
        if strings == Strings::Parsed && raw.get().starts_with('"') {
            let text: String = serde_json::from_str(raw.get()).unwrap_or_default();
            return match self.value(&text) {
                Err(NotBuilt::NotJson) => Ok(Value::String(text)),
                other => other,
            };
        }
        self.value(raw.get())
    }

    /// The problem's words for arguments not built: `what` names them (`a
    /// tool/call's arguments`).
    pub fn not_built(&self, what: &str, why: NotBuilt) -> String {
        match why {
            NotBuilt::TooLong => format!(
                "{what} longer than {}; the call is judged without them",
                bytes_text(self.limits.arguments_bytes as u64)
            ),
            NotBuilt::TooMany | NotBuilt::NotJson => format!(
                "{what} holding more than {} JSON values; the call is judged without them",
                self.limits.value_nodes
            ),
        }
    }
}

/// Cuts `text` to `max` bytes (see [`Budget::text`]).
pub fn cut(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let digest = format!("…#{:016x}", hasher.finish());
    let mut end = max.saturating_sub(digest.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(end + digest.len());
    out.push_str(&text[..end]);
    out.push_str(&digest);
    out
}

/// `n` bytes for a person: `1 GiB`, `16 KiB`, `300 bytes`.
pub fn bytes_text(n: u64) -> String {
    match n {
        _ if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        _ if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        _ if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        _ => format!("{n} bytes"),
    }
}

/// True when the JSON text holds more than `max` values: every `[`, `{` and
/// `,` outside a string starts one, and the text itself is one. An upper
/// bound of what parsing it would build, read in one pass without parsing.
fn nodes_over(text: &[u8], max: usize) -> bool {
    let mut nodes = 1usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' | b',' => {
                nodes += 1;
                if nodes > max {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A reader that stops at its budget's decoded bytes (see [`Budget::meter`]).
#[derive(Debug)]
pub struct Metered<'b, R> {
    budget: &'b Budget,
    inner: R,
    pass: Pass,
    looked: u64,
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let spent = match self.pass {
            Pass::Charged => self.budget.decoded.get(),
            Pass::Look => self.budget.decoded.get().saturating_add(self.looked),
        };
        let left = self.budget.limits.decoded_bytes.saturating_sub(spent);
        if left == 0 {
            // At the bound: a file that ends exactly here is whole; one
            // more byte means the budget, not the file, ended the read.
            if !out.is_empty() && self.pass == Pass::Charged && !self.budget.exhausted.get() {
                let mut probe = [0u8; 1];
                if self.inner.read(&mut probe)? > 0 {
                    self.budget.exhausted.set(true);
                }
            }
            return Ok(0);
        }
        let room = usize::try_from(left).unwrap_or(usize::MAX).min(out.len());
        let n = self.inner.read(&mut out[..room])?;
        match self.pass {
            Pass::Charged => self.budget.decoded.set(spent + n as u64),
            Pass::Look => self.looked += n as u64,
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_stays_distinct() {
        assert_eq!(cut("short".into(), 32), "short");
        let a = cut(format!("{}a", "x".repeat(100)), 32);
        let b = cut(format!("{}b", "x".repeat(100)), 32);
        assert!(a.len() <= 32 && b.len() <= 32, "{a} {b}");
        assert_ne!(a, b);
        assert!(a.starts_with("xxxxxxxxx") && a.contains("…#"), "{a}");
        // A cut never splits a character.
        let wide = cut("é".repeat(100), 33);
        assert!(wide.len() <= 33, "{wide}");
    }

    #[test]
    fn values_are_counted_before_they_are_built() {
        let budget = Budget::new(Limits {
            value_nodes: 4,
            ..Limits::default()
        });
        assert_eq!(
            budget.value(r#"{"a":[1,2]}"#),
            Ok(serde_json::json!({"a":[1,2]}))
        );
        assert_eq!(budget.value("[0,0,0,0]"), Err(NotBuilt::TooMany));
        // Commas and brackets inside strings are text, not values.
        assert!(budget.value(r#"["a,b,c,[{", "\",,,"]"#).is_ok());
        assert_eq!(budget.value("nope"), Err(NotBuilt::NotJson));
    }

    #[test]
    fn a_meter_stops_at_the_budget_and_a_look_is_not_charged() {
        let budget = Budget::new(Limits {
            decoded_bytes: 10,
            ..Limits::default()
        });
        let mut text = String::new();
        budget
            .meter(&b"0123456"[..], Pass::Look)
            .read_to_string(&mut text)
            .unwrap_or_default();
        assert_eq!((text.as_str(), budget.decoded()), ("0123456", 0));
        text.clear();
        budget
            .meter(&b"0123456789abcdef"[..], Pass::Charged)
            .read_to_string(&mut text)
            .unwrap_or_default();
        assert_eq!(text, "0123456789");
        assert!(budget.exhausted());
        let mut more = String::new();
        budget
            .meter(&b"xyz"[..], Pass::Charged)
            .read_to_string(&mut more)
            .unwrap_or_default();
        assert_eq!(
            more, "",
            "an archive's next member gets what is left: nothing"
        );
        assert_eq!(bytes_text(1 << 30), "1 GiB");
    }
}
