//! Drives a [`HostAdapter`] and its session policy from protocol events.

use std::sync::Arc;

use advisor_core::{
    Advisory, AgentId, CallId, HostBinary, HostFacts, LedgerStore, Observation, PendingCall,
    Refusal, RegistryBuilder, SessionId, ToolName, Withheld,
};
use host_adapter::{AdapterError, HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

use crate::config::FileConfig;
use crate::protocol::{Call, Event, PROTOCOL_VERSION};

/// Which harness hook a decision answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    /// A `session-start` line.
    SessionStart,
    /// A `post` line.
    Post,
    /// A `pre` line.
    Pre,
}

impl Hook {
    /// The `type` the input line carried.
    pub fn as_str(self) -> &'static str {
        match self {
            Hook::SessionStart => "session-start",
            Hook::Post => "post",
            Hook::Pre => "pre",
        }
    }
}

/// The advisor's answer to one `session-start`, `post` or `pre` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The hook.
    pub hook: Hook,
    /// The agent; absent for a call from outside an agent loop.
    pub agent: Option<AgentId>,
    /// The agent's session, as the line named it.
    pub session: Option<SessionId>,
    /// The call and its tool (absent on `session-start`).
    pub call: Option<(CallId, ToolName)>,
    /// Advisories to deliver.
    pub advisories: Vec<Advisory>,
    /// Advisories withheld for the first time.
    pub withheld: Vec<Withheld>,
    /// The refusal of a `pre` line.
    pub refusal: Option<Refusal>,
}

impl Decision {
    /// The answer to a call from outside an agent loop: never advised, never
    /// counted, never refused; the advisor is not asked.
    fn unadvised(hook: Hook, call: Call) -> Self {
        Self {
            hook,
            agent: None,
            session: call.session,
            call: Some((call.call, call.tool)),
            advisories: Vec::new(),
            withheld: Vec::new(),
            refusal: None,
        }
    }
}

/// What one valid line produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// A fact was recorded; nothing is written for it.
    Recorded,
    /// A `hello` line with a version this build speaks.
    Hello,
    /// A decision to write.
    Decision(Decision),
}

/// The advisor and the session facts a stream has described so far.
pub struct Engine {
    adapter: HostAdapter,
    /// The session facts the stream described; roots are read at resolution
    /// time with the grammar current then, so a late `host` line is one switch.
    policy: Arc<SessionPolicy>,
    /// The config's `defaultMode`, when it states one.
    stated: Option<advisor_core::SandboxMode>,
    mode_default: ModeDefault,
}

/// Which default mode a session that states none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModeDefault {
    /// A DeepSeek-harness stream (`serve`, `replay`): the config's, else the
    /// harness's own (`read-only`), as the harness resolves it; another
    /// host's stream gets only the config's.
    HarnessStream,
    /// A hook event: only the config's. The payload never says the client's
    /// mode, so without `--mode` or `defaultMode` nothing is assumed.
    Stated,
}

impl Engine {
    /// An engine with `registry`'s families, configured by `config`, on this
    /// process's host until a `host` line says otherwise.
    pub fn new(config: &FileConfig, registry: RegistryBuilder) -> Result<Self, AdapterError> {
        Self::with_stores(config, registry, Vec::new())
    }

    /// The same, sharing its once-per-agent facts through `stores`
    /// (`crate::ledger`).
    pub fn with_stores(
        config: &FileConfig,
        registry: RegistryBuilder,
        stores: Vec<Arc<dyn LedgerStore>>,
    ) -> Result<Self, AdapterError> {
        Self::build(config, registry, stores, ModeDefault::HarnessStream)
    }

    /// An engine for one hook event: no mode is assumed (see [`ModeDefault::Stated`]).
    pub fn for_hook(
        config: &FileConfig,
        registry: RegistryBuilder,
        stores: Vec<Arc<dyn LedgerStore>>,
    ) -> Result<Self, AdapterError> {
        Self::build(config, registry, stores, ModeDefault::Stated)
    }

    fn build(
        config: &FileConfig,
        registry: RegistryBuilder,
        stores: Vec<Arc<dyn LedgerStore>>,
        mode_default: ModeDefault,
    ) -> Result<Self, AdapterError> {
        let host = HostFacts::current();
        let stated = config.default_mode;
        let default_mode = match mode_default {
            ModeDefault::HarnessStream => Some(config.stream_default_mode()),
            ModeDefault::Stated => stated,
        };
        let policy = Arc::new(SessionPolicy::with_capacity(
            PolicyDefaults {
                default_mode,
                fallback_root: config.fallback_root.clone(),
                platform: host.platform,
            },
            config.core.session_capacity,
        ));
        let adapter = HostAdapter::builder()
            .host(host)
            .policy(policy.clone())
            .config(config.core.clone())
            .registry(registry)
            .stores(stores)
            .build()?;
        Ok(Self {
            adapter,
            policy,
            stated,
            mode_default,
        })
    }

