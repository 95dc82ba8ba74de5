//! The `LedgerStore` seam: when the advisor consults a shared store, what it
//! does with the answers, and what it does when the store fails. Two advisors
//! over one store stand for two processes sharing it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use advisor_core::testing::store::{
    advised_once_across_processes, budget_shared_across_processes, fail, ok, post, pre, process,
    process_with,
};
use advisor_core::{
    Advisor, AgentId, BudgetRecord, Claim, Edit, Ledger, LedgerStore, RECORD_MAX_BYTES,
    RecordOwner, Slot, StoreFault,
};
use serde_json::{Value, json};
use support::LogCapture;

/// A store (an in-memory ledger inside) that counts every consultation and
/// can be switched to fail.
struct Watched {
    inner: Ledger,
    calls: AtomicUsize,
    failing: AtomicBool,
}

impl Watched {
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
            true => Err(StoreFault::new("watched", "connection refused")),
            false => Ok(()),
        }
    }

    fn calls(&self) -> usize {
        self.calls.load(SeqCst)
    }
}

impl LedgerStore for Watched {
    fn name(&self) -> &'static str {
        "watched"
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

fn watched(store: &Arc<Watched>, config: Value) -> Advisor {
    process(store.clone(), config)
}

#[test]
fn an_event_that_matches_nothing_never_reaches_the_store() {
    for config in [json!({}), json!({"enforceAfter": 1})] {
        let store = Watched::new();
        let advisor = watched(&store, config.clone());
        for i in 0..200 {
            let unrelated = fail(
                &format!("a{i}"),
                &format!("c{i}"),
                "npm ERR! missing script: test",
            );
            assert_eq!(post(&advisor, unrelated), 0);
        }
        assert_eq!(store.calls(), 0, "unmatched failures, config {config}");
        if config == json!({}) {
            for i in 0..200 {
                assert_eq!(post(&advisor, ok(&format!("a{i}"), &format!("s{i}"))), 0);
                assert!(!pre(&advisor, &format!("a{i}"), &format!("p{i}")));
            }
            assert_eq!(store.calls(), 0, "successes and pre calls without a budget");
        }
    }
}

#[test]
fn two_processes_sharing_a_store_advise_an_agent_once() {
    let store = Watched::new();
    advised_once_across_processes(|| store.clone());
    let (one, two) = (watched(&store, json!({})), watched(&store, json!({})));
    assert_eq!(post(&one, fail("b1", "c1", "ALPHA")), 1);
    assert_eq!(post(&two, fail("b1", "c2", "ALPHA")), 0);
    let asked = store.calls();
    assert_eq!(post(&two, fail("b1", "c3", "ALPHA")), 0);
    assert_eq!(post(&one, fail("b1", "c4", "ALPHA")), 0);
    assert_eq!(
        store.calls(),
        asked,
        "a slot this process saw taken is not asked again"
    );
}

/// A store that holds its first claim until the test lets it go, then
/// answers first; every later claim is again at once.
struct HeldFirst {
    claims: AtomicUsize,
    entered: Mutex<mpsc::Sender<()>>,
    release: Mutex<mpsc::Receiver<()>>,
}

impl LedgerStore for HeldFirst {
    fn name(&self) -> &'static str {
        "held-first"
    }
    fn claim(&self, _: &AgentId, _: &Slot) -> Result<Claim, StoreFault> {
        if self.claims.fetch_add(1, SeqCst) > 0 {
            return Ok(Claim::Again);
        }
        self.entered.lock().unwrap().send(()).unwrap();
        let released = self.release.lock().unwrap().recv_timeout(WAIT);
        released.map_err(|_| StoreFault::new("held-first", "never released"))?;
        Ok(Claim::First)
    }
    fn forget(&self, _: &AgentId) -> Result<(), StoreFault> {
        Ok(())
    }
    fn edit_budget(
        &self,
        _: &AgentId,
        _: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        Ok(())
    }
}

const WAIT: Duration = Duration::from_secs(10);

/// Two threads of one process post the same failure; the store makes the
/// first one first but answers it only after the second thread is done.
/// The thread the store made first must still speak: one advisory, not none.
#[test]
fn of_one_process_s_racing_threads_the_one_the_store_made_first_speaks() {
    let (entered, reached) = mpsc::channel();
    let (release, held) = mpsc::channel();
    let store = Arc::new(HeldFirst {
        claims: AtomicUsize::new(0),
        entered: Mutex::new(entered),
        release: Mutex::new(held),
    });
    let advisor = process(store.clone(), json!({}));
    let advised = std::thread::scope(|scope| {
        let first = scope.spawn(|| post(&advisor, fail("a1", "c1", "ALPHA")));
        reached
            .recv_timeout(WAIT)
            .expect("the first thread asks the store");
        let second = post(&advisor, fail("a1", "c2", "ALPHA"));
        release.send(()).unwrap();
        first.join().unwrap() + second
    });
    assert_eq!(advised, 1, "exactly one of the racing threads speaks");
    assert_eq!(
        store.claims.load(SeqCst),
        1,
        "only one thread asked the store"
    );
}

