//! The needle sets' own tests: every path a scan can take gives the same answer.

use super::*;

/// The answer for `texts`, asked three ways: as they are, behind a
/// 64-byte prefix of dots (no test needle holds a dot), and from the
/// automaton alone. All three must agree.
fn hits(s: &NeedleSet, wanted: u64, texts: &[&str]) -> u64 {
    let bare: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
    let padded: Vec<Vec<u8>> = texts
        .iter()
        .map(|t| [".".repeat(64).as_bytes(), t.as_bytes()].concat())
        .collect();
    let padded: Vec<&[u8]> = padded.iter().map(Vec::as_slice).collect();
    let (short, long) = (s.hits(wanted, &bare), s.hits(wanted, &padded));
    assert_eq!(short, long, "{texts:?}");
    let wanted = wanted & s.all;
    let automaton = bare
        .iter()
        .filter(|t| !t.is_empty())
        .fold(wanted & s.empty, |acc, t| acc | s.by_automaton(t, wanted));
    assert_eq!(automaton, long, "{texts:?} (the automaton)");
    long
}

fn set(needles: &[&'static str]) -> NeedleSet {
    NeedleSet::new(needles.iter().copied().zip(0..).collect())
}

#[test]
fn each_needle_is_found_at_its_own_rare_byte() {
    let s = set(&["abc", "bcd", "xyz"]);
    assert_eq!(hits(&s, u64::MAX, &["xabcdx"]), 0b011);
    assert_eq!(hits(&s, 0b010, &["xabcdx"]), 0b010);
    assert_eq!(hits(&s, u64::MAX, &["..xyz", "abc"]), 0b101);
    assert_eq!(hits(&s, u64::MAX, &["ab", "cd"]), 0);
    assert_eq!(hits(&s, u64::MAX, &[""]), 0);
    // One rare byte, at two offsets: the second needle's hit comes after
    // the first one's, and the rare byte is found where each needle holds it.
    let s = set(&["W-a", "a-W"]);
    assert_eq!((s.needles[0].at, s.needles[1].at), (0, 2));
    assert_eq!(hits(&s, u64::MAX, &["W-a-W"]), 0b11);
    assert_eq!(hits(&s, u64::MAX, &["a-W-"]), 0b10);
}

/// A needle whose rarest byte is its own is looked for by its second
/// rarest when another needle already is: here `J` gives way to `W`.
#[test]
fn a_needle_shares_another_ones_rare_byte_when_it_can() {
    let s = set(&["Windows ACL", "Job at Windows"]);
    let bytes: Vec<(u8, usize)> = s.needles.iter().map(|n| (n.rare, n.at)).collect();
    assert_eq!(bytes, [(b'W', 0), (b'W', 7)]);
    assert_eq!((s.groups.len(), s.groups[0].len), (1, 1));
    assert_eq!(hits(&s, u64::MAX, &["a Job at Windows"]), 0b10);
    assert_eq!(hits(&s, u64::MAX, &["Job at Window", "Windows AC"]), 0);
}

#[test]
fn an_empty_needle_occurs_everywhere_and_a_family_may_have_several() {
    let s = NeedleSet::new(vec![("", 0), ("abc", 1), ("zzz", 1)]);
    assert_eq!(hits(&s, u64::MAX, &[""]), 0b01);
    assert_eq!(hits(&s, u64::MAX, &["..zzz"]), 0b11);
    assert_eq!(hits(&s, 0b10, &["abc"]), 0b10);
}

/// A text made of the needles' own rare bytes sends the scan to the
/// automaton early, and the answer is still exact.
#[test]
fn a_text_dense_in_rare_bytes_is_answered_by_the_automaton_exactly() {
    let s = set(&["abc", "bcd", "xyz"]);
    let rare: Vec<u8> = s.needles.iter().map(|n| n.rare).collect();
    let mut text: Vec<u8> = rare.iter().copied().cycle().take(4096).collect();
    // No needle is made of its rare byte alone, so the filler matches none.
    assert_eq!(s.scan(&text, 0b111), 0);
    let hits = memchr::memchr3_iter(rare[0], rare[1], rare[2], &text).count();
    assert!(hits > DENSE_SLACK + 4096 / DENSE_SPACING, "{hits} hits");
    text.extend_from_slice(b"xabcdx");
    assert_eq!(s.scan(&text, 0b111), 0b011);
    assert_eq!(s.scan(&text, 0b100), 0);
}

/// The automaton holds only the needles' prefixes: a needle longer than
/// that is found only where it occurs whole.
#[test]
fn a_needle_longer_than_the_prefix_is_confirmed_whole() {
    let s = set(&["0123456789abcdefXY", "0123456789abcdefZ"]);
    assert_eq!(hits(&s, u64::MAX, &["..0123456789abcdefZ.."]), 0b10);
    assert_eq!(hits(&s, u64::MAX, &["0123456789abcdefX"]), 0);
    assert_eq!(s.by_automaton(b"x0123456789abcdefXY", u64::MAX), 0b01);
}

/// Dense texts are compared until the hits past the density rule, over
/// every scan, have cost what the automaton's build does; then it is built.
#[test]
fn the_automaton_is_built_once_dense_comparisons_cost_as_much() {
    let s = set(&["abc", "bcd", "xyz"]);
    let rare: Vec<u8> = s.needles.iter().map(|n| n.rare).collect();
    let mut text: Vec<u8> = rare.iter().copied().cycle().take(600).collect();
    text.extend_from_slice(b"xabcdx");
    assert_eq!(s.scan(&text, 0b111), 0b011);
    assert!(
        s.automaton.get().is_none(),
        "built for one short dense text"
    );
    for _ in 0..BUILD_COST / HIT_COST / 500 {
        assert_eq!(s.scan(&text, 0b111), 0b011);
    }
    assert!(s.automaton.get().is_some(), "never built");
    assert_eq!(s.scan(&text, 0b111), 0b011);
}

/// Short texts go through the memchr passes until what they cost beyond
/// the automaton adds up to its build; then the automaton answers them.
#[test]
fn short_texts_build_the_automaton_once_they_have_paid_for_it() {
    let s = set(&["abc", "bcd", "xyz"]);
    assert_eq!(s.scan(b"..xyz", 0b111), 0b100);
    assert!(s.automaton.get().is_none(), "built for one short text");
    for _ in 0..BUILD_COST / SHORT_COST {
        assert_eq!(s.scan(b"..xyz", 0b111), 0b100);
    }
    assert!(s.automaton.get().is_some(), "never built");
    assert_eq!(s.scan(b"..xyz abc", 0b111), 0b101);
}

#[test]
fn too_many_rare_bytes_leave_the_automaton_alone() {
    let many: Vec<&'static str> = vec!["q1", "w2", "e3", "r4", "t5", "y6", "u7", "i8", "o9", "pA"];
    let s = set(&many);
    assert!(s.groups.is_empty());
    assert_eq!(hits(&s, u64::MAX, &["..o9..q1"]), 1 | 1 << 8);
    let few = set(&["q1", "w2", "e3"]);
    assert_eq!(few.groups.len(), 1);
}
