//! The log being written: its sessions and agents, and one method per kind
//! of line.

use std::io::Write;

use anyhow::Result;
use serde_json::{Value, json};

use super::families::Shape;
use super::output::{COMMANDS, PROJECTS, WORDS, foreground, render, shell_output, source_text};
use super::rng::Rng;

const MODES: [&str; 3] = ["workspace-write", "read-only", "danger-full-access"];

/// A session: its id, workspace root and sandbox mode.
struct Session {
    id: String,
    cwd: String,
    mode: &'static str,
}

/// An agent: its id, its session (an index) and how many calls it made.
pub struct Agent {
    id: String,
    session: usize,
    calls: u64,
}

/// The generator's state: what has been announced so far.
pub struct Log<'w, W: Write> {
    out: &'w mut W,
    /// The generator's randomness.
    pub rng: Rng,
    /// Bytes written so far.
    pub written: u64,
    sessions: Vec<Session>,
    /// The agents started and not ended yet.
    pub agents: Vec<Agent>,
    next_agent: u64,
    /// The families' failure shapes ([`super::families::shapes`]).
    pub shapes: Vec<Shape>,
    /// Which of `shapes` has been written at least once.
    pub seen: Vec<bool>,
    /// How many family failures have been written.
    pub families_written: u64,
    /// The size asked for.
    budget: u64,
}

impl<'w, W: Write> Log<'w, W> {
    /// A log of about `budget` bytes to `out`, for `seed`, writing `shapes`.
    pub fn new(out: &'w mut W, seed: u64, budget: u64, shapes: Vec<Shape>) -> Self {
        let seen = vec![false; shapes.len()];
        Self {
            out,
            rng: Rng::new(seed),
            written: 0,
            sessions: Vec::new(),
            agents: Vec::new(),
            next_agent: 0,
            shapes,
            seen,
            families_written: 0,
            budget,
        }
    }

    /// Writes one protocol line.
    pub fn line(&mut self, value: &Value) -> Result<()> {
        let text = serde_json::to_string(value)?;
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.written += text.len() as u64 + 1;
        Ok(())
    }

    fn open_session(&mut self) -> Result<usize> {
        let n = self.sessions.len() + 1;
        let cwd = format!(r"D:\ws\{}", self.rng.pick(&PROJECTS));
        let mode = if self.rng.chance(80) {
            MODES[0]
        } else {
            *self.rng.pick(&MODES[1..])
        };
        let id = format!("s{n}");
        self.line(&json!({"type": "session", "session": id, "cwd": cwd}))?;
        self.line(&json!({"type": "sandbox-mode", "session": id, "mode": mode}))?;
        self.sessions.push(Session { id, cwd, mode });
        Ok(self.sessions.len() - 1)
    }

    /// Starts an agent, in a new session or a known one.
    pub fn start_agent(&mut self) -> Result<usize> {
        let session = if self.sessions.is_empty() || self.rng.chance(15) {
            self.open_session()?
        } else {
            self.rng.index(self.sessions.len())
        };
        self.next_agent += 1;
        let id = format!("a{}", self.next_agent);
        let sid = self.sessions[session].id.clone();
        self.line(&json!({"type": "session-start", "agent": id, "session": sid}))?;
        self.agents.push(Agent {
            id,
            session,
            calls: 0,
        });
        Ok(self.agents.len() - 1)
    }

    /// An agent to act: usually a live one, sometimes a new one.
    pub fn agent(&mut self) -> Result<usize> {
        if self.agents.len() < 3 || self.rng.chance(3) {
            return self.start_agent();
        }
        Ok(self.rng.index(self.agents.len()))
    }

    fn call_head(&mut self, agent: usize, kind: &str, tool: &str, args: Value) -> Value {
        let a = &mut self.agents[agent];
        a.calls += 1;
        let session = &self.sessions[a.session];
        json!({
            "type": kind, "agent": a.id, "session": session.id,
            "call": format!("{}-c{}", a.id, a.calls), "tool": tool, "args": args,
        })
    }

    fn post(
        &mut self,
        agent: usize,
        tool: &str,
        args: Value,
        outcome: (&str, Value),
    ) -> Result<()> {
        let mut line = self.call_head(agent, "post", tool, args);
        line[outcome.0] = outcome.1;
        self.line(&line)
    }

