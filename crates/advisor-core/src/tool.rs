//! Which tools can carry a sandbox provisioning failure.
//!
//! A sandbox failure (a refused ACL grant, a runner that cannot start, a PTY
//! that exits before its prompt, a confined child that dies in DLL
//! initialization) happens where the harness confines a program: the tools
//! that start a process in the sandbox. In the DeepSeek harness those are the
//! one-shot shells (`@deepseek-ai/dsh-tool-bash`, `@deepseek-ai/dsh-tool-pwsh`)
//! and the persistent ones (`…-tool-bash-persistent`, `…-tool-pwsh-persistent`,
//! through the terminal backend): each calls `ctx.sandbox.confine`, whose
//! errors reach the tool result unchanged, and each reports a finished
//! command's exit and stamp in its value. A network tool (`web_fetch`,
//! `web_search`) or a file tool (`read`, `write`, `edit`, `grep`) confines no
//! process: text in its result that looks like a sandbox failure is someone
//! else's text (a fetched page, a file's contents), never this session's
//! sandbox.
//!
//! Tool names are the host's, so the class is read from the name's words
//! ([`ToolClass::of`]): a shell or process word makes it a process tool; else a
//! network or file word makes it one that starts none; a name with neither is
//! taken as able to start a process, so that a host's shell under an unknown
//! name keeps its advisories (`include`/`exclude` narrow it further).

use crate::ids::ToolName;
use crate::observation::Observation;

/// Words that name a tool that starts a process in the sandbox.
const PROCESS_WORDS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "pwsh",
    "powershell",
    "shell",
    "cmd",
    "exec",
    "terminal",
    "pty",
    "process",
    "command",
    "run",
    "spawn",
];

/// Words that name a network or file tool, which starts no process.
const NO_PROCESS_WORDS: &[&str] = &[
    "web", "fetch", "http", "https", "url", "browse", "browser", "search", "download", "upload",
    "request", "read", "write", "edit", "view", "glob", "grep", "ls", "list", "file", "files",
    "patch", "notebook", "todo", "memory", "image",
];

/// The most words of a tool name that are read; a name is at most this many
/// words for classification (the rest is ignored), so a hostile name costs a
/// bounded scan.
const NAME_MAX_WORDS: usize = 16;

/// What a tool can carry, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolClass {
    /// Starts a process in the sandbox (a shell, an exec tool): can carry a
    /// sandbox provisioning failure, which the fail-fast budget counts and the
    /// sandbox families recognize.
    Process,
    /// A network or file tool: starts no process, so it never carries one.
    NoProcess,
}

impl ToolClass {
    /// The class of a tool by its name's words (ASCII letters and digits,
    /// split at anything else and at a lower-to-upper case change; compared
    /// case-insensitively).
    pub fn of(tool: &ToolName) -> Self {
        let has = |table: &[&str]| {
            words(tool.as_str()).any(|w| table.iter().any(|t| w.eq_ignore_ascii_case(t)))
        };
        if has(PROCESS_WORDS) {
            ToolClass::Process
        } else if has(NO_PROCESS_WORDS) {
            ToolClass::NoProcess
        } else {
            ToolClass::Process
        }
    }

    /// True when a tool of this class can carry a sandbox provisioning failure.
    pub fn can_carry_sandbox_failure(self) -> bool {
        self == ToolClass::Process
    }
}

/// Which tools' observations a family reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolScope {
    /// Every tool's (a family about a network guard, say).
    #[default]
    Any,
    /// Only a [`ToolClass::Process`] tool's: every sandbox family, whose
    /// producer is a confined process.
    SandboxProcess,
}

impl ToolScope {
    /// True when a family of this scope may read `observation`.
    pub fn admits(self, observation: &Observation) -> bool {
        match self {
            ToolScope::Any => true,
            ToolScope::SandboxProcess => {
                ToolClass::of(&observation.tool).can_carry_sandbox_failure()
            }
        }
    }
}

/// The first [`NAME_MAX_WORDS`] words of a tool name, without allocating:
/// runs of ASCII letters and digits, split again where a lowercase letter or
/// digit is followed by an uppercase one (`WebFetch` is `Web`, `Fetch`).
fn words(name: &str) -> impl Iterator<Item = &str> {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(camel_parts)
        .take(NAME_MAX_WORDS)
}

/// The parts of one run of letters and digits at its lower-to-upper changes.
fn camel_parts(run: &str) -> impl Iterator<Item = &str> {
    let mut rest = run;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let end = (1..bytes.len())
            .find(|&i| !bytes[i - 1].is_ascii_uppercase() && bytes[i].is_ascii_uppercase())
            .unwrap_or(bytes.len());
        let (word, tail) = rest.split_at(end);
        rest = tail;
        Some(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, class: ToolClass) {
        assert_eq!(ToolClass::of(&ToolName::new(name)), class, "{name:?}");
    }

    #[test]
    fn shells_start_processes_and_network_or_file_tools_do_not() {
        use ToolClass::{NoProcess, Process};
        for (name, class) in [
            ("bash", Process),
            ("pwsh", Process),
            ("Bash", Process),
            ("PowerShell", Process),
            ("shell", Process),
            ("local_shell", Process),
            ("exec_command", Process),
            ("bash-persistent", Process),
            ("pwsh_persistent", Process),
            ("runTerminalCmd", Process),
            ("web_fetch", NoProcess),
            ("WebFetch", NoProcess),
            ("web_search", NoProcess),
            ("fetch", NoProcess),
            ("read_file", NoProcess),
            ("Write", NoProcess),
            ("grep", NoProcess),
            ("custom_tool", Process),
            ("", Process),
            ("ba\u{200B}sh", Process),
        ] {
            check(name, class);
        }
    }

    #[test]
    fn a_name_is_read_for_a_bounded_number_of_words() {
        let long = format!("{}_bash", "x_".repeat(NAME_MAX_WORDS));
        assert_eq!(words(&long).count(), NAME_MAX_WORDS);
        assert_eq!(
            words("runTerminalCmd2 x_WebFetch").collect::<Vec<_>>(),
            ["run", "Terminal", "Cmd2", "x", "Web", "Fetch"]
        );
        let fetch = format!("{}web_fetch", "x_".repeat(NAME_MAX_WORDS));
        check(&fetch, ToolClass::Process);
    }
}
