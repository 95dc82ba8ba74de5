//! Members nested too deep, left out of a value's text before it is read.
//!
//! No line or payload is read deeper than [`MAX_DEPTH`] levels of arrays and
//! objects, its own object being level 1 (`args` and `tool_input` are level
//! 2, `result.value` level 3): the JSON reader refuses deeper text, and a
//! tree that deep is no command line. Rather than refuse the whole event,
//! [`prune`] cuts every array or object that would lie deeper out of the
//! value's text, with its key (an object member) or as an element (an array
//! element), and the comma that went with it; the rest reads as it was.
//!
//! It is one pass over the bytes with no recursion: the open containers are a
//! stack of at most [`MAX_DEPTH`] frames, and a member past the limit is
//! skipped by counting brackets, whatever its depth (100,000 is as cheap as
//! 129). The text it reads is a value the JSON reader has already checked
//! (a `RawValue`); on anything else it never panics, and the reader that
//! comes after it reports the error.

use std::borrow::Cow;

/// The deepest level of arrays and objects read, the line's (or payload's)
/// own object being level 1: serde_json's own limit, so a pruned value never
/// meets it.
pub const MAX_DEPTH: usize = 128;

/// The longest path of a left-out member shown, in characters (its middle is elided).
const PATH_MAX_CHARS: usize = 96;

/// The most characters of one key shown in a path.
const KEY_MAX_CHARS: usize = 32;

/// What [`prune`] left out of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// How many members were left out.
    pub count: usize,
    /// The level of the first one (the line's own object is level 1).
    pub level: usize,
    /// The first one's path below the value (`.key`, `[index]`), as its
    /// JSON text has it, middle elided past [`PATH_MAX_CHARS`].
    pub path: String,
}

impl LeftOut {
    /// One sentence for the host log about `field`'s members left out; the
    /// caller escapes it as a log field.
    pub fn describe(&self, field: &str) -> String {
        format!(
            "{} member{} of `{field}` nested deeper than {MAX_DEPTH} levels left out; the first, \
             at level {}: {field}{}",
            self.count,
            if self.count == 1 { "" } else { "s" },
            self.level,
            self.path
        )
    }
}

/// A value's text with its too-deep members cut out.
pub(crate) struct Pruned<'a> {
    /// The text to read: borrowed when nothing was cut.
    pub(crate) text: Cow<'a, str>,
    /// What was cut, if anything.
    pub(crate) left_out: Option<LeftOut>,
}

/// Cuts out of `text` (one JSON value lying at `level`) every array and
/// object that would lie deeper than [`MAX_DEPTH`]. `cut` is handed the text
/// of each member left out, in order (with its key, and maybe a comma).
pub(crate) fn prune<'a>(text: &'a str, level: usize, cut: &mut dyn FnMut(&str)) -> Pruned<'a> {
    // The value's own containers that may be kept, the value itself the first.
    let levels = (MAX_DEPTH + 1).saturating_sub(level).max(1);
    // Each level takes at least two bytes, `[` and `]`.
    if text.len() < 2 * levels {
        return Pruned {
            text: Cow::Borrowed(text),
            left_out: None,
        };
    }
    let mut p = Pruner {
        text,
        levels,
        base: level,
        stack: Vec::new(),
        out: None,
        copied: 0,
        left_out: None,
        cut,
    };
    p.run();
    let text = match p.out {
        Some(mut out) => {
            out.push_str(text.get(p.copied..).unwrap_or_default());
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    };
    Pruned {
        text,
        left_out: p.left_out,
    }
}

/// One open array or object.
struct Frame {
    object: bool,
    /// In an object: a key comes next.
    expect_key: bool,
    /// The current element's index (an array).
    index: usize,
    /// The current member's key, as the bytes between its quotes (an object).
    key: (usize, usize),
    /// Where the current member starts: its key, or the element itself.
    start: usize,
    /// The comma before the current member.
    comma: Option<usize>,
    /// A member of this container was kept already.
    kept: bool,
    /// A member was cut before any was kept: the comma after it goes too.
    cut_comma: bool,
}

struct Pruner<'a, 'c> {
    text: &'a str,
    levels: usize,
    base: usize,
    stack: Vec<Frame>,
    /// The text so far, once something was cut.
    out: Option<String>,
    /// How much of `text` is in `out` or was cut.
    copied: usize,
    left_out: Option<LeftOut>,
    cut: &'c mut dyn FnMut(&str),
}

