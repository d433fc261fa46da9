//! Scalar values as text: how attribute values are written into, and read back
//! from, formats that have no types of their own (DOT, CSV) or typed text (GraphML).

use serde_json::{Number, Value};

/// The text of a scalar: strings as they are, numbers in JSON notation (`1.0`,
/// `-3`, `1e-7`), booleans as `true`/`false`. `None` for null (and for objects and
/// arrays, which attributes never hold).
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Reads untyped text back: exactly `true` or `false` is a boolean, text that is
/// exactly a JSON number (`42`, `-1.5`, `2e3`; no spaces, no leading `+` or zeros)
/// is a number (an integer when it has no fraction or exponent and fits 64 bits),
/// anything else is a string.
pub(crate) fn infer_scalar(text: &str) -> Value {
    match text {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if looks_numeric(text)
        && let Ok(Value::Number(n)) = serde_json::from_str::<Value>(text)
    {
        return Value::Number(n);
    }
    Value::String(text.to_string())
}

/// A cheap pre-check so that ordinary strings never reach the JSON parser.
fn looks_numeric(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c == '-' || c.is_ascii_digit() => {}
        _ => return false,
    }
    text.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
}

/// A weight written as text (CSV cell, DOT or GraphML value): a finite number,
/// surrounding white space allowed. `None` when it is not one.
pub(crate) fn parse_weight(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|w| w.is_finite())
}

/// A JSON number for a finite float (`None` for NaN and infinities).
pub(crate) fn float(value: f64) -> Option<Value> {
    Number::from_f64(value).map(Value::Number)
}

/// A weight in JSON notation (`1.0`, `2.5`, `1e-7`): shortest text that reads back
/// to the same `f64`.
pub(crate) fn weight_text(weight: f64) -> String {
    Number::from_f64(weight).map_or_else(|| weight.to_string(), |n| n.to_string())
}
