//! What the detail, the brief and the pre-flight all read: the pre-flight's
//! facts and the example command lines. Nothing here writes prose.

use advisor_core::{Containment, Platform, SandboxMode, Untrusted};

/// How the two directories were compared.
///
/// The resolved paths are names on disk that the advisor did not choose, so
/// they are [`Untrusted`] like the spellings they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Both exist on this machine and were resolved first (symlinks and junctions followed).
    Canonical {
        /// The resolved workspace root.
        workspace: Untrusted,
        /// The resolved temp directory.
        temp: Untrusted,
    },
    /// At least one does not exist here; compared by spelling with the host's grammar.
    Lexical,
}

/// Everything the pre-flight computed, printed so the claim can be audited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreflightFacts {
    /// The host platform.
    pub host: Platform,
    /// The session's resolved mode.
    pub mode: SandboxMode,
    /// The session's workspace root, as the policy reported it.
    pub workspace: Untrusted,
    /// The host's temp directory, as the host reported it.
    pub temp: Untrusted,
    /// How they were compared.
    pub comparison: Comparison,
    /// Where the temp directory lies relative to the root: `Inside` or `Same`.
    pub relation: Containment,
}

/// The example directory the remedy moves TMP and TEMP to.
pub(crate) const EXAMPLE_DIR: &str = "C:\\dsh-temp";
/// cmd: creates the example directory.
pub(crate) const MKDIR: &str = "mkdir C:\\dsh-temp";
/// cmd: points TMP at it.
pub(crate) const SET_TMP: &str = "set TMP=C:\\dsh-temp";
/// cmd: points TEMP at it.
pub(crate) const SET_TEMP: &str = "set TEMP=C:\\dsh-temp";
/// PowerShell: points both at it.
pub(crate) const PS_SET: &str = "$env:TMP = 'C:\\dsh-temp'; $env:TEMP = 'C:\\dsh-temp'";
/// cmd: reads TMP.
pub(crate) const ECHO_TMP: &str = "echo %TMP%";
/// cmd: reads TEMP.
pub(crate) const ECHO_TEMP: &str = "echo %TEMP%";
/// PowerShell: reads TMP.
pub(crate) const PS_TMP: &str = "$env:TMP";
/// PowerShell: reads TEMP.
pub(crate) const PS_TEMP: &str = "$env:TEMP";
