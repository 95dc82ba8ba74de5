//! The command line as a library, so a harness can ship its own sidecar with its
//! own families registered beside the shipped ones:
//!
//! ```no_run
//! fn main() -> std::process::ExitCode {
//!     sandbox_advisor::cli::run(host_adapter::standard_registry())
//! }
//! ```
//!
//! [`run`] reads the process's arguments and streams; [`run_with_args`] takes
//! them, so a test or an embedding program can drive the same commands in
//! process. Exit codes: 0 success, 1 "nothing to report" (explain) or invalid
//! lines (replay), 2 usage, configuration or I/O errors. `hook` never exits 2,
//! which both hook dialects read as "block the tool call": every error of its
//! own, a usage error on its command line included, is 1. A closed stdout changes
//! no exit code: `replay` reads the rest of its input and exits as a full run
//! would, `serve` stops and exits 0.

mod args;
mod commands;
mod flags;
mod install;
mod list;
mod log;
mod scan;

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal as _, Write};
use std::process::ExitCode;

use advisor_core::RegistryBuilder;
use clap::FromArgMatches as _;

use args::{Cli, Command, LogLevel};

/// How a run ended, as the process's exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done (also `--help` and `--version`).
    Success,
    /// 1: `explain` recognized nothing, `replay` read invalid lines, or `hook`
    /// could not use its payload, configuration or arguments (non-blocking).
    NothingToReport,
    /// 2: a usage, configuration, registry or I/O error, told on stderr.
    Usage,
}

impl Exit {
    /// The status code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::NothingToReport => 1,
            Exit::Usage => 2,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

/// The streams a run reads and writes. The host log (`--log`) always goes to
/// the process's stderr, where a harness routes it.
pub struct Io<'a> {
    /// The protocol input of `serve` and of `replay -`.
    pub stdin: Box<dyn BufRead + 'a>,
    /// Results: protocol lines, reports, listings, `--help`.
    pub stdout: Box<dyn Write + 'a>,
    /// Usage and error messages.
    pub stderr: Box<dyn Write + 'a>,
    /// Whether `stdout` is a terminal: `replay` then defaults to text, else to JSON.
    pub stdout_is_terminal: bool,
}

impl Io<'static> {
    /// The process's own stdin, stdout and stderr.
    pub fn process() -> Self {
        Self {
            stdin: Box::new(io::stdin().lock()),
            stdout_is_terminal: io::stdout().is_terminal(),
            stdout: Box::new(io::stdout().lock()),
            stderr: Box::new(io::stderr()),
        }
    }
}

/// Runs the command line of this process with `registry`'s families: a sidecar's
/// whole `main`. Pass [`host_adapter::standard_registry`] for the shipped
/// families, with your own appended by `.family(…)`.
pub fn run(registry: RegistryBuilder) -> ExitCode {
    run_with_args(registry, std::env::args_os(), Io::process()).into()
}

/// Runs `args` (the program name first, as in `std::env::args_os`) with
/// `registry`'s families on `io`.
pub fn run_with_args<I, T>(registry: RegistryBuilder, args: I, mut io: Io<'_>) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = flags::command();
    let parsed = command.try_get_matches_from_mut(&args).and_then(|matches| {
        let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))?;
        Ok((cli, flags::given(&matches)))
    });
    let (cli, given) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            // `--help` and `--version` are answers on stdout; the rest are usage errors.
            let (out, exit) = if e.use_stderr() {
                let exit = if names_hook(&args) {
                    Exit::NothingToReport
                } else {
                    Exit::Usage
                };
                (&mut io.stderr, exit)
            } else {
                (&mut io.stdout, Exit::Success)
            };
            let _ = write!(out, "{}", e.render()).and_then(|()| out.flush());
            return exit;
        }
    };
    if let Some(name) = given.locale_unused_by {
        let message = format!(
            "--locale: `{name}` writes no advisory or brief; it applies to {}",
            flags::LOCALIZED.join(", ")
        );
        return if names_hook(&args) {
            commands::not_blocking(&mut io, message)
        } else {
            commands::usage(&mut io, message)
        };
    }
    let default_log = match cli.command {
        Command::Hook(ref hook) if hook.action.is_some() => LogLevel::Off,
        Command::Serve { .. } | Command::Hook(_) => LogLevel::Warn,
        _ => LogLevel::Off,
    };
    log::with_log(given.log.unwrap_or(default_log), || {
        commands::dispatch(registry, cli.command, given.locale, &mut io)
    })
}

/// Whether the command line's subcommand is `hook` (the first argument that
/// is neither an option nor the value of a global one).
fn names_hook(args: &[OsString]) -> bool {
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.to_str() {
            Some("--log" | "--locale") => {
                rest.next();
            }
            Some("--") => return false,
            Some(option) if option.starts_with('-') => {}
            // `hook install` is a command of its own: its usage errors are 2.
            Some("hook") => return rest.next().and_then(|a| a.to_str()) != Some("install"),
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::names_hook;

    #[test]
    fn the_subcommand_is_found_past_global_options() {
        let names = |line: &str| names_hook(&line.split(' ').map(Into::into).collect::<Vec<_>>());
        assert!(names("sandbox-advisor hook --dialect x"));
        assert!(names("sandbox-advisor --log warn --locale=en hook"));
        assert!(names("sandbox-advisor --locale zh-CN hook --platform nope"));
        assert!(!names("sandbox-advisor explain hook"));
        assert!(!names("sandbox-advisor --log hook explain"));
        assert!(!names("sandbox-advisor"));
        assert!(!names("sandbox-advisor hook install --client x"));
    }
}
