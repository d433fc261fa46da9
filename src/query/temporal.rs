//! Cypher's temporal values: `date`, `localtime`, `time`, `localdatetime`,
//! `datetime` and `duration`, built from strings (ISO 8601, as Cypher writes
//! them), from maps of fields or from other temporal values; compared, ordered,
//! added to and subtracted from, truncated, read field by field, and measured
//! between (`duration.between`, `inMonths`, `inDays`, `inSeconds`).
//!
//! A value is a few integers (days since 1970-01-01, nanoseconds of the day, an
//! offset in seconds, a zone name), so it is one value for the bounds. Years run
//! from -999,999,999 to 999,999,999. Time zones are offsets (`+01:00`, `Z`) or one of
//! the few named zones of [`ZONES`], whose rules are built in (there is no time
//! zone database). In a row a temporal value is written as its string, the one
//! `toString()` gives (`2015-07-21`, `21:40:32.142+01:00`,
//! `2015-07-21T21:40:32.142+02:00[Europe/Stockholm]`, `P1Y2M3DT4H5M6.5S`).

use std::cmp::Ordering;
use std::sync::Arc;

use super::QueryError;
use super::value::Val;

type Res<T> = Result<T, QueryError>;

const NANOS_PER_SEC: i64 = 1_000_000_000;
const NANOS_PER_DAY: i64 = 86_400 * NANOS_PER_SEC;
/// The years a date may have.
const MAX_YEAR: i64 = 999_999_999;
/// Seconds in an average month (365.2425 / 12 days), for fractions of months.
const SECONDS_PER_MONTH: f64 = 2_629_746.0;

fn err(message: impl Into<String>) -> QueryError {
    QueryError::Runtime {
        message: message.into(),
    }
}

/// A time zone: its offset from UTC in seconds (at the value's instant) and,
/// for a named zone, its name.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Zone {
    pub offset: i32,
    pub name: Option<Arc<str>>,
}

impl Zone {
    fn utc() -> Zone {
        Zone {
            offset: 0,
            name: None,
        }
    }
}

/// A duration: months, days, and seconds with nanoseconds (`nanos` in
/// `0..1e9`), each counted apart as Cypher does.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Duration {
    pub months: i64,
    pub days: i64,
    pub secs: i64,
    pub nanos: i64,
}

/// One temporal value. Days count from 1970-01-01; times are nanoseconds of
/// the day, local (a `time`'s and `datetime`'s offset says how far from UTC).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Temporal {
    Date(i64),
    LocalTime(i64),
    Time(i64, i32),
    LocalDateTime(i64, i64),
    DateTime(i64, i64, Zone),
    Duration(Duration),
}

/// The kinds a constructor makes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Date,
    LocalTime,
    Time,
    LocalDateTime,
    DateTime,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::LocalTime => "localtime",
            Kind::Time => "time",
            Kind::LocalDateTime => "localdatetime",
            Kind::DateTime => "datetime",
        }
    }
    fn has_date(self) -> bool {
        matches!(self, Kind::Date | Kind::LocalDateTime | Kind::DateTime)
    }
    fn has_time(self) -> bool {
        !matches!(self, Kind::Date)
    }
    fn has_zone(self) -> bool {
        matches!(self, Kind::Time | Kind::DateTime)
    }
}

/// The temporal functions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fn {
    /// `date(...)`, `localtime(...)`, ...: from nothing (now), a string, a map
    /// or another temporal value.
    Make(Kind),
    /// `date.transaction()`, `date.statement()`, `date.realtime()`...: now, in
    /// UTC or the zone given.
    Now(Kind),
    Truncate(Kind),
    FromEpoch,
    FromEpochMillis,
    Duration,
    Between,
    InMonths,
    InDays,
    InSeconds,
}

/// The temporal functions as `plan` lists them: name, function, fewest and
/// most arguments.
pub(crate) const FUNCTIONS: &[(&str, Fn, usize, usize)] = &[
    ("date", Fn::Make(Kind::Date), 0, 1),
    ("localtime", Fn::Make(Kind::LocalTime), 0, 1),
    ("time", Fn::Make(Kind::Time), 0, 1),
    ("localdatetime", Fn::Make(Kind::LocalDateTime), 0, 1),
    ("datetime", Fn::Make(Kind::DateTime), 0, 1),
    ("date.transaction", Fn::Now(Kind::Date), 0, 1),
    ("date.statement", Fn::Now(Kind::Date), 0, 1),
    ("date.realtime", Fn::Now(Kind::Date), 0, 1),
    ("localtime.transaction", Fn::Now(Kind::LocalTime), 0, 1),
    ("localtime.statement", Fn::Now(Kind::LocalTime), 0, 1),
    ("localtime.realtime", Fn::Now(Kind::LocalTime), 0, 1),
    ("time.transaction", Fn::Now(Kind::Time), 0, 1),
    ("time.statement", Fn::Now(Kind::Time), 0, 1),
    ("time.realtime", Fn::Now(Kind::Time), 0, 1),
    (
        "localdatetime.transaction",
        Fn::Now(Kind::LocalDateTime),
        0,
        1,
    ),
    (
        "localdatetime.statement",
        Fn::Now(Kind::LocalDateTime),
        0,
        1,
    ),
    ("localdatetime.realtime", Fn::Now(Kind::LocalDateTime), 0, 1),
    ("datetime.transaction", Fn::Now(Kind::DateTime), 0, 1),
    ("datetime.statement", Fn::Now(Kind::DateTime), 0, 1),
    ("datetime.realtime", Fn::Now(Kind::DateTime), 0, 1),
    ("date.truncate", Fn::Truncate(Kind::Date), 2, 3),
    ("localtime.truncate", Fn::Truncate(Kind::LocalTime), 2, 3),
    ("time.truncate", Fn::Truncate(Kind::Time), 2, 3),
    (
        "localdatetime.truncate",
        Fn::Truncate(Kind::LocalDateTime),
        2,
        3,
    ),
    ("datetime.truncate", Fn::Truncate(Kind::DateTime), 2, 3),
    ("datetime.fromepoch", Fn::FromEpoch, 2, 2),
    ("datetime.fromepochmillis", Fn::FromEpochMillis, 1, 1),
    ("duration", Fn::Duration, 1, 1),
    ("duration.between", Fn::Between, 2, 2),
    ("duration.inmonths", Fn::InMonths, 2, 2),
    ("duration.indays", Fn::InDays, 2, 2),
    ("duration.inseconds", Fn::InSeconds, 2, 2),
];

fn tv(t: Temporal) -> Val {
    Val::Temporal(Arc::new(t))
}

/// Calls temporal function `f`.
pub(crate) fn call(f: Fn, args: Vec<Val>) -> Res<Val> {
    super::charge(1);
    if args.contains(&Val::Null) {
        return Ok(Val::Null);
    }
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Val::Null);
    match f {
        Fn::Make(kind) => match next() {
            Val::Null => now(kind),
            Val::Str(s) => parse(kind, &s).map(tv),
            Val::Map(m) => {
                let entries: Vec<(String, Val)> = m.iter().cloned().collect();
                make(kind, &entries).map(tv)
            }
            Val::Temporal(t) => select(kind, &t).map(tv),
            other => Err(err(format!(
                "{}() takes a string, a map or a temporal value, not a {}",
                kind.name(),
                other.type_name()
            ))),
        },
        Fn::Now(kind) => match next() {
            Val::Null => now(kind),
            Val::Str(zone) => {
                let spec = parse_zone(&zone)?;
                let at = now_instant();
                let t = from_instant(at, spec.at_instant(at))?;
                select(kind, &t).map(tv)
            }
            other => Err(err(format!(
                "{}.transaction() takes a time zone, not a {}",
                kind.name(),
                other.type_name()
            ))),
        },
        Fn::Truncate(kind) => {
            let (unit, value, map) = (next(), next(), next());
            let Val::Str(unit) = unit else {
                return Err(err(format!(
                    "{}.truncate() takes a unit name first",
                    kind.name()
                )));
            };
            let Val::Temporal(t) = value else {
                return Err(err(format!(
                    "{}.truncate() truncates a temporal value, not a {}",
                    kind.name(),
                    value.type_name()
                )));
            };
            let mut entries: Vec<(String, Val)> = match map {
                Val::Null => Vec::new(),
                Val::Map(m) => m.iter().cloned().collect(),
                other => {
                    return Err(err(format!(
                        "{}.truncate() takes a map of fields third, not a {}",
                        kind.name(),
                        other.type_name()
                    )));
                }
            };
            let truncated = truncate(kind, &unit, &t)?;
            let key = match kind {
                Kind::Date => "date",
                Kind::LocalTime | Kind::Time => "time",
                _ => "datetime",
            };
            // A new zone replaces the old without moving the local time.
            let zoned = entries.iter().any(|(k, _)| k == "timezone");
            let base = if zoned {
                match truncated {
                    Temporal::DateTime(d, n, _) => Temporal::LocalDateTime(d, n),
                    Temporal::Time(n, _) => Temporal::LocalTime(n),
                    other => other,
                }
            } else {
                truncated
            };
            entries.push((key.to_string(), tv(base)));
            make(kind, &entries).map(tv)
        }
        Fn::FromEpoch => {
            let (s, n) = (
                int_arg(&next(), "seconds")?,
                int_arg(&next(), "nanoseconds")?,
            );
            let total = i128::from(s) * i128::from(NANOS_PER_SEC) + i128::from(n);
            from_instant(total, Zone::utc()).map(tv)
        }
        Fn::FromEpochMillis => {
            let ms = int_arg(&next(), "milliseconds")?;
            from_instant(i128::from(ms) * 1_000_000, Zone::utc()).map(tv)
        }
        Fn::Duration => match next() {
            Val::Str(s) => parse_duration(&s).map(|d| tv(Temporal::Duration(d))),
            Val::Map(m) => {
                let mut acc = DurAcc::default();
                for (k, v) in m.iter() {
                    acc.add(k, v)?;
                }
                acc.finish().map(|d| tv(Temporal::Duration(d)))
            }
            Val::Temporal(t) if matches!(*t, Temporal::Duration(_)) => Ok(Val::Temporal(t)),
            other => Err(err(format!(
                "duration() takes a string or a map, not a {}",
                other.type_name()
            ))),
        },
        Fn::Between | Fn::InMonths | Fn::InDays | Fn::InSeconds => {
            let (a, b) = (next(), next());
            let (Val::Temporal(a), Val::Temporal(b)) = (&a, &b) else {
                return Err(err(
                    "duration.between() takes two temporal values".to_string()
                ));
            };
            between(f, a, b).map(|d| tv(Temporal::Duration(d)))
        }
    }
}

