//! Input rules shared by every entry point: ids, attributes and weights.
//!
//! The library enforces them, so a program using [`Network`](super::Network) directly
//! gets the same guarantees as an MCP client.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The longest id (node id, network name, attribute key) accepted, in bytes.
pub const MAX_ID_BYTES: usize = 256;

/// Checks an id: non-empty, not only whitespace, at most [`MAX_ID_BYTES`] bytes, no control characters.
///
/// `field` names the parameter in the error message (e.g. `"node_id"`).
#[inline]
pub fn id(field: &str, value: &str) -> Result<()> {
    // Fast path for the usual id: printable ASCII with at least one non-space.
    // Such an id passes every rule below.
    if value.len() <= MAX_ID_BYTES && plain_printable(value.as_bytes()) {
        return Ok(());
    }
    id_slow(field, value)
}

/// Whether `bytes` are printable ASCII (`' '..='~'`), not all spaces, and not
/// empty. Every edge checks two ids, and two byte-by-byte scans were a quarter
/// of a single `add_edge`'s instructions; this checks eight bytes at a time.
/// The ids are read in words (overlapping at the end, which checks some bytes
/// twice), and a byte's lane sets its high bit in `high` when the byte is
/// ≥ 0x80 (its own high bit), 0x7F (+ 0x01 reaches 0x80) or < 0x20 (+ 0x60
/// stays below 0x80). A carry out of a lane only comes from a byte ≥ 0x80,
/// which fails the check anyway.
#[inline]
fn plain_printable(bytes: &[u8]) -> bool {
    const LANES: u64 = u64::from_le_bytes([1; 8]);
    const SPACES: u64 = LANES * b' ' as u64;
    let mut high = 0u64;
    let mut visible = 0u64;
    let mut take = |word: u64| {
        high |= word | word.wrapping_add(LANES) | !word.wrapping_add(LANES * 0x60);
        visible |= word ^ SPACES;
    };
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            bytes[at..at + 4].try_into().unwrap_or_default(),
        ))
    };
    if n >= 8 {
        let mut at = 0;
        while at + 8 <= n {
            take(word(at));
            at += 8;
        }
        if at < n {
            take(word(n - 8));
        }
    } else if n >= 4 {
        take(half(0) | half(n - 4) << 32);
    } else if n > 0 {
        let [first, middle, last] = [bytes[0], bytes[n / 2], bytes[n - 1]].map(u64::from);
        take((SPACES & !0xFF_FFFF) | first | middle << 8 | last << 16);
    } else {
        return false;
    }
    high & (LANES * 0x80) == 0 && visible != 0
}

/// [`id`] for an id that is not printable ASCII, or is invalid: the rules one
/// by one, for the message.
#[inline(never)]
fn id_slow(field: &str, value: &str) -> Result<()> {
    let reason = if value.is_empty() {
        Some("it is empty; give a non-empty string such as \"task_1\"".to_string())
    } else if value.trim().is_empty() {
        Some("it is only whitespace; give a visible name such as \"task_1\"".to_string())
    } else if value.len() > MAX_ID_BYTES {
        Some(format!(
            "it is {} bytes long; the maximum is {MAX_ID_BYTES} bytes",
            value.len()
        ))
    } else {
        value.chars().find(|c| c.is_control()).map(|c| {
            format!(
                "it contains the control character U+{:04X}; remove control characters (newlines, tabs, ...)",
                c as u32
            )
        })
    };
    match reason {
        Some(reason) => Err(Error::InvalidId {
            field: field.to_string(),
            reason,
        }),
        None => Ok(()),
    }
}

/// Checks that `map` is flat: every key follows the id rules and every value is a
/// string, number, boolean or null (no objects, no arrays).
pub fn attributes(field: &str, map: &Map<String, Value>) -> Result<()> {
    for (key, value) in map {
        if let Err(Error::InvalidId { reason, .. }) = id("attribute key", key) {
            return Err(Error::InvalidAttributes {
                field: field.to_string(),
                reason: format!("attribute key '{key}' is not valid: {reason}"),
            });
        }
        let kind = match value {
            Value::Object(_) => "an object",
            Value::Array(_) => "an array",
            _ => continue,
        };
        return Err(Error::InvalidAttributes {
            field: field.to_string(),
            reason: format!(
                "attribute '{key}' is {kind}, but attributes must be flat: each value a string, number, boolean or null. Put nested data in the node's `data` field, or flatten it (e.g. \"{key}_x\": 1)"
            ),
        });
    }
    Ok(())
}

