//! Newtypes for the identities the advisor keys its state on.
//!
//! Each one wraps a shared string so that cloning is cheap and a mix-up
//! (an agent id passed where a session id belongs) is a type error.

use std::fmt;
use std::sync::Arc;

mod short;

pub use short::{ID_MAX_BYTES, short_id};

macro_rules! id_newtype {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Arc<str>);

        impl $name {
            /// Wraps a raw identifier.
            pub fn new(raw: impl AsRef<str>) -> Self {
                Self(Arc::from(raw.as_ref()))
            }

            /// The raw identifier.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), &*self.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(raw: &str) -> Self {
                Self::new(raw)
            }
        }

        impl From<String> for $name {
            fn from(raw: String) -> Self {
                Self(Arc::from(raw))
            }
        }
    };
}

id_newtype!(
    /// The agent a tool call is attributed to; advisories are delivered once per agent.
    AgentId
);
id_newtype!(
    /// The session a call ran in; the policy resolver keys mode and workspace root on it.
    SessionId
);
id_newtype!(
    /// One tool call.
    CallId
);
id_newtype!(
    /// The name of the tool that was called (`bash`, `pwsh`, …).
    ToolName
);

/// A family's stable kebab-case id (`acl-provisioning`, `pty-startup`, …).
///
/// Family ids are compile-time constants, so this wraps a `&'static str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FamilyId(&'static str);

impl FamilyId {
    /// Declares a family id. Ids are lowercase kebab-case; [`FamilyId::is_well_formed`] checks it.
    pub const fn new(id: &'static str) -> Self {
        Self(id)
    }

    /// The id as written.
    pub const fn as_str(&self) -> &'static str {
        self.0
    }

    /// True when the id is non-empty lowercase ASCII words joined by single hyphens.
    pub fn is_well_formed(&self) -> bool {
        !self.0.is_empty()
            && self.0.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }
}

impl fmt::Debug for FamilyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FamilyId({})", self.0)
    }
}

impl fmt::Display for FamilyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_ids_are_kebab_case() {
        assert!(FamilyId::new("acl-provisioning").is_well_formed());
        assert!(!FamilyId::new("Acl").is_well_formed());
        assert!(!FamilyId::new("acl--x").is_well_formed());
        assert!(!FamilyId::new("").is_well_formed());
    }
}
