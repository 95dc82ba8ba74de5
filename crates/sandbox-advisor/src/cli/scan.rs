//! `scan`: the report over recorded sessions, in the format asked for.

use std::io::{IsTerminal as _, Write};

use advisor_core::Locale;
use session_scan::report::{Report, html, table};
use session_scan::{Assume, Limits, Options};

use super::args::{ScanArgs, ScanFormat};
use super::commands::usage;
use super::{Exit, Io};

/// Runs `scan`.
pub(super) fn run(args: ScanArgs, locale: Option<Locale>, io: &mut Io<'_>) -> Exit {
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
        Ok(()) => Exit::Success,
        Err(message) => usage(io, message),
    }
}

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
