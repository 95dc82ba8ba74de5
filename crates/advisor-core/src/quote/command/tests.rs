//! Unit tests of the command-line renderings and their bounds.

use super::*;

fn path(raw: &str) -> Result<String, Refusal> {
    CommandPath::new(raw).map(|p| p.0)
}

/// The bound counts characters, whatever their width: `max` of them pass
/// (four-byte ones too), one more does not.
#[test]
fn a_length_bound_counts_characters() {
    let cases: &[(String, usize, Result<(), Refusal>)] = &[
        (String::new(), 3, Err(Refusal::Empty)),
        ("abc".into(), 3, Ok(())),
        ("abcd".into(), 3, Err(Refusal::TooLong)),
        ("é".repeat(8), 8, Ok(())),
        ("\u{1F600}".repeat(3), 3, Ok(())),
        ("\u{1F600}".repeat(4), 3, Err(Refusal::TooLong)),
    ];
    for (text, max, expected) in cases {
        assert_eq!(&check_len(text, *max), expected, "{text:?} within {max}");
    }
}

#[test]
fn paths_are_drive_absolute_and_normalized() {
    assert_eq!(path(r"D:\ws"), Ok(r"D:\ws".to_owned()));
    assert_eq!(path("D:/ws//sub/"), Ok(r"D:\ws\sub".to_owned()));
    assert_eq!(path(r"D:\"), Ok(r"D:\".to_owned()));
    assert_eq!(path(r"\\host\share\ws"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path(r"\\?\D:\ws"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path(r"\\.\PhysicalDrive0"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path(r"ws\sub"), Err(Refusal::NotDriveAbsolute));
    assert_eq!(path(r"D:ws"), Err(Refusal::NotDriveAbsolute));
    assert_eq!(path(r"D:\ws\..\Windows"), Err(Refusal::DotComponent));
    assert_eq!(path(r"D:\ws\.\x"), Err(Refusal::DotComponent));
    assert_eq!(path(r"D:\ws.\x"), Err(Refusal::TrailingDotOrSpace));
    assert_eq!(
        path(r#"D:\ws" & del /s /q C:\ & ""#),
        Err(Refusal::Character)
    );
    assert_eq!(path("D:\\proj\u{201E}; calc"), Err(Refusal::Character));
    assert_eq!(path("D:\\a\u{200B}b"), Err(Refusal::Invisible));
    assert_eq!(path(r"D:\50%"), Err(Refusal::Character));
    assert_eq!(path(""), Err(Refusal::Empty));
    assert_eq!(
        path(&format!("D:\\{}", "a".repeat(300))),
        Err(Refusal::TooLong)
    );
    assert_eq!(path(r"D:\项目\proj[1]"), Ok(r"D:\项目\proj[1]".to_owned()));
    assert_eq!(path(r"D:\ws\NUL"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path(r"D:\ws\com1.txt\x"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path("D:\\LPT\u{B9}"), Err(Refusal::NetworkOrDevice));
    assert_eq!(path(r"D:\CONIN$"), Err(Refusal::NetworkOrDevice));
    assert_eq!(
        path(r"D:\console\COM10"),
        Ok(r"D:\console\COM10".to_owned())
    );
}

#[test]
fn renderings_quote_for_their_shell() {
    let p = CommandPath::new(r"D:\it's").unwrap_or_else(|_| unreachable!());
    assert_eq!(p.powershell().as_str(), r"'D:\it''s'");
    assert_eq!(p.cmd().as_str(), r#""D:\it's""#);
    let root = CommandPath::new(r"D:\").unwrap_or_else(|_| unreachable!());
    assert_eq!(root.cmd().as_str(), r#""D:\\""#);
    assert_eq!(root.powershell().as_str(), r"'D:\'");
    assert_eq!(
        PsLiteral::new("a\u{2019}b").map(|l| l.0),
        Ok("'a\u{2019}\u{2019}b'".to_owned())
    );
    assert_eq!(CmdArg::new("%PATH%"), Err(Refusal::Character));
    assert_eq!(CmdArg::new("a\u{200B}"), Err(Refusal::Invisible));
    assert_eq!(PsLiteral::new(r#"a" /grant x "b"#), Err(Refusal::Character));
    assert_eq!(PsLiteral::new(r"D:\my dir\"), Err(Refusal::Character));
    assert_eq!(PsLiteral::new(r"D:\").map(|l| l.0), Ok(r"'D:\'".to_owned()));
}

#[test]
fn slots_say_why_a_placeholder_stands_in() {
    let slot = PathSlot::new(&Untrusted::new(r"\\host\share"), "<dir>");
    assert_eq!(slot.powershell(), "<dir>");
    assert_eq!(slot.refusal(), Some(Refusal::NetworkOrDevice));
    assert!(slot.note().is_some_and(|n| n.contains("<dir>")));
    let ok = PathSlot::new(&Untrusted::new(r"D:\ws"), "<dir>");
    assert_eq!(ok.powershell(), r"'D:\ws'");
    assert_eq!(ok.note(), None);
}
