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

use std::path::Path;

use super::frames::Stop;
use super::header::{self, VERSION_MAX};
use super::{FileSource, Located, open, stopped};
use crate::budget::{Budget, Pass};
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

/// The header version of the file (its first line, read within the
/// header bound), or a problem.
fn version(file: &Located, sink: &mut dyn Sink, budget: &Budget) -> Option<u64> {
    let path = file.path();
    let mut source = FileSource::new(file.clone());
    let stop = std::rc::Rc::new(std::cell::RefCell::new(None::<Stop>));
    let mut lines = match open(&mut source, &stop, budget, Pass::Look) {
        Ok(lines) => lines,
        Err(e) => {
            stopped(sink, path, None, format!("cannot open: {e}"));
            return None;
        }
    };
    let mut long = false;
    let found = match lines.next_line_within(budget.limits().header_bytes) {
        Ok(Some(Line::Text(text))) => header::version_of(text),
        Ok(Some(Line::TooLong)) => {
            long = true;
            None
        }
        _ => None,
    };
    if found.is_none() {
        let what = match stop.borrow().as_ref() {
            Some(stop) => stop.what(),
            None if long => format!("{}; skipped", header::too_long(budget)),
            None => "the first line is not a session header with a version; skipped".to_owned(),
        };
        stopped(sink, path, Some(1), what);
    }
    found
}

/// The file to read among `files`, after naming the problems met.
pub(crate) fn choose(files: &[Located], sink: &mut dyn Sink, budget: &Budget) -> Option<Located> {
    let mut known: Vec<(u64, &Located)> = Vec::new();
    let mut unknown: Vec<(u64, &Located)> = Vec::new();
    for file in files {
        let Some(v) = version(file, sink, budget) else {
            continue;
        };
        let path = file.path();
        if let Some(n) = name_version(path).filter(|&n| n != v) {
            sink.problem(Problem {
                path: path.to_owned(),
                line: Some(1),
                what: format!(
                    "named for version {n} but its header says version {v}; the header is followed"
                ),
                stopped: false,
            });
        }
        if v <= VERSION_MAX {
            known.push((v, file));
        } else {
            unknown.push((v, file));
        }
    }
    let highest = known.iter().map(|(v, _)| *v).max();
    for (v, file) in &unknown {
        let instead = match highest {
            Some(h) => format!("; generation v{h} is read instead"),
            None => String::new(),
        };
        stopped(
            sink,
            file.path(),
            Some(1),
            format!(
                "format version {v} is not read (this scanner reads versions 0 to {VERSION_MAX}){instead}"
            ),
        );
    }
    let highest = highest?;
    let mut tied: Vec<&Located> = known
        .iter()
        .filter(|(v, _)| *v == highest)
        .map(|(_, f)| *f)
        .collect();
    // Agreeing name first, then unversioned, then by path; the last wins.
    tied.sort_by_key(|f| {
        let n = name_version(f.path());
        (n == Some(highest), n.is_none(), f.path().to_owned())
    });
    let chosen = (*tied.last()?).clone();
    if tied.len() > 1 {
        let others: Vec<String> = tied[..tied.len() - 1]
            .iter()
            .map(|f| {
                let p = f.path();
                p.file_name()
                    .unwrap_or(p.as_os_str())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        sink.problem(Problem {
            path: chosen.path().to_owned(),
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
