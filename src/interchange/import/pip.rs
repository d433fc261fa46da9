//! Reads the output of `pipdeptree --json` (`-o json`): a flat list, one entry
//! per installed distribution, `{"package": {"key", "package_name",
//! "installed_version"}, "dependencies": [{"key", "package_name",
//! "installed_version", "required_version"}, ...]}`; and of `pipdeptree
//! --json-tree` (`-o json-tree`): the same packages nested, each entry
//! `{"key", "package_name", "installed_version", "required_version",
//! "dependencies": [...]}`, walked with a stack (no recursion).
//!
//! A Python environment holds one version of a distribution, so each is a node
//! whose id is its `key` (the normalised name pipdeptree gives, `typing-extensions`),
//! with the attributes `name` (`package_name`), `version` (`installed_version`,
//! absent when pipdeptree writes `?`) and `installed` (false for a dependency
//! that is not installed). Each dependency is an edge from the package to it
//! ("the package requires it"), `relation` = `requires`, `required_version`
//! the requirement as written (`>=2.0`, `Any`); in the nested form, where a
//! package's subtree repeats wherever it is required, each edge once. A flat
//! list naming a package twice is refused. O(size of the document).

use hashbrown::{HashMap, HashSet};
use serde_json::{Map, Value};
use std::rc::Rc;

use super::packages::{self, Builder};
use super::plans;
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};

const FORMAT: Format = Format::PipdeptreeJson;

/// Parses pipdeptree's JSON, flat or nested. O(size of the document).
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let root = plans::json(FORMAT, content, 1)?;
    let mut b = Builder::new(FORMAT, max_edges, meter);
    let Value::Array(entries) = &root else {
        return Err(b.error(
            "(root)",
            "the document must be the JSON array pipdeptree --json (or --json-tree) prints",
        ));
    };
    let nested = entries
        .first()
        .and_then(Value::as_object)
        .is_some_and(|e| !e.contains_key("package"));
    if nested {
        tree(&mut b, entries)?;
    } else {
        flat(&mut b, entries)?;
    }
    Ok(b.finish())
}

/// A package's node: its id (`key`) and attributes.
fn package(
    b: &Builder<'_>,
    object: &Map<String, Value>,
    at: &dyn Fn() -> String,
) -> Result<(String, Map<String, Value>)> {
    let key = packages::text(FORMAT, object, "key", || format!("{}.key", at()))?;
    if key.is_empty() {
        return Err(b.error(format!("{}.key", at()), "\"key\" is empty"));
    }
    let mut attributes = Map::new();
    if let Some(name) = packages::optional_text(FORMAT, object, "package_name", || {
        format!("{}.package_name", at())
    })? {
        attributes.insert("name".into(), Value::from(name));
    }
    let version = packages::optional_text(FORMAT, object, "installed_version", || {
        format!("{}.installed_version", at())
    })?;
    match version {
        Some(v) if v != "?" => {
            attributes.insert("version".into(), Value::from(v));
            attributes.insert("installed".into(), Value::Bool(true));
        }
        _ => {
            attributes.insert("installed".into(), Value::Bool(false));
        }
    }
    Ok((key.to_string(), attributes))
}

/// The edge attributes of a dependency entry.
fn requirement(object: &Map<String, Value>, at: &dyn Fn() -> String) -> Result<Map<String, Value>> {
    let mut attributes = Map::new();
    if let Some(spec) = packages::optional_text(FORMAT, object, "required_version", || {
        format!("{}.required_version", at())
    })? {
        attributes.insert("required_version".into(), Value::from(spec));
    }
    Ok(attributes)
}

fn flat(b: &mut Builder<'_>, entries: &[Value]) -> Result<()> {
    let mut listed: HashMap<String, usize> = HashMap::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let at = || format!("[{i}]");
        let entry = packages::object(FORMAT, entry, at, "each entry")?;
        let Some(Value::Object(head)) = entry.get("package") else {
            return Err(b.error(
                format!("[{i}].package"),
                "each entry of the flat form must have a \"package\" object",
            ));
        };
        let (key, attributes) = package(b, head, &|| format!("[{i}].package"))?;
        if let Some(first) = listed.insert(key.clone(), i) {
            return Err(b.error(
                format!("[{i}].package.key"),
                format!("the package repeats [{first}]; each is listed once"),
            ));
        }
        b.node(key, attributes, || format!("at [{i}]"))?;
    }
    for (i, entry) in entries.iter().enumerate() {
        let Some(entry) = entry.as_object() else {
            continue;
        };
        let Some(from) = entry
            .get("package")
            .and_then(|p| p.get("key"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        let deps = packages::list(FORMAT, entry, "dependencies", || {
            format!("[{i}].dependencies")
        })?;
        for (j, dep) in deps.iter().enumerate() {
            let at = || format!("[{i}].dependencies[{j}]");
            let dep = packages::object(FORMAT, dep, at, "each dependency")?;
            let (key, attributes) = package(b, dep, &at)?;
            if !b.has(&key) {
                b.node(key.clone(), attributes, || format!("at {}", at()))?;
            }
            let edge = requirement(dep, &at)?;
            b.edge(from, &key, Some("requires"), edge, || {
                format!("at {}", at())
            })?;
        }
    }
    Ok(())
}

fn tree(b: &mut Builder<'_>, entries: &[Value]) -> Result<()> {
    // An explicit stack of (the requiring package's id, the entry, where it
    // is: its top-level entry, depth and index), children pushed in reverse
    // so that the document order is kept. A parent's id is shared, not copied.
    type Frame<'v> = (Option<Rc<str>>, &'v Value, usize, usize, usize);
    let mut stack: Vec<Frame<'_>> = entries
        .iter()
        .enumerate()
        .rev()
        .map(|(i, e)| (None, e, i, 0, i))
        .collect();
    let mut made: HashSet<(Rc<str>, Rc<str>)> = HashSet::new();
    while let Some((parent, entry, top, depth, index)) = stack.pop() {
        let at = || {
            if depth == 0 {
                format!("[{top}]")
            } else {
                format!("[{top}], {depth} levels down, dependencies[{index}]")
            }
        };
        let entry = packages::object(FORMAT, entry, at, "each entry")?;
        if entry.contains_key("package") {
            return Err(b.error(
                at(),
                "a flat entry ({\"package\": ...}) inside the nested form; the document mixes pipdeptree's two forms",
            ));
        }
        let (key, attributes) = package(b, entry, &at)?;
        let key: Rc<str> = Rc::from(key);
        b.node(key.to_string(), attributes, || format!("at {}", at()))?;
        if let Some(parent) = parent
            && made.insert((parent.clone(), key.clone()))
        {
            let edge = requirement(entry, &at)?;
            b.edge(&parent, &key, Some("requires"), edge, || {
                format!("at {}", at())
            })?;
        }
        let deps = packages::list(FORMAT, entry, "dependencies", || {
            format!("{}.dependencies", at())
        })?;
        for (j, dep) in deps.iter().enumerate().rev() {
            stack.push((Some(key.clone()), dep, top, depth + 1, j));
        }
    }
    Ok(())
}
