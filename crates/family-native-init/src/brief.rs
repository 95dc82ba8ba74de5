//! The brief the model receives, in the order issue 15 sets: what failed and
//! that retrying cannot help; the evidence, quoted; the check that tells the
//! three measured producers apart; the remedy, ranked for this host; what not
//! to do; and where the full account is.
//!
//! The structure is built once, below; only the sentences differ per locale
//! ([`Words`]). Commands, codes, paths, quoted evidence and issue numbers are
//! the same in every locale. The background (the measurements, the withdrawn
//! 0.20.0 rule, the neighbours) stays in `detail` ([`crate::advise`]).

use std::fmt::Write as _;

use advisor_core::brief::{ExplainInput, ExplainValue, fill, full_account};
use advisor_core::{Environment, HostBinary, Locale, Platform, SandboxMode, Untrusted};

use crate::gate::{ModeSource, RanUnder};
use crate::producers::{CMD_PROBE, PWSH_PROBE};
use crate::recognize::{Finding, MSYS2_SIGNAL_PIPE};

/// The sentences of the brief in one locale. `{name}` marks a value the
/// builder fills in (a mode, a citation, a platform), never untrusted text.
struct Words {
    lead: &'static str,
    lead_unknown: &'static str,
    session_now: &'static str,
    record_head: &'static str,
    command_head: &'static str,
    signal_pipe: &'static str,
    check_head: &'static str,
    check_msys2: &'static str,
    check_console: &'static str,
    console_desktop: &'static str,
    console_plain: &'static str,
    console_remote: &'static str,
    check_token: &'static str,
    check_token_read_only: &'static str,
    remedy_head: &'static str,
    remedy_rewrite: &'static str,
    remedy_rewrite_desktop: &'static str,
    remedy_host: &'static str,
    remedy_token: &'static str,
    dont_head: &'static str,
    dont_retry: &'static str,
    dont_read_only: &'static str,
    dont_read_only_here: &'static str,
    dont_widen: &'static str,
}

const EN: Words = Words {
    lead: "A sandboxed command never started: Windows ended it with 0xC0000142 \
           (STATUS_DLL_INIT_FAILED) before its code ran, under `{mode}`. Do not retry: the same \
           call fails the same way.",
    lead_unknown: "A sandboxed command never started: Windows ended it with 0xC0000142 \
           (STATUS_DLL_INIT_FAILED) before its code ran. Do not retry: the same call fails the \
           same way.",
    session_now: "The session is now `{now}`; the call's own mode counts.",
    record_head: "The shell's exit record:",
    command_head: "The command, as passed:",
    signal_pipe: "Its stderr has MSYS2's `{line}` line (cause 1).",
    check_head: "Which cause it is:",
    check_msys2: "1. An MSYS2 / Git-Bash program (bash, sh, …) cannot load under the \
           restricted token; it is this if one failed and these start:",
    check_console: "2. A runner with no console: the child may not create one. {host}",
    console_desktop: "This host is the Electron desktop app: every confined command dies here.",
    console_plain: "This host is not Electron: was the runner started detached \
           (DETACHED_PROCESS)?",
    console_remote: "This host is `{platform}`: check the runner's console where it ran.",
    check_token: "3. The token's default-DACL input: the user reruns the command in a \
           read-only session, changing nothing else; if it starts, it is this.",
    check_token_read_only: "3. The token's workspace-write input: ruled out, the call ran \
           under read-only.",
    remedy_head: "Fix, best first:",
    remedy_rewrite: "Cause 1: do the same work as a PowerShell or cmd command; only this fix \
           is yours.",
    remedy_rewrite_desktop: " Here, only once the runner has a console.",
    remedy_host: "Cause 2: the user restarts from a host with a console (the Web UI \
           started from a terminal) or starts the runner without DETACHED_PROCESS.",
    remedy_token: "Cause 3: no setting fixes it; the user reports it upstream with both \
           results.",
    dont_head: "Do not:",
    dont_retry: "- retry, even with other arguments;",
    dont_read_only: "- move to read-only as the way out: a diagnostic only (no writes, \
           PowerShell in ConstrainedLanguage mode);",
    dont_read_only_here: "- treat this read-only session as a substitute: a diagnostic only \
           (no writes, PowerShell in ConstrainedLanguage mode);",
    dont_widen: "- widen the sandbox mode or turn confinement off: never a fix, never \
           your call.",
};

