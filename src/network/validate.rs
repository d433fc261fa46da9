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
pub fn id(field: &str, value: &str) -> Result<()> {
    // Fast path for the usual id: printable ASCII with at least one non-space.
    // Such an id passes every rule below, and the test is one pass over the bytes.
    let bytes = value.as_bytes();
    if bytes.len() <= MAX_ID_BYTES
        && bytes.iter().all(|&b| (b' '..=b'~').contains(&b))
        && bytes.iter().any(|&b| b != b' ')
    {
        return Ok(());
    }
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
