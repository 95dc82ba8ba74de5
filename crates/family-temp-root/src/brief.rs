//! The two briefs the model receives (the refusal's and the pre-flight's):
//! what failed and that retrying cannot help, the evidence quoted, the check,
//! the remedy, what not to do, and where the full account (`detail`) is.
//!
//! One structure for both locales: the sentences come from [`Words`], picked
//! by the environment's locale; commands and quoted evidence are the same in
//! both. The command lines are the ones the detail prints
//! ([`crate::facts`]' constants).

use advisor_core::brief::{ExplainInput, full_account};
use advisor_core::{Environment, Locale, Untrusted};

use crate::facts::{
    Comparison, ECHO_TEMP, ECHO_TMP, EXAMPLE_DIR, MKDIR, PS_SET, PS_TEMP, PS_TMP, PreflightFacts,
    SET_TEMP, SET_TMP,
};
use crate::recognize::{Carrier, SENTENCE_HEAD, TempRootRefusal};

/// The briefs' sentences in one language.
struct Words {
    failed: &'static str,
    provider: &'static str,
    runner: &'static str,
    sentence: &'static str,
    preflight: &'static str,
    workspace: &'static str,
    temp: &'static str,
    resolved: &'static str,
    lexical: &'static str,
    check: &'static str,
    check_preflight: &'static str,
    remedy: &'static str,
    both: &'static str,
    not: &'static str,
    never_relax: &'static str,
}

const EN: Words = Words {
    failed: "No sandboxed command can start in this session: the Windows sandbox backend refuses \
             to set up while its temp root lies inside the workspace. Retrying cannot help; every \
             command is refused until the environment outside this session changes.",
    provider: "The session's sandbox provider refused before any process existed.",
    runner: "The ACL runner refused and exited 127; the error's generic advice (other backends, \
             another mode) does not apply. Its line:",
    sentence: "The backend's sentence:",
    preflight: "Before any command has run: every sandboxed command in this session is expected \
                to be refused, because the host's temp directory lies inside the workspace. A \
                test command would only spend a turn; retrying cannot help.",
    workspace: "Workspace root (policy):",
    temp: "Temp directory (host):",
    resolved: "Both were resolved first, as the backend does.",
    lexical: "Compared by spelling only (not resolvable here); a junction could change the answer.",
    check: "Confirm in the console that starts the harness: TMP or TEMP is the workspace or below it.",
    check_preflight: "Confirm in the console that starts the harness (if a command does run, \
                      ignore this note):",
    remedy: "Remedy, the user's, outside this session (nothing needs repairing): create a \
             directory outside the workspace, set BOTH TMP and TEMP to it in the console that \
             launches the harness, then restart it. Example directory: ",
    both: "Both matter: the lock folder reads TMP first, the private temp folder TEMP first. Or \
           open the session on a project directory that does not contain the temp root.",
    not: "Do not:\n\
          - retry this or any other command;\n\
          - try ACL grants, ownership changes or elevation: no permission is involved;\n\
          - set TMP or TEMP from inside this session: it never reaches the harness;",
    never_relax: "- never relax the sandbox mode or switch to read-only to get past it: that steps \
                  around the check, it never fixes it.",
};

