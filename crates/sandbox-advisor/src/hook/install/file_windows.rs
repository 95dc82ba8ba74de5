//! The Windows side of `file`: no directory handles, so each step looks at
//! the entry first and refuses a symbolic link or any other reparse point
//! (a junction, a mount point).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::os::windows::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{io, link_refused, refused, temp_name, too_long};
use crate::hook::install::client::Place;
use crate::hook::install::{InstallError, SETTINGS_MAX_BYTES};

/// `FILE_ATTRIBUTE_REPARSE_POINT`.
const REPARSE_POINT: u32 = 0x400;
/// How many random names are tried for the new file before giving up.
const TEMP_TRIES: usize = 8;

pub(super) struct Opened {
    place: Place,
    dir: PathBuf,
    missing: Vec<&'static str>,
    file: Option<Metadata>,
}

/// `path`'s metadata when it exists and is no reparse point.
fn look(path: &Path, place: &Place) -> Result<Option<Metadata>, InstallError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta)
            if meta.file_type().is_symlink() || meta.file_attributes() & REPARSE_POINT != 0 =>
        {
            Err(link_refused(
                path,
                std::fs::read_link(path).ok(),
                &place.root,
            ))
        }
        Ok(meta) => Ok(Some(meta)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path, e)),
    }
}

pub(super) fn open(place: &Place) -> Result<(Opened, Option<Vec<u8>>), InstallError> {
    let mut opened = Opened {
        place: place.clone(),
        dir: place.root.clone(),
        missing: Vec::new(),
        file: None,
    };
    for name in &place.dirs {
        if !opened.missing.is_empty() {
            opened.missing.push(name);
            continue;
        }
        let path = opened.dir.join(name);
        match look(&path, place)? {
            Some(meta) if meta.is_dir() => opened.dir = path,
            Some(_) => return Err(refused(&path, "it is not a directory".into())),
            None => opened.missing.push(name),
        }
    }
    if !opened.missing.is_empty() {
        return Ok((opened, None));
    }
    let path = place.path();
    let Some(meta) = look(&path, place)? else {
        return Ok((opened, None));
    };
    if !meta.is_file() {
        return Err(refused(&path, "it is not a regular file".into()));
    }
    if meta.len() > SETTINGS_MAX_BYTES {
        return Err(too_long(&path));
    }
    let mut bytes = Vec::new();
    File::open(&path)
        .and_then(|f| f.take(SETTINGS_MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| io(&path, e))?;
    if bytes.len() as u64 > SETTINGS_MAX_BYTES {
        return Err(too_long(&path));
    }
    opened.file = Some(meta);
    Ok((opened, Some(bytes)))
}

impl Opened {
    pub(super) fn replace(mut self, path: &Path, text: &str) -> Result<(), InstallError> {
        for name in std::mem::take(&mut self.missing) {
            let dir = self.dir.join(name);
            match std::fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io(&dir, e)),
            }
            match look(&dir, &self.place)? {
                Some(meta) if meta.is_dir() => self.dir = dir,
                _ => return Err(refused(&dir, "it is not a directory".into())),
            }
        }
        let mut tries = 0;
        let (mut file, temp) = loop {
            let temp = self.dir.join(temp_name(self.place.file));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (file, temp),
                Err(e)
                    if e.kind() == std::io::ErrorKind::AlreadyExists && tries + 1 < TEMP_TRIES =>
                {
                    tries += 1;
                }
                Err(e) => return Err(io(&temp, e)),
            }
        };
        let written = file
            .write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .and_then(|()| match &self.file {
                Some(old) => file.set_permissions(old.permissions()),
                None => Ok(()),
            });
        drop(file);
        let done = written
            .map_err(|e| io(path, e))
            .and_then(|()| match (look(path, &self.place)?, &self.file) {
                (None, None) | (Some(_), Some(_)) => Ok(()),
                _ => Err(refused(path, "it changed while install ran".into())),
            })
            .and_then(|()| std::fs::rename(&temp, path).map_err(|e| io(path, e)));
        if done.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        done
    }
}
