//! Exporting and importing networks in the formats people already use.
//!
//! | format | export | import | read by |
//! |---|---|---|---|
//! | [`Format::NodeLinkJson`] | yes | yes | `networkx.node_link_graph(data, edges="edges")` |
//! | [`Format::Graphml`] | yes | yes | `networkx.read_graphml`, yEd, Gephi, igraph |
//! | [`Format::Dot`] | yes | yes | Graphviz (`dot -Tsvg`) |
//! | [`Format::Mermaid`] | yes | yes | Mermaid (`flowchart LR`) |
//! | [`Format::Cypher`] | yes | no | Neo4j, Memgraph |
//! | [`Format::EdgeListCsv`] | yes | yes | spreadsheets, pandas |
//! | [`Format::TaskmasterJson`] | no | yes | Task Master (`.taskmaster/tasks/tasks.json`) |
//! | [`Format::BeadsJsonl`] | no | yes | Beads (`bd export`) |
//! | [`Format::MemoryJsonl`] | no | yes | the MCP memory server (`memory.jsonl`) |
//! | [`Format::CargoMetadata`] | no | yes | Cargo (`cargo metadata --format-version 1`) |
//! | [`Format::PackageLockJson`] | no | yes | npm (`package-lock.json`, v2 and v3) |
//! | [`Format::GoModGraph`] | no | yes | Go (`go mod graph`) |
//! | [`Format::PipdeptreeJson`] | no | yes | pipdeptree (`--json`, `--json-tree`) |
//!
//! The module is pure: strings in, strings out, no I/O. [`export`] writes a network
//! (or the subgraph induced by a node set) deterministically: nodes in index order,
//! edges in edge-id order. [`parse`] reads a document into an [`ImportedGraph`]
//! without touching any network, and [`apply`] adds it to a network atomically.
//! The mapping rules of every format (reserved names, nulls, node `data`, type
//! inference) are in `specs/formats.md`.
//!
//! ```
//! use networks_mcp::interchange::{self, Format};
//! use networks_mcp::network::Network;
//! use serde_json::Map;
//!
//! let mut net = Network::new();
//! net.add_node("a").unwrap();
//! net.add_node("b").unwrap();
//! net.add_edge("a", "b", 2.5).unwrap();
//! let text = interchange::export(&net, Format::Graphml, None);
//!
//! let mut copy = Network::new();
//! let graph = interchange::parse(Format::Graphml, &text).unwrap();
//! let outcome = interchange::apply(&mut copy, graph).unwrap();
//! assert_eq!((outcome.nodes_created, outcome.edges_created), (2, 1));
//! assert_eq!(copy.edge(0).unwrap().weight, 2.5);
//! ```

mod apply;
mod export;
mod import;
mod meter;
mod reading;
mod stream;
mod values;

#[cfg(test)]
mod tests;

use petgraph::stable_graph::NodeIndex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;

pub use apply::{ImportOutcome, apply};
pub use reading::{Arrows, ImportNote, NoteKind};

use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::network::{EdgeSpec, Network, NodeSpec};

/// An interchange format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// NetworkX node-link JSON (`directed`, `multigraph`, `graph`, `nodes`, `edges`).
    NodeLinkJson,
    /// GraphML XML with typed keys.
    Graphml,
    /// Graphviz DOT (`digraph`).
    Dot,
    /// A Mermaid flowchart (`flowchart LR` on export; any flowchart on import).
    Mermaid,
    /// Cypher statements for Neo4j or Memgraph (export only).
    Cypher,
    /// An edge list as CSV: `source,target,weight,edge_id,<attributes>`.
    EdgeListCsv,
    /// Task Master's `tasks.json` (import only).
    TaskmasterJson,
    /// Beads' JSONL export, one issue a line (import only).
    BeadsJsonl,
    /// The MCP memory server's JSONL knowledge graph (import only).
    MemoryJsonl,
    /// `cargo metadata --format-version 1`: crates and their resolved
    /// dependencies (import only).
    CargoMetadata,
    /// npm's `package-lock.json`, lockfile versions 2 and 3 (import only).
    PackageLockJson,
    /// The output of `go mod graph` (import only).
    GoModGraph,
    /// The output of `pipdeptree --json` or `--json-tree` (import only).
    PipdeptreeJson,
}

