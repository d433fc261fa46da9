//! Post-processing of the schemas schemars generates, so that strict clients and
//! validators accept them, an LLM reads them easily, and `tools/list` stays within
//! its budget (see BENCHMARKS.md, "The tool list").
//!
//! - Input schemas are what a model reads before every conversation. Each fact is
//!   said once: ranges and defaults by `minimum`, `maximum` and `default`, the
//!   meaning of an enum's words in the parameter's description, so an enum becomes
//!   a plain `"enum": [...]`. Rust's type names and formats are dropped.
//! - Output schemas are read by programs that validate `structuredContent`: they
//!   keep every type, property and `required` list, and drop the prose, which
//!   lives in `specs/`.

use rmcp::model::JsonObject;
use serde_json::{Map, Value, json};

use super::instructions::{SHARED_PARAMETERS, UNLISTED_PARAMETERS};

/// Formats schemars adds for Rust number types that JSON Schema does not define.
const RUST_FORMATS: [&str; 8] = [
    "uint", "uint8", "uint16", "uint32", "uint64", "int32", "int64", "double",
];

/// Keywords whose value is a map of name → subschema.
const SCHEMA_MAPS: [&str; 4] = ["properties", "$defs", "definitions", "patternProperties"];
/// Keywords whose value is one subschema.
const SCHEMA_ONE: [&str; 8] = [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
];
/// Keywords whose value is a list of subschemas.
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// The published input schema: root metadata dropped, string enums inlined as
/// `"enum"` lists, an optional parameter's `"type": [T, "null"]` turned into
/// `"type": T` (omitting it is how to say "none"), and no Rust formats.
pub fn tidy_input(mut schema: JsonObject) -> JsonObject {
    // `additionalProperties: false` at the root is left out: an unknown
    // parameter is refused with the expected ones named, and every host pays
    // for the keyword in every tools/list.
    for key in ["$schema", "title", "description", "additionalProperties"] {
        schema.remove(key);
    }
    inline_enums(&mut schema);
    // A definition's own description repeats the property that refers to it.
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        for def in defs.values_mut() {
            if let Some(def) = def.as_object_mut() {
                def.remove("description");
            }
        }
    }
    walk(&mut schema, &mut |object| {
        strip_rust_format(object);
        object.remove("title");
        // Omitting an optional value is how to say "none", or the empty list,
        // map or text, or false.
        if object.get("default").is_some_and(says_nothing) {
            object.remove("default");
        }
        // An enum of strings says its type by its words.
        if object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|words| words.iter().all(Value::is_string))
        {
            object.remove("type");
        }
        // A list's upper bound is refused with the bound named.
        object.remove("maxItems");
        // Any extra key is refused by the decoder with the expected ones named.
        if object
            .get("additionalProperties")
            .is_some_and(Value::is_boolean)
        {
            object.remove("additionalProperties");
        }
    });
    // A shared parameter is explained once, in the server instructions.
    // Batch items ($defs) share them too.
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        said_once(properties);
    }
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        for def in defs.values_mut() {
            if let Some(Value::Object(properties)) = def.get_mut("properties") {
                said_once(properties);
            }
        }
    }
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

/// The input schema as `tools/list` publishes it: without the attribute-name
/// parameters, which the instructions explain once and the tool still accepts
/// (the decoder checks arguments against the whole schema).
pub fn published(accepted: &JsonObject) -> JsonObject {
    let mut published = accepted.clone();
    if let Some(Value::Object(properties)) = published.get_mut("properties") {
        properties.retain(|name, _| !UNLISTED_PARAMETERS.contains(&name.as_str()));
    }
    published
}

/// Drops from the shared parameters among `properties` what the instructions say.
fn said_once(properties: &mut Map<String, Value>) {
    for (name, property) in properties.iter_mut() {
        if SHARED_PARAMETERS.contains(&name.as_str())
            && let Some(property) = property.as_object_mut()
        {
            property.remove("description");
            // The instructions give every shared default but the page size,
            // which differs by tool. Ranges stay: the schema is the one
            // statement of each, and the decoder checks them against it.
            if name != "limit" {
                property.remove("default");
            }
        }
    }
}

/// Whether a `default` says only what omitting the parameter says anyway.
fn says_nothing(default: &Value) -> bool {
    match default {
        Value::Null | Value::Bool(false) => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        Value::Number(_) | Value::Bool(true) => false,
    }
}

