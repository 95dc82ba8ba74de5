//! What the brief and the detail both read: the discussion they cite and the
//! measured non-CIM commands.

/// The discussion that measured the substitutes and the silent shapes.
pub(crate) const REPORT: &str = "#9272";

/// The measured non-CIM commands (#9272), shared by the brief and the detail.
pub(crate) mod commands {
    /// Listening ports (read the LISTENING rows).
    pub const NETSTAT: &str = "netstat -ano";
    /// The CIM cmdlet `netstat` replaces.
    pub const NET_TCP_LISTEN: &str = "Get-NetTCPConnection -State Listen";
    /// Free disk space.
    pub const DRIVE_INFO: &str = "[System.IO.DriveInfo]::new('C').AvailableFreeSpace";
    /// Available memory.
    pub const COUNTER: &str = r"Get-Counter '\Memory\Available MBytes'";
    /// The registry key that holds the OS version.
    pub const OS_VERSION_KEY: &str = r"HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion";
    /// The two controls that do not go through CIM.
    pub const CONTROLS: [&str; 2] = ["Get-Process", "Get-Service"];
    /// The unmeasured candidate for the gap.
    pub const IPCONFIG: &str = "ipconfig /all";
}
