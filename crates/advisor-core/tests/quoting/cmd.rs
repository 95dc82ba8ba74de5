//! A model of how cmd.exe reads one command line before it starts a program.

use super::argv;

/// What cmd.exe made of one command line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// The arguments the program receives (after the Windows argument rules).
    pub argv: Vec<String>,
    /// A `%VAR%`, `%0`–`%9`, `%*` or (with delayed expansion) `!VAR!` was expanded.
    pub expansion: bool,
    /// An `&`, `|`, `<` or `>` outside quotes, a newline, or a caret at the end
    /// of the line (a continuation): more than the one command.
    pub separator: bool,
}

/// Reads `line` as cmd.exe does, with delayed expansion on or off, then
/// splits what the program receives by the Windows argument rules.
///
/// 1. Percent expansion, quotes or not: `%name%` with a non-empty name,
///    `%0`–`%9` and `%*` expand; a lone `%` stays.
/// 2. Outside quotes `^` takes the next character literally and is removed,
///    `&|<>` are operators; `"` toggles quoting and stays; a newline ends the
///    command; carriage returns are dropped.
/// 3. With delayed expansion, when the line holds a `!`: `!name!` expands,
///    a lone `!` is removed, and `^` escapes (inside quotes too).
pub fn read(line: &str, delayed: bool) -> Read {
    let mut out = Read::default();
    let line = percent(line, &mut out);
    let line = special(&line, &mut out);
    let line = if delayed && line.contains('!') {
        bang(&line, &mut out)
    } else {
        line
    };
    out.argv = argv::split(&line);
    out
}

fn percent(line: &str, out: &mut Read) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut kept = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            kept.push(chars[i]);
            i += 1;
            continue;
        }
        if chars
            .get(i + 1)
            .is_some_and(|c| c.is_ascii_digit() || *c == '*')
        {
            out.expansion = true;
            i += 2;
            continue;
        }
        match chars[i + 1..].iter().position(|&c| c == '%') {
            Some(len) if len > 0 => {
                out.expansion = true;
                i += len + 2;
            }
            _ => {
                kept.push('%');
                i += 1;
            }
        }
    }
    kept
}

fn special(line: &str, out: &mut Read) -> String {
    let mut kept = String::new();
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {}
            '\n' => {
                out.separator = true;
                break;
            }
            '"' => {
                quoted = !quoted;
                kept.push(c);
            }
            '^' if !quoted => match chars.next() {
                Some(next) => kept.push(next),
                None => out.separator = true,
            },
            '&' | '|' | '<' | '>' if !quoted => {
                out.separator = true;
                kept.push(' ');
            }
            c => kept.push(c),
        }
    }
    kept
}

fn bang(line: &str, out: &mut Read) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut kept = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '^' => {
                kept.extend(chars.get(i + 1));
                i += 2;
            }
            '!' => match chars[i + 1..].iter().position(|&c| c == '!') {
                Some(len) if len > 0 => {
                    out.expansion = true;
                    i += len + 2;
                }
                _ => i += 1,
            },
            c => {
                kept.push(c);
                i += 1;
            }
        }
    }
    kept
}

#[test]
fn the_cmd_model_expands_and_separates() {
    let r = read(r#"icacls "D:\ws" /T"#, true);
    assert_eq!(r.argv, ["icacls", r"D:\ws", "/T"]);
    assert!(!r.expansion && !r.separator);
    assert!(read(r#"icacls "%USERPROFILE%" /T"#, false).expansion);
    assert!(read(r#"icacls "a!PATH!b" /T"#, true).expansion);
    assert!(!read(r#"icacls "a!PATH!b" /T"#, false).expansion);
    assert_eq!(
        read(r#"icacls "a!b" /T"#, true).argv,
        ["icacls", "ab", "/T"]
    );
    assert!(read(r#"icacls "a"&calc&"b" /T"#, false).separator);
    assert!(!read(r#"icacls "a&calc" /T"#, false).separator);
    assert_eq!(
        read(r#"icacls a^&b "c^d" /T"#, false).argv,
        ["icacls", "a&b", "c^d", "/T"]
    );
    assert_eq!(
        read(r#"icacls "50%" /T"#, false).argv,
        ["icacls", "50%", "/T"]
    );
    assert_eq!(
        read(r#"icacls "D:\" /T"#, false).argv,
        ["icacls", r#"D:" /T"#]
    );
}
