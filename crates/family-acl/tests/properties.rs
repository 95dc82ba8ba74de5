//! Properties over arbitrary text: the recognizer never panics, never reads a
//! success, and never matches without its anchor.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::Family;
use advisor_core::testing::{failure_with, foreground, success};
use family_acl::AclProvisioning;
use proptest::prelude::*;

const NEEDLE: &str = "NamedSecurityInfoW failed (Win32 ";
const LINE: &str = r"Error: SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("SetNamedSecurityInfoW failed (Win32 ".to_owned()),
        Just("GetNamedSecurityInfoW failed (Win32 ".to_owned()),
        Just("Error: ".to_owned()),
        Just("windows-acl-run: ".to_owned()),
        Just(" Runner failure: ".to_owned()),
        Just("grantWrite(".to_owned()),
        Just("): ".to_owned()),
        Just(")".to_owned()),
        Just("\n".to_owned()),
        "[0-9]{1,3}",
        "[ -~]{0,8}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..12).prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn anchor_is_necessary_and_successes_are_never_read(message in text(), content in text()) {
        let observed = failure_with(&message, &content, &[]);
        if let Some(finding) = AclProvisioning.recognize(&observed) {
            prop_assert!(message.contains(NEEDLE) || content.contains(NEEDLE));
            prop_assert!(finding.code != 0);
            prop_assert!(finding.path().is_none_or(|p| !p.inspect().is_empty()));
            prop_assert!(finding.line().inspect().starts_with(finding.api.as_str()));
        }
        // A success never matches, even when its output holds a well-formed line.
        let rendered = format!("{content}\n{LINE}");
        let quoted = success(foreground(1, &message, &rendered, None), &rendered);
        prop_assert!(AclProvisioning.recognize(&quoted).is_none());
    }
}
