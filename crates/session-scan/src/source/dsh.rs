//! DeepSeek harness session logs (formats v0 to v3), plain or zstd, and web exports.

use std::path::{Path, PathBuf};

use crate::model::Sink;

/// True for a name the harness's JSONL writer gives a session file:
/// `session.jsonl`, `session.jsonl.zstd`, `session.vN.jsonl[.zstd]`.
pub fn is_session_file_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("session.") else {
        return false;
    };
    let rest = rest.strip_suffix(".zstd").unwrap_or(rest);
    let Some(rest) = rest.strip_suffix("jsonl") else {
        return false;
    };
    rest.is_empty()
        || rest
            .strip_prefix('v')
            .and_then(|v| v.strip_suffix('.'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads the highest generation among one session directory's files.
pub fn read_session_dir(_files: &[PathBuf], _sink: &mut dyn Sink) {
    todo!("helper: dsh reader")
}

/// Reads a web export ZIP.
pub fn read_export(_path: &Path, _sink: &mut dyn Sink) {
    todo!("helper: dsh export")
}