/// Makes a write tool's schemas say that it is versioned: the optional
/// `if_version` parameter (compare-and-swap on the network's version) and the
/// `version` the write left the network at in its reply.
pub fn add_versioning(input: &mut JsonObject, output: &mut JsonObject) {
    if let Some(Value::Object(properties)) = input.get_mut("properties") {
        properties.insert(
            "if_version".into(),
            // Explained once, in the server instructions.
            json!({ "type": "integer", "minimum": 0 }),
        );
    }
    if let Some(Value::Object(properties)) = output.get_mut("properties") {
        properties.insert("version".into(), json!({ "type": "integer" }));
    }
}

/// Every success may carry `warnings` (see [`crate::warnings`]): the output
/// schema says so once per tool, as `[{code, message}]`.
pub fn add_warnings(output: &mut JsonObject) {
    if let Some(Value::Object(properties)) = output.get_mut("properties") {
        properties.insert(
            "warnings".into(),
            // Each item is `{code, message}`; the vocabulary says so once
            // rather than every tool's schema.
            json!({ "type": "array", "items": { "type": "object" } }),
        );
    }
}

/// A call's warnings as the reply spells them.
pub fn warnings_value(warnings: &[crate::warnings::Warning]) -> Value {
    Value::Array(
        warnings
            .iter()
            .map(|w| json!({ "code": w.code.as_str(), "message": w.message }))
            .collect(),
    )
}

/// The published output schema: the success shape, or the error object every
/// tool returns on failure. MCP requires `structuredContent` to match the output
/// schema, error results included. The root keeps `"type": "object"` (a bare
/// `anyOf` at the root is rejected by some clients) and the shared `$defs`.
pub fn success_or_error(mut success: JsonObject) -> JsonObject {
    for key in ["$schema", "title", "description"] {
        success.remove(key);
    }
    inline_enums(&mut success);
    walk(&mut success, &mut |object| {
        strip_rust_format(object);
        // Prose, and bounds the server itself keeps: nothing a validator needs.
        for key in ["title", "description", "minimum", "maximum", "default"] {
            object.remove(key);
        }
        if object.get("additionalProperties") == Some(&Value::Bool(true)) {
            object.remove("additionalProperties");
        }
        // A field the server omits rather than sets to null.
        if let Some(Value::Array(types)) = object.get("type")
            && let [only, null] = types.as_slice()
            && null == "null"
        {
            let only = only.clone();
            object.insert("type".into(), only);
        }
        // Which fields a success always has is the spec's to say: a validator
        // needs none of it, and every host pays for it in every tools/list.
        object.remove("required");
        // An enum of strings says its type by its words.
        if object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|words| words.iter().all(Value::is_string))
        {
            object.remove("type");
        }
        // A choice of one word is that word.
        if let Some(Value::Array(words)) = object.get("enum")
            && let [word] = words.as_slice()
        {
            let word = word.clone();
            object.remove("enum");
            object.remove("type");
            object.insert("const".into(), word);
        }
    });
    // The root says "object" once for both branches.
    success.remove("type");
    let mut root = JsonObject::new();
    if let Some(defs) = success.remove("$defs") {
        root.insert("$defs".into(), defs);
    }
    root.insert("type".into(), json!("object"));
    // Every reply, success or error, has its `status`: said once, at the root.
    root.insert("required".into(), json!(["status"]));
    root.insert(
        "anyOf".into(),
        json!([
            Value::Object(success),
            // The error object: what sets it apart from every success shape is
            // that it has `error` and `code`.
            { "required": ["error", "code"] }
        ]),
    );
    root
}

/// Replaces every `$ref` to a definition that is only a choice of strings by
/// `{"type": "string", "enum": [...]}` (the referring property keeps its own
/// description and default), then drops the definitions nothing refers to.
fn inline_enums(schema: &mut JsonObject) {
    let Some(Value::Object(defs)) = schema.get("$defs") else {
        return;
    };
    let enums: Map<String, Value> = defs
        .iter()
        .filter_map(|(name, def)| string_choices(def).map(|words| (name.clone(), words)))
        .collect();
    if enums.is_empty() {
        return;
    }
    walk(schema, &mut |object| {
        let Some(Value::String(target)) = object.get("$ref") else {
            return;
        };
        let Some(words) = target
            .strip_prefix("#/$defs/")
            .and_then(|name| enums.get(name))
        else {
            return;
        };
        let words = words.clone();
        object.remove("$ref");
        object.insert("type".into(), json!("string"));
        object.insert("enum".into(), words);
    });
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        defs.retain(|name, _| !enums.contains_key(name));
        if defs.is_empty() {
            schema.remove("$defs");
        }
    }
}

