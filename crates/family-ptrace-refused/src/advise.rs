//! The advisory: the brief ([`crate::brief`]) as its text, and the full
//! account, always in English: the mechanism and its source, the check, the
//! ways through with Gemini CLI's own words, and what will not work.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::facts::{CHECK, CHECK_SHOWS};
use crate::recognize::Finding;

/// Builds the advisory for a refused tracer.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let summary = match env.locale {
        Locale::En => "Gemini CLI's sandbox refuses ptrace to every command: no approval grants it",
        Locale::ZhCn => "Gemini CLI 的沙箱拒绝所有命令使用 ptrace：任何批准都无法授予",
    };
    Advisory::new(ID, summary, crate::brief::brief(finding, env)).with_detail(detail(finding, env))
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment) -> String {
    let mut out: Vec<String> = vec![
        "strace could not trace its child: `ptrace(PTRACE_TRACEME)` failed with EPERM.".to_owned(),
        String::new(),
        "What was reported:".to_owned(),
        finding.line.quote_block().to_string(),
        String::new(),
        "Why: with `security.toolSandboxing` on, Gemini CLI 0.61.0 starts each shell command \
         in bubblewrap with a seccomp filter of its own that returns EPERM for the `ptrace` \
         system call and allows every other (read in its bundle, `LinuxSandboxManager`, \
         `getSeccompBpfPath`; recorded here as `docs/hooks/gemini-cli/ptrace`). Gemini CLI \
         marked the result `sandbox_expansion_required` and proposed more paths to read and \
         write, but an expansion grants paths and network only: approving it re-runs the \
         command under the same filter, and it fails again."
            .to_owned(),
        format!(
            "Check: `{CHECK}` inside the sandbox prints `{}` (a filter is active): measured with \
             bubblewrap 0.8.0 and the same filter, which also gave strace the line above; outside \
             any sandbox or filtering container it prints `Seccomp: 0`.",
            CHECK_SHOWS.replace('\t', " ")
        ),
        String::new(),
        "Ways through, each the user's decision:".to_owned(),
        "- Run the tracer or debugger outside Gemini CLI.".to_owned(),
    ];
    let host = env.host.kind;
    for remedy in [HostRemedy::WholeClientSandbox, HostRemedy::SandboxSettings] {
        if let Some(text) = host.remedy_detail(remedy) {
            out.push(format!("- {text}"));
        }
    }
    out.push(String::new());
    out.push(
        "What will not work: approving the expansion (it never includes ptrace), retrying, or \
         another tracer (gdb, ltrace and language debuggers all use ptrace). Only strace's line \
         was recorded; other tracers' refusals are not recognized."
            .to_owned(),
    );
    out.join("\n")
}
