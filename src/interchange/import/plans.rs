//! What the readers of other tools' plan files share (Task Master, Beads, the
//! memory server): JSON read with exact big integers and errors at a line and
//! column, JSONL read line by line, and the conventions of issue 27 for what
//! those tools call a relation, a parent, labels and a priority.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::interchange::{Format, invalid, values};

/// The edge attribute holding an edge's relation type (`blocks`, `related`, ...).
pub(crate) const RELATION: &str = "relation";
/// The node attribute holding the id of the node's parent (its epic).
pub(crate) const PARENT: &str = "parent";
/// The node attribute holding a node's labels, joined with [`LABEL_SEPARATOR`].
pub(crate) const LABELS: &str = "labels";
/// Labels are one string attribute (attributes are flat scalars): joined with this.
pub(crate) const LABEL_SEPARATOR: &str = ",";

/// Parses one JSON document (or one line of a JSONL document, starting at byte
/// `offset` on line `line`), keeping integers past 64 bits exact. A syntax
/// error names its line and column in the whole document.
pub(crate) fn json(format: Format, text: &str, line: usize) -> Result<Value> {
    values::parse_json_exact(text)
        .map(|(value, _)| value)
        .map_err(|e| {
            invalid(
                format,
                Some(format!(
                    "line {}, column {}",
                    line + e.line().saturating_sub(1),
                    e.column()
                )),
                format!("not valid JSON: {e}; each line must be one JSON object"),
            )
        })
}

/// The non-blank lines of a JSONL document, each with its 1-based line number.
/// A byte-order mark and `\r` line ends are allowed.
pub(crate) fn lines(content: &str) -> impl Iterator<Item = (usize, &str)> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    content
        .split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
        .filter(|(_, line)| !line.trim().is_empty())
}

/// An id written as a JSON string or number (`3` → `"3"`).
pub(crate) fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The error for a field of the wrong type or missing.
pub(crate) fn field_error(format: Format, location: String, message: impl Into<String>) -> Error {
    invalid(format, Some(location), message)
}

/// Moves the scalar field `from` of `object` into `attributes` as `to`: strings,
/// numbers and booleans as they are; null or absent adds nothing. An array or
/// object is left in `object` (it goes to the node's `data`).
pub(crate) fn take_scalar(
    object: &mut Map<String, Value>,
    from: &str,
    to: &str,
    attributes: &mut Map<String, Value>,
) {
    match object.get(from) {
        Some(Value::String(_) | Value::Number(_) | Value::Bool(_)) => {
            if let Some(value) = object.shift_remove(from) {
                attributes.insert(to.to_string(), value);
            }
        }
        Some(Value::Null) => {
            object.shift_remove(from);
        }
        _ => {}
    }
}

/// Moves a list of labels (`from`, an array of strings) into the `labels`
/// attribute, joined with [`LABEL_SEPARATOR`]; an empty list adds nothing.
/// Anything but an array of strings is an error at `location`.
pub(crate) fn take_labels(
    format: Format,
    object: &mut Map<String, Value>,
    from: &str,
    attributes: &mut Map<String, Value>,
    location: impl FnOnce() -> String,
) -> Result<()> {
    let Some(value) = object.shift_remove(from) else {
        return Ok(());
    };
    let items = match value {
        Value::Null => return Ok(()),
        Value::Array(items) => items,
        _ => {
            return Err(field_error(
                format,
                location(),
                format!("\"{from}\" must be an array of strings"),
            ));
        }
    };
    let mut labels = Vec::with_capacity(items.len());
    for item in &items {
        match item {
            Value::String(s) => labels.push(s.as_str()),
            _ => {
                return Err(field_error(
                    format,
                    location(),
                    format!("\"{from}\" must be an array of strings"),
                ));
            }
        }
    }
    if !labels.is_empty() {
        attributes.insert(LABELS.into(), Value::from(labels.join(LABEL_SEPARATOR)));
    }
    Ok(())
}

/// What is left of a record once its mapped fields are taken: the node's
/// `data` (an object), or none when nothing is left.
pub(crate) fn rest(object: Map<String, Value>) -> Option<Value> {
    (!object.is_empty()).then_some(Value::Object(object))
}
