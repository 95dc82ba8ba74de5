//! Finding session files under the paths given, and handing each to its reader.
//!
//! A directory is walked without following symbolic links (a link is named as
//! a problem and skipped), so a scan never leaves the trees it was given.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::model::{Problem, Sink};

pub mod claude;
pub mod codex;
pub mod dsh;
mod time;

/// The deepest directory level walked below a given path.
pub const WALK_DEPTH_MAX: usize = 32;

/// The most bytes read to tell a `.jsonl` file's format.
const SNIFF_BYTES: u64 = 64 << 10;

/// One unit of work: files read together, by one reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A DeepSeek harness session directory's files (`session.jsonl[.zstd]`,
    /// `session.vN.jsonl[.zstd]`); only the highest generation is read.
    DshSession(Vec<PathBuf>),
    /// A DeepSeek harness web export (`.zip`).
    DshExport(PathBuf),
    /// A Claude Code transcript.
    ClaudeCode(PathBuf),
    /// A Codex rollout.
    Codex(PathBuf),
}

impl Input {
    /// The file a progress line names.
    pub fn path(&self) -> &Path {
        match self {
            Input::DshSession(files) => files.first().map_or(Path::new(""), |p| p.as_path()),
            Input::DshExport(p) | Input::ClaudeCode(p) | Input::Codex(p) => p,
        }
    }

    /// The bytes on disk (for the progress bar's total).
    pub fn size(&self) -> u64 {
        let size = |p: &Path| fs::symlink_metadata(p).map_or(0, |m| m.len());
        match self {
            Input::DshSession(files) => files.iter().map(|p| size(p)).max().unwrap_or(0),
            Input::DshExport(p) | Input::ClaudeCode(p) | Input::Codex(p) => size(p),
        }
    }
}

/// The platform a recorded working directory implies: `X:\`, `X:/` or `\\`
/// is Windows, `/Users/…` macOS, any other `/…` Linux; anything else unknown.
pub(crate) fn platform(cwd: &str) -> Option<advisor_core::Platform> {
    use advisor_core::Platform;
    let b = cwd.as_bytes();
    let drive =
        b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/');
    if drive || cwd.starts_with("\\\\") {
        Some(Platform::Win32)
    } else if cwd.starts_with("/Users/") {
        Some(Platform::Macos)
    } else if cwd.starts_with('/') {
        Some(Platform::Linux)
    } else {
        None
    }
}

/// Opens a file for reading without following a link in its place
/// (`O_NOFOLLOW`) and without blocking on a FIFO put there (`O_NONBLOCK`);
/// anything but a regular file is refused. Discovery already skipped links,
/// and this closes the window between that look and the open.
pub(crate) fn open(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(flags.bits() as i32);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// Reads one input into `sink`. Never panics on any file content; what it
/// cannot read is a [`Problem`].
pub fn read(input: &Input, sink: &mut dyn Sink) {
    match input {
        Input::DshSession(files) => dsh::read_session_dir(files, sink),
        Input::DshExport(path) => dsh::read_export(path, sink),
        Input::ClaudeCode(path) => with_file(path, sink, claude::read),
        Input::Codex(path) => with_file(path, sink, codex::read),
    }
}

type Reader = fn(&Path, &mut dyn BufRead, &mut dyn Sink);

fn with_file(path: &Path, sink: &mut dyn Sink, reader: Reader) {
    match open(path) {
        Ok(file) => reader(path, &mut BufReader::with_capacity(1 << 16, file), sink),
        Err(e) => sink.problem(Problem {
            path: path.to_owned(),
            line: None,
            what: format!("cannot open: {e}"),
            stopped: true,
        }),
    }
}

/// Every input under `paths`, in a stable order, and the problems met
/// finding them.
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<Problem>) {
    let mut found = Found::default();
    for path in paths {
        found.visit(path, 0, true);
    }
    let mut inputs: Vec<Input> = found
        .dsh_dirs
        .into_values()
        .map(Input::DshSession)
        .collect();
    inputs.extend(found.others);
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    (inputs, found.problems)
}