impl Format {
    /// Every format, in a fixed order.
    pub const ALL: [Format; 13] = [
        Format::NodeLinkJson,
        Format::Graphml,
        Format::Dot,
        Format::Mermaid,
        Format::Cypher,
        Format::EdgeListCsv,
        Format::TaskmasterJson,
        Format::BeadsJsonl,
        Format::MemoryJsonl,
        Format::CargoMetadata,
        Format::PackageLockJson,
        Format::GoModGraph,
        Format::PipdeptreeJson,
    ];

    /// The formats [`export`] writes, in a fixed order.
    pub const EXPORTABLE: [Format; 6] = [
        Format::NodeLinkJson,
        Format::Graphml,
        Format::Dot,
        Format::Mermaid,
        Format::Cypher,
        Format::EdgeListCsv,
    ];

    /// The snake_case name, as in the tool parameters (`"graphml"`).
    pub fn name(self) -> &'static str {
        match self {
            Format::NodeLinkJson => "node_link_json",
            Format::Graphml => "graphml",
            Format::Dot => "dot",
            Format::Mermaid => "mermaid",
            Format::Cypher => "cypher",
            Format::EdgeListCsv => "edge_list_csv",
            Format::TaskmasterJson => "taskmaster_json",
            Format::BeadsJsonl => "beads_jsonl",
            Format::MemoryJsonl => "memory_jsonl",
            Format::CargoMetadata => "cargo_metadata",
            Format::PackageLockJson => "package_lock_json",
            Format::GoModGraph => "go_mod_graph",
            Format::PipdeptreeJson => "pipdeptree_json",
        }
    }

    /// The format with this [`name`](Format::name), if any.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether [`parse`] reads this format (all but Cypher).
    pub fn can_import(self) -> bool {
        self != Format::Cypher
    }

    /// Whether [`export`] writes this format (all but the import-only formats
    /// of other tools: Task Master, Beads, the memory server, and the
    /// dependency graphs of Cargo, npm, Go and pipdeptree).
    pub fn can_export(self) -> bool {
        Format::EXPORTABLE.contains(&self)
    }

    /// The MIME type of an exported document.
    pub fn mime_type(self) -> &'static str {
        match self {
            Format::NodeLinkJson => "application/json",
            Format::Graphml => "application/graphml+xml",
            Format::Dot => "text/vnd.graphviz",
            Format::Mermaid => "text/vnd.mermaid",
            Format::Cypher => "application/x-cypher-query",
            Format::EdgeListCsv => "text/csv",
            Format::TaskmasterJson
            | Format::CargoMetadata
            | Format::PackageLockJson
            | Format::PipdeptreeJson => "application/json",
            Format::BeadsJsonl | Format::MemoryJsonl => "application/jsonl",
            Format::GoModGraph => "text/plain",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::NodeLinkJson => "json",
            Format::Graphml => "graphml",
            Format::Dot => "dot",
            Format::Mermaid => "mmd",
            Format::Cypher => "cypher",
            Format::EdgeListCsv => "csv",
            Format::TaskmasterJson
            | Format::CargoMetadata
            | Format::PackageLockJson
            | Format::PipdeptreeJson => "json",
            Format::BeadsJsonl | Format::MemoryJsonl => "jsonl",
            Format::GoModGraph => "txt",
        }
    }

    /// The format a file extension suggests (case-insensitive, leading dot optional):
    /// `json`, `graphml`/`xml`, `dot`/`gv`, `mmd`/`mermaid`, `cypher`/`cql`/`cyp`, `csv`.
    /// `jsonl` suggests none (Beads and the memory server both write it), and
    /// `json` means node-link JSON, never Task Master's.
    pub fn from_extension(ext: &str) -> Option<Format> {
        let ext = ext.trim_start_matches('.').to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::NodeLinkJson,
            "graphml" | "xml" => Format::Graphml,
            "dot" | "gv" => Format::Dot,
            "mmd" | "mermaid" => Format::Mermaid,
            "cypher" | "cql" | "cyp" => Format::Cypher,
            "csv" => Format::EdgeListCsv,
            _ => return None,
        })
    }
}

