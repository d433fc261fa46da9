//! `--load NAME=PATH`: networks preloaded from files at startup.

use std::path::PathBuf;

use crate::interchange::Format;

/// One `--load` option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadSpec {
    /// The network to create.
    pub name: String,
    /// The file to read.
    pub path: PathBuf,
}

impl LoadSpec {
    /// The file's format: `forced` if given, else from the extension.
    pub fn format(&self, forced: Option<Format>) -> Result<Format, String> {
        if let Some(format) = forced {
            return Ok(format);
        }
        let ext = self
            .path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        Format::from_extension(ext)
            .filter(|f| f.can_import())
            .ok_or_else(|| {
                format!(
                    "cannot tell the format of {} from its extension; name it .json, .graphml, .csv, .dot or .mmd, or pass --load-format",
                    self.path.display()
                )
            })
    }
}

/// Parses `NAME=PATH` (clap value parser).
pub fn parse_load(value: &str) -> Result<LoadSpec, String> {
    match value.split_once('=') {
        Some((name, path)) if !name.is_empty() && !path.is_empty() => Ok(LoadSpec {
            name: name.to_string(),
            path: PathBuf::from(path),
        }),
        _ => Err(format!(
            "expected NAME=PATH, e.g. --load deps=deps.graphml; got '{value}'"
        )),
    }
}

/// Parses a `--load-format` value.
pub fn parse_format(value: &str) -> Result<Format, String> {
    Format::parse(value).filter(|f| f.can_import()).ok_or_else(|| {
        format!("'{value}' is not an importable format; use node_link_json, graphml, edge_list_csv, dot, mermaid, taskmaster_json, beads_jsonl, memory_jsonl, cargo_metadata, package_lock_json, go_mod_graph or pipdeptree_json")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_and_path_split_at_the_first_equals_sign() {
        let spec = parse_load("deps=data/a=b.graphml").unwrap();
        assert_eq!(spec.name, "deps");
        assert_eq!(spec.path, PathBuf::from("data/a=b.graphml"));
        assert_eq!(spec.format(None), Ok(Format::Graphml));
        assert!(parse_load("nopath").is_err());
        assert!(parse_load("=x.csv").is_err());
    }

    #[test]
    fn the_format_comes_from_the_extension_unless_forced() {
        let spec = parse_load("g=graph.txt").unwrap();
        assert!(spec.format(None).unwrap_err().contains("--load-format"));
        assert_eq!(spec.format(Some(Format::Dot)), Ok(Format::Dot));
        assert!(parse_format("cypher").is_err());
        assert_eq!(parse_format("beads_jsonl"), Ok(Format::BeadsJsonl));
        assert_eq!(
            parse_load("p=plan.mmd").unwrap().format(None),
            Ok(Format::Mermaid)
        );
        assert_eq!(parse_format("edge_list_csv"), Ok(Format::EdgeListCsv));
    }
}
