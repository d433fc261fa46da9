//! Scalar functions beyond the graph and list ones of `exec`: mathematics
//! (`e`, `pi`, `exp`, `log`, `log10`, trigonometry, `degrees`, `radians`,
//! `haversin`, `rand`) and strings (`left`, `right`, `ltrim`, `rtrim`).

use super::QueryError;
use super::value::Val;

type Res<T> = Result<T, QueryError>;

fn err(message: String) -> QueryError {
    QueryError::Runtime { message }
}

/// The functions of this module.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fn {
    E,
    Pi,
    Rand,
    Exp,
    Log,
    Log10,
    Sin,
    Cos,
    Tan,
    Cot,
    Asin,
    Acos,
    Atan,
    Atan2,
    Degrees,
    Radians,
    Haversin,
    Left,
    Right,
    LTrim,
    RTrim,
}

/// Name, function, fewest and most arguments.
pub(crate) const FUNCTIONS: &[(&str, Fn, usize, usize)] = &[
    ("e", Fn::E, 0, 0),
    ("pi", Fn::Pi, 0, 0),
    ("rand", Fn::Rand, 0, 0),
    ("exp", Fn::Exp, 1, 1),
    ("log", Fn::Log, 1, 1),
    ("log10", Fn::Log10, 1, 1),
    ("sin", Fn::Sin, 1, 1),
    ("cos", Fn::Cos, 1, 1),
    ("tan", Fn::Tan, 1, 1),
    ("cot", Fn::Cot, 1, 1),
    ("asin", Fn::Asin, 1, 1),
    ("acos", Fn::Acos, 1, 1),
    ("atan", Fn::Atan, 1, 1),
    ("atan2", Fn::Atan2, 2, 2),
    ("degrees", Fn::Degrees, 1, 1),
    ("radians", Fn::Radians, 1, 1),
    ("haversin", Fn::Haversin, 1, 1),
    ("left", Fn::Left, 2, 2),
    ("right", Fn::Right, 2, 2),
    ("ltrim", Fn::LTrim, 1, 1),
    ("rtrim", Fn::RTrim, 1, 1),
];

thread_local! {
    /// Whether the query running on this thread has called `rand()`.
    static RANDOM_READ: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the query running on this thread has called `rand()` (reset with
/// `reset` as a query starts).
pub(crate) fn random_read(reset: bool) -> bool {
    RANDOM_READ.with(|r| r.replace(r.get() && !reset))
}

/// A float in [0, 1): a xorshift generator seeded from the clock and a
/// per-thread counter (not for secrets).
fn random() -> f64 {
    use std::cell::Cell;
    thread_local! {
        static STATE: Cell<u64> = const { Cell::new(0) };
    }
    RANDOM_READ.with(|r| r.set(true));
    STATE.with(|s| {
        let mut x = s.get();
        if x == 0 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9E37_79B9, |d| d.subsec_nanos());
            x = u64::from(nanos) | 0x1_0000_0000;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s.set(x);
        (x >> 11) as f64 / (1u64 << 53) as f64
    })
}

fn name(f: Fn) -> &'static str {
    FUNCTIONS
        .iter()
        .find(|(_, g, ..)| *g == f)
        .map_or("function", |(n, ..)| n)
}

