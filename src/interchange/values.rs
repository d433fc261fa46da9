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
/// anything else is a string. An integer past 64 bits ([`is_big_integer`]) stays a
/// string holding its exact text: as a JSON number it would become the nearest
/// `f64`, and two different integers could read back as one value. This is the
/// one place the text formats (CSV, DOT) infer a number from text.
pub(crate) fn infer_scalar(text: &str) -> Value {
    match text {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if is_big_integer(text) {
        return Value::String(text.to_string());
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

/// Whether `text` is an integer in JSON's grammar (`-?(0|[1-9][0-9]*)`) whose value
/// does not fit 64 bits: below −2^63 or above 2^64 − 1. Such an integer has at
/// least 19 digits.
pub(crate) fn is_big_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() >= 19
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
        && text.parse::<i64>().is_err()
        && text.parse::<u64>().is_err()
}

/// Parses JSON keeping integers past 64 bits exact: each such integer literal in
/// a value position becomes a JSON string holding its exact decimal text (ids,
/// attribute values, `data` alike). Also says whether any did, so that a reader
/// can take a quoted integer where only a number is meant (an edge weight).
///
/// Why not serde_json's `arbitrary_precision` feature, which keeps every number's
/// text: features are unified across the build, so it would change `Number` for
/// every crate that uses serde_json here, rmcp's JSON-RPC frames, the journal and
/// snapshots among them (numbers inside untagged enums, which JSON-RPC ids use,
/// then deserialize as maps), and make every number carry a heap string. Why not
/// a visitor: serde_json turns such a literal into an `f64` before any visitor
/// sees it. So the integers are found on the text instead: a pass that only
/// counts digit runs (an integer past 64 bits has at least 19 digits) clears
/// almost every document at once; only one with such a run is scanned token by
/// token (strings skipped, containers tracked so that only values, never keys,
/// are touched) and parsed with those literals quoted. A quoted literal is
/// valid wherever the number was, so every document that parsed still parses
/// (and one whose integer was past even `f64`'s range now parses too, keeping
/// it); an error is reported from the original text, so its line and column
/// are the document's. O(size of the document).
pub(crate) fn parse_json_exact(text: &str) -> Result<(Value, bool), serde_json::Error> {
    let (quoted_text, quoted) = quote_big_integers(text);
    match serde_json::from_str(&quoted_text) {
        Ok(value) => Ok((value, quoted)),
        Err(e) if quoted => Err(serde_json::from_str::<Value>(text).err().unwrap_or(e)),
        Err(e) => Err(e),
    }
}

/// The JSON text with each integer literal past 64 bits that stands as a value
/// quoted (see [`parse_json_exact`]), and whether any was; borrowed when none
/// was. O(size of the text).
pub(crate) fn quote_big_integers(text: &str) -> (std::borrow::Cow<'_, str>, bool) {
    let spans = big_integer_literals(text);
    if spans.is_empty() {
        return (std::borrow::Cow::Borrowed(text), false);
    }
    let mut quoted = String::with_capacity(text.len() + 2 * spans.len());
    let mut at = 0;
    for (start, end) in spans {
        quoted.push_str(&text[at..start]);
        quoted.push('"');
        quoted.push_str(&text[start..end]);
        quoted.push('"');
        at = end;
    }
    quoted.push_str(&text[at..]);
    (std::borrow::Cow::Owned(quoted), true)
}

/// Whether `bytes` hold `len` digits in a row. Any `len` bytes in a row cover
/// exactly one position `p` with `p % len == len - 1`, so only those positions
/// are read first, and a run is measured only around a digit found there:
/// about `1/len` of the bytes of a document without such a run are read.
fn has_digit_run(bytes: &[u8], len: usize) -> bool {
    let mut p = len - 1;
    while p < bytes.len() {
        if bytes[p].is_ascii_digit() {
            let start = bytes[..p]
                .iter()
                .rposition(|b| !b.is_ascii_digit())
                .map_or(0, |i| i + 1);
            let end = bytes[p..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(bytes.len(), |i| p + i);
            if end - start >= len {
                return true;
            }
        }
        p += len;
    }
    false
}

/// The byte ranges of the integer literals past 64 bits that stand as values
/// (not keys, not inside strings) in the JSON text, in order. Empty for a
/// document nested deeper than serde_json reads (it is refused anyway).
fn big_integer_literals(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    if !has_digit_run(bytes, 19) {
        return Vec::new();
    }
    let mut spans = Vec::new();
    // The open containers (`{` or `[`), and the last significant byte outside
    // strings (0 at the start): together they say whether a value may start.
    let mut open: Vec<u8> = Vec::new();
    let mut previous = 0u8;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                previous = b'"';
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'{' | b'[' => {
                if open.len() >= 128 {
                    return Vec::new();
                }
                open.push(b);
            }
            b'}' | b']' => {
                open.pop();
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                let mut digits_end = i + usize::from(b == b'-');
                while digits_end < bytes.len() && bytes[digits_end].is_ascii_digit() {
                    digits_end += 1;
                }
                let mut end = digits_end;
                while end < bytes.len()
                    && matches!(bytes[end], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    end += 1;
                }
                let value_position = match previous {
                    0 => open.is_empty(),
                    b':' | b'[' => true,
                    b',' => open.last() == Some(&b'['),
                    _ => false,
                };
                if end == digits_end && value_position && is_big_integer(&text[start..end]) {
                    spans.push((start, end));
                }
                previous = b'0';
                i = end;
                continue;
            }
            _ => {}
        }
        previous = b;
        i += 1;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::has_digit_run;

    /// Digit runs found by stride agree with a byte-by-byte count, for runs
    /// placed at every offset around the strides.
    #[test]
    fn digit_runs_found_by_stride_agree_with_counting() {
        let naive = |bytes: &[u8], len: usize| {
            let mut run = 0;
            bytes.iter().any(|b| {
                run = if b.is_ascii_digit() { run + 1 } else { 0 };
                run >= len
            })
        };
        for total in [0, 1, 18, 19, 20, 40, 100] {
            for run in [0, 1, 17, 18, 19, 20, 57] {
                for at in 0..total {
                    let mut text = vec![b'x'; total];
                    for b in text.iter_mut().skip(at).take(run) {
                        *b = b'7';
                    }
                    assert_eq!(
                        has_digit_run(&text, 19),
                        naive(&text, 19),
                        "{}",
                        String::from_utf8_lossy(&text)
                    );
                }
            }
        }
    }
}
