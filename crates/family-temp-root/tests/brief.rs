//! The briefs (`text`) of both halves: the six parts of issue 15 in order, in
//! English and in zh-CN, and the facts that decide what to do. Background
//! facts are checked on the full account (`tests/advise.rs`,
//! `tests/preflight.rs`); hostile-input framing on both texts.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::brief::BriefSize;
use advisor_core::testing::{Arm, Case, assert_in_order, fixture_files, has_chinese, verdict};
use advisor_core::{Advisory, Family, PreflightVerdict};
use family_temp_root::TempRootInsideWorkspace;

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A fixture's advisory as delivered: the failure half's, or the pre-flight's.
fn advisory(name: &str) -> Advisory {
    let case = Case::named(CRATE_DIR, name).unwrap();
    match case.observation() {
        Some(observation) => verdict(
            &TempRootInsideWorkspace,
            observation,
            &case.environment(false),
        )
        .advisory()
        .unwrap_or_else(|| panic!("{name} must speak")),
        None => match TempRootInsideWorkspace.preflight(&case.environment(true)) {
            PreflightVerdict::Advise(a) => a,
            other => panic!("{name}: expected an advisory, got {other:?}"),
        },
    }
}

/// The locale's words the parts are found by.
struct Words {
    retry: &'static str,
    dont: &'static str,
    never_relax: &'static str,
    account: &'static str,
}

const EN: Words = Words {
    retry: "etrying cannot help",
    dont: "\nDo not:\n- retry",
    never_relax: "\n- never relax the sandbox mode",
    account: "The full account",
};

const ZH: Words = Words {
    retry: "重试没有用",
    dont: "\n不要：\n- 重试",
    never_relax: "\n- 绝不为绕过检查而放宽沙箱模式",
    account: "完整说明",
};

/// The six parts, each found after the one before it; `evidence` are the
/// quote lines expected, in order.
fn six_parts_in_order(name: &str, evidence: &[&str], w: &Words) {
    let text = advisory(name).text;
    // 1. What failed, and that retrying cannot help (the first paragraph).
    let first = text.split("\n\n").next().unwrap();
    assert!(first.contains(w.retry), "{name}: part 1: {first}");
    // 2. The evidence, in the quote frame.
    let quoted: Vec<String> = evidence.iter().map(|l| format!("\n> {l}\n")).collect();
    let mut parts: Vec<&str> = quoted.iter().map(String::as_str).collect();
    parts.extend([
        // 3. The check: TMP and TEMP, read in cmd and PowerShell.
        "\n    cmd: echo %TMP% & echo %TEMP%\n    PowerShell: $env:TMP; $env:TEMP\n",
        // 4. The remedy: create a directory outside, point BOTH variables at it.
        "\n    cmd: mkdir C:\\dsh-temp\n    cmd: set TMP=C:\\dsh-temp\n    \
         cmd: set TEMP=C:\\dsh-temp\n    PowerShell: $env:TMP = 'C:\\dsh-temp'; $env:TEMP = 'C:\\dsh-temp'\n",
        // 5. What not to do, ending with never relaxing the mode.
        w.dont,
        w.never_relax,
        // 6. Where the full account is, and the line that prints it.
        w.account,
        "\n    sandbox-advisor explain --detail --platform win32 ",
    ]);
    assert_in_order(name, &text, &parts);
}

const SENTENCE: &str = r"Windows ACL temp root must be outside the workspace: workspace=C:\Users\u; temp=C:\Users\u\AppData\Local\Temp";
const RUNNER_LINE: &str = r"windows-acl-run: Windows ACL temp root must be outside the workspace: workspace=C:\Users\u; temp=C:\Users\u\AppData\Local\Temp";

#[test]
fn the_failure_brief_has_its_six_parts_in_order() {
    for (name, w) in [("pos-provider", &EN), ("pos-provider-zh-cn", &ZH)] {
        six_parts_in_order(name, &[SENTENCE], w);
    }
    for (name, w) in [("pos-runner", &EN), ("pos-runner-zh-cn", &ZH)] {
        six_parts_in_order(name, &[RUNNER_LINE, SENTENCE], w);
    }
}

