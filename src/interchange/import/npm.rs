//! Reads npm's `package-lock.json`, lockfile versions 2 and 3 (npm 7 and
//! later): its `packages` object, one entry per folder of the installed tree
//! (`""` the project itself, `node_modules/a`, `node_modules/a/node_modules/b`,
//! `packages/lib` for a workspace).
//!
//! Each entry is a node whose id is `name@version` (`is-number@7.0.0`), the
//! name being the entry's `name` (an aliased package's real name) or the
//! folder's; two copies of one version in different folders are one node.
//! Attributes: `name`, `version`, `path` (the first folder), `license`, the
//! flags npm writes (`dev`, `optional`, `peer`, `dev_optional`), `root: true`
//! on the project and `workspace_member: true` on each workspace (a folder the
//! root's `workspaces` names, `*` matching one path segment). A `link` entry
//! (`node_modules/lib` → `packages/lib`) is not a node: what resolves to it
//! resolves to its target.
//!
//! Each name in an entry's `dependencies`, `optionalDependencies`,
//! `devDependencies` and `peerDependencies` is resolved as Node and npm
//! resolve it: the entry's own `node_modules` first, then each enclosing
//! folder's, up to the project's. It is an edge to the package found, with
//! `relation` npm's edge type (`prod`, `optional`, `dev`, `peer`, or
//! `peerOptional` when `peerDependenciesMeta` says so) and `spec` the range
//! asked for; the root also gets a `workspace` edge to each workspace. A name
//! the tree does not hold (an optional or peer dependency not installed) is
//! counted in a note. Each relation once between two packages.
//!
//! Bounded: no recursion (serde_json refuses nesting past 128), at most 128
//! nested `node_modules` levels a path, a path listed twice refused, nodes and
//! edges counted against the import bounds as they are made. Resolving a name
//! walks at most the levels of its folder: O(size of the document × levels).

use hashbrown::{HashMap, HashSet};
use serde::Deserialize;
use serde::de::{Deserializer, Error as _, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::packages::{self, Builder, WORKSPACE_MEMBER};
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportNote, ImportedGraph, invalid};

const FORMAT: Format = Format::PackageLockJson;
const MODULES: &str = "node_modules/";
/// The most `node_modules` levels one path may nest (npm's trees nest a few).
const MAX_LEVELS: usize = 128;

/// The dependency fields of an entry and the edge type each gives, in the
/// order they are read (an optional dependency also listed under
/// `dependencies` is optional).
const FIELDS: [(&str, &str); 4] = [
    ("optionalDependencies", "optional"),
    ("dependencies", "prod"),
    ("devDependencies", "dev"),
    ("peerDependencies", "peer"),
];

/// Flags of an entry copied to attributes: (npm's name, ours).
const FLAGS: [(&str, &str); 4] = [
    ("dev", "dev"),
    ("optional", "optional"),
    ("peer", "peer"),
    ("devOptional", "dev_optional"),
];

#[derive(Deserialize)]
struct Lock {
    #[serde(rename = "lockfileVersion")]
    lockfile_version: Option<Value>,
    name: Option<Value>,
    version: Option<Value>,
    packages: Option<Entries>,
}

/// The `packages` object in document order; a path listed twice is an error
/// (a JSON object read as a map would keep only the last).
struct Entries(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Seen;
        impl<'de> Visitor<'de> for Seen {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of package paths")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Entries, A::Error> {
                let mut seen = HashSet::new();
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(A::Error::custom(format!(
                            "the package path \"{}\" is listed twice",
                            crate::error::clip(&key, 120)
                        )));
                    }
                    let value: Value = map.next_value()?;
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Seen)
    }
}

/// Where `key` sits: the folder whose `node_modules` holds it and its name
/// there (`node_modules/a/node_modules/@s/b` → (`node_modules/a`, `@s/b`));
/// `None` for a folder outside any `node_modules` (the root, a workspace).
fn split(key: &str) -> Option<(&str, &str)> {
    let at = key
        .match_indices(MODULES)
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || key.as_bytes()[i - 1] == b'/')
        .last()?;
    let parent = if at == 0 { "" } else { &key[..at - 1] };
    Some((parent, &key[at + MODULES.len()..]))
}

/// The folder a folder's lookups continue in: the one whose `node_modules`
/// holds it, or the root for a folder outside any.
fn up(location: &str) -> Option<&str> {
    if location.is_empty() {
        return None;
    }
    Some(split(location).map_or("", |(parent, _)| parent))
}

/// The folders of the tree as numbers, each with the folder its lookups
/// continue in, and the packages each folder's `node_modules` holds by name.
#[derive(Default)]
struct Tree<'a> {
    numbers: HashMap<&'a str, usize>,
    parent: Vec<Option<usize>>,
    children: HashMap<(usize, &'a str), usize>,
}

