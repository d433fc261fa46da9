//! Reads the output of `cargo metadata --format-version 1`: the packages of a
//! workspace and everything they depend on, with the dependency graph Cargo
//! resolved (`resolve.nodes`).
//!
//! Each package is a node whose id is `name@version` (`serde@1.0.228`), which
//! stays unique when two versions of a crate are in the graph; two packages of
//! the same name and version from different sources (a registry and a git
//! repository) are both kept under their full package ids instead. Attributes:
//! `name`, `version`, `source` (absent for a path package), `edition`,
//! `license`, `description`, `workspace_member` (true for the packages in
//! `workspace_members`, false for the others), `features` (the features Cargo
//! enabled for it in the resolve, comma-joined) and `declared_features` (the
//! features its manifest declares, comma-joined). Each entry of a resolve
//! node's `deps` is an edge from the package to the dependency for each of its
//! `dep_kinds`: `relation` the kind (`normal`, `dev` or `build`) and
//! `platform` the `target` it is limited to, when it is one (`cfg(unix)`).
//!
//! Bounded: no recursion (serde_json refuses nesting past 128), every node
//! and edge counted against the import bounds as it is made, a package or
//! resolve node named twice refused. O(size of the document).

use hashbrown::HashMap;
use serde_json::{Map, Value};

use super::packages::{self, Builder, WORKSPACE_MEMBER};
use super::plans;
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportNote, ImportedGraph};

const FORMAT: Format = Format::CargoMetadata;

/// Scalar fields of a package copied to attributes of the same names.
const SCALARS: [&str; 5] = ["version", "source", "edition", "license", "description"];