#[test]
fn the_preflight_brief_has_its_six_parts_in_order() {
    let evidence = [r"C:\Users\u", r"c:\users\U\AppData\Local\Temp"];
    for (name, w) in [
        ("pos-preflight-lexical-inside", &EN),
        ("pos-preflight-lexical-inside-zh-cn", &ZH),
    ] {
        six_parts_in_order(name, &evidence, w);
    }
}

#[test]
fn the_brief_carries_the_deciding_facts() {
    for name in ["pos-provider", "pos-runner"] {
        let text = advisory(name).text;
        assert!(text.contains("set BOTH TMP and TEMP"), "{name}");
        assert!(
            text.contains("the lock folder reads TMP first, the private temp folder TEMP first"),
            "{name}"
        );
        assert!(text.contains("from inside this session: it never reaches the harness"));
        assert!(text.contains("no permission is involved"), "{name}");
        assert!(text.contains("Or open the session on a project directory"));
    }
    let runner = advisory("pos-runner").text;
    assert!(runner.contains("exited 127"));
    assert!(runner.contains("does not apply"));
    let provider = advisory("pos-provider").text;
    assert!(!provider.contains("127"));
    let preflight = advisory("pos-preflight-lexical-facts").text;
    assert!(preflight.contains("Compared by spelling only"));
    assert!(preflight.contains("if a command does run, ignore this note"));
}

/// Background stays in `detail`.
#[test]
fn background_stays_in_the_detail() {
    for name in ["pos-provider", "pos-runner"] {
        let a = advisory(name);
        for background in [
            "Why the backend refuses",
            "standing grant on the workspace root",
            "reported in #9175",
        ] {
            assert!(!a.text.contains(background), "{name}: {background}");
            assert!(a.detail.contains(background), "{name}: {background}");
        }
    }
}

/// zh-CN: the summary and the advisor's own sentences are Chinese; commands
/// and quoted evidence are unchanged; `detail` stays English.
#[test]
fn zh_cn_brief_is_chinese_and_detail_english() {
    for (zh, en) in [
        ("pos-provider-zh-cn", "pos-provider"),
        ("pos-runner-zh-cn", "pos-runner"),
        (
            "pos-preflight-lexical-same-zh-cn",
            "pos-preflight-lexical-same",
        ),
    ] {
        let zh = advisory(zh);
        let en = advisory(en);
        assert!(has_chinese(zh.summary.as_str()), "{}", zh.summary.as_str());
        assert!(!has_chinese(en.summary.as_str()));
        assert!(has_chinese(&zh.text));
        assert!(!has_chinese(&en.text));
        for english in ["Do not:", "annot help", "Remedy", "Confirm in the console"] {
            assert!(!zh.text.contains(english), "{english:?} in the zh-CN brief");
        }
        assert!(zh.text.contains("    cmd: set TEMP=C:\\dsh-temp\n"));
        assert!(!has_chinese(&zh.detail), "detail stays English");
        assert_eq!(zh.detail, en.detail, "detail stays English");
    }
}

/// The budget on every speaking fixture (the fixtures' check enforces it
/// too); prints the largest, for the record.
#[test]
fn every_brief_fits_the_budget() {
    let mut max = [(0, 0); 2];
    for path in fixture_files(CRATE_DIR) {
        let case = Case::load(&path).unwrap();
        if case.arm != Arm::Positive {
            continue;
        }
        let size = BriefSize::of(&advisory(&case.name).text);
        assert!(size.fits(), "{}: {size:?}", case.name);
        let slot = &mut max[usize::from(case.name.ends_with("-zh-cn"))];
        *slot = (slot.0.max(size.prose), slot.1.max(size.total));
    }
    println!(
        "max brief (prose, total): en {:?}, zh-CN {:?}",
        max[0], max[1]
    );
}