    /// The adapter (its registry names the compiled-in families).
    pub fn adapter(&self) -> &HostAdapter {
        &self.adapter
    }

    /// Installs the probe that checks facts outside the sandbox for a
    /// recognized failure (the hook's own, per payload; see `hook::probe`).
    pub fn set_probe(&mut self, probe: Arc<dyn advisor_core::HostProbe>) {
        self.adapter.set_probe(probe);
    }

    /// Applies one event; a line that is valid JSON but cannot be honoured is an `Err`.
    pub async fn handle(&mut self, event: Event) -> Result<Handled, String> {
        let decision = match event {
            Event::Hello { protocol } if protocol == PROTOCOL_VERSION => return Ok(Handled::Hello),
            Event::Hello { protocol } => {
                return Err(format!(
                    "`hello` line: field `protocol`: version {protocol} is not supported \
                     (this build speaks {PROTOCOL_VERSION})"
                ));
            }
            Event::Host {
                host,
                platform,
                electron,
                tmpdir,
            } => {
                self.policy.set_platform(platform);
                // The harness's own default belongs to the harness's streams only.
                self.policy
                    .set_default_mode(match (self.mode_default, host) {
                        (ModeDefault::HarnessStream, advisor_core::Host::Dsh) => {
                            Some(self.stated.unwrap_or(crate::config::HARNESS_DEFAULT_MODE))
                        }
                        _ => self.stated,
                    });
                self.adapter.set_host(HostFacts {
                    kind: host,
                    platform,
                    binary: if electron {
                        HostBinary::Electron
                    } else {
                        HostBinary::NotElectron
                    },
                    temp_dir: tmpdir,
                });
                return Ok(Handled::Recorded);
            }
            Event::Session { session, cwd } => {
                if let Some(cwd) = cwd {
                    self.policy.open_session(&session, &cwd);
                }
                return Ok(Handled::Recorded);
            }
            Event::SandboxMode { session, mode } => {
                self.policy.set_mode(&session, mode);
                return Ok(Handled::Recorded);
            }
            Event::PolicyUnavailable { session, why } => {
                match session {
                    Some(session) => self.policy.fail_session(&session, why),
                    None => self.policy.fail_all(why),
                }
                return Ok(Handled::Recorded);
            }
            Event::AgentEnd { agent } => {
                self.adapter.agent_end(&agent);
                return Ok(Handled::Recorded);
            }
            Event::SessionStart { agent, session } => {
                let decision = self.adapter.session_start(&agent, session.as_ref()).await;
                Decision {
                    hook: Hook::SessionStart,
                    agent: Some(agent),
                    session,
                    call: None,
                    advisories: decision.additional_contexts,
                    withheld: decision.withheld,
                    refusal: None,
                }
            }
            Event::Post(call, post) => {
                let Some(agent) = call.agent else {
                    return Ok(Handled::Decision(Decision::unadvised(Hook::Post, call)));
                };
                // The ids are small (`protocol::caps`); the arguments move, never copied.
                let observation = Observation {
                    agent: agent.clone(),
                    session: call.session.clone(),
                    call: call.call.clone(),
                    tool: call.tool.clone(),
                    arguments: call.args,
                    outcome: post.outcome,
                };
                let decision = self
                    .adapter
                    .post_execute(PostExecute {
                        observation,
                        approved_mode: post.mode,
                    })
                    .await;
                Decision {
                    hook: Hook::Post,
                    agent: Some(agent),
                    session: call.session,
                    call: Some((call.call, call.tool)),
                    advisories: decision.additional_contexts,
                    withheld: decision.withheld,
                    refusal: None,
                }
            }
            Event::Pre(call) => {
                let Some(agent) = call.agent else {
                    return Ok(Handled::Decision(Decision::unadvised(Hook::Pre, call)));
                };
                let pending = PendingCall {
                    agent,
                    session: call.session,
                    call: call.call,
                    tool: call.tool,
                    arguments: call.args,
                };
                let decision = self.adapter.pre_execute(&pending);
                Decision {
                    hook: Hook::Pre,
                    agent: Some(pending.agent),
                    session: pending.session,
                    call: Some((pending.call, pending.tool)),
                    advisories: Vec::new(),
                    withheld: Vec::new(),
                    refusal: decision.refusal,
                }
            }
        };
        Ok(Handled::Decision(decision))
    }
}
