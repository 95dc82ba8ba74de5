//! The sidecar a third party builds in a few lines (`src/main.rs`), run as the
//! binary cargo built: its family is listed beside the shipped ones, and a
//! replayed failure of its producer gets its advisory.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_third-party-sidecar");

/// Runs the sidecar with `args`, `stdin` written whole; the exit code and stdout.
fn run(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// The shipped families, from the registry the sidecar starts from.
fn shipped() -> Vec<&'static str> {
    host_adapter::standard_registry()
        .build()
        .unwrap()
        .families()
        .map(|f| f.id().as_str())
        .collect()
}

#[test]
fn families_lists_the_third_party_family_after_the_shipped_ones() {
    let (code, out) = run(&["families", "--format", "json"], "");
    assert_eq!(code, 0);
    let listed: Vec<Value> = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = listed.iter().map(|f| f["id"].as_str().unwrap()).collect();
    let shipped = shipped();
    assert!(!shipped.is_empty(), "the shipped families are compiled in");
    assert_eq!(ids[..shipped.len()], shipped[..], "the shipped ones first");
    assert_eq!(ids[shipped.len()..], [third_party_family::ID.as_str()]);

    let (code, text) = run(&["families"], "");
    assert_eq!(code, 0);
    let doc = advisor_core::Family::doc(&third_party_family::EgressBlocked);
    assert!(text.contains(&format!(
        "\n{}. egress-blocked\n   hosts:      dsh\n   recognizes: {}\n",
        shipped.len() + 1,
        doc.recognizes
    )));
}

#[test]
fn a_replayed_failure_of_its_producer_gets_its_advisory() {
    let input = [
        r#"{"type":"hello","protocol":1}"#,
        r#"{"type":"host","platform":"win32","electron":false,"tmpdir":"C:\\Users\\dev\\AppData\\Local\\Temp"}"#,
        r#"{"type":"session","session":"s1","cwd":"D:\\ws"}"#,
        r#"{"type":"sandbox-mode","session":"s1","mode":"workspace-write"}"#,
        r#"{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"fetch","args":{},"error":{"message":"egress-guard: blocked example.org"}}"#,
        r#"{"type":"post","agent":"a2","session":"s1","call":"c2","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}}"#,
    ]
    .join("\n");
    let (code, out) = run(&["replay", "-", "--format", "json"], &input);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "hello and two decisions: {out}");

    let mut families = shipped();
    families.push(third_party_family::ID.as_str());
    assert_eq!(lines[0]["families"], serde_json::json!(families));

    let advisory = |line: &Value| -> (String, String, String) {
        let a = &line["advisories"][0];
        let field = |k: &str| a[k].as_str().unwrap_or_default().to_owned();
        (field("family"), field("summary"), field("text"))
    };
    let (family, summary, text) = advisory(&lines[1]);
    assert_eq!(
        (lines[1]["seq"].as_u64(), family.as_str()),
        (Some(5), "egress-blocked")
    );
    assert_eq!(
        summary,
        "Network egress blocked by the sandbox; retrying cannot help."
    );
    assert!(text.contains("`example.org`"), "{text}");
    assert!(text.contains("`workspace-write`"), "{text}");
    // A shipped family still answers its own failure in the same stream.
    assert_eq!(advisory(&lines[2]).0, "acl-provisioning");
}