/// A parsed document, not yet applied to any network.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportedGraph {
    /// The graph-level description, if the document carries one.
    pub description: Option<String>,
    /// Nodes in document order (duplicates allowed; [`apply`] keeps the first).
    pub nodes: Vec<NodeSpec>,
    /// Edges in document order.
    pub edges: Vec<EdgeSpec>,
    /// Attributes every listed node has unless it gives its own value for the
    /// name (a GraphML key's `<default>`): kept here once, not copied onto each
    /// node, and stored once by [`apply`] for all the nodes it is given to.
    /// [`ImportedGraph::node_attributes`] reads a node's attributes with them.
    pub node_defaults: Map<String, Value>,
    /// The same for every edge.
    pub edge_defaults: Map<String, Value>,
    /// The relation types the document's own tool treats as holding nothing
    /// back (Beads' `related`, `parent-child`, …), to be declared
    /// [non-blocking](crate::network::Network::nonblocking_relations) on the
    /// network it goes into: at most the few names the format defines.
    pub nonblocking_relations: Vec<String>,
    /// The reading of its arrows the document states (our own exports state
    /// theirs in a comment), if any.
    pub stated_reading: Option<Arrows>,
    /// How the import read the document's edges, in words: which end depends
    /// on which, and why (the format defines it, the document states it, the
    /// `arrows` option chose it, or a convention was assumed).
    pub reading: String,
    /// What the import assumed or left out, for the caller to be told.
    pub notes: Vec<ImportNote>,
}

impl ImportedGraph {
    /// The attributes the `index`-th node gets: its own, then each default it
    /// has no value of its own for. A copy, for reading one node; [`apply`]
    /// shares the defaults instead.
    pub fn node_attributes(&self, index: usize) -> Map<String, Value> {
        with_defaults(
            self.nodes.get(index).map(|n| &n.attributes),
            &self.node_defaults,
        )
    }

    /// The attributes the `index`-th edge gets, as [`ImportedGraph::node_attributes`].
    pub fn edge_attributes(&self, index: usize) -> Map<String, Value> {
        with_defaults(
            self.edges.get(index).map(|e| &e.attributes),
            &self.edge_defaults,
        )
    }
}

fn with_defaults(
    own: Option<&Map<String, Value>>,
    defaults: &Map<String, Value>,
) -> Map<String, Value> {
    let Some(own) = own else {
        return Map::new();
    };
    let mut map = own.clone();
    for (key, value) in defaults {
        if !map.contains_key(key) {
            map.insert(key.clone(), value.clone());
        }
    }
    map
}

/// Writes `network` in `format`: all of it, or with `only` the nodes in that set and
/// the edges among them (the induced subgraph; indices not in the network are
/// ignored). Nodes come in index order and edges in edge-id order, so the output is
/// deterministic. O(V + E log E) plus the size of the attributes; with `only`, in
/// proportion to the selected nodes and their edges. A format that is only read
/// ([`Format::can_export`] is false) writes an empty document.
pub fn export(network: &Network, format: Format, only: Option<&HashSet<NodeIndex>>) -> String {
    export_counted(network, format, only).document
}

/// A document [`export_counted`] wrote, with what went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The document.
    pub document: String,
    /// Nodes written.
    pub nodes: usize,
    /// Edges written.
    pub edges: usize,
}

/// [`export`], also saying how many nodes and edges the document holds.
pub fn export_counted(
    network: &Network,
    format: Format,
    only: Option<&HashSet<NodeIndex>>,
) -> Exported {
    let selection = export::Selection::new(network, only);
    let (nodes, edges) = (selection.nodes.len(), selection.edges.len());
    let document = match format {
        Format::NodeLinkJson => export::node_link::write(network, &selection),
        Format::Graphml => export::graphml::write(network, &selection),
        Format::Dot => export::dot::write(network, &selection),
        Format::Mermaid => export::mermaid::write(&selection),
        Format::Cypher => export::cypher::write(&selection),
        Format::EdgeListCsv => export::csv::write(&selection),
        Format::TaskmasterJson
        | Format::BeadsJsonl
        | Format::MemoryJsonl
        | Format::CargoMetadata
        | Format::PackageLockJson
        | Format::GoModGraph
        | Format::PipdeptreeJson => String::new(),
    };
    Exported {
        document,
        nodes,
        edges,
    }
}

