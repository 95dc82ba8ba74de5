//! What the tools print: ordinary shell outputs and file contents of a given
//! size, and the shell tools' foreground value and rendering.

use serde_json::{Value, json};

use super::rng::Rng;

pub fn foreground(exit: i64, stdout: &str, stderr: &str, sandbox: Option<Value>) -> Value {
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
pub fn render(stdout: &str, stderr: &str, exit: i64, marker: Option<&str>) -> String {
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

pub const PROJECTS: [&str; 8] = [
    "app", "api", "web", "infra", "docs", "tools", "sdk", "mobile",
];
pub const WORDS: [&str; 16] = [
    "config", "server", "client", "parser", "render", "index", "util", "model", "store", "router",
    "cache", "auth", "queue", "worker", "schema", "view",
];

/// Commands and the kind of output each prints.
pub const COMMANDS: [(&str, Kind); 9] = [
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
pub enum Kind {
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
pub fn shell_output(
    rng: &mut Rng,
    size: usize,
) -> (&'static str, &'static str, String, String, i64) {
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
pub fn source_text(rng: &mut Rng, size: usize) -> String {
    let mut out = String::with_capacity(size + 64);
    while out.len() < size {
        let (a, b) = (*rng.pick(&WORDS), *rng.pick(&WORDS));
        out.push_str(&format!(
            "pub fn {a}_{b}(input: &str) -> Option<usize> {{\n    input.find(\"{b}\")\n}}\n\n"
        ));
    }
    out
}