fn int_arg(v: &Val, what: &str) -> Res<i64> {
    match v {
        Val::Int(i) => Ok(*i),
        other => Err(err(format!(
            "{what} must be an integer, not a {}",
            other.type_name()
        ))),
    }
}

// --- the calendar --------------------------------------------------------------------

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(y: i64) -> bool {
    y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0)
}

fn month_len(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// 1 (Monday) to 7 (Sunday).
fn day_of_week(day: i64) -> i64 {
    (day + 3).rem_euclid(7) + 1
}

/// The Monday of week 1 of week-year `wy` (the week holding January 4th).
fn week_year_start(wy: i64) -> i64 {
    let jan4 = days_from_civil(wy, 1, 4);
    jan4 - (day_of_week(jan4) - 1)
}

/// The ISO week-year and week of a day.
fn iso_week(day: i64) -> (i64, i64) {
    let (y, _, _) = civil_from_days(day);
    let wy = if day >= week_year_start(y + 1) {
        y + 1
    } else if day < week_year_start(y) {
        y - 1
    } else {
        y
    };
    (wy, (day - week_year_start(wy)) / 7 + 1)
}

fn weeks_in(wy: i64) -> i64 {
    (week_year_start(wy + 1) - week_year_start(wy)) / 7
}

fn check(what: &str, v: i64, lo: i64, hi: i64) -> Res<i64> {
    if v < lo || v > hi {
        Err(err(format!("{what} must be in {lo}..{hi}, not {v}")))
    } else {
        Ok(v)
    }
}

fn date_ymd(y: i64, m: i64, d: i64) -> Res<i64> {
    check("year", y, -MAX_YEAR, MAX_YEAR)?;
    check("month", m, 1, 12)?;
    check("day", d, 1, month_len(y, m))?;
    Ok(days_from_civil(y, m, d))
}

fn date_week(wy: i64, w: i64, dow: i64) -> Res<i64> {
    check("year", wy, -MAX_YEAR, MAX_YEAR)?;
    check("week", w, 1, weeks_in(wy))?;
    check("dayOfWeek", dow, 1, 7)?;
    Ok(week_year_start(wy) + (w - 1) * 7 + dow - 1)
}

fn date_ordinal(y: i64, o: i64) -> Res<i64> {
    check("year", y, -MAX_YEAR, MAX_YEAR)?;
    check("ordinalDay", o, 1, if is_leap(y) { 366 } else { 365 })?;
    Ok(days_from_civil(y, 1, 1) + o - 1)
}

fn date_quarter(y: i64, q: i64, dq: i64) -> Res<i64> {
    check("year", y, -MAX_YEAR, MAX_YEAR)?;
    check("quarter", q, 1, 4)?;
    let start = days_from_civil(y, (q - 1) * 3 + 1, 1);
    let end = if q == 4 {
        days_from_civil(y + 1, 1, 1)
    } else {
        days_from_civil(y, q * 3 + 1, 1)
    };
    check("dayOfQuarter", dq, 1, end - start)?;
    Ok(start + dq - 1)
}

fn check_day(day: i64) -> Res<i64> {
    // Far past any year allowed, before the calendar arithmetic could overflow.
    if day.unsigned_abs() > 400 * MAX_YEAR.unsigned_abs() {
        return Err(err("the date is out of range"));
    }
    let (y, _, _) = civil_from_days(day);
    check("year", y, -MAX_YEAR, MAX_YEAR)?;
    Ok(day)
}

// --- time zones ----------------------------------------------------------------------

/// The named zones whose rules are built in.
pub(crate) const ZONES: &[&str] = &[
    "UTC",
    "Etc/UTC",
    "GMT",
    "Europe/Stockholm",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Paris",
    "America/New_York",
    "America/Los_Angeles",
    "Pacific/Honolulu",
    "Australia/Eucla",
    "Asia/Tokyo",
];

fn last_sunday(y: i64, m: i64) -> i64 {
    let last = days_from_civil(y, m, month_len(y, m));
    last - (day_of_week(last) % 7)
}

fn nth_sunday(y: i64, m: i64, n: i64) -> i64 {
    let first = days_from_civil(y, m, 1);
    first + (7 - day_of_week(first)) % 7 + (n - 1) * 7
}

/// The offset of zone `name` at the UTC instant `utc` (seconds since the epoch).
fn zone_offset_at(name: &str, utc: i64) -> Option<i32> {
    let day = utc.div_euclid(86_400);
    let (y, _, _) = civil_from_days(day);
    // Summer time between two UTC instants (seconds), as (start, end).
    let eu = |y: i64| {
        let end_month = if y < 1996 { 9 } else { 10 };
        (
            last_sunday(y, 3) * 86_400 + 3600,
            last_sunday(y, end_month) * 86_400 + 3600,
        )
    };
    let in_summer = |(start, end): (i64, i64)| utc >= start && utc < end;
    Some(match name {
        "UTC" | "Etc/UTC" | "GMT" => 0,
        "Europe/Stockholm" => {
            if y < 1879 {
                3208
            } else if y < 1900 {
                3614
            } else if y >= 1980 && in_summer(eu(y)) {
                7200
            } else {
                3600
            }
        }
        "Europe/Berlin" | "Europe/Paris" => {
            if y >= 1980 && in_summer(eu(y)) {
                7200
            } else {
                3600
            }
        }
        "Europe/London" => {
            if y >= 1972 && in_summer(eu(y.max(1996))) {
                3600
            } else {
                0
            }
        }
        "America/New_York" | "America/Los_Angeles" => {
            let std = if name == "America/New_York" {
                -5 * 3600
            } else {
                -8 * 3600
            };
            let (start, end) = if y >= 2007 {
                (nth_sunday(y, 3, 2), nth_sunday(y, 11, 1))
            } else {
                (nth_sunday(y, 4, 1), last_sunday(y, 10))
            };
            let start = start * 86_400 + 2 * 3600 - i64::from(std);
            let end = end * 86_400 + 2 * 3600 - i64::from(std) - 3600;
            if y >= 1967 && utc >= start && utc < end {
                std + 3600
            } else {
                std
            }
        }
        "Pacific/Honolulu" => {
            if y < 1896 {
                -37_886
            } else if y < 1947 {
                -37_800
            } else {
                -36_000
            }
        }
        "Australia/Eucla" => 31_500,
        "Asia/Tokyo" => 32_400,
        _ => return None,
    })
}

fn known_zone(name: &str) -> Res<()> {
    if zone_offset_at(name, 0).is_some() {
        Ok(())
    } else {
        Err(err(format!(
            "the time zone {name:?} is not known; use an offset (+01:00) or one of {}",
            ZONES.join(", ")
        )))
    }
}

/// The offset of zone `name` at a local date and time: the earlier offset
/// where the clock was turned back, the one before a gap where it jumped.
fn zone_offset_local(name: &str, day: i64, nanos: i64) -> i32 {
    let local = day * 86_400 + nanos.div_euclid(NANOS_PER_SEC);
    let mut candidates = Vec::new();
    for guess in [local - 86_400, local, local + 86_400] {
        if let Some(o) = zone_offset_at(name, guess) {
            candidates.push(o);
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    for &o in candidates.iter().rev() {
        if zone_offset_at(name, local - i64::from(o)) == Some(o) {
            return o;
        }
    }
    candidates.first().copied().unwrap_or(0)
}

/// A zone from a `timezone` value: an offset or a known name.
fn parse_zone(s: &str) -> Res<ZoneSpec> {
    let mut c = Cursor::new(s);
    if let Some(off) = c.offset()?
        && c.done()
    {
        return Ok(ZoneSpec::Offset(off));
    }
    known_zone(s)?;
    Ok(ZoneSpec::Named(s.into()))
}

#[derive(Debug, Clone)]
enum ZoneSpec {
    Offset(i32),
    Named(Arc<str>),
}

impl ZoneSpec {
    /// The zone at a local date and time.
    fn at_local(&self, day: i64, nanos: i64) -> Zone {
        match self {
            ZoneSpec::Offset(o) => Zone {
                offset: *o,
                name: None,
            },
            ZoneSpec::Named(n) => Zone {
                offset: zone_offset_local(n, day, nanos),
                name: Some(n.clone()),
            },
        }
    }
    /// The zone at a UTC instant (nanoseconds).
    fn at_instant(&self, instant: i128) -> Zone {
        match self {
            ZoneSpec::Offset(o) => Zone {
                offset: *o,
                name: None,
            },
            ZoneSpec::Named(n) => {
                let secs = i64::try_from(instant.div_euclid(i128::from(NANOS_PER_SEC)))
                    .unwrap_or_default();
                Zone {
                    offset: zone_offset_at(n, secs).unwrap_or(0),
                    name: Some(n.clone()),
                }
            }
        }
    }
}

fn zone_spec(z: &Zone) -> ZoneSpec {
    match &z.name {
        Some(n) => ZoneSpec::Named(n.clone()),
        None => ZoneSpec::Offset(z.offset),
    }
}

/// The UTC instant, in nanoseconds, of a local date and time at an offset.
fn instant(day: i64, nanos: i64, offset: i32) -> i128 {
    i128::from(day) * i128::from(NANOS_PER_DAY) + i128::from(nanos)
        - i128::from(offset) * i128::from(NANOS_PER_SEC)
}

/// The datetime at a UTC instant (nanoseconds), in a zone.
fn from_instant(instant: i128, zone: Zone) -> Res<Temporal> {
    let zone = zone_spec(&zone).at_instant(instant);
    let local = instant + i128::from(zone.offset) * i128::from(NANOS_PER_SEC);
    let day = i64::try_from(local.div_euclid(i128::from(NANOS_PER_DAY)))
        .map_err(|_| err("the instant is out of range"))?;
    let nanos = i64::try_from(local.rem_euclid(i128::from(NANOS_PER_DAY))).unwrap_or_default();
    Ok(Temporal::DateTime(check_day(day)?, nanos, zone))
}

fn now(kind: Kind) -> Res<Val> {
    let t = from_instant(now_instant(), Zone::utc())?;
    select(kind, &t).map(tv)
}

// --- strings -------------------------------------------------------------------------

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str) -> Self {
        Cursor {
            s: s.as_bytes(),
            i: 0,
        }
    }
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    /// Exactly `n` digits.
    fn digits(&mut self, n: usize) -> Option<i64> {
        if n == 0 || n > 10 {
            return None;
        }
        let bytes = self.s.get(self.i..self.i + n)?;
        if !bytes.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(bytes.iter().fold(0, |a, b| a * 10 + i64::from(b - b'0')))
    }
    /// How many digits follow.
    fn run(&self) -> usize {
        self.s[self.i.min(self.s.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }
    /// An offset: `Z`, `+HH`, `+HHMM`, `+HH:MM`, `+HH:MM:SS`; `None` when none starts here.
    fn offset(&mut self) -> Res<Option<i32>> {
        if self.eat(b'Z') || self.eat(b'z') {
            return Ok(Some(0));
        }
        let sign = match self.peek() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return Ok(None),
        };
        self.i += 1;
        let bad = || err("a time zone offset is +HH, +HHMM or +HH:MM");
        let h = self.digits(2).ok_or_else(bad)?;
        let mut secs = h * 3600;
        let colon = self.eat(b':');
        if let Some(m) = self.digits(2) {
            secs += m * 60;
            if (colon && self.eat(b':')) || (!colon && self.run() == 2) {
                secs += self.digits(2).ok_or_else(bad)?;
            }
        } else if colon {
            return Err(bad());
        }
        if secs > 18 * 3600 {
            return Err(err("a time zone offset is at most 18 hours"));
        }
        Ok(Some(sign * i32::try_from(secs).unwrap_or(0)))
    }
}

fn bad_string(kind: &str, s: &str) -> QueryError {
    err(format!("{s:?} is not a {kind} string"))
}

/// A date at the cursor: `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-MM`, `YYYY-Www-D`,
/// `YYYY-Www`, `YYYY-DDD`, `YYYY` and the forms without dashes.
fn parse_date_part(c: &mut Cursor<'_>, whole: &str) -> Res<i64> {
    let bad = || bad_string("date", whole);
    let sign = if c.eat(b'-') {
        -1
    } else {
        c.eat(b'+');
        1
    };
    let year_digits = if sign < 0 || c.s.first() == Some(&b'+') {
        c.run()
    } else {
        4
    };
    let y = sign * c.digits(year_digits).ok_or_else(bad)?;
    let dash = c.eat(b'-');
    if c.eat(b'W') {
        let w = c.digits(2).ok_or_else(bad)?;
        let dow = if (dash && c.eat(b'-')) || (!dash && c.run() == 1) {
            c.digits(1).ok_or_else(bad)?
        } else {
            1
        };
        return date_week(y, w, dow);
    }
    let n = c.run();
    match (dash, n) {
        (_, 0) if !dash => date_ymd(y, 1, 1),
        (_, 3) => date_ordinal(y, c.digits(3).ok_or_else(bad)?),
        (true, 2) => {
            let m = c.digits(2).ok_or_else(bad)?;
            let d = if c.eat(b'-') {
                c.digits(2).ok_or_else(bad)?
            } else {
                1
            };
            date_ymd(y, m, d)
        }
        (false, 2) => date_ymd(y, c.digits(2).ok_or_else(bad)?, 1),
        (false, 4) => {
            let m = c.digits(2).ok_or_else(bad)?;
            date_ymd(y, m, c.digits(2).ok_or_else(bad)?)
        }
        _ => Err(bad()),
    }
}

/// A time at the cursor: `HH:MM:SS.fff`, `HHMMSS.fff`, `HH:MM`, `HHMM`, `HH`.
fn parse_time_part(c: &mut Cursor<'_>, whole: &str) -> Res<i64> {
    let bad = || bad_string("time", whole);
    let h = check("hour", c.digits(2).ok_or_else(bad)?, 0, 23)?;
    let colon = c.eat(b':');
    let mut nanos = h * 3600 * NANOS_PER_SEC;
    if let Some(m) = c.digits(2) {
        nanos += check("minute", m, 0, 59)? * 60 * NANOS_PER_SEC;
        let more = if colon { c.eat(b':') } else { c.run() >= 2 };
        if more {
            nanos += check("second", c.digits(2).ok_or_else(bad)?, 0, 59)? * NANOS_PER_SEC;
            if c.eat(b'.') || c.eat(b',') {
                let n = c.run();
                if n == 0 || n > 9 {
                    return Err(bad());
                }
                let frac = c.digits(n).ok_or_else(bad)?;
                nanos += frac * 10i64.pow(u32::try_from(9 - n).unwrap_or(0));
            }
        }
    } else if colon {
        return Err(bad());
    }
    Ok(nanos)
}

/// An optional offset and an optional `[Zone/Name]`.
fn parse_zone_part(c: &mut Cursor<'_>, whole: &str) -> Res<Option<ZoneSpec>> {
    let offset = c.offset()?;
    if c.eat(b'[') {
        let rest = &c.s[c.i..];
        let end = rest
            .iter()
            .position(|&b| b == b']')
            .ok_or_else(|| bad_string("datetime", whole))?;
        let name = std::str::from_utf8(&rest[..end]).map_err(|_| bad_string("datetime", whole))?;
        c.i += end + 1;
        known_zone(name)?;
        let _ = offset;
        return Ok(Some(ZoneSpec::Named(name.into())));
    }
    Ok(offset.map(ZoneSpec::Offset))
}

fn parse(kind: Kind, s: &str) -> Res<Temporal> {
    let mut c = Cursor::new(s.trim());
    let whole = s;
    let t = match kind {
        Kind::Date => Temporal::Date(parse_date_part(&mut c, whole)?),
        Kind::LocalTime => Temporal::LocalTime(parse_time_part(&mut c, whole)?),
        Kind::Time => {
            let n = parse_time_part(&mut c, whole)?;
            let zone = parse_zone_part(&mut c, whole)?.unwrap_or(ZoneSpec::Offset(0));
            Temporal::Time(n, zone.at_instant(now_instant()).offset)
        }
        Kind::LocalDateTime | Kind::DateTime => {
            let day = parse_date_part(&mut c, whole)?;
            let nanos = if c.eat(b'T') || c.eat(b't') {
                parse_time_part(&mut c, whole)?
            } else {
                0
            };
            if kind == Kind::LocalDateTime {
                Temporal::LocalDateTime(day, nanos)
            } else {
                let zone = parse_zone_part(&mut c, whole)?.unwrap_or(ZoneSpec::Offset(0));
                Temporal::DateTime(day, nanos, zone.at_local(day, nanos))
            }
        }
    };
    if !c.done() {
        return Err(bad_string(kind.name(), whole));
    }
    Ok(t)
}

thread_local! {
    /// The query's clock: read once, so that every `date()` of one query is the same.
    static NOW: std::cell::Cell<Option<i128>> = const { std::cell::Cell::new(None) };
}

/// Forgets the clock of the last query (called as a query starts).
pub(crate) fn reset_clock() {
    NOW.with(|n| n.set(None));
}

/// Whether the query running on this thread has read the clock.
pub(crate) fn clock_read() -> bool {
    NOW.with(|n| n.get().is_some())
}

/// The current instant, in nanoseconds since the epoch, the same for a whole query.
fn now_instant() -> i128 {
    NOW.with(|n| {
        if let Some(t) = n.get() {
            return t;
        }
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or_default());
        n.set(Some(t));
        t
    })
}

// --- durations -----------------------------------------------------------------------

/// Sums duration fields: whole months, days and nanoseconds, fractions
/// passed down (a month's fraction in average-month seconds, a day's in seconds).
#[derive(Default)]
struct DurAcc {
    months: i128,
    days: i128,
    nanos: i128,
    frac_nanos: f64,
}

impl DurAcc {
    fn add_num(&mut self, unit: &str, v: f64, int: Option<i64>) -> Res<()> {
        enum U {
            Months(i128),
            Days(i128),
            Nanos(i128),
        }
        let u = match unit {
            "years" => U::Months(12),
            "quarters" => U::Months(3),
            "months" => U::Months(1),
            "weeks" => U::Days(7),
            "days" => U::Days(1),
            "hours" => U::Nanos(3600 * i128::from(NANOS_PER_SEC)),
            "minutes" => U::Nanos(60 * i128::from(NANOS_PER_SEC)),
            "seconds" => U::Nanos(i128::from(NANOS_PER_SEC)),
            "milliseconds" => U::Nanos(1_000_000),
            "microseconds" => U::Nanos(1_000),
            "nanoseconds" => U::Nanos(1),
            other => return Err(err(format!("a duration has no field {other:?}"))),
        };
        if !v.is_finite() || v.abs() > 1e15 {
            return Err(err(format!("the duration field {unit} is out of range")));
        }
        match (u, int) {
            (U::Months(k), Some(i)) => self.months += k * i128::from(i),
            (U::Days(k), Some(i)) => self.days += k * i128::from(i),
            (U::Nanos(k), Some(i)) => self.nanos += k * i128::from(i),
            (U::Months(k), None) => {
                let m = v * k as f64;
                self.months += m.trunc() as i128;
                let secs = m.fract() * SECONDS_PER_MONTH;
                self.days += (secs / 86_400.0).trunc() as i128;
                self.frac_nanos += (secs % 86_400.0) * NANOS_PER_SEC as f64;
            }
            (U::Days(k), None) => {
                let d = v * k as f64;
                self.days += d.trunc() as i128;
                self.frac_nanos += d.fract() * NANOS_PER_DAY as f64;
            }
            (U::Nanos(k), None) => self.frac_nanos += v * k as f64,
        }
        Ok(())
    }

    fn add(&mut self, unit: &str, v: &Val) -> Res<()> {
        match v {
            Val::Int(i) => self.add_num(unit, *i as f64, Some(*i)),
            Val::Float(f) => self.add_num(unit, *f, None),
            Val::Null => Ok(()),
            other => Err(err(format!(
                "the duration field {unit} must be a number, not a {}",
                other.type_name()
            ))),
        }
    }

    fn finish(self) -> Res<Duration> {
        let total = self.nanos + self.frac_nanos.round() as i128;
        let secs = total.div_euclid(i128::from(NANOS_PER_SEC));
        let nanos = total.rem_euclid(i128::from(NANOS_PER_SEC));
        let out = |v: i128| i64::try_from(v).map_err(|_| err("the duration is out of range"));
        Ok(Duration {
            months: out(self.months)?,
            days: out(self.days)?,
            secs: out(secs)?,
            nanos: out(nanos)?,
        })
    }
}

/// `P1Y2M3W4DT5H6M7.5S` (each number may be negative or a decimal) or
/// `P2012-02-02T14:37:21.545`.
fn parse_duration(s: &str) -> Res<Duration> {
    let bad = || bad_string("duration", s);
    let t = s.trim();
    let (negate, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let body = t
        .strip_prefix('P')
        .or_else(|| t.strip_prefix('p'))
        .ok_or_else(bad)?;
    let mut acc = DurAcc::default();
    let sign = |v: f64| if negate { -v } else { v };
    // The alternative form.
    if body.len() >= 10
        && body.as_bytes().get(4) == Some(&b'-')
        && body.bytes().take(4).all(|b| b.is_ascii_digit())
    {
        let (date, time) = body.split_once('T').unwrap_or((body, ""));
        let parts: Vec<&str> = date.split('-').collect();
        let [y, m, d] = parts.as_slice() else {
            return Err(bad());
        };
        for (unit, text) in [("years", y), ("months", m), ("days", d)] {
            let v: i64 = text.parse().map_err(|_| bad())?;
            acc.add_num(unit, sign(v as f64), Some(if negate { -v } else { v }))?;
        }
        if !time.is_empty() {
            let parts: Vec<&str> = time.split(':').collect();
            for (unit, text) in ["hours", "minutes", "seconds"].iter().zip(parts) {
                let v: f64 = text.parse().map_err(|_| bad())?;
                acc.add_num(unit, sign(v), None)?;
            }
        }
        return acc.finish();
    }
    let mut in_time = false;
    let mut rest = body;
    let mut any = false;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(['T', 't']) {
            in_time = true;
            rest = r;
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',' || c == '-' || c == '+'))
            .ok_or_else(bad)?;
        let (number, tail) = rest.split_at(end);
        let unit_char = tail.chars().next().ok_or_else(bad)?;
        rest = &tail[unit_char.len_utf8()..];
        let unit = match (in_time, unit_char.to_ascii_uppercase()) {
            (false, 'Y') => "years",
            (false, 'M') => "months",
            (false, 'W') => "weeks",
            (false, 'D') => "days",
            (true, 'H') => "hours",
            (true, 'M') => "minutes",
            (true, 'S') => "seconds",
            _ => return Err(bad()),
        };
        let number = number.replace(',', ".");
        if number.is_empty() {
            return Err(bad());
        }
        any = true;
        match number.parse::<i64>() {
            Ok(i) => acc.add_num(unit, sign(i as f64), Some(if negate { -i } else { i }))?,
            Err(_) => acc.add_num(unit, sign(number.parse::<f64>().map_err(|_| bad())?), None)?,
        }
    }
    if !any {
        return Err(bad());
    }
    acc.finish()
}

