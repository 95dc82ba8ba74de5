//! The brief the model receives: what was refused and why it is the
//! sandbox; the path and the producer's line, quoted; the check the advisor
//! made; the ways through, ranked, each the user's decision where it
//! changes the sandbox; what not to do; where the full account is.
//!
//! One structure, one set of sentences per locale ([`Words`]). The path and
//! the line are the producer's text and appear only in `> ` quote blocks.
//! Sentences that name a client's configuration come from its host table
//! ([`advisor_core::HostRemedy`]), never from here. Gemini CLI's brief is
//! its own ([`crate::gemini::brief`]).

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, HostRemedy, Locale};

use crate::facts::{Confinement, confinement, in_git_dir, user_may_write};
use crate::recognize::Finding;

/// The sentences of the brief in one locale; `{name}` marks a value filled in.
pub(crate) struct Words {
    pub lead_outside: &'static str,
    pub lead_read_only: &'static str,
    pub path: &'static str,
    pub evidence: &'static str,
    pub check_outside: &'static str,
    pub check_read_only: &'static str,
    pub ways: &'static str,
    pub elsewhere: &'static str,
    pub widen: &'static str,
    pub not_this_user: &'static str,
    pub ask: &'static str,
    pub model: &'static str,
    pub model_read_only: &'static str,
}

const EN: Words = Words {
    lead_outside: "{host}'s sandbox refused a write outside the directories it lets commands \
                   write. The same write is refused every time: retrying cannot help, and \
                   running the command outside the sandbox is the user's decision, not a fix.",
    lead_read_only: "Codex runs this session under `read-only`: its sandbox refuses every \
                     write, the workspace's own included. Retrying cannot help.",
    path: "Refused path:",
    evidence: "What was reported:",
    check_outside: "Check: outside the sandbox, the host's mount there is writable (the advisor \
                    looked), and the path lies outside the working directory, the directories \
                    the configuration adds and the sandbox's temporary directory.",
    check_read_only: "Check: the mode is `read-only`; outside the sandbox, the host's mount there \
                      is writable (the advisor looked).",
    ways: "Ways through:",
    elsewhere: "- Write inside the working directory or the sandbox's temporary directory \
                instead (point a cache or a build output there). {row}",
    widen: "- {row} That widens the sandbox: it is the user's decision.",
    not_this_user: "- Outside the sandbox this user may not write there either, so making it \
                    writable in the sandbox would not help.",
    ask: "- Or the user runs the command themselves.",
    model: "For you: do not retry this write or look for a way around the sandbox; write \
            elsewhere, or tell the user which path was refused and why.",
    model_read_only: "For you: stop writing; tell the user what you need to write and why, and go \
                      on with what reading alone can do.",
};

const ZH_CN: Words = Words {
    lead_outside: "{host} 的沙箱拒绝了一次在其允许命令写入的目录之外的写入。\
                   同样的写入每次都会被拒绝：重试无济于事；在沙箱外运行该命令由用户决定，并不是修复。",
    lead_read_only: "Codex 在 `read-only` 下运行本会话：其沙箱拒绝一切写入，工作区本身也不例外。\
                     重试无济于事。",
    path: "被拒绝的路径：",
    evidence: "报告内容：",
    check_outside: "核对：在沙箱之外，主机在该处的挂载是可写的（顾问已检查），\
                    且该路径位于工作目录、配置添加的目录和沙箱临时目录之外。",
    check_read_only: "核对：模式为 `read-only`；在沙箱之外，主机在该处的挂载是可写的（顾问已检查）。",
    ways: "可行的办法：",
    elsewhere: "- 改为写入工作目录或沙箱的临时目录（把缓存或构建输出指向那里）。{row}",
    widen: "- {row}这会扩大沙箱，由用户决定。",
    not_this_user: "- 在沙箱之外该用户也无权写入那里，因此让它在沙箱中可写也无济于事。",
    ask: "- 或由用户自己运行该命令。",
    model: "对你而言：不要重试这次写入，也不要设法绕过沙箱；改写到别处，\
            或告诉用户哪个路径被拒绝以及原因。",
    model_read_only: "对你而言：停止写入；告诉用户你需要写入什么以及原因，并继续只靠读取能完成的工作。",
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, in the environment's locale.
pub fn brief(finding: &Finding, env: &Environment) -> String {
    if env.host.kind == advisor_core::Host::GeminiCli {
        let git = in_git_dir(finding, env);
        return crate::gemini::brief::brief(finding, env, git);
    }
    let w = words(env.locale);
    let host = env.host.kind;
    let read_only = confinement(finding, env) == Ok(Confinement::ReadOnlyMode);
    let row = |remedy| host.remedy(remedy, env.locale);
    let mut lines: Vec<String> = Vec::with_capacity(24);

    lines.push(if read_only {
        w.lead_read_only.to_owned()
    } else {
        fill(w.lead_outside, &[("host", host.name())])
    });
    lines.push(String::new());
    lines.push(w.path.to_owned());
    lines.push(finding.path.quote_block().to_string());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    lines.push(
        if read_only {
            w.check_read_only
        } else {
            w.check_outside
        }
        .to_owned(),
    );
    lines.push(String::new());

    lines.push(w.ways.to_owned());
    if read_only {
        for remedy in [
            HostRemedy::WorkspaceWriteMode,
            HostRemedy::EscalateOneCommand,
        ] {
            lines.extend(row(remedy).map(|r| format!("- {r}")));
        }
    } else {
        let temp = row(HostRemedy::WritableTempDir).unwrap_or_default();
        lines.push(fill(w.elsewhere, &[("row", temp)]).trim_end().to_owned());
        if user_may_write(env) {
            lines.extend(row(HostRemedy::ExtraWritableRoot).map(|r| fill(w.widen, &[("row", r)])));
        } else {
            lines.push(w.not_this_user.to_owned());
        }
        lines.push(w.ask.to_owned());
    }
    lines.push(String::new());
    lines.push(
        if read_only {
            w.model_read_only
        } else {
            w.model
        }
        .to_owned(),
    );
    lines.push(String::new());

    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
