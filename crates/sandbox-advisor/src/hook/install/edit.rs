//! The edit: find the advisor's groups in the file's text, then splice.
//!
//! A group is the advisor's when it has exactly install's shape — an object
//! with only `matcher` (the client's shell tool) and `hooks`, holding one
//! object with only `"type": "command"` and `command` — and the command is
//! the advisor's handler for the client's dialect ([`Handler::parse`]). Per
//! event, the first such group is replaced where it stands (or kept, when it
//! already runs the command), later ones are removed with the comma before
//! them, and when there is none the group is appended to the event's array.
//! A missing array or `hooks` object is appended to its parent. Nothing else
//! in the text changes; every other handler that names the advisor is listed
//! as left alone.

use std::ops::Range;

use super::client::HookClient;
use super::handler::{Handler, mentions_advisor};
use super::json::{self, Kind, Node};
use super::render::{Style, Tree, line_indent, ws_before};

/// One replacement of a byte range of the old text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// The bytes replaced (empty: an insertion).
    pub range: Range<usize>,
    /// The text put there.
    pub text: String,
}

/// A handler found in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Where: `hooks.PreToolUse[0]` (a group) or `…[0].hooks[1]` (a handler).
    pub at: String,
    /// Its line in the old text.
    pub line: usize,
    /// Its command, decoded.
    pub command: String,
}

/// What the edit does to one file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    /// The splices, in order, not overlapping.
    pub edits: Vec<Splice>,
    /// The advisor's groups replaced or removed.
    pub replaced: Vec<Found>,
    /// Handlers that name the advisor but are not its handler: left alone.
    pub kept: Vec<Found>,
}

impl Plan {
    /// `old` with the splices made.
    pub fn apply(&self, old: &str) -> String {
        let mut out = String::with_capacity(old.len() + 1024);
        let mut at = 0;
        for splice in &self.edits {
            out.push_str(&old[at..splice.range.start]);
            out.push_str(&splice.text);
            at = splice.range.end;
        }
        out.push_str(&old[at..]);
        out
    }
}

/// One event of the client in a file.
#[derive(Debug)]
pub struct EventScan<'n> {
    /// The event.
    pub event: &'static str,
    /// Its array, when the file has one.
    pub array: Option<&'n Node>,
    /// The advisor's groups in it: index and command.
    pub ours: Vec<(usize, String)>,
}

/// What the advisor's handlers in a file are, per event.
#[derive(Debug, Default)]
pub struct Scan<'n> {
    /// Per event of the client, in the client's order.
    pub events: Vec<EventScan<'n>>,
    /// Handlers that name the advisor but are not its handler.
    pub kept: Vec<Found>,
}

/// The group install writes for `command`.
pub fn group(client: &dyn HookClient, command: &str) -> Tree {
    let handler = Tree::Object(vec![
        ("type".into(), Tree::String("command".into())),
        ("command".into(), Tree::String(command.into())),
    ]);
    Tree::Object(vec![
        ("matcher".into(), Tree::String(client.matcher().into())),
        ("hooks".into(), Tree::Array(vec![handler])),
    ])
}

/// The command of `group` when it is the advisor's group for `client`.
fn advisor_command(group: &Node, client: &dyn HookClient) -> Option<String> {
    let only = |node: &Node, keys: [&str; 2]| match &node.kind {
        Kind::Object(m) => m.len() == 2 && keys.iter().all(|k| node.get(k).is_some()),
        _ => false,
    };
    if !only(group, ["matcher", "hooks"]) || group.get("matcher")?.as_str()? != client.matcher() {
        return None;
    }
    let Kind::Array(handlers) = &group.get("hooks")?.kind else {
        return None;
    };
    let [handler] = handlers.as_slice() else {
        return None;
    };
    if !only(handler, ["type", "command"]) || handler.get("type")?.as_str()? != "command" {
        return None;
    }
    let command = handler.get("command")?.as_str()?;
    Handler::parse(command, client.dialect()).map(|_| command.to_owned())
}

/// Reads the `hooks` object of `root`: the advisor's groups per event, and
/// every other handler that names the advisor.
pub fn scan<'n>(root: &'n Node, client: &dyn HookClient) -> Result<Scan<'n>, String> {
    let mut scan = Scan::default();
    let Kind::Object(_) = root.kind else {
        return Err("it is not a JSON object".into());
    };
    let hooks = root.get("hooks");
    let members = match hooks.map(|h| &h.kind) {
        None => &[][..],
        Some(Kind::Object(members)) => members.as_slice(),
        Some(_) => return Err("key `hooks` is not an object".into()),
    };
    for member in members {
        let event = &member.key;
        let wanted = client.events().iter().find(|e| **e == event.as_str());
        let Kind::Array(groups) = &member.value.kind else {
            if wanted.is_some() {
                return Err(format!("key `hooks.{event}` is not an array"));
            }
            continue;
        };
        let mut ours = Vec::new();
        for (i, group) in groups.iter().enumerate() {
            if wanted.is_some() {
                if let Some(command) = advisor_command(group, client) {
                    ours.push((i, command));
                    continue;
                }
            }
            let handlers = match group.get("hooks").map(|h| &h.kind) {
                None => continue,
                Some(Kind::Array(handlers)) => handlers,
                Some(_) if wanted.is_some() => {
                    return Err(format!("key `hooks.{event}[{i}].hooks` is not an array"));
                }
                Some(_) => continue,
            };
            for (j, handler) in handlers.iter().enumerate() {
                let command = handler.get("command").and_then(Node::as_str);
                if let Some(command) = command.filter(|c| mentions_advisor(c)) {
                    scan.kept.push(Found {
                        at: format!("hooks.{event}[{i}].hooks[{j}]"),
                        line: handler.line,
                        command: command.to_owned(),
                    });
                }
            }
        }
        if let Some(event) = wanted {
            scan.events.push(EventScan {
                event,
                array: Some(&member.value),
                ours,
            });
        }
    }
    for event in client.events() {
        if !scan.events.iter().any(|e| e.event == *event) {
            scan.events.push(EventScan {
                event,
                array: None,
                ours: Vec::new(),
            });
        }
    }
    scan.events
        .sort_by_key(|e| client.events().iter().position(|x| *x == e.event));
    Ok(scan)
}

