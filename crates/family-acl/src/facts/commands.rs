//! The command lines, built once for the brief and the full account alike.
//!
//! Each builder returns the command without its label or indentation; the
//! directory enters only through the [`PathSlot`]'s rendering for that shell
//! (`'…'` for PowerShell, `"…"` for cmd), or as its placeholder.

use std::fmt::Write as _;

use advisor_core::quote::PathSlot;

/// One command, written for PowerShell and for cmd.
pub(crate) struct Pair {
    /// The PowerShell form.
    pub(crate) ps: String,
    /// The cmd form.
    pub(crate) cmd: String,
}

impl Pair {
    /// Writes the two labelled lines, each after `indent`.
    pub(crate) fn write(&self, out: &mut String, indent: &str) {
        let _ = writeln!(out, "{indent}PowerShell: {}", self.ps);
        let _ = writeln!(out, "{indent}cmd:        {}", self.cmd);
    }
}

/// The directory's access list, read-only.
pub(crate) fn list(slot: &PathSlot) -> Pair {
    Pair {
        ps: format!("icacls {}", slot.powershell()),
        cmd: format!("icacls {}", slot.cmd()),
    }
}

/// The directory's owner, read-only (PowerShell 5.1 or later; PowerShell only).
pub(crate) fn owner(slot: &PathSlot) -> String {
    format!("(Get-Acl -LiteralPath {}).Owner", slot.powershell())
}

/// The owner's unelevated grant of WRITE_OWNER, inherited below the directory.
pub(crate) fn grant_write_owner(slot: &PathSlot) -> Pair {
    Pair {
        ps: format!(
            "icacls {} /grant \"${{env:USERNAME}}:(OI)(CI)(WO)\"",
            slot.powershell()
        ),
        cmd: format!("icacls {} /grant \"%USERNAME%:(OI)(CI)(WO)\"", slot.cmd()),
    }
}

/// The not-owner's elevated grant of Full control to the named account.
pub(crate) fn grant_full(slot: &PathSlot) -> Pair {
    Pair {
        ps: format!(
            "icacls {} /grant '<your account>:(OI)(CI)F'",
            slot.powershell()
        ),
        cmd: format!("icacls {} /grant \"<your account>:(OI)(CI)F\"", slot.cmd()),
    }
}

/// The not-owner's elevated change of owner to the named account.
pub(crate) fn set_owner(slot: &PathSlot) -> Pair {
    Pair {
        ps: format!("icacls {} /setowner '<your account>'", slot.powershell()),
        cmd: format!("icacls {} /setowner \"<your account>\"", slot.cmd()),
    }
}

/// Windows' description of a Win32 code (the same in both shells).
pub(crate) fn helpmsg(code: u32) -> String {
    format!("PowerShell or cmd: net helpmsg {code}")
}
