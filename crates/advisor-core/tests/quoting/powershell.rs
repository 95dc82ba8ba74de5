//! A model of how PowerShell reads one command line in argument mode, and of
//! how Windows PowerShell hands a native program its arguments.

use super::argv;

/// The single-quote characters PowerShell's tokenizer accepts.
pub const SINGLE: [char; 5] = ['\'', '\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}'];

/// The double-quote characters PowerShell's tokenizer accepts.
pub const DOUBLE: [char; 4] = ['"', '\u{201C}', '\u{201D}', '\u{201E}'];

/// What PowerShell made of one command line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// The command name and its arguments, after quote removal.
    pub words: Vec<String>,
    /// A `$name`, `${…}`, `$(…)` or `@name`/`@(…)` was expanded.
    pub expansion: bool,
    /// The line held more than one statement or pipeline stage, a
    /// redirection, or a grouping character (`;`, `|`, `&`, `<`, `>`, a
    /// newline, `(`, `)`, `{`, `}`, `,`).
    pub separator: bool,
    /// A `#` comment swallowed the rest of a line.
    pub comment: bool,
    /// A quoted string never closed.
    pub unterminated: bool,
}

/// Reads `line` as PowerShell does in argument mode.
///
/// Outside quotes: blanks separate words, a backtick takes the next character
/// literally, `#` at the start of a word comments out the rest of the line.
/// A word is a run of bare characters and quoted strings (`'a'b"c"` is one
/// word). In `'…'` (any of ' ‘ ’ ‚ ‛) nothing is special except a quote
/// followed by another quote, which yields the second. In `"…"` (any of
/// " “ ” „) a backtick escapes, `$` starts an expansion, and a quote followed
/// by another quote yields the second.
pub fn read(line: &str) -> Read {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Read::default();
    let mut word: Option<String> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_blank(c) {
            out.words.extend(word.take());
            i += 1;
        } else if matches!(
            c,
            '\n' | '\r' | ';' | '|' | '&' | '<' | '>' | '(' | ')' | '{' | '}' | ','
        ) {
            out.separator = true;
            out.words.extend(word.take());
            i += 1;
        } else if c == '#' && word.is_none() {
            out.comment = true;
            while i < chars.len() && !matches!(chars[i], '\n' | '\r') {
                i += 1;
            }
        } else if c == '@'
            && word.is_none()
            && chars
                .get(i + 1)
                .is_some_and(|&n| n == '(' || n == '{' || is_name(n))
        {
            out.expansion = true;
            i += 1;
        } else if SINGLE.contains(&c) {
            i = single(
                &chars,
                i + 1,
                word.get_or_insert_with(String::new),
                &mut out,
            );
        } else if DOUBLE.contains(&c) {
            i = double(
                &chars,
                i + 1,
                word.get_or_insert_with(String::new),
                &mut out,
            );
        } else if c == '`' {
            if let Some(&next) = chars.get(i + 1) {
                word.get_or_insert_with(String::new).push(next);
            }
            i += 2;
        } else if c == '$' && expands(chars.get(i + 1).copied()) {
            out.expansion = true;
            i = skip_expansion(&chars, i + 1);
            word.get_or_insert_with(String::new);
        } else {
            word.get_or_insert_with(String::new).push(c);
            i += 1;
        }
    }
    out.words.extend(word);
    out
}

/// A single-quoted string from just after its opening quote; returns the
/// index after its closing quote.
fn single(chars: &[char], mut i: usize, word: &mut String, out: &mut Read) -> usize {
    loop {
        let Some(&c) = chars.get(i) else {
            out.unterminated = true;
            return i;
        };
        if SINGLE.contains(&c) {
            match chars.get(i + 1) {
                Some(&next) if SINGLE.contains(&next) => {
                    word.push(next);
                    i += 2;
                }
                _ => return i + 1,
            }
        } else {
            word.push(c);
            i += 1;
        }
    }
}

/// A double-quoted string from just after its opening quote.
fn double(chars: &[char], mut i: usize, word: &mut String, out: &mut Read) -> usize {
    loop {
        let Some(&c) = chars.get(i) else {
            out.unterminated = true;
            return i;
        };
        if DOUBLE.contains(&c) {
            match chars.get(i + 1) {
                Some(&next) if DOUBLE.contains(&next) => {
                    word.push(next);
                    i += 2;
                }
                _ => return i + 1,
            }
        } else if c == '`' {
            match chars.get(i + 1) {
                Some(&next) => word.push(backtick_escape(next)),
                None => out.unterminated = true,
            }
            i += 2;
        } else if c == '$' && expands(chars.get(i + 1).copied()) {
            out.expansion = true;
            i = skip_expansion(chars, i + 1);
        } else {
            word.push(c);
            i += 1;
        }
    }
}

