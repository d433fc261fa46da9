//! `network_export`: a network, or the neighbourhood of some nodes, as a
//! document in one of the formats of [`crate::interchange`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::interchange::{self, Format};
use crate::mcp::page;
use crate::mcp::resources::{ExportPart, export_part_uri, export_uri};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, check_range};
use crate::network::{Direction, Network};

/// Most nodes of a default export; fewer when they would not fit the default
/// reply size (see [`document_fits`]).
const DEFAULT_EXPORT_LIMIT: usize = 25;
const MAX_EXPORT_LIMIT: usize = 10_000;
const MAX_EXPORT_DEPTH: usize = 1_000;

fn default_export_limit() -> usize {
    DEFAULT_EXPORT_LIMIT
}

fn default_depth() -> usize {
    1
}

/// The formats `network_export` writes: every [`Format`] that
/// [`Format::can_export`] (the formats of other tools are read only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// NetworkX node-link JSON (`directed`, `multigraph`, `graph`, `nodes`, `edges`).
    NodeLinkJson,
    /// GraphML XML with typed keys.
    Graphml,
    /// Graphviz DOT (`digraph`).
    Dot,
    /// A Mermaid `flowchart LR` (export only).
    Mermaid,
    /// Cypher statements for Neo4j or Memgraph (export only).
    Cypher,
    /// An edge list as CSV: `source,target,weight,edge_id,<attributes>`.
    EdgeListCsv,
}

impl From<ExportFormat> for Format {
    fn from(format: ExportFormat) -> Self {
        match format {
            ExportFormat::NodeLinkJson => Format::NodeLinkJson,
            ExportFormat::Graphml => Format::Graphml,
            ExportFormat::Dot => Format::Dot,
            ExportFormat::Mermaid => Format::Mermaid,
            ExportFormat::Cypher => Format::Cypher,
            ExportFormat::EdgeListCsv => Format::EdgeListCsv,
        }
    }
}

/// Parameters of `network_export`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// edge_list_csv leaves out isolated nodes.
    pub format: ExportFormat,
    /// Only these nodes and their neighbourhood (depth, direction).
    #[serde(default)]
    pub node_ids: Option<Vec<String>>,
    /// With node_ids: how many edges away.
    #[serde(default = "default_depth")]
    #[schemars(range(min = 0, max = MAX_EXPORT_DEPTH))]
    pub depth: usize,
    /// With node_ids: which edges to follow.
    #[serde(default)]
    pub direction: Direction,
    /// Most nodes; left out, fewer past an 8 KB reply (all, with path).
    #[serde(default = "default_export_limit")]
    #[schemars(range(min = 1, max = MAX_EXPORT_LIMIT))]
    pub limit: usize,
    /// Write the document to this file instead of the reply.
    #[serde(default)]
    pub path: Option<String>,
}

/// Result of `network_export`: the document's metadata. The document itself
/// is the result's embedded resource (`resource_uri`, `mime_type`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ExportOutput {
    /// "success".
    pub status: Success,
    /// The exported network.
    pub network_name: String,
    /// The document's format.
    pub format: ExportFormat,
    /// The document's MIME type.
    pub mime_type: String,
    /// Nodes in the document.
    pub node_count: usize,
    /// Edges in the document.
    pub edge_count: usize,
    /// Nodes selected before the limit (the whole network, or the neighbourhood of node_ids).
    pub selected_node_count: usize,
    /// True when the document holds fewer nodes than were selected.
    pub truncated: bool,
    /// What the document holds and how to get more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The embedded document's URI: the whole network's export, or this part's (readable while the network is unchanged).
    pub resource_uri: String,
    /// The file written, with path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The document's size in bytes, with path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_bytes: Option<usize>,
    /// The document (the embedded resource's text; not in `structuredContent`);
    /// absent when written to path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

