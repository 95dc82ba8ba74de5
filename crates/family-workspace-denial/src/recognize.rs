//! The producer's shape: a finished shell command the sandbox executor stamped
//! `denied` — read from the canonical value, never from text.

use advisor_core::shell::ForegroundRun;
use advisor_core::{Observation, SandboxMode, Untrusted};

use crate::named::NamedPaths;

/// What the executor's stamp and the call's own arguments say about one denial.
///
/// Every piece of text in it that the advisor did not write (the tool name,
/// the enforcement string, the paths) is [`Untrusted`]: it leaves the family
/// only through one of core's renderings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The shell tool that ran the command, as the harness named it.
    pub tool: Untrusted,
    /// The command's non-zero exit code, or `None` when the value does not
    /// report one (absent, null or not an integer): "not reported", which
    /// neither blocks recognition nor stands for 0 or any other number.
    pub exit_code: Option<i64>,
    /// The mode the call actually ran under, as the executor stamped it; only
    /// a spelling in the harness's own vocabulary is recognized, so this is
    /// the advisor's word for it, not the value's text.
    pub mode: SandboxMode,
    /// The enforcement the executor stamped (`partial` for the Windows ACL backend).
    pub enforcement: Option<Untrusted>,
    /// The stamp the finding keyed on, exactly as the value carried it: its
    /// `sandbox` member as compact JSON, members in the value's own order
    /// (`"sandbox":{"mode":"workspace-write","denied":true,…}`). Quoted as
    /// evidence, so a reader can audit the claim against the record.
    pub stamp: Untrusted,
    /// Set when the stamp marks a runner failure.
    pub runner_failed: bool,
    /// The absolute paths the call names.
    pub named: NamedPaths,
    /// The call's `command` argument when it is one string, as the harness
    /// passed it: the brief's `explain` line hands it back (`--command`), so
    /// the full account can be reproduced. Read only where `named` is.
    pub command: Option<Untrusted>,
}

/// Reads the stamped mode without allocating; a spelling outside the
/// harness's vocabulary is not the producer's shape.
fn stamped_mode(raw: &str) -> Option<SandboxMode> {
    SandboxMode::ALL.into_iter().find(|m| m.as_str() == raw)
}

/// Recognizes a success whose foreground value carries `sandbox.denied: true`
/// and does not report a clean exit: a non-zero exit code, or none reported
/// (absent, null or not an integer). A reported 0 is not a denial. Returns
/// `None` before allocating anything otherwise.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let success = observation.success()?;
    let run = ForegroundRun::read(&success.value)?;
    let stamp = run.sandbox?;
    if !stamp.denied || run.exit_code == Some(0) {
        return None;
    }
    let mode = stamped_mode(stamp.mode)?;
    // The stamp was read from this member, so it is there.
    let record = success.value.get("sandbox")?;
    // Paths matter only for the one case the gate can speak for; a denial under
    // another mode, or of a failed runner, is declined without reading them.
    let placeable = mode == SandboxMode::WorkspaceWrite && !stamp.runner_failed;
    Some(Finding {
        tool: Untrusted::new(observation.tool.as_str()),
        exit_code: run.exit_code,
        mode,
        enforcement: stamp.enforcement.map(Untrusted::new),
        stamp: Untrusted::new(&format!("\"sandbox\":{record}")),
        runner_failed: stamp.runner_failed,
        named: if placeable {
            named_paths(observation)
        } else {
            NamedPaths::default()
        },
        command: if placeable {
            observation
                .arguments
                .get("command")
                .and_then(|c| c.as_str())
                .map(Untrusted::new)
        } else {
            None
        },
    })
}

/// The absolute paths in the `command` argument, plus every other argument
/// whose whole value is one (string or array of strings).
fn named_paths(observation: &Observation) -> NamedPaths {
    let mut named = NamedPaths::default();
    let Some(arguments) = observation.arguments.as_object() else {
        return named;
    };
    for (key, value) in arguments {
        let is_command = key == "command";
        if let Some(text) = value.as_str() {
            if is_command {
                named.command(text);
            } else {
                named.argument(text);
            }
        } else if let Some(items) = value.as_array() {
            for text in items.iter().filter_map(|item| item.as_str()) {
                if is_command {
                    // An argv element is one word, spaces and all.
                    named.word(text);
                } else {
                    named.argument(text);
                }
            }
        }
    }
    named
}
