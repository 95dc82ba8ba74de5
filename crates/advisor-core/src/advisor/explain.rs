//! `explain`: every family's own verdict on one observation, ignoring the ledger.

use super::{Advisor, Context, Explanation};
use crate::environment::{PolicyNeed, PolicyState, SandboxMode};
use crate::family::Gate;
use crate::ids::FamilyId;
use crate::observation::Observation;
use crate::provenance::Provenance;

impl Advisor {
    /// Every family's verdict on one observation, ignoring the ledger (for `explain`).
    pub async fn explain(
        &self,
        observation: &Observation,
        approved_mode: Option<SandboxMode>,
        ctx: &Context<'_>,
    ) -> Vec<(FamilyId, Explanation)> {
        let mut owner: Option<FamilyId> = None;
        let mut out = Vec::new();
        for (family, finding) in self.registry.each_recognition(observation, ctx.host.kind) {
            let Some(finding) = finding else {
                out.push((family, Explanation::NotRecognized));
                continue;
            };
            if let Some(first) = owner {
                out.push((family, Explanation::Outranked(first)));
                continue;
            }
            owner = Some(family);
            let mut env = self.environment(ctx.host, PolicyState::NotConsulted);
            env.checks = self.checked(family, &*finding, ctx.host);
            if let Provenance::Refuted(code) = finding.provenance(&env) {
                out.push((family, Explanation::Declined(code)));
                continue;
            }
            if finding.policy_need(ctx.host) == PolicyNeed::Required {
                env.policy = self
                    .resolve(observation.session.as_ref(), approved_mode, ctx)
                    .await;
            }
            out.push((
                family,
                match finding.gate(&env) {
                    Gate::Speak => Explanation::Speaks(self.as_configured(finding.advise(&env))),
                    Gate::Withhold(reason) => {
                        Explanation::Withheld(reason, finding.diagnose(&env).at_most_suspected())
                    }
                    Gate::Decline(code) => Explanation::Declined(code),
                    Gate::Defer(code) => {
                        // The next family that recognizes it owns it instead.
                        owner = None;
                        Explanation::Deferred(code)
                    }
                },
            ));
        }
        out
    }
}
