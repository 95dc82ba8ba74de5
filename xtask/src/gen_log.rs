//! `cargo xtask gen-log --bytes N [--out FILE] [--seed S]`: a realistic mixed
//! event log in the CLI's line protocol (`docs/protocol.md`), for load tests,
//! fuzz seeds and `replay` timings.
//!
//! What it writes: a `hello` and a Windows `host` line, then sessions (each
//! with its `cwd` and a `sandbox-mode`, mostly `workspace-write`) and many
//! agents in them (`session-start` … `agent-end`), and mostly ordinary
//! successful shell results of varied sizes (git, cargo, npm, pytest and
//! PowerShell outputs, file reads, greps), with `pre` lines and ordinary
//! failures sprinkled in. About one post in forty is a failure of one of the
//! seven families, built from the producer's exact shape
//! (`/work/shared/reference/producers.md`); each family appears at least once
//! when `N` is at least 16 KiB.
//!
//! The output is deterministic for a seed (a xorshift generator, no `rand`),
//! and its size is `N` within a few hundred bytes (the last line may overshoot).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

/// Arguments of `cargo xtask gen-log`.
#[derive(Debug, clap::Args)]
pub struct GenLogArgs {
    /// Size to write, in bytes; `K`, `M` and `G` suffixes are binary (`64M`).
    #[arg(long, value_parser = parse_size)]
    pub bytes: u64,
    /// Write here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The generator's seed; the same seed and size give the same log.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the task.
pub fn main(args: GenLogArgs) -> Result<ExitCode> {
    let written = match &args.out {
        Some(path) => {
            let file = File::create(path).with_context(|| format!("{}", path.display()))?;
            let mut out = BufWriter::new(file);
            let n = generate(args.bytes, args.seed, &mut out)?;
            out.flush()?;
            n
        }
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let n = generate(args.bytes, args.seed, &mut out)?;
            out.flush()?;
            n
        }
    };
    if let Some(path) = &args.out {
        eprintln!("gen-log: {written} bytes to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `123`, `64K`, `10M`, `1G` (binary multiples).
fn parse_size(raw: &str) -> Result<u64> {
    let raw = raw.trim();
    let (digits, unit) = match raw.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => raw.split_at(i),
        None => (raw, ""),
    };
    let scale: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        other => bail!("unknown size unit `{other}` (use K, M or G)"),
    };
    let n: u64 = digits
        .parse()
        .with_context(|| format!("`{raw}` is not a size"))?;
    n.checked_mul(scale)
        .with_context(|| format!("`{raw}` is too large"))
}

/// xorshift64*: tiny, deterministic, good enough to pick shapes and sizes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // Never zero (a xorshift state of zero stays zero).
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The longest family line this generator writes (the CIM record is the longest), with margin.
const FAMILY_LINE_MAX: u64 = 2048;

/// Below this many bytes left, only short lines are written.
const TAIL: u64 = 1200;

/// The seven families, in the order their forced first appearance is spread over the log.
const FAMILIES: [Family; 7] = [
    Family::Acl,
    Family::AclAggregate,
    Family::TempRoot,
    Family::Pty,
    Family::NativeInit,
    Family::Cim,
    Family::WorkspaceDenial,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Acl,
    AclAggregate,
    TempRoot,
    Pty,
    NativeInit,
    Cim,
    WorkspaceDenial,
}

const UNAVAILABLE: &str = "sandbox mode \"workspace-write\" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: ";
const CIM_RECORD: &str = "Get-CimInstance : Access is denied. \r\n+ CategoryInfo          : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\r\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand\r\n";
const DENIAL_MARKER: &str = "[sandbox: file access denied under workspace-write mode]\n[sandbox: escalation available — retry this exact command once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]";
const MODES: [&str; 3] = ["workspace-write", "read-only", "danger-full-access"];

struct Session {
    id: String,
    cwd: String,
    mode: &'static str,
}

struct Agent {
    id: String,
    session: usize,
    calls: u64,
}

/// The generator's state: what has been announced so far.
struct Log<'w, W: Write> {
    out: &'w mut W,
    rng: Rng,
    written: u64,
    sessions: Vec<Session>,
    agents: Vec<Agent>,
    next_agent: u64,
    seen: [bool; 7],
    /// The size asked for.
    budget: u64,
}

