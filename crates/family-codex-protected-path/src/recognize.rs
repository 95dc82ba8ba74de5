//! The predicate: is this command output a write refused with `EROFS` on a
//! named absolute path, in a producer's own line, at the end of the output?
//!
//! Codex's `PostToolUse` hook sends the command's bare output with no exit
//! code and no mark of failure, so the output arrives as a success whose
//! content is that text. Recognition is therefore narrow: the **last
//! non-blank line** of the output must be, whole, one of two producer lines:
//!
//! - git's lock failure, [`GIT_FATAL`] or [`GIT_ERROR`], then the absolute
//!   lock path (it always ends in `.lock`), then [`QUOTED_TAIL`]. git writes
//!   it in `lockfile.c`, `unable_to_lock_message`, as
//!   `Unable to create '%s.lock': %s` with `absolute_path()` and
//!   `strerror()`; `die()` prefixes `fatal: `, a caller that only reports
//!   prefixes `error: `. It does not escape the path.
//! - coreutils `touch`, [`TOUCH_HEAD`], the path, [`QUOTED_TAIL`]
//!   (`touch.c`: `cannot touch %s` with `quoteaf`). `quoteaf` quotes a plain
//!   name as `'name'` and spells any other name differently, so only a path
//!   with no quote, backslash or control character is read.
//!
//! The same words inside a longer line (a log, a grep hit), or followed by
//! more output, are not the producer's line. Whether the path is a protected
//! one is the gate's question (it needs the workspace root).

use advisor_core::{HostPath, Observation, Outcome, PathStyle, Untrusted, envelope};

/// `strerror(EROFS)` as glibc spells it: the prefilter's needle.
pub const EROFS: &str = "Read-only file system";

/// git's lock failure when the command dies of it.
pub const GIT_FATAL: &str = "fatal: Unable to create '";

/// git's lock failure when the caller only reports it.
pub const GIT_ERROR: &str = "error: Unable to create '";

/// coreutils `touch` refusing to create or open a file.
pub const TOUCH_HEAD: &str = "touch: cannot touch '";

/// What closes both lines: the quote, then `EROFS`'s text.
pub const QUOTED_TAIL: &str = "': Read-only file system";

/// git's lock files end in this suffix (`LOCK_SUFFIX`).
pub const LOCK_SUFFIX: &str = ".lock";

/// The longest path read (Linux's `PATH_MAX`).
pub const PATH_MAX_BYTES: usize = 4096;

/// Which producer wrote the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Producer {
    /// git could not create a lock file.
    Git,
    /// coreutils `touch` could not create or open a file.
    Touch,
}

/// A recognized `EROFS` line and the path it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Who wrote the line.
    pub producer: Producer,
    /// The producer's line, as evidence.
    pub line: Untrusted,
    /// The path as the producer printed it.
    pub path: Untrusted,
    /// The path read with Linux grammar and normalized lexically.
    pub host_path: HostPath,
}

/// The text a family reads: a failure's message (its rendered content when
/// the message is empty) without its one envelope, or a success's content
/// (Codex's bare output).
pub fn text(observation: &Observation) -> &str {
    match &observation.outcome {
        Outcome::Failure(f) if f.message.trim().is_empty() => envelope::unwrap(&f.content),
        Outcome::Failure(f) => envelope::unwrap(&f.message),
        Outcome::Success(s) => &s.content,
    }
}

/// The last line of `text` that is not blank, without its line ending.
fn last_line(text: &str) -> Option<&str> {
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .map(|line| line.trim_end_matches('\r'))
}

/// An absolute path a producer could have printed here, or `None`.
fn plain_path(path: &str) -> Option<&str> {
    let ok = path.starts_with('/')
        && path.len() <= PATH_MAX_BYTES
        && !path.chars().any(char::is_control);
    ok.then_some(path)
}

/// Reads one whole line as a producer's `EROFS` line: the producer and the path.
pub fn parse_line(line: &str) -> Option<(Producer, &str)> {
    for head in [GIT_FATAL, GIT_ERROR] {
        if let Some(rest) = line.strip_prefix(head) {
            let path = rest.strip_suffix(QUOTED_TAIL)?;
            return path
                .ends_with(LOCK_SUFFIX)
                .then_some((Producer::Git, plain_path(path)?));
        }
    }
    let path = line.strip_prefix(TOUCH_HEAD)?.strip_suffix(QUOTED_TAIL)?;
    let quoted_plainly = !path.contains(['\'', '\\']);
    quoted_plainly.then_some((Producer::Touch, plain_path(path)?))
}

/// Recognizes an output whose last line is a producer's `EROFS` line;
/// `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let line = last_line(text(observation))?;
    let (producer, path) = parse_line(line)?;
    Some(Finding {
        producer,
        line: Untrusted::new(line),
        path: Untrusted::new(path),
        host_path: HostPath::lexical(PathStyle::Posix, path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIT: &str = "fatal: Unable to create '/ws/.git/index.lock': Read-only file system";

    #[test]
    fn gits_line_in_both_prefixes() {
        assert_eq!(
            parse_line(GIT),
            Some((Producer::Git, "/ws/.git/index.lock"))
        );
        let reported = GIT.replacen("fatal: ", "error: ", 1);
        assert_eq!(
            parse_line(&reported),
            Some((Producer::Git, "/ws/.git/index.lock"))
        );
        // git does not escape a quote in the path.
        assert_eq!(
            parse_line("fatal: Unable to create '/w's/.git/HEAD.lock': Read-only file system"),
            Some((Producer::Git, "/w's/.git/HEAD.lock"))
        );
    }

    #[test]
    fn touchs_line_only_for_a_plainly_quoted_name() {
        assert_eq!(
            parse_line("touch: cannot touch '/ws/.codex/x': Read-only file system"),
            Some((Producer::Touch, "/ws/.codex/x"))
        );
        for line in [
            "touch: cannot touch '/ws/.codex/a'\\''b': Read-only file system",
            "touch: cannot touch \"/ws/.codex/a'b\": Read-only file system",
            "touch: cannot touch 'x': Read-only file system",
        ] {
            assert_eq!(parse_line(line), None, "{line}");
        }
    }

    #[test]
    fn other_errors_and_shapes_are_refused() {
        for line in [
            "fatal: Unable to create '/ws/.git/index.lock': File exists.",
            "fatal: Unable to create '/ws/.git/index': Read-only file system",
            "fatal: Unable to create 'ws/.git/index.lock': Read-only file system",
            "fatal: Unable to create '/ws/.git/index.lock': Permission denied",
            "error: could not lock config file .git/config: File exists",
            "fatal: Unable to create '/ws/.git/index.lock': Read-only file system.",
            "[log] fatal: Unable to create '/ws/.git/index.lock': Read-only file system",
            " fatal: Unable to create '/ws/.git/index.lock': Read-only file system",
            "fatal: Unable to create '': Read-only file system",
        ] {
            assert_eq!(parse_line(line), None, "{line}");
        }
    }

    #[test]
    fn only_the_last_non_blank_line_counts() {
        assert_eq!(last_line(&format!("hint\n{GIT}\n\n")), Some(GIT));
        assert_eq!(last_line(&format!("{GIT}\r\n")), Some(GIT));
        assert_eq!(
            last_line(&format!("{GIT}\nmore output")),
            Some("more output")
        );
        assert_eq!(last_line(" \n\n"), None);
    }
}
