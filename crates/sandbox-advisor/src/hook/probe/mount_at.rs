//! The mount at a path, and sockets: the host checks of the everyday
//! refusals, made on Unix only. Off Unix the mount is unknown with its
//! reason and the socket unknown, so no family that needs them speaks.

use std::path::{Path, PathBuf};

use advisor_core::MountFact;

use super::Inputs;

/// `path` as the kernel resolved it for the command: an absolute one as it
/// is; a relative one against the working directory with its links
/// resolved, its leading `..` taken off that directory (which holds no
/// link, so the kernel's `..` is the lexical one). A `..` further in is
/// kept: what precedes it may be a link, and the check then refuses the
/// path rather than guess. Without a working directory it stays relative,
/// and the check says so.
pub(super) fn resolve(path: &str, env: &Inputs) -> PathBuf {
    let Some(cwd) = env.cwd.as_ref().filter(|_| !path.starts_with('/')) else {
        return PathBuf::from(path);
    };
    let mut base = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.clone());
    let mut rest = path;
    loop {
        rest = rest.trim_start_matches("./");
        match rest.strip_prefix("../") {
            Some(after) => {
                base.pop();
                rest = after;
            }
            None if rest == ".." => {
                base.pop();
                rest = "";
            }
            None => break,
        }
    }
    base.join(rest)
}

/// The host's mount at `path` ([`crate::hook::mount`]).
#[cfg(unix)]
pub(super) fn mount_at(path: &Path) -> MountFact {
    crate::hook::mount::fact(path)
}

/// Off Unix the mount is not read (the walk is written with Unix's calls):
/// unknown, and said so; a family that needs it withholds.
#[cfg(not(unix))]
pub(super) fn mount_at(_path: &Path) -> MountFact {
    MountFact::Unknown(MOUNT_UNSUPPORTED)
}

/// Why the mount is unknown off Unix (one of [`advisor_core::MOUNT_UNKNOWN`]).
#[cfg(not(unix))]
const MOUNT_UNSUPPORTED: &str = "mount-check-unsupported";

/// Whether this user may create an inet socket here: one is created and
/// closed at once, never bound or connected.
#[cfg(unix)]
pub(super) fn inet_socket() -> Option<bool> {
    use rustix::net::{AddressFamily, SocketType, socket};
    Some(socket(AddressFamily::INET, SocketType::STREAM, None).is_ok())
}

/// Off Unix the socket is not tried (Winsock would first need starting, and
/// the families that ask are Linux's): unknown, which never lets one speak.
#[cfg(not(unix))]
pub(super) fn inet_socket() -> Option<bool> {
    None
}

#[cfg(all(test, not(unix)))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::super::{Check, Checks, HostChecks, codex_cli, gather};
    use super::*;

    /// Off Unix neither the mount nor a socket is tried, and no ancestor's
    /// command line is read: the mount is unknown with its reason, the
    /// socket unknown, Codex's command line absent.
    #[test]
    fn off_unix_the_mount_the_socket_and_codexs_command_line_are_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let env = super::super::tests::inputs(dir.path());
        let wanted = Checks::of(&[Check::MountAt, Check::InetSocket]);
        let found = gather(wanted, Some(r"C:\ws\x"), &env);
        assert_eq!(found.mount, Some(MountFact::Unknown(MOUNT_UNSUPPORTED)));
        assert!(advisor_core::MOUNT_UNKNOWN.contains(&MOUNT_UNSUPPORTED));
        assert_eq!(found.inet_socket, None);
        assert_eq!(gather(Checks::NONE, None, &env), HostChecks::default());
        assert_eq!(codex_cli::codex_arguments(), None);
    }
}
