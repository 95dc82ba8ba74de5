//! `hook install`: write the client's hook settings, then say what the client
//! needs before it runs them (Codex: trust), checking it where it can.
//!
//! Exit status: 0 when the hooks are mounted (and, for Codex, asked about,
//! trusted); 1 when `--check` finds a hook missing, untrusted or unlike the
//! flags given, or cannot ask Codex (the files are still reported, with why),
//! and when an install leaves a Codex hook untrusted; 2 for a usage error, a
//! settings file install refuses, or a `--trust` that could not reach Codex.
//! Every command it prints repeats every flag the user gave.

#[path = "install_report.rs"]
mod report;

use std::path::{Path, PathBuf};

use advisor_core::quote::is_visible;

use super::args::InstallArgs;
use super::commands::{text, usage};
use super::{Exit, Io};
use crate::hook::Dialect;
use crate::hook::install::handler::shell_word;
use crate::hook::install::{self, Handler, HookClient, Scope, TrustStep, client};
use crate::hook::trust::{self, Ours};

/// What the user asked for, complete enough to say it again.
struct Request {
    client: &'static (dyn HookClient + Sync),
    scope: Scope,
    /// `--bin`, `--mode`, `--config` as given (paths made absolute).
    bin: Option<PathBuf>,
    mode: Option<advisor_core::SandboxMode>,
    config: Option<PathBuf>,
    /// `--codex` when not the default.
    codex: Option<PathBuf>,
}

impl Request {
    /// The handler to write: `--bin`, else this binary.
    fn handler(&self) -> Result<Handler, String> {
        let bin = match &self.bin {
            Some(bin) => bin.clone(),
            None => std::env::current_exe()
                .map(|b| std::path::absolute(&b).unwrap_or(b))
                .map_err(|e| format!("cannot tell this binary's path ({e}); pass --bin"))?,
        };
        Handler::new(
            &bin,
            self.client.dialect(),
            self.mode,
            self.config.as_deref(),
        )
        .map_err(|e| e.to_string())
    }

    /// This request again as a command line, with `last` (`--trust`) at the
    /// end and every flag given, so running it writes the same handler; or
    /// why it cannot be shown.
    fn again(&self, handler: &Handler, last: &str) -> Result<String, &'static str> {
        let program = std::env::current_exe()
            .ok()
            .and_then(|p| p.to_str().map(str::to_owned))
            .unwrap_or_else(|| "sandbox-advisor".into());
        let mut words = vec![program, "hook".into(), "install".into()];
        words.extend(["--client".into(), self.client.dialect().as_str().into()]);
        match &self.scope {
            Scope::User => words.push("--user".into()),
            Scope::Project(dir) => {
                words.push("--project".into());
                words.push(dir.to_str().ok_or(NOT_SHOWN)?.into());
            }
        }
        words.extend(["--bin".into(), handler.bin.clone()]);
        if let Some(mode) = self.mode {
            words.extend(["--mode".into(), mode.as_str().into()]);
        }
        if let Some(config) = &handler.config {
            words.extend(["--config".into(), config.clone()]);
        }
        if let Some(codex) = &self.codex {
            words.extend(["--codex".into(), codex.to_str().ok_or(NOT_SHOWN)?.into()]);
        }
        words.push(last.into());
        if words.iter().any(|w| !w.chars().all(is_visible)) {
            return Err(NOT_SHOWN);
        }
        if cfg!(windows) {
            // PowerShell, Windows' shell: a quoted program runs after `&`.
            let mut line = vec![format!("& {}", powershell_word(&words[0], true))];
            line.extend(words[1..].iter().map(|w| powershell_word(w, false)));
            return Ok(line.join(" "));
        }
        Ok(words
            .iter()
            .map(|w| shell_word(w))
            .collect::<Vec<_>>()
            .join(" "))
    }
}

/// One word for PowerShell: as it is when it holds only characters
/// PowerShell reads as part of a plain word (and it is not the program,
/// which is always quoted), else a single-quoted literal with each `'`
/// doubled.
fn powershell_word(word: &str, program: bool) -> String {
    let plain = !program
        && !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:\\".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "''"))
    }
}

const NOT_SHOWN: &str = "(not shown: a path in it is not UTF-8 or holds characters a terminal would not show as they are)";

