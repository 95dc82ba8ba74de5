//! The ledger's edges the engine and store tests do not reach: what the
//! in-process ledger reports about itself, the slot names a shared store keys
//! by, how the backoff of a failing store grows and starts again after a
//! recovery, a shared store's refusal coming back to the process that made
//! it, and an agent already advised not being resolved again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::thread::sleep;
use std::time::Duration;

use advisor_core::testing::store::{fail, post, pre, process};
use advisor_core::{
    AgentId, BACKOFF_FIRST, BudgetRecord, Claim, Config, Edit, FamilyId, Ledger, LedgerStore,
    PolicyQuery, PolicySource, Registry, ResolvedPolicy, SandboxMode, Seat, Slot, StoreFault,
    Unresolved,
};
use serde_json::json;
use support::{Fake, LogCapture, Rule, ctx, linux, run};

/// How one `Ledger::new(capacity)` must describe itself: its capacity, and
/// the most agents it holds (`capacity + max(1, capacity / 8)`).
fn check_bounds(capacity: usize, limit: usize) {
    let ledger = Ledger::new(capacity);
    assert_eq!(
        ledger.capacity(),
        capacity,
        "capacity of Ledger::new({capacity})"
    );
    assert_eq!(ledger.limit(), limit, "limit of Ledger::new({capacity})");
}

#[test]
fn a_ledger_reports_the_bounds_it_was_made_with() {
    for (capacity, limit) in [(1, 2), (7, 8), (8, 9), (64, 72), (1000, 1125)] {
        check_bounds(capacity, limit);
    }
}

#[test]
fn a_ledger_is_empty_exactly_while_it_holds_no_agent() {
    let ledger = Ledger::new(16);
    let (one, two) = (AgentId::new("a1"), AgentId::new("a2"));
    let slot = Slot::advisory(FamilyId::new("alpha"), Seat::Failure);
    assert!(ledger.is_empty(), "a new ledger");
    assert_eq!(ledger.claim(&one, &slot), Ok(Claim::First));
    assert!(!ledger.is_empty(), "holding a1");
    assert_eq!(ledger.claim(&two, &slot), Ok(Claim::First));
    LedgerStore::forget(&ledger, &one).unwrap();
    assert!(!ledger.is_empty(), "still holding a2");
    LedgerStore::forget(&ledger, &two).unwrap();
    assert!(ledger.is_empty(), "both forgotten");
}

/// A harness that puts the in-process ledger behind its own stores logs it by
/// this name; it is the word the `ledger` setting selects it with.
#[test]
fn the_in_process_ledger_is_named_as_the_ledger_setting_names_it() {
    assert_eq!(LedgerStore::name(&Ledger::new(1)), "memory");
}

/// One slot and the name a store files it under.
fn check_slot_name(slot: Slot, expected: &str) {
    let name = slot.name();
    assert_eq!(name, expected, "{slot:?}");
    assert!(
        name.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b)),
        "{name:?} is not safe as a file name or a key part"
    );
}

/// The file store names a claim's file, and the Redis store its key, by
/// `Slot::name`: each slot gets its own name, and whatever a family id or a
/// withhold code holds, the name stays one safe path component. Capitals are
/// folded, so a file system that ignores case holds the same slots as one
/// that does not.
#[test]
fn every_slot_has_its_own_name_and_the_name_is_safe_on_disk() {
    let acl = FamilyId::new("acl");
    for (slot, expected) in [
        (Slot::advisory(acl, Seat::Failure), "acl.failure"),
        (Slot::advisory(acl, Seat::Preflight), "acl.preflight"),
        (
            Slot::disclosure(acl, Seat::Failure, "no-session"),
            "acl.failure.withheld.no-session",
        ),
        (
            Slot::disclosure(FamilyId::new("pty-v2"), Seat::Preflight, "resolver-error"),
            "pty-v2.preflight.withheld.resolver-error",
        ),
        (
            Slot::disclosure(acl, Seat::Failure, "No-Session"),
            "acl.failure.withheld.no-session",
        ),
        (
            Slot::disclosure(FamilyId::new("a/b"), Seat::Failure, "../x y\\z"),
            "a_b.failure.withheld..._x_y_z",
        ),
    ] {
        check_slot_name(slot, expected);
    }
}

/// A store (an in-memory ledger inside) that counts every consultation and
/// can be switched to fail.
struct Flaky {
    inner: Ledger,
    calls: AtomicUsize,
    failing: AtomicBool,
}

impl Flaky {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            inner: Ledger::new(1000),
            calls: AtomicUsize::new(0),
            failing: AtomicBool::new(false),
        })
    }

    fn touch(&self) -> Result<(), StoreFault> {
        self.calls.fetch_add(1, SeqCst);
        match self.failing.load(SeqCst) {
            true => Err(StoreFault::new("flaky", "connection refused")),
            false => Ok(()),
        }
    }

    fn calls(&self) -> usize {
        self.calls.load(SeqCst)
    }

    fn set_failing(&self, failing: bool) {
        self.failing.store(failing, SeqCst);
    }
}

impl LedgerStore for Flaky {
    fn name(&self) -> &'static str {
        "flaky"
    }
    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        self.touch()?;
        self.inner.claim(agent, slot)
    }
    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        self.touch()?;
        LedgerStore::forget(&self.inner, agent)
    }
    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        self.touch()?;
        self.inner.edit_budget(agent, edit)
    }
}

