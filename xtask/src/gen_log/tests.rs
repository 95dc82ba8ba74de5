//! The generator's size, protocol, families and determinism. The family
//! checks replay the log through the standard registry: a family's post is
//! one that the registry says the family owns.

use std::collections::BTreeMap;

use advisor_core::testing;
use advisor_core::{Observation, Registry, ToolName};
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

/// A `post` line as the CLI reads it (`docs/protocol.md`): the call, and its
/// `error` or `result`.
fn observation(line: &Value) -> Observation {
    let mut o = if let Some(error) = line.get("error") {
        let members: Vec<&str> = error["members"]
            .as_array()
            .map(|m| m.iter().map(|m| m.as_str().unwrap()).collect())
            .unwrap_or_default();
        testing::failure_with(
            error["message"].as_str().unwrap(),
            error["content"].as_str().unwrap(),
            &members,
        )
    } else {
        let result = &line["result"];
        testing::success(result["value"].clone(), result["content"].as_str().unwrap())
    };
    o.tool = ToolName::new(line["tool"].as_str().unwrap());
    o.arguments = line["args"].clone();
    o
}

fn registry() -> Registry {
    host_adapter::standard_registry().build().unwrap()
}

/// The registered families' ids: those with a producer sample, and those without.
fn registered() -> (Vec<&'static str>, Vec<&'static str>) {
    let registry = registry();
    let (sampled, unsampled): (Vec<_>, Vec<_>) = registry
        .families_on(advisor_core::Host::Dsh)
        .partition(|f| f.producer_sample().is_some());
    let ids =
        |fs: Vec<&dyn advisor_core::ErasedFamily>| fs.iter().map(|f| f.id().as_str()).collect();
    (ids(sampled), ids(unsampled))
}

/// How many `post` lines of `text` each family owns, through the registry.
fn owners(text: &str) -> BTreeMap<&'static str, u64> {
    let registry = registry();
    let mut owned = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "post" {
            if let Some(owner) = registry.owner(&observation(&v), advisor_core::Host::Dsh) {
                *owned.entry(owner.family.as_str()).or_default() += 1;
            }
        }
    }
    owned
}

#[test]
fn every_registered_family_owns_a_post_of_the_log() {
    let (sampled, unsampled) = registered();
    assert!(!sampled.is_empty(), "no family declares a producer sample");
    for (bytes, seed) in [(16 * 1024, 11), (256 * 1024, 12)] {
        let mut out = Vec::new();
        let written = generate(bytes, seed, &mut out).unwrap();
        assert_eq!(written.missing, [""; 0], "--bytes {bytes} --seed {seed}");
        assert_eq!(written.unsampled, unsampled);
        let owned = owners(&String::from_utf8(out).unwrap());
        for family in &sampled {
            assert!(
                owned.contains_key(family),
                "--bytes {bytes} --seed {seed}: no post owned by `{family}` ({owned:?})"
            );
        }
        // Every family post is some family's, and no ordinary post is one.
        assert_eq!(
            owned.values().sum::<u64>(),
            written.family_posts,
            "--bytes {bytes} --seed {seed}: {owned:?}"
        );
    }
}

#[test]
fn each_shape_is_owned_by_its_family_and_names_a_family_once() {
    let registry = registry();
    let shapes = families::shapes().unwrap().shapes;
    let mut ids = std::collections::BTreeSet::new();
    for shape in &shapes {
        assert!(ids.insert(shape.family), "{} twice", shape.family);
        for seed in 1..=20 {
            let post = shape.post(&mut rng::Rng::new(seed), r"D:\ws\app");
            let mut line = json!({"type": "post", "tool": post.tool, "args": post.args});
            line[post.outcome.0] = post.outcome.1;
            let owner = registry
                .owner(&observation(&line), advisor_core::Host::Dsh)
                .map(|o| o.family.as_str());
            assert_eq!(owner, Some(shape.family), "{line}");
        }
    }
}

#[test]
fn a_short_log_says_which_families_it_lacks() {
    let (sampled, _) = registered();
    // 64 bytes hold the header lines only; 1024 hold at least the first family forced in
    // (and with seven families, 2048 do not hold them all).
    for bytes in [64, 1024, 2048] {
        let mut out = Vec::new();
        let written = generate(bytes, 1, &mut out).unwrap();
        let owned = owners(&String::from_utf8(out).unwrap());
        let lacking: Vec<&str> = sampled
            .iter()
            .copied()
            .filter(|f| !owned.contains_key(f))
            .collect();
        assert_eq!(written.missing, lacking, "--bytes {bytes}");
        if bytes == 64 {
            assert_eq!(written.missing, sampled);
        } else {
            assert!(written.missing.len() < sampled.len(), "--bytes {bytes}");
        }
    }
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
