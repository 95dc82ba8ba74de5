//! The predicate: is this command output a write refused with `EROFS` on a
//! path under one of Codex's protected names, in a producer's own line,
//! where the producer leaves it?
//!
//! Codex's `PostToolUse` hook sends the command's bare output with no exit
//! code and no mark of failure, so the output arrives as a success whose
//! content is that text. The producers and where each leaves its line are
//! core's ([`advisor_core::erofs`]): git's lock files (`index.lock`, a ref's
//! lock in `cannot lock ref …`, `config.lock` as `could not lock config file
//! .git/config`), coreutils (`touch`, `mkdir`, `cp`…), a shell's redirection,
//! Python's and Node's errors, a Rust program's `os error 30`; each recorded
//! from Codex 0.171.0 (`docs/hooks/codex/git-commit`, `protected-*`).
//!
//! This family reads only a line whose path has a protected name (`.git`,
//! `.agents`, `.codex`) as one of its components: Codex protects nothing
//! else, and every other refused write is the family of refused writes'.
//! Whether the name is at the top of the workspace root is the gate's
//! question (it needs the root). A relative path (`.git/description`,
//! `.codex/skills`) is resolved there against the working directory, unless
//! the command changed directory first ([`changes_directory`]).

pub use advisor_core::erofs::Producer;
use advisor_core::erofs::{self, changes_directory};
use advisor_core::{HostPath, Observation, Outcome, PathStyle, Untrusted, envelope};

use crate::facts::{Place, Protected};

/// The prefilter needle: what every producer's `EROFS` line holds.
pub const EROFS: &str = erofs::NEEDLE;

/// The longest path read (Linux's `PATH_MAX`).
pub const PATH_MAX_BYTES: usize = erofs::PATH_MAX_BYTES;

/// A recognized `EROFS` line and the path it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Who wrote the line.
    pub producer: Producer,
    /// The producer's line, as evidence.
    pub line: Untrusted,
    /// The path as the producer printed it.
    pub path: Untrusted,
    /// Where it points.
    pub place: Place,
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

/// Whether a component of `path` is one of Codex's protected names.
pub fn names_protected(path: &str) -> bool {
    path.split('/').any(|c| Protected::parse(c).is_some())
}

/// Recognizes a producer's `EROFS` line for a path under a protected name;
/// `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let refusal = erofs::find(text(observation))?;
    if !names_protected(refusal.path) {
        return None;
    }
    let command = observation
        .arguments
        .get("command")
        .and_then(|c| c.as_str())
        .unwrap_or_default();
    let place = if refusal.is_absolute() {
        Place::Absolute(HostPath::lexical(PathStyle::Posix, refusal.path))
    } else if changes_directory(command) {
        Place::AfterDirectoryChange
    } else {
        Place::Relative
    };
    Some(Finding {
        producer: refusal.producer,
        line: Untrusted::new(refusal.line),
        path: Untrusted::new(refusal.path),
        place,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_protected_component_counts() {
        for path in [
            "/ws/.git/index.lock",
            ".git/config",
            ".codex/skills",
            "/ws/.agents/x",
            "../proj/.git/HEAD.lock",
        ] {
            assert!(names_protected(path), "{path}");
        }
        for path in [
            "/ws/.github/x",
            "/ws/.gitkeep",
            ".GIT/config",
            "/ws/src/x",
            "notes.txt",
        ] {
            assert!(!names_protected(path), "{path}");
        }
    }
}
