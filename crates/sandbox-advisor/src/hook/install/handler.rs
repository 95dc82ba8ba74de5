//! The one definition of the advisor's handler: the command line `hook
//! install` writes, and the only command lines it will replace or trust.
//!
//! Install writes `<bin> hook --dialect <d>`, then `--mode <m>` and
//! `--config <path>` when asked, each word as it is when it holds only
//! characters no shell reads specially, else in single quotes. On Windows
//! the paths are written as [`windows_word`]s instead (`C:/Users/me/bin/sandbox-advisor.exe`):
//! no quoting reads alike in `cmd`, PowerShell and Git Bash, so a path that
//! would need it is refused with a clear error.
//!
//! A command already in a settings file counts as the advisor's handler
//! (one install may replace) only when it splits into exactly those words in
//! that quoting: a binary whose file name is `sandbox-advisor` (any
//! directory: an older install, another place), `hook`, the dialect as
//! `--dialect <d>` or `--dialect=<d>`, then at most one `--mode` (a mode the
//! hook knows) and one `--config`, each as `--flag value` or `--flag=value`,
//! in either order. Any other word, a shell operator (`&&`, `;`, `|`, `#`,
//! `$`), double quotes, `~`, or another dialect makes it someone else's
//! command: it is never replaced, never trusted, and `hook install` lists it.

use std::path::Path;

use advisor_core::SandboxMode;

use crate::hook::Dialect;

/// The words a command's binary may be called, as its file name.
const BINARY_NAMES: [&str; 2] = ["sandbox-advisor", "sandbox-advisor.exe"];

/// Characters a word keeps unquoted.
const PLAIN: &str = "_-./:=@%+,";

/// The advisor's hook command line, as install writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    /// The binary, as the command names it.
    pub bin: String,
    /// The hook's dialect.
    pub dialect: Dialect,
    /// `--mode`, passed on to every hook run.
    pub mode: Option<SandboxMode>,
    /// `--config`, passed on to every hook run.
    pub config: Option<String>,
}

/// Characters a Windows path keeps in a handler: what `cmd`, PowerShell and
/// Git Bash all read as part of one plain word (no `%`, `,`, `;`, `=`,
/// space, quote, `&`, `^`, `(`, `$`, `` ` ``).
const WINDOWS_PLAIN: &str = "_-./:+@";

/// Why a handler cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandlerError {
    /// A path is not UTF-8: a settings file (JSON) cannot name it exactly.
    #[error("the path of {0} is not UTF-8, so a JSON settings file cannot name it exactly")]
    NotUtf8(&'static str),
    /// On Windows, a path no hook shell there reads alike.
    #[error(
        "the path of {0} is a network path or holds characters that cmd, PowerShell and Git Bash do not all read as one plain word; on Windows the handler needs a drive path of letters, digits and _-.:+@ only (pass --bin or --config with such a path)"
    )]
    NotPlainOnWindows(&'static str),
}

/// `path` as one word every Windows hook shell reads alike (Codex runs a
/// hook with `%COMSPEC% /C`, Claude Code through Git Bash or PowerShell):
/// `\\?\` taken off a drive path (what `canonicalize` returns), each `\`
/// written `/` (which Windows takes as a separator, where a POSIX shell reads
/// `\` as an escape), and nothing but letters, digits and
/// [`WINDOWS_PLAIN`]; `None` for a network or device path or any other
/// character.
pub fn windows_word(path: &str) -> Option<String> {
    let path = match path.strip_prefix(r"\\?\") {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => rest,
        Some(_) => return None,
        None => path,
    };
    if path.starts_with(r"\\") || path.starts_with("//") {
        return None;
    }
    let word = path.replace('\\', "/");
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || WINDOWS_PLAIN.contains(c));
    plain.then_some(word)
}

impl Handler {
    /// The handler running `bin` with `dialect` and the given flags.
    pub fn new(
        bin: &Path,
        dialect: Dialect,
        mode: Option<SandboxMode>,
        config: Option<&Path>,
    ) -> Result<Self, HandlerError> {
        let utf8 = |path: &Path, what| {
            let text = path.to_str().ok_or(HandlerError::NotUtf8(what))?;
            if cfg!(windows) {
                windows_word(text).ok_or(HandlerError::NotPlainOnWindows(what))
            } else {
                Ok(text.to_owned())
            }
        };
        Ok(Self {
            bin: utf8(bin, "the binary (--bin)")?,
            dialect,
            mode,
            config: config.map(|c| utf8(c, "--config")).transpose()?,
        })
    }

