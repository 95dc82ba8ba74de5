//! The block under another agent host: the registry does not ask this family.
//!
//! These cases are fixtures in the one format (`tests/other-hosts/*.toml`),
//! decided by core's own `decide`, which asks only the observation's host's
//! families. They live beside `tests/fixtures/` rather than in it because
//! `advisor_core::testing::check` also runs every family's recognizer with
//! no host filter (to catch an anchor that hides a match), and a host-scoped
//! family recognizes the text there; once that comparison is host-aware they
//! can move into `tests/fixtures/`.

use advisor_core::testing::{Case, decide};
use advisor_core::{Host, Registry};

#[test]
fn the_block_under_another_host_has_no_owner() {
    let registry = Registry::builder()
        .family(family_sandbox_network_denied::SandboxNetworkDenied)
        .build()
        .unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/other-hosts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let hosts: Vec<Host> = files
        .iter()
        .map(|path| {
            let case = Case::load(path).unwrap();
            let got = decide(&registry, &case);
            assert_eq!(got.family, case.fixture.expect.family, "{}", case.name);
            assert_eq!(got.family, None, "{}: {}", case.name, got.report);
            // The same observation from Claude Code is this family's: only the host differs.
            let mut own = case.clone();
            own.host.kind = Host::ClaudeCode;
            let ours = decide(&registry, &own);
            assert_eq!(
                ours.family.as_deref(),
                Some("sandbox-network-denied"),
                "{}",
                case.name
            );
            case.host.kind
        })
        .collect();
    assert_eq!(hosts, [Host::Codex, Host::Dsh]);
}
