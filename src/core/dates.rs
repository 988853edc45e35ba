//! Date rules (docs/search.md "Dates" and "Summaries"): `--mindate` /
//! `--maxdate` forms and calendar checks, one-sided ranges, `--reldate`,
//! and ESummary `PubDate` to ISO.

use std::cmp::Ordering;
use std::fmt;

use crate::error::{Error, Field, Reason, Result, Words};

/// A date bound at the precision the user gave: year, month or day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateBound {
    /// Year.
    pub year: i32,
    /// Month 1–12, if given.
    pub month: Option<u8>,
    /// Day of month, if given.
    pub day: Option<u8>,
}

impl fmt::Display for DateBound {
    /// The form ESearch takes: `YYYY`, `YYYY/MM` or `YYYY/MM/DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "/{m:02}")?;
        }
        if let Some(d) = self.day {
            write!(f, "/{d:02}")?;
        }
        Ok(())
    }
}

/// True in Gregorian leap years.
pub fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Days in `month` (1–12) of `year`.
pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl DateBound {
    /// The first day the bound covers, as (year, month, day).
    pub fn first_day(&self) -> (i32, u8, u8) {
        (self.year, self.month.unwrap_or(1), self.day.unwrap_or(1))
    }

    /// The last day the bound covers.
    pub fn last_day(&self) -> (i32, u8, u8) {
        let m = self.month.unwrap_or(12);
        (
            self.year,
            m,
            self.day.unwrap_or(days_in_month(self.year, m)),
        )
    }

    /// A full date.
    pub fn ymd(year: i32, month: u8, day: u8) -> DateBound {
        DateBound {
            year,
            month: Some(month),
            day: Some(day),
        }
    }

    /// A whole year (the `1000` and `3000` that stand for no limit).
    fn year(year: i32) -> DateBound {
        DateBound {
            year,
            month: None,
            day: None,
        }
    }
}

fn invalid(which: &str, given: &str, problem: impl fmt::Display) -> Error {
    let field = if which == "maxdate" {
        Field::MaxDate
    } else {
        Field::MinDate
    };
    Error::about(
        Reason::InvalidDateRange,
        field,
        Words::new()
            .field(field, which)
            .text(format!(" {given:?}: {problem}")),
    )
}

/// Parses a bound: `YYYY`, `YYYY/MM` or `YYYY/MM/DD`, separated by `/`, `-`
/// or `.`. `which` names the bound in errors (`mindate`). Errors
/// (`invalid_date_range`) name the bound and the problem: the form, the
/// month, the day, or the days in that month (leap years counted).
pub fn parse_bound(which: &str, given: &str) -> Result<DateBound> {
    let s = given.trim();
    let parts: Vec<&str> = s.split(['/', '-', '.']).collect();
    let form = || invalid(which, given, "use YYYY, YYYY/MM or YYYY/MM/DD");
    if parts.is_empty() || parts.len() > 3 {
        return Err(form());
    }
    let num = |p: &str, len: std::ops::RangeInclusive<usize>| -> Option<u32> {
        (len.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let year = num(parts[0], 4..=4).ok_or_else(form)? as i32;
    if year < 1000 {
        return Err(invalid(
            which,
            given,
            format_args!("year {year:04} is before 1000"),
        ));
    }
    let month = match parts.get(1) {
        None => None,
        Some(p) => {
            let m = num(p, 1..=2).ok_or_else(form)?;
            if !(1..=12).contains(&m) {
                return Err(invalid(
                    which,
                    given,
                    format_args!("month {m} is not 01–12"),
                ));
            }
            Some(m as u8)
        }
    };
    let day = match (parts.get(2), month) {
        (None, _) => None,
        (Some(p), Some(m)) => {
            let d = num(p, 1..=2).ok_or_else(form)?;
            let max = days_in_month(year, m);
            if d == 0 || d > u32::from(max) {
                let why = if m == 2 && d == 29 {
                    format!("{year} is not a leap year, February has 28 days")
                } else {
                    format!("{} {year} has {max} days, not {d}", MONTHS[m as usize - 1])
                };
                return Err(invalid(which, given, why));
            }
            Some(d as u8)
        }
        (Some(_), None) => return Err(form()),
    };
    Ok(DateBound { year, month, day })
}

super::choice::choice! {
    /// `pdat`, `edat` or `mdat` (ESearch `datetype`; `--datetype`, MCP
    /// `dateRange.dateType`).
    #[derive(Default)]
    pub enum DateType {
        /// Publication date (the default, always sent).
        #[default]
        Pdat = "pdat",
        /// Entrez date.
        Edat = "edat",
        /// Modification date.
        Mdat = "mdat",
    }
}

/// The dates a user asked for, as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DateRequest {
    /// `--mindate`.
    pub min: Option<String>,
    /// `--maxdate`.
    pub max: Option<String>,
    /// `--datetype`.
    pub datetype: DateType,
    /// `--reldate` in days; 0 or `None` = no limit.
    pub reldate: Option<u32>,
}

/// The range sent to ESearch, and what was filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateRange {
    /// `mindate`/`maxdate` to send, when a range applies.
    pub bounds: Option<(DateBound, DateBound)>,
    /// `datetype`, always sent.
    pub datetype: DateType,
    /// Set when one bound was missing and got filled (`1000` or `3000`).
    pub filled: Option<String>,
}

