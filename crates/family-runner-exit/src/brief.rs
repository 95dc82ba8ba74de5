//! The brief the model receives: what failed and that it is not the sandbox;
//! the runner's line, quoted; the known cause this status fits (with its
//! version branch), or that none fits; what to do; what will not help; where
//! the full account is.
//!
//! One structure, one set of sentences per locale ([`Words`]). The tool's name
//! and the signal name are the caller's and the producer's text and appear
//! only as inline code spans; the runner's line only as a `> ` quote block.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, Locale, VersionFact};

use crate::facts::{Cause, cause, tool_mention};
use crate::recognize::{Bootstrap, Carrier, Finding};

/// The sentences of the brief in one locale; `{name}` marks a value filled in.
pub(crate) struct Words {
    pub lead: &'static str,
    pub lead_forced: &'static str,
    pub this_tool: &'static str,
    pub helper: &'static str,
    pub evidence: &'static str,
    pub evidence_wrapped: &'static str,
    pub desktop_before: &'static str,
    pub desktop_after: &'static str,
    pub desktop_unknown: &'static str,
    pub stopped: &'static str,
    pub left_behind: &'static str,
    pub degraded: &'static str,
    pub unconfirmed: &'static str,
    pub unknown: &'static str,
    pub bootstrap: &'static str,
    pub model: &'static str,
    pub dont_head: &'static str,
    pub dont_mode: &'static str,
    pub dont_retry: &'static str,
    pub meanings: [&'static str; 6],
}

const EN: Words = Words {
    lead: "{tool} failed before its command ran: the harness's Windows Job runner ended \
           without reporting. This is not the sandbox. Changing the sandbox mode will not \
           help: this fails the same way in every mode, the unconfined one included.",
    lead_forced: "{tool} failed: the harness's Windows Job runner could not confirm that a \
                  stopped call's processes had ended. This is not the sandbox. Changing the \
                  sandbox mode will not help: this fails the same way in every mode, the \
                  unconfined one included.",
    this_tool: "This tool",
    helper: "The runner's helper failed while it started, and the producer named why.",
    evidence: "What was reported:",
    evidence_wrapped: "What was reported, below the search tool's wrapper sentence:",
    desktop_before: "Known cause: Desktop before 2.0.9 starts the runner with its own \
                     executable, which opens a second app instance that exits 0. The \
                     configured version is {version}: update Desktop to 2.0.9 or later.",
    desktop_after: "Desktop before 2.0.9 had a launch bug with this status; the configured \
                    version, {version}, has the fix, so that cause does not fit and no \
                    other is known.",
    desktop_unknown: "On Desktop before 2.0.9: a launch bug (the runner opens a second app \
                      instance that exits 0); update to 2.0.9 or later. On 2.0.9 or later: \
                      that bug is fixed and no other cause is known.",
    stopped: "Known cause: this status was reported after another command stopped the \
              runner's own `node.exe` (a filter on process names or command lines matched \
              it). End processes by their exact PID, never by such a filter.",
    left_behind: "Known cause: this status was reported while a helper from an earlier \
                  build (MSVC `vctip.exe`) was still running in the job. Find what the last \
                  commands left running and end it by PID.",
    degraded: "Known cause: this status on every call was reported once process creation \
               on the whole host had degraded. It is the host, not this command: the user \
               should restart the app, or Windows.",
    unconfirmed: "A call was being stopped and the runner did not confirm that everything \
                  it started had ended: processes from that call may still be running.",
    unknown: "No reported cause fits this status. What is known: the runner ended before \
              reporting, so the command's effects are unknown.",
    bootstrap: "The runner's helper also named {code} while starting: {meaning}.",
    model: "For you: stop calling tools that start processes; continue with file tools and \
            tell the user what is above.",
    dont_head: "Do not:",
    dont_mode: "- change or relax the sandbox mode: it is not the cause;",
    dont_retry: "- retry the call while the cause stands: it ends the same way.",
    meanings: [
        "in Node this means the lookup of the user's profile ran out of memory",
        "in Node this means a file the runner loads is missing (a damaged or partial install)",
        "in Node this means the runner's file type was refused (runtime and install do not match)",
        "in Node this means access to a file or process it needs was refused",
        "in Node this means it ran out of memory",
        "in Node this means the runner's code did not parse (a damaged or mismatched install)",
    ],
};

const ZH_CN: Words = Words {
    lead: "{tool} 的命令尚未运行就失败了：harness 的 Windows Job runner 没有报告结果就退出了。\
           这不是沙箱的问题。更改沙箱模式无济于事：在任何模式下（包括不受限的模式）都会同样失败。",
    lead_forced: "{tool} 失败了：harness 的 Windows Job runner 无法确认被停止的调用所启动的进程都已结束。\
                  这不是沙箱的问题。更改沙箱模式无济于事：在任何模式下（包括不受限的模式）都会同样失败。",
    this_tool: "该工具",
    helper: "runner 的辅助进程在启动时失败，生产者给出了原因代码。",
    evidence: "报告内容：",
    evidence_wrapped: "报告内容（位于搜索工具的包装句之下）：",
    desktop_before: "已知原因：2.0.9 之前的 Desktop 用自身的可执行文件启动 runner，\
                     结果打开了第二个应用实例并以 0 退出。配置的版本是 {version}：\
                     请把 Desktop 更新到 2.0.9 或更高版本。",
    desktop_after: "2.0.9 之前的 Desktop 有一个会产生此状态的启动缺陷；配置的版本 \
                    {version} 已包含修复，因此该原因不符，也没有其他已知原因。",
    desktop_unknown: "Desktop 2.0.9 之前：启动缺陷（runner 打开第二个应用实例并以 0 退出），\
                      请更新到 2.0.9 或更高版本。2.0.9 及以后：该缺陷已修复，没有其他已知原因。",
    stopped: "已知原因：有报告称，另一条命令停止了 runner 自己的 `node.exe`\
              （按进程名或命令行过滤时命中了它）后出现此状态。请按确切的 PID 结束进程，\
              不要用这类过滤。",
    left_behind: "已知原因：有报告称，之前构建留下的辅助进程（MSVC `vctip.exe`）仍在 job 中运行时\
                  出现此状态。找出最近的命令留下的进程，按 PID 结束它。",
    degraded: "已知原因：有报告称，整台主机的进程创建能力退化后，每次调用都是此状态。\
               问题在主机，不在这条命令：用户应重启应用或 Windows。",
    unconfirmed: "某个调用正在被停止，而 runner 没有确认它启动的一切都已结束：\
                  该调用的进程可能仍在运行。",
    unknown: "没有已报告的原因符合此状态。已知的是：runner 在报告前退出，命令的效果未知。",
    bootstrap: "runner 的辅助进程在启动时还给出了 {code}：{meaning}。",
    model: "你应当：停止调用会启动进程的工具，改用文件工具继续，并把以上内容告诉用户。",
    dont_head: "不要：",
    dont_mode: "- 更改或放宽沙箱模式：原因不在这里；",
    dont_retry: "- 在原因仍在时重试：结果相同。",
    meanings: [
        "在 Node 中表示查询用户配置文件时内存不足",
        "在 Node 中表示 runner 要加载的文件缺失（安装损坏或不完整）",
        "在 Node 中表示 runner 的文件类型被拒绝（运行时与安装不匹配）",
        "在 Node 中表示访问所需的文件或进程被拒绝",
        "在 Node 中表示内存不足",
        "在 Node 中表示 runner 的代码无法解析（安装损坏或不匹配）",
    ],
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// What a bootstrap code means in Node, as an index into [`Words::meanings`].
pub(crate) fn meaning(code: Bootstrap) -> usize {
    match code {
        Bootstrap::PasswdEnomem => 0,
        Bootstrap::ErrModuleNotFound | Bootstrap::ModuleNotFound => 1,
        Bootstrap::UnknownFileExtension => 2,
        Bootstrap::Eacces | Bootstrap::Eperm => 3,
        Bootstrap::Enomem => 4,
        Bootstrap::SyntaxError => 5,
    }
}

/// The cause sentence for this host, in one locale (the version branch included).
pub(crate) fn cause_line(w: &Words, cause: Cause) -> String {
    match cause {
        Cause::DesktopLaunch(VersionFact::Before(v)) => {
            fill(w.desktop_before, &[("version", &v.to_string())])
        }
        Cause::DesktopLaunch(VersionFact::AtOrAfter(v)) => {
            fill(w.desktop_after, &[("version", &v.to_string())])
        }
        Cause::DesktopLaunch(VersionFact::Unknown) => w.desktop_unknown.to_owned(),
        Cause::RunnerStopped => w.stopped.to_owned(),
        Cause::LeftBehind => w.left_behind.to_owned(),
        Cause::HostDegraded => w.degraded.to_owned(),
        Cause::Unconfirmed => w.unconfirmed.to_owned(),
        Cause::HelperBootstrap => w.helper.to_owned(),
        Cause::Unknown => w.unknown.to_owned(),
    }
}

/// The brief, top to bottom.
pub(crate) fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let tool = tool_mention(finding).unwrap_or_else(|| w.this_tool.to_owned());
    let mut lines: Vec<String> = Vec::with_capacity(20);

    let lead = match finding.report {
        crate::recognize::Report::ForcedTermination => w.lead_forced,
        crate::recognize::Report::Exited { .. } => w.lead,
    };
    lines.push(fill(lead, &[("tool", &tool)]));
    lines.push(String::new());

    lines.push(
        match finding.carrier {
            Carrier::Own => w.evidence,
            Carrier::GlobWrapper => w.evidence_wrapped,
        }
        .to_owned(),
    );
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());

    lines.push(cause_line(w, cause(finding, env)));
    if let crate::recognize::Report::Exited {
        bootstrap: Some(code),
        ..
    } = finding.report
    {
        let span = format!("`{}`", code.as_str());
        lines.push(fill(
            w.bootstrap,
            &[("code", &span), ("meaning", w.meanings[meaning(code)])],
        ));
    }
    lines.push(String::new());

    lines.push(w.model.to_owned());
    lines.push(w.dont_head.to_owned());
    lines.push(w.dont_mode.to_owned());
    lines.push(w.dont_retry.to_owned());
    lines.push(String::new());

    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
