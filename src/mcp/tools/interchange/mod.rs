//! Import and export tools: `network_export`, `network_import`.
//!
//! The formats themselves live in [`crate::interchange`]; this module selects what
//! to export, bounds the result, and applies imports within the limits.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex, PoisonError};
use tracing::info;

use super::common::{Success, batch_item_error, check_range};
use crate::error::{Error, Result};
use crate::interchange::{self, Format, ImportedGraph};
use crate::limits::Limits;
use crate::mcp::resources::export_uri;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::network::estimate::{EDGE_BYTES, NODE_BYTES, attributes_bytes, value_bytes};
use crate::network::{Direction, Network};
use crate::registry::NetworkRegistry;

/// Keeps a default export of a neighbourhood within about 8 KB (see BENCHMARKS.md).
const DEFAULT_EXPORT_LIMIT: usize = 25;
const MAX_EXPORT_LIMIT: usize = 100_000;
const MAX_EXPORT_DEPTH: usize = 1_000;
/// Import progress is reported in thousandths: parsing takes the first part,
/// validation the next, applying the rest.
const PROGRESS_TOTAL: u64 = 1000;
const PROGRESS_PARSED: u64 = 600;
const PROGRESS_VALIDATED: u64 = 800;
/// The largest document `network_import` accepts, in bytes.
pub const MAX_IMPORT_BYTES: usize = 256 * 1024 * 1024;

fn default_export_limit() -> usize {
    DEFAULT_EXPORT_LIMIT
}

fn default_depth() -> usize {
    1
}

/// Parameters of `network_export`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// The format: mermaid renders in chat; edge_list_csv leaves out isolated nodes.
    pub format: Format,
    /// Only these nodes and their neighbourhood (depth, direction); omit for all.
    #[serde(default)]
    pub nodes: Option<Vec<String>>,
    /// With nodes: how many edges away.
    #[serde(default = "default_depth")]
    #[schemars(range(min = 0, max = MAX_EXPORT_DEPTH))]
    pub depth: usize,
    /// With nodes: which edges to follow.
    #[serde(default)]
    pub direction: Direction,
    /// Most nodes in the document.
    #[serde(default = "default_export_limit")]
    #[schemars(range(min = 1, max = MAX_EXPORT_LIMIT))]
    pub limit: usize,
}

/// Result of `network_export`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ExportOutput {
    /// "success".
    pub status: Success,
    /// The exported network.
    pub network_name: String,
    /// The format of `content`.
    pub format: Format,
    /// The document, as text.
    pub content: String,
    /// Nodes in the document.
    pub nodes: usize,
    /// Edges in the document.
    pub edges: usize,
    /// Nodes selected before the limit was applied (the whole network, or the neighbourhood of `nodes`).
    pub total_nodes: usize,
    /// True when `limit` cut the selection: the document is partial.
    pub truncated: bool,
    /// What was cut and how to get everything, when truncated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The resource with the whole network in this format.
    pub resource_uri: String,
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
        let selected = select(net, p.nodes.as_deref(), p.depth, p.direction)?;
        let total_nodes = selected.len();
        let truncated = total_nodes > limit;
        let kept: HashSet<_> = selected.into_iter().take(limit).collect();
        let only = (p.nodes.is_some() || truncated).then_some(&kept);
        let exported = interchange::export_counted(net, p.format, only);
        let resource_uri = export_uri(&p.network_name, p.format);
        let note = truncated.then(|| {
            format!(
                "Only {limit} of {total_nodes} nodes were exported (with the edges among them). Raise limit (up to {MAX_EXPORT_LIMIT}), export the neighbourhood of some nodes with `nodes`, or read the resource {resource_uri} for everything."
            )
        });
        Ok(ExportOutput {
            status: Success::Success,
            network_name: p.network_name.clone(),
            format: p.format,
            content: exported.document,
            nodes: exported.nodes,
            edges: exported.edges,
            total_nodes,
            truncated,
            note,
            resource_uri,
        })
    })
}

/// The nodes to export, in a stable order: the given nodes and then their
/// neighbourhood nearest first, or every node in index order.
fn select(
    net: &Network,
    nodes: Option<&[String]>,
    depth: usize,
    direction: Direction,
) -> Result<Vec<petgraph::stable_graph::NodeIndex>> {
    let Some(starts) = nodes else {
        return Ok(net.node_indices().collect());
    };
    if starts.is_empty() {
        return Err(Error::InvalidValue {
            field: "nodes".into(),
            reason: "the list is empty; give at least one node id, or omit nodes to export the whole network".into(),
        });
    }
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let starts = net.require_all("nodes", starts.iter().map(String::as_str))?;
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

/// How `network_import` treats the target network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportMode {
    /// Make a new network; fails if the name is taken.
    #[default]
    Create,
    /// Add to an existing network: existing nodes are kept as they are, every edge is added.
    Merge,
}

