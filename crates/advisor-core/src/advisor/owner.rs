//! One owner's decision on a settled call: its facts and provenance, the
//! fail-fast count, the policy, then its gate (which may defer).

use super::{Advisor, Context, PostDecision, guarded};
use crate::budget::BudgetCall;
use crate::disclosure;
use crate::environment::{PolicyNeed, SandboxMode};
use crate::family::{Gate, Seat};
use crate::ledger::{Claim, Slot};
use crate::observation::Observation;
use crate::provenance::Provenance;
use crate::registry::Owner;
use crate::tool::ToolClass;

impl Advisor {
    /// One owner's decision on a settled call, into `decision`; the owner's
    /// position when its gate deferred.
    pub(super) async fn decide_owner(
        &self,
        owner: &Owner<'_>,
        observation: &Observation,
        approved_mode: Option<SandboxMode>,
        ctx: &Context<'_>,
        decision: &mut PostDecision,
    ) -> Option<usize> {
        let (family, agent) = (owner.family, &observation.agent);
        // Only on a host it was registered fail-fast for (`fail_fast_family_where`).
        let counts = owner.finding.feeds_budget()
            && self.registry.fail_fast_family_on(ctx.host.kind) == Some(family)
            && self.config.enforce_after > 0
            && ToolClass::of(&observation.tool).can_carry_sandbox_failure();
        let seat = Slot::advisory(family, Seat::Failure);
        let claimed = self.books.has_claimed(agent, &seat);
        if claimed && !counts {
            return None;
        }
        let (mut env, provenance) = self.proven(owner, ctx.host);
        // Fail-fast denial requires provenance: a failure a program's own
        // output could have printed never counts toward `enforceAfter`.
        if counts && provenance.is_proven() {
            self.books
                .count_failure(agent, &BudgetCall::of(observation));
        }
        if claimed {
            return None;
        }
        if let Provenance::Refuted(code) = provenance {
            tracing::debug!(target: "sandbox_advisor::declined", agent = %crate::quote::log_field(agent.as_str()), family = %family, code, "refuted by a check outside the sandbox");
            return None;
        }
        let need = guarded(family, "policy_need", || {
            owner.finding.policy_need(ctx.host)
        })?;
        if need == PolicyNeed::Required {
            env.policy = self
                .resolve(observation.session.as_ref(), approved_mode, ctx)
                .await;
        }
        match guarded(family, "gate", || owner.finding.gate(&env))? {
            Gate::Speak => {
                let advisory = guarded(family, "advise", || owner.finding.advise(&env))?;
                if self.books.claim(agent, &seat) == Claim::First {
                    disclosure::spoken(agent, family, Seat::Failure, advisory.summary.as_str());
                    decision
                        .additional_contexts
                        .push(self.as_configured(advisory));
                }
            }
            Gate::Withhold(reason) => {
                let diagnosis = guarded(family, "diagnose", || owner.finding.diagnose(&env))
                    .map(crate::Diagnosis::at_most_suspected);
                self.disclose(
                    agent,
                    family,
                    Seat::Failure,
                    (reason, diagnosis),
                    &mut decision.withheld,
                )
            }
            Gate::Decline(code) => {
                tracing::debug!(target: "sandbox_advisor::declined", agent = %crate::quote::log_field(agent.as_str()), family = %family, code, "not this family's story");
            }
            Gate::Defer(code) => {
                tracing::debug!(target: "sandbox_advisor::declined", agent = %crate::quote::log_field(agent.as_str()), family = %family, code, "deferred to the next family that recognizes it");
                return Some(owner.position);
            }
        }
        None
    }
}
