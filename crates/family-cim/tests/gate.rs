//! The gate: Windows and a confining resolved mode, or withhold and disclose.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

mod common;

use advisor_core::SandboxMode::{DangerFullAccess, ReadOnly, WorkspaceWrite};
use advisor_core::{Platform, PolicyNeed, Unresolved};
use common::{Expect, check, elsewhere, windows, windows_unresolved};

fn withheld(reason: &'static str, policy: PolicyNeed) -> Expect {
    Expect::Withheld { reason, policy }
}

#[test]
fn workspace_write_speaks() {
    check("en_record", windows(WorkspaceWrite), Expect::Speaks);
}

#[test]
fn read_only_speaks() {
    check("zh_record", windows(ReadOnly), Expect::Speaks);
}

#[test]
fn danger_full_access_is_withheld() {
    let expect = withheld("unconfined-mode", PolicyNeed::Required);
    check("en_record", windows(DangerFullAccess), expect);
}

#[test]
fn unresolvable_mode_is_withheld() {
    for (why, code) in [
        (Unresolved::NoPolicyService, "no-policy-service"),
        (Unresolved::NoSession, "no-session"),
        (Unresolved::ResolverError("boom".into()), "resolver-error"),
    ] {
        check(
            "zh_record",
            windows_unresolved(why),
            withheld(code, PolicyNeed::Required),
        );
    }
}

#[test]
fn linux_is_withheld_without_a_policy_lookup() {
    let expect = withheld("platform-out-of-scope", PolicyNeed::NotNeeded);
    check("en_record", elsewhere(Platform::Linux), expect);
}

#[test]
fn macos_is_withheld_without_a_policy_lookup() {
    let expect = withheld("platform-out-of-scope", PolicyNeed::NotNeeded);
    check("zh_record", elsewhere(Platform::Macos), expect);
}
