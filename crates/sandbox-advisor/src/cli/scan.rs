//! `scan`: the report over recorded sessions, in the format asked for.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write};
use std::path::PathBuf;

use advisor_core::Locale;
use session_scan::report::{Report, html, table};
use session_scan::{Assume, Limits, Options};

use super::args::{ScanArgs, ScanFormat};
use super::commands::usage;
use super::{Exit, Io};

/// Runs `scan`.
pub(super) fn run(mut args: ScanArgs, locale: Option<Locale>, io: &mut Io<'_>) -> Exit {
    if args.paths.is_empty() {
        let (found, looked) = default_folders(&|key| std::env::var_os(key));
        if found.is_empty() {
            return usage(
                io,
                format!(
                    "scan: no path given, and none of the clients' folders exists ({}); name the files or folders to read",
                    looked.join(", ")
                ),
            );
        }
        // One write for all the lines: a Gemini home may name thousands of folders.
        let mut reading = String::new();
        for path in &found {
            let shown = path.display().to_string();
            let _ = writeln!(
                reading,
                "sandbox-advisor: scan: reading {}",
                advisor_core::quote::escaped(&shown)
            );
        }
        let _ = io.stderr.write_all(reading.as_bytes());
        args.paths = found;
    }
    // A path that is not there is a mistyped command line, not an empty scan.
    for path in &args.paths {
        if let Err(e) = std::fs::symlink_metadata(path) {
            let shown = path.display().to_string();
            return usage(
                io,
                format!("scan: {}: {e}", advisor_core::quote::escaped(&shown)),
            );
        }
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let options = Options {
        assume: Assume {
            platform: args.platform.map(Into::into),
            mode: args.mode,
            locale,
            timezone: args.timezone.unwrap_or_default(),
        },
        jobs,
        progress: !args.no_progress && std::io::stderr().is_terminal(),
        limits: Limits::default(),
    };
    let report = match session_scan::scan(&args.paths, options) {
        Ok(report) => report,
        Err(e) => return usage(io, format!("scan: {e}")),
    };
    tell_problems(&report, io);
    let text = match args.format {
        ScanFormat::Table => table::render(&report),
        ScanFormat::Json => match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(e) => return usage(io, format!("scan: the report as JSON: {e}")),
        },
        ScanFormat::Html => html::render(&report),
    };
    let written = match &args.out {
        Some(path) => std::fs::write(path, text.as_bytes()).map_err(|e| {
            let shown = path.display().to_string();
            format!(
                "scan: cannot write {}: {e}",
                advisor_core::quote::escaped(&shown)
            )
        }),
        None => io
            .stdout
            .write_all(text.as_bytes())
            .and_then(|()| io.stdout.flush())
            .map_err(|e| format!("scan: cannot write the report: {e}")),
    };
    match written {
        Ok(()) => {
            if let Some(path) = &args.out {
                // Written elsewhere: say where, so a run is not silent.
                let shown = path.display().to_string();
                let _ = writeln!(
                    io.stderr,
                    "sandbox-advisor: scan: the report ({} sessions) is in {}",
                    report.input.sessions,
                    advisor_core::quote::escaped(&shown)
                );
            }
            Exit::Success
        }
        Err(message) => usage(io, message),
    }
}

/// The clients' own session folders, as each client places them (`env` reads
/// a variable): those that exist, and every place looked at, for the error.
fn default_folders(
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> (Vec<PathBuf>, Vec<String>) {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let under = |key: &str, dot: &str, leaf: &str| -> Option<PathBuf> {
        match env(key).filter(|v| !v.is_empty()) {
            Some(dir) => Some(PathBuf::from(dir).join(leaf)),
            None => home.as_ref().map(|h| h.join(dot).join(leaf)),
        }
    };
    let places = [
        under("DSH_HOME", ".dsh", "sessions"),
        under("CLAUDE_CONFIG_DIR", ".claude", "projects"),
        under("CODEX_HOME", ".codex", "sessions"),
    ];
    let is_dir = |p: &std::path::Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    let mut found = Vec::new();
    let mut looked = Vec::new();
    for place in places.into_iter().flatten() {
        looked.push(advisor_core::quote::escaped(&place.display().to_string()).to_string());
        // A folder, not a link to one: the walk follows no link either.
        if is_dir(&place) {
            found.push(place);
        }
    }
    // Gemini CLI keeps one folder per project under its home's `.gemini/tmp`
    // (`$GEMINI_CLI_HOME`, else `HOME`), its chats in `chats/`; the rest of
    // a project's folder (logs, tool outputs, plans) is not read.
    let gemini_home = env("GEMINI_CLI_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or(home);
    if let Some(tmp) = gemini_home.map(|h| h.join(".gemini").join("tmp")) {
        let shown = tmp.join("*").join("chats");
        looked.push(advisor_core::quote::escaped(&shown.display().to_string()).to_string());
        if is_dir(&tmp) {
            let mut chats: Vec<PathBuf> = std::fs::read_dir(&tmp)
                .into_iter()
                .flatten()
                .take(GEMINI_PROJECTS_MAX)
                .filter_map(|entry| entry.ok().map(|e| e.path().join("chats")))
                .filter(|chats| chats.parent().is_some_and(is_dir) && is_dir(chats))
                .collect();
            chats.sort();
            found.extend(chats);
        }
    }
    (found, looked)
}

/// The most entries of Gemini CLI's `.gemini/tmp` looked at for a project's
/// `chats` folder (name them as paths to read more).
const GEMINI_PROJECTS_MAX: usize = 4_096;

/// Names on stderr each file or line that could not be read.
fn tell_problems(report: &Report, io: &mut Io<'_>) {
    for problem in &report.input.problems {
        let shown = problem.path.display().to_string();
        let path = advisor_core::quote::escaped(&shown);
        let at = problem.line.map(|l| format!(":{l}")).unwrap_or_default();
        let _ = writeln!(
            io.stderr,
            "sandbox-advisor: scan: {path}{at}: {}",
            problem.what
        );
    }
    let listed = report.input.problems.len() as u64;
    if report.input.problems_total > listed {
        let _ = writeln!(
            io.stderr,
            "sandbox-advisor: scan: and {} more problems",
            report.input.problems_total - listed
        );
    }
    let _ = io.stderr.flush();
}
