//! ISO 8601 timestamps, as Claude Code, Codex and Gemini CLI stamp their records
//! (`2026-12-02T08:48:43.085Z`), to [`Millis`]; no calendar crate needed.
//! Every time a reader keeps, these and the DeepSeek harness's Unix
//! milliseconds alike, lies in [`FIRST`]..[`END`]: a time outside it is
//! refused (a problem names the line and the field) and the record is read
//! without one, so no recorded time can stretch a wall time or a timeline.

use crate::model::Millis;

/// The first time kept: 2000-01-01T00:00:00Z.
pub const FIRST: Millis = Millis(946_684_800_000);
/// The end of the times kept (not included): 2100-01-01T00:00:00Z.
pub const END: Millis = Millis(4_102_444_800_000);

/// `at` when it lies in [`FIRST`]..[`END`].
pub(crate) fn in_range(at: Millis) -> Option<Millis> {
    (FIRST..END).contains(&at).then_some(at)
}

/// What a reader makes of a recorded time: kept, absent, or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// The record has no time.
    Absent,
    /// A time in range.
    At(Millis),
    /// A time that cannot be read or lies outside the range.
    Refused,
}

impl Stamp {
    /// The time kept, if any.
    pub(crate) fn at(self) -> Option<Millis> {
        match self {
            Stamp::At(at) => Some(at),
            Stamp::Absent | Stamp::Refused => None,
        }
    }

    /// An ISO 8601 `timestamp` field's text.
    pub(crate) fn of_text(text: Option<&str>) -> Self {
        match text {
            None => Stamp::Absent,
            Some(text) => parse(text)
                .and_then(in_range)
                .map_or(Stamp::Refused, Stamp::At),
        }
    }

    /// A Unix-milliseconds field's number.
    pub(crate) fn of_millis(ms: Option<i64>) -> Self {
        match ms {
            None => Stamp::Absent,
            Some(ms) => in_range(Millis(ms)).map_or(Stamp::Refused, Stamp::At),
        }
    }
}

/// The problem's words for a refused time in `field`.
pub(crate) fn refused(field: &str) -> String {
    format!(
        "`{field}` is not a time from 2000-01-01 to 2099-12-31 (UTC); the record is read without a time"
    )
}

/// `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm)` to Unix milliseconds
/// (a fraction beyond milliseconds is cut, not rounded). `None` for anything
/// else, including a time without an offset (its zone is unknown).
/// Any four-digit year parses; [`in_range`] judges it.
pub(crate) fn parse(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    let hour = digits(&b[11..13])?;
    let minute = digits(&b[14..16])?;
    let second = digits(&b[17..19])?;
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut rest = &b[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        for i in 0..3 {
            millis = millis * 10
                + fraction
                    .get(i)
                    .filter(|_| i < n)
                    .map_or(0, |d| i64::from(d - b'0'));
        }
        rest = &fraction[n..];
    }
    let offset = match rest {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, tail @ ..] => {
            let minutes = match tail {
                [b':', m1, m2] | [m1, m2] => digits(&[*m1, *m2])?,
                _ => return None,
            };
            let hours = digits(&[*h1, *h2])?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = (hours * 60 + minutes) * 60;
            if *sign == b'-' { -offset } else { offset }
        }
        _ => return None,
    };
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offset;
    Some(Millis(seconds * 1_000 + millis))
}

fn digits(bytes: &[u8]) -> Option<i64> {
    bytes.iter().try_fold(0i64, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
    })
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_outside_the_range_are_refused() {
        assert_eq!(Stamp::of_text(None), Stamp::Absent);
        assert_eq!(
            Stamp::of_text(Some("2026-12-02T08:48:43.085Z")),
            Stamp::At(Millis(1_796_201_323_085))
        );
        for text in [
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "1999-12-31T23:59:59.999Z",
            "2100-01-01T00:00:00Z",
            "x",
        ] {
            assert_eq!(Stamp::of_text(Some(text)), Stamp::Refused, "{text}");
        }
        assert_eq!(
            Stamp::of_text(Some("2000-01-01T00:00:00Z")),
            Stamp::At(FIRST)
        );
        assert_eq!(
            Stamp::of_millis(Some(END.0 - 1)),
            Stamp::At(Millis(END.0 - 1))
        );
        assert_eq!(Stamp::of_millis(Some(END.0)), Stamp::Refused);
        assert_eq!(Stamp::of_millis(Some(i64::MIN)), Stamp::Refused);
        assert_eq!(Stamp::of_millis(Some(3_500)), Stamp::Refused);
        assert_eq!(Stamp::of_millis(None), Stamp::Absent);
    }

    #[test]
    fn timestamps_parse_to_unix_millis() {
        let cases: &[(&str, Option<i64>)] = &[
            ("1970-01-01T00:00:00Z", Some(0)),
            ("1970-01-01T00:00:00.001Z", Some(1)),
            ("2026-12-02T08:48:43.085Z", Some(1_796_201_323_085)),
            ("2026-12-02T08:48:43.0859999Z", Some(1_796_201_323_085)),
            ("2026-12-02T08:48:43.5Z", Some(1_796_201_323_500)),
            ("2026-12-02T09:48:43.085+01:00", Some(1_796_201_323_085)),
            ("2026-12-02T07:48:43.085-0100", Some(1_796_201_323_085)),
            ("2000-02-29T00:00:00Z", Some(951_782_400_000)),
            ("1969-12-31T23:59:59Z", Some(-1_000)),
            ("2001-02-29T00:00:00Z", None),
            ("2026-12-02T08:48:43.085", None),
            ("2026-12-02T08:48:43.Z", None),
            ("2026-13-02T08:48:43Z", None),
            ("2026-12-02T24:00:00Z", None),
            ("2026-12-02X08:48:43Z", None),
            ("2026-12-02T08:48:43Zjunk", None),
            ("२०२६-12-02T08:48:43Z", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), want.map(Millis), "{text:?}");
        }
    }
}
