//! `network_import`: a document parsed, checked against the limits, and applied
//! atomically to a new network or merged into an existing one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;
use tracing::info;

use crate::error::{Error, Result};
use crate::interchange::{self, Arrows, Format, ImportedGraph};
use crate::limits::{Limits, json_bytes, json_map_bytes, json_str_bytes};
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, batch_item_error, memory_held, reserve_memory};
use crate::network::Network;
use crate::network::estimate::{SLOT_BYTES, attributes_bytes, edge_item_bytes, node_item_bytes};
use crate::warnings::WarningCode;

/// Import progress is reported in thousandths: parsing takes the first part,
/// validation the next, applying the rest.
const PROGRESS_TOTAL: u64 = 1000;
const PROGRESS_PARSED: u64 = 600;
const PROGRESS_VALIDATED: u64 = 800;
/// The largest document `network_import` accepts, in bytes.
pub const MAX_IMPORT_BYTES: usize = 256 * 1024 * 1024;

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
    /// A Mermaid flowchart.
    Mermaid,
    /// Task Master's tasks.json.
    TaskmasterJson,
    /// Beads' JSONL export.
    BeadsJsonl,
    /// The MCP memory server's JSONL.
    MemoryJsonl,
    /// `cargo metadata --format-version 1` output.
    CargoMetadata,
    /// npm's package-lock.json (v2, v3).
    PackageLockJson,
    /// `go mod graph` output.
    GoModGraph,
    /// `pipdeptree --json` or `--json-tree` output.
    PipdeptreeJson,
}

impl From<ImportFormat> for Format {
    fn from(format: ImportFormat) -> Self {
        match format {
            ImportFormat::NodeLinkJson => Format::NodeLinkJson,
            ImportFormat::Graphml => Format::Graphml,
            ImportFormat::EdgeListCsv => Format::EdgeListCsv,
            ImportFormat::Dot => Format::Dot,
            ImportFormat::Mermaid => Format::Mermaid,
            ImportFormat::TaskmasterJson => Format::TaskmasterJson,
            ImportFormat::BeadsJsonl => Format::BeadsJsonl,
            ImportFormat::MemoryJsonl => Format::MemoryJsonl,
            ImportFormat::CargoMetadata => Format::CargoMetadata,
            ImportFormat::PackageLockJson => Format::PackageLockJson,
            ImportFormat::GoModGraph => Format::GoModGraph,
            ImportFormat::PipdeptreeJson => Format::PipdeptreeJson,
        }
    }
}

/// Parameters of `network_import`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportParams {
    // Self-explanatory with mode: left undescribed to keep tools/list small.
    pub network_name: String,
    // Self-explanatory: left undescribed to keep tools/list small.
    pub format: ImportFormat,
    /// The whole document, as text (or give path).
    #[serde(default)]
    pub content: Option<String>,
    /// A file to read the document from, instead of content.
    #[serde(default)]
    pub path: Option<String>,
    /// "merge": add to an existing network.
    #[serde(default)]
    pub mode: ImportMode,
    // With mode "create" (default: the document's own): self-explanatory,
    // left undescribed to keep tools/list small.
    #[serde(default)]
    pub description: Option<String>,
    /// "before": edge A -> B means B depends on A. Default: as the document states, else by its format.
    #[serde(default)]
    #[schemars(schema_with = "arrows_schema")]
    pub arrows: Option<Arrows>,
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
    pub created_node_count: usize,
    /// Nodes of the document that already existed and were left unchanged (merge).
    pub existing_node_count: usize,
    /// Edges added.
    pub created_edge_count: usize,
    /// The network's node count afterwards.
    pub node_count: usize,
    /// The network's edge count afterwards.
    pub edge_count: usize,
    /// How the document's edges were read: which end depends on which, and why.
    pub reading: String,
}

impl ImportOutput {
    /// The reply of an import that was applied, whichever way it was read:
    /// reports the end of the progress and logs the counts.
    fn imported(
        ctx: &ToolContext<'_>,
        network_name: String,
        mode: ImportMode,
        format: Format,
        outcome: &interchange::ImportOutcome,
        (node_count, edge_count): (usize, usize),
        reading: String,
    ) -> Self {
        ctx.progress
            .report(PROGRESS_TOTAL, PROGRESS_TOTAL, "imported");
        info!(network = %network_name, format = format.name(), nodes = outcome.nodes_created, edges = outcome.edges_created, "imported");
        ImportOutput {
            status: Success::Success,
            network_name,
            mode,
            created_node_count: outcome.nodes_created,
            existing_node_count: outcome.nodes_existing,
            created_edge_count: outcome.edges_created,
            node_count,
            edge_count,
            reading,
        }
    }
}

