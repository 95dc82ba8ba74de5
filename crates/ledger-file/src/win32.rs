//! The Windows calls the store's checks need, each behind a safe function:
//! who this process is (its token's user and default owner), a handle's
//! owner and DACL (`GetSecurityInfo`), and what kind of object a handle is
//! (`GetFileType`). The bytes Windows returns are copied out and read by
//! [`crate::acl`], which holds every rule.
//!
//! The workspace denies unsafe code; this module is the crate's one
//! exception, because no crate already in the tree wraps these calls. Each
//! unsafe block is one call on a handle this process owns, with the buffers
//! sized and freed here, and every pointer Windows returns is read only
//! inside the block Windows allocated for it.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::ptr;
use std::sync::OnceLock;

use windows_sys::Win32::Foundation::{HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::{GetSecurityInfo, SE_FILE_OBJECT};
use windows_sys::Win32::Security::{
    ACL, DACL_SECURITY_INFORMATION, GetSecurityDescriptorLength, GetTokenInformation,
    OWNER_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR, PSID, TOKEN_INFORMATION_CLASS, TOKEN_OWNER,
    TOKEN_QUERY, TOKEN_USER, TokenOwner, TokenUser,
};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_TYPE_CHAR, FILE_TYPE_DISK, FILE_TYPE_PIPE, GetFileType,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

use crate::acl::{Security, Sid, Us, parse_acl};
use crate::guard::Kind;

/// The largest token information read (a `TOKEN_USER` is a pointer, a word
/// and a SID of at most 68 bytes).
const TOKEN_INFO_MAX: usize = 1024;

/// This process's token user and default owner, read once.
pub(crate) fn us() -> io::Result<&'static Us> {
    static US: OnceLock<Result<Us, i32>> = OnceLock::new();
    US.get_or_init(|| read_us().map_err(|e| e.raw_os_error().unwrap_or(0)))
        .as_ref()
        .map_err(|&code| io::Error::from_raw_os_error(code))
}

fn read_us() -> io::Result<Us> {
    let mut raw: HANDLE = ptr::null_mut();
    // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no closing;
    // `raw` receives a new token handle, owned below.
    if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut raw) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is a handle this call just opened, closed once, by the OwnedHandle.
    let token = unsafe { OwnedHandle::from_raw_handle(raw) };
    let user = token_sid(&token, TokenUser, |info: &TOKEN_USER| info.User.Sid)?;
    let owner = token_sid(&token, TokenOwner, |info: &TOKEN_OWNER| info.Owner)?;
    Ok(Us { user, owner })
}

/// The SID a token information class points at (the structure `T` holds the
/// pointer, which points into the same buffer).
fn token_sid<T>(
    token: &OwnedHandle,
    class: TOKEN_INFORMATION_CLASS,
    sid_of: impl Fn(&T) -> PSID,
) -> io::Result<Sid> {
    // u64s: aligned for the structure's pointer.
    let mut buf = vec![0u64; TOKEN_INFO_MAX / 8];
    let len = (buf.len() * 8) as u32;
    let mut needed = 0u32;
    // SAFETY: the buffer is `len` bytes, writable, and aligned for `T`.
    let ok = unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            class,
            buf.as_mut_ptr().cast(),
            len,
            &mut needed,
        )
    };
    if ok == 0 || (needed as usize) < size_of::<T>() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: Windows wrote a `T` at the start of the buffer (checked size, aligned).
    let sid = sid_of(unsafe { &*buf.as_ptr().cast::<T>() });
    let bytes: &[u8] = as_bytes(&buf, needed as usize);
    let at = (sid as usize).wrapping_sub(buf.as_ptr() as usize);
    bytes
        .get(at..)
        .and_then(Sid::read)
        .map(|(sid, _)| sid)
        .ok_or_else(|| io::Error::other("the token's SID is not inside its information"))
}

/// The first `len` bytes of `words` (at most all of them).
fn as_bytes(words: &[u64], len: usize) -> &[u8] {
    let len = len.min(words.len() * 8);
    // SAFETY: any initialized u64 memory may be read as bytes; `len` is within it.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), len) }
}

/// The owner and DACL of the object `file` is open on (it must be open
/// with `READ_CONTROL`).
pub(crate) fn security(file: &File) -> io::Result<Security> {
    let mut owner: PSID = ptr::null_mut();
    let mut dacl: *mut ACL = ptr::null_mut();
    let mut descriptor: PSECURITY_DESCRIPTOR = ptr::null_mut();
    // SAFETY: the handle is open for the call's duration; Windows allocates
    // the descriptor (freed below) and points `owner` and `dacl` into it.
    let status = unsafe {
        GetSecurityInfo(
            file.as_raw_handle(),
            SE_FILE_OBJECT,
            OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
            &mut owner,
            ptr::null_mut(),
            &mut dacl,
            ptr::null_mut(),
            &mut descriptor,
        )
    };
    if status != 0 {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    let freed = Descriptor(descriptor);
    // SAFETY: a self-relative descriptor Windows just returned, alive until `freed` drops.
    let len = unsafe { GetSecurityDescriptorLength(freed.0) } as usize;
    // SAFETY: the descriptor's `len` bytes are one allocation, alive until `freed` drops.
    let bytes = unsafe { std::slice::from_raw_parts(freed.0.cast::<u8>(), len) };
    let inside = |at: *const u8| {
        (at as usize)
            .checked_sub(freed.0 as usize)
            .filter(|&o| o < len)
    };
    let malformed = || io::Error::other("the security descriptor does not hold what it points at");
    let owner = inside(owner.cast())
        .and_then(|at| Sid::read(&bytes[at..]))
        .map(|(sid, _)| sid)
        .ok_or_else(malformed)?;
    let dacl = match dacl.is_null() {
        true => None,
        false => Some(
            inside(dacl.cast())
                .and_then(|at| parse_acl(&bytes[at..]))
                .ok_or_else(malformed)?,
        ),
    };
    Ok(Security { owner, dacl })
}

/// A security descriptor Windows allocated, freed with `LocalFree`.
struct Descriptor(PSECURITY_DESCRIPTOR);

impl Drop for Descriptor {
    fn drop(&mut self) {
        // SAFETY: allocated by GetSecurityInfo with LocalAlloc, freed once.
        unsafe { LocalFree(self.0) };
    }
}

/// What `GetFileType` says the handle is: `None` for a file on disk.
pub(crate) fn not_on_disk(file: &File) -> Option<Kind> {
    // SAFETY: the handle is open for the call's duration.
    match unsafe { GetFileType(file.as_raw_handle()) } {
        FILE_TYPE_DISK => None,
        FILE_TYPE_PIPE => Some(Kind::Fifo),
        FILE_TYPE_CHAR => Some(Kind::CharDevice),
        _ => Some(Kind::Other),
    }
}