impl Pruner<'_, '_> {
    fn run(&mut self) {
        let bytes = self.text.as_bytes();
        let mut i = 0;
        while let Some(&c) = bytes.get(i) {
            i = match c {
                b'"' => {
                    let end = string_end(bytes, i);
                    match self.stack.last_mut() {
                        Some(f) if f.object && f.expect_key => {
                            f.key = (i + 1, end.saturating_sub(1).max(i + 1));
                            f.start = i;
                            f.expect_key = false;
                        }
                        _ => self.value_done(),
                    }
                    end
                }
                b'[' | b'{' if self.stack.len() >= self.levels => {
                    let end = container_end(bytes, i);
                    self.cut_member(i, end);
                    end
                }
                b'[' | b'{' => {
                    self.element_starts(i);
                    self.stack.push(Frame {
                        object: c == b'{',
                        expect_key: c == b'{',
                        index: 0,
                        key: (i, i),
                        start: i,
                        comma: None,
                        kept: false,
                        cut_comma: false,
                    });
                    i + 1
                }
                b']' | b'}' => {
                    self.stack.pop();
                    self.value_done();
                    i + 1
                }
                b',' => {
                    self.comma(i);
                    i + 1
                }
                b':' | b' ' | b'\t' | b'\n' | b'\r' => i + 1,
                _ => {
                    self.element_starts(i);
                    self.value_done();
                    scalar_end(bytes, i)
                }
            };
        }
    }

    /// An array's element starts at `at`.
    fn element_starts(&mut self, at: usize) {
        if let Some(f) = self.stack.last_mut().filter(|f| !f.object) {
            f.start = at;
        }
    }

    /// The current member of the innermost container was kept.
    fn value_done(&mut self) {
        if let Some(f) = self.stack.last_mut() {
            f.kept = true;
            f.index += 1;
        }
    }

    fn comma(&mut self, at: usize) {
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        f.expect_key = f.object;
        if f.cut_comma {
            f.cut_comma = false;
            f.comma = None;
            self.remove(at, at + 1);
        } else {
            f.comma = Some(at);
        }
    }

    /// The container at `from..to` lies too deep: its member goes.
    fn cut_member(&mut self, from: usize, to: usize) {
        self.element_starts(from);
        let path = if self.left_out.is_none() {
            Some(self.path())
        } else {
            None
        };
        let start = match self.stack.last_mut() {
            Some(f) => {
                f.index += 1;
                if f.kept {
                    f.comma.take().unwrap_or(f.start)
                } else {
                    f.cut_comma = true;
                    f.start
                }
            }
            None => from,
        };
        self.remove(start, to);
        match (&mut self.left_out, path) {
            (Some(left_out), _) => left_out.count += 1,
            (None, path) => {
                self.left_out = Some(LeftOut {
                    count: 1,
                    level: self.base + self.stack.len(),
                    path: path.unwrap_or_default(),
                });
            }
        }
    }

    /// Cuts `from..to` out of the text.
    fn remove(&mut self, from: usize, to: usize) {
        let (text, copied) = (self.text, self.copied);
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(text.len()));
        if let (Some(kept), Some(gone)) = (text.get(copied..from), text.get(from..to)) {
            out.push_str(kept);
            (self.cut)(gone);
            self.copied = to;
        }
    }

    /// The current member's path, below the value.
    fn path(&self) -> String {
        let mut path = String::new();
        for f in &self.stack {
            if f.object {
                let key = self.text.get(f.key.0..f.key.1).unwrap_or_default();
                path.push('.');
                path.extend(key.chars().take(KEY_MAX_CHARS));
                if key.chars().nth(KEY_MAX_CHARS).is_some() {
                    path.push('…');
                }
            } else {
                path.push_str(&format!("[{}]", f.index));
            }
        }
        elided(&path)
    }
}

/// `path` with its middle elided when it is longer than [`PATH_MAX_CHARS`].
fn elided(path: &str) -> String {
    let chars = path.chars().count();
    if chars <= PATH_MAX_CHARS {
        return path.to_owned();
    }
    let half = PATH_MAX_CHARS / 2;
    let head: String = path.chars().take(half).collect();
    let tail: String = path.chars().skip(chars - half).collect();
    format!("{head}…{tail}")
}

/// The index just past the string starting at `at` (its opening quote).
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while let Some(found) = bytes
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        i += found;
        if bytes[i] == b'"' {
            return i + 1;
        }
        i += 2;
    }
    bytes.len()
}

/// The index just past the array or object starting at `at`.
fn container_end(bytes: &[u8], at: usize) -> usize {
    let (mut i, mut open) = (at, 0usize);
    while let Some(&c) = bytes.get(i) {
        match c {
            b'"' => {
                i = string_end(bytes, i);
                continue;
            }
            b'[' | b'{' => open += 1,
            b']' | b'}' => {
                open = open.saturating_sub(1);
                if open == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The index just past the number or literal starting at `at`.
fn scalar_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while let Some(&c) = bytes.get(i) {
        if matches!(
            c,
            b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':' | b'"'
        ) {
            break;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
