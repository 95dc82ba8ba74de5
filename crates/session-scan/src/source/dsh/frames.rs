//! A DeepSeek session file's bytes: plain, or a concatenation of independent
//! zstd frames decoded one at a time as a stream.
//!
//! The writer stores no frame content size, so a frame is never held whole:
//! compressed bytes go through a 64 KiB buffer into libzstd's streaming
//! decoder, which checks each frame's XXH64 content checksum as the frame
//! ends. At every frame boundary the decoder is reset and the next four bytes
//! must be the zstd magic (the writer's own reader refuses anything else,
//! skippable frames included).
//!
//! Streaming has one cost: libzstd hands out a block's bytes as soon as the
//! block is decoded, and checks the frame's checksum only at the frame's end,
//! so the lines of a frame whose checksum then fails may already have been
//! read (for the writer's small frames, decoded in one call, they are not:
//! the failing call's output is dropped). The problem still names the frame
//! and stops the file. A torn frame keeps the lines of its complete blocks.

use std::io::{self, Read};

use zstd::stream::raw::{DParameter, Decoder, InBuffer, Operation, OutBuffer};

/// Zstandard frame magic, little-endian (RFC 8878 §3.1.1).
const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compressed bytes buffered at a time.
const IN_CAPACITY: usize = 1 << 16;

/// The largest window a frame may ask the decoder to keep: 2^24 bytes
/// (16 MiB). The writer's frames ask for 2 MiB; a frame asking for more
/// (libzstd would grant up to 128 MiB) does not decode, and the file stops
/// there with a problem.
pub(crate) const WINDOW_LOG_MAX: u32 = 24;

/// Why a stream stopped before its end, or ended badly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The file ends inside a frame (a torn append): `at` is the file's length.
    Torn { at: u64 },
    /// A frame boundary holds no zstd magic.
    NotAFrame { frame: u64, at: u64 },
    /// A frame that did not decode (a checksum mismatch, a corrupt block).
    Corrupt { frame: u64, at: u64, detail: String },
    /// The underlying read failed.
    Io(String),
}

impl Stop {
    /// The problem's words.
    pub(crate) fn what(&self) -> String {
        match self {
            Stop::Torn { at } => format!(
                "the last zstd frame is cut short at byte {at}; the lines before it were read"
            ),
            Stop::NotAFrame { frame, at } => format!(
                "zstd frame {frame} (counting from 0) at byte {at} has no zstd magic; the rest of the file was not read"
            ),
            Stop::Corrupt { frame, at, detail } => format!(
                "zstd frame {frame} (counting from 0) at byte {at} does not decode ({detail}); the rest of the file was not read"
            ),
            Stop::Io(e) => format!("read failed: {e}; the rest of the file was not read"),
        }
    }
}

/// Reads the decoded bytes of a zstd session file, frame by frame. A failure
/// ends the stream (`read` returns 0) and is kept in [`Frames::stop`].
pub(crate) struct Frames<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    decoder: Option<Decoder<'static>>,
    /// The frame being decoded (or the next one), counting from 0.
    frame: u64,
    /// The compressed offset of `buf[pos]`.
    offset: u64,
    /// The compressed offset where the current frame starts.
    frame_start: u64,
    in_frame: bool,
    stop: Option<Stop>,
}

