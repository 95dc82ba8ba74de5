//! The absolute paths a shell call's own arguments name.
//!
//! The denial stamp says that the backend refused something; it does not say
//! what. What this family can place is the set of absolute paths the call
//! itself names: every one found in the `command` string, and every other
//! argument whose whole value is an absolute path (a working directory, say).
//!
//! The scan is deliberately generous. Missing an absolute path that lies
//! outside the workspace would let the family speak about a denial it cannot
//! place, so anything that looks like the start of a drive-qualified or UNC
//! path counts, wherever it sits in a token (`>D:\ws\out.txt`,
//! `--out=D:\ws\x`, `open(r'C:\x')`). Paths are compared with Windows
//! semantics later, on their lexically normalized form.

use advisor_core::{HostPath, PathStyle, Untrusted};

/// The most paths a finding carries; a call naming more is not placed at all.
pub const MAX_PATHS: usize = 16;

/// Where a named path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A path inside the `command` string (or one element of a `command` array).
    Command,
    /// A whole argument value such as `cwd`: it says where the command ran.
    Argument,
}

/// One absolute path a call names, as spelled and as read with Windows grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPath {
    /// The spelling in the call.
    pub raw: Untrusted,
    /// The lexically normalized path (still the call's text: wrap it in
    /// [`Untrusted`] before it leaves the family, see [`NamedPath::normalized`]).
    pub path: HostPath,
    /// Which argument named it.
    pub origin: Origin,
    /// A component ends in `.` or a space, which Windows strips before it
    /// resolves the path; such a path cannot be placed lexically.
    pub ambiguous: bool,
}

impl NamedPath {
    /// The lexically normalized path as untrusted text, for rendering.
    pub fn normalized(&self) -> Untrusted {
        Untrusted::new(self.path.as_str())
    }

    /// True when the call spelled the path exactly as it normalizes.
    pub fn spelled_normalized(&self) -> bool {
        self.raw.inspect() == self.path.as_str()
    }
}

/// Every absolute path a call names, bounded by [`MAX_PATHS`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamedPaths {
    /// The paths, in the order the call names them.
    pub paths: Vec<NamedPath>,
    /// Set when the call names more than [`MAX_PATHS`] absolute paths.
    pub overflow: bool,
    /// Set when the call names a path rooted in a variable (`$env:ProgramFiles\…`,
    /// `%USERPROFILE%\…`, `$HOME/…`, `~\…`): absolute once expanded, but where it
    /// points cannot be known from here.
    pub opaque: bool,
}

/// Bytes that end a path inside an unquoted token or a script.
fn ends_path(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b'"' | b'\'' | b'`' | b',' | b';' | b'|' | b'&' | b'<' | b'>' | b'(' | b')'
        )
}

/// Bytes that end a quoted value which is, as a whole, one path (spaces and
/// parentheses belong to names like `C:\Program Files (x86)`).
fn ends_whole_path(b: u8) -> bool {
    b.is_ascii_control()
        || matches!(
            b,
            b'"' | b'\'' | b'`' | b',' | b';' | b'|' | b'&' | b'<' | b'>'
        )
}

/// The length of the token that starts at `i`: its first byte (a start, which
/// never ends a path) and every byte after it up to the next one that does, or
/// to the end. Never 0, so a scan that steps over tokens always moves on.
fn token_len(bytes: &[u8], i: usize) -> usize {
    let tail = bytes.get(i + 1..).unwrap_or_default();
    1 + tail
        .iter()
        .position(|&b| ends_path(b))
        .unwrap_or(tail.len())
}

fn is_separator(b: u8) -> bool {
    b == b'\\' || b == b'/'
}

/// A byte that continues a word, so a drive letter after it is not a path start.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Whether an absolute path (drive-qualified or UNC) starts at `i`.
fn starts_absolute(bytes: &[u8], i: usize) -> bool {
    let at = |k: usize| bytes.get(k).copied();
    let prev = i.checked_sub(1).and_then(at);
    // `C:\` or `C:/`, not preceded by a word character (`abc:\` is no drive).
    let drive = at(i).is_some_and(|b| b.is_ascii_alphabetic())
        && at(i + 1) == Some(b':')
        && at(i + 2).is_some_and(is_separator)
        && !prev.is_some_and(is_word);
    // `\\server\share` or `//server/share`, at a token boundary (not `https://`).
    let unc = at(i).is_some_and(is_separator)
        && at(i + 1) == at(i)
        && at(i + 2).is_some_and(|b| !is_separator(b) && !b.is_ascii_whitespace())
        && prev.is_none_or(|b| ends_path(b) || b == b'=');
    drive || unc
}