/// Parses `content` as `format` without changing any network. Errors are
/// [`Error::ImportInvalid`] naming where the problem is: `"line L, column C"`, an
/// element path (`"nodes[3].id"`, `"graphml/graph/node[5]"`, 0-based) or
/// `"row 7, column 'weight'"`. Ids, attributes and weights are checked by [`apply`],
/// which names the offending item. O(size of the document).
pub fn parse(format: Format, content: &str) -> Result<ImportedGraph> {
    parse_bounded(format, content, usize::MAX)
}

/// [`parse_limited`], reading the document's arrows as `arrows` says (`None`:
/// as the document states, else by its format's convention; see [`Arrows`]).
/// A format whose direction its own definition fixes (Task Master, Beads, the
/// memory server) refuses an `arrows` with [`Error::InvalidValue`].
pub fn parse_reading(
    format: Format,
    content: &str,
    limits: &Limits,
    arrows: Option<Arrows>,
) -> Result<ImportedGraph> {
    reading::check(format, arrows)?;
    let graph = parse_raw(
        format,
        content,
        limits.max_import_edges.min(limits.max_edges),
        limits.max_import_bytes,
    )?;
    Ok(reading::orient(format, graph, arrows))
}

/// What [`build_streamed`] made of a document.
pub(crate) struct Built {
    /// What was added.
    pub(crate) outcome: ImportOutcome,
    /// How the edges were read, in words.
    pub(crate) reading: String,
    /// What was assumed or left out, for the caller to be told.
    pub(crate) notes: Vec<ImportNote>,
}

/// About how many edges a document of a format that [`builds_as_read`] gives,
/// within the import's edge limit: for a new network to size its edges once
/// before [`build_streamed`] (a merge sizes them from [`check_streamed`]'s count).
pub(crate) fn estimated_edges(format: Format, content: &str, limits: &Limits) -> usize {
    let most = limits.max_import_edges.min(limits.max_edges);
    let guess = match format {
        Format::EdgeListCsv => import::csv::estimated_edges(content),
        Format::MemoryJsonl => import::memory::estimated_edges(content),
        _ => import::node_link::estimated_edges(content),
    };
    guess.min(most)
}

/// About how many nodes a document of a format that [`builds_as_read`] lists,
/// for a new network to size its nodes and its index of ids once. Never more
/// than the node cap, nor than the import's memory bound has room for (each
/// node counts at least [`NODE_BYTES`](crate::network::estimate::NODE_BYTES)
/// against it), so the reservation is never more than the import may make.
pub(crate) fn estimated_nodes(format: Format, content: &str, limits: &Limits) -> usize {
    let most = limits
        .max_nodes
        .min(limits.max_import_bytes / crate::network::estimate::NODE_BYTES);
    let guess = match format {
        // An edge list names its nodes only as endpoints, each any number of
        // times: no count to size by, so the network grows as it needs.
        Format::EdgeListCsv => 0,
        Format::MemoryJsonl => import::memory::estimated_nodes(content),
        _ => import::node_link::estimated_nodes(content),
    };
    guess.min(most)
}

/// Whether [`build_streamed`] reads this format as it goes (node-link JSON,
/// CSV edge lists and the memory server's JSONL).
pub(crate) fn builds_as_read(format: Format) -> bool {
    matches!(
        format,
        Format::NodeLinkJson | Format::EdgeListCsv | Format::MemoryJsonl
    )
}

/// Reads a document of a format that [`builds_as_read`] into `sink`, item by
/// item; returns the graph's description, if the document gives one.
fn stream_items(
    format: Format,
    content: &str,
    meter: &mut meter::Meter,
    sink: &mut dyn stream::ItemSink,
) -> Result<Option<String>> {
    match format {
        Format::EdgeListCsv => import::csv::stream(content, meter, sink).map(|()| None),
        Format::MemoryJsonl => import::memory::stream(content, meter, sink).map(|()| None),
        _ => import::node_link::stream(content, meter, sink),
    }
}