impl<W: Write> Log<'_, W> {
    fn line(&mut self, value: &Value) -> Result<()> {
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

    fn start_agent(&mut self) -> Result<usize> {
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
    fn agent(&mut self) -> Result<usize> {
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
    fn ordinary(&mut self, agent: usize, size: usize) -> Result<()> {
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
    fn read_file(&mut self, agent: usize, size: usize) -> Result<()> {
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
    fn ordinary_failure(&mut self, agent: usize) -> Result<()> {
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

    /// One failure of `family`, in the producer's exact shape.
    fn family(&mut self, agent: usize, family: Family) -> Result<()> {
        self.seen[family as usize] = true;
        let cwd = self.sessions[self.agents[agent].session].cwd.clone();
        let failure = |message: String, members: Vec<String>| {
            let content = format!("Error: {message}");
            (
                "error",
                json!({"message": message, "members": members, "content": content}),
            )
        };
        let shell = |exit: i64, stdout: &str, stderr: &str, stamp: Value, marker: Option<&str>| {
            let content = render(stdout, stderr, exit, marker);
            let value = foreground(exit, stdout, stderr, Some(stamp));
            ("result", json!({"value": value, "content": content}))
        };
        let ww = |denied: bool| json!({"mode": "workspace-write", "denied": denied, "enforcement": "partial"});
        let args = json!({"command": "Get-ChildItem"});
        match family {
            Family::Acl => {
                let line = format!(r"SetNamedSecurityInfoW failed (Win32 5): grantWrite({cwd})");
                let message = if self.rng.chance(20) {
                    format!("{UNAVAILABLE}windows-acl-run: {line}")
                } else {
                    line
                };
                self.post(agent, "pwsh", args, failure(message, Vec::new()))
            }
            Family::AclAggregate => {
                let member = format!(
                    r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\Users\dev\AppData\Local\Temp\dsh-{:06x})",
                    self.rng.below(1 << 24)
                );
                let message = "sandbox-local windows-acl temp grant materialization failed and its cleanup also failed";
                let members = vec![
                    member,
                    "AclWriteGrant dispose completed with 1 cleanup failure(s)".to_owned(),
                ];
                self.post(agent, "bash", args, failure(message.to_owned(), members))
            }
            Family::TempRoot => {
                let message = format!(
                    r"Windows ACL temp root must be outside the workspace: workspace={cwd}; temp={cwd}\.tmp"
                );
                self.post(agent, "pwsh", args, failure(message, Vec::new()))
            }
            Family::Pty => {
                let message = "PTY shell exited during startup".to_owned();
                let tool = *self.rng.pick(&["bash-persistent", "pwsh-persistent"]);
                self.post(agent, tool, args, failure(message, Vec::new()))
            }
            Family::NativeInit => {
                let exit = if self.rng.chance(50) {
                    -1_073_741_502
                } else {
                    3_221_225_794
                };
                let args = json!({"command": r#"D:\Git\bin\bash.exe -c "echo bash-ok""#});
                let stderr =
                    "      0 [main] bash (1234) couldn't create signal pipe, Win32 error 5\n";
                self.post(
                    agent,
                    "pwsh",
                    args,
                    shell(exit, "", stderr, ww(false), None),
                )
            }
            Family::Cim => {
                let args = json!({"command": "Get-CimInstance Win32_OperatingSystem"});
                self.post(
                    agent,
                    "pwsh",
                    args,
                    shell(1, "", CIM_RECORD, ww(true), Some(DENIAL_MARKER)),
                )
            }
            Family::WorkspaceDenial => {
                let args = json!({
                    "command": format!(r"Set-Content -Path {cwd}\node_modules\.cache\state.json -Value x")
                });
                let stderr = format!(
                    "Set-Content : Access to the path '{cwd}\\node_modules\\.cache\\state.json' is denied.\r\n"
                );
                self.post(
                    agent,
                    "pwsh",
                    args,
                    shell(1, "", &stderr, ww(true), Some(DENIAL_MARKER)),
                )
            }
        }
    }

    fn pre(&mut self, agent: usize) -> Result<()> {
        let command = self.rng.pick(&COMMANDS).0;
        let line = self.call_head(agent, "pre", "pwsh", json!({ "command": command }));
        self.line(&line)
    }

    fn end_agent(&mut self) -> Result<()> {
        let i = self.rng.index(self.agents.len());
        let agent = self.agents.swap_remove(i);
        self.line(&json!({"type": "agent-end", "agent": agent.id}))
    }

    /// The size of the next ordinary result: mostly small, sometimes large,
    /// and never more than `room` bytes of log allows.
    fn result_size(&mut self, room: u64) -> usize {
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

/// Writes about `bytes` bytes of log to `out`; returns what was written.
pub fn generate(bytes: u64, seed: u64, out: &mut impl Write) -> Result<u64> {
    let mut log = Log {
        out,
        rng: Rng::new(seed),
        written: 0,
        sessions: Vec::new(),
        agents: Vec::new(),
        next_agent: 0,
        seen: [false; 7],
        budget: bytes,
    };
    log.line(&json!({"type": "hello", "protocol": 1}))?;
    log.line(&json!({
        "type": "host", "platform": "win32", "electron": false,
        "tmpdir": r"C:\Users\dev\AppData\Local\Temp",
    }))?;
    while log.written < bytes {
        let remaining = bytes - log.written;
        // Room kept for the families not seen yet, so a long result cannot crowd them out.
        let unseen = log.seen.iter().filter(|s| !**s).count() as u64;
        let reserve = unseen * FAMILY_LINE_MAX;
        // Each family not seen yet is forced in by the end of its eighth of the log.
        let due = FAMILIES.iter().enumerate().find(|(i, _)| {
            !log.seen[*i]
                && (log.written * 8 >= bytes.saturating_mul(*i as u64 + 1)
                    || remaining <= reserve + TAIL)
        });
        if let Some((_, family)) = due {
            let agent = log.agent()?;
            log.family(agent, *family)?;
            continue;
        }
        if remaining < TAIL {
            // The tail: small lines only, so the total lands close to `bytes`.
            if log.agents.is_empty() {
                log.start_agent()?;
            } else {
                log.end_agent()?;
            }
            continue;
        }
        let agent = log.agent()?;
        let room = remaining.saturating_sub(reserve + TAIL);
        match log.rng.below(100) {
            0..=2 => {
                let family = *log.rng.pick(&FAMILIES);
                log.family(agent, family)?;
            }
            3..=5 => log.ordinary_failure(agent)?,
            6..=11 => log.pre(agent)?,
            12..=13 => log.end_agent()?,
            14..=21 => {
                let size = log.result_size(room);
                log.read_file(agent, size)?;
            }
            _ => {
                let size = log.result_size(room);
                log.ordinary(agent, size)?;
            }
        }
    }
    Ok(log.written)
}

fn foreground(exit: i64, stdout: &str, stderr: &str, sandbox: Option<Value>) -> Value {
    let mut v = json!({
        "kind": "foreground", "exitCode": exit, "signal": null, "timedOut": false,
        "aborted": false, "timeoutMs": 120000,
        "stdout": {"text": stdout, "truncated": false},
        "stderr": {"text": stderr, "truncated": false},
    });
    if let (Some(sandbox), Some(map)) = (sandbox, v.as_object_mut()) {
        map.insert("sandbox".into(), sandbox);
    }
    v
}

/// The shell tools' rendering: body, `[stderr]`, markers, the exit marker last.
fn render(stdout: &str, stderr: &str, exit: i64, marker: Option<&str>) -> String {
    let mut out = String::with_capacity(stdout.len() + stderr.len() + 64);
    out.push_str(stdout);
    if !stderr.is_empty() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("[stderr]\n");
        out.push_str(stderr);
    }
    if out.is_empty() {
        out.push_str("(no output)");
    }
    if let Some(marker) = marker {
        out.push('\n');
        out.push_str(marker);
    }
    if exit != 0 {
        out.push_str(&format!("\n[exit code: {exit}]"));
    }
    out
}

const PROJECTS: [&str; 8] = [
    "app", "api", "web", "infra", "docs", "tools", "sdk", "mobile",
];
const WORDS: [&str; 16] = [
    "config", "server", "client", "parser", "render", "index", "util", "model", "store", "router",
    "cache", "auth", "queue", "worker", "schema", "view",
];

/// Commands and the kind of output each prints.
const COMMANDS: [(&str, Kind); 9] = [
    ("git status", Kind::GitStatus),
    ("cargo build", Kind::Cargo),
    ("npm test", Kind::Npm),
    ("python -m pytest -q", Kind::Pytest),
    ("Get-ChildItem -Recurse src", Kind::Listing),
    ("rg -n TODO", Kind::Grep),
    ("Get-Content logs\\app.log -Tail 200", Kind::Log),
    ("git log --oneline -n 50", Kind::GitLog),
    ("cargo test", Kind::CargoTest),
];

#[derive(Debug, Clone, Copy)]
enum Kind {
    GitStatus,
    Cargo,
    Npm,
    Pytest,
    Listing,
    Grep,
    Log,
    GitLog,
    CargoTest,
}

/// A command, its stdout and stderr of about `size` bytes, and its exit code.
fn shell_output(rng: &mut Rng, size: usize) -> (&'static str, &'static str, String, String, i64) {
    let (command, kind) = *rng.pick(&COMMANDS);
    let tool = if rng.chance(60) { "pwsh" } else { "bash" };
    let failed = rng.chance(8);
    let mut stdout = String::with_capacity(size + 128);
    let mut n = 0u64;
    while stdout.len() < size {
        n += 1;
        let w = *rng.pick(&WORDS);
        let line = match kind {
            Kind::GitStatus => format!("\tmodified:   src/{w}/{w}_{n}.rs"),
            Kind::Cargo => format!("   Compiling {w}-{n} v0.{}.{}", rng.below(9), rng.below(20)),
            Kind::Npm => format!("  PASS  src/{w}.test.ts ({} ms)", rng.below(900) + 5),
            Kind::Pytest => format!("tests/test_{w}.py::test_{w}_{n} PASSED"),
            Kind::Listing => format!(
                "-a---          11/{:02}/2026  {:2}:{:02} PM  {:>10} {w}_{n}.rs",
                rng.below(28) + 1,
                rng.below(12) + 1,
                rng.below(60),
                rng.below(90_000)
            ),
            Kind::Grep => format!(
                "src/{w}.rs:{}:    // TODO: {w} handles {n} cases",
                rng.below(900)
            ),
            Kind::Log => format!(
                "2026-11-29T10:{:02}:{:02}.{:03}Z INFO {w}: request {n} served in {}ms",
                rng.below(60),
                rng.below(60),
                rng.below(1000),
                rng.below(400)
            ),
            Kind::GitLog => format!("{:07x} {w}: handle {n} more cases", rng.below(1 << 28)),
            Kind::CargoTest => format!("test {w}::tests::case_{n} ... ok"),
        };
        stdout.push_str(&line);
        stdout.push('\n');
    }
    let stderr = if failed {
        match kind {
            Kind::Npm | Kind::Pytest | Kind::CargoTest => {
                "1 test failed: expected 200, received 500\n".to_owned()
            }
            _ => "warning: some files could not be read\n".to_owned(),
        }
    } else {
        String::new()
    };
    (tool, command, stdout, stderr, i64::from(failed))
}

/// About `size` bytes of plausible source code.
fn source_text(rng: &mut Rng, size: usize) -> String {
    let mut out = String::with_capacity(size + 64);
    while out.len() < size {
        let (a, b) = (*rng.pick(&WORDS), *rng.pick(&WORDS));
        out.push_str(&format!(
            "pub fn {a}_{b}(input: &str) -> Option<usize> {{\n    input.find(\"{b}\")\n}}\n\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(bytes: u64, seed: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let written = generate(bytes, seed, &mut out).unwrap();
        assert_eq!(written, out.len() as u64);
        out
    }

    #[test]
    fn size_is_within_five_percent() {
        for (bytes, seed) in [(16 * 1024, 1), (100_000, 2), (1 << 20, 3), (4 << 20, 4)] {
            let len = log(bytes, seed).len() as f64;
            let want = bytes as f64;
            assert!(
                (len - want).abs() <= want * 0.05,
                "{len} bytes for --bytes {bytes} --seed {seed}"
            );
        }
    }

    #[test]
    fn every_line_is_a_protocol_object() {
        let text = String::from_utf8(log(1 << 20, 7)).unwrap();
        let types = [
            "hello",
            "host",
            "session",
            "sandbox-mode",
            "session-start",
            "post",
            "pre",
            "agent-end",
        ];
        let mut seen = std::collections::BTreeSet::new();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let kind = v["type"].as_str().unwrap();
            assert!(types.contains(&kind), "{kind}");
            seen.insert(kind.to_owned());
            if kind == "post" {
                assert!(
                    v.get("error").is_some() != v.get("result").is_some(),
                    "{line}"
                );
            }
        }
        assert_eq!(seen.len(), types.len(), "{seen:?}");
    }

    #[test]
    fn every_family_shape_appears() {
        for (bytes, seed) in [(16 * 1024, 11), (256 * 1024, 12)] {
            let text = String::from_utf8(log(bytes, seed)).unwrap();
            for marker in [
                r#""message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite("#,
                r#""message":"sandbox-local windows-acl temp grant materialization failed"#,
                r#""message":"Windows ACL temp root must be outside the workspace: workspace="#,
                r#""message":"PTY shell exited during startup""#,
                r#""exitCode":-1073741502"#,
                "HRESULT 0x80041003",
                r#""command":"Set-Content -Path D:\\ws\\"#,
            ] {
                assert!(
                    text.contains(marker)
                        || (marker.contains("1073741502") && text.contains("3221225794")),
                    "--bytes {bytes} --seed {seed}: no `{marker}`"
                );
            }
        }
    }

    #[test]
    fn a_seed_gives_one_log() {
        assert_eq!(log(200_000, 5), log(200_000, 5));
        assert_ne!(log(200_000, 5), log(200_000, 6));
    }

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("123").unwrap(), 123);
        assert_eq!(parse_size("64K").unwrap(), 64 << 10);
        assert_eq!(parse_size("10m").unwrap(), 10 << 20);
        assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
        assert!(parse_size("10x").is_err());
        assert!(parse_size("").is_err());
    }
}
