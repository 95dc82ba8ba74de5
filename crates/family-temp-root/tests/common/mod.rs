//! Fixture loading shared by the test files.
//!
//! A fixture is the producer's text byte for byte (no trailing newline). Its
//! name says where the text sits:
//! - `failure-*`: a failure whose message is the text (content `Error: <text>`);
//! - `success-*`: a finished foreground command (exit 1) whose stdout and rendered content are the text;
//! - `content-only-*`: a failure whose rendered content is the text and whose message is something else.

#![allow(dead_code, clippy::panic)]

use advisor_core::Observation;
use advisor_core::testing::{failure, failure_with, foreground, success};

pub fn text(fixture: &str) -> String {
    let path = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => unreachable!("fixture {path}: {e}"),
    }
}

pub fn load(fixture: &str) -> Observation {
    let text = text(fixture);
    if fixture.starts_with("failure-") {
        failure(&text)
    } else if fixture.starts_with("success-") {
        success(foreground(1, &text, "", None), &text)
    } else if fixture.starts_with("content-only-") {
        failure_with("command failed", &text, &[])
    } else {
        unreachable!("fixture {fixture} has no outcome prefix")
    }
}
