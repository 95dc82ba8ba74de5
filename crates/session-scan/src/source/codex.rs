//! codex transcripts.

use std::io::BufRead;
use std::path::Path;

use crate::model::Sink;

/// Reads one transcript.
pub fn read(_path: &Path, _input: &mut dyn BufRead, _sink: &mut dyn Sink) {
    todo!("helper: codex reader")
}
