//! Recognition and gate arms: the producer's shapes and their look-alikes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use advisor_core::testing::{observation, resolved, unresolved};
use advisor_core::{Outcome, Platform, Unresolved};
use common::*;
use family_native_init::NativeInit;

// ---- recognition: positive arms -------------------------------------------------

#[test]
fn signed_spelling_is_recognized() {
    speak("pos_signed_workspace_write", &win(WW));
}

#[test]
fn unsigned_spelling_is_recognized() {
    speak("pos_unsigned_runner_mirror", &win(WW));
}

#[test]
fn foreground_with_the_newer_stopped_field_is_recognized() {
    speak("pos_foreground_stopped_field", &win(WW));
}

// ---- recognition: control arms ---------------------------------------------------

#[test]
fn printed_marker_with_another_exit_code_is_refused() {
    for f in ["neg_printed_marker_exit_1", "neg_printed_marker_exit_0"] {
        check(f, &win(WW), Expect::Refused);
    }
}

#[test]
fn exit_code_as_string_or_float_is_refused() {
    check("neg_string_exit_code", &win(WW), Expect::Refused);
    check("neg_float_exit_code", &win(WW), Expect::Refused);
}

#[test]
fn values_of_another_shape_are_refused() {
    for f in [
        "neg_background",
        "neg_background_with_exit_code",
        "neg_promoted",
        "neg_other_tool_value",
        "neg_other_kind",
    ] {
        check(f, &win(WW), Expect::Refused);
    }
}

#[test]
fn sibling_statuses_are_refused() {
    for f in [
        "neg_fast_fail_signed",
        "neg_fast_fail_unsigned",
        "neg_missing_dll_signed",
        "neg_missing_dll_unsigned",
        "neg_exit_127",
        "neg_exit_0",
        "neg_exit_null_signal",
        "neg_msys2_table_cmd_ok",
        "neg_msys2_table_pwsh_ok",
    ] {
        check(f, &win(WW), Expect::Refused);
    }
}

#[test]
fn a_number_beyond_32_bits_is_refused() {
    check("neg_out_of_32_bits", &win(WW), Expect::Refused);
}

#[test]
fn failure_results_carrying_the_code_are_refused() {
    check("neg_failure_with_code", &win(WW), Expect::Refused);
    check("neg_failure_unsigned_code", &win(WW), Expect::Refused);
}

#[test]
fn a_failure_result_never_reaches_the_recognizer_either() {
    // Without the registry's prefilter: the recognizer itself reads successes only.
    let family = NativeInit;
    let obs = load("neg_failure_with_code");
    assert!(advisor_core::Family::recognize(&family, &obs).is_none());
    let mut forged = observation(Outcome::Failure(Default::default()));
    forged.arguments = serde_json::json!({"command": "x"});
    assert!(advisor_core::Family::recognize(&family, &forged).is_none());
}

#[test]
fn a_runner_failure_stamp_is_refused() {
    check("neg_runner_failed", &win(WW), Expect::Refused);
}

// ---- gate ------------------------------------------------------------------------

#[test]
fn confining_modes_speak() {
    speak("pos_signed_workspace_write", &win(WW));
    speak("pos_no_stamp", &win(RO));
}

#[test]
fn danger_full_access_in_the_policy_withholds() {
    for f in ["pos_signed_workspace_write", "pos_no_stamp"] {
        check(f, &win(DANGER), Expect::Withheld("unconfined-mode"));
    }
}

#[test]
fn danger_full_access_in_the_stamp_withholds() {
    check(
        "pos_stamp_danger",
        &win(WW),
        Expect::Withheld("unconfined-mode"),
    );
}

#[test]
fn an_unresolved_mode_withholds() {
    for why in [
        Unresolved::NoPolicyService,
        Unresolved::NoSession,
        Unresolved::ResolverError("boom".into()),
    ] {
        let code = why.code();
        let env = unresolved(Platform::Win32, why);
        check("pos_no_stamp", &env, Expect::Withheld(code));
        // A stamp does not stand in for the session's policy.
        check("pos_signed_workspace_write", &env, Expect::Withheld(code));
    }
}

#[test]
fn an_unrecognized_stamp_mode_withholds() {
    check(
        "pos_stamp_unknown_mode",
        &win(WW),
        Expect::Withheld(family_native_init::UNRECOGNIZED_STAMP_MODE),
    );
}

#[test]
fn there_is_no_platform_gate() {
    for platform in [Platform::Linux, Platform::Macos] {
        speak("pos_signed_workspace_write", &resolved(platform, WW, None));
    }
}

// ---- tidy --------------------------------------------------------------------------

#[test]
fn every_fixture_is_exercised() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let source = concat!(include_str!("recognition.rs"), include_str!("advisory.rs"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let stem = name.trim_end_matches(".json");
        assert!(
            source.contains(&format!("\"{stem}\"")),
            "fixture {name} is not used by any test"
        );
        assert!(
            stem.starts_with("pos_") || stem.starts_with("neg_"),
            "{name}"
        );
    }
}
