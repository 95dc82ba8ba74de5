//! The predicate: did a program report a write refused as a read-only file
//! system (Linux: bubblewrap's read-only binds answer with `EROFS`), or does
//! the output end with Claude Code's `<sandbox_violations>` block holding a
//! Seatbelt write refusal (macOS, read in source only)?
//!
//! **Linux.** The producer's own `EROFS` line, where the producer leaves it
//! ([`advisor_core::erofs::find`]: coreutils, a shell's redirection, git,
//! Python, Node, Rust). The text is a failure's message (one `Error: `
//! envelope removed; Claude Code's `Exit code N` line is above the output,
//! so it never hides the last line) or a success's content (Codex sends the
//! bare output).
//!
//! **macOS (Claude Code).** Seatbelt refuses a write with `EPERM`, and the
//! program says `Operation not permitted`, which every other denial says
//! too. What names the refusal is the sandbox runtime's own log, which
//! Claude Code appends as a block closing the output
//! (`anthropics/sandbox-runtime`, `src/sandbox/macos-sandbox-utils.ts`,
//! `startMacOSSandboxLogMonitor`, keeps each kernel line after `Sandbox: `;
//! `sandbox-manager.ts`, `annotateStderrWithSandboxFailures`, writes
//! [`OPEN_TAG`], one line per violation, [`CLOSE_TAG`]). A write refusal
//! reads `<process>(<pid>) deny(1) file-write-<operation> <path>`. The
//! block must close the output, and every line in it must be a Seatbelt
//! line or the proxy's `deny network-outbound …` line; the first write line
//! is read. **Read in source only: no Mac ran it.**
//!
//! **Relative paths** are kept as printed and resolved later against the
//! session's working directory; when the command changes directory first
//! ([`changes_directory`]), that directory is not the one the program wrote
//! in, and the path is marked so ([`Place::AfterDirectoryChange`]).

use advisor_core::erofs::{self, Producer, changes_directory};
use advisor_core::{HostPath, Observation, Outcome, PathStyle, Untrusted, envelope};

/// The block's opening tag, on a line of its own.
pub const OPEN_TAG: &str = "<sandbox_violations>";

/// The block's closing tag, the output's last line.
pub const CLOSE_TAG: &str = "</sandbox_violations>";

/// What a Seatbelt write refusal holds after the process: the verdict and
/// the operation's family.
pub const SEATBELT_WRITE: &str = " deny(1) file-write-";

/// `tool_response.error.type` of a result Gemini CLI marked as its
/// sandbox's refusal (the failure's code, as `hook --dialect gemini-cli`
/// carries it; see the `gemini` module).
pub const GEMINI_MARK: &str = "sandbox_expansion_required";

/// The most block lines read, back from the closing tag.
pub const MAX_BLOCK_LINES: usize = 512;

/// Where the refusal was reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The program's own `EROFS` line (Linux).
    Erofs(Producer),
    /// A Seatbelt line in Claude Code's `<sandbox_violations>` block (macOS).
    Seatbelt,
}

/// Where the path points, as far as the text tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// An absolute path, normalized lexically.
    Absolute(HostPath),
    /// A relative path, to be resolved against the session's working directory.
    Relative,
    /// A relative path printed after the command changed directory: not
    /// resolvable against the session's working directory.
    AfterDirectoryChange,
}

/// A recognized refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Who reported it.
    pub carrier: Carrier,
    /// The reporting line, as evidence.
    pub line: Untrusted,
    /// The path as printed.
    pub path: Untrusted,
    /// Where it points.
    pub place: Place,
    /// Whether the client marked the result as its sandbox's refusal
    /// (Gemini CLI's `sandbox_expansion_required`, [`GEMINI_MARK`]).
    pub mark: Mark,
    /// Whether `git` is one of the command's words (Gemini CLI makes the
    /// workspace's `.git` writable for a command that runs git).
    pub runs_git: bool,
}

/// The client's own word on the result, from a field no output reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// No client mark (Claude Code and Codex never set one).
    None,
    /// Gemini CLI's `sandbox_expansion_required`, carried by
    /// `hook --dialect gemini-cli` as the failure's code.
    SandboxExpansion,
}

/// The text the family reads: a failure's message (its rendered content
/// when the message is empty) without its one envelope, or a success's
/// content.
pub fn text(observation: &Observation) -> &str {
    match &observation.outcome {
        Outcome::Failure(f) if f.message.trim().is_empty() => envelope::unwrap(&f.content),
        Outcome::Failure(f) => envelope::unwrap(&f.message),
        Outcome::Success(s) => &s.content,
    }
}

/// Recognizes a refused write; `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let text = text(observation);
    let (carrier, line, path) = match erofs::find(text) {
        Some(r) => (Carrier::Erofs(r.producer), r.line, r.path),
        None => {
            let (line, path) = seatbelt_write(text)?;
            (Carrier::Seatbelt, line, path)
        }
    };
    let place = if path.starts_with('/') {
        Place::Absolute(HostPath::lexical(PathStyle::Posix, path))
    } else if changes_directory(command(observation)) {
        Place::AfterDirectoryChange
    } else {
        Place::Relative
    };
    let mark = match observation.failure().and_then(|f| f.code.as_deref()) {
        Some(GEMINI_MARK) => Mark::SandboxExpansion,
        _ => Mark::None,
    };
    Some(Finding {
        carrier,
        line: Untrusted::new(line),
        path: Untrusted::new(path),
        place,
        mark,
        runs_git: runs_git(command(observation)),
    })
}

