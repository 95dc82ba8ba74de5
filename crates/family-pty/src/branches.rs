//! The cause and remedy parts for the two setups issue 24 separates from the
//! stock one ([`crate::cause`]): the brief's middle (per locale) and the full
//! account (English). The lead, the evidence, the "do not" lines and the
//! explain line stay [`crate::brief`]'s.
//!
//! Numbers of the desktop's own tracker are written as "issue 1051", never as
//! a bare `#` number: those are read as harness discussions.
//!
//! A remedy that names the harness's presets or a community preset's setup
//! command is the host's sentence ([`HostRemedy`]); the family keeps only what
//! it knows about the desktop's releases, and places the host's sentence in
//! it through a `{remedy}` slot. A host without the knob leaves the remedy
//! out, and the rest are numbered without a gap.

use advisor_core::brief::fill;
use advisor_core::{Environment, HostRemedy, Locale, VersionFact};

use crate::cause::Cause;

/// The sentences of one locale.
struct Words {
    desktop_cause: &'static str,
    remedy_head: &'static str,
    /// The host's `standard`-preset sentence (`{remedy}`) on a release with the console fix.
    desktop_known_ok: &'static str,
    /// The same on a release before it: update first.
    desktop_known_old: &'static str,
    /// The same when no release was configured: both cases.
    desktop_unknown: &'static str,
    desktop_web: &'static str,
    msys_cause: &'static str,
    msys_last: &'static str,
    model: &'static str,
}

const EN: Words = Words {
    desktop_cause: "Cause: this is the desktop app's persistent PowerShell. Its startup \
                    failure is open as anywhere-labs/dsh-desktop issue 1051, with no fixed \
                    release and no cause a maintainer has confirmed; the desktop's console fix \
                    covers only the one-shot shell.",
    remedy_head: "For the user, best first:",
    desktop_known_ok: "{remedy} Desktop {version} has the console fix it needs.",
    desktop_known_old: "Update Desktop to 2.0.11 or later first: on {version} the one-shot \
                        shell dies with 0xC0000142. Then: {remedy}",
    desktop_unknown: "{remedy} On Desktop before 2.0.11, update first: its one-shot shell \
                      dies with 0xC0000142 there. On 2.0.11 or later it works as is.",
    desktop_web: "Or run `dsh web` from a terminal instead of the desktop app.",
    msys_cause: "Cause: no stock Windows preset mounts `bash`, so this is a community Git \
                 Bash (MSYS) preset. The MSYS runtime is refused one of its own token \
                 operations under the sandbox's write-restricted token and exits; the \
                 pseudo-console is not involved, and the preset's maintainer says the plugin \
                 layer cannot fix it.",
    msys_last: "Last resort, and only the user's call: `danger-full-access`, which gives up \
                the sandbox entirely.",
    model: "For you: stop; continue with file tools and hand the choice below to the user.",
};

const ZH_CN: Words = Words {
    desktop_cause: "原因：这是桌面应用的持久 PowerShell。它的启动失败在 \
                    anywhere-labs/dsh-desktop 的 issue 1051 中仍未解决，没有修复版本，\
                    维护者也未确认原因；桌面应用的控制台修复只覆盖一次性 shell。",
    remedy_head: "用户可选的办法，按优先顺序：",
    desktop_known_ok: "{remedy}Desktop {version} 已包含它所需的控制台修复。",
    desktop_known_old: "先把 Desktop 更新到 2.0.11 或更高版本：在 {version} 上一次性 shell \
                        会以 0xC0000142 失败。然后：{remedy}",
    desktop_unknown: "{remedy}Desktop 2.0.11 之前：先更新，否则其一次性 shell 会以 0xC0000142 \
                      失败。2.0.11 及以后：直接可用。",
    desktop_web: "或改为从终端运行 `dsh web`，而不是桌面应用。",
    msys_cause: "原因：Windows 的内置预设都不挂载 `bash`，所以这是社区的 Git Bash（MSYS）预设。\
                 在沙箱的写受限令牌下，MSYS 运行时自身的一个令牌操作被拒绝而退出；\
                 与伪控制台无关，该预设的维护者表示插件层无法修复。",
    msys_last: "最后的手段，且只能由用户决定：`danger-full-access`，它完全放弃沙箱。",
    model: "你应当：停止调用，改用文件读写工具继续，并把下面的选择交给用户。",
};

fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief's middle for a non-stock cause: the cause, the model's line and
/// the ranked remedies. `None` for [`Cause::Stock`].
pub(crate) fn brief_middle(cause: Cause, env: &Environment) -> Option<Vec<String>> {
    let w = words(env.locale);
    // The harness's sentence for a preset or setup command, in this locale.
    let host = |remedy| env.host.kind.remedy(remedy, env.locale);
    let (cause_line, remedies) = match cause {
        Cause::Stock => return None,
        Cause::DesktopPwsh(fact) => (
            w.desktop_cause,
            vec![
                host(HostRemedy::ShellWithoutPseudoConsole).map(|r| on_desktop(w, fact, r)),
                Some(w.desktop_web.to_owned()),
            ],
        ),
        Cause::MsysBash => (
            w.msys_cause,
            vec![
                host(HostRemedy::SandboxedBusyboxShell).map(str::to_owned),
                host(HostRemedy::ShellWithoutPseudoConsole).map(str::to_owned),
                Some(w.msys_last.to_owned()),
            ],
        ),
    };
    let mut lines = Vec::with_capacity(8);
    lines.push(cause_line.to_owned());
    lines.push(String::new());
    lines.push(w.model.to_owned());
    lines.push(w.remedy_head.to_owned());
    lines.extend(numbered(remedies));
    Some(lines)
}

