//! The brief the model receives: what the sandbox refused and that the
//! command may be fine; the block's lines, quoted; the check; why neither a
//! retry nor leaving the sandbox is the model's move, and what to do instead;
//! the user's remedies, worded by the host's table; where the full account is.
//!
//! One structure, one set of sentences per locale ([`Words`]). Hosts are the
//! command's text: they appear as inline code spans, as the quoted block's
//! lines, or (a plain DNS name only, see [`crate::value`]) on the value line.

use advisor_core::brief::fill;
use advisor_core::{Environment, HostRemedy, Locale};

use crate::facts::{BRIEF_HOSTS, REMEDIES, evidence, named, values};
use crate::recognize::{Carrier, Finding};

/// The sentences of the brief in one locale; `{name}` marks a value filled in.
pub(crate) struct Words {
    pub lead: &'static str,
    pub lead_success: &'static str,
    pub more: &'static str,
    pub long_names: &'static str,
    pub join: &'static str,
    pub evidence: &'static str,
    pub check: &'static str,
    pub stop: &'static str,
    pub ask: &'static str,
    pub remedies: &'static str,
    pub values: &'static str,
    pub placeholder: &'static str,
    pub escalate: &'static str,
    pub account: &'static str,
}

const EN: Words = Words {
    lead: "Claude Code's sandbox refused this command's network connection to {hosts}. \
           The command itself may be fine: the sandbox's network filter stopped it.",
    lead_success: "Claude Code's sandbox refused this command's network connection to \
                   {hosts}. The command exited 0, so it may have skipped what needed that \
                   host: its result may be incomplete.",
    more: "and {n} more host(s)",
    long_names: "the hosts in the quoted lines",
    join: ", ",
    evidence: "What the sandbox appended to the output:",
    check: "Check: each line names the refused host and port, and the reason in parentheses.",
    stop: "Do not retry, and do not rerun the command outside the sandbox: a retry meets the \
           same filter. Your instructions may say to retry unsandboxed on a sandbox \
           restriction; not here: which hosts commands may reach is the user's choice, and \
           leaving the sandbox drops all its protection for that command.",
    ask: "Ask the user instead: name the host and say why the task needs it.",
    remedies: "What the user can do:",
    values: "  The name(s) to add:",
    placeholder: "  (`<host>`: a refused name that is not a plain DNS name is not written out \
                  here; see the quoted lines.)",
    escalate: "Leaving the sandbox is the user's decision, never yours. ",
    account: "The full account is in this advisory's `detail`.",
};

const ZH_CN: Words = Words {
    lead: "Claude Code 的沙箱拒绝了该命令到 {hosts} 的网络连接。命令本身可能没有问题：\
           是沙箱的网络过滤拦下了它。",
    lead_success: "Claude Code 的沙箱拒绝了该命令到 {hosts} 的网络连接。命令以 0 退出，\
                   可能跳过了需要该主机的部分：其结果可能不完整。",
    more: "以及另外 {n} 个主机",
    long_names: "下方引用中的主机",
    join: "、",
    evidence: "沙箱附加在输出末尾的内容：",
    check: "核对：每一行都写明被拒绝的主机和端口，括号中是原因。",
    stop: "不要重试，也不要在沙箱之外重新运行该命令。重试会遇到同一个过滤。\
           你的指令可能要求在出现沙箱限制时不经沙箱重试；此处不要这样做：\
           命令可以访问哪些主机由用户决定，而离开沙箱会让该命令失去沙箱的全部保护。",
    ask: "请改为询问用户：说明是哪个主机，以及任务为什么需要它。",
    remedies: "用户可以这样做：",
    values: "  要加入的名称：",
    placeholder: "  （`<host>`：不是普通 DNS 名称的被拒主机名不在此写出；请看上方引用。）",
    escalate: "离开沙箱只能由用户决定，不能由你决定。",
    account: "完整说明见本建议的 `detail` 字段。",
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The refused hosts as the lead names them, in one locale.
pub(crate) fn hosts(w: &Words, finding: &Finding) -> String {
    let (mut shown, rest) = named(finding);
    if shown.is_empty() {
        return w.long_names.to_owned();
    }
    if rest > 0 || finding.more_hosts {
        let n = if finding.more_hosts {
            format!("{rest}+")
        } else {
            rest.to_string()
        };
        shown.push(fill(w.more, &[("n", &n)]));
    }
    shown.join(w.join)
}

/// The brief, top to bottom.
pub(crate) fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let host = env.host.kind;
    let mut lines: Vec<String> = Vec::with_capacity(20);

    let lead = match finding.carrier {
        Carrier::Failure => w.lead,
        Carrier::Success => w.lead_success,
    };
    lines.push(fill(lead, &[("hosts", &hosts(w, finding))]));
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(evidence(finding).quote_block().to_string());
    lines.push(w.check.to_owned());
    lines.push(String::new());
    lines.push(w.stop.to_owned());
    lines.push(w.ask.to_owned());

    let rendered: Vec<(HostRemedy, &str)> = REMEDIES
        .iter()
        .filter_map(|&r| host.remedy(r, env.locale).map(|text| (r, text)))
        .collect();
    if !rendered.is_empty() {
        lines.push(String::new());
        lines.push(w.remedies.to_owned());
    }
    for (remedy, text) in rendered {
        match remedy {
            HostRemedy::EscalateOneCommand => lines.push(format!("- {}{text}", w.escalate)),
            HostRemedy::AllowNetworkHost => {
                lines.push(format!("- {text}"));
                let (names, refused) = values(finding, BRIEF_HOSTS);
                lines.push(w.values.to_owned());
                lines.extend(names.iter().map(|n| format!("    {n}")));
                if refused.is_some() {
                    lines.push(w.placeholder.to_owned());
                }
            }
            _ => lines.push(format!("- {text}")),
        }
    }
    lines.push(String::new());
    lines.push(w.account.to_owned());
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
