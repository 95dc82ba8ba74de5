//! README.md's Rust snippet is `examples/readme.rs`, which `cargo test` builds:
//! the README must show that file verbatim, in one fenced `rust` block, with no
//! rustdoc-hidden `# ` lines, so what a reader pastes is what compiles.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

const README: &str = include_str!("../../../README.md");
const SNIPPET: &str = include_str!("../examples/readme.rs");

#[test]
fn the_readme_shows_the_compiled_snippet_verbatim() {
    let block = format!("```rust\n{SNIPPET}```\n");
    assert!(
        README.contains(&block),
        "README.md's Rust snippet differs from crates/host-adapter/examples/readme.rs; \
         paste the file into the README's ```rust block"
    );
    assert_eq!(README.matches(&block).count(), 1, "shown once");
}
