//! Which of a set of literal needles occur in a text.
//!
//! Built when a host's text is first scanned (see [`Scope`](super::Scope)).
//! Each needle is represented by its rarest byte (memchr's byte-frequency
//! heuristic) and that byte's offset in the needle; a needle whose rarest
//! byte is its own takes its second rarest when another needle already has
//! that one. A scan looks for those bytes with `memchr` — up to three
//! distinct bytes per pass — and compares the needle around each hit, so a
//! text that holds none of them is read at memchr's speed, once per group of
//! three bytes. Every occurrence of a needle holds its byte at its offset, so
//! no occurrence can be missed, and the bits found are exactly those of the
//! needles that occur: a needle overlapped by another one's occurrence is
//! compared at its own byte.
//!
//! The bytes are rare in most texts, not in all. Where hits come denser than
//! one per [`DENSE_SPACING`] bytes scanned (after [`DENSE_SLACK`]), comparing
//! at each would cost more than a multi-needle automaton, so the scan stops
//! and the answer comes from one Aho-Corasick presence pass over the needles'
//! first [`PREFIX`] bytes instead, then one `memmem` search per needle still
//! wanted when any prefix is present. The automaton and the searchers are
//! built on the first text that needs them: building them costs a one-shot
//! process (a hook) a good part of its start, and most texts never need them.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use memchr::arch::all::packedpair::Pair;
use memchr::memmem::Finder;

/// Hits tolerated before the density rule applies.
const DENSE_SLACK: usize = 2;

/// A scan falls back to the automaton once it has seen more than
/// `DENSE_SLACK + position / DENSE_SPACING` hits: one comparison (a memchr
/// restart and a short compare) costs about what the automaton spends on
/// this many bytes.
const DENSE_SPACING: usize = 256;

/// With more groups than this, memchr passes would cost more than one
/// automaton pass: the needles are scanned by the automaton alone.
const MAX_GROUPS: usize = 3;

/// One needle: its text, its family's bit, its rare byte and where it sits.
struct Needle {
    text: &'static [u8],
    bit: u64,
    rare: u8,
    at: usize,
}

/// The automaton is built over each needle's first bytes, at most this many:
/// what it answers is only whether any needle can occur (each one wanted is
/// then searched for whole), and a short prefix keeps it small to build.
const PREFIX: usize = 16;

/// Up to three distinct rare bytes, scanned in one memchr pass.
struct Group {
    bytes: [u8; 3],
    len: usize,
    /// The bits of the needles whose rare byte is in this group.
    bits: u64,
}

/// How a memchr pass ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The text was read to its end, or everything wanted was found.
    Done,
    /// Hits came too densely: the automaton answers instead.
    Dense,
}

/// The literal needles of one text scope, each mapped to its family's bit.
pub(super) struct NeedleSet {
    needles: Vec<Needle>,
    /// Empty when the needles' rare bytes need more than [`MAX_GROUPS`] passes.
    groups: Vec<Group>,
    /// Families with an empty needle, which occurs in every text.
    empty: u64,
    all: u64,
    /// Built on the first text the memchr passes hand over; `None` when it
    /// could not be built.
    automaton: OnceLock<Option<AhoCorasick>>,
    /// One searcher per needle, in `needles`' order: built the first time
    /// the automaton finds a prefix.
    finders: OnceLock<Vec<Finder<'static>>>,
}