/// Reads a document of a format that [`builds_as_read`] straight into
/// `network`: under the bounds of [`parse_reading`], each item checked as
/// [`apply`] checks it and against the item limits of `limits`, the network's
/// node and edge caps checked as it grows. Nodes that exist are kept as they
/// are, as [`apply`] keeps them.
///
/// On an error the network is left part-built. So `network` is either new, for
/// the caller to drop on an error, or one that [`check_streamed`] passed this
/// document for and whose caps [`Checked::fits`] says hold it: then nothing
/// can fail on the way. The description is taken when the network has none.
/// O(size of the document), and the memory of the network and one chunk of
/// items rather than of the whole parsed graph.
pub(crate) fn build_streamed(
    format: Format,
    content: &str,
    limits: &Limits,
    arrows: Option<Arrows>,
    network: &mut Network,
) -> Result<Built> {
    build_streamed_reporting(format, content, limits, arrows, network, &mut |_| {})
}

/// [`build_streamed`], calling `stored(items)` each time a chunk of items has
/// gone into the network, with how many nodes and edges have so far: for a
/// caller that reports the progress of a long import.
pub(crate) fn build_streamed_reporting(
    format: Format,
    content: &str,
    limits: &Limits,
    arrows: Option<Arrows>,
    network: &mut Network,
    stored: &mut dyn FnMut(usize),
) -> Result<Built> {
    debug_assert!(builds_as_read(format));
    reading::check(format, arrows)?;
    let settled = reading::settle(format, None, arrows);
    let mut meter = meter::Meter::new(format, limits.max_import_bytes);
    let mut sink = stream::Build::new(network, limits, settled.turn_around, stored);
    let description = stream_items(format, content, &mut meter, &mut sink)?;
    sink.finish()?;
    let outcome = sink.outcome;
    if network.description().is_none() && description.is_some() {
        network.set_description(description);
    }
    Ok(Built {
        outcome,
        reading: settled.reading,
        notes: settled.notes,
    })
}

/// Merges a document of a format that [`builds_as_read`] in one pass when it
/// holds only edges whose ends `network` already has: each edge goes in as it
/// is read, as part of one run of edges, and the run is undone on any fault
/// (a node item, an endpoint the network lacks, an invalid item, a limit, or
/// memory `reserve` refuses for a chunk's estimated bytes). `None` then, with
/// the network as it was, for the caller to merge it the long way
/// ([`check_streamed`], then [`build_streamed`]), which gives the answer and
/// the error the document deserves. A stop of the call's budget undoes the run
/// too, then goes on unwinding. O(size of the document).
pub(crate) fn extend_streamed(
    format: Format,
    content: &str,
    limits: &Limits,
    arrows: Option<Arrows>,
    network: &mut Network,
    reserve: &mut dyn FnMut(usize) -> Result<()>,
) -> Option<Built> {
    debug_assert!(builds_as_read(format));
    // A reading the format cannot take: the long way says so.
    reading::check(format, arrows).ok()?;
    let settled = reading::settle(format, None, arrows);
    network.reserve(0, estimated_edges(format, content, limits));
    let run = network.begin_edge_run();
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut meter = meter::Meter::new(format, limits.max_import_bytes);
        let mut sink = stream::Extend::new(network, limits, settled.turn_around, reserve);
        let description = stream_items(format, content, &mut meter, &mut sink)?;
        sink.finish()?;
        Ok::<_, Error>((sink.added, description))
    }));
    match read {
        Ok(Ok((added, description))) => {
            network.keep_edge_run(run);
            if network.description().is_none() && description.is_some() {
                network.set_description(description);
            }
            Some(Built {
                outcome: ImportOutcome {
                    edges_created: added,
                    ..ImportOutcome::default()
                },
                reading: settled.reading,
                notes: settled.notes,
            })
        }
        Ok(Err(_)) => {
            network.undo_edge_run(run);
            None
        }
        Err(stop) => {
            network.undo_edge_run(run);
            std::panic::resume_unwind(stop)
        }
    }
}

