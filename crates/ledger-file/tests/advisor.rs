//! The advisor over the file store, after advisor-core's tests/store.rs:
//! two advisors on one directory stand for two processes sharing it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::sync::Arc;

use advisor_core::{AgentId, LedgerStore};
use ledger_file::{FileLimits, FileStore};
use serde_json::json;
use support::families::*;
use support::*;

/// A "process": its own store handle on `dir`, its own advisor.
fn process(dir: &Path, config: serde_json::Value) -> advisor_core::Advisor {
    let store = store_at(dir, FileLimits::default());
    advisor(Arc::new(store) as Arc<dyn LedgerStore>, config)
}

#[test]
fn two_processes_sharing_a_directory_advise_an_agent_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (
        process(tmp.path(), json!({})),
        process(tmp.path(), json!({})),
    );
    assert_eq!(post(&one, fail("a1", "c1", "ALPHA")), 1);
    assert_eq!(
        post(&two, fail("a1", "c2", "ALPHA")),
        0,
        "the store said again"
    );
    assert_eq!(post(&two, fail("a2", "c3", "ALPHA")), 1, "another agent");
    two.agent_end(&AgentId::new("a1"));
    assert_eq!(
        post(&one, fail("a1", "c5", "ALPHA")),
        0,
        "one still remembers"
    );
    let three = process(tmp.path(), json!({}));
    assert_eq!(
        post(&three, fail("a1", "c6", "ALPHA")),
        1,
        "forgotten in the store"
    );
    assert_eq!(post(&three, fail("a2", "c7", "ALPHA")), 0, "a2 was not");
}

#[test]
fn the_budget_is_shared_between_processes() {
    let tmp = tempfile::tempdir().unwrap();
    let config = json!({"enforceAfter": 1, "maxDenials": 2});
    let (one, two) = (
        process(tmp.path(), config.clone()),
        process(tmp.path(), config),
    );
    post(&one, fail("a1", "c1", "PROVISIONING"));
    assert!(pre(&two, "a1", "p1"), "refused in the other process");
    assert!(pre(&one, "a1", "p2"));
    assert!(
        !pre(&two, "a1", "p3"),
        "two refusals per episode, across processes"
    );
    assert!(!pre(&one, "a2", "p4"), "another agent");
    post(&two, ok("a1", "s1"));
    assert!(!pre(&one, "a1", "p5"), "a success stops watching the call");
    post(&two, fail("a1", "c2", "PROVISIONING"));
    assert!(pre(&one, "a1", "p6"), "and re-armed the episode's refusals");
    assert!(pre(&two, "a1", "p7"));
    assert!(!pre(&one, "a1", "p8"));
}

#[test]
fn pre_calls_of_an_agent_that_never_failed_leave_nothing_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let advisor = process(tmp.path(), json!({"enforceAfter": 1}));
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
