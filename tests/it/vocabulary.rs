//! One word, one meaning: every field of every tool's input and output schema is
//! a name `specs/vocabulary.md` lists, with the JSON shape it lists for it. A new
//! field that the vocabulary does not know, or a known name used for another
//! kind of value (`nodes` as a count, `path` as a list of ids where a path is an
//! object), fails here with the tool and the place in its schema.

use std::collections::BTreeMap;
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};
use serde_json::{Map, Value};

/// A field's shape: `string`, `integer`, `number`, `boolean`, `object`, `any`,
/// or `array<shape>`. Enums and constants are the type of their values; an
/// optional value (`null` allowed) is its other type.
fn shape(schema: &Value, defs: &Map<String, Value>) -> String {
    let Some(object) = schema.as_object() else {
        return "any".into();
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return defs
            .get(name)
            .map_or_else(|| "any".into(), |def| shape(def, defs));
    }
    if let Some(constant) = object.get("const") {
        return json_type(constant).into();
    }
    if let Some(values) = object.get("enum").and_then(Value::as_array) {
        let mut types: Vec<&str> = values
            .iter()
            .map(json_type)
            .filter(|t| *t != "null")
            .collect();
        types.dedup();
        if let [one] = types.as_slice() {
            return (*one).into();
        }
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(branches) = object.get(union).and_then(Value::as_array) {
            let mut shapes: Vec<String> = branches
                .iter()
                .map(|branch| shape(branch, defs))
                .filter(|s| s != "null")
                .collect();
            shapes.sort();
            shapes.dedup();
            if let [one] = shapes.as_slice() {
                return one.clone();
            }
            return "any".into();
        }
    }
    let types: Vec<&str> = match object.get("type") {
        Some(Value::String(t)) => vec![t],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types == ["null"] {
        return "null".into();
    }
    let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    match types.as_slice() {
        ["array"] => format!(
            "array<{}>",
            object
                .get("items")
                .map_or_else(|| "any".into(), |items| shape(items, defs))
        ),
        [one] => (*one).into(),
        _ if object.contains_key("properties") => "object".into(),
        _ => "any".into(),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Every named field under `schema`: (place in the schema, name, shape).
fn fields(
    schema: &Value,
    defs: &Map<String, Value>,
    place: &str,
    seen_defs: &mut Vec<String>,
    out: &mut Vec<(String, String, String)>,
) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or_default().to_string();
        if !seen_defs.contains(&name) {
            seen_defs.push(name.clone());
            if let Some(def) = defs.get(&name) {
                fields(def, defs, place, seen_defs, out);
            }
        }
        return;
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (name, property) in properties {
            let here = format!("{place}.{name}");
            out.push((here.clone(), name.clone(), shape(property, defs)));
            fields(property, defs, &here, seen_defs, out);
        }
    }
    if let Some(items) = object.get("items") {
        fields(items, defs, &format!("{place}[]"), seen_defs, out);
    }
    for union in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = object.get(union) {
            for branch in branches {
                fields(branch, defs, place, seen_defs, out);
            }
        }
    }
}

/// The vocabulary's rows: exact names and `*`-patterns, each with its shape.
struct Vocabulary {
    exact: BTreeMap<String, String>,
    /// (suffix after `*`, shape).
    patterns: Vec<(String, String)>,
}

impl Vocabulary {
    fn load() -> Self {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/vocabulary.md"),
        )
        .expect("specs/vocabulary.md");
        let mut exact = BTreeMap::new();
        let mut patterns = Vec::new();
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | `name` | shape | meaning |
            let [_, name, shape, _meaning, ..] = cells.as_slice() else {
                continue;
            };
            let Some(name) = name.strip_prefix('`').and_then(|n| n.strip_suffix('`')) else {
                continue;
            };
            let shape = shape.trim_matches('`').to_string();
            if let Some(suffix) = name.strip_prefix('*') {
                patterns.push((suffix.to_string(), shape));
            } else {
                assert!(
                    exact.insert(name.to_string(), shape).is_none(),
                    "specs/vocabulary.md lists `{name}` twice"
                );
            }
        }
        assert!(exact.len() > 50, "specs/vocabulary.md lists too few names");
        Vocabulary { exact, patterns }
    }

    /// The shape the vocabulary gives `name`, if it knows it.
    fn shape_of(&self, name: &str) -> Option<&str> {
        self.exact.get(name).map(String::as_str).or_else(|| {
            self.patterns
                .iter()
                .find(|(suffix, _)| name.ends_with(suffix.as_str()) && name.len() > suffix.len())
                .map(|(_, shape)| shape.as_str())
        })
    }
}

fn every_tool() -> Vec<rmcp::model::Tool> {
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    };
    NetworksServer::new(Arc::new(NetworkRegistry::new()), options)
        .listed_tools()
        .to_vec()
}

#[test]
fn every_field_of_every_tool_is_a_vocabulary_word_with_its_one_shape() {
    let vocabulary = Vocabulary::load();
    let mut faults = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for tool in every_tool() {
        let schemas = [
            ("input", Value::Object((*tool.input_schema).clone())),
            (
                "output",
                tool.output_schema
                    .as_ref()
                    .map_or(Value::Null, |s| Value::Object((**s).clone())),
            ),
        ];
        for (side, schema) in schemas {
            let defs = schema
                .get("$defs")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let mut found = Vec::new();
            fields(&schema, &defs, "", &mut Vec::new(), &mut found);
            for (place, name, shape) in found {
                used.insert(name.clone());
                match vocabulary.shape_of(&name) {
                    None => faults.push(format!(
                        "{} {side} {place}: `{name}` ({shape}) is not in specs/vocabulary.md",
                        tool.name
                    )),
                    Some(listed) if listed != "any" && listed != shape => faults.push(format!(
                        "{} {side} {place}: `{name}` is {shape}, but specs/vocabulary.md gives it as {listed}",
                        tool.name
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // A word no tool uses any more is a stale row. The parameters every tool
    // accepts though its schema leaves them out are used.
    let stale: Vec<&String> = vocabulary
        .exact
        .keys()
        .filter(|name| !used.contains(*name))
        .filter(|name| !networks_mcp::mcp::UNLISTED_PARAMETERS.contains(&name.as_str()))
        .collect();
    assert!(
        stale.is_empty(),
        "specs/vocabulary.md lists words no tool uses: {stale:?}"
    );
}

#[test]
fn the_shape_walk_sees_what_it_must_reject() {
    // The checker itself: a count named like a list, and an unknown word.
    let vocabulary = Vocabulary::load();
    let schema = serde_json::json!({
        "properties": {
            "node_ids": {"type": "integer"},
            "nodes_total": {"type": "integer"},
            "edge_count": {"type": ["integer", "null"]},
            "layers": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
        }
    });
    let mut found = Vec::new();
    fields(&schema, &Map::new(), "", &mut Vec::new(), &mut found);
    let verdicts: BTreeMap<String, bool> = found
        .into_iter()
        .map(|(_, name, shape)| {
            let ok = vocabulary
                .shape_of(&name)
                .is_some_and(|listed| listed == "any" || listed == shape);
            (name, ok)
        })
        .collect();
    assert!(!verdicts["node_ids"], "a count named like a list");
    assert!(!verdicts["nodes_total"], "an unknown word");
    assert!(verdicts["edge_count"], "an optional count is a count");
    assert!(verdicts["layers"], "a list of lists");
}
