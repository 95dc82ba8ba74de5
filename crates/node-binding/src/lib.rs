//! # node-binding
//!
//! The sandbox-advisor core as a Node-API addon (napi-rs). It is loaded by the
//! cordis plugin in `bindings/node`, which mounts it on the TypeScript
//! harness's `ToolRuntime` waterfalls; nothing here knows about cordis.
//!
//! The boundary is crossed in two steps so the common event costs little:
//!
//! 1. **Scan** ([`Advisor::scan_failure`], [`Advisor::scan_run`]): the failure
//!    text, or the three facts of a shell value an anchor reads, borrowed from a
//!    `Uint8Array` the plugin reuses (no copy into Rust). It answers whether any
//!    family's anchors hold.
//! 2. **Post** ([`Advisor::post`]): only when the scan said so (or the agent has
//!    a pre-flight, a refused call or a fail-fast budget pending), the ids, the
//!    arguments and the projected value cross, and the core decides. When the
//!    decision needs the session's sandbox policy the answer says `needPolicy`
//!    and nothing is recorded; the plugin resolves it through the harness's
//!    `sandboxPolicy` service and posts again with it.
//!
//! It refuses: any configuration key the core does not know (the error names
//! the key), values that are not JSON where JSON is expected, lengths past
//! the end of the buffer they index, and an identifier longer than
//! [`ids::ID_READ_MAX_UNITS`] UTF-16 code units (a `RangeError`, before it is
//! copied). Identifiers are read losslessly and kept at the CLI's size
//! ([`ids`]). It repairs nothing and never calls back into JavaScript.

mod convert;
mod ids;
mod transport;

use std::cell::RefCell;
use std::collections::HashSet;

use advisor_core::{
    AgentId, CallId, Config, Context, HostFacts, PendingCall, PolicyNeed, SessionId, ToolName,
};
use napi::bindgen_prelude::{Error, Result, Uint8ArraySlice};
use napi::{Env, JsString, Status};
use napi_derive::napi;

pub use convert::{AdvisoryOutput, Answer, HostInput, PolicyInput, RefusalOutput, WithheldOutput};
use convert::{PostInput, Supplied, now, parse};
use transport::{Transport, failed_exit};

/// The configuration the core accepts, checked without building an advisor.
/// Errors name the key (`config key \`maxDenials\`: …`).
#[napi]
pub fn validate_config(config_json: String) -> Result<()> {
    Config::from_json_str(&config_json)
        .map(drop)
        .map_err(|e| Error::from_reason(e.to_string()))
}

/// The compiled-in families, in precedence order.
#[napi]
pub fn families() -> Vec<String> {
    host_adapter::standard_registry()
        .build()
        .map(|r| r.families().map(|f| f.id().as_str().to_owned()).collect())
        .unwrap_or_default()
}

/// One advisor: the shipped families, a ledger and a configuration.
#[napi]
pub struct Advisor {
    core: advisor_core::Advisor,
    host: HostFacts,
    transport: Transport,
    wants_preflight: bool,
    enforce_after: u32,
    ledger_capacity: usize,
    /// Sessions whose pre-flight verdict the core has computed with a policy in hand.
    preflighted: RefCell<HashSet<String>>,
}

#[napi]
impl Advisor {
    /// Builds an advisor from the plugin's configuration (JSON text) and the host facts.
    #[napi(constructor)]
    pub fn new(config_json: String, host: HostInput) -> Result<Self> {
        let config =
            Config::from_json_str(&config_json).map_err(|e| Error::from_reason(e.to_string()))?;
        let registry = host_adapter::standard_registry()
            .build()
            .map_err(|e| Error::from_reason(e.to_string()))?;
        let host = host.facts();
        let transport = Transport::new(&registry);
        let wants_preflight = registry.preflight_families(&host).next().is_some();
        let (enforce_after, ledger_capacity) = (config.enforce_after, config.ledger_capacity);
        Ok(Self {
            core: advisor_core::Advisor::new(registry, config),
            host,
            transport,
            wants_preflight,
            enforce_after,
            ledger_capacity,
            preflighted: RefCell::new(HashSet::new()),
        })
    }

