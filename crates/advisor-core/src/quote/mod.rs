//! Text the advisor did not write, and the only ways it may leave the advisor.
//!
//! A path from an error line, a tool name, a command's stderr, a resolver's
//! message, an agent id: all of it is shaped by whoever named the folder or
//! wrote the program. [`Untrusted`] holds such text. It has no `Display` and no
//! `Deref<Target = str>`, so it cannot be formatted into an advisory by
//! accident; a family asks for one of the renderings instead:
//!
//! | rendering | where | rule |
//! |---|---|---|
//! | [`Untrusted::quote_block`] | evidence in prose | its own `> ` lines; invisible characters and backticks escaped visibly; capped |
//! | [`Untrusted::inline`] | a mention inside a sentence | a code span nothing inside can close; same escapes; capped |
//! | [`Untrusted::powershell`] | a PowerShell argument | `'…'`, every single-quote variant doubled; allow-listed characters only; no `"` and no trailing `\` after a space, which Windows PowerShell would pass on to a program unescaped |
//! | [`Untrusted::cmd`] | a cmd.exe argument | `"…"`, allow-listed characters only, trailing backslashes doubled |
//! | [`CommandPath`] | a path in any command line | drive-absolute, normalized, no `.`/`..`, no UNC or device prefix, no device name (`NUL`, `COM1`) |
//! | [`log_field`] | a `tracing` field on the host log | one logfmt value: bare only when nothing in it can end it, else `"…"` with JSON's escapes; capped |
//! | [`escaped`] | a terminal header, an error message | controls and invisible characters escaped, not quoted; capped |
//!
//! Every rule is an allow-list: a character is carried only when it is known
//! to be visible and inert in that place. Anything else is escaped (prose,
//! logs) or refused (commands), and a refused command argument becomes a
//! placeholder whose reason the prose states.

mod class;
mod command;
mod log;
mod prose;

pub use class::{is_visible, needs_escape};
pub use command::{
    COMMAND_ARG_MAX_CHARS, COMMAND_PATH_MAX_CHARS, CmdArg, CommandPath, PathSlot, PsLiteral,
    Refusal,
};
pub use log::{Escaped, LOG_FIELD_MAX_CHARS, LogField, escaped, log_field};
pub use prose::{INLINE_MAX_CHARS, Inline, QUOTE_MAX_CHARS, QUOTE_MAX_LINES, QuoteBlock};

/// The most text an [`Untrusted`] keeps, in bytes; the rest is cut at a
/// character boundary and remembered as cut (commands then refuse it).
pub const UNTRUSTED_MAX_BYTES: usize = 16 * 1024;

/// Text the advisor did not write. Built where a family reads it out of an
/// observation; leaves only through a rendering.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Untrusted {
    text: Box<str>,
    cut: bool,
}

impl Untrusted {
    /// Takes `raw` as data, keeping at most [`UNTRUSTED_MAX_BYTES`].
    pub fn new(raw: &str) -> Self {
        if raw.len() <= UNTRUSTED_MAX_BYTES {
            return Self {
                text: raw.into(),
                cut: false,
            };
        }
        let mut end = UNTRUSTED_MAX_BYTES;
        while !raw.is_char_boundary(end) {
            end -= 1;
        }
        Self {
            text: raw[..end].into(),
            cut: true,
        }
    }

    /// The text, for comparing and parsing only. Never format it into prose,
    /// a command or a log line: use a rendering.
    pub fn inspect(&self) -> &str {
        &self.text
    }

    /// True when the original was longer than [`UNTRUSTED_MAX_BYTES`].
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// Quoted evidence: its own `> ` lines, which nothing inside can end.
    pub fn quote_block(&self) -> QuoteBlock<'_> {
        QuoteBlock::new(&self.text, self.cut)
    }

    /// An inline mention: a code span nothing inside can close.
    pub fn inline(&self) -> Inline<'_> {
        Inline::new(&self.text, self.cut)
    }

    /// The text as one PowerShell single-quoted literal, or why it cannot be.
    pub fn powershell(&self) -> Result<PsLiteral, Refusal> {
        self.whole()?;
        PsLiteral::new(&self.text)
    }

    /// The text as a PowerShell single-quoted literal piped to a program's
    /// stdin (`'…' | program`), never passed as a native argument, or why it
    /// cannot be.
    pub fn powershell_input(&self) -> Result<PsLiteral, Refusal> {
        self.whole()?;
        PsLiteral::pipeline_input(&self.text)
    }

    /// The text as one cmd.exe double-quoted argument, or why it cannot be.
    pub fn cmd(&self) -> Result<CmdArg, Refusal> {
        self.whole()?;
        CmdArg::new(&self.text)
    }

    /// The text as a Windows path fit for a command line, or why it is not.
    pub fn command_path(&self) -> Result<CommandPath, Refusal> {
        self.whole()?;
        CommandPath::new(&self.text)
    }

    /// The text as a log field value.
    pub fn log(&self) -> LogField<'_> {
        log_field(&self.text)
    }

    /// The text escaped for a line of a terminal or an error message.
    pub fn escaped(&self) -> Escaped<'_> {
        escaped(&self.text)
    }

    fn whole(&self) -> Result<(), Refusal> {
        if self.cut {
            Err(Refusal::TooLong)
        } else {
            Ok(())
        }
    }
}

impl std::fmt::Debug for Untrusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Untrusted({:?})", &*self.text)
    }
}

impl From<&str> for Untrusted {
    fn from(raw: &str) -> Self {
        Self::new(raw)
    }
}

impl From<String> for Untrusted {
    fn from(raw: String) -> Self {
        Self::new(&raw)
    }
}

#[cfg(test)]
mod tests;
