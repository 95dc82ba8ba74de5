//! Every decision of the family — speak, decline, withhold, not recognized —
//! driven through one `check(fixture, env, expected)` (`tests/common`).
//!
//! Host facts and the resolved policy arrive through the `Environment`, the
//! way a harness supplies them; nothing here is a configuration knob.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers may fail loudly

mod common;

use advisor_core::testing::{self, resolved, unresolved};
use advisor_core::{Family, Platform, PolicyNeed, SandboxMode, Unresolved};
use common::{Expect, NOT_REPORTED, POSITIVES, ROOT, check, load, speak, windows};
use family_workspace_denial::WorkspaceDenial;
use serde_json::Value;

// ---- the anomaly: the containment arms that speak -----------------------

#[test]
fn mixed_case_forward_slashes_and_dot_dot_are_inside() {
    speak("pos_pwsh_case_slashes_dotdot", &windows());
    let upper_root = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(r"D:\WS"));
    speak("pos_pwsh_set_content_vendor", &upper_root);
}

#[test]
fn forward_slash_paths_are_inside() {
    speak("pos_bash_redirect_cache", &windows());
    let slash_root = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some("D:/ws/"));
    speak("pos_pwsh_set_content_vendor", &slash_root);
}

#[test]
fn a_working_directory_equal_to_the_root_does_not_block() {
    speak("pos_pwsh_copy_two_inside", &windows());
}

#[test]
fn the_mode_comes_from_the_stamp_not_the_policy() {
    let policy_says_read_only = resolved(Platform::Win32, SandboxMode::ReadOnly, Some(ROOT));
    speak("pos_pwsh_set_content_vendor", &policy_says_read_only);
    check(
        "neg_read_only_mode",
        &windows(),
        Expect::Decline("read-only"),
    );
}

// ---- sanctioned outcomes and unplaceable denials: declined --------------

#[test]
fn read_only_is_declined() {
    check(
        "neg_read_only_mode",
        &windows(),
        Expect::Decline("read-only"),
    );
}

#[test]
fn danger_full_access_is_declined() {
    check(
        "neg_danger_full_access_denied",
        &windows(),
        Expect::Decline("unconfined-mode"),
    );
    check(
        "neg_danger_full_access_real",
        &windows(),
        Expect::NotRecognized,
    );
}

#[test]
fn a_non_windows_host_is_declined_before_any_policy_lookup() {
    for platform in [Platform::Linux, Platform::Macos] {
        let env = resolved(platform, SandboxMode::WorkspaceWrite, Some(ROOT));
        check(
            "pos_pwsh_set_content_vendor",
            &env,
            Expect::Decline("not-windows"),
        );
        // Even a host whose resolver would fail is declined, not withheld: no lookup happens.
        let env = unresolved(platform, Unresolved::NoPolicyService);
        check(
            "pos_pwsh_set_content_vendor",
            &env,
            Expect::Decline("not-windows"),
        );
        let finding = WorkspaceDenial
            .recognize(&load("pos_pwsh_set_content_vendor"))
            .unwrap();
        assert_eq!(
            WorkspaceDenial.policy_need(&finding, &testing::host(platform)),
            PolicyNeed::NotNeeded
        );
    }
}

#[test]
fn a_windows_workspace_write_denial_needs_the_policy() {
    let finding = WorkspaceDenial
        .recognize(&load("pos_pwsh_set_content_vendor"))
        .unwrap();
    assert_eq!(
        WorkspaceDenial.policy_need(&finding, &testing::host(Platform::Win32)),
        PolicyNeed::Required
    );
}

#[test]
fn a_runner_failure_is_declined() {
    check(
        "neg_runner_failed",
        &windows(),
        Expect::Decline("runner-failure"),
    );
}

#[test]
fn a_path_outside_the_root_is_declined() {
    check(
        "neg_outside_root",
        &windows(),
        Expect::Decline("outside-root"),
    );
    check(
        "neg_unc_outside",
        &windows(),
        Expect::Decline("outside-root"),
    );
}

#[test]
fn an_outside_path_beside_inside_ones_is_declined() {
    check(
        "neg_outside_and_inside",
        &windows(),
        Expect::Decline("outside-root"),
    );
}

#[test]
fn relative_paths_only_are_declined() {
    check(
        "neg_relative_only",
        &windows(),
        Expect::Decline("relative-paths-only"),
    );
    check(
        "neg_drive_relative",
        &windows(),
        Expect::Decline("relative-paths-only"),
    );
    check(
        "neg_relative_with_root_cwd",
        &windows(),
        Expect::Decline("relative-paths-only"),
    );
}

#[test]
fn paths_that_cannot_be_placed_are_declined_without_the_root() {
    let no_service = unresolved(Platform::Win32, Unresolved::NoPolicyService);
    for (fixture, code) in [
        ("neg_relative_only", "relative-paths-only"),
        ("neg_variable_rooted_path", "variable-path"),
        ("neg_trailing_space_escape", "ambiguous-path"),
        ("neg_too_many_paths", "too-many-paths"),
    ] {
        check(fixture, &no_service, Expect::Decline(code));
    }
}

