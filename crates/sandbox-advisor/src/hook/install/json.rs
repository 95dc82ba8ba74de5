//! A JSON reader that keeps where every value lies in the text, so `hook
//! install` can splice its handlers in and leave every other byte as the
//! user wrote it (numbers, key order, spacing, escapes).
//!
//! It reads RFC 8259 JSON: no comments, no trailing commas. A UTF-8
//! byte-order mark at the start is skipped. Numbers are checked against the
//! grammar and kept as text, never converted. Strings are decoded for
//! comparing only (a lone surrogate escape decodes to U+FFFD). It refuses,
//! naming the line and column: any syntax error, nesting deeper than
//! [`MAX_DEPTH`], more than [`MAX_VALUES`] values, and a key that appears twice in one object (readers differ
//! on which of the two counts, so no edit of such a file can be sure what the
//! client will read).

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use advisor_core::quote::escaped;

mod string;

/// The deepest nesting read (the root value is level 1).
pub const MAX_DEPTH: usize = 128;

/// The most values read (each costs a few dozen bytes): a settings file
/// holds far fewer, so a file of 4 MiB of `[0,0,…]` costs a few MiB, not
/// hundreds.
pub const MAX_VALUES: usize = 100_000;

/// One value and the bytes it spans.
#[derive(Debug)]
pub struct Node {
    /// Its bytes in the text, from its first character to its last.
    pub span: Range<usize>,
    /// The 1-based line it starts on.
    pub line: usize,
    /// What it is.
    pub kind: Kind,
}

/// What a value is.
#[derive(Debug)]
pub enum Kind {
    /// An object's members, in the text's order.
    Object(Vec<Member>),
    /// An array's elements.
    Array(Vec<Node>),
    /// A string, decoded.
    String(String),
    /// A number, a boolean or `null`: kept as text.
    Scalar,
}

/// One member of an object.
#[derive(Debug)]
pub struct Member {
    /// The key, decoded.
    pub key: String,
    /// The key's bytes, quotes included.
    pub key_span: Range<usize>,
    /// The value.
    pub value: Node,
}

impl Node {
    /// The value of `key` when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(members) => members.iter().find(|m| m.key == key).map(|m| &m.value),
            _ => None,
        }
    }

    /// The decoded string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Why a text is not JSON install will edit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// Not JSON.
    #[error("not valid JSON at line {line} column {column}: {what}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What was expected or found.
        what: &'static str,
    },
    /// Nested deeper than [`MAX_DEPTH`].
    #[error("nested deeper than {MAX_DEPTH} levels at line {line}")]
    TooDeep {
        /// 1-based line.
        line: usize,
    },
    /// More than [`MAX_VALUES`] values.
    #[error(
        "it holds more than {MAX_VALUES} values (a settings file holds far fewer); line {line}"
    )]
    TooMany {
        /// 1-based line of the value over the bound.
        line: usize,
    },
    /// A key twice in one object.
    #[error(
        "the key {key} appears twice in one object (line {first} and line {line}): JSON with a \
         duplicate key is ambiguous, since programs differ on which of the two they keep, so \
         install cannot tell what the client reads; remove one of them"
    )]
    Duplicate {
        /// The key, quoted and escaped.
        key: Shown,
        /// The line of its first appearance.
        first: usize,
        /// The line of the second.
        line: usize,
    },
}

/// A key from the file, shown in a message: in double quotes, escaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown(String);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.0.replace('\\', "\\\\").replace('"', "\\\"");
        write!(f, "\"{}\"", escaped(&inner))
    }
}

/// The 1-based line and character column of byte `at` in `text`.
pub fn position(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let mut start = at;
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Reads `text` whole.
pub fn parse(text: &str) -> Result<Node, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: if text.starts_with('\u{feff}') { 3 } else { 0 },
        depth: 0,
        values: 0,
        line: 1,
    };
    p.skip_ws();
    let root = p.value()?;
    p.skip_ws();
    if p.at < p.bytes.len() {
        return Err(p.syntax("text after the end of the JSON value"));
    }
    Ok(root)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    values: usize,
    /// The 1-based line of `at`.
    line: usize,
}

impl Parser<'_> {
    fn syntax(&self, what: &'static str) -> JsonError {
        let (line, column) = position(self.text, self.at);
        JsonError::Syntax { line, column, what }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips white space, counting lines: only white space can hold a line
    /// break (a string cannot), so [`Parser::line`] stays exact without a
    /// scan from the start.
    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b'\n') => self.line += 1,
                Some(b' ' | b'\t' | b'\r') => {}
                _ => return,
            }
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), JsonError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.syntax(what))
        }
    }

    fn value(&mut self) -> Result<Node, JsonError> {
        let (start, line) = (self.at, self.line);
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err(JsonError::TooMany { line: self.line });
        }
        let kind = match self.peek() {
            Some(b'{') => self.nested(Self::object)?,
            Some(b'[') => self.nested(Self::array)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.word("true")?,
            Some(b'f') => self.word("false")?,
            Some(b'n') => self.word("null")?,
            None => return Err(self.syntax("the text ends where a value was expected")),
            Some(_) => return Err(self.syntax("expected a JSON value")),
        };
        Ok(Node {
            span: start..self.at,
            line,
            kind,
        })
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Kind, JsonError>,
    ) -> Result<Kind, JsonError> {
        if self.depth == MAX_DEPTH {
            return Err(JsonError::TooDeep { line: self.line });
        }
        self.depth += 1;
        let kind = read(self);
        self.depth -= 1;
        kind
    }

    fn object(&mut self) -> Result<Kind, JsonError> {
        self.at += 1;
        let mut members = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            let key_start = self.at;
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a key in double quotes"));
            }
            let key = self.string()?;
            let key_span = key_start..self.at;
            let line = self.line;
            // A lone surrogate decodes to U+FFFD: such a key is compared by its text.
            let identity = if key.contains('\u{fffd}') {
                format!("\u{0}{}", &self.text[key_span.clone()])
            } else {
                key.clone()
            };
            if let Some(&first) = seen.get(&identity) {
                return Err(JsonError::Duplicate {
                    key: Shown(key),
                    first,
                    line,
                });
            }
            seen.insert(identity, line);
            self.skip_ws();
            self.expect(b':', "expected `:` after a key")?;
            self.skip_ws();
            let value = self.value()?;
            members.push(Member {
                key,
                key_span,
                value,
            });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.syntax("expected `,` or `}` after a member")),
            }
        }
    }

    fn array(&mut self) -> Result<Kind, JsonError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.syntax("expected `,` or `]` after an element")),
            }
        }
    }

    fn word(&mut self, word: &'static str) -> Result<Kind, JsonError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(Kind::Scalar)
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Kind, JsonError> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.syntax("expected a digit after `.`"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("expected a digit in the exponent"));
            }
        }
        Ok(Kind::Scalar)
    }
}
