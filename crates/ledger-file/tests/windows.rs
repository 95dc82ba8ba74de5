//! The state directory's checks in Windows' own terms, on Windows and under
//! wine: a DACL that lets another account write, a link in the chain, a
//! directory where a file belongs. Another owner cannot be made here: that
//! needs a second Windows account.
//!
//! Wine 8.0 keeps no DACL of a file: `SetFileSecurityW` turns the DACL into
//! the Unix mode, and `GetSecurityInfo` makes a descriptor from the owner and
//! the mode again (the user, SYSTEM, and Everyone for the others' bits). So
//! the grants tested here are the ones a mode can hold (full control, add a
//! file); a grant of delete, `WRITE_DAC` or `WRITE_OWNER` alone is refused by
//! the rules' own tests (`src/acl/tests.rs`), on any system. Wine's
//! `CreateSymbolicLinkW` reports success and makes nothing, so the link test
//! fails there, saying so, and `.ci/windows-skips.txt` names it.
#![cfg(windows)]
// The test plants DACLs with the Windows API: that is unsafe FFI.
#![allow(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;

use advisor_core::LedgerStore;
use ledger_file::{FileLimits, FileStore};
use support::*;
use windows_sys::Win32::Foundation::LocalFree;
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{DACL_SECURITY_INFORMATION, SetFileSecurityW};

/// Sets `path`'s DACL from SDDL (`D:…`), as `icacls` would.
fn set_dacl(path: &Path, sddl: &str) {
    let wide = |s: &str| s.encode_utf16().chain([0]).collect::<Vec<u16>>();
    let (sddl, path) = (wide(sddl), wide(&path.to_string_lossy()));
    let mut descriptor = std::ptr::null_mut();
    // SAFETY: NUL-terminated strings; Windows allocates the descriptor, freed below.
    unsafe {
        assert_ne!(
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                std::ptr::null_mut(),
            ),
            0,
            "{}",
            std::io::Error::last_os_error()
        );
        let set = SetFileSecurityW(path.as_ptr(), DACL_SECURITY_INFORMATION, descriptor);
        let error = std::io::Error::last_os_error();
        LocalFree(descriptor);
        assert_ne!(set, 0, "{error}");
    }
}

/// `OW` is OWNER RIGHTS (whoever owns it: us), `WD` Everyone, `SY` SYSTEM.
#[test]
fn a_state_directory_whose_dacl_lets_others_write_is_refused_by_the_sid() {
    let cases = [
        ("D:P(A;;FA;;;OW)(A;;FA;;;WD)", Some("S-1-1-0")),
        // FILE_ADD_FILE alone: enough to plant a key or a claim.
        ("D:P(A;;FA;;;OW)(A;;0x2;;;WD)", Some("S-1-1-0")),
        // Reading is not writing; SYSTEM may do anything.
        ("D:P(A;;FA;;;OW)(A;;FR;;;WD)(A;;FA;;;SY)", None),
    ];
    for (sddl, refused) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("state");
        std::fs::create_dir(&dir).unwrap();
        set_dacl(&dir, sddl);
        match (FileStore::open(&dir, FileLimits::default()), refused) {
            (Ok(_), None) => {}
            (Err(fault), Some(sid)) => {
                let what = &fault.what;
                assert!(
                    what.contains("is not a safe state directory"),
                    "{sddl}: {what}"
                );
                assert!(what.contains(sid), "{sddl}: {what}");
                assert!(what.contains(&dir.display().to_string()), "{sddl}: {what}");
            }
            (Ok(_), Some(_)) => panic!("{sddl}: trusted"),
            (Err(fault), None) => panic!("{sddl}: {fault}"),
        }
    }
}

/// A directory of the chain that others may write (here `v1/agents`, after
/// the store was opened) is refused by the next collection, which lists and
/// removes nothing.
#[test]
fn a_collection_refuses_an_agents_directory_others_may_write() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path());
    store.claim(&agent("a"), &slot()).unwrap();
    set_dacl(&store.root().join("agents"), "D:P(A;;FA;;;OW)(A;;FA;;;WD)");
    let fault = store.collect_garbage().unwrap_err();
    assert!(fault.what.contains("S-1-1-0"), "{fault}");
    assert!(store.agent_dir(&agent("a")).exists());
}

/// A symbolic link (a reparse point) standing for the state directory is
/// refused as what it is, though what it points at is a directory.
#[test]
fn a_state_directory_that_is_a_link_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = tmp.path().join("state");
    // Windows lets only an administrator or Developer Mode make one (1314).
    if let Err(e) = std::os::windows::fs::symlink_dir(&real, &link) {
        assert_eq!(e.raw_os_error(), Some(1314), "{e}");
        eprintln!("skipped: this account may not make symbolic links ({e})");
        return;
    }
    let made = std::fs::symlink_metadata(&link);
    assert!(
        made.as_ref().is_ok_and(|m| m.file_type().is_symlink()),
        "CreateSymbolicLinkW succeeded and made no link (wine 8.0 does that): {made:?}"
    );
    let fault = FileStore::open(&link, FileLimits::default()).unwrap_err();
    assert!(fault.what.contains("symbolic link"), "{fault}");
    assert!(
        !real.join("v1").exists(),
        "nothing was created through the link"
    );
}

/// Where a file belongs, a directory is refused, named as one.
#[test]
fn a_directory_where_the_key_belongs_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let store = FileStore::open(tmp.path(), FileLimits::default()).unwrap();
    std::fs::create_dir(store.root().join("key")).unwrap();
    let fault = store.digest_key().unwrap_err();
    assert!(
        fault.what.contains("directory, not a regular file"),
        "{fault}"
    );
}

/// The default is the user's own `%LOCALAPPDATA%\sandbox-advisor` (the
/// known folder, which the environment variable mirrors).
#[test]
fn the_default_directory_is_under_local_app_data() {
    let default = FileStore::default_dir().unwrap();
    let local = std::env::var_os("LOCALAPPDATA").unwrap();
    assert_eq!(default, Path::new(&local).join(ledger_file::APP_DIR));
}