#[test]
fn the_root_itself_is_declined() {
    check("neg_names_root", &windows(), Expect::Decline("names-root"));
}

#[test]
fn a_string_prefix_is_not_containment() {
    check(
        "neg_sibling_prefix",
        &windows(),
        Expect::Decline("outside-root"),
    );
}

#[test]
fn dot_dot_that_leaves_the_root_is_outside() {
    check(
        "neg_dotdot_escape",
        &windows(),
        Expect::Decline("outside-root"),
    );
}

#[test]
fn another_drive_is_outside() {
    check(
        "neg_other_drive",
        &windows(),
        Expect::Decline("outside-root"),
    );
}

#[test]
fn a_variable_rooted_path_is_not_placed() {
    check(
        "neg_variable_rooted_path",
        &windows(),
        Expect::Decline("variable-path"),
    );
}

#[test]
fn a_component_windows_rewrites_is_not_placed() {
    check(
        "neg_trailing_space_escape",
        &windows(),
        Expect::Decline("ambiguous-path"),
    );
}

#[test]
fn too_many_paths_are_not_placed() {
    check(
        "neg_too_many_paths",
        &windows(),
        Expect::Decline("too-many-paths"),
    );
}

#[test]
fn paths_are_read_only_where_the_gate_could_speak() {
    // Each of these names the same inside path; only a workspace-write stamp
    // without a runner failure is worth the scan.
    for (fixture, scanned) in [
        ("pos_pwsh_set_content_vendor", true),
        ("neg_read_only_mode", false),
        ("neg_danger_full_access_denied", false),
        ("neg_runner_failed", false),
    ] {
        let finding = WorkspaceDenial.recognize(&load(fixture)).unwrap();
        assert_eq!(!finding.named.paths.is_empty(), scanned, "{fixture}");
    }
}

// ---- the root cannot be resolved: withheld (disclosed once by the core) --

#[test]
fn an_unresolvable_root_is_withheld() {
    let fixture = "pos_pwsh_set_content_vendor";
    for (why, code) in [
        (Unresolved::NoPolicyService, "no-policy-service"),
        (Unresolved::NoSession, "no-session"),
        (Unresolved::ResolverError("boom".into()), "resolver-error"),
    ] {
        check(
            fixture,
            &unresolved(Platform::Win32, why),
            Expect::Withhold(code),
        );
    }
    let no_root = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, None);
    check(fixture, &no_root, Expect::Withhold("no-workspace-root"));
    let relative_root = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some("ws"));
    check(
        fixture,
        &relative_root,
        Expect::Withhold("workspace-root-not-absolute"),
    );
}

// ---- not the producer's shape: never recognized -------------------------

#[test]
fn denial_text_without_the_stamp_is_not_recognized() {
    check("neg_text_only_denial", &windows(), Expect::NotRecognized);
    check(
        "neg_quoted_stamp_in_stdout",
        &windows(),
        Expect::NotRecognized,
    );
    check("neg_failure_result", &windows(), Expect::NotRecognized);
}

#[test]
fn a_stamp_without_denied_is_not_recognized() {
    check("neg_not_denied", &windows(), Expect::NotRecognized);
}

#[test]
fn a_reported_clean_exit_is_not_a_denial() {
    check("neg_denied_exit_zero", &windows(), Expect::NotRecognized);
    // A missing exit code adds nothing: without the denied stamp there is nothing to recognize.
    check(
        "neg_exit_absent_not_denied",
        &windows(),
        Expect::NotRecognized,
    );
}

#[test]
fn an_unknown_mode_is_not_recognized() {
    check("neg_unknown_mode", &windows(), Expect::NotRecognized);
}

#[test]
fn other_value_shapes_are_not_recognized() {
    check("neg_background_job", &windows(), Expect::NotRecognized);
}

// ---- tidy ---------------------------------------------------------------

#[test]
fn tidy_every_fixture_is_exercised_and_documented() {
    let source = [
        include_str!("workspace_denial.rs"),
        include_str!("advisory.rs"),
        include_str!("hostile.rs"),
        include_str!("common/mod.rs"),
    ]
    .concat();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut positives = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let stem = name.strip_suffix(".json").unwrap();
        assert!(
            source.contains(&format!("\"{stem}\"")),
            "{stem} is never checked"
        );
        assert!(
            stem.starts_with("pos_") || stem.starts_with("neg_"),
            "{stem}"
        );
        positives += usize::from(stem.starts_with("pos_"));
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}")).unwrap())
                .unwrap();
        assert!(
            v["note"].as_str().is_some_and(|n| !n.is_empty()),
            "{stem} has no note"
        );
    }
    assert_eq!(positives, POSITIVES.len() + NOT_REPORTED.len());
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("What it refuses"));
}

#[test]
fn the_family_documents_itself() {
    let doc = WorkspaceDenial.doc();
    assert!(!doc.recognizes.is_empty() && !doc.refuses.is_empty());
    assert_eq!(WorkspaceDenial.id(), family_workspace_denial::ID);
    assert_eq!(WorkspaceDenial.id().as_str(), "workspace-denial");
}
