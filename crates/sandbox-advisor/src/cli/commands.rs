//! The five commands, each writing to the run's [`Io`].

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::Path;

use advisor_core::Locale;
use advisor_core::RegistryBuilder;
use advisor_core::quote::log_field;

use super::args::{Command, ExplainArgs, Format, HookAction, HookArgs, LedgerArgs, StreamArgs};
use super::{Exit, Io};
use crate::config::{self, FileConfig, shown};
use crate::engine::Engine;
use crate::explain::{self, Request, Subject};
use crate::hook::{self, Dialect, Settings, payload};
use crate::ledger::{self, Opened, Role};
use crate::render::{self, ConfigSource, JsonSink, Sink, TextSink};
use crate::stream::{self, StreamError, WhenClosed};

/// Runs one parsed command.
pub(super) fn dispatch(
    registry: RegistryBuilder,
    command: Command,
    locale: Option<Locale>,
    io: &mut Io<'_>,
) -> Exit {
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(rt) => rt,
        Err(e) => return usage(io, format!("cannot start the runtime: {e}")),
    };
    match command {
        Command::Replay {
            file,
            format,
            detail,
            stream,
        } => replay(
            registry,
            &runtime,
            (file.as_deref(), format, detail),
            (&stream, locale),
            io,
        ),
        Command::Serve { stream, ledger } => {
            serve(registry, &runtime, (&stream, &ledger, locale), io)
        }
        Command::Explain(args) => explain(registry, &runtime, (args, locale), io),
        Command::Families {
            format,
            dialect,
            host,
        } => super::list::families(registry, (format, dialect, host.map(Into::into)), io),
        Command::Hook(HookArgs {
            action: Some(HookAction::Install(args)),
            ..
        }) => super::install::run(args, io),
        Command::Hook(args) => run_hook(registry, &runtime, (args, locale), io),
        Command::Scan(args) => super::scan::run(args, locale, io),
        Command::Collect { state_dir } => match ledger::collect(state_dir.as_deref()) {
            Ok(done) => text(io, &format!("{done}\n")),
            Err(e) => usage(io, format!("collect: {e}")),
        },
    }
}

fn explain(
    registry: RegistryBuilder,
    runtime: &tokio::runtime::Runtime,
    (args, locale): (ExplainArgs, Option<Locale>),
    io: &mut Io<'_>,
) -> Exit {
    let subject = match (args.text, args.value) {
        (_, Some(raw)) => match read_value(raw, io) {
            Ok(value) => Subject::Value(value),
            Err(e) => return usage(io, format!("--value is not JSON: {e}")),
        },
        (Some(text), None) => Subject::Message {
            text,
            members: args.members,
        },
        (None, None) => return usage(io, "give a failure message or --value".into()),
    };
    let config = match load_config(args.config.as_deref(), locale, args.host_version) {
        Ok((c, _)) => c,
        Err(message) => return usage(io, message),
    };
    let request = Request {
        subject,
        platform: args.platform.into(),
        host: args.host.into(),
        mode: args.mode,
        root: args.root,
        electron: args.electron,
        tmpdir: args.tmpdir,
        tool: args.tool,
        command: args.command,
        config,
        detail: args.detail,
    };
    let report = match runtime.block_on(explain::explain(request, registry)) {
        Ok(report) => report,
        Err(e) => return usage(io, e.to_string()),
    };
    match args.format {
        Format::Text => print(io, &report.text),
        Format::Json => match report.json_line() {
            Ok(line) => print(io, &line),
            Err(e) => return usage(io, e.to_string()),
        },
    }
    if report.recognized {
        Exit::Success
    } else {
        Exit::NothingToReport
    }
}

pub(super) fn text(io: &mut Io<'_>, text: &str) -> Exit {
    print(io, text);
    Exit::Success
}

