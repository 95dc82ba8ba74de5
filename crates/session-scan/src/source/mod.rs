//! Finding session files under the paths given, and handing each to its reader.
//!
//! A directory is walked without following symbolic links (a link is named as
//! a problem and skipped), and every file is opened again from the directory
//! given, one component at a time, so a scan never leaves the trees it was
//! given (see `tree`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead as _, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::budget::{Budget, Limits};
use crate::model::{Problem, Sink};

pub mod claude;
pub mod codex;
pub mod dsh;
pub mod gemini;
mod json;
mod time;
mod tree;

pub use tree::Located;

/// The deepest directory level walked below a given path.
pub const WALK_DEPTH_MAX: usize = 32;

/// One unit of work: files read together, by one reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A DeepSeek harness session directory's files (`session.jsonl[.zstd]`,
    /// `session.vN.jsonl[.zstd]`); only the highest generation is read.
    DshSession(Vec<Located>),
    /// A DeepSeek harness web export (`.zip`).
    DshExport(Located),
    /// The Claude Code transcripts of one directory (a project's), in path
    /// order: read one after the other, so a response a fork copied is
    /// counted once (see `claude::Counted`).
    ClaudeCode(Vec<Located>),
    /// A Codex rollout.
    Codex(Located),
    /// A Gemini CLI chat.
    GeminiCli(Located),
}

impl Input {
    /// The file a progress line names.
    pub fn path(&self) -> &Path {
        match self {
            Input::DshSession(files) | Input::ClaudeCode(files) => {
                files.first().map_or(Path::new(""), Located::path)
            }
            Input::DshExport(f) | Input::Codex(f) | Input::GeminiCli(f) => f.path(),
        }
    }

