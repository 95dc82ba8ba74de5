//! Codex's own command line, as far as it sets the sandbox.
//!
//! A hook is Codex's grandchild (Codex runs each hook through `sh -c`), and
//! what Codex was started with outranks every file: `--sandbox`/`-s`,
//! `--full-auto` (`workspace-write`), `--dangerously-bypass-approvals-and-sandbox`
//! (no sandbox), `-c`/`--config key=value`, `--add-dir`, `--profile`/`-p`.
//! Measured with Codex 0.171.0: the hook's parent is `sh`, whose parent is
//! the native `codex` binary holding the arguments as given (`.ci/clients.sh`,
//! `codex_args=`). The hook walks up from its parent through at most
//! [`ANCESTORS_MAX`] processes to the first whose program is named `codex`,
//! and reads its `/proc/<pid>/cmdline` (at most [`CMDLINE_MAX_BYTES`], no
//! link followed). No such process (a bridge, a test, another platform):
//! nothing is read, and the files decide alone.
//!
//! What a running interactive session changes later (`/approvals`) is in
//! neither the command line nor the files; the stated `--mode` of the hook
//! stands for it.

use std::path::Path;

use advisor_core::SandboxMode;

use super::files::{Owner, read_no_follow};

/// The most ancestors walked.
pub const ANCESTORS_MAX: usize = 8;

/// The most of a command line read.
pub const CMDLINE_MAX_BYTES: u64 = 64 * 1024;

/// The most of a `/proc/<pid>/stat` read.
const STAT_MAX_BYTES: u64 = 4096;

/// What Codex's command line sets, each `None` when it does not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine {
    /// The mode (`--sandbox`, `--full-auto`, the bypass, `-c sandbox_mode=`).
    pub mode: Option<SandboxMode>,
    /// `--profile`.
    pub profile: Option<String>,
    /// `-c sandbox_workspace_write.network_access=…`.
    pub network_access: Option<bool>,
    /// `--add-dir`, each.
    pub add_dirs: Vec<String>,
    /// `-c sandbox_workspace_write.writable_roots=[…]` (replaces the files').
    pub writable_roots: Option<Vec<String>>,
    /// `-c sandbox_workspace_write.exclude_tmpdir_env_var=…`.
    pub exclude_tmpdir_env_var: Option<bool>,
    /// `-c sandbox_workspace_write.exclude_slash_tmp=…`.
    pub exclude_slash_tmp: Option<bool>,
}

/// The parent of process `pid`, from its `stat` (the field after the
/// parenthesized command name, which may itself hold spaces or parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let path = format!("/proc/{pid}/stat");
    let bytes = read_no_follow(Path::new(&path), STAT_MAX_BYTES, Owner::Kernel).ok()??;
    let text = std::str::from_utf8(&bytes).ok()?;
    let (_, after) = text.rsplit_once(')')?;
    after.split_whitespace().nth(1)?.parse().ok()
}

/// The arguments of the nearest ancestor named `codex`, if any.
pub fn codex_arguments() -> Option<Vec<String>> {
    ancestor_arguments(|args| {
        let program = args.first().map(|a| a.rsplit('/').next().unwrap_or(a));
        program == Some("codex")
    })
}

/// The arguments of the nearest ancestor (at most [`ANCESTORS_MAX`] up from
/// this process's parent) that `wanted` accepts, if any.
pub fn ancestor_arguments(wanted: impl Fn(&[String]) -> bool) -> Option<Vec<String>> {
    ancestor(wanted).map(|(_, args)| args)
}

/// The process id and arguments of the nearest ancestor `wanted` accepts
/// (see [`ancestor_arguments`]).
pub fn ancestor(wanted: impl Fn(&[String]) -> bool) -> Option<(u32, Vec<String>)> {
    // Off Unix no `/proc` is read (`read_no_follow` reads nothing there): no
    // parent is found, and the files decide alone.
    let mut pid = parent_of(std::process::id())?;
    for _ in 0..ANCESTORS_MAX {
        if pid <= 1 {
            return None;
        }
        let path = format!("/proc/{pid}/cmdline");
        if let Ok(Some(bytes)) = read_no_follow(Path::new(&path), CMDLINE_MAX_BYTES, Owner::Kernel)
        {
            let args: Vec<String> = bytes
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            if wanted(&args) {
                return Some((pid, args));
            }
        }
        pid = parent_of(pid)?;
    }
    None
}

/// A TOML value as `-c` gives it (Codex parses it as TOML, else as a string).
fn value(raw: &str) -> Option<toml::Value> {
    format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("v").cloned())
        .or_else(|| Some(toml::Value::String(raw.to_owned())))
}

