//! Each producer's line, read whole (see the parent module for the table).

use super::{PATH_MAX_BYTES, Producer, Refusal, Shell, TRAILER_MAX_LINES, lines_back};

/// `: Read-only file system`, the tail of most producers' lines
/// ([`super::STRERROR`] after the separator).
const TAIL: &str = ": Read-only file system";

/// coreutils programs and the words before the quoted path
/// (`<program>: <head> '<path>': Read-only file system`), from their
/// sources' messages (`touch.c` "cannot touch %s", `mkdir.c` "cannot create
/// directory %s", `copy.c` "cannot create regular file %s" and "cannot
/// create directory %s", `ln.c` "failed to create symbolic link %s" and
/// "failed to create hard link %s", `remove.c` "cannot remove %s",
/// `rmdir.c` "failed to remove %s", `dd.c` "failed to open %s", `chmod.c`
/// "changing permissions of %s", `chown-core.c` "changing ownership of %s").
const COREUTILS: &[(&str, &[&str])] = &[
    ("touch", &["cannot touch"]),
    ("mkdir", &["cannot create directory"]),
    (
        "cp",
        &["cannot create regular file", "cannot create directory"],
    ),
    (
        "install",
        &["cannot create regular file", "cannot create directory"],
    ),
    (
        "ln",
        &[
            "failed to create symbolic link",
            "failed to create hard link",
        ],
    ),
    ("rm", &["cannot remove"]),
    ("rmdir", &["failed to remove"]),
    ("dd", &["failed to open"]),
    ("chmod", &["changing permissions of"]),
    ("chown", &["changing ownership of"]),
];

/// A path a producer could have printed: not empty, no control character,
/// at most [`PATH_MAX_BYTES`].
fn plain(path: &str) -> Option<&str> {
    let ok =
        !path.is_empty() && path.len() <= PATH_MAX_BYTES && !path.chars().any(char::is_control);
    ok.then_some(path)
}

/// The path inside `quoted`, which must be one of `'…'` or `‘…’` whole, with
/// neither quote nor a backslash inside.
fn unquote(quoted: &str) -> Option<&str> {
    let inner = quoted
        .strip_prefix('\'')
        .and_then(|q| q.strip_suffix('\''))
        .or_else(|| quoted.strip_prefix('‘').and_then(|q| q.strip_suffix('’')))?;
    if inner.contains(['\'', '\\', '‘', '’']) {
        return None;
    }
    plain(inner)
}

/// A program name as a shell's `argv[0]` shows it: not empty, no blank.
fn argv0(name: &str) -> bool {
    !name.is_empty() && !name.contains(char::is_whitespace) && !name.contains(':')
}

/// A line number: one or more ASCII digits.
fn number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one whole line as a producer's `EROFS` line.
pub fn parse_line(line: &str) -> Option<Refusal<'_>> {
    let (producer, path) = coreutils(line)
        .or_else(|| bash(line))
        .or_else(|| dash(line))
        .or_else(|| zsh(line))
        .or_else(|| git(line))
        .or_else(|| python(line))
        .or_else(|| node(line))
        .or_else(|| rust(line))?;
    Some(Refusal {
        producer,
        line,
        path,
    })
}

fn coreutils(line: &str) -> Option<(Producer, &str)> {
    let (program, rest) = line.split_once(": ")?;
    let (program, heads) = COREUTILS.iter().find(|(p, _)| *p == program)?;
    let quoted = rest.strip_suffix(TAIL)?;
    let path = heads
        .iter()
        .find_map(|head| quoted.strip_prefix(head)?.strip_prefix(' '))
        .and_then(unquote)?;
    Some((Producer::Coreutils(program), path))
}

/// `<argv0>: line <n>: <path>: Read-only file system` (bash's `redir.c`,
/// reported through `internal_error` with the line number).
fn bash(line: &str) -> Option<(Producer, &str)> {
    let (name, rest) = line.split_once(": line ")?;
    let (n, rest) = rest.split_once(": ")?;
    let path = rest.strip_suffix(TAIL)?;
    (argv0(name) && number(n)).then_some(())?;
    Some((Producer::Shell(Shell::Bash), plain(path)?))
}

/// `<argv0>: <n>: cannot create <path>: Read-only file system` (dash's
/// `redir.c`, "cannot create %s: %s").
fn dash(line: &str) -> Option<(Producer, &str)> {
    let (name, rest) = line.split_once(": ")?;
    let (n, rest) = rest.split_once(": cannot create ")?;
    let path = rest.strip_suffix(TAIL)?;
    (argv0(name) && number(n)).then_some(())?;
    Some((Producer::Shell(Shell::Dash), plain(path)?))
}

/// `<argv0>:<n>: read-only file system: <path>` (zsh's `zerr`, the
/// lowercased `strerror` first, then the path).
fn zsh(line: &str) -> Option<(Producer, &str)> {
    let (head, path) = line.split_once(": read-only file system: ")?;
    let (name, n) = head.rsplit_once(':')?;
    (argv0(name) && number(n)).then_some(())?;
    Some((Producer::Shell(Shell::Zsh), plain(path)?))
}