// --- from maps and other values ------------------------------------------------------

/// The parts of a temporal value: its date, its local time, its zone.
struct Parts {
    day: Option<i64>,
    nanos: Option<i64>,
    zone: Option<Zone>,
}

fn parts(t: &Temporal) -> Parts {
    match t {
        Temporal::Date(d) => Parts {
            day: Some(*d),
            nanos: None,
            zone: None,
        },
        Temporal::LocalTime(n) => Parts {
            day: None,
            nanos: Some(*n),
            zone: None,
        },
        Temporal::Time(n, o) => Parts {
            day: None,
            nanos: Some(*n),
            zone: Some(Zone {
                offset: *o,
                name: None,
            }),
        },
        Temporal::LocalDateTime(d, n) => Parts {
            day: Some(*d),
            nanos: Some(*n),
            zone: None,
        },
        Temporal::DateTime(d, n, z) => Parts {
            day: Some(*d),
            nanos: Some(*n),
            zone: Some(z.clone()),
        },
        Temporal::Duration(_) => Parts {
            day: None,
            nanos: None,
            zone: None,
        },
    }
}

/// Another temporal value as a `kind`: its date and time kept, a zone added
/// (UTC) or dropped.
fn select(kind: Kind, t: &Temporal) -> Res<Temporal> {
    let p = parts(t);
    if matches!(t, Temporal::Duration(_)) {
        return Err(err(format!(
            "{}() cannot be made from a duration",
            kind.name()
        )));
    }
    if kind.has_date() && p.day.is_none() {
        return Err(err(format!(
            "{}() needs a date, and a {} has none",
            kind.name(),
            type_name(t)
        )));
    }
    if kind == Kind::Date {
        return Ok(Temporal::Date(p.day.unwrap_or(0)));
    }
    if !kind.has_date() && p.nanos.is_none() {
        return Err(err(format!(
            "{}() needs a time, and a {} has none",
            kind.name(),
            type_name(t)
        )));
    }
    let day = p.day.unwrap_or(0);
    let nanos = p.nanos.unwrap_or(0);
    Ok(match kind {
        Kind::LocalTime => Temporal::LocalTime(nanos),
        Kind::Time => Temporal::Time(nanos, p.zone.map_or(0, |z| z.offset)),
        Kind::LocalDateTime => Temporal::LocalDateTime(day, nanos),
        _ => Temporal::DateTime(
            day,
            nanos,
            p.zone
                .unwrap_or_else(|| ZoneSpec::Offset(0).at_local(day, nanos)),
        ),
    })
}