#[test]
fn a_failing_store_never_blocks_never_repeats_and_is_disclosed_once_per_outage() {
    let store = Watched::new();
    let advisor = watched(&store, json!({}));
    let log = LogCapture::default();
    log.scoped(|| {
        store.failing.store(true, SeqCst);
        assert_eq!(
            post(&advisor, fail("a1", "c1", "ALPHA")),
            1,
            "answered from its own ledger"
        );
        assert_eq!(
            post(&advisor, fail("a1", "c2", "ALPHA")),
            0,
            "and never twice"
        );
        for i in 0..20 {
            assert_eq!(post(&advisor, fail(&format!("b{i}"), "c", "ALPHA")), 1);
        }
        assert_eq!(store.calls(), 1, "skipped during the backoff");
        assert_eq!(log.count("shared ledger unavailable"), 1, "{}", log.text());
        // Still down when the backoff ends: asked again and failing again,
        // in the same outage, which is not disclosed a second time.
        std::thread::sleep(advisor_core::BACKOFF_FIRST * 2);
        assert_eq!(post(&advisor, fail("b20", "c", "ALPHA")), 1);
        assert_eq!(store.calls(), 2, "asked again after the backoff");
        assert_eq!(log.count("shared ledger unavailable"), 1, "{}", log.text());
        store.failing.store(false, SeqCst);
        // The second failure's backoff is twice the first.
        std::thread::sleep(advisor_core::BACKOFF_FIRST * 3);
        assert_eq!(
            post(&advisor, fail("a1", "c3", "ALPHA")),
            0,
            "still once in this process"
        );
        assert_eq!(post(&advisor, fail("z1", "c4", "ALPHA")), 1);
        assert_eq!(log.count("reachable again"), 1, "{}", log.text());
        assert_eq!(log.count("shared ledger unavailable"), 1);
    });
    let other = watched(&store, json!({}));
    assert_eq!(
        post(&other, fail("z1", "c5", "ALPHA")),
        0,
        "recorded after recovery"
    );
}

#[test]
fn the_budget_is_shared_between_processes() {
    let store = Watched::new();
    budget_shared_across_processes(|| store.clone());
}

/// A stored record's sets in the documented layout (src/budget/codec.rs):
/// name, bound, bytes per entry, in the order they are stored.
const RECORD_SETS: [(&str, usize, usize); 5] = [
    ("watched calls, young", 64, 16),
    ("watched calls, old", 64, 16),
    ("refusals awaiting their failure", 16, 32),
    ("settled call ids, young", 64, 16),
    ("settled call ids, old", 64, 16),
];

fn owner() -> RecordOwner {
    RecordOwner::of(&AgentId::new("a1"))
}

