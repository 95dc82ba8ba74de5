//! The brief the model receives: what was refused and why it is the sandbox
//! on purpose, and that a program could have printed the same line; the
//! producer's line, quoted; the check; what the user can do; what not to do;
//! where the full account is.
//!
//! One structure, one set of sentences per locale ([`Words`]). The path and
//! the line are the producer's text and appear only in the `> ` quote block;
//! the advisor's sentences name only its own words (the protected name, the
//! mode). The line is never proven ([`crate::provenance`]), so no other
//! sandbox mode and no run outside the sandbox is offered on it.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, Locale, SandboxMode};

use crate::facts::{Protected, protected};
use crate::recognize::{Finding, Producer};

/// The sentences of the brief in one locale; `{name}` marks a value filled in.
pub(crate) struct Words {
    pub lead: &'static str,
    pub lead_unplaced: &'static str,
    pub forgeable: &'static str,
    pub purposes: [&'static str; 3],
    pub evidence: &'static str,
    pub check: &'static str,
    pub ways: &'static str,
    pub yourself_git: &'static str,
    pub yourself_other: &'static str,
    pub model: &'static str,
    pub dont_head: &'static str,
    pub dont_repair: &'static str,
    pub dont_retry: &'static str,
}

const EN: Words = Words {
    lead: "A line of this output (quoted below) is a write refused under the workspace's \
           top-level `{name}`. Under `{mode}` Codex mounts `{name}` read-only to \
           protect {purpose}, so such a write is refused every time: retrying cannot help.",
    lead_unplaced: "A line of this output (quoted below) is a write refused as a read-only \
                    file system. Under `{mode}` Codex mounts a few top-level names \
                    of the workspace read-only; retrying the same write cannot help.",
    forgeable: "Codex's report does not show which program printed that line: if this command \
                only printed it (a `cat` of a log, a test's output), nothing was refused and \
                none of this applies.",
    purposes: [
        "the repository's history and hooks",
        "the agent skills kept there",
        "Codex's own project configuration",
    ],
    evidence: "What was reported:",
    check: "Check: the path is under `{name}` directly below the workspace root; the mode \
            is `{mode}`.",
    ways: "What the user can do:",
    yourself_git: "- The user runs the git command themselves, outside Codex.",
    yourself_other: "- The user makes this change themselves, outside Codex.",
    model: "For you: stop writing under `{name}`; tell the user what was refused and why, \
            and go on with other work.",
    dont_head: "Do not:",
    dont_repair: "- delete lock files, chmod, re-initialize the repository or move `{name}`: \
                  the mount ignores file modes, and re-initializing or moving a repository \
                  can lose its history;",
    dont_retry: "- retry, or make the write through another tool: it is refused the same way.",
};

const ZH_CN: Words = Words {
    lead: "该输出中有一行（见下方引用）是工作区顶层 `{name}` 之下一次被拒绝的写入。\
           在 `{mode}` 下，Codex 把 `{name}` 以只读方式挂载，用来保护{purpose}，\
           这样的写入每次都会被拒绝：重试无济于事。",
    lead_unplaced: "该输出中有一行（见下方引用）是一次因只读文件系统被拒绝的写入。\
                    在 `{mode}` 下，Codex 会把工作区顶层的几个名称以只读方式挂载；\
                    重试同样的写入无济于事。",
    forgeable: "Codex 的报告看不出那一行是哪个程序打印的：如果该命令只是把它打印了出来\
                （`cat` 一份日志、测试的输出），那就没有写入被拒绝，以下内容都不适用。",
    purposes: [
        "仓库的历史和钩子",
        "存放在那里的代理技能",
        "Codex 自己的项目配置",
    ],
    evidence: "报告内容：",
    check: "核对：该路径位于工作区根目录正下方的 `{name}` 之中，且会话运行在 `{mode}` 下。",
    ways: "用户可以这样做：",
    yourself_git: "- 由用户自己在 Codex 之外、在同一目录中运行这条 git 命令。",
    yourself_other: "- 由用户自己在 Codex 之外完成这项修改。",
    model: "对你而言：停止向 `{name}` 之下写入；告诉用户哪条命令被拒绝以及原因，\
            然后继续做与它无关的工作。",
    dont_head: "不要：",
    dont_repair: "- 删除锁文件、chmod、重新初始化仓库或移动 `{name}`：\
                  无论文件权限如何，该挂载都拒绝一切写入；重新初始化或移动仓库可能丢失其历史；",
    dont_retry: "- 重试，或改用其他工具做同样的写入：它会以同样的方式被拒绝。",
};

/// The sentences for `locale`.
pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The index of `protected`'s purpose in [`Words::purposes`].
pub(crate) fn purpose(protected: Protected) -> usize {
    match protected {
        Protected::Git => 0,
        Protected::Agents => 1,
        Protected::Codex => 2,
    }
}

/// The brief, in the environment's locale.
pub fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let mode = SandboxMode::WorkspaceWrite.as_str();
    let place = protected(&finding.place, finding.path.inspect(), env);
    let name = place.map_or(".git", Protected::name);
    let mut lines: Vec<String> = Vec::with_capacity(20);

    lines.push(match place {
        Some(p) => fill(
            w.lead,
            &[
                ("mode", mode),
                ("name", name),
                ("purpose", w.purposes[purpose(p)]),
            ],
        ),
        None => fill(w.lead_unplaced, &[("mode", mode)]),
    });
    lines.push(w.forgeable.to_owned());
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    if place.is_some() {
        lines.push(fill(w.check, &[("name", name), ("mode", mode)]));
        lines.push(String::new());
    }

    // The line is forgeable (`crate::provenance`): no other sandbox mode and
    // no run outside the sandbox is offered on it, only the user's own hand.
    lines.push(w.ways.to_owned());
    lines.push(match finding.producer {
        Producer::Git => w.yourself_git.to_owned(),
        _ => w.yourself_other.to_owned(),
    });
    lines.push(String::new());

    lines.push(fill(w.model, &[("name", name)]));
    lines.push(w.dont_head.to_owned());
    lines.push(fill(w.dont_repair, &[("name", name)]));
    lines.push(w.dont_retry.to_owned());
    lines.push(String::new());

    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
