//! The brief's sentences, one set per locale. Commands, codes, paths, quoted
//! evidence and issue numbers are never here: they are built in
//! [`super::brief`] and stay as they are in every locale.

use advisor_core::Locale;
use advisor_core::quote::Refusal;

/// How the brief says why a path was kept off the command lines: `{why}` in
/// `template` is filled with `reason`.
pub(super) struct Refused {
    pub(super) template: &'static str,
    pub(super) reason: fn(Refusal) -> String,
}

/// Every sentence of the brief and the summary. `{code}` is the Win32 code,
/// `{path}` the normalized directory, `{why}` the refusal's reason.
pub(super) struct Words {
    pub(super) summary_apply_denied: &'static str,
    pub(super) summary_apply_other: &'static str,
    pub(super) summary_read_denied: &'static str,
    pub(super) summary_read_other: &'static str,
    pub(super) headline_apply_denied: &'static str,
    pub(super) headline_apply_other: &'static str,
    pub(super) headline_read: &'static str,
    pub(super) retry_denied: &'static str,
    pub(super) retry_other: &'static str,
    pub(super) reported: &'static str,
    pub(super) cause_apply: &'static str,
    pub(super) cause_read: &'static str,
    pub(super) other_meaning: &'static str,
    pub(super) no_detail: &'static str,
    pub(super) refused: Refused,
    pub(super) placeholder_quotes: &'static str,
    pub(super) normalized: &'static str,
    pub(super) check: &'static str,
    pub(super) other_check: &'static str,
    pub(super) remedy_owner: &'static str,
    pub(super) remedy_not_owner: &'static str,
    pub(super) remedy_set_owner: &'static str,
    /// Offered only when the directory is not in a user profile already.
    pub(super) remedy_elsewhere: &'static str,
    pub(super) remedy_each_root: &'static str,
    pub(super) other_remedy: &'static str,
    pub(super) donts: &'static str,
    pub(super) dont_takeown: &'static str,
    pub(super) dont_reset: &'static str,
    pub(super) dont_downgrade: &'static str,
    pub(super) other_dont_repairs: &'static str,
    pub(super) dont_relax: &'static str,
    /// What separates two sentences joined on one line.
    pub(super) sentence_gap: &'static str,
}

