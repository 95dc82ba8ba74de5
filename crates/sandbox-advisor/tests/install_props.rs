//! A property of `hook install`'s edit (issue 36): over random settings
//! files — numbers of every JSON form, strings with escapes and unicode,
//! nested values, any layout, other hooks with and without the advisor's
//! words, the advisor's handler in older forms — every byte outside the
//! advisor's own groups is kept, what is inserted is only the advisor's
//! group, and the result reads as the file with exactly one advisor group per
//! event. A key twice in one object is refused, naming it and its line.
//!
//! The generator knows where it put each advisor group (the ground truth);
//! the edit is judged against that, not against its own reading.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ops::Range;

use proptest::prelude::*;
use sandbox_advisor::hook::install::{CLIENTS, HookClient, merge};

const CMD: &str = "/opt/sa/sandbox-advisor hook --dialect claude-code --mode workspace-write";
const EVENTS: [&str; 3] = ["PreToolUse", "PostToolUse", "PostToolUseFailure"];

/// A small deterministic generator, seeded by proptest.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    fn chance(&mut self, in_: usize) -> bool {
        self.below(in_) == 0
    }
}

/// The layout of one file.
struct Layout {
    unit: &'static str,
    nl: &'static str,
    colon: &'static str,
    comma: &'static str,
}

/// A file being written, and where the advisor's groups went.
struct Writer {
    out: String,
    layout: Layout,
    ours: Vec<Range<usize>>,
    rng: Rng,
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "7",
    "-12",
    "123456789012345678901234567890",
    "1e5",
    "1E+2",
    "-0.10E-3",
    "3.25",
    "2.5e-308",
    "9007199254740993",
    "0.1",
];
const STRINGS: &[&str] = &[
    "plain",
    "é漢😀",
    r"\u00e9\ud83d\ude00",
    r#"a \"quoted\" \\ word"#,
    r"\/\b\f\n\r\t",
    "sandbox-advisor",
    r"\u0000",
    "",
];
const OTHER_COMMANDS: &[&str] = &[
    "lint.sh",
    "/opt/policy/deny-rm.sh && sandbox-advisor hook --dialect claude-code",
    "touch /tmp/x # sandbox-advisor hook --dialect claude-code",
    "/opt/sa/sandbox-advisor hook --dialect claude-code --log debug",
    "/opt/sa/sandbox-advisor hook --dialect codex",
    "~/bin/sandbox-advisor hook --dialect claude-code",
];
const OUR_FORMS: &[&str] = &[
    CMD,
    "/opt/sa/sandbox-advisor hook --dialect claude-code",
    "/old/place/sandbox-advisor hook --dialect=claude-code --mode read-only",
    "sandbox-advisor hook --dialect claude-code --config /c.json --mode=danger-full-access",
    r"'/home/a b/it'\\''s/sandbox-advisor' hook --dialect claude-code",
];

impl Writer {
    fn sep(&mut self, depth: usize) {
        if self.layout.unit.is_empty() {
            return;
        }
        self.out.push_str(self.layout.nl);
        self.out.push_str(&self.layout.unit.repeat(depth));
    }

    /// A container of `n` children, each written by `child(self, i, depth)`.
    fn container(
        &mut self,
        open: char,
        close: char,
        n: usize,
        depth: usize,
        child: &mut dyn FnMut(&mut Self, usize),
    ) {
        self.out.push(open);
        for i in 0..n {
            if i > 0 {
                self.out.push_str(if self.layout.unit.is_empty() {
                    self.layout.comma
                } else {
                    ","
                });
            }
            self.sep(depth + 1);
            child(self, i);
        }
        if n > 0 {
            self.sep(depth);
        }
        self.out.push(close);
    }

    fn key(&mut self, key: &str) {
        self.out
            .push_str(&format!("\"{key}\"{}", self.layout.colon));
    }