impl NeedleSet {
    /// The needles of every family, each with its family's index.
    pub(super) fn new(needles: Vec<(&'static str, usize)>) -> Self {
        let (mut empty, mut all) = (0u64, 0u64);
        let mut set: Vec<Needle> = Vec::new();
        let mut seconds: Vec<Option<usize>> = Vec::new();
        for (text, family) in needles {
            let bit = 1u64 << family;
            all |= bit;
            let text = text.as_bytes();
            let pair = Pair::new(text);
            let at = pair.map_or(0, |p| usize::from(p.index1()));
            match text.get(at) {
                None => empty |= bit,
                Some(&rare) => {
                    set.push(Needle {
                        text,
                        bit,
                        rare,
                        at,
                    });
                    seconds.push(pair.map(|p| usize::from(p.index2())));
                }
            }
        }
        // A needle whose rare byte no other needle shares is looked for by
        // its second-rarest byte instead, when another needle already is:
        // one byte fewer to look for, often one pass fewer or a cheaper one.
        for (i, second) in seconds.into_iter().enumerate() {
            let Some(at) = second else { continue };
            let shared = |byte: u8| (set.iter().enumerate()).any(|(j, n)| j != i && n.rare == byte);
            let byte = set[i].text[at];
            if !shared(set[i].rare) && shared(byte) {
                (set[i].rare, set[i].at) = (byte, at);
            }
        }
        let mut groups: Vec<Group> = Vec::new();
        for needle in &set {
            let holding = groups
                .iter()
                .position(|g| g.bytes[..g.len].contains(&needle.rare));
            let with_room = || groups.iter().position(|g| g.len < g.bytes.len());
            match holding.or_else(with_room) {
                Some(i) => {
                    let group = &mut groups[i];
                    if holding.is_none() {
                        group.bytes[group.len] = needle.rare;
                        group.len += 1;
                    }
                    group.bits |= needle.bit;
                }
                None => groups.push(Group {
                    bytes: [needle.rare; 3],
                    len: 1,
                    bits: needle.bit,
                }),
            }
        }
        if groups.len() > MAX_GROUPS {
            groups.clear();
        }
        Self {
            needles: set,
            groups,
            empty,
            all,
            automaton: OnceLock::new(),
            finders: OnceLock::new(),
        }
    }

    /// The automaton over the needles' prefixes, built on the first call.
    fn automaton(&self) -> Option<&AhoCorasick> {
        // An automaton over a handful of short literals cannot exceed the
        // builder's limits; if it ever did, every such family stays a
        // candidate. Leftmost semantics let it use its vectorized (Teddy)
        // prefilter, which answers by itself, so the automaton is never
        // walked: the cheapest one to build (a noncontiguous NFA) will do.
        let prefixes = self
            .needles
            .iter()
            .map(|n| n.text.get(..PREFIX).unwrap_or(n.text));
        self.automaton
            .get_or_init(|| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostFirst)
                    .kind(Some(AhoCorasickKind::NoncontiguousNFA))
                    .build(prefixes)
                    .ok()
            })
            .as_ref()
    }

    /// The families (within `wanted`) whose needles occur in any of `texts`.
    pub(super) fn hits(&self, wanted: u64, texts: &[&[u8]]) -> u64 {
        let wanted = wanted & self.all;
        let mut found = wanted & self.empty;
        for text in texts {
            if found == wanted {
                break;
            }
            // An empty text (the usual stderr) holds only the empty needle.
            if !text.is_empty() {
                found |= self.scan(text, wanted & !found);
            }
        }
        found
    }

    /// The bits (within `wanted`) of the needles that occur in `text`.
    fn scan(&self, text: &[u8], wanted: u64) -> u64 {
        if self.groups.is_empty() {
            return self.by_automaton(text, wanted);
        }
        let mut found = 0u64;
        for group in &self.groups {
            if group.bits & wanted & !found == 0 {
                continue;
            }
            let pass = match group.bytes[..group.len] {
                [a] => self.compare_at(text, memchr::memchr_iter(a, text), wanted, &mut found),
                [a, b] => {
                    self.compare_at(text, memchr::memchr2_iter(a, b, text), wanted, &mut found)
                }
                [a, b, c] => self.compare_at(
                    text,
                    memchr::memchr3_iter(a, b, c, text),
                    wanted,
                    &mut found,
                ),
                _ => Pass::Done,
            };
            if pass == Pass::Dense {
                return found | self.by_automaton(text, wanted & !found);
            }
            if found == wanted {
                break;
            }
        }
        found
    }

    /// Compares, at each hit of a rare byte, every wanted needle that has
    /// that byte at that offset; adds the bits of those that occur.
    fn compare_at(
        &self,
        text: &[u8],
        hits: impl Iterator<Item = usize>,
        wanted: u64,
        found: &mut u64,
    ) -> Pass {
        for (seen, hit) in hits.enumerate() {
            if seen > DENSE_SLACK + hit / DENSE_SPACING {
                return Pass::Dense;
            }
            let Some(&byte) = text.get(hit) else {
                continue;
            };
            for needle in &self.needles {
                if needle.rare != byte || needle.bit & wanted & !*found == 0 {
                    continue;
                }
                let occurs = hit
                    .checked_sub(needle.at)
                    .and_then(|start| text.get(start..))
                    .is_some_and(|rest| rest.starts_with(needle.text));
                if occurs {
                    *found |= needle.bit;
                }
            }
            if *found == wanted {
                break;
            }
        }
        Pass::Done
    }

    /// The same answer from one automaton presence pass over the needles'
    /// prefixes, then one `memmem` search per wanted needle when a prefix is
    /// present.
    fn by_automaton(&self, text: &[u8], wanted: u64) -> u64 {
        if self.needles.is_empty() {
            return 0;
        }
        let Some(automaton) = self.automaton() else {
            return wanted;
        };
        if !automaton.is_match(text) {
            return 0;
        }
        let finders = self
            .finders
            .get_or_init(|| self.needles.iter().map(|n| Finder::new(n.text)).collect());
        self.needles
            .iter()
            .zip(finders)
            .filter(|(n, finder)| n.bit & wanted != 0 && finder.find(text).is_some())
            .fold(0u64, |acc, (n, _)| acc | n.bit)
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn too_many_rare_bytes_leave_the_automaton_alone() {
        let many: Vec<&'static str> =
            vec!["q1", "w2", "e3", "r4", "t5", "y6", "u7", "i8", "o9", "pA"];
        let s = set(&many);
        assert!(s.groups.is_empty());
        assert_eq!(hits(&s, u64::MAX, &["..o9..q1"]), 1 | 1 << 8);
        let few = set(&["q1", "w2", "e3"]);
        assert_eq!(few.groups.len(), 1);
    }
}
