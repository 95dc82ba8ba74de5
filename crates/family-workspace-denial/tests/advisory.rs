//! The advisory text: the evidence it quotes, the facts (and forbidden
//! things) every advisory must carry, and issue 11's hostile inputs only ever
//! quoted. The whole texts are the fixtures' snapshots (`tests/fixtures.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers may fail loudly

use advisor_core::testing::{Case, assert_in_order, fixture_files, verdict};
use advisor_core::{Advisory, Family};
use family_workspace_denial::WorkspaceDenial;

/// One fixture decided the way the core delivers it (discussions' repository
/// named), under the fixture's own host, policy and href.
fn decide(name: &str) -> (Option<Advisory>, Case) {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).unwrap();
    let observation = case.observation().expect("an observation");
    let finding = WorkspaceDenial.recognize(observation);
    let need = finding.as_ref().is_some_and(|f| {
        WorkspaceDenial.policy_need(f, &case.host) == advisor_core::PolicyNeed::Required
    });
    let advisory = verdict(&WorkspaceDenial, observation, &case.environment(need)).advisory();
    (advisory, case)
}

/// The advisory of a fixture that must speak.
fn speak(name: &str) -> Advisory {
    decide(name)
        .0
        .unwrap_or_else(|| panic!("{name} must speak"))
}

/// The names of the fixtures whose name starts with `prefix`.
fn fixtures(prefix: &str) -> Vec<String> {
    let names: Vec<String> = fixture_files(env!("CARGO_MANIFEST_DIR"))
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
        .filter(|n| n.starts_with(prefix))
        .collect();
    assert!(!names.is_empty(), "no fixture starts with {prefix}");
    names
}

/// One fixture per shape of an exit code the value does not report: null,
/// absent, a string, a number that is not an integer. Each is "not reported".
const NOT_REPORTED: [&str; 4] = [
    "pos-exit-null-signal",
    "pos-exit-absent",
    "pos-exit-string",
    "pos-exit-fraction",
];

// ---- an exit code the value does not report: recognized, never a number --

/// The sentence that states the exit code says it is not reported, and no
/// number stands in for it anywhere.
fn assert_not_reported(name: &str, text: &str) {
    let sentence = text
        .lines()
        .find(|l| l.starts_with("What was reported:"))
        .unwrap_or_else(|| panic!("{name}: no report sentence"));
    assert!(
        sentence.starts_with("What was reported: the `pwsh` command's value reports no exit code,"),
        "{name}: {sentence}"
    );
    assert!(!sentence.contains("exited"), "{name}: {sentence}");
    assert!(
        !sentence.chars().any(|c| c.is_ascii_digit()),
        "{name}: a number in {sentence}"
    );
    assert!(
        !text.contains("exited 0") && !text.contains("exit code 0"),
        "{name}"
    );
}

#[test]
fn an_exit_code_the_value_does_not_report_blocks_nothing() {
    let fixture = NOT_REPORTED[0];
    let advisory = speak(fixture);
    assert_not_reported(fixture, &advisory.detail);
    assert_untrusted_text_is_framed(fixture, &advisory.detail);
}

#[test]
fn every_shape_of_an_unreported_exit_code_reads_alike() {
    let null = speak(NOT_REPORTED[0]).detail;
    for fixture in &NOT_REPORTED[1..] {
        let text = speak(fixture).detail;
        assert_not_reported(fixture, &text);
        assert_eq!(text, null, "{fixture}");
    }
}

// ---- the evidence: the stamp, quoted as the value carried it ------------

/// The lead-in and quote block of the stamp, as the advisory must print it.
fn quoted_stamp(record: &str) -> String {
    format!("The stamp, exactly as the tool's value carries it:\n> {record}\n\n")
}

