//! The ordered list of families, erased behind one object-safe interface.
//!
//! **Precedence rule.** Families are kept in registration order, most specific
//! first. When several recognize one observation, the first in that order owns
//! it and the others stay silent, whatever the owner's gate then decides,
//! unless the gate defers ([`Gate::Defer`](crate::Gate)): then the next
//! family that recognizes it owns it, under the same rule. The
//! standard order (host-adapter) puts `acl-provisioning` before
//! `acl-aggregate-failure` and `cim-wmi-denial` before `workspace-denial`.

use std::marker::PhantomData;

use crate::advisory::Advisory;
use crate::environment::{Environment, HostFacts, PolicyNeed};
use crate::family::{Anchors, FailFast, Family, FamilyDoc, Gate, PreflightVerdict};
use crate::ids::FamilyId;
use crate::observation::Observation;
use crate::prefilter::Prefilter;

mod owner;

pub use owner::Owner;

/// Whether a family's findings feed the fail-fast budget; fixed by the type of registration.
pub trait BudgetRole: Send + Sync + 'static {
    /// True for [`FeedsBudget`].
    const FEEDS_BUDGET: bool;
}

/// Registered with [`RegistryBuilder::family`]: never touches the budget.
pub struct NoBudget;
/// Registered with [`RegistryBuilder::fail_fast_family`]: only for `F: FailFast`.
pub struct FeedsBudget;

impl BudgetRole for NoBudget {
    const FEEDS_BUDGET: bool = false;
}
impl BudgetRole for FeedsBudget {
    const FEEDS_BUDGET: bool = true;
}

/// A finding bound to the family that produced it, with its type erased.
pub trait Recognized: Send {
    /// See [`Family::policy_need`].
    fn policy_need(&self, host: &HostFacts) -> PolicyNeed;
    /// See [`Family::checks`].
    fn checks(&self, host: &HostFacts) -> crate::Checks;
    /// See [`Family::check_path`].
    fn check_path(&self) -> Option<&str>;
    /// See [`Family::provenance`].
    fn provenance(&self, env: &Environment) -> crate::Provenance;
    /// See [`Family::gate`].
    fn gate(&self, env: &Environment) -> Gate;
    /// See [`Family::advise`]; the advisory carries the family's diagnosis.
    fn advise(&self, env: &Environment) -> Advisory;
    /// See [`Family::diagnose`].
    fn diagnose(&self, env: &Environment) -> crate::Diagnosis;
    /// True when the family was registered as the fail-fast family.
    fn feeds_budget(&self) -> bool;
    /// The family's finding, printable (for `explain` and fixture snapshots).
    fn finding(&self) -> &dyn std::fmt::Debug;
}

struct Bound<'f, F: Family, B: BudgetRole> {
    family: &'f F,
    finding: F::Finding,
    role: PhantomData<B>,
}

impl<F: Family, B: BudgetRole> Recognized for Bound<'_, F, B> {
    fn policy_need(&self, host: &HostFacts) -> PolicyNeed {
        self.family.policy_need(&self.finding, host)
    }
    fn checks(&self, host: &HostFacts) -> crate::Checks {
        self.family.checks(&self.finding, host)
    }
    fn check_path(&self) -> Option<&str> {
        self.family.check_path(&self.finding)
    }
    fn provenance(&self, env: &Environment) -> crate::Provenance {
        self.family.provenance(&self.finding, env)
    }
    fn gate(&self, env: &Environment) -> Gate {
        self.family.gate(&self.finding, env)
    }
    fn advise(&self, env: &Environment) -> Advisory {
        let mut diagnosis = self.family.diagnose(&self.finding, env);
        // A text a program could have printed is never a confirmed cause.
        if self.family.provenance(&self.finding, env) == crate::Provenance::Forgeable {
            diagnosis = diagnosis.at_most_suspected();
        }
        self.family
            .advise(&self.finding, env)
            .name_sources(env)
            .with_diagnosis(diagnosis)
    }
    fn diagnose(&self, env: &Environment) -> crate::Diagnosis {
        self.family.diagnose(&self.finding, env)
    }
    fn feeds_budget(&self) -> bool {
        B::FEEDS_BUDGET
    }
    fn finding(&self) -> &dyn std::fmt::Debug {
        &self.finding
    }
}

