//! The advisor over the file store, after advisor-core's tests/store.rs:
//! two advisors on one directory stand for two processes sharing it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::sync::Arc;

use advisor_core::testing::store::{
    advised_once_across_processes, budget_shared_across_processes, ok, post, pre, process,
};
use ledger_file::{FileLimits, FileStore};
use serde_json::json;
use support::*;

/// A "process": its own store handle on `dir`, its own advisor.
fn on(dir: &Path, config: serde_json::Value) -> advisor_core::Advisor {
    process(Arc::new(store_at(dir, FileLimits::default())), config)
}

#[test]
fn two_processes_sharing_a_directory_advise_an_agent_once() {
    let tmp = tempfile::tempdir().unwrap();
    advised_once_across_processes(|| Arc::new(store_at(tmp.path(), FileLimits::default())));
}

#[test]
fn the_budget_is_shared_between_processes() {
    let tmp = tempfile::tempdir().unwrap();
    budget_shared_across_processes(|| Arc::new(store_at(tmp.path(), FileLimits::default())));
}

#[test]
fn pre_calls_of_an_agent_that_never_failed_leave_nothing_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let advisor = on(tmp.path(), json!({"enforceAfter": 1}));
    for i in 0..50 {
        assert!(!pre(&advisor, &format!("a{i}"), &format!("p{i}")));
        assert_eq!(post(&advisor, ok(&format!("a{i}"), &format!("s{i}"))), 0);
    }
    let agents = FileStore::open(tmp.path(), FileLimits::default())
        .unwrap()
        .root()
        .join("agents");
    assert_eq!(std::fs::read_dir(agents).unwrap().count(), 0);
}
