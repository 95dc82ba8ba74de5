//! Untrusted text on a command line: a PowerShell literal, a cmd.exe argument,
//! a Windows path, or a placeholder with the reason.

use std::borrow::Cow;
use std::fmt;

use super::Untrusted;
use super::class::{is_visible, is_word_char};

/// The longest argument placed on a command line, in characters.
pub const COMMAND_ARG_MAX_CHARS: usize = 1024;

/// The longest path placed on a command line (Windows' classic MAX_PATH).
pub const COMMAND_PATH_MAX_CHARS: usize = 260;

/// Why untrusted text was not placed on a command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Nothing to place.
    #[error("it is empty")]
    Empty,
    /// Longer than the bound, or cut when it was read.
    #[error("it is too long to check")]
    TooLong,
    /// A control, format, separator or other invisible character.
    #[error("it contains an invisible or control character")]
    Invisible,
    /// A character outside the allow-list for that shell.
    #[error("it contains a character a shell could read as syntax")]
    Character,
    /// Not of the form `X:\…`.
    #[error("it is not a drive-absolute path (X:\\…)")]
    NotDriveAbsolute,
    /// `\\host\share`, `\\?\`, `\\.\`, or a device name such as `NUL` or
    /// `COM1`: a command would open a connection or a device.
    #[error("it is a network or device path, which the command itself would open")]
    NetworkOrDevice,
    /// A `.` or `..` component: the path may name another directory than it appears to.
    #[error("it has a `.` or `..` component, so it may name another directory than it appears to")]
    DotComponent,
    /// A component ending in a dot or a space, which Windows silently drops.
    #[error("a component ends in a dot or a space, which Windows drops")]
    TrailingDotOrSpace,
}

/// The single-quote variants PowerShell's tokenizer accepts: ' ‘ ’ ‚ ‛.
pub(crate) fn is_ps_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

/// A PowerShell single-quoted literal: `'…'`, in which PowerShell expands
/// nothing; each single-quote variant inside is doubled, which the tokenizer
/// reads back as one.
///
/// Text PowerShell reads right can still reach a program wrong: Windows
/// PowerShell (5.1, and 7.0–7.2, or later with
/// `$PSNativeCommandArgumentPassing = 'Legacy'`) builds a native program's
/// command line by wrapping an argument that holds a space in `"…"` and
/// escaping nothing. So a literal never holds a `"` (it would start or end a
/// quoted run: `'a b" /grant Everyone:F "c'` reaches icacls as four
/// arguments), nor a trailing backslash after a space (`'D:\my dir\'`
/// becomes `"D:\my dir\"`, whose closing quote is escaped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsLiteral(String);

impl PsLiteral {
    pub(super) fn new(text: &str) -> Result<Self, Refusal> {
        let literal = Self::pipeline_input(text)?;
        if text.contains('"') || (text.ends_with('\\') && text.contains(' ')) {
            return Err(Refusal::Character);
        }
        Ok(literal)
    }

    /// A literal piped to stdin (`'…' | program`): no native argument passing, so `"` is safe.
    pub(super) fn pipeline_input(text: &str) -> Result<Self, Refusal> {
        check_len(text, COMMAND_ARG_MAX_CHARS)?;
        if !text.chars().all(is_visible) {
            return Err(Refusal::Invisible);
        }
        Ok(Self::render(text))
    }

    fn render(text: &str) -> Self {
        let mut out = String::with_capacity(text.len() + 2);
        out.push('\'');
        for c in text.chars() {
            if is_ps_single_quote(c) {
                out.push(c);
            }
            out.push(c);
        }
        out.push('\'');
        Self(out)
    }

    /// The literal, quotes included.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PsLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// True for a character cmd.exe and the Windows argument rules carry
/// literally between double quotes: printable ASCII except `"` (ends the
/// quote), `%` and `!` (expand), `^` (escapes), and non-ASCII letters, marks
/// and numbers.
fn is_cmd_char(c: char) -> bool {
    if c.is_ascii() {
        return (c == ' ' || c.is_ascii_graphic()) && !matches!(c, '"' | '%' | '!' | '^');
    }
    is_word_char(c)
}

/// A cmd.exe argument: `"…"`. Trailing backslashes are doubled, because under
/// the Windows argument rules a backslash before the closing quote escapes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmdArg(String);

impl CmdArg {
    pub(super) fn new(text: &str) -> Result<Self, Refusal> {
        check_len(text, COMMAND_ARG_MAX_CHARS)?;
        if !text.chars().all(is_visible) {
            return Err(Refusal::Invisible);
        }
        if !text.chars().all(is_cmd_char) {
            return Err(Refusal::Character);
        }
        Ok(Self::render(text))
    }

    fn render(text: &str) -> Self {
        let body = text.trim_end_matches('\\');
        let trailing = text.len() - body.len();
        let mut out = String::with_capacity(text.len() + trailing + 2);
        out.push('"');
        out.push_str(text);
        out.extend(std::iter::repeat_n('\\', trailing));
        out.push('"');
        Self(out)
    }

