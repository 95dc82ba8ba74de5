//! Key names. Every key of one agent carries the agent's key as a hash tag
//! (`{…}`), so a transaction or script touching them stays in one cluster slot.

use advisor_core::{AgentKey, Slot};

/// The key names under one prefix.
#[derive(Debug, Clone)]
pub(crate) struct Keys {
    prefix: String,
}

/// Why a prefix is refused.
pub(crate) fn check_prefix(prefix: &str) -> Result<(), &'static str> {
    if prefix.is_empty() {
        return Err("it is empty");
    }
    if prefix.contains(['{', '}']) {
        return Err("braces would move the agent's hash tag");
    }
    if prefix.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("it holds whitespace or a control character");
    }
    Ok(())
}

impl Keys {
    /// Names under `prefix` (already checked with [`check_prefix`]).
    pub(crate) fn new(prefix: &str) -> Self {
        Self {
            prefix: prefix.to_owned(),
        }
    }

    /// `{prefix}:{<agent>}:` — the start of every key of the agent.
    pub(crate) fn agent(&self, agent: &AgentKey) -> String {
        format!("{}:{{{}}}:", self.prefix, agent.as_str())
    }

    /// The start of every claim key of the agent (what `forget` may delete).
    pub(crate) fn claims(&self, agent: &AgentKey) -> String {
        self.agent(agent) + "claim:"
    }

    /// One claimed slot.
    pub(crate) fn claim(&self, agent: &AgentKey, slot: &Slot) -> String {
        self.claims(agent) + &slot.name()
    }

    /// The set of the agent's claim keys.
    pub(crate) fn index(&self, agent: &AgentKey) -> String {
        self.agent(agent) + "keys"
    }

    /// The agent's encoded budget record (codec version 2, bound to its
    /// agent). A new record layout takes a new name, so two builds in one
    /// fleet never read, or delete as corrupt, each other's records.
    pub(crate) fn budget(&self, agent: &AgentKey) -> String {
        self.agent(agent) + "budget:v2"
    }

    /// An older build's record (codec version 1): never read; `forget`
    /// deletes it, and it expires.
    pub(crate) fn budget_v1(&self, agent: &AgentKey) -> String {
        self.agent(agent) + "budget"
    }

    /// The fleet's digest key (the one key that never expires).
    pub(crate) fn digest_key(&self) -> String {
        format!("{}:digest-key", self.prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::{AgentId, FamilyId, Seat};

    #[test]
    fn an_agents_keys_share_one_hash_tag_and_prefixes_that_would_break_it_are_refused() {
        let keys = Keys::new("sandbox-advisor:v1");
        let agent = AgentKey::of(&AgentId::new("a1"));
        let slot = Slot::advisory(FamilyId::new("acl"), Seat::Failure);
        let tag = format!("{{{}}}", agent.as_str());
        for key in [
            keys.claim(&agent, &slot),
            keys.index(&agent),
            keys.budget(&agent),
            keys.budget_v1(&agent),
        ] {
            assert!(key.starts_with("sandbox-advisor:v1:"), "{key}");
            assert_eq!(key.matches('{').count(), 1, "{key}");
            assert!(key.contains(&tag), "{key}");
        }
        assert!(keys.claim(&agent, &slot).ends_with(":claim:acl.failure"));
        assert!(check_prefix("sandbox-advisor:v1").is_ok());
        for bad in ["", "a{b", "a}", "a b", "a\n"] {
            assert!(check_prefix(bad).is_err(), "{bad:?}");
        }
    }
}