#[derive(Default)]
struct Found {
    /// DeepSeek session files by directory.
    dsh_dirs: BTreeMap<PathBuf, Vec<PathBuf>>,
    others: Vec<Input>,
    problems: Vec<Problem>,
}

impl Found {
    fn problem(&mut self, path: &Path, what: String) {
        self.problems.push(Problem {
            path: path.to_owned(),
            line: None,
            what,
            stopped: true,
        });
    }

    fn visit(&mut self, path: &Path, depth: usize, given: bool) {
        let meta = match fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(e) => return self.problem(path, format!("cannot read: {e}")),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            return self.problem(path, "a symbolic link; links are not followed".into());
        }
        if kind.is_dir() {
            if depth >= WALK_DEPTH_MAX {
                return self.problem(
                    path,
                    format!("deeper than {WALK_DEPTH_MAX} levels below a given path; not read"),
                );
            }
            let entries = match fs::read_dir(path) {
                Ok(entries) => entries,
                Err(e) => return self.problem(path, format!("cannot list: {e}")),
            };
            let mut children: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            children.sort();
            for child in children {
                self.visit(&child, depth + 1, false);
            }
            return;
        }
        if !kind.is_file() {
            if given {
                self.problem(path, "not a regular file or directory".into());
            }
            return;
        }
        self.file(path, given);
    }

    fn file(&mut self, path: &Path, given: bool) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if dsh::is_session_file_name(name) {
            let dir = path.parent().unwrap_or(Path::new("")).to_owned();
            self.dsh_dirs.entry(dir).or_default().push(path.to_owned());
        } else if name.ends_with(".zip") {
            self.others.push(Input::DshExport(path.to_owned()));
        } else if name.ends_with(".jsonl") {
            match sniff(path) {
                Ok(Some(input)) => self.others.push(input),
                Ok(None) if given => {
                    self.problem(path, "not a session of a known format".into());
                }
                Ok(None) => {}
                Err(e) => self.problem(path, format!("cannot read: {e}")),
            }
        } else if given {
            self.problem(
                path,
                "not a session file (.jsonl, .jsonl.zstd or .zip)".into(),
            );
        }
    }
}

/// Tells a `.jsonl` file's format from its first line.
fn sniff(path: &Path) -> std::io::Result<Option<Input>> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with("rollout-") {
        return Ok(Some(Input::Codex(path.to_owned())));
    }
    let mut first = Vec::new();
    BufReader::new(open(path)?.take(SNIFF_BYTES)).read_until(b'\n', &mut first)?;
    let has = |needle: &[u8]| first.windows(needle.len()).any(|w| w == needle);
    Ok(if has(b"\"type\":\"session\"") {
        Some(Input::DshSession(vec![path.to_owned()]))
    } else if has(b"\"session_meta\"") {
        Some(Input::Codex(path.to_owned()))
    } else if has(b"\"sessionId\"") {
        Some(Input::ClaudeCode(path.to_owned()))
    } else {
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::Platform;

    #[test]
    fn the_platform_is_read_from_the_cwd() {
        for (cwd, want) in [
            ("D:\\ws", Some(Platform::Win32)),
            ("c:/ws", Some(Platform::Win32)),
            ("\\\\server\\share", Some(Platform::Win32)),
            ("/Users/dev/proj", Some(Platform::Macos)),
            ("/home/dev/proj", Some(Platform::Linux)),
            ("/Users", Some(Platform::Linux)),
            ("<run>/proj", None),
            ("proj", None),
            ("D:", None),
            ("", None),
        ] {
            assert_eq!(platform(cwd), want, "{cwd:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_put_in_a_files_place_is_not_opened() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("session.jsonl");
        fs::write(&file, b"{}\n").unwrap_or_else(|e| panic!("{e}"));
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&file, &link).unwrap_or_else(|e| panic!("{e}"));
        assert!(open(&file).is_ok());
        assert!(open(&link).is_err(), "a link was followed");
        assert!(
            open(dir.path()).is_err(),
            "a directory was opened as a file"
        );
    }
}
