//! The predicate: does this command's output end with Claude Code's
//! `<sandbox_violations>` block, naming at least one network connection its
//! sandbox refused?
//!
//! The producer is the sandbox runtime Claude Code embeds
//! (`@anthropic-ai/sandbox-runtime`, `src/sandbox/sandbox-manager.ts`):
//! `annotateStderrWithSandboxFailures` appends to a command's stderr a line
//! break, [`OPEN_TAG`], a line break, each violation line followed by a line
//! break, and [`CLOSE_TAG`], and nothing after it. Its proxy writes a refused
//! connection as `deny network-outbound <host>:<port> (<reason>)`
//! (`recordOutboundDeny`); the violation store drops `<` and `>` from every
//! line, so no line of a real block holds either.
//!
//! So the block is read only where the producer puts it: the opening tag on a
//! line of its own, one or more violation lines, the closing tag on a line of
//! its own, and nothing but whitespace after it. The same block in the middle
//! of a longer output (a `cat` of a file, a grep hit) is someone quoting it.
//!
//! Lines of the block that are violations of another kind (`deny <syscall>
//! <path>`, a filesystem refusal) are counted and set aside: they are the
//! sandbox's own report of something else, and the network lines prove the
//! network refusal on their own. A line that begins like a network refusal
//! but is not one in the producer's shape, a line that is not a `deny` line
//! at all, or an empty line makes the whole block something else: `None`.
//!
//! Every read is bounded before it happens: at most [`MAX_BLOCK_LINES`] lines
//! of at most [`MAX_LINE_BYTES`] bytes are scanned, back from the closing tag,
//! and at most [`MAX_HOSTS`] distinct hosts are kept. Nothing is allocated
//! until the block has been read whole and found to be the producer's.

use advisor_core::{Observation, Outcome, Untrusted};

/// The block's opening tag, on a line of its own.
pub const OPEN_TAG: &str = "<sandbox_violations>";

/// The block's closing tag, on a line of its own, at the end of the output.
pub const CLOSE_TAG: &str = "</sandbox_violations>";

/// The head of the proxy's line for one refused connection.
pub const NETWORK_DENY: &str = "deny network-outbound ";

/// The head of every violation line the runtime writes.
const ANY_DENY: &str = "deny ";

/// The most lines read between the tags. The runtime keeps at most 500
/// violations (100 in later releases); a longer run is not its block.
pub const MAX_BLOCK_LINES: usize = 512;

/// The longest block line read, in bytes: the head, a host name, a port and
/// a reason the runtime cuts at 500 UTF-16 units fit well within it.
pub const MAX_LINE_BYTES: usize = 2048;

/// The longest host read, in bytes (a DNS name is at most 253).
pub const MAX_HOST_BYTES: usize = 255;

/// The longest reason read, in characters (the runtime cuts it at 500).
pub const MAX_REASON_CHARS: usize = 500;

/// The most distinct host:port pairs kept; more are noted, not named.
pub const MAX_HOSTS: usize = 8;

/// Where the block arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// A failed call (`PostToolUseFailure`'s `error`).
    Failure,
    /// A call that exited 0 (`PostToolUse`'s stdout and stderr).
    Success,
}

/// One refused host:port, as the first line naming it wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    /// The host the command tried to reach (the producer's text).
    pub host: Untrusted,
    /// The port.
    pub port: u16,
    /// `host:port` as written (the producer's text), for mentions.
    pub target: Untrusted,
    /// The reason in the parentheses (the producer's text).
    pub reason: Untrusted,
    /// The whole line, for the evidence.
    pub line: Untrusted,
}

/// A recognized block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The distinct refused host:port pairs, in the order first seen; at most [`MAX_HOSTS`].
    pub denials: Vec<Denial>,
    /// True when more distinct pairs followed than were kept.
    pub more_hosts: bool,
    /// How many network refusal lines the block held (one per attempt).
    pub attempts: usize,
    /// How many violation lines of another kind were set aside.
    pub other_lines: usize,
    /// Where the block arrived.
    pub carrier: Carrier,
    /// How many bytes of the text, from the opening tag to its end, the block
    /// takes (trailing whitespace included): set against what the client
    /// wrote in a field of its own ([`crate::provenance`]).
    pub block_bytes: usize,
}

/// One block line, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    /// `deny network-outbound <host>:<port> (<reason>)`.
    Network {
        host: &'a str,
        port: u16,
        target: &'a str,
        reason: &'a str,
    },
    /// Another violation (`deny <what> <operand>`): set aside.
    Other,
}

/// The text a family reads: a failure's message (its rendered content when
/// the message is empty), or a success's rendered content.
pub fn text(observation: &Observation) -> Option<&str> {
    match &observation.outcome {
        Outcome::Failure(f) if f.message.trim().is_empty() => Some(&f.content),
        Outcome::Failure(f) => Some(&f.message),
        Outcome::Success(s) => Some(&s.content),
    }
}

