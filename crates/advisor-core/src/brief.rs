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
#[derive(Debug, Clone, Copy)]
pub enum ExplainInput<'a> {
    /// A failure's message (the producer's text, rendered as a PowerShell literal).
    Message(&'a Untrusted),
    /// A success value, as one line of JSON the family wrote from the facts it
    /// recognized; it is piped to `explain --value -` (a JSON argument cannot
    /// cross Windows PowerShell's native-argument passing intact).
    Value(&'a str),
}

/// The brief's last lines: where the full account is, with the `explain`
/// command that reproduces it (a PowerShell command line) and the configured
/// `href`, in the environment's locale.
pub fn full_account(env: &Environment, input: ExplainInput<'_>) -> String {
    full_account_with(env, input, None)
}

/// [`full_account`] for a family that reads the call's `command` argument: the
/// explain line passes it (`--command`) and the workspace root (`--root`), each
/// only when it can be a PowerShell literal (otherwise the line goes without it).
pub fn full_account_with(
    env: &Environment,
    input: ExplainInput<'_>,
    call_command: Option<&Untrusted>,
) -> String {
    let mut command = format!(
        "sandbox-advisor explain --platform {}",
        env.host.platform.as_str()
    );
    if let Ok(policy) = env.policy() {
        command.push_str(" --mode ");
        command.push_str(policy.mode.as_str());
        let root = policy
            .workspace_root
            .as_ref()
            .and_then(|r| Untrusted::new(&r.to_string()).powershell().ok());
        if let (Some(root), Some(_)) = (root, call_command) {
            command.push_str(&format!(" --root {root}"));
        }
    }
    if let Some(literal) = call_command.and_then(|c| c.powershell().ok()) {
        command.push_str(&format!(" --command {literal}"));
    }
    if env.host.binary == crate::HostBinary::Electron {
        command.push_str(" --electron");
    }
    let (literal, piped) = match input {
        ExplainInput::Message(message) => (message.powershell(), false),
        ExplainInput::Value(json) => (Untrusted::new(json).powershell_input(), true),
    };
    let refused = literal.is_err();
    let placeholder = if piped { "<value>" } else { "<message>" };
    let literal = literal.map_or_else(|_| placeholder.to_owned(), |l| l.to_string());
    let command = if piped {
        format!("{literal} | {command} --value -")
    } else {
        format!("{command} {literal}")
    };
    let intro = env.locale.pick(
        "The full account (mechanism, cited reports) is this advisory's `detail`; to print it, run in PowerShell:",
        "完整说明（机制与引用的报告）见本建议的 `detail` 字段；在 PowerShell 中运行以下命令可重现：",
    );
    let mut out = format!("{intro}\n    {command}");
    if refused && !piped {
        out.push('\n');
        out.push_str(env.locale.pick(
            "(<message> stands for the message quoted above: it holds characters no command line may carry as they are.)",
            "（<message> 代表上方引用的消息：其中含有不能原样写入命令行的字符。）",
        ));
    } else if refused {
        out.push('\n');
        out.push_str(env.locale.pick(
            "(<value> stands for the call's result value, which cannot be written on a command line as it is.)",
            "（<value> 代表本次调用的结果值：它无法原样写入命令行。）",
        ));
    }
    if let Some(href) = &env.href {
        let more = env.locale.pick("More:", "详见：");
        out.push_str(&format!("\n{more} {href}"));
    }
    out
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