/// Runs `hook install` with `args`.
pub(super) fn run(args: InstallArgs, io: &mut Io<'_>) -> Exit {
    let Some(client) = client::of(Dialect::from(args.client)) else {
        return usage(
            io,
            "hook install: this client has no settings install knows".into(),
        );
    };
    if args.trust && client.trust() != TrustStep::CodexAppServer {
        return usage(
            io,
            format!(
                "hook install: --trust is for Codex ({} runs the hooks in its settings without a trust step)",
                client.name()
            ),
        );
    }
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
    let scope = match (&args.project, args.user) {
        (_, true) => Scope::User,
        (Some(dir), false) => Scope::Project(absolute(dir)),
        (None, false) => match std::env::current_dir() {
            Ok(dir) => Scope::Project(dir),
            Err(e) => return usage(io, format!("hook install: no current directory: {e}")),
        },
    };
    let request = Request {
        client,
        scope,
        bin: args.bin.as_deref().map(absolute),
        mode: args.mode,
        config: args.config.as_deref().map(absolute),
        codex: (args.codex != Path::new("codex")).then(|| args.codex.clone()),
    };
    let place = match client.place(&request.scope) {
        Ok(place) => place,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    // Where Codex is asked from: the project, or (--user) here.
    let cwd = match &request.scope {
        Scope::Project(dir) => dir.clone(),
        Scope::User => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    if args.check {
        return check(&request, &args.codex, &place, &cwd, io);
    }
    let handler = match request.handler() {
        Ok(handler) => handler,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    let command = handler.command_line();
    let installed = match install::install(client, &place, &handler) {
        Ok(installed) => installed,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    let mut out = report::installed(client, &installed, &command, request.mode.is_none());
    report::plugin_too(&mut out, &client.plugin_enabled(&cwd));
    let hooks: Vec<(String, String)> = client
        .events()
        .iter()
        .map(|e| ((*e).to_owned(), command.clone()))
        .collect();
    let ours = Ours {
        path: &installed.path,
        matcher: client.matcher(),
        hooks: &hooks,
    };
    let steps = || report::trust_steps(request.again(&handler, "--trust"));
    match client.trust() {
        TrustStep::None(note) => {
            out.push_str(note);
            out.push('\n');
            text(io, &out)
        }
        TrustStep::CodexAppServer if args.trust => match trust::trust(&args.codex, &cwd, &ours) {
            Ok(listed) => report::trust(io, out, &cwd, &ours, &listed, steps),
            Err(e) => {
                let _ = text(io, &out);
                usage(
                    io,
                    format!(
                        "hook install: cannot ask Codex ({}): {e}",
                        args.codex.display()
                    ),
                )
            }
        },
        TrustStep::CodexAppServer => match trust::check(&args.codex, &cwd, &ours) {
            Ok(listed) => report::trust(io, out, &cwd, &ours, &listed, steps),
            Err(e) => {
                out.push_str(&format!(
                    "(could not ask Codex whether it trusts them: {e})\n{}\n",
                    steps()
                ));
                text(io, &out)
            }
        },
    }
}

/// `--check`: what the settings file holds, then (Codex) what Codex trusts.
fn check(
    request: &Request,
    codex: &Path,
    place: &install::Place,
    cwd: &Path,
    io: &mut Io<'_>,
) -> Exit {
    let client = request.client;
    let mounted = match install::mounted(client, place) {
        Ok(mounted) => mounted,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    // Flags given with --check say what should be there; else what is there counts.
    let expected = (request.bin.is_some() || request.mode.is_some() || request.config.is_some())
        .then(|| request.handler().map(|h| h.command_line()))
        .transpose();
    let expected = match expected {
        Ok(expected) => expected,
        Err(e) => return usage(io, format!("hook install: {e}")),
    };
    let (mut out, mut ok) = report::mounted(client, &mounted, expected.as_deref());
    report::plugin_too(&mut out, &client.plugin_enabled(cwd));
    let hooks: Vec<(String, String)> = mounted
        .events
        .iter()
        .filter_map(|(e, found)| match found.as_slice() {
            [command] => Some(((*e).to_owned(), command.clone())),
            _ => None,
        })
        .collect();
    let ours = Ours {
        path: &mounted.path,
        matcher: client.matcher(),
        hooks: &hooks,
    };
    match client.trust() {
        TrustStep::None(note) => {
            out.push_str(note);
            out.push('\n');
        }
        TrustStep::CodexAppServer => match trust::check(codex, cwd, &ours) {
            Ok(listed) => {
                let (said, trusted) = report::trust_lines(cwd, &ours, &listed);
                out.push_str(&said);
                ok &= trusted;
            }
            Err(e) => {
                out.push_str(&format!(
                    "TRUST NOT CHECKED: {e}; the files above are what is installed, but whether \
                     Codex runs them is unknown (install Codex, or pass --codex PATH)\n"
                ));
                ok = false;
            }
        },
    }
    let _ = text(io, &out);
    if ok {
        Exit::Success
    } else {
        Exit::NothingToReport
    }
}
