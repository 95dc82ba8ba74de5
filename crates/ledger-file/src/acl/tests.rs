//! The rules of [`super`], on security descriptors built byte by byte.

use super::*;

fn user() -> Sid {
    Sid::new(5, &[21, 1_111, 2_222, 3_333, 1001])
}

fn other() -> Sid {
    Sid::new(5, &[21, 1_111, 2_222, 3_333, 1002])
}

fn us() -> Us {
    Us {
        user: user(),
        owner: user(),
    }
}

/// An ACL's bytes, as Windows lays them out.
fn acl(entries: &[(u8, u8, u32, &Sid)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (kind, flags, mask, sid) in entries {
        let len = (4 + 4 + sid.bytes().len()) as u16;
        body.extend_from_slice(&[*kind, *flags]);
        body.extend_from_slice(&len.to_le_bytes());
        body.extend_from_slice(&mask.to_le_bytes());
        body.extend_from_slice(sid.bytes());
    }
    let size = (8 + body.len()) as u16;
    let mut bytes = vec![2, 0];
    bytes.extend_from_slice(&size.to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend(body);
    bytes
}

const FULL: u32 = 0x1F_01FF;
const READ: u32 = 0x12_00A9;

fn judged(owner: Sid, entries: &[(u8, u8, u32, &Sid)], rights: u32) -> Result<(), AclProblem> {
    let dacl = parse_acl(&acl(entries)).expect("parses");
    let security = Security {
        owner,
        dacl: Some(dacl),
    };
    judge(&security, &us(), rights, false)
}

#[test]
fn sids_are_spelled_as_windows_does() {
    assert_eq!(Sid::system().to_string(), "S-1-5-18");
    assert_eq!(Sid::administrators().to_string(), "S-1-5-32-544");
    assert_eq!(user().to_string(), "S-1-5-21-1111-2222-3333-1001");
    let (read, len) = Sid::read(user().bytes()).expect("a SID");
    assert_eq!((read, len), (user(), 28));
    assert_eq!(
        Sid::read(&[1, 16, 0, 0, 0, 0, 0, 5]),
        None,
        "too many parts"
    );
    assert_eq!(Sid::read(&user().bytes()[..27]), None, "cut short");
    assert_eq!(Sid::read(&[2, 1, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0]), None);
}

/// What `%LOCALAPPDATA%` holds: the user, SYSTEM and Administrators with
/// full control, and inherit-only entries for whoever creates below.
#[test]
fn a_directory_of_ours_that_only_admins_share_is_trusted() {
    let entries = [
        (ACCESS_ALLOWED, 0x3, FULL, &Sid::system()),
        (ACCESS_ALLOWED, 0x3, FULL, &Sid::administrators()),
        (ACCESS_ALLOWED, 0x3, FULL, &user()),
        (ACCESS_ALLOWED, 0x0, READ, &Sid::everyone()),
        (ACCESS_ALLOWED, 0x0b, FULL, &Sid::creator_owner()),
        (ACCESS_ALLOWED, 0x0b, FULL, &Sid::everyone()),
        (0x1, 0x0, FULL, &other()),
    ];
    assert_eq!(judged(user(), &entries, right::DIR_WRITE), Ok(()));
}

#[test]
fn a_write_right_for_anyone_else_is_refused() {
    for (right, name) in [
        (right::ADD_FILE, "add a file"),
        (right::ADD_SUBDIRECTORY, "add a directory"),
        (right::DELETE_CHILD, "delete a child"),
        (right::DELETE, "delete"),
        (right::WRITE_DAC, "write the DACL"),
        (right::WRITE_OWNER, "take ownership"),
        (right::GENERIC_ALL, "generic all"),
        (right::GENERIC_WRITE, "generic write"),
    ] {
        for (kind, sid) in [
            (ACCESS_ALLOWED, Sid::everyone()),
            (ACCESS_ALLOWED_CALLBACK, other()),
        ] {
            let entries = [(ACCESS_ALLOWED, 0, FULL, &user()), (kind, 0, right, &sid)];
            assert_eq!(
                judged(user(), &entries, right::DIR_WRITE),
                Err(AclProblem::Grants {
                    sid: sid.clone(),
                    mask: right
                }),
                "{name}"
            );
        }
    }
    let reading = [(ACCESS_ALLOWED, 0, READ, &other())];
    assert_eq!(judged(user(), &reading, right::DIR_WRITE), Ok(()));
}

#[test]
fn another_owner_is_refused_and_a_parent_may_be_an_admins() {
    let entries = [(ACCESS_ALLOWED, 0, FULL, &user())];
    assert_eq!(
        judged(other(), &entries, right::DIR_WRITE),
        Err(AclProblem::Owner {
            owner: other(),
            us: user()
        })
    );
    let security = Security {
        owner: Sid::administrators(),
        dacl: parse_acl(&acl(&entries)),
    };
    assert!(judge(&security, &us(), right::DIR_WRITE, false).is_err());
    assert_eq!(judge(&security, &us(), right::PARENT_WRITE, true), Ok(()));
    let root = Security {
        owner: Sid::trusted_installer(),
        ..security.clone()
    };
    assert_eq!(
        root.owner.to_string(),
        "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"
    );
    assert_eq!(judge(&root, &us(), right::PARENT_WRITE, true), Ok(()));
    assert!(judge(&root, &us(), right::DIR_WRITE, false).is_err());
    let elevated = Us {
        user: user(),
        owner: Sid::administrators(),
    };
    assert_eq!(judge(&security, &elevated, right::DIR_WRITE, false), Ok(()));
}

/// A parent like `C:\`: others may add a directory to it, which cannot
/// touch ours; removing or renaming entries is what a parent must not allow.
#[test]
fn a_parent_only_needs_to_keep_others_from_removing_entries() {
    let root = [
        (ACCESS_ALLOWED, 0, FULL, &Sid::administrators()),
        (ACCESS_ALLOWED, 0, right::ADD_SUBDIRECTORY | READ, &other()),
    ];
    assert_eq!(judged(user(), &root, right::PARENT_WRITE), Ok(()));
    assert!(judged(user(), &root, right::DIR_WRITE).is_err());
    let shared = [(ACCESS_ALLOWED, 0, right::DELETE_CHILD, &other())];
    assert!(judged(user(), &shared, right::PARENT_WRITE).is_err());
}

#[test]
fn a_null_dacl_and_an_unreadable_allow_are_refused() {
    let security = Security {
        owner: user(),
        dacl: None,
    };
    assert_eq!(
        judge(&security, &us(), right::DIR_WRITE, false),
        Err(AclProblem::NullDacl)
    );
    let mut bytes = acl(&[(ACCESS_ALLOWED, 0, FULL, &user())]);
    bytes[8] = 0x5; // ACCESS_ALLOWED_OBJECT_ACE_TYPE
    let security = Security {
        owner: user(),
        dacl: parse_acl(&bytes),
    };
    assert_eq!(
        judge(&security, &us(), right::DIR_WRITE, false),
        Err(AclProblem::Unreadable { kind: 0x5 })
    );
}

#[test]
fn malformed_acls_are_not_read() {
    let whole = acl(&[(ACCESS_ALLOWED, 0, FULL, &user())]);
    for cut in 0..whole.len() {
        assert_eq!(parse_acl(&whole[..cut]), None, "cut at {cut}");
    }
    let mut wrong_len = whole.clone();
    wrong_len[10] = 200; // the entry claims more bytes than the ACL has
    assert_eq!(parse_acl(&wrong_len), None);
    let empty = acl(&[]);
    assert_eq!(parse_acl(&empty), Some(Vec::new()));
}
