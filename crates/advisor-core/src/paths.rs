//! Host paths with the semantics of the host that produced them.
//!
//! A recorded Windows session is replayed correctly by a process running on
//! Linux: path rules follow the host facts, not the build target. Parsing and
//! lexical normalization (`.`/`..`, both separators, drive prefixes) come from
//! `typed-path`; this module adds the comparison rule (case-insensitive on
//! Windows) and the containment test families ask for.

use std::fmt;

use typed_path::{Utf8Component, Utf8UnixPath, Utf8WindowsPath};

/// Which path grammar applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathStyle {
    /// Drive letters, UNC prefixes, `\` and `/` separators, case-insensitive comparison.
    Windows,
    /// `/` separator, case-sensitive comparison.
    Posix,
}

/// A lexically normalized path together with the grammar it was read with.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HostPath {
    style: PathStyle,
    normalized: String,
    absolute: bool,
}

/// How a path relates to a root it is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Containment {
    /// Strictly below the root.
    Inside,
    /// The root itself.
    Same,
    /// Neither.
    Outside,
}

impl HostPath {
    /// Normalizes `raw` lexically under `style` (`.` and `..` resolved, separators unified).
    pub fn lexical(style: PathStyle, raw: &str) -> Self {
        match style {
            PathStyle::Windows => {
                let path = Utf8WindowsPath::new(raw);
                let normalized = path.normalize();
                Self {
                    style,
                    absolute: normalized.is_absolute(),
                    normalized: normalized.into_string(),
                }
            }
            PathStyle::Posix => {
                let path = Utf8UnixPath::new(raw);
                let normalized = path.normalize();
                Self {
                    style,
                    absolute: normalized.is_absolute(),
                    normalized: normalized.into_string(),
                }
            }
        }
    }

    /// The normalized spelling.
    pub fn as_str(&self) -> &str {
        &self.normalized
    }

    /// The grammar this path was read with.
    pub fn style(&self) -> PathStyle {
        self.style
    }

    /// True for a fully qualified path (`C:\…`, `\\server\share\…`, `/…`).
    pub fn is_absolute(&self) -> bool {
        self.absolute
    }

    /// The comparison keys of this path's components (lowercased on Windows).
    fn keys(&self) -> Vec<String> {
        match self.style {
            PathStyle::Windows => Utf8WindowsPath::new(&self.normalized)
                .components()
                .map(|c| c.as_str().replace('/', "\\").to_lowercase())
                .collect(),
            PathStyle::Posix => Utf8UnixPath::new(&self.normalized)
                .components()
                .map(|c| c.as_str().to_owned())
                .collect(),
        }
    }

    /// Where this path lies relative to `root`, component by component. Paths of
    /// different grammars, and relative paths, are always [`Containment::Outside`].
    pub fn relation_to(&self, root: &HostPath) -> Containment {
        if self.style != root.style || !self.absolute || !root.absolute {
            return Containment::Outside;
        }
        let (mine, theirs) = (self.keys(), root.keys());
        if mine.len() < theirs.len() || mine[..theirs.len()] != theirs[..] {
            return Containment::Outside;
        }
        if mine.len() == theirs.len() {
            Containment::Same
        } else {
            Containment::Inside
        }
    }
}

/// True for a spelling Windows resolves by contacting another machine or
/// opening a device: one that starts with two separators (`\\` or `/`, in
/// either place, as Windows reads them): a UNC path (`\\server\share`,
/// `//server/share`), a verbatim UNC path (`\\?\UNC\server\share`), a
/// device path (`\\.\…`, `\\?\Volume{…}\`, `\\?\C:` without a
/// separator, which is the volume itself). Such a spelling is never
/// canonicalized, and never put on a command line.
///
/// A verbatim drive path (`\\?\C:\…`, what `std::fs::canonicalize` returns
/// on Windows) is a local drive path, not a device: it is false here.
pub fn is_unc_or_device(raw: &str) -> bool {
    let separator = |b: &u8| matches!(b, b'\\' | b'/');
    let two = raw
        .as_bytes()
        .get(..2)
        .is_some_and(|two| two.iter().all(separator));
    two && verbatim_drive(raw).is_none()
}