    /// The bytes on disk when it was found (for the progress bar's total).
    pub fn size(&self) -> u64 {
        match self {
            Input::DshSession(files) => files.iter().map(Located::size).max().unwrap_or(0),
            Input::ClaudeCode(files) => files.iter().map(Located::size).sum(),
            Input::DshExport(f) | Input::Codex(f) | Input::GeminiCli(f) => f.size(),
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

/// Reads one input into `sink` within a fresh [`Budget`] of `limits` per
/// file (per export: one for all its members). Never panics on any file
/// content; what it cannot read is a [`Problem`].
pub fn read(input: &Input, sink: &mut dyn Sink, limits: Limits) {
    match input {
        Input::DshSession(files) => dsh::read_session_dir(files, sink, &Budget::new(limits)),
        Input::DshExport(file) => dsh::read_export(file, sink, &Budget::new(limits)),
        Input::ClaudeCode(files) => {
            let mut counted = claude::Counted::default();
            for file in files {
                with_file(
                    file,
                    sink,
                    &Budget::new(limits),
                    &mut |path, input, sink, budget| {
                        claude::read_in(path, input, sink, budget, &mut counted);
                    },
                );
            }
        }
        Input::Codex(file) => with_file(file, sink, &Budget::new(limits), &mut codex::read),
        Input::GeminiCli(file) => with_file(file, sink, &Budget::new(limits), &mut gemini::read),
    }
}

type Reader<'r> = dyn FnMut(&Path, &mut dyn Read, &mut dyn Sink, &Budget) + 'r;

fn with_file(file: &Located, sink: &mut dyn Sink, budget: &Budget, reader: &mut Reader<'_>) {
    match file.open() {
        Ok(mut opened) => reader(file.path(), &mut opened, sink, budget),
        Err(e) => sink.problem(Problem {
            path: file.path().to_owned(),
            line: None,
            what: format!("cannot open: {e}"),
            stopped: true,
        }),
    }
}

/// Every input under `paths`, in a stable order, and the problems met
/// finding them; `limits` bounds the look at a `.jsonl` file's first line.
pub fn discover(paths: &[PathBuf], limits: Limits) -> (Vec<Input>, Vec<Problem>) {
    let mut found = Found {
        limits,
        ..Found::default()
    };
    for path in paths {
        tree::walk(path, &mut found);
    }
    let mut inputs: Vec<Input> = found
        .dsh_dirs
        .into_values()
        .map(Input::DshSession)
        .collect();
    inputs.extend(found.claude_dirs.into_values().map(|mut files| {
        files.sort_by(|a, b| a.path().cmp(b.path()));
        files.dedup_by(|a, b| a.path() == b.path());
        Input::ClaudeCode(files)
    }));
    inputs.extend(found.others);
    inputs.sort_by(|a, b| a.path().cmp(b.path()));
    (inputs, found.problems)
}

#[derive(Default)]
struct Found {
    limits: Limits,
    /// DeepSeek session files by directory.
    dsh_dirs: BTreeMap<PathBuf, Vec<Located>>,
    /// Claude Code transcripts by directory.
    claude_dirs: BTreeMap<PathBuf, Vec<Located>>,
    others: Vec<Input>,
    problems: Vec<Problem>,
}

/// A file's name as bytes (its last component; empty for none).
pub(crate) fn name_bytes(path: &Path) -> &[u8] {
    path.file_name().map_or(&[][..], |n| n.as_encoded_bytes())
}

impl tree::Visit for Found {
    fn problem(&mut self, path: &Path, what: String) {
        self.problems.push(Problem {
            path: path.to_owned(),
            line: None,
            what,
            stopped: true,
        });
    }

    fn file(&mut self, file: Located, given: bool, open: &dyn Fn() -> io::Result<File>) {
        let name = name_bytes(file.path());
        if dsh::is_session_file_name(name) {
            let dir = file.path().parent().unwrap_or(Path::new("")).to_owned();
            self.dsh_dirs.entry(dir).or_default().push(file);
        } else if name.ends_with(b".zip") {
            self.others.push(Input::DshExport(file));
        } else if name.ends_with(b".jsonl") {
            let path = file.path().to_owned();
            match sniff(file, open, self.limits.header_bytes) {
                Ok(Some(Input::ClaudeCode(files))) => {
                    for file in files {
                        let dir = file.path().parent().unwrap_or(Path::new("")).to_owned();
                        self.claude_dirs.entry(dir).or_default().push(file);
                    }
                }
                Ok(Some(input)) => self.others.push(input),
                Ok(None) if given => {
                    self.problem(&path, "not a session of a known format".into());
                }
                Ok(None) => {}
                Err(e) => self.problem(&path, format!("cannot read: {e}")),
            }
        } else if given {
            self.problem(
                file.path(),
                "not a session file (.jsonl, .jsonl.zstd or .zip)".into(),
            );
        }
    }
}

/// Tells a `.jsonl` file's format from the first `max` bytes of its first line.
fn sniff(
    file: Located,
    open: &dyn Fn() -> io::Result<File>,
    max: usize,
) -> io::Result<Option<Input>> {
    if name_bytes(file.path()).starts_with(b"rollout-") {
        return Ok(Some(Input::Codex(file)));
    }
    // Only a prefix of a long first line is looked at.
    let mut first = Vec::new();
    BufReader::new(open()?.take(max as u64)).read_until(b'\n', &mut first)?;
    let has = |needle: &[u8]| memchr::memmem::find(&first, needle).is_some();
    Ok(if has(b"\"type\":\"session\"") {
        Some(Input::DshSession(vec![file]))
    } else if has(b"\"session_meta\"") {
        Some(Input::Codex(file))
    } else if has(b"\"projectHash\"") && has(b"\"sessionId\"") {
        // Gemini CLI's metadata line; looked for before Claude Code's `sessionId`.
        Some(Input::GeminiCli(file))
    } else if has(b"\"sessionId\"") {
        Some(Input::ClaudeCode(vec![file]))
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
        std::fs::write(&file, b"{}\n").unwrap_or_else(|e| panic!("{e}"));
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&file, &link).unwrap_or_else(|e| panic!("{e}"));
        let open = |path: &Path| Located::given(path.to_owned()).open();
        assert!(open(&file).is_ok());
        assert!(open(&link).is_err(), "a link was followed");
        assert!(
            open(dir.path()).is_err(),
            "a directory was opened as a file"
        );
    }
}