/// A record with `lens[i]` distinct entries in set `i`, every byte present.
fn record_bytes(lens: [usize; 5]) -> Vec<u8> {
    let mut bytes = vec![2u8];
    // The owner, as `BudgetRecord::encode` writes it.
    bytes.extend_from_slice(&BudgetRecord::default().encode(owner())[1..17]);
    bytes.extend_from_slice(&3u32.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let mut next = 0u128;
    for ((_, _, size), len) in RECORD_SETS.iter().zip(lens) {
        bytes.extend_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
        for _ in 0..len * size / 16 {
            next += 1;
            bytes.extend_from_slice(&next.to_le_bytes());
        }
    }
    bytes
}

/// A store hands back whatever bytes it holds: a record is read only within
/// each set's bound, even when every byte of a longer set is there.
#[test]
fn a_stored_record_with_a_set_over_its_bound_is_refused() {
    let full: usize = 25
        + RECORD_SETS
            .iter()
            .map(|(_, n, size)| 2 + n * size)
            .sum::<usize>();
    assert_eq!(full, RECORD_MAX_BYTES, "the layout above is the codec's");
    assert!(BudgetRecord::decode(&record_bytes([64, 64, 16, 64, 64]), owner()).is_ok());
    for (i, (name, bound, _)) in RECORD_SETS.iter().enumerate() {
        let mut lens = [0; 5];
        lens[i] = *bound;
        let at_bound = BudgetRecord::decode(&record_bytes(lens), owner());
        assert!(at_bound.is_ok(), "{name} at its bound: {at_bound:?}");
        lens[i] = bound + 1;
        let over = BudgetRecord::decode(&record_bytes(lens), owner()).map(|_| ());
        assert_eq!(
            over.map_err(|e| e.to_string()),
            Err("stored budget record: a set is larger than its bound".to_owned()),
            "{name} one over its bound"
        );
    }
}

/// Issue 23 item 10, at the count: a provisioning failure of a tool that
/// starts no process is never counted (no `edit_budget`, only the advisory's
/// claim), and a `pre` for such a tool never asks the budget; a shell's is
/// counted and asked.
#[test]
fn a_non_process_tool_is_never_counted_or_asked() {
    // (tool, store calls for one failure, store calls for one pre)
    for (tool, on_failure, on_pre) in [("bash", 2, 1), ("web_fetch", 1, 0), ("read_file", 1, 0)] {
        let store = Watched::new();
        let advisor = watched(&store, json!({"enforceAfter": 2}));
        let mut o = fail("a1", "c1", "PROVISIONING");
        o.tool = tool.into();
        assert_eq!(post(&advisor, o), 1, "{tool}: advised");
        assert_eq!(store.calls(), on_failure, "{tool}: after the failure");
        let pending = advisor_core::PendingCall {
            agent: AgentId::new("a1"),
            session: None,
            call: advisor_core::CallId::new("c2"),
            tool: tool.into(),
            arguments: json!({"command": "echo hi"}),
        };
        assert!(advisor.pre_execute(&pending).refusal.is_none());
        assert_eq!(store.calls(), on_failure + on_pre, "{tool}: after the pre");
    }
}

/// A healthy [`Watched`] that describes itself, to stand behind a failing one.
struct Standby(Arc<Watched>);

impl LedgerStore for Standby {
    fn name(&self) -> &'static str {
        "standby"
    }
    fn described(&self) -> &'static str {
        "the standby store"
    }
    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        self.0.claim(agent, slot)
    }
    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        self.0.forget(agent)
    }
    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        self.0.edit_budget(agent, edit)
    }
}

/// The outage line says who answers meanwhile: the next store, described
/// (`LedgerStore::described`), else this process's own in-memory ledger
/// (issue 29: a hook said "its own ledger" while the on-disk store answered).
#[test]
fn an_outage_names_who_answers_meanwhile() {
    let own = "answering from this process's own in-memory ledger until it is back";
    let next = "answering from the standby store until it is back";
    for (standby, said, not) in [(false, own, next), (true, next, own)] {
        let failing = Watched::new();
        failing.failing.store(true, SeqCst);
        let mut stores: Vec<Arc<dyn LedgerStore>> = vec![failing];
        if standby {
            stores.push(Arc::new(Standby(Watched::new())));
        }
        let advisor = process_with(stores, json!({}));
        let log = LogCapture::default();
        log.scoped(|| {
            assert_eq!(post(&advisor, fail("a1", "c1", "ALPHA")), 1);
        });
        assert_eq!(log.count(said), 1, "{}", log.text());
        assert_eq!(log.count(not), 0, "{}", log.text());
    }
}

/// Issue 36 item 7: a record bound to another agent is read as absent and
/// said once per process at `warn`, naming where it was found (the key or the
/// file, as a logfmt field); later ones only at `debug`. The only test of
/// this binary that reads a foreign record: the once is per process.
#[test]
fn a_foreign_record_is_read_as_absent_and_logged_once() {
    let log = LogCapture::default();
    let record = BudgetRecord::default().encode(owner());
    let other = RecordOwner::of(&AgentId::new("a2"));
    log.scoped(|| {
        for at in ["sandbox-advisor:v1:{k}:budget:v2", "second place"] {
            assert_eq!(BudgetRecord::decode_stored(&record, other, at), Ok(None));
        }
    });
    let warned = "a budget record bound to another agent was read as absent";
    assert_eq!(log.count(warned), 1, "{}", log.text());
    assert_eq!(log.count("WARN"), 1, "{}", log.text());
    assert!(
        log.text().contains("at=sandbox-advisor:v1:{k}:budget:v2"),
        "{}",
        log.text()
    );
    assert!(log.text().contains("at=\"second place\""), "{}", log.text());
    assert_eq!(
        BudgetRecord::decode_stored(&record, owner(), "own").map(|r| r.is_some()),
        Ok(true)
    );
}