/// The formats `network_import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImportFormat {
    /// NetworkX node-link JSON (`nodes` plus `edges` or `links`).
    NodeLinkJson,
    /// GraphML, e.g. from networkx.write_graphml, Gephi or yEd.
    Graphml,
    /// CSV with a header row holding at least `source` and `target`.
    EdgeListCsv,
    /// Graphviz DOT (`digraph`).
    Dot,
}

impl From<ImportFormat> for Format {
    fn from(format: ImportFormat) -> Self {
        match format {
            ImportFormat::NodeLinkJson => Format::NodeLinkJson,
            ImportFormat::Graphml => Format::Graphml,
            ImportFormat::EdgeListCsv => Format::EdgeListCsv,
            ImportFormat::Dot => Format::Dot,
        }
    }
}

/// Parameters of `network_import`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportParams {
    /// The network to create, or with mode "merge" to add to.
    pub network_name: String,
    /// The document's format.
    pub format: ImportFormat,
    /// The whole document as a string (up to 256 MiB).
    pub content: String,
    /// "merge" adds to an existing network: its nodes are kept, every edge is added.
    #[serde(default)]
    pub mode: ImportMode,
    /// With mode "create": a description (default: the document's own).
    #[serde(default)]
    pub description: Option<String>,
}

/// Result of `network_import`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ImportOutput {
    /// "success": everything in the document was applied.
    pub status: Success,
    /// The network imported into.
    pub network_name: String,
    /// The mode used.
    pub mode: ImportMode,
    /// Nodes created (including endpoints that only edges named).
    pub nodes_created: usize,
    /// Nodes of the document that already existed and were left unchanged (merge).
    pub nodes_existing: usize,
    /// Edges added.
    pub edges_created: usize,
    /// The network's node count afterwards.
    pub node_count: usize,
    /// The network's edge count afterwards.
    pub edge_count: usize,
}

fn import(ctx: &ToolContext<'_>, p: ImportParams) -> Result<ImportOutput> {
    if p.content.len() > MAX_IMPORT_BYTES {
        return Err(Error::LimitExceeded {
            what: format!("a document of {} bytes", p.content.len()),
            limit: MAX_IMPORT_BYTES as u64,
            hint: "Split the document and import the parts with mode \"merge\".".into(),
        });
    }
    let format = Format::from(p.format);
    let progress = ctx.progress;
    progress.report(0, PROGRESS_TOTAL, "parsing the document");
    // Edges and materialised memory are both counted while the document is read.
    let graph = interchange::parse_limited(format, &p.content, ctx.limits)?;
    let items = (graph.nodes.len() + graph.edges.len()) as u64;
    progress.report(
        PROGRESS_PARSED,
        PROGRESS_TOTAL,
        &format!("parsed {items} nodes and edges; validating"),
    );
    // All networks together, counted before any network's lock is held (the
    // target's write lock below included), so the count never waits on itself.
    if let Some(held) = memory_held(ctx) {
        ctx.limits
            .check_memory(held, graph_bytes(&graph), "this import")?;
    }
    // The last moment a cancellation can stop the import: nothing is applied yet.
    let ready = |net: &Network, graph: &ImportedGraph| -> Result<()> {
        check_limits(ctx.limits, net, graph)?;
        progress.check("the import")?;
        progress.report(PROGRESS_VALIDATED, PROGRESS_TOTAL, "applying");
        Ok(())
    };
    let (outcome, node_count, edge_count) = match p.mode {
        ImportMode::Create => {
            crate::network::validate::id("network_name", &p.network_name)?;
            if ctx.registry.get(&p.network_name).is_ok() {
                return Err(Error::InvalidValue {
                    field: "network_name".into(),
                    reason: format!(
                        "a network named '{}' already exists. Use mode \"merge\" to add to it, or another name.",
                        p.network_name
                    ),
                });
            }
            ctx.limits.check_networks(ctx.registry.len())?;
            let mut network = Network::named(&p.network_name);
            network.set_description(p.description.clone().or(graph.description.clone()));
            ready(&network, &graph)?;
            let outcome = interchange::apply(&mut network, graph)?;
            let counts = (network.node_count(), network.edge_count());
            // The version this import made, before anyone else can write to it.
            let version = network.version();
            ctx.registry.insert(&p.network_name, network)?;
            ctx.written.set(Some(version));
            (outcome, counts.0, counts.1)
        }
        ImportMode::Merge => ctx.write(&p.network_name, |net| {
            ready(net, &graph)?;
            let outcome = interchange::apply(net, graph)?;
            Ok((outcome, net.node_count(), net.edge_count()))
        })?,
    };
    progress.report(PROGRESS_TOTAL, PROGRESS_TOTAL, "imported");
    info!(network = %p.network_name, format = format.name(), nodes = outcome.nodes_created, edges = outcome.edges_created, "imported");
    Ok(ImportOutput {
        status: Success::Success,
        network_name: p.network_name,
        mode: p.mode,
        nodes_created: outcome.nodes_created,
        nodes_existing: outcome.nodes_existing,
        edges_created: outcome.edges_created,
        node_count,
        edge_count,
    })
}