    fn value(&mut self, depth: usize) {
        match self.rng.below(if depth > 3 { 4 } else { 6 }) {
            0 => self.out.push_str(self.rng.pick(NUMBERS)),
            1 => {
                let s = self.rng.pick(STRINGS);
                self.out.push_str(&format!("\"{s}\""));
            }
            2 => {
                let w = self.rng.pick(&["true", "false", "null"]);
                self.out.push_str(w);
            }
            3 => self
                .out
                .push_str(&format!("\"{}\"", self.rng.pick(OTHER_COMMANDS))),
            4 => {
                let n = self.rng.below(4);
                self.container('[', ']', n, depth, &mut |w, _| w.value(depth + 1));
            }
            _ => {
                let n = self.rng.below(4);
                self.container('{', '}', n, depth, &mut |w, i| {
                    w.key(&format!("k{i}é"));
                    w.value(depth + 1);
                });
            }
        }
    }

    fn handler(&mut self, command: &str, depth: usize, extra: bool) {
        let swap = self.rng.chance(2);
        let n = 2 + usize::from(extra);
        self.container('{', '}', n, depth, &mut |w, i| match (i, swap) {
            (2, _) => {
                w.key("timeout");
                w.out.push('5');
            }
            (0, false) | (1, true) => {
                w.key("type");
                w.out.push_str("\"command\"");
            }
            _ => {
                w.key("command");
                w.out.push_str(&format!("\"{command}\""));
            }
        });
    }

    /// A group; the advisor's own when `ours` (its range is recorded).
    fn group(&mut self, depth: usize, ours: bool) {
        let start = self.out.len();
        let (matcher, commands, extra): (&str, Vec<&str>, bool) = if ours {
            ("Bash", vec![self.rng.pick(OUR_FORMS)], false)
        } else {
            let matcher = self.rng.pick(&["Bash", "*", "Write|Edit"]);
            let n = 1 + self.rng.below(2);
            let mut commands: Vec<&str> = (0..n).map(|_| self.rng.pick(OTHER_COMMANDS)).collect();
            let extra = self.rng.chance(4);
            // A Bash group of one plain handler has the advisor's shape: its
            // command is then never the advisor's (OTHER_COMMANDS are not).
            let shaped = matcher == "Bash" && n == 1 && !extra;
            if !shaped && self.rng.chance(3) {
                commands[0] = self.rng.pick(OUR_FORMS);
            }
            (matcher, commands, extra)
        };
        let swap = self.rng.chance(2);
        self.container('{', '}', 2, depth, &mut |w, i| {
            if (i == 0) != swap {
                w.key("matcher");
                w.out.push_str(&format!("\"{matcher}\""));
            } else {
                w.key("hooks");
                let commands = commands.clone();
                w.container('[', ']', commands.len(), depth + 1, &mut |w, j| {
                    w.handler(commands[j], depth + 2, extra)
                });
            }
        });
        if ours {
            self.ours.push(start..self.out.len());
        }
    }

    fn hooks(&mut self, depth: usize) {
        let mut events: Vec<&str> = EVENTS
            .iter()
            .copied()
            .filter(|_| !self.rng.chance(3))
            .collect();
        if self.rng.chance(2) {
            events.insert(self.rng.below(events.len() + 1), "SessionStart");
        }
        self.container('{', '}', events.len(), depth, &mut |w, i| {
            let event = events[i];
            w.key(event);
            let n = w.rng.below(4);
            let kinds: Vec<bool> = (0..n)
                .map(|_| EVENTS.contains(&event) && w.rng.chance(2))
                .collect();
            w.container('[', ']', n, depth + 1, &mut |w, j| {
                w.group(depth + 2, kinds[j])
            });
        });
    }

