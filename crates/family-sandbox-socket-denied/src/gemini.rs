//! Gemini CLI on Linux: when the family speaks, and what it says.
//!
//! Gemini CLI 0.61.0's tool sandbox (bubblewrap, `--unshare-all`) gives
//! commands no network in its `default`, `auto_edit` and `plan` approval
//! modes and the network in yolo mode (`policies/sandbox-default.toml` in
//! its bundle; the user's `~/.gemini/policies/sandbox.toml` replaces it).
//! Its mark (`sandbox_expansion_required`) is set in yolo mode too, since it
//! asks for a network expansion whenever its keyword match reads a network
//! failure (read in its bundle). So the family speaks only when all hold:
//!
//! - Gemini marked the result (provenance: the client's own field), or the
//!   failure is an unresolved name or a failed connection (curl's exit 7,
//!   which Gemini does not mark) while Gemini's settings turn the tool
//!   sandbox on (`security.toolSandboxing`) and no sandbox around the whole
//!   CLI (`tools.sandbox`, `GEMINI_SANDBOX`, `-s`), in a headless run;
//! - the probe read Gemini's command line: started in a mode other than
//!   yolo (yolo can only be set there), and either a headless run (`-p`),
//!   whose mode no one can change, or settings that forbid yolo mode
//!   (`security.disableYoloMode`, `admin.secureModeEnabled`), so that no
//!   mode the user switches to gives the network;
//! - the user has no `~/.gemini/policies/sandbox.toml`.
//!
//! The probe reads the settings as Gemini merges them (system defaults,
//! user, trusted workspace, system); a file it cannot read leaves the fact
//! unknown, and an unknown fact withholds.

use advisor_core::{
    Environment, GeminiApproval, GeminiCliSandbox, GeminiRun, GeminiToolSandbox, GeminiYolo,
    Locale, WithholdReason,
};

use crate::facts::{
    GEMINI_CLI_SANDBOX, GEMINI_INTERACTIVE_UNMARKED, GEMINI_MODE_MAY_CHANGE,
    GEMINI_NETWORK_UNKNOWN, GEMINI_NOT_MARKED, GEMINI_SANDBOX_POLICY, GEMINI_TOOL_SANDBOX_OFF,
    GEMINI_YOLO, Not,
};
use crate::recognize::{Finding, Refusal};

fn withhold(code: &'static str) -> Not {
    Not::Withhold(WithholdReason::Other(code))
}

/// The decision for Gemini CLI on Linux.
pub fn decide(finding: &Finding, env: &Environment) -> Result<(), Not> {
    let Some(session) = env.checks.gemini_session else {
        return Err(withhold(GEMINI_NETWORK_UNKNOWN));
    };
    let Some(approval) = session.approval else {
        return Err(withhold(GEMINI_NETWORK_UNKNOWN));
    };
    let headless = session.run == GeminiRun::Headless;
    if !headless && session.settings.yolo != GeminiYolo::Disabled {
        return Err(withhold(GEMINI_MODE_MAY_CHANGE));
    }
    if approval == GeminiApproval::Yolo {
        return Err(Not::Decline(GEMINI_YOLO));
    }
    if session.sandbox_policy != Some(false) {
        return Err(withhold(GEMINI_SANDBOX_POLICY));
    }
    if finding.marked {
        return Ok(());
    }
    if finding.refusal != Refusal::Unreachable {
        return Err(withhold(GEMINI_NOT_MARKED));
    }
    match session.settings.tool_sandbox {
        GeminiToolSandbox::On => {}
        GeminiToolSandbox::Off => return Err(Not::Decline(GEMINI_TOOL_SANDBOX_OFF)),
        GeminiToolSandbox::Unknown => return Err(withhold(GEMINI_NOT_MARKED)),
    }
    if session.settings.cli_sandbox != GeminiCliSandbox::Off {
        return Err(withhold(GEMINI_CLI_SANDBOX));
    }
    if !headless {
        return Err(withhold(GEMINI_INTERACTIVE_UNMARKED));
    }
    Ok(())
}

/// The sentences of Gemini's brief in one locale.
pub(crate) struct Words {
    pub lead: &'static str,
    pub lead_interactive: &'static str,
    pub marked: &'static str,
    pub unmarked: &'static str,
    pub check: &'static str,
    pub check_settings: &'static str,
    pub facts_interactive: &'static str,
    pub facts_unmarked: &'static str,
    pub model: &'static str,
}

