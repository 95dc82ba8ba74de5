//! The size an identifier is kept at, the same on every surface (the CLI's
//! protocol and hook, the Node addon), so that one agent is one agent
//! whichever way its events arrive (`docs/protocol.md`, "Sizes").

/// The longest identifier (`agent`, `session`, `call`, `tool`) kept as written, in bytes.
pub const ID_MAX_BYTES: usize = 256;

/// How much of a longer identifier its short form keeps, in bytes (at most).
const ID_KEPT_BYTES: usize = 200;

/// An identifier as the advisor keeps and echoes it. One of at most
/// [`ID_MAX_BYTES`] is itself; a longer one becomes its first 200 bytes (cut
/// at a character boundary), `…`, and 32 hex digits of a 128-bit FNV-1a hash
/// of the whole id: at most 235 bytes, the same for the same id in every run
/// and every process, and different for different ids (unless built to collide).
pub fn short_id(raw: String) -> String {
    if raw.len() <= ID_MAX_BYTES {
        return raw;
    }
    let hash = fnv1a_128(raw.as_bytes());
    let mut end = ID_KEPT_BYTES;
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…{hash:032x}", &raw[..end])
}

/// FNV-1a, 128-bit: deterministic, so a replay echoes the same short ids on
/// every run, and a hook and a sidecar name one agent alike.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes.iter().fold(OFFSET, |hash, &b| {
        (hash ^ u128::from(b)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_id_is_shortened_the_same_way_every_time_and_stays_distinct() {
        let short = "a".repeat(ID_MAX_BYTES);
        assert_eq!(short_id(short.clone()), short);
        let long = |last: char| format!("{}{last}", "é".repeat(ID_MAX_BYTES));
        let (x, y) = (short_id(long('x')), short_id(long('y')));
        assert!(x.len() <= ID_MAX_BYTES && y.len() <= ID_MAX_BYTES, "{x}");
        assert_ne!(x, y);
        assert_eq!(x, short_id(long('x')));
        assert!(x.starts_with("éé") && x.contains('…'), "{x}");
        assert_eq!(fnv1a_128(b""), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_eq!(fnv1a_128(b"a"), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
    }
}