    fn file(&mut self) {
        let n = self.rng.below(5);
        let hooks_at = (!self.rng.chance(5)).then(|| self.rng.below(n + 1));
        let total = n + usize::from(hooks_at.is_some());
        self.container('{', '}', total, 0, &mut |w, i| match hooks_at {
            Some(at) if i == at => {
                w.key("hooks");
                w.hooks(1);
            }
            _ => {
                w.key(&format!("key{i}"));
                w.value(1);
            }
        });
        if self.rng.chance(2) {
            self.out.push_str(self.layout.nl);
        }
    }
}

fn generate(seed: u64) -> (String, Vec<Range<usize>>) {
    let mut rng = Rng(seed | 1);
    let layout = Layout {
        unit: rng.pick(&["", "  ", "    ", "\t", " "]),
        nl: rng.pick(&["\n", "\r\n"]),
        colon: rng.pick(&[":", ": ", " : "]),
        comma: rng.pick(&[",", ", "]),
    };
    let mut w = Writer {
        out: String::new(),
        layout,
        ours: Vec::new(),
        rng,
    };
    w.file();
    (w.out, w.ours)
}

fn claude_code() -> &'static dyn HookClient {
    CLIENTS[0]
}

/// The strings a text holds, undecoded.
fn strings(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let body = &rest[start + 1..];
        let end = body.find('"').unwrap();
        out.push(&body[..end]);
        rest = &body[end + 1..];
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_byte_outside_the_advisors_groups_is_kept(seed in any::<u64>()) {
        let (before, ours) = generate(seed);
        let (after, plan) = merge(Some(&before), claude_code(), CMD)
            .unwrap_or_else(|e| panic!("refused ({e}):\n{before}"));
        prop_assert_eq!(&plan.apply(&before), &after);
        for splice in &plan.edits {
            // What is taken out: whole advisor groups, commas, whitespace.
            let mut at = splice.range.start;
            for group in ours.iter().filter(|g| g.start < splice.range.end && g.end > splice.range.start) {
                prop_assert!(group.start >= splice.range.start && group.end <= splice.range.end,
                    "a splice cuts a group: {splice:?} {group:?}\n{before}");
                prop_assert!(before[at..group.start].chars().all(|c| " \t\r\n,".contains(c)),
                    "a splice takes {:?}\n{before}", &before[at..group.start]);
                at = group.end;
            }
            prop_assert!(before[at..splice.range.end].chars().all(|c| " \t\r\n,".contains(c)),
                "a splice takes {:?}\n{before}", &before[at..splice.range.end]);
            // What is put in: only the advisor's group, in its own words.
            let allowed = ["matcher", "Bash", "hooks", "type", "command", CMD];
            for s in strings(&splice.text) {
                prop_assert!(allowed.contains(&s) || EVENTS.contains(&s), "inserted {s:?}\n{before}");
            }
            let mut rest = splice.text.clone();
            for s in strings(&splice.text) {
                rest = rest.replacen(&format!("\"{s}\""), "", 1);
            }
            prop_assert!(rest.chars().all(|c| " \t\r\n,:{}[]".contains(c)), "inserted {rest:?}");
        }
        let (again, plan) = merge(Some(&after), claude_code(), CMD).unwrap();
        prop_assert!(plan.edits.is_empty() && again == after, "a second run edits:\n{after}");
    }

    #[test]
    fn a_key_twice_in_one_object_is_refused_by_name_and_line(seed in any::<u64>(), spelled in 0..3usize) {
        let (before, _) = generate(seed);
        // The key "dup" twice at the start of the root object, the second
        // spelled another way.
        let second = ["\"dup\"", "\"\\u0064up\"", "\"d\\u0075p\""][spelled];
        let empty = before[1..].trim_start().starts_with('}');
        let text = format!("{{\"dup\": 1,\n{second}: 2{}{}", if empty { "" } else { "," }, &before[1..]);
        let lines = 2;
        let err = merge(Some(&text), claude_code(), CMD).unwrap_err();
        prop_assert!(err.starts_with(&format!("the key \"dup\" appears twice in one object (line 1 and line {lines})")),
            "{err}\n{text}");
    }
}
