//! What `hook install` prints. Text from the settings file or from Codex (a
//! command, a path) is data: it is shown escaped, a command on its own `> `
//! line, so it can neither pass for the advisor's words nor drive the
//! terminal.

use std::fmt::Write as _;
use std::path::Path;

use advisor_core::quote::escaped;

use super::super::commands::text;
use super::super::{Exit, Io};
use crate::hook::install::{Change, Found, HookClient, Installed, Mounted};
use crate::hook::trust::{Listed, Ours, Report, codex_event};

/// The most entries of a list printed; the rest are counted.
const SHOWN_MAX: usize = 50;

fn shown(path: &Path) -> String {
    escaped(&path.to_string_lossy()).to_string()
}

/// What the install did to the file.
pub(super) fn installed(
    client: &dyn HookClient,
    installed: &Installed,
    command: &str,
    no_mode: bool,
) -> String {
    let mut out = String::new();
    let what = match installed.change {
        Change::Written => "wrote",
        Change::Unchanged => "already up to date:",
    };
    let _ = writeln!(
        out,
        "{what} {} ({} on {})",
        shown(&installed.path),
        client.events().join(", "),
        client.matcher()
    );
    let _ = writeln!(out, "  command: {}", escaped(command));
    if !installed.plan.replaced.is_empty() {
        out.push_str("  replaced (the advisor's handler as an earlier install wrote it):\n");
        found(&mut out, &installed.plan.replaced);
    }
    kept(&mut out, &installed.plan.kept);
    if no_mode {
        out.push_str(
            "  no --mode: the hook is not told the client's sandbox mode, so families that need it \
             stay silent and say why on stderr\n",
        );
    }
    out
}

fn found(out: &mut String, list: &[Found]) {
    for f in list.iter().take(SHOWN_MAX) {
        let _ = writeln!(
            out,
            "    {} (line {}):\n      > {}",
            f.at,
            f.line,
            escaped(&f.command)
        );
    }
    if list.len() > SHOWN_MAX {
        let _ = writeln!(out, "    … and {} more", list.len() - SHOWN_MAX);
    }
}

fn kept(out: &mut String, list: &[Found]) {
    if !list.is_empty() {
        out.push_str(
            "  left as they are (they name sandbox-advisor but are not the handler hook install \
             writes, so install neither replaces nor trusts them; if one of them does run the \
             advisor, the advisor runs twice for that event: remove one):\n",
        );
        found(out, list);
    }
}

/// `--check`'s account of the file; false when a hook is missing, mounted
/// twice, or unlike `expected`.
pub(super) fn mounted(
    client: &dyn HookClient,
    mounted: &Mounted,
    expected: Option<&str>,
) -> (String, bool) {
    let mut out = String::new();
    let path = shown(&mounted.path);
    if !mounted.exists {
        let _ = writeln!(out, "NOT MOUNTED: {path} does not exist");
        return (out, false);
    }
    let _ = writeln!(out, "{} settings: {path}", client.name());
    let mut ok = true;
    for (event, commands) in &mounted.events {
        match commands.as_slice() {
            [] => {
                let _ = writeln!(out, "NOT MOUNTED: {event}");
                ok = false;
            }
            [command] => {
                let _ = writeln!(out, "mounted: {event}\n  > {}", escaped(command));
                if let Some(want) = expected.filter(|w| w != command) {
                    let _ = writeln!(
                        out,
                        "DIFFERS: the flags given would write\n  > {}",
                        escaped(want)
                    );
                    ok = false;
                }
            }
            many => {
                let _ = writeln!(out, "MOUNTED {} TIMES: {event}", many.len());
                ok = false;
            }
        }
    }
    kept(&mut out, &mounted.kept);
    (out, ok)
}

/// How to trust the hooks, with the command that repeats the install.
pub(super) fn trust_steps(again: Result<String, &str>) -> String {
    let again = again.unwrap_or_else(|why| why.to_owned());
    format!(
        "Codex runs a hook only once you trust it, and skips an untrusted one without a word. \
         Trust it one of three ways:\n  \
         - {again}\n    (the same install, then trust through `codex app-server`)\n  \
         - in Codex, open /hooks and trust the sandbox-advisor entries\n  \
         - per run only: codex exec --dangerously-bypass-hook-trust …\n\
         Changing the command line (another --mode, --bin or --config) needs trust again."
    )
}

/// Each hook install wrote and its trust, then every other hook Codex would
/// skip; true when each of ours is listed and trusted.
pub(super) fn trust_lines(cwd: &Path, ours: &Ours<'_>, report: &Report) -> (String, bool) {
    let mut out = String::new();
    let mut ok = !ours.hooks.is_empty();
    for (event, _) in ours.hooks {
        let name = codex_event(event);
        let listed: Vec<&Listed> = report.ours.iter().filter(|h| h.event == name).collect();
        if listed.is_empty() {
            let _ = writeln!(
                out,
                "NOT MOUNTED: Codex (from {}) does not list the {event} hook of {} (Codex reads a \
                 project's .codex/hooks.json only once the project itself is trusted)",
                shown(cwd),
                shown(ours.path)
            );
            ok = false;
        }
        for hook in listed {
            let verdict = if hook.is_trusted() {
                "trusted"
            } else {
                "NOT TRUSTED"
            };
            let _ = writeln!(out, "{verdict}: {name} ({})", escaped(&hook.status));
            ok &= hook.is_trusted();
        }
    }
    let others = &report.others_untrusted;
    if !others.is_empty() {
        let _ = writeln!(
            out,
            "Codex lists {} other hook(s) it does not trust. hook install did not write them and \
             trusts none of them; Codex skips them until you trust them yourself (in /hooks), so \
             read what each runs first:",
            others.len()
        );
        for hook in others.iter().take(SHOWN_MAX) {
            let _ = writeln!(
                out,
                "  {} from {} ({}):\n    > {}",
                escaped(&hook.event),
                escaped(&hook.source_path),
                escaped(&hook.status),
                escaped(&hook.command)
            );
        }
        if others.len() > SHOWN_MAX {
            let _ = writeln!(out, "  … and {} more", others.len() - SHOWN_MAX);
        }
    }
    (out, ok)
}

/// Prints `out` and the trust; exit 1 when one of ours is missing or untrusted.
pub(super) fn trust(
    io: &mut Io<'_>,
    mut out: String,
    cwd: &Path,
    ours: &Ours<'_>,
    report: &Report,
    steps: impl Fn() -> String,
) -> Exit {
    let (said, ok) = trust_lines(cwd, ours, report);
    out.push_str(&said);
    if !ok {
        let _ = writeln!(
            out,
            "Codex will skip the untrusted ones silently.\n{}",
            steps()
        );
    }
    let _ = text(io, &out);
    if ok {
        Exit::Success
    } else {
        Exit::NothingToReport
    }
}
