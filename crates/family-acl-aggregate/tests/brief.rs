//! The brief (`text`): the six parts of issue 15 in order, in English and in
//! zh-CN, and the facts that decide what to do. Background facts are checked
//! on the full account (`tests/advisory.rs`); hostile-input framing on both.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use advisor_core::Advisory;
use advisor_core::brief::BriefSize;
use advisor_core::testing::{Arm, Case, assert_in_order, fixture_files, has_chinese, verdict};
use family_acl_aggregate::{AclAggregateFailure, TEMP_SENTENCE, WORKSPACE_SENTENCE};

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A fixture's advisory, decided under its own environment, as delivered.
fn advisory(name: &str) -> Advisory {
    let case = Case::named(CRATE_DIR, name).unwrap();
    let observation = case.observation().unwrap();
    verdict(&AclAggregateFailure, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"))
}

fn brief(name: &str) -> String {
    advisory(name).text
}

/// The six parts, each found after the one before it. `words` are the
/// locale's: the do-not-retry sentence, the remedy's lead, the do-not heading,
/// the never-relax line, the full-account line.
fn six_parts_in_order(text: &str, sentence: &str, words: [&str; 5]) {
    let [retry, remedy, dont, never_relax, account] = words;
    // 1. What failed, and that retrying cannot help (the first paragraph).
    let first = text.split("\n\n").next().unwrap();
    assert!(first.contains(retry), "part 1 must say {retry:?}: {first}");
    let evidence = format!("\n> {sentence}\n");
    // The line names the sentence by a placeholder; the sentence is only quoted.
    let explain =
        "\n    sandbox-advisor explain --detail --platform win32 '<message>'\n".to_owned();
    assert_in_order(
        &format!("six parts ({sentence})"),
        text,
        &[
            // 2. The evidence, in the quote frame.
            &evidence,
            // 3. The check: the lock root, the directory, its owner.
            "PowerShell: Get-ChildItem -LiteralPath (Join-Path ([System.IO.Path]::GetTempPath()) 'dsh-acl-locks')\n",
            "cmd: dir \"%TMP%\\dsh-acl-locks\"\n",
            "cmd: icacls \"<directory>\"\n",
            "PowerShell: (Get-Acl -LiteralPath '<directory>').Owner; whoami\n",
            // 4. The remedy, with its skill and version boundary.
            remedy,
            "diagnose-windows-sandbox-acl",
            "0.2.0",
            "0.1.7",
            // 5. What not to do, one line each, ending with never relaxing the mode.
            dont,
            "\n- takeown /A",
            "\n- icacls /reset /T /C",
            "probeTimeoutMs",
            never_relax,
            // 6. Where the full account is, and the line that prints it.
            account,
            &explain,
        ],
    );
}

const EN: [&str; 5] = [
    "retrying cannot help",
    "Remedy:",
    "\nDo not:\n- retry",
    "\n- never relax the sandbox mode",
    "The full account",
];

const ZH: [&str; 5] = [
    "重试无济于事",
    "处理：",
    "\n不要：\n- 重试",
    "\n- 绝不为绕过此错误而放宽沙箱模式",
    "完整说明",
];

#[test]
fn the_brief_has_its_six_parts_in_order_in_english() {
    six_parts_in_order(&brief("pos-temp-half"), TEMP_SENTENCE, EN);
    six_parts_in_order(&brief("pos-workspace-half"), WORKSPACE_SENTENCE, EN);
}

#[test]
fn the_brief_has_its_six_parts_in_order_in_zh_cn() {
    six_parts_in_order(&brief("pos-temp-half-zh-cn"), TEMP_SENTENCE, ZH);
    six_parts_in_order(&brief("pos-workspace-half-zh-cn"), WORKSPACE_SENTENCE, ZH);
}

#[test]
fn the_brief_carries_the_deciding_facts() {
    for text in [brief("pos-temp-half"), brief("pos-workspace-half")] {
        assert!(text.contains("AggregateError's members, which the session never sees"));
        assert!(text.contains("an absent or empty dsh-acl-locks is itself the finding"));
        assert!(text.contains("WRITE_OWNER (and WRITE_DAC when not the owner)"));
        assert!(text.contains("ships with 0.2.0, not 0.1.7, so upgrade first (#8272)"));
        assert!(text.contains("ownership gives WRITE_DAC, not WRITE_OWNER (#9460)"));
        assert!(text.contains("carries neither right (#9460)"));
    }
    let temp = brief("pos-temp-half");
    assert!(temp.contains("cmd: dir \"%TEMP%\\dsh-*\"\n"));
    assert!(temp.contains("its private temp directory"));
    let workspace = brief("pos-workspace-half");
    assert!(
        !workspace.contains("dsh-*"),
        "no private directory to look for"
    );
    assert!(workspace.contains("the workspace root"));
}

/// Background stays in `detail`: the brief is not the full account.
#[test]
fn background_stays_in_the_detail() {
    for name in ["pos-temp-half", "pos-workspace-half"] {
        let advisory = advisory(name);
        for background in [
            "SHA-256 of the lowercased protected path",
            "OPEN_ALWAYS",
            "Candidates, in the order they can be told apart",
            "not SeSecurityPrivilege",
        ] {
            assert!(!advisory.text.contains(background), "{name}: {background}");
            assert!(advisory.detail.contains(background), "{name}: {background}");
        }
    }
}

/// zh-CN: the summary and the advisor's own sentences are Chinese; commands,
/// the quoted line and the issue numbers are unchanged; `detail` stays English.
#[test]
fn zh_cn_brief_is_chinese_and_detail_english() {
    for (zh, en) in [
        ("pos-temp-half-zh-cn", "pos-temp-half"),
        ("pos-workspace-half-zh-cn", "pos-workspace-half"),
    ] {
        let zh = advisory(zh);
        let en = advisory(en);
        assert!(has_chinese(zh.summary.as_str()), "{}", zh.summary.as_str());
        assert!(!has_chinese(en.summary.as_str()));
        assert!(has_chinese(&zh.text));
        assert!(!has_chinese(&en.text));
        for english in ["Do not:", "retrying cannot help", "Remedy:", "The line:"] {
            assert!(!zh.text.contains(english), "{english:?} in the zh-CN brief");
        }
        for kept in [
            "#8272",
            "#9460",
            "cmd: icacls \"<directory>\"",
            "takeown /A",
        ] {
            assert!(zh.text.contains(kept), "{kept:?} lost in zh-CN");
        }
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
        let size = BriefSize::of(&brief(&case.name));
        assert!(size.fits(), "{}: {size:?}", case.name);
        let slot = &mut max[usize::from(case.name.ends_with("-zh-cn"))];
        *slot = (slot.0.max(size.prose), slot.1.max(size.total));
    }
    println!(
        "max brief (prose, total): en {:?}, zh-CN {:?}",
        max[0], max[1]
    );
}