fn field_int(k: &str, v: &Val) -> Res<i64> {
    match v {
        Val::Int(i) => Ok(*i),
        Val::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Ok(*f as i64),
        other => Err(err(format!(
            "the field {k} must be an integer, not a {}",
            other.type_name()
        ))),
    }
}

/// A `kind` from a map of fields (`year`, `month`, `day`, `week`, `dayOfWeek`,
/// `ordinalDay`, `quarter`, `dayOfQuarter`, `hour`, `minute`, `second`,
/// `millisecond`, `microsecond`, `nanosecond`, `timezone`, `epochSeconds`,
/// `epochMillis`, and `date`, `time`, `datetime` to take fields from).
fn make(kind: Kind, entries: &[(String, Val)]) -> Res<Temporal> {
    let mut ints: Vec<(&str, i64)> = Vec::new();
    let mut base_date: Option<Parts> = None;
    let mut base_time: Option<Parts> = None;
    let mut zone: Option<ZoneSpec> = None;
    let mut same_value = false;
    for (k, v) in entries {
        super::charge(1);
        if *v == Val::Null {
            continue;
        }
        let key = k.as_str();
        match key {
            "date" | "time" | "datetime" => {
                let Val::Temporal(t) = v else {
                    return Err(err(format!(
                        "the field {key} must be a temporal value, not a {}",
                        v.type_name()
                    )));
                };
                let p = parts(t);
                same_value |= key == "datetime";
                if key != "time" {
                    if p.day.is_none() {
                        return Err(err(format!("the field {key} needs a value with a date")));
                    }
                    base_date = Some(parts(t));
                }
                if key != "date" {
                    if p.nanos.is_none() && key == "time" {
                        return Err(err("the field time needs a value with a time".to_string()));
                    }
                    base_time = Some(p);
                }
            }
            "timezone" => {
                let Val::Str(s) = v else {
                    return Err(err("the field timezone must be a string".to_string()));
                };
                zone = Some(parse_zone(s)?);
            }
            "year" | "month" | "day" | "week" | "dayofweek" | "dayOfWeek" | "ordinalDay"
            | "quarter" | "dayOfQuarter" | "hour" | "minute" | "second" | "millisecond"
            | "microsecond" | "nanosecond" | "epochSeconds" | "epochMillis" => {
                ints.push((
                    if key == "dayofweek" { "dayOfWeek" } else { key },
                    field_int(key, v)?,
                ));
            }
            other => {
                return Err(err(format!("{}() has no field {other:?}", kind.name())));
            }
        }
    }
    let get = |k: &str| ints.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    let has = |ks: &[&str]| ks.iter().any(|k| get(k).is_some());

    // Epoch fields make a datetime in UTC.
    if has(&["epochSeconds", "epochMillis"]) {
        let mut total = i128::from(get("epochSeconds").unwrap_or(0)) * i128::from(NANOS_PER_SEC)
            + i128::from(get("epochMillis").unwrap_or(0)) * 1_000_000;
        total += i128::from(get("millisecond").unwrap_or(0)) * 1_000_000
            + i128::from(get("microsecond").unwrap_or(0)) * 1_000
            + i128::from(get("nanosecond").unwrap_or(0));
        let t = from_instant(total, Zone::utc())?;
        let t = match (&zone, t) {
            (Some(z), Temporal::DateTime(..)) => from_instant(total, z.at_instant(total))?,
            (_, t) => t,
        };
        return select(kind, &t);
    }

    // The zone: the new one (the base's instant moved into it), the base's, or UTC.
    let base_zone = base_time.as_ref().and_then(|p| p.zone.clone());
    let mut base_day = base_date.as_ref().and_then(|p| p.day);
    let mut base_nanos = base_time.as_ref().and_then(|p| p.nanos);
    // A local date and time in the old zone, moved into the new one.
    let convert = |day: i64, nanos: i64, old: &Zone, new: &ZoneSpec| -> (i64, i64) {
        let old_offset = zone_spec(old).at_local(day, nanos).offset;
        let at = instant(day, nanos, old_offset);
        let z = new.at_instant(at);
        let local = at + i128::from(z.offset) * i128::from(NANOS_PER_SEC);
        (
            i64::try_from(local.div_euclid(i128::from(NANOS_PER_DAY))).unwrap_or(0),
            i64::try_from(local.rem_euclid(i128::from(NANOS_PER_DAY))).unwrap_or(0),
        )
    };
    let mut pending = None;
    if let (Some(new), Some(old)) = (&zone, &base_zone)
        && kind.has_zone()
        && let Some(n) = base_nanos
    {
        match (same_value, base_time.as_ref().and_then(|p| p.day)) {
            (true, Some(d)) => {
                let (d, n) = convert(d, n, old, new);
                base_day = Some(d);
                base_nanos = Some(n);
            }
            _ => pending = Some((old.clone(), new.clone())),
        }
    }

    // The date.
    let day = if kind.has_date() {
        let base = base_day;
        let year = get("year");
        let d = if has(&["week", "dayOfWeek"]) {
            let (bwy, bw) = base.map(iso_week).unzip();
            let wy = year.or(bwy).ok_or_else(|| err("a date needs a year"))?;
            let w = get("week").or(bw).unwrap_or(1);
            let dow = get("dayOfWeek").or(base.map(day_of_week)).unwrap_or(1);
            date_week(wy, w, dow)?
        } else if has(&["ordinalDay"]) {
            let y = year
                .or(base.map(|b| civil_from_days(b).0))
                .ok_or_else(|| err("a date needs a year"))?;
            date_ordinal(y, get("ordinalDay").unwrap_or(1))?
        } else if has(&["quarter", "dayOfQuarter"]) {
            let (by, bm, _) = base
                .map(civil_from_days)
                .map_or((None, None, None), |(y, m, d)| (Some(y), Some(m), Some(d)));
            let y = year.or(by).ok_or_else(|| err("a date needs a year"))?;
            let q = get("quarter").or(bm.map(|m| (m - 1) / 3 + 1)).unwrap_or(1);
            let dq = match (get("dayOfQuarter"), base) {
                (Some(dq), _) => dq,
                (None, Some(b)) => {
                    let (by, bm, _) = civil_from_days(b);
                    b - days_from_civil(by, (bm - 1) / 3 * 3 + 1, 1) + 1
                }
                _ => 1,
            };
            date_quarter(y, q, dq)?
        } else {
            let (by, bm, bd) = base
                .map(civil_from_days)
                .map_or((None, None, None), |(y, m, d)| (Some(y), Some(m), Some(d)));
            let y = year
                .or(by)
                .ok_or_else(|| err(format!("{}() needs a year (or a date)", kind.name())))?;
            if get("day").is_some() && get("month").is_none() && bm.is_none() {
                return Err(err("a date with a day needs a month".to_string()));
            }
            date_ymd(
                y,
                get("month").or(bm).unwrap_or(1),
                get("day").or(bd).unwrap_or(1),
            )?
        };
        Some(d)
    } else {
        if has(&[
            "year",
            "month",
            "day",
            "week",
            "dayOfWeek",
            "ordinalDay",
            "quarter",
            "dayOfQuarter",
        ]) {
            return Err(err(format!("{}() has no date fields", kind.name())));
        }
        None
    };

    // The time.
    if let Some((old, new)) = pending
        && let Some(n) = base_nanos
    {
        let on = day
            .or(base_time.as_ref().and_then(|p| p.day))
            .unwrap_or_else(|| {
                i64::try_from(now_instant().div_euclid(i128::from(NANOS_PER_DAY))).unwrap_or(0)
            });
        base_nanos = Some(convert(on, n, &old, &new).1);
    }
    let nanos = if kind.has_time() {
        let b = base_nanos;
        let part = |n: i64, unit: i64, modulo: i64| b.map(|b| (b / unit) % modulo).unwrap_or(n);
        let hour = check(
            "hour",
            get("hour").unwrap_or_else(|| part(0, 3600 * NANOS_PER_SEC, 24)),
            0,
            23,
        )?;
        if get("hour").is_none() && b.is_none() && has(&["minute", "second"]) {
            return Err(err(
                "a time with minutes or seconds needs an hour".to_string()
            ));
        }
        let minute = check(
            "minute",
            get("minute").unwrap_or_else(|| part(0, 60 * NANOS_PER_SEC, 60)),
            0,
            59,
        )?;
        if get("minute").is_none() && b.is_none() && has(&["second"]) {
            return Err(err("a time with seconds needs minutes".to_string()));
        }
        let second = check(
            "second",
            get("second").unwrap_or_else(|| part(0, NANOS_PER_SEC, 60)),
            0,
            59,
        )?;
        let small = |k: &str| get(k).is_none_or(|v| v < 1000);
        let sub = if let Some(base) = b
            && has(&["millisecond", "microsecond", "nanosecond"])
            && small("microsecond")
            && small("nanosecond")
        {
            // Over a base: each given field replaces its own digits.
            let base = base % NANOS_PER_SEC;
            let ms = check(
                "millisecond",
                get("millisecond").unwrap_or(base / 1_000_000),
                0,
                999,
            )?;
            let us = check(
                "microsecond",
                get("microsecond").unwrap_or(base / 1_000 % 1_000),
                0,
                999,
            )?;
            let ns = check(
                "nanosecond",
                get("nanosecond").unwrap_or(base % 1_000),
                0,
                999,
            )?;
            ms * 1_000_000 + us * 1_000 + ns
        } else if has(&["millisecond", "microsecond", "nanosecond"]) {
            let ms = check("millisecond", get("millisecond").unwrap_or(0), 0, 999)?;
            let us = check(
                "microsecond",
                get("microsecond").unwrap_or(0),
                0,
                if has(&["millisecond"]) { 999 } else { 999_999 },
            )?;
            let ns_max = if has(&["microsecond"]) {
                999
            } else if has(&["millisecond"]) {
                999_999
            } else {
                999_999_999
            };
            let ns = check("nanosecond", get("nanosecond").unwrap_or(0), 0, ns_max)?;
            ms * 1_000_000 + us * 1_000 + ns
        } else {
            b.map_or(0, |b| b % NANOS_PER_SEC)
        };
        Some(((hour * 60 + minute) * 60 + second) * NANOS_PER_SEC + sub)
    } else {
        if has(&[
            "hour",
            "minute",
            "second",
            "millisecond",
            "microsecond",
            "nanosecond",
        ]) {
            return Err(err("date() has no time fields".to_string()));
        }
        None
    };

    let day_v = day.unwrap_or(0);
    let nanos_v = nanos.unwrap_or(0);
    let zone_v = || -> Zone {
        match (&zone, &base_zone) {
            (Some(z), _) => z.at_local(day_v, nanos_v),
            (None, Some(z)) => zone_spec(z).at_local(day_v, nanos_v),
            (None, None) => Zone::utc(),
        }
    };
    Ok(match kind {
        Kind::Date => Temporal::Date(day_v),
        Kind::LocalTime => Temporal::LocalTime(nanos_v),
        Kind::Time => {
            let offset = match (&zone, &base_zone) {
                (Some(z), _) => z.at_instant(now_instant()).offset,
                (None, Some(z)) => z.offset,
                _ => 0,
            };
            Temporal::Time(nanos_v, offset)
        }
        Kind::LocalDateTime => Temporal::LocalDateTime(day_v, nanos_v),
        Kind::DateTime => Temporal::DateTime(day_v, nanos_v, zone_v()),
    })
}