/// The schema of an optional `arrows`: the two names, without the `null` an
/// `Option` would add (leaving it out is the default).
fn arrows_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "enum": ["before", "depends_on"]})
}

/// Tells the call's warnings what the import assumed or read and left out.
fn warn(notes: Vec<interchange::ImportNote>) {
    for note in notes {
        let code = match note.kind {
            interchange::NoteKind::AssumedReading => WarningCode::AssumedReading,
            interchange::NoteKind::Ignored => WarningCode::Ignored,
        };
        crate::warnings::warn(code, note.message);
    }
}

fn import(ctx: &ToolContext<'_>, p: ImportParams) -> Result<ImportOutput> {
    // A path was read into content before the call (see `mcp::files`), and
    // the content is lent to the call rather than copied (see
    // `ToolDef::reads_document`); a caller of the body alone may still give it
    // in the parameters.
    let given = p.content.as_deref().or(ctx.lent_document);
    let content = match (given, p.path) {
        (Some(content), None) => content,
        (None, Some(_)) | (Some(_), Some(_)) => {
            return Err(Error::InvalidArguments {
                message: "invalid arguments for network_import: give content or path, not both."
                    .into(),
                field: Some("path".into()),
            });
        }
        (None, None) => {
            return Err(Error::InvalidArguments {
                message: "invalid arguments for network_import: give the document as content, or a file to read as path.".into(),
                field: Some("content".into()),
            });
        }
    };
    // The document, and the transient memory of reading it, go as the call ends.
    crate::mcp::release::note_freed(content.len());
    if content.len() > MAX_IMPORT_BYTES {
        return Err(Error::LimitExceeded {
            what: format!("a document of {} bytes", content.len()),
            limit: MAX_IMPORT_BYTES as u64,
            hint: "Split the document and import the parts with mode \"merge\".".into(),
        });
    }
    let format = Format::from(p.format);
    if p.mode == ImportMode::Merge && p.description.is_some() {
        // Said on success only: a failed import carries no warnings.
        crate::warnings::warn(
            WarningCode::Ignored,
            "description is read with mode \"create\" only: the network's description was left as it was.",
        );
    }
    if interchange::builds_as_read(format) {
        match p.mode {
            ImportMode::Create => {
                return import_as_read(
                    ctx,
                    p.network_name,
                    p.description,
                    p.arrows,
                    format,
                    content,
                );
            }
            ImportMode::Merge => {
                if let Some(merged) =
                    merge_as_read(ctx, &p.network_name, p.arrows, format, content)?
                {
                    return Ok(merged);
                }
            }
        }
    }
    let progress = ctx.progress;
    progress.report(0, PROGRESS_TOTAL, "parsing the document");
    // Edges and materialised memory are both counted while the document is read.
    let mut graph = interchange::parse_reading(format, content, ctx.limits, p.arrows)?;
    let reading = std::mem::take(&mut graph.reading);
    // Said before anything is applied: a failed import is an error, which
    // carries no warnings.
    warn(std::mem::take(&mut graph.notes));
    let items = (graph.nodes.len() + graph.edges.len()) as u64;
    progress.report(
        PROGRESS_PARSED,
        PROGRESS_TOTAL,
        &format!("parsed {items} nodes and edges; validating"),
    );
    // All networks together, counted before any network's lock is held (the
    // target's write lock below included), so the count never waits on itself.
    // Promised until the import is applied, so that two imports (or an import
    // and a copy) at once cannot both pass the bound.
    let reservation = reserve_memory(ctx, memory_held(ctx), graph_bytes(&graph), "this import")?;
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
            refuse_existing(ctx, &p.network_name)?;
            ctx.limits.check_networks(ctx.registry.len())?;
            let mut network = Network::named(&p.network_name);
            network.set_description(p.description.clone().or(graph.description.clone()));
            declare_nonblocking(&mut network, &graph);
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
            let kept = interchange::Kept::of_graph(net, &graph);
            declare_nonblocking(net, &graph);
            let outcome = interchange::apply(net, graph)?;
            warn_kept(&kept);
            Ok((outcome, net.node_count(), net.edge_count()))
        })?,
    };
    // Now counted among the networks.
    drop(reservation);
    Ok(ImportOutput::imported(
        ctx,
        p.network_name,
        p.mode,
        format,
        &outcome,
        (node_count, edge_count),
        reading,
    ))
}

