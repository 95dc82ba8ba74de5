//! A hand-written family double and a log capture, shared by the engine tests.
#![allow(dead_code, missing_docs, clippy::unwrap_used, clippy::panic)]

pub mod logfmt;

use std::io::Write;
use std::sync::{Arc, Mutex};

use advisor_core::testing::{failure, host};
use advisor_core::{
    Advisor, Advisory, Anchors, Config, Context, Environment, FailFast, Family, FamilyDoc,
    FamilyId, Gate, HostFacts, Observation, Platform, PolicyNeed, PreflightVerdict, Registry,
    WithholdReason,
};

/// How the double's gate decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Always speak, without consulting the policy.
    Speak,
    /// Speak only under a confining resolved mode; withhold otherwise.
    Confining,
    /// Always decline.
    Decline,
}

/// Recognizes a failure whose message contains `needle`.
#[derive(Debug, Clone, Copy)]
pub struct Fake {
    pub id: &'static str,
    pub needle: &'static str,
    pub rule: Rule,
    pub preflight: Option<&'static str>,
}

impl Fake {
    pub const fn new(id: &'static str, needle: &'static str, rule: Rule) -> Self {
        Self {
            id,
            needle,
            rule,
            preflight: None,
        }
    }
}

impl Family for Fake {
    type Finding = String;

    fn id(&self) -> FamilyId {
        FamilyId::new(self.id)
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a needle",
            refuses: "everything else",
        }
    }
    fn hosts(&self) -> &'static [advisor_core::Host] {
        &[advisor_core::Host::Dsh]
    }
    fn anchors(&self) -> Anchors {
        Anchors::Always
    }
    fn recognize(&self, observation: &Observation) -> Option<String> {
        let message = &observation.failure()?.message;
        message.contains(self.needle).then(|| message.clone())
    }
    fn provenance(&self, _finding: &String, _env: &Environment) -> advisor_core::Provenance {
        // A failure the harness settled, as the fail-fast double's: so only
        // the registration (not provenance) keeps it out of the budget.
        advisor_core::Provenance::Proven(advisor_core::Proof::HarnessRecord)
    }
    fn policy_need(&self, _finding: &String, _host: &HostFacts) -> PolicyNeed {
        match self.rule {
            Rule::Confining => PolicyNeed::Required,
            Rule::Speak | Rule::Decline => PolicyNeed::NotNeeded,
        }
    }
    fn gate(&self, _finding: &String, env: &Environment) -> Gate {
        match self.rule {
            Rule::Speak => Gate::Speak,
            Rule::Decline => Gate::Decline("not-ours"),
            Rule::Confining => match env.mode() {
                Ok(mode) if mode.confines() => Gate::Speak,
                Ok(mode) => Gate::Withhold(WithholdReason::UnconfinedMode(mode)),
                Err(why) => Gate::Withhold(WithholdReason::Unresolved(why)),
            },
        }
    }
    fn advise(&self, finding: &String, _env: &Environment) -> Advisory {
        Advisory::new(
            FamilyId::new(self.id),
            &format!("{} summary", self.id),
            format!("{} saw: {finding}", self.id),
        )
    }
    fn wants_preflight(&self, _host: &HostFacts) -> bool {
        self.preflight.is_some()
    }
    fn preflight(&self, env: &Environment) -> PreflightVerdict {
        match env.mode() {
            Ok(mode) if mode.confines() => PreflightVerdict::Advise(Advisory::new(
                FamilyId::new(self.id),
                "pre-flight",
                self.preflight.unwrap_or_default().to_owned(),
            )),
            Ok(_) => PreflightVerdict::Clear,
            Err(why) => PreflightVerdict::Withhold(WithholdReason::Unresolved(why)),
        }
    }
}

/// The fail-fast double (only it may feed the budget).
#[derive(Debug, Clone, Copy)]
pub struct Provisioning;

impl Family for Provisioning {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("provisioning")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "PROVISIONING",
            refuses: "-",
        }
    }
    fn hosts(&self) -> &'static [advisor_core::Host] {
        &[advisor_core::Host::Dsh]
    }
    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &["PROVISIONING"],
        }
    }
    fn recognize(&self, observation: &Observation) -> Option<()> {
        observation
            .failure()?
            .message
            .contains("PROVISIONING")
            .then_some(())
    }
    fn policy_need(&self, _finding: &(), _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn provenance(&self, _finding: &(), _env: &Environment) -> advisor_core::Provenance {
        // A failure the harness settled: the fail-fast budget counts it.
        advisor_core::Provenance::Proven(advisor_core::Proof::HarnessRecord)
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "provisioning failed", "fix the grant".into())
    }
}

impl FailFast for Provisioning {}

/// A family whose recognizer panics.
#[derive(Debug, Clone, Copy)]
pub struct Panicky;

impl Family for Panicky {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("panicky")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "-",
            refuses: "-",
        }
    }
    fn hosts(&self) -> &'static [advisor_core::Host] {
        &[advisor_core::Host::Dsh]
    }
    fn anchors(&self) -> Anchors {
        Anchors::Always
    }
    fn recognize(&self, _observation: &Observation) -> Option<()> {
        panic!("a broken family")
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "-", String::new())
    }
}

pub const ALPHA: Fake = Fake::new("alpha", "ALPHA", Rule::Speak);
pub const BETA: Fake = Fake::new("beta", "BETA", Rule::Speak);

pub fn advisor(registry: advisor_core::RegistryBuilder, config: Config) -> Advisor {
    Advisor::new(registry.build().unwrap(), config)
}

pub fn two_families() -> Advisor {
    advisor(
        Registry::builder().family(ALPHA).family(BETA),
        Config::default(),
    )
}

pub fn linux() -> HostFacts {
    host(Platform::Linux)
}

pub fn fail(agent: &str, call: &str, message: &str) -> Observation {
    let mut o = failure(message);
    o.agent = agent.into();
    o.call = call.into();
    o
}

pub fn ctx<'a>(host: &'a HostFacts, policy: &'a dyn advisor_core::PolicySource) -> Context<'a> {
    Context { host, policy }
}

/// Captures everything logged while it is the default subscriber.
#[derive(Clone, Default)]
pub struct LogCapture(Arc<Mutex<Vec<u8>>>);

impl LogCapture {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
    pub fn count(&self, needle: &str) -> usize {
        self.text().lines().filter(|l| l.contains(needle)).count()
    }
    /// Runs `f` with this capture as the thread's default subscriber.
    ///
    /// tracing caches each call site's interest for the whole process; the
    /// interest of every site registered so far is computed again first, so
    /// that one cached while no capture existed does not hide this one's
    /// lines. (Sites first hit by other tests' threads meanwhile can still
    /// race; engine.rs's tests therefore take turns.)
    pub fn scoped<R>(&self, f: impl FnOnce() -> R) -> R {
        tracing::subscriber::with_default(self.subscriber(), || {
            tracing::callsite::rebuild_interest_cache();
            f()
        })
    }

    pub fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync {
        let sink = self.clone();
        tracing_subscriber::fmt()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .with_target(true)
            .with_max_level(tracing::Level::DEBUG)
            .finish()
    }
}

impl Write for LogCapture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs an async block on a fresh current-thread runtime.
pub fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}
