//! Every fixture in `tests/fixtures/` through the family, one snapshot each.

#[test]
fn fixtures() {
    let registry = advisor_core::Registry::builder()
        .family(family_native_init::NativeInit)
        .build()
        .expect("one family registers");
    advisor_core::testing::check(&registry, env!("CARGO_MANIFEST_DIR"));
}