/// A new network built as its document is read (see
/// [`interchange::build_streamed`]): no parsed copy of the whole graph is held
/// beside it. Checked as the other path checks: the name, the item limits,
/// the caps as it grows, then the memory of all networks before it is
/// registered; an error drops it, so nothing changes.
fn import_as_read(
    ctx: &ToolContext<'_>,
    network_name: String,
    description: Option<String>,
    arrows: Option<Arrows>,
    format: Format,
    content: &str,
) -> Result<ImportOutput> {
    let progress = ctx.progress;
    crate::network::validate::id("network_name", &network_name)?;
    refuse_existing(ctx, &network_name)?;
    ctx.limits.check_networks(ctx.registry.len())?;
    progress.report(0, PROGRESS_TOTAL, "reading the document into a new network");
    let mut network = Network::named(&network_name);
    network.set_description(description);
    // Sized once, rather than by doubling (each doubling copies every node or
    // edge, and rehashes every id).
    let expected = (
        interchange::estimated_nodes(format, content, ctx.limits),
        interchange::estimated_edges(format, content, ctx.limits),
    );
    network.reserve(expected.0, expected.1);
    // Rising progress as chunks go in, against the items the document is
    // guessed to hold (an edge list's nodes are not counted: they go in with
    // its edges), at most once a thousandth and never reaching the total
    // before the import is done.
    let expected = (expected.0 + expected.1).max(1) as u64;
    let mut reported = 0;
    let mut stored = |items: usize| {
        let done = (items as u64 * PROGRESS_TOTAL / expected).min(PROGRESS_TOTAL - 1);
        if done > reported {
            reported = done;
            progress.report(
                done,
                PROGRESS_TOTAL,
                &format!("read {items} nodes and edges"),
            );
        }
    };
    let built = interchange::build_streamed_reporting(
        format,
        content,
        ctx.limits,
        arrows,
        &mut network,
        &mut stored,
    )?;
    progress.check("the import")?;
    let held = memory_held(ctx);
    let added = if held.is_some() {
        network.estimated_bytes()
    } else {
        0
    };
    let reservation = reserve_memory(ctx, held, added, "this import")?;
    warn(built.notes);
    let (node_count, edge_count) = (network.node_count(), network.edge_count());
    let version = network.version();
    ctx.registry.insert(&network_name, network)?;
    ctx.written.set(Some(version));
    drop(reservation);
    Ok(ImportOutput::imported(
        ctx,
        network_name,
        ImportMode::Create,
        format,
        &built.outcome,
        (node_count, edge_count),
        built.reading,
    ))
}

/// A merge read in one pass when it adds only edges between nodes the network
/// has ([`merge_edges_in_one_pass`]), else twice rather than parsed whole (see
/// [`interchange::check_streamed`]): first checked, outside any lock, then
/// read into the network under its lock, where nothing can fail any more, so
/// the merge is still all or nothing. No parsed copy of the document is held
/// beside the network. `None` when the network's caps are too near to hold
/// every node the document could add: the caller then parses it whole, to
/// count the new ones exactly.
fn merge_as_read(
    ctx: &ToolContext<'_>,
    network_name: &str,
    arrows: Option<Arrows>,
    format: Format,
    content: &str,
) -> Result<Option<ImportOutput>> {
    if let Some(merged) = merge_edges_in_one_pass(ctx, network_name, arrows, format, content)? {
        return Ok(Some(merged));
    }
    let progress = ctx.progress;
    progress.report(0, PROGRESS_TOTAL, "checking the document");
    // Read against the network as it is, for the nodes it would keep as they
    // are: its writers wait, its readers do not.
    let checked = ctx.registry.read(network_name, |net| {
        interchange::check_streamed(format, content, ctx.limits, arrows, Some(net))
    })?;
    progress.report(
        PROGRESS_VALIDATED,
        PROGRESS_TOTAL,
        &format!(
            "checked {} nodes and {} edges; merging",
            checked.nodes, checked.edges
        ),
    );
    // As in the other path: counted before the network's lock is held.
    let reservation = reserve_memory(ctx, memory_held(ctx), checked.bytes, "this import")?;
    let merged = ctx.write(network_name, |net| {
        if !checked.fits(ctx.limits, net) {
            return Ok(None);
        }
        // The last moment a cancellation can stop the import.
        progress.check("the import")?;
        // Sized once for what the check counted, rather than by doubling.
        net.reserve(checked.nodes, checked.edges);
        // The document passed every check above, and reading it again gives
        // the same items; the call's budget is not charged while the network
        // changes, so it cannot stop the merge half-way.
        let built = crate::budget::unbudgeted(|| {
            interchange::build_streamed(format, content, ctx.limits, arrows, net)
        })?;
        Ok(Some((built, net.node_count(), net.edge_count())))
    })?;
    drop(reservation);
    let Some((built, node_count, edge_count)) = merged else {
        return Ok(None);
    };
    warn_kept(&checked.kept);
    Ok(Some(merged_output(
        ctx,
        network_name,
        format,
        built,
        (node_count, edge_count),
    )))
}

