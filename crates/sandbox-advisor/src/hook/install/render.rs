//! The text install inserts, laid out the way the file around it is: its
//! line ending, its indentation unit, its spacing after `:` and `,`. A new
//! file gets two-space indentation and `\n`.

use super::json::{Kind, Node};

/// A value install writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tree {
    /// An object, members in order.
    Object(Vec<(String, Tree)>),
    /// An array.
    Array(Vec<Tree>),
    /// A string.
    String(String),
}

/// How the file lays out its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    /// `\n` or `\r\n`.
    pub newline: &'static str,
    /// One level of indentation.
    pub unit: String,
    /// What follows a key: `:` and any spaces.
    pub colon: String,
    /// What separates members on one line: `,` and any spaces.
    pub comma: String,
    /// True when the file breaks its containers over lines.
    pub pretty: bool,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            newline: "\n",
            unit: "  ".to_owned(),
            colon: ": ".to_owned(),
            comma: ", ".to_owned(),
            pretty: true,
        }
    }
}

/// The whitespace just before byte `at`.
pub fn ws_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let kept = head.trim_end_matches([' ', '\t', '\n', '\r']);
    &head[kept.len()..]
}

/// The indentation of the line holding byte `at`.
pub fn line_indent(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

impl Style {
    /// The style of `text`, whose root value is `root`.
    pub fn of(text: &str, root: &Node) -> Self {
        let mut style = Style {
            newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
            // No line break in the root: one line, unless it is empty (no sign either way).
            pretty: text[root.span.clone()].contains('\n')
                || matches!(&root.kind, Kind::Object(m) if m.is_empty()),
            ..Style::default()
        };
        let mut colon = None;
        let mut comma = None;
        let mut unit = None;
        visit(root, &mut |container, first, second| {
            let sep = ws_before(text, first.start);
            if unit.is_none() && sep.contains('\n') {
                // Only here, where the child starts a line: the container's
                // line ends there, so each line is read at most once.
                let head = line_indent(text, container.span.start);
                let inner = line_indent(text, first.start);
                if let Some(extra) = inner.strip_prefix(head).filter(|e| !e.is_empty()) {
                    unit = Some(extra.to_owned());
                }
            }
            if let Some(key_end) = first.key_end {
                let between = &text[key_end..first.value_start];
                if colon.is_none() && !between.contains('\n') {
                    colon = Some(between.to_owned());
                }
            }
            if let Some(second) = second {
                let between = &text[first.end..second];
                if comma.is_none() && !between.contains('\n') {
                    comma = Some(between.to_owned());
                }
            }
        });
        if let Some(unit) = unit {
            style.unit = unit;
        }
        if let Some(colon) = colon {
            style.colon = colon;
        }
        if let Some(comma) = comma {
            style.comma = comma;
        } else if style.colon == ":" {
            style.comma = ",".to_owned();
        }
        style
    }

    /// `tree` as text, starting at a line indented `indent` (pretty) or on
    /// one line.
    pub fn render(&self, tree: &Tree, pretty: bool, indent: &str) -> String {
        let mut out = String::new();
        self.write(&mut out, tree, pretty, indent);
        out
    }

    fn write(&self, out: &mut String, tree: &Tree, pretty: bool, indent: &str) {
        let inner = format!("{indent}{}", self.unit);
        let (open, close, items): (char, char, Vec<(Option<&str>, &Tree)>) = match tree {
            Tree::String(s) => {
                out.push_str(&json_string(s));
                return;
            }
            Tree::Array(items) => ('[', ']', items.iter().map(|t| (None, t)).collect()),
            Tree::Object(members) => (
                '{',
                '}',
                members.iter().map(|(k, t)| (Some(k.as_str()), t)).collect(),
            ),
        };
        out.push(open);
        for (n, (key, value)) in items.iter().enumerate() {
            if n > 0 {
                out.push_str(if pretty { "," } else { &self.comma });
            }
            if pretty {
                out.push_str(self.newline);
                out.push_str(&inner);
            }
            if let Some(key) = key {
                out.push_str(&json_string(key));
                out.push_str(&self.colon);
            }
            self.write(out, value, pretty, &inner);
        }
        if pretty && !items.is_empty() {
            out.push_str(self.newline);
            out.push_str(indent);
        }
        out.push(close);
    }
}

/// `s` as a JSON string: `"`, `\` and control characters escaped, the rest
/// as it is.
pub fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// Where one member or element of a container lies.
struct Child {
    start: usize,
    end: usize,
    key_end: Option<usize>,
    value_start: usize,
}

/// Calls `f` with each non-empty container, its first child and where its
/// second child starts, depth first.
fn visit(node: &Node, f: &mut dyn FnMut(&Node, &Child, Option<usize>)) {
    let children: Vec<(Child, &Node)> = match &node.kind {
        Kind::Object(members) => members
            .iter()
            .map(|m| {
                let child = Child {
                    start: m.key_span.start,
                    end: m.value.span.end,
                    key_end: Some(m.key_span.end),
                    value_start: m.value.span.start,
                };
                (child, &m.value)
            })
            .collect(),
        Kind::Array(items) => items
            .iter()
            .map(|v| {
                let child = Child {
                    start: v.span.start,
                    end: v.span.end,
                    key_end: None,
                    value_start: v.span.start,
                };
                (child, v)
            })
            .collect(),
        _ => return,
    };
    if let Some((first, _)) = children.first() {
        f(node, first, children.get(1).map(|(c, _)| c.start));
    }
    for (_, child) in &children {
        visit(child, f);
    }
}
