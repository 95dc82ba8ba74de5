//! Parsing `cargo test` output and judging the named tests.

use super::*;

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

const OUTPUT: &str = "\
   Compiling scratch v0.1.0 (/tmp/s)
    Finished `test` profile [unoptimized] target(s) in 0.5s
     Running unittests src/lib.rs (target/debug/deps/scratch-0123abcd)

running 4 tests
test tests::adds ... ok
test tests::refuses_sibling ... FAILED
test tests::slow ... ignored, needs a pty
test tests::panics - should panic ... ok

failures:

---- tests::refuses_sibling stdout ----
test fake ... FAILED
error[E0308]: printed by the test, not by rustc
thread 'tests::refuses_sibling' panicked at src/lib.rs:9:5

failures:
    tests::refuses_sibling

test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/arms.rs (target/debug/deps/arms-4567)

running 2 tests
test whole_line_only ... ok <0.001s>
test tests::adds ... FAILED

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

#[test]
fn parses_result_lines() {
    assert_eq!(
        parse_test_line("test a::b ... ok"),
        Some(("a::b".to_owned(), Outcome::Passed))
    );
    assert_eq!(
        parse_test_line("test x ... FAILED"),
        Some(("x".to_owned(), Outcome::Failed))
    );
    assert_eq!(
        parse_test_line("test x ... ignored, slow"),
        Some(("x".to_owned(), Outcome::Ignored))
    );
    assert_eq!(
        parse_test_line("test p - should panic ... ok"),
        Some(("p".to_owned(), Outcome::Passed))
    );
    assert_eq!(parse_test_line("test result: ok. 1 passed; 0 failed"), None);
    assert_eq!(
        parse_test_line("test x has been running for over 60 seconds"),
        None
    );
    assert_eq!(parse_test_line("test b ... bench:  12 ns/iter"), None);
    assert_eq!(parse_test_line("running 2 tests"), None);
}

#[test]
fn parses_a_whole_run() {
    let parsed = parse(&lines(OUTPUT));
    assert_eq!(parsed.summaries, 2);
    assert!(parsed.build_errors.is_empty(), "{:?}", parsed.build_errors);
    // `error[E0308]` printed by a test is no compile error.
    assert!(!parsed.did_not_compile());
    assert_eq!(parsed.binaries, ["unittests src/lib.rs", "tests/arms.rs"]);
    assert_eq!(
        parsed.outcomes["tests::adds"],
        [
            ("unittests src/lib.rs".to_owned(), Outcome::Passed),
            ("tests/arms.rs".to_owned(), Outcome::Failed)
        ]
    );
    assert_eq!(parsed.outcomes["whole_line_only"][0].1, Outcome::Passed);
    assert_eq!(parsed.outcomes["tests::slow"][0].1, Outcome::Ignored);
    assert!(parsed.crashes.is_empty());
    // `test fake ... FAILED` was printed by a test, inside `failures:`.
    assert!(!parsed.outcomes.contains_key("fake"));
}

#[test]
fn build_errors_before_any_binary_ran() {
    let out = "   Compiling s v0.1.0\nerror[E0308]: mismatched types\n --> src/lib.rs:3:5\nerror: could not compile `s` (lib) due to 1 previous error\n";
    let parsed = parse(&lines(out));
    assert_eq!(parsed.summaries, 0);
    assert_eq!(parsed.build_errors.len(), 2);
    assert!(parsed.did_not_compile());
    assert!(parsed.binaries.is_empty());
    assert_eq!(
        error_summary(&lines(out)),
        "error[E0308]: mismatched types; error: could not compile `s` (lib) due to 1 previous error"
    );
}

#[test]
fn an_integration_test_that_does_not_compile_stops_the_run() {
    // `cargo test --no-fail-fast` (cargo 1.95) when one of several test
    // targets does not compile: nothing runs, exit 101.
    let out = "   Compiling kg v0.1.0 (/tmp/kg)\nerror[E0308]: mismatched types\n --> tests/bad-name.rs:1:36\n  |\nSome errors have detailed explanations: E0277, E0308.\nerror: could not compile `kg` (test \"bad-name\") due to 2 previous errors\n";
    let parsed = parse(&lines(out));
    assert!(parsed.did_not_compile());
    assert_eq!(parsed.summaries, 0);
    // A cargo error that is not the compiler's.
    let cargo = parse(&lines(
        "error: no test target named `nope` in `kg` package\n",
    ));
    assert_eq!(cargo.build_errors.len(), 1);
    assert!(!cargo.did_not_compile());
}

#[test]
fn running_labels() {
    assert_eq!(
        running_label("     Running unittests src/lib.rs (target/debug/deps/x-0123)"),
        Some("unittests src/lib.rs")
    );
    assert_eq!(
        running_label("     Running tests/multi/main.rs (/t/debug/deps/multi-1)"),
        Some("tests/multi/main.rs")
    );
    assert_eq!(running_label("     Running `rustc --crate-name x`"), None);
    assert_eq!(running_label("   Compiling x v0.1.0"), None);
    assert_eq!(running_label("running 2 tests"), None);
    assert!(is_compile_error("error[E0425]: cannot find value `x`"));
    assert!(is_compile_error(
        "error: could not compile `x` (lib) due to 1 previous error"
    ));
    assert!(!is_compile_error(
        "error: test failed, to rerun pass `--lib`"
    ));
}

