//! The generator's size, protocol, families and determinism.

use serde_json::Value;

use super::*;

fn log(bytes: u64, seed: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let written = generate(bytes, seed, &mut out).unwrap();
    assert_eq!(written.bytes, out.len() as u64);
    out
}

#[test]
fn size_is_within_five_percent() {
    for (bytes, seed) in [(16 * 1024, 1), (100_000, 2), (1 << 20, 3), (4 << 20, 4)] {
        let len = log(bytes, seed).len() as f64;
        let want = bytes as f64;
        assert!(
            (len - want).abs() <= want * 0.05,
            "{len} bytes for --bytes {bytes} --seed {seed}"
        );
    }
}

#[test]
fn every_line_is_a_protocol_object() {
    let text = String::from_utf8(log(1 << 20, 7)).unwrap();
    let types = [
        "hello",
        "host",
        "session",
        "sandbox-mode",
        "session-start",
        "post",
        "pre",
        "agent-end",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let kind = v["type"].as_str().unwrap();
        assert!(types.contains(&kind), "{kind}");
        seen.insert(kind.to_owned());
        if kind == "post" {
            assert!(
                v.get("error").is_some() != v.get("result").is_some(),
                "{line}"
            );
        }
    }
    assert_eq!(seen.len(), types.len(), "{seen:?}");
}

#[test]
fn every_family_shape_appears() {
    let shapes = families::shapes();
    for (bytes, seed) in [(16 * 1024, 11), (256 * 1024, 12)] {
        let mut out = Vec::new();
        let written = generate(bytes, seed, &mut out).unwrap();
        assert_eq!(written.missing, [""; 0], "--bytes {bytes} --seed {seed}");
        let text = String::from_utf8(out).unwrap();
        for shape in &shapes {
            assert!(
                shape.evidence.iter().any(|e| text.contains(e)),
                "--bytes {bytes} --seed {seed}: no `{}` failure (none of {:?})",
                shape.family,
                shape.evidence
            );
        }
    }
}

#[test]
fn each_shape_carries_its_evidence_and_names_a_family_once() {
    let shapes = families::shapes();
    let mut ids = std::collections::BTreeSet::new();
    for shape in &shapes {
        assert!(ids.insert(shape.family), "{} twice", shape.family);
        for seed in 1..=20 {
            let post = (shape.build)(&mut rng::Rng::new(seed), r"D:\ws\app");
            let mut line = json!({"tool": post.tool, "args": post.args});
            line[post.outcome.0] = post.outcome.1;
            let line = line.to_string();
            assert!(
                shape.evidence.iter().any(|e| line.contains(e)),
                "{}: {line}",
                shape.family
            );
        }
    }
}

#[test]
fn a_short_log_says_which_families_it_lacks() {
    let written = generate(2048, 1, &mut Vec::new()).unwrap();
    let all: Vec<&str> = families::shapes().iter().map(|s| s.family).collect();
    assert!(!written.missing.is_empty());
    assert!(written.missing.len() < all.len(), "{:?}", written.missing);
    assert!(written.missing.iter().all(|f| all.contains(f)));
}

#[test]
fn a_seed_gives_one_log() {
    assert_eq!(log(200_000, 5), log(200_000, 5));
    assert_ne!(log(200_000, 5), log(200_000, 6));
}

#[test]
fn sizes_parse_with_binary_units() {
    assert_eq!(parse_size("123").unwrap(), 123);
    assert_eq!(parse_size("64K").unwrap(), 64 << 10);
    assert_eq!(parse_size("10m").unwrap(), 10 << 20);
    assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
    assert!(parse_size("10x").is_err());
    assert!(parse_size("").is_err());
}
