//! What crosses the boundary, in both directions, and its mapping onto the core.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use advisor_core::{
    Advisory, AgentId, CallId, Failure, HostBinary, HostFacts, HostPath, Observation, Outcome,
    Platform, PolicyQuery, PolicySource, PostDecision, ResolvedPolicy, SandboxMode, SessionId,
    Success, ToolName, Unresolved, Untrusted, Withheld, WorkspaceRoot,
};
use napi_derive::napi;
use serde_json::Value;

/// Facts about the Node process hosting the harness, read once at plugin start.
#[napi(object)]
pub struct HostInput {
    /// `process.platform` (`win32`, `linux`, `darwin`, …).
    pub platform: String,
    /// Whether the process is an Electron binary (`process.versions.electron`).
    pub electron: bool,
    /// `os.tmpdir()`.
    pub tmpdir: Option<String>,
}

impl HostInput {
    pub(crate) fn facts(self) -> HostFacts {
        let platform = match self.platform.as_str() {
            "win32" => Platform::Win32,
            "darwin" => Platform::Macos,
            _ => Platform::Linux,
        };
        HostFacts {
            // The plugin is mounted on the DeepSeek harness's ToolRuntime.
            kind: advisor_core::Host::Dsh,
            platform,
            binary: if self.electron {
                HostBinary::Electron
            } else {
                HostBinary::NotElectron
            },
            temp_dir: self.tmpdir.filter(|t| !t.is_empty()),
        }
    }
}

/// The answer of the harness's `ctx.sandboxPolicy.resolve({ session })`, or why there is none.
#[napi(object)]
pub struct PolicyInput {
    /// The resolved mode (`read-only`, `workspace-write`, `danger-full-access`).
    pub mode: Option<String>,
    /// The resolved, canonical workspace root.
    pub workspace_root: Option<String>,
    /// Set instead of `mode` when there is no answer: `no-policy-service`,
    /// `no-session` or `resolver-error`.
    pub unavailable: Option<String>,
    /// The resolver's own message, for `resolver-error`.
    pub message: Option<String>,
}

impl PolicyInput {
    pub(crate) fn resolve(self, platform: Platform) -> Result<ResolvedPolicy, Unresolved> {
        let resolver_error = |m: &str| Unresolved::ResolverError(Untrusted::new(m));
        match (self.unavailable.as_deref(), self.mode) {
            (Some("no-policy-service"), _) => Err(Unresolved::NoPolicyService),
            (Some("no-session"), _) => Err(Unresolved::NoSession),
            (Some(_), _) => Err(resolver_error(
                self.message
                    .as_deref()
                    .unwrap_or("the policy resolver failed"),
            )),
            (None, None) => Err(resolver_error("the policy resolver returned no mode")),
            (None, Some(mode)) => {
                let mode: SandboxMode =
                    mode.parse().map_err(|e| resolver_error(&format!("{e}")))?;
                let style = platform.path_style();
                Ok(ResolvedPolicy {
                    mode,
                    workspace_root: self
                        .workspace_root
                        .filter(|r| !r.is_empty())
                        .map(|r| WorkspaceRoot::new(HostPath::lexical(style, &r))),
                })
            }
        }
    }
}

/// A settled call as `tools/post-execute` saw it, reduced to what recognition reads.
pub(crate) struct PostInput {
    /// The agent's id (which is also its session's id in the harness).
    pub(crate) agent: String,
    /// The call id.
    pub(crate) call: String,
    /// The tool name.
    pub(crate) tool: String,
    /// The call's arguments as JSON text (absent: `{}`).
    pub(crate) arguments: Option<String>,
    /// A failure's `error.message`; absent for a success.
    pub(crate) message: Option<String>,
    /// The rendered content the model saw (absent: `Error: <message>` for a failure).
    pub(crate) content: Option<String>,
    /// A success's value as JSON text, projected to the fields recognition reads.
    pub(crate) value: Option<String>,
}

impl PostInput {
    pub(crate) fn observation(self) -> Result<Observation, String> {
        let arguments = parse(self.arguments.as_deref(), "arguments")?
            .unwrap_or_else(|| Value::Object(Default::default()));
        let outcome = match self.message {
            Some(message) => Outcome::Failure(Failure {
                content: self.content.unwrap_or_else(|| format!("Error: {message}")),
                message,
                members: Vec::new(),
                code: None,
            }),
            None => Outcome::Success(Success {
                value: parse(self.value.as_deref(), "value")?.unwrap_or(Value::Null),
                content: self.content.unwrap_or_default(),
            }),
        };
        Ok(Observation {
            session: Some(SessionId::new(&self.agent)),
            agent: AgentId::new(self.agent),
            call: CallId::new(self.call),
            tool: ToolName::new(self.tool),
            arguments,
            outcome,
        })
    }
}

pub(crate) fn parse(text: Option<&str>, what: &str) -> Result<Option<Value>, String> {
    text.map(|t| serde_json::from_str(t).map_err(|e| format!("{what}: not JSON: {e}")))
        .transpose()
}

/// One advisory to fold onto the decision as a plugin-sourced notice.
#[napi(object)]
pub struct AdvisoryOutput {
    /// The family that spoke.
    pub family: String,
    /// One line, at most 120 characters.
    pub summary: String,
    /// The full text, in consecutive parts to be joined: ASCII runs and the
    /// characters between them. V8 decodes UTF-8 at memory speed only up to
    /// the first non-ASCII character and one character at a time after it, and
    /// an advisory is ~10 KiB of ASCII with a few dashes early on; as parts it
    /// crosses at memory speed.
    pub text_parts: Vec<String>,
    /// The full account, in parts like `text_parts` (the same text when the
    /// family writes one text only).
    pub detail_parts: Vec<String>,
    /// The structured diagnosis, as JSON (docs/protocol.md lists its fields).
    pub diagnosis: String,
}

