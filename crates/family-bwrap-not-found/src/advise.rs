//! The advisory: the brief ([`crate::brief`]) and the full account, in English.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::facts::CHECK;
use crate::provenance::provenance;
use crate::recognize::Finding;

/// Builds the advisory for a missing bubblewrap.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let proven = provenance(finding, env).is_proven();
    let summary = match (env.locale, proven) {
        (Locale::En, true) => {
            "Gemini CLI's sandbox cannot start: bubblewrap (bwrap) is not installed"
        }
        (Locale::En, false) => {
            "The output says Gemini CLI's sandbox found no bubblewrap: check before retrying"
        }
        (Locale::ZhCn, true) => "Gemini CLI 的沙箱无法启动：未安装 bubblewrap（bwrap）",
        (Locale::ZhCn, false) => "输出表明 Gemini CLI 的沙箱找不到 bubblewrap：重试前请先检查",
    };
    Advisory::new(ID, summary, crate::brief::brief(finding, env, proven))
        .with_detail(detail(finding, env, proven))
}

fn detail(finding: &Finding, env: &Environment, proven: bool) -> String {
    let mut out: Vec<String> = vec![
        "The shell that starts each sandboxed command could not find bubblewrap.".to_owned(),
        String::new(),
        "What was reported (exit 127):".to_owned(),
        finding.line.quote_block().to_string(),
        String::new(),
        "Why: with `security.toolSandboxing` on, Gemini CLI 0.61.0 runs each shell command as \
         `sh -c 'exec bwrap --args 8 \"$@\" 8< … 9< …' _ …` (read in its bundle, \
         `LinuxSandboxManager`) and never checks that `bwrap` exists. Without it the shell \
         prints this line and exits 127 for every command, and Gemini CLI does not mark the \
         result as its sandbox's, so the model reads an ordinary failure (recorded here: \
         `docs/hooks/gemini-cli/no-bwrap`, with `/usr/bin/bwrap` hidden)."
            .to_owned(),
        if proven {
            "The hook looked on Gemini CLI's own `PATH`, outside the sandbox, and found no \
             executable `bwrap`: the line is the shell's."
                .to_owned()
        } else {
            "The hook could not look for `bwrap` here, so a command that printed this line \
             and exited 127 reads the same; the check tells them apart."
                .to_owned()
        },
        format!(
            "Check: `{CHECK}` in a terminal outside Gemini CLI prints bwrap's path when it is installed."
        ),
        String::new(),
    ];
    if let Some(text) = env.host.kind.remedy_detail(HostRemedy::InstallSandboxTool) {
        out.push(format!("Remedy: {text}"));
    }
    out.push(
        "What will not work: retrying, another command, or an approval: nothing starts until \
         bubblewrap is on the PATH Gemini CLI sees."
            .to_owned(),
    );
    out.join("\n")
}
