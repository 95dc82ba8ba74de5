//! Every fixture in `tests/fixtures/` through the family, registered as the
//! registry registers it (the fail-fast family), one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder().fail_fast_family(family_acl::AclProvisioning),
        env!("CARGO_MANIFEST_DIR"),
    );
}