// --- truncation ----------------------------------------------------------------------

fn truncate(kind: Kind, unit: &str, t: &Temporal) -> Res<Temporal> {
    let p = parts(t);
    if matches!(t, Temporal::Duration(_)) {
        return Err(err("a duration cannot be truncated".to_string()));
    }
    let date_unit = matches!(
        unit,
        "millennium" | "century" | "decade" | "year" | "weekYear" | "quarter" | "month" | "week"
    );
    let time_units = [
        ("day", NANOS_PER_DAY),
        ("hour", 3600 * NANOS_PER_SEC),
        ("minute", 60 * NANOS_PER_SEC),
        ("second", NANOS_PER_SEC),
        ("millisecond", 1_000_000),
        ("microsecond", 1_000),
    ];
    if !date_unit && !time_units.iter().any(|(u, _)| *u == unit) {
        return Err(err(format!(
            "{unit:?} is not a unit to truncate to; the units are millennium, century, decade, year, weekYear, quarter, month, week, day, hour, minute, second, millisecond, microsecond"
        )));
    }
    if date_unit && !kind.has_date() {
        return Err(err(format!(
            "{}() cannot be truncated to a {unit}",
            kind.name()
        )));
    }
    if kind.has_date() && p.day.is_none() {
        return Err(err(format!(
            "{}.truncate() needs a value with a date",
            kind.name()
        )));
    }
    let day = p.day.map(|d| {
        let (y, m, _) = civil_from_days(d);
        match unit {
            "millennium" => days_from_civil(y.div_euclid(1000) * 1000, 1, 1),
            "century" => days_from_civil(y.div_euclid(100) * 100, 1, 1),
            "decade" => days_from_civil(y.div_euclid(10) * 10, 1, 1),
            "year" => days_from_civil(y, 1, 1),
            "weekYear" => week_year_start(iso_week(d).0),
            "quarter" => days_from_civil(y, (m - 1) / 3 * 3 + 1, 1),
            "month" => days_from_civil(y, m, 1),
            "week" => d - (day_of_week(d) - 1),
            _ => d,
        }
    });
    let nanos = p.nanos.map(|n| {
        if date_unit {
            0
        } else {
            let step = time_units
                .iter()
                .find(|(u, _)| *u == unit)
                .map_or(1, |(_, s)| *s);
            n - n.rem_euclid(step)
        }
    });
    let (d, n) = (day.unwrap_or(0), nanos.unwrap_or(0));
    Ok(match (day, nanos.is_some(), p.zone) {
        (Some(_), true, Some(z)) => Temporal::DateTime(d, n, zone_spec(&z).at_local(d, n)),
        (Some(_), true, None) => Temporal::LocalDateTime(d, n),
        (Some(_), false, _) => Temporal::Date(d),
        (None, _, Some(z)) => Temporal::Time(n, z.offset),
        (None, _, None) => Temporal::LocalTime(n),
    })
}

