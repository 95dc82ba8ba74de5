//! # advisor-core
//!
//! The spine of sandbox-advisor. A harness settles a tool call; the advisor
//! asks each registered [`Family`] whether it recognizes the producer's exact
//! shape, lets the first (most specific) one decide whether it may speak
//! given the host and the session's resolved sandbox policy, and delivers at
//! most one advisory per agent per family — or withholds, and says why once
//! on the host log. It repairs nothing.
//!
//! - [`Observation`]: the settled call, and all a family may read.
//! - [`Family`]: `recognize` → `gate` → `advise` (+ optional `preflight`).
//! - [`Registry`]: the families in precedence order, with one prefilter.
//! - [`Advisor`]: the ledger, the disclosure log and the fail-fast budget.
//! - [`Config`]: `enforceAfter`, `maxDenials`, `include`, `exclude`, `href`,
//!   `ledgerCapacity`, `sessionCapacity`.
//! - [`ToolClass`]: which tools can carry a sandbox provisioning failure.
//! - [`Provenance`]: whether a recognized text is provably the sandbox's;
//!   [`HostChecks`]: the facts a [`HostProbe`] checked outside the sandbox.
//! - [`BoundedMap`]: the one bounded map every per-agent and per-session map uses.
//! - [`LedgerStore`]: where once-per-agent facts and the budget are shared
//!   beyond one process ([`Advisor::with_stores`]); the crate README says when
//!   a store is consulted and what happens when it fails.

mod advisor;
mod advisory;
mod bounded;
pub mod brief;
mod budget;
mod checks;
pub mod config;
mod declare;
pub mod diagnosis;
mod digest;
pub mod disclosure;
pub mod envelope;
mod environment;
pub mod erofs;
mod family;
pub mod gemini_shell;
mod host;
mod host_version;
mod ids;
mod ledger;
mod locale;
mod observation;
pub mod paths;
mod prefilter;
pub mod provenance;
pub mod quote;
mod registry;
pub mod shell;
#[cfg(feature = "testing")]
pub mod testing;
mod tool;

pub use advisor::{
    Advisor, Context, Explanation, PendingCall, PostDecision, PreDecision, Refusal, Withheld,
};
pub use advisory::{
    Advisory, DISCUSSIONS_REPOSITORY, SOURCE_KIND, SUMMARY_MAX_CHARS, Source, Summary,
};
pub use bounded::BoundedMap;
pub use budget::CallKey;
pub use budget::{BudgetRecord, RECORD_MAX_BYTES, RecordError, RecordOwner};
pub use checks::{
    CODEX_UNREADABLE, Check, Checks, ClaudeSandbox, CodexConfig, CodexSandbox, DOMAINS_MAX,
    GeminiApproval, GeminiCliSandbox, GeminiRun, GeminiSession, GeminiSettings, GeminiToolSandbox,
    GeminiYolo, HomePlace, HostChecks, HostProbe, Judged, MOUNT_UNKNOWN, MountFact, NamespaceProbe,
    NoProbe, ProgramOnPath, ROOTS_MAX, UserNamespaces,
};
pub use config::{
    Config, ConfigError, DEFAULT_LEDGER_CAPACITY, DEFAULT_SESSION_CAPACITY, ToolPattern,
};
pub use diagnosis::Diagnosis;
pub use digest::{DigestKey, DigestKeyInUse, digest_key_from, digest_key_in_use, use_digest_key};
pub use environment::{
    Environment, HostBinary, HostFacts, NoPolicyService, Platform, PolicyNeed, PolicyQuery,
    PolicySource, PolicyState, ResolvedPolicy, SandboxMode, UnknownMode, Unresolved, WorkspaceRoot,
};
pub use family::{
    Anchors, FailFast, Family, FamilyDoc, Gate, PreflightVerdict, Seat, WithholdReason,
};
pub use host::{Host, HostRemedy, UnknownHost};
pub use host_version::{HOST_VERSION_MAX_CHARS, HostVersion, HostVersionError, VersionFact};
pub use ids::{AgentId, CallId, FamilyId, ID_MAX_BYTES, SessionId, ToolName, short_id};
pub use ledger::{
    AgentKey, BACKOFF_FIRST, BACKOFF_MAX, Claim, Edit, Ledger, LedgerStore, Slot, StoreFault,
};
pub use locale::{AdvisoryText, Locale};
pub use observation::{Failure, Observation, Outcome, Success};
pub use paths::{Containment, HostPath, PathStyle};
pub use provenance::{Proof, Provenance};
pub use quote::Untrusted;
pub use registry::{ErasedFamily, Recognized, Registry, RegistryBuilder, RegistryError};
pub use tool::{ToolClass, ToolScope};
