//! The brief under Gemini CLI, one set of sentences per locale: a write
//! refused outside the workspace, or into the workspace's `.git` by a
//! command that does not run git.
//!
//! Outside the workspace an approval can help, so the brief says what to
//! approve and why, and leaves the choice with the user: Gemini's own
//! proposal for a marked result takes its paths from the output's text
//! (the wrapper's `/usr/bin`, its temp directory) and often misses the
//! refused one, so the brief names it. In `.git` no approval is needed:
//! a command that runs git may write there.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, Locale};

use crate::facts::user_may_write;
use crate::recognize::Finding;

struct Words {
    lead_outside: &'static str,
    lead_git: &'static str,
    path: &'static str,
    evidence: &'static str,
    check_outside: &'static str,
    check_git: &'static str,
    ways: &'static str,
    workspace: &'static str,
    approve: &'static str,
    widen: &'static str,
    not_this_user: &'static str,
    with_git: &'static str,
    ask: &'static str,
    model_outside: &'static str,
    model_git: &'static str,
}

const EN: Words = Words {
    lead_outside: "Gemini CLI's tool sandbox refused a write outside the directories it lets \
                   commands write. The same write is refused every time: retrying cannot help.",
    lead_git: "Gemini CLI's tool sandbox keeps the workspace's `.git` read-only for commands \
               that do not run git, and refused this write there. Retrying the same command \
               cannot help.",
    path: "Refused path:",
    evidence: "What was reported:",
    check_outside: "Check: Gemini CLI marked the result as its sandbox's refusal; outside the \
                    sandbox, the host's mount there is writable (the advisor looked), and the \
                    path lies outside the workspace and the sandbox's `/tmp`.",
    check_git: "Check: Gemini CLI marked the result as its sandbox's refusal \
                (`sandbox_expansion_required`); the path lies in the workspace's `.git`, no word \
                of the command is `git`, and outside the sandbox the host's mount there is \
                writable (the advisor looked).",
    ways: "Ways through:",
    workspace: "- Write inside the workspace instead (point a cache or a build output there); \
                the sandbox's `/tmp` is emptied after every command.",
    approve: "- If the write must go there, run the command again with write access to \
              exactly that path in `additional_permissions`: Gemini CLI then asks the user, who \
              decides (a headless run has nobody to ask). Gemini's own proposal reads paths \
              from the output and may miss the refused one: approve it only if it names it.",
    widen: "- {row} That widens the sandbox: it is the user's decision.",
    not_this_user: "- Outside the sandbox this user may not write there either, so making it \
                    writable in the sandbox would not help.",
    with_git: "- Change the repository with git itself (`git config`, `git commit`, …): Gemini \
               CLI makes `.git` writable for a command that runs git.",
    ask: "- Or the user runs the command themselves.",
    model_outside: "For you: do not retry this write unchanged or look for a way around the \
                    sandbox; write inside the workspace, or ask for the refused path as above \
                    and tell the user why it is needed.",
    model_git: "For you: do not write into `.git` with other tools; use a git command, or tell \
                the user what you need changed there.",
};

const ZH_CN: Words = Words {
    lead_outside: "Gemini CLI 的工具沙箱拒绝了一次在其允许命令写入的目录之外的写入。\
                   同样的写入每次都会被拒绝：重试无济于事。",
    lead_git: "Gemini CLI 的工具沙箱对不运行 git 的命令保持工作区的 `.git` 只读，\
               并拒绝了这次在其中的写入。重试同一命令无济于事。",
    path: "被拒绝的路径：",
    evidence: "报告内容：",
    check_outside: "核对：Gemini CLI 将该结果标记为其沙箱的拒绝；在沙箱之外，主机在该处的挂载是可写的（顾问已检查），且该路径位于工作区和沙箱的 `/tmp` 之外。",
    check_git: "核对：Gemini CLI 将该结果标记为其沙箱的拒绝（`sandbox_expansion_required`）；\
                该路径位于工作区的 `.git` 中，命令中没有 `git` 一词，且在沙箱之外主机在该处的挂载是可写的（顾问已检查）。",
    ways: "可行的办法：",
    workspace: "- 改为写入工作区（把缓存或构建输出指向那里）；沙箱的 `/tmp` 在每条命令之后都会被清空。",
    approve: "- 若必须写入被拒绝的路径，请重新运行该命令，并在 `additional_permissions` \
              中只请求对该路径的写权限；Gemini CLI 随后会询问用户，由用户决定（无头运行时无人可问）。\
              Gemini 自己为此结果提出的扩展取自输出文本中的路径，未必包含被拒绝的路径：仅当其包含时才批准。",
    widen: "- {row}这会扩大沙箱，由用户决定。",
    not_this_user: "- 在沙箱之外该用户也无权写入那里，因此让它在沙箱中可写也无济于事。",
    with_git: "- 用 git 本身修改仓库（`git config`、`git commit` 等）：Gemini CLI \
               会为运行 git 的命令将 `.git` 设为可写。",
    ask: "- 或由用户自己运行该命令。",
    model_outside: "对你而言：不要原样重试这次写入，也不要设法绕过沙箱；改写到工作区，\
                    或按上文请求该路径，并告诉用户为何需要它。",
    model_git: "对你而言：不要用其他工具写入 `.git`；请使用 git 命令，或告诉用户你需要在那里改动什么。",
};

fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, in the environment's locale; `git` when the path lies in the
/// workspace's `.git` ([`crate::facts::kept_git_dir`]).
pub fn brief(finding: &Finding, env: &Environment, git: bool) -> String {
    let w = words(env.locale);
    let row = |remedy| env.host.kind.remedy(remedy, env.locale);
    let mut lines: Vec<String> = Vec::with_capacity(24);
    lines.push(if git { w.lead_git } else { w.lead_outside }.to_owned());
    lines.push(String::new());
    lines.push(w.path.to_owned());
    lines.push(finding.path.quote_block().to_string());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    lines.push(if git { w.check_git } else { w.check_outside }.to_owned());
    lines.push(String::new());
    lines.push(w.ways.to_owned());
    if git {
        lines.push(w.with_git.to_owned());
    } else {
        lines.push(w.workspace.to_owned());
        if user_may_write(env) {
            lines.push(w.approve.to_owned());
            lines.extend(
                row(advisor_core::HostRemedy::ExtraWritableRoot)
                    .map(|r| fill(w.widen, &[("row", r)])),
            );
        } else {
            lines.push(w.not_this_user.to_owned());
        }
    }
    lines.push(w.ask.to_owned());
    lines.push(String::new());
    lines.push(if git { w.model_git } else { w.model_outside }.to_owned());
    lines.push(String::new());
    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