// --- between -------------------------------------------------------------------------

/// `from` plus `months`, the day of the month kept where the month has it.
fn plus_months(day: i64, months: i64) -> Res<i64> {
    let (y, m, d) = civil_from_days(day);
    let total = (y * 12 + m - 1)
        .checked_add(months)
        .ok_or_else(|| err("date out of range"))?;
    let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    check("year", ny, -MAX_YEAR, MAX_YEAR)?;
    Ok(days_from_civil(ny, nm, d.min(month_len(ny, nm))))
}

fn months_until(d1: i64, n1: i64, d2: i64, n2: i64) -> i64 {
    let mut end = d2;
    if d2 > d1 && n2 < n1 {
        end -= 1;
    } else if d2 < d1 && n2 > n1 {
        end += 1;
    }
    let (y1, m1, dd1) = civil_from_days(d1);
    let (y2, m2, dd2) = civil_from_days(end);
    let p1 = (y1 * 12 + m1 - 1) * 32 + dd1;
    let p2 = (y2 * 12 + m2 - 1) * 32 + dd2;
    (p2 - p1) / 32
}

fn days_until(d1: i64, n1: i64, d2: i64, n2: i64) -> i64 {
    let mut end = d2;
    if d2 > d1 && n2 < n1 {
        end -= 1;
    } else if d2 < d1 && n2 > n1 {
        end += 1;
    }
    end - d1
}

