//! The input's edges (issue 12, item 7): a limit as large as it can be, a
//! byte-order mark, UTF-16, and a configuration that never ends.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use common::*;

/// The advisories' families on each decision line, in order.
fn families(out: &Run) -> Vec<String> {
    out.json()
        .iter()
        .map(|l| {
            if let Some(error) = l.get("error") {
                return format!("error: {error}");
            }
            let advised: Vec<&str> = l["advisories"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["family"].as_str().unwrap())
                .collect();
            let withheld: Vec<String> = l["withheld"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| format!("withheld {} {}", w["family"], w["reason"]))
                .collect();
            format!("{} {advised:?} {withheld:?}", l["seq"])
        })
        .collect()
}

#[test]
fn the_largest_max_line_bytes_rejects_no_line() {
    let input = lines(&[HOST, SESSION, MODE, ACL_A1, PTY_A2]);
    let expected = families(&run(&["replay", "-", "--format", "json"], input.clone()));
    for max in ["18446744073709551615", "18446744073709551614"] {
        let out = run(
            &["replay", "-", "--format", "json", "--max-line-bytes", max],
            input.clone(),
        );
        assert_eq!(out.code, 0, "{max}: {}", out.stderr);
        assert_eq!(families(&out), expected, "{max}");
    }
}

#[test]
fn a_utf8_byte_order_mark_is_stripped_and_the_host_line_behind_it_applies() {
    // The host line sets win32; without it, this Linux process would be the host
    // and the ACL family would withhold as out of scope.
    let plain = lines(&[HOST, SESSION, MODE, ACL_A1]);
    let expected = families(&run(&["replay", "-", "--format", "json"], plain.clone()));
    assert_eq!(expected, [r#"4 ["acl-provisioning"] []"#]);
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(plain.as_bytes());
    for args in [&["replay", "-", "--format", "json"][..], &["serve"][..]] {
        let out = run(args, with_bom.clone());
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert_eq!(families(&out), expected, "{args:?}");
    }
    // Only at the start of the stream: elsewhere it is a character of a bad line.
    let mut later = plain.clone().into_bytes();
    later.extend_from_slice(b"\xEF\xBB\xBF{}\n");
    let out = run(&["replay", "-", "--format", "json"], later);
    assert_eq!(out.code, 1);
    assert!(
        families(&out)[1].starts_with("error: "),
        "{:?}",
        families(&out)
    );
}

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut units: Vec<u16> = Vec::new();
    if bom {
        units.push(0xFEFF);
    }
    units.extend(text.encode_utf16());
    units
        .into_iter()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

#[test]
fn utf16_input_exits_2_with_an_error_that_says_utf16() {
    let text = lines(&[HOST, SESSION, MODE, ACL_A1]);
    let cases = [
        ("little-endian, byte-order mark", utf16(&text, false, true)),
        ("big-endian, byte-order mark", utf16(&text, true, true)),
        ("little-endian", utf16(&text, false, false)),
        ("big-endian", utf16(&text, true, false)),
    ];
    for (what, input) in cases {
        for args in [
            &["replay", "-", "--format", "json"][..],
            &["replay", "-", "--format", "text"][..],
            &["serve"][..],
        ] {
            let out = run(args, input.clone());
            assert_eq!(out.code, 2, "{what} {args:?}: {}", out.stderr);
            assert!(out.stdout.is_empty(), "{what} {args:?}: {}", out.stdout);
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            assert!(
                out.stderr.contains("UTF-16") && out.stderr.contains(what),
                "{what} {args:?}: {}",
                out.stderr
            );
        }
    }
    // A session file in UTF-16 is named.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    std::fs::write(&file, utf16(&text, false, true)).unwrap();
    let out = run(&["replay", file.to_str().unwrap()], "");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("s.jsonl") && out.stderr.contains("UTF-16"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_config_larger_than_its_cap_is_refused_without_reading_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let at_cap = dir.path().join("at-cap.json");
    let over = dir.path().join("over.json");
    let cap = 1024 * 1024;
    let padded = |len: usize| format!("{{{}}}", " ".repeat(len - 2));
    std::fs::write(&at_cap, padded(cap)).unwrap();
    std::fs::write(&over, padded(cap + 1)).unwrap();
    let ok = run(&["serve", "--config", at_cap.to_str().unwrap()], "");
    assert_eq!(
        ok.code, 0,
        "a file of exactly the cap is read: {}",
        ok.stderr
    );
    for path in [over.to_str().unwrap(), "/dev/zero"] {
        for args in [
            vec!["serve", "--config", path],
            vec!["replay", "-", "--config", path],
            vec!["explain", "--config", path, "x"],
        ] {
            let started = std::time::Instant::now();
            let out = run(&args, "");
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains(path) && out.stderr.contains("larger than 1 MiB"),
                "{args:?}: {}",
                out.stderr
            );
            assert!(started.elapsed() < std::time::Duration::from_secs(20));
        }
    }
}

#[test]
fn a_sidecar_answers_a_first_line_of_two_bytes_at_once() {
    use std::io::{BufRead, Write};
    let mut child = std::process::Command::new(BIN)
        .arg("serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // Sniffing the encoding must not wait for bytes the harness has not sent.
    stdin.write_all(b"[]\n").unwrap();
    stdin.flush().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .unwrap();
        let _ = tx.send(line);
    });
    let answer = rx.recv_timeout(std::time::Duration::from_secs(20));
    drop(stdin);
    child.wait().unwrap();
    assert_eq!(
        answer.expect("no answer while stdin is open"),
        "{\"seq\":1,\"error\":\"the line is not a JSON object\"}\n"
    );
}