/// A merge of edges between nodes the network holds, read into it in one pass
/// under its lock ([`interchange::extend_streamed`]): the common case of a
/// large graph loaded as a file of nodes and files of edges, read once
/// instead of checked and then read again. `None`, with nothing changed, when
/// the document holds more than such edges, has a fault, or the call's
/// `if_version` does not hold: the caller then merges it the long way, which
/// says why. Memory is promised chunk by chunk as the edges go in.
fn merge_edges_in_one_pass(
    ctx: &ToolContext<'_>,
    network_name: &str,
    arrows: Option<Arrows>,
    format: Format,
    content: &str,
) -> Result<Option<ImportOutput>> {
    ctx.progress
        .report(0, PROGRESS_TOTAL, "reading the edges into the network");
    // Counted before the network's lock is held, as in the other paths.
    let held = memory_held(ctx);
    let mut reservations = Vec::new();
    let mut reserve = |bytes: usize| -> Result<()> {
        reservations.extend(reserve_memory(ctx, held, bytes, "this import")?);
        Ok(())
    };
    let merged = ctx.registry.write(network_name, |net| {
        if ctx.check_version(network_name, net).is_err() {
            return Ok(None);
        }
        ctx.progress.check("the import")?;
        let Some(built) =
            interchange::extend_streamed(format, content, ctx.limits, arrows, net, &mut reserve)
        else {
            return Ok(None);
        };
        ctx.written.set(Some(net.version()));
        Ok(Some((built, net.node_count(), net.edge_count())))
    })?;
    drop(reservations);
    let Some((built, node_count, edge_count)) = merged else {
        return Ok(None);
    };
    Ok(Some(merged_output(
        ctx,
        network_name,
        format,
        built,
        (node_count, edge_count),
    )))
}

/// The reply of a merge read as it went into the network (either way), its
/// reading's notes told as warnings.
fn merged_output(
    ctx: &ToolContext<'_>,
    network_name: &str,
    format: Format,
    built: interchange::Built,
    counts: (usize, usize),
) -> ImportOutput {
    warn(built.notes);
    ImportOutput::imported(
        ctx,
        network_name.to_string(),
        ImportMode::Merge,
        format,
        &built.outcome,
        counts,
        built.reading,
    )
}

