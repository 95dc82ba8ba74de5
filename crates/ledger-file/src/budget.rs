//! The fail-fast budget record: read, edited and written back under the
//! agent's budget lock.
//!
//! The record is replaced whole: its bytes go to a temporary file in the
//! agent's directory, which is then renamed over `budget` (`rename` on Unix,
//! `MoveFileExW` with `MOVEFILE_REPLACE_EXISTING` on Windows), so a reader
//! sees the old record or the new one, never a mix. Nothing is flushed to
//! disk (a hook must answer in milliseconds): after a power loss a record may
//! be lost, or read back garbled and moved aside.
//!
//! A record is bound to its agent (advisor-core's codec, [`RecordOwner`]): a
//! record another agent's directory held, copied here, is read as absent,
//! logged once by the codec, and replaced by the edit's record or, when the
//! edit changes nothing, moved aside to `budget.corrupt` like a corrupt one.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Duration;

use advisor_core::{AgentId, BudgetRecord, Edit, RECORD_MAX_BYTES, RecordOwner};

use crate::claim::touch;
use crate::fault::{At, Fault, Replace, persist, retrying};
use crate::guard::{How, open};
use crate::layout::{BUDGET, BUDGET_CORRUPT, Layout, check_agent_dir};
use crate::lock::{Open, with_lock};

/// Loads `agent`'s record, runs `edit`, and writes the record back when it
/// says [`Edit::Changed`].
pub(crate) fn edit_budget(
    layout: &Layout,
    agent: &AgentId,
    edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    wait: Duration,
    touch_every: Duration,
) -> Result<(), Fault> {
    let dir = layout.agent(agent);
    let path = dir.join(BUDGET);
    // No record: an edit that changes nothing needs no lock and creates
    // nothing (most calls of an agent that never failed). Otherwise the edit
    // runs again on the record loaded under the lock; the last run counts.
    let absent =
        matches!(fs::symlink_metadata(&path), Err(e) if e.kind() == io::ErrorKind::NotFound);
    if absent && edit(&mut BudgetRecord::default()) == Edit::Unchanged {
        return Ok(());
    }
    let owner = RecordOwner::of(agent);
    check_agent_dir(&dir)?;
    with_lock(&dir, Open::Create, wait, || {
        let (mut record, foreign) = match load(&dir, &path, owner)? {
            Some(record) => (record, false),
            None => (BudgetRecord::default(), true),
        };
        match edit(&mut record) {
            Edit::Changed => save(&dir, &path, &record.encode(owner))?,
            Edit::Unchanged if foreign => {
                let aside = dir.join(BUDGET_CORRUPT);
                retrying(|| fs::rename(&path, &aside)).at("move aside", &path)?;
            }
            Edit::Unchanged => {}
        }
        Ok(())
    })?;
    touch(&dir, touch_every)
}

/// The record in `path` (an empty one when there is none); `None` for a
/// record bound to another agent. Bytes that are not a record are moved
/// aside to `budget.corrupt` and reported once; the next edit starts from an
/// empty record rather than failing forever.
fn load(dir: &Path, path: &Path, owner: RecordOwner) -> Result<Option<BudgetRecord>, Fault> {
    let mut bytes = Vec::with_capacity(256);
    match retrying(|| open(path, How::Read)) {
        // One byte more than any record tells a too-long file from a full record.
        Ok(file) => file
            .take(RECORD_MAX_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .at("read", path)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some(BudgetRecord::default())),
        Err(e) => return Err(e).at("open", path),
    };
    let why = if bytes.len() > RECORD_MAX_BYTES {
        "longer than any record".to_owned()
    } else {
        match BudgetRecord::decode_stored(&bytes, owner, &path.to_string_lossy()) {
            Ok(record) => return Ok(record),
            Err(e) => e.to_string(),
        }
    };
    let aside = dir.join(BUDGET_CORRUPT);
    retrying(|| fs::rename(path, &aside)).at("move aside", path)?;
    Err(Fault::CorruptRecord {
        path: path.to_owned(),
        aside,
        why,
    })
}

/// Replaces `path` with `bytes` in one atomic rename.
fn save(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), Fault> {
    let mut file = tempfile::Builder::new()
        .prefix(".budget")
        .make_in(dir, |path| open(path, How::CreatePrivate))
        .at("create a record in", dir)?;
    file.write_all(bytes).at("write", file.path())?;
    persist(file, path, Replace::Yes).at("replace", path)
}
