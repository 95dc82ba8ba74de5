//! Runs the built binary: one helper every CLI test goes through.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// What one run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout lines parsed as JSON.
    pub fn json(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect()
    }
}

pub const BIN: &str = env!("CARGO_BIN_EXE_sandbox-advisor");

/// The registry the binary runs with (`host_adapter::standard_registry`): the
/// families a test expects are derived from it, never listed here.
pub fn registry() -> advisor_core::Registry {
    host_adapter::standard_registry().build().unwrap()
}

/// The compiled-in family ids, in precedence order.
pub fn family_ids() -> Vec<&'static str> {
    registry().families().map(|f| f.id().as_str()).collect()
}

/// The bundled sessions.
pub fn sessions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/sessions")
}

/// The repository root (README.md, docs/, examples/).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One row of README.md's table of the shipped families: the id and its crate.
pub struct Documented {
    pub id: String,
    /// The `hosts` column: the ids of the hosts the family declares.
    pub hosts: Vec<String>,
    pub krate: String,
    /// The `status` column: `done`, or `scaffolded` for a family `cargo xtask
    /// new-family` has just written.
    pub status: String,
}

/// README.md's table of the shipped families, in its order: the one list of
/// families kept by hand, checked against the registry
/// (`the_readme_lists_exactly_the_registered_families_in_precedence_order`).
pub fn readme_families() -> Vec<Documented> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let section = readme
        .split("\n## Families\n")
        .nth(1)
        .expect("README.md has a `## Families` section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|row| {
            let cells: Vec<&str> = row
                .split(" | ")
                .map(|c| c.trim_matches(['|', ' ', '`']))
                .collect();
            Documented {
                id: cells[0].to_owned(),
                hosts: cells[1].split(", ").map(str::to_owned).collect(),
                krate: cells[3].to_owned(),
                status: cells.get(4).copied().unwrap_or_default().to_owned(),
            }
        })
        .collect()
}

/// Runs `sandbox-advisor <args>` with `stdin` written from another thread.
/// The binary path `--bin <given>` makes `hook install` write: as given on
/// Unix; on Windows made absolute (`/opt/x` on the current drive) and
/// written with forward slashes, the one form cmd, PowerShell and Git Bash
/// read alike.
#[allow(dead_code)]
pub fn written_bin(given: &str) -> String {
    if cfg!(windows) {
        let absolute = std::path::absolute(given).unwrap();
        absolute.to_str().unwrap().replace('\\', "/")
    } else {
        given.to_owned()
    }
}

pub fn run(args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    run_in(&std::env::current_dir().unwrap(), args, stdin)
}

/// Runs `sandbox-advisor <args>` in `dir`.
pub fn run_in(dir: &std::path::Path, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    spawn(Command::new(BIN).current_dir(dir).args(args), stdin)
}

/// Runs `sandbox-advisor <args>`, reads `keep` lines of its stdout, then closes
/// the pipe as `| head -n keep` does; returns the exit code and the lines read.
/// stdin is closed at once (give the input as a file).
pub fn run_closing_stdout(args: &[&str], keep: usize) -> (i32, Vec<String>) {
    use std::io::BufRead;
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut read = Vec::new();
    {
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        for _ in 0..keep {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            read.push(line.trim_end().to_owned());
        }
        // Dropped here: the reader goes away, the next write fails with EPIPE.
    }
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), read)
}

/// Runs `command` (which starts the binary some other way: under a wrapper,
/// with an environment of its own), as [`run`] does.
pub fn run_command(command: &mut Command, stdin: impl Into<Vec<u8>>) -> Run {
    spawn(command, stdin)
}

fn spawn(command: &mut Command, stdin: impl Into<Vec<u8>>) -> Run {
    // Each run gets a default state directory of its own, so a `hook` (whose
    // on-disk ledger lives there by default) neither sees another run's claims
    // nor writes into the home of whoever runs the tests. The variable works
    // on every system (Windows has no XDG_STATE_HOME). A test that shares a
    // ledger between runs passes `--state-dir`.
    let state = tempfile::tempdir().unwrap();
    let mut child = command
        .env("SANDBOX_ADVISOR_STATE_DIR", state.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.into();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The JSON output with every advisory's text and summary replaced by a marker, so a
/// snapshot pins the protocol's shape and decisions, not the families' prose.
pub fn shape(run: &Run) -> String {
    run.json()
        .into_iter()
        .map(|mut line| {
            if let Some(list) = line.get_mut("advisories").and_then(|a| a.as_array_mut()) {
                for advisory in list {
                    for key in ["text", "detail", "summary"] {
                        assert!(!advisory[key].as_str().unwrap().is_empty(), "empty {key}");
                        advisory[key] = serde_json::json!(format!("<{key}>"));
                    }
                }
            }
            if let Some(reason) = line.pointer_mut("/refusal/reason") {
                *reason = serde_json::json!("<reason>");
            }
            serde_json::to_string(&line).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One protocol line per call; `r"..."` keeps Windows paths readable.
pub fn lines(items: &[&str]) -> String {
    let mut out = items.join("\n");
    out.push('\n');
    out
}

pub const HOST: &str = r#"{"type":"host","platform":"win32","electron":false,"tmpdir":"C:\\Users\\dev\\AppData\\Local\\Temp"}"#;
pub const SESSION: &str = r#"{"type":"session","session":"s1","cwd":"D:\\ws"}"#;
pub const MODE: &str = r#"{"type":"sandbox-mode","session":"s1","mode":"workspace-write"}"#;
pub const ACL_A1: &str = r#"{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}}"#;
pub const ACL_A1_AGAIN: &str = r#"{"type":"post","agent":"a1","session":"s1","call":"c2","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}}"#;
pub const PTY_A2: &str = r#"{"type":"post","agent":"a2","session":"s1","call":"c3","tool":"pwsh","args":{"command":"Get-Location"},"error":{"message":"PTY shell exited during startup"}}"#;
pub const PRE_A1: &str = r#"{"type":"pre","agent":"a1","session":"s1","call":"c4","tool":"pwsh","args":{"command":"Get-Date"}}"#;
