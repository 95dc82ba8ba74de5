//! Fixed-size digests of what the fail-fast budget remembers, and a bounded
//! set of them.
//!
//! A [`Digest`] is 128 bits of SipHash-1-3 under one secret [`DigestKey`] per
//! process: the hash of the byte stream and the hash of the same stream with one
//! more byte. Equal streams give equal digests under one key; two different
//! streams collide with probability about 2^-128, and an input author cannot aim
//! for a collision without the key. Nothing but the 16 bytes is kept.
//!
//! The key is drawn at random on first use, unless a shared ledger store set it
//! first ([`use_digest_key`]): processes that share a store must digest alike,
//! so the store keeps one secret key for all of them.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};
use std::sync::OnceLock;

use siphasher::sip::SipHasher13;

/// 128 bits identifying a byte stream within this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Digest(u128);

impl Hash for Digest {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Already uniformly random: the low half is a fine table hash.
        state.write_u64(self.0 as u64);
    }
}

impl Digest {
    /// The 128 bits.
    pub(crate) fn bits(self) -> u128 {
        self.0
    }

    /// A digest a store kept.
    pub(crate) fn from_bits(bits: u128) -> Self {
        Self(bits)
    }

    /// The digest of one string, length-prefixed.
    pub(crate) fn of_str(text: &str) -> Self {
        let mut writer = DigestWriter::new();
        writer.prefixed(text.as_bytes());
        writer.finish()
    }
}

/// The secret key every [`Digest`] of this process is computed under.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DigestKey([u8; 16]);

impl std::fmt::Debug for DigestKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DigestKey(..)")
    }
}

impl DigestKey {
    /// A fresh key from the operating system's randomness (through std's
    /// randomly keyed hasher).
    pub fn random() -> Self {
        let state = RandomState::new();
        Self(join(state.hash_one(0x5a5a_u16), state.hash_one(0xa5a5_u16)))
    }

    /// The key's 16 bytes, for a store that keeps it.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0
    }

    /// A key a store kept.
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(bytes)
    }

    /// The key as 32 lowercase hex digits.
    pub fn to_hex(self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 32 hex digits; `None` for anything else.
    pub fn from_hex(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 32 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 16];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Self(bytes))
    }

    /// The two SipHash keys: the low eight bytes and the high eight, each
    /// little-endian.
    fn halves(self) -> (u64, u64) {
        let n = u128::from_le_bytes(self.0);
        (n as u64, (n >> 64) as u64)
    }
}

/// Sixteen bytes from two halves, low first, each little-endian: no
/// arithmetic on the halves, so neither can leak into the other.
fn join(low: u64, high: u64) -> [u8; 16] {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&low.to_le_bytes());
    bytes[8..].copy_from_slice(&high.to_le_bytes());
    bytes
}

static KEY: OnceLock<DigestKey> = OnceLock::new();

/// Where the key comes from when the first digest is computed.
type KeySource = Box<dyn Fn() -> DigestKey + Send + Sync>;

static SOURCE: OnceLock<KeySource> = OnceLock::new();

/// The key every digest is computed under: on first use, from the source set
/// by [`digest_key_from`], else a random one.
fn key() -> DigestKey {
    *KEY.get_or_init(|| {
        SOURCE
            .get()
            .map_or_else(DigestKey::random, |source| source())
    })
}

/// The key this process digests under, chosen now if no digest was
/// computed yet (from the [`digest_key_from`] source, else at random).
pub fn digest_key_in_use() -> DigestKey {
    key()
}

/// Defers the choice of key to the first digest: `source` runs then, once.
/// A process that shares a store whose key costs I/O to learn (a file, a
/// server) sets it at start, so a process that never computes a digest —
/// one whose events all match nothing — never pays for it. `source` must not
/// compute a digest or set a key itself.
pub fn digest_key_from(
    source: impl Fn() -> DigestKey + Send + Sync + 'static,
) -> Result<(), DigestKeyInUse> {
    if KEY.get().is_some() || SOURCE.set(Box::new(source)).is_err() {
        return Err(DigestKeyInUse);
    }
    Ok(())
}

