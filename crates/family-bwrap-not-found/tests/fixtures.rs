//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    advisor_core::testing::check(
        advisor_core::Registry::builder().family(family_bwrap_not_found::BwrapNotFound),
        env!("CARGO_MANIFEST_DIR"),
    );
}