/// git's lines that name the path it could not create (`lockfile.c`
/// "Unable to create '%s': %s", also inside "cannot lock ref '…': …";
/// `config.c` "could not lock config file %s"; `builtin/init-db.c`
/// "cannot mkdir %s"; `builtin/clone.c` "could not create work tree dir
/// '%s'" and "could not create leading directories of '%s'").
fn git(line: &str) -> Option<(Producer, &str)> {
    let message = line
        .strip_prefix("fatal: ")
        .or_else(|| line.strip_prefix("error: "))?;
    let head = message.strip_suffix(TAIL)?;
    let path = if let Some((_, lock)) = head.rsplit_once("Unable to create '") {
        let path = plain(lock.strip_suffix('\'')?)?;
        // The lock path is absolute and unescaped (`absolute_path`), and
        // always ends in the lock suffix.
        (path.starts_with('/') && path.ends_with(".lock")).then_some(path)?
    } else if let Some(path) = head.strip_prefix("could not lock config file ") {
        plain(path)?
    } else if let Some(path) = head.strip_prefix("cannot mkdir ") {
        plain(path)?
    } else if let Some(quoted) = head
        .strip_prefix("could not create work tree dir ")
        .or_else(|| head.strip_prefix("could not create leading directories of "))
    {
        unquote(quoted)?
    } else {
        return None;
    };
    Some((Producer::Git, path))
}

/// Python's `OSError: [Errno 30] Read-only file system: '<path>'` (the
/// exception's `str`, the path as its `repr`), alone or as pip quotes it.
fn python(line: &str) -> Option<(Producer, &str)> {
    const ERRNO: &str = "OSError: [Errno 30] Read-only file system: ";
    const PIP: &str = "ERROR: Could not install packages due to an ";
    let quoted = line.strip_prefix(PIP).unwrap_or(line).strip_prefix(ERRNO)?;
    Some((Producer::Python, unquote(quoted)?))
}

/// Node's `fs` error message: `EROFS: read-only file system, <syscall>
/// '<path>'`, as `Error: …` or alone (`e.message`).
fn node(line: &str) -> Option<(Producer, &str)> {
    const HEAD: &str = "EROFS: read-only file system, ";
    let rest = line
        .strip_prefix("Error: ")
        .unwrap_or(line)
        .strip_prefix(HEAD)?;
    let (syscall, quoted) = rest.split_once(' ')?;
    let syscall_ok = !syscall.is_empty() && syscall.bytes().all(|b| b.is_ascii_lowercase());
    syscall_ok.then_some(())?;
    Some((Producer::Node, unquote(quoted)?))
}

/// `<context>: <path>: Read-only file system (os error 30)`, the display of
/// a Rust `io::Error` after the program's own context; the path (plain or
/// in `'…'`) must be absolute, since a context's last word is not always a
/// path.
fn rust(line: &str) -> Option<(Producer, &str)> {
    const OS: &str = ": Read-only file system (os error 30)";
    let head = line.strip_suffix(OS)?;
    let (_, last) = head.rsplit_once(": ")?;
    let path = if last.starts_with('\'') {
        unquote(last)?
    } else {
        plain(last)?
    };
    path.starts_with('/').then_some((Producer::Rust, path))
}

/// The last non-blank lines of `text` from the end, at most
/// [`TRAILER_MAX_LINES`] of them.
fn tail_lines(text: &str) -> impl Iterator<Item = &str> {
    lines_back(text)
        .skip_while(|l| l.trim().is_empty())
        .take(TRAILER_MAX_LINES)
}

/// Node's uncaught error (or one printed with `console.error`): the error
/// line, then only its stack (`    at …`), its property block (`{` … `}`),
/// blank lines and the `Node.js v<version>` trailer.
pub(super) fn node_above_trailer(text: &str) -> Option<Refusal<'_>> {
    let mut seen_stack = false;
    for line in tail_lines(text) {
        let trimmed = line.trim();
        let trailer = trimmed.is_empty()
            || (!seen_stack && trimmed.starts_with("Node.js v"))
            || (!seen_stack && is_property(line))
            || (!seen_stack && trimmed == "}");
        if trailer {
            continue;
        }
        if line.starts_with("    at ") {
            seen_stack = true;
            continue;
        }
        if !seen_stack {
            return None;
        }
        let (producer, path) = node(line)?;
        return Some(Refusal {
            producer,
            line,
            path,
        });
    }
    None
}

/// A line of Node's property block: `  <key>: <value>` (`errno: -30,`,
/// `code: 'EROFS',`, `path: '…'`).
fn is_property(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("  ") else {
        return false;
    };
    let Some((key, _)) = rest.split_once(": ") else {
        return false;
    };
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// cargo's error chain (`anyhow`): the last line is the cause
/// `  Read-only file system (os error 30)`, and the cause above it names
/// the path in backquotes (``  failed to create directory `<path>` ``).
pub(super) fn cargo_chain(text: &str) -> Option<Refusal<'_>> {
    const LAST: &str = "  Read-only file system (os error 30)";
    let mut lines = tail_lines(text);
    let last = lines.next()?;
    if last != LAST {
        return None;
    }
    // Above it: a blank, "Caused by:", a blank, then the context's cause.
    let mut above = lines.filter(|l| !l.trim().is_empty());
    if above.next()? != "Caused by:" {
        return None;
    }
    let context = above.next()?;
    let inner = context.strip_prefix("  ")?.strip_suffix('`')?;
    let (words, path) = inner.rsplit_once(" `")?;
    let path = plain(path).filter(|p| p.starts_with('/') && !p.contains('`'))?;
    let words_ok = !words.is_empty() && words.bytes().all(|b| b.is_ascii_lowercase() || b == b' ');
    words_ok.then_some(Refusal {
        producer: Producer::Rust,
        line: last,
        path,
    })
}
