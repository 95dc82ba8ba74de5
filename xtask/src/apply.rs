//! Applying a mutation to a source file and always restoring it.
//!
//! Before a file is mutated, a journal (`{file, original}`) is written beside
//! the run's other state; it is deleted once the original bytes are back. The
//! original comes back on success and failure (`MutationGuard::restore`), on
//! panic (`Drop`), and on Ctrl-C / SIGTERM (`Shared::interrupt`, called from
//! the `ctrlc` handler). A journal found at start-up means a previous run was
//! killed mid-mutation: `recover_stale_journals` restores from it.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// What a journal holds: enough to put one file back.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Journal {
    /// Absolute path of the mutated file.
    pub file: PathBuf,
    /// Its contents before the mutation.
    pub original: String,
    /// Mutation id, for messages.
    pub id: String,
    /// Process that wrote the journal.
    pub pid: u32,
}

impl Journal {
    /// Writes the journal atomically (temporary file, fsync, rename).
    pub fn write(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("json.tmp");
        let text = serde_json::to_string(self)?;
        {
            use std::io::Write;
            let mut file = fs::File::create(&tmp)
                .with_context(|| format!("creating journal {}", tmp.display()))?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
        }
        fs::rename(&tmp, path).with_context(|| format!("writing journal {}", path.display()))
    }

    /// Reads a journal.
    pub fn read(path: &Path) -> Result<Self> {
        let text = fs::read_to_string(path)?;
        serde_json::from_str(&text).with_context(|| format!("parsing journal {}", path.display()))
    }

    /// Puts the original bytes back and checks they are there.
    pub fn restore_file(&self) -> Result<()> {
        fs::write(&self.file, self.original.as_bytes())
            .with_context(|| format!("restoring {}", self.file.display()))?;
        let back = fs::read(&self.file)?;
        if back != self.original.as_bytes() {
            bail!("{} still differs after restoring it", self.file.display());
        }
        Ok(())
    }
}

/// Restores every `*in-flight*.json` journal left in `dir` by a killed run;
/// returns a message per restored file.
pub fn recover_stale_journals(dir: &Path) -> Result<Vec<String>> {
    let mut messages = Vec::new();
    let Ok(children) = fs::read_dir(dir) else {
        return Ok(messages);
    };
    let mut journals: Vec<PathBuf> = children
        .filter_map(|c| c.ok().map(|c| c.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains("in-flight") && n.ends_with(".json"))
        })
        .collect();
    journals.sort();
    for path in journals {
        let journal = Journal::read(&path)?;
        journal.restore_file()?;
        fs::remove_file(&path)?;
        messages.push(format!(
            "a previous run (pid {}) was killed while `{}` was applied: restored {} from {}",
            journal.pid,
            journal.id,
            journal.file.display(),
            path.display()
        ));
    }
    Ok(messages)
}

/// A mutation currently applied in some slot.
struct Active {
    journal: Journal,
    journal_path: PathBuf,
}

#[derive(Default)]
struct State {
    exiting: bool,
    active: HashMap<usize, Active>,
    children: HashMap<usize, u32>,
}

/// State shared between the worker slots and the Ctrl-C handler. Every file
/// change happens under its lock, so the handler never races a write.
#[derive(Clone, Default)]
pub struct Shared {
    state: Arc<Mutex<State>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Applies `replace` for the single `find` in `file`; the returned guard
    /// restores the original. Errors if the text does not occur exactly once.
    pub fn apply(
        &self,
        slot: usize,
        journal_path: &Path,
        file: &Path,
        id: &str,
        find: &str,
        replace: &str,
    ) -> Result<MutationGuard> {
        let mut state = self.lock();
        if state.exiting {
            bail!("interrupted");
        }
        let original =
            fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let count = crate::catalogue::count_occurrences(&original, find);
        if count != 1 {
            bail!(
                "`find` occurs {count} times in {} (must be exactly once)",
                file.display()
            );
        }
        let mutated = original.replacen(find, replace, 1);
        let journal = Journal {
            file: file.to_path_buf(),
            original,
            id: id.to_owned(),
            pid: std::process::id(),
        };
        journal.write(journal_path)?;
        state.active.insert(
            slot,
            Active {
                journal,
                journal_path: journal_path.to_path_buf(),
            },
        );
        if let Err(e) = fs::write(file, mutated) {
            restore_slot(&mut state, slot)?;
            return Err(e).with_context(|| format!("mutating {}", file.display()));
        }
        Ok(MutationGuard {
            shared: self.clone(),
            slot,
            done: false,
        })
    }

    /// Records the process group of the child a slot is waiting for.
    pub fn set_child(&self, slot: usize, pgid: Option<u32>) {
        let mut state = self.lock();
        match pgid {
            Some(pgid) => state.children.insert(slot, pgid),
            None => state.children.remove(&slot),
        };
    }

