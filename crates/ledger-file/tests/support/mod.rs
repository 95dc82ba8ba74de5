//! Shared by the tests: a store under the tests' fixed key, a budget edit
//! that counts, and child processes (this test binary run again in a role).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use advisor_core::{AgentId, BudgetRecord, Edit, FamilyId, LedgerStore, RecordOwner, Seat, Slot};
use ledger_file::{FileLimits, FileStore};

#[cfg(unix)]
pub mod hostile;

/// Every store in these tests digests under this key, so the tests of one
/// binary (one process, one digest key) can each use their own directory.
pub const TEST_KEY: &str = "000102030405060708090a0b0c0d0e0f";

/// The environment variable that puts the test binary in a child role.
pub const ROLE: &str = "LEDGER_FILE_TEST_ROLE";
/// The prefix of a child's answer lines on stdout.
pub const ANSWER: &str = "ledger-file-child:";

/// A store in `dir` under [`TEST_KEY`], adopted as this process's key.
pub fn store_at(dir: &Path, limits: FileLimits) -> FileStore {
    let store = FileStore::open(dir, limits).unwrap();
    let key = store.root().join("key");
    if !key.exists() {
        fs::write(&key, TEST_KEY).unwrap();
    }
    store.adopt_digest_key().unwrap();
    store
}

pub fn store(dir: &Path) -> FileStore {
    store_at(dir, FileLimits::default())
}

pub fn slot() -> Slot {
    Slot::advisory(FamilyId::new("acl-provisioning"), Seat::Failure)
}

pub fn agent(name: impl AsRef<str>) -> AgentId {
    AgentId::new(name)
}

/// Where the failure count sits in the documented layout (byte 0 the
/// version, bytes 1..17 the owner, then the count, little-endian).
pub const COUNT: std::ops::Range<usize> = 17..21;

/// The owner the helpers encode under to reach a record's bytes (any owner
/// reads its own bytes back).
pub fn layout_owner() -> RecordOwner {
    RecordOwner::of(&AgentId::new("layout"))
}

/// Adds one to the record's failure count through its documented layout,
/// yielding in between so an edit that is not exclusive loses updates.
pub fn increment(record: &mut BudgetRecord) -> Edit {
    let mut bytes = record.encode(layout_owner());
    let count = u32::from_le_bytes(bytes[COUNT].try_into().unwrap());
    std::thread::yield_now();
    bytes[COUNT].copy_from_slice(&(count + 1).to_le_bytes());
    *record = BudgetRecord::decode(&bytes, layout_owner()).unwrap();
    Edit::Changed
}

/// The failure count of `agent`'s record.
pub fn failures(store: &dyn LedgerStore, agent: &AgentId) -> u32 {
    let mut count = None;
    store
        .edit_budget(agent, &mut |record| {
            let bytes = record.encode(layout_owner());
            count = Some(u32::from_le_bytes(bytes[COUNT].try_into().unwrap()));
            Edit::Unchanged
        })
        .unwrap();
    count.unwrap()
}

/// Waits (polling) until `path` exists; false after a minute.
pub fn wait_for(path: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !path.exists() {
        if Instant::now() > deadline {
            return false;
        }
        sleep(Duration::from_micros(50));
    }
    true
}

/// A start line: everyone waiting on it starts when the test says so.
pub struct Start {
    dir: PathBuf,
}

impl Start {
    pub fn new(dir: &Path) -> Self {
        fs::create_dir_all(dir).unwrap();
        Self {
            dir: dir.to_owned(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn go_file(dir: &Path, round: usize) -> PathBuf {
        dir.join(format!("go.{round}"))
    }

    pub fn go(&self, round: usize) {
        fs::write(Self::go_file(&self.dir, round), "").unwrap();
    }

    /// Waits until `n` children said they are ready.
    pub fn await_ready(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = fs::read_dir(&self.dir)
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with("ready.")
                })
                .count();
            if ready >= n {
                return;
            }
            assert!(Instant::now() < deadline, "{ready} of {n} children ready");
            sleep(Duration::from_millis(1));
        }
    }
}

/// Runs this test binary again as a child in `role` (its `child` test).
pub fn spawn_child(role: &str, vars: &[(&str, String)]) -> Child {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    for (name, value) in vars {
        command.env(name, value);
    }
    command.spawn().unwrap()
}

/// A child's answer lines, without the prefix.
pub fn answers(child: Child) -> Vec<String> {
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "child failed: {:?}", output.status);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        // libtest may print `test child ... ` on the same line first.
        .filter_map(|line| line.split_once(ANSWER))
        .map(|(_, answer)| answer.trim().to_owned())
        .collect()
}

pub fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"))
}
