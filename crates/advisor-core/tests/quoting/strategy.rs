//! Hostile strings: every quote variant, invisible characters, shell syntax
//! of both shells, trailing backslashes, brackets, CJK, up to 10 KB.

use proptest::prelude::*;
use unicode_general_category::{GeneralCategory as G, get_general_category};

/// Pieces a reader sees, each meaningful to some shell or to Markdown.
#[rustfmt::skip]
const VISIBLE: &[&str] = &[
    "'", "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}", "''", "\u{2019}\u{2018}", "\"",
    "\u{201C}", "\u{201D}", "\u{201E}", "\"\"", "`", "``", "```", "`n", "$(calc)", "$(", ")",
    "${env:X}", "$HOME", "$", "@(1)", "%VAR%", "%", "%1", "!VAR!", "!", "^", "&", "|", ";", "<",
    ">", "#", " ", "  ", "\\", "\\\\", "/", "[1]", "*", "?", "(", "{", "}", ",", "--%", "-",
    "\u{2013}", ":", "D:\\", ".", "..", "...", "NUL", "COM1", "a", "ws", "Start-Process calc",
    "Z9", "项目", "拒绝访问", "é", "e\u{301}", "\u{FF02}", "\u{2018}\u{2018}", "> ", "\u{2026}",
];

/// Pieces a reader does not see: Cc, Cf, Zl, Zp, other spaces, ignorables.
#[rustfmt::skip]
const INVISIBLE: &[&str] = &[
    "\n", "\r", "\r\n", "\n\n\n\n\n\n\n\n\n", "\t", "\u{0}", "\u{7}", "\u{1b}", "\u{1b}[31m",
    "\u{1b}]0;x\u{7}",
    "\u{7f}", "\u{85}", "\u{A0}", "\u{AD}", "\u{61C}", "\u{200B}", "\u{200D}", "\u{200E}",
    "\u{202E}", "\u{2066}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{FEFF}", "\u{FE0F}", "\u{3164}",
    "\u{E0001}", "\u{E0041}\u{E0042}", "\u{E007F}", "\u{E000}", "\u{10FFFD}",
];

/// Pieces cmd.exe carries literally inside `"…"`.
#[rustfmt::skip]
const CMD_SAFE: &[&str] = &[
    "a", "ws", "Z9", "项目", "é", "e\u{301}", " ", "\\", "\\\\", "/", "[1]", "&", "|", "<", ">",
    ";", "(", ")", "{", "}", "$(calc)", "${env:X}", "`", "'", "#", "@", ",", "*", "?", ":", "-",
    ".", "..", "~", "=", "+",
];

/// True for a character a reader does not see as itself: controls, format
/// characters, separators other than U+0020, private use, unassigned,
/// surrogates, and the default-ignorable letters and marks.
pub fn invisible(c: char) -> bool {
    if c == ' ' {
        return false;
    }
    matches!(
        c,
        '\u{34F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0000}'..='\u{E0FFF}'
    ) || matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
            | G::PrivateUse
            | G::Unassigned
            | G::Surrogate
    )
}

fn concat(pieces: Vec<String>) -> String {
    pieces.concat()
}

/// Repeats `pieces` until the text reaches `len` bytes, cut at a character.
fn long(pieces: Vec<String>, len: usize) -> String {
    let unit = pieces.concat();
    if unit.is_empty() {
        return unit;
    }
    let mut text = unit.repeat(len / unit.len() + 1);
    let mut end = len.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

fn from(list: &'static [&'static str]) -> impl Strategy<Value = String> + Clone {
    proptest::sample::select(list).prop_map(str::to_owned)
}

/// One piece of any kind, or any character at all.
fn any_piece() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        4 => from(VISIBLE),
        2 => from(INVISIBLE),
        1 => any::<char>().prop_map(String::from),
    ]
}

/// One piece a reader sees.
fn visible_piece() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        4 => from(VISIBLE),
        1 => any::<char>().prop_filter("visible", |&c| !invisible(c)).prop_map(String::from),
    ]
}

/// Text made of `piece`s: mostly short, sometimes up to 10 KB.
fn text(piece: impl Strategy<Value = String> + Clone) -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::collection::vec(piece.clone(), 0..40).prop_map(concat),
        1 => (proptest::collection::vec(piece, 1..24), 1usize..=10 * 1024)
            .prop_map(|(pieces, len)| long(pieces, len)),
    ]
}

/// How a path may begin: drive-absolute, drive-relative, relative, UNC,
/// device and NT-object prefixes.
#[rustfmt::skip]
const PATH_PREFIXES: &[&str] = &[
    "D:\\", "d:/", "Z:\\\\", "D:", "\\", "", "1:\\", "\u{E9}:\\", "\\\\host\\share\\", "//host/share/",
    "\\/host/", "\\\\?\\D:\\", "\\\\.\\pipe\\", "\\\\?\\UNC\\h\\s\\", "\\??\\D:\\",
];

