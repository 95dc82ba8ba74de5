//! The two ways a stream's decisions are written: JSON lines for programs, text for people.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use advisor_core::{Seat, Withheld};

use crate::engine::Decision;
use crate::protocol::{Output, PROTOCOL_VERSION, RefusalOut, WithheldOut};

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
    /// The answer to a `hello` line.
    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()>;
    /// A decision.
    fn decision(&mut self, seq: u64, decision: &Decision) -> io::Result<()>;
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

impl<W: Write> Sink for JsonSink<W> {
    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()> {
        self.line(&Output::Hello {
            seq,
            kind: "hello",
            protocol: PROTOCOL_VERSION,
            families,
        })
    }

    fn decision(&mut self, seq: u64, d: &Decision) -> io::Result<()> {
        self.line(&Output::Decision {
            seq,
            kind: d.hook.as_str(),
            agent: d.agent.as_str(),
            call: d.call.as_ref().map(|(c, _)| c.as_str()),
            advisories: &d.advisories,
            withheld: d
                .withheld
                .iter()
                .map(|w| WithheldOut {
                    family: w.family.as_str(),
                    reason: w.reason.code(),
                })
                .collect(),
            refusal: d.refusal.as_ref().map(|r| RefusalOut {
                family: r.family.as_str(),
                reason: &r.reason,
            }),
        })
    }

    fn error(&mut self, seq: u64, error: &str) -> io::Result<()> {
        self.line(&Output::Error { seq, error })
    }

    fn finish(&mut self, _tally: &Tally) -> io::Result<()> {
        self.0.flush()
    }
}

/// A readable account for a terminal: each advisory under a header naming the
/// line, agent, call and family; withheld and refused lines; a closing tally.
pub struct TextSink<W>(pub W);

const INDENT: &str = "    ";

/// Input-derived text on a terminal: control characters (an escape sequence in
/// an agent id, a newline in a quoted value) are shown as `�`, never executed.
fn printable(text: &str) -> Cow<'_, str> {
    if text.chars().any(char::is_control) {
        Cow::Owned(
            text.chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

fn indented(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.trim_end().lines() {
        if !line.trim().is_empty() {
            out.push_str(INDENT);
            out.push_str(&printable(line));
        }
        out.push('\n');
    }
    out
}

fn what(d: &Decision) -> String {
    let agent = printable(d.agent.as_str());
    match &d.call {
        Some((call, tool)) => format!(
            "{agent} · call {} ({})",
            printable(call.as_str()),
            printable(tool.as_str())
        ),
        None => format!("{agent} · session start"),
    }
}

fn withheld_line(seq: u64, agent: &str, w: &Withheld) -> String {
    let seat = match w.seat {
        Seat::Preflight => " (pre-flight)",
        Seat::Failure => "",
    };
    format!(
        "#{seq} withheld {} for {}{seat}: {} — {}\n",
        w.family,
        printable(agent),
        w.reason.code(),
        printable(&w.reason.to_string())
    )
}

impl<W: Write> Sink for TextSink<W> {
    fn hello(&mut self, seq: u64, families: Vec<&'static str>) -> io::Result<()> {
        writeln!(
            self.0,
            "#{seq} hello: protocol {PROTOCOL_VERSION}, {} families",
            families.len()
        )
    }

    fn decision(&mut self, seq: u64, d: &Decision) -> io::Result<()> {
        let mut out = String::new();
        for w in &d.withheld {
            out.push_str(&withheld_line(seq, d.agent.as_str(), w));
        }
        for a in &d.advisories {
            out.push_str(&format!(
                "\n━━ #{seq} {} → {}\n{}\n\n{}",
                what(d),
                a.family,
                printable(a.summary.as_str()),
                indented(&a.text)
            ));
        }
        if let Some(r) = &d.refusal {
            out.push_str(&format!(
                "\n━━ #{seq} {} refused before dispatch by {}\n{}",
                what(d),
                r.family,
                indented(&r.reason)
            ));
        }
        if out.is_empty() {
            return Ok(());
        }
        self.0.write_all(out.as_bytes())?;
        self.0.flush()
    }

    fn error(&mut self, seq: u64, error: &str) -> io::Result<()> {
        writeln!(self.0, "#{seq} invalid line: {}", printable(error))?;
        self.0.flush()
    }

    fn finish(&mut self, tally: &Tally) -> io::Result<()> {
        write!(self.0, "\n{}", tally.render())?;
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_derived_text_cannot_drive_the_terminal() {
        assert_eq!(
            printable("a1\u{1b}[2J\r\nb"),
            "a1\u{fffd}[2J\u{fffd}\u{fffd}b"
        );
        assert_eq!(indented("x\u{7}y\n\nz"), "    x\u{fffd}y\n\n    z\n");
    }
}