    /// `enforceAfter` (0: the fail-fast half is off and `pre` never refuses).
    #[napi(getter)]
    pub fn enforce_after(&self) -> u32 {
        self.enforce_after
    }

    /// Whether a family checks sessions before anything fails on this host.
    #[napi(getter)]
    pub fn wants_preflight(&self) -> bool {
        self.wants_preflight
    }

    /// Whether calls to `tool` are watched (`include` / `exclude`); the plugin caches it per name.
    #[napi]
    pub fn tracks(&self, env: Env, tool: JsString) -> Result<bool> {
        Ok(self.core.config().tracks(&id(&env, "tool", tool)?))
    }

    /// Step 1 for a failure: `text[..messageLen]` is the message; the rest, when
    /// present, is rendered content that says more than `Error: <message>`.
    /// The bytes are only searched for the families' literal anchors here.
    #[napi]
    pub fn scan_failure(&self, text: Uint8ArraySlice, message_len: u32, len: u32) -> Result<bool> {
        let bytes = text
            .get(..len as usize)
            .ok_or_else(|| Error::from_reason("scanFailure: len exceeds the buffer"))?;
        let (message, content) = bytes
            .split_at_checked(message_len as usize)
            .ok_or_else(|| Error::from_reason("scanFailure: messageLen exceeds len"))?;
        Ok(if content.is_empty() {
            self.transport.failure(&[message])
        } else {
            self.transport.failure(&[message, content])
        })
    }

    /// Step 1 for a success whose value is a finished foreground run: its
    /// `exitCode` (`0` for `null`, `NaN` for anything not a number), its
    /// `sandbox.denied` stamp, and `stderr[..stderrLen]`, the captured stderr.
    #[napi]
    pub fn scan_run(
        &self,
        exit_code: f64,
        denied: bool,
        stderr: Uint8ArraySlice,
        stderr_len: u32,
    ) -> Result<bool> {
        let Some(failed) = failed_exit(exit_code) else {
            return Ok(self.transport.other_success());
        };
        let stderr = stderr
            .get(..stderr_len as usize)
            .ok_or_else(|| Error::from_reason("scanRun: stderrLen exceeds the buffer"))?;
        Ok(self.transport.run(failed, denied, stderr))
    }

    /// Step 1's constant answer for the commonest shell value: exit 0 (or a
    /// signal's `null`), no denial stamp, empty stderr. The plugin caches it and
    /// crosses nothing for such a value when it is `false`.
    #[napi(getter)]
    pub fn quiet_run_crosses(&self) -> bool {
        self.transport.run(false, false, b"")
    }

    /// Step 1 for any other success.
    #[napi]
    pub fn scan_other(&self) -> bool {
        self.transport.other_success()
    }

    /// Step 2: the settled call, and the session's policy when a previous answer
    /// asked for it. The fields are positional (a property read per field costs
    /// more than the field): `message` set means a failure (`content` only when
    /// it says more than `Error: <message>`), otherwise `value` is the success's
    /// projected value as JSON. `null` means there is nothing to do.
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub fn post(
        &self,
        env: Env,
        agent: JsString,
        call: JsString,
        tool: JsString,
        arguments: Option<String>,
        message: Option<String>,
        content: Option<String>,
        value: Option<String>,
        policy: Option<PolicyInput>,
    ) -> Result<Option<Answer>> {
        let event = PostInput {
            agent: id(&env, "agent", agent)?,
            call: id(&env, "call", call)?,
            tool: id(&env, "tool", tool)?,
            arguments,
            message,
            content,
            value,
        };
        let observation = event.observation().map_err(Error::from_reason)?;
        let (owner_needs_policy, feeds_budget) =
            match self.core.registry().owner(&observation, self.host.kind) {
                Some(owner) => (
                    owner.finding.policy_need(&self.host) == PolicyNeed::Required,
                    self.enforce_after > 0
                        && owner.finding.feeds_budget()
                        && self.core.registry().fail_fast_family_on(self.host.kind)
                            == Some(owner.family),
                ),
                None => (false, false),
            };
        let session = observation.agent.as_str().to_owned();
        if policy.is_none() && (owner_needs_policy || self.preflight_pending(&session)) {
            return Ok(Some(Answer::need_policy()));
        }
        let source = Supplied(policy.map(|p| p.resolve(self.host.platform)));
        let ctx = Context {
            host: &self.host,
            policy: &source,
        };
        let decision = now(self.core.post_execute(&observation, None, &ctx)).ok_or_else(|| {
            Error::from_reason("post: the core waited on a policy it was not given")
        })?;
        self.preflight_done(session);
        Ok(Answer::from_decision(decision, feeds_budget))
    }