/// A path-like string: a prefix (drive, UNC, device, relative), components
/// (names, dots, device names, hostile pieces), mixed separators.
pub fn path_like() -> impl Strategy<Value = String> {
    let prefix = from(PATH_PREFIXES);
    let component = prop_oneof![
        4 => from(&[
            "ws", "proj[1]", "项目", "it's", "a b", "x$y", "a&b", "node_modules", ".cache", "v1.2",
            "e\u{301}", "~1", "@x", "{x}", "(x)", "a=b", "a+b", "a,b", "a;b", "#1",
        ]),
        2 => from(&[
            ".", "..", "...", "a.", "a ", " a", "NUL", "nul.txt", "Com1", "LPT\u{B9}", "CONIN$",
            "AUX .txt", "CON", "prn.", "COM0", "console", "nullable", "COM10",
        ]),
        2 => proptest::collection::vec(any_piece(), 1..4).prop_map(concat),
    ];
    let sep = from(&["\\", "/", "\\\\"]);
    (
        prefix,
        proptest::collection::vec((component, sep), 0..8),
        proptest::bool::ANY,
    )
        .prop_map(|(prefix, parts, trailing)| {
            let mut path = prefix;
            let count = parts.len();
            for (n, (part, sep)) in parts.into_iter().enumerate() {
                path.push_str(&part);
                if n + 1 < count || trailing {
                    path.push_str(&sep);
                }
            }
            path
        })
}

/// Any hostile string: every kind of piece, visible pieces only, pieces
/// cmd.exe carries, or a path.
pub fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => text(any_piece()),
        3 => text(visible_piece()),
        2 => cmd_safe(),
        2 => path_like(),
    ]
}

/// Text of visible pieces only, at most 1024 characters.
pub fn visible() -> impl Strategy<Value = String> {
    proptest::collection::vec(visible_piece(), 1..50).prop_map(concat)
}

/// Text of pieces cmd.exe carries literally inside `"…"`, at most 1024
/// characters.
pub fn cmd_safe() -> impl Strategy<Value = String> {
    proptest::collection::vec(from(CMD_SAFE), 1..80).prop_map(concat)
}

/// A well-formed drive-absolute path: allow-listed components, separators
/// `\` or `/`, possibly doubled or trailing.
pub fn well_formed_path() -> impl Strategy<Value = String> {
    let component = proptest::collection::vec(
        from(&[
            "ws", "a", "Z9", "项目", "e\u{301}", "proj[1]", "it's", "a b", "$x", "a&b", "(x)",
            "{x}", "@", "#", "~1", "a;b", "a,b", "a=b", "a+b", "_", "-", ".cache", "v1.2",
        ]),
        1..4,
    )
    .prop_map(concat)
    .prop_filter("not a dot, no trailing dot or space", |p| {
        !p.ends_with(['.', ' ']) && p != "."
    });
    (
        proptest::char::range('A', 'Z'),
        proptest::bool::ANY,
        proptest::collection::vec((component, from(&["\\", "/", "\\\\", "//"])), 0..6),
    )
        .prop_map(|(drive, lower, parts)| {
            let drive = if lower {
                drive.to_ascii_lowercase()
            } else {
                drive
            };
            let mut path = format!("{drive}:\\");
            for (part, sep) in parts {
                path.push_str(&part);
                path.push_str(&sep);
            }
            path
        })
}

/// What spoils a well-formed path: dot components, trailing dots and
/// spaces, device names, prefixes, and characters no command line may carry.
#[rustfmt::skip]
const SPOILERS: &[&str] = &[
    ".", "..", "a.", "a ", "...", "NUL", "com1.txt", "CONIN$", "LPT\u{B9}", "aux .x", "\\\\host\\",
    "\\\\?\\", "\"", "%", "%VAR%", "!", "!VAR!", "^", "`", "\u{201E}", "\u{2019}", "\u{200B}",
    "\u{AD}", "\n", "\u{1b}", ":", "*", "?", "<", ">", "|", "\u{3000}", "\u{FF02}",
];

/// What cmd.exe reads as syntax inside `"…"`, or what no command line may
/// carry.
#[rustfmt::skip]
const CMD_SPOILERS: &[&str] = &[
    "!", "!VAR!", "%", "%VAR%", "%1", "%*", "^", "^&", "\"", "\"&calc&\"", "\u{200B}", "\n",
    "\t", "\u{1b}", "\u{201E}", "\u{2019}", "\u{FF02}",
];

/// `text` with `spoiler` put in at one of its character boundaries.
fn spoil(text: &str, spoiler: &str, at: proptest::sample::Index) -> String {
    let cuts: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let at = cuts[at.index(cuts.len())];
    format!("{}{spoiler}{}", &text[..at], &text[at..])
}

/// A well-formed path with one spoiler put in it, inside a component or as
/// a component of its own.
pub fn near_path() -> impl Strategy<Value = String> {
    (
        well_formed_path(),
        from(SPOILERS),
        any::<proptest::sample::Index>(),
        proptest::bool::ANY,
    )
        .prop_map(|(path, spoiler, at, own)| {
            let (head, tail) = path.split_at(3);
            let spoiler = if own { format!("{spoiler}\\") } else { spoiler };
            format!("{head}{}", spoil(tail, &spoiler, at))
        })
}

/// Text cmd.exe carries, with one spoiler put in it.
pub fn near_cmd() -> impl Strategy<Value = String> {
    (
        cmd_safe(),
        from(CMD_SPOILERS),
        any::<proptest::sample::Index>(),
    )
        .prop_map(|(text, spoiler, at)| spoil(&text, &spoiler, at))
}