    /// The command line a client runs: the words joined by one space.
    pub fn command_line(&self) -> String {
        let mut words = vec![shell_word(&self.bin)];
        words.extend(self.arguments());
        words.join(" ")
    }

    /// The words after the binary, each as [`shell_word`] writes it: what
    /// `hook install` writes after the binary, and what the plugins'
    /// launcher runs the binary it found with (`super::plugin`).
    pub fn arguments(&self) -> Vec<String> {
        let mut words: Vec<String> = ["hook", "--dialect", self.dialect.as_str()]
            .map(str::to_owned)
            .into();
        if let Some(mode) = self.mode {
            words.extend(["--mode", mode.as_str()].map(str::to_owned));
        }
        if let Some(config) = &self.config {
            words.extend(["--config".to_owned(), shell_word(config)]);
        }
        words
    }

    /// The handler `command` is, when it is one in install's form for
    /// `dialect` (module doc); `None` for any other command.
    pub fn parse(command: &str, dialect: Dialect) -> Option<Self> {
        let mut words = split(command)?.into_iter();
        let bin = words.next()?;
        let name = bin.rsplit(['/', '\\']).next()?;
        if !BINARY_NAMES.contains(&name) || words.next()? != "hook" {
            return None;
        }
        let first = words.next()?;
        if flag(&first, "--dialect", &mut words)?? != dialect.as_str() {
            return None;
        }
        let mut handler = Self {
            bin,
            dialect,
            mode: None,
            config: None,
        };
        while let Some(word) = words.next() {
            if let Some(mode) = flag(&word, "--mode", &mut words)? {
                if handler.mode.is_some() {
                    return None;
                }
                handler.mode = Some(mode.parse().ok()?);
            } else if let Some(config) = flag(&word, "--config", &mut words)? {
                if handler.config.is_some() || config.is_empty() || config.starts_with('-') {
                    return None;
                }
                handler.config = Some(config);
            } else {
                return None;
            }
        }
        Some(handler)
    }
}

/// `word` as the flag `name`: `Some(Some(value))` for `name value` (the value
/// taken from `rest`) or `name=value`, `Some(None)` for another word, `None`
/// for `name` with no value after it.
fn flag(word: &str, name: &str, rest: &mut impl Iterator<Item = String>) -> Option<Option<String>> {
    match word.strip_prefix(name) {
        Some("") => Some(Some(rest.next()?)),
        Some(tail) => Some(tail.strip_prefix('=').map(str::to_owned)),
        None => Some(None),
    }
}

/// True for a command that names the advisor: one `hook install` lists when
/// it is not the advisor's handler.
pub fn mentions_advisor(command: &str) -> bool {
    command.contains("sandbox-advisor")
}

