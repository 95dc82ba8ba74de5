//! The predicate: did a program report that its network socket was refused
//! (Codex's seccomp filter, Linux), or that the network could not be
//! reached at all, or does the output end with Claude Code's
//! `<sandbox_violations>` block holding a Seatbelt `network-outbound`
//! refusal (macOS, read in source only)?
//!
//! Each runtime's words, as the real programs printed them under Codex
//! 0.171.0 (`docs/hooks/codex/network-*`, `readonly-*`), kept in three
//! classes by what they prove ([`Refusal`]):
//!
//! | class | runtime | last lines |
//! |---|---|---|
//! | socket creation | Python | `  File "…/socket.py", line N, in __init__`, `    _socket.socket.__init__(…)`, `PermissionError: [Errno 1] Operation not permitted` |
//! | socket creation | Python's `urllib` | that traceback, then `urllib.error.URLError: <urlopen error [Errno 1] Operation not permitted>` |
//! | socket creation | OpenSSH | `socket: Operation not permitted`, `ssh: connect to host <h> port <p>: failure` |
//! | connection, `EPERM` | Node | `Error: connect EPERM <addr>:<port> …` above only its stack and property block |
//! | connection, `EPERM` | wget | `Connecting to <h>:<p>... failed: Operation not permitted.`, `Giving up.` |
//! | unreachable | curl | `curl: (6) Could not resolve host: <h>`, `curl: (7) Failed to connect to <h> port <p> …: Couldn't connect to server` |
//! | unreachable | git | `fatal: unable to access '<url>': Could not resolve host: <h>` |
//! | unreachable | Node | `Error: getaddrinfo EAI_AGAIN <h>` above its stack and block |
//! | unreachable | Python | `socket.gaierror: [Errno -3] Temporary failure in name resolution` |
//!
//! | connection refused, marked | Python | `ConnectionRefusedError: [Errno 111] Connection refused`, only where Gemini CLI marked the result `sandbox_expansion_required` (`docs/hooks/gemini-cli/python-connect`) |
//! | unreachable, marked | npm | its `npm error` block closing the output, opened by `npm error code EAI_AGAIN` and holding `npm error request to <url> failed, reason: getaddrinfo EAI_AGAIN <h>`, only where Gemini CLI marked the result (`docs/hooks/gemini-cli/npm-view`; the same words with the sandbox off, unmarked: `control-npm-view`) |
//!
//! The words count only where the program leaves them: the output's last
//! non-blank line (or the pair of lines for ssh and wget, the traceback's
//! frame for Python, Node's error above only its own trailer).
//!
//! **macOS (Claude Code).** Seatbelt's own line in the block Claude Code
//! appends (`<process>(<pid>) deny(1) network-outbound <address>`), the
//! block closing the output (see `sandbox-write-denied` for its source).
//! **Read in source only: no Mac ran it.**

use advisor_core::{Observation, Outcome, Untrusted, envelope};

/// The block's opening tag, on a line of its own.
pub const OPEN_TAG: &str = "<sandbox_violations>";
/// The block's closing tag, the output's last line.
pub const CLOSE_TAG: &str = "</sandbox_violations>";
/// What a Seatbelt network refusal holds after the process.
pub const SEATBELT_NETWORK: &str = ") deny(1) network-outbound ";
/// The most block lines read, back from the closing tag.
pub const MAX_BLOCK_LINES: usize = 512;
/// The most lines above the last one a trailer may take (Node's stack and
/// block, npm's error block).
pub const TRAILER_MAX_LINES: usize = 64;

/// The prefilter needles: the shortest words each shape above holds.
pub const NEEDLES: &[&str] = &[
    "not permitted",
    "connect EPERM",
    "resolve host",
    "connect to server",
    "EAI_AGAIN",
    "name resolution",
    "deny(1) network-outbound",
    "ConnectionRefusedError",
];

/// Gemini CLI's own mark on a result its sandbox refused
/// (`tool_response.error.type`), carried as the failure's code by
/// `hook --dialect gemini-cli`.
pub const MARKER: &str = "sandbox_expansion_required";

/// Python's refused connection (`ECONNREFUSED`), the last line of its traceback.
pub const CONNECTION_REFUSED: &str = "ConnectionRefusedError: [Errno 111] Connection refused";