impl<R: Read> Frames<R> {
    /// Frames of `inner`.
    pub(crate) fn new(inner: R) -> Self {
        let decoder = Decoder::new().and_then(|mut d| {
            d.set_parameter(DParameter::WindowLogMax(WINDOW_LOG_MAX))?;
            Ok(d)
        });
        let (decoder, stop) = match decoder {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(Stop::Io(e.to_string()))),
        };
        Self {
            inner,
            buf: vec![0; IN_CAPACITY].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            decoder,
            frame: 0,
            offset: 0,
            frame_start: 0,
            in_frame: false,
            stop,
        }
    }

    /// Why the stream ended early, if it did.
    pub(crate) fn stop(&self) -> Option<&Stop> {
        self.stop.as_ref()
    }

    /// Moves what is left to the front and reads once more.
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.pos..self.len, 0);
        self.len -= self.pos;
        self.pos = 0;
        loop {
            match self.inner.read(&mut self.buf[self.len..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.len += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn fail(&mut self, stop: Stop) -> io::Result<usize> {
        self.stop = Some(stop);
        Ok(0)
    }
}

impl<R: Read> Read for Frames<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() || self.stop.is_some() {
            return Ok(0);
        }
        loop {
            let want = if self.in_frame { 1 } else { MAGIC.len() };
            if self.len - self.pos < want && !self.eof {
                if let Err(e) = self.fill() {
                    return self.fail(Stop::Io(e.to_string()));
                }
                continue;
            }
            let available = &self.buf[self.pos..self.len];
            if available.is_empty() {
                if self.in_frame {
                    return self.fail(Stop::Torn { at: self.offset });
                }
                return Ok(0);
            }
            if !self.in_frame {
                if available.len() < MAGIC.len() {
                    // The file ends inside what should be a frame's magic.
                    let at = self.offset + available.len() as u64;
                    if MAGIC.starts_with(available) {
                        return self.fail(Stop::Torn { at });
                    }
                    let (frame, at) = (self.frame, self.offset);
                    return self.fail(Stop::NotAFrame { frame, at });
                }
                if available[..MAGIC.len()] != MAGIC {
                    let (frame, at) = (self.frame, self.offset);
                    return self.fail(Stop::NotAFrame { frame, at });
                }
                self.in_frame = true;
                self.frame_start = self.offset;
            }
            let Some(decoder) = self.decoder.as_mut() else {
                return Ok(0);
            };
            let mut input = InBuffer::around(&self.buf[self.pos..self.len]);
            let mut output = OutBuffer::around(&mut *out);
            let result = decoder.run(&mut input, &mut output);
            let (used, produced) = (input.pos(), output.pos());
            self.pos += used;
            self.offset += used as u64;
            match result {
                Err(e) => {
                    let (frame, at) = (self.frame, self.frame_start);
                    let detail = e.to_string();
                    return self.fail(Stop::Corrupt { frame, at, detail });
                }
                Ok(0) => {
                    // The frame ended, its checksum verified.
                    self.frame += 1;
                    self.in_frame = false;
                    if let Err(e) = decoder.reinit() {
                        return self.fail(Stop::Io(e.to_string()));
                    }
                }
                Ok(_) => {}
            }
            if produced > 0 {
                return Ok(produced);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Vec<u8> {
        let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        encoder.include_checksum(true).unwrap();
        io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    }

    fn check(bytes: &[u8], want_text: &str, want_stop: Option<Stop>) {
        let mut frames = Frames::new(bytes);
        let mut text = Vec::new();
        // A small buffer exercises output that fills mid-frame.
        let mut chunk = [0u8; 3];
        loop {
            let n = frames.read(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            text.extend_from_slice(&chunk[..n]);
        }
        assert_eq!(String::from_utf8(text).unwrap(), want_text);
        assert_eq!(frames.stop(), want_stop.as_ref());
    }

    #[test]
    fn frames_are_decoded_in_turn_and_failures_named() {
        let (a, b) = (frame("one\n"), frame("two\nthree\n"));
        let both = [a.clone(), b.clone()].concat();
        check(&both, "one\ntwo\nthree\n", None);
        check(&[], "", None);
        // Torn inside the second frame's checksum (its last 4 bytes): the
        // block was whole, so its lines were decoded and are kept.
        let torn = &both[..both.len() - 2];
        check(
            torn,
            "one\ntwo\nthree\n",
            Some(Stop::Torn {
                at: torn.len() as u64,
            }),
        );
        // Torn inside the second frame's block: nothing of it is decoded.
        let torn = &both[..a.len() + 8];
        check(
            torn,
            "one\n",
            Some(Stop::Torn {
                at: torn.len() as u64,
            }),
        );
        // Torn inside the second frame's magic.
        let torn = &both[..a.len() + 2];
        check(
            torn,
            "one\n",
            Some(Stop::Torn {
                at: torn.len() as u64,
            }),
        );
        // A flipped checksum byte in the second frame.
        let mut flipped = both.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0xff;
        let mut frames = Frames::new(&flipped[..]);
        let mut text = String::new();
        frames.read_to_string(&mut text).unwrap();
        assert!(text.starts_with("one\n"), "{text:?}");
        assert!(
            matches!(frames.stop(), Some(Stop::Corrupt { frame: 1, at, .. }) if *at == a.len() as u64),
            "{:?}",
            frames.stop()
        );
        // A frame asking for a window past the bound does not decode.
        let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        encoder.window_log(WINDOW_LOG_MAX + 1).unwrap();
        encoder.include_contentsize(false).unwrap();
        io::Write::write_all(&mut encoder, &vec![b'x'; 1 << 20]).unwrap();
        let wide = encoder.finish().unwrap();
        let mut frames = Frames::new(&wide[..]);
        let mut text = Vec::new();
        frames.read_to_end(&mut text).unwrap();
        assert!(
            matches!(frames.stop(), Some(Stop::Corrupt { frame: 0, .. })),
            "{:?}",
            frames.stop()
        );
        // Garbage where a frame should start.
        let garbage = [a.clone(), b"nope, not zstd".to_vec()].concat();
        check(
            &garbage,
            "one\n",
            Some(Stop::NotAFrame {
                frame: 1,
                at: a.len() as u64,
            }),
        );
    }
}
