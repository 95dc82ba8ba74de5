//! Which producer shapes are this family's, and which look-alikes are not.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

mod common;

use common::{Expect, check, windows};
use family_acl_aggregate::{AclAggregateFailure, Half};

fn half(fixture: &str) -> Half {
    use advisor_core::Family;
    check(fixture, windows(), Expect::Speaks).unwrap();
    AclAggregateFailure
        .recognize(&common::load(fixture))
        .unwrap()
        .half
}

#[test]
fn temp_half_speaks() {
    assert_eq!(half("temp_half"), Half::Temp);
}

#[test]
fn workspace_half_speaks() {
    assert_eq!(half("workspace_half"), Half::Workspace);
}

#[test]
fn lock_root_member_shape_speaks() {
    assert_eq!(half("temp_half_lock_root"), Half::Temp);
}

#[test]
fn a_host_without_members_speaks() {
    assert_eq!(half("temp_half_no_members"), Half::Temp);
}

#[test]
fn error_envelope_speaks() {
    assert_eq!(half("temp_half_error_envelope"), Half::Temp);
}

#[test]
fn aggregate_error_name_form_speaks() {
    assert_eq!(half("workspace_half_aggregate_name"), Half::Workspace);
}

#[test]
fn core_envelope_rule_trailing_white_space_speaks() {
    assert_eq!(half("temp_half_trailing_white_space"), Half::Temp);
}

#[test]
fn core_envelope_rule_refuses_what_it_does_not_remove() {
    for fixture in ["temp_half_two_envelopes", "workspace_half_leading_space"] {
        check(fixture, windows(), Expect::Refused);
    }
}

#[test]
fn a_message_that_also_carries_an_acl_line_is_recognized_here() {
    // In the standard registry acl-provisioning is first and owns this one;
    // alone, this family must still recognize it, or that precedence would be untested.
    assert_eq!(half("temp_half_with_acl_line"), Half::Temp);
}

#[test]
fn runner_copy_is_refused() {
    check("runner_copy", windows(), Expect::Refused);
}

#[test]
fn quoted_in_a_longer_line_is_refused() {
    check("quoted_in_longer_line", windows(), Expect::Refused);
}

#[test]
fn misspelt_workspace_half_is_refused() {
    check("workspace_with_materialization", windows(), Expect::Refused);
}

#[test]
fn trailing_period_is_refused() {
    check("trailing_period", windows(), Expect::Refused);
}

#[test]
fn sibling_aggregates_are_refused() {
    for fixture in [
        "aclsandbox_init",
        "aclsandbox_dispose",
        "aclwritegrant_dispose",
        "pty_cleanup",
        "provider_dispose_warning",
        "aclsandbox_init_via_runner",
    ] {
        check(fixture, windows(), Expect::Refused);
    }
}

#[test]
fn success_quoting_the_sentence_is_refused() {
    check("success_quoting", windows(), Expect::Refused);
}