fn between(f: Fn, a: &Temporal, b: &Temporal) -> Res<Duration> {
    if matches!(a, Temporal::Duration(_)) || matches!(b, Temporal::Duration(_)) {
        return Err(err(
            "duration.between() takes two instants, not durations".to_string()
        ));
    }
    let (mut pa, mut pb) = (parts(a), parts(b));
    // One zoned: the other is read in its zone.
    match (&pa.zone, &pb.zone) {
        (Some(z), None) => {
            let day = pb.day.or(pa.day).unwrap_or(0);
            pb.zone = Some(zone_spec(z).at_local(day, pb.nanos.unwrap_or(0)));
        }
        (None, Some(z)) => {
            let day = pa.day.or(pb.day).unwrap_or(0);
            pa.zone = Some(zone_spec(z).at_local(day, pa.nanos.unwrap_or(0)));
        }
        _ => {}
    }
    // Both zoned: the second moved into the first's offset.
    if let (Some(za), Some(zb)) = (&pa.zone, &pb.zone) {
        let shift = i64::from(za.offset - zb.offset) * NANOS_PER_SEC;
        let n = pb.nanos.unwrap_or(0) + shift;
        pb.nanos = Some(n.rem_euclid(NANOS_PER_DAY));
        pb.day = pb.day.map(|d| d + n.div_euclid(NANOS_PER_DAY));
    }
    let (n1, n2) = (pa.nanos.unwrap_or(0), pb.nanos.unwrap_or(0));
    let split = |total: i128| -> Res<Duration> {
        let secs = i64::try_from(total.div_euclid(i128::from(NANOS_PER_SEC)))
            .map_err(|_| err("the duration is out of range"))?;
        Ok(Duration {
            months: 0,
            days: 0,
            secs,
            nanos: i64::try_from(total.rem_euclid(i128::from(NANOS_PER_SEC))).unwrap_or(0),
        })
    };
    let (Some(d1), Some(d2)) = (pa.day, pb.day) else {
        if matches!(f, Fn::InMonths | Fn::InDays) {
            return Ok(Duration::default());
        }
        return split(i128::from(n2 - n1));
    };
    let span = |d1: i64, n1: i64| instant(d2, n2, 0) - instant(d1, n1, 0);
    match f {
        Fn::InSeconds => split(span(d1, n1)),
        Fn::InDays => Ok(Duration {
            days: days_until(d1, n1, d2, n2),
            ..Duration::default()
        }),
        Fn::InMonths => Ok(Duration {
            months: months_until(d1, n1, d2, n2),
            ..Duration::default()
        }),
        _ => {
            let months = months_until(d1, n1, d2, n2);
            let from = plus_months(d1, months)?;
            let days = days_until(from, n1, d2, n2);
            let rest = split(span(from + days, n1))?;
            Ok(Duration {
                months,
                days,
                ..rest
            })
        }
    }
}

// --- arithmetic ----------------------------------------------------------------------

fn dur_add(a: &Duration, b: &Duration, sign: i64) -> Res<Duration> {
    let o = || err("integer overflow in duration arithmetic");
    let total = i128::from(a.secs) * i128::from(NANOS_PER_SEC)
        + i128::from(a.nanos)
        + i128::from(sign) * (i128::from(b.secs) * i128::from(NANOS_PER_SEC) + i128::from(b.nanos));
    Ok(Duration {
        months: a
            .months
            .checked_add(b.months.checked_mul(sign).ok_or_else(o)?)
            .ok_or_else(o)?,
        days: a
            .days
            .checked_add(b.days.checked_mul(sign).ok_or_else(o)?)
            .ok_or_else(o)?,
        secs: i64::try_from(total.div_euclid(i128::from(NANOS_PER_SEC))).map_err(|_| o())?,
        nanos: i64::try_from(total.rem_euclid(i128::from(NANOS_PER_SEC))).unwrap_or(0),
    })
}

fn dur_scale(d: &Duration, factor: f64, divide: bool) -> Res<Duration> {
    let f = if divide { 1.0 / factor } else { factor };
    if !f.is_finite() {
        return Err(err("a duration divided by zero"));
    }
    let mut acc = DurAcc::default();
    acc.add_num("months", d.months as f64 * f, None)?;
    acc.add_num("days", d.days as f64 * f, None)?;
    acc.add_num("seconds", d.secs as f64 * f, None)?;
    acc.add_num("nanoseconds", d.nanos as f64 * f, None)?;
    acc.finish()
}

fn plus_duration(t: &Temporal, d: &Duration, sign: i64) -> Res<Temporal> {
    let o = || err("temporal arithmetic out of range");
    let months = d.months.checked_mul(sign).ok_or_else(o)?;
    let days = d.days.checked_mul(sign).ok_or_else(o)?;
    let time =
        (i128::from(d.secs) * i128::from(NANOS_PER_SEC) + i128::from(d.nanos)) * i128::from(sign);
    let shift = |day: i64, nanos: i64| -> Res<(i64, i64)> {
        let day = plus_months(day, months)?.checked_add(days).ok_or_else(o)?;
        let total = i128::from(nanos) + time;
        let day = day
            .checked_add(
                i64::try_from(total.div_euclid(i128::from(NANOS_PER_DAY))).map_err(|_| o())?,
            )
            .ok_or_else(o)?;
        Ok((
            check_day(day)?,
            i64::try_from(total.rem_euclid(i128::from(NANOS_PER_DAY))).unwrap_or(0),
        ))
    };
    let time_only = |n: i64| {
        i64::try_from((i128::from(n) + time).rem_euclid(i128::from(NANOS_PER_DAY))).unwrap_or(0)
    };
    Ok(match t {
        Temporal::Date(day) => {
            let day = plus_months(*day, months)?.checked_add(days).ok_or_else(o)?;
            let whole = i64::try_from(time / i128::from(NANOS_PER_DAY)).map_err(|_| o())?;
            Temporal::Date(check_day(day.checked_add(whole).ok_or_else(o)?)?)
        }
        Temporal::LocalTime(n) => Temporal::LocalTime(time_only(*n)),
        Temporal::Time(n, off) => Temporal::Time(time_only(*n), *off),
        Temporal::LocalDateTime(day, n) => {
            let (d, n) = shift(*day, *n)?;
            Temporal::LocalDateTime(d, n)
        }
        Temporal::DateTime(day, n, z) => {
            let (d, n) = shift(*day, *n)?;
            Temporal::DateTime(d, n, zone_spec(z).at_local(d, n))
        }
        Temporal::Duration(x) => Temporal::Duration(dur_add(x, d, sign)?),
    })
}

/// `+`, `-`, `*`, `/` when a temporal value is an operand: `Some` with the
/// answer, `None` when neither operand is temporal.
pub(crate) fn arithmetic(op: char, a: &Val, b: &Val) -> Option<Res<Val>> {
    if !matches!(a, Val::Temporal(_)) && !matches!(b, Val::Temporal(_)) {
        return None;
    }
    let bad = || {
        Err(err(format!(
            "cannot compute {} {op} {}",
            a.type_name(),
            b.type_name()
        )))
    };
    let num = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    Some(match (op, a, b) {
        ('+' | '-', Val::Temporal(t), Val::Temporal(d)) => match (&**t, &**d) {
            (_, Temporal::Duration(d)) => {
                plus_duration(t, d, if op == '+' { 1 } else { -1 }).map(tv)
            }
            (Temporal::Duration(x), other) if op == '+' => plus_duration(other, x, 1).map(tv),
            _ => bad(),
        },
        ('*', Val::Temporal(t), n) | ('*', n, Val::Temporal(t)) => match (&**t, num(n)) {
            (Temporal::Duration(d), Some(f)) => {
                dur_scale(d, f, false).map(|d| tv(Temporal::Duration(d)))
            }
            _ => bad(),
        },
        ('/', Val::Temporal(t), n) => match (&**t, num(n)) {
            (Temporal::Duration(d), Some(f)) => {
                dur_scale(d, f, true).map(|d| tv(Temporal::Duration(d)))
            }
            _ => bad(),
        },
        _ => bad(),
    })
}

// --- reading, writing, comparing -----------------------------------------------------

pub(crate) fn type_name(t: &Temporal) -> &'static str {
    match t {
        Temporal::Date(_) => "date",
        Temporal::LocalTime(_) => "local time",
        Temporal::Time(..) => "time",
        Temporal::LocalDateTime(..) => "local datetime",
        Temporal::DateTime(..) => "datetime",
        Temporal::Duration(_) => "duration",
    }
}

fn write_date(out: &mut String, day: i64) {
    let (y, m, d) = civil_from_days(day);
    if y > 9999 {
        out.push('+');
    }
    if y < 0 {
        out.push_str(&format!("-{:04}-{m:02}-{d:02}", -y));
    } else {
        out.push_str(&format!("{y:04}-{m:02}-{d:02}"));
    }
}

fn write_time(out: &mut String, nanos: i64) {
    let secs = nanos / NANOS_PER_SEC;
    let frac = nanos % NANOS_PER_SEC;
    out.push_str(&format!("{:02}:{:02}", secs / 3600, secs / 60 % 60));
    if secs % 60 != 0 || frac != 0 {
        out.push_str(&format!(":{:02}", secs % 60));
    }
    if frac != 0 {
        if frac % 1_000_000 == 0 {
            out.push_str(&format!(".{:03}", frac / 1_000_000));
        } else if frac % 1_000 == 0 {
            out.push_str(&format!(".{:06}", frac / 1_000));
        } else {
            out.push_str(&format!(".{frac:09}"));
        }
    }
}

fn write_offset(out: &mut String, offset: i32) {
    if offset == 0 {
        out.push('Z');
        return;
    }
    let a = offset.abs();
    out.push(if offset < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}:{:02}", a / 3600, a / 60 % 60));
    if a % 60 != 0 {
        out.push_str(&format!(":{:02}", a % 60));
    }
}