/// Reads the sandbox's part of Codex's arguments (the program name first).
pub fn parse(args: &[String]) -> CommandLine {
    let mut out = CommandLine::default();
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg, None),
        };
        let takes = matches!(
            flag,
            "--sandbox" | "-s" | "-c" | "--config" | "--add-dir" | "--profile" | "-p"
        );
        let next = match (inline, takes) {
            (Some(v), _) => Some(v.to_owned()),
            (None, true) => {
                i += 1;
                args.get(i).cloned()
            }
            (None, false) => None,
        };
        match (flag, next) {
            ("--sandbox" | "-s", Some(v)) => out.mode = v.parse().ok().or(out.mode),
            ("--full-auto", _) => out.mode = Some(SandboxMode::WorkspaceWrite),
            ("--dangerously-bypass-approvals-and-sandbox" | "--yolo", _) => {
                out.mode = Some(SandboxMode::DangerFullAccess);
            }
            ("--add-dir", Some(v)) => out.add_dirs.push(v),
            ("--profile" | "-p", Some(v)) => out.profile = Some(v),
            ("-c" | "--config", Some(v)) => override_key(&mut out, &v),
            _ => {}
        }
        i += 1;
    }
    out
}

fn override_key(out: &mut CommandLine, kv: &str) {
    let Some((key, raw)) = kv.split_once('=') else {
        return;
    };
    let Some(v) = value(raw.trim()) else {
        return;
    };
    match key.trim() {
        "sandbox_mode" => out.mode = v.as_str().and_then(|m| m.parse().ok()).or(out.mode),
        "sandbox_workspace_write.network_access" => out.network_access = v.as_bool(),
        "sandbox_workspace_write.exclude_tmpdir_env_var" => {
            out.exclude_tmpdir_env_var = v.as_bool();
        }
        "sandbox_workspace_write.exclude_slash_tmp" => out.exclude_slash_tmp = v.as_bool(),
        "sandbox_workspace_write.writable_roots" => {
            out.writable_roots = v.as_array().map(|roots| {
                roots
                    .iter()
                    .filter_map(toml::Value::as_str)
                    .take(advisor_core::ROOTS_MAX)
                    .map(str::to_owned)
                    .collect()
            });
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(line: &str) -> CommandLine {
        let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
        parse(&args)
    }

    #[test]
    fn the_recorded_command_line() {
        let got = of(
            "/x/codex exec --strict-config --json --skip-git-repo-check \
                      --dangerously-bypass-hook-trust --sandbox workspace-write \
                      -c sandbox_workspace_write.network_access=true --add-dir /srv prompt",
        );
        assert_eq!(got.mode, Some(SandboxMode::WorkspaceWrite));
        assert_eq!(got.network_access, Some(true));
        assert_eq!(got.add_dirs, ["/srv"]);
    }

    #[test]
    fn every_spelling_of_the_mode() {
        assert_eq!(of("codex -s read-only").mode, Some(SandboxMode::ReadOnly));
        assert_eq!(
            of("codex --sandbox=read-only").mode,
            Some(SandboxMode::ReadOnly)
        );
        assert_eq!(
            of("codex --full-auto").mode,
            Some(SandboxMode::WorkspaceWrite)
        );
        assert_eq!(
            of("codex --dangerously-bypass-approvals-and-sandbox").mode,
            Some(SandboxMode::DangerFullAccess)
        );
        assert_eq!(
            of("codex -c sandbox_mode=\"danger-full-access\"").mode,
            Some(SandboxMode::DangerFullAccess)
        );
        assert_eq!(
            of("codex -c sandbox_mode=read-only").mode,
            Some(SandboxMode::ReadOnly)
        );
        assert_eq!(of("codex --sandbox nonsense").mode, None);
        assert_eq!(of("codex exec hello").mode, None);
    }

    #[test]
    fn overrides_of_the_workspace_write_table() {
        let got = of(
            "codex --config sandbox_workspace_write.writable_roots=[\"/a\",\"/b\"] \
                      -c sandbox_workspace_write.exclude_slash_tmp=true -p dev",
        );
        assert_eq!(
            got.writable_roots,
            Some(vec!["/a".to_owned(), "/b".to_owned()])
        );
        assert_eq!(got.exclude_slash_tmp, Some(true));
        assert_eq!(got.profile.as_deref(), Some("dev"));
        assert_eq!(of("codex -c").network_access, None);
        assert_eq!(
            of("codex -c sandbox_workspace_write.network_access=maybe").network_access,
            None
        );
    }
}
