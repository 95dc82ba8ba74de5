//! The engine: recognize → (resolve) → gate → ledger → advise, per event.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde_json::Value;

use crate::advisory::Advisory;
use crate::bounded::BoundedMap;
use crate::budget::{BudgetCall, BudgetLimits, BudgetVerdict};
use crate::checks::{HostChecks, HostProbe, NoProbe};
use crate::config::Config;
use crate::disclosure;
use crate::environment::{
    Environment, HostFacts, PolicyQuery, PolicySource, PolicyState, SandboxMode, Unresolved,
};
use crate::family::{PreflightVerdict, Seat, WithholdReason};
use crate::ids::{AgentId, CallId, FamilyId, SessionId, ToolName};
use crate::ledger::{Books, Claim, Ledger, LedgerStore, Slot};
use crate::observation::{Observation, Outcome};
use crate::registry::Registry;
use crate::tool::ToolClass;

mod checks;
mod explain;
mod owner;
mod preflight;

/// What the advisor may consult while deciding: the host and the policy service.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// Facts about the producing host.
    pub host: &'a HostFacts,
    /// The session policy service.
    pub policy: &'a dyn PolicySource,
}

/// A call about to be dispatched (the `tools/pre-execute` seat).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCall {
    /// The calling agent.
    pub agent: AgentId,
    /// The call's session, if any.
    pub session: Option<SessionId>,
    /// The call's id.
    pub call: CallId,
    /// The tool to be called.
    pub tool: ToolName,
    /// The canonical arguments.
    pub arguments: Value,
}

/// An advisory that was withheld, as disclosed on the host log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    /// The family that could not speak.
    pub family: FamilyId,
    /// The seat it would have spoken in.
    pub seat: Seat,
    /// Why.
    pub reason: WithholdReason,
    /// The finding's diagnosis, no surer than `suspected` (absent for a pre-flight,
    /// which has no finding).
    pub diagnosis: Option<crate::Diagnosis>,
}

/// The advisor's answer to a settled call: contexts to append, and disclosures.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostDecision {
    /// Advisories to append to the result's `additionalContexts`.
    pub additional_contexts: Vec<Advisory>,
    /// Advisories withheld for the first time (each also logged once).
    pub withheld: Vec<Withheld>,
}

/// The advisor's answer before dispatch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreDecision {
    /// Set when the call is refused.
    pub refusal: Option<Refusal>,
}

/// A refusal before dispatch (materialized by the harness as a `deny`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The family whose budget refused.
    pub family: FamilyId,
    /// The reason shown to the model.
    pub reason: String,
}

/// One family's view of one observation, for `explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Explanation {
    /// The family's recognizer did not match.
    NotRecognized,
    /// It matched, but a family earlier in precedence owns the observation.
    Outranked(FamilyId),
    /// It owns the observation and its gate declined.
    Declined(&'static str),
    /// It matched, and its gate deferred to the next family that recognizes it.
    Deferred(&'static str),
    /// It owns the observation and withheld; the diagnosis no surer than `suspected`.
    Withheld(WithholdReason, crate::Diagnosis),
    /// It owns the observation and speaks.
    Speaks(Advisory),
}

type Verdicts = Arc<Vec<(FamilyId, PreflightVerdict)>>;

/// A session's pre-flight verdicts and the policy revision they were computed under.
type Remembered = (Option<u64>, Verdicts);

/// The advisor: a registry, a ledger and a configuration.
pub struct Advisor {
    registry: Registry,
    books: Books,
    config: Config,
    /// The pre-flight memo: each session's verdicts, bounded by `sessionCapacity`.
    sessions: BoundedMap<SessionId, Remembered>,
    /// Checks facts outside the sandbox for a recognized failure ([`NoProbe`] by default).
    probe: Arc<dyn HostProbe>,
}

fn guarded<T>(family: FamilyId, stage: &'static str, f: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => Some(value),
        Err(_) => {
            disclosure::family_fault(family, stage);
            None
        }
    }
}

impl Advisor {
    /// Builds an advisor over a registry with a validated configuration.
    pub fn new(registry: Registry, config: Config) -> Self {
        Self::with_stores(registry, config, Vec::new())
    }