const ZH_CN: Words = Words {
    failed: "本会话中任何沙箱命令都无法启动：临时目录根位于工作区之内，Windows 沙箱后端拒绝初始化。\
             重试没有用；在会话外的环境改变之前，每条命令都会被拒。",
    provider: "会话的沙箱提供程序在任何进程启动前就拒绝了。",
    runner: "ACL 运行器拒绝并以 127 退出；错误里的通用建议（换后端、换模式）不适用。其输出行：",
    sentence: "后端的原话：",
    preflight: "尚未运行任何命令：本会话的沙箱命令预计都会被拒，因为主机的临时目录位于工作区之内。\
                试跑命令只会白费一轮；重试没有用。",
    workspace: "工作区根目录（策略）：",
    temp: "临时目录（主机）：",
    resolved: "两者均已先解析（与后端做法一致）。",
    lexical: "仅按拼写比较（此处无法解析）；联接点可能改变结论。",
    check: "请在启动 harness 的控制台中确认：TMP 或 TEMP 就是工作区或其子目录。",
    check_preflight: "请在启动 harness 的控制台中确认（若有命令能运行，忽略本提示）：",
    remedy: "解决办法由用户在会话外完成（无需修复任何东西）：在工作区外建一个目录，\
             在启动 harness 的控制台里把 TMP 和 TEMP 都设为它，然后重启 harness。示例目录：",
    both: "两个变量都要设：锁文件夹先读 TMP，私有临时文件夹先读 TEMP。\
           或者在不包含临时目录的项目目录上打开会话。",
    not: "不要：\n\
          - 重试这条或其他命令；\n\
          - 尝试授予 ACL、更改所有者或提权：这与权限无关；\n\
          - 在会话内设置 TMP 或 TEMP：影响不到 harness；",
    never_relax: "- 绝不为绕过检查而放宽沙箱模式或改用 read-only：那只是绕开检查，从来不是修复。",
};

/// The words for a locale.
fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The refusal's brief.
pub(crate) fn failure(finding: &TempRootRefusal, env: &Environment) -> String {
    let w = words(env.locale);
    let mut out = format!("{}\n\n", w.failed);
    match &finding.carrier {
        Carrier::Provider => out.push_str(&format!("{}\n", w.provider)),
        Carrier::Runner { line, .. } => {
            out.push_str(&format!("{}\n{}\n", w.runner, line.quote_block()));
        }
    }
    out.push_str(&format!(
        "{}\n{}\n\n{}\n",
        w.sentence,
        finding.sentence.quote_block(),
        w.check
    ));
    out.push_str(&check_lines());
    out.push_str(&remedy(w));
    // The sentence alone is what `explain` recognizes (as the provider's):
    // the runner's whole error carries `"`, which no command line may hold.
    out.push_str(&full_account(env, ExplainInput::Message(&finding.sentence)));
    out
}

/// The pre-flight's brief: the directories compared, then the same check and remedy.
pub(crate) fn preflight(facts: &PreflightFacts, env: &Environment) -> String {
    let w = words(env.locale);
    let (workspace, temp) = (&facts.workspace, &facts.temp);
    let how = match facts.comparison {
        Comparison::Canonical { .. } => w.resolved,
        Comparison::Lexical => w.lexical,
    };
    let mut out = format!(
        "{}\n\n{}\n{}\n{}\n{}\n{how}\n\n{}\n",
        w.preflight,
        w.workspace,
        workspace.quote_block(),
        w.temp,
        temp.quote_block(),
        w.check_preflight,
    );
    out.push_str(&check_lines());
    out.push_str(&remedy(w));
    // A pre-flight has no failure message: `explain` is given the sentence
    // the backend will throw for these two directories, which reproduces the
    // refusal's advisory (the same cause and remedy).
    let sentence = Untrusted::new(&format!(
        "{SENTENCE_HEAD}{}; temp={}",
        workspace.inspect(),
        temp.inspect()
    ));
    out.push_str(&full_account(env, ExplainInput::Message(&sentence)));
    out
}

/// The read-only check: TMP and TEMP, in cmd and in PowerShell.
fn check_lines() -> String {
    format!("    cmd: {ECHO_TMP} & {ECHO_TEMP}\n    PowerShell: {PS_TMP}; {PS_TEMP}\n\n")
}

/// The remedy's commands and sentences, and what not to do.
fn remedy(w: &Words) -> String {
    format!(
        "{}{EXAMPLE_DIR}\n    cmd: {MKDIR}\n    cmd: {SET_TMP}\n    cmd: {SET_TEMP}\n    \
         PowerShell: {PS_SET}\n{}\n\n{}\n{}\n\n",
        w.remedy, w.both, w.not, w.never_relax
    )
}
