//! The command line: what `sandbox-advisor --help` describes.

use std::path::PathBuf;

use advisor_core::{Host, HostVersion, Locale, Platform, SandboxMode};
use clap::{Parser, Subcommand, ValueEnum};

use crate::hook::Dialect;
use crate::ledger::LedgerSpec;
use crate::lines::DEFAULT_MAX_LINE_BYTES;
use advisor_core::config::docs::{cli_help as config_help, cli_long_help as config_long_help};

/// Recognizes sandbox environment failures in a tool-call stream and says what to do about them.
// `--log` and `--locale` are added per subcommand (`super::flags`), each with its own help.
#[derive(Parser)]
#[command(name = "sandbox-advisor", version)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Run a recorded event stream (JSON lines, docs/protocol.md) through the advisor.
    Replay {
        /// The stream; `-` or absent reads stdin. A `<stem>.config.json` (or `.toml`)
        /// beside the file is used when no --config is given.
        file: Option<PathBuf>,
        /// `text` for people (the default on a terminal), `json` for programs.
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// With `--format text`: each advisory's full account after its brief.
        #[arg(long)]
        detail: bool,
        #[command(flatten)]
        stream: StreamArgs,
    },
    /// The same protocol as a long-running sidecar on stdin/stdout (JSON only; logs on stderr).
    Serve {
        #[command(flatten)]
        stream: StreamArgs,
        #[command(flatten)]
        ledger: LedgerArgs,
    },
    /// One failure message (or a success value) → the advisory, or why nothing spoke.
    #[command(group = clap::ArgGroup::new("subject").required(true).args(["text", "value"]))]
    Explain(ExplainArgs),
    /// The compiled-in families: ids, what each recognizes and what it refuses.
    Families {
        /// `text` or `json`.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Instead: which families work through this dialect's hook payload, which may carry only text.
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// Only the families that know this agent host's failures (with `--dialect`:
        /// default, the dialect's own client).
        #[arg(long, value_enum)]
        host: Option<HostArg>,
    },
    /// One Claude Code, Codex or Gemini CLI hook event on stdin → the dialect's answer on stdout, or nothing.
    ///
    /// Never exits 2, which both dialects read as "block the tool call": a payload,
    /// configuration or command line it cannot use is exit 1, with the reason on stderr.
    Hook(HookArgs),
    /// Read recorded sessions and report what sandbox failures cost there, per family,
    /// and where the advisor would have spoken.
    ///
    /// Reads DeepSeek harness session logs (`~/.dsh/sessions`, plain or zstd, formats
    /// v0 to v3, and the web export's .zip), Claude Code transcripts
    /// (`~/.claude/projects`), Codex rollouts (`~/.codex/sessions`) and Gemini CLI
    /// chats (`~/.gemini/tmp/*/chats`). A file it cannot read is named on stderr and
    /// the scan goes on; the exit status is 0 whenever a report was written.
    Scan(ScanArgs),
    /// Collect the on-disk ledger (agents past 7 days or beyond 10 000) if a
    /// collection is due; `hook` starts this detached after answering.
    Collect {
        /// The on-disk store's directory (default: $SANDBOX_ADVISOR_STATE_DIR, else
        /// the per-user state directory).
        #[arg(long)]
        state_dir: Option<PathBuf>,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(super) struct HookArgs {
    #[command(subcommand)]
    pub action: Option<HookAction>,
    /// The payload's dialect.
    #[arg(long, value_enum, required = true)]
    pub dialect: Option<DialectArg>,
    /// The agent host the hook runs in (default: the dialect's client; `dsh` for the
    /// DeepSeek harness's hook bridges). Only that host's families are asked.
    #[arg(long, value_enum)]
    pub host: Option<HostArg>,
    /// The host platform (default: this machine's).
    #[arg(long, value_enum)]
    pub platform: Option<PlatformArg>,
    /// The client's sandbox mode (default: the config's `defaultMode`; absent both, no
    /// mode is assumed and the families that need one withhold).
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<SandboxMode>,
    /// The DSH Desktop version hosting the harness, MAJOR.MINOR.PATCH (overrides the
    /// config's `hostVersion`; absent: unknown, and advisories give each version branch).
    #[arg(long, value_parser = parse_host_version)]
    pub host_version: Option<HostVersion>,
    // The help is built from `advisor_core::config::KEYS`, so it lists every key.
    #[arg(long, help = config_help(), long_help = config_long_help())]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Run by the sandbox-advisor plugin: stay silent for an event that `hook install`'s
    /// handler answers too (in the user's or the project's settings), so a call is advised once.
    #[arg(long)]
    pub plugin: bool,
}

#[derive(Subcommand)]
pub(super) enum HookAction {
    /// Mount the advisor in Claude Code's or Codex's hook settings (edited in place: every
    /// other hook and byte stays).
    Install(InstallArgs),
}

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("scope").args(["project", "user"]))]
pub(super) struct InstallArgs {
    /// The client whose settings are edited.
    #[arg(long, value_enum)]
    pub client: DialectArg,
    /// The project's settings (Claude Code: DIR/.claude/settings.json; Codex:
    /// DIR/.codex/hooks.json). The default, with DIR the current directory.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The user's settings instead (~/.claude/settings.json; $CODEX_HOME/hooks.json).
    #[arg(long)]
    pub user: bool,
    /// The binary the hook runs (default: this one, by its absolute path).
    #[arg(long, value_name = "PATH")]
    pub bin: Option<PathBuf>,
    /// Passed on to every hook run: the client's sandbox mode, when you know it.
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<SandboxMode>,
    /// Passed on to every hook run: a configuration file.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Codex: trust the hooks this install wrote (only those) through `codex app-server`.
    #[arg(long)]
    pub trust: bool,
    /// Only report what the settings file holds and (Codex) whether Codex trusts it; exit 1
    /// when a hook is missing, untrusted, unlike the flags given, or its trust cannot be
    /// checked. Nothing is written.
    #[arg(long)]
    pub check: bool,
    /// Codex: the `codex` binary used for --trust and --check (default: `codex` on PATH).
    #[arg(long, value_name = "PATH", default_value = "codex")]
    pub codex: PathBuf,
}