/// The sentences for `locale`.
pub(super) fn of(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

const EN: Words = Words {
    summary_apply_denied: "Windows sandbox ACL grant refused (SetNamedSecurityInfoW, Win32 5): no \
        sandboxed command runs here until it is fixed",
    summary_apply_other: "Windows sandbox ACL grant failed (SetNamedSecurityInfoW, Win32 {code}): \
        no sandboxed command runs until resolved",
    summary_read_denied: "Windows sandbox could not read the workspace ACL \
        (GetNamedSecurityInfoW, Win32 5); retrying will not help",
    summary_read_other: "Windows sandbox ACL read failed (GetNamedSecurityInfoW, Win32 {code}): \
        no sandboxed command runs until resolved",
    headline_apply_denied: "Sandbox provisioning failed: Windows refused the sandbox's permission \
        grant on this workspace directory.",
    headline_apply_other: "Sandbox provisioning failed: writing the sandbox's permission grant on \
        this workspace directory ended with Win32 error {code}.",
    headline_read: "Sandbox provisioning failed before anything was written: the sandbox could \
        not read this directory's permissions (Win32 error {code}).",
    retry_denied: "Retrying or another command cannot help until the directory's permissions \
        change; the user runs the commands below, outside the sandbox.",
    retry_other: "Another command cannot avoid it, and retrying helps only once whatever the \
        code names has changed; the user runs the commands below outside the sandbox.",
    reported: "Reported:",
    cause_apply: "Cause: from 0.1.7-alpha.1 the grant also writes an integrity label, needing \
        WRITE_OWNER on the directory; owning it, an inherited Modify (usual on data volumes) or \
        elevation does not give that. Older builds fail here for another reason.",
    cause_read: "Cause: reading permissions takes ownership or READ_CONTROL, so this account \
        neither owns the directory nor may read it; nothing was changed on disk. Take the \
        not-owner branch below: the write after the read (0.1.7-alpha.1 on) needs WRITE_OWNER.",
    other_meaning: "Win32 {code} is not ERROR_ACCESS_DENIED (5), the code whose cause and repair \
        are known; none of them is assumed for {code}.",
    no_detail: "The error names no directory, so the commands show <dir>: use the workspace root, \
        or, if that checks out, the session's temp directory (a dsh- folder under %TEMP%).",
    refused: Refused {
        template: "The directory is kept off the commands ({why}); check its name and put it \
            for <dir>.",
        reason: reason_en,
    },
    placeholder_quotes: "Quote it: '…' in PowerShell, \"…\" in cmd.",
    normalized: "The commands write that directory normalized, as `{path}`: the same directory.",
    check: "Check (read-only): only an inherited (I)(M), no F or WO for you, confirms it; \
        compare the owner with `whoami`:",
    other_check: "Check (read-only): what the code means, and the directory:",
    remedy_owner: "Remedy, run once by the user. As the owner, unelevated, then rerun:",
    remedy_not_owner: "Another owner refuses that too; elevated, grant yourself Full control \
        (type your name):",
    remedy_set_owner: "or take ownership, then run the (WO) line:",
    remedy_elsewhere: "Or move the workspace under %USERPROFILE%.",
    remedy_each_root: "Each workspace root needs its own grant.",
    other_remedy: "A path not found means the directory moved or was never created. Otherwise \
        show the user the quoted line and the code's description: no fix is known for it.",
    donts: "Do not:",
    dont_takeown: "run takeown alone: it does not give WRITE_OWNER;",
    dont_reset: "run icacls /reset: it restores the failing state;",
    dont_downgrade: "go back before 0.1.7-alpha.1: that reopens the escape the label closed;",
    other_dont_repairs: "retry unchanged, or change ownership or permissions on a guess;",
    dont_relax: "relax the sandbox mode to get past this.",
    sentence_gap: " ",
};

const ZH_CN: Words = Words {
    summary_apply_denied: "Windows 沙箱 ACL 授权被拒绝（SetNamedSecurityInfoW，Win32 5）：\
        修复之前，这里的沙箱命令都无法运行",
    summary_apply_other: "Windows 沙箱 ACL 授权失败（SetNamedSecurityInfoW，Win32 {code}）：\
        解决之前，沙箱命令都无法运行",
    summary_read_denied: "Windows 沙箱无法读取工作区 ACL（GetNamedSecurityInfoW，Win32 5）：\
        重试无济于事",
    summary_read_other: "Windows 沙箱读取 ACL 失败（GetNamedSecurityInfoW，Win32 {code}）：\
        解决之前，沙箱命令都无法运行",
    headline_apply_denied: "沙箱初始化失败：Windows 拒绝了沙箱对此工作区目录的权限授予。",
    headline_apply_other: "沙箱初始化失败：写入沙箱对此工作区目录的权限授予时出现 Win32 错误 \
        {code}。",
    headline_read: "沙箱初始化在写入任何内容之前就失败了：读不到此目录的现有权限\
        （Win32 错误 {code}）。",
    retry_denied: "目录权限改变之前，重试或换命令都没有用；下面的命令由用户在沙箱外运行。",
    retry_other: "换命令绕不过去，只有错误码所指的问题改变后重试才有意义；\
        下面的命令由用户在沙箱外运行。",
    reported: "报告的错误：",
    cause_apply: "原因：从 0.1.7-alpha.1 起，授权还要写入完整性标签，这需要目录上的 \
        WRITE_OWNER 权限；所有者身份、继承的 Modify（数据盘上常见）和管理员权限都不包含它。\
        更早的版本在这里失败另有原因。",
    cause_read: "原因：读取权限需要是所有者或持有 READ_CONTROL，可见当前账户既不是所有者，\
        也无权读取；磁盘上没有任何改动。请走下面“所有者是其他账户”的分支：\
        读取之后的写入（0.1.7-alpha.1 起）还需要 WRITE_OWNER。",
    other_meaning: "Win32 {code} 不是 ERROR_ACCESS_DENIED (5)；已知的原因和修复只针对错误码 5，\
        不能套用到 {code} 上。",
    no_detail: "错误没有指明目录，命令里用 <dir> 代替：填入工作区根目录；若根目录正常，\
        再换成会话的临时目录（%TEMP% 下的 dsh- 文件夹）。",
    refused: Refused {
        template: "目录没有写进命令（{why}）：请核对目录名后自行填入 <dir> 处。",
        reason: reason_zh_cn,
    },
    placeholder_quotes: "PowerShell 里用 '…' 括住，cmd 里用 \"…\"。",
    normalized: "命令中的目录写成规范形式 `{path}`，是同一个目录。",
    check: "确认（只读）：若没有任何一项给你的账户 F 或 WO，只有继承的 (I)(M)，就是这个原因；\
        再把所有者与 `whoami` 的输出对比：",
    other_check: "确认（只读）：错误码的含义，以及目录本身：",
    remedy_owner: "修复（由用户运行一次）。如果你是目录所有者，以普通权限运行，然后重试失败的命令：",
    remedy_not_owner: "所有者是其他账户时，上面的命令同样会被拒绝；请以管理员身份给自己授予\
        完全控制（手动填写账户名）：",
    remedy_set_owner: "或者取得所有权，再运行上面的 (WO) 那一行：",
    remedy_elsewhere: "也可以把工作区移到 %USERPROFILE% 下。",
    remedy_each_root: "每个工作区根目录都需要各自授权。",
    other_remedy: "若说明是找不到路径，说明目录被移动或从未创建。否则请把引用的错误行连同\
        错误码说明交给用户：目前没有已知的修复方法。",
    donts: "不要：",
    dont_takeown: "只运行 takeown：它给不了 WRITE_OWNER；",
    dont_reset: "运行 icacls /reset：它恢复的正是失败状态；",
    dont_downgrade: "退回 0.1.7-alpha.1 之前的版本：那会重新打开标签堵上的逃逸漏洞；",
    other_dont_repairs: "原样重试，或凭猜测改所有者、改权限；",
    dont_relax: "为绕过这个问题而放宽沙箱模式。",
    sentence_gap: "",
};

/// Why a path was kept off the command lines, in English (the full account
/// carries core's longer sentence).
fn reason_en(why: Refusal) -> String {
    let reason = match why {
        Refusal::Empty => "it is empty",
        Refusal::TooLong => "too long to check",
        Refusal::Invisible => "invisible or control characters",
        Refusal::Character => "characters a shell could read as syntax",
        Refusal::NotDriveAbsolute => "not a drive-absolute path",
        Refusal::NetworkOrDevice => "a network or device path",
        Refusal::DotComponent => "a `.` or `..` component",
        Refusal::TrailingDotOrSpace => "a component ending in a dot or space",
    };
    reason.to_owned()
}

/// Why a path was kept off the command lines, in Simplified Chinese.
fn reason_zh_cn(why: Refusal) -> String {
    let reason = match why {
        Refusal::Empty => "路径为空",
        Refusal::TooLong => "太长，无法检查",
        Refusal::Invisible => "含有不可见字符或控制字符",
        Refusal::Character => "含有可能被 shell 当作语法的字符",
        Refusal::NotDriveAbsolute => "不是以盘符开头的绝对路径",
        Refusal::NetworkOrDevice => "是网络路径或设备路径",
        Refusal::DotComponent => "含有 `.` 或 `..` 部分",
        Refusal::TrailingDotOrSpace => "某一段以点或空格结尾",
    };
    reason.to_owned()
}