/// What the words prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Creating the socket was refused (`EPERM` from `socket()`): only a
    /// seccomp filter or a security module does that.
    SocketCreation,
    /// Connecting was refused with `EPERM`: a seccomp filter, or a host
    /// firewall dropping the packet.
    ConnectEperm,
    /// The name did not resolve or the connection was not made: an offline
    /// machine prints the same.
    Unreachable,
    /// Seatbelt's own line in Claude Code's block (macOS).
    Seatbelt,
    /// The connection was refused (`ECONNREFUSED`): any closed port says
    /// the same, so it is read only where Gemini CLI marked the result as
    /// its sandbox's refusal.
    ConnectRefused,
}

/// The program that printed the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// CPython (`socket`, `urllib`).
    Python,
    /// OpenSSH's client.
    Ssh,
    /// Node (`net`, `dns`).
    Node,
    /// GNU wget.
    Wget,
    /// curl.
    Curl,
    /// git over HTTPS.
    Git,
    /// npm's registry client.
    Npm,
    /// The macOS kernel's sandbox, through Claude Code's log monitor.
    Seatbelt,
}

/// A recognized refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What it proves.
    pub refusal: Refusal,
    /// Who printed it.
    pub runtime: Runtime,
    /// The line that says it, as evidence.
    pub line: Untrusted,
    /// True when Gemini CLI marked the result as its sandbox's refusal
    /// (the failure's code is [`MARKER`]).
    pub marked: bool,
}

/// The text the family reads (as `sandbox-write-denied` reads it).
pub fn text(observation: &Observation) -> &str {
    match &observation.outcome {
        Outcome::Failure(f) if f.message.trim().is_empty() => envelope::unwrap(&f.content),
        Outcome::Failure(f) => envelope::unwrap(&f.message),
        Outcome::Success(s) => &s.content,
    }
}

/// The non-blank lines of `text` from the end, at most [`TRAILER_MAX_LINES`] + 1.
fn from_end(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .rev()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .take(TRAILER_MAX_LINES + 1)
}

/// Recognizes a refused or unreachable network; `None` (without allocating) otherwise.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let text = text(observation);
    let (refusal, runtime, line) = last_lines(text)
        .or_else(|| node(text))
        .or_else(|| npm(text))
        .or_else(|| seatbelt(text))?;
    let marked = matches!(&observation.outcome,
        Outcome::Failure(f) if f.code.as_deref() == Some(MARKER));
    // A refused connection is any closed port's; npm's words were recorded
    // only under Gemini CLI, which marks them: both count only marked.
    if (refusal == Refusal::ConnectRefused || runtime == Runtime::Npm) && !marked {
        return None;
    }
    Some(Finding {
        refusal,
        runtime,
        line: Untrusted::new(line),
        marked,
    })
}

/// The shapes read from the last one or two lines (and Python's frame).
fn last_lines(text: &str) -> Option<(Refusal, Runtime, &str)> {
    const PERMISSION: &str = "PermissionError: [Errno 1] Operation not permitted";
    const URLOPEN: &str =
        "urllib.error.URLError: <urlopen error [Errno 1] Operation not permitted>";
    let mut lines = from_end(text);
    let last = lines.next()?;
    let above = lines.next().unwrap_or_default();
    if last == PERMISSION && above.trim_start().starts_with("_socket.socket.__init__(") {
        let frame = lines.next().unwrap_or_default();
        let in_init = frame.trim_start().starts_with("File \"")
            && frame.ends_with(", in __init__")
            && frame.contains("socket.py\", line ");
        return in_init.then_some((Refusal::SocketCreation, Runtime::Python, last));
    }
    if last == URLOPEN {
        // urllib's wrapper names only the errno; the chained traceback above
        // it must hold the socket's own refusal.
        let created = text.contains("    _socket.socket.__init__(") && text.contains(PERMISSION);
        return created.then_some((Refusal::SocketCreation, Runtime::Python, last));
    }
    if above == "socket: Operation not permitted"
        && last.starts_with("ssh: connect to host ")
        && last.ends_with(": failure")
    {
        return Some((Refusal::SocketCreation, Runtime::Ssh, above));
    }
    if matches!(last, "Giving up." | "Retrying.")
        && above.starts_with("Connecting to ")
        && above.ends_with("... failed: Operation not permitted.")
    {
        return Some((Refusal::ConnectEperm, Runtime::Wget, above));
    }
    if let Some(rest) = last.strip_prefix("curl: (") {
        let resolve = rest.starts_with("6) Could not resolve host: ");
        let connect = rest.starts_with("7) Failed to connect to ")
            && rest.ends_with(": Couldn't connect to server");
        return (resolve || connect).then_some((Refusal::Unreachable, Runtime::Curl, last));
    }
    if last.starts_with("fatal: unable to access '") && last.contains("': Could not resolve host: ")
    {
        return Some((Refusal::Unreachable, Runtime::Git, last));
    }
    if last == CONNECTION_REFUSED && above.trim_start().starts_with("sock.connect(") {
        return Some((Refusal::ConnectRefused, Runtime::Python, last));
    }
    if last == "socket.gaierror: [Errno -3] Temporary failure in name resolution" {
        return Some((Refusal::Unreachable, Runtime::Python, last));
    }
    None
}

