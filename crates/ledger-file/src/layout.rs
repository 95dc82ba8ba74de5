//! Where everything lives under the state directory (layout version 1).
//!
//! ```text
//! <dir>/v1/key                        the shared digest key: 32 hex digits (0600 on Unix)
//! <dir>/v1/fleet-key                  the Redis fleet's digest key, as a hook last saw it (0600)
//! <dir>/v1/gc.lock, gc.stamp          who collects, and when it last did (the stamp's mtime)
//! <dir>/v1/agents/<agent key>/        one directory per agent (AgentKey: 32 hex digits)
//!     claim.<slot name>               a claimed slot (an empty marker)
//!     budget.v2, budget.lock          the fail-fast budget record (codec version 2), and its lock
//!     budget                          a version 1 record (an older build's): never read, removed by forget
//!     budget.corrupt                  the last record that failed to decode
//!     touched                         its mtime: the last claim or budget edit
//! <dir>/v1/trash/                     collected directories on their way out
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use advisor_core::{AgentId, AgentKey, Slot};

use crate::fault::{At, Fault};
use crate::guard::{check_dir, check_parent, ensure_dir};

/// The layout version, a directory under the state directory.
pub(crate) const VERSION_DIR: &str = "v1";
/// A claim marker's name is this prefix and the slot's name, so no slot can
/// ever name one of the agent's other files.
pub(crate) const CLAIM_PREFIX: &str = "claim.";
/// The record, codec version 2 (bound to its agent). An older build's
/// version 1 record, [`BUDGET_V1`], is never read.
pub(crate) const BUDGET: &str = "budget.v2";
pub(crate) const BUDGET_V1: &str = "budget";
pub(crate) const BUDGET_LOCK: &str = "budget.lock";
pub(crate) const BUDGET_CORRUPT: &str = "budget.corrupt";
pub(crate) const TOUCHED: &str = "touched";

/// The paths of one versioned state directory.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    root: PathBuf,
}

impl Layout {
    pub(crate) fn new(dir: &Path) -> Self {
        Self {
            root: dir.join(VERSION_DIR),
        }
    }

    /// Creates what is missing of the state directory, `v1`, `agents` and
    /// `trash` (owner-only), and checks the chain: see [`Layout::check`].
    pub(crate) fn prepare(&self) -> Result<(), Fault> {
        let state = self.state();
        create_dir_all(state).at("create", state)?;
        // Each directory is checked before anything is created in it.
        check_parent(state)?;
        check_dir(state)?;
        for dir in [self.root.clone(), self.agents(), self.trash()] {
            ensure_dir(&dir)?;
        }
        self.check()
    }

    /// Checks every directory the store uses above the agents' own: each is
    /// a real directory, ours, writable by nobody else, and the state
    /// directory's parent cannot swap it (see [`crate::guard`]).
    pub(crate) fn check(&self) -> Result<(), Fault> {
        let state = self.state();
        check_parent(state)?;
        for dir in [state, &self.root, &self.agents(), &self.trash()] {
            check_dir(dir)?;
        }
        Ok(())
    }

    /// The state directory (`--state-dir`, the parent of `v1`).
    fn state(&self) -> &Path {
        self.root.parent().unwrap_or(&self.root)
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn key(&self) -> PathBuf {
        self.root.join("key")
    }

    pub(crate) fn fleet_key(&self) -> PathBuf {
        self.root.join("fleet-key")
    }

    pub(crate) fn gc_lock(&self) -> PathBuf {
        self.root.join("gc.lock")
    }

    pub(crate) fn gc_stamp(&self) -> PathBuf {
        self.root.join("gc.stamp")
    }

    pub(crate) fn agents(&self) -> PathBuf {
        self.root.join("agents")
    }

    pub(crate) fn trash(&self) -> PathBuf {
        self.root.join("trash")
    }

    /// The agent's directory, named by its keyed digest, never its raw id.
    pub(crate) fn agent(&self, agent: &AgentId) -> PathBuf {
        self.agents().join(AgentKey::of(agent).as_str())
    }
}

/// The marker of `slot` in an agent's directory.
pub(crate) fn marker(agent_dir: &Path, slot: &Slot) -> PathBuf {
    agent_dir.join(format!("{CLAIM_PREFIX}{}", slot.name()))
}

/// Creates an agent's directory (`agents/` must exist) owner-only on Unix
/// (0700); one that exists is fine.
pub(crate) fn create_agent_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(dir) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        done => done,
    }
}

/// Checks an agent's directory, when it exists, as [`check_dir`] does: a
/// link or a directory of another user's is refused before anything in it
/// is opened.
pub(crate) fn check_agent_dir(dir: &Path) -> Result<(), Fault> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        _ => check_dir(dir),
    }
}

/// Creates `dir` and its missing parents, owner-only on Unix (0700).
fn create_dir_all(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}
