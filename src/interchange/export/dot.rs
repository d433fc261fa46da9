//! Graphviz DOT: `digraph "<name>" { ... }`, every id and value double-quoted,
//! after the comment `// networks-mcp export: A -> B means A depends on B`, which
//! tells a reader (ours included) which way the edges point.
//!
//! Inside quotes `"` and `\` are escaped with a backslash and newlines written as
//! `\n` (carriage returns as `\r`); a string ending in a backslash gets a trailing
//! line continuation (`\` + newline), which Graphviz and the importer both drop.
//! Nodes carry `label` = their id (unless they have a `label` attribute), their
//! attributes, and their `data` as JSON text in a `data` attribute (so a node
//! attribute named `data` is left out). Edges carry `weight` and their attributes
//! (an edge attribute named `weight` is left out). Null values are left out.
//! User attributes are written under their own names only when Graphviz cannot
//! act on them (see [`PLAIN_ATTRIBUTES`]); others get the prefix `nmcp_`.

use std::fmt::Write as _;

use super::Selection;
use crate::interchange::values;
use crate::network::{Attributes, Network};

/// Writes `text` as a double-quoted DOT string.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    if text.ends_with('\\') {
        // `"a\\"` would read as an escaped quote in some DOT parsers; a line
        // continuation after the escaped backslash keeps the closing quote unambiguous.
        out.push_str("\\\n");
    }
    out.push('"');
    out
}

/// User attributes written under their own names: Graphviz draws them, and none
/// of them can make a renderer follow a link, read a file or load a font. Every
/// other name is written as [`ATTRIBUTE_PREFIX`]`name`, which Graphviz ignores: an
/// attribute named `URL`, `href`, `image`, `shapefile`, `fontpath`, `stylesheet`,
/// `size` or `dpi` must not turn our export into a link to `javascript:`, a read of
/// a local file, or a huge render.
pub(crate) const PLAIN_ATTRIBUTES: &[&str] = &[
    "label",
    "xlabel",
    "color",
    "fillcolor",
    "fontcolor",
    "fontsize",
    "bgcolor",
    "shape",
    "style",
    "penwidth",
    "arrowhead",
    "arrowtail",
    "arrowsize",
    "dir",
    "constraint",
    "minlen",
    "group",
    "rank",
    "width",
    "height",
    "tooltip",
];

/// The prefix of user attributes Graphviz must not act on; the importer removes it.
pub(crate) const ATTRIBUTE_PREFIX: &str = "nmcp_";

/// The DOT name of user attribute `key`; see [`PLAIN_ATTRIBUTES`].
pub(crate) fn attribute_name(key: &str) -> std::borrow::Cow<'_, str> {
    if PLAIN_ATTRIBUTES.contains(&key) {
        std::borrow::Cow::Borrowed(key)
    } else {
        std::borrow::Cow::Owned(format!("{ATTRIBUTE_PREFIX}{key}"))
    }
}

fn push_attributes(list: &mut Vec<String>, attributes: &Attributes, skip: &[&str]) {
    for (key, value) in attributes.iter() {
        if skip.contains(&key) {
            continue;
        }
        if let Some(text) = values::scalar_text(value) {
            list.push(format!("{}={}", quote(&attribute_name(key)), quote(&text)));
        }
    }
}

/// Writes the selection as DOT. O(size of the output).
pub(crate) fn write(network: &Network, selection: &Selection<'_>) -> String {
    let mut out = String::from("// networks-mcp export: A -> B means A depends on B\n");
    if network.name().is_empty() {
        out.push_str("digraph {\n");
    } else {
        let _ = writeln!(out, "digraph {} {{", quote(network.name()));
    }
    if let Some(description) = network.description() {
        let _ = writeln!(out, "  description={};", quote(description));
    }
    for node in &selection.nodes {
        crate::budget::charge(1);
        let mut list = Vec::new();
        if node.attributes.get("label").is_none() {
            list.push(format!("label={}", quote(&label_text(&node.id))));
        }
        push_attributes(&mut list, &node.attributes, &["data"]);
        if let Some(data) = &node.data {
            list.push(format!("data={}", quote(&data.to_string())));
        }
        let _ = writeln!(out, "  {} [{}];", quote(&node.id), list.join(", "));
    }
    for edge in &selection.edges {
        crate::budget::charge(1);
        let mut list = vec![format!(
            "weight={}",
            quote(&values::weight_text(edge.weight))
        )];
        push_attributes(&mut list, edge.attributes, &["weight"]);
        let _ = writeln!(
            out,
            "  {} -> {} [{}];",
            quote(edge.source),
            quote(edge.target),
            list.join(", ")
        );
    }
    out.push_str("}\n");
    out
}

/// An id as label text: Graphviz decodes HTML entities in labels (`&amp;` is
/// drawn `&`), so a literal `&` is written `&amp;` to be drawn as itself.
pub(crate) fn label_text(id: &str) -> String {
    id.replace('&', "&amp;")
}
