//! The brief the model receives: Gemini CLI's sandbox cannot start because
//! bubblewrap is not installed, so every command fails; the shell's line,
//! quoted; the check; the remedy from Gemini CLI's table; what not to do.
//! Unproven (no host check), it says to run the check before anything else.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, HostRemedy, Locale};

use crate::facts::CHECK;
use crate::recognize::Finding;

/// The sentences of the brief in one locale.
pub(crate) struct Words {
    pub lead: &'static str,
    pub hedged: &'static str,
    pub evidence: &'static str,
    pub check: &'static str,
    pub remedy: &'static str,
    pub dont_head: &'static str,
    pub dont_retry: &'static str,
    pub dont_other: &'static str,
}

const EN: Words = Words {
    lead: "Gemini CLI's tool sandbox could not start: bubblewrap (`bwrap`) is not installed \
           where Gemini CLI runs, so every command fails with exit 127 before it starts, `echo` \
           included. Retrying cannot help.",
    hedged: "The line below says Gemini CLI's sandbox could not find bubblewrap; a command \
             can print the same line, so the check comes first.",
    evidence: "What the shell printed:",
    check: "Check, in a terminal outside Gemini CLI: `{check}` prints nothing when bwrap is \
            missing.",
    remedy: "Remedy (the user runs it):",
    dont_head: "Do not:",
    dont_retry: "- retry this or any other command until bubblewrap is installed;",
    dont_other: "- look for a fault in the command, the shell or the project: nothing ran.",
};

const ZH_CN: Words = Words {
    lead: "Gemini CLI 的工具沙箱无法启动：运行 Gemini CLI 的主机上没有安装 bubblewrap（`bwrap`），\
           因此每条命令（包括 `echo`）都会在启动前以退出码 127 失败。重试无济于事。",
    hedged: "下面这行表明 Gemini CLI 的沙箱找不到 bubblewrap；命令本身也可能输出同样的内容，因此请先检查。",
    evidence: "shell 的输出：",
    check: "检查（在 Gemini CLI 之外的终端中）：若缺少 bwrap，`{check}` 不会输出任何内容。",
    remedy: "解决办法（由用户执行）：",
    dont_head: "不要：",
    dont_retry: "- 在安装 bubblewrap 之前重试此命令或其他命令；",
    dont_other: "- 在命令、shell 或项目中寻找故障：没有任何命令真正运行。",
};

/// The sentences in `locale`.
pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, in the environment's locale; `proven` when the hook found no
/// bwrap on Gemini CLI's `PATH`.
pub fn brief(finding: &Finding, env: &Environment, proven: bool) -> String {
    let w = words(env.locale);
    let mut lines: Vec<String> = vec![
        if proven { w.lead } else { w.hedged }.to_owned(),
        String::new(),
        w.evidence.to_owned(),
        finding.line.quote_block().to_string(),
        String::new(),
        fill(w.check, &[("check", CHECK)]),
        String::new(),
    ];
    if let Some(row) = env
        .host
        .kind
        .remedy(HostRemedy::InstallSandboxTool, env.locale)
    {
        lines.push(w.remedy.to_owned());
        lines.push(format!("- {row}"));
        lines.push(String::new());
    }
    lines.push(w.dont_head.to_owned());
    lines.push(w.dont_retry.to_owned());
    lines.push(w.dont_other.to_owned());
    lines.push(String::new());
    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
