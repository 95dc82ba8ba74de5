//! What the recognizer extracted from the producer's line: the API, the code
//! and the class it selects, the backend step, the carrier, and the untrusted
//! text (the line, the directory, a framing tag) the advisory may only render.

use std::sync::OnceLock;

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
#[derive(Clone, PartialEq, Eq)]
pub struct AclFinding {
    /// The Win32 function that failed.
    pub api: Api,
    /// The Win32 code, as the message gave it (decimal, non-zero).
    pub code: u32,
    /// The backend step named by the detail (`grantWrite(…)`, `revokeWrite(…)`);
    /// `None` for the read's bare path and for a line without a detail.
    pub label: Option<Label>,
    /// The line, its tag and its directory (see [`AclFinding::line`]).
    pub(crate) texts: Texts,
    /// How it reached the session.
    pub carrier: Carrier,
    /// Which text held it.
    pub field: Field,
}

impl AclFinding {
    /// The `Win32Error` message itself, exactly as the producer wrote it: from
    /// the API name to the end of the line (no envelope, carrier prefix or
    /// framing tag; trailing white space removed). Untrusted text, shown only
    /// as a quote block.
    pub fn line(&self) -> &Untrusted {
        &self.texts.made().line
    }

    /// The framing tag a tool put in front of the line, brackets included
    /// (`[provider]`); `None` when the line stood bare.
    pub fn tag(&self) -> Option<&Untrusted> {
        self.texts.made().tag.as_ref()
    }

    /// The directory, exactly as the error spelled it (untrusted text), or
    /// `None` when the error carried no detail: nothing may stand in for it
    /// but a placeholder. Shown only through a rendering (an inline mention,
    /// a command-line path slot).
    pub fn path(&self) -> Option<&Untrusted> {
        self.texts.made().path.as_ref()
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

/// Printed as a derived `Debug` would print the texts as fields.
impl std::fmt::Debug for AclFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AclFinding")
            .field("api", &self.api)
            .field("code", &self.code)
            .field("label", &self.label)
            .field("line", self.line())
            .field("tag", &self.tag())
            .field("path", &self.path())
            .field("carrier", &self.carrier)
            .field("field", &self.field)
            .finish()
    }
}

/// The most bytes of a tag and its line that recognition keeps in place.
const INLINE_MAX: usize = 128;

/// A finding's untrusted texts. Recognition keeps a short line's bytes in
/// place, with no allocation; they become [`Untrusted`] texts the first time
/// the advisory (or a printout) asks. A longer line is made into them at once.
#[derive(Clone)]
pub(crate) enum Texts {
    /// The tag's bytes (`tag` of them), then the line's, up to `len`, and
    /// where the directory lies in them (its start and length).
    Inline {
        bytes: [u8; INLINE_MAX],
        tag: Option<u8>,
        len: u8,
        path: Option<(u8, u8)>,
        made: OnceLock<Made>,
    },
    /// Made at once.
    Made(Made),
}

/// The texts as the advisory reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Made {
    line: Untrusted,
    tag: Option<Untrusted>,
    path: Option<Untrusted>,
}

impl Texts {
    /// The texts recognized; `path` is a part of `line` (both borrowed from
    /// the same text).
    pub(crate) fn new(line: &str, tag: Option<&str>, path: Option<&str>) -> Self {
        Self::inline(line, tag, path).unwrap_or_else(|| {
            Texts::Made(Made {
                line: Untrusted::new(line),
                tag: tag.map(Untrusted::new),
                path: path.map(Untrusted::new),
            })
        })
    }

    /// The bytes kept in place, when they fit.
    fn inline(line: &str, tag: Option<&str>, path: Option<&str>) -> Option<Self> {
        let tag_len = tag.map(|t| u8::try_from(t.len())).transpose().ok()?;
        let tag = tag.unwrap_or_default().as_bytes();
        let len = tag.len() + line.len();
        if len > INLINE_MAX {
            return None;
        }
        let path = match path {
            None => None,
            Some(path) => {
                let at = (path.as_ptr() as usize).checked_sub(line.as_ptr() as usize)?;
                debug_assert_eq!(line.get(at..at + path.len()), Some(path));
                line.get(at..at + path.len())?;
                Some((
                    u8::try_from(tag.len() + at).ok()?,
                    u8::try_from(path.len()).ok()?,
                ))
            }
        };
        let mut bytes = [0u8; INLINE_MAX];
        bytes.get_mut(..tag.len())?.copy_from_slice(tag);
        bytes
            .get_mut(tag.len()..len)?
            .copy_from_slice(line.as_bytes());
        Some(Texts::Inline {
            bytes,
            tag: tag_len,
            len: u8::try_from(len).ok()?,
            path,
            made: OnceLock::new(),
        })
    }

    fn made(&self) -> &Made {
        let (bytes, tag, len, path, made) = match self {
            Texts::Made(made) => return made,
            Texts::Inline {
                bytes,
                tag,
                len,
                path,
                made,
            } => (bytes, tag, *len, path, made),
        };
        made.get_or_init(|| {
            let text = |from: u8, n: u8| {
                let bytes = bytes.get(usize::from(from)..usize::from(from) + usize::from(n));
                Untrusted::new(std::str::from_utf8(bytes.unwrap_or_default()).unwrap_or_default())
            };
            let tag_len = tag.unwrap_or(0);
            Made {
                line: text(tag_len, len.saturating_sub(tag_len)),
                tag: tag.map(|n| text(0, n)),
                path: path.map(|(at, n)| text(at, n)),
            }
        })
    }
}

/// Equal when the texts are.
impl PartialEq for Texts {
    fn eq(&self, other: &Self) -> bool {
        self.made() == other.made()
    }
}

impl Eq for Texts {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept in place or made at once, a finding reads the same texts.
    #[test]
    fn texts_kept_in_place_read_as_made_at_once() {
        for dir in [r"D:\ws".to_owned(), "d".repeat(INLINE_MAX)] {
            let text = format!("[tool] SetNamedSecurityInfoW failed (Win32 5): grantWrite({dir})");
            let (tag, line) = (&text[..6], &text[7..]);
            let path = &line[line.len() - dir.len() - 1..line.len() - 1];
            let texts = Texts::new(line, Some(tag), Some(path));
            let inline = matches!(texts, Texts::Inline { .. });
            assert_eq!(inline, text.len() <= INLINE_MAX, "{text}");
            let made = Made {
                line: line.into(),
                tag: Some(tag.into()),
                path: Some(path.into()),
            };
            assert_eq!(texts.made(), &made);
        }
        let line = "GetNamedSecurityInfoW failed (Win32 2)";
        let made = Made {
            line: line.into(),
            tag: None,
            path: None,
        };
        assert_eq!(Texts::new(line, None, None).made(), &made);
    }
}