    /// The argument, quotes included.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CmdArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// ASCII punctuation a path may carry onto a command line. Everything here is
/// inert inside both `'…'` (PowerShell) and `"…"` (cmd).
const PATH_PUNCTUATION: &str = " -_.()[]{}@#&+,;=~'$";

fn is_path_char(c: char) -> bool {
    is_word_char(c) || (c.is_ascii() && PATH_PUNCTUATION.contains(c))
}

/// A Windows path fit for any command line: drive-absolute, `/` read as `\`,
/// repeated separators collapsed, no `.` or `..` component, no UNC or device
/// prefix, no device name (`NUL`, `COM1`, …) as a component, at most
/// [`COMMAND_PATH_MAX_CHARS`], allow-listed characters only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPath(String);

impl CommandPath {
    pub(super) fn new(raw: &str) -> Result<Self, Refusal> {
        check_len(raw, COMMAND_PATH_MAX_CHARS)?;
        if !raw.chars().all(is_visible) {
            return Err(Refusal::Invisible);
        }
        let sep = |c: char| c == '\\' || c == '/';
        let mut chars = raw.chars();
        if crate::paths::is_unc_or_device(raw) {
            return Err(Refusal::NetworkOrDevice);
        }
        // A verbatim drive path (`\\?\C:\…`) is local, but Windows skips its
        // normalization: a command line takes only the plain spelling.
        if raw.starts_with(r"\\?\") {
            return Err(Refusal::NetworkOrDevice);
        }
        let (Some(drive), Some(':'), Some(s)) = (chars.next(), chars.next(), chars.next()) else {
            return Err(Refusal::NotDriveAbsolute);
        };
        if !drive.is_ascii_alphabetic() || !sep(s) {
            return Err(Refusal::NotDriveAbsolute);
        }
        let mut out = String::with_capacity(raw.len());
        out.push(drive);
        out.push_str(":\\");
        let mut first = true;
        // Characters first, over the whole path, so the reason names the
        // character rather than whatever component it happens to end.
        if !raw[3..].chars().all(|c| sep(c) || is_path_char(c)) {
            return Err(Refusal::Character);
        }
        for part in raw[3..].split(sep).filter(|p| !p.is_empty()) {
            if part == "." || part == ".." {
                return Err(Refusal::DotComponent);
            }
            if part.ends_with(['.', ' ']) {
                return Err(Refusal::TrailingDotOrSpace);
            }
            if is_dos_device(part) {
                return Err(Refusal::NetworkOrDevice);
            }
            if !first {
                out.push('\\');
            }
            out.push_str(part);
            first = false;
        }
        Ok(Self(out))
    }

    /// The normalized path, made only of allow-listed characters.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path as a PowerShell literal; pass it to cmdlets with `-LiteralPath`.
    pub fn powershell(&self) -> PsLiteral {
        PsLiteral::render(&self.0)
    }

    /// The path as a cmd.exe argument.
    pub fn cmd(&self) -> CmdArg {
        CmdArg::render(&self.0)
    }
}

/// True for a component Windows opens as a device in any directory: `CON`,
/// `PRN`, `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9` (and their superscript
/// ¹²³ forms), `CONIN$`, `CONOUT$`, in any case, with or without an
/// extension (`nul.txt`) or spaces before it.
fn is_dos_device(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part).trim_end_matches(' ');
    let stem = stem.to_ascii_uppercase();
    let numbered = ["COM", "LPT"].iter().any(|prefix| {
        stem.strip_prefix(prefix).is_some_and(|n| {
            let mut n = n.chars();
            matches!(
                (n.next(), n.next()),
                (Some('0'..='9' | '\u{B9}' | '\u{B2}' | '\u{B3}'), None)
            )
        })
    });
    numbered
        || matches!(
            stem.as_str(),
            "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
        )
}

fn check_len(text: &str, max: usize) -> Result<(), Refusal> {
    if text.is_empty() {
        return Err(Refusal::Empty);
    }
    if text.len() > max * 4 || text.chars().count() > max {
        return Err(Refusal::TooLong);
    }
    Ok(())
}

/// A path's place on a command line: the path, or a placeholder such as
/// `<dir>` together with the reason the prose must give.
#[derive(Debug, Clone)]
pub struct PathSlot {
    path: Result<CommandPath, Refusal>,
    placeholder: &'static str,
}

impl PathSlot {
    /// Checks `path` for command lines; `placeholder` stands in when it fails.
    pub fn new(path: &Untrusted, placeholder: &'static str) -> Self {
        Self {
            path: path.command_path(),
            placeholder,
        }
    }

    /// The PowerShell argument: `'X:\…'`, or the placeholder.
    pub fn powershell(&self) -> Cow<'static, str> {
        match &self.path {
            Ok(p) => Cow::Owned(p.powershell().0),
            Err(_) => Cow::Borrowed(self.placeholder),
        }
    }

    /// The cmd.exe argument: `"X:\…"`, or the placeholder.
    pub fn cmd(&self) -> Cow<'static, str> {
        match &self.path {
            Ok(p) => Cow::Owned(p.cmd().0),
            Err(_) => Cow::Borrowed(self.placeholder),
        }
    }

    /// The checked path, when it passed.
    pub fn path(&self) -> Option<&CommandPath> {
        self.path.as_ref().ok()
    }

    /// Why the placeholder stands in, when it does.
    pub fn refusal(&self) -> Option<Refusal> {
        self.path.as_ref().err().copied()
    }

    /// The sentence the prose must carry when the placeholder stands in.
    pub fn note(&self) -> Option<String> {
        self.refusal().map(|why| {
            format!(
                "The path from the error is not written into the commands below, because {why}; \
                 they show {} in its place. Substitute the real directory yourself, after \
                 checking its name.",
                self.placeholder
            )
        })
    }
}

#[cfg(test)]
mod tests;