    /// Builds an advisor whose once-per-agent facts and fail-fast budget are
    /// shared through `stores` (tried in order; this process's own ledger is
    /// the last resort). See [`LedgerStore`] for when they are consulted.
    pub fn with_stores(
        registry: Registry,
        config: Config,
        stores: Vec<Arc<dyn LedgerStore>>,
    ) -> Self {
        let books = Books::new(Ledger::new(config.ledger_capacity), stores);
        let sessions = BoundedMap::new(config.session_capacity);
        Self {
            registry,
            books,
            config,
            sessions,
            probe: Arc::new(NoProbe),
        }
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// This process's own ledger.
    pub fn ledger(&self) -> &Ledger {
        self.books.local()
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// How many sessions' pre-flight verdicts are remembered (at most
    /// `sessionCapacity + sessionCapacity / 8`).
    pub fn remembered_sessions(&self) -> usize {
        self.sessions.len()
    }

    fn environment(&self, host: &HostFacts, policy: PolicyState) -> Environment {
        Environment {
            host: host.clone(),
            policy,
            href: self.config.href.clone(),
            locale: self.config.locale,
            host_version: self.config.host_version,
            checks: HostChecks::default(),
        }
    }

    /// The advisory as configured: with `advisoryText: full` the model gets the full account.
    fn as_configured(&self, mut advisory: Advisory) -> Advisory {
        if self.config.advisory_text == crate::AdvisoryText::Full {
            advisory.text.clone_from(&advisory.detail);
        }
        advisory
    }

    async fn resolve(
        &self,
        session: Option<&SessionId>,
        approved_mode: Option<SandboxMode>,
        ctx: &Context<'_>,
    ) -> PolicyState {
        // An agentless call is never resolved against the deployment default.
        let Some(session) = session else {
            return PolicyState::Unresolved(Unresolved::NoSession);
        };
        match ctx
            .policy
            .resolve(PolicyQuery {
                session: Some(session),
                approved_mode,
            })
            .await
        {
            Ok(policy) => PolicyState::Resolved(policy),
            Err(unresolved) => PolicyState::Unresolved(unresolved),
        }
    }

    /// `tools/post-execute`: the advisories (at most one per family per agent) and disclosures for a settled call.
    pub async fn post_execute(
        &self,
        observation: &Observation,
        approved_mode: Option<SandboxMode>,
        ctx: &Context<'_>,
    ) -> PostDecision {
        let mut decision = PostDecision::default();
        if !self.config.tracks(observation.tool.as_str()) {
            return decision;
        }
        if self.config.enforce_after > 0 && self.take_refused(observation) {
            // The failure the harness materialized from our own refusal: never count or answer it.
            return decision;
        }
        self.preflight_on_call(observation, ctx, &mut decision)
            .await;
        let Some(mut owner) = self.registry.owner(observation, ctx.host.kind) else {
            if let Outcome::Success(_) = observation.outcome {
                self.rearm_on_success(observation);
            }
            return decision;
        };
        // A family whose gate defers hands the observation to the next one
        // that recognizes it (`Gate::Defer`).
        while let Some(after) = self
            .decide_owner(&owner, observation, approved_mode, ctx, &mut decision)
            .await
        {
            match self
                .registry
                .owner_after(observation, ctx.host.kind, Some(after))
            {
                Some(next) => owner = next,
                None => break,
            }
        }
        decision
    }

    fn disclose(
        &self,
        agent: &AgentId,
        family: FamilyId,
        seat: Seat,
        (reason, diagnosis): (WithholdReason, Option<crate::Diagnosis>),
        out: &mut Vec<Withheld>,
    ) {
        if self
            .books
            .claim(agent, &Slot::disclosure(family, seat, reason.code()))
            == Claim::First
        {
            disclosure::withheld(agent, family, seat, &reason);
            out.push(Withheld {
                family,
                seat,
                reason,
                diagnosis,
            });
        }
    }

    fn take_refused(&self, observation: &Observation) -> bool {
        self.books
            .take_refusal(&observation.agent, &BudgetCall::of(observation))
    }

    fn rearm_on_success(&self, observation: &Observation) {
        if self.config.enforce_after == 0 {
            return;
        }
        self.books
            .record_success(&observation.agent, &BudgetCall::of(observation));
    }

    /// `tools/pre-execute` on the DeepSeek harness: [`Advisor::pre_execute_on`] with [`Host::Dsh`](crate::Host::Dsh).
    pub fn pre_execute(&self, call: &PendingCall) -> PreDecision {
        self.pre_execute_on(call, crate::Host::Dsh)
    }

    /// `tools/pre-execute` in `host`: refuses an identical call that already
    /// failed provisioning, within the fail-fast budget, naming the host's
    /// fail-fast family. Off unless `enforceAfter > 0`.
    pub fn pre_execute_on(&self, call: &PendingCall, host: crate::Host) -> PreDecision {
        if self.config.enforce_after == 0 || !self.config.tracks(call.tool.as_str()) {
            return PreDecision::default();
        }
        // A tool that starts no process never failed provisioning: never refused.
        if !ToolClass::of(&call.tool).can_carry_sandbox_failure() {
            return PreDecision::default();
        }
        let Some(family) = self.registry.fail_fast_family_on(host) else {
            return PreDecision::default();
        };
        let limits = BudgetLimits::of(&self.config);
        let verdict = self.books.admit(
            &call.agent,
            &BudgetCall::new(&call.call, call.tool.as_str(), &call.arguments),
            limits,
        );
        match verdict {
            BudgetVerdict::Refuse { left } => {
                disclosure::refused(&call.agent, &call.tool, family, left);
                PreDecision {
                    refusal: Some(Refusal {
                        family,
                        reason: refusal_reason(limits.enforce_after, left),
                    }),
                }
            }
            BudgetVerdict::Allow => PreDecision::default(),
        }
    }

    /// `agent_end`: forgets everything about the agent.
    pub fn agent_end(&self, agent: &AgentId) {
        self.books.forget(agent);
    }
}

fn refusal_reason(enforce_after: u32, left: u32) -> String {
    format!(
        "sandbox-advisor refused this call before it ran. The identical call (same tool, same arguments) \
         already failed because the sandbox could not provision this workspace, and this agent has seen \
         at least {enforce_after} such failures; nothing has changed since, so it would fail the same way. \
         The advisory delivered earlier in this session says what failed, how to confirm it and what the \
         user can do outside the session. Once the user has acted on it, run the call again. Refusals left \
         before identical calls go through regardless: {left}."
    )
}