/// The drive path inside a verbatim drive path: `C:\…` for `\\?\C:\…`.
/// Only the exact prefix counts (`\\?\`, a letter, `:` and `\`): Windows
/// reads a verbatim path as written, so `\\?\C:` (the volume), `//?/C:/…`
/// (not verbatim) and `\\?\UNC\…` (another machine) are not drive paths.
fn verbatim_drive(raw: &str) -> Option<&str> {
    let rest = raw.strip_prefix(r"\\?\")?;
    match rest.as_bytes() {
        [drive, b':', b'\\', ..] if drive.is_ascii_alphabetic() => Some(rest),
        _ => None,
    }
}

/// `resolved` without Windows' verbatim drive prefix (`\\?\C:\…` becomes
/// `C:\…`), which `std::fs::canonicalize` adds and a harness's `realpath`
/// does not. Any other spelling, a verbatim UNC (`\\?\UNC\…`) or volume
/// path included, is kept as it is.
pub fn strip_verbatim_drive(resolved: &str) -> &str {
    verbatim_drive(resolved).unwrap_or(resolved)
}

impl fmt::Debug for HostPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HostPath({:?}, {:?})", self.style, self.normalized)
    }
}

impl fmt::Display for HostPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalized)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(raw: &str) -> HostPath {
        HostPath::lexical(PathStyle::Windows, raw)
    }

    #[test]
    fn windows_containment_is_component_wise_and_case_insensitive() {
        let root = win(r"D:\ws");
        assert_eq!(
            win(r"d:\WS\src\a.txt").relation_to(&root),
            Containment::Inside
        );
        assert_eq!(win("D:/ws/src").relation_to(&root), Containment::Inside);
        assert_eq!(win(r"D:\ws2\a").relation_to(&root), Containment::Outside);
        assert_eq!(
            win(r"D:\ws\..\other").relation_to(&root),
            Containment::Outside
        );
        assert_eq!(win(r"D:\ws\sub\..").relation_to(&root), Containment::Same);
        assert_eq!(win(r"C:\ws\a").relation_to(&root), Containment::Outside);
        assert_eq!(win(r"src\a").relation_to(&root), Containment::Outside);
    }

    #[test]
    fn posix_containment_is_case_sensitive() {
        let root = HostPath::lexical(PathStyle::Posix, "/ws");
        assert_eq!(
            HostPath::lexical(PathStyle::Posix, "/ws/a").relation_to(&root),
            Containment::Inside
        );
        assert_eq!(
            HostPath::lexical(PathStyle::Posix, "/WS/a").relation_to(&root),
            Containment::Outside
        );
    }

    #[test]
    fn two_leading_separators_are_unc_or_device_unless_a_verbatim_drive() {
        for raw in [
            r"\\server\share",
            "//server/share",
            r"\\?\UNC\server\share\ws",
            r"\\?\unc\server\share",
            r"\\?\Volume{0b1c}\ws",
            r"\\?\GLOBALROOT\Device\HarddiskVolume1",
            r"\\?\C:",
            r"\\?\C:/ws",
            r"\\?\1:\ws",
            "//?/C:/ws",
            r"\\.\C:\ws",
            r"\\.\PhysicalDrive0",
            r"\/server/share",
            r"/\server\share",
            "//",
        ] {
            assert!(is_unc_or_device(raw), "{raw}");
        }
        for raw in [
            r"\\?\C:\",
            r"\\?\C:\ws",
            r"\\?\z:\Users\u",
            r"C:\ws",
            "/tmp/ws",
            r"\ws",
            "/",
            "",
            r"a\\b",
            r"C:\\ws",
        ] {
            assert!(!is_unc_or_device(raw), "{raw}");
        }
    }

    #[test]
    fn only_a_verbatim_drive_prefix_is_dropped() {
        for (resolved, spelled) in [
            (r"\\?\C:\Users\u", r"C:\Users\u"),
            (r"\\?\C:\", r"C:\"),
            (r"\\?\UNC\host\share\ws", r"\\?\UNC\host\share\ws"),
            (r"\\?\Volume{0b1c}\ws", r"\\?\Volume{0b1c}\ws"),
            (r"\\?\C", r"\\?\C"),
            // The volume, not its root directory: `C:` alone would be drive-relative.
            (r"\\?\C:", r"\\?\C:"),
            (r"C:\Users\u", r"C:\Users\u"),
            ("/tmp/ws", "/tmp/ws"),
        ] {
            assert_eq!(strip_verbatim_drive(resolved), spelled, "{resolved}");
        }
    }

    #[test]
    fn drive_relative_is_not_absolute() {
        assert!(!win("D:foo").is_absolute());
        assert!(win(r"\\server\share\x").is_absolute());
    }
}
