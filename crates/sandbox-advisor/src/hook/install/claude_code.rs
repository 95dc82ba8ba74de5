//! Claude Code: `.claude/settings.json` in the project, or
//! `~/.claude/settings.json` for the user; the advisor answers `PreToolUse`,
//! `PostToolUse` and `PostToolUseFailure` for `Bash`. It runs the hooks in
//! its settings with no trust step.

use super::client::{HookClient, Place, TrustStep};
use super::{InstallError, Scope, home};
use crate::hook::Dialect;

/// Claude Code.
#[derive(Debug, Clone, Copy)]
pub struct ClaudeCode;

impl HookClient for ClaudeCode {
    fn name(&self) -> &'static str {
        "Claude Code"
    }

    fn dialect(&self) -> Dialect {
        Dialect::ClaudeCode
    }

    fn place(&self, scope: &Scope) -> Result<Place, InstallError> {
        let root = match scope {
            Scope::Project(dir) => dir.clone(),
            Scope::User => home()?,
        };
        Ok(Place {
            root,
            dirs: vec![".claude"],
            file: "settings.json",
        })
    }

    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse", "PostToolUse", "PostToolUseFailure"]
    }

    fn matcher(&self) -> &'static str {
        "Bash"
    }

    fn trust(&self) -> TrustStep {
        TrustStep::None("Claude Code reads it when a session starts; nothing else is needed.")
    }
}
