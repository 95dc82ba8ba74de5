//! Prototype for `sandbox-advisor scan`: walks every zstd frame of a DeepSeek
//! harness `session.jsonl.zstd`, decodes each one on its own (libzstd checks
//! the frame's XXH64 content checksum while decoding), and prints, per file,
//! the frame count, the decoded line count and the first line.
//!
//! Usage: dsh-frames FILE...

use std::io::Read;
use std::process::ExitCode;

use zstd::zstd_safe;

/// Zstandard frame magic, little-endian (RFC 8878 §3.1.1).
const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// Frame_Header_Descriptor bit 2: a 4-byte content checksum ends the frame.
const CHECKSUM_FLAG: u8 = 0x04;

#[derive(Debug)]
struct Frame {
    offset: usize,
    compressed: usize,
    has_checksum: bool,
    plain: Vec<u8>,
}

#[derive(Debug)]
enum FrameError {
    BadMagic { offset: usize },
    Torn { offset: usize, detail: String },
    Decode { offset: usize, detail: String },
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadMagic { offset } => write!(f, "no zstd frame magic at byte {offset}"),
            Self::Torn { offset, detail } => write!(f, "incomplete frame at byte {offset}: {detail}"),
            Self::Decode { offset, detail } => write!(f, "frame at byte {offset} failed to decode: {detail}"),
        }
    }
}

/// Decode the frame that starts at `offset`; libzstd rejects a checksum mismatch.
fn frame_at(data: &[u8], offset: usize) -> Result<Frame, FrameError> {
    let rest = &data[offset..];
    if rest.len() < 5 || rest[..4] != MAGIC {
        return Err(FrameError::BadMagic { offset });
    }
    let compressed = zstd_safe::find_frame_compressed_size(rest).map_err(|code| FrameError::Torn {
        offset,
        detail: zstd_safe::get_error_name(code).to_owned(),
    })?;
    let bytes = &rest[..compressed];
    // The writer stores no content size, so decode as a stream.
    let mut plain = Vec::new();
    zstd::stream::read::Decoder::with_buffer(bytes)
        .and_then(|decoder| decoder.single_frame().read_to_end(&mut plain))
        .map_err(|error| FrameError::Decode { offset, detail: error.to_string() })?;
    Ok(Frame { offset, compressed, has_checksum: bytes[4] & CHECKSUM_FLAG != 0, plain })
}

fn frames(data: &[u8]) -> Result<Vec<Frame>, FrameError> {
    let mut found = Vec::new();
    let mut offset = 0;
    while offset < data.len() {
        let frame = frame_at(data, offset)?;
        offset += frame.compressed;
        found.push(frame);
    }
    Ok(found)
}

fn report(path: &str) -> Result<(), String> {
    let data = std::fs::read(path).map_err(|error| format!("{path}: {error}"))?;
    println!("{path}");
    let frames = frames(&data).map_err(|error| format!("{path}: {error}"))?;
    let mut lines = 0;
    let mut first_line = None;
    for (index, frame) in frames.iter().enumerate() {
        let count = frame.plain.split(|b| *b == b'\n').filter(|line| !line.is_empty()).count();
        lines += count;
        println!(
            "  frame {index}: bytes {}..{}, checksum {}, {} decoded bytes, {count} lines",
            frame.offset,
            frame.offset + frame.compressed,
            if frame.has_checksum { "present and verified" } else { "absent" },
            frame.plain.len(),
        );
        if first_line.is_none() {
            first_line = frame.plain.split(|b| *b == b'\n').next().map(<[u8]>::to_vec);
        }
    }
    println!("  {} frames, {lines} lines", frames.len());
    if let Some(line) = first_line {
        println!("  first line: {}", String::from_utf8_lossy(&line));
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        if let Err(message) = report(&path) {
            eprintln!("{message}");
            status = ExitCode::FAILURE;
        }
    }
    status
}
