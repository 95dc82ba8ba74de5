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
//! Bounds: the archive's own (`zip`: where its end record may be, at most
//! [`MEMBERS_MAX`] members, no overlapping members), and one [`Budget`] for
//! all its members together: their decoded bytes count against one
//! [`crate::budget::Limits::decoded_bytes`], so an archive decodes no more
//! than one file may. Members are decoded as streams, never held whole.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::zip::{Archive, Kind, MEMBERS_MAX, Refused};
use super::{Source, read_one, stopped};
use crate::budget::Budget;
use crate::model::Sink;
use crate::source::Located;

/// One member of an open archive.
struct Member<'z> {
    archive: &'z mut Archive,
    index: usize,
    label: PathBuf,
    zstd: bool,
}

impl Source for Member<'_> {
    fn label(&self) -> &Path {
        &self.label
    }
    fn unit(&self) -> &'static str {
        "archive"
    }
    fn zstd(&self) -> bool {
        self.zstd
    }
    fn open(&mut self) -> io::Result<Box<dyn Read + '_>> {
        self.archive.reader(self.index)
    }
}

/// Reads every session log in the export `file`, within `budget`.
pub(crate) fn read(file: &Located, sink: &mut dyn Sink, budget: &Budget) {
    let path = file.path();
    let opened = match file.open() {
        Ok(opened) => opened,
        Err(e) => return stopped(sink, path, None, format!("cannot open: {e}")),
    };
    let mut archive = match Archive::open(opened, budget.limits().text_bytes) {
        Ok(archive) => archive,
        Err(Refused::TooMany(n)) => {
            let what = format!("an archive of {n} members (more than {MEMBERS_MAX}); not read");
            return stopped(sink, path, None, what);
        }
        Err(Refused::Unreadable(why)) => {
            return stopped(
                sink,
                path,
                None,
                format!("not a readable ZIP archive: {why}"),
            );
        }
    };
    let logs: Vec<(usize, String, bool)> = archive
        .members()
        .iter()
        .enumerate()
        .filter_map(|(index, m)| match m.kind {
            Kind::Jsonl => Some((index, m.name.clone(), false)),
            Kind::JsonlZstd => Some((index, m.name.clone(), true)),
            Kind::Other => None,
        })
        .collect();
    for (index, name, zstd) in logs {
        if budget.left() == 0 {
            // A member that ran into the bound named it; one that ended
            // exactly at it did not, and these members are left unread.
            if !budget.exhausted() {
                stopped(sink, path, None, budget.exhausted_what("archive"));
            }
            break;
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
            budget,
        );
    }
}
