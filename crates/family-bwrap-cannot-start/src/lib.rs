#![doc = include_str!("../README.md")]

pub mod advise;
mod brief;
pub mod facts;
pub mod gate;
pub mod provenance;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, Diagnosis, FamilyId, PolicyNeed, ToolScope};

pub use recognize::{Carrier, Finding, Kind, NAMESPACE_LIMIT, NEEDLES, PREFIX};

/// The family id.
pub const ID: FamilyId = FamilyId::new("bwrap-cannot-start");

/// The structured diagnosis: the sandbox could not be built, so the command
/// never started and had no effect; it fails the same way until the host is fixed.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// bubblewrap cannot start the client's sandbox: every command fails.
    pub struct BwrapCannotStart {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // Claude Code, Codex and Gemini CLI (its tool sandbox) run commands
        // through bubblewrap; the registry never shows this family another
        // host's observation.
        hosts: &[
            advisor_core::Host::ClaudeCode,
            advisor_core::Host::Codex,
            advisor_core::Host::GeminiCli,
        ],
        anchors: Anchors::OutputText { needles: NEEDLES },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        // Only a command's output can be bubblewrap's: a file or network
        // tool's text quoting the line is not the sandbox failing.
        tools: ToolScope::SandboxProcess,
        policy_need: |_, _| PolicyNeed::NotNeeded,
        // The line alone is forgeable: the hook checks this host outside the
        // sandbox, and only a proven line feeds the fail-fast budget.
        checks: provenance::checks,
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}

/// The hosts where it feeds the fail-fast budget (`fail_fast_family_where`):
/// Gemini CLI's fail-fast family is `bwrap-not-found`, one per host, so there
/// this family gives its advisory and counts nothing.
pub const FAIL_FAST_HOSTS: &[advisor_core::Host] =
    &[advisor_core::Host::ClaudeCode, advisor_core::Host::Codex];

/// Its remedy (the host's namespace setting, the client's home) is applied
/// outside the session while it continues, and until then every command
/// fails the same way, `echo` included: it may feed the fail-fast budget, so
/// an identical call is refused before it runs instead of failing again.
/// Only a proven line counts ([`provenance`]): a test that prints it never
/// makes a call be refused.
impl advisor_core::FailFast for BwrapCannotStart {}