/// Node's `net` and `dns` errors, above only their stack and property block.
fn node(text: &str) -> Option<(Refusal, Runtime, &str)> {
    let mut seen_stack = false;
    for line in from_end(text) {
        let trimmed = line.trim();
        let trailer = trimmed.starts_with("Node.js v") || trimmed == "}" || is_property(line);
        if !seen_stack && trailer {
            continue;
        }
        if line.starts_with("    at ") {
            seen_stack = true;
            continue;
        }
        if !seen_stack {
            return None;
        }
        let refusal = if line.starts_with("Error: connect EPERM ") {
            Refusal::ConnectEperm
        } else if line.starts_with("Error: getaddrinfo EAI_AGAIN ") {
            Refusal::Unreachable
        } else {
            return None;
        };
        return Some((refusal, Runtime::Node, line));
    }
    None
}

/// npm's error block closing `text`: every line from the end is npm's
/// (`npm error …`) up to the one that opens it, `npm error code EAI_AGAIN`,
/// and the block holds the failed request with the resolver's error (the
/// line given as evidence). npm's log-file lines may follow the request.
fn npm(text: &str) -> Option<(Refusal, Runtime, &str)> {
    const REASON: &str = " failed, reason: getaddrinfo EAI_AGAIN ";
    let mut request = None;
    for line in from_end(text) {
        let rest = line.strip_prefix("npm error ")?;
        if rest == "code EAI_AGAIN" {
            return request.map(|l| (Refusal::Unreachable, Runtime::Npm, l));
        }
        if rest.starts_with("request to ") && rest.contains(REASON) {
            request = Some(line);
        }
    }
    None
}

/// A line of Node's property block: `  <key>: <value>`.
fn is_property(line: &str) -> bool {
    line.strip_prefix("  ")
        .and_then(|rest| rest.split_once(": "))
        .is_some_and(|(key, _)| {
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
}

/// The first Seatbelt `network-outbound` line of a block closing `text`.
fn seatbelt(text: &str) -> Option<(Refusal, Runtime, &str)> {
    let mut lines = text
        .lines()
        .rev()
        .map(|l| l.trim_end_matches('\r'))
        .skip_while(|l| l.trim().is_empty());
    if lines.next()? != CLOSE_TAG {
        return None;
    }
    let mut first = None;
    for line in lines.take(MAX_BLOCK_LINES) {
        if line == OPEN_TAG {
            return first.map(|l| (Refusal::Seatbelt, Runtime::Seatbelt, l));
        }
        if seatbelt_network(line) {
            first = Some(line);
        } else if !(line.contains(") deny(1) ") || line.starts_with("deny network-outbound ")) {
            return None;
        }
    }
    None
}

/// `<process>(<pid>) deny(1) network-outbound <address>`.
fn seatbelt_network(line: &str) -> bool {
    let Some((process, address)) = line.split_once(SEATBELT_NETWORK) else {
        return false;
    };
    let pid_ok = process.rsplit_once('(').is_some_and(|(name, pid)| {
        !name.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
    });
    pid_ok && !address.is_empty() && !address.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests;
