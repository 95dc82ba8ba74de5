//! Properties over arbitrary messages: only the producer's first line is recognized,
//! and what follows it never changes the advice.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns

use advisor_core::testing::{failure, failure_with, host};
use advisor_core::{Environment, Family, Platform, PolicyState};
use family_acl_aggregate::{AclAggregateFailure, Half, TEMP_SENTENCE, WORKSPACE_SENTENCE};
use proptest::prelude::*;

fn env() -> Environment {
    Environment {
        host: host(Platform::Win32),
        policy: PolicyState::NotConsulted,
        href: None,
        locale: advisor_core::Locale::En,
        host_version: None,
        checks: Default::default(),
    }
}

proptest! {
    #[test]
    fn a_prefixed_sentence_is_never_recognized(prefix in "[ -~]{1,40}") {
        prop_assume!(prefix != "Error: " && prefix != "AggregateError: ");
        for sentence in [TEMP_SENTENCE, WORKSPACE_SENTENCE] {
            let message = format!("{prefix}{sentence}");
            prop_assert!(AclAggregateFailure.recognize(&failure(&message)).is_none());
        }
    }

    #[test]
    fn what_follows_the_first_line_never_reaches_the_text(tail in "[ -~]{8,80}", member in "[ -~]{8,80}") {
        let message = format!("{TEMP_SENTENCE}\n{tail}");
        let obs = failure_with(&message, &format!("Error: {message}"), &[member.as_str()]);
        let finding = AclAggregateFailure.recognize(&obs).unwrap();
        let plain = AclAggregateFailure.recognize(&failure(TEMP_SENTENCE)).unwrap();
        let env = env();
        let text = AclAggregateFailure.advise(&finding, &env).text;
        prop_assert_eq!(&text, &AclAggregateFailure.advise(&plain, &env).text);
    }

    #[test]
    fn core_envelope_rule_decides_the_first_line(
        envelope in prop::sample::select(vec!["", "Error: ", "AggregateError: "]),
        trailing in "[ \t\r]{0,4}",
        tail in prop::option::of("[ -~]{0,40}"),
    ) {
        let tail = tail.map(|t| format!("\n{t}")).unwrap_or_default();
        for (sentence, half) in [(TEMP_SENTENCE, Half::Temp), (WORKSPACE_SENTENCE, Half::Workspace)] {
            let message = format!("{envelope}{sentence}{trailing}{tail}");
            let finding = AclAggregateFailure.recognize(&failure(&message)).unwrap();
            prop_assert_eq!(finding.half, half);
            prop_assert_eq!(finding.sentence.inspect(), sentence);
        }
    }

    #[test]
    fn arbitrary_messages_never_panic(message in any::<String>()) {
        let _ = AclAggregateFailure.recognize(&failure(&message));
    }
}