/// The object-safe face of a registered family.
pub trait ErasedFamily: Send + Sync {
    /// See [`Family::id`].
    fn id(&self) -> FamilyId;
    /// See [`Family::doc`].
    fn doc(&self) -> FamilyDoc;
    /// See [`Family::hosts`].
    fn hosts(&self) -> &'static [crate::Host];
    /// See [`Family::anchors`].
    fn anchors(&self) -> Anchors;
    /// See [`Family::tools`].
    fn tools(&self) -> crate::ToolScope;
    /// See [`Family::recognize`], for a tool the family's [`Family::tools`]
    /// admits (else `None`); the finding comes back bound to its family.
    fn recognize<'f>(&'f self, observation: &Observation) -> Option<Box<dyn Recognized + 'f>>;
    /// See [`Family::wants_preflight`].
    fn wants_preflight(&self, host: &HostFacts) -> bool;
    /// See [`Family::preflight`].
    fn preflight(&self, env: &Environment) -> PreflightVerdict;
    /// See [`Family::producer_sample`].
    #[cfg(feature = "testing")]
    fn producer_sample(&self) -> Option<crate::testing::ProducerSample>;
}

struct Registered<F: Family, B: BudgetRole> {
    family: F,
    role: PhantomData<fn() -> B>,
}

impl<F: Family, B: BudgetRole> ErasedFamily for Registered<F, B> {
    fn id(&self) -> FamilyId {
        self.family.id()
    }
    fn doc(&self) -> FamilyDoc {
        self.family.doc()
    }
    fn hosts(&self) -> &'static [crate::Host] {
        self.family.hosts()
    }
    fn anchors(&self) -> Anchors {
        self.family.anchors()
    }
    fn tools(&self) -> crate::ToolScope {
        self.family.tools()
    }
    fn recognize<'f>(&'f self, observation: &Observation) -> Option<Box<dyn Recognized + 'f>> {
        if !self.family.tools().admits(observation) {
            return None;
        }
        let finding = self.family.recognize(observation)?;
        Some(Box::new(Bound::<F, B> {
            family: &self.family,
            finding,
            role: PhantomData,
        }))
    }
    fn wants_preflight(&self, host: &HostFacts) -> bool {
        self.family.wants_preflight(host)
    }
    fn preflight(&self, env: &Environment) -> PreflightVerdict {
        match self.family.preflight(env) {
            PreflightVerdict::Advise(a) => PreflightVerdict::Advise(a.name_sources(env)),
            other => other,
        }
    }
    #[cfg(feature = "testing")]
    fn producer_sample(&self) -> Option<crate::testing::ProducerSample> {
        self.family.producer_sample()
    }
}

/// Why a registry could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Two families share an id.
    #[error("family id `{0}` is registered twice")]
    DuplicateId(FamilyId),
    /// An id is not kebab-case.
    #[error("family id `{0}` is not lowercase kebab-case")]
    MalformedId(FamilyId),
    /// Two fail-fast families share a host.
    #[error("only one family per host may feed the fail-fast budget; `{0}` is the second on {1}")]
    SecondFailFastFamily(FamilyId, crate::Host),
    /// A family is made fail-fast on a host it does not declare.
    #[error("family `{0}` cannot feed the fail-fast budget on {1}, which it does not declare")]
    FailFastOffItsHosts(FamilyId, crate::Host),
    /// A family declares no host, so it could never speak.
    #[error("family `{0}` declares no host (`Family::hosts` is empty)")]
    NoHost(FamilyId),
    /// More families than the prefilter's bitset holds.
    #[error("at most 64 families can be registered")]
    TooManyFamilies,
}

/// Collects families in precedence order.
#[derive(Default)]
pub struct RegistryBuilder {
    families: Vec<Box<dyn ErasedFamily>>,
    /// The fail-fast families and their hosts: at most one per host.
    fail_fast: Vec<(FamilyId, &'static [crate::Host])>,
    error: Option<RegistryError>,
}

impl RegistryBuilder {
    /// Appends a family (lower precedence than every family before it).
    pub fn family<F: Family>(mut self, family: F) -> Self {
        self.families.push(Box::new(Registered::<F, NoBudget> {
            family,
            role: PhantomData,
        }));
        self
    }

    /// Appends a family whose recognized failures feed the fail-fast budget.
    /// Only a [`FailFast`] family is accepted, and only one per host.
    pub fn fail_fast_family<F: FailFast>(self, family: F) -> Self {
        let hosts = family.hosts();
        self.fail_fast_family_where(family, hosts)
    }

    /// As [`fail_fast_family`](Self::fail_fast_family), but the family feeds
    /// the budget only on `hosts` (each one of its own); on its other hosts it
    /// speaks as a plain family, so a host whose fail-fast family is another
    /// can still have it.
    pub fn fail_fast_family_where<F: FailFast>(
        mut self,
        family: F,
        hosts: &'static [crate::Host],
    ) -> Self {
        let id = family.id();
        if let (Some(host), None) = (
            hosts.iter().find(|h| !family.hosts().contains(h)),
            &self.error,
        ) {
            self.error = Some(RegistryError::FailFastOffItsHosts(id, *host));
        }
        let shared = self
            .fail_fast
            .iter()
            .flat_map(|(_, theirs)| theirs.iter())
            .find(|h| hosts.contains(h));
        if let (Some(host), None) = (shared, &self.error) {
            self.error = Some(RegistryError::SecondFailFastFamily(id, *host));
        }
        self.fail_fast.push((id, hosts));
        self.families.push(Box::new(Registered::<F, FeedsBudget> {
            family,
            role: PhantomData,
        }));
        self
    }