/// Listed nodes that a merge kept as they were although the document gives
/// them other values (an attribute the node lacks or holds with another value,
/// or other data): a merge adds nodes, it never changes one, and the caller
/// says so rather than let the document's values look applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    /// How many.
    pub(crate) count: usize,
    /// The first few, with the first attribute each differs in (`None`: data).
    pub(crate) first: Vec<(String, Option<String>)>,
}

/// The nodes [`Kept`] names by id.
const KEPT_NAMED: usize = 5;

impl Kept {
    /// Counts node `id` if `network` holds it with other values than
    /// `attributes` (its own, then the `defaults` the document gives every
    /// node without a value of its own) and `data`.
    pub(crate) fn note(
        &mut self,
        network: &Network,
        id: &str,
        (attributes, defaults): (&Map<String, Value>, &Map<String, Value>),
        data: Option<&Value>,
    ) {
        let Some(stored) = network.node(id) else {
            return;
        };
        let given = attributes.iter().chain(
            defaults
                .iter()
                .filter(|(key, _)| !attributes.contains_key(*key)),
        );
        // 1 and 1.0 are one value here, as JSON means them.
        let same = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        };
        let differs = given
            .into_iter()
            .find(|(key, value)| {
                !stored
                    .attributes
                    .get(key)
                    .is_some_and(|held| same(held, value))
            })
            .map(|(key, _)| Some(key.clone()))
            .or_else(|| {
                data.filter(|data| !stored.data.as_deref().is_some_and(|held| same(held, data)))
                    .map(|_| None)
            });
        if let Some(what) = differs {
            self.count += 1;
            if self.first.len() < KEPT_NAMED {
                self.first.push((id.to_string(), what));
            }
        }
    }

    /// [`Kept`] of the listed nodes of `graph`, before it is merged into
    /// `network`.
    pub(crate) fn of_graph(network: &Network, graph: &ImportedGraph) -> Kept {
        let mut kept = Kept::default();
        for node in &graph.nodes {
            kept.note(
                network,
                &node.id,
                (&node.attributes, &graph.node_defaults),
                node.data.as_ref(),
            );
        }
        kept
    }
}

/// What [`check_streamed`] counted in a document it found no fault in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checked {
    /// Nodes listed.
    pub(crate) nodes: usize,
    /// Edges given.
    pub(crate) edges: usize,
    /// The estimated bytes the items add at most (see [`crate::network::estimate`]).
    pub(crate) bytes: usize,
    /// Listed nodes the network holds with other values than the document's.
    pub(crate) kept: Kept,
}

impl Checked {
    /// Whether `network` can take every node the document could add (each
    /// listed node and each edge's two ends new) and its edges within the caps
    /// of `limits`: then [`build_streamed`] of the document cannot fail on it.
    pub(crate) fn fits(&self, limits: &Limits, network: &Network) -> bool {
        let named = self.nodes.saturating_add(self.edges.saturating_mul(2));
        limits.check_nodes(network.node_count(), named).is_ok()
            && limits.check_edges(network.edge_count(), self.edges).is_ok()
    }
}

/// Reads a document of a format that [`builds_as_read`] and checks it whole,
/// as [`build_streamed`] would check it, without storing anything: the same
/// errors, found before any network changes. Listed nodes that `existing`
/// (the network to merge into, as it is now) holds with other values are
/// counted in [`Checked::kept`]. O(size of the document), and the memory of
/// one item at a time.
pub(crate) fn check_streamed(
    format: Format,
    content: &str,
    limits: &Limits,
    arrows: Option<Arrows>,
    existing: Option<&Network>,
) -> Result<Checked> {
    debug_assert!(builds_as_read(format));
    reading::check(format, arrows)?;
    let settled = reading::settle(format, None, arrows);
    let mut meter = meter::Meter::new(format, limits.max_import_bytes);
    let mut sink = stream::Check::new(limits, settled.turn_around, existing);
    stream_items(format, content, &mut meter, &mut sink)?;
    Ok(Checked {
        nodes: sink.nodes,
        edges: sink.edges,
        bytes: sink.bytes,
        kept: sink.kept,
    })
}

