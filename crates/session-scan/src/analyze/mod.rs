//! The analysis: every call of every session goes through the same families,
//! gates and ledger the live advisor runs, on the host the session was
//! recorded on. A [`Scanner`] is one worker's; [`Totals`] merge.
//!
//! A call is a family's failure when that family owns its result
//! (`Registry::owner`, the precedence the live advisor uses) **and** the
//! family's gate would speak for it: the decision the hook makes, through
//! the same engine (`Advisor::explain`: provenance, then the gate, without
//! the ledger). A result the owner's gate withholds or declines costs the
//! family nothing; it is counted by reason. Whether the advisor would have
//! spoken, and where, is the advisor's own answer to the call, through a
//! ledger that lives for the scan, so it speaks once per session (agent) and
//! family, exactly as live.
//!
//! **The host checks.** Live, the hook checks facts outside the sandbox for
//! a recognized failure (whether this host can create a user namespace,
//! where Codex keeps its home, Claude Code's sandbox settings). A scan reads
//! files recorded on some host at some time: what this host says now proves
//! nothing about then, so the scan mounts no probe and every such fact is
//! unknown, as under `serve` or `replay`. A family then decides as it does
//! without the fact: a finding its provenance cannot prove stays hedged or
//! is withheld (`HostChecks` all `None`).

use std::sync::Arc;

use advisor_core::{
    AgentId, CallId, Config, Explanation, FamilyId, Host, HostBinary, HostFacts, Observation,
    Outcome, Platform, SandboxMode, SessionId, ToolClass, ToolName,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy, standard_registry};

use crate::budget::Limits;
use crate::model::{Ending, Millis, Problem, Record, SessionHeader, Sink};
use crate::report::{Spoke, WithheldAt};

mod family;
mod session;
mod totals;
mod zone;

use session::Session;
pub use totals::{TIMELINE_MAX, Totals};
pub use zone::{ZONE_NAME_MAX, Zone, ZoneError};

/// What the scan assumes where a recording is silent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Assume {
    /// The host's platform, for every session (`--platform`); otherwise the
    /// reader's inference from the cwd, else Linux.
    pub platform: Option<Platform>,
    /// The sandbox mode in force before a session states one (`--mode`).
    /// Unset, a DeepSeek harness session starts in the harness's default
    /// (`read-only`) and a Claude Code or Codex session in none.
    pub mode: Option<SandboxMode>,
    /// The advisories' language (`--locale`; default: English).
    pub locale: Option<advisor_core::Locale>,
    /// The zone whose days the report's days are (`--timezone`; UTC).
    pub timezone: Zone,
}

/// What the owner's gate decided for one result, ignoring the ledger.
enum Verdict {
    /// It would speak: the call is the family's failure.
    Speaks,
    /// It withheld: the code and the words.
    Withheld(String, String),
    /// It declined (its gate, or a refuted provenance): the code.
    Declined(&'static str),
}

/// Why a scan could not start.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The families could not be registered.
    #[error("the families: {0}")]
    Adapter(#[from] host_adapter::AdapterError),
    /// The worker's executor could not be built.
    #[error("a worker's executor: {0}")]
    Runtime(std::io::Error),
}

/// The harness's own default mode when a session states none.
const HARNESS_DEFAULT_MODE: SandboxMode = SandboxMode::ReadOnly;

/// One worker's analysis: an advisor and the session being read.
pub struct Scanner {
    adapter: HostAdapter,
    policy: Arc<SessionPolicy>,
    runtime: tokio::runtime::Runtime,
    assume: Assume,
    limits: Limits,
    current: Option<Session>,
    /// The figures so far.
    pub totals: Totals,
}

impl Scanner {
    /// A scanner with every shipped family, within the default [`Limits`].
    pub fn new(assume: Assume) -> Result<Self, ScanError> {
        Self::with_limits(assume, Limits::default())
    }