    /// Whether an interrupt is being handled.
    pub fn exiting(&self) -> bool {
        self.lock().exiting
    }

    /// The Ctrl-C path: stop the children, put every mutated file back,
    /// delete the journals. Returns messages to print. Later `apply` calls fail.
    pub fn interrupt(&self) -> Vec<String> {
        let mut state = self.lock();
        state.exiting = true;
        let mut messages = Vec::new();
        for pgid in state.children.values() {
            kill_group(*pgid);
        }
        let slots: Vec<usize> = state.active.keys().copied().collect();
        for slot in slots {
            let file = state.active.get(&slot).map(|a| a.journal.file.clone());
            match (restore_slot(&mut state, slot), file) {
                (Ok(()), Some(file)) => messages.push(format!("restored {}", file.display())),
                (Err(e), _) => messages.push(format!("FAILED to restore: {e:#}")),
                _ => {}
            }
        }
        messages
    }
}

/// Kills a child's whole process group (cargo and the test binaries it runs).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

fn restore_slot(state: &mut State, slot: usize) -> Result<()> {
    if let Some(active) = state.active.get(&slot) {
        active.journal.restore_file()?;
        fs::remove_file(&active.journal_path)
            .with_context(|| format!("deleting journal {}", active.journal_path.display()))?;
        state.active.remove(&slot);
    }
    Ok(())
}

/// Restores the mutated file when `restore` is called or when dropped.
pub struct MutationGuard {
    shared: Shared,
    slot: usize,
    done: bool,
}

impl MutationGuard {
    /// Restores the original bytes and deletes the journal.
    pub fn restore(mut self) -> Result<()> {
        self.done = true;
        restore_slot(&mut self.shared.lock(), self.slot)
    }
}

impl Drop for MutationGuard {
    fn drop(&mut self) {
        if !self.done {
            if let Err(e) = restore_slot(&mut self.shared.lock(), self.slot) {
                eprintln!("xtask inject: FAILED to restore after a panic: {e:#}");
            }
        }
    }
}

/// Refuses to run beside another live `inject` run on the same workspace.
pub struct RunLock {
    path: PathBuf,
}

impl RunLock {
    /// Takes `path`, unless it names a live process; a stale lock is replaced.
    pub fn take(path: &Path) -> Result<Self> {
        if let Ok(text) = fs::read_to_string(path) {
            let pid = text.trim();
            if !pid.is_empty() && Path::new("/proc").join(pid).exists() {
                bail!(
                    "another `cargo xtask inject` (pid {pid}) is running on this workspace ({})",
                    path.display()
                );
            }
        }
        fs::write(path, std::process::id().to_string())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
        })
    }

    /// Removes a lock file (for the exit path of the Ctrl-C handler).
    pub fn remove_at(path: &Path) {
        let _ = fs::remove_file(path);
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        Self::remove_at(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_restores_on_restore_drop_and_interrupt() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lib.rs");
        let journal = dir.path().join("in-flight.json");
        fs::write(&file, "fn f() -> bool { a == b }\n").unwrap();
        let shared = Shared::default();

        let guard = shared.apply(0, &journal, &file, "m", "==", "!=").unwrap();
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "fn f() -> bool { a != b }\n"
        );
        assert_eq!(
            Journal::read(&journal).unwrap().original,
            "fn f() -> bool { a == b }\n"
        );
        guard.restore().unwrap();
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "fn f() -> bool { a == b }\n"
        );
        assert!(!journal.exists());

        drop(shared.apply(0, &journal, &file, "m", "==", "!=").unwrap());
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "fn f() -> bool { a == b }\n"
        );
        assert!(!journal.exists());

        let _guard = shared.apply(1, &journal, &file, "m", "==", "!=").unwrap();
        assert_eq!(shared.interrupt().len(), 1);
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "fn f() -> bool { a == b }\n"
        );
        assert!(!journal.exists());
        assert!(shared.apply(0, &journal, &file, "m", "==", "!=").is_err());
    }

    #[test]
    fn refuses_ambiguous_find_and_recovers_stale_journal() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lib.rs");
        fs::write(&file, "a a").unwrap();
        let journal = dir.path().join("in-flight.json");
        assert!(
            Shared::default()
                .apply(0, &journal, &file, "m", "a", "b")
                .is_err()
        );
        assert!(!journal.exists());

        fs::write(&file, "mutated").unwrap();
        Journal {
            file: file.clone(),
            original: "original\n".to_owned(),
            id: "m".to_owned(),
            pid: 1,
        }
        .write(&journal)
        .unwrap();
        let messages = recover_stale_journals(dir.path()).unwrap();
        assert_eq!(messages.len(), 1);
        assert_eq!(fs::read_to_string(&file).unwrap(), "original\n");
        assert!(!journal.exists());
    }
}