/// Whether a variable-rooted path starts at `i`: `$name\`, `$env:name\`,
/// `${env:name}\`, `$(…)\`, `%name%\` or `~\` (either separator).
fn starts_variable(bytes: &[u8], i: usize) -> bool {
    let at = |k: usize| bytes.get(k).copied();
    if i.checked_sub(1).and_then(at).is_some_and(is_word) {
        return false;
    }
    let name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'(' | b')');
    let after = |from: usize, also: &[u8]| {
        let len = bytes.get(from..).map_or(0, |rest| {
            rest.iter()
                .take_while(|&&b| name(b) || also.contains(&b))
                .count()
        });
        (len > 0).then_some(from + len)
    };
    match at(i) {
        Some(b'$') => after(i + 1, b"{}").is_some_and(|end| at(end).is_some_and(is_separator)),
        Some(b'%') => after(i + 1, b"")
            .is_some_and(|end| at(end) == Some(b'%') && at(end + 1).is_some_and(is_separator)),
        Some(b'~') => at(i + 1).is_some_and(is_separator),
        _ => false,
    }
}

/// True when a component (not `.` or `..`) ends in a dot or a space.
fn has_ambiguous_component(raw: &str) -> bool {
    raw.split(['\\', '/'])
        .filter(|c| !c.is_empty() && *c != "." && *c != "..")
        .any(|c| c.ends_with('.') || c.ends_with(' '))
}

impl NamedPaths {
    /// Adds one spelling if it reads as an absolute Windows path.
    pub fn push(&mut self, raw: &str, origin: Origin) {
        let raw = raw.trim();
        if raw.is_empty() {
            return;
        }
        if self.overflow {
            // Already too many to place: stop normalizing (a command holding tens of
            // thousands of paths must not cost an allocation per path).
            return;
        }
        let path = HostPath::lexical(PathStyle::Windows, raw);
        if !path.is_absolute() {
            return;
        }
        if self.paths.len() >= MAX_PATHS {
            self.overflow = true;
            return;
        }
        self.paths.push(NamedPath {
            raw: Untrusted::new(raw),
            ambiguous: has_ambiguous_component(raw),
            path,
            origin,
        });
    }

    /// Every absolute path inside a piece of script text: find the next start,
    /// take its token, go on after it.
    fn scan(&mut self, text: &str, origin: Origin) {
        let bytes = text.as_bytes();
        let mut rest = 0..bytes.len();
        while let Some(start) =
            rest.find(|&i| starts_absolute(bytes, i) || starts_variable(bytes, i))
        {
            let end = start + token_len(bytes, start);
            if !starts_absolute(bytes, start) {
                self.opaque = true;
            } else if let Some(path) = text.get(start..end) {
                // `start` and `end` sit on ASCII bytes (or the end), so both are char boundaries.
                self.push(path, origin);
            }
            // `find` consumed `start`; skip the rest of its token.
            rest.start = rest.start.max(end);
        }
    }

    /// A quoted value: one path with spaces in it when that is all it is, else script text.
    fn quoted(&mut self, text: &str, origin: Origin) {
        let trimmed = text.trim();
        if starts_absolute(trimmed.as_bytes(), 0) && !trimmed.bytes().any(ends_whole_path) {
            self.push(trimmed, origin);
        } else {
            self.scan(text, origin);
        }
    }

    /// The paths a `command` string names: its quoted runs and its bare tokens.
    pub fn command(&mut self, command: &str) {
        let mut rest = command;
        while let Some(open) = rest.find(['"', '\'']) {
            self.scan(&rest[..open], Origin::Command);
            let quote = &rest[open..open + 1];
            let body = &rest[open + 1..];
            // An unterminated quote runs to the end of the command.
            let close = body.find(quote).unwrap_or(body.len());
            self.quoted(&body[..close], Origin::Command);
            rest = body.get(close + 1..).unwrap_or_default();
        }
        self.scan(rest, Origin::Command);
    }

    /// One element of an argv-style `command` array.
    pub fn word(&mut self, text: &str) {
        self.quoted(text, Origin::Command);
    }

    /// A non-command argument: counted only when its whole value is a path.
    pub fn argument(&mut self, value: &str) {
        let start = value.trim().as_bytes();
        if starts_absolute(start, 0) || starts_variable(start, 0) {
            self.quoted(value, Origin::Argument);
        }
    }
}
