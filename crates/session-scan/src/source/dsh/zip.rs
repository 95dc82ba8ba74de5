//! A ZIP archive's members, read from its central directory with every bound
//! checked before the part it bounds is read.
//!
//! - The end-of-central-directory record must lie in the last 65,557 bytes
//!   (its fixed 22 and the longest comment): the last one there whose comment
//!   ends inside the file is the archive's, and no other is looked for. A
//!   file with more trailing bytes than that is not read (an archive reader
//!   that searches the whole file would find a record hidden further back).
//! - The member count (the zip64 record's when the classic one is
//!   saturated) must be at most [`MEMBERS_MAX`], and the central directory at
//!   most [`DIRECTORY_BYTES_MAX`], before the directory is read.
//! - Members must not overlap: sorted by where their local header starts,
//!   each one's header and compressed data end before the next one starts
//!   (the layout of a zip bomb that lets hundreds of members share one
//!   deflate stream is refused before anything is decoded).
//! - A member is decoded as a stream (stored or deflate), never held whole;
//!   it must decode to its declared size and CRC-32, or the read fails. The
//!   decoded bytes count against the archive's budget (see `export`).
//!
//! Encrypted members, other compression methods, and archives spread over
//! several volumes are not read; each is named.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};

/// The most members an archive may have.
pub const MEMBERS_MAX: u64 = 100_000;

/// The largest central directory read: 64 MiB.
pub const DIRECTORY_BYTES_MAX: u64 = 64 << 20;

/// The end record's fixed size and the longest comment.
const END_SEARCH: u64 = 22 + 0xffff;

/// Why an archive is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// It declares more than [`MEMBERS_MAX`] members.
    TooMany(u64),
    /// It is not an archive this reader reads; the reason in words.
    Unreadable(String),
}

/// What a member holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A session log, plain (`….jsonl`).
    Jsonl,
    /// A session log in zstd frames (`….jsonl.zstd`).
    JsonlZstd,
    /// Anything else (a directory, an image).
    Other,
}

/// One member, as the central directory describes it.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    /// Its name, shown lossily and cut to the budget's text bound.
    pub(crate) name: String,
    pub(crate) kind: Kind,
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    header: u64,
    /// Where the next member (or the central directory) starts.
    limit: u64,
}

/// An open archive.
pub(crate) struct Archive {
    file: File,
    members: Vec<Member>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(bytes)
}

fn unreadable(what: impl Into<String>) -> Refused {
    Refused::Unreadable(what.into())
}

fn io_refused(e: io::Error) -> Refused {
    Refused::Unreadable(format!("read failed: {e}"))
}

/// The central directory's place and size, and the member count.
struct Directory {
    entries: u64,
    size: u64,
    offset: u64,
    /// Where the end records begin: the directory must end before.
    end: u64,
}