const ZH_CN: Words = Words {
    lead: "沙箱中的命令没有启动：程序自身代码运行前，Windows 以 0xC0000142 \
           (STATUS_DLL_INIT_FAILED) 结束了它，模式为 `{mode}`。不要重试：\
           同样的调用只会同样失败。",
    lead_unknown: "沙箱中的命令没有启动：程序自身代码运行前，Windows 以 0xC0000142 \
           (STATUS_DLL_INIT_FAILED) 结束了它。不要重试：同样的调用只会同样失败。",
    session_now: "会话现为 `{now}`；以本次调用的模式为准。",
    record_head: "shell 的退出记录：",
    command_head: "调用传入的命令：",
    signal_pipe: "其 stderr 含 MSYS2 的 `{line}` 一行：属于成因 1。",
    check_head: "确认是哪一种已实测的成因：",
    check_msys2: "1. MSYS2 / Git-Bash 程序（bash、sh 等）在受限令牌下无法加载。\
           若出错的正是这类程序，且下面两条能启动，即为此因：",
    check_console: "2. runner 没有控制台：子进程无权自建控制台。{host}",
    console_desktop: "本机是 Electron 桌面应用，这里每条受限命令都会如此失败。",
    console_plain: "本机不是 Electron：runner 是否以 DETACHED_PROCESS 分离启动？",
    console_remote: "本机平台为 `{platform}`：请在 runner 实际运行的机器上检查其控制台。",
    check_token: "3. 令牌的默认 DACL 输入：由用户在 read-only 会话中重跑同一命令，\
           其余不变；能启动即为此因。",
    check_token_read_only: "3. workspace-write 的令牌输入：已排除，本次调用在 read-only 下运行。",
    remedy_head: "解决办法，按优先顺序：",
    remedy_rewrite: "成因 1：改用 PowerShell 或 cmd 命令完成同样的工作，这是你唯一能自行采取的办法。",
    remedy_rewrite_desktop: "但在这里，要等 runner 有了控制台才有用。",
    remedy_host: "成因 2：由用户改从拥有控制台的宿主启动（从终端启动的 Web UI），\
           或不带 DETACHED_PROCESS 启动 runner。",
    remedy_token: "成因 3：没有设置能修复；由用户附上两次结果向上游报告。",
    dont_head: "不要：",
    dont_retry: "- 重试，换参数也不行；",
    dont_read_only: "- 把切换到 read-only 当作出路：它只用于诊断（无法写入，PowerShell 以 \
           ConstrainedLanguage 模式运行）；",
    dont_read_only_here: "- 把当前的 read-only 会话当作替代：它只用于诊断（无法写入，\
           PowerShell 以 ConstrainedLanguage 模式运行）；",
    dont_widen: "- 放宽沙箱模式或关闭隔离：这不是修复，也从来不由你决定。",
};

fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The value `sandbox-advisor explain --value` reproduces this advisory from,
/// written from the recognized facts only (never the caller's command).
fn explain_value(finding: &Finding, ran: Option<RanUnder>) -> ExplainValue {
    let mut value = ExplainValue::foreground(Some(finding.reported));
    if finding.msys2_signal_pipe {
        value = value.stderr(&[MSYS2_SIGNAL_PIPE], None);
    }
    if let Some(ran) = ran.filter(|r| r.source == ModeSource::Stamp) {
        value = value.sandbox(ran.mode, None);
    }
    value
}