    /// An ordinary shell result whose rendered text is about `size` bytes.
    pub fn ordinary(&mut self, agent: usize, size: usize) -> Result<()> {
        let (tool, command, stdout, stderr, exit) = shell_output(&mut self.rng, size);
        let mode = self.sessions[self.agents[agent].session].mode;
        let stamp = if mode == "danger-full-access" {
            json!({"mode": mode, "denied": false})
        } else {
            json!({"mode": mode, "denied": false, "enforcement": "partial"})
        };
        let value = foreground(exit, &stdout, &stderr, Some(stamp));
        let content = render(&stdout, &stderr, exit, None);
        self.post(
            agent,
            tool,
            json!({ "command": command }),
            ("result", json!({"value": value, "content": content})),
        )
    }

    /// A file read: a non-shell tool with its own value shape.
    pub fn read_file(&mut self, agent: usize, size: usize) -> Result<()> {
        let cwd = self.sessions[self.agents[agent].session].cwd.clone();
        let path = format!(r"{cwd}\src\{}.rs", self.rng.pick(&WORDS));
        let text = source_text(&mut self.rng, size);
        self.post(
            agent,
            "read_file",
            json!({ "path": path }),
            (
                "result",
                json!({"value": {"path": path, "content": text}, "content": text}),
            ),
        )
    }

    /// A failure that is no family's: the everyday errors of a harness.
    pub fn ordinary_failure(&mut self, agent: usize) -> Result<()> {
        let cwd = self.sessions[self.agents[agent].session].cwd.clone();
        let message = match self.rng.below(5) {
            0 => format!(r"ENOENT: no such file or directory, open '{cwd}\missing.txt'"),
            1 => "tool call aborted".to_owned(),
            2 => "the user rejected tool \"bash\"".to_owned(),
            3 => "persistent bash shell did not accept initialization".to_owned(),
            _ => format!("command timed out after 120000ms: npm test --prefix {cwd}"),
        };
        let content = format!("Error: {message}");
        self.post(
            agent,
            "bash",
            json!({"command": "npm test"}),
            ("error", json!({"message": message, "content": content})),
        )
    }

    /// One failure of the family `shapes[shape]`, from its producer sample
    /// (nothing when there is no such shape).
    pub fn family(&mut self, agent: usize, shape: usize) -> Result<()> {
        let cwd = &self.sessions[self.agents[agent].session].cwd;
        let Some(post) = self.shapes.get(shape).map(|s| s.post(&mut self.rng, cwd)) else {
            return Ok(());
        };
        if let Some(seen) = self.seen.get_mut(shape) {
            *seen = true;
        }
        self.families_written += 1;
        self.post(agent, &post.tool, post.args, post.outcome)
    }

    /// A `pre` line: a call about to run.
    pub fn pre(&mut self, agent: usize) -> Result<()> {
        let command = self.rng.pick(&COMMANDS).0;
        let line = self.call_head(agent, "pre", "pwsh", json!({ "command": command }));
        self.line(&line)
    }

    /// Ends a random live agent.
    pub fn end_agent(&mut self) -> Result<()> {
        let i = self.rng.index(self.agents.len());
        let agent = self.agents.swap_remove(i);
        self.line(&json!({"type": "agent-end", "agent": agent.id}))
    }

    /// The size of the next ordinary result: mostly small, sometimes large,
    /// and never more than `room` bytes of log allows.
    pub fn result_size(&mut self, room: u64) -> usize {
        let roll = self.rng.below(1000);
        let (lo, hi) = match roll {
            0..=699 => (40, 600),
            700..=949 => (600, 8 * 1024),
            950..=994 => (8 * 1024, 64 * 1024),
            _ => (64 * 1024, 512 * 1024),
        };
        let size = lo + self.rng.below(hi - lo);
        // The rendered text travels twice (stdout and content): keep the line within what is left.
        // and no single result takes more than a 64th of the whole log.
        let cap = (room / 2).saturating_sub(600).min(self.budget / 64);
        usize::try_from(size.min(cap)).unwrap_or(0)
    }
}
