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

    /// Every absolute path inside a piece of script text.
    fn scan(&mut self, text: &str, origin: Origin) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if starts_absolute(bytes, i) {
                let len = bytes[i..].iter().position(|&b| ends_path(b));
                let end = len.map_or(bytes.len(), |n| i + n);
                // `i` and `end` sit on ASCII bytes (or the end), so both are char boundaries.
                if let Some(path) = text.get(i..end) {
                    self.push(path, origin);
                }
                i = end.max(i + 1);
            } else if starts_variable(bytes, i) {
                self.opaque = true;
                let len = bytes[i..].iter().position(|&b| ends_path(b));
                i = len.map_or(bytes.len(), |n| i + n).max(i + 1);
            } else {
                i += 1;
            }
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
        while !rest.is_empty() {
            match rest.find(['"', '\'']) {
                Some(open) => {
                    self.scan(&rest[..open], Origin::Command);
                    let quote = &rest[open..open + 1];
                    let body = &rest[open + 1..];
                    match body.find(quote) {
                        Some(close) => {
                            self.quoted(&body[..close], Origin::Command);
                            rest = &body[close + 1..];
                        }
                        None => {
                            self.quoted(body, Origin::Command);
                            rest = "";
                        }
                    }
                }
                None => {
                    self.scan(rest, Origin::Command);
                    rest = "";
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn command(c: &str) -> Vec<String> {
        let mut named = NamedPaths::default();
        named.command(c);
        named
            .paths
            .into_iter()
            .map(|p| p.raw.inspect().to_owned())
            .collect()
    }

    #[test]
    fn finds_bare_quoted_and_redirected_paths() {
        assert_eq!(
            command(r"Set-Content D:\ws\a.txt -Value x"),
            [r"D:\ws\a.txt"]
        );
        assert_eq!(command(r"echo ok >D:\ws\out.txt"), [r"D:\ws\out.txt"]);
        assert_eq!(command(r"echo ok >> D:/ws/log.txt;"), [r"D:/ws/log.txt"]);
        assert_eq!(
            command(r#"& "C:\Program Files (x86)\tool\t.exe" 'D:\ws\b c\d.txt'"#),
            [r"C:\Program Files (x86)\tool\t.exe", r"D:\ws\b c\d.txt"]
        );
        assert_eq!(
            command(r#"python -c "open(r'C:\other\x','w')""#),
            [r"C:\other\x"]
        );
        assert_eq!(
            command(r"Copy-Item D:\ws\a,D:\ws\b (D:\ws\c)"),
            [r"D:\ws\a", r"D:\ws\b", r"D:\ws\c"]
        );
        assert_eq!(
            command(r"tool --out=D:\ws\x -Path:D:\ws\y"),
            [r"D:\ws\x", r"D:\ws\y"]
        );
        assert_eq!(command(r"type \\server\share\x"), [r"\\server\share\x"]);
    }

    #[test]
    fn ignores_what_is_not_an_absolute_path() {
        assert!(command(r"echo x > build\out.txt").is_empty());
        assert!(command(r"echo x > D:out.txt").is_empty());
        assert!(command(r"dir /s \Windows\Temp").is_empty());
        assert!(command(r"curl https://example.com/a//b").is_empty());
        assert!(command(r"echo abc:\x").is_empty());
        assert!(command("").is_empty());
    }

    #[test]
    fn a_quoted_script_is_scanned_path_by_path() {
        assert_eq!(
            command(r#"pwsh -Command "copy D:\ws\a C:\x""#),
            [r"D:\ws\a", r"C:\x"]
        );
        assert_eq!(command(r#"echo "unterminated D:\ws\a"#), [r"D:\ws\a"]);
    }

    fn opaque(c: &str) -> bool {
        let mut named = NamedPaths::default();
        named.command(c);
        named.opaque
    }

    #[test]
    fn variable_rooted_paths_are_opaque() {
        assert!(opaque(
            r#"& "$env:ProgramFiles\nodejs\node.exe" D:\ws\b.js"#
        ));
        assert!(opaque(r"Copy-Item D:\ws\a ${env:USERPROFILE}/a"));
        assert!(opaque(r"copy D:\ws\a %ProgramFiles(x86)%\x"));
        assert!(opaque(r"cp D:/ws/a $HOME/a"));
        assert!(opaque(r"Set-Content ~\notes.txt x"));
        assert!(!opaque(
            r"$p = 'x'; Set-Content $p -Value 1; echo 100% done"
        ));
        assert!(!opaque(r"echo a~b\c"));
        let mut named = NamedPaths::default();
        named.argument(r"%USERPROFILE%\proj");
        assert!(named.opaque);
    }

    #[test]
    fn the_count_is_bounded() {
        let many = (0..40).map(|i| format!(r"D:\ws\f{i}")).collect::<Vec<_>>();
        let mut named = NamedPaths::default();
        named.command(&many.join(" "));
        assert_eq!(named.paths.len(), MAX_PATHS);
        assert!(named.overflow);
    }

    #[test]
    fn marks_components_windows_would_rewrite() {
        let mut named = NamedPaths::default();
        named.command(r#"echo > "D:\ws\.. \other\x" D:\ws\ok\..\y"#);
        let flags: Vec<bool> = named.paths.iter().map(|p| p.ambiguous).collect();
        assert_eq!(flags, [true, false]);
    }

    #[test]
    fn arguments_count_only_as_whole_values() {
        let mut named = NamedPaths::default();
        named.argument(r"D:\ws");
        named.argument(r"write the report to C:\x");
        named.argument(r"D:\ws\a;C:\x");
        let raws: Vec<&str> = named.paths.iter().map(|p| p.raw.inspect()).collect();
        assert_eq!(raws, [r"D:\ws", r"D:\ws\a", r"C:\x"]);
        assert!(named.paths.iter().all(|p| p.origin == Origin::Argument));
    }
}
