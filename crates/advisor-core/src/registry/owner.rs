//! Who owns an observation: the first family that recognizes it, or the
//! next one after a family that deferred.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{Recognized, Registry};
use crate::ids::FamilyId;
use crate::observation::Observation;

/// The family that owns an observation, with its erased finding.
pub struct Owner<'r> {
    /// The owning family's id.
    pub family: FamilyId,
    /// The finding, bound to its family.
    pub finding: Box<dyn Recognized + 'r>,
    /// Its place in precedence order (for [`Registry::owner_after`]).
    pub position: usize,
}

impl Registry {
    /// The first family (in precedence order) among those of `host` that
    /// recognizes the observation. A family that panics is treated as not
    /// recognizing and reported on the host log.
    pub fn owner(&self, observation: &Observation, host: crate::Host) -> Option<Owner<'_>> {
        self.owner_after(observation, host, None)
    }

    /// As [`Registry::owner`], among the families after position `after`
    /// only (when given): the next owner once one deferred ([`Gate::Defer`](crate::Gate)).
    pub fn owner_after(
        &self,
        observation: &Observation,
        host: crate::Host,
        after: Option<usize>,
    ) -> Option<Owner<'_>> {
        let candidates = if self.prefilter_on {
            self.prefilter.candidates(observation, host)
        } else {
            self.host_bits(host)
        };
        if candidates == 0 {
            return None;
        }
        let first = after.map_or(0, |a| a + 1);
        for (i, family) in self.families.iter().enumerate().skip(first) {
            if candidates & (1u64 << i) == 0 {
                continue;
            }
            match catch_unwind(AssertUnwindSafe(|| family.recognize(observation))) {
                Ok(Some(finding)) => {
                    return Some(Owner {
                        family: family.id(),
                        finding,
                        position: i,
                    });
                }
                Ok(None) => {}
                Err(_) => crate::disclosure::family_fault(family.id(), "recognize"),
            }
        }
        None
    }

    /// The own recognition of one observation by every family of `host`,
    /// in order (for `explain`); the other hosts' families are left out.
    pub fn each_recognition<'r>(
        &'r self,
        observation: &Observation,
        host: crate::Host,
    ) -> Vec<(FamilyId, Option<Box<dyn Recognized + 'r>>)> {
        self.families_on(host)
            .map(|f| {
                (
                    f.id(),
                    catch_unwind(AssertUnwindSafe(|| f.recognize(observation)))
                        .ok()
                        .flatten(),
                )
            })
            .collect()
    }
}