impl<'a> Tree<'a> {
    /// The number of `location`, numbering it and the folders above it that
    /// have none yet (at most [`MAX_LEVELS`] + 1 of them).
    fn number(&mut self, location: &'a str) -> Option<usize> {
        let mut chain = Vec::new();
        let mut at = Some(location);
        let mut above = None;
        while let Some(loc) = at {
            if let Some(&n) = self.numbers.get(loc) {
                above = Some(n);
                break;
            }
            if chain.len() > MAX_LEVELS {
                return None;
            }
            chain.push(loc);
            at = up(loc);
        }
        for loc in chain.into_iter().rev() {
            let n = self.parent.len();
            self.parent.push(above);
            self.numbers.insert(loc, n);
            above = Some(n);
        }
        above
    }

    /// The entry a dependency `name` of the package at `from` resolves to.
    fn resolve(&self, from: usize, name: &str) -> Option<usize> {
        let mut at = Some(from);
        while let Some(loc) = at {
            crate::budget::charge(1);
            if let Some(&entry) = self.children.get(&(loc, name)) {
                return Some(entry);
            }
            at = self.parent[loc];
        }
        None
    }
}

/// Whether the workspace pattern (a path, `*` matching one segment) names `path`.
fn matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
    let mut p = pattern.split('/');
    let mut s = path.split('/');
    loop {
        match (p.next(), s.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == "*" || a == b => {}
            _ => return false,
        }
    }
}

