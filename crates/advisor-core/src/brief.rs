//! The brief the model receives: its size budget, and its last line.
//!
//! A brief is what failed and that retrying cannot help, the evidence in a
//! quote frame, the check, the remedy, what not to do, and where the full
//! account is. It stays in the model's context until compaction, so it is
//! kept short: at most [`PROSE_MAX_CHARS`] characters of prose and
//! [`TOTAL_MAX_CHARS`] in all.

use crate::environment::Environment;
use crate::quote::Untrusted;

/// The most prose a brief may hold, in characters (evidence and command lines not counted).
pub const PROSE_MAX_CHARS: usize = 1_500;

/// The most a brief may hold in all, in characters.
pub const TOTAL_MAX_CHARS: usize = 3_000;

/// A brief's size, as the budget counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BriefSize {
    /// Every character.
    pub total: usize,
    /// Characters on lines that are neither quoted evidence nor command lines.
    pub prose: usize,
}

impl BriefSize {
    /// Measures `text`: a line starting with `>` is quoted evidence; a line
    /// indented by four spaces, or starting with `PowerShell:`, `cmd:` or
    /// `sandbox-advisor `, is a command line; the rest is prose.
    pub fn of(text: &str) -> Self {
        let prose = text
            .lines()
            .filter(|line| !is_evidence_or_command(line))
            .map(|line| line.chars().count())
            .sum();
        Self {
            total: text.chars().count(),
            prose,
        }
    }

    /// True when within both limits.
    pub fn fits(&self) -> bool {
        self.prose <= PROSE_MAX_CHARS && self.total <= TOTAL_MAX_CHARS
    }
}

fn is_evidence_or_command(line: &str) -> bool {
    let bare = line.trim_start();
    line.starts_with('>')
        || line.starts_with("    ")
        || bare.starts_with("PowerShell:")
        || bare.starts_with("cmd:")
        || bare.starts_with("sandbox-advisor ")
}

/// What `sandbox-advisor explain` is given to reproduce an advisory.
///
/// Neither form puts text the advisor did not write on the explain line: a
/// message is named by a placeholder (the line is quoted above it, in its
/// frame), and a value is written by the family from the facts it recognized.
#[derive(Debug, Clone, Copy)]
pub enum ExplainInput<'a> {
    /// A failure's message. The line names it [`MESSAGE_PLACEHOLDER`]; the
    /// message decides only which note the prose gives (whether it can be
    /// pasted into a PowerShell literal as it is).
    Message(&'a Untrusted),
    /// A success value, piped to `explain --value -` (a JSON argument cannot
    /// cross Windows PowerShell's native-argument passing intact).
    Value(&'a ExplainValue),
}

/// What the explain line says in place of the failure's message.
pub const MESSAGE_PLACEHOLDER: &str = "'<message>'";

/// What the explain line says in place of the call's `command` argument.
pub const COMMAND_PLACEHOLDER: &str = "'<command>'";

/// What the explain line says in place of the session's workspace root.
pub const ROOT_PLACEHOLDER: &str = "'<root>'";

/// A shell tool's foreground value for `explain --value -`, written only from
/// facts the family recognized: numbers, the sandbox mode, booleans and the
/// family's own constant strings (`&'static str`), never text read from the
/// observation, so the JSON can stand on a command line outside any quote frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainValue {
    members: String,
}

impl ExplainValue {
    /// `{"kind":"foreground","exitCode":…}` (`null` when the value reported none).
    pub fn foreground(exit_code: Option<i64>) -> Self {
        let exit = exit_code.map_or_else(|| "null".to_owned(), |c| c.to_string());
        Self {
            members: format!("\"kind\":\"foreground\",\"exitCode\":{exit}"),
        }
    }

