//! The seam between the advisor and where its once-per-agent facts live.
//!
//! The advisor keeps every fact in its own in-process [`Ledger`]. A deployment
//! whose agents' calls reach several processes (one process per hook event,
//! or many workers behind one fleet) also hands it a shared [`LedgerStore`]:
//! an on-disk store for hooks, a Redis store for fleets. The advisor asks the
//! store only when a family recognized a failure and wants to speak (or
//! disclose a withhold), when the fail-fast budget counts, admits or re-arms
//! a call, and at `agent_end`. An event that matches nothing never reaches it.
//!
//! A store answers three things:
//! - [`claim`](LedgerStore::claim): take a once-per-agent [`Slot`]; of racing
//!   claims, across every process sharing the store, exactly one is
//!   [`Claim::First`];
//! - [`forget`](LedgerStore::forget): drop everything about an agent;
//! - [`edit_budget`](LedgerStore::edit_budget): read, change and write back
//!   one agent's [`BudgetRecord`] atomically. The budget's rules live in
//!   the record; a store only keeps its bytes ([`BudgetRecord::encode`]).
//!
//! A store that fails answers `Err`. The advisor then answers from its own
//! ledger, so the tool pipeline is never blocked, and within one process an
//! advisory is never delivered twice whatever the store says.

use crate::family::Seat;
use crate::ids::{AgentId, FamilyId};

use crate::budget::BudgetRecord;
use crate::digest::{Digest, DigestWriter};

/// The answer to a claim on a once-per-agent slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// This claim took the slot: deliver (or disclose) now.
    First,
    /// An earlier claim took it: stay silent.
    Again,
}

/// One once-per-agent slot: an advisory's seat, or the disclosure of one
/// withhold reason in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The family.
    pub family: FamilyId,
    /// The seat.
    pub seat: Seat,
    /// `Some(code)` for the disclosure of a withhold reason.
    pub disclosure: Option<&'static str>,
}

impl Slot {
    /// The advisory seat of `family`.
    pub fn advisory(family: FamilyId, seat: Seat) -> Self {
        Self {
            family,
            seat,
            disclosure: None,
        }
    }

    /// The disclosure of the withhold reason `code`.
    pub fn disclosure(family: FamilyId, seat: Seat, code: &'static str) -> Self {
        Self {
            family,
            seat,
            disclosure: Some(code),
        }
    }

    /// A stable name for the slot, safe as a file name or a key part: only
    /// `[a-z0-9._-]` (capitals folded, anything else `_`), e.g. `acl.failure`
    /// or `acl.failure.withheld.no-session`.
    pub fn name(&self) -> String {
        let seat = match self.seat {
            Seat::Failure => "failure",
            Seat::Preflight => "preflight",
        };
        let mut name = format!("{}.{seat}", self.family.as_str());
        if let Some(code) = self.disclosure {
            name.push_str(".withheld.");
            name.push_str(code);
        }
        name.chars()
            .map(|c| match c {
                'a'..='z' | '0'..='9' | '.' | '-' => c,
                'A'..='Z' => c.to_ascii_lowercase(),
                _ => '_',
            })
            .collect()
    }
}

/// An agent as a store names it: 32 hex digits of the agent id's keyed
/// digest. The raw id (any text the harness sent) never becomes a file name
/// or a key; processes sharing a store share the key ([`crate::use_digest_key`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AgentKey(String);

impl AgentKey {
    /// The key of `agent` under this process's digest key.
    pub fn of(agent: &AgentId) -> Self {
        let mut writer = DigestWriter::new();
        writer.prefixed(b"agent");
        writer.prefixed(agent.as_str().as_bytes());
        Self(hex(writer.finish()))
    }

    /// The 32 hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn hex(digest: Digest) -> String {
    format!("{:032x}", digest.bits())
}

/// What an edit did to a [`BudgetRecord`]: a store writes the record back
/// only when it changed, and never creates one an edit left unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Nothing to write.
    Unchanged,
    /// Write the record back.
    Changed,
}

/// A shared store failed (unreachable, timed out, refused, unreadable state).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{store} ledger: {what}")]
pub struct StoreFault {
    /// Which store (`file`, `redis`, …).
    pub store: &'static str,
    /// What went wrong, in one line.
    pub what: String,
}

impl StoreFault {
    /// A fault of `store`.
    pub fn new(store: &'static str, what: impl std::fmt::Display) -> Self {
        Self {
            store,
            what: what.to_string(),
        }
    }
}

/// Where once-per-agent facts are kept beyond one process. See the module
/// documentation for when the advisor calls it.
pub trait LedgerStore: Send + Sync {
    /// A short name for the host log (`file`, `redis`).
    fn name(&self) -> &'static str;

    /// The store in words, for the host log line that says who answers
    /// while the store before it is down (`the on-disk store`). Default:
    /// [`name`](Self::name).
    fn described(&self) -> &'static str {
        self.name()
    }

    /// Claims `slot` for `agent`: exactly one of racing claims, across every
    /// process sharing the store, is [`Claim::First`].
    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault>;

    /// Forgets everything about `agent`.
    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault>;

    /// Loads `agent`'s budget record (an empty one when there is none), runs
    /// `edit` on it, and writes it back when the edit says
    /// [`Edit::Changed`] — atomically with respect to every other edit of the
    /// same agent's record. A store that retries (optimistic locking) may run
    /// `edit` more than once, each time on a freshly loaded record; the last
    /// run is the one that counts.
    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault>;
}