/// Checks that a weight is a finite number (not NaN, not ±infinity).
pub fn weight(value: f64) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::InvalidWeight {
            reason: format!("{value} is not a finite number; give a number such as 1.0"),
        })
    }
}

/// The nesting depth of a JSON value: 0 for a scalar, 1 for `[1]` or `{"a": 1}`.
/// Iterative (an explicit stack), so a value of any depth is measured without
/// recursion; stops early once the depth passes `stop_after`. O(size of the value).
pub fn depth(value: &Value, stop_after: usize) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((value, level)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) if !items.is_empty() => Box::new(items.iter()),
            Value::Object(map) if !map.is_empty() => Box::new(map.values()),
            Value::Array(_) | Value::Object(_) => {
                deepest = deepest.max(level + 1);
                continue;
            }
            _ => continue,
        };
        deepest = deepest.max(level + 1);
        if deepest > stop_after {
            return deepest;
        }
        stack.extend(children.map(|child| (child, level + 1)));
    }
    deepest
}

/// Checks that a node's `data` is nested at most
/// [`MAX_VALUE_DEPTH`](crate::limits::MAX_VALUE_DEPTH) levels deep, so that every
/// accepted value can be written and read back by any format (the journal and
/// snapshot of durable mode wrap it in a few more levels, under serde_json's limit
/// of 128).
pub fn data(field: &str, value: &Value) -> Result<()> {
    let max = crate::limits::MAX_VALUE_DEPTH;
    if depth(value, max) <= max {
        return Ok(());
    }
    Err(Error::InvalidValue {
        field: field.to_string(),
        reason: format!(
            "it nests arrays and objects more than {max} levels deep; the maximum is {max}. Flatten it, or store the deep part as a JSON string"
        ),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::limits::MAX_VALUE_DEPTH;

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!(1), |inner, i| {
            if i % 2 == 0 {
                json!([inner])
            } else {
                json!({ "k": inner })
            }
        })
    }

    #[test]
    fn depth_counts_levels_of_arrays_and_objects() {
        assert_eq!(depth(&json!(1), 99), 0);
        assert_eq!(depth(&json!([]), 99), 1);
        assert_eq!(depth(&json!({"a": [1, {"b": {}}]}), 99), 4);
        assert_eq!(depth(&nested(200), 500), 200);
        assert!(depth(&nested(200), 10) > 10);
    }

    #[test]
    fn data_at_the_limit_passes_and_one_deeper_is_refused() {
        assert!(data("data", &nested(MAX_VALUE_DEPTH)).is_ok());
        let error = data("data", &nested(MAX_VALUE_DEPTH + 1)).unwrap_err();
        assert_eq!(error.code(), "invalid_value");
        assert!(error.to_string().contains("levels deep"));
    }

    /// The word-at-a-time check against its definition, for every length up to
    /// 40 with each boundary byte at each position, on a background of letters
    /// and of spaces.
    #[test]
    fn plain_printable_is_printable_ascii_and_not_blank() {
        let naive = |b: &[u8]| {
            !b.is_empty()
                && b.iter().all(|c| (b' '..=b'~').contains(c))
                && b.iter().any(|&c| c != b' ')
        };
        let odd = [
            0x00, 0x1F, b' ', b'!', b'a', b'~', 0x7F, 0x80, 0x9F, 0xA0, 0xDF, 0xE0, 0xFF,
        ];
        for n in 0..=40 {
            for background in [b'a', b' '] {
                let base = vec![background; n];
                assert_eq!(plain_printable(&base), naive(&base), "{base:?}");
                for at in 0..n {
                    for &c in &odd {
                        let mut b = base.clone();
                        b[at] = c;
                        assert_eq!(plain_printable(&b), naive(&b), "{b:?}");
                        // And next to a byte that carries out of its lane.
                        if at + 1 < n {
                            b[at + 1] = 0xFF;
                            assert_eq!(plain_printable(&b), naive(&b), "{b:?}");
                        }
                    }
                }
            }
        }
    }
}