/// [`parse`], refusing a document that produces more than `max_edges` edges with
/// [`Error::LimitExceeded`] (`--max-import-edges`). DOT edges between subgraphs and
/// Mermaid links between `&` groups are counted as they are expanded, so the
/// memory they would take is never taken.
pub fn parse_bounded(format: Format, content: &str, max_edges: usize) -> Result<ImportedGraph> {
    parse_within(format, content, max_edges, usize::MAX)
}

/// [`parse`] under the import bounds of `limits`: at most
/// [`max_import_edges`](Limits::max_import_edges) (and
/// [`max_edges`](Limits::max_edges)) edges, and at most
/// [`max_import_bytes`](Limits::max_import_bytes) of memory materialised, as
/// [`crate::network::estimate`] counts it. Both are counted while the document
/// is read, before what they count is made: a GraphML key's `<default>` is
/// counted once for every node or edge it is copied onto, a DOT edge statement's
/// attributes once for every edge it expands to. Past either bound the error is
/// [`Error::LimitExceeded`] naming the format and what multiplied.
pub fn parse_limited(format: Format, content: &str, limits: &Limits) -> Result<ImportedGraph> {
    parse_within(
        format,
        content,
        limits.max_import_edges.min(limits.max_edges),
        limits.max_import_bytes,
    )
}

fn parse_within(
    format: Format,
    content: &str,
    max_edges: usize,
    max_bytes: usize,
) -> Result<ImportedGraph> {
    let graph = parse_raw(format, content, max_edges, max_bytes)?;
    Ok(reading::orient(format, graph, None))
}

/// The document's edges as written (first-named end as the source), with the
/// reading it states, before [`reading::orient`].
fn parse_raw(
    format: Format,
    content: &str,
    max_edges: usize,
    max_bytes: usize,
) -> Result<ImportedGraph> {
    let mut meter = meter::Meter::new(format, max_bytes);
    let graph = match format {
        Format::NodeLinkJson => import::node_link::parse(content, &mut meter),
        Format::Graphml => import::graphml::parse(content, &mut meter),
        Format::Dot => import::dot::parse(content, max_edges, &mut meter),
        Format::EdgeListCsv => import::csv::parse(content, &mut meter),
        Format::Mermaid => import::mermaid::parse(content, max_edges, &mut meter),
        Format::TaskmasterJson => import::taskmaster::parse(content, &mut meter),
        Format::BeadsJsonl => import::beads::parse(content, max_edges, &mut meter),
        Format::MemoryJsonl => import::memory::parse(content, &mut meter),
        Format::CargoMetadata => import::cargo::parse(content, max_edges, &mut meter),
        Format::PackageLockJson => import::npm::parse(content, max_edges, &mut meter),
        Format::GoModGraph => import::go::parse(content, max_edges, &mut meter),
        Format::PipdeptreeJson => import::pip::parse(content, max_edges, &mut meter),
        Format::Cypher => Err(Error::ImportInvalid {
            format: format.name().to_string(),
            location: None,
            message: "cypher can be exported but not imported; export the network from Neo4j or Memgraph as GraphML (apoc.export.graphml) and import that".into(),
        }),
    }?;
    if graph.edges.len() > max_edges {
        return Err(Limits::import_edges_exceeded(max_edges));
    }
    let mut graph = graph;
    match format {
        Format::Dot => graph.stated_reading = reading::stated_in_comments(content, "//"),
        Format::Graphml => graph.stated_reading = reading::stated_in_comments(content, "<!--"),
        _ => {}
    }
    Ok(graph)
}

/// An [`Error::ImportInvalid`] for `format`.
pub(crate) fn invalid(
    format: Format,
    location: Option<String>,
    message: impl Into<String>,
) -> Error {
    Error::ImportInvalid {
        format: format.name().to_string(),
        location,
        message: message.into(),
    }
}

/// `"line L, column C"` (1-based; columns count characters) of byte offset `pos` in `text`.
pub(crate) fn line_col(text: &str, pos: usize) -> String {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    format!("line {line}, column {column}")
}