/// The brief: six parts, top to bottom.
pub(crate) fn brief(finding: &Finding, ran: Option<RanUnder>, env: &Environment) -> String {
    let w = words(env.locale);
    let mode = ran.map(|r| r.mode);
    let mut out = String::with_capacity(3 * 1024);

    // 1. What failed, and that retrying cannot help.
    match ran {
        Some(ran) => {
            out.push_str(&fill(w.lead, &[("mode", ran.mode.as_str())]));
            if let Some(now) = ran.session_now {
                out.push(' ');
                out.push_str(&fill(w.session_now, &[("now", now.as_str())]));
            }
        }
        None => out.push_str(w.lead_unknown),
    }

    // 2. The evidence, quoted.
    let record = Untrusted::new(&format!("[exit code: {}]", finding.reported));
    let _ = write!(out, "\n\n{}\n{}\n", w.record_head, record.quote_block());
    if let Some(command) = &finding.command {
        let _ = writeln!(out, "{}\n{}", w.command_head, command.quote_block());
    }
    if finding.msys2_signal_pipe {
        let _ = writeln!(
            out,
            "{}",
            fill(w.signal_pipe, &[("line", MSYS2_SIGNAL_PIPE)])
        );
    }

    // 3. The check.
    let _ = writeln!(out, "\n{}", w.check_head);
    let _ = writeln!(
        out,
        "{}\nPowerShell: {PWSH_PROBE}\ncmd: {CMD_PROBE}",
        w.check_msys2
    );
    let desktop = env.host.binary == HostBinary::Electron;
    let platform = env.host.platform.as_str();
    let host = if env.host.platform != Platform::Win32 {
        fill(w.console_remote, &[("platform", platform)])
    } else if desktop {
        w.console_desktop.to_owned()
    } else {
        w.console_plain.to_owned()
    };
    let _ = writeln!(out, "{}", fill(w.check_console, &[("host", &host)]));
    let token = if mode == Some(SandboxMode::ReadOnly) {
        w.check_token_read_only
    } else {
        w.check_token
    };
    let _ = writeln!(out, "{token}");

    // 4. The remedy, ranked for this host: under the packaged desktop app the
    // console comes first, since every confined command dies there.
    let desktop_here = desktop && env.host.platform == Platform::Win32;
    let rewrite = if desktop_here {
        format!("{}{}", w.remedy_rewrite, w.remedy_rewrite_desktop)
    } else {
        w.remedy_rewrite.to_owned()
    };
    let host_swap = w.remedy_host.to_owned();
    let (first, second) = if desktop_here {
        (host_swap, rewrite)
    } else {
        (rewrite, host_swap)
    };
    // Issue 24: on the desktop app the update comes first, version-branched.
    let mut remedies: Vec<String> = crate::desktop::update_line(env).into_iter().collect();
    remedies.push(first);
    remedies.push(second);
    if mode != Some(SandboxMode::ReadOnly) {
        remedies.push(w.remedy_token.to_owned());
    }
    let _ = writeln!(out, "\n{}", w.remedy_head);
    for (i, remedy) in remedies.iter().enumerate() {
        let _ = writeln!(out, "{}. {remedy}", i + 1);
    }
    if let Some(note) = crate::desktop::fix_present_note(env) {
        let _ = writeln!(out, "{note}");
    }

    // 5. What not to do.
    let read_only = if mode == Some(SandboxMode::ReadOnly) {
        w.dont_read_only_here
    } else {
        w.dont_read_only
    };
    let _ = writeln!(
        out,
        "\n{}\n{}\n{read_only}\n{}",
        w.dont_head, w.dont_retry, w.dont_widen
    );

    // 6. Where the full account is.
    let value = explain_value(finding, ran);
    out.push('\n');
    out.push_str(&full_account(env, ExplainInput::Value(&value)));
    out
}
