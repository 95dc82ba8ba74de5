//! Text for the page: escaping, numbers, times and the family colours.

use super::super::table;

/// Untrusted text for HTML (text or a quoted attribute, SVG included):
/// control and invisible characters made visible first (see
/// [`table::visible`]), then `& < > " '` escaped; cut at `cap` characters.
pub fn esc(text: &str, cap: usize) -> String {
    escape(&table::visible(text, cap))
}

/// `& < > " '` escaped, nothing else changed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The registry's families, each with a colour of its own, far apart (the
/// Tableau 10 palette, with navy and light green for the eleventh and the
/// tenth's grey).
const KNOWN: &[(&str, &str)] = &[
    ("acl-provisioning", "#4e79a7"),
    ("acl-aggregate-failure", "#9c755f"),
    ("bwrap-cannot-start", "#1f3b73"),
    ("cim-wmi-denial", "#76b7b2"),
    ("codex-protected-path", "#e15759"),
    ("native-init", "#59a14f"),
    ("pty-startup", "#b07aa1"),
    ("runner-exit", "#edc948"),
    ("sandbox-network-denied", "#ff9da7"),
    ("temp-root-inside-workspace", "#f28e2b"),
    ("workspace-denial", "#8cd17d"),
];

/// A family's colour, `#rrggbb`, fixed by its id alone: the same family has
/// the same colour in every report. The registry's families have fixed,
/// well-separated colours; any other id (a third-party family) gets one
/// from a hash of the id, which may land near another.
pub fn colour(family: &str) -> String {
    if let Some((_, c)) = KNOWN.iter().find(|(id, _)| *id == family) {
        return (*c).to_string();
    }
    // FNV-1a, then the hue from the hash; saturation and lightness vary a
    // little too, so two hues that land close are still told apart.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in family.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let hue = (h % 360) as f64;
    let sat = 0.55 + ((h >> 20) % 4) as f64 * 0.1;
    let light = 0.38 + ((h >> 28) % 3) as f64 * 0.08;
    let (r, g, b) = hsl(hue, sat, light);
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn hsl(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match h as u32 {
        0..60 => (c, x, 0.0),
        60..120 => (x, c, 0.0),
        120..180 => (0.0, c, x),
        180..240 => (0.0, x, c),
        240..300 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (to(r), to(g), to(b))
}

/// Days since 1970-01-01 for `YYYY-MM-DD`.
pub fn day_number(day: &str) -> Option<i64> {
    let mut parts = day.splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `YYYY-MM-DD` for days since 1970-01-01.
pub fn day_text(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM:SSZ`.
pub fn time_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let day = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02}Z",
        day_text(day),
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// A round step for an axis running to `max`, about five ticks.
pub fn tick_step(max: u64) -> u64 {
    if max == 0 {
        return 1;
    }
    let rough = max.div_ceil(5).max(1);
    let mut unit = 1u64;
    while unit.saturating_mul(10) <= rough {
        unit *= 10;
    }
    for k in [1, 2, 5, 10] {
        if unit.saturating_mul(k) >= rough {
            return unit.saturating_mul(k);
        }
    }
    unit.saturating_mul(10)
}

/// Axis numbers short: `950`, `12k`, `1.5M`.
pub fn short(n: u64) -> String {
    match n {
        0..10_000 => table::thousands(n),
        10_000..1_000_000 => trim(n as f64 / 1e3, "k"),
        1_000_000..1_000_000_000 => trim(n as f64 / 1e6, "M"),
        _ => trim(n as f64 / 1e9, "G"),
    }
}

fn trim(v: f64, unit: &str) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s);
    format!("{s}{unit}")
}

/// What the page's words mean, for a reader who has not read the docs.
pub(super) const WORDS: &str = concat!(
    "<h2>What the words mean</h2>\n<dl id=\"words\">",
    "<dt>failing call</dt><dd>A call whose result a family recognizes as its sandbox failure and would speak for, as the live hook decides (provenance, then the family's gate).</dd>",
    "<dt>withheld, declined</dt><dd>Results a family recognized without speaking: withheld when it could be this failure but the advisor cannot tell (the reason says what is missing), declined when its gate rules it out. Neither counts as a failing call.</dd>",
    "<dt>repeats, identical</dt><dd>Failing calls after a session's first; identical ones repeat an earlier failure's tool and arguments.</dd>",
    "<dt>wasted steps</dt><dd>Model responses whose every call was one family's failing call, with the output and input tokens they cost.</dd>",
    "<dt>wall time</dt><dd>Per session, the time from the family's first failure to its last.</dd>",
    "<dt>would speak</dt><dd>Sessions where the advisor, run on the recording, gives the family's advisory (once per session and family).</dd>",
    "<dt>already spoken</dt><dd>Sessions that already hold an advisory, with the failing calls before and after it.</dd>",
    "<dt>failed by their own mark</dt><dd>Calls the recording marks failed (an error result, a non-zero exit), for any cause, sandbox or not.</dd>",
    "<dt>unresolved</dt><dd>Calls no result ended: still running when the record ends, or with no result at all.</dd>",
    "</dl>\n<p>More: docs/scan/report.md in the sandbox-advisor repository.</p>\n",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip() {
        for d in [-1, 0, 1, 59, 365, 11_016, 20_000, 20_422] {
            assert_eq!(day_number(&day_text(d)), Some(d));
        }
        assert_eq!(day_text(0), "1970-01-01");
        assert_eq!(time_text(1_764_590_400_000), "2025-12-01 12:00:00Z");
    }

    #[test]
    fn known_families_have_distinct_colours() {
        let mut seen: Vec<&str> = KNOWN.iter().map(|(_, c)| *c).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), KNOWN.len());
        assert_eq!(colour("native-init"), "#59a14f");
        let other = colour("third-party-x");
        assert_eq!(other, colour("third-party-x"));
        assert_eq!(other.len(), 7);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(0), 1);
        assert_eq!(tick_step(7), 2);
        assert_eq!(tick_step(48), 10);
        assert_eq!(tick_step(52_588), 20_000);
    }
}
