//! The CLI's line protocol on arbitrary bytes: the whole input is one stream
//! (`sandbox_advisor::stream::run`, the loop `replay` and `serve` share), so
//! the bounded line reader, `protocol::parse_line`, the engine (session policy,
//! ledger, fail-fast budget, pre-flight) and the JSON sink all see it.
//!
//! Beyond "no panic": every output line is a JSON object carrying `seq`, no
//! more output lines are written than input lines were read, and every
//! advisory in them is bounded and free of control characters other than `\n`.
//! A fresh engine per input keeps a crash reproducible from its input alone.
#![no_main]

use std::sync::OnceLock;

use advisor_core::Config;
use libfuzzer_sys::fuzz_target;
use sandbox_advisor::config::FileConfig;
use sandbox_advisor::engine::Engine;
use sandbox_advisor::render::JsonSink;
use serde_json::Value;

/// Small enough that the over-long-line path is reached by ordinary inputs.
const MAX_LINE_BYTES: usize = 4096;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(
        || match tokio::runtime::Builder::new_current_thread().build() {
            Ok(rt) => rt,
            Err(e) => panic!("no tokio runtime: {e}"),
        },
    )
}

fn check_advisory(advisory: &Value) {
    let summary = advisory["summary"].as_str().unwrap_or_default();
    assert!(summary.chars().count() <= advisor_core::SUMMARY_MAX_CHARS);
    assert!(!summary.chars().any(char::is_control));
    let text = advisory["text"].as_str().unwrap_or_default();
    assert!(
        text.len() < 64 * 1024,
        "advisory text is {} bytes",
        text.len()
    );
    if let Some(c) = text.chars().find(|c| c.is_control() && *c != '\n') {
        panic!("control character {c:?} in an advisory");
    }
}

fuzz_target!(|data: &[u8]| {
    // Byte 0 turns the fail-fast budget on, so `pre` lines can be refused.
    let enforce_after = u32::from(data.first().copied().unwrap_or(0) & 0x03);
    let config = FileConfig {
        core: Config {
            enforce_after,
            ..Config::default()
        },
        ..FileConfig::default()
    };
    let mut engine = match Engine::new(&config, host_adapter::standard_registry()) {
        Ok(engine) => engine,
        Err(e) => panic!("engine: {e}"),
    };
    let mut out = Vec::new();
    let tally = sandbox_advisor::stream::run(
        &mut engine,
        runtime(),
        data,
        MAX_LINE_BYTES,
        &mut JsonSink(&mut out),
        sandbox_advisor::stream::WhenClosed::Stop,
    );
    match tally {
        Ok(_) => {}
        // Input that looks like UTF-16 is refused as a whole, before any output.
        Err(sandbox_advisor::stream::StreamError::Utf16(_)) => {
            assert!(out.is_empty(), "output before a UTF-16 refusal");
            return;
        }
        Err(e) => panic!("in-memory I/O cannot fail: {e:?}"),
    }
    let input_lines = data.split(|b| *b == b'\n').count();
    let mut written = 0;
    for line in out.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        written += 1;
        let value: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => panic!(
                "output line is not JSON ({e}): {:?}",
                String::from_utf8_lossy(line)
            ),
        };
        assert!(
            value.get("seq").and_then(Value::as_u64).is_some(),
            "no seq: {value}"
        );
        if let Some(advisories) = value.get("advisories").and_then(Value::as_array) {
            advisories.iter().for_each(check_advisory);
        }
    }
    assert!(
        written <= input_lines,
        "{written} output lines for {input_lines} input lines"
    );
});
