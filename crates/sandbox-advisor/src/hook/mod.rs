//! `sandbox-advisor hook --dialect claude-code|codex|gemini-cli`: one hook
//! event in, the dialect's answer out. Each dialect is a [`dialect::HookDialect`];
//! Gemini CLI's is [`gemini_cli`], whose payload and answers differ from the
//! two below.
//!
//! Claude Code, Codex and the TypeScript harness's bridges
//! (`@deepseek-ai/dsh-hooks-claude-code`, `@deepseek-ai/dsh-hooks-codex`,
//! which run a Claude-Code- or Codex-style hook config on the harness's tool
//! seams) start one process per hook event and hand it one JSON payload on
//! stdin. This module reads it ([`payload`]), turns it into the protocol's
//! events and runs them through the same [`Engine`] as `serve`, then writes
//! the dialect's answer ([`output`]).
//!
//! # The payload
//!
//! The field sets are facts from the dialects' references ([`mod@reference`]).
//! Read: `hook_event_name` (which event; one the dialect does not have is
//! refused), `session_id`, `agent_id` (a subagent's call, in both dialects),
//! `cwd`, `tool_name`, `tool_use_id`, `tool_input`, and `tool_response`
//! (PostToolUse) or `error` (Claude Code's PostToolUseFailure). Any other
//! field is skipped unread. At most [`payload::PAYLOAD_MAX_BYTES`] (8 MiB)
//! are read; a longer payload is malformed. A UTF-8 byte-order mark at its
//! start (as Windows tools write one) is skipped; a payload in UTF-16 is
//! refused by name. The payload is read to a depth of 128 levels, its own
//! object being the first: an array or object of `tool_input` that lies
//! deeper is left out, with a note on the host log, and the event is decided
//! on the rest (`docs/protocol.md`, "Transport"). A string field nested in
//! arrays is the wrong type, and refused as one.
//!
//! - **Agent**: the session id, or `<session_id>/<agent_id>` when the payload
//!   names a subagent, so a subagent is an agent of its own, in its parent's
//!   session. Ids longer than 256 bytes take the protocol's short form.
//! - **Session and root**: `session_id`, opened with `cwd` as its workspace
//!   root (a payload without `cwd` falls back to the config's `fallbackRoot`).
//! - **Call**: `tool_use_id`. Both references carry it; a payload without it
//!   gets an id of this invocation alone, so it is never mistaken for
//!   another call (and cannot be paired with its `pre`).
//!
//! # What a response may say
//!
//! A hook payload is text the host wrote about the call, not the call's
//! result object, and the bridges flatten `tool_response` to text. So:
//!
//! - Claude Code's PostToolUseFailure `error` is a failure whose message is
//!   that text, rendered as the harness renders one (`Error: <message>`).
//! - A `tool_response` string is read as a failure only in the harness's
//!   rendering of a failed call: the whole text begins with `Error: `
//!   ([`payload::FAILURE_ENVELOPE`]), which the bridges deliver on PostToolUse
//!   (neither has a failure event). The rest of the text is the message,
//!   and each family's own anchors still decide (a line start, an exact
//!   sentence). A success whose output begins with those words reads the
//!   same: a flattened payload cannot tell the two apart. Any other string
//!   is a success whose rendered text is that string.
//! - Nothing in a payload is taken for the producer's structured value. A
//!   success's value is always `null`: a line of text must never pass for
//!   a loader status, and a JSON `tool_response` is the host's own account
//!   of its tool (Claude Code's and Codex's shapes, or an MCP server's),
//!   with no proof that the harness's executor wrote an `exitCode` or a
//!   `sandbox.denied` stamp inside it. So the families that read the shell
//!   value (`Anchors::ForegroundRun`: native-init's exit code,
//!   workspace-denial's stamp, cim's value stderr) stay silent on every hook
//!   payload; `families --dialect` lists which families work through one.
//!   A success still tells the fail-fast budget that the call succeeded.
//!
//! # Events, and what comes out
//!
//! Each invocation runs a `host` event (the OS's platform, or `--platform`;
//! the OS's temp directory only when the platform is the OS's own), a
//! `session` event with `cwd`, a `sandbox-mode` event when `--mode` is given
//! (else the config's `defaultMode` applies), then `pre` or `post`.
//!
//! - An advisory: `hookSpecificOutput.additionalContext` holds its `text`
//!   (several: joined by a blank line), with `hookEventName`.
//! - A fail-fast refusal on PreToolUse: `permissionDecision: "deny"` with the
//!   refusal's reason as `permissionDecisionReason`.
//! - Silence: nothing on stdout, exit 0.
//! - Withheld advisories go to the host log (stderr, `--log`), never to stdout.
//! - A payload that cannot be used: exit 1, one line on stderr naming the
//!   field. `hook` never exits 2: both dialects read exit 2 as "block the
//!   tool call", and a broken advisor must let the call through.
//!
//! # Facts checked outside the sandbox
//!
//! The hook runs on the client's host, as its child, outside the sandbox the
//! client starts for each command. For a failure a family recognized (and
//! only then), the families that name checks get them from [`probe`]: whether
//! this host can create a user namespace, where Codex keeps its home, Claude
//! Code's own sandbox settings, whether `bwrap` lies on the `PATH` the client
//! handed the hook (Gemini CLI), and how much of the text Claude Code wrote in
//! a field of its own ([`payload::Payload::client_tail`]). That is how a
//! family tells the sandbox's words from a command that printed them, and
//! only a proven failure may feed the fail-fast budget
//! (`advisor_core::provenance`). `serve`, `replay` and `explain` have no probe:
//! every fact is unknown there, so no client family's finding is proven.
//!
//! "Once per agent per family" and the fail-fast budget hold across
//! invocations through a shared ledger store handed to [`engine`]: the
//! on-disk store by default (`--state-dir`), or Redis (`--ledger`), see
//! `crate::ledger`.

