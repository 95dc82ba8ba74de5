//! Windows ownership, read from a security descriptor's bytes: who owns a
//! directory, and whether its DACL lets anyone but us write to it.
//!
//! Pure: the security identifiers and the access control list arrive as the
//! bytes Windows returns (`GetSecurityInfo`, read in [`crate::win32`]), and
//! are parsed and judged here, so every rule is tested on any system.
//!
//! Trusted: the process token's user and its default owner (what an object
//! this process creates is owned by; an elevated administrator's is the
//! Administrators group), `SYSTEM` and `BUILTIN\Administrators` (the root
//! of Windows: they can take any file anyway). Anyone else who may write to
//! a directory of the store could plant files in it, remove or replace it,
//! or change who may.

use std::fmt;

/// A security identifier, as Windows lays it out: the revision, the number
/// of sub-authorities, the 48-bit identifier authority (big-endian), then the
/// sub-authorities (32-bit, little-endian).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Sid(Vec<u8>);

/// At most this many sub-authorities (`SID_MAX_SUB_AUTHORITIES`).
const MAX_SUB_AUTHORITIES: u8 = 15;

impl Sid {
    /// The SID at the start of `bytes`, with its length; `None` when the
    /// bytes are not one.
    pub(crate) fn read(bytes: &[u8]) -> Option<(Sid, usize)> {
        let (&revision, &count) = (bytes.first()?, bytes.get(1)?);
        if revision != 1 || count > MAX_SUB_AUTHORITIES {
            return None;
        }
        let len = 8 + 4 * usize::from(count);
        Some((Sid(bytes.get(..len)?.to_vec()), len))
    }

    /// A SID from its authority and sub-authorities.
    fn new(authority: u8, subs: &[u32]) -> Sid {
        let mut bytes = vec![1, subs.len() as u8, 0, 0, 0, 0, 0, authority];
        for sub in subs {
            bytes.extend_from_slice(&sub.to_le_bytes());
        }
        Sid(bytes)
    }

    /// `S-1-5-18`, the LocalSystem account.
    pub(crate) fn system() -> Sid {
        Sid::new(5, &[18])
    }

    /// `S-1-5-32-544`, the built-in Administrators group.
    pub(crate) fn administrators() -> Sid {
        Sid::new(5, &[32, 544])
    }

    /// `S-1-5-80-…`, NT SERVICE\TrustedInstaller, which owns `C:\`.
    pub(crate) fn trusted_installer() -> Sid {
        Sid::new(
            5,
            &[
                80,
                956_008_885,
                3_418_522_649,
                1_831_038_044,
                1_853_292_631,
                2_271_478_464,
            ],
        )
    }

    /// `S-1-1-0`, Everyone (for tests, and for messages).
    #[cfg(test)]
    pub(crate) fn everyone() -> Sid {
        Sid::new(1, &[0])
    }

    /// `S-1-3-0`, CREATOR OWNER: a placeholder replaced in inherited entries,
    /// granting nothing on the object that holds it.
    fn creator_owner() -> Sid {
        Sid::new(3, &[0])
    }

    /// `S-1-3-4`, OWNER RIGHTS: the object's owner, whoever that is.
    fn owner_rights() -> Sid {
        Sid::new(3, &[4])
    }

    #[cfg(test)]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// `S-1-5-21-…`, as Windows spells a SID.
impl fmt::Display for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.0;
        let authority = b[2..8]
            .iter()
            .fold(0u64, |acc, &byte| (acc << 8) | u64::from(byte));
        write!(f, "S-{}-{authority}", b[0])?;
        for sub in b[8..].chunks_exact(4) {
            write!(
                f,
                "-{}",
                u32::from_le_bytes([sub[0], sub[1], sub[2], sub[3]])
            )?;
        }
        Ok(())
    }
}

impl fmt::Debug for Sid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sid({self})")
    }
}

/// An access right in an access mask.
pub(crate) mod right {
    /// `FILE_ADD_FILE` (`FILE_WRITE_DATA` on a file).
    pub(crate) const ADD_FILE: u32 = 0x2;
    /// `FILE_ADD_SUBDIRECTORY` (`FILE_APPEND_DATA` on a file).
    pub(crate) const ADD_SUBDIRECTORY: u32 = 0x4;
    /// `FILE_DELETE_CHILD`: remove or rename any entry, whoever owns it.
    pub(crate) const DELETE_CHILD: u32 = 0x40;
    /// `DELETE`: remove or rename the object itself.
    pub(crate) const DELETE: u32 = 0x1_0000;
    /// `WRITE_DAC`: change who may do what.
    pub(crate) const WRITE_DAC: u32 = 0x4_0000;
    /// `WRITE_OWNER`: take ownership.
    pub(crate) const WRITE_OWNER: u32 = 0x8_0000;
    /// `GENERIC_ALL`, before the object maps it.
    pub(crate) const GENERIC_ALL: u32 = 0x1000_0000;
    /// `GENERIC_WRITE`, before the object maps it.
    pub(crate) const GENERIC_WRITE: u32 = 0x4000_0000;

    /// What no one but us may hold on a directory of the store: put an entry
    /// in it, remove one, remove or rename the directory, or change who may.
    pub(crate) const DIR_WRITE: u32 = ADD_FILE
        | ADD_SUBDIRECTORY
        | DELETE_CHILD
        | DELETE
        | WRITE_DAC
        | WRITE_OWNER
        | GENERIC_ALL
        | GENERIC_WRITE;

