//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    let registry = advisor_core::Registry::builder()
        .family(family_cim::CimWmiDenial)
        .build()
        .expect("one family registers");
    advisor_core::testing::check(&registry, env!("CARGO_MANIFEST_DIR"));
}
