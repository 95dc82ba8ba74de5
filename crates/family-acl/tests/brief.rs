//! The brief (`text`), what the model receives: its six parts in order, the
//! facts that decide what to do, its shape for a code other than 5, and the
//! zh-CN brief built from the same structure with the same commands.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::Advisory;
use advisor_core::brief::BriefSize;
use advisor_core::testing::{Case, assert_in_order, verdict};
use family_acl::AclProvisioning;

/// A fixture's advisory, decided under its own environment, as delivered.
fn advise(name: &str) -> Advisory {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).unwrap();
    let observation = case.observation().unwrap();
    verdict(&AclProvisioning, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"))
}

/// The command lines of a text (indented), in order.
fn commands(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("    ")).collect()
}

const EXPLAIN: &str = "    sandbox-advisor explain --detail --platform win32 ";

#[test]
fn the_apply_denied_brief_has_its_six_parts_in_order() {
    for (f, retry, relax) in [
        (
            "pos-session-apply-denied",
            "Retrying or another command cannot help",
            "- relax the sandbox mode",
        ),
        (
            "pos-session-apply-denied-zh-cn",
            "重试或换命令都没有用",
            "- 为绕过这个问题而放宽沙箱模式",
        ),
    ] {
        let t = advise(f).text;
        assert_in_order(
            f,
            &t,
            &[
                retry,
                "\n> SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)\n",
                "0.1.7-alpha.1",
                "WRITE_OWNER",
                "    PowerShell: icacls 'D:\\ws'\n",
                "    cmd:        icacls \"D:\\ws\"\n",
                "    PowerShell: (Get-Acl -LiteralPath 'D:\\ws').Owner\n",
                "    PowerShell: icacls 'D:\\ws' /grant \"${env:USERNAME}:(OI)(CI)(WO)\"\n",
                "    cmd:        icacls \"D:\\ws\" /grant \"%USERNAME%:(OI)(CI)(WO)\"\n",
                "    PowerShell: icacls 'D:\\ws' /grant '<your account>:(OI)(CI)F'\n",
                "    PowerShell: icacls 'D:\\ws' /setowner '<your account>'\n",
                "%USERPROFILE%",
                "takeown",
                "/reset",
                "0.1.7-alpha.1",
                relax,
                "`detail`",
                EXPLAIN,
            ],
        );
        for background in ["#8232", "850", "0x1301bf", "pnpm", "hard link", "#7846"] {
            assert!(!t.contains(background), "{f}: background {background:?}");
        }
    }
}

#[test]
fn the_read_denied_brief_names_its_own_cause_and_branch() {
    let t = advise("pos-read-denied").text;
    assert_in_order(
        "pos-read-denied",
        &t,
        &[
            "could not read",
            "READ_CONTROL",
            "nothing was changed on disk",
            "not-owner branch",
            "    PowerShell or cmd: net helpmsg 5\n",
            "/setowner",
            "- relax the sandbox mode",
            EXPLAIN,
        ],
    );
}

#[test]
fn other_codes_keep_their_own_brief() {
    for f in ["pos-apply-other", "pos-read-other", "pos-read-other-zh-cn"] {
        let t = advise(f).text;
        assert_in_order(
            f,
            &t,
            &[
                "\n> ",
                "ERROR_ACCESS_DENIED (5)",
                "    PowerShell or cmd: net helpmsg ",
                "    PowerShell: icacls 'D:\\ws'\n",
                "- ",
                EXPLAIN,
            ],
        );
        for material in ["/grant", "/setowner", "takeown", "WRITE_OWNER", "0.1.7"] {
            assert!(!t.contains(material), "{f}: {material:?}");
        }
    }
}

#[test]
fn the_brief_is_within_budget_and_points_at_the_full_account() {
    for f in [
        "pos-session-apply-denied",
        "pos-session-apply-denied-zh-cn",
        "pos-unsafe-long-path",
        "pos-unsafe-quote-path-zh-cn",
        "pos-href-zh-cn",
    ] {
        let a = advise(f);
        assert!(
            BriefSize::of(&a.text).fits(),
            "{f}: {:?}",
            BriefSize::of(&a.text)
        );
        assert!(
            a.detail.len() > 2 * a.text.len(),
            "{f}: detail is the long one"
        );
        assert_eq!(a.text.matches(EXPLAIN).count(), 1, "{f}");
    }
}

#[test]
fn zh_cn_brief_is_chinese_with_the_same_commands_and_english_detail() {
    for (en, zh) in [
        ("pos-session-apply-denied", "pos-session-apply-denied-zh-cn"),
        ("pos-read-denied", "pos-read-denied-zh-cn"),
        ("pos-read-other", "pos-read-other-zh-cn"),
        ("pos-no-detail-apply", "pos-no-detail-apply-zh-cn"),
        ("pos-unsafe-quote-path", "pos-unsafe-quote-path-zh-cn"),
    ] {
        let (en, zh) = (advise(en), advise(zh));
        assert_eq!(commands(&en.text), commands(&zh.text), "{zh:?}");
        assert_eq!(en.detail, zh.detail, "detail stays English");
        let quoted = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with('>'))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(quoted(&en.text), quoted(&zh.text));
        for english in [
            "Retrying",
            "Remedy",
            "Do not",
            "Cause",
            "Check (",
            "Reported:",
        ] {
            assert!(!zh.text.contains(english), "{english:?} in the zh-CN brief");
        }
        assert!(zh.summary.as_str().contains("沙箱"));
        assert!(zh.summary.as_str().chars().count() <= 120);
        let prose: usize = zh
            .text
            .chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .count();
        assert!(prose > 150, "the zh-CN brief is mostly not Chinese");
    }
}