/// Tells the call's warnings of the listed nodes a merge kept as they were
/// although the document gives them other values.
fn warn_kept(kept: &interchange::Kept) {
    if kept.count == 0 {
        return;
    }
    let named: Vec<String> = kept
        .first
        .iter()
        .map(|(id, what)| match what {
            Some(key) => format!("'{id}' ({key})"),
            None => format!("'{id}' (data)"),
        })
        .collect();
    let more = match kept.count - kept.first.len() {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    let nodes = if kept.count == 1 { "node" } else { "nodes" };
    crate::warnings::warn(
        WarningCode::Ignored,
        format!(
            "{} {nodes} of the document already existed with other values, and a merge keeps existing nodes as they are, so the document's values were not applied: {}{more}. To change them, call network_update_nodes.",
            kept.count,
            named.join(", ")
        ),
    );
}

/// Refuses a mode "create" import into a name already taken.
fn refuse_existing(ctx: &ToolContext<'_>, name: &str) -> Result<()> {
    if ctx.registry.get(name).is_ok() {
        return Err(Error::InvalidValue {
            field: "network_name".into(),
            reason: format!(
                "a network named '{name}' already exists. Use mode \"merge\" to add to it, or another name."
            ),
        });
    }
    Ok(())
}

/// Adds the relation types the document's tool treats as non-blocking to the
/// network's own list (kept in its order, the new ones after it; a list that
/// does not change is no change).
fn declare_nonblocking(net: &mut Network, graph: &ImportedGraph) {
    if graph.nonblocking_relations.is_empty() {
        return;
    }
    let names: Vec<String> = net
        .nonblocking_relations()
        .iter()
        .chain(&graph.nonblocking_relations)
        .cloned()
        .collect();
    net.set_nonblocking_relations(names);
}

/// The estimated bytes `graph` adds to a network, in the units of
/// [`Network::estimated_bytes`] (an upper bound in mode "merge", where existing
/// nodes are kept as they are). O(items).
fn graph_bytes(graph: &ImportedGraph) -> usize {
    // A default is stored once; each item given it holds one slot.
    let node_slots = SLOT_BYTES * graph.node_defaults.len();
    let edge_slots = SLOT_BYTES * graph.edge_defaults.len();
    let nodes = graph.nodes.iter().map(|node| {
        node_item_bytes(&node.id, &node.attributes, node.data.as_ref()).saturating_add(node_slots)
    });
    let edges = graph
        .edges
        .iter()
        .map(|edge| edge_item_bytes(&edge.attributes).saturating_add(edge_slots));
    let defaults = attributes_bytes(&graph.node_defaults)
        .saturating_add(attributes_bytes(&graph.edge_defaults));
    nodes.chain(edges).fold(defaults, usize::saturating_add)
}

/// The JSON sizes of a graph's defaults, measured once, to check each item's
/// attributes with the defaults it gets without copying them onto it.
struct DefaultSizes<'a> {
    defaults: &'a Map<String, Value>,
    /// `"name":value` of each default, in bytes.
    sizes: Vec<usize>,
}

impl<'a> DefaultSizes<'a> {
    fn new(defaults: &'a Map<String, Value>) -> Self {
        let sizes = defaults
            .iter()
            .map(|(key, value)| json_str_bytes(key) + 1 + json_bytes(value))
            .collect();
        DefaultSizes { defaults, sizes }
    }

    /// How many attributes `own` has with the defaults, and how long they are
    /// as one JSON object.
    fn measure(&self, own: &Map<String, Value>) -> (usize, usize) {
        let mut count = own.len();
        let mut bytes = if own.is_empty() {
            0
        } else {
            json_map_bytes(own)
        };
        for ((key, _), size) in self.defaults.iter().zip(&self.sizes) {
            if !own.contains_key(key) {
                // `{` and `}` for the first entry, a comma for each other.
                bytes += size + if count == 0 { 2 } else { 1 };
                count += 1;
            }
        }
        (count, bytes)
    }
}

/// Checks the configured caps before anything is applied.
fn check_limits(limits: &Limits, net: &Network, graph: &ImportedGraph) -> Result<()> {
    let node_defaults = DefaultSizes::new(&graph.node_defaults);
    for (index, node) in graph.nodes.iter().enumerate() {
        let (count, bytes) = node_defaults.measure(&node.attributes);
        limits
            .check_item_sized(count, bytes, node.data.as_ref())
            .map_err(|e| batch_item_error("nodes", index, e))?;
    }
    let edge_defaults = DefaultSizes::new(&graph.edge_defaults);
    for (index, edge) in graph.edges.iter().enumerate() {
        let (count, bytes) = edge_defaults.measure(&edge.attributes);
        limits
            .check_item_sized(count, bytes, None)
            .map_err(|e| batch_item_error("edges", index, e))?;
    }
    // The nodes the import can add at most: every id it names new. Only when
    // that could pass the cap are the new ids counted exactly (a hash of every
    // id named, most of them endpoints named many times).
    let named = graph.nodes.len().saturating_add(2 * graph.edges.len());
    if limits.check_nodes(net.node_count(), named).is_ok() {
        return limits.check_edges(net.edge_count(), graph.edges.len());
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

/// `network_import`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_import",
            title: "Import a network",
            description: "Load a document, another tool's plan or a dependency graph into a network. Atomic: an error imports nothing and says where.",
            toolset: Toolset::Interchange,
            effect: Effect::Write { idempotent: false },
            long_running: true,
        },
        import,
    )
    .reads_document("content")
}