pub mod dialect;
pub mod gemini_cli;
pub mod install;
#[cfg(unix)]
pub mod mount;
pub mod output;
pub mod payload;
pub mod probe;
pub mod reference;
pub mod trust;

use std::sync::Arc;

use advisor_core::{Host, HostFacts, LedgerStore, Platform, RegistryBuilder, SandboxMode};
use host_adapter::AdapterError;

use crate::config::FileConfig;
use crate::engine::{Decision, Engine, Handled};
use crate::protocol::{Call, Event, PostOutcome};
use crate::withheld::{self, Told};
use payload::Payload;
use reference::Reference;

/// The hook dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Claude Code (and `@deepseek-ai/dsh-hooks-claude-code`).
    ClaudeCode,
    /// OpenAI Codex (and `@deepseek-ai/dsh-hooks-codex`).
    Codex,
    /// Google's Gemini CLI ([`gemini_cli`]).
    GeminiCli,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 3] = [Dialect::ClaudeCode, Dialect::Codex, Dialect::GeminiCli];

    /// Its module: how its payload is read and its answer written.
    pub fn imp(self) -> &'static dyn dialect::HookDialect {
        static CLAUDE_CODE: dialect::Shared =
            dialect::Shared(&reference::CLAUDE_CODE, Host::ClaudeCode);
        static CODEX: dialect::Shared = dialect::Shared(&reference::CODEX, Host::Codex);
        match self {
            Dialect::ClaudeCode => &CLAUDE_CODE,
            Dialect::Codex => &CODEX,
            Dialect::GeminiCli => &gemini_cli::GeminiCli,
        }
    }

    /// Its facts: events, input and output fields.
    pub fn reference(self) -> &'static Reference {
        self.imp().reference()
    }

    /// Its name on the command line.
    pub fn as_str(self) -> &'static str {
        self.reference().dialect
    }

    /// The host a hook of this dialect runs in unless `--host` says
    /// otherwise: the client whose dialect it is. The harness's hook
    /// bridges speak both dialects and are `--host dsh`.
    pub fn default_host(self) -> Host {
        self.imp().default_host()
    }
}