/// One advisory withheld, to disclose on the harness logger.
#[napi(object)]
pub struct WithheldOutput {
    /// The family that could not speak.
    pub family: String,
    /// `failure` or `preflight`.
    pub seat: String,
    /// The stable reason code (`no-policy-service`, `unconfined-mode`, …).
    pub reason: String,
    /// The reason in words (resolver messages escaped for a log line).
    pub detail: String,
    /// The finding's diagnosis as JSON, no surer than `suspected` (absent for a pre-flight).
    pub diagnosis: Option<String>,
}

/// The advisor's answer to one event.
#[napi(object)]
pub struct Answer {
    /// The policy is needed: resolve it and call again with it. Nothing was recorded.
    pub need_policy: bool,
    /// Advisories to fold onto the decision.
    pub advisories: Vec<AdvisoryOutput>,
    /// Withheld advisories to disclose.
    pub withheld: Vec<WithheldOutput>,
    /// The observation fed the fail-fast budget (the agent may now be refused).
    pub feeds_budget: bool,
}

impl Answer {
    pub(crate) fn need_policy() -> Self {
        Self {
            need_policy: true,
            advisories: Vec::new(),
            withheld: Vec::new(),
            feeds_budget: false,
        }
    }

    /// The answer, or `None` when there is nothing to fold, disclose or note.
    pub(crate) fn from_decision(decision: PostDecision, feeds_budget: bool) -> Option<Self> {
        if decision.additional_contexts.is_empty() && decision.withheld.is_empty() && !feeds_budget
        {
            return None;
        }
        Some(Self {
            need_policy: false,
            advisories: decision.additional_contexts.iter().map(advisory).collect(),
            withheld: decision.withheld.iter().map(withheld).collect(),
            feeds_budget,
        })
    }
}

fn advisory(a: &Advisory) -> AdvisoryOutput {
    AdvisoryOutput {
        family: a.family.as_str().to_owned(),
        summary: a.summary.as_str().to_owned(),
        text_parts: ascii_runs(&a.text),
        detail_parts: ascii_runs(&a.detail),
        diagnosis: serde_json::to_string(&a.diagnosis).unwrap_or_default(),
    }
}

/// More parts than this and the text crosses whole (its decoding is no worse).
const MAX_PARTS: usize = 64;

/// `text` split where it changes between ASCII and non-ASCII.
fn ascii_runs(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        // An ASCII run, skipped 64 bytes at a time (`is_ascii` reads whole words).
        let ascii_end = next(bytes, start, |chunk| chunk.is_ascii(), |b| !b.is_ascii());
        // Then the non-ASCII characters up to the next ASCII byte (never inside a
        // character: every byte of a multi-byte character is non-ASCII).
        let end = next(bytes, ascii_end, |_| false, |b| b.is_ascii());
        for (from, to) in [(start, ascii_end), (ascii_end, end)] {
            if to > from {
                parts.push(text.get(from..to).unwrap_or_default().to_owned());
            }
        }
        if parts.len() > MAX_PARTS {
            return vec![text.to_owned()];
        }
        start = end;
    }
    parts
}

/// The index of the first byte at or after `from` that satisfies `stop`, or
/// the length; `skip` may pass over a whole 64-byte chunk that cannot hold one.
fn next(
    bytes: &[u8],
    from: usize,
    skip: impl Fn(&[u8]) -> bool,
    stop: impl Fn(u8) -> bool,
) -> usize {
    let Some(rest) = bytes.get(from..) else {
        return bytes.len();
    };
    let mut offset = from;
    for chunk in rest.chunks(64) {
        // Not a let chain: the workspace's minimum Rust (1.85) has none.
        if let Some(i) = (!skip(chunk))
            .then(|| chunk.iter().position(|&b| stop(b)))
            .flatten()
        {
            return offset + i;
        }
        offset += chunk.len();
    }
    bytes.len()
}

fn withheld(w: &Withheld) -> WithheldOutput {
    WithheldOutput {
        family: w.family.as_str().to_owned(),
        seat: match w.seat {
            advisor_core::Seat::Failure => "failure",
            advisor_core::Seat::Preflight => "preflight",
        }
        .to_owned(),
        reason: w.reason.code().to_owned(),
        detail: w.reason.to_string(),
        diagnosis: w
            .diagnosis
            .map(|d| serde_json::to_string(&d).unwrap_or_default()),
    }
}

/// A refusal before dispatch: deny the call with `reason`.
#[napi(object)]
pub struct RefusalOutput {
    /// The family whose budget refused.
    pub family: String,
    /// What the model is told.
    pub reason: String,
}

/// The policy for one call, as the JavaScript side resolved it (or did not).
pub(crate) struct Supplied(pub(crate) Option<Result<ResolvedPolicy, Unresolved>>);

#[async_trait::async_trait]
impl PolicySource for Supplied {
    async fn resolve(&self, _query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        match &self.0 {
            Some(answer) => answer.clone(),
            // The binding asks for the policy whenever the core may consult it,
            // so this is a bookkeeping miss; say so rather than guess a mode.
            None => Err(Unresolved::ResolverError(Untrusted::new(
                "sandbox-advisor's Node binding did not resolve the policy for this event",
            ))),
        }
    }
}

/// Runs a future that cannot wait on anything (the binding's policy source
/// answers at once) to completion on the calling thread.
pub(crate) fn now<F: Future>(future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => Some(output),
        Poll::Pending => None,
    }
}
