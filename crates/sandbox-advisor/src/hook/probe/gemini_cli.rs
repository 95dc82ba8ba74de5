//! Gemini CLI's own command line, as far as it sets the approval mode.
//!
//! Gemini CLI 0.61.0 runs as `node …/bundle/gemini.js <args>` (the npm
//! package's `bin`), and relaunches itself once as a child with the same
//! arguments, Node's own flags first (read in its bundle, `getSpawnConfig`);
//! a single-executable build is `gemini <args>`. The hook walks up from its
//! parent through at most [`codex_cli::ANCESTORS_MAX`] processes to the
//! first such process and reads its `/proc/<pid>/cmdline` (at most
//! [`codex_cli::CMDLINE_MAX_BYTES`], no link followed).
//!
//! What it reads (read in the bundle, `parseArguments` and
//! `loadCliConfig`): yolo comes only from the command line (`--yolo`, `-y`,
//! `--approval-mode yolo`; the settings' `defaultApprovalMode: "yolo"` is
//! ignored); a headless run is one started with `-p`/`--prompt`, whose mode
//! no one can change while it runs. Every argument is looked at, values
//! included: one that could turn yolo on in a way not read here (`--yolo=…`,
//! `--no-yolo`, a cluster of short flags holding `y`, a repeated or unknown
//! `--approval-mode`) makes the mode unknown, never guessed.
//!
//! It also looks, without following a link, whether the user's sandbox
//! policy `~/.gemini/policies/sandbox.toml` exists: Gemini reads it instead
//! of its defaults, and it can give a mode or a command the network. And it
//! reads Gemini's settings files with Gemini's own environment
//! ([`gemini_settings`](super::gemini_settings)).

use std::path::Path;

use advisor_core::{GeminiApproval, GeminiRun, GeminiSession, GeminiSettings};

use super::{codex_cli, gemini_settings};

/// Where the Gemini arguments start in `args` (the program name first), when
/// `args` is Gemini CLI's command line.
fn script_end(args: &[String]) -> Option<usize> {
    let name = |a: &String| a.rsplit('/').next().unwrap_or(a).to_owned();
    let first = name(args.first()?);
    if first == "gemini" {
        return Some(1);
    }
    if first != "node" && !first.starts_with("node") {
        return None;
    }
    // Node's own flags (`--max-old-space-size=…`), then the script.
    let script = args[1..].iter().position(|a| !a.starts_with('-'))? + 1;
    matches!(name(&args[script]).as_str(), "gemini" | "gemini.js").then_some(script + 1)
}

/// The process id and the arguments (after its script) of the nearest
/// Gemini CLI process above the hook.
pub fn gemini_process() -> Option<(u32, Vec<String>)> {
    let (pid, args) = codex_cli::ancestor(|args| script_end(args).is_some())?;
    let start = script_end(&args)?;
    Some((pid, args[start..].to_vec()))
}

/// Whether Gemini's arguments could ask for its whole-CLI sandbox (`-s`,
/// `--sandbox`, in any spelling, or a cluster of short flags holding `s`).
pub fn asks_sandbox(args: &[String]) -> bool {
    args.iter().any(|a| {
        a.starts_with("--sandbox")
            || a.starts_with("--no-sandbox")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('s'))
    })
}

/// Reads the approval mode and the run from Gemini's arguments (after its script).
pub fn parse(args: &[String]) -> (Option<GeminiApproval>, GeminiRun) {
    let mut approval = None;
    let mut flags = 0usize;
    let mut unknown = false;
    let mut yolo = false;
    let mut headless = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-p" | "--prompt" => headless = true,
            _ if arg.starts_with("--prompt=") => headless = true,
            "-y" | "--yolo" => yolo = true,
            "--approval-mode" | "--approvalMode" => {
                flags += 1;
                i += 1;
                approval = args.get(i).and_then(|v| GeminiApproval::parse(v));
                unknown |= approval.is_none() || approval == Some(GeminiApproval::FromSettings);
            }
            _ if arg.starts_with("--approval-mode=") || arg.starts_with("--approvalMode=") => {
                flags += 1;
                let (_, v) = arg.split_once('=').unwrap_or_default();
                approval = GeminiApproval::parse(v);
                unknown |= approval.is_none() || approval == Some(GeminiApproval::FromSettings);
            }
            // Any other spelling that could say yolo or the mode.
            _ if arg.starts_with("--yolo")
                || arg.starts_with("--no-yolo")
                || arg.starts_with("--approval")
                || arg.starts_with("--no-approval")
                || (arg.starts_with('-') && !arg.starts_with("--") && arg.contains('y')) =>
            {
                unknown = true;
            }
            _ => {}
        }
        i += 1;
    }
    let run = if headless {
        GeminiRun::Headless
    } else {
        GeminiRun::MaybeInteractive
    };
    let approval = match (unknown || flags > 1, yolo, approval) {
        (true, _, _) => None,
        (false, true, Some(GeminiApproval::Yolo) | None) => Some(GeminiApproval::Yolo),
        // Both `--yolo` and another mode: which wins is yargs' business; unknown.
        (false, true, Some(_)) => None,
        (false, false, Some(mode)) => Some(mode),
        (false, false, None) => Some(GeminiApproval::FromSettings),
    };
    (approval, run)
}

