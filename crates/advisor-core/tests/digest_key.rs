//! The process's digest key: deferred to the first digest when a source is
//! set, chosen once, and never changed afterwards. (One test: the key is
//! process-wide, so this binary holds nothing else.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use advisor_core::{
    AgentId, AgentKey, DigestKey, digest_key_from, digest_key_in_use, use_digest_key,
};

static ASKED: AtomicUsize = AtomicUsize::new(0);

#[test]
fn the_source_runs_once_at_the_first_digest_and_the_key_then_stays() {
    let shared = DigestKey::from_hex("000102030405060708090a0b0c0d0e0f").unwrap();
    digest_key_from(move || {
        ASKED.fetch_add(1, SeqCst);
        shared
    })
    .unwrap();
    assert_eq!(ASKED.load(SeqCst), 0, "nothing digested yet, nothing asked");
    let first = AgentKey::of(&AgentId::new("a1"));
    assert_eq!(ASKED.load(SeqCst), 1);
    assert_eq!(digest_key_in_use(), shared);
    assert_eq!(AgentKey::of(&AgentId::new("a1")), first);
    assert_ne!(AgentKey::of(&AgentId::new("a2")), first);
    assert_eq!(ASKED.load(SeqCst), 1, "asked once");
    assert!(
        digest_key_from(DigestKey::random).is_err(),
        "too late for a source"
    );
    assert!(
        use_digest_key(DigestKey::random()).is_err(),
        "another key is refused"
    );
    assert!(use_digest_key(shared).is_ok(), "the same key again is fine");
    assert_eq!(first.as_str().len(), 32);
}