/// Parses `cargo metadata --format-version 1`. O(size of the document).
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let root = plans::json(FORMAT, content, 1)?;
    let mut b = Builder::new(FORMAT, max_edges, meter);
    let Value::Object(root) = root else {
        return Err(b.error(
            "(root)",
            "the document must be the JSON object cargo metadata --format-version 1 prints",
        ));
    };
    match root.get("version") {
        None => {}
        Some(Value::Number(n)) if n.as_u64() == Some(1) => {}
        Some(other) => {
            return Err(b.error(
                "version",
                format!(
                    "format version {other} is not read; run cargo metadata --format-version 1"
                ),
            ));
        }
    }
    let packages = match root.get("packages") {
        Some(Value::Array(items)) => items,
        _ => {
            return Err(b.error(
                "packages",
                "the document has no \"packages\" array; is it the output of cargo metadata --format-version 1?",
            ));
        }
    };
    // Package id → (its index in `packages`, name@version).
    let mut ids: HashMap<&str, (usize, String)> = HashMap::with_capacity(packages.len());
    let mut readable: HashMap<String, usize> = HashMap::with_capacity(packages.len());
    for (i, package) in packages.iter().enumerate() {
        crate::budget::charge(1);
        let at = || format!("packages[{i}]");
        let package = packages::object(FORMAT, package, at, "each package")?;
        let id = packages::text(FORMAT, package, "id", || format!("packages[{i}].id"))?;
        let name = packages::text(FORMAT, package, "name", || format!("packages[{i}].name"))?;
        let version = packages::text(FORMAT, package, "version", || {
            format!("packages[{i}].version")
        })?;
        let short = format!("{name}@{version}");
        *readable.entry(short.clone()).or_insert(0) += 1;
        if let Some((first, _)) = ids.insert(id, (i, short)) {
            return Err(b.error(
                format!("packages[{i}].id"),
                format!("the package id repeats packages[{first}]; each package is listed once"),
            ));
        }
    }
    // A name@version two packages share stands for neither: both keep their ids.
    let node_id = |id: &str| -> Option<String> {
        let (_, short) = ids.get(id)?;
        Some(if readable.get(short).copied().unwrap_or(0) > 1 {
            id.to_string()
        } else {
            short.clone()
        })
    };
    let mut members: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
    for (i, member) in packages::list(FORMAT, &root, "workspace_members", || {
        "workspace_members".into()
    })?
    .iter()
    .enumerate()
    {
        let at = || format!("workspace_members[{i}]");
        let Some(member) = member.as_str() else {
            return Err(b.error(
                at(),
                "each workspace member must be a package id (a string)",
            ));
        };
        if !ids.contains_key(member) {
            return Err(b.error(at(), "names no package of \"packages\""));
        }
        members.insert(member);
    }
    let resolve = match root.get("resolve") {
        None | Some(Value::Null) => None,
        Some(Value::Object(resolve)) => Some(resolve),
        Some(_) => return Err(b.error("resolve", "\"resolve\" must be an object or null")),
    };
    // The features Cargo enabled for each package, from the resolve.
    let mut enabled: HashMap<&str, String> = HashMap::new();
    let resolved = match resolve {
        Some(resolve) => packages::list(FORMAT, resolve, "nodes", || "resolve.nodes".into())?,
        None => &[],
    };
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(resolved.len());
    for (i, node) in resolved.iter().enumerate() {
        crate::budget::charge(1);
        let node = packages::object(
            FORMAT,
            node,
            || format!("resolve.nodes[{i}]"),
            "each resolve node",
        )?;
        let at = || format!("resolve.nodes[{i}].id");
        let id = packages::text(FORMAT, node, "id", at)?;
        if !ids.contains_key(id) {
            return Err(b.error(at(), "names no package of \"packages\""));
        }
        if let Some(first) = seen.insert(id, i) {
            return Err(b.error(
                at(),
                format!("the package repeats resolve.nodes[{first}]; each is resolved once"),
            ));
        }
        let features = joined(&b, node, "features", || {
            format!("resolve.nodes[{i}].features")
        })?;
        if !features.is_empty() {
            enabled.insert(id, features);
        }
    }
    for (i, package) in packages.iter().enumerate() {
        let Some(package) = package.as_object() else {
            continue;
        };
        let Some(id) = package.get("id").and_then(Value::as_str) else {
            continue;
        };
        let mut attributes = Map::new();
        if let Some(name) = package.get("name") {
            attributes.insert("name".into(), name.clone());
        }
        for field in SCALARS {
            if let Some(value) = packages::optional_text(FORMAT, package, field, || {
                format!("packages[{i}].{field}")
            })? {
                attributes.insert(field.into(), Value::from(value));
            }
        }
        attributes.insert(WORKSPACE_MEMBER.into(), Value::Bool(members.contains(id)));
        if let Some(features) = enabled.remove(id) {
            attributes.insert("features".into(), Value::String(features));
        }
        match package.get("features") {
            None | Some(Value::Null) => {}
            Some(Value::Object(declared)) if declared.is_empty() => {}
            Some(Value::Object(declared)) => {
                let names: Vec<&str> = declared.keys().map(String::as_str).collect();
                attributes.insert("declared_features".into(), Value::from(names.join(",")));
            }
            Some(_) => {
                return Err(b.error(
                    format!("packages[{i}].features"),
                    "\"features\" must be an object of feature names",
                ));
            }
        }
        let node = node_id(id).unwrap_or_else(|| id.to_string());
        b.node(node, attributes, || format!("at packages[{i}]"))?;
    }
    if resolve.is_none() {
        b.notes().push(ImportNote::ignored(
            "the document has no resolved dependency graph (cargo metadata --no-deps): the packages are read without their dependencies; run cargo metadata --format-version 1 without --no-deps for them",
        ));
    }
    let mut untyped = 0usize;
    for (i, node) in resolved.iter().enumerate() {
        let Some(node) = node.as_object() else {
            continue;
        };
        let Some(from) = node.get("id").and_then(Value::as_str).and_then(node_id) else {
            continue;
        };
        let deps = packages::list(FORMAT, node, "deps", || format!("resolve.nodes[{i}].deps"))?;
        for (j, dep) in deps.iter().enumerate() {
            let at = || format!("resolve.nodes[{i}].deps[{j}]");
            let dep = packages::object(FORMAT, dep, at, "each dependency")?;
            let pkg = packages::text(FORMAT, dep, "pkg", || format!("{}.pkg", at()))?;
            let Some(to) = node_id(pkg) else {
                return Err(b.error(format!("{}.pkg", at()), "names no package of \"packages\""));
            };
            let kinds = match dep.get("dep_kinds") {
                None | Some(Value::Null) => {
                    // Cargo before 1.41 wrote no kinds: a plain dependency.
                    untyped += 1;
                    b.edge(&from, &to, None, Map::new(), || format!("at {}", at()))?;
                    continue;
                }
                Some(Value::Array(kinds)) => kinds,
                Some(_) => {
                    return Err(b.error(
                        format!("{}.dep_kinds", at()),
                        "\"dep_kinds\" must be an array",
                    ));
                }
            };
            for (k, kind) in kinds.iter().enumerate() {
                let at = || format!("resolve.nodes[{i}].deps[{j}].dep_kinds[{k}]");
                let kind = packages::object(FORMAT, kind, at, "each dependency kind")?;
                let relation =
                    packages::optional_text(FORMAT, kind, "kind", || format!("{}.kind", at()))?
                        .unwrap_or("normal");
                let mut attributes = Map::new();
                if let Some(target) =
                    packages::optional_text(FORMAT, kind, "target", || format!("{}.target", at()))?
                {
                    attributes.insert("platform".into(), Value::from(target));
                }
                b.edge(&from, &to, Some(relation), attributes, || {
                    format!("at {}", at())
                })?;
            }
        }
    }
    if untyped > 0 {
        b.notes().push(ImportNote::ignored(format!(
            "{untyped} dependencies have no \"dep_kinds\" (cargo before 1.41): read as plain dependencies, without a relation"
        )));
    }
    Ok(b.finish())
}

/// An array of strings, comma-joined.
fn joined(
    b: &Builder<'_>,
    object: &Map<String, Value>,
    field: &str,
    at: impl Fn() -> String,
) -> Result<String> {
    let mut names = Vec::new();
    for item in packages::list(FORMAT, object, field, &at)? {
        match item.as_str() {
            Some(name) => names.push(name),
            None => return Err(b.error(at(), format!("\"{field}\" must be an array of strings"))),
        }
    }
    Ok(names.join(","))
}