/// `hook`: every error is exit 1 (non-blocking to both dialects), never 2.
fn run_hook(
    registry: RegistryBuilder,
    runtime: &tokio::runtime::Runtime,
    (args, locale): (HookArgs, Option<Locale>),
    io: &mut Io<'_>,
) -> Exit {
    let Some(dialect) = args.dialect.map(Dialect::from) else {
        return not_blocking(
            io,
            "hook: give --dialect claude-code, --dialect codex or --dialect gemini-cli".into(),
        );
    };
    let host = args.host.map_or(dialect.default_host(), Into::into);
    let (config, _) = match load_config(args.config.as_deref(), locale, args.host_version) {
        Ok(c) => c,
        Err(message) => return not_blocking(io, message),
    };
    let payload =
        match payload::read(&mut io.stdin).and_then(|bytes| dialect.imp().parse(host, &bytes)) {
            Ok(p) => p,
            Err(e) => return not_blocking(io, format!("{} payload: {e}", dialect.as_str())),
        };
    if args.plugin {
        if let Some(settings) = hook::install::plugin::install_answers(dialect, &payload.payload) {
            tracing::debug!(
                target: HOOK_TARGET,
                event = payload.payload.event.name,
                settings = %log_field(&settings.to_string_lossy()),
                "silent: hook install's handler in this settings file answers this event too; the plugin's hook leaves it to that one"
            );
            return Exit::Success;
        }
    }
    let opened = match open_ledger(&args.ledger, &config, Role::Hook) {
        Ok(opened) => opened,
        Err(e) => return not_blocking(io, e),
    };
    let mut engine = match hook::engine(&config, registry, opened.stores.clone()) {
        Ok(e) => e,
        Err(e) => return not_blocking(io, e.to_string()),
    };
    let settings = Settings {
        platform: args.platform.map(Into::into),
        mode: args.mode,
        host,
    };
    let exit = match hook::answer_in(dialect.imp(), &mut engine, runtime, settings, payload) {
        Ok(answer) => {
            if let Some(out) = answer.stdout {
                print(io, &format!("{out}\n"));
            }
            Exit::Success
        }
        Err(e) => not_blocking(io, e),
    };
    if let Some(dir) = opened.collection_due() {
        ledger::start_collector(&dir);
    }
    exit
}

/// The host-log target of `hook`'s own decisions.
const HOOK_TARGET: &str = "sandbox_advisor::hook";

/// The ledger the flags (else the config) name, for `role`.
fn open_ledger(args: &LedgerArgs, config: &FileConfig, role: Role) -> Result<Opened, String> {
    let spec = args.ledger.as_ref().or(config.ledger.as_ref());
    let state_dir = args.state_dir.as_deref().or(config.state_dir.as_deref());
    ledger::open(spec, state_dir, role).map_err(|e| format!("ledger: {e}"))
}

/// Tells an error of `hook` on stderr, as exit 1: the tool call goes on.
pub(super) fn not_blocking(io: &mut Io<'_>, message: String) -> Exit {
    let _ = writeln!(io.stderr, "sandbox-advisor: {message}").and_then(|()| io.stderr.flush());
    Exit::NothingToReport
}

fn replay(
    registry: RegistryBuilder,
    runtime: &tokio::runtime::Runtime,
    (file, format, detail): (Option<&Path>, Option<Format>, bool),
    (args, locale): (&StreamArgs, Option<Locale>),
    io: &mut Io<'_>,
) -> Exit {
    let file = file.filter(|f| f.as_os_str() != "-");
    let config_path = args
        .config
        .clone()
        .or_else(|| file.and_then(config::beside));
    let (config, config_format) = match load_stream_config(config_path.as_deref(), args, locale) {
        Ok(c) => c,
        Err(message) => return usage(io, message),
    };
    let mut engine = match Engine::new(&config, registry) {
        Ok(e) => e,
        Err(e) => return usage(io, e.to_string()),
    };
    // Open the input before writing anything, so a wrong path is one error line naming it.
    let mut opened;
    let input: &mut dyn io::BufRead = match file {
        Some(path) => match open(path) {
            Ok(f) => {
                opened = BufReader::with_capacity(64 * 1024, f);
                &mut opened
            }
            Err(message) => return usage(io, message),
        },
        None => &mut io.stdin,
    };
    let format = format.unwrap_or(if io.stdout_is_terminal {
        Format::Text
    } else {
        Format::Json
    });
    let mut sink: Box<dyn Sink + '_> = match format {
        Format::Json => Box::new(JsonSink(&mut io.stdout)),
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
            Box::new(TextSink::new(&mut io.stdout, header).with_detail(detail))
        }
    };
    let ran = stream::run(
        &mut engine,
        runtime,
        input,
        args.max_line_bytes,
        sink.as_mut(),
        WhenClosed::Drain,
    );
    drop(sink);
    match ran {
        Ok(ran) if ran.tally.invalid > 0 => Exit::NothingToReport,
        Ok(_) => Exit::Success,
        Err(e @ (StreamError::Read(_) | StreamError::Utf16(_))) => {
            let named = file.map_or_else(|| "stdin".to_owned(), shown);
            usage(io, format!("cannot read {named}: {e}"))
        }
        Err(e @ StreamError::Write(_)) => usage(io, e.to_string()),
    }
}