    /// `tools/pre-execute`: a refusal when the fail-fast budget applies.
    #[napi]
    pub fn pre(
        &self,
        env: Env,
        agent: JsString,
        call: JsString,
        tool: JsString,
        arguments: Option<String>,
    ) -> Result<Option<RefusalOutput>> {
        let (agent, call, tool) = (
            id(&env, "agent", agent)?,
            id(&env, "call", call)?,
            id(&env, "tool", tool)?,
        );
        let arguments = parse(arguments.as_deref(), "arguments")
            .map_err(Error::from_reason)?
            .unwrap_or_else(|| serde_json::Value::Object(Default::default()));
        let pending = PendingCall {
            session: Some(SessionId::new(&agent)),
            agent: AgentId::new(agent),
            call: CallId::new(call),
            tool: ToolName::new(tool),
            arguments,
        };
        Ok(self
            .core
            .pre_execute(&pending)
            .refusal
            .map(|r| RefusalOutput {
                family: r.family.as_str().to_owned(),
                reason: r.reason,
            }))
    }

    /// `agent/session-start`: the pre-flight advisories for the agent (`null`: nothing to do).
    #[napi]
    pub fn session_start(
        &self,
        env: Env,
        agent: JsString,
        policy: Option<PolicyInput>,
    ) -> Result<Option<Answer>> {
        let agent = id(&env, "agent", agent)?;
        if policy.is_none() && self.preflight_pending(&agent) {
            return Ok(Some(Answer::need_policy()));
        }
        let source = Supplied(policy.map(|p| p.resolve(self.host.platform)));
        let ctx = Context {
            host: &self.host,
            policy: &source,
        };
        let session = SessionId::new(&agent);
        let decision = now(self
            .core
            .session_start(&AgentId::new(&agent), Some(&session), &ctx))
        .ok_or_else(|| {
            Error::from_reason("sessionStart: the core waited on a policy it was not given")
        })?;
        self.preflight_done(agent);
        Ok(Answer::from_decision(decision, false))
    }

    /// `agent/disposed`: forget everything about the agent.
    #[napi]
    pub fn agent_end(&self, env: Env, agent: JsString) -> Result<()> {
        self.core
            .agent_end(&AgentId::new(id(&env, "agent", agent)?));
        Ok(())
    }
}

impl Advisor {
    fn preflight_pending(&self, session: &str) -> bool {
        self.wants_preflight && !self.preflighted.borrow().contains(session)
    }

    fn preflight_done(&self, session: String) {
        if !self.wants_preflight {
            return;
        }
        let mut seen = self.preflighted.borrow_mut();
        if seen.len() >= self.ledger_capacity {
            seen.clear();
        }
        seen.insert(session);
    }
}

/// Reads identifier argument `argument` ([`ids`]): its length first, and a
/// `RangeError` naming it and the bound, before any copy, when it is too long.
fn id(env: &Env, argument: &'static str, value: JsString) -> Result<String> {
    let units = value.utf16_len()?;
    if let Err(too_long) = ids::check_length(argument, units) {
        env.throw_range_error(&too_long.to_string(), Some("ERR_OUT_OF_RANGE"))?;
        return Err(Error::from_status(Status::PendingException));
    }
    let utf16 = value.into_utf16()?;
    // The copy ends in the NUL napi writes after the string.
    let read = utf16.as_slice().get(..units).unwrap_or_default();
    Ok(ids::from_utf16(read))
}