/// The ranked remedies a host has words for, numbered from 1 without a gap.
fn numbered(remedies: Vec<Option<String>>) -> impl Iterator<Item = String> {
    remedies
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, text)| format!("{}. {text}", i + 1))
}

/// The host's `standard`-preset sentence `remedy` placed in what the family
/// knows about the desktop's releases, for the version the deployment gave (or both).
fn on_desktop(w: &Words, fact: VersionFact, remedy: &str) -> String {
    match fact {
        VersionFact::AtOrAfter(v) => fill(
            w.desktop_known_ok,
            &[("remedy", remedy), ("version", &v.to_string())],
        ),
        VersionFact::Before(v) => fill(
            w.desktop_known_old,
            &[("remedy", remedy), ("version", &v.to_string())],
        ),
        VersionFact::Unknown => fill(w.desktop_unknown, &[("remedy", remedy)]),
    }
}

/// The full account's middle (English) for a non-stock cause; `None` for [`Cause::Stock`].
pub(crate) fn detail_middle(cause: Cause, env: &Environment) -> Option<Vec<String>> {
    let en = &EN;
    // The harness's account of a preset or setup command (English).
    let host = |remedy| env.host.kind.remedy_detail(remedy);
    let mut out = Vec::with_capacity(16);
    match cause {
        Cause::Stock => return None,
        Cause::DesktopPwsh(fact) => {
            out.push("What is known about it:".to_owned());
            out.push(
                "- The failing tool is `pwsh` on the packaged desktop app. Both PowerShell \
                 tools register that name; this sentence is thrown only by the persistent one, \
                 whose argv is not wrapped by the desktop's console trampoline (the fix of \
                 desktop PR 990 is inserted for the one-shot executor only)."
                    .to_owned(),
            );
            out.push(
                "- The failure is tracked as anywhere-labs/dsh-desktop issue 1051, open, \
                 reported on Desktop 2.0.10 to 2.0.13. A maintainer said PR 990 does not cover \
                 it; no cause has been established. Other projects report that an Electron \
                 binary started as a direct ConPTY child gets no usable handles and exits \
                 without a word, which fits, but that is not confirmed here."
                    .to_owned(),
            );
            out.push(String::new());
            out.push(
                "For the model: stop. Do not call the tool again or look for a repairing \
                 command; there is no shell to run it in. Continue with file read and write \
                 tools, leave the sandbox mode as it is, and hand the choice below to the user."
                    .to_owned(),
            );
            out.push(String::new());
            out.push("For the user, best first:".to_owned());
            out.extend(numbered(vec![
                host(HostRemedy::ShellWithoutPseudoConsole).map(|r| {
                    format!(
                        "{} The one-shot shell goes through the desktop's trampoline, which \
                         allocates the console the restricted child needs.",
                        on_desktop(en, fact, r)
                    )
                }),
                Some(
                    "Run `dsh web` from a terminal: the runner's host is then a console \
                     `node.exe`, not the Electron app."
                        .to_owned(),
                ),
                Some(
                    "Last, `danger-full-access`: it works because it gives up the sandbox \
                     altogether. The user's decision, never the model's."
                        .to_owned(),
                ),
            ]));
        }
        Cause::MsysBash => {
            out.push("What is known about it:".to_owned());
            out.push(
                "- The stock Windows presets mount no `bash` shell, so a `bash` persistent tool \
                 here comes from a community preset: dsh-win32's Git Bash (MSYS) preset \
                 `Minimal (Windows)`, row `minimal-windows`."
                    .to_owned(),
            );
            out.push(
                "- Under the write-restricted token the MSYS runtime's own call \
                 `NtSetInformationToken (TokenDefaultDacl)` is refused (0xC0000022; a second \
                 report shows `CreateFileMapping` with Win32 error 5) and the shell exits. The \
                 terminal backend drops that line, so only the bare sentence arrives. The \
                 preset's maintainer says it cannot be fixed at the plugin layer \
                 (sjh9714/dsh-win32 issue 6). The host there was `node` (`dsh web`), so the \
                 pseudo-console and Electron-host account does not apply."
                    .to_owned(),
            );
            out.push(
                "- The profile-patch remedy for the stock preset names the `preset-minimal` \
                 row, which is not this preset's row, so it is not offered."
                    .to_owned(),
            );
            out.push(String::new());
            out.push(
                "For the model: stop. Do not call the tool again or look for a repairing \
                 command; there is no shell to run it in. Continue with file read and write \
                 tools, leave the sandbox mode as it is, and hand the choice below to the user."
                    .to_owned(),
            );
            out.push(String::new());
            out.push("For the user, best first:".to_owned());
            out.extend(numbered(vec![
                host(HostRemedy::SandboxedBusyboxShell)
                    .map(|r| format!("{r} It is the remedy the preset's maintainer gives.")),
                host(HostRemedy::ShellWithoutPseudoConsole)
                    .map(|r| format!("{r} On Windows that one-shot shell is PowerShell.")),
                Some(en.msys_last.to_owned()),
            ]));
        }
    }
    Some(out)
}

/// The full account's last paragraph for a non-stock cause: where it stops.
pub(crate) fn detail_boundary(cause: Cause) -> Option<&'static str> {
    match cause {
        Cause::Stock => None,
        Cause::DesktopPwsh(_) => Some(
            "Where this stops: no fixed release exists, and the version branch comes only from \
             the configured `hostVersion`; whether Desktop's own minimal preset uses the \
             `preset-minimal` row id was not verified, so no profile patch is offered.",
        ),
        Cause::MsysBash => Some(
            "Where this stops: the MSYS signature itself never reaches the tool result, so the \
             advisor infers this cause from the tool's name on Windows, not from the runtime's \
             own line.",
        ),
    }
}