    /// Validates ids and lists the prefilter's anchors (each host's needle
    /// sets are built on its first text, see `prefilter`).
    pub fn build(self) -> Result<Registry, RegistryError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.families.len() > 64 {
            return Err(RegistryError::TooManyFamilies);
        }
        let mut seen = Vec::new();
        for f in &self.families {
            let id = f.id();
            if !id.is_well_formed() {
                return Err(RegistryError::MalformedId(id));
            }
            if seen.contains(&id) {
                return Err(RegistryError::DuplicateId(id));
            }
            if f.hosts().is_empty() {
                return Err(RegistryError::NoHost(id));
            }
            seen.push(id);
        }
        let on_host = crate::Host::ALL.map(|host| {
            self.families
                .iter()
                .enumerate()
                .filter(|(_, f)| f.hosts().contains(&host))
                .fold(0u64, |acc, (i, _)| acc | 1u64 << i)
        });
        let prefilter = Prefilter::new(self.families.iter().map(|f| f.anchors()), on_host);
        Ok(Registry {
            families: self.families,
            on_host,
            prefilter,
            prefilter_on: true,
            fail_fast: self.fail_fast,
        })
    }
}

/// The families, in precedence order, with one prefilter over all their anchors.
pub struct Registry {
    families: Vec<Box<dyn ErasedFamily>>,
    /// Per host (in [`Host::ALL`](crate::Host::ALL) order), the bits of the families that declare it.
    on_host: [u64; crate::Host::ALL.len()],
    prefilter: Prefilter,
    prefilter_on: bool,
    /// The fail-fast families and the hosts they feed the budget on.
    fail_fast: Vec<(FamilyId, &'static [crate::Host])>,
}

impl Registry {
    /// Starts a registry.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// The families in precedence order.
    pub fn families(&self) -> impl Iterator<Item = &dyn ErasedFamily> {
        self.families.iter().map(|f| &**f)
    }

    /// The families that declare `host`, in precedence order: the one host
    /// filter of both seats. The failure seat shows an observation only to
    /// these ([`owner`](Self::owner), through the same bits), and the
    /// pre-flight seat asks only these ([`preflight_families`](Self::preflight_families)).
    pub fn families_on(&self, host: crate::Host) -> impl Iterator<Item = &dyn ErasedFamily> {
        let bits = self.host_bits(host);
        self.families
            .iter()
            .enumerate()
            .filter(move |(i, _)| bits & (1u64 << i) != 0)
            .map(|(_, f)| &**f)
    }

    /// The families that check a session on `host` before anything fails:
    /// those of the host's own kind ([`families_on`](Self::families_on))
    /// whose [`wants_preflight`](ErasedFamily::wants_preflight) says so. A
    /// DeepSeek-harness family never speaks for a Claude Code or Codex
    /// session: its remedy names the harness.
    pub fn preflight_families<'r>(
        &'r self,
        host: &'r HostFacts,
    ) -> impl Iterator<Item = &'r dyn ErasedFamily> {
        self.families_on(host.kind)
            .filter(move |f| f.wants_preflight(host))
    }

    fn host_bits(&self, host: crate::Host) -> u64 {
        self.on_host[host as usize]
    }

    /// The DeepSeek harness's fail-fast family, if any (see [`Registry::fail_fast_family_on`]).
    pub fn fail_fast_family(&self) -> Option<FamilyId> {
        self.fail_fast_family_on(crate::Host::Dsh)
    }

    /// The fail-fast family of `host`, if any (at most one per host).
    pub fn fail_fast_family_on(&self, host: crate::Host) -> Option<FamilyId> {
        self.fail_fast
            .iter()
            .find(|(_, hosts)| hosts.contains(&host))
            .map(|(id, _)| *id)
    }

    /// True when `family` was registered as a fail-fast family (of one or
    /// more of its hosts).
    pub fn is_fail_fast(&self, family: FamilyId) -> bool {
        self.fail_fast.iter().any(|(id, _)| *id == family)
    }

    /// Turns the shared prefilter off, so every recognizer scans on its own
    /// (the naive baseline the benchmarks compare against; feature `testing`).
    #[cfg(feature = "testing")]
    pub fn without_prefilter(mut self) -> Self {
        self.prefilter_on = false;
        self
    }
}