/// True when a `$` followed by `next` starts an expansion.
fn expands(next: Option<char>) -> bool {
    next.is_some_and(|n| n == '(' || n == '{' || n == '$' || n == '?' || n == '^' || is_name(n))
}

/// Skips `$(…)` (balanced), `${…}` or a variable name, from just after `$`.
fn skip_expansion(chars: &[char], mut i: usize) -> usize {
    match chars.get(i) {
        Some('(') => {
            let mut depth = 0usize;
            while let Some(&c) = chars.get(i) {
                i += 1;
                match c {
                    '(' => depth += 1,
                    ')' if depth == 1 => return i,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            i
        }
        Some('{') => {
            while chars.get(i).is_some_and(|&c| c != '}') {
                i += 1;
            }
            i + 1
        }
        Some('$' | '?' | '^') => i + 1,
        _ => {
            while chars.get(i).is_some_and(|&c| is_name(c) || c == ':') {
                i += 1;
            }
            i
        }
    }
}

fn backtick_escape(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'e' => '\u{1b}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        other => other,
    }
}

fn is_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_blank(c: char) -> bool {
    !matches!(c, '\n' | '\r') && c.is_whitespace()
}

/// The command line Windows PowerShell 5.1 (and 7.0–7.2, and 7.3+ with
/// `$PSNativeCommandArgumentPassing = 'Legacy'`) builds for a native program:
/// an argument holding whitespace outside an even run of quotes is wrapped in
/// `"…"`, nothing inside is escaped, and an empty argument is dropped.
pub fn native_command_line(words: &[String]) -> String {
    let mut line = String::new();
    for word in words.iter().filter(|w| !w.is_empty()) {
        if !line.is_empty() {
            line.push(' ');
        }
        if needs_quotes(word) {
            line.push('"');
            line.push_str(word);
            line.push('"');
        } else {
            line.push_str(word);
        }
    }
    line
}

/// `NativeCommandParameterBinder.NeedQuotes`.
fn needs_quotes(word: &str) -> bool {
    let (mut quotes, mut after_backslash, mut needs) = (0usize, false, false);
    for c in word.chars() {
        if c == '"' && !after_backslash {
            quotes += 1;
        } else if c.is_whitespace() && quotes % 2 == 0 {
            needs = true;
        }
        after_backslash = c == '\\';
    }
    needs
}

/// The arguments a native program receives from `line` typed into PowerShell.
pub fn native_argv(read: &Read) -> Vec<String> {
    argv::split(&native_command_line(&read.words))
}

#[test]
fn the_powershell_model_reads_quotes_and_expansions() {
    let r = read("icacls 'a''b' \"x`\"y\" /T");
    assert_eq!(r.words, ["icacls", "a'b", "x\"y", "/T"]);
    assert!(!r.expansion && !r.separator && !r.comment && !r.unterminated);
    let r = read("icacls \"D:\\proj\u{201E}; Start-Process calc #\" /T");
    assert_eq!(r.words, ["icacls", "D:\\proj", "Start-Process", "calc"]);
    assert!(r.separator && r.comment);
    let r = read("icacls '\u{2019}\u{2018}' \u{201C}$env:X\u{201D}x /T");
    assert_eq!(r.words, ["icacls", "\u{2018}", "x", "/T"]);
    assert!(r.expansion);
    let r = read("icacls 'it\u{2019}s");
    assert_eq!(r.words, ["icacls", "its"]);
    assert!(!r.unterminated);
    assert!(read("icacls 'abc").unterminated);
    assert!(read("icacls \"$(calc)\" /T").expansion);
    assert!(read("icacls \"${env:X}\" /T").expansion);
    assert!(!read("icacls '$(calc)' /T").expansion);
    let r = read("icacls 'a b\\' /T");
    assert_eq!(native_argv(&r), ["icacls", "a b\" /T"]);
    let r = read("icacls 'a b\" /grant Everyone:F \"c' /T");
    assert_eq!(
        native_argv(&r),
        ["icacls", "a b", "/grant", "Everyone:F", "c", "/T"]
    );
    let r = read("icacls 'x\" /grant' /T");
    assert_eq!(native_argv(&r), ["icacls", "x /grant /T"]);
}
