//! The brief the model receives, in one of two forms:
//!
//! - **proven** (the hook checked this host, [`crate::provenance`]): the
//!   sandbox could not start and retrying cannot help; bubblewrap's line,
//!   quoted; what the host lacks; the check; the remedy the user runs (a
//!   host-level command only where the hook read its setting, then the
//!   client's own row from the host's table); what to do now and what not to do;
//! - **hedged** (nothing checked): the line may be the command's own output;
//!   one harmless command tells the two apart (`echo ok` fails the same way
//!   when the sandbox cannot start), the checks the user can run, and what
//!   not to do either way. No host-level command, no weaker sandbox, no
//!   "stop and wait" on a line a test could print.
//!
//! One structure each, one set of sentences per locale ([`Words`]).
//! bubblewrap's line appears only as a `> ` quote block; commands are the
//! advisor's own, on indented lines.

use advisor_core::Environment;
use advisor_core::Locale;
use advisor_core::brief::fill;

use crate::facts::{checks, confirmed_fixes, host_remedy, index};
use crate::provenance::proven;
use crate::recognize::Finding;

/// The sentences of the brief in one locale; `{client}` marks the client's name.
pub(crate) struct Words {
    pub lead: &'static str,
    pub evidence: &'static str,
    pub causes: [&'static str; 6],
    pub check: &'static str,
    pub remedy: &'static str,
    pub remedies: [&'static str; 6],
    pub model: &'static str,
    pub dont_head: &'static str,
    pub dont_retry: &'static str,
    pub dont_escape: &'static str,
    pub full: &'static str,
    pub hedged_lead: &'static str,
    pub hedged_check: &'static str,
    pub hedged_confirm: &'static str,
    pub hedged_other: &'static str,
    pub hedged_dont: &'static str,
}

const EN: Words = Words {
    lead: "{client}'s sandbox could not start: bubblewrap stopped before the command ran. \
           Every command fails this way, `echo` included, so retrying cannot help. The \
           cause is in how this machine can run the sandbox, not in the command.",
    evidence: "What bubblewrap printed:",
    causes: [
        "The host lets no more user namespaces be made: `user.max_user_namespaces` is 0 or \
         used up, or namespaces are nested too deep (a sandbox inside a container inside \
         another).",
        "This kernel has no user namespaces, which bubblewrap needs.",
        "The kernel refuses user namespaces to unprivileged users (a Debian-style switch, \
         or a container's system-call filter).",
        "Creating the namespace was refused: usually a container that does not allow it, \
         or a security module.",
        "The namespace was made, but writing its user map was refused. On Ubuntu 23.10 and \
         later this is AppArmor's restriction of unprivileged user namespaces.",
        "bubblewrap could not find {client}'s sandbox helper: it is not created when the \
         client's home is under the system temp directory.",
    ],
    check: "Check, in a terminal outside {client}, as the same user:",
    remedy: "Remedy (the user or the host's administrator runs it):",
    remedies: [
        "Raise the limit above zero (persist it in /etc/sysctl.d/), or run {client} outside \
         the nested container.",
        "Use a kernel built with user namespaces; nothing inside {client} can replace them.",
        "Allow unprivileged user namespaces on the host.",
        "Allow user namespaces in the container's runtime, or run {client} outside the \
         container.",
        "Give bwrap an AppArmor profile that allows `userns` (the detail has one), or lift \
         the restriction for the whole host.",
        "The user moves the client's home as below, then starts {client} again.",
    ],
    model: "For you: stop running commands; tell the user what is above and wait for them.",
    dont_head: "Do not:",
    dont_retry: "- retry, or try other commands: each fails the same way;",
    dont_escape: "- run commands outside the sandbox or ask for it to be turned off: that \
                  gives up its protection, and the choice is the user's.",
    full: "The full account is this advisory's `detail`.",
    hedged_lead: "This output is bubblewrap's line for a {client} sandbox that cannot start, but a \
                  command can print the same line (a test, a log), and the advisor could not \
                  check this host.",
    hedged_check: "Check it with one harmless command: run `echo ok`. If it fails with the same \
                   line, the sandbox cannot start: every command fails this way, so stop \
                   running commands and tell the user.",
    hedged_confirm: "The user can confirm it in a terminal outside {client}:",
    hedged_other: "If `echo ok` runs, the line was this command's own output; go on with the task.",
    hedged_dont: "Either way, do not run commands outside the sandbox or ask for it to be turned \
                  off: that gives up its protection, and the choice is the user's.",
};

const ZH_CN: Words = Words {
    lead: "{client} 的沙箱无法启动：bubblewrap 在命令运行之前就退出了。每条命令（包括 `echo`）\
           都会这样失败，重试无济于事。原因在于这台机器运行沙箱的条件，不在命令本身。",
    evidence: "bubblewrap 输出的内容：",
    causes: [
        "主机不再允许创建用户命名空间：`user.max_user_namespaces` 为 0 或已用尽，\
         或命名空间嵌套过深（容器中再套容器中的沙箱）。",
        "该内核不支持用户命名空间，而 bubblewrap 需要它。",
        "内核禁止非特权用户创建用户命名空间（Debian 式开关，或容器的系统调用过滤）。",
        "创建命名空间被拒绝：通常是容器不允许，或安全模块所致。",
        "命名空间已创建，但写入其用户映射被拒绝。在 Ubuntu 23.10 及以后，\
         这是 AppArmor 对非特权用户命名空间的限制。",
        "bubblewrap 找不到 {client} 的沙箱辅助程序：客户端主目录位于系统临时目录下时不会创建它。",
    ],
    check: "检查（在 {client} 之外的终端中，以同一用户运行）：",
    remedy: "解决办法（由用户或主机管理员执行）：",
    remedies: [
        "把上限调到大于零（写入 /etc/sysctl.d/ 以持久生效），或在嵌套容器之外运行 {client}。",
        "使用支持用户命名空间的内核；{client} 内部无法替代。",
        "在主机上允许非特权用户命名空间。",
        "在容器运行时中允许用户命名空间，或在容器之外运行 {client}。",
        "为 bwrap 提供允许 `userns` 的 AppArmor 配置文件（详见 detail），或对整台主机解除该限制。",
        "用户按下面的说明移动客户端主目录，然后重新启动 {client}。",
    ],
    model: "你应当：停止运行命令，把以上内容告诉用户并等待其处理。",
    dont_head: "不要：",
    dont_retry: "- 重试或换其他命令：每条都会同样失败；",
    dont_escape: "- 在沙箱之外运行命令，或要求关闭沙箱：那会放弃它的保护，这个决定属于用户。",
    full: "完整说明见本建议的 `detail` 字段。",
    hedged_lead: "该输出是 bubblewrap 在 {client} 沙箱无法启动时打印的那一行，\
                  但命令本身（测试、日志）也可能打印同样的一行，而建议器未能检查这台主机。",
    hedged_check: "用一条无害的命令核对：运行 `echo ok`。若它以同样的一行失败，\
                   说明沙箱无法启动，每条命令都会这样失败：停止运行命令并告诉用户。",
    hedged_confirm: "用户可在 {client} 之外的终端中确认：",
    hedged_other: "若 `echo ok` 正常运行，那一行就是该命令自己的输出；继续完成任务。",
    hedged_dont: "无论哪种情况，都不要在沙箱之外运行命令，也不要要求关闭沙箱：\
                  那会放弃它的保护，这个决定属于用户。",
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// Indented command lines (the budget counts them as commands, not prose).
pub(crate) fn commands(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|c| format!("    {c}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The brief, top to bottom: proven or hedged.
pub(crate) fn brief(finding: &Finding, env: &Environment) -> String {
    let lines = if proven(finding, env) {
        proven_brief(finding, env)
    } else {
        hedged_brief(finding, env)
    };
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

fn proven_brief(finding: &Finding, env: &Environment) -> Vec<String> {
    let w = words(env.locale);
    let client = [("client", env.host.kind.name())];
    let at = index(finding.kind);
    let mut lines: Vec<String> = Vec::with_capacity(24);

    lines.push(fill(w.lead, &client));
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    lines.push(fill(w.causes[at], &client));

    let checks = checks(finding.kind);
    if !checks.is_empty() {
        lines.push(String::new());
        lines.push(fill(w.check, &client));
        lines.push(commands(checks));
    }

    lines.push(String::new());
    lines.push(w.remedy.to_owned());
    lines.push(fill(w.remedies[at], &client));
    let fixes = confirmed_fixes(finding, env);
    if !fixes.is_empty() {
        lines.push(commands(fixes));
    }
    if let Some(row) = env.host.kind.remedy(host_remedy(finding.kind), env.locale) {
        lines.push(row.to_owned());
    }

    lines.push(String::new());
    lines.push(w.model.to_owned());
    lines.push(w.dont_head.to_owned());
    lines.push(w.dont_retry.to_owned());
    lines.push(w.dont_escape.to_owned());
    lines.push(String::new());
    lines.push(w.full.to_owned());
    lines
}

fn hedged_brief(finding: &Finding, env: &Environment) -> Vec<String> {
    let w = words(env.locale);
    let client = [("client", env.host.kind.name())];
    let mut lines: Vec<String> = Vec::with_capacity(16);

    lines.push(fill(w.hedged_lead, &client));
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    lines.push(w.hedged_check.to_owned());
    let checks = checks(finding.kind);
    if !checks.is_empty() {
        lines.push(fill(w.hedged_confirm, &client));
        lines.push(commands(checks));
    }
    lines.push(w.hedged_other.to_owned());
    lines.push(String::new());
    lines.push(w.hedged_dont.to_owned());
    lines.push(String::new());
    lines.push(w.full.to_owned());
    lines
}
