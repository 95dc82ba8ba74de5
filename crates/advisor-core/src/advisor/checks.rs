//! The host probe: facts checked outside the sandbox, asked only for a
//! recognized failure and only for the checks its family named.

use std::sync::Arc;

use super::{Advisor, guarded};
use crate::checks::{HostChecks, HostProbe};
use crate::environment::{Environment, HostFacts, PolicyState};
use crate::ids::FamilyId;
use crate::provenance::Provenance;
use crate::registry::{Owner, Recognized};

impl Advisor {
    /// Installs the probe that checks facts outside the sandbox for a
    /// recognized failure (the hook's; by default none, so every fact is
    /// unknown). It is asked only after a family recognized a result, and
    /// only for the checks that family named.
    pub fn set_probe(&mut self, probe: Arc<dyn HostProbe>) {
        self.probe = probe;
    }

    /// The environment with the facts the owner's family named, before any
    /// policy, and the finding's provenance read from it.
    pub(super) fn proven(&self, owner: &Owner<'_>, host: &HostFacts) -> (Environment, Provenance) {
        let mut env = self.environment(host, PolicyState::NotConsulted);
        env.checks = self.checked(owner.family, &*owner.finding, host);
        let provenance = guarded(owner.family, "provenance", || {
            owner.finding.provenance(&env)
        })
        .unwrap_or_default();
        (env, provenance)
    }

    /// The facts `finding` names, from the probe (nothing is asked for none);
    /// the family sees only those.
    pub(super) fn checked(
        &self,
        family: FamilyId,
        finding: &dyn Recognized,
        host: &HostFacts,
    ) -> HostChecks {
        let wanted = guarded(family, "checks", || finding.checks(host)).unwrap_or_default();
        if wanted.is_empty() {
            return HostChecks::default();
        }
        let path = guarded(family, "check_path", || finding.check_path()).flatten();
        self.probe.check_at(wanted, path, host).only(wanted)
    }
}
