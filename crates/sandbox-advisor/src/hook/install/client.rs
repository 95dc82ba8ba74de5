//! What differs between the clients whose settings `hook install` edits:
//! one small impl of [`HookClient`] per client, one module each
//! (`claude_code`, `codex`, `gemini_cli`). Everything else (the handler, the edit, the
//! write) is shared, so adding a client is one module and one line in
//! [`CLIENTS`].

use std::path::PathBuf;

use super::{InstallError, Scope};
use crate::hook::Dialect;

/// The clients `hook install` knows, one per dialect.
pub static CLIENTS: [&(dyn HookClient + Sync); 3] = [
    &super::claude_code::ClaudeCode,
    &super::codex::Codex,
    &super::gemini_cli::GeminiCli,
];

/// The client that speaks `dialect`.
pub fn of(dialect: Dialect) -> Option<&'static (dyn HookClient + Sync)> {
    CLIENTS.iter().copied().find(|c| c.dialect() == dialect)
}

/// Where a client's settings file lies: a directory the user chose (the
/// project, the home directory, `CODEX_HOME`), then directories below it and
/// the file. Install follows no symbolic link below `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The directory the scope starts from, as the user named it.
    pub root: PathBuf,
    /// The directories between `root` and the file, each one name.
    pub dirs: Vec<&'static str>,
    /// The file's name.
    pub file: &'static str,
}

impl Place {
    /// The file's whole path.
    pub fn path(&self) -> PathBuf {
        let mut path = self.root.clone();
        path.extend(&self.dirs);
        path.push(self.file);
        path
    }
}

/// What a client needs before it runs a hook install wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustStep {
    /// Nothing: it runs the hooks in its settings. The text says so.
    None(&'static str),
    /// Codex: a trusted hash per hook, given through `codex app-server`
    /// (`crate::hook::trust`).
    CodexAppServer,
}

/// One client's part of `hook install`.
pub trait HookClient {
    /// Its name for people (`Claude Code`).
    fn name(&self) -> &'static str;
    /// The hook dialect it speaks (`--client` takes its name).
    fn dialect(&self) -> Dialect;
    /// Its settings file for `scope`.
    fn place(&self, scope: &Scope) -> Result<Place, InstallError>;
    /// The events the advisor answers, as the settings file names them.
    fn events(&self) -> &'static [&'static str];
    /// The matcher of the advisor's group: the client's name for the shell tool.
    fn matcher(&self) -> &'static str;
    /// What it needs before it runs the hooks.
    fn trust(&self) -> TrustStep;
}
