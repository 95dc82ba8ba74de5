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
//! - Gemini marked the result (provenance: the client's own field);
//! - the probe read Gemini's command line: a headless run (`-p`), whose
//!   mode no one can change, started in a mode other than yolo (yolo can
//!   only be set there);
//! - the user has no `~/.gemini/policies/sandbox.toml`.
//!
//! An unmarked failure (curl's exit 7, which Gemini does not mark) stays
//! withheld: the advisor does not read `security.toolSandboxing`, so the
//! command may have run outside any sandbox, as the recorded
//! `control-python-connect` did.

use advisor_core::{Environment, GeminiApproval, GeminiRun, Locale, WithholdReason};

use crate::facts::{
    GEMINI_MODE_MAY_CHANGE, GEMINI_NETWORK_UNKNOWN, GEMINI_NOT_MARKED, GEMINI_SANDBOX_POLICY,
    GEMINI_YOLO, Not,
};
use crate::recognize::Finding;

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
    if session.run != GeminiRun::Headless {
        return Err(withhold(GEMINI_MODE_MAY_CHANGE));
    }
    if approval == GeminiApproval::Yolo {
        return Err(Not::Decline(GEMINI_YOLO));
    }
    if session.sandbox_policy != Some(false) {
        return Err(withhold(GEMINI_SANDBOX_POLICY));
    }
    if !finding.marked {
        return Err(withhold(GEMINI_NOT_MARKED));
    }
    Ok(())
}

/// The sentences of Gemini's brief in one locale.
pub(crate) struct Words {
    pub lead: &'static str,
    pub marked: &'static str,
    pub check: &'static str,
    pub model: &'static str,
}

const EN: Words = Words {
    lead: "Gemini CLI runs this command in its tool sandbox, which gives commands no network \
           outside yolo mode; this headless run was started {mode}.",
    marked: "Gemini CLI itself marked the failure as its sandbox's refusal. Retrying cannot \
             help, and waiting will not change it.",
    check: "Check: Gemini CLI's command line (read by the advisor) sets no yolo mode and \
            starts a headless run (`-p`), and there is no `~/.gemini/policies/sandbox.toml`.",
    model: "For you: do not retry, and do not look for another way to the network or out of \
            the sandbox; tell the user the command needs the network and why, and go on with \
            work that does not.",
};

const ZH_CN: Words = Words {
    lead: "Gemini CLI 在其工具沙箱中运行该命令；除 yolo 模式外，该沙箱不给命令网络。\
           本次无界面运行的启动方式为：{mode}。",
    marked: "Gemini CLI 自己将这次失败标记为其沙箱的拒绝。重试无济于事，等待也不会改变。",
    check: "核对：Gemini CLI 的命令行（顾问已读取）未设置 yolo 模式，且以无界面方式（`-p`）运行；\
            也没有 `~/.gemini/policies/sandbox.toml`。",
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