/// Drops one trailing `\r` (a CRLF line end).
fn trim_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// The lines between the tags (without the line break after the opening
/// tag) and where the opening tag starts in `text`, when `text` ends with
/// the block; `None` otherwise.
fn block(text: &str) -> Option<(&str, usize)> {
    // The block closes the text: only whitespace may follow the closing tag.
    let body = text.trim_end();
    // The closing tag stands on a line of its own.
    let inner = body
        .strip_suffix(CLOSE_TAG)
        .and_then(|b| b.strip_suffix('\n'))?;
    let inner = trim_cr(inner);
    let bytes = inner.as_bytes();
    let mut end = inner.len();
    for _ in 0..=MAX_BLOCK_LINES {
        let window = end.saturating_sub(MAX_LINE_BYTES + 1);
        let start = match bytes.get(window..end)?.iter().rposition(|&b| b == b'\n') {
            Some(at) => window + at + 1,
            None if window == 0 => 0,
            None => return None,
        };
        if trim_cr(inner.get(start..end)?) == OPEN_TAG {
            let rest = inner.get(end..)?;
            // `inner` begins where `text` does: `start` is the tag's offset.
            return Some((rest.strip_prefix('\n').unwrap_or(rest), start));
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
    None
}

/// Reads one block line; `None` when it is not a line the runtime writes.
fn line(raw: &str) -> Option<Line<'_>> {
    let line = trim_cr(raw);
    if line.len() > MAX_LINE_BYTES || line.contains(['<', '>']) {
        return None;
    }
    let Some(rest) = line.strip_prefix(NETWORK_DENY) else {
        let what = line.strip_prefix(ANY_DENY)?;
        return (!what.trim().is_empty()).then_some(Line::Other);
    };
    let (target, tail) = rest.split_once(" (")?;
    let reason = tail.strip_suffix(')')?;
    let (host, port) = target.rsplit_once(':')?;
    let plain_host = !host.is_empty()
        && host.len() <= MAX_HOST_BYTES
        && !host.chars().any(|c| c.is_whitespace() || c.is_control());
    let port = parse_port(port)?;
    (plain_host && reason.chars().count() <= MAX_REASON_CHARS).then_some(Line::Network {
        host,
        port,
        target,
        reason,
    })
}

/// A port as the runtime writes it: 1 to 65535, decimal, no sign or leading zero.
fn parse_port(raw: &str) -> Option<u16> {
    let plain = !raw.is_empty()
        && raw.len() <= 5
        && raw.bytes().all(|b| b.is_ascii_digit())
        && !raw.starts_with('0');
    plain.then(|| raw.parse().ok()).flatten()
}

/// Every line of the block read, or `None` when one is not the runtime's;
/// returns (network lines, other lines). Allocates nothing.
fn tally(lines: &str) -> Option<(usize, usize)> {
    let (mut network, mut other) = (0, 0);
    for raw in lines.split('\n') {
        match line(raw)? {
            Line::Network { .. } => network += 1,
            Line::Other => other += 1,
        }
    }
    Some((network, other))
}

/// Reads the block at the end of `text`.
fn read(text: &str, carrier: Carrier) -> Option<Finding> {
    let (lines, open_at) = block(text)?;
    let (attempts, other_lines) = tally(lines)?;
    if attempts == 0 {
        return None;
    }
    let mut denials: Vec<Denial> = Vec::with_capacity(attempts.min(MAX_HOSTS));
    let mut more_hosts = false;
    for raw in lines.split('\n') {
        let Some(Line::Network {
            host,
            port,
            target,
            reason,
        }) = line(raw)
        else {
            continue;
        };
        let repeated = denials
            .iter()
            .any(|d| d.port == port && d.host.inspect().eq_ignore_ascii_case(host));
        if repeated {
            continue;
        }
        if denials.len() == MAX_HOSTS {
            more_hosts = true;
            continue;
        }
        denials.push(Denial {
            host: Untrusted::new(host),
            port,
            target: Untrusted::new(target),
            reason: Untrusted::new(reason),
            line: Untrusted::new(trim_cr(raw)),
        });
    }
    Some(Finding {
        denials,
        more_hosts,
        attempts,
        other_lines,
        carrier,
        block_bytes: text.len() - open_at,
    })
}

/// Recognizes the block closing a Bash call's output, failed or not; `None`
/// (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let carrier = match observation.outcome {
        Outcome::Failure(_) => Carrier::Failure,
        Outcome::Success(_) => Carrier::Success,
    };
    read(text(observation)?, carrier)
}

#[cfg(test)]
mod tests;
