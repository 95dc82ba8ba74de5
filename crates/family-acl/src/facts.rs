//! What the brief and the full account both read: the directory's place on
//! the command lines and the command builders.

pub(crate) mod commands;

use advisor_core::Untrusted;
use advisor_core::quote::PathSlot;

/// What the command lines show when the directory cannot be placed on them.
const PLACEHOLDER: &str = "<dir>";

/// What the full account says when the error named no directory at all.
const NO_DETAIL_NOTE: &str = "The error names no directory: it was thrown without a detail, so \
     this advisory does not know which directory refused and writes <dir> in the commands below \
     instead of guessing one. Put the workspace root there yourself, or, if that one checks out, \
     the session's private temp directory (a dsh- folder under %TEMP%).";

/// The directory's place on the command lines, and the sentence the prose
/// owes the reader when the placeholder stands in.
pub(crate) struct Dir {
    /// The directory's place on the command lines.
    pub(crate) slot: PathSlot,
    /// Why the placeholder stands in, when it does.
    pub(crate) note: Option<String>,
}

impl Dir {
    /// Places `path` on the command lines, or the placeholder and the reason.
    pub(crate) fn new(path: Option<&Untrusted>) -> Self {
        match path {
            Some(path) => {
                let slot = PathSlot::new(path, PLACEHOLDER);
                let note = slot.note();
                Dir { slot, note }
            }
            None => Dir {
                slot: PathSlot::new(&Untrusted::new(""), PLACEHOLDER),
                note: Some(NO_DETAIL_NOTE.to_owned()),
            },
        }
    }
}