/// The digest key was already in use (a digest was computed, or another key
/// was set) when a store tried to set its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the digest key is already in use in this process; set the store's key before any event is decided"
)]
pub struct DigestKeyInUse;

/// Makes `key` the key of every digest this process computes. A process that
/// shares a ledger store with others calls it once, before it decides any
/// event; setting the key a second time succeeds only when it is the same key.
pub fn use_digest_key(key: DigestKey) -> Result<(), DigestKeyInUse> {
    match KEY.set(key) {
        Ok(()) => Ok(()),
        Err(_) if KEY.get() == Some(&key) => Ok(()),
        Err(_) => Err(DigestKeyInUse),
    }
}

/// Streams bytes into a digest in fixed 64-byte blocks, so the result depends
/// on the bytes alone, not on how a writer happened to split them.
pub(crate) struct DigestWriter {
    hasher: SipHasher13,
    block: [u8; 64],
    filled: usize,
}

impl DigestWriter {
    pub(crate) fn new() -> Self {
        Self {
            hasher: {
                let (k0, k1) = key().halves();
                SipHasher13::new_with_keys(k0, k1)
            },
            block: [0; 64],
            filled: 0,
        }
    }

    /// Appends raw bytes.
    pub(crate) fn bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = (self.block.len() - self.filled).min(bytes.len());
            self.block[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled == self.block.len() {
                self.hasher.write(&self.block);
                self.filled = 0;
            }
        }
    }

    /// Appends a length-prefixed field, so field boundaries are unambiguous.
    pub(crate) fn prefixed(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    pub(crate) fn finish(mut self) -> Digest {
        self.hasher.write(&self.block[..self.filled]);
        let low = self.hasher.finish();
        self.hasher.write_u8(0xA5);
        let high = self.hasher.finish();
        Digest(u128::from_le_bytes(join(low, high)))
    }
}

impl std::io::Write for DigestWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Passes a digest's own bits through as the table hash.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Set = HashSet<Digest, BuildHasherDefault<PassThrough>>;

/// A set of digests holding at most `2 × GENERATION`, O(1) per operation.
///
/// Two generations: insertions go to the young one; when it holds `GENERATION`
/// digests it becomes the old one and the previous old one is dropped. So a
/// digest is forgotten only after at least `GENERATION` other distinct digests
/// were inserted since its own last insertion.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct DigestSet<const GENERATION: usize> {
    young: Set,
    old: Set,
}

impl<const GENERATION: usize> DigestSet<GENERATION> {
    /// Inserts (or refreshes) a digest; false when it was already held.
    pub(crate) fn insert(&mut self, digest: Digest) -> bool {
        if self.young.contains(&digest) {
            return false;
        }
        let was_old = self.old.remove(&digest);
        if self.young.len() >= GENERATION {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(digest);
        !was_old
    }

    pub(crate) fn contains(&self, digest: &Digest) -> bool {
        self.young.contains(digest) || self.old.contains(digest)
    }

    /// Removes a digest; true when it was held.
    pub(crate) fn remove(&mut self, digest: &Digest) -> bool {
        self.young.remove(digest) | self.old.remove(digest)
    }

    /// The young generation, then the old one (for a store's encoding).
    pub(crate) fn generations(&self) -> [impl ExactSizeIterator<Item = Digest> + '_; 2] {
        [self.young.iter().copied(), self.old.iter().copied()]
    }

    /// A set rebuilt from its two generations; `None` when one holds more
    /// than `GENERATION` digests (a record no process wrote).
    pub(crate) fn from_generations(
        young: impl IntoIterator<Item = Digest>,
        old: impl IntoIterator<Item = Digest>,
    ) -> Option<Self> {
        let young: Set = young.into_iter().collect();
        let old: Set = old.into_iter().collect();
        (young.len() <= GENERATION && old.len() <= GENERATION).then_some(Self { young, old })
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.young.is_empty() && self.old.is_empty()
    }
}

#[cfg(test)]
#[path = "digest/tests.rs"]
mod tests;
