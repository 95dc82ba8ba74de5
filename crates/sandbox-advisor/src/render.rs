//! The two ways a stream's decisions are written: JSON lines for programs, text for people.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use advisor_core::quote::{escaped, is_visible};
use advisor_core::{AgentId, Seat, Withheld};

use crate::engine::Decision;
use crate::protocol::{Output, PROTOCOL_VERSION, RefusalOut, WithheldOut};
use crate::withheld::{Told, reason_text};

/// What a stream amounted to, for the closing tally.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Valid events.
    pub events: u64,
    /// Lines that could not be used.
    pub invalid: u64,
    /// Advisories delivered, by family.
    pub advisories: BTreeMap<&'static str, u64>,
    /// Advisories withheld (first disclosures), by family.
    pub withheld: BTreeMap<&'static str, u64>,
    /// Calls refused before dispatch.
    pub refused: u64,
}

impl Tally {
    /// Counts one decision.
    pub fn count(&mut self, decision: &Decision) {
        for a in &decision.advisories {
            *self.advisories.entry(a.family.as_str()).or_default() += 1;
        }
        for w in &decision.withheld {
            *self.withheld.entry(w.family.as_str()).or_default() += 1;
        }
        if decision.refusal.is_some() {
            self.refused += 1;
        }
    }

    /// The tally block, one fact per line.
    pub fn render(&self) -> String {
        let by_family = |m: &BTreeMap<&str, u64>| {
            let total: u64 = m.values().sum();
            let parts: Vec<String> = m.iter().map(|(f, n)| format!("{f} {n}")).collect();
            if parts.is_empty() {
                total.to_string()
            } else {
                format!("{total} ({})", parts.join(", "))
            }
        };
        format!(
            "── tally ──\nevents      {}\nadvisories  {}\nwithheld    {}\nrefused     {}\ninvalid     {}\n",
            self.events,
            by_family(&self.advisories),
            by_family(&self.withheld),
            self.refused,
            self.invalid
        )
    }
}

/// Where a stream's results go.
pub trait Sink {
    /// Before the first line: a header, if the format has one.
    fn start(&mut self) -> io::Result<()> {
        Ok(())
    }
    /// The answer to a `hello` line.
    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()>;
    /// A decision; `told` says, for each of its withheld advisories, whether
    /// this is the first time its session hears it (see [`crate::withheld`]).
    fn decision(&mut self, seq: u64, decision: &Decision, told: &[Told]) -> io::Result<()>;
    /// A line that could not be used.
    fn error(&mut self, seq: u64, error: &str) -> io::Result<()>;
    /// The end of the stream.
    fn finish(&mut self, tally: &Tally) -> io::Result<()>;
}

/// The protocol's JSON lines, flushed one by one.
pub struct JsonSink<W>(pub W);

impl<W: Write> JsonSink<W> {
    fn line(&mut self, output: &Output<'_>) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, output)?;
        self.0.write_all(b"\n")?;
        self.0.flush()
    }
}

/// The output line for one decision (also `explain --format json`'s one line).
pub fn decision_line(seq: u64, d: &Decision) -> Output<'_> {
    Output::Decision {
        seq,
        kind: d.hook.as_str(),
        agent: d.agent.as_ref().map(AgentId::as_str),
        call: d.call.as_ref().map(|(c, _)| c.as_str()),
        advisories: &d.advisories,
        withheld: d
            .withheld
            .iter()
            .map(|w| WithheldOut {
                family: w.family.as_str(),
                reason: w.reason.code(),
                diagnosis: w.diagnosis,
            })
            .collect(),
        refusal: d.refusal.as_ref().map(|r| RefusalOut {
            family: r.family.as_str(),
            reason: &r.reason,
        }),
    }
}

impl<W: Write> Sink for JsonSink<W> {
    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()> {
        self.line(&Output::Hello {
            seq,
            kind: "hello",
            protocol: PROTOCOL_VERSION,
            families,
        })
    }

    fn decision(&mut self, seq: u64, d: &Decision, _told: &[Told]) -> io::Result<()> {
        self.line(&decision_line(seq, d))
    }

    fn error(&mut self, seq: u64, error: &str) -> io::Result<()> {
        self.line(&Output::Error { seq, error })
    }

    fn finish(&mut self, _tally: &Tally) -> io::Result<()> {
        self.0.flush()
    }
}

/// A readable account for a terminal: a header naming the input and the
/// configuration, each advisory under a header naming the line, agent, call
/// and family; withheld and refused lines; a closing tally. Every value the
/// advisor did not write goes through [`escaped`].
pub struct TextSink<W> {
    out: W,
    header: String,
    detail: bool,
}

impl<W: Write> TextSink<W> {
    /// A sink that writes `header` (one line, already escaped) first.
    pub fn new(out: W, header: String) -> Self {
        Self {
            out,
            header,
            detail: false,
        }
    }

    /// Shows each advisory's full account after its brief (`replay --detail`).
    pub fn with_detail(mut self, detail: bool) -> Self {
        self.detail = detail;
        self
    }
}

/// What a text report's header says about its input and configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// `--config FILE`, or the `<stem>.config.json` beside the session.
    File {
        /// The file.
        path: std::path::PathBuf,
        /// The syntax it was read with.
        format: crate::config::Format,
    },
    /// A session file with no configuration beside it.
    NoneBeside,
    /// Stdin, where the `<stem>.config.json` convention cannot apply.
    Stdin,
}