/// Reads the end records (see the module's rules).
fn directory(file: &mut File) -> Result<Directory, Refused> {
    let len = file.seek(SeekFrom::End(0)).map_err(io_refused)?;
    let start = len.saturating_sub(END_SEARCH);
    file.seek(SeekFrom::Start(start)).map_err(io_refused)?;
    let mut tail = Vec::new();
    file.take(END_SEARCH)
        .read_to_end(&mut tail)
        .map_err(io_refused)?;
    let found = (0..=tail.len().saturating_sub(22)).rev().find(|&i| {
        tail.len() >= i + 22
            && tail[i..].starts_with(b"PK\x05\x06")
            && i + 22 + usize::from(u16_at(&tail, i + 20)) <= tail.len()
    });
    let Some(i) = found else {
        return Err(unreadable(
            "no end-of-central-directory record in its last 65,557 bytes (not a ZIP archive, or more bytes after it than a ZIP comment holds)",
        ));
    };
    let at = start + i as u64;
    let record = &tail[i..i + 22];
    let (entries, size, offset) = (u16_at(record, 10), u32_at(record, 12), u32_at(record, 16));
    if entries != 0xffff && size != 0xffff_ffff && offset != 0xffff_ffff {
        if u16_at(record, 4) != 0 || u16_at(record, 6) != 0 {
            return Err(unreadable("an archive spread over several volumes"));
        }
        return Ok(Directory {
            entries: u64::from(entries),
            size: u64::from(size),
            offset: u64::from(offset),
            end: at,
        });
    }
    // Zip64: the locator sits just before the classic record.
    let locator_at = at
        .checked_sub(20)
        .ok_or_else(|| unreadable("a zip64 archive without its locator"))?;
    let mut locator = [0u8; 20];
    file.seek(SeekFrom::Start(locator_at)).map_err(io_refused)?;
    file.read_exact(&mut locator).map_err(io_refused)?;
    if !locator.starts_with(b"PK\x06\x07") {
        return Err(unreadable("a zip64 archive without its locator"));
    }
    let record_at = u64_at(&locator, 8);
    if record_at.saturating_add(56) > locator_at {
        return Err(unreadable("the zip64 end record is not before its locator"));
    }
    let mut record = [0u8; 56];
    file.seek(SeekFrom::Start(record_at)).map_err(io_refused)?;
    file.read_exact(&mut record).map_err(io_refused)?;
    if !record.starts_with(b"PK\x06\x06") {
        return Err(unreadable(
            "the zip64 end record is not where its locator says",
        ));
    }
    if u32_at(&record, 16) != 0 || u32_at(&record, 20) != 0 {
        return Err(unreadable("an archive spread over several volumes"));
    }
    Ok(Directory {
        entries: u64_at(&record, 32),
        size: u64_at(&record, 40),
        offset: u64_at(&record, 48),
        end: record_at,
    })
}

impl Archive {
    /// Opens `file` as an archive; member names are cut to `name_bytes`.
    pub(crate) fn open(mut file: File, name_bytes: usize) -> Result<Self, Refused> {
        let dir = directory(&mut file)?;
        if dir.entries > MEMBERS_MAX {
            return Err(Refused::TooMany(dir.entries));
        }
        if dir.size > DIRECTORY_BYTES_MAX {
            return Err(unreadable(format!(
                "a central directory of {} bytes (more than {} MiB)",
                dir.size,
                DIRECTORY_BYTES_MAX >> 20
            )));
        }
        if dir.offset.saturating_add(dir.size) > dir.end {
            return Err(unreadable("the central directory runs past its end record"));
        }
        file.seek(SeekFrom::Start(dir.offset)).map_err(io_refused)?;
        let mut reader = BufReader::new((&mut file).take(dir.size));
        let mut members = Vec::new();
        for index in 0..dir.entries {
            let member = entry(&mut reader, name_bytes).map_err(|e| {
                unreadable(format!(
                    "entry {index} of the central directory cannot be read: {e}"
                ))
            })?;
            members.push(member);
        }
        drop(reader);
        bound(&mut members, dir.offset)?;
        Ok(Self { file, members })
    }

    /// The members, in the central directory's order.
    pub(crate) fn members(&self) -> &[Member] {
        &self.members
    }

    /// The decoded bytes of member `index`, checked against its declared
    /// size and CRC-32 as they are read.
    pub(crate) fn reader(&mut self, index: usize) -> io::Result<Box<dyn Read + '_>> {
        let member = self
            .members
            .get(index)
            .cloned()
            .ok_or_else(|| io::Error::other("no such member"))?;
        if member.flags & 1 != 0 {
            return Err(io::Error::other("an encrypted member is not read"));
        }
        self.file.seek(SeekFrom::Start(member.header))?;
        let mut local = [0u8; 30];
        self.file.read_exact(&mut local)?;
        if !local.starts_with(b"PK\x03\x04") {
            return Err(io::Error::other("no local header where the directory says"));
        }
        let data = member
            .header
            .saturating_add(30)
            .saturating_add(u64::from(u16_at(&local, 26)))
            .saturating_add(u64::from(u16_at(&local, 28)));
        if data.saturating_add(member.compressed) > member.limit {
            return Err(io::Error::other("its data runs into the next member"));
        }
        self.file.seek(SeekFrom::Start(data))?;
        let raw = (&mut self.file).take(member.compressed);
        let decoded: Box<dyn Read + '_> = match member.method {
            0 => Box::new(raw),
            8 => Box::new(flate2::read::DeflateDecoder::new(raw)),
            other => {
                return Err(io::Error::other(format!(
                    "compressed with method {other}, which this reader does not read"
                )));
            }
        };
        Ok(Box::new(Checked {
            inner: decoded,
            left: member.size,
            crc: crc32fast::Hasher::new(),
            want: member.crc,
            done: false,
        }))
    }
}

