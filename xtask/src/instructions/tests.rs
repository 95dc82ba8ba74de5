//! Tests of `cargo xtask instructions`: reading gungraun's summaries and the
//! baseline, the comparison, the table. Each case goes through [`check`].

use super::*;

/// What a case must come to.
enum Expect<'a> {
    /// The gate passes with exactly this report.
    Pass(&'a str),
    /// The gate fails with exactly this report.
    Fail(&'a str),
    /// Reading the inputs fails with an error containing this text.
    Error(&'a str),
}

/// The tools of the run; the baselines below record the same unless a case says otherwise.
fn tools() -> Tools {
    Tools(BTreeMap::from([
        ("rustc".to_owned(), "rustc 1.95.0".to_owned()),
        ("valgrind".to_owned(), "valgrind-3.19.0".to_owned()),
    ]))
}

/// gungraun's `--output-format=json` lines for `(function, id, instructions)`,
/// with only the fields the gate reads.
fn summaries(run: &[(&str, &str, u64)]) -> String {
    run.iter()
        .map(|(function, id, ir)| {
            format!(
                r#"{{"function_name":"{function}","id":"{id}","profiles":[{{"tool":"Callgrind","data":{{"total":{{"metrics":{{"Ir":{{"values":{{"new":{ir},"old":null}}}}}}}}}}}}]}}"#
            ) + "\n"
        })
        .collect()
}

/// A baseline file with `[recorded-with]` as [`tools`] and these counts.
fn baseline(counts: &str) -> String {
    format!(
        "# a comment\n[recorded-with]\nrustc = \"rustc 1.95.0\"\nvalgrind = \"valgrind-3.19.0\"\n\n[instructions]\n{counts}"
    )
}

/// Reads `baseline` and the bench's `stdout` as `main` does, judges, and
/// compares the report (or the error) with `expect`.
fn check(baseline: &str, stdout: &str, expect: Expect<'_>) {
    let judged = parse_baseline(baseline)
        .and_then(|b| parse_summaries(stdout).map(|run| judge(&b, &run, &tools())));
    match (judged, expect) {
        (Ok((report, true)), Expect::Pass(want)) | (Ok((report, false)), Expect::Fail(want)) => {
            assert_eq!(report, want, "\n{report}");
        }
        (Err(e), Expect::Error(want)) => {
            let e = format!("{e:#}");
            assert!(e.contains(want), "error {e:?} does not contain {want:?}");
        }
        (Ok((report, passed)), _) => panic!("passed: {passed}, report:\n{report}"),
        (Err(e), _) => panic!("error: {e:#}"),
    }
}

const FIX: &str = "If the change is intended, record it: `cargo xtask instructions --update`, and commit crates/sandbox-advisor/benches/instructions.baseline.toml with it.\n";

#[test]
fn the_same_counts_pass() {
    check(
        &baseline("\"a::x\" = 10000\n\"b::y\" = 1319496\n"),
        &summaries(&[("a", "x", 10000), ("b", "y", 1319496)]),
        Expect::Pass(
            "bench      baseline           now    change\n\
             a::x         10,000        10,000    +0.00%\n\
             b::y      1,319,496     1,319,496    +0.00%\n\
             ok: no bench grew by more than 3 % (2 run)\n",
        ),
    );
}

#[test]
fn growth_of_exactly_three_percent_passes_and_one_more_instruction_fails() {
    check(
        &baseline("\"a::x\" = 10000\n"),
        &summaries(&[("a", "x", 10300)]),
        Expect::Pass(
            "bench      baseline           now    change\n\
             a::x         10,000        10,300    +3.00%\n\
             ok: no bench grew by more than 3 % (1 run)\n",
        ),
    );
    check(
        &baseline("\"a::x\" = 10000\n\"b::y\" = 5\n"),
        &summaries(&[("a", "x", 10301), ("b", "y", 5)]),
        Expect::Fail(
            &("bench      baseline           now    change\n\
               a::x         10,000        10,301    +3.01%  GREW\n\
               b::y              5             5    +0.00%\n\
               FAIL: grew by more than 3 %: a::x\n"
                .to_owned()
                + FIX),
        ),
    );
}

#[test]
fn shrinking_passes_with_a_note_beyond_three_percent() {
    check(
        &baseline("\"a::x\" = 10000\n\"b::y\" = 10000\n"),
        &summaries(&[("a", "x", 9700), ("b", "y", 9699)]),
        Expect::Pass(
            "bench      baseline           now    change\n\
             a::x         10,000         9,700    -3.00%\n\
             b::y         10,000         9,699    -3.01%  shrank\n\
             note: shrank by more than 3 % (record the gain with `--update`): b::y\n\
             ok: no bench grew by more than 3 % (2 run)\n",
        ),
    );
}

#[test]
fn a_bench_missing_on_either_side_fails() {
    check(
        &baseline("\"a::x\" = 100\n\"gone::z\" = 7\n"),
        &summaries(&[("a", "x", 100), ("new", "y", 42)]),
        Expect::Fail(
            &("bench        baseline           now    change\n\
               a::x              100           100    +0.00%\n\
               new::y              -            42         -  NOT IN BASELINE\n\
               gone::z             7             -         -  NOT RUN\n\
               FAIL: not in the baseline: new::y\n\
               FAIL: in the baseline but not run: gone::z\n"
                .to_owned()
                + FIX),
        ),
    );
}

#[test]
fn a_baseline_of_zero_grows_on_any_instruction() {
    check(
        &baseline("\"a::x\" = 0\n"),
        &summaries(&[("a", "x", 1)]),
        Expect::Fail(
            &("bench      baseline           now    change\n\
               a::x              0             1         -  GREW\n\
               FAIL: grew by more than 3 %: a::x\n"
                .to_owned()
                + FIX),
        ),
    );
}

#[test]
fn another_toolchain_is_noted() {
    check(
        "[recorded-with]\nrustc = \"rustc 1.94.0\"\n[instructions]\n\"a::x\" = 1\n",
        &summaries(&[("a", "x", 1)]),
        Expect::Pass(
            "bench      baseline           now    change\n\
             a::x              1             1    +0.00%\n\
             note: the baseline was recorded with rustc 1.94.0; this run used rustc 1.95.0\n\
             ok: no bench grew by more than 3 % (1 run)\n",
        ),
    );
}

#[test]
fn gungraun_s_own_summary_line_is_read() {
    // A line of `cargo bench … -- --output-format=json` from gungraun 0.20.0.
    let line = include_str!("summary.json");
    assert_eq!(
        parse_summaries(line).unwrap(),
        [("acl_recognize::acl_line".to_owned(), 2297)]
    );
    check(
        &baseline("\"acl_recognize::acl_line\" = 2297\n"),
        &format!("not a summary\n{line}"),
        Expect::Pass(
            "bench                        baseline           now    change\n\
             acl_recognize::acl_line         2,297         2,297    +0.00%\n\
             ok: no bench grew by more than 3 % (1 run)\n",
        ),
    );
}

#[test]
fn unreadable_summaries_are_errors() {
    let b = baseline("\"a::x\" = 1\n");
    check(&b, "", Expect::Error("held no bench summary"));
    check(
        &b,
        &summaries(&[("a", "x", 1), ("a", "x", 2)]),
        Expect::Error("names a::x twice"),
    );
    check(
        &b,
        "\n{\"function_name\":\"a\",\"id\":\"x\",\"profiles\":[]}\n{\"function_name\":\"a\"}\n",
        Expect::Error("a::x has no Callgrind profile"),
    );
    check(
        &b,
        "\n\n{\"function_name\":\"a\"}\n",
        Expect::Error("gungraun's summary, line 3 of its output: missing field `profiles`"),
    );
}

#[test]
fn a_bad_baseline_names_the_line_or_key() {
    let run = summaries(&[("a", "x", 1)]);
    let bad = [
        ("[instructions]\n\"a::x\" = \n", "line 2"),
        (
            "[instructions]\n\"a::x\" = \"many\"\n",
            "[instructions] \"a::x\": expected a whole number",
        ),
        (
            "[instructions]\n\"a::x\" = -4\n",
            "[instructions] \"a::x\": expected a whole number",
        ),
        (
            "[instructions]\n\"a::x\" = 1.5\n",
            "[instructions] \"a::x\": expected a whole number",
        ),
        ("instructions = 3\n", "`instructions` must be a table"),
        ("[instrutions]\n\"a::x\" = 1\n", "unknown key `instrutions`"),
        (
            "[recorded-with]\nrustc = 1\n[instructions]\n\"a::x\" = 1\n",
            "[recorded-with] rustc: expected a string",
        ),
        ("# nothing\n", "no [instructions] table"),
    ];
    for (text, want) in bad {
        check(text, &run, Expect::Error(want));
    }
}

#[test]
fn an_updated_baseline_reads_back() {
    let run = vec![("a::x".to_owned(), 4171), ("b::y".to_owned(), 1319496)];
    let text = render_baseline(&run, &tools());
    let read = parse_baseline(&text).unwrap();
    assert_eq!(read.counts, run.into_iter().collect());
    assert_eq!(read.recorded_with, tools());
    assert!(text.contains("cargo xtask instructions --update"), "{text}");
}

/// The runner the gate asks for, and the one CI installs, is the version the
/// bench links (the pin in the workspace's Cargo.toml): gungraun refuses a
/// runner of another version.
#[test]
fn the_runner_version_is_the_pinned_gungraun() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest: toml::Table = fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let pin = &manifest["workspace"]["dependencies"]["gungraun"];
    assert_eq!(pin.as_str(), Some(format!("={RUNNER_VERSION}").as_str()));
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    for needed in [
        format!("\"gungraun-runner {RUNNER_VERSION}\""),
        format!("cargo install --locked --debug gungraun-runner --version {RUNNER_VERSION}"),
    ] {
        assert!(ci.contains(&needed), ".ci/run lacks {needed}");
    }
}
