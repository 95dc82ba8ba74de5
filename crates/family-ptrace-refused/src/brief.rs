//! The brief the model receives: the tracer was refused by Gemini CLI's
//! sandbox and no approval can change that; strace's line, quoted; the
//! check; the ways through, each the user's, from Gemini CLI's table; what
//! not to do.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, HostRemedy, Locale};

use crate::facts::{CHECK, CHECK_SHOWS};
use crate::recognize::Finding;

/// The sentences of the brief in one locale.
pub(crate) struct Words {
    pub lead: &'static str,
    pub evidence: &'static str,
    pub check: &'static str,
    pub ways: &'static str,
    pub outside: &'static str,
    pub dont_head: &'static str,
    pub dont_approve: &'static str,
    pub dont_retry: &'static str,
}

const EN: Words = Words {
    lead: "Gemini CLI's tool sandbox refused this tracer: its system-call filter answers \
           every `ptrace` with EPERM, for every command. No sandbox expansion grants \
           `ptrace`, so approving Gemini CLI's request or retrying fails the same way.",
    evidence: "What the tracer printed:",
    check: "Check (read-only, in this sandbox): `{check}` prints `{shows}`, a filter is on.",
    ways: "Ways through, each the user's decision:",
    outside: "- Run the tracer or debugger in a terminal outside Gemini CLI.",
    dont_head: "Do not:",
    dont_approve: "- ask for or approve a sandbox expansion for this: paths and network do not \
                   include `ptrace`;",
    dont_retry: "- retry the command, or another tracer (`gdb`, `ltrace`): they use `ptrace` too.",
};

const ZH_CN: Words = Words {
    lead: "Gemini CLI 的工具沙箱拒绝了这个跟踪程序：其系统调用过滤器对每条命令的每个 `ptrace` \
           都返回 EPERM。任何沙箱扩展都不会授予 `ptrace`，因此批准 Gemini CLI 的请求或重试都会同样失败。",
    evidence: "跟踪程序的输出：",
    check: "检查（只读，在此沙箱内）：`{check}` 输出 `{shows}`，即过滤器已启用。",
    ways: "解决办法，均由用户决定：",
    outside: "- 在 Gemini CLI 之外的终端中运行跟踪程序或调试器。",
    dont_head: "不要：",
    dont_approve: "- 为此请求或批准沙箱扩展：路径与网络权限都不包含 `ptrace`；",
    dont_retry: "- 重试该命令，或换用其他跟踪程序（`gdb`、`ltrace`）：它们同样使用 `ptrace`。",
};

/// The sentences in `locale`.
pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, in the environment's locale.
pub fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let host = env.host.kind;
    let shows = CHECK_SHOWS.replace('\t', " ");
    let mut lines: Vec<String> = vec![
        w.lead.to_owned(),
        String::new(),
        w.evidence.to_owned(),
        finding.line.quote_block().to_string(),
        String::new(),
        fill(w.check, &[("check", CHECK), ("shows", &shows)]),
        String::new(),
        w.ways.to_owned(),
        w.outside.to_owned(),
    ];
    for remedy in [HostRemedy::WholeClientSandbox, HostRemedy::SandboxSettings] {
        if let Some(row) = host.remedy(remedy, env.locale) {
            lines.push(format!("- {row}"));
        }
    }
    lines.push(String::new());
    lines.push(w.dont_head.to_owned());
    lines.push(w.dont_approve.to_owned());
    lines.push(w.dont_retry.to_owned());
    lines.push(String::new());
    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