/// Where the once-per-agent facts live (`serve` and `hook`).
#[derive(clap::Args)]
pub(super) struct LedgerArgs {
    /// `memory`, `file` or `redis://host:port/db` (overrides the config's `ledger`;
    /// default: `memory` for serve, `file` for hook).
    #[arg(long, value_parser = crate::ledger::LedgerParser)]
    pub ledger: Option<LedgerSpec>,
    /// The on-disk store's directory (overrides `stateDir`; default:
    /// $SANDBOX_ADVISOR_STATE_DIR, else the per-user state directory).
    #[arg(long)]
    pub state_dir: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum DialectArg {
    /// Claude Code's hooks (and the harness's `@deepseek-ai/dsh-hooks-claude-code`).
    ClaudeCode,
    /// Codex's hooks (and the harness's `@deepseek-ai/dsh-hooks-codex`).
    Codex,
    /// Gemini CLI's hooks (BeforeTool, AfterTool).
    GeminiCli,
}

impl From<DialectArg> for Dialect {
    fn from(arg: DialectArg) -> Self {
        match arg {
            DialectArg::ClaudeCode => Dialect::ClaudeCode,
            DialectArg::Codex => Dialect::Codex,
            DialectArg::GeminiCli => Dialect::GeminiCli,
        }
    }
}

/// The agent hosts.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum HostArg {
    /// The DeepSeek harness (the TypeScript or Rust harness, DSH Desktop, or its hook bridges).
    Dsh,
    /// Claude Code.
    ClaudeCode,
    /// Codex.
    Codex,
    /// Gemini CLI.
    GeminiCli,
}

impl From<HostArg> for Host {
    fn from(arg: HostArg) -> Self {
        match arg {
            HostArg::Dsh => Host::Dsh,
            HostArg::ClaudeCode => Host::ClaudeCode,
            HostArg::Codex => Host::Codex,
            HostArg::GeminiCli => Host::GeminiCli,
        }
    }
}