/// Slack on top of a backoff before the store is expected to be asked again.
const MARGIN: Duration = Duration::from_millis(100);

/// A failure for a new agent each time, so this process's own ledger always
/// lets the claim through to the store.
fn new_agent_fails(advisor: &advisor_core::Advisor, n: usize) -> usize {
    post(advisor, fail(&format!("a{n}"), &format!("c{n}"), "ALPHA"))
}

/// Only "skipped right after a failure" depends on timing, and there the
/// wait is hundreds of milliseconds against a few microseconds of work.
#[test]
fn a_second_failure_in_a_row_backs_off_longer_and_is_retried_after_it() {
    let store = Flaky::new();
    let advisor = process(store.clone(), json!({}));
    store.set_failing(true);
    assert_eq!(
        new_agent_fails(&advisor, 0),
        1,
        "answered from its own ledger"
    );
    assert_eq!(store.calls(), 1);
    sleep(BACKOFF_FIRST + MARGIN);
    assert_eq!(new_agent_fails(&advisor, 1), 1);
    assert_eq!(store.calls(), 2, "asked again once the first wait is over");
    assert_eq!(new_agent_fails(&advisor, 2), 1);
    assert_eq!(store.calls(), 2, "skipped right after the second failure");
    sleep(BACKOFF_FIRST * 2 + MARGIN);
    assert_eq!(new_agent_fails(&advisor, 3), 1);
    assert_eq!(
        store.calls(),
        3,
        "asked again once the doubled wait is over"
    );
}

/// After a recovery the next outage is a new one: disclosed again, and its
/// backoff starts from the first step, not from where the last outage ended.
/// The recovery itself is disclosed once, however many answers follow it.
#[test]
fn a_store_that_recovered_starts_its_next_outage_afresh() {
    let store = Flaky::new();
    let advisor = process(store.clone(), json!({}));
    let log = LogCapture::default();
    log.scoped(|| {
        store.set_failing(true);
        new_agent_fails(&advisor, 0);
        sleep(BACKOFF_FIRST + MARGIN);
        new_agent_fails(&advisor, 1);
        assert_eq!(store.calls(), 2, "two failures in a row");
        store.set_failing(false);
        sleep(BACKOFF_FIRST * 2 + MARGIN);
        assert_eq!(new_agent_fails(&advisor, 2), 1);
        assert_eq!(new_agent_fails(&advisor, 3), 1);
        assert_eq!(store.calls(), 4, "answered twice after the recovery");
        assert_eq!(log.count("reachable again"), 1, "{}", log.text());
        store.set_failing(true);
        new_agent_fails(&advisor, 4);
        assert_eq!(store.calls(), 5);
        assert_eq!(
            log.count("shared ledger unavailable"),
            2,
            "the new outage is disclosed: {}",
            log.text()
        );
        sleep(BACKOFF_FIRST + MARGIN);
        new_agent_fails(&advisor, 5);
        assert_eq!(store.calls(), 6, "the new outage waits the first step only");
    });
}

/// The harness posts a refusal back as a failure of the refused call, to the
/// process that refused. When the refusal came from a shared store, that
/// process must still recognize it without asking: not answered, whatever
/// text it carries.
#[test]
fn a_refusal_made_through_a_shared_store_is_recognized_when_it_comes_back() {
    let store = Flaky::new();
    let advisor = process(store.clone(), json!({"enforceAfter": 1, "maxDenials": 5}));
    assert_eq!(post(&advisor, fail("a1", "c1", "PROVISIONING")), 1);
    assert!(pre(&advisor, "a1", "c2"), "refused by the shared budget");
    assert_eq!(
        post(&advisor, fail("a1", "c2", "ALPHA (refused)")),
        0,
        "answered its own refusal"
    );
    assert_eq!(
        post(&advisor, fail("a1", "c3", "ALPHA")),
        1,
        "an ordinary failure after it is answered"
    );
}

/// A policy source that counts the questions it is asked.
#[derive(Default)]
struct Counting(AtomicUsize);

#[async_trait::async_trait]
impl PolicySource for Counting {
    async fn resolve(&self, _: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.0.fetch_add(1, SeqCst);
        Ok(ResolvedPolicy {
            mode: SandboxMode::WorkspaceWrite,
            workspace_root: None,
        })
    }
}

/// Resolving a policy may be a round trip to the host's policy service: an
/// agent that already heard the family is silent before anyone is asked.
#[test]
fn an_agent_already_advised_is_not_resolved_again() {
    let advisor = support::advisor(
        Registry::builder().family(Fake::new("gated", "GATED", Rule::Confining)),
        Config::default(),
    );
    let (host, policy) = (linux(), Counting::default());
    let c = ctx(&host, &policy);
    let advised = run(async {
        let mut advised = Vec::new();
        for (agent, call) in [("a1", "c1"), ("a1", "c2"), ("a1", "c3"), ("a2", "c4")] {
            let d = advisor
                .post_execute(&support::fail(agent, call, "GATED"), None, &c)
                .await;
            advised.push(d.additional_contexts.len());
        }
        advised
    });
    assert_eq!(advised, [1, 0, 0, 1]);
    assert_eq!(policy.0.load(SeqCst), 2, "one question per agent");
}