/// The text report's first line: `replaying NAME — CONFIG; SETTINGS`.
pub fn header(input: Option<&std::path::Path>, source: &ConfigSource, settings: &str) -> String {
    let name = input.map_or_else(|| "stdin".to_owned(), crate::config::shown);
    let config = match source {
        ConfigSource::File { path, format } => {
            format!("config {} ({format})", crate::config::shown(path))
        }
        ConfigSource::NoneBeside => "no config (none beside the file)".to_owned(),
        ConfigSource::Stdin => "no config (stdin)".to_owned(),
    };
    format!("replaying {name} — {config}; {settings}\n")
}

const INDENT: &str = "    ";

/// A line of advisory text, which the families rendered: any invisible
/// character left in it is escaped as [`escaped`] would, so nothing in it
/// reaches the terminal raw, whatever its length.
fn visible_line(line: &str) -> Cow<'_, str> {
    if line.chars().all(is_visible) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut one = [0u8; 4];
    for c in line.chars() {
        if is_visible(c) {
            out.push(c);
        } else {
            let _ = write!(out, "{}", escaped(c.encode_utf8(&mut one)));
        }
    }
    Cow::Owned(out)
}

fn indented(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.trim_end().lines() {
        if !line.trim().is_empty() {
            out.push_str(INDENT);
            out.push_str(&visible_line(line));
        }
        out.push('\n');
    }
    out
}

fn what(d: &Decision) -> String {
    let agent = shown_agent(d.agent.as_ref());
    match &d.call {
        Some((call, tool)) => format!(
            "{agent} · call {} ({})",
            escaped(call.as_str()),
            escaped(tool.as_str())
        ),
        None => format!("{agent} · session start"),
    }
}

/// An agent id as the text report shows it (escaped), or that there was none.
fn shown_agent(agent: Option<&AgentId>) -> String {
    match agent {
        Some(agent) => escaped(agent.as_str()).to_string(),
        None => "(no agent)".to_owned(),
    }
}

fn withheld_line(seq: u64, agent: Option<&AgentId>, w: &Withheld, told: Told) -> String {
    let seat = match w.seat {
        Seat::Preflight => " (pre-flight)",
        Seat::Failure => "",
    };
    let reason = match told {
        Told::First => reason_text(&w.reason),
        Told::Again { at } => format!("{}, as told at #{at} for this session", w.reason.code()),
    };
    format!(
        "#{seq} withheld {} for {}{seat}: {reason}\n",
        w.family,
        shown_agent(agent),
    )
}

impl<W: Write> Sink for TextSink<W> {
    fn start(&mut self) -> io::Result<()> {
        self.out.write_all(self.header.as_bytes())?;
        self.out.flush()
    }

    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()> {
        writeln!(
            self.out,
            "#{seq} hello: protocol {PROTOCOL_VERSION}, {} families",
            families.len()
        )
    }

    fn decision(&mut self, seq: u64, d: &Decision, told: &[Told]) -> io::Result<()> {
        let mut out = String::new();
        for (i, w) in d.withheld.iter().enumerate() {
            let told = told.get(i).copied().unwrap_or(Told::First);
            out.push_str(&withheld_line(seq, d.agent.as_ref(), w, told));
        }
        for a in &d.advisories {
            let _ = write!(
                out,
                "\n━━ #{seq} {} → {}\n{}\n\n{}",
                what(d),
                a.family,
                escaped(a.summary.as_str()),
                indented(&a.text)
            );
            if self.detail && a.detail != a.text {
                let _ = write!(out, "\n\n── full account\n\n{}", indented(&a.detail));
            }
        }
        if let Some(r) = &d.refusal {
            let _ = write!(
                out,
                "\n━━ #{seq} {} refused before dispatch by {}\n{}",
                what(d),
                r.family,
                indented(&r.reason)
            );
        }
        if out.is_empty() {
            return Ok(());
        }
        self.out.write_all(out.as_bytes())?;
        self.out.flush()
    }

    fn error(&mut self, seq: u64, error: &str) -> io::Result<()> {
        writeln!(self.out, "#{seq} invalid line: {}", escaped(error))?;
        self.out.flush()
    }

    fn finish(&mut self, tally: &Tally) -> io::Result<()> {
        write!(self.out, "\n{}", tally.render())?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_derived_text_cannot_drive_the_terminal() {
        assert_eq!(indented("x\u{7}y\n\nz"), "    x\\u{7}y\n\n    z\n");
        assert_eq!(
            visible_line("a1\u{1b}[2J\u{202e}b"),
            "a1\\u{1B}[2J\\u{202E}b"
        );
        let long = format!("{}\u{1b}", "x".repeat(1000));
        assert!(visible_line(&long).ends_with("x\\u{1B}"), "not capped");
    }

    #[test]
    fn the_header_names_input_and_configuration_escaped() {
        let evil = std::path::Path::new("s\n2026 WARN forged\u{1b}[2J.jsonl");
        assert_eq!(
            header(
                Some(evil),
                &ConfigSource::NoneBeside,
                "defaultMode read-only"
            ),
            "replaying s\\n2026 WARN forged\\u{1B}[2J.jsonl — no config (none beside the file); defaultMode read-only\n"
        );
        assert_eq!(
            header(None, &ConfigSource::Stdin, "fail-fast off"),
            "replaying stdin — no config (stdin); fail-fast off\n"
        );
    }
}
