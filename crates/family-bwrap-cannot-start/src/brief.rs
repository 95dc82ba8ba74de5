//! The brief the model receives: the sandbox could not start and retrying
//! cannot help; bubblewrap's line, quoted; what the host lacks; the check;
//! the remedy the user runs (host-level commands, then the client's own row
//! from the host's table); what to do now and what not to do.
//!
//! One structure, one set of sentences per locale ([`Words`]). bubblewrap's
//! line appears only as a `> ` quote block; commands are the advisor's own,
//! on indented lines.

use advisor_core::Environment;
use advisor_core::Locale;
use advisor_core::brief::fill;

use crate::facts::{checks, fixes, host_remedy, index};
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
         the nested container:",
        "Use a kernel built with user namespaces; nothing inside {client} can replace them.",
        "Allow unprivileged user namespaces on the host:",
        "Allow user namespaces in the container's runtime, or run {client} outside the \
         container.",
        "Give bwrap an AppArmor profile that allows `userns` (the detail has one), or lift \
         the restriction for the whole host:",
        "The user moves the client's home as below, then starts {client} again:",
    ],
    model: "For you: stop running commands; tell the user what is above and wait for them.",
    dont_head: "Do not:",
    dont_retry: "- retry, or try other commands: each fails the same way;",
    dont_escape: "- run commands outside the sandbox or ask for it to be turned off: that \
                  gives up its protection, and the choice is the user's.",
    full: "The full account is this advisory's `detail`.",
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
        "把上限调到大于零（写入 /etc/sysctl.d/ 以持久生效），或在嵌套容器之外运行 {client}：",
        "使用支持用户命名空间的内核；{client} 内部无法替代。",
        "在主机上允许非特权用户命名空间：",
        "在容器运行时中允许用户命名空间，或在容器之外运行 {client}。",
        "为 bwrap 提供允许 `userns` 的 AppArmor 配置文件（详见 detail），或对整台主机解除该限制：",
        "用户按下面的说明移动客户端主目录，然后重新启动 {client}：",
    ],
    model: "你应当：停止运行命令，把以上内容告诉用户并等待其处理。",
    dont_head: "不要：",
    dont_retry: "- 重试或换其他命令：每条都会同样失败；",
    dont_escape: "- 在沙箱之外运行命令，或要求关闭沙箱：那会放弃它的保护，这个决定属于用户。",
    full: "完整说明见本建议的 `detail` 字段。",
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

/// The brief, top to bottom.
pub(crate) fn brief(finding: &Finding, env: &Environment) -> String {
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
    let fixes = fixes(finding.kind);
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
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
