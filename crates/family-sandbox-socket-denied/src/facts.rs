//! What the gate, the brief and the detail all read: whether the network is
//! off for this session as far as the advisor knows, why, and the decision
//! codes.
//!
//! Codex turns the network off for sandboxed commands under `read-only`,
//! and under `workspace-write` unless `sandbox_workspace_write.network_access`
//! is true (its seccomp filter then refuses every socket but a Unix one).
//! The advisor knows the mode (stated with `--mode`, else `sandbox_mode` of
//! Codex's configuration) and reads `network_access` from the configuration
//! files; a `-c` on Codex's command line is not visible to a hook.

use advisor_core::{
    ClaudeSandbox, CodexConfig, Environment, SandboxMode, Unresolved, WithholdReason,
};

/// Declined: `danger-full-access` confines nothing.
pub const UNCONFINED: &str = "unconfined-mode";
/// Declined: Codex's configuration turns the network on.
pub const NETWORK_ON: &str = "network-access-on";
/// Declined: this host refuses this user an inet socket outside the sandbox too.
pub const HOST_REFUSES: &str = "host-refuses-sockets";
/// Declined: a bare connection failure in Claude Code, whose sandbox
/// reports its own refusals in a block of its own.
pub const NO_SANDBOX_REPORT: &str = "no-sandbox-report";
/// Declined: the sandbox is off in Claude Code's settings.
pub const SANDBOX_OFF: &str = "sandbox-off";
/// Withheld: the network may be on (Codex's configuration could not be read).
pub const NETWORK_UNKNOWN: &str = "network-state-unknown";
/// Withheld: under Gemini CLI, whose approval mode (network off in the
/// default mode, on in yolo) the advisor does not know.
pub const GEMINI_NETWORK_UNKNOWN: &str = "gemini-network-mode-unknown";
/// Withheld: Gemini CLI runs interactively (or not known to be headless),
/// where the user can change the approval mode while it runs, and its
/// settings are not known to forbid yolo mode.
pub const GEMINI_MODE_MAY_CHANGE: &str = "gemini-mode-may-change";
/// Declined: Gemini CLI runs in yolo mode, whose tool sandbox gives the network.
pub const GEMINI_YOLO: &str = "gemini-yolo-network-on";
/// Withheld: the user's `~/.gemini/policies/sandbox.toml` exists (or could
/// not be looked at), and it can give a mode or a command the network.
pub const GEMINI_SANDBOX_POLICY: &str = "gemini-sandbox-policy";
/// Withheld: a failure Gemini CLI did not mark, while Gemini's settings
/// (`security.toolSandboxing`) could not be read, or the failure is not one
/// its tool sandbox leaves (an unresolved name or a failed connection).
pub const GEMINI_NOT_MARKED: &str = "gemini-not-marked";
/// Declined: a failure Gemini CLI did not mark, and its settings leave the
/// tool sandbox off: the command ran outside any sandbox of Gemini's.
pub const GEMINI_TOOL_SANDBOX_OFF: &str = "gemini-tool-sandbox-off";
/// Withheld: a failure Gemini CLI did not mark, while Gemini may run whole
/// inside a sandbox of its own (`tools.sandbox`, `GEMINI_SANDBOX`, `-s`),
/// whose network is not the tool sandbox's.
pub const GEMINI_CLI_SANDBOX: &str = "gemini-cli-sandbox";
/// Withheld: a failure Gemini CLI did not mark, in an interactive session,
/// where the user may have granted a command the network for the session.
pub const GEMINI_INTERACTIVE_UNMARKED: &str = "gemini-interactive-unmarked";
/// Withheld: Codex's configuration could not be read.
pub const CODEX_CONFIG_UNREADABLE: &str = "codex-config-unreadable";
/// Withheld: Claude Code's settings could not all be read.
pub const CLAUDE_SETTINGS_UNREADABLE: &str = "claude-settings-unreadable";

/// Why the network is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Off {
    /// Codex's `read-only`.
    ReadOnlyMode,
    /// Codex's `workspace-write` without `network_access`.
    NoNetworkAccess,
}

/// The network as the advisor knows it for a Codex session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    /// Off, for this reason.
    Off(Off),
    /// Not known: the configuration could not be read.
    Unknown,
}

/// What the gate decides before speaking, when it does not speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Not {
    /// Withhold, with the reason.
    Withhold(WithholdReason),
    /// Decline, with the code.
    Decline(&'static str),
}

fn other(code: &'static str) -> Not {
    Not::Withhold(WithholdReason::Other(code))
}

/// The session's mode for Codex: the stated one, else its configuration's.
pub fn codex_mode(env: &Environment) -> Result<SandboxMode, Not> {
    match env.mode() {
        Ok(mode) => Ok(mode),
        Err(Unresolved::NoModeStated) => match &env.checks.codex_config {
            Some(CodexConfig::Read(config)) => config.mode.ok_or(Not::Withhold(
                WithholdReason::Unresolved(Unresolved::NoModeStated),
            )),
            Some(CodexConfig::Unreadable(_)) | None => Err(other(CODEX_CONFIG_UNREADABLE)),
        },
        Err(why) => Err(Not::Withhold(WithholdReason::Unresolved(why))),
    }
}

/// Whether the network is off for this Codex session, and why.
pub fn network(env: &Environment) -> Result<Network, Not> {
    match codex_mode(env)? {
        SandboxMode::DangerFullAccess => Err(Not::Decline(UNCONFINED)),
        SandboxMode::ReadOnly => Ok(Network::Off(Off::ReadOnlyMode)),
        SandboxMode::WorkspaceWrite => match &env.checks.codex_config {
            Some(CodexConfig::Read(config)) if config.network_access == Some(true) => {
                Err(Not::Decline(NETWORK_ON))
            }
            Some(CodexConfig::Read(_)) => Ok(Network::Off(Off::NoNetworkAccess)),
            Some(CodexConfig::Unreadable(_)) | None => Ok(Network::Unknown),
        },
    }
}

/// Whether Claude Code's settings turn its sandbox on.
pub fn claude_sandbox_on(env: &Environment) -> Result<(), Not> {
    match &env.checks.claude_sandbox {
        Some(ClaudeSandbox {
            enabled: Some(true),
            ..
        }) => Ok(()),
        Some(ClaudeSandbox {
            enabled: Some(false),
            ..
        }) => Err(Not::Decline(SANDBOX_OFF)),
        _ => Err(other(CLAUDE_SETTINGS_UNREADABLE)),
    }
}