fn export(ctx: &ToolContext<'_>, p: ExportParams) -> Result<ExportOutput> {
    let limit = check_range("limit", p.limit, MAX_EXPORT_LIMIT)?;
    if p.depth > MAX_EXPORT_DEPTH {
        return Err(Error::InvalidValue {
            field: "depth".into(),
            reason: format!("{} is out of range; give 0 to {MAX_EXPORT_DEPTH}", p.depth),
        });
    }
    ctx.registry.read(&p.network_name, |net| {
        let selected = select(net, p.node_ids.as_deref(), p.depth, p.direction)?;
        let format = Format::from(p.format);
        let whole_uri = export_uri(&p.network_name, format);
        let build = |count: usize| {
            let kept = &selected[..count.min(selected.len())];
            let whole = p.node_ids.is_none() && kept.len() == selected.len();
            let only: HashSet<_> = kept.iter().copied().collect();
            let exported = interchange::export_counted(net, format, (!whole).then_some(&only));
            let resource_uri = match whole {
                true => whole_uri.clone(),
                false => export_part_uri(
                    &p.network_name,
                    format,
                    &ExportPart {
                        version: net.version(),
                        limit: kept.len().max(1),
                        node_ids: p.node_ids.clone(),
                        depth: p.depth,
                        direction: direction_name(p.direction).to_string(),
                    },
                ),
            };
            ExportOutput {
                status: Success::Success,
                network_name: p.network_name.clone(),
                format: p.format,
                mime_type: format.mime_type().to_string(),
                node_count: exported.nodes,
                edge_count: exported.edges,
                selected_node_count: selected.len(),
                truncated: kept.len() < selected.len(),
                note: None,
                resource_uri,
                path: None,
                document_bytes: None,
                content: Some(exported.document),
            }
        };
        if let Some(path) = &p.path {
            // To a file: the whole selection unless a limit was given.
            let count = match ctx.default_sized {
                true => selected.len(),
                false => limit,
            };
            let mut out = build(count);
            let roots = ctx.files.ok_or_else(|| Error::InvalidValue {
                field: "path".into(),
                reason: "this server writes no files: start it with --data-root DIR".into(),
            })?;
            let document = out.content.take().unwrap_or_default();
            let written = roots.write_text(path, &document)?;
            out.document_bytes = Some(document.len());
            crate::mcp::release::note_freed(document.len());
            out.path = Some(written.display().to_string());
            if out.truncated {
                out.note = Some(format!(
                    "Only {} of {} selected nodes, as limit {limit} asked.",
                    out.node_count, out.selected_node_count
                ));
            }
            return Ok(out);
        }
        let mut out = build(limit);
        if ctx.default_sized && !document_fits(&out) {
            // The largest prefix of the selection that fits: a default reply
            // stays within the default reply size.
            let (mut fits, mut over) = (0, limit.min(selected.len()));
            while over - fits > 1 {
                let mid = fits + (over - fits) / 2;
                match document_fits(&build(mid)) {
                    true => fits = mid,
                    false => over = mid,
                }
            }
            out = build(fits.max(1));
        }
        out.note = note(
            &out,
            ctx.default_sized,
            limit,
            &whole_uri,
            p.node_ids.is_some(),
        );
        Ok(out)
    })
}

fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::Out => "out",
        Direction::In => "in",
        Direction::Both => "both",
    }
}

/// What a partial document says: how much it holds, and how to get more.
fn note(
    out: &ExportOutput,
    by_default: bool,
    limit: usize,
    whole_uri: &str,
    part: bool,
) -> Option<String> {
    let (kept, selected) = (out.node_count, out.selected_node_count);
    if !out.truncated {
        return part.then(|| {
            format!("The neighbourhood of node_ids. The whole network is the resource {whole_uri}.")
        });
    }
    let why = match by_default && kept < limit {
        true => "fit in a reply without limit (about 8 KB)".to_string(),
        false => format!("fit in limit {limit}"),
    };
    let raise = match limit < MAX_EXPORT_LIMIT {
        true => format!("Give a larger limit (at most {MAX_EXPORT_LIMIT}), export"),
        false => "Export".to_string(),
    };
    Some(format!(
        "Only {kept} of {selected} selected nodes {why} (with the edges among them). {raise} the neighbourhood of some nodes with node_ids, or read the resource {whole_uri} for the whole network."
    ))
}

/// Whether `out`, with a note, fits the default reply size on the wire.
fn document_fits(out: &ExportOutput) -> bool {
    /// Room for the note, which is written once the size is known.
    const NOTE: usize = 2 * 400;
    let mut meta = serde_json::to_value(out).unwrap_or_default();
    if let Some(object) = meta.as_object_mut() {
        object.remove("content");
    }
    let bytes = page::reply_bytes(&meta)
        + page::resource_bytes(
            out.content.as_deref().unwrap_or_default(),
            &out.resource_uri,
            &out.mime_type,
        )
        + page::ENVELOPE_BYTES
        + NOTE;
    bytes <= page::DEFAULT_REPLY_BYTES
}

/// The nodes to export, in a stable order: the given nodes and then their
/// neighbourhood nearest first, or every node in index order.
fn select(
    net: &Network,
    node_ids: Option<&[String]>,
    depth: usize,
    direction: Direction,
) -> Result<Vec<petgraph::stable_graph::NodeIndex>> {
    let Some(starts) = node_ids else {
        return Ok(net.node_indices().collect());
    };
    if starts.is_empty() {
        return Err(Error::InvalidValue {
            field: "node_ids".into(),
            reason: "the list is empty; give at least one node id, or omit node_ids to export the whole network".into(),
        });
    }
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let starts = net.require_all("node_ids", starts.iter().map(String::as_str))?;
    for &start in &starts {
        if seen.insert(start) {
            order.push(start);
        }
    }
    if depth > 0 {
        for &start in &starts {
            let reach = net.reachable_by_index(start, direction, Some(depth), usize::MAX);
            for (n, _) in reach.nodes {
                if seen.insert(n) {
                    order.push(n);
                }
            }
        }
    }
    Ok(order)
}

/// `network_export`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_export",
            title: "Export a network",
            description: "A network as a document (an embedded resource, or a file with path): mermaid renders in chat.",
            toolset: Toolset::Interchange,
            effect: Effect::Read,
            long_running: true,
        },
        export,
    )
    .with_document("content")
}