const EN: Words = Words {
    lead: "Gemini CLI runs this command in its tool sandbox, which gives commands no network \
           outside yolo mode; this headless run was started {mode}.",
    lead_interactive: "Gemini CLI runs this command in its tool sandbox, which gives commands \
                       no network outside yolo mode; Gemini's settings forbid yolo mode, so \
                       no mode this interactive session switches to gives the network.",
    marked: "Gemini CLI itself marked the failure as its sandbox's refusal. Retrying cannot \
             help, and waiting will not change it.",
    unmarked: "Gemini CLI did not mark this failure, but its settings run every command in \
               the tool sandbox. Retrying cannot help.",
    check: "Check: Gemini CLI's command line (read by the advisor) sets no yolo mode and \
            starts a headless run (`-p`), and there is no `~/.gemini/policies/sandbox.toml`.",
    check_settings: "Check: the advisor read Gemini CLI's command line and settings files \
                     (user, system, and a trusted workspace's): {facts}; there is no \
                     `~/.gemini/policies/sandbox.toml`.",
    facts_interactive: "no yolo mode, and the settings forbid it \
                        (`security.disableYoloMode` or `admin.secureModeEnabled`)",
    facts_unmarked: "a headless run (`-p`) without yolo or `-s`, \
                     `security.toolSandboxing` on, no `tools.sandbox`",
    model: "For you: do not retry, and do not look for another way to the network or out of \
            the sandbox; tell the user the command needs the network and why, and go on with \
            work that does not.",
};

const ZH_CN: Words = Words {
    lead: "Gemini CLI 在其工具沙箱中运行该命令；除 yolo 模式外，该沙箱不给命令网络。\
           本次无界面运行的启动方式为：{mode}。",
    lead_interactive: "Gemini CLI 在其工具沙箱中运行该命令；除 yolo 模式外，该沙箱不给命令网络。\
                       Gemini 的设置禁用了 yolo 模式，因此本次交互会话无论切换到哪种模式都没有网络。",
    marked: "Gemini CLI 自己将这次失败标记为其沙箱的拒绝。重试无济于事，等待也不会改变。",
    unmarked: "Gemini CLI 没有标记这次失败，但其设置让每条命令都在工具沙箱中运行。重试无济于事。",
    check: "核对：Gemini CLI 的命令行（顾问已读取）未设置 yolo 模式，且以无界面方式（`-p`）运行；\
            也没有 `~/.gemini/policies/sandbox.toml`。",
    check_settings: "核对：顾问读取了 Gemini CLI 的命令行与设置文件（用户、系统及受信任工作区的）：\
                     {facts}；也没有 `~/.gemini/policies/sandbox.toml`。",
    facts_interactive: "未设置 yolo 模式，且设置禁用了它（`security.disableYoloMode` 或 \
                        `admin.secureModeEnabled`）",
    facts_unmarked: "无界面运行（`-p`），未设置 yolo 或 `-s`；`security.toolSandboxing` 开启，\
                     未设置 `tools.sandbox`",
    model: "对你而言：不要重试，也不要另找途径联网或离开沙箱；告诉用户该命令需要网络以及原因，\
            并继续不需要网络的工作。",
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// How the run's approval mode was set, in `locale`.
pub(crate) fn mode(env: &Environment) -> &'static str {
    let approval = env.checks.gemini_session.and_then(|s| s.approval);
    match (env.locale, approval) {
        (Locale::En, Some(GeminiApproval::Default)) => "with `--approval-mode default`",
        (Locale::En, Some(GeminiApproval::AutoEdit)) => "with `--approval-mode auto_edit`",
        (Locale::En, Some(GeminiApproval::Plan)) => "with `--approval-mode plan`",
        (Locale::En, _) => "without `--yolo` or `--approval-mode`",
        (Locale::ZhCn, Some(GeminiApproval::Default)) => "`--approval-mode default`",
        (Locale::ZhCn, Some(GeminiApproval::AutoEdit)) => "`--approval-mode auto_edit`",
        (Locale::ZhCn, Some(GeminiApproval::Plan)) => "`--approval-mode plan`",
        (Locale::ZhCn, _) => "未使用 `--yolo` 或 `--approval-mode`",
    }
}
