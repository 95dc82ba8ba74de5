//! The time zone whose days the report's days are (`--timezone`; UTC unless
//! asked), the way ccusage's `--timezone` groups its days.

use crate::model::Millis;

/// The most bytes of a zone's name (IANA names are far shorter).
pub const ZONE_NAME_MAX: usize = 64;

/// A time zone, by its IANA name, from the system's time-zone database
/// (jiff reads `/usr/share/zoneinfo`, or its bundled copy where a system
/// has none).
#[derive(Debug, Clone)]
pub struct Zone {
    tz: jiff::tz::TimeZone,
    name: String,
}

/// Why a zone could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ZoneError {
    /// The name is not one of the database's.
    #[error("`--timezone {name}`: not a time zone of this system's database ({why})")]
    Unknown {
        /// The name asked for (at most [`ZONE_NAME_MAX`] bytes shown).
        name: String,
        /// jiff's words.
        why: String,
    },
}

impl Default for Zone {
    fn default() -> Self {
        Self::utc()
    }
}

impl PartialEq for Zone {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Zone {}

impl Zone {
    /// UTC, the default.
    pub fn utc() -> Self {
        Self {
            tz: jiff::tz::TimeZone::UTC,
            name: "UTC".into(),
        }
    }

    /// The zone named `name` (`Europe/Berlin`, `UTC`).
    pub fn named(name: &str) -> Result<Self, ZoneError> {
        let shown = || {
            let mut shown: String = name.chars().filter(|c| !c.is_control()).collect();
            if shown.len() > ZONE_NAME_MAX {
                let mut end = ZONE_NAME_MAX;
                while !shown.is_char_boundary(end) {
                    end -= 1;
                }
                shown.truncate(end);
            }
            shown
        };
        if name.len() > ZONE_NAME_MAX {
            return Err(ZoneError::Unknown {
                name: shown(),
                why: format!("longer than {ZONE_NAME_MAX} bytes"),
            });
        }
        match jiff::tz::TimeZone::get(name) {
            Ok(tz) => Ok(Self {
                tz,
                name: name.to_owned(),
            }),
            Err(e) => Err(ZoneError::Unknown {
                name: shown(),
                why: e.to_string(),
            }),
        }
    }

    /// Its name, as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The day number (days since 1970-01-01) of the local date at `at` in
    /// this zone. A time jiff cannot place (outside its range, which the
    /// readers' 2000–2099 bound keeps well within) is read as UTC.
    pub fn day_of(&self, at: Millis) -> i64 {
        let offset = jiff::Timestamp::from_millisecond(at.0)
            .map(|t| i64::from(self.tz.to_offset(t).seconds()))
            .unwrap_or(0);
        at.0.saturating_add(offset.saturating_mul(1_000))
            .div_euclid(86_400_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_follow_the_zone() {
        // 2026-03-01T23:30:00Z: still the 1st in UTC, the 2nd in Tokyo, and
        // the 1st in New York (18:30).
        let at = Millis(1_772_407_800_000);
        let day = |zone: &Zone| super::super::totals::date(zone.day_of(at));
        assert_eq!(day(&Zone::utc()), "2026-03-01");
        let tokyo = Zone::named("Asia/Tokyo").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(day(&tokyo), "2026-03-02");
        let ny = Zone::named("America/New_York").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(day(&ny), "2026-03-01");
        assert!(Zone::named("Mars/Olympus_Mons").is_err());
        assert!(Zone::named(&"x".repeat(ZONE_NAME_MAX + 1)).is_err());
    }
}
