//! Issue 24: the desktop trampoline's two failure lines, read in source and
//! never seen in a report, get their own advice in both locales. The shapes
//! and controls are fixtures (`pos-trampoline-*`, `ctl-trampoline-*`); these
//! tests pin what the snapshots must keep.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, verdict};
use advisor_core::{Advisory, Locale};
use family_native_init::NativeInit;

fn speak(name: &str) -> (Locale, Advisory) {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).expect("the fixture loads");
    let observation = case.observation().expect("an observation");
    let advisory = verdict(&NativeInit, observation, &case.environment(true))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"));
    (case.locale, advisory)
}

/// Each line's advice: what it says, and that it was never seen in a report.
#[test]
fn each_line_says_what_it_means_and_that_it_was_only_read_in_source() {
    for (name, must) in [
        (
            "pos-trampoline-no-console",
            &[
                "Windows refused to allocate one",
                "Win32 5 is ERROR_ACCESS_DENIED",
            ][..],
        ),
        (
            "pos-trampoline-no-console-other-code",
            &["`net helpmsg 1455`"][..],
        ),
        (
            "pos-trampoline-unexpected-runner",
            &["do not match", "Reinstall or update Desktop"][..],
        ),
        (
            "pos-trampoline-no-console-zh-cn",
            &["Windows 拒绝分配", "ERROR_ACCESS_DENIED"][..],
        ),
        ("pos-trampoline-unexpected-runner-zh-cn", &["不匹配"][..]),
    ] {
        let (locale, a) = speak(name);
        for needle in must {
            assert!(a.text.contains(needle), "{name}: {needle:?}\n{}", a.text);
        }
        let never_seen = match locale {
            Locale::En => "has not been seen in a report",
            Locale::ZhCn => "尚未在任何报告中出现",
        };
        assert!(a.text.contains(never_seen), "{name}");
        assert!(a.detail.contains("has not been seen in a report"), "{name}");
        assert!(
            !a.text.contains("danger-full-access"),
            "{name}: the brief names the unconfined mode"
        );
        assert!(
            a.text.contains("\n> windows-acl-run: desktop trampoline: "),
            "{name}: the line is quoted"
        );
    }
}

/// A code the advisor has no words for is looked up, never guessed.
#[test]
fn an_unknown_win32_code_is_not_given_a_meaning() {
    let (_, a) = speak("pos-trampoline-no-console-other-code");
    assert!(!a.text.contains("ERROR_"), "{}", a.text);
}