/// The estimated bytes `graph` adds to a network, in the units of
/// [`Network::estimated_bytes`] (an upper bound in mode "merge", where existing
/// nodes are kept as they are). O(items).
fn graph_bytes(graph: &ImportedGraph) -> usize {
    let nodes = graph.nodes.iter().map(|node| {
        (NODE_BYTES + node.id.len())
            .saturating_add(attributes_bytes(&node.attributes))
            .saturating_add(node.data.as_ref().map_or(0, value_bytes))
    });
    let edges = graph
        .edges
        .iter()
        .map(|edge| EDGE_BYTES.saturating_add(attributes_bytes(&edge.attributes)));
    nodes.chain(edges).fold(0, usize::saturating_add)
}

/// Each network's estimate at the state it was computed at: instance → (version,
/// bytes). Equal (instance, version) means equal content, so an entry is exact
/// until its network changes; only networks written since the last count are
/// walked again.
static ESTIMATES: LazyLock<Mutex<HashMap<u64, (u64, usize)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// [`Network::estimated_bytes`], from [`ESTIMATES`] when the network has not
/// changed since it was last counted.
pub(crate) fn network_bytes(net: &Network) -> usize {
    let (instance, version) = (net.instance(), net.version());
    let cache = || ESTIMATES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(at, bytes)) = cache().get(&instance)
        && at == version
    {
        return bytes;
    }
    // Counted without the cache's lock held: it may take a while on a big network.
    let bytes = net.estimated_bytes();
    cache().insert(instance, (version, bytes));
    bytes
}

/// The estimated bytes all networks of `registry` hold (`--max-memory`). Takes
/// each network's read lock in turn, never two at once; call it holding none.
/// Entries of networks no longer in the registry are dropped from the cache.
pub(crate) fn networks_bytes(registry: &NetworkRegistry) -> usize {
    let mut live = HashSet::new();
    let mut total = 0usize;
    for name in registry.names() {
        // A network deleted meanwhile holds nothing.
        if let Ok((instance, bytes)) =
            registry.read(&name, |net| Ok((net.instance(), network_bytes(net))))
        {
            live.insert(instance);
            total = total.saturating_add(bytes);
        }
    }
    // Another server in the same process may lose entries here: it only counts
    // them again.
    ESTIMATES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|instance, _| live.contains(instance));
    total
}

/// What all networks hold, when `--max-memory` bounds it (`None` when it is
/// off, so that nothing is counted). Call it holding no network's lock.
pub(crate) fn memory_held(ctx: &ToolContext<'_>) -> Option<usize> {
    (ctx.limits.max_memory != usize::MAX).then(|| networks_bytes(ctx.registry))
}

/// Checks the configured caps before anything is applied.
fn check_limits(limits: &Limits, net: &Network, graph: &ImportedGraph) -> Result<()> {
    for (index, node) in graph.nodes.iter().enumerate() {
        limits
            .check_item(&node.attributes, node.data.as_ref())
            .map_err(|e| batch_item_error("nodes", index, e))?;
    }
    for (index, edge) in graph.edges.iter().enumerate() {
        limits
            .check_item(&edge.attributes, None)
            .map_err(|e| batch_item_error("edges", index, e))?;
    }
    let mut new_nodes: HashSet<&str> = HashSet::default();
    let ids = graph.nodes.iter().map(|n| n.id.as_str()).chain(
        graph
            .edges
            .iter()
            .flat_map(|e| [e.source.as_str(), e.target.as_str()]),
    );
    for id in ids {
        if !net.contains_node(id) {
            new_nodes.insert(id);
        }
    }
    limits.check_nodes(net.node_count(), new_nodes.len())?;
    limits.check_edges(net.edge_count(), graph.edges.len())
}

/// The import and export tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
            ToolMeta {
                name: "network_export",
                title: "Export a network",
                description: "Write a network, or the neighbourhood of some nodes, as a document: mermaid (renders in chat), dot, node_link_json (NetworkX), graphml, cypher or edge_list_csv. The document is the last text block of the result; resource_uri holds the whole network.",
                toolset: Toolset::Interchange,
                effect: Effect::Read,
                long_running: true,
            },
            export,
        )
        .with_document("content"),
        ToolDef::new(
            ToolMeta {
                name: "network_import",
                title: "Import a network",
                description: "Load a document (node_link_json, graphml, edge_list_csv or dot) into a new network, or with mode \"merge\" into an existing one. Atomic: if anything is invalid, nothing is imported and the error says where. Nodes named only by edges are created.",
                toolset: Toolset::Interchange,
                effect: Effect::Write { idempotent: false },
                long_running: true,
            },
            import,
        ),
    ]
}