/// Whether the user's sandbox policy exists (any entry, not followed).
fn sandbox_policy(home: Option<&Path>) -> Option<bool> {
    let path = home?.join(".gemini/policies/sandbox.toml");
    match std::fs::symlink_metadata(path) {
        Ok(_) => Some(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
        Err(_) => None,
    }
}

/// The session, when a Gemini CLI process is above the hook working in
/// `cwd` (the payload's).
pub fn gemini_session(home: Option<&Path>, cwd: Option<&Path>) -> Option<GeminiSession> {
    let (pid, args) = gemini_process()?;
    let (approval, run) = parse(&args);
    let env = gemini_settings::environ(pid);
    let settings = env.as_ref().map_or(GeminiSettings::UNKNOWN, |env| {
        gemini_settings::read(env, home, cwd, asks_sandbox(&args))
    });
    let gemini_home = env
        .as_ref()
        .and_then(|e| e.get("GEMINI_CLI_HOME"))
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from);
    Some(GeminiSession {
        approval,
        run,
        sandbox_policy: sandbox_policy(gemini_home.as_deref().or(home)),
        settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    fn of(line: &str) -> (Option<GeminiApproval>, GeminiRun) {
        let all = args(line);
        let start = script_end(&all).expect("a gemini command line");
        parse(&all[start..])
    }

    #[test]
    fn the_recorded_command_lines() {
        // .ci/clients.sh's headless run, as its relaunched child holds it.
        assert_eq!(
            of(
                "/usr/bin/node --max-old-space-size=4096 /c/node_modules/.bin/gemini -p go -o stream-json"
            ),
            (Some(GeminiApproval::FromSettings), GeminiRun::Headless)
        );
        assert_eq!(
            of("node /c/bundle/gemini.js --approval-mode default -p go"),
            (Some(GeminiApproval::Default), GeminiRun::Headless)
        );
        assert_eq!(
            of("gemini --approval-mode=plan --prompt=go"),
            (Some(GeminiApproval::Plan), GeminiRun::Headless)
        );
        assert_eq!(
            of("gemini"),
            (
                Some(GeminiApproval::FromSettings),
                GeminiRun::MaybeInteractive
            )
        );
    }

    #[test]
    fn every_spelling_of_yolo() {
        for line in [
            "gemini -p go --yolo",
            "gemini -p go -y",
            "gemini -p go --approval-mode yolo",
            "gemini -p go --approval-mode=yolo",
            "gemini -p go --approvalMode yolo",
        ] {
            assert_eq!(of(line).0, Some(GeminiApproval::Yolo), "{line}");
        }
    }

    #[test]
    fn what_it_cannot_read_is_unknown() {
        for line in [
            "gemini -p go -sy",
            "gemini -p go --yolo=true",
            "gemini -p go --no-yolo",
            "gemini -p go --approval-mode",
            "gemini -p go --approval-mode bogus",
            "gemini -p go --approval-mode default --approval-mode yolo",
            "gemini -p go --yolo --approval-mode default",
            "gemini -p go --approval-mode-x default",
        ] {
            assert_eq!(of(line).0, None, "{line}");
        }
    }

    #[test]
    fn every_spelling_of_the_whole_cli_sandbox() {
        for line in [
            "-p go -s",
            "-p go --sandbox",
            "--sandbox=docker -p go",
            "-sp go",
            "--no-sandbox",
        ] {
            assert!(asks_sandbox(&args(line)), "{line}");
        }
        for line in ["-p go", "--approval-mode default -p go -o stream-json"] {
            assert!(!asks_sandbox(&args(line)), "{line}");
        }
    }

    #[test]
    fn only_gemini_is_read() {
        for line in [
            "node /srv/app.js -p go",
            "codex exec",
            "node",
            "/usr/bin/nodejs --x",
        ] {
            assert_eq!(script_end(&args(line)), None, "{line}");
        }
    }

    #[test]
    fn the_policy_file_is_looked_at_not_followed() {
        let dir = std::env::temp_dir().join(format!("sa-gemini-policy-{}", std::process::id()));
        let policies = dir.join(".gemini/policies");
        std::fs::create_dir_all(&policies).expect("mkdir");
        assert_eq!(sandbox_policy(Some(&dir)), Some(false));
        #[cfg(unix)]
        std::os::unix::fs::symlink("/nonexistent", policies.join("sandbox.toml")).expect("link");
        #[cfg(not(unix))]
        std::fs::write(policies.join("sandbox.toml"), "").expect("write");
        assert_eq!(sandbox_policy(Some(&dir)), Some(true));
        assert_eq!(sandbox_policy(None), None);
        std::fs::remove_dir_all(&dir).expect("clean");
    }
}