/// Parses a `package-lock.json`. O(size of the document × nesting levels).
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let lock: Lock = serde_json::from_str(content).map_err(|e| {
        invalid(
            FORMAT,
            Some(format!("line {}, column {}", e.line(), e.column())),
            format!("not a package-lock.json: {e}"),
        )
    })?;
    let mut b = Builder::new(FORMAT, max_edges, meter);
    match lock.lockfile_version.as_ref().and_then(Value::as_u64) {
        Some(2 | 3) => {}
        Some(1) => {
            return Err(b.error(
                "lockfileVersion",
                "lockfileVersion 1 (npm 6) has no \"packages\"; run npm install with npm 7 or later to rewrite it as version 3",
            ));
        }
        _ => {
            return Err(b.error(
                "lockfileVersion",
                "\"lockfileVersion\" must be 2 or 3; is this an npm package-lock.json?",
            ));
        }
    }
    let Some(Entries(entries)) = lock.packages else {
        return Err(b.error("packages", "the lockfile has no \"packages\" object"));
    };
    let at = |key: &str| format!("packages[\"{}\"]", crate::error::clip(key, 120));
    let mut tree = Tree::default();
    let mut numbers = Vec::with_capacity(entries.len());
    for (i, (key, value)) in entries.iter().enumerate() {
        crate::budget::charge(1);
        packages::object(FORMAT, value, || at(key), "each package entry")?;
        let Some(number) = tree.number(key) else {
            return Err(b.error(
                at(key),
                format!("the path nests more than {MAX_LEVELS} node_modules levels"),
            ));
        };
        numbers.push(number);
        if let Some((parent, name)) = split(key) {
            let folder = tree.numbers.get(parent).copied().unwrap_or(0);
            tree.children.insert((folder, name), i);
        }
    }
    let root = entries.iter().position(|(key, _)| key.is_empty());
    let root_entry = root.and_then(|i| entries[i].1.as_object());
    let workspaces: Vec<&str> = match root_entry.and_then(|r| r.get("workspaces")) {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        Some(Value::Object(o)) => match o.get("packages") {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    // The node of each entry (none for a link).
    let mut ids: Vec<Option<String>> = Vec::with_capacity(entries.len());
    let mut members = Vec::new();
    for (key, value) in &entries {
        let entry = packages::object(FORMAT, value, || at(key), "each package entry")?;
        if entry.get("link").is_some_and(|l| l == &Value::Bool(true)) {
            ids.push(None);
            continue;
        }
        let is_root = key.is_empty();
        let mut name =
            packages::optional_text(FORMAT, entry, "name", || format!("{}.name", at(key)))?
                .map(str::to_string);
        let mut version =
            packages::optional_text(FORMAT, entry, "version", || format!("{}.version", at(key)))?
                .map(str::to_string);
        if is_root {
            name = name.or_else(|| {
                lock.name
                    .as_ref()
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            version = version.or_else(|| {
                lock.version
                    .as_ref()
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
        }
        let name = name
            .or_else(|| split(key).map(|(_, n)| n.to_string()))
            .or_else(|| {
                key.rsplit('/')
                    .next()
                    .filter(|n| !n.is_empty())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "(root)".to_string());
        let id = match &version {
            Some(version) => format!("{name}@{version}"),
            None => name.clone(),
        };
        let mut attributes = Map::new();
        attributes.insert("name".into(), Value::String(name));
        if let Some(version) = version {
            attributes.insert("version".into(), Value::String(version));
        }
        if !is_root {
            attributes.insert("path".into(), Value::from(key.as_str()));
        }
        if let Some(license) = entry.get("license").filter(|l| l.is_string()) {
            attributes.insert("license".into(), license.clone());
        }
        for (theirs, ours) in FLAGS {
            if let Some(flag) = entry.get(theirs).filter(|f| f.is_boolean()) {
                attributes.insert(ours.into(), flag.clone());
            }
        }
        if is_root {
            attributes.insert("root".into(), Value::Bool(true));
        } else if split(key).is_none() && workspaces.iter().any(|w| matches(w, key)) {
            attributes.insert(WORKSPACE_MEMBER.into(), Value::Bool(true));
            members.push(id.clone());
        }
        if !b.node(id.clone(), attributes, || format!("at {}", at(key)))? {
            // Another copy of a version already read: the first keeps its
            // attributes, but a copy that is the root or a workspace says so.
            if is_root && let Some(first) = b.attributes_mut(&id) {
                first.insert("root".into(), Value::Bool(true));
            }
        }
        ids.push(Some(id));
    }
    let index: HashMap<&str, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, (key, _))| (key.as_str(), i))
        .collect();
    // The package a resolved entry stands for: a link's target (one step).
    let target = |entry: usize| -> Option<&String> {
        match &ids[entry] {
            Some(id) => Some(id),
            None => {
                let to = entries[entry].1.get("resolved")?.as_str()?;
                ids[*index.get(to)?].as_ref()
            }
        }
    };
    let mut made: HashSet<(String, String, &str)> = HashSet::new();
    let mut missing: HashMap<&str, usize> = HashMap::new();
    if let Some(root) = root.and_then(|i| ids[i].clone()) {
        for member in &members {
            if made.insert((root.clone(), member.clone(), "workspace")) {
                b.edge(&root, member, Some("workspace"), Map::new(), || {
                    "at the root's workspaces".into()
                })?;
            }
        }
    }
    for (i, (key, value)) in entries.iter().enumerate() {
        let Some(from) = ids[i].clone() else {
            continue;
        };
        let Some(entry) = value.as_object() else {
            continue;
        };
        let meta = entry.get("peerDependenciesMeta").and_then(Value::as_object);
        let optional = entry.get("optionalDependencies").and_then(Value::as_object);
        for (field, kind) in FIELDS {
            let names = match entry.get(field) {
                None | Some(Value::Null) => continue,
                Some(Value::Object(names)) => names,
                Some(_) => {
                    return Err(b.error(
                        format!("{}.{field}", at(key)),
                        format!(
                            "\"{field}\" must be an object of package names and version ranges"
                        ),
                    ));
                }
            };
            for (name, spec) in names {
                if kind == "prod" && optional.is_some_and(|o| o.contains_key(name)) {
                    continue;
                }
                let relation = if kind == "peer"
                    && meta
                        .and_then(|m| m.get(name))
                        .and_then(|m| m.get("optional"))
                        .is_some_and(|o| o == &Value::Bool(true))
                {
                    "peerOptional"
                } else {
                    kind
                };
                let found = tree
                    .resolve(numbers[i], name)
                    .and_then(|e| target(e).cloned());
                let Some(to) = found else {
                    *missing.entry(relation).or_insert(0) += 1;
                    continue;
                };
                if !made.insert((from.clone(), to.clone(), relation)) {
                    continue;
                }
                let mut attributes = Map::new();
                if let Some(spec) = spec.as_str() {
                    attributes.insert("spec".into(), Value::from(spec));
                }
                b.edge(&from, &to, Some(relation), attributes, || {
                    format!("at {}.{field}", at(key))
                })?;
            }
        }
    }
    if !missing.is_empty() {
        let mut kinds: Vec<(&str, usize)> = missing.into_iter().collect();
        kinds.sort_unstable();
        let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        b.notes().push(ImportNote::ignored(format!(
            "dependencies the lockfile does not install (not kept: no package to point to): {}",
            parts.join(", ")
        )));
    }
    Ok(b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_splits_at_its_last_node_modules() {
        assert_eq!(split("node_modules/a"), Some(("", "a")));
        assert_eq!(
            split("node_modules/a/node_modules/@s/b"),
            Some(("node_modules/a", "@s/b"))
        );
        assert_eq!(
            split("packages/lib/node_modules/x"),
            Some(("packages/lib", "x"))
        );
        assert_eq!(split("packages/lib"), None);
        assert_eq!(split("my_node_modules/x"), None);
        assert_eq!(up("packages/lib"), Some(""));
        assert_eq!(up(""), None);
        assert!(matches("packages/*", "packages/lib"));
        assert!(matches("./packages/lib/", "packages/lib"));
        assert!(!matches("packages/*", "packages/lib/x"));
    }
}