/// What the command line says about the host and the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The host platform; `None`: this process's.
    pub platform: Option<Platform>,
    /// The session's sandbox mode; `None`: the config's `defaultMode`, else
    /// none (a family that needs the mode withholds; nothing is assumed).
    pub mode: Option<SandboxMode>,
    /// The agent host (`--host`; by default the dialect's own client).
    pub host: Host,
}

/// The advisor's answer to one payload.
#[derive(Debug)]
pub struct Answer {
    /// The object to write on stdout; `None` for silence.
    pub stdout: Option<serde_json::Value>,
    /// The decision it was made from.
    pub decision: Decision,
}

/// The one place the hook's engine is built: over `stores` (`crate::ledger`,
/// by default the on-disk store), so "once per agent" and the budget hold
/// across the processes the host starts.
pub fn engine(
    config: &FileConfig,
    registry: RegistryBuilder,
    stores: Vec<Arc<dyn LedgerStore>>,
) -> Result<Engine, AdapterError> {
    Engine::for_hook(config, registry, stores)
}

/// Runs `payload` through `engine` and renders the answer in the
/// `hookSpecificOutput` form Claude Code and Codex share; withheld
/// advisories are told on the host log.
pub fn answer(
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    settings: Settings,
    payload: Payload,
) -> Result<Answer, String> {
    let parsed = dialect::Parsed {
        payload,
        call: dialect::CallFacts::default(),
    };
    answer_in(Dialect::ClaudeCode.imp(), engine, runtime, settings, parsed)
}

/// Runs `parsed` through `engine` and renders the answer as `dialect` writes
/// it; withheld advisories are told on the host log.
pub fn answer_in(
    dialect: &dyn dialect::HookDialect,
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    settings: Settings,
    parsed: dialect::Parsed,
) -> Result<Answer, String> {
    let dialect::Parsed { payload, call } = parsed;
    let event = payload.event;
    // Facts checked outside the sandbox, asked only for a recognized failure.
    engine.set_probe(Arc::new(probe::HookProbe::new(
        payload.cwd.clone(),
        payload.client_tail,
    )));
    let decision = runtime.block_on(decide(engine, settings, payload))?;
    for w in &decision.withheld {
        withheld::log(
            decision.session.as_ref(),
            decision.agent.as_ref(),
            w,
            Told::First,
        );
    }
    Ok(Answer {
        stdout: dialect.render(event, &decision, &call),
        decision,
    })
}

async fn decide(
    engine: &mut Engine,
    settings: Settings,
    payload: Payload,
) -> Result<Decision, String> {
    let os = HostFacts::current();
    let platform = settings.platform.unwrap_or(os.platform);
    let mut events = vec![
        Event::Host {
            host: settings.host,
            platform,
            electron: false,
            // The OS's temp directory is a path of the OS's grammar.
            tmpdir: os.temp_dir.filter(|_| platform == os.platform),
        },
        Event::Session {
            session: payload.session.clone(),
            cwd: payload.cwd,
        },
    ];
    if let Some(mode) = settings.mode {
        events.push(Event::SandboxMode {
            session: payload.session.clone(),
            mode,
        });
    }
    let call = Call {
        agent: Some(payload.agent),
        session: Some(payload.session),
        call: payload.call,
        tool: payload.tool,
        args: payload.args,
    };
    events.push(match payload.outcome {
        None => Event::Pre(call),
        Some(outcome) => Event::Post(
            call,
            PostOutcome {
                mode: None,
                outcome,
            },
        ),
    });
    let mut decision = None;
    for event in events {
        if let Handled::Decision(d) = engine.handle(event).await? {
            decision = Some(d);
        }
    }
    decision.ok_or_else(|| "the engine made no decision on the call".to_owned())
}

#[cfg(test)]
mod tests;
