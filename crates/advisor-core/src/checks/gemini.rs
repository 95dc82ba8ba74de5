//! Gemini CLI's session as its own command line sets it ([`Check::GeminiMode`](super::Check::GeminiMode)).
//!
//! Gemini CLI 0.61.0's tool sandbox gives commands no network in its
//! `default`, `auto_edit` and `plan` approval modes and the network in
//! `yolo` (`policies/sandbox-default.toml` in its bundle). Yolo can be set
//! only on its command line (`--yolo`, `-y`, `--approval-mode yolo`): the
//! settings' `general.defaultApprovalMode` is ignored when it says `yolo`
//! (read in its bundle, `loadCliConfig`). An interactive session can change
//! the mode while it runs; a headless one (`-p`) cannot. The user's
//! `~/.gemini/policies/sandbox.toml` replaces the modes' defaults and can
//! give a mode or a command the network.

/// The approval mode Gemini CLI's command line sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiApproval {
    /// No flag sets it: the settings' `general.defaultApprovalMode`, never yolo.
    FromSettings,
    /// `--approval-mode default`.
    Default,
    /// `--approval-mode auto_edit`.
    AutoEdit,
    /// `--approval-mode plan`.
    Plan,
    /// `--yolo`, `-y`, or `--approval-mode yolo`: the tool sandbox gives the network.
    Yolo,
}

impl GeminiApproval {
    /// Parses a fixture's or the command line's spelling (`default`, `auto_edit`, `plan`, `yolo`, `from-settings`).
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "from-settings" => Self::FromSettings,
            "default" => Self::Default,
            "auto_edit" => Self::AutoEdit,
            "plan" => Self::Plan,
            "yolo" => Self::Yolo,
            _ => return None,
        })
    }
}

/// Whether the mode can change while Gemini CLI runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiRun {
    /// A headless run (`-p`/`--prompt`): the mode stays as started.
    Headless,
    /// Interactive, or not known to be headless: the user can change the mode.
    MaybeInteractive,
}

/// What the probe read of Gemini CLI's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GeminiSession {
    /// The approval mode its command line sets; `None` when an argument
    /// could set it in a way the probe does not read.
    pub approval: Option<GeminiApproval>,
    /// Headless or not.
    pub run: GeminiRun,
    /// Whether `~/.gemini/policies/sandbox.toml` exists (any kind of entry);
    /// `None` when that could not be told.
    pub sandbox_policy: Option<bool>,
    /// What Gemini CLI's settings files say, merged as Gemini merges them.
    pub settings: GeminiSettings,
}

/// Whether Gemini CLI's tool sandbox (`security.toolSandboxing`, default
/// off) runs each shell command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiToolSandbox {
    /// The merged settings say `true`.
    On,
    /// They say `false`, or nothing (its default).
    Off,
    /// A file could not be read or parsed, the value is not a boolean, or
    /// a workspace file whose trust the advisor cannot tell sets it.
    Unknown,
}

/// Whether Gemini CLI runs whole inside a sandbox of its own (`tools.sandbox`,
/// `GEMINI_SANDBOX`, `-s`/`--sandbox`, or `SANDBOX` set inside one), where
/// the tool sandbox's network rules may not be what ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiCliSandbox {
    /// Nothing turns it on.
    Off,
    /// Something turns it on, or may.
    OnOrUnknown,
}

/// Whether Gemini CLI's settings forbid yolo mode
/// (`security.disableYoloMode` or `admin.secureModeEnabled`): then the
/// approval mode stays one whose tool sandbox gives no network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeminiYolo {
    /// A setting forbids it.
    Disabled,
    /// Nothing forbids it.
    Allowed,
    /// The settings could not all be read.
    Unknown,
}

/// The facts the probe read from Gemini CLI's settings files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GeminiSettings {
    /// `security.toolSandboxing`.
    pub tool_sandbox: GeminiToolSandbox,
    /// The whole-CLI sandbox.
    pub cli_sandbox: GeminiCliSandbox,
    /// Yolo mode forbidden or not.
    pub yolo: GeminiYolo,
}

impl GeminiSettings {
    /// Nothing known: what a probe that read nothing reports.
    pub const UNKNOWN: Self = Self {
        tool_sandbox: GeminiToolSandbox::Unknown,
        cli_sandbox: GeminiCliSandbox::OnOrUnknown,
        yolo: GeminiYolo::Unknown,
    };
}