#[derive(clap::Args)]
pub(super) struct ScanArgs {
    /// Files or directories to read (directories are walked; links are not followed).
    /// None given: the clients' own folders that exist (`$DSH_HOME/sessions` or
    /// `~/.dsh/sessions`, `$CLAUDE_CONFIG_DIR/projects` or `~/.claude/projects`,
    /// `$CODEX_HOME/sessions` or `~/.codex/sessions`, and each project's
    /// `$GEMINI_CLI_HOME/.gemini/tmp/*/chats` or `~/.gemini/tmp/*/chats`).
    pub paths: Vec<PathBuf>,
    /// `table` for people, `json` for programs (docs/scan/report.md), `html` for one
    /// self-contained page with charts.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ScanFormat,
    /// Write the report to this file instead of stdout.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// The platform the sessions were recorded on (default: read from each session's
    /// working directory, `X:\` being Windows; else Linux).
    #[arg(long, value_enum)]
    pub platform: Option<PlatformArg>,
    /// The sandbox mode in force before a session records one (default: the harness's
    /// `read-only` for DeepSeek sessions; none for Claude Code, whose transcripts never
    /// say it).
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<SandboxMode>,
    /// The IANA time zone whose days the report's days are, as `ccusage --timezone`
    /// (e.g. `Europe/Berlin`; default: UTC).
    #[arg(long, value_parser = parse_zone, value_name = "ZONE")]
    pub timezone: Option<session_scan::Zone>,
    /// Files read at once (default: the cores available).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ScanFormat {
    Table,
    Json,
    Html,
}

#[derive(clap::Args)]
pub(super) struct ExplainArgs {
    /// The failure's message (`error.message`).
    pub text: Option<String>,
    /// A success's canonical value, as JSON (e.g. the shell tools' foreground value); `-` reads it from stdin.
    #[arg(long)]
    pub value: Option<String>,
    /// The host platform the failure came from.
    #[arg(long, value_enum, default_value = "win32")]
    pub platform: PlatformArg,
    /// The agent host the failure came from: only its families are asked.
    #[arg(long, value_enum, default_value = "dsh")]
    pub host: HostArg,
    /// The session's sandbox mode (absent: unknown, and families that need it withhold).
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<SandboxMode>,
    /// The DSH Desktop version hosting the harness, MAJOR.MINOR.PATCH (overrides the
    /// config's `hostVersion`; absent: unknown, and advisories give each version branch).
    #[arg(long, value_parser = parse_host_version)]
    pub host_version: Option<HostVersion>,
    /// The session's workspace root.
    #[arg(long)]
    pub root: Option<String>,
    /// The host is the packaged Electron desktop app.
    #[arg(long)]
    pub electron: bool,
    /// The host's temp directory.
    #[arg(long)]
    pub tmpdir: Option<String>,
    /// The tool that was called.
    #[arg(long, default_value = "pwsh")]
    pub tool: String,
    /// The call's `command` argument (the families that read the paths a call names need it).
    #[arg(long)]
    pub command: Option<String>,
    /// An aggregate member message (repeatable).
    #[arg(long = "member")]
    pub members: Vec<String>,
    // The help is built from `advisor_core::config::KEYS`, so it lists every key.
    #[arg(long, help = config_help(), long_help = config_long_help())]
    pub config: Option<PathBuf>,
    /// `text` for people, `json` for one protocol decision line.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// With `--format text`: the advisory's full account after its brief.
    #[arg(long)]
    pub detail: bool,
}

#[derive(clap::Args)]
pub(super) struct StreamArgs {
    // The help is built from `advisor_core::config::KEYS`, so it lists every key.
    #[arg(long, help = config_help(), long_help = config_long_help())]
    pub config: Option<PathBuf>,
    /// Longest accepted line; a longer one is skipped (unread) with an error result.
    #[arg(long, default_value_t = DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: usize,
    /// A session's sandbox mode until a `sandbox-mode` line states one (overrides the
    /// config's `defaultMode`; absent both: `read-only`, the harness's own default,
    /// for a harness stream, and none for another host's).
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<SandboxMode>,
    /// The DSH Desktop version hosting the harness, MAJOR.MINOR.PATCH (overrides the
    /// config's `hostVersion`; absent: unknown, and advisories give each version branch).
    #[arg(long, value_parser = parse_host_version)]
    pub host_version: Option<HostVersion>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum PlatformArg {
    Win32,
    Linux,
    Macos,
}

impl From<PlatformArg> for Platform {
    fn from(arg: PlatformArg) -> Self {
        match arg {
            PlatformArg::Win32 => Platform::Win32,
            PlatformArg::Linux => Platform::Linux,
            PlatformArg::Macos => Platform::Macos,
        }
    }
}

/// A `--log` level.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum LogLevel {
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

fn parse_host_version(raw: &str) -> Result<HostVersion, String> {
    raw.parse()
        .map_err(|e: advisor_core::HostVersionError| e.to_string())
}

/// `--locale`'s parser.
pub(super) fn parse_locale(raw: &str) -> Result<Locale, String> {
    raw.parse()
}

fn parse_zone(name: &str) -> Result<session_scan::Zone, String> {
    session_scan::Zone::named(name).map_err(|e| e.to_string())
}
