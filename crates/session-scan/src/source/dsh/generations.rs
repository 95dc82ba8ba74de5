//! Which file of a session directory is read.
//!
//! A migrated session keeps its old `session.jsonl[.zstd]` beside the new
//! `session.vN.jsonl[.zstd]`; they hold the same calls, so only one is read:
//! the one whose header `version` is highest among the versions this reader
//! knows (0 to 3). The header decides, not the name (a versioned name that
//! disagrees with its header is a problem, and the header still decides).
//!
//! - A file of a version this reader does not know (v4 in development, or
//!   later) is a problem and is not read; the highest known generation is
//!   read instead, and that problem says so.
//! - Two files claiming the same highest version are a problem naming both;
//!   the one read is the one whose name agrees with its header
//!   (`session.vN…` for version N), else the unversioned one; among equals
//!   the last by path (so `session.jsonl.zstd` over `session.jsonl`). The
//!   problem names the others by file name (they share the directory).
//! - A file whose first line cannot be read as a session header is a
//!   problem and takes no part in the choice.

use std::path::{Path, PathBuf};

use super::frames::Stop;
use super::header::{self, VERSION_MAX};
use super::{FileSource, open, stopped};
use crate::lines::Line;
use crate::model::{Problem, Sink};

/// The `N` of a `session.vN.jsonl[.zstd]` name.
fn name_version(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?;
    name.strip_prefix("session.v")?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// The header version of the file, or a problem.
fn version(path: &Path, sink: &mut dyn Sink) -> Option<u64> {
    let mut source = FileSource::new(path.to_owned());
    let stop = std::rc::Rc::new(std::cell::RefCell::new(None::<Stop>));
    let mut lines = match open(&mut source, &stop) {
        Ok(lines) => lines,
        Err(e) => {
            stopped(sink, path, None, format!("cannot open: {e}"));
            return None;
        }
    };
    let found = match lines.next_line() {
        Ok(Some(Line::Text(text))) => header::version_of(text),
        _ => None,
    };
    if found.is_none() {
        let what = match stop.borrow().as_ref() {
            Some(stop) => stop.what(),
            None => "the first line is not a session header with a version; skipped".to_owned(),
        };
        stopped(sink, path, Some(1), what);
    }
    found
}

/// The file to read among `files`, after naming the problems met.
pub(crate) fn choose(files: &[PathBuf], sink: &mut dyn Sink) -> Option<PathBuf> {
    let mut known: Vec<(u64, &PathBuf)> = Vec::new();
    let mut unknown: Vec<(u64, &PathBuf)> = Vec::new();
    for path in files {
        let Some(v) = version(path, sink) else {
            continue;
        };
        if let Some(n) = name_version(path).filter(|&n| n != v) {
            sink.problem(Problem {
                path: path.clone(),
                line: Some(1),
                what: format!(
                    "named for version {n} but its header says version {v}; the header is followed"
                ),
                stopped: false,
            });
        }
        if v <= VERSION_MAX {
            known.push((v, path));
        } else {
            unknown.push((v, path));
        }
    }
    let highest = known.iter().map(|(v, _)| *v).max();
    for (v, path) in &unknown {
        let instead = match highest {
            Some(h) => format!("; generation v{h} is read instead"),
            None => String::new(),
        };
        stopped(
            sink,
            path,
            Some(1),
            format!(
                "format version {v} is not read (this scanner reads versions 0 to {VERSION_MAX}){instead}"
            ),
        );
    }
    let highest = highest?;
    let mut tied: Vec<&PathBuf> = known
        .iter()
        .filter(|(v, _)| *v == highest)
        .map(|(_, p)| *p)
        .collect();
    // Agreeing name first, then unversioned, then by path; the last wins.
    tied.sort_by_key(|p| {
        let n = name_version(p);
        (n == Some(highest), n.is_none(), (*p).clone())
    });
    let chosen = (*tied.last()?).clone();
    if tied.len() > 1 {
        let others: Vec<String> = tied[..tied.len() - 1]
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or(p.as_os_str())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        sink.problem(Problem {
            path: chosen.clone(),
            line: Some(1),
            what: format!(
                "{} other file(s) of this session also claim version {highest} ({}); only this one is read",
                others.len(),
                others.join(", ")
            ),
            stopped: false,
        });
    }
    Some(chosen)
}
