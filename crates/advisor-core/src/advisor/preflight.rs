//! The pre-flight seat: verdicts computed per session, delivered once per agent.
//!
//! A session's verdicts are remembered together with the policy source's
//! [`revision`](crate::PolicySource::revision) for that session, and computed
//! again when it changes: the pre-flight reads the session as it is now (its
//! mode, its root), not as it was when its first agent started.
//!
//! Only the host's own families are asked
//! ([`Registry::preflight_families`](crate::Registry::preflight_families)),
//! through the same host filter that shows the failure seat its observations.

use std::sync::Arc;

use super::{Advisor, Context, PostDecision, Verdicts, guarded};
use crate::disclosure;
use crate::family::{PreflightVerdict, Seat};
use crate::ids::{AgentId, FamilyId, SessionId};
use crate::ledger::{Claim, Slot};
use crate::observation::Observation;

impl Advisor {
    /// Session start (pre-flight seat): advisories and disclosures for the agent, before anything failed.
    pub async fn session_start(
        &self,
        agent: &AgentId,
        session: Option<&SessionId>,
        ctx: &Context<'_>,
    ) -> PostDecision {
        let mut decision = PostDecision::default();
        if self.registry.preflight_families(ctx.host).next().is_some() {
            let verdicts = self.session_verdicts(session, ctx).await;
            self.deliver_preflight(agent, &verdicts, &mut decision);
        }
        decision
    }

    pub(super) async fn preflight_on_call(
        &self,
        observation: &Observation,
        ctx: &Context<'_>,
        decision: &mut PostDecision,
    ) {
        if self.registry.preflight_families(ctx.host).next().is_none() {
            return;
        }
        // The common case: the session's verdicts are known and current. Deliver
        // under the memo's read guard, without cloning the shared Arc.
        let session = observation.session.as_ref();
        let revision = session.and_then(|s| ctx.policy.revision(s));
        let delivered = session.and_then(|s| {
            self.sessions.read(s, |(at, verdicts)| {
                (*at == revision)
                    .then(|| self.deliver_preflight(&observation.agent, verdicts, decision))
            })
        });
        if delivered.flatten().is_some() {
            return;
        }
        let verdicts = self
            .session_verdicts(observation.session.as_ref(), ctx)
            .await;
        self.deliver_preflight(&observation.agent, &verdicts, decision);
    }

    async fn session_verdicts(&self, session: Option<&SessionId>, ctx: &Context<'_>) -> Verdicts {
        let revision = session.and_then(|s| ctx.policy.revision(s));
        let current = session.and_then(|s| {
            self.sessions.read(s, |(at, verdicts)| {
                (*at == revision).then(|| Arc::clone(verdicts))
            })
        });
        if let Some(verdicts) = current.flatten() {
            return verdicts;
        }
        let env = self.environment(ctx.host, self.resolve(session, None, ctx).await);
        let verdicts: Verdicts = Arc::new(
            self.registry
                .preflight_families(ctx.host)
                .filter_map(|f| guarded(f.id(), "preflight", || (f.id(), f.preflight(&env))))
                .collect(),
        );
        match session {
            // A racing call may have remembered the session first under the same
            // revision: keep its verdicts. Verdicts from another revision are replaced.
            Some(session) => self.sessions.upsert(
                session,
                || (revision, Arc::clone(&verdicts)),
                |(at, remembered)| {
                    if *at != revision {
                        *at = revision;
                        *remembered = Arc::clone(&verdicts);
                    }
                    Arc::clone(remembered)
                },
            ),
            None => verdicts,
        }
    }

    fn deliver_preflight(
        &self,
        agent: &AgentId,
        verdicts: &[(FamilyId, PreflightVerdict)],
        decision: &mut PostDecision,
    ) {
        for (family, verdict) in verdicts {
            if let PreflightVerdict::Clear = verdict {
                continue; // nothing to deliver: the ledger is not consulted
            }
            // On every call after the first, the agent already has its pre-flight
            // answer: check under the shared lock before taking the exclusive one.
            let settled = match verdict {
                PreflightVerdict::Clear => true,
                PreflightVerdict::Advise(_) => self
                    .books
                    .has_claimed(agent, &Slot::advisory(*family, Seat::Preflight)),
                PreflightVerdict::Withhold(reason) => self.books.has_claimed(
                    agent,
                    &Slot::disclosure(*family, Seat::Preflight, reason.code()),
                ),
            };
            if settled {
                continue;
            }
            match verdict {
                PreflightVerdict::Clear => {}
                PreflightVerdict::Advise(advisory) => {
                    let seat = Slot::advisory(*family, Seat::Preflight);
                    if self.books.claim(agent, &seat) == Claim::First {
                        disclosure::spoken(
                            agent,
                            *family,
                            Seat::Preflight,
                            advisory.summary.as_str(),
                        );
                        decision
                            .additional_contexts
                            .push(self.as_configured(advisory.clone()));
                    }
                }
                PreflightVerdict::Withhold(reason) => self.disclose(
                    agent,
                    *family,
                    Seat::Preflight,
                    (reason.clone(), None),
                    &mut decision.withheld,
                ),
            }
        }
    }
}
