//! Whether a program lies on the `PATH` the client handed its hooks (the
//! hook inherits the client's environment): the same search the shell that
//! starts the client's sandbox makes.
//!
//! Each absolute directory of `PATH` is looked at, in order, for a regular
//! file of that name with an execute bit (`stat`, following a link as the
//! shell's `exec` does; nothing is opened or run). Relative and empty entries
//! are skipped. Bounds: a `PATH` over [`PATH_MAX_BYTES`] or with more than
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
    let found = dirs.iter().any(|dir| executable(&dir.join(name)));
    Some(if found {
        ProgramOnPath::Found
    } else {
        ProgramOnPath::Missing
    })
}

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
