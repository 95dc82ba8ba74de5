//! The advisory for the desktop trampoline's own failure lines: the
//! trampoline that fixes `0xC0000142` on Desktop 2.0.11 and later could not
//! do its job, so the runner never started. Both lines were read in the
//! desktop's source and have never been seen in a report; the advisory says so.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Advisory, Environment, Gate, Locale, Platform, WithholdReason};

use crate::desktop::{TrampolineFinding, TrampolineLine};

/// The trampoline exists only on Windows; elsewhere the line is something quoted.
pub fn gate(env: &Environment) -> Gate {
    match env.host.platform {
        Platform::Win32 => Gate::Speak,
        other => Gate::Withhold(WithholdReason::PlatformOutOfScope(other)),
    }
}

/// What a Win32 code from `AllocConsole` means, in words; `None` for a code
/// the advisor has no words for (the check then looks it up).
pub fn win32_meaning(code: u32, locale: Locale) -> Option<&'static str> {
    let zh = locale == Locale::ZhCn;
    Some(match code {
        5 if zh => "ERROR_ACCESS_DENIED：拒绝访问，例如该进程已有控制台，或不允许它创建控制台",
        5 => {
            "ERROR_ACCESS_DENIED: access denied, e.g. the process already has a console or may not create one"
        }
        6 if zh => "ERROR_INVALID_HANDLE：句柄无效",
        6 => "ERROR_INVALID_HANDLE: a handle it needed was invalid",
        8 if zh => "ERROR_NOT_ENOUGH_MEMORY：内存不足",
        8 => "ERROR_NOT_ENOUGH_MEMORY: not enough memory",
        87 if zh => "ERROR_INVALID_PARAMETER：参数无效",
        87 => "ERROR_INVALID_PARAMETER: a parameter was refused",
        _ => return None,
    })
}

struct Words {
    lead: &'static str,
    evidence: &'static str,
    no_console: &'static str,
    no_console_code: &'static str,
    no_console_unknown: &'static str,
    unexpected: &'static str,
    never_seen: &'static str,
    model: &'static str,
    remedy_head: &'static str,
    remedy_web: &'static str,
    remedy_report: &'static str,
    remedy_reinstall: &'static str,
    dont_head: &'static str,
    dont_retry: &'static str,
    dont_mode: &'static str,
}

const EN: Words = Words {
    lead: "The sandboxed command never ran: the desktop app's runner trampoline failed \
           before starting the sandbox runner, under `{mode}`. Retrying cannot help.",
    evidence: "The runner's line, as the error carried it:",
    no_console: "The trampoline gives the runner a console before it starts (the fix for \
                 0xC0000142 since Desktop 2.0.11), and Windows refused to allocate one.",
    no_console_code: "Win32 {code} is {meaning}.",
    no_console_unknown: "Win32 {code} is the system's error code; `net helpmsg {code}` \
                         prints its text.",
    unexpected: "The trampoline was handed a runner other than the one its own install \
                 resolves, and refused to start it: the app and its bundled runtime do not match.",
    never_seen: "This line was read in the desktop's source and has not been seen in a report.",
    model: "For you: stop calling tools that start processes; continue with file tools and \
            hand the choice below to the user.",
    remedy_head: "For the user, best first:",
    remedy_web: "Run `dsh web` from a terminal, whose runner has a console and needs no \
                 trampoline.",
    remedy_report: "Report it to the desktop project with this line and the Desktop version.",
    remedy_reinstall: "Reinstall or update Desktop so the app and its runtime match.",
    dont_head: "Do not:",
    dont_retry: "- retry the call: the trampoline fails the same way;",
    dont_mode: "- change the sandbox mode yourself: it is not the cause, and never the model's choice.",
};

const ZH_CN: Words = Words {
    lead: "沙箱命令没有运行：桌面应用的 runner trampoline 在启动沙箱 runner 之前就失败了（`{mode}`）。\
           重试无济于事。",
    evidence: "错误中携带的 runner 输出：",
    no_console: "trampoline 会在启动 runner 前为它分配控制台（自 Desktop 2.0.11 起对 0xC0000142 \
                 的修复），而 Windows 拒绝分配。",
    no_console_code: "Win32 {code} 即 {meaning}。",
    no_console_unknown: "Win32 {code} 是系统错误码；`net helpmsg {code}` 可显示其含义。",
    unexpected: "trampoline 收到的 runner 与它自身安装解析出的不一致，因此拒绝启动：\
                 应用与其捆绑的运行时不匹配。",
    never_seen: "这一行来自对桌面应用源代码的阅读，尚未在任何报告中出现。",
    model: "你应当：停止调用会启动进程的工具，改用文件工具继续，并把下面的选择交给用户。",
    remedy_head: "用户可选的办法，按优先顺序：",
    remedy_web: "从终端运行 `dsh web`：它的 runner 自带控制台，不需要 trampoline。",
    remedy_report: "附上这一行和 Desktop 版本，向桌面应用项目报告。",
    remedy_reinstall: "重新安装或更新 Desktop，使应用与其运行时一致。",
    dont_head: "不要：",
    dont_retry: "- 重试：trampoline 会同样失败；",
    dont_mode: "- 自行更改沙箱模式：原因不在这里，而且这从来不由模型决定。",
};

fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The cause sentences for the line, in one locale.
fn cause(w: &Words, line: TrampolineLine, locale: Locale) -> Vec<String> {
    match line {
        TrampolineLine::NoConsole { win32 } => {
            let code = win32.to_string();
            let meaning = match win32_meaning(win32, locale) {
                Some(meaning) => fill(w.no_console_code, &[("code", &code), ("meaning", meaning)]),
                None => fill(w.no_console_unknown, &[("code", &code)]),
            };
            vec![w.no_console.to_owned(), meaning]
        }
        TrampolineLine::UnexpectedRunner => vec![w.unexpected.to_owned()],
    }
}

fn brief(finding: &TrampolineFinding, env: &Environment) -> String {
    let w = words(env.locale);
    let mut lines = vec![
        fill(w.lead, &[("mode", finding.mode.as_str())]),
        String::new(),
        w.evidence.to_owned(),
        finding.detail.quote_block().to_string(),
        String::new(),
    ];
    lines.extend(cause(w, finding.line, env.locale));
    lines.push(w.never_seen.to_owned());
    lines.push(String::new());
    lines.push(w.model.to_owned());
    lines.push(w.remedy_head.to_owned());
    lines.push(format!("1. {}", w.remedy_web));
    match finding.line {
        TrampolineLine::NoConsole { .. } => lines.push(format!("2. {}", w.remedy_report)),
        TrampolineLine::UnexpectedRunner => {
            lines.push(format!("2. {}", w.remedy_reinstall));
            lines.push(format!("3. {}", w.remedy_report));
        }
    }
    lines.push(String::new());
    lines.push(w.dont_head.to_owned());
    lines.push(w.dont_retry.to_owned());
    lines.push(w.dont_mode.to_owned());
    lines.push(String::new());
    lines.push(full_account(
        env,
        ExplainInput::Message(&advisor_core::Untrusted::new(&full_message(finding))),
    ));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// The whole error message again, for the explain line (the producer's text).
fn full_message(finding: &TrampolineFinding) -> String {
    format!(
        "sandbox mode \"{}\" is requested but no sandbox backend is usable on this host; refusing \
         to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel \
         (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner \
         can start (Windows) — otherwise switch the consumer to danger-full-access. Runner \
         failure: {}",
        finding.mode,
        finding.detail.inspect()
    )
}

fn detail(finding: &TrampolineFinding) -> String {
    let en = &EN;
    let mut out = vec![
        format!(
            "The sandboxed command never ran. On the desktop app the Windows ACL runner is \
             started through a trampoline; that trampoline failed, wrote its reason as a \
             `windows-acl-run:` line and exited 127, so the executor refused to run the command \
             and threw SandboxUnavailableError under `{}`.",
            finding.mode
        ),
        String::new(),
        "The runner's line, as the error carried it:".to_owned(),
        finding.detail.quote_block().to_string(),
        String::new(),
        "What is known:".to_owned(),
    ];
    for sentence in cause(en, finding.line, Locale::En) {
        out.push(format!("- {sentence}"));
    }
    out.push(
        "- The trampoline ships with Desktop 2.0.11 and later (desktop PR 990); it calls \
         AllocConsole and hides the window, because an Electron host owns no console and a \
         restricted child cannot create its console host itself."
            .to_owned(),
    );
    out.push(String::new());
    out.push(
        "For the model: stop calling tools that start processes; each goes through the same \
         trampoline. Continue with file read and write tools, leave the sandbox mode alone, and \
         hand the choice to the user."
            .to_owned(),
    );
    out.push(String::new());
    out.push(format!(
        "For the user: 1. {} 2. {} Last, `danger-full-access` skips the runner, and with it the \
         sandbox; that is the user's decision only.",
        en.remedy_web,
        match finding.line {
            TrampolineLine::NoConsole { .. } => en.remedy_report,
            TrampolineLine::UnexpectedRunner => en.remedy_reinstall,
        }
    ));
    out.push(String::new());
    out.push(format!(
        "Where this stops: {} What the Win32 code means for AllocConsole on this host was not \
         measured.",
        en.never_seen
    ));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The advisory for a trampoline line.
pub fn advise(finding: &TrampolineFinding, env: &Environment) -> Advisory {
    let summary = match env.locale {
        Locale::En => {
            "Desktop runner trampoline failed before the sandbox runner started; retrying will not help"
        }
        Locale::ZhCn => "桌面应用的 runner trampoline 在沙箱 runner 启动前失败；重试无济于事",
    };
    Advisory::new(crate::ID, summary, brief(finding, env)).with_detail(detail(finding))
}
