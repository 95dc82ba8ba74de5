//! Gemini CLI: `<project>/.gemini/settings.json`, or `~/.gemini/settings.json`
//! for the user; the advisor answers `BeforeTool` and `AfterTool` for
//! `run_shell_command` (Gemini's matcher is a regular expression; the tool's
//! name matches only itself). Gemini CLI runs user hooks in every folder, and
//! a project's hooks only in a folder the user trusts; install changes
//! neither (`TrustStep::None` says so).

use super::client::{HookClient, Place, TrustStep};
use super::{InstallError, Scope, home};
use crate::hook::Dialect;
use crate::hook::gemini_cli::SHELL_TOOL;

/// Gemini CLI.
#[derive(Debug, Clone, Copy)]
pub struct GeminiCli;

impl HookClient for GeminiCli {
    fn name(&self) -> &'static str {
        "Gemini CLI"
    }

    fn dialect(&self) -> Dialect {
        Dialect::GeminiCli
    }

    fn place(&self, scope: &Scope) -> Result<Place, InstallError> {
        let root = match scope {
            Scope::Project(dir) => dir.clone(),
            Scope::User => home()?,
        };
        Ok(Place {
            root,
            dirs: vec![".gemini"],
            file: "settings.json",
        })
    }

    fn events(&self) -> &'static [&'static str] {
        &["BeforeTool", "AfterTool"]
    }

    fn matcher(&self) -> &'static str {
        SHELL_TOOL
    }

    fn trust(&self) -> TrustStep {
        TrustStep::None(
            "Gemini CLI reads it when a session starts. A project's hooks run only in a folder \
             the user trusts (Gemini's folder trust: its trust dialog, or \
             GEMINI_CLI_TRUST_WORKSPACE=true for one run), and Gemini may warn that project hooks \
             were detected; install trusts nothing for the user. --user hooks run in every folder.",
        )
    }
}
