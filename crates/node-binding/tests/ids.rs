//! The identifier conversion (`src/ids.rs`), in Rust: the crate's Node-API
//! code cannot link into a test binary, so the pure module is included here
//! as it is. `bindings/node`'s suite drives the same code through Node.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

#[path = "../src/ids.rs"]
#[allow(dead_code)]
mod ids;

use advisor_core::ID_MAX_BYTES;
use ids::{ESCAPE, ID_READ_MAX_UNITS, check_length, from_utf16, lossless};

fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

/// Every pair of distinct inputs maps to distinct ids, and each input to the
/// same id every time; `kept` inputs map to themselves.
fn check(inputs: &[(Vec<u16>, Option<&str>)]) {
    let ids: Vec<String> = inputs.iter().map(|(u, _)| from_utf16(u)).collect();
    for (i, (u, kept)) in inputs.iter().enumerate() {
        assert_eq!(from_utf16(u), ids[i], "{u:x?}: stable");
        if let Some(kept) = kept {
            assert_eq!(ids[i], *kept, "{u:x?}");
        }
        assert!(
            ids[i].len() <= ID_MAX_BYTES,
            "{u:x?}: {} bytes",
            ids[i].len()
        );
        for (j, (v, _)) in inputs.iter().enumerate().skip(i + 1) {
            if u != v {
                assert_ne!(ids[i], ids[j], "{u:x?} and {v:x?} are one id");
            }
        }
    }
}

#[test]
fn different_js_strings_are_different_ids() {
    let escape = ESCAPE.to_string();
    let long = |last: u16| {
        let mut u = units(&"a".repeat(ID_MAX_BYTES));
        u.push(last);
        u
    };
    check(&[
        (units("a1"), Some("a1")),
        (units("é€😀"), Some("é€😀")),
        (vec![0xD800], None),
        (vec![0xDFFF], None),
        (units("\u{FFFD}"), Some("\u{FFFD}")),
        // A string that spells an escape is not the surrogate it spells.
        (units(&format!("{escape}d800")), None),
        (units(&escape), None),
        (vec![0xD83D, 0x0041], None),
        (vec![0x0041, 0xDE00], None),
        (vec![0xDE00, 0xD83D], None),
        (vec![0xD83D, 0xDE00], Some("😀")),
        (long(0xD800), None),
        (long(0xDFFF), None),
        (long(u16::from(b'x')), None),
        (units(""), Some("")),
    ]);
    assert_eq!(lossless(&[0xD800]), format!("{escape}d800"));
}

#[test]
fn an_id_is_refused_past_its_bound_before_it_is_read() {
    assert!(check_length("agent", ID_READ_MAX_UNITS).is_ok());
    let e = check_length("agent", ID_READ_MAX_UNITS + 1).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("`agent`") && text.contains(&ID_READ_MAX_UNITS.to_string()),
        "{text}"
    );
    // The longest id read is kept at the CLI's size, quickly.
    let started = std::time::Instant::now();
    for longest in [
        vec![0xD800; ID_READ_MAX_UNITS],
        vec![u16::from(b'y'); ID_READ_MAX_UNITS],
    ] {
        assert!(from_utf16(&longest).len() <= ID_MAX_BYTES);
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