    /// A scanner with every shipped family, within `limits`.
    pub fn with_limits(assume: Assume, limits: Limits) -> Result<Self, ScanError> {
        let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
            default_mode: None,
            fallback_root: None,
            platform: Platform::Linux,
        }));
        let adapter = HostAdapter::builder()
            .policy(policy.clone())
            .config(config(&assume))
            .registry(standard_registry())
            .build()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(ScanError::Runtime)?;
        Ok(Self {
            adapter,
            policy,
            runtime,
            assume,
            limits,
            current: None,
            totals: Totals::default(),
        })
    }

    /// The families, in precedence order.
    pub fn families(&self) -> impl Iterator<Item = advisor_core::FamilyId> + '_ {
        self.adapter.advisor().registry().families().map(|f| f.id())
    }

    fn open(&mut self, header: &SessionHeader) {
        let host = header.format.host();
        let platform = self
            .assume
            .platform
            .or(header.platform)
            .unwrap_or(Platform::Linux);
        self.adapter.set_host(HostFacts {
            kind: host,
            platform,
            binary: HostBinary::NotElectron,
            temp_dir: None,
        });
        self.policy.set_platform(platform);
        self.policy.set_default_mode(match host {
            Host::Dsh => Some(self.assume.mode.unwrap_or(HARNESS_DEFAULT_MODE)),
            Host::ClaudeCode | Host::Codex | Host::GeminiCli => self.assume.mode,
        });
        if let Some(cwd) = &header.cwd {
            self.policy.open_session(&session_id(header), cwd);
        }
    }

    fn result(&mut self, call: String, ending: Ending, outcome: Outcome, at: Option<Millis>) {
        let Some(session) = self.current.as_mut() else {
            return;
        };
        if ending == Ending::StillRunning {
            // Not ended: it awaits the result that ends it, else stays unresolved.
            session.still_running(&call);
            return;
        }
        self.totals.calls_settled(ending == Ending::Failed);
        let Some(pending) = session.settle_call(&call) else {
            return;
        };
        let header = &session.header;
        let host = header.format.host();
        if host == Host::Dsh
            && matches!(&outcome, Outcome::Success(s) if s.value.is_null())
            && ToolClass::of(&ToolName::from(pending.tool.clone())) == ToolClass::Process
        {
            self.totals.unjudged_results += 1;
        }
        if matches!(&outcome, Outcome::Failure(f) if f.code.as_deref() == Some(crate::source::gemini::MARKER))
        {
            self.totals.marked_results += 1;
        }
        let observation = Observation {
            agent: AgentId::from(header.id.clone()),
            session: Some(session_id(header)),
            call: CallId::from(call.clone()),
            tool: ToolName::from(pending.tool),
            // Compact JSON this scanner wrote; `null` if it ever were not.
            arguments: serde_json::from_str(&pending.arguments).unwrap_or_default(),
            outcome,
        };
        let owner = self
            .adapter
            .advisor()
            .config()
            .tracks(observation.tool.as_str())
            .then(|| self.adapter.advisor().registry().owner(&observation, host))
            .flatten()
            .map(|owner| owner.family);
        let verdict = owner.and_then(|family| {
            let explained = self
                .runtime
                .block_on(self.adapter.explain(&observation, None));
            verdict_of(explained, family).map(|v| (family, v))
        });
        let family = match verdict {
            Some((family, Verdict::Speaks)) => family,
            other => {
                session.settled_in(pending.step, None);
                let place = |reason: &str, why: String| WithheldAt {
                    call_index: pending.index,
                    reason: reason.to_owned(),
                    why,
                };
                match other {
                    Some((family, Verdict::Withheld(code, why))) => {
                        session.family(family).withheld(place(&code, why));
                    }
                    Some((family, Verdict::Declined(code))) => {
                        session
                            .family(family)
                            .declined(place(code, code.to_owned()));
                    }
                    _ => {}
                }
                return;
            }
        };
        session.settled_in(pending.step, Some(family));
        session.family(family).failed(pending.identity, at);
        session.last_family = Some(family);
        let day = self
            .totals
            .day(at.map(|at| self.assume.timezone.day_of(at)), family);
        day.0 = day.0.saturating_add(1);
        let decision = self
            .runtime
            .block_on(self.adapter.post_execute(PostExecute {
                observation,
                approved_mode: None,
            }));
        // The failure seat's advisory, once per agent and family (a
        // pre-flight one, if any, is not this call's).
        for advisory in decision.additional_contexts {
            if advisory.family != family {
                continue;
            }
            let run = session.family(family);
            if run.would_speak.is_none() {
                run.would_speak = Some(Spoke {
                    call_index: pending.index,
                    call: call.clone(),
                    at,
                    summary: advisory.summary.as_str().to_owned(),
                });
            }
        }
    }
}

