//! The web `/export` ZIP.
//!
//! The harness's web host streams `dsh-session-<id>.zip` holding the root
//! session's stored log decoded (member named by the artifact's file name,
//! `session.jsonl`), each descendant's at `subagents/<id-segment>/<file name>`
//! (flat, every descendant of the lineage at one level), and the images the
//! logs cite under `media/`. This reader does not depend on those names: every
//! member whose name ends in `.jsonl` or `.jsonl.zstd` is read as one session
//! log (its first line must be a session header, or it is a problem), and
//! every other member is skipped. Each member is one stored generation
//! already, so no generation choice is made inside an archive.
//!
//! Bounds: at most [`MEMBERS_MAX`] members (counted from the end-of-central-
//! directory record before the directory is read); members are decompressed
//! as streams, never held whole.

use std::fs;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use zip::ZipArchive;

use super::{Source, read_one, stopped};
use crate::model::Sink;

/// The most members an export may have.
pub const MEMBERS_MAX: u64 = 100_000;

/// The most bytes searched from the end for the end-of-central-directory
/// record (its fixed part and the longest comment).
const EOCD_SEARCH: u64 = 22 + 0xffff;

/// The member count the end-of-central-directory record declares (the zip64
/// record's when the classic one is saturated); `None` when it is not found
/// (the archive reader then judges the file).
fn declared_members<R: Read + Seek>(file: &mut R) -> io::Result<Option<u64>> {
    let len = file.seek(SeekFrom::End(0))?;
    let start = len.saturating_sub(EOCD_SEARCH);
    file.seek(SeekFrom::Start(start))?;
    let mut tail = Vec::new();
    file.take(EOCD_SEARCH).read_to_end(&mut tail)?;
    let Some(at) = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))
    else {
        return Ok(None);
    };
    let count = u64::from(u16::from_le_bytes([tail[at + 10], tail[at + 11]]));
    if count != 0xffff {
        return Ok(Some(count));
    }
    // Zip64: the locator sits just before the classic record.
    let Some(locator) = at.checked_sub(20).map(|l| &tail[l..l + 20]) else {
        return Ok(Some(count));
    };
    if !locator.starts_with(b"PK\x06\x07") {
        return Ok(Some(count));
    }
    let mut offset = [0u8; 8];
    offset.copy_from_slice(&locator[8..16]);
    file.seek(SeekFrom::Start(u64::from_le_bytes(offset)))?;
    let mut record = [0u8; 40];
    file.read_exact(&mut record)?;
    if !record.starts_with(b"PK\x06\x06") {
        return Ok(Some(count));
    }
    let mut total = [0u8; 8];
    total.copy_from_slice(&record[32..40]);
    Ok(Some(u64::from_le_bytes(total)))
}

/// One member of an open archive.
struct Member<'z> {
    archive: &'z mut ZipArchive<BufReader<fs::File>>,
    index: usize,
    label: PathBuf,
    zstd: bool,
}

impl Source for Member<'_> {
    fn label(&self) -> &Path {
        &self.label
    }
    fn zstd(&self) -> bool {
        self.zstd
    }
    fn open(&mut self) -> io::Result<Box<dyn Read + '_>> {
        let file = self
            .archive
            .by_index(self.index)
            .map_err(io::Error::other)?;
        Ok(Box::new(file))
    }
}

/// Reads every session log in the export at `path`.
pub(crate) fn read(path: &Path, sink: &mut dyn Sink) {
    let mut file = match crate::source::open(path) {
        Ok(file) => file,
        Err(e) => return stopped(sink, path, None, format!("cannot open: {e}")),
    };
    match declared_members(&mut file) {
        Ok(Some(n)) if n > MEMBERS_MAX => {
            let what = format!("an archive of {n} members (more than {MEMBERS_MAX}); not read");
            return stopped(sink, path, None, what);
        }
        Ok(_) => {}
        Err(e) => return stopped(sink, path, None, format!("read failed: {e}")),
    }
    if let Err(e) = file.seek(SeekFrom::Start(0)) {
        return stopped(sink, path, None, format!("read failed: {e}"));
    }
    let mut archive = match ZipArchive::new(BufReader::new(file)) {
        Ok(archive) => archive,
        Err(e) => return stopped(sink, path, None, format!("not a readable ZIP archive: {e}")),
    };
    for index in 0..archive.len() {
        let name = match archive.by_index_raw(index) {
            Ok(member) if !member.is_dir() => member.name().to_owned(),
            Ok(_) => continue,
            Err(e) => {
                stopped(
                    sink,
                    path,
                    None,
                    format!("member {index} cannot be read: {e}"),
                );
                continue;
            }
        };
        let zstd = name.ends_with(".jsonl.zstd");
        if !zstd && !name.ends_with(".jsonl") {
            continue;
        }
        let label = PathBuf::from(format!("{}!/{name}", path.display()));
        read_one(
            &mut Member {
                archive: &mut archive,
                index,
                label,
                zstd,
            },
            sink,
        );
    }
}
