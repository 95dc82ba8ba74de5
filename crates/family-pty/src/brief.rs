//! The brief the model receives, in the order issue 15 sets: what failed and
//! that retrying cannot help; the producer's sentence, quoted; the check; the
//! user's remedies, ranked; what not to do; and where the full account is.
//!
//! The structure is built once; only the sentences differ per locale
//! ([`Words`]). The tool's name is the caller's text and appears only as an
//! [`Untrusted::inline`](advisor_core::Untrusted::inline) span; the sentence
//! only as a `> ` quote block. The measurements behind it (#7638, #8322,
//! #9170) stay in `detail` ([`crate::advise`]).

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, HostBinary, HostRemedy, Locale, Platform, SandboxMode};

use crate::facts::SUMMARY_TOOL_MAX_CHARS;
use crate::recognize::Finding;

/// The sentences of the brief in one locale. `{name}` marks a value the
/// builder fills in, in one pass (see [`advisor_core::brief::fill`]).
struct Words {
    lead: &'static str,
    whole: &'static str,
    first_line: &'static str,
    frames: &'static str,
    check: &'static str,
    host_desktop: &'static str,
    host_console: &'static str,
    host_remote: &'static str,
    model: &'static str,
    remedy_head: &'static str,
    remedy_console: &'static str,
    dont_head: &'static str,
    this_tool: &'static str,
    dont_retry: &'static str,
    dont_read_only: &'static str,
    dont_read_only_here: &'static str,
    dont_restart: &'static str,
    dont_relax: &'static str,
}

const EN: Words = Words {
    lead: "The persistent shell exited before its first prompt: this session has no working \
           shell. Retrying cannot help: the sandbox mode (`{mode}`) and the runner's host program \
           fix the outcome.",
    whole: "What was reported, the failure's whole message:",
    first_line: "What was reported, the message's first line:",
    frames: "Below it: {n} stack frame(s), not repeated.",
    check: "Check: through the restricted runner the pseudo-console cannot be created. If the \
            `standard` preset's one-shot shell runs commands in this mode, that was the cause. \
            {host}",
    host_desktop: "This host is the Electron desktop app, the host measured to fail.",
    host_console: "This host is not Electron (the host measured to work), so the reason may \
                   differ; remedies 1 and 2 avoid the pseudo-console anyway.",
    host_remote: "This host reports `{platform}`; the measurements were made on Windows.",
    model: "For you: stop; continue with file tools and hand the choice below to the user.",
    remedy_head: "For the user, best first:",
    remedy_console: "Run the session from a host with a console (the Web UI started from a \
                     terminal), not the desktop app.",
    dont_head: "Do not:",
    this_tool: "this shell tool",
    dont_retry: "- call {tool} again or look for a repairing command: there is no shell to run \
                 it in;",
    dont_read_only: "- switch to `read-only` as a way out: same runner, same host;",
    dont_read_only_here: "- expect another mode to help: this session already runs under \
                          `read-only`;",
    dont_restart: "- restart the app with another mode: the session keeps its recorded mode;",
    dont_relax: "- change or relax the sandbox mode yourself: never the model's choice.",
};

const ZH_CN: Words = Words {
    lead: "持久 shell 在出现第一个提示符前就退出了，本会话没有可用的 shell。\
           重试无济于事：结果由会话的沙箱模式（`{mode}`）和承载沙箱 runner 的程序决定。",
    whole: "报告内容，即失败的完整消息：",
    first_line: "报告内容，即失败消息的第一行：",
    frames: "其下还有 {n} 行堆栈，不再重复。",
    check: "确认：在受限模式下，经受限 runner 无法创建伪控制台。`standard` 预设的一次性 shell \
            不需要伪控制台；若它在此模式下能运行命令，原因就是伪控制台。{host}",
    host_desktop: "本机是打包的桌面应用（Electron），正是实测失败的宿主。",
    host_console: "本机不是 Electron，是实测可用的宿主，原因可能另有所在；\
                   但办法 1 和 2 都能绕开伪控制台。",
    host_remote: "本机平台为 `{platform}`；上述实测均在 Windows 上完成。",
    model: "你应当：停止调用，改用文件读写工具继续，并把下面的选择交给用户。",
    remedy_head: "用户可选的办法，按优先顺序：",
    remedy_console: "改从拥有控制台的宿主运行会话，例如从终端启动的 Web UI，而不是桌面应用。",
    dont_head: "不要：",
    this_tool: "这个 shell 工具",
    dont_retry: "- 再次调用 {tool}，或寻找修复命令：没有 shell 可以运行它；",
    dont_read_only: "- 把切换到 `read-only` 当作出路：仍是同一个 runner、同一个宿主启动；",
    dont_read_only_here: "- 指望换模式能解决：本会话已在 `read-only` 下运行；",
    dont_restart: "- 以其他模式重启应用：本会话保留它记录的模式；",
    dont_relax: "- 自行更改或放宽沙箱模式：这从来不由模型决定。",
};

fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief: six parts, top to bottom.
pub(crate) fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    // The name is the caller's text: named only through its inline rendering,
    // and only when that is short, so a long hostile name cannot eat the budget.
    let mention = finding.tool.inline().to_string();
    let tool = if mention.chars().count() <= SUMMARY_TOOL_MAX_CHARS {
        mention
    } else {
        w.this_tool.to_owned()
    };
    let mode = env.mode().ok();
    let mode_name = mode.map_or("unresolved", SandboxMode::as_str);
    let electron = env.host.binary == HostBinary::Electron;
    let mut lines: Vec<String> = Vec::with_capacity(24);

    // 1. What failed, and that retrying cannot help.
    lines.push(fill(w.lead, &[("mode", mode_name)]));
    lines.push(String::new());

    // 2. The evidence.
    lines.push(
        if finding.frames == 0 {
            w.whole
        } else {
            w.first_line
        }
        .to_owned(),
    );
    lines.push(finding.sentence.quote_block().to_string());
    if finding.frames > 0 {
        lines.push(fill(w.frames, &[("n", &finding.frames.to_string())]));
    }
    lines.push(String::new());

    // 3–4 for a setup issue 24 told apart: its cause, then its remedies.
    if let Some(middle) = crate::branches::brief_middle(crate::cause::cause(finding, env), env) {
        lines.extend(middle);
        lines.push(String::new());
        return finish(lines, w, finding, env, &tool, mode);
    }

    // 3. The check, with this host's fact.
    let host = if env.host.platform != Platform::Win32 {
        fill(w.host_remote, &[("platform", env.host.platform.as_str())])
    } else if electron {
        w.host_desktop.to_owned()
    } else {
        w.host_console.to_owned()
    };
    lines.push(fill(w.check, &[("host", &host)]));
    lines.push(String::new());

    // 4. The remedy: the model stops; the user chooses.
    lines.push(w.model.to_owned());
    lines.push(w.remedy_head.to_owned());
    // The harness's own words for its presets and patch layer: its host table.
    let host = env.host.kind;
    for (n, remedy) in [
        (1, HostRemedy::ShellWithoutPseudoConsole),
        (2, HostRemedy::ReplacePersistentShell),
    ] {
        if let Some(text) = host.remedy(remedy, env.locale) {
            lines.push(format!("{n}. {text}"));
        }
    }
    if electron {
        lines.push(format!("3. {}", w.remedy_console));
    }
    lines.push(String::new());
    finish(lines, w, finding, env, &tool, mode)
}

/// Parts 5 and 6, the same for every cause: what not to do, and where the full account is.
fn finish(
    mut lines: Vec<String>,
    w: &Words,
    finding: &Finding,
    env: &Environment,
    tool: &str,
    mode: Option<SandboxMode>,
) -> String {
    // 5. What not to do.
    lines.push(w.dont_head.to_owned());
    lines.push(fill(w.dont_retry, &[("tool", tool)]));
    lines.push(
        if mode == Some(SandboxMode::ReadOnly) {
            w.dont_read_only_here
        } else {
            w.dont_read_only
        }
        .to_owned(),
    );
    lines.push(w.dont_restart.to_owned());
    lines.push(w.dont_relax.to_owned());
    lines.push(String::new());

    // 6. Where the full account is.
    lines.push(full_account(env, ExplainInput::Message(&finding.sentence)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
