//! Codex: `<project>/.codex/hooks.json` (read only in a project Codex
//! trusts), or `hooks.json` in `CODEX_HOME` (default `~/.codex`) for the
//! user; the advisor answers `PreToolUse` and `PostToolUse` for `Bash` (Codex
//! has no failure event). Codex runs a hook only once its hash is trusted,
//! and skips an untrusted one without a word (`crate::hook::trust`).

use std::path::PathBuf;

use super::client::{HookClient, Place, TrustStep};
use super::{InstallError, Scope, home};
use crate::hook::Dialect;

/// Codex.
#[derive(Debug, Clone, Copy)]
pub struct Codex;

impl HookClient for Codex {
    fn name(&self) -> &'static str {
        "Codex"
    }

    fn dialect(&self) -> Dialect {
        Dialect::Codex
    }

    fn place(&self, scope: &Scope) -> Result<Place, InstallError> {
        let (root, dirs) = match scope {
            Scope::Project(dir) => (dir.clone(), vec![".codex"]),
            Scope::User => match std::env::var_os("CODEX_HOME") {
                Some(home) if !home.is_empty() => (PathBuf::from(home), vec![]),
                _ => (home()?, vec![".codex"]),
            },
        };
        Ok(Place {
            root,
            dirs,
            file: "hooks.json",
        })
    }

    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse", "PostToolUse"]
    }

    fn matcher(&self) -> &'static str {
        "Bash"
    }

    fn trust(&self) -> TrustStep {
        TrustStep::CodexAppServer
    }
}
