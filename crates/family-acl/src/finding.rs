//! What the recognizer extracted from the producer's line: the API, the code
//! and the class it selects, the backend step, the carrier, and the untrusted
//! text (the line, the directory, a framing tag) the advisory may only render.

use advisor_core::Untrusted;

/// `ERROR_ACCESS_DENIED`.
pub(crate) const ACCESS_DENIED: u32 = 5;

/// The Win32 function the line names. Only these two are classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// The apply: the merged DACL (and, from 0.1.7-alpha.1, label) write.
    SetNamedSecurityInfoW,
    /// The read of the directory's current descriptor, before any merge.
    GetNamedSecurityInfoW,
}

impl Api {
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "SetNamedSecurityInfoW" => Some(Api::SetNamedSecurityInfoW),
            "GetNamedSecurityInfoW" => Some(Api::GetNamedSecurityInfoW),
            _ => None,
        }
    }

    /// The function's name as the message spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Api::SetNamedSecurityInfoW => "SetNamedSecurityInfoW",
            Api::GetNamedSecurityInfoW => "GetNamedSecurityInfoW",
        }
    }
}

/// The step of the backend that failed (the `label` of `<label>(<path>)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// Adding the sandbox's write grant.
    GrantWrite,
    /// Taking a grant back.
    RevokeWrite,
}

impl Label {
    /// The label as the message spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::GrantWrite => "grantWrite",
            Label::RevokeWrite => "revokeWrite",
        }
    }
}

/// Which advisory the finding gets: the API and whether the code is
/// `ERROR_ACCESS_DENIED`, the one code the documented prerequisite explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AclClass {
    /// `SetNamedSecurityInfoW` refused with `ERROR_ACCESS_DENIED` (5): the reported case.
    ApplyDenied,
    /// `SetNamedSecurityInfoW` failed with any other code.
    ApplyOther,
    /// `GetNamedSecurityInfoW` refused with `ERROR_ACCESS_DENIED` (5): nothing was written.
    ReadDenied,
    /// `GetNamedSecurityInfoW` failed with any other code: nothing was written.
    ReadOther,
}

impl AclClass {
    /// The kebab-case class name.
    pub fn as_str(self) -> &'static str {
        match self {
            AclClass::ApplyDenied => "apply-denied",
            AclClass::ApplyOther => "apply-other",
            AclClass::ReadDenied => "read-denied",
            AclClass::ReadOther => "read-other",
        }
    }

    /// True for the two code-5 classes, the only ones the access-denied
    /// material (the cause, the grant, the non-fixes, the reports) belongs to.
    pub fn is_access_denied(self) -> bool {
        matches!(self, AclClass::ApplyDenied | AclClass::ReadDenied)
    }
}

/// How the line reached the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The session path: the provider's `Win32Error` propagated out of `confine()` unchanged.
    Session,
    /// The agentless path: the runner's line inside a `SandboxUnavailableError` message.
    SandboxUnavailable,
    /// A bare `windows-acl-run: ` runner line.
    RunnerLine,
}

impl Carrier {
    /// The kebab-case carrier name.
    pub fn as_str(self) -> &'static str {
        match self {
            Carrier::Session => "session",
            Carrier::SandboxUnavailable => "sandbox-unavailable",
            Carrier::RunnerLine => "runner-line",
        }
    }
}

/// Which text of the failure held the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The error's message.
    Message,
    /// The rendered content (a host may settle an error with the text only there).
    Content,
}

/// What the recognizer extracted: the facts the gate and the advisory use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AclFinding {
    /// The Win32 function that failed.
    pub api: Api,
    /// The Win32 code, as the message gave it (decimal, non-zero).
    pub code: u32,
    /// The backend step named by the detail (`grantWrite(…)`, `revokeWrite(…)`);
    /// `None` for the read's bare path and for a line without a detail.
    pub label: Option<Label>,
    /// The `Win32Error` message itself, exactly as the producer wrote it: from
    /// the API name to the end of the line (no envelope, carrier prefix or
    /// framing tag; trailing white space removed). Untrusted text, shown only
    /// as a quote block.
    pub line: Untrusted,
    /// The framing tag a tool put in front of the line, brackets included
    /// (`[provider]`); `None` when the line stood bare.
    pub tag: Option<Untrusted>,
    /// The directory, exactly as the error spelled it; `None` when the error
    /// was thrown without a detail. Untrusted text, shown only through a
    /// rendering (an inline mention, a command-line path slot).
    pub(crate) path: Option<Untrusted>,
    /// How it reached the session.
    pub carrier: Carrier,
    /// Which text held it.
    pub field: Field,
}

impl AclFinding {
    /// The directory, exactly as the error spelled it (untrusted text), or
    /// `None` when the error carried no detail: nothing may stand in for it
    /// but a placeholder.
    pub fn path(&self) -> Option<&Untrusted> {
        self.path.as_ref()
    }

    /// The advisory class: the code is kept, not flattened.
    pub fn class(&self) -> AclClass {
        match (self.api, self.code == ACCESS_DENIED) {
            (Api::SetNamedSecurityInfoW, true) => AclClass::ApplyDenied,
            (Api::SetNamedSecurityInfoW, false) => AclClass::ApplyOther,
            (Api::GetNamedSecurityInfoW, true) => AclClass::ReadDenied,
            (Api::GetNamedSecurityInfoW, false) => AclClass::ReadOther,
        }
    }
}