/// The words of a definition that is a choice of strings: a `oneOf` of `const`s
/// (a documented Rust enum), or an `enum` list.
fn string_choices(def: &Value) -> Option<Value> {
    if let Some(Value::Array(words)) = def.get("enum") {
        return words.iter().all(Value::is_string).then(|| json!(words));
    }
    let variants = def.get("oneOf")?.as_array()?;
    let words: Option<Vec<Value>> = variants
        .iter()
        .map(|v| v.get("const").filter(|c| c.is_string()).cloned())
        .collect();
    words.map(Value::Array)
}

/// A `format` that only names a Rust type says nothing to a JSON client.
fn strip_rust_format(object: &mut JsonObject) {
    if let Some(Value::String(format)) = object.get("format")
        && RUST_FORMATS.contains(&format.as_str())
    {
        object.remove("format");
    }
}

/// Calls `visit` on `schema` and on every subschema in it, by keyword: a
/// property that happens to be named `description` or `title` is a name in a
/// `properties` map, never mistaken for the keyword.
fn walk(schema: &mut JsonObject, visit: &mut dyn FnMut(&mut JsonObject)) {
    visit(schema);
    for (key, value) in schema.iter_mut() {
        let key = key.as_str();
        if SCHEMA_MAPS.contains(&key) {
            if let Value::Object(map) = value {
                for sub in map.values_mut() {
                    if let Value::Object(sub) = sub {
                        walk(sub, visit);
                    }
                }
            }
        } else if SCHEMA_ONE.contains(&key) {
            if let Value::Object(sub) = value {
                walk(sub, visit);
            }
        } else if SCHEMA_LISTS.contains(&key)
            && let Value::Array(items) = value
        {
            for sub in items {
                if let Value::Object(sub) = sub {
                    walk(sub, visit);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn shared_parameters_lose_what_the_instructions_say_and_unlisted_ones_are_not_published() {
        let schema = object(json!({
            "type": "object",
            "properties": {
                "limit": { "description": "Items per page.", "type": "integer", "default": 100, "minimum": 1, "maximum": 1000 },
                "relations": { "description": "Types.", "type": "array", "items": { "type": "string" }, "default": [] },
                "parent_attribute": { "description": "Parent.", "type": "string", "default": "parent" },
                "reverse": { "description": "Backwards.", "type": "boolean", "default": false }
            },
            "additionalProperties": false
        }));
        let accepted = tidy_input(schema);
        assert_eq!(
            Value::Object(accepted.clone()),
            json!({
                "type": "object",
                "properties": {
                    "limit": { "type": "integer", "default": 100, "minimum": 1, "maximum": 1000 },
                    "relations": { "type": "array", "items": { "type": "string" } },
                    "parent_attribute": { "description": "Parent.", "type": "string", "default": "parent" },
                    "reverse": { "description": "Backwards.", "type": "boolean" }
                }
            })
        );
        let published = Value::Object(published(&accepted));
        assert!(published["properties"].get("parent_attribute").is_none());
        assert!(published["properties"].get("limit").is_some());
    }

    #[test]
    fn enums_are_inlined_and_a_property_named_description_survives() {
        let schema = object(json!({
            "$schema": "x", "title": "P", "description": "Parameters.",
            "type": "object",
            "properties": {
                "direction": { "description": "Which way.", "$ref": "#/$defs/Direction", "default": "out" },
                "description": { "description": "Free text.", "type": "string" }
            },
            "$defs": { "Direction": { "oneOf": [ { "const": "out" }, { "const": "in" } ] } }
        }));
        let tidy = Value::Object(tidy_input(schema.clone()));
        assert_eq!(
            tidy,
            json!({
                "type": "object",
                "properties": {
                    "direction": { "description": "Which way.", "enum": ["out", "in"], "default": "out" },
                    "description": { "description": "Free text.", "type": "string" }
                }
            })
        );
        let output = Value::Object(success_or_error(schema));
        let success = &output["anyOf"][0];
        assert_eq!(
            success["properties"]["description"],
            json!({ "type": "string" })
        );
        assert!(
            success["properties"]["direction"]
                .get("description")
                .is_none()
        );
    }
}
