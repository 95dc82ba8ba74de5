//! The brief the model receives: what was refused and that retrying cannot
//! help, the stamp quoted, the check, the remedy by breadth, what not to do,
//! and where the full account (`detail`) is.
//!
//! One structure for both locales: the sentences come from [`Words`], picked
//! by the environment's locale; commands, paths and the quoted stamp are the
//! same in both.

use advisor_core::brief::{ExplainInput, ExplainValue, full_account_with};
use advisor_core::{Environment, Locale, Untrusted};

use crate::facts::checks;
use crate::named::NamedPath;
use crate::recognize::Finding;

/// The brief's sentences in one language.
struct Words {
    lead: &'static str,
    exited: &'static str,
    no_exit: &'static str,
    stamped: &'static str,
    placeholders: &'static str,
    check: &'static str,
    both_sides: &'static str,
    remedy: &'static str,
    not: &'static str,
}

const EN: Words = Words {
    lead: "Write refused inside the workspace: the sandbox's grant never reached this object. \
           Retrying cannot help; the backend re-checks only the root.",
    exited: "The command exited {code}",
    no_exit: "The command's value reports no exit code",
    stamped: ", stamped denied under `workspace-write`:",
    placeholders: "Placeholders ({list}) mark paths not safe on a command line; `detail` shows \
                   them.",
    check: "Every path it names lies inside the workspace root (the last line). Confirm outside \
            this session, in unelevated PowerShell (read-only):",
    both_sides: "An ACL must admit your normal token (reads) and the Low-integrity token (writes).",
    remedy: "By how much of the tree refuses writes:\n\
             1. A few objects missed the inherited grant: write into files this session creates.\n\
             2. All below the root, the root writable: the Low label is missing; new folders \
             fail too.\n\
             3. Not even the root: the root's own grant is gone (another cause).\n\
             Tell the user and hand over the check; the user fixes the security descriptors \
             outside the session. The `diagnose-windows-sandbox-acl` skill (0.2.0 and later) \
             tells the DACL half from the label.",
    not: "Do not:\n\
          - retry, or look for another existing file that accepts the write;\n\
          - edit ACLs from here: the cases look alike, and the wrong half changes nothing;\n\
          - ask for a wider sandbox mode: relaxing it is never the fix.",
};

const ZH_CN: Words = Words {
    lead: "工作区内的写入被拒：沙箱授权从未到达该对象。重试没有用，后端只复查根目录。",
    exited: "命令退出码为 {code}",
    no_exit: "命令的返回值未报告退出码",
    stamped: "，执行器标记其在 `workspace-write` 下被拒：",
    placeholders: "占位符（{list}）代表不能安全写进命令行的路径，原路径见 `detail`。",
    check: "命令指定的路径都在工作区根目录（最后一行）之内。请在会话之外、非提升的 PowerShell 中确认（只读）：",
    both_sides: "ACL 必须同时允许你的普通令牌（读）和低完整性令牌（写）。",
    remedy: "按树中拒绝写入的范围判断：\n\
             1. 少数对象没收到继承的授权：改写到本会话新建的文件中。\n\
             2. 根目录以下全部拒绝、根目录可写：缺少低完整性标签，新建目录同样失败。\n\
             3. 连根目录也不可写：根目录自身的授权已丢失（另一原因）。\n\
             请告诉用户并交出上面的检查命令，由用户在会话外修复安全描述符。\
             `diagnose-windows-sandbox-acl` 技能（0.2.0 及以后）可区分 DACL 与标签问题。",
    not: "不要：\n\
          - 重试，或另找一个碰巧可写的现有文件；\n\
          - 在会话内改 ACL：这里分不清是哪种情况，改错一半毫无作用；\n\
          - 申请更宽的沙箱模式：放宽模式从来不是解决办法。",
};

/// The words for a locale.
fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, from the finding and the paths placed inside the root.
pub(crate) fn brief(
    finding: &Finding,
    env: &Environment,
    inside: &[&NamedPath],
    root: Option<&Untrusted>,
) -> String {
    let w = words(env.locale);
    // An exit code the value does not report is said to be missing, never a number.
    let exited = match finding.exit_code {
        Some(code) => w.exited.replace("{code}", &code.to_string()),
        None => w.no_exit.to_owned(),
    };
    let mut out = format!("{}\n\n{exited}{}\n", w.lead, w.stamped);
    out.push_str(&format!("{}\n\n", finding.stamp.quote_block()));
    // The check: the same lines the detail prints.
    let checks = checks(inside, root);
    let placeholders: Vec<&str> = checks
        .iter()
        .filter_map(|c| c.refused.as_ref().map(|r| r.placeholder))
        .collect();
    if !placeholders.is_empty() {
        out.push_str(&w.placeholders.replace("{list}", &placeholders.join(", ")));
        out.push('\n');
    }
    out.push_str(w.check);
    out.push('\n');
    for check in &checks {
        out.push_str(&check.line);
    }
    out.push_str(&format!(
        "{}\n\n{}\n\n{}\n\n",
        w.both_sides, w.remedy, w.not
    ));
    // `explain` is given the value and the call's command (with the root), so
    // it places the same paths and prints this advisory's detail.
    out.push_str(&full_account_with(
        env,
        ExplainInput::Value(&explain_value(finding)),
        finding.command.as_ref(),
    ));
    out
}

/// The value `explain` is given, from the recognized facts alone: the exit
/// code (`null` when the value reports none), the mode and `denied`. The
/// stamp's other members (an enforcement string) are text the advisor did not
/// write and stay in the quote above, so `explain` may differ from this
/// advisory in that quote alone.
fn explain_value(finding: &Finding) -> ExplainValue {
    ExplainValue::foreground(finding.exit_code).sandbox(finding.mode, Some(true))
}