/// The owner's verdict among `explained` (each family's own, in precedence).
fn verdict_of(explained: Vec<(FamilyId, Explanation)>, owner: FamilyId) -> Option<Verdict> {
    explained
        .into_iter()
        .find(|(family, _)| *family == owner)
        .and_then(|(_, explanation)| match explanation {
            Explanation::Speaks(_) => Some(Verdict::Speaks),
            Explanation::Withheld(reason, _) => Some(Verdict::Withheld(
                reason.code().to_owned(),
                reason.to_string(),
            )),
            Explanation::Declined(code) => Some(Verdict::Declined(code)),
            // A family that deferred does not own it; the next one does.
            Explanation::NotRecognized | Explanation::Outranked(_) | Explanation::Deferred(_) => {
                None
            }
        })
}

fn config(assume: &Assume) -> Config {
    let mut config = Config::default();
    if let Some(locale) = assume.locale {
        config.locale = locale;
    }
    config
}

fn session_id(header: &SessionHeader) -> SessionId {
    SessionId::from(header.id.clone())
}

impl Sink for Scanner {
    fn begin(&mut self, header: SessionHeader) {
        self.end();
        self.open(&header);
        self.current = Some(Session::in_zone(
            header,
            self.limits.pending_bytes,
            self.assume.timezone.clone(),
        ));
    }

    fn record(&mut self, record: Record) {
        match record {
            Record::Mode(mode) => {
                if let Some(session) = &self.current {
                    self.policy.set_mode(&session_id(&session.header), mode);
                }
            }
            Record::Usage {
                step,
                usage,
                at,
                copy,
            } => {
                if let Some(session) = self.current.as_mut() {
                    // A recording's counts may be anything: saturate.
                    let step = session.step(step);
                    step.usage = step.usage.plus(usage);
                    step.at = step.at.or(at);
                    if !copy {
                        session.tokens = session.tokens.plus(usage);
                        let day = at.map(|at| self.assume.timezone.day_of(at));
                        self.totals.tokens(day, usage);
                    }
                }
            }
            Record::Call {
                call,
                step,
                tool,
                arguments,
                at,
            } => {
                if let Some(session) = self.current.as_mut() {
                    session.call(call, step, tool, arguments);
                    let _ = at;
                }
            }
            Record::Result {
                call,
                ending,
                outcome,
                at,
            } => self.result(call, ending, outcome, at),
            Record::Spoken { .. } => {
                if let Some(session) = self.current.as_mut() {
                    if let Some(family) = session.last_family {
                        let run = session.family(family);
                        if run.spoken_mark.is_none() {
                            run.spoken_mark = Some(run.failing_calls);
                        }
                    }
                }
            }
        }
    }

    fn end(&mut self) {
        let Some(mut session) = self.current.take() else {
            return;
        };
        let steps: Vec<_> = session.steps.drain().map(|(_, s)| s).collect();
        for step in &steps {
            session.settle(step);
        }
        session.close();
        self.adapter
            .agent_end(&AgentId::from(session.header.id.clone()));
        self.totals.session(session);
    }

    fn problem(&mut self, problem: Problem) {
        self.totals.problem(problem);
    }

    fn decoded(&mut self, bytes: u64) {
        self.totals.decoded_bytes = self.totals.decoded_bytes.saturating_add(bytes);
    }
}
