//! The host gate: Codex's output on another host never reaches this family.
//!
//! These two controls live in `tests/other-hosts/`, not `tests/fixtures/`:
//! `advisor_core::testing::check` compares the registry's owner with every
//! family's recognizer regardless of the case's host, so a family of one host
//! cannot carry another host's control there yet. They go through the same
//! `decide` the check uses.

use advisor_core::Registry;
use advisor_core::testing::{Case, decide};

#[test]
fn other_hosts_have_no_owner() {
    let registry = Registry::builder()
        .family(family_codex_protected_path::CodexProtectedPath)
        .build()
        .expect("registry");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/other-hosts");
    for name in ["ctl-claude-code-host", "ctl-dsh-host"] {
        let case = Case::load(&dir.join(format!("{name}.toml"))).expect("fixture");
        let got = decide(&registry, &case);
        assert_eq!(got.family, None, "{name}: {}", got.report);
    }
}
