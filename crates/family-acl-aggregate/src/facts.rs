//! What the brief and the detail both read: the check commands, the
//! discussions they cite, and the English summary of each half.

use crate::recognize::Half;

/// The read-only check commands, shared by the brief and the detail. None
/// carries producer text: the directory is a placeholder filled in by hand.
pub(crate) mod commands {
    /// Lists the lock root (PowerShell).
    pub const LOCKS_PS: &str =
        "Get-ChildItem -LiteralPath (Join-Path ([System.IO.Path]::GetTempPath()) 'dsh-acl-locks')";
    /// Lists the lock root (cmd).
    pub const LOCKS_CMD: &str = r#"dir "%TMP%\dsh-acl-locks""#;
    /// Reads the directory's ACL (cmd).
    pub const ICACLS_CHECK: &str = r#"icacls "<directory>""#;
    /// Reads the directory's owner (PowerShell).
    pub const OWNER_PS: &str = "(Get-Acl -LiteralPath '<directory>').Owner";
    /// Finds the temp half's leftover private directory (cmd).
    pub const DSH_TRACE: &str = r#"dir "%TEMP%\dsh-*""#;
}

/// The discussion that reported the sentence and measured the two non-repairs.
pub(crate) const REPORT: &str = "#9460";
/// The discussion that measured where the diagnostic skill first ships.
pub(crate) const SKILL_REPORT: &str = "#8272";

/// The English summary of one half (the detail's and the en brief's).
pub(crate) fn summary_en(half: Half) -> &'static str {
    match half {
        Half::Workspace => {
            "Sandbox workspace ACL grant and its cleanup both failed; the cause is hidden — check the ACL lock directory first"
        }
        Half::Temp => {
            "Sandbox temp-directory ACL grant and its cleanup both failed; the cause is hidden — check the ACL lock directory first"
        }
    }
}