    /// Adds `"stderr":{"text":…}`: the family's constants joined by spaces,
    /// with `"truncated"` when given.
    pub fn stderr(mut self, parts: &[&'static str], truncated: Option<bool>) -> Self {
        let text = serde_json::Value::String(parts.join(" "));
        self.members
            .push_str(&format!(",\"stderr\":{{\"text\":{text}"));
        if let Some(truncated) = truncated {
            self.members
                .push_str(&format!(",\"truncated\":{truncated}"));
        }
        self.members.push('}');
        self
    }

    /// Adds `"sandbox":{"mode":…}`, with `"denied"` when given.
    pub fn sandbox(mut self, mode: crate::SandboxMode, denied: Option<bool>) -> Self {
        self.members
            .push_str(&format!(",\"sandbox\":{{\"mode\":\"{}\"", mode.as_str()));
        if let Some(denied) = denied {
            self.members.push_str(&format!(",\"denied\":{denied}"));
        }
        self.members.push('}');
        self
    }

    /// The value as one line of compact JSON.
    pub fn json(&self) -> String {
        format!("{{{}}}", self.members)
    }

    /// The JSON as one POSIX shell (sh, bash) single-quoted word: each `'`
    /// written as `'\''`. Only for this value: every character of it is the
    /// family's, so no rendering of text the advisor did not write is needed.
    fn posix(&self) -> String {
        format!("'{}'", self.json().replace('\'', r"'\''"))
    }
}

/// The brief's last lines: where the full account is, with the `explain`
/// command that prints it (`--detail`; a PowerShell command line on Windows; on Linux
/// and macOS one for sh or bash, with that shell's quoting; `--host` when the
/// host is not the harness) and the configured `href`, in the environment's
/// locale.
pub fn full_account(env: &Environment, input: ExplainInput<'_>) -> String {
    full_account_with(env, input, None)
}

/// [`full_account`] for a family that reads the call's `command` argument: the
/// explain line also names it (`--command`) and, when the policy has one, the
/// workspace root (`--root`), each by a placeholder the prose explains.
///
/// The line carries only the advisor's own words: the platform, the mode, the
/// flags, placeholders, and an [`ExplainValue`]. Text it did not write (the
/// message, the command, the root) appears in the brief only where the family
/// framed it, so an instruction injected into it never reaches the model
/// outside a quote frame.
pub fn full_account_with(
    env: &Environment,
    input: ExplainInput<'_>,
    call_command: Option<&Untrusted>,
) -> String {
    let mut command = format!(
        "sandbox-advisor explain --detail --platform {}",
        env.host.platform.as_str()
    );
    // Only that host's families are asked: another host's line names it.
    if env.host.kind != crate::Host::Dsh {
        command.push_str(" --host ");
        command.push_str(env.host.kind.as_str());
    }
    let mut rooted = false;
    if let Ok(policy) = env.policy() {
        command.push_str(" --mode ");
        command.push_str(policy.mode.as_str());
        if policy.workspace_root.is_some() && call_command.is_some() {
            command.push_str(&format!(" --root {ROOT_PLACEHOLDER}"));
            rooted = true;
        }
    }
    if call_command.is_some() {
        command.push_str(&format!(" --command {COMMAND_PLACEHOLDER}"));
    }
    if env.host.binary == crate::HostBinary::Electron {
        command.push_str(" --electron");
    }
    let command = match input {
        ExplainInput::Message(_) => format!("{command} {MESSAGE_PLACEHOLDER}"),
        ExplainInput::Value(value) if env.host.is_windows() => {
            let json = Untrusted::new(&value.json()).powershell_input();
            let json = json.map_or_else(|_| "'<value>'".to_owned(), |l| l.to_string());
            format!("{json} | {command} --value -")
        }
        ExplainInput::Value(value) => format!("{} | {command} --value -", value.posix()),
    };
    let intro = intro(env, input, call_command.is_some(), rooted);
    let mut out = format!("{intro}\n    {command}");
    if let Some(href) = &env.href {
        let more = env.locale.pick("More:", "详见：");
        out.push_str(&format!("\n{more} {href}"));
    }
    out
}

/// The line above the explain command: where the full account is, what each
/// placeholder on the command stands for, and why the advisor leaves it out.
fn intro(env: &Environment, input: ExplainInput<'_>, command: bool, root: bool) -> String {
    let pick = |en, zh| env.locale.pick(en, zh);
    let mut parts: Vec<&str> = Vec::new();
    let windows = env.host.is_windows();
    if let ExplainInput::Message(message) = input {
        parts.push(if !windows {
            pick(
                "the quoted line as <message>, each ' as '\\''",
                "<message> 换成上方引用的那一行（' 写作 '\\''）",
            )
        } else if message.powershell().is_ok() {
            pick(
                "the quoted line as <message>, each ' doubled",
                "<message> 换成上方引用的那一行（' 写两遍）",
            )
        } else {
            pick(
                "the quoted line as <message>, each escape typed as its character",
                "<message> 换成上方引用的那一行（转义处输入原字符）",
            )
        });
    }
    if command {
        parts.push(pick(
            "the call's command as <command>",
            "<command> 换成本次调用的命令",
        ));
    }
    if root {
        parts.push(pick(
            "the workspace root as <root>",
            "<root> 换成工作区根目录",
        ));
    }
    let head = if windows {
        pick(
            "The full account is this advisory's `detail`, or run in PowerShell",
            "完整说明见本建议的 `detail` 字段，或在 PowerShell 中运行",
        )
    } else {
        pick(
            "The full account is this advisory's `detail`, or run in sh or bash",
            "完整说明见本建议的 `detail` 字段，或在 sh 或 bash 中运行",
        )
    };
    if parts.is_empty() {
        return format!("{head}{}", pick(":", "："));
    }
    let (with, and, why) = (
        pick(" with ", "，"),
        pick(" and ", "，"),
        pick(
            " (left out: not the advisor's words):",
            "（此处不写出：那不是本工具的文字）：",
        ),
    );
    format!("{head}{with}{}{why}", parts.join(and))
}

/// Fills `{name}` slots in one pass, so a filled value (text the advisor did not
/// write, such as a tool name) is never scanned for slots again; an unknown
/// slot stays as it is.
pub fn fill(template: &str, slots: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let slot = tail.find('}').and_then(|close| {
            let name = &tail[1..close];
            slots
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v, close))
        });
        match slot {
            Some((value, close)) => {
                out.push_str(value);
                rest = &tail[close + 1..];
            }
            None => {
                out.push('{');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_is_one_pass_and_leaves_unknown_slots() {
        assert_eq!(
            fill("a {x} b {y} {z}", &[("x", "{y}"), ("y", "2")]),
            "a {y} b 2 {z}"
        );
        assert_eq!(fill("{", &[]), "{");
    }

    #[test]
    fn evidence_and_commands_are_not_prose() {
        let text = "Stop retrying.\n> SetNamedSecurityInfoW failed\n    icacls 'D:\\ws'\nPowerShell: icacls 'D:\\ws'\nDone.";
        let size = BriefSize::of(text);
        assert_eq!(size.prose, "Stop retrying.".len() + "Done.".len());
        assert_eq!(size.total, text.chars().count());
        assert!(size.fits());
        let long = "x".repeat(PROSE_MAX_CHARS + 1);
        assert!(!BriefSize::of(&long).fits());
        let quoted = format!("> {}", "x".repeat(TOTAL_MAX_CHARS));
        assert!(!BriefSize::of(&quoted).fits());
        assert_eq!(BriefSize::of(&quoted).prose, 0);
    }
}
