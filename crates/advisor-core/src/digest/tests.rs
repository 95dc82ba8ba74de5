//! The digest, its key and the bounded set, down to each operator.

use super::*;

fn d(n: u32) -> Digest {
    Digest::of_str(&n.to_string())
}

#[test]
fn chunking_does_not_change_the_digest() {
    let text: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
    let mut whole = DigestWriter::new();
    whole.bytes(&text);
    let mut pieces = DigestWriter::new();
    for chunk in text.chunks(7) {
        pieces.bytes(chunk);
    }
    assert_eq!(whole.finish(), pieces.finish());
    assert_ne!(Digest::of_str("ab"), Digest::of_str("ba"));
}

#[test]
fn a_digest_set_is_bounded_and_forgets_only_after_a_generation_of_others() {
    let mut set = DigestSet::<4>::default();
    assert!(set.insert(d(0)));
    assert!(!set.insert(d(0)), "already held");
    for n in 1..=4 {
        set.insert(d(n));
    }
    assert!(set.contains(&d(0)), "only four others since");
    set.insert(d(0)); // refreshed into the young generation
    for n in 5..=8 {
        set.insert(d(n));
    }
    assert!(set.contains(&d(0)));
    for n in 9..1000 {
        set.insert(d(n));
        assert!(set.len() <= 8);
    }
    assert!(!set.contains(&d(0)));
    assert!((996..1000).all(|n| set.contains(&d(n))));
    assert!(set.remove(&d(999)) && !set.contains(&d(999)));
}

/// A key whose sixteen bytes are all different: 1, 2, …, 16.
fn counting_key() -> DigestKey {
    let mut bytes = [0u8; 16];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = i as u8 + 1;
    }
    DigestKey::from_bytes(bytes)
}

#[test]
fn the_key_is_its_two_little_endian_halves() {
    let key = counting_key();
    assert_eq!(
        key.halves(),
        (0x0807_0605_0403_0201, 0x100f_0e0d_0c0b_0a09),
        "a key keyed with zeros (or one half) digests like every other process"
    );
    assert_eq!(
        join(0x0807_0605_0403_0201, 0x100f_0e0d_0c0b_0a09),
        key.to_bytes()
    );
}

/// The digest of the process's key is SipHash-1-3 under that key's halves,
/// computed here independently (block by block, then one more byte), and
/// both 64-bit halves of it are used.
#[test]
fn a_digest_is_siphash_under_the_process_key() {
    let key = digest_key_in_use().to_bytes();
    let half = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&key[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let text = b"sandbox-advisor";
    let mut stream = Vec::new();
    stream.extend_from_slice(&(text.len() as u64).to_le_bytes());
    stream.extend_from_slice(text);
    let mut reference = SipHasher13::new_with_keys(half(0), half(8));
    reference.write(&stream);
    let low = reference.finish();
    reference.write_u8(0xA5);
    let high = reference.finish();
    let got = Digest::of_str("sandbox-advisor").bits();
    assert_eq!(got as u64, low);
    assert_eq!((got >> 64) as u64, high);
    let mut zero = SipHasher13::new_with_keys(0, 0);
    zero.write(&stream);
    assert_ne!(got as u64, zero.finish(), "keyed with zeros");
}

#[test]
fn random_keys_fill_both_halves_and_differ() {
    let (a, b) = (DigestKey::random(), DigestKey::random());
    assert_ne!(a, b);
    let (low, high) = a.halves();
    assert!(low != 0 && high != 0, "a half of a random key is zero");
    assert_ne!(low, high);
}

#[test]
fn keys_round_trip_through_bytes_and_hex_and_hide_in_debug() {
    let key = counting_key();
    assert_eq!(DigestKey::from_bytes(key.to_bytes()), key);
    assert_eq!(key.to_hex(), "0102030405060708090a0b0c0d0e0f10");
    assert_eq!(DigestKey::from_hex(&key.to_hex()), Some(key));
    assert_eq!(
        DigestKey::from_hex(" 0102030405060708090A0B0C0D0E0F10\n"),
        Some(key)
    );
    for bad in [
        "",
        "abc",
        "0102030405060708090a0b0c0d0e0f1",
        "0102030405060708090a0b0c0d0e0f100",
        "0102030405060708090a0b0c0d0e0fzz",
        "0102030405060708090a0b0c0d0e0é",
    ] {
        assert_eq!(DigestKey::from_hex(bad), None, "{bad:?}");
    }
    assert_eq!(format!("{key:?}"), "DigestKey(..)");
}

/// Once a digest was computed, neither a source nor another key may change
/// the key; setting the key in use again is fine.
#[test]
fn the_key_in_use_cannot_be_replaced() {
    let in_use = digest_key_in_use();
    assert_eq!(digest_key_from(DigestKey::random), Err(DigestKeyInUse));
    assert_eq!(use_digest_key(in_use), Ok(()));
    assert_eq!(use_digest_key(counting_key()), Err(DigestKeyInUse));
    assert_eq!(digest_key_in_use(), in_use);
}

#[test]
fn a_digest_writer_takes_io_writes_whole() {
    use std::io::Write as _;
    let mut writer = DigestWriter::new();
    assert_eq!(writer.write(b"abc").ok(), Some(3));
    assert!(writer.flush().is_ok());
    let mut direct = DigestWriter::new();
    direct.bytes(b"abc");
    assert_eq!(writer.finish(), direct.finish());
}

#[test]
fn a_digest_is_its_bits_and_hashes_as_its_low_half() {
    let bits = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210_u128;
    let digest = Digest::from_bits(bits);
    assert_eq!(digest.bits(), bits);
    let mut hasher = PassThrough::default();
    digest.hash(&mut hasher);
    assert_eq!(hasher.finish(), 0xfedc_ba98_7654_3210);
    let mut bytes = PassThrough::default();
    bytes.write(&[0xFF; 9]);
    assert_eq!(bytes.finish(), 0xFFFF_FFFF_FFFF_FF00);
}

#[test]
fn a_digest_in_both_generations_is_removed_from_both() {
    let set = DigestSet::<2>::from_generations([d(1)], [d(1)]);
    let mut set = set.expect("one digest per generation fits");
    assert!(set.contains(&d(1)) && !set.is_empty());
    assert!(set.remove(&d(1)));
    assert!(!set.contains(&d(1)) && set.is_empty());
    assert!(!set.remove(&d(1)), "absent");
}

#[test]
fn a_record_is_rebuilt_only_within_its_generations() {
    assert!(DigestSet::<2>::default().is_empty());
    let old_only = DigestSet::<2>::from_generations([], [d(1)]).expect("fits");
    assert!(!old_only.is_empty() && old_only.contains(&d(1)));
    let young_only = DigestSet::<2>::from_generations([d(2)], []).expect("fits");
    assert!(!young_only.is_empty() && young_only.contains(&d(2)));
    let full = DigestSet::<2>::from_generations([d(1), d(2)], [d(3), d(4)]).expect("fits");
    assert_eq!(full.len(), 4);
    assert!(DigestSet::<2>::from_generations([d(1), d(2), d(3)], []).is_none());
    assert!(DigestSet::<2>::from_generations([], [d(1), d(2), d(3)]).is_none());
}
