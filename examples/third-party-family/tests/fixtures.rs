//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder().family(third_party_family::EgressBlocked),
        env!("CARGO_MANIFEST_DIR"),
    );
}
