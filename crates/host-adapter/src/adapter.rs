//! `HostAdapter`: the harness's four seats mapped onto the core.

use std::future::Future;
use std::sync::Arc;

use advisor_core::{
    Advisor, AgentId, Config, Context, Explanation, FamilyId, HostFacts, LedgerStore,
    NoPolicyService, Observation, PendingCall, PolicySource, PostDecision, PreDecision,
    RegistryBuilder, RegistryError, SandboxMode, SessionId,
};

use crate::registry::standard_registry;

/// A settled call as `tools/post-execute` sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct PostExecute {
    /// The settled call.
    pub observation: Observation,
    /// The explicit approved mode for this call (`sandbox_permissions`), if any.
    pub approved_mode: Option<SandboxMode>,
}

/// Why an adapter could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdapterError {
    /// The registry was invalid.
    #[error("registry: {0}")]
    Registry(#[from] RegistryError),
}

/// Builds a [`HostAdapter`].
pub struct HostAdapterBuilder {
    host: HostFacts,
    policy: Arc<dyn PolicySource>,
    config: Config,
    registry: Option<RegistryBuilder>,
    stores: Vec<Arc<dyn LedgerStore>>,
}

impl HostAdapterBuilder {
    /// Facts about the host producing the events (default: this process's host).
    pub fn host(mut self, host: HostFacts) -> Self {
        self.host = host;
        self
    }

    /// The policy service (default: none mounted, so every lookup is unresolvable).
    pub fn policy(mut self, policy: Arc<dyn PolicySource>) -> Self {
        self.policy = policy;
        self
    }

    /// The validated configuration (default: [`Config::default`]).
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// The families (default: [`standard_registry`]).
    pub fn registry(mut self, registry: RegistryBuilder) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Shares the once-per-agent facts and the fail-fast budget through these
    /// stores, tried in order (default: none, this process's ledger only).
    /// See [`advisor_core::LedgerStore`].
    pub fn stores(mut self, stores: Vec<Arc<dyn LedgerStore>>) -> Self {
        self.stores = stores;
        self
    }

    /// Builds the adapter.
    pub fn build(self) -> Result<HostAdapter, AdapterError> {
        let registry = self.registry.unwrap_or_else(standard_registry).build()?;
        Ok(HostAdapter {
            advisor: Advisor::with_stores(registry, self.config, self.stores),
            host: Arc::new(self.host),
            policy: self.policy,
        })
    }
}

/// The advisor mounted on a harness's tool pipeline.
pub struct HostAdapter {
    advisor: Advisor,
    host: Arc<HostFacts>,
    policy: Arc<dyn PolicySource>,
}

impl HostAdapter {
    /// Starts a builder with the defaults.
    pub fn builder() -> HostAdapterBuilder {
        HostAdapterBuilder {
            host: HostFacts::current(),
            policy: Arc::new(NoPolicyService),
            config: Config::default(),
            registry: None,
            stores: Vec::new(),
        }
    }

    /// The core advisor (ledger, registry, config).
    pub fn advisor(&self) -> &Advisor {
        &self.advisor
    }

    /// The current host facts.
    pub fn host(&self) -> Arc<HostFacts> {
        self.host.clone()
    }

    /// Replaces the host facts (a recorded stream may announce its host late).
    /// Taking `&mut self` keeps every read of the facts lock-free on the hot path.
    pub fn set_host(&mut self, host: HostFacts) {
        self.host = Arc::new(host);
    }

    /// Installs the probe that checks facts outside the sandbox for a
    /// recognized failure ([`Advisor::set_probe`]); the hook installs its own,
    /// a stream has none.
    pub fn set_probe(&mut self, probe: Arc<dyn advisor_core::HostProbe>) {
        self.advisor.set_probe(probe);
    }

    /// `tools/post-execute`: the advisories to append and the disclosures.
    pub async fn post_execute(&self, event: PostExecute) -> PostDecision {
        let ctx = Context {
            host: &self.host,
            policy: &*self.policy,
        };
        self.advisor
            .post_execute(&event.observation, event.approved_mode, &ctx)
            .await
    }

    /// `tools/post-execute` as a waterfall listener: decides first, then lets the
    /// next listener decide, then folds the advisories onto whatever came back —
    /// so a later listener can still block or replace, and the advisory is not lost.
    pub async fn post_execute_around<D, Fut>(
        &self,
        event: PostExecute,
        next: impl FnOnce() -> Fut,
    ) -> D
    where
        D: AcceptsContexts,
        Fut: Future<Output = D>,
    {
        let ours = self.post_execute(event).await;
        let mut downstream = next().await;
        downstream.append_contexts(ours.additional_contexts);
        downstream
    }

    /// `tools/pre-execute`: a refusal when the fail-fast budget of the host's
    /// fail-fast family applies.
    pub fn pre_execute(&self, call: &PendingCall) -> PreDecision {
        self.advisor.pre_execute_on(call, self.host.kind)
    }

    /// Session start (pre-flight seat).
    pub async fn session_start(
        &self,
        agent: &AgentId,
        session: Option<&SessionId>,
    ) -> PostDecision {
        let ctx = Context {
            host: &self.host,
            policy: &*self.policy,
        };
        self.advisor.session_start(agent, session, &ctx).await
    }

    /// Agent end: forget the agent.
    pub fn agent_end(&self, agent: &AgentId) {
        self.advisor.agent_end(agent);
    }

    /// Every family's verdict on one observation, ignoring the ledger.
    pub async fn explain(
        &self,
        observation: &Observation,
        approved_mode: Option<SandboxMode>,
    ) -> Vec<(FamilyId, Explanation)> {
        let ctx = Context {
            host: &self.host,
            policy: &*self.policy,
        };
        self.advisor.explain(observation, approved_mode, &ctx).await
    }
}

/// A harness decision that can carry appended context messages.
pub trait AcceptsContexts {
    /// Appends the advisories after the decision's own contexts.
    fn append_contexts(&mut self, advisories: Vec<advisor_core::Advisory>);
}

/// The harness's `PostToolDecision`, reduced to what the advisor touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostToolDecision {
    /// Keep the result (content possibly replaced by another listener).
    Accept {
        /// Replacement content, if a listener gave one.
        content: Option<String>,
        /// Contexts appended as user-role messages at the next step.
        additional_contexts: Vec<advisor_core::Advisory>,
    },
    /// Turn the result into a failure with this feedback.
    Block {
        /// The feedback shown instead of the result.
        feedback: String,
        /// Contexts appended as user-role messages at the next step.
        additional_contexts: Vec<advisor_core::Advisory>,
    },
}

impl AcceptsContexts for PostToolDecision {
    fn append_contexts(&mut self, advisories: Vec<advisor_core::Advisory>) {
        match self {
            PostToolDecision::Accept {
                additional_contexts,
                ..
            }
            | PostToolDecision::Block {
                additional_contexts,
                ..
            } => additional_contexts.extend(advisories),
        }
    }
}
