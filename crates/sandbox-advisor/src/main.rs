//! `sandbox-advisor`: replay a recorded session, serve the line protocol, explain
//! one failure, list the families. Exit codes: 0 success, 1 "nothing to report"
//! (explain) or invalid lines (replay), 2 usage, configuration or I/O errors.
//! A closed stdout changes no exit code: `replay` reads the rest of its input
//! and exits as a full run would, `serve` stops and exits 0.

use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use advisor_core::disclosure::WITHHELD_TARGET;
use advisor_core::{Platform, SandboxMode};
use clap::{Parser, Subcommand, ValueEnum};
use sandbox_advisor::config::{self, FileConfig, shown};
use sandbox_advisor::engine::Engine;
use sandbox_advisor::explain::{self, Request, Subject};
use sandbox_advisor::families;
use sandbox_advisor::lines::DEFAULT_MAX_LINE_BYTES;
use sandbox_advisor::render::{self, ConfigSource, JsonSink, Sink, TextSink};
use sandbox_advisor::stream::{self, StreamError, WhenClosed};
use tracing::level_filters::LevelFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Recognizes sandbox environment failures in a tool-call stream and says what to do about them.
#[derive(Parser)]
#[command(name = "sandbox-advisor", version)]
struct Cli {
    /// Host-log level on stderr (default: warn for `serve`, off otherwise).
    #[arg(long, global = true, value_enum)]
    log: Option<LogLevel>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a recorded event stream (JSON lines, docs/protocol.md) through the advisor.
    Replay {
        /// The stream; `-` or absent reads stdin. A `<stem>.config.json` (or `.toml`)
        /// beside the file is used when no --config is given.
        file: Option<PathBuf>,
        /// `text` for people (the default on a terminal), `json` for programs.
        #[arg(long, value_enum)]
        format: Option<Format>,
        #[command(flatten)]
        stream: StreamArgs,
    },
    /// The same protocol as a long-running sidecar on stdin/stdout (JSON only; logs on stderr).
    Serve {
        #[command(flatten)]
        stream: StreamArgs,
    },
    /// One failure message (or a success value) → the advisory, or why nothing spoke.
    #[command(group = clap::ArgGroup::new("subject").required(true).args(["text", "value"]))]
    Explain {
        /// The failure's message (`error.message`).
        text: Option<String>,
        /// A success's canonical value, as JSON (e.g. the shell tools' foreground value).
        #[arg(long)]
        value: Option<String>,
        /// The host platform the failure came from.
        #[arg(long, value_enum, default_value = "win32")]
        platform: PlatformArg,
        /// The session's sandbox mode (absent: unknown, and families that need it withhold).
        #[arg(long, value_parser = parse_mode)]
        mode: Option<SandboxMode>,
        /// The session's workspace root.
        #[arg(long)]
        root: Option<String>,
        /// The host is the packaged Electron desktop app.
        #[arg(long)]
        electron: bool,
        /// The host's temp directory.
        #[arg(long)]
        tmpdir: Option<String>,
        /// The tool that was called.
        #[arg(long, default_value = "pwsh")]
        tool: String,
        /// An aggregate member message (repeatable).
        #[arg(long = "member")]
        members: Vec<String>,
        /// Configuration file (TOML or JSON).
        #[arg(long)]
        config: Option<PathBuf>,
        /// `text` for people, `json` for one protocol decision line.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// The compiled-in families: ids, what each recognizes and what it refuses.
    Families {
        /// `text` or `json`.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

#[derive(clap::Args)]
struct StreamArgs {
    /// Configuration file (TOML or JSON): the library keys plus defaultMode and fallbackRoot.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Longest accepted line; a longer one is skipped (unread) with an error result.
    #[arg(long, default_value_t = DEFAULT_MAX_LINE_BYTES)]
    max_line_bytes: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum PlatformArg {
    Win32,
    Linux,
    Macos,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogLevel {
    Off,
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

fn parse_mode(raw: &str) -> Result<SandboxMode, String> {
    raw.parse()
        .map_err(|e: advisor_core::UnknownMode| e.to_string())
}

const OK: u8 = 0;
const NOTHING: u8 = 1;
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let default_log = match cli.command {
        Command::Serve { .. } => LogLevel::Warn,
        _ => LogLevel::Off,
    };
    init_log(cli.log.unwrap_or(default_log));
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(rt) => rt,
        Err(e) => return fail(format!("cannot start the runtime: {e}")),
    };
    let code = match cli.command {
        Command::Replay {
            file,
            format,
            stream,
        } => replay(&runtime, file.as_deref(), format, &stream),
        Command::Serve { stream } => serve(&runtime, &stream),
        Command::Explain {
            text,
            value,
            platform,
            mode,
            root,
            electron,
            tmpdir,
            tool,
            members,
            config,
            format,
        } => {
            let subject = match (text, value) {
                (_, Some(raw)) => match serde_json::from_str(&raw) {
                    Ok(value) => Subject::Value(value),
                    Err(e) => return fail(format!("--value is not JSON: {e}")),
                },
                (Some(text), None) => Subject::Message { text, members },
                (None, None) => return fail("give a failure message or --value".into()),
            };
            let config = match load_config(config.as_deref()) {
                Ok((c, _)) => c,
                Err(code) => return ExitCode::from(code),
            };
            let platform = match platform {
                PlatformArg::Win32 => Platform::Win32,
                PlatformArg::Linux => Platform::Linux,
                PlatformArg::Macos => Platform::Macos,
            };
            let request = Request {
                subject,
                platform,
                mode,
                root,
                electron,
                tmpdir,
                tool,
                config,
            };
            match runtime.block_on(explain::explain(request)) {
                Ok(report) => {
                    match format {
                        Format::Text => print(&report.text),
                        Format::Json => match report.json_line() {
                            Ok(line) => print(&line),
                            Err(e) => return fail(e.to_string()),
                        },
                    }
                    if report.recognized { OK } else { NOTHING }
                }
                Err(e) => return fail(e.to_string()),
            }
        }
        Command::Families { format } => {
            let engine = match Engine::new(&FileConfig::default()) {
                Ok(e) => e,
                Err(e) => return fail(e.to_string()),
            };
            let listed = families::list(engine.adapter().advisor().registry());
            match format {
                Format::Text => print(&families::render(&listed)),
                Format::Json => match serde_json::to_string_pretty(&listed) {
                    Ok(json) => print(&format!("{json}\n")),
                    Err(e) => return fail(e.to_string()),
                },
            }
            OK
        }
    };
    ExitCode::from(code)
}

fn replay(
    runtime: &tokio::runtime::Runtime,
    file: Option<&Path>,
    format: Option<Format>,
    args: &StreamArgs,
) -> u8 {
    let file = file.filter(|f| f.as_os_str() != "-");
    let config_path = args
        .config
        .clone()
        .or_else(|| file.and_then(config::beside));
    let (config, config_format) = match load_config(config_path.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut engine = match Engine::new(&config) {
        Ok(e) => e,
        Err(e) => return usage(e.to_string()),
    };
    // Open the input before writing anything, so a wrong path is one error line naming it.
    let input: Box<dyn io::BufRead> = match file {
        Some(path) => match open(path) {
            Ok(f) => Box::new(BufReader::with_capacity(64 * 1024, f)),
            Err(message) => return usage(message),
        },
        None => Box::new(io::stdin().lock()),
    };
    let format = format.unwrap_or(if io::stdout().is_terminal() {
        Format::Text
    } else {
        Format::Json
    });
    let stdout = io::stdout().lock();
    let mut sink: Box<dyn Sink> = match format {
        Format::Json => Box::new(JsonSink(stdout)),
        Format::Text => {
            let source = match (&config_path, config_format, file) {
                (Some(path), Some(format), _) => ConfigSource::File {
                    path: path.clone(),
                    format,
                },
                (_, _, None) => ConfigSource::Stdin,
                _ => ConfigSource::NoneBeside,
            };
            let header = render::header(file, &source, &config.describe());
            Box::new(TextSink::new(stdout, header))
        }
    };
    match stream::run(
        &mut engine,
        runtime,
        input,
        args.max_line_bytes,
        sink.as_mut(),
        WhenClosed::Drain,
    ) {
        Ok(ran) if ran.tally.invalid > 0 => NOTHING,
        Ok(_) => OK,
        Err(e @ (StreamError::Read(_) | StreamError::Utf16(_))) => usage(format!(
            "cannot read {}: {e}",
            file.map_or_else(|| "stdin".to_owned(), shown)
        )),
        Err(e @ StreamError::Write(_)) => usage(e.to_string()),
    }
}

/// Opens a session file, refusing a directory by name (reading one fails
/// only later, with an error that names no path).
fn open(path: &Path) -> Result<File, String> {
    let not_readable = |e: io::Error| format!("cannot read {}: {e}", shown(path));
    let file = File::open(path).map_err(not_readable)?;
    match file.metadata() {
        Ok(meta) if meta.is_dir() => Err(format!(
            "cannot read {}: it is a directory; give a session file (JSON lines) or `-` for stdin",
            shown(path)
        )),
        Ok(_) => Ok(file),
        Err(e) => Err(not_readable(e)),
    }
}

fn serve(runtime: &tokio::runtime::Runtime, args: &StreamArgs) -> u8 {
    let (config, _) = match load_config(args.config.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut engine = match Engine::new(&config) {
        Ok(e) => e,
        Err(e) => return usage(e.to_string()),
    };
    tracing::info!(target: "sandbox_advisor::serve", config = %config.describe(), "serving protocol 1 on stdin/stdout");
    let mut sink = JsonSink(io::stdout().lock());
    match stream::run(
        &mut engine,
        runtime,
        io::stdin().lock(),
        args.max_line_bytes,
        &mut sink,
        WhenClosed::Stop,
    ) {
        // At the end of input, or when the harness closed our stdout: nobody is left to answer.
        Ok(_) => OK,
        Err(e @ (StreamError::Read(_) | StreamError::Utf16(_))) => {
            usage(format!("cannot read stdin: {e}"))
        }
        Err(e @ StreamError::Write(_)) => usage(e.to_string()),
    }
}

/// The configuration and the format it was read with (`None` without a file).
fn load_config(path: Option<&Path>) -> Result<(FileConfig, Option<config::Format>), u8> {
    match path {
        None => Ok((FileConfig::default(), None)),
        Some(path) => FileConfig::load(path)
            .map(|(config, format)| (config, Some(format)))
            .map_err(|e| usage(e.to_string())),
    }
}

fn usage(message: String) -> u8 {
    eprintln!("sandbox-advisor: {message}");
    USAGE
}

fn fail(message: String) -> ExitCode {
    ExitCode::from(usage(message))
}

fn print(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn init_log(level: LogLevel) {
    let filter = match level {
        LogLevel::Off => return,
        LogLevel::Error => LevelFilter::ERROR,
        LogLevel::Warn => LevelFilter::WARN,
        LogLevel::Info => LevelFilter::INFO,
        LogLevel::Debug => LevelFilter::DEBUG,
        LogLevel::Trace => LevelFilter::TRACE,
    };
    // The CLI tells withheld advisories itself, in words and once per session
    // (`sandbox_advisor::withheld`); the core's own per-agent lines on that target are dropped.
    let ours = tracing_subscriber::filter::filter_fn(|meta| {
        meta.target() != WITHHELD_TARGET
            || meta
                .module_path()
                .is_some_and(|m| m.starts_with("sandbox_advisor"))
    });
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(io::stderr)
        .with_filter(filter)
        .with_filter(ours);
    let _ = tracing_subscriber::registry().with(layer).try_init();
}