/// One word for `sh -c`: as it is when it holds only characters no shell
/// reads specially, else in single quotes (a `'` inside as `'\''`).
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || PLAIN.contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The words of a command written as [`shell_word`] writes them, joined by
/// spaces; `None` when anything else is in it.
fn split(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut chars = command.chars().peekable();
    loop {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Some(words);
        }
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                ' ' => break,
                '\'' => {
                    chars.next();
                    loop {
                        match chars.next()? {
                            '\'' => break,
                            c => word.push(c),
                        }
                    }
                }
                '\\' => {
                    chars.next();
                    if chars.next()? != '\'' {
                        return None;
                    }
                    word.push('\'');
                }
                c if c.is_ascii_alphanumeric() || PLAIN.contains(c) => {
                    chars.next();
                    word.push(c);
                }
                _ => return None,
            }
        }
        words.push(word);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_windows_path_is_one_plain_word_with_forward_slashes_or_refused() {
        for (path, word) in [
            (
                r"C:\Users\dev\.cargo\bin\sandbox-advisor.exe",
                Some("C:/Users/dev/.cargo/bin/sandbox-advisor.exe"),
            ),
            (
                r"\\?\Z:\opt\sa\sandbox-advisor",
                Some("Z:/opt/sa/sandbox-advisor"),
            ),
            (
                "D:/tools/sandbox-advisor.exe",
                Some("D:/tools/sandbox-advisor.exe"),
            ),
            ("sandbox-advisor", Some("sandbox-advisor")),
            (r"C:\Program Files\sa\sandbox-advisor.exe", None),
            (r"C:\a%PATH%\sandbox-advisor.exe", None),
            (r"C:\a,b\sandbox-advisor.exe", None),
            (r"C:\it's\sandbox-advisor.exe", None),
            (r"C:\a&b\sandbox-advisor.exe", None),
            (r"C:\a=b\c.toml", None),
            (r"\\server\share\sandbox-advisor.exe", None),
            (r"\\?\UNC\server\share\sandbox-advisor.exe", None),
            ("//server/share/sandbox-advisor.exe", None),
            ("", None),
        ] {
            assert_eq!(windows_word(path).as_deref(), word, "{path}");
        }
        // What install writes on Windows is its own handler when read back.
        let written = format!(
            "{} hook --dialect codex --config {}",
            windows_word(r"C:\bin\sandbox-advisor.exe").unwrap(),
            windows_word(r"C:\cfg\sa.toml").unwrap()
        );
        let parsed = Handler::parse(&written, Dialect::Codex).unwrap();
        assert_eq!(parsed.bin, "C:/bin/sandbox-advisor.exe");
        assert_eq!(parsed.config.as_deref(), Some("C:/cfg/sa.toml"));
        assert_eq!(parsed.command_line(), written);
    }

    #[test]
    fn the_handler_is_recognized_only_in_installs_own_form() {
        use advisor_core::SandboxMode;
        // Built by hand: `Handler::new` writes Windows' form on Windows
        // (tested above); this is the POSIX form, on every platform.
        let h = |bin: &str, mode, config: Option<&str>| Handler {
            bin: bin.to_owned(),
            dialect: Dialect::Codex,
            mode,
            config: config.map(str::to_owned),
        };
        let spaced = h(
            "/home/a b/it's/sandbox-advisor",
            Some(SandboxMode::WorkspaceWrite),
            Some("/c/$HOME.toml"),
        );
        assert_eq!(
            spaced.command_line(),
            r"'/home/a b/it'\''s/sandbox-advisor' hook --dialect codex --mode workspace-write --config '/c/$HOME.toml'"
        );
        for handler in [
            spaced,
            h("/opt/bin/sandbox-advisor", None, None),
            h("sandbox-advisor", Some(SandboxMode::ReadOnly), None),
        ] {
            assert_eq!(
                Handler::parse(&handler.command_line(), Dialect::Codex),
                Some(handler)
            );
        }
        for (command, ours) in [
            ("/x/sandbox-advisor hook --dialect=codex", true),
            (
                "/x/sandbox-advisor hook --dialect codex --config=/c.toml --mode=read-only",
                true,
            ),
            ("C:\\bin\\sandbox-advisor.exe hook --dialect codex", false),
            (
                "/x/sandbox-advisor hook --dialect codex --mode bogus",
                false,
            ),
            ("/x/sandbox-advisor hook --dialect codex --log debug", false),
            ("/x/sandbox-advisor hook --dialect codex extra", false),
            (
                "/x/sandbox-advisor hook --dialect codex --mode read-only --mode read-only",
                false,
            ),
            ("/x/sandbox-advisor hook --dialect codex --config", false),
            ("/x/sandbox-advisor hook --dialect claude-code", false),
            ("/x/sandbox-advisor hook --dialect", false),
            ("/x/sandbox-advisor explain --dialect codex", false),
            ("/x/sandbox-advisor-evil hook --dialect codex", false),
            ("lint.sh hook --dialect codex", false),
            ("~/bin/sandbox-advisor hook --dialect codex", false),
            ("\"/x/sandbox-advisor\" hook --dialect codex", false),
            ("/x/sandbox-advisor hook --dialect codex; rm -rf /", false),
            ("/x/sandbox-advisor hook --dialect codex # x", false),
            ("/x/sandbox-advisor hook --dialect codex && true", false),
            ("/x/sandbox-advisor hook --dialect codex $(id)", false),
            ("'/x/sandbox-advisor hook --dialect codex", false),
        ] {
            assert_eq!(
                Handler::parse(command, Dialect::Codex).is_some(),
                ours,
                "{command}"
            );
        }
    }
}
