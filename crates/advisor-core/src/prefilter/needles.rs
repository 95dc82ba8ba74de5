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
//! wanted when any prefix is present. A text shorter than [`SHORT`] bytes
//! costs the automaton less than the memchr passes, too.
//!
//! Building the automaton costs a one-shot process (a hook) a good part of
//! its start, and most texts never need it, so it is built only once it has
//! paid for itself: until then the memchr passes answer every text, and what
//! they cost beyond the automaton (a short text, a hit past the density rule)
//! is added up over the set's scans; the scan that takes the sum past the
//! build's own cost ([`BUILD_COST`]) builds it, and from then on it answers
//! every short or dense text.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

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

/// Texts shorter than this cost the automaton's scan less than starting the
/// memchr passes (about 250 instructions less on 60 bytes).
const SHORT: usize = 64;

/// About what building the automaton costs, in instructions (150–190 k for
/// a host's set). A one-shot process (a hook) reading a few texts never
/// reaches it; a long-lived one does after some 700 short texts or 1,000
/// dense hits.
const BUILD_COST: usize = 180_000;

/// What a short text costs the memchr passes beyond the automaton.
const SHORT_COST: usize = 250;

/// What a hit past the density rule costs (a memchr restart and a compare)
/// beyond the automaton.
const HIT_COST: usize = 170;

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
    /// What the memchr passes have cost beyond the automaton so far, while it
    /// was not built (see [`BUILD_COST`]).
    debt: AtomicUsize,
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
            debt: AtomicUsize::new(0),
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
        if self.groups.is_empty() || (text.len() < SHORT && self.automaton_pays(SHORT_COST)) {
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
        let mut dense = 0usize;
        for (seen, hit) in hits.enumerate() {
            if seen > DENSE_SLACK + hit / DENSE_SPACING {
                dense += 1;
                if self.automaton.get().is_some() || self.debt_past_build(dense * HIT_COST) {
                    return Pass::Dense;
                }
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
        if dense > 0 {
            self.debt.fetch_add(dense * HIT_COST, Relaxed);
        }
        Pass::Done
    }

    /// Whether the debt, with `more`, has passed the automaton's build.
    fn debt_past_build(&self, more: usize) -> bool {
        self.debt.load(Relaxed) + more > BUILD_COST
    }

    /// Whether the automaton answers a text the memchr passes would answer
    /// for `cost` more: it is built, or that cost takes the debt past its
    /// build; else the cost is added to the debt.
    fn automaton_pays(&self, cost: usize) -> bool {
        self.automaton.get().is_some() || self.debt.fetch_add(cost, Relaxed) + cost > BUILD_COST
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
mod tests;