/// Calls `f`; null in, null out.
pub(crate) fn call(f: Fn, args: Vec<Val>) -> Res<Val> {
    super::charge(1);
    if args.contains(&Val::Null) {
        return Ok(Val::Null);
    }
    let number = |v: &Val| match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(x) => Ok(*x),
        other => Err(err(format!(
            "{}() takes numbers, not a {}",
            name(f),
            other.type_name()
        ))),
    };
    let x = || args.first().map_or(Ok(f64::NAN), number);
    Ok(Val::Float(match f {
        Fn::E => std::f64::consts::E,
        Fn::Pi => std::f64::consts::PI,
        Fn::Rand => random(),
        Fn::Exp => x()?.exp(),
        Fn::Log => x()?.ln(),
        Fn::Log10 => x()?.log10(),
        Fn::Sin => x()?.sin(),
        Fn::Cos => x()?.cos(),
        Fn::Tan => x()?.tan(),
        Fn::Cot => 1.0 / x()?.tan(),
        Fn::Asin => x()?.asin(),
        Fn::Acos => x()?.acos(),
        Fn::Atan => x()?.atan(),
        Fn::Atan2 => x()?.atan2(args.get(1).map_or(Ok(f64::NAN), number)?),
        Fn::Degrees => x()?.to_degrees(),
        Fn::Radians => x()?.to_radians(),
        Fn::Haversin => (1.0 - x()?.cos()) / 2.0,
        Fn::Left | Fn::Right => {
            let (Val::Str(s), n) = (&args[0], &args[1]) else {
                return Err(err(format!(
                    "{}() takes a string and a length, not a {}",
                    name(f),
                    args[0].type_name()
                )));
            };
            let n = match n {
                Val::Int(n) if *n >= 0 => usize::try_from(*n).unwrap_or(usize::MAX),
                other => {
                    return Err(err(format!(
                        "{}() takes a non-negative integer length, not {}",
                        name(f),
                        other.type_name()
                    )));
                }
            };
            let count = s.chars().count();
            let out: String = if f == Fn::Left {
                s.chars().take(n).collect()
            } else {
                s.chars().skip(count.saturating_sub(n)).collect()
            };
            return Ok(Val::str(out));
        }
        Fn::LTrim | Fn::RTrim => {
            let Val::Str(s) = &args[0] else {
                return Err(err(format!(
                    "{}() takes a string, not a {}",
                    name(f),
                    args[0].type_name()
                )));
            };
            return Ok(Val::str(if f == Fn::LTrim {
                s.trim_start()
            } else {
                s.trim_end()
            }));
        }
    }))
}

fn as_f64(v: &Val) -> f64 {
    match v {
        Val::Int(i) => *i as f64,
        Val::Float(x) => *x,
        _ => f64::NAN,
    }
}

/// `stDev()` (the sample's, `population` false) or `stDevP()` of numbers:
/// 0.0 for fewer than two (one for the population's).
pub(crate) fn std_dev(values: &[Val], population: bool) -> Val {
    let n = values.len();
    if n == 0 || (n < 2 && !population) {
        return Val::Float(0.0);
    }
    let mean = values.iter().map(as_f64).sum::<f64>() / n as f64;
    let squares: f64 = values.iter().map(|v| (as_f64(v) - mean).powi(2)).sum();
    let divisor = if population { n } else { n - 1 } as f64;
    Val::Float((squares / divisor).sqrt())
}

/// `percentileCont()` (`interpolate`) or `percentileDisc()` at `p` (0 to 1)
/// of numbers: null for none.
pub(crate) fn percentile(mut values: Vec<Val>, p: f64, interpolate: bool) -> Val {
    let n = values.len();
    if n == 0 {
        return Val::Null;
    }
    super::charge(n as u64);
    values.sort_by(|a, b| as_f64(a).total_cmp(&as_f64(b)));
    if interpolate {
        let at = p * (n - 1) as f64;
        let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
        let (lo, hi) = (lo.min(n - 1), hi.min(n - 1));
        if lo == hi {
            return Val::Float(as_f64(&values[lo]));
        }
        let (a, b) = (as_f64(&values[lo]), as_f64(&values[hi]));
        Val::Float(a * (hi as f64 - at) + b * (at - lo as f64))
    } else {
        let at = p * n as f64;
        let whole = at as usize;
        let index = if p >= 1.0 || n == 1 {
            n - 1
        } else if at != whole as f64 || whole == 0 {
            whole
        } else {
            whole - 1
        };
        values.swap_remove(index.min(n - 1))
    }
}
