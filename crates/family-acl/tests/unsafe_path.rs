//! A directory the path slot refuses (issue 11) never enters a command line,
//! in the brief or in the full account; `<dir>` stands in, with the reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::Advisory;
use advisor_core::testing::{Case, verdict};
use family_acl::AclProvisioning;

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The indented lines of a text that hold a command.
fn command_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("    "))
        .filter(|l| {
            ["icacls", "Get-Acl", "net helpmsg"]
                .iter()
                .any(|c| l.contains(c))
        })
        .collect()
}

/// The start of the reason core gives when the path is kept off the command lines.
const NOT_WRITTEN: &str = "The path from the error is not written into the commands below";

#[test]
fn unsafe_path_never_enters_a_command() {
    for f in [
        "pos-unsafe-quote-path",
        "pos-unsafe-control-path",
        "pos-unsafe-long-path",
        "pos-unsafe-expansion-path",
    ] {
        let a = advisory(f);
        assert!(a.detail.contains(NOT_WRITTEN), "{f}");
        assert!(a.text.contains("<dir>"), "{f}");
        for text in [&a.text, &a.detail] {
            let commands = command_lines(text);
            assert!(commands.len() >= 9, "{f}: {commands:?}");
            for line in commands {
                assert!(
                    line.contains("icacls <dir>")
                        || line.contains("-LiteralPath <dir>")
                        || line.contains("net helpmsg"),
                    "{f}: {line:?}"
                );
                for fragment in ["del /s", "$env:SECRET", "%PATH%", "aaaaaaaaaa", "IGNORE"] {
                    assert!(!line.contains(fragment), "{f}: {line:?}");
                }
            }
            assert!(
                !text.contains('\u{1b}') && !text.contains('\r'),
                "{f}: control character in text"
            );
        }
    }
    assert!(
        !advisory("pos-session-apply-denied")
            .detail
            .contains(NOT_WRITTEN)
    );
}

/// A fixture's advisory, decided under its own environment.
fn advisory(name: &str) -> Advisory {
    let case = Case::named(CRATE_DIR, name).unwrap();
    let observation = case.observation().unwrap();
    verdict(&AclProvisioning, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"))
}
