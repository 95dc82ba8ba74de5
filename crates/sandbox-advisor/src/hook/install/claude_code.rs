//! Claude Code: `.claude/settings.json` in the project, or
//! `~/.claude/settings.json` for the user; the advisor answers `PreToolUse`,
//! `PostToolUse` and `PostToolUseFailure` for `Bash`. It runs the hooks in
//! its settings with no trust step. Its plugin: `plugins/claude-code/` in this
//! repository, listed by `.claude-plugin/marketplace.json`; the user's
//! enabled plugins are `enabledPlugins` in the same settings files.

use std::path::{Path, PathBuf};

use super::client::{HookClient, Place, TrustStep};
use super::plugin::{self, PluginForm};
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

    fn plugin(&self) -> Option<PluginForm> {
        Some(PluginForm {
            dir: "plugins/claude-code",
            root_var: "CLAUDE_PLUGIN_ROOT",
            session_start: ("SessionStart", "startup"),
            manifests: plugin::claude_code_manifests,
        })
    }

    fn plugin_enabled(&self, project: &Path) -> Vec<String> {
        let mut places = Vec::new();
        if let Ok(user) = self.place(&Scope::User) {
            places.push(user);
        }
        for file in ["settings.json", "settings.local.json"] {
            places.push(Place {
                root: project.to_owned(),
                dirs: vec![".claude"],
                file,
            });
        }
        places
            .iter()
            .flat_map(plugin::enabled_in_settings)
            .collect()
    }

    /// The payload's `cwd`, and `CLAUDE_PROJECT_DIR`, which Claude Code sets
    /// for its hooks to the directory whose `.claude` it read.
    fn project_dirs(&self, cwd: Option<&str>) -> Vec<PathBuf> {
        let named = std::env::var_os("CLAUDE_PROJECT_DIR")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from);
        plugin::project_dirs(cwd, named)
    }
}