fn cmp_days(a: (i32, u8, u8), b: (i32, u8, u8)) -> Ordering {
    a.cmp(&b)
}

/// Resolves the request against `today` (a UTC date): validates bounds,
/// fills a lone bound, intersects `reldate` with explicit dates. Errors:
/// `invalid_date_range` for a bad bound, a start after the end, or an empty
/// intersection.
pub fn resolve(req: &DateRequest, today: DateBound) -> Result<DateRange> {
    let (mut bounds, mut filled) = explicit_bounds(req)?;
    if let Some(n) = req.reldate.filter(|n| *n > 0) {
        let rel = (reldate_start(today, n), today);
        bounds = Some(match bounds {
            None => rel,
            Some(given) => {
                // Both limits apply: the note about a filled bound no
                // longer says what is sent.
                filled = None;
                overlap(given, rel, n)?
            }
        });
    }
    Ok(DateRange {
        bounds,
        datetype: req.datetype,
        filled,
    })
}

/// A range's first and last bound, both inclusive.
type Bounds = (DateBound, DateBound);

/// `--mindate`/`--maxdate` parsed and in order. NCBI ignores a lone bound,
/// so the missing one is filled (`1000` or `3000`) and the note saying so
/// comes back with the range.
fn explicit_bounds(req: &DateRequest) -> Result<(Option<Bounds>, Option<String>)> {
    let parse = |which, given: &Option<String>| {
        given
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(|s| parse_bound(which, s))
            .transpose()
    };
    let (min, max) = (parse("mindate", &req.min)?, parse("maxdate", &req.max)?);
    let (bounds, filled) = match (min, max) {
        (None, None) => return Ok((None, None)),
        (Some(a), Some(b)) => ((a, b), None),
        (Some(a), None) => (
            (a, DateBound::year(3000)),
            Some(format!(
                "only --mindate was given; NCBI ignores a lone bound, so maxdate 3000 was added ({a} to 3000)"
            )),
        ),
        (None, Some(b)) => (
            (DateBound::year(1000), b),
            Some(format!(
                "only --maxdate was given; NCBI ignores a lone bound, so mindate 1000 was added (1000 to {b})"
            )),
        ),
    };
    let (a, b) = bounds;
    if cmp_days(a.first_day(), b.last_day()) == Ordering::Greater {
        return Err(Error::new(
            Reason::InvalidDateRange,
            format!("the date range starts after it ends ({a} > {b})"),
        )
        .with_field(Field::MinDate));
    }
    Ok((Some(bounds), filled))
}

/// The first day `--reldate n` reaches: `n` days before `today`. Reaching
/// back before the year 1000 is no limit at all (`1000`).
fn reldate_start(today: DateBound, n: u32) -> DateBound {
    let (y, m, d) = (today.year, today.month.unwrap_or(1), today.day.unwrap_or(1));
    jiff::civil::Date::new(y as i16, m as i8, d as i8)
        .ok()
        .and_then(|t| {
            let span = jiff::Span::new().try_days(i64::from(n)).ok()?;
            t.checked_sub(span).ok()
        })
        .filter(|s| s.year() >= 1000)
        .map(|s| DateBound::ymd(i32::from(s.year()), s.month() as u8, s.day() as u8))
        .unwrap_or(DateBound::year(1000))
}

