//! Reading `cargo test` output (cargo's stderr and libtest's stdout, merged)
//! and deciding what a mutation did to the named tests.

use std::collections::BTreeMap;

/// What libtest said about one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `test x ... ok`
    Passed,
    /// `test x ... FAILED`
    Failed,
    /// `test x ... ignored`
    Ignored,
}

/// Every result seen, by test name; each name may occur in several test
/// binaries (`(binary, outcome)`).
pub type Outcomes = BTreeMap<String, Vec<(String, Outcome)>>;

/// What one `cargo test` output held.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Per-test results.
    pub outcomes: Outcomes,
    /// Number of `test result:` summary lines (one per test binary run).
    pub summaries: usize,
    /// Labels of the test binaries cargo started (`unittests src/lib.rs`,
    /// `tests/arms.rs`), in order.
    pub binaries: Vec<String>,
    /// Compiler / cargo error lines seen before any test binary ran.
    pub build_errors: Vec<String>,
    /// cargo's `process didn't exit successfully` lines: test binaries that
    /// crashed or were killed before reporting every test.
    pub crashes: Vec<String>,
}

/// Parses one libtest result line: `test <name> ... ok|FAILED|ignored`.
pub fn parse_test_line(line: &str) -> Option<(String, Outcome)> {
    let rest = line.strip_prefix("test ")?;
    let (name, status) = rest.split_once(" ... ")?;
    let status = status.split_whitespace().next()?.trim_end_matches(',');
    let outcome = match status {
        "ok" => Outcome::Passed,
        "FAILED" => Outcome::Failed,
        "ignored" => Outcome::Ignored,
        _ => return None,
    };
    let name = name.strip_suffix(" - should panic").unwrap_or(name).trim();
    if name.is_empty() {
        return None;
    }
    Some((name.to_owned(), outcome))
}

/// The label of a cargo `Running` line: `unittests src/lib.rs` for
/// `     Running unittests src/lib.rs (target/debug/deps/x-0123)`,
/// `tests/arms.rs` for an integration test. Labels are paths relative to the
/// package root, as cargo prints them.
pub fn running_label(line: &str) -> Option<&str> {
    let running = line.trim_start().strip_prefix("Running ")?;
    let label = running.split(" (").next().unwrap_or(running).trim();
    // `Running `rustc …`` (cargo -v) is a build step, not a test binary.
    (!label.is_empty() && !label.starts_with('`')).then_some(label)
}

/// Whether a line is one rustc or cargo prints when a crate does not
/// compile (`error[E0308]: ...`, ``error: could not compile `x` ...``).
pub fn is_compile_error(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("error[E") || (line.starts_with("error") && line.contains("could not compile"))
}

/// Parses merged `cargo test` output.
pub fn parse(lines: &[String]) -> Parsed {
    let mut parsed = Parsed::default();
    let mut binary: Option<String> = None;
    // After a binary's `failures:` line comes captured test output, which may
    // itself look like result lines; its results were all printed before.
    let mut in_failures = false;
    for line in lines {
        let trimmed = line.trim_start();
        if let Some(label) = running_label(trimmed) {
            binary = Some(label.to_owned());
            parsed.binaries.push(label.to_owned());
            in_failures = false;
            continue;
        }
        if trimmed == "failures:" {
            in_failures = true;
            continue;
        }
        if trimmed.starts_with("process didn't exit successfully: ")
            && trimmed.contains("(signal: ")
        {
            parsed.crashes.push(trimmed.to_owned());
            continue;
        }
        if trimmed.starts_with("test result: ") {
            parsed.summaries += 1;
            continue;
        }
        if binary.is_none() {
            if trimmed.starts_with("error[E") || trimmed.starts_with("error: ") {
                parsed.build_errors.push(trimmed.to_owned());
            }
            continue;
        }
        if in_failures {
            continue;
        }
        if let Some((name, outcome)) = parse_test_line(line) {
            let at = binary.clone().unwrap_or_default();
            parsed.outcomes.entry(name).or_default().push((at, outcome));
        }
    }
    parsed
}

impl Parsed {
    /// Whether the build failed to compile: a compiler error came before any
    /// test binary started (cargo builds every selected target before it
    /// runs one, and a failed build runs none).
    pub fn did_not_compile(&self) -> bool {
        self.build_errors.iter().any(|l| is_compile_error(l))
    }
}

/// Merges `more` into `into`.
pub fn merge(into: &mut Outcomes, more: Outcomes) {
    for (name, results) in more {
        into.entry(name).or_default().extend(results);
    }
}

/// What the named tests did under a mutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every named test ran and FAILED.
    Caught(Vec<String>),
    /// Some named test passed or did not run: `(name, why)`; the ones that
    /// did fail come second.
    Silent(Vec<(String, String)>, Vec<String>),
    /// The entry proves nothing for another reason.
    Broken(String),
}

/// Judges the named `tests`. `baseline` holds the same packages' results
/// without the mutation (a named test that already fails there proves
/// nothing); `missing` says why a test without any result did not run.
pub fn classify(
    tests: &[String],
    baseline: Option<&Outcomes>,
    mutated: &Outcomes,
    missing: &str,
) -> Verdict {
    if let Some(baseline) = baseline {
        let already: Vec<&str> = tests
            .iter()
            .filter(|t| {
                baseline
                    .get(*t)
                    .is_some_and(|r| r.iter().any(|(_, o)| *o == Outcome::Failed))
            })
            .map(String::as_str)
            .collect();
        if !already.is_empty() {
            return Verdict::Broken(format!(
                "already FAILED without the mutation: {}",
                already.join(", ")
            ));
        }
    }
    let mut failed = Vec::new();
    let mut silent = Vec::new();
    for test in tests {
        let results = mutated.get(test).map(Vec::as_slice).unwrap_or_default();
        let count = |want: Outcome| results.iter().filter(|(_, o)| *o == want).count();
        let (passed, ignored) = (count(Outcome::Passed), count(Outcome::Ignored));
        if results.is_empty() {
            let why = match baseline {
                Some(baseline) if !baseline.contains_key(test) => {
                    "no such test: not in any test target of the unmutated run".to_owned()
                }
                _ => missing.to_owned(),
            };
            silent.push((test.clone(), why));
        } else if passed > 0 {
            let places: Vec<&str> = results
                .iter()
                .filter(|(_, o)| *o == Outcome::Passed)
                .map(|(b, _)| b.as_str())
                .collect();
            let why = if results.len() > 1 {
                format!("passed in {}", places.join(", "))
            } else {
                "passed".to_owned()
            };
            silent.push((test.clone(), why));
        } else if ignored > 0 {
            silent.push((test.clone(), "ignored".to_owned()));
        } else {
            failed.push(test.clone());
        }
    }
    if silent.is_empty() {
        Verdict::Caught(failed)
    } else {
        Verdict::Silent(silent, failed)
    }
}

/// The first few compiler error lines of an output, for a BROKEN reason.
pub fn error_summary(lines: &[String]) -> String {
    let errors: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.starts_with("error"))
        .take(3)
        .collect();
    if errors.is_empty() {
        lines
            .iter()
            .rev()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .unwrap_or("no output")
            .to_owned()
    } else {
        errors.join("; ")
    }
}

#[cfg(test)]
mod tests {
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
}
