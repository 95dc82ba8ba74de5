//! The predicate: is this command's whole output bubblewrap's own line saying
//! it could not build the sandbox (namespace, id map) or start Codex's helper?
//!
//! bubblewrap prints every fatal error through `bwrap_logv` (`utils.c`): the
//! prefix [`PREFIX`], the message, for `die_with_error` a `: ` and
//! `strerror(errno)`, then a newline; `die` and `die_with_error` then exit 1.
//! The messages read here are the ones `bubblewrap.c` writes when `main`'s
//! `raw_clone` fails, when `write_uid_gid_map` cannot write the map, and when
//! the final `execvp` cannot find the program (only Codex's helper, named).
//!
//! Two carriers, both read whole:
//! - Claude Code's `PostToolUseFailure` `error`: [`EXIT_LINE`], then the
//!   output (a [`Carrier::Failure`]);
//! - Codex's `PostToolUse` `tool_response`: the bare output, with no mark of
//!   failure (a [`Carrier::Output`]).
//!
//! The output must be that one line (repeated at most [`MAX_REPEATS`] times,
//! identically), trailing whitespace allowed. A line quoted inside longer
//! output, another `bwrap:` message, or any other exit code is not this.

use advisor_core::{Observation, Outcome, Untrusted};

/// What bubblewrap writes before every message (`bwrap_logv`, `utils.c`).
pub const PREFIX: &str = "bwrap: ";

/// Claude Code's first line of a failed command's `error` when bwrap dies:
/// `die` and `die_with_error` exit 1.
pub const EXIT_LINE: &str = "Exit code 1\n";

/// At most this many identical lines are read as one report.
pub const MAX_REPEATS: usize = 3;

/// `raw_clone` failed with `ENOSPC` (bubblewrap 0.8.0 and later).
pub const NAMESPACE_LIMIT: &str = "Creating new namespace failed: nesting depth or \
                                   /proc/sys/user/max_*_namespaces exceeded (ENOSPC)";

/// `raw_clone` failed with `EINVAL` while creating a user namespace.
pub const KERNEL_WITHOUT_USERNS: &str = "Creating new namespace failed, likely because the \
                                         kernel does not support user namespaces.  bwrap must \
                                         be installed setuid on such systems.";

/// `raw_clone` failed with `EPERM` for an unprivileged user (upstream's text).
pub const UNPRIVILEGED_UPSTREAM: &str = "No permissions to create a new namespace, likely \
                                         because the kernel does not allow non-privileged user \
                                         namespaces. On e.g. debian this can be enabled with \
                                         'sysctl kernel.unprivileged_userns_clone=1'.";

/// The same failure as Debian 12's package (bubblewrap 0.8.0-2+deb12u1) words it.
pub const UNPRIVILEGED_DEBIAN: &str = "No permissions to create new namespace, likely because \
                                       the kernel does not allow non-privileged user \
                                       namespaces. See <https://deb.li/bubblewrap> or \
                                       <file:///usr/share/doc/bubblewrap/README.Debian.gz>.";

/// `raw_clone` failed otherwise: `die_with_error` appends the errno's text.
pub const NAMESPACE_FAILED: &str = "Creating new namespace failed: ";

/// `write_uid_gid_map` could not write the uid map (`die_with_error`).
pub const UID_MAP: &str = "setting up uid map: ";

/// `write_uid_gid_map` could not write the gid map (`die_with_error`).
pub const GID_MAP: &str = "setting up gid map: ";

/// The final `execvp` could not find Codex's sandbox helper.
pub const HELPER_MISSING: &str = "execvp codex-linux-sandbox: No such file or directory";

/// `strerror(EPERM)` and `strerror(EACCES)` (glibc): a refusal.
const REFUSED: [&str; 2] = ["Operation not permitted", "Permission denied"];

/// `strerror(ENOSPC)` (glibc): a bwrap older than 0.8.0 reporting the limit.
const NO_SPACE: &str = "No space left on device";

/// The whole lines the prefilter looks for (with [`PREFIX`]), for the family's anchors.
pub const NEEDLES: &[&str] = &[
    "bwrap: Creating new namespace failed",
    "bwrap: No permissions to create",
    "bwrap: setting up uid map: ",
    "bwrap: setting up gid map: ",
    "bwrap: execvp codex-linux-sandbox: ",
];

/// What bubblewrap could not do, by its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The user-namespace limit is reached or zero, or nesting is too deep (`ENOSPC`).
    NamespaceLimit,
    /// The kernel has no user namespaces (`EINVAL`).
    KernelWithoutUserns,
    /// Unprivileged users may not create user namespaces (`EPERM`, the long message).
    UnprivilegedRefused,
    /// Namespace creation was refused with a bare errno (`EPERM` or `EACCES`).
    NamespaceRefused,
    /// The namespace was made, but writing its uid or gid map was refused.
    IdMapRefused,
    /// Codex's sandbox helper was not found where bwrap was told to run it.
    HelperMissing,
}

impl Kind {
    /// The kind of one message (without [`PREFIX`]), or `None` for any other.
    pub fn of(message: &str) -> Option<Self> {
        match message {
            NAMESPACE_LIMIT => return Some(Kind::NamespaceLimit),
            KERNEL_WITHOUT_USERNS => return Some(Kind::KernelWithoutUserns),
            UNPRIVILEGED_UPSTREAM | UNPRIVILEGED_DEBIAN => return Some(Kind::UnprivilegedRefused),
            HELPER_MISSING => return Some(Kind::HelperMissing),
            _ => {}
        }
        if let Some(errno) = message.strip_prefix(NAMESPACE_FAILED) {
            if REFUSED.contains(&errno) {
                return Some(Kind::NamespaceRefused);
            }
            return (errno == NO_SPACE).then_some(Kind::NamespaceLimit);
        }
        let errno = message
            .strip_prefix(UID_MAP)
            .or_else(|| message.strip_prefix(GID_MAP))?;
        REFUSED.contains(&errno).then_some(Kind::IdMapRefused)
    }
}