/// The days both the explicit range and `--reldate n`'s range cover (the
/// later start, the earlier end). None in common is `invalid_date_range`
/// on `reldate`, naming both ranges.
fn overlap((a, b): Bounds, (since, today): Bounds, n: u32) -> Result<Bounds> {
    let lo = if cmp_days(a.first_day(), since.first_day()) == Ordering::Greater {
        a
    } else {
        since
    };
    let hi = if cmp_days(b.last_day(), today.last_day()) == Ordering::Less {
        b
    } else {
        today
    };
    if cmp_days(lo.first_day(), hi.last_day()) == Ordering::Greater {
        return Err(Error::about(
            Reason::InvalidDateRange,
            Field::RelDate,
            Words::new()
                .field(Field::RelDate, "--reldate")
                .text(format!(
                    " {n} (from {since} to {today}) does not overlap {a} to {b}"
                )),
        ));
    }
    Ok((lo, hi))
}

const MONTH_ABBR: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// ESummary `PubDate` to ISO at the precision it carries: `2017 Aug 15` →
/// `2017-08-15`, `1968 Aug` → `1968-08`, `2012 Winter` → `2012`,
/// `1998 Dec-1999 Jan` → `1998-12`. `None` when there is no year.
pub fn pubdate_iso(text: &str) -> Option<String> {
    let mut words = text.split(|c: char| c.is_whitespace() || c == '-');
    let year = words.next()?;
    if year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let Some(month_word) = words.next() else {
        return Some(year.to_string());
    };
    let lower = month_word.to_ascii_lowercase();
    let Some(m) = MONTH_ABBR
        .iter()
        .position(|a| lower.len() >= 3 && lower.starts_with(a))
    else {
        return Some(year.to_string());
    };
    let month = m + 1;
    let y: i32 = year.parse().ok()?;
    let day = words
        .next()
        .filter(|d| (1..=2).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|d| *d >= 1 && *d <= days_in_month(y, month as u8));
    Some(match day {
        Some(d) => format!("{year}-{month:02}-{d:02}"),
        None => format!("{year}-{month:02}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(min: Option<&str>, max: Option<&str>, rel: Option<u32>) -> DateRequest {
        DateRequest {
            min: min.map(str::to_string),
            max: max.map(str::to_string),
            datetype: DateType::Pdat,
            reldate: rel,
        }
    }

    fn today() -> DateBound {
        DateBound::ymd(2026, 12, 1)
    }

    #[test]
    fn accepted_forms_are_sent_with_slashes() {
        for (given, sent) in [
            ("2020", "2020"),
            ("2020/3", "2020/03"),
            ("2020-03", "2020/03"),
            ("2020.03.09", "2020/03/09"),
            ("2024/02/29", "2024/02/29"),
            (" 2000/1/1 ", "2000/01/01"),
        ] {
            assert_eq!(parse_bound("mindate", given).unwrap().to_string(), sent);
        }
    }

    #[test]
    fn calendar_errors_name_bound_and_problem() {
        let msg = |s: &str| {
            let e = parse_bound("maxdate", s).unwrap_err();
            assert_eq!(e.reason, Reason::InvalidDateRange);
            e.message
        };
        assert!(msg("2020/13").contains("month 13"));
        assert!(msg("2020/00").contains("month 0"));
        assert!(msg("2023/02/29").contains("2023 is not a leap year"));
        assert!(msg("1900/02/29").contains("not a leap year"));
        assert!(msg("2023/04/31").contains("April 2023 has 30 days"));
        assert!(msg("2023/01/00").contains("January 2023 has 31 days"));
        assert!(msg("20/01").contains("YYYY"));
        assert!(msg("2020/01/01/01").contains("YYYY"));
        assert!(msg("yesterday").contains("YYYY"));
        assert!(msg("2020//01").contains("YYYY"));
        assert!(msg("0000").contains("before 1000"));
        assert!(msg("2023/02/29").starts_with("maxdate"));
        assert!(parse_bound("mindate", "2000/02/29").is_ok());
    }

    #[test]
    fn reversed_ranges_compare_whole_periods() {
        let e = resolve(&req(Some("2021"), Some("2020"), None), today()).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidDateRange);
        assert!(e.message.contains("starts after it ends"));
        // same year at different precisions overlaps
        assert!(resolve(&req(Some("2020/06"), Some("2020"), None), today()).is_ok());
        assert!(resolve(&req(Some("2020"), Some("2020/01/01"), None), today()).is_ok());
        assert!(resolve(&req(Some("2020/02/02"), Some("2020/02/01"), None), today()).is_err());
    }

    #[test]
    fn lone_bounds_are_filled_with_a_note() {
        let r = resolve(&req(Some("2020"), None, None), today()).unwrap();
        let (a, b) = r.bounds.unwrap();
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("2020".into(), "3000".into())
        );
        assert!(r.filled.unwrap().contains("maxdate 3000"));
        let r = resolve(&req(None, Some("2020/05"), None), today()).unwrap();
        let (a, b) = r.bounds.unwrap();
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("1000".into(), "2020/05".into())
        );
        assert!(r.filled.unwrap().contains("mindate 1000"));
        let r = resolve(&req(None, None, None), today()).unwrap();
        assert_eq!(r.bounds, None);
        assert_eq!(r.filled, None);
    }

    #[test]
    fn reldate_is_local_and_intersected() {
        let r = resolve(&req(None, None, Some(30)), today()).unwrap();
        let (a, b) = r.bounds.unwrap();
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("2026/11/01".into(), "2026/12/01".into())
        );
        let r = resolve(&req(None, None, Some(0)), today()).unwrap();
        assert_eq!(r.bounds, None);
        // explicit min later than today-N wins; max beyond today is cut
        let r = resolve(&req(Some("2026/11/15"), Some("2027"), Some(30)), today()).unwrap();
        let (a, b) = r.bounds.unwrap();
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("2026/11/15".into(), "2026/12/01".into())
        );
        assert_eq!(r.filled, None);
        // a lone bound with reldate: intersected, no filler note
        let r = resolve(&req(None, Some("2026/11/20"), Some(365)), today()).unwrap();
        let (a, b) = r.bounds.unwrap();
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("2025/12/01".into(), "2026/11/20".into())
        );
        let e = resolve(&req(Some("2010"), Some("2011"), Some(7)), today()).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidDateRange);
        assert!(e.message.contains("does not overlap"));
        // reaching back past the year 1000 is no limit (and never panics)
        for n in [800_000, 7_304_485, u32::MAX] {
            let r = resolve(&req(None, None, Some(n)), today()).unwrap();
            let (a, b) = r.bounds.unwrap();
            assert_eq!(
                (a.to_string(), b.to_string()),
                ("1000".into(), "2026/12/01".into())
            );
        }
        // leap-day arithmetic
        let r = resolve(&req(None, None, Some(1)), DateBound::ymd(2024, 3, 1)).unwrap();
        assert_eq!(r.bounds.unwrap().0.to_string(), "2024/02/29");
    }

    #[test]
    fn pubdate_to_iso() {
        for (text, iso) in [
            ("2017 Aug 15", Some("2017-08-15")),
            ("1968 Aug", Some("1968-08")),
            ("2012", Some("2012")),
            ("2012 Winter", Some("2012")),
            ("1998 Dec-1999 Jan", Some("1998-12")),
            ("2000 Jun-Jul", Some("2000-06")),
            ("2011 Dec 5", Some("2011-12-05")),
            ("2017 Aug 15-21", Some("2017-08-15")),
            ("2019 Sept", Some("2019-09")),
            ("2017 Feb 31", Some("2017-02")),
            ("2016 Feb 29", Some("2016-02-29")),
            ("", None),
            ("Spring 2012", None),
        ] {
            assert_eq!(pubdate_iso(text).as_deref(), iso, "{text}");
        }
    }
}
