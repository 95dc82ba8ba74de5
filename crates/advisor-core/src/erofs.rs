//! The line each common program prints when the kernel refuses a write with
//! `EROFS` ("Read-only file system"), and the path it names.
//!
//! A sandbox that mounts a path read-only (bubblewrap's read-only binds,
//! under Claude Code, Codex and Gemini CLI) answers a write there with
//! `EROFS`, exactly as a read-only mount does; the program that tried the
//! write says so in its own words. Several families read those words (a
//! write outside the writable roots, Codex's protected paths), so the
//! producers' shapes live here once. Nothing here decides that the sandbox
//! refused anything: this is recognition, and a family's provenance and gate
//! decide.
//!
//! Each shape was printed by the real program under the real clients
//! (`docs/hooks/`, `.ci/clients.sh record`), or read in its source where the
//! module says so:
//!
//! | producer | line |
//! |---|---|
//! | coreutils (`touch`, `mkdir`, `cp`, `install`, `ln`, `rm`, `rmdir`, `dd`, `chmod`, `chown`) | `touch: cannot touch '<p>': Read-only file system` (`‘<p>’` in a UTF-8 locale for `mkdir`) |
//! | bash's redirection | `/bin/bash: line 1: <p>: Read-only file system` |
//! | dash's (`sh`) | `sh: 1: cannot create <p>: Read-only file system` |
//! | zsh's | `zsh:1: read-only file system: <p>` |
//! | git | `fatal: Unable to create '<p>.lock': …`, `error: could not lock config file <p>: …`, `fatal: cannot mkdir <p>: …`, `fatal: could not create work tree dir '<p>': …` |
//! | Python | `OSError: [Errno 30] Read-only file system: '<p>'` |
//! | Node | `Error: EROFS: read-only file system, open '<p>'` |
//! | Rust (`io::Error`'s display) | `…: '<p>': Read-only file system (os error 30)`; cargo's chain ``failed to create directory `<p>` `` … `Read-only file system (os error 30)` |
//!
//! **Where the line must be.** A producer's line counts only where the
//! producer leaves it: the last non-blank line of the output; for Node, the
//! error line above only its own stack, property block and version trailer;
//! for cargo, the last cause of its chain. The same words inside a longer
//! line, or followed by more output, are someone else's (a log, a `grep`).
//!
//! **Which paths are read.** A path is taken exactly as printed, possibly
//! relative; it must not be empty, must hold no control character, and must
//! be shorter than [`PATH_MAX_BYTES`]. A quoted path must not contain the
//! quote or a backslash (a producer escapes those, and the escape is not
//! undone). A two-path message (`'a' -> 'b'`, `mv`'s) is not read: which of
//! the two was refused is not said.
//!
//! Nothing is allocated: a [`Refusal`] borrows the text.

mod lines;
#[cfg(test)]
mod tests;

pub use lines::parse_line;

/// The prefilter needle for every producer's line: the words both spellings
/// share (`Read-only file system`, and zsh's and Node's `read-only file
/// system`).
pub const NEEDLE: &str = "ead-only file system";

/// `strerror(EROFS)` as glibc and musl spell it.
pub const STRERROR: &str = "Read-only file system";

/// The longest path read (Linux's `PATH_MAX`).
pub const PATH_MAX_BYTES: usize = 4096;

/// How many lines above the last one the multi-line shapes (Node's trailer,
/// cargo's chain) may look.
pub const TRAILER_MAX_LINES: usize = 64;

/// A shell whose redirection failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shell {
    /// GNU bash: `<argv0>: line <n>: <path>: Read-only file system`.
    Bash,
    /// dash (Debian's `sh`): `<argv0>: <n>: cannot create <path>: Read-only file system`.
    Dash,
    /// zsh: `<argv0>:<n>: read-only file system: <path>`.
    Zsh,
}

/// Which program printed the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Producer {
    /// A coreutils program, named.
    Coreutils(&'static str),
    /// A shell's redirection.
    Shell(Shell),
    /// git.
    Git,
    /// Python's `OSError` (or pip quoting it).
    Python,
    /// Node's `fs` error.
    Node,
    /// A Rust program printing an `io::Error` (`os error 30`).
    Rust,
}

impl Producer {
    /// The producer's name in prose (`touch`, `bash`, `git`, `Python`, …).
    pub fn name(self) -> &'static str {
        match self {
            Producer::Coreutils(program) => program,
            Producer::Shell(Shell::Bash) => "bash",
            Producer::Shell(Shell::Dash) => "sh",
            Producer::Shell(Shell::Zsh) => "zsh",
            Producer::Git => "git",
            Producer::Python => "Python",
            Producer::Node => "Node",
            Producer::Rust => "a Rust program",
        }
    }
}

/// A producer's `EROFS` line, and the path it names, borrowed from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal<'a> {
    /// Who printed it.
    pub producer: Producer,
    /// The producer's line, whole (for a cargo chain, its last line).
    pub line: &'a str,
    /// The path as printed: absolute, or relative to the command's directory.
    pub path: &'a str,
}

impl Refusal<'_> {
    /// True when the path is absolute.
    pub fn is_absolute(&self) -> bool {
        self.path.starts_with('/')
    }
}

/// The lines of `text` from the end, without their line endings, blank
/// lines included.
fn lines_back(text: &str) -> impl Iterator<Item = &str> {
    text.lines().rev().map(|l| l.trim_end_matches('\r'))
}

/// The producer's refusal where the producer leaves it in `text` (see the
/// module doc), or `None` without allocating.
pub fn find(text: &str) -> Option<Refusal<'_>> {
    if !text.contains(NEEDLE) {
        return None;
    }
    let last = lines_back(text).find(|l| !l.trim().is_empty())?;
    if let Some(refusal) = parse_line(last) {
        return Some(refusal);
    }
    lines::node_above_trailer(text).or_else(|| lines::cargo_chain(text))
}

/// Words that move a command (or the program it runs) to another directory
/// before it writes: the shell's `cd`/`pushd`, `-C`/`--directory` (git,
/// make, tar), `--prefix`/`--cwd` (npm, yarn), git's `--work-tree` and
/// `--git-dir`.
const DIRECTORY_CHANGES: &[&str] = &[
    "cd",
    "pushd",
    "-C",
    "--directory",
    "--prefix",
    "--cwd",
    "--work-tree",
    "--git-dir",
];

/// Whether `command` may change directory before its write, so that a
/// relative path in its `EROFS` line is not relative to the payload's `cwd`:
/// one of the words above (before any `=`), split at white space and the
/// shell's separators, or a runtime's `chdir` anywhere.
pub fn changes_directory(command: &str) -> bool {
    command.contains("chdir")
        || command
            .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '`'))
            .any(|word| DIRECTORY_CHANGES.contains(&word.split('=').next().unwrap_or_default()))
}