#[test]
fn the_stamp_is_quoted_as_the_value_carries_it() {
    let text = speak("pos-pwsh-set-content-vendor").detail;
    assert!(text.contains(&quoted_stamp(
        r#""sandbox":{"mode":"workspace-write","denied":true,"enforcement":"partial"}"#
    )));
    // Its own member order, and nothing added that the value did not carry.
    let text = speak("pos-stamp-member-order").detail;
    assert!(text.contains(&quoted_stamp(
        r#""sandbox":{"denied":true,"mode":"workspace-write"}"#
    )));
    assert!(text.contains("(enforcement: not stamped)"));
    // The stamp's mode, whatever the session's policy says.
    let text = speak("pos-pwsh-set-content-vendor-read-only-session").detail;
    assert!(text.contains(r#"> "sandbox":{"mode":"workspace-write","denied":true,"#));
}

// ---- the text: required facts and forbidden things ----------------------

#[test]
fn the_advisory_states_the_mechanism_and_its_measurements() {
    let text = speak("pos-pwsh-set-content-vendor").detail;
    for fact in [
        "Retrying cannot help",
        "once, on the workspace root",
        "WRITE_DAC",
        "looks only at the root",
        "never visited again",
        "170 of its 729",
        "files directly under the root",
        "(#423)",
        "normal token",
        "restricted Low-integrity token",
        "Administrators, SYSTEM and the backend's capability SID",
        "no-write-up",
        "`(CI)`",
        "(#8383, #8421)",
        "(#9559)",
        "(#8409)",
        "not even the root",
        "diagnose-windows-sandbox-acl",
        "0.2.0 and later",
        "Why no repair command is given",
    ] {
        assert!(text.contains(fact), "missing {fact:?}");
    }
}

#[test]
fn the_keyed_path_is_printed_beside_the_root() {
    let text = speak("pos-pwsh-set-content-vendor").detail;
    assert!(text.contains(r"- path the command names: `D:\ws\vendor\lib\config.json`"));
    assert!(text.contains(r"- workspace root (policy): `D:\ws`"));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws\vendor\lib\config.json'"));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws'"));
    let text = speak("pos-pwsh-case-slashes-dotdot").detail;
    assert!(text.contains(r"`d:/WS/Build/../dist/app.js` (read as `d:\WS\dist\app.js`)"));
    assert!(text.contains(r"    PowerShell: icacls 'd:\WS\dist\app.js'"));
}

#[test]
fn an_unquotable_path_never_reaches_a_command_line() {
    let text = speak("pos-pwsh-unquotable-path").detail;
    assert!(!text.contains(r"icacls 'D:\ws\100%"));
    assert!(text.contains("    PowerShell: icacls <path>\n"));
    assert!(text.contains(
        "The path `D:\\ws\\100%\\a.txt` is not written into the check below, because it contains a \
         character a shell could read as syntax; the check shows <path> in its place."
    ));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws'"));
}

/// Every positive but issue 11's hostile ones, whose planted text is quoted
/// (and checked in `hostile_inputs_are_quoted_or_refused`).
#[test]
fn the_advisory_offers_no_repair_and_no_wider_mode() {
    for fixture in fixtures("pos-")
        .iter()
        .filter(|n| !n.starts_with("pos-hostile-"))
    {
        let advisory = speak(fixture);
        let text = format!("{}\n{}", advisory.text, advisory.detail).to_lowercase();
        for forbidden in [
            "danger-full-access",
            "sandbox_permissions",
            "escalat",
            "/grant",
            "/reset",
            "/setowner",
            "takeown",
            "set-acl",
            "setintegritylevel",
            "write at the root instead",
        ] {
            assert!(!text.contains(forbidden), "{fixture}: {forbidden:?}");
        }
        assert_untrusted_text_is_framed(fixture, &advisory.text);
        assert_untrusted_text_is_framed(fixture, &advisory.detail);
        assert!(advisory.summary.as_str().chars().count() <= 120);
        assert!(!advisory.summary.as_str().contains('\n'));
    }
}

#[test]
fn href_replaces_every_discussion_number() {
    let advisory = speak("pos-pwsh-set-content-vendor-href");
    for text in [&advisory.text, &advisory.detail] {
        assert!(!text.contains("#423") && !text.contains("#8383"));
        assert!(text.contains("https://github.com/deepseek-ai/deepseek-harness/discussions/423"));
    }
}

// ---- issue 11: untrusted text is quoted, never spoken --------------------

/// Every `*-hostile-*` fixture (`pos-pwsh-set-content-vendor` with its tool
/// name, its command, the stamp's enforcement or the resolved root replaced):
/// the ones that speak are framed; the fixtures say which speak.
#[test]
fn hostile_inputs_are_quoted_or_refused() {
    let mut spoke = 0;
    for prefix in ["pos-hostile-", "ctl-hostile-"] {
        for name in fixtures(prefix) {
            let (advisory, case) = decide(&name);
            assert_eq!(advisory.is_some(), case.name.starts_with("pos-"), "{name}");
            if let Some(advisory) = advisory {
                assert_untrusted_text_is_framed(&name, &advisory.text);
                assert_untrusted_text_is_framed(&name, &advisory.detail);
                spoke += 1;
            }
        }
    }
    assert!(spoke >= 13, "issue 11's cases are fixtures");
}

/// Every check line is `PowerShell: icacls ` with a placeholder whose reason
/// the text gives, or with one single-quoted literal of allow-listed
/// characters; nothing invisible survives anywhere, and no line leaves a code
/// span open.
pub fn assert_untrusted_text_is_framed(name: &str, text: &str) {
    for line in text.lines().filter(|l| l.contains("icacls")) {
        let Some(arg) = line.strip_prefix("    PowerShell: icacls ") else {
            // Prose that names the tool, never a command line.
            assert!(
                !line.starts_with(' '),
                "{name}: unlabelled command {line:?}"
            );
            continue;
        };
        if arg.starts_with('<') {
            assert!(arg.ends_with('>'), "{name}: {line:?}");
            // The detail's sentence, or the brief's placeholder line.
            let said = text.contains(&format!("shows {arg} in its place"))
                || text.lines().any(|l| {
                    (l.starts_with("Placeholders (") || l.starts_with("占位符（"))
                        && l.contains(arg)
                });
            assert!(said, "{name}: {arg} stands in without a reason");
            continue;
        }
        let body = arg
            .strip_prefix('\'')
            .and_then(|a| a.strip_suffix('\''))
            .unwrap_or_else(|| panic!("{name}: not a single-quoted literal: {line:?}"));
        assert!(
            body.replace("''", "")
                .chars()
                .all(|c| c.is_alphanumeric() || r" -_.()[]{}@#&+,;=~$\:".contains(c)),
            "{name}: {line:?}"
        );
        assert!(
            !body.contains(r"\\") && !body.split('\\').any(|c| c == ".." || c == "."),
            "{name}: UNC, device or dot component in {line:?}"
        );
    }
    // The check itself is never dropped: every placeholder a sentence
    // announces stands on a check line of its own.
    let announced = text
        .match_indices("the check shows <")
        .map(|(at, _)| {
            let rest = &text[at + "the check shows ".len()..];
            rest.split(" in its place").next().unwrap_or_default()
        })
        .chain(
            text.lines()
                .filter_map(|l| {
                    l.strip_prefix("Placeholders (")
                        .or_else(|| l.strip_prefix("占位符（"))
                })
                .filter_map(|l| l.split([')', '）']).next())
                .flat_map(|list| list.split(", ")),
        );
    for placeholder in announced {
        assert!(
            text.contains(&format!("    PowerShell: icacls {placeholder}\n")),
            "{name}: {placeholder} is announced but its check was dropped"
        );
    }
    assert!(
        text.chars()
            .all(|c| c == '\n' || advisor_core::quote::is_visible(c)),
        "{name}: an invisible character reached the text"
    );
    for line in text.lines() {
        assert!(
            line.matches('`').count() % 2 == 0,
            "{name}: a code span left open: {line:?}"
        );
    }
}

// ---- the brief: its six parts, in both locales ------------------------------

/// The brief (the model's `text`) holds, in this order, what failed and that
/// retrying cannot help, the quoted stamp, the check, the remedy by breadth,
/// the non-fixes (never a wider mode), and the explain line that reproduces
/// the advisory (value, root and command); the background stays in `detail`.
/// The same parts, in the same order, in both locales.
#[test]
fn the_brief_has_its_six_parts_in_order() {
    let explain = r"' | sandbox-advisor explain --detail --platform win32 --mode workspace-write --root '<root>' --command '<command>' --value -";
    for (name, zh) in [
        ("pos-pwsh-set-content-vendor", false),
        ("pos-pwsh-set-content-vendor-zh-cn", true),
    ] {
        let advisory = speak(name);
        let text = &advisory.text;
        let pick = |en: &'static str, cn: &'static str| if zh { cn } else { en };
        let parts = [
            // 1. what failed, and that retrying cannot help
            pick("Retrying cannot help", "重试没有用"),
            // 2. the evidence, quoted
            "\n> \"sandbox\":{\"mode\":\"workspace-write\",\"denied\":true,\"enforcement\":\"partial\"}\n",
            // 3. the check
            "\n    PowerShell: icacls 'D:\\ws\\vendor\\lib\\config.json'\n    PowerShell: icacls 'D:\\ws'\n",
            // 4. the remedy, by breadth, and who runs it
            pick(
                "write into files this session creates",
                "改写到本会话新建的文件中",
            ),
            pick(
                "the user fixes the security descriptors",
                "由用户在会话外修复安全描述符",
            ),
            "`diagnose-windows-sandbox-acl`",
            // 5. what not to do, a wider mode among them
            pick(
                "\n- retry, or look for another existing file",
                "\n- 重试，或另找",
            ),
            pick(
                "\n- ask for a wider sandbox mode: relaxing it is never the fix.\n",
                "\n- 申请更宽的沙箱模式：放宽模式从来不是解决办法。\n",
            ),
            // 6. the full account: the explain line with the value, root and command
            "\n    '{\"kind\":\"foreground\",\"exitCode\":1,\"sandbox\":{\"mode\":\"workspace-write\",\"denied\":true}}",
            explain,
        ];
        assert_in_order(name, text, &parts);
        assert!(
            advisor_core::brief::BriefSize::of(text).fits(),
            "{name} over budget"
        );
        for background in [
            "170 of its 729",
            "WRITE_DAC",
            "(#8383, #8421)",
            "Why no repair command",
        ] {
            assert!(
                !text.contains(background),
                "{name}: brief carries {background:?}"
            );
            assert!(
                advisory.detail.contains(background),
                "{name}: detail lacks {background:?}"
            );
        }
    }
}

/// The explain line carries what `explain` needs to print this advisory's
/// detail, in the advisor's words only: an unreported exit code as `null`,
/// the stamp rewritten from the recognized facts (mode and `denied`, never
/// the stamp's text, hostile or not), and placeholders for the root and the
/// command, which the prose above the line names.
#[test]
fn the_explain_line_carries_the_value_the_root_and_the_command() {
    let line = |name: &str| -> String {
        let text = speak(name).text;
        text.lines()
            .find(|l| l.contains("| sandbox-advisor explain "))
            .unwrap_or_else(|| panic!("{name}: no explain line:\n{text}"))
            .to_owned()
    };
    assert!(
        line("pos-exit-null-signal")
            .starts_with("    '{\"kind\":\"foreground\",\"exitCode\":null,")
    );
    assert!(
        line("pos-stamp-member-order").contains(
            "\"exitCode\":5,\"sandbox\":{\"mode\":\"workspace-write\",\"denied\":true}}'"
        )
    );
    let hostile = line("pos-hostile-framing");
    assert!(
        hostile.contains("\"sandbox\":{\"mode\":\"workspace-write\",\"denied\":true}}'"),
        "{hostile}"
    );
    assert!(!hostile.contains("Note for the model"), "{hostile}");
    let cache = line("pos-bash-redirect-cache");
    assert!(
        cache.contains(r"--root '<root>' --command '<command>' --value -"),
        "{cache}"
    );
    assert!(!cache.contains("state.txt"), "{cache}");
}

/// zh-CN: the summary and the brief in Chinese, with the same commands and
/// evidence; the detail stays English.
#[test]
fn zh_cn_gets_a_chinese_brief_with_the_same_commands() {
    let en = speak("pos-pwsh-set-content-vendor");
    let zh = speak("pos-pwsh-set-content-vendor-zh-cn");
    assert!(zh.summary.as_str().contains("重试"));
    assert!(zh.text.contains("重试没有用") && zh.text.contains("放宽模式从来不是解决办法"));
    assert!(!zh.text.contains("Retrying cannot help"));
    let commands = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("    ") || l.starts_with('>'))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(commands(&zh.text), commands(&en.text));
    assert_eq!(zh.detail, en.detail);
    let unquotable = speak("pos-pwsh-unquotable-path-zh-cn");
    assert_untrusted_text_is_framed("pos-pwsh-unquotable-path-zh-cn", &unquotable.text);
    assert!(unquotable.text.contains("占位符（<path>）"));
}