/// The edit that mounts `command` for `client` in `old` (`None`: no file).
pub fn plan(old: Option<&str>, client: &dyn HookClient, command: &str) -> Result<Plan, String> {
    let ours = group(client, command);
    let events = |groups: fn(Tree) -> Tree| {
        Tree::Object(
            client
                .events()
                .iter()
                .map(|e| ((*e).to_owned(), groups(ours.clone())))
                .collect(),
        )
    };
    let Some(old) = old.filter(|t| !t.trim_start_matches('\u{feff}').trim().is_empty()) else {
        let file = Tree::Object(vec![("hooks".into(), events(|g| Tree::Array(vec![g])))]);
        let style = Style::default();
        let text = format!("{}{}", style.render(&file, true, ""), style.newline);
        return Ok(Plan {
            edits: vec![Splice {
                range: 0..old.map_or(0, str::len),
                text,
            }],
            ..Plan::default()
        });
    };
    let root = json::parse(old).map_err(|e| e.to_string())?;
    let scan = scan(&root, client)?;
    let style = Style::of(old, &root);
    let mut plan = Plan {
        kept: scan.kept,
        ..Plan::default()
    };
    let mut missing = Vec::new();
    for EventScan {
        event,
        array,
        ours: found,
    } in scan.events
    {
        let Some(array) = array else {
            missing.push((event.to_owned(), Tree::Array(vec![ours.clone()])));
            continue;
        };
        let Kind::Array(groups) = &array.kind else {
            continue;
        };
        let Some(((first, there), later)) = found.split_first() else {
            plan.edits
                .push(append(old, array, &style, vec![(None, ours.clone())]));
            continue;
        };
        let group_at = |i: usize, command: &str| Found {
            at: format!("hooks.{event}[{i}]"),
            line: groups[i].line,
            command: command.to_owned(),
        };
        if there != command {
            let span = groups[*first].span.clone();
            let pretty = old[span.clone()].contains('\n');
            let text = style.render(&ours, pretty, line_indent(old, span.start));
            plan.edits.push(Splice { range: span, text });
            plan.replaced.push(group_at(*first, there));
        }
        for (i, there) in later {
            let range = groups[i - 1].span.end..groups[*i].span.end;
            plan.edits.push(Splice {
                range,
                text: String::new(),
            });
            plan.replaced.push(group_at(*i, there));
        }
    }
    if !missing.is_empty() {
        let edit = match root.get("hooks") {
            Some(hooks) => append(
                old,
                hooks,
                &style,
                missing.into_iter().map(|(k, v)| (Some(k), v)).collect(),
            ),
            None => append(
                old,
                &root,
                &style,
                vec![(Some("hooks".into()), Tree::Object(missing))],
            ),
        };
        plan.edits.push(edit);
    }
    plan.edits.sort_by_key(|s| (s.range.start, s.range.end));
    Ok(plan)
}

/// The splice that appends `items` (members when keyed) to the container
/// `node`, laid out like its last child, or one level deeper than its line.
fn append(old: &str, node: &Node, style: &Style, items: Vec<(Option<String>, Tree)>) -> Splice {
    let render = |key: &Option<String>, tree: &Tree, pretty: bool, indent: &str| {
        let head = key
            .as_ref()
            .map(|k| format!("{}{}", super::render::json_string(k), style.colon))
            .unwrap_or_default();
        format!("{head}{}", style.render(tree, pretty, indent))
    };
    let last = match &node.kind {
        Kind::Object(members) => members.last().map(|m| (m.key_span.start, m.value.span.end)),
        Kind::Array(items) => items.last().map(|v| (v.span.start, v.span.end)),
        _ => None,
    };
    if let Some((start, end)) = last {
        let sep = ws_before(old, start);
        let pretty = sep.contains('\n');
        let indent = sep.rsplit('\n').next().unwrap_or_default();
        let text = items
            .iter()
            .map(|(k, t)| {
                let comma = if pretty {
                    format!(",{sep}")
                } else {
                    style.comma.clone()
                };
                format!("{comma}{}", render(k, t, pretty, indent))
            })
            .collect();
        return Splice {
            range: end..end,
            text,
        };
    }
    // An empty container: fill between its brackets.
    let inside = node.span.start + 1..node.span.end - 1;
    let text = if style.pretty {
        let outer = line_indent(old, node.span.start);
        let indent = format!("{outer}{}", style.unit);
        let body: Vec<String> = items
            .iter()
            .map(|(k, t)| render(k, t, true, &indent))
            .collect();
        let nl = style.newline;
        format!(
            "{nl}{indent}{}{nl}{outer}",
            body.join(&format!(",{nl}{indent}"))
        )
    } else {
        let body: Vec<String> = items.iter().map(|(k, t)| render(k, t, false, "")).collect();
        body.join(&style.comma)
    };
    Splice {
        range: inside,
        text,
    }
}