/// Opens a session file, refusing a directory by name (on Unix reading one
/// fails only later, with an error that names no path; Windows refuses to
/// open one as a file, with "access denied", which is not why).
fn open(path: &Path) -> Result<File, String> {
    let not_readable = |e: io::Error| format!("cannot read {}: {e}", shown(path));
    let directory = || {
        format!(
            "cannot read {}: it is a directory; give a session file (JSON lines) or `-` for stdin",
            shown(path)
        )
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(_) if std::fs::metadata(path).is_ok_and(|meta| meta.is_dir()) => {
            return Err(directory());
        }
        Err(e) => return Err(not_readable(e)),
    };
    match file.metadata() {
        Ok(meta) if meta.is_dir() => Err(directory()),
        Ok(_) => Ok(file),
        Err(e) => Err(not_readable(e)),
    }
}

fn serve(
    registry: RegistryBuilder,
    runtime: &tokio::runtime::Runtime,
    (args, ledger, locale): (&StreamArgs, &LedgerArgs, Option<Locale>),
    io: &mut Io<'_>,
) -> Exit {
    let (config, _) = match load_stream_config(args.config.as_deref(), args, locale) {
        Ok(c) => c,
        Err(message) => return usage(io, message),
    };
    let opened = match open_ledger(ledger, &config, Role::Serve) {
        Ok(opened) => opened,
        Err(e) => return usage(io, e),
    };
    let mut engine = match Engine::with_stores(&config, registry, opened.stores) {
        Ok(e) => e,
        Err(e) => return usage(io, e.to_string()),
    };
    tracing::info!(target: "sandbox_advisor::serve", config = %advisor_core::quote::log_field(&config.describe()), ledger = %advisor_core::quote::log_field(&opened.described), "serving protocol 1 on stdin/stdout");
    let mut sink = JsonSink(&mut io.stdout);
    let ran = stream::run(
        &mut engine,
        runtime,
        &mut io.stdin,
        args.max_line_bytes,
        &mut sink,
        WhenClosed::Stop,
    );
    match ran {
        // At the end of input, or when the harness closed our stdout: nobody is left to answer.
        Ok(_) => Exit::Success,
        Err(e @ (StreamError::Read(_) | StreamError::Utf16(_))) => {
            usage(io, format!("cannot read stdin: {e}"))
        }
        Err(e @ StreamError::Write(_)) => usage(io, e.to_string()),
    }
}

/// `--value`'s JSON: the argument, or stdin for `-` (bounded like a config file).
fn read_value(raw: String, io: &mut Io<'_>) -> Result<serde_json::Value, String> {
    let text = if raw == "-" {
        let mut text = String::new();
        let stdin: &mut dyn io::BufRead = &mut io.stdin;
        io::Read::read_to_string(&mut io::Read::take(stdin, 1 << 20), &mut text)
            .map_err(|e| format!("cannot read --value from stdin: {e}"))?;
        text
    } else {
        raw
    };
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// The configuration and the format it was read with (`None` without a file);
/// `--locale` and `--host-version`, when given, override its `locale` and `hostVersion`.
fn load_config(
    path: Option<&Path>,
    locale: Option<Locale>,
    host_version: Option<advisor_core::HostVersion>,
) -> Result<(FileConfig, Option<config::Format>), String> {
    let (mut config, format) = match path {
        None => (FileConfig::default(), None),
        Some(path) => FileConfig::load(path)
            .map(|(config, format)| (config, Some(format)))
            .map_err(|e| e.to_string())?,
    };
    if let Some(locale) = locale {
        config.core.locale = locale;
    }
    if host_version.is_some() {
        config.core.host_version = host_version;
    }
    Ok((config, format))
}

/// [`load_config`] for `replay` and `serve`, whose `--mode` overrides the
/// config's `defaultMode`.
fn load_stream_config(
    path: Option<&Path>,
    args: &StreamArgs,
    locale: Option<Locale>,
) -> Result<(FileConfig, Option<config::Format>), String> {
    let (mut config, format) = load_config(path, locale, args.host_version)?;
    if args.mode.is_some() {
        config.default_mode = args.mode;
    }
    Ok((config, format))
}

/// Tells a usage, configuration or I/O error on stderr.
pub(super) fn usage(io: &mut Io<'_>, message: String) -> Exit {
    let _ = writeln!(io.stderr, "sandbox-advisor: {message}").and_then(|()| io.stderr.flush());
    Exit::Usage
}

fn print(io: &mut Io<'_>, text: &str) {
    let _ = io
        .stdout
        .write_all(text.as_bytes())
        .and_then(|()| io.stdout.flush());
}
