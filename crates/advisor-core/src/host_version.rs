//! The version of the desktop app that hosts the harness, as a configured fact.
//!
//! No signal inside the host process carries it (the Electron version is the
//! same across several desktop releases), so the advisor knows it only when
//! the deployment says so: the `hostVersion` configuration key, the CLI's
//! `--host-version`, the Node plugin's `hostVersion` option. When it is not
//! told, a family gives each version branch in turn and never guesses.

use std::fmt;
use std::str::FromStr;

/// The longest spelling [`HostVersion::from_str`] reads; a longer one is refused unread.
pub const HOST_VERSION_MAX_CHARS: usize = 32;

/// A desktop release, `MAJOR.MINOR.PATCH` (each at most 65535), ordered numerically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HostVersion {
    major: u16,
    minor: u16,
    patch: u16,
}

impl HostVersion {
    /// A version from its three parts.
    pub const fn new(major: u16, minor: u16, patch: u16) -> Self {
        Self {
            major,
            minor,
            patch,
        }
    }
}

impl fmt::Display for HostVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Why a spelling is not a [`HostVersion`]. The message names no key: the
/// caller that read it (a config key, a flag, a plugin option) adds its own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostVersionError {
    /// Empty, or longer than [`HOST_VERSION_MAX_CHARS`].
    #[error(
        "must be MAJOR.MINOR.PATCH such as 2.0.11, of at most {HOST_VERSION_MAX_CHARS} characters"
    )]
    Length,
    /// Not three dot-separated parts.
    #[error("must have three parts, MAJOR.MINOR.PATCH, such as 2.0.11")]
    Parts,
    /// A part that is not a plain decimal number from 0 to 65535.
    #[error("part {part} must be a decimal number from 0 to 65535 without a sign or leading zero")]
    Number {
        /// Which part (1 for MAJOR, 2 for MINOR, 3 for PATCH).
        part: usize,
    },
}

impl FromStr for HostVersion {
    type Err = HostVersionError;

    /// Reads `MAJOR.MINOR.PATCH` exactly: no `v` prefix, no pre-release or
    /// build suffix, no white space, no sign, no leading zero.
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        if raw.is_empty() || raw.len() > HOST_VERSION_MAX_CHARS {
            return Err(HostVersionError::Length);
        }
        let mut parts = [0u16; 3];
        let mut count = 0;
        for (i, piece) in raw.split('.').enumerate() {
            let slot = parts.get_mut(i).ok_or(HostVersionError::Parts)?;
            let digits = !piece.is_empty() && piece.bytes().all(|b| b.is_ascii_digit());
            let leading_zero = piece.len() > 1 && piece.starts_with('0');
            if !digits || leading_zero {
                return Err(HostVersionError::Number { part: i + 1 });
            }
            *slot = piece
                .parse()
                .map_err(|_| HostVersionError::Number { part: i + 1 })?;
            count = i + 1;
        }
        if count != 3 {
            return Err(HostVersionError::Parts);
        }
        Ok(Self::new(parts[0], parts[1], parts[2]))
    }
}

/// How the configured host version stands against a release that fixed something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionFact {
    /// The host is older than the release: the fix is not in it.
    Before(HostVersion),
    /// The host is that release or newer: the fix is in it.
    AtOrAfter(HostVersion),
    /// Nobody said which version runs: give both branches.
    Unknown,
}

impl VersionFact {
    /// Compares `known` (if any) with the first release that carries a fix.
    pub fn of(known: Option<HostVersion>, fixed_in: HostVersion) -> Self {
        match known {
            None => VersionFact::Unknown,
            Some(v) if v >= fixed_in => VersionFact::AtOrAfter(v),
            Some(v) => VersionFact::Before(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        for (raw, expected) in [
            ("2.0.11", Ok(HostVersion::new(2, 0, 11))),
            ("0.0.0", Ok(HostVersion::new(0, 0, 0))),
            ("65535.0.1", Ok(HostVersion::new(65535, 0, 1))),
            ("", Err(HostVersionError::Length)),
            (
                "2.0.11.0.0.0.0.0.0.0.0.0.0.0.0.0.0",
                Err(HostVersionError::Length),
            ),
            ("2.0", Err(HostVersionError::Parts)),
            ("2.0.1.1", Err(HostVersionError::Parts)),
            ("v2.0.11", Err(HostVersionError::Number { part: 1 })),
            ("2.0.11-beta.1", Err(HostVersionError::Number { part: 3 })),
            ("2.00.11", Err(HostVersionError::Number { part: 2 })),
            ("2.0.+1", Err(HostVersionError::Number { part: 3 })),
            ("2..11", Err(HostVersionError::Number { part: 2 })),
            ("65536.0.0", Err(HostVersionError::Number { part: 1 })),
            (" 2.0.11", Err(HostVersionError::Number { part: 1 })),
            ("2.0.１", Err(HostVersionError::Number { part: 3 })),
        ] {
            assert_eq!(raw.parse::<HostVersion>(), expected, "{raw:?}");
        }
    }

    #[test]
    fn order_is_numeric_and_the_fix_release_counts_as_fixed() {
        let fix = HostVersion::new(2, 0, 11);
        for (known, expected) in [
            (None, VersionFact::Unknown),
            (
                Some(HostVersion::new(2, 0, 10)),
                VersionFact::Before(HostVersion::new(2, 0, 10)),
            ),
            (
                Some(HostVersion::new(2, 0, 9)),
                VersionFact::Before(HostVersion::new(2, 0, 9)),
            ),
            (Some(fix), VersionFact::AtOrAfter(fix)),
            (
                Some(HostVersion::new(2, 0, 13)),
                VersionFact::AtOrAfter(HostVersion::new(2, 0, 13)),
            ),
            (
                Some(HostVersion::new(2, 1, 0)),
                VersionFact::AtOrAfter(HostVersion::new(2, 1, 0)),
            ),
            (
                Some(HostVersion::new(1, 9, 99)),
                VersionFact::Before(HostVersion::new(1, 9, 99)),
            ),
        ] {
            assert_eq!(VersionFact::of(known, fix), expected, "{known:?}");
        }
        assert_eq!(HostVersion::new(2, 0, 9).to_string(), "2.0.9");
    }
}
