//! The brief the model receives: what failed and that retrying cannot help,
//! the record's line, the check, the substitutes, what not to do, and where
//! the full account (`detail`, built in `advise.rs`) is. One structure; the
//! sentences are picked per locale from [`Sentences`].

use std::fmt::Write as _;

use advisor_core::Environment;
use advisor_core::Locale;
use advisor_core::SandboxMode;
use advisor_core::brief::{ExplainInput, ExplainValue, full_account};

use crate::facts::REPORT;
use crate::facts::commands::{CONTROLS, COUNTER, DRIVE_INFO, IPCONFIG, NETSTAT, OS_VERSION_KEY};
use crate::recognize::{CODE, CimRefusal};

/// The advisor's own sentences of the brief, in one locale. `{mode}` and
/// `{cite}` are filled in where they appear.
struct Sentences {
    summary: &'static str,
    what_failed: &'static str,
    unresolved_mode: &'static str,
    evidence: &'static str,
    stamped: &'static str,
    check: &'static str,
    substitutes: &'static str,
    /// Comments on the substitute lines: ports, disk, memory, OS version.
    labels: [&'static str; 4],
    gap: &'static str,
    dont_heading: &'static str,
    dont: [&'static str; 4],
    never_relax: &'static str,
}

const EN: Sentences = Sentences {
    summary: "CIM/WMI is closed to the sandbox's restricted token (0x80041003); use the measured non-CIM substitutes",
    what_failed: "WMI refused this CIM query: 0x80041003 (WBEM_E_ACCESS_DENIED). On Windows under {mode}, commands \
         run with the sandbox's restricted token, which fails WMI's namespace check, so every CIM cmdlet is refused \
         (Get-CimInstance, Get-Net*, Get-Volume, Get-ComputerInfo). Retrying cannot help while confined.",
    unresolved_mode: "a confining mode",
    evidence: "The record's line, as printed:",
    stamped: "The file-denial marker matched only the English wording; no file was refused: ignore its \
         escalation hint.",
    check: "To confirm: 0x80041003 stays in the record in every language (the sentence is translated, e.g. \
         `拒绝访问`); non-CIM cmdlets still answer:",
    substitutes: "Use instead (non-CIM, each measured under this refusal, {cite}):",
    labels: [
        "listening ports: the LISTENING rows",
        "free disk space",
        "available memory",
        "OS version",
    ],
    gap: "No measured substitute for Get-NetIPAddress or Get-NetAdapter; `{ipconfig}` is unmeasured: check its output.",
    dont_heading: "Do not:",
    dont: [
        "- retry, or try another CIM cmdlet: same refusal.",
        "- hide it with -ErrorAction SilentlyContinue: the empty result reads as \"nothing\"; Get-PSDrive's \
         Used/Free of 0 is just as false.",
        "- change ACLs or elevate: no file is involved.",
        "- open root/cimv2 to the token: the same lock closes the C:\\-root escape.",
    ],
    never_relax: "- never relax the sandbox mode: success under danger-full-access confirms this; it is no fix.",
};

const ZH_CN: Sentences = Sentences {
    summary: "沙箱的受限令牌无法使用 CIM/WMI（0x80041003）；请改用已实测的非 CIM 替代命令",
    what_failed: "WMI 拒绝了本命令的 CIM 查询，错误码 0x80041003（WBEM_E_ACCESS_DENIED）。在 Windows 的 {mode} 下，\
         命令以沙箱的受限令牌运行，该令牌通不过 WMI 命名空间的安全检查，所以一切 CIM 查询都会被拒：Get-CimInstance、\
         Get-Net*、Get-Volume、Get-ComputerInfo 皆然。\
         只要会话仍受限，重试无济于事。",
    unresolved_mode: "受限模式",
    evidence: "命令输出中带错误码的那一行（原样引用）：",
    stamped: "此结果上的“沙箱文件访问被拒”标记只是匹配了英文措辞，并没有文件被拒；其中的提权提示不适用。",
    check: "确认方法：认错误码 0x80041003，它在任何显示语言下都不变（那句话会被翻译，如 `拒绝访问`）；\
         不经 CIM 的 cmdlet 仍能正常返回：",
    substitutes: "改用下列不经 CIM 的命令，均在同样的拒绝下实测过（{cite}）：",
    labels: [
        "监听端口：看 LISTENING 行",
        "磁盘可用空间",
        "可用内存",
        "系统版本",
    ],
    gap: "Get-NetIPAddress 和 Get-NetAdapter 没有实测过的替代；`{ipconfig}` 只是未经实测的候选，须核对其输出。",
    dont_heading: "不要：",
    dont: [
        "- 重试，或换用其他 CIM cmdlet：结果一样被拒。",
        "- 用 -ErrorAction SilentlyContinue 掩盖：空结果看似“什么都没有”；Get-PSDrive 显示的 Used/Free 为 0 同样不可信。",
        "- 修改 ACL 或提权：此事与任何文件无关。",
        "- 给令牌开放 root/cimv2：正是同一处限制堵住了 C:\\ 根目录的逃逸。",
    ],
    never_relax: "- 绝不放宽沙箱模式：命令在 danger-full-access 下成功只是印证诊断，不是修复。",
};

fn sentences(locale: Locale) -> &'static Sentences {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The one-line summary, in the environment's locale.
pub(crate) fn summary(locale: Locale) -> &'static str {
    sentences(locale).summary
}

/// The brief for one recognized refusal.
pub(crate) fn brief(finding: &CimRefusal, env: &Environment) -> String {
    let s = sentences(env.locale);
    let mode = env
        .mode()
        .map_or_else(|_| s.unresolved_mode.to_owned(), |m| m.as_str().to_owned());
    let cite = env.cite(&[REPORT]);
    let mut t = String::with_capacity(2048);

    // 1. What failed, and that retrying cannot help.
    t.push_str(&s.what_failed.replace("{mode}", &mode));
    // 2. The evidence.
    let _ = write!(
        t,
        "\n\n{}\n{}\n",
        s.evidence,
        finding.code_line.quote_block()
    );
    if finding.stamped_denied {
        let _ = writeln!(t, "\n{}", s.stamped);
    }
    // 3. The check.
    let _ = writeln!(t, "\n{}", s.check);
    for control in CONTROLS {
        let _ = writeln!(t, "PowerShell: {control}");
    }
    // 4. The remedy: the measured substitutes, then the gap.
    let _ = writeln!(t, "\n{}", s.substitutes.replace("{cite}", &cite));
    let os_version = format!("Get-ItemProperty -LiteralPath '{OS_VERSION_KEY}'");
    for (command, label) in [NETSTAT, DRIVE_INFO, COUNTER, os_version.as_str()]
        .into_iter()
        .zip(s.labels)
    {
        let _ = writeln!(t, "PowerShell: {command}  # {label}");
    }
    let _ = writeln!(t, "{}", s.gap.replace("{ipconfig}", IPCONFIG));
    // 5. What not to do.
    let _ = writeln!(t, "\n{}", s.dont_heading);
    for line in s.dont {
        let _ = writeln!(t, "{line}");
    }
    let _ = writeln!(t, "{}\n", s.never_relax);
    // 6. Where the full account is.
    t.push_str(&full_account(
        env,
        ExplainInput::Value(&explain_value(finding, env)),
    ));
    t
}

/// A shell value that reproduces this advisory, written from the recognized
/// facts alone (the product name is this crate's constant), never from the
/// command's stderr.
fn explain_value(finding: &CimRefusal, env: &Environment) -> ExplainValue {
    let stderr: &[&'static str] = if finding.product_name.contains(CODE) {
        &[finding.product_name]
    } else {
        &[CODE, finding.product_name]
    };
    let value = ExplainValue::foreground(Some(1)).stderr(stderr, Some(false));
    if finding.stamped_denied {
        let mode = env.mode().unwrap_or(SandboxMode::WorkspaceWrite);
        return value.sandbox(mode, Some(true));
    }
    value
}
