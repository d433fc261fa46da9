//! Reads the output of `go mod graph`: one requirement a line, `A B`, where
//! each of A and B is a module version `path@version`, or a bare `path` for
//! the main module (one per module of a workspace), and since Go 1.21 the
//! `go@1.22.0` and `toolchain@go1.22.0` a module asks for.
//!
//! Each module version is a node whose id is written as Go writes it
//! (`golang.org/x/text@v0.14.0`), in order of first mention, with the
//! attributes `path`, `version` (absent for a main module) and `main_module:
//! true` for a main module. Each line is an edge `A → B` ("A requires B"),
//! with `relation` = `requires`. A line that is not two such words, or that
//! repeats an earlier line (`go mod graph` prints each requirement once), is
//! refused naming its line. O(size of the document).

use hashbrown::HashMap;
use serde_json::{Map, Value};

use super::packages::Builder;
use super::plans;
use crate::error::Result;
use crate::interchange::meter::Meter;
use crate::interchange::{Format, ImportedGraph};

const FORMAT: Format = Format::GoModGraph;

/// Parses `go mod graph` output. O(size of the document).
pub(crate) fn parse(content: &str, max_edges: usize, meter: &mut Meter) -> Result<ImportedGraph> {
    let mut b = Builder::new(FORMAT, max_edges, meter);
    let mut lines: HashMap<(&str, &str), usize> = HashMap::new();
    for (line, text) in plans::lines(content) {
        let mut words = text.split_whitespace();
        let (Some(from), Some(to), None) = (words.next(), words.next(), words.next()) else {
            return Err(b.error(
                format!("line {line}"),
                "each line must be two module versions, \"path@version path@version\" (a main module without @version), as go mod graph prints",
            ));
        };
        for (word, which) in [(from, "first"), (to, "second")] {
            let attributes = module(word).ok_or_else(|| {
                b.error(
                    format!("line {line}"),
                    format!(
                        "the {which} word \"{}\" is not a module version: path@version, or a bare path",
                        crate::error::clip(word, 120)
                    ),
                )
            })?;
            b.node(word.to_string(), attributes, || format!("at line {line}"))?;
        }
        if let Some(first) = lines.insert((from, to), line) {
            return Err(b.error(
                format!("line {line}"),
                format!("the line repeats line {first}; go mod graph prints each requirement once"),
            ));
        }
        b.edge(from, to, Some("requires"), Map::new(), || {
            format!("at line {line}")
        })?;
    }
    Ok(b.finish())
}

/// The attributes of a module version (`path@version`, or a bare main module
/// path); `None` when the word is not one (an empty path or version, or more
/// than one `@`: a module path and a version never hold one).
fn module(word: &str) -> Option<Map<String, Value>> {
    let mut attributes = Map::new();
    match word.split_once('@') {
        Some((path, version)) => {
            if path.is_empty() || version.is_empty() || version.contains('@') {
                return None;
            }
            attributes.insert("path".into(), Value::from(path));
            attributes.insert("version".into(), Value::from(version));
        }
        None => {
            attributes.insert("path".into(), Value::from(word));
            attributes.insert("main_module".into(), Value::Bool(true));
        }
    }
    Some(attributes)
}
