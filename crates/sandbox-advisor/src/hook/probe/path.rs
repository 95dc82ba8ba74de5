//! Whether a program lies on the `PATH` the client handed its hooks (the
//! hook inherits the client's environment): the same search the shell that
//! starts the client's sandbox makes.
//!
//! Each absolute directory of `PATH` is looked at, in order, for a regular
//! file of that name with an execute bit (`stat`, following a link as the
//! shell's `exec` does; nothing is opened or run). Relative and empty entries
//! are skipped. Off Unix each name is also tried with the extensions of
//! `PATHEXT` (`bwrap` is found as `bwrap.exe`), as `cmd` searches. Bounds: a `PATH` over [`PATH_MAX_BYTES`] or with more than
//! [`PATH_MAX_DIRS`] directories is not looked through (unknown).

use std::ffi::OsStr;
use std::path::Path;

use advisor_core::ProgramOnPath;

/// The longest `PATH` looked through, in bytes.
pub const PATH_MAX_BYTES: usize = 16 * 1024;

/// The most directories looked at.
pub const PATH_MAX_DIRS: usize = 64;

/// `Found` when a directory of `path` holds an executable regular file
/// `name`, `Missing` when none does, `None` when `path` is absent or over a bound.
pub fn on_path(name: &str, path: Option<&OsStr>) -> Option<ProgramOnPath> {
    let path = path?;
    if path.len() > PATH_MAX_BYTES {
        return None;
    }
    let dirs: Vec<_> = std::env::split_paths(path)
        .filter(|d| d.is_absolute())
        .collect();
    if dirs.len() > PATH_MAX_DIRS {
        return None;
    }
    let names = names(name);
    let found = dirs
        .iter()
        .any(|dir| names.iter().any(|n| executable(&dir.join(n))));
    Some(if found {
        ProgramOnPath::Found
    } else {
        ProgramOnPath::Missing
    })
}

/// The file names a search for `name` tries: the name itself, and off Unix
/// the name with each extension of `PATHEXT` (as `cmd` does; `.COM;.EXE;.BAT;.CMD`
/// when unset, at most [`PATHEXT_MAX`] of them).
fn names(name: &str) -> Vec<String> {
    let mut names = vec![name.to_owned()];
    if cfg!(not(unix)) {
        let pathext = std::env::var("PATHEXT").unwrap_or_default();
        let pathext = if pathext.is_empty() || pathext.len() > PATH_MAX_BYTES {
            DEFAULT_PATHEXT.to_owned()
        } else {
            pathext
        };
        names.extend(
            pathext
                .split(';')
                .filter(|e| e.starts_with('.') && e.len() > 1)
                .take(PATHEXT_MAX)
                .map(|e| format!("{name}{e}")),
        );
    }
    names
}

/// The extensions tried when `PATHEXT` is unset.
const DEFAULT_PATHEXT: &str = ".COM;.EXE;.BAT;.CMD";

/// The most `PATHEXT` extensions tried.
pub const PATHEXT_MAX: usize = 16;

#[cfg(unix)]
fn executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn executable(file: &Path) -> bool {
    std::fs::metadata(file).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_program_is_found_only_as_an_executable_file_on_an_absolute_entry() {
        let dir = std::env::temp_dir().join(format!("sa-path-{}", std::process::id()));
        let bin = dir.join("bin");
        std::fs::create_dir_all(bin.join("bwrap-dir")).unwrap();
        std::fs::write(bin.join("plain"), "x").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::write(bin.join("tool"), "x").unwrap();
            std::fs::set_permissions(bin.join("tool"), std::fs::Permissions::from_mode(0o755))
                .unwrap();
            let path = std::env::join_paths([Path::new("/nonexistent-dir"), &bin]).unwrap();
            assert_eq!(on_path("tool", Some(&path)), Some(ProgramOnPath::Found));
            // The same directory named relative to this process's: not searched.
            let cwd = std::env::current_dir().unwrap();
            let up = "../".repeat(cwd.components().count() - 1);
            let relative = format!("{up}{}", bin.strip_prefix("/").unwrap().display());
            assert_eq!(
                on_path("tool", Some(OsStr::new(&relative))),
                Some(ProgramOnPath::Missing)
            );
        }
        let path = std::env::join_paths([&bin]).unwrap();
        // Unix asks for an execute bit; Windows has none to ask for.
        let plain = if cfg!(unix) {
            ProgramOnPath::Missing
        } else {
            ProgramOnPath::Found
        };
        assert_eq!(on_path("plain", Some(&path)), Some(plain));
        assert_eq!(
            on_path("bwrap-dir", Some(&path)),
            Some(ProgramOnPath::Missing)
        );
        assert_eq!(on_path("none", Some(&path)), Some(ProgramOnPath::Missing));
        // Windows finds `prog` as `prog.exe` (PATHEXT); Unix only by its name.
        std::fs::write(bin.join("prog.exe"), "x").unwrap();
        let by_ext = if cfg!(unix) {
            ProgramOnPath::Missing
        } else {
            ProgramOnPath::Found
        };
        assert_eq!(on_path("prog", Some(&path)), Some(by_ext));
        // A relative entry is not searched.
        assert_eq!(
            on_path("tool", Some(OsStr::new("bin"))),
            Some(ProgramOnPath::Missing)
        );
        assert_eq!(on_path("tool", None), None);
        let many = std::env::join_paths(vec![&bin; PATH_MAX_DIRS + 1]).unwrap();
        assert_eq!(on_path("tool", Some(&many)), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