/// Whether one of `command`'s words is `git` (or a path ending in `/git`):
/// Gemini CLI lets such a command write the workspace's `.git` (its
/// `isGitCommand`, any root of the pipeline). A word anywhere counts, so a
/// command that may run git is never told `.git` was kept from it.
pub fn runs_git(command: &str) -> bool {
    words(command).any(|word| word == "git" || word.ends_with("/git"))
}

/// The shell words of `command`, split at blanks and the shell's separators.
fn words(command: &str) -> impl Iterator<Item = &str> {
    command.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '`'))
}

/// The call's shell command (`command` of Claude Code's and Codex's `Bash`,
/// and of Gemini CLI's `run_shell_command`).
fn command(observation: &Observation) -> &str {
    observation
        .arguments
        .get("command")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
}

/// The first Seatbelt write refusal in a `<sandbox_violations>` block that
/// closes `text`: the line and its path.
fn seatbelt_write(text: &str) -> Option<(&str, &str)> {
    let mut lines = text
        .lines()
        .rev()
        .map(|l| l.trim_end_matches('\r'))
        .skip_while(|l| l.trim().is_empty());
    if lines.next()? != CLOSE_TAG {
        return None;
    }
    let mut first_write = None;
    for line in lines.take(MAX_BLOCK_LINES) {
        if line == OPEN_TAG {
            return first_write;
        }
        match seatbelt_line(line) {
            Some(Some(path)) => first_write = Some((line, path)),
            Some(None) => {}
            None if line.starts_with("deny network-outbound ") => {}
            None => return None,
        }
    }
    None
}

/// A Seatbelt line, `<process>(<pid>) deny(1) <operation> <operand>`:
/// `Some(Some(path))` for a write refusal of an absolute path, `Some(None)`
/// for another operation; `None` for a line of another shape.
fn seatbelt_line(line: &str) -> Option<Option<&str>> {
    let (process, rest) = line.split_once(") deny(1) ")?;
    let (name, pid) = process.rsplit_once('(')?;
    let pid_ok = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    (pid_ok && !name.is_empty()).then_some(())?;
    let (operation, operand) = rest.split_once(' ').unwrap_or((rest, ""));
    let op_ok = !operation.is_empty()
        && operation
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'*');
    op_ok.then_some(())?;
    let write = operation.starts_with("file-write-")
        && operand.starts_with('/')
        && operand.len() <= erofs::PATH_MAX_BYTES
        && !operand.chars().any(char::is_control);
    Some(write.then_some(operand))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_is_a_word_of_the_command() {
        for command in [
            "git commit -m x",
            "cd sub && git add .",
            "/usr/bin/git gc",
            "(git stash)",
        ] {
            assert!(runs_git(command), "{command}");
        }
        for command in ["touch .git/x", "echo git> .git/x", "gitk", "cat .gitignore"] {
            assert!(!runs_git(command), "{command}");
        }
    }

    #[test]
    fn seatbelt_lines() {
        assert_eq!(
            seatbelt_line("touch(1234) deny(1) file-write-create /private/tmp/nope"),
            Some(Some("/private/tmp/nope"))
        );
        assert_eq!(
            seatbelt_line("Google Chrome(77) deny(1) file-write-data /Users/me/x y"),
            Some(Some("/Users/me/x y"))
        );
        assert_eq!(
            seatbelt_line("curl(9) deny(1) network-outbound 1.2.3.4:443"),
            Some(None)
        );
        for line in [
            "deny network-outbound example.com:443 (user denied)",
            "touch(x) deny(1) file-write-create /a",
            "(12) deny(1) file-write-create /a",
            "touch(12) deny(1) FILE /a",
        ] {
            assert_eq!(seatbelt_line(line), None, "{line}");
        }
        assert_eq!(
            seatbelt_line("touch(12) deny(1) file-write-create relative"),
            Some(None)
        );
    }

    #[test]
    fn only_a_block_closing_the_output() {
        let block = "touch: /x: Operation not permitted\n\n<sandbox_violations>\n\
                     touch(5) deny(1) file-write-create /x\n</sandbox_violations>\n";
        assert_eq!(
            seatbelt_write(block),
            Some(("touch(5) deny(1) file-write-create /x", "/x"))
        );
        assert_eq!(seatbelt_write(&format!("{block}more")), None);
        let mixed = block.replace(
            "<sandbox_violations>\n",
            "<sandbox_violations>\ndeny network-outbound a.example:443 (x)\n",
        );
        assert!(seatbelt_write(&mixed).is_some());
        let foreign = block.replace("<sandbox_violations>\n", "<sandbox_violations>\nhello\n");
        assert_eq!(seatbelt_write(&foreign), None);
        let unopened = "touch(5) deny(1) file-write-create /x\n</sandbox_violations>\n";
        assert_eq!(seatbelt_write(unopened), None);
    }
}
