//! What the brief and the full account both read: the directory's place on
//! the command lines, the command builders, and whether the directory already
//! lies in a user profile.

pub(crate) mod commands;

use advisor_core::quote::PathSlot;
use advisor_core::{HostPath, PathStyle, Untrusted};

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

/// The folders under `Users` that are no one person's profile.
const SHARED_PROFILES: [&str; 4] = ["public", "default", "default user", "all users"];

/// True when `path` is drive-absolute and lies in a user's profile folder,
/// `<drive>:\Users\<name>` or below (read with Windows grammar, compared
/// without regard to case). Moving the workspace under %USERPROFILE% is then
/// no advice: it is there already. Render-time only; recognition never asks.
pub(crate) fn in_user_profile(path: &Untrusted) -> bool {
    // Most paths never name a `Users` folder: refuse them before normalizing.
    let raw = path.inspect().as_bytes();
    if !raw.windows(5).any(|w| w.eq_ignore_ascii_case(b"users")) {
        return false;
    }
    // A relative, drive-relative, UNC or device spelling has no `X:` first part.
    let path = HostPath::lexical(PathStyle::Windows, path.inspect());
    let mut parts = path.as_str().split(['\\', '/']);
    let drive = parts.next().unwrap_or_default();
    let is_drive = drive.len() == 2
        && drive.ends_with(':')
        && drive.starts_with(|c: char| c.is_ascii_alphabetic());
    let users = parts
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("users"));
    let name = parts.next().unwrap_or_default().to_lowercase();
    is_drive && users && !name.is_empty() && !SHARED_PROFILES.contains(&name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &str, expected: bool) {
        assert_eq!(in_user_profile(&Untrusted::new(path)), expected, "{path:?}");
    }

    #[test]
    fn a_drive_absolute_profile_folder_and_below_are_a_profile() {
        for path in [
            r"C:\Users\alice\ws",
            r"C:\Users\alice",
            r"c:\users\ALICE\src\ws",
            "D:/Users/bob/ws",
            r"C:\Users\alice\..\bob\ws",
        ] {
            check(path, true);
        }
    }

    #[test]
    fn anything_else_is_not() {
        for path in [
            r"D:\ws",
            r"C:\Users",
            r"C:\Users\Public\ws",
            r"C:\Users\Default\ws",
            r"C:\Users\alice\..\..\ws",
            r"D:\data\Users\alice\ws",
            r"C:\Userss\alice\ws",
            r"Users\alice\ws",
            r"C:Users\alice\ws",
            r"\Users\alice\ws",
            r"\\server\share\Users\alice",
            r"\\?\C:\Users\alice\ws",
            "/home/alice/ws",
            "",
        ] {
            check(path, false);
        }
    }
}
