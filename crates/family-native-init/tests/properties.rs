//! Properties of the code comparison and of the text-blindness of the recognizer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{foreground, success};
use advisor_core::{Family, Registry};
use family_native_init::{NativeInit, is_dll_init_failed};
use proptest::prelude::*;
use serde_json::json;

const SIGNED: i64 = -1_073_741_502;
const UNSIGNED: i64 = 3_221_225_794;

fn stamped() -> Option<serde_json::Value> {
    Some(json!({"mode": "workspace-write", "denied": false, "enforcement": "partial"}))
}

proptest! {
    /// Exactly two integers are 0xC0000142: its signed and its unsigned 32-bit spelling.
    #[test]
    fn only_the_two_spellings_match(code in any::<i64>()) {
        prop_assert_eq!(is_dll_init_failed(code), code == SIGNED || code == UNSIGNED);
    }

    /// Near the two spellings too, where a loosened comparison would first show.
    #[test]
    fn neighbours_of_the_spellings_do_not_match(delta in 1i64..=0x10000, up in any::<bool>()) {
        for base in [SIGNED, UNSIGNED] {
            let code = if up { base + delta } else { base - delta };
            prop_assert!(!is_dll_init_failed(code));
        }
    }

    /// Recognition through the registry agrees with the comparison, whatever the text says.
    #[test]
    fn recognition_follows_the_value_not_the_text(
        code in prop_oneof![
            Just(SIGNED),
            Just(UNSIGNED),
            any::<i32>().prop_map(i64::from),
            any::<u32>().prop_map(i64::from),
        ],
        stdout in ".{0,80}",
    ) {
        let registry = Registry::builder().family(NativeInit).build().unwrap();
        let rendered = format!("{stdout}\n[exit code: {SIGNED}]");
        let stderr = "[exit code: -1073741502]";
        let obs = success(foreground(code, &stdout, stderr, stamped()), &rendered);
        prop_assert_eq!(registry.owner(&obs, advisor_core::Host::Dsh).is_some(), is_dll_init_failed(code));
        prop_assert_eq!(NativeInit.recognize(&obs).is_some(), is_dll_init_failed(code));
    }
}
