//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder().family(family_sandbox_socket_denied::SandboxSocketDenied),
        env!("CARGO_MANIFEST_DIR"),
    );
}