    /// What no one but us may hold on the state directory's parent: remove
    /// or rename any entry (ours included), or change who may.
    pub(crate) const PARENT_WRITE: u32 = DELETE_CHILD | WRITE_DAC | WRITE_OWNER | GENERIC_ALL;
}

/// One entry of a DACL that matters here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ace {
    /// An allow entry (`ACCESS_ALLOWED_ACE`, or its callback form).
    Allow { sid: Sid, mask: u32, flags: u8 },
    /// A deny entry, or an entry that grants nothing (an audit entry).
    Other,
    /// An allow entry of a kind this parser does not read (an object entry).
    Unreadable { kind: u8 },
}

/// `INHERIT_ONLY_ACE`: the entry applies to children only.
const INHERIT_ONLY: u8 = 0x08;
/// The allow entries whose body is a mask and a SID.
const ACCESS_ALLOWED: u8 = 0x0;
const ACCESS_ALLOWED_CALLBACK: u8 = 0x9;
/// Allow entries with another body (object GUIDs, compound).
const OTHER_ALLOWS: [u8; 3] = [0x4, 0x5, 0xB];

/// The entries of an ACL's bytes (`ACL` header, then `AceCount` entries);
/// `None` when they are cut short or malformed.
pub(crate) fn parse_acl(bytes: &[u8]) -> Option<Vec<Ace>> {
    let size = usize::from(u16::from_le_bytes([*bytes.get(2)?, *bytes.get(3)?]));
    let count = u16::from_le_bytes([*bytes.get(4)?, *bytes.get(5)?]);
    let acl = bytes.get(..size)?;
    let mut at = 8;
    let mut aces = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let header = acl.get(at..at + 4)?;
        let (kind, flags) = (header[0], header[1]);
        let len = usize::from(u16::from_le_bytes([header[2], header[3]]));
        let body = acl.get(at + 4..at + len.max(4))?;
        aces.push(match kind {
            ACCESS_ALLOWED | ACCESS_ALLOWED_CALLBACK => {
                let mask = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
                let (sid, _) = Sid::read(body.get(4..)?)?;
                Ace::Allow { sid, mask, flags }
            }
            kind if OTHER_ALLOWS.contains(&kind) => Ace::Unreadable { kind },
            _ => Ace::Other,
        });
        at += len.max(4);
    }
    Some(aces)
}

/// Who this process is: the token's user and its default owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Us {
    pub(crate) user: Sid,
    pub(crate) owner: Sid,
}

impl Us {
    /// True for us, `SYSTEM` and Administrators.
    fn trusts(&self, sid: &Sid) -> bool {
        *sid == self.user
            || *sid == self.owner
            || *sid == Sid::system()
            || *sid == Sid::administrators()
    }
}

/// A directory's owner and DACL (`None`: a null DACL, which lets everyone
/// do anything).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Security {
    pub(crate) owner: Sid,
    pub(crate) dacl: Option<Vec<Ace>>,
}

/// Why a directory's security descriptor is not trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AclProblem {
    /// Another account owns it.
    Owner { owner: Sid, us: Sid },
    /// It has no DACL: everyone may do anything.
    NullDacl,
    /// An allow entry gives another account one of the rights that matter.
    Grants { sid: Sid, mask: u32 },
    /// An allow entry of a kind this parser does not read.
    Unreadable { kind: u8 },
}

impl fmt::Display for AclProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AclProblem::Owner { owner, us } => {
                write!(f, "it is owned by {owner}, not by this user ({us})")
            }
            AclProblem::NullDacl => f.write_str("it has no DACL, so everyone may write to it"),
            AclProblem::Grants { sid, mask } => write!(
                f,
                "its DACL lets {sid} write to it, remove it or change its access (mask {mask:#x})"
            ),
            AclProblem::Unreadable { kind } => write!(
                f,
                "its DACL holds an allow entry of type {kind:#x}, which is not checked"
            ),
        }
    }
}

/// Judges a directory of the store: it is owned by us, and no allow entry
/// that applies to it gives anyone but us, `SYSTEM` or Administrators any of
/// `rights`. With `owner_may_be_admin`, the owner may also be `SYSTEM`,
/// Administrators or TrustedInstaller (a parent directory, like root's on
/// Unix: `C:\` is TrustedInstaller's).
pub(crate) fn judge(
    security: &Security,
    us: &Us,
    rights: u32,
    owner_may_be_admin: bool,
) -> Result<(), AclProblem> {
    let owner = &security.owner;
    let owner_ok = *owner == us.user
        || *owner == us.owner
        || (owner_may_be_admin && (us.trusts(owner) || *owner == Sid::trusted_installer()));
    if !owner_ok {
        return Err(AclProblem::Owner {
            owner: owner.clone(),
            us: us.user.clone(),
        });
    }
    let Some(dacl) = &security.dacl else {
        return Err(AclProblem::NullDacl);
    };
    for ace in dacl {
        match ace {
            Ace::Allow { flags, .. } if flags & INHERIT_ONLY != 0 => {}
            Ace::Allow { sid, mask, .. } => {
                let placeholder = *sid == Sid::creator_owner() || *sid == Sid::owner_rights();
                if mask & rights != 0 && !placeholder && !us.trusts(sid) {
                    return Err(AclProblem::Grants {
                        sid: sid.clone(),
                        mask: *mask,
                    });
                }
            }
            Ace::Unreadable { kind } => return Err(AclProblem::Unreadable { kind: *kind }),
            Ace::Other => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