fn write_duration(out: &mut String, d: &Duration) {
    out.push('P');
    let (y, m) = (d.months / 12, d.months % 12);
    if y != 0 {
        out.push_str(&format!("{y}Y"));
    }
    if m != 0 {
        out.push_str(&format!("{m}M"));
    }
    if d.days != 0 {
        out.push_str(&format!("{}D", d.days));
    }
    let total = i128::from(d.secs) * i128::from(NANOS_PER_SEC) + i128::from(d.nanos);
    if total != 0 {
        out.push('T');
        let sign = if total < 0 { "-" } else { "" };
        let a = total.abs();
        let ns = i128::from(NANOS_PER_SEC);
        let (h, mi, s, frac) = (a / (3600 * ns), a / (60 * ns) % 60, a / ns % 60, a % ns);
        if h != 0 {
            out.push_str(&format!("{sign}{h}H"));
        }
        if mi != 0 {
            out.push_str(&format!("{sign}{mi}M"));
        }
        if s != 0 || frac != 0 {
            out.push_str(&format!("{sign}{s}"));
            if frac != 0 {
                let text = format!("{frac:09}");
                out.push('.');
                out.push_str(text.trim_end_matches('0'));
            }
            out.push('S');
        }
    }
    if out == "P" {
        out.push_str("T0S");
    }
}

/// The value as Cypher writes it (`toString()`, and a row's JSON).
pub(crate) fn text(t: &Temporal) -> String {
    let mut out = String::new();
    match t {
        Temporal::Date(d) => write_date(&mut out, *d),
        Temporal::LocalTime(n) => write_time(&mut out, *n),
        Temporal::Time(n, o) => {
            write_time(&mut out, *n);
            write_offset(&mut out, *o);
        }
        Temporal::LocalDateTime(d, n) => {
            write_date(&mut out, *d);
            out.push('T');
            write_time(&mut out, *n);
        }
        Temporal::DateTime(d, n, z) => {
            write_date(&mut out, *d);
            out.push('T');
            write_time(&mut out, *n);
            write_offset(&mut out, z.offset);
            if let Some(name) = &z.name {
                out.push('[');
                out.push_str(name);
                out.push(']');
            }
        }
        Temporal::Duration(d) => write_duration(&mut out, d),
    }
    out
}

/// `<`, `>`...: values of one kind; `None` for others and for durations.
pub(crate) fn compare(a: &Temporal, b: &Temporal) -> Option<Ordering> {
    use Temporal as T;
    match (a, b) {
        (T::Date(x), T::Date(y)) => Some(x.cmp(y)),
        (T::LocalTime(x), T::LocalTime(y)) => Some(x.cmp(y)),
        (T::Time(x, ox), T::Time(y, oy)) => Some(
            (i64::from(*ox) * -NANOS_PER_SEC + x)
                .cmp(&(i64::from(*oy) * -NANOS_PER_SEC + y))
                .then(x.cmp(y)),
        ),
        (T::LocalDateTime(dx, nx), T::LocalDateTime(dy, ny)) => Some((dx, nx).cmp(&(dy, ny))),
        (T::DateTime(dx, nx, zx), T::DateTime(dy, ny, zy)) => {
            Some(instant(*dx, *nx, zx.offset).cmp(&instant(*dy, *ny, zy.offset)))
        }
        _ => None,
    }
}

/// ORDER BY's order among temporal values: by kind, then by [`compare`]
/// (durations by their fields).
pub(crate) fn order(a: &Temporal, b: &Temporal) -> Ordering {
    let rank = |t: &Temporal| match t {
        Temporal::DateTime(..) => 0,
        Temporal::LocalDateTime(..) => 1,
        Temporal::Date(_) => 2,
        Temporal::Time(..) => 3,
        Temporal::LocalTime(_) => 4,
        Temporal::Duration(_) => 5,
    };
    rank(a).cmp(&rank(b)).then_with(|| match (a, b) {
        (Temporal::Duration(x), Temporal::Duration(y)) => {
            (x.months, x.days, x.secs, x.nanos).cmp(&(y.months, y.days, y.secs, y.nanos))
        }
        _ => compare(a, b).unwrap_or(Ordering::Equal),
    })
}

/// A field of a temporal value (`d.year`, `t.hour`, `dur.days`...).
pub(crate) fn property(t: &Temporal, key: &str) -> Res<Val> {
    if let Temporal::Duration(d) = t {
        let total_nanos = i128::from(d.secs) * i128::from(NANOS_PER_SEC) + i128::from(d.nanos);
        let int = |v: i128| Val::Int(i64::try_from(v).unwrap_or(i64::MAX));
        return Ok(match key {
            "years" => Val::Int(d.months / 12),
            "quarters" => Val::Int(d.months / 3),
            "months" => Val::Int(d.months),
            "weeks" => Val::Int(d.days / 7),
            "days" => Val::Int(d.days),
            "hours" => Val::Int(d.secs / 3600),
            "minutes" => Val::Int(d.secs / 60),
            "seconds" => Val::Int(d.secs),
            "milliseconds" => int(total_nanos.div_euclid(1_000_000)),
            "microseconds" => int(total_nanos.div_euclid(1_000)),
            "nanoseconds" => int(total_nanos),
            "quartersOfYear" => Val::Int(d.months / 3 % 4),
            "monthsOfQuarter" => Val::Int(d.months % 3),
            "monthsOfYear" => Val::Int(d.months % 12),
            "daysOfWeek" => Val::Int(d.days % 7),
            "minutesOfHour" => Val::Int(d.secs / 60 % 60),
            "secondsOfMinute" => Val::Int(d.secs % 60),
            "millisecondsOfSecond" => Val::Int(d.nanos / 1_000_000),
            "microsecondsOfSecond" => Val::Int(d.nanos / 1_000),
            "nanosecondsOfSecond" => Val::Int(d.nanos),
            _ => return Err(err(format!("a duration has no field `{key}`"))),
        });
    }
    let p = parts(t);
    let no = || err(format!("a {} has no field `{key}`", type_name(t)));
    if let Some(day) = p.day {
        let (y, m, d) = civil_from_days(day);
        let v = match key {
            "year" => Some(y),
            "quarter" => Some((m - 1) / 3 + 1),
            "month" => Some(m),
            "week" => Some(iso_week(day).1),
            "weekYear" => Some(iso_week(day).0),
            "dayOfQuarter" => Some(day - days_from_civil(y, (m - 1) / 3 * 3 + 1, 1) + 1),
            "day" => Some(d),
            "ordinalDay" => Some(day - days_from_civil(y, 1, 1) + 1),
            "dayOfWeek" => Some(day_of_week(day)),
            _ => None,
        };
        if let Some(v) = v {
            return Ok(Val::Int(v));
        }
    }
    if let Some(n) = p.nanos {
        let v = match key {
            "hour" => Some(n / (3600 * NANOS_PER_SEC)),
            "minute" => Some(n / (60 * NANOS_PER_SEC) % 60),
            "second" => Some(n / NANOS_PER_SEC % 60),
            "millisecond" => Some(n % NANOS_PER_SEC / 1_000_000),
            "microsecond" => Some(n % NANOS_PER_SEC / 1_000),
            "nanosecond" => Some(n % NANOS_PER_SEC),
            _ => None,
        };
        if let Some(v) = v {
            return Ok(Val::Int(v));
        }
    }
    if let Some(z) = &p.zone {
        let mut off = String::new();
        write_offset(&mut off, z.offset);
        if off == "Z" {
            off = "+00:00".into();
        }
        match key {
            "timezone" => {
                return Ok(Val::str(z.name.as_deref().map_or(off, str::to_string)));
            }
            "offset" => return Ok(Val::str(off)),
            "offsetMinutes" => return Ok(Val::Int(i64::from(z.offset / 60))),
            "offsetSeconds" => return Ok(Val::Int(i64::from(z.offset))),
            _ => {}
        }
        if let (Some(d), Some(n)) = (p.day, p.nanos) {
            let at = instant(d, n, z.offset);
            let int = |v: i128| Val::Int(i64::try_from(v).unwrap_or(i64::MAX));
            match key {
                "epochSeconds" => return Ok(int(at.div_euclid(i128::from(NANOS_PER_SEC)))),
                "epochMillis" => return Ok(int(at.div_euclid(1_000_000))),
                _ => {}
            }
        }
    }
    Err(no())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trips() {
        for day in [-800_000, -1, 0, 1, 365, 11_000, 2_932_896] {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
        }
        assert_eq!(day_of_week(0), 4);
        assert_eq!(iso_week(days_from_civil(1816, 12, 30)), (1817, 1));
    }

    #[test]
    fn strings_round_trip() {
        let d = parse(Kind::DateTime, "2015-07-21T21:40:32.142+0100").unwrap();
        assert_eq!(text(&d), "2015-07-21T21:40:32.142+01:00");
        let d = parse_duration("P0.75M").unwrap();
        assert_eq!(text(&Temporal::Duration(d)), "P22DT19H51M49.5S");
        let d = parse_duration("PT-1M-0.001S").unwrap();
        assert_eq!(text(&Temporal::Duration(d)), "PT-1M-0.001S");
    }
}