/// How the output reached the advisor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// A failure: Claude Code's `error`, `Exit code 1` then the output.
    Failure,
    /// A success's text: Codex's bare output (or Claude Code's stdout/stderr).
    Output,
}

/// A recognized bubblewrap start failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What bubblewrap could not do.
    pub kind: Kind,
    /// How the output arrived.
    pub carrier: Carrier,
    /// bubblewrap's line, prefix included: the evidence quoted.
    pub line: Untrusted,
}

/// The text a host reported for the call: a failure's message, or a success's
/// rendered output.
pub fn text(observation: &Observation) -> (&str, Carrier) {
    match &observation.outcome {
        Outcome::Failure(f) => (&f.message, Carrier::Failure),
        Outcome::Success(s) => (&s.content, Carrier::Output),
    }
}

/// bubblewrap's line and its kind, when `output` is that line alone (at most
/// [`MAX_REPEATS`] identical copies, trailing whitespace allowed).
pub fn read(output: &str) -> Option<(Kind, &str)> {
    let mut lines = output.trim_end().split('\n').map(str::trim_end);
    let first = lines.next()?;
    let mut count = 1;
    for line in lines {
        if line != first {
            return None;
        }
        count += 1;
    }
    if count > MAX_REPEATS {
        return None;
    }
    Kind::of(first.strip_prefix(PREFIX)?).map(|kind| (kind, first))
}

/// Recognizes bubblewrap's own start failure; `None` (without allocating) for
/// anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let (raw, carrier) = text(observation);
    let output = match carrier {
        // The failure must be the command's: exit 1, as bwrap's `die` exits.
        Carrier::Failure => raw.strip_prefix(EXIT_LINE).unwrap_or(raw),
        Carrier::Output => raw,
    };
    let (kind, line) = read(output)?;
    Some(Finding {
        kind,
        carrier,
        line: Untrusted::new(line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(message: &str) -> String {
        format!("{PREFIX}{message}")
    }

    #[test]
    fn each_confirmed_message_has_its_kind() {
        for (message, kind) in [
            (NAMESPACE_LIMIT, Kind::NamespaceLimit),
            (
                "Creating new namespace failed: No space left on device",
                Kind::NamespaceLimit,
            ),
            (KERNEL_WITHOUT_USERNS, Kind::KernelWithoutUserns),
            (UNPRIVILEGED_UPSTREAM, Kind::UnprivilegedRefused),
            (UNPRIVILEGED_DEBIAN, Kind::UnprivilegedRefused),
            (
                "Creating new namespace failed: Operation not permitted",
                Kind::NamespaceRefused,
            ),
            (
                "Creating new namespace failed: Permission denied",
                Kind::NamespaceRefused,
            ),
            ("setting up uid map: Permission denied", Kind::IdMapRefused),
            (
                "setting up uid map: Operation not permitted",
                Kind::IdMapRefused,
            ),
            ("setting up gid map: Permission denied", Kind::IdMapRefused),
            (HELPER_MISSING, Kind::HelperMissing),
        ] {
            assert_eq!(
                read(&line(message)).map(|(k, _)| k),
                Some(kind),
                "{message}"
            );
        }
    }

    #[test]
    fn other_bwrap_messages_are_not_this() {
        for message in [
            "Can't find source path /x: No such file or directory",
            "Creating new namespace failed: Resource temporarily unavailable",
            "Creating new namespace failed: Invalid argument",
            "Creating new namespace failed",
            "setting up uid map: No such file or directory",
            "setting up uid map: ",
            "execvp codex-linux-sandbox: Permission denied",
            "execvp bash: No such file or directory",
            "execvp codex-linux-sandbox-x: No such file or directory",
            "loopback: Failed RTM_NEWADDR: Operation not permitted",
            "No permissions to create new namespace",
            "No permissions to creating new namespace",
        ] {
            assert_eq!(read(&line(message)), None, "{message}");
        }
        assert_eq!(read(NAMESPACE_LIMIT), None, "no prefix");
        assert_eq!(read(&format!("<3>{}", line(NAMESPACE_LIMIT))), None);
    }

    #[test]
    fn the_line_must_be_the_whole_output() {
        let own = line(NAMESPACE_LIMIT);
        for text in [
            format!("log: {own}"),
            format!(" {own}"),
            format!("{own}."),
            format!("{own}\nmore"),
            format!("before\n{own}"),
            format!("{own}\n\n{own}"),
            format!("{own}\n{}", line(HELPER_MISSING)),
            [own.as_str(); MAX_REPEATS + 1].join("\n"),
            String::new(),
        ] {
            assert_eq!(read(&text), None, "{text:?}");
        }
        for text in [
            format!("{own}\n"),
            format!("{own} \r\n"),
            format!("{own}\n{own}\n"),
            [own.as_str(); MAX_REPEATS].join("\n"),
        ] {
            assert_eq!(read(&text).map(|(_, l)| l), Some(own.as_str()), "{text:?}");
        }
    }
}
