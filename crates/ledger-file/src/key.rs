//! The digest key every process sharing the directory computes agent keys
//! and budget digests under.
//!
//! The first process to need it draws one, writes it to a temporary file in
//! the same directory (owner-only on Unix), flushes it to disk and moves it
//! into place *without replacing* an existing file (`persist_noclobber`:
//! `renameat2(RENAME_NOREPLACE)` or `link` on Unix, `MoveFileExW` without
//! `MOVEFILE_REPLACE_EXISTING` on Windows). Of racing processes one wins;
//! every one, winner or not, then reads the file, so all end with its key.
//! The file appears whole or not at all, so a reader never sees half a key.
//!
//! Beside it, `fleet-key` remembers the last digest key a Redis fleet gave a
//! hook that keeps this directory as its stand-in: a hook that cannot reach
//! Redis digests under it, so the claims it mirrored here while Redis was up
//! are found under the same names (issue 36 item 9). It is replaced whole
//! (a temporary file renamed over it), and only when the fleet's key changed.

use std::io::{self, Read, Write};
use std::path::Path;

use advisor_core::DigestKey;

use crate::fault::{At, Fault, Replace, persist, retrying};
use crate::guard::{How, open};
use crate::layout::Layout;

/// Reads the key, creating it first when there is none.
pub(crate) fn load_or_create(layout: &Layout) -> Result<DigestKey, Fault> {
    let path = layout.key();
    if let Some(key) = read(&path)? {
        return Ok(key);
    }
    create(layout.root(), &path)?;
    read(&path)?.ok_or_else(|| Fault::Io {
        op: "read the key just created",
        path: path.clone(),
        source: io::ErrorKind::NotFound.into(),
    })
}

/// The fleet's key this directory last remembered; `None` when none.
pub(crate) fn remembered_fleet_key(layout: &Layout) -> Result<Option<DigestKey>, Fault> {
    read(&layout.fleet_key())
}

/// Remembers `key` as the fleet's, unless it already is: one read, and a
/// write only when the fleet's key changed. A file that is not a key (or
/// not a regular file) is refused, not repaired, as `key` is.
pub(crate) fn remember_fleet_key(layout: &Layout, key: DigestKey) -> Result<(), Fault> {
    let path = layout.fleet_key();
    if read(&path)? == Some(key) {
        return Ok(());
    }
    let file = write_temp(layout.root(), key)?;
    persist(file, &path, Replace::Yes).at("replace", &path)
}

/// The key in `path`; `None` when there is no file.
fn read(path: &Path) -> Result<Option<DigestKey>, Fault> {
    let mut bytes = Vec::with_capacity(40);
    match retrying(|| open(path, How::Read)) {
        Ok(file) => {
            // 32 digits and a line end; anything longer is not a key.
            file.take(64).read_to_end(&mut bytes).at("read", path)?;
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error).at("open", path),
    }
    DigestKey::from_hex(&String::from_utf8_lossy(&bytes))
        .map(Some)
        .ok_or_else(|| Fault::BadKey {
            path: path.to_owned(),
        })
}

/// `key` in a temporary file in `dir`, owner-only (0600 on Unix), opened
/// like every other file, and flushed.
fn write_temp(dir: &Path, key: DigestKey) -> Result<tempfile::NamedTempFile, Fault> {
    let mut file = tempfile::Builder::new()
        .prefix(".key")
        .make_in(dir, |path| open(path, How::CreatePrivate))
        .at("create a key in", dir)?;
    writeln!(file, "{}", key.to_hex()).at("write", file.path())?;
    file.as_file().sync_all().at("flush", file.path())?;
    Ok(file)
}

/// Writes a fresh key to `path` unless a file is already there.
fn create(dir: &Path, path: &Path) -> Result<(), Fault> {
    let file = write_temp(dir, DigestKey::random())?;
    match persist(file, path, Replace::No) {
        Err(error) if error.kind() != io::ErrorKind::AlreadyExists => Err(error).at("create", path),
        _ => Ok(()),
    }
}
