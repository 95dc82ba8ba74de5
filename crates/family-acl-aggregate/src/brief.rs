//! The brief the model receives: what failed and that retrying cannot help,
//! the sentence, the checks, the remedy with its version fork, what not to do,
//! and where the full account (`detail`, built in `advise.rs`) is. One
//! structure; the sentences are picked per locale from [`Sentences`].

use std::fmt::Write as _;

use advisor_core::Environment;
use advisor_core::Locale;
use advisor_core::brief::{ExplainInput, full_account};

use crate::facts::commands::{DSH_TRACE, ICACLS_CHECK, LOCKS_CMD, LOCKS_PS, OWNER_PS};
use crate::facts::{REPORT, SKILL_REPORT, summary_en};
use crate::recognize::{AggregateFailure, Half};

/// The advisor's own sentences of the brief, in one locale. `{object}`,
/// `{cite}` and `{skill_cite}` are filled in where they appear.
struct Sentences {
    summary: [&'static str; 2],
    /// The granted object: workspace half, temp half.
    object: [&'static str; 2],
    what_failed: &'static str,
    evidence: &'static str,
    check_locks: &'static str,
    check_owner: &'static str,
    check_trace: &'static str,
    remedy: &'static str,
    dont_heading: &'static str,
    dont: [&'static str; 5],
    never_relax: &'static str,
}

const EN: Sentences = Sentences {
    summary: ["", ""],
    object: ["the workspace root", "its private temp directory"],
    what_failed: "The Windows ACL backend could not grant this session write access to {object}, and its cleanup \
         failed too. The cause (Win32 code, API, directory) is in the AggregateError's members, \
         which the session never sees. The grant precedes every confined command, so retrying cannot help.",
    evidence: "The line:",
    check_locks: "Check from an ordinary prompt outside the sandbox, lock root first: lock files are never \
         deleted, so an absent or empty dsh-acl-locks is itself the finding.",
    check_owner: "Then the directory: the caller must own it and hold WRITE_OWNER (and WRITE_DAC when not the owner). \
         Fill <directory> in by hand (drive root: \"D:\\\\\"):",
    check_trace: "A leftover dsh-XXXXXX is the failed cleanup's trace (os.tmpdir: TEMP first; lock root: TMP first):",
    remedy: "Remedy: once a directory is named, run the backend's diagnose-windows-sandbox-acl skill on it; it ships \
         with 0.2.0, not 0.1.7, so upgrade first ({skill_cite}).",
    dont_heading: "Do not:",
    dont: [
        "- retry: the same grant runs first every time.",
        "- takeown /A: ownership gives WRITE_DAC, not WRITE_OWNER ({cite}).",
        "- icacls /reset /T /C: the restored Authenticated Users:(M) carries neither right ({cite}).",
        "- grant on a guessed directory, or elevate: the rights are on the directory.",
        "- raise probeTimeoutMs: this backend runs no probe.",
    ],
    never_relax: "- never relax the sandbox mode to get past it.",
};

const ZH_CN: Sentences = Sentences {
    summary: [
        "沙箱对工作区的 ACL 授权及其清理均失败，原因被隐藏——请先检查 ACL 锁目录",
        "沙箱对临时目录的 ACL 授权及其清理均失败，原因被隐藏——请先检查 ACL 锁目录",
    ],
    object: ["工作区根目录", "其私有的 dsh-XXXXXX 临时目录"],
    what_failed: "Windows ACL 后端未能授予本会话对{object}的写权限，授权失败后的清理也失败了。\
         真正的原因（Win32 错误码、API、目录）在 AggregateError 的成员里，会话看不到。\
         每条受限命令执行前都会重新授权，所以在查明并排除原因之前，重试无济于事。",
    evidence: "报错原文：",
    check_locks: "请在沙箱外的普通终端中检查，先看锁目录：锁文件从不删除，所以 dsh-acl-locks 不存在或为空本身就是结论。",
    check_owner: "再看目录本身：调用者须是所有者并持有 WRITE_OWNER（不是所有者时还需 WRITE_DAC）。\
         <directory> 需手动填写（盘符根目录写作 \"D:\\\\\"）：",
    check_trace: "残留的 dsh-XXXXXX 是清理失败的痕迹（os.tmpdir 先读 TEMP，锁目录先读 TMP）：",
    remedy: "处理：确定目录后，用后端自带的 diagnose-windows-sandbox-acl 技能诊断它。该技能随 0.2.0 提供，\
         0.1.7 没有，须先升级（{skill_cite}）。",
    dont_heading: "不要：",
    dont: [
        "- 重试：每次都会先执行同样的授权。",
        "- takeown /A：所有权只带来 WRITE_DAC，没有 WRITE_OWNER（{cite}）。",
        "- icacls /reset /T /C：恢复的 Authenticated Users:(M) 两种权限都没有（{cite}）。",
        "- 对猜测的目录授权或提权：权限在目录上，授错目录比不授更糟。",
        "- 调大 probeTimeoutMs：该后端不做探测。",
    ],
    never_relax: "- 绝不为绕过此错误而放宽沙箱模式。",
};

fn sentences(locale: Locale) -> &'static Sentences {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

fn index(half: Half) -> usize {
    match half {
        Half::Workspace => 0,
        Half::Temp => 1,
    }
}

/// The one-line summary of one half, in the locale.
pub(crate) fn summary(half: Half, locale: Locale) -> &'static str {
    match locale {
        Locale::En => summary_en(half),
        Locale::ZhCn => sentences(locale).summary[index(half)],
    }
}

/// The brief for one recognized sentence.
pub(crate) fn brief(finding: &AggregateFailure, env: &Environment) -> String {
    let s = sentences(env.locale);
    let cite = env.cite(&[REPORT]);
    let skill_cite = env.cite(&[SKILL_REPORT]);
    let fill = |text: &str| {
        text.replace("{object}", s.object[index(finding.half)])
            .replace("{cite}", &cite)
            .replace("{skill_cite}", &skill_cite)
    };
    let mut t = String::with_capacity(2048);

    // 1. What failed, and that retrying cannot help.
    t.push_str(&fill(s.what_failed));
    // 2. The evidence.
    let _ = write!(
        t,
        "\n\n{}\n{}\n",
        s.evidence,
        finding.sentence.quote_block()
    );
    // 3. The checks.
    let _ = writeln!(t, "\n{}", s.check_locks);
    let _ = writeln!(t, "PowerShell: {LOCKS_PS}\ncmd: {LOCKS_CMD}");
    let _ = writeln!(t, "{}", s.check_owner);
    let _ = writeln!(t, "cmd: {ICACLS_CHECK}\nPowerShell: {OWNER_PS}; whoami");
    if finding.half == Half::Temp {
        let _ = writeln!(t, "{}\ncmd: {DSH_TRACE}", s.check_trace);
    }
    // 4. The remedy, with its version fork.
    let _ = writeln!(t, "\n{}", fill(s.remedy));
    // 5. What not to do.
    let _ = writeln!(t, "\n{}", s.dont_heading);
    for line in s.dont {
        let _ = writeln!(t, "{}", fill(line));
    }
    let _ = writeln!(t, "{}\n", s.never_relax);
    // 6. Where the full account is.
    t.push_str(&full_account(env, ExplainInput::Message(&finding.sentence)));
    t
}
