//! `hook install`: write the client's hook settings, then say what the client
//! needs before it runs them (Codex: trust), checking it where it can.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::args::{DialectArg, InstallArgs};
use super::commands::{text, usage};
use super::{Exit, Io};
use crate::hook::install::{self, Change, Client, Scope};
use crate::hook::trust::{self, HookTrust};

/// Runs `hook install` with `args`.
pub(super) fn run(args: InstallArgs, io: &mut Io<'_>) -> Exit {
    let client = match args.client {
        DialectArg::ClaudeCode => Client::ClaudeCode,
        DialectArg::Codex => Client::Codex,
    };
    if (args.trust || args.check) && client != Client::Codex {
        return usage(io, "hook install: --trust and --check are for --client codex (Claude Code runs project hooks without a trust step in -p mode)".into());
    }
    let project = match (&args.project, args.user) {
        (_, true) => None,
        (Some(dir), false) => Some(dir.clone()),
        (None, false) => match std::env::current_dir() {
            Ok(dir) => Some(dir),
            Err(e) => return usage(io, format!("hook install: no current directory: {e}")),
        },
    };
    let scope = project.clone().map_or(Scope::User, Scope::Project);
    let path = match client.settings_path(&scope) {
        Ok(p) => p,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    let cwd = project.unwrap_or_else(|| PathBuf::from("."));
    if args.check {
        return report_trust(
            io,
            &args.codex,
            (&cwd, &scope),
            &path,
            trust::check(&args.codex, &cwd),
        );
    }
    let bin = match args.bin.clone().map_or_else(std::env::current_exe, Ok) {
        Ok(bin) => std::path::absolute(&bin).unwrap_or(bin),
        Err(e) => {
            return usage(
                io,
                format!("hook install: cannot tell this binary's path ({e}); pass --bin"),
            );
        }
    };
    let mut extra = Vec::new();
    if let Some(mode) = args.mode {
        extra.extend(["--mode".to_owned(), mode.as_str().to_owned()]);
    }
    if let Some(config) = &args.config {
        let config = std::path::absolute(config).unwrap_or_else(|_| config.clone());
        extra.extend(["--config".to_owned(), config.to_string_lossy().into_owned()]);
    }
    let command = install::command_line(&bin, client.dialect(), &extra);
    let change = match install::install(client, &path, &command) {
        Ok(change) => change,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    let mut out = String::new();
    let what = match change {
        Change::Written => "wrote",
        Change::Unchanged => "already up to date:",
    };
    let _ = writeln!(
        out,
        "{what} {} ({} on Bash)",
        path.display(),
        client.events().join(", ")
    );
    let _ = writeln!(out, "  command: {command}");
    if args.mode.is_none() {
        out.push_str(
            "  no --mode: the hook is not told the client's sandbox mode, so families that need it \
             stay silent and say why on stderr\n",
        );
    }
    match client {
        Client::ClaudeCode => {
            out.push_str("Claude Code reads it when a session starts; nothing else is needed.\n");
            text(io, &out)
        }
        Client::Codex if args.trust => {
            let _ = text(io, &out);
            report_trust(
                io,
                &args.codex,
                (&cwd, &scope),
                &path,
                trust::trust(&args.codex, &cwd),
            )
        }
        Client::Codex => {
            let _ = text(io, &out);
            // Say whether Codex would run it, when a `codex` is here to ask;
            // else how to trust it. Written but untrusted is exit 1.
            match trust::check(&args.codex, &cwd) {
                Ok(hooks) => report_trust(io, &args.codex, (&cwd, &scope), &path, Ok(hooks)),
                Err(e) => {
                    let steps = trust_steps(&scope);
                    text(
                        io,
                        &format!("(could not ask Codex whether it trusts them: {e})\n{steps}\n"),
                    )
                }
            }
        }
    }
}

fn trust_steps(scope: &Scope) -> String {
    let flags = match scope {
        Scope::User => "--user".to_owned(),
        Scope::Project(dir) => format!("--project {}", dir.display()),
    };
    format!(
        "Codex runs a hook only once you trust it, and skips an untrusted one without a word. \
         Trust it one of three ways:\n  \
         - sandbox-advisor hook install --client codex {flags} --trust   (through `codex app-server`)\n  \
         - in Codex, open /hooks and trust the two sandbox-advisor entries\n  \
         - per run only: codex exec --dangerously-bypass-hook-trust …\n\
         Changing the command line (another --mode, --bin or --config) needs trust again."
    )
}

/// Tells each advisor hook's trust; exit 1 when one is missing or untrusted.
fn report_trust(
    io: &mut Io<'_>,
    codex: &Path,
    (cwd, scope): (&Path, &Scope),
    path: &Path,
    hooks: Result<Vec<HookTrust>, trust::TrustError>,
) -> Exit {
    let hooks = match hooks {
        Ok(h) => h,
        Err(e) => {
            return usage(
                io,
                format!("hook install: cannot ask Codex ({}): {e}", codex.display()),
            );
        }
    };
    let mut out = String::new();
    if hooks.is_empty() {
        let _ = writeln!(
            out,
            "NOT MOUNTED: Codex (from {}) sees no sandbox-advisor hook; expected in {}",
            cwd.display(),
            path.display()
        );
    }
    for hook in &hooks {
        let verdict = if hook.is_trusted() {
            "trusted"
        } else {
            "NOT TRUSTED"
        };
        let _ = writeln!(out, "{verdict}: {} ({})", hook.event, hook.status);
    }
    let all = !hooks.is_empty() && hooks.iter().all(HookTrust::is_trusted);
    if !all && !hooks.is_empty() {
        let _ = writeln!(
            out,
            "Codex will skip the untrusted ones silently.\n{}",
            trust_steps(scope)
        );
    }
    let _ = text(io, &out);
    if all {
        Exit::Success
    } else {
        Exit::NothingToReport
    }
}