#[test]
fn notes_crashed_binaries() {
    let out = "     Running unittests src/lib.rs (target/debug/deps/s-1)\n\nrunning 1 test\n\nthread 'tests::x' has overflowed its stack\nfatal runtime error: stack overflow\nerror: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit successfully: `/t/debug/deps/s-1` (signal: 6, SIGABRT: process abort signal)\n";
    let parsed = parse(&lines(out));
    assert_eq!(parsed.summaries, 0);
    assert!(parsed.outcomes.is_empty());
    assert_eq!(parsed.crashes.len(), 1);
}

#[test]
fn classifies() {
    let outcomes = parse(&lines(OUTPUT)).outcomes;
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        classify(
            &names(&["tests::refuses_sibling"]),
            None,
            &outcomes,
            "did not run"
        ),
        Verdict::Caught(names(&["tests::refuses_sibling"]))
    );
    let Verdict::Silent(silent, failed) = classify(
        &names(&[
            "tests::refuses_sibling",
            "whole_line_only",
            "nope",
            "tests::slow",
            "tests::adds",
        ]),
        None,
        &outcomes,
        "did not run",
    ) else {
        panic!("expected SILENT");
    };
    assert_eq!(failed, names(&["tests::refuses_sibling"]));
    assert_eq!(
        silent,
        [
            ("whole_line_only".to_owned(), "passed".to_owned()),
            ("nope".to_owned(), "did not run".to_owned()),
            ("tests::slow".to_owned(), "ignored".to_owned()),
            (
                "tests::adds".to_owned(),
                "passed in unittests src/lib.rs".to_owned()
            ),
        ]
    );
    // With a baseline, a name it never saw says so (still SILENT).
    let Verdict::Silent(silent, _) = classify(
        &names(&["nope", "whole_line_only"]),
        Some(&BTreeMap::new()),
        &Outcomes::new(),
        "did not run",
    ) else {
        panic!("expected SILENT");
    };
    assert_eq!(
        silent[0],
        (
            "nope".to_owned(),
            "no such test: not in any test target of the unmutated run".to_owned()
        )
    );
    let baseline = outcomes.clone();
    assert!(matches!(
        classify(&names(&["tests::refuses_sibling"]), Some(&baseline), &outcomes, "x"),
        Verdict::Broken(reason) if reason.contains("already FAILED")
    ));
}

#[test]
fn a_failure_of_the_slot_is_told_from_the_sources() {
    // Recorded (cargo 1.95): a slot whose `family-acl` came from another
    // tree's build, running `cargo test -p host-adapter` for a mutation of
    // host-adapter (shortened to the first error).
    let seed = "   Compiling divan v0.1.21
   Compiling host-adapter v0.1.0 (/tmp/inject-ws/target/inject/tree-2/crates/host-adapter)
error[E0463]: can't find crate for `advisor_core`
  --> crates/host-adapter/src/registry.rs:23:44
   |
23 |     let builder = builder.fail_fast_family(family_acl::AclProvisioning);
   |                                            ^^^^^^^^^^ can't find crate

For more information about this error, try `rustc --explain E0463`.
error: could not compile `host-adapter` (lib) due to 12 previous errors
";
    let mutation = "   Compiling family-pty v0.1.0 (/tmp/w/crates/family-pty)
error[E0308]: mismatched types
 --> crates/family-pty/src/recognize.rs:3:5
error: could not compile `family-pty` (lib) due to 1 previous error
error: could not compile `host-adapter` (lib) due to 1 previous error
";
    let check = |out: &str, touched: &dyn Fn(&str) -> bool, want: Option<&str>| {
        assert_eq!(
            foreign_failure(&lines(out), touched).as_deref(),
            want,
            "{out}"
        );
    };
    let everything = |_: &str| true;
    let only_pty = |c: &str| c == "family-pty";
    let want = "`host-adapter` does not build: error[E0463]: can't find crate for `advisor_core`";
    // A library that does not load is the slot's, whatever the mutation reaches.
    check(seed, &everything, Some(want));
    check(seed, &only_pty, Some(want));
    // A compile error in a crate the mutation reaches is the mutation's...
    check(mutation, &everything, None);
    // ... and one in a crate it cannot reach is the slot's.
    let pty_untouched = |c: &str| c != "family-pty";
    check(
        mutation,
        &pty_untouched,
        Some("`family-pty` does not build: error[E0308]: mismatched types"),
    );
    // Output after a test binary started is not a build's.
    let later = format!("     Running unittests src/lib.rs (x)\n{seed}");
    check(&later, &everything, None);
}