/// Reads one central directory entry.
fn entry(reader: &mut impl Read, name_bytes: usize) -> io::Result<Member> {
    let mut fixed = [0u8; 46];
    reader.read_exact(&mut fixed)?;
    if !fixed.starts_with(b"PK\x01\x02") {
        return Err(io::Error::other("no entry signature"));
    }
    let mut name = vec![0u8; usize::from(u16_at(&fixed, 28))];
    reader.read_exact(&mut name)?;
    let mut extra = vec![0u8; usize::from(u16_at(&fixed, 30))];
    reader.read_exact(&mut extra)?;
    io::copy(
        &mut reader.take(u64::from(u16_at(&fixed, 32))),
        &mut io::sink(),
    )?;
    let mut size = u64::from(u32_at(&fixed, 24));
    let mut compressed = u64::from(u32_at(&fixed, 20));
    let mut header = u64::from(u32_at(&fixed, 42));
    // The zip64 extra field holds, in this order, each value saturated above.
    let mut rest = &extra[..];
    while rest.len() >= 4 {
        let (id, len) = (u16_at(rest, 0), usize::from(u16_at(rest, 2)));
        let Some(data) = rest.get(4..4 + len) else {
            break;
        };
        if id == 1 {
            let mut values = data.chunks_exact(8).map(|c| u64_at(c, 0));
            for field in [&mut size, &mut compressed, &mut header] {
                if *field == 0xffff_ffff {
                    *field = values
                        .next()
                        .ok_or_else(|| io::Error::other("a short zip64 field"))?;
                }
            }
        }
        rest = &rest[4 + len..];
    }
    let kind = if name.ends_with(b".jsonl.zstd") {
        Kind::JsonlZstd
    } else if name.ends_with(b".jsonl") {
        Kind::Jsonl
    } else {
        Kind::Other
    };
    Ok(Member {
        name: crate::budget::cut(String::from_utf8_lossy(&name).into_owned(), name_bytes),
        kind,
        flags: u16_at(&fixed, 8),
        method: u16_at(&fixed, 10),
        crc: u32_at(&fixed, 16),
        compressed,
        size,
        header,
        limit: 0,
    })
}

/// Sets each member's limit (where the next one starts), refusing members
/// that overlap or run into the directory at `directory`.
fn bound(members: &mut [Member], directory: u64) -> Result<(), Refused> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&i| members[i].header);
    for (n, &i) in order.iter().enumerate() {
        let limit = order
            .get(n + 1)
            .map_or(directory, |&next| members[next].header);
        let member = &mut members[i];
        // The local header is at least 30 bytes, then the compressed data.
        let end = member
            .header
            .saturating_add(30)
            .saturating_add(member.compressed);
        if end > limit {
            return Err(unreadable(if limit == directory {
                "a member runs into the central directory".to_owned()
            } else {
                "members overlap (the layout of a zip bomb); not one is read".to_owned()
            }));
        }
        member.limit = limit;
    }
    Ok(())
}

/// A member's decoded bytes, checked against its declared size and CRC-32.
struct Checked<R> {
    inner: R,
    left: u64,
    crc: crc32fast::Hasher,
    want: u32,
    done: bool,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.done || out.is_empty() {
            return Ok(0);
        }
        // One byte more than declared is enough to tell a lie.
        let room = usize::try_from(self.left.saturating_add(1))
            .unwrap_or(usize::MAX)
            .min(out.len());
        let n = self.inner.read(&mut out[..room])?;
        if n as u64 > self.left {
            return Err(io::Error::other(
                "it decodes to more than its declared size",
            ));
        }
        self.left -= n as u64;
        self.crc.update(&out[..n]);
        if n == 0 {
            self.done = true;
            if self.left != 0 {
                return Err(io::Error::other(
                    "it decodes to less than its declared size",
                ));
            }
            if self.crc.clone().finalize() != self.want {
                return Err(io::Error::other("its CRC-32 does not match"));
            }
        }
        Ok(n)
    }
}
