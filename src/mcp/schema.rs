//! Post-processing of the schemas schemars generates, so that strict clients and
//! validators accept them and an LLM reads them easily.

use rmcp::model::JsonObject;
use serde_json::{Value, json};

/// Formats schemars adds for Rust number types that JSON Schema does not define.
const RUST_FORMATS: [&str; 8] = [
    "uint", "uint8", "uint16", "uint32", "uint64", "int32", "int64", "double",
];

/// Removes non-standard `format` words, and turns an optional parameter's
/// `"type": [T, "null"]` into `"type": T` (omitting it is how to say "none").
pub fn tidy_input(mut schema: JsonObject) -> JsonObject {
    strip_rust_formats(&mut schema);
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if required.contains(name) {
                continue;
            }
            if let Some(Value::Array(types)) = property.get_mut("type") {
                let non_null: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
                if non_null.len() == 1 {
                    property["type"] = non_null[0].clone();
                }
            }
            if property.get("default") == Some(&Value::Null)
                && let Some(p) = property.as_object_mut()
            {
                p.remove("default");
            }
        }
    }
    schema
}

/// The published output schema: the success shape, or the error object every
/// tool returns on failure. MCP requires `structuredContent` to match the output
/// schema, error results included. The root keeps `"type": "object"` (a bare
/// `oneOf` at the root is rejected by some clients) and the shared `$defs`.
pub fn success_or_error(mut success: JsonObject) -> JsonObject {
    strip_rust_formats(&mut success);
    let mut root = JsonObject::new();
    for key in ["$schema", "$defs"] {
        if let Some(value) = success.remove(key) {
            root.insert(key.to_string(), value);
        }
    }
    root.insert("type".into(), json!("object"));
    root.insert(
        "anyOf".into(),
        json!([
            Value::Object(success),
            {
                "type": "object",
                "description": "The error object returned (with isError: true) when the call fails; nothing was changed.",
                "properties": {
                    "status": { "const": "error" },
                    "error": { "type": "string", "description": "What went wrong and how to fix it." },
                    "code": { "type": "string", "description": "Stable machine-readable error code, e.g. node_not_found." }
                },
                "required": ["status", "error", "code"]
            }
        ]),
    );
    root
}

fn strip_rust_formats(schema: &mut JsonObject) {
    if let Some(Value::String(format)) = schema.get("format")
        && RUST_FORMATS.contains(&format.as_str())
    {
        schema.remove("format");
    }
    for value in schema.values_mut() {
        strip_value(value);
    }
}

fn strip_value(value: &mut Value) {
    match value {
        Value::Object(map) => strip_rust_formats(map),
        Value::Array(items) => items.iter_mut().for_each(strip_value),
        _ => {}
    }
}
