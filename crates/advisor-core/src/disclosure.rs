//! The host log: `tracing` events on documented targets, never `println!`.
//!
//! | target | level | when |
//! |---|---|---|
//! | `sandbox_advisor::advisory` | info | an advisory was delivered (once per agent, family and seat) |
//! | `sandbox_advisor::withheld` | warn | an advisory was withheld (once per agent, family, seat and reason) |
//! | `sandbox_advisor::fail_fast` | warn | a call was refused before dispatch |
//! | `sandbox_advisor::fault` | error | a family panicked; the call passes through untouched |
//! | `sandbox_advisor::ledger` | warn / info | a shared ledger store went down (once per outage) / came back |

//!
//! Every value that did not come from the advisor (agent ids, tool names,
//! resolver messages, a store's fault) is a field written through
//! [`log_field`], one logfmt value, so a space, `=`, quote, newline or escape
//! sequence in it can neither add a field, start a forged line nor reach a
//! terminal. Messages are the advisor's own constant words.

use crate::family::{Seat, WithholdReason};
use crate::ids::{AgentId, FamilyId, ToolName};
use crate::quote::log_field;

/// Target of the line logged when an advisory is delivered.
pub const ADVISORY_TARGET: &str = "sandbox_advisor::advisory";
/// Target of the disclosure logged when an advisory is withheld.
pub const WITHHELD_TARGET: &str = "sandbox_advisor::withheld";
/// Target of the line logged when a call is refused before dispatch.
pub const FAIL_FAST_TARGET: &str = "sandbox_advisor::fail_fast";
/// Target of the line logged when a family's code panicked.
pub const FAULT_TARGET: &str = "sandbox_advisor::fault";

pub(crate) fn spoken(agent: &AgentId, family: FamilyId, seat: Seat, summary: &str) {
    tracing::info!(
        target: ADVISORY_TARGET,
        agent = %log_field(agent.as_str()), family = %family, seat = ?seat,
        summary = %log_field(summary),
        "advisory delivered"
    );
}

pub(crate) fn withheld(agent: &AgentId, family: FamilyId, seat: Seat, reason: &WithholdReason) {
    tracing::warn!(
        target: WITHHELD_TARGET,
        agent = %log_field(agent.as_str()), family = %family, seat = ?seat, reason = reason.code(),
        detail = %log_field(&reason.to_string()),
        "advisory withheld"
    );
}

pub(crate) fn refused(agent: &AgentId, tool: &ToolName, family: FamilyId, left: u32) {
    tracing::warn!(
        target: FAIL_FAST_TARGET,
        agent = %log_field(agent.as_str()), tool = %log_field(tool.as_str()), family = %family,
        refusals_left = left,
        "refused a call that already failed provisioning"
    );
}

pub(crate) fn family_fault(family: FamilyId, stage: &'static str) {
    tracing::error!(target: FAULT_TARGET, family = %family, stage, "family panicked; the call passes through unchanged");
}

/// Target of the lines logged when a shared ledger store goes down or comes back.
pub const LEDGER_TARGET: &str = "sandbox_advisor::ledger";

/// Who answers when the last shared store is down: the in-process ledger.
pub(crate) const OWN_LEDGER: &str = "this process's own in-memory ledger";

/// A store's outage, and who answers meanwhile: `fallback`, the next store
/// described ([`crate::LedgerStore::described`]), or [`OWN_LEDGER`].
pub(crate) fn store_down(
    store: &'static str,
    fault: &crate::StoreFault,
    retry: std::time::Duration,
    fallback: &str,
) {
    tracing::warn!(
        target: LEDGER_TARGET,
        store, retry_ms = retry.as_millis() as u64, fault = %log_field(&fault.what),
        "shared ledger unavailable; answering from {fallback} until it is back"
    );
}

pub(crate) fn store_up(store: &'static str) {
    tracing::info!(target: LEDGER_TARGET, store, "shared ledger reachable again; answering from it");
}
