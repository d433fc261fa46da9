//! Where a streaming reader puts the nodes and edges it reads: into an
//! [`ImportedGraph`] ([`Collect`]), straight into a network ([`Build`]), a
//! chunk at a time, or nowhere, once checked and counted ([`Check`]); or, for
//! a merge of edges between nodes a network holds, straight into it as one
//! run that is undone on a fault ([`Extend`]).
//!
//! A graph collected whole before it is applied holds every item as its own
//! maps and strings: about ten times the document at the peak for a large
//! node-link file. A network that is new can take the items as they are read
//! instead, since an import that fails midway drops it and so changes nothing;
//! the peak is then the network and one chunk. A merge into an existing
//! network reads the document twice: once to check it all ([`Check`]), then,
//! under the network's lock, into the network, where nothing can fail any more;
//! unless it holds only edges between nodes the network has, which go in as
//! they are read and come out again on a fault ([`Extend`]).

use crate::error::Result;
use crate::interchange::ImportedGraph;
use crate::interchange::apply::{check_edge, check_node, item_error};
use crate::limits::Limits;
use crate::network::estimate::{edge_item_bytes, node_item_bytes};
use crate::network::{AddNodeOutcome, EdgeSpec, MissingNodes, Network, NodeSpec};

/// Items a [`Build`] gathers before it adds them: enough that a batch add's
/// look-ahead pays, few enough that they stay in cache from their reading.
const CHUNK: usize = 4096;

/// Takes the items of a document in its order. `index` is the item's place in
/// its array, as errors name it.
pub(crate) trait ItemSink {
    /// A node, as read.
    fn node(&mut self, node: NodeSpec, index: usize) -> Result<()>;
    /// An edge, as read (before any turning around: the sink turns it).
    fn edge(&mut self, edge: EdgeSpec, index: usize) -> Result<()>;
    /// Every node has been given: edges may now be stored as they come.
    fn nodes_done(&mut self) -> Result<()>;
}

/// Gathers the items into a graph, for [`crate::interchange::apply`].
#[derive(Default)]
pub(crate) struct Collect {
    pub(crate) nodes: Vec<NodeSpec>,
    pub(crate) edges: Vec<EdgeSpec>,
}

impl ItemSink for Collect {
    fn node(&mut self, node: NodeSpec, _: usize) -> Result<()> {
        self.nodes.push(node);
        Ok(())
    }
    fn edge(&mut self, edge: EdgeSpec, _: usize) -> Result<()> {
        self.edges.push(edge);
        Ok(())
    }
    fn nodes_done(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Adds the items to a network, checking each as [`crate::interchange::apply`]
/// and the import's limits do. Edges read before the last node wait, so that
/// an endpoint is created plain only when no node of the document names it.
/// Listed nodes that exist are kept as they are, as `apply` keeps them.
pub(crate) struct Build<'a> {
    network: &'a mut Network,
    limits: &'a Limits,
    turn_around: bool,
    nodes: Vec<NodeSpec>,
    edges: Vec<EdgeSpec>,
    nodes_done: bool,
    /// Told how many items have gone in, after each chunk.
    stored: &'a mut dyn FnMut(usize),
    /// What was done so far.
    pub(crate) outcome: crate::interchange::ImportOutcome,
}

impl<'a> Build<'a> {
    /// Builds into `network`, turning each edge around when the reading says
    /// so. A fault leaves the items before it added: `network` is new (and
    /// dropped by the caller on a fault), or [`Check`] has passed the same
    /// document and the network's caps hold every item it counted.
    /// `stored(items)` is called after each chunk with the nodes and edges
    /// that have gone in so far.
    pub(crate) fn new(
        network: &'a mut Network,
        limits: &'a Limits,
        turn_around: bool,
        stored: &'a mut dyn FnMut(usize),
    ) -> Self {
        Build {
            network,
            limits,
            turn_around,
            nodes: Vec::with_capacity(CHUNK),
            edges: Vec::new(),
            nodes_done: false,
            stored,
            outcome: Default::default(),
        }
    }

    /// Tells the caller how many items have gone in.
    fn report(&mut self) {
        let outcome = &self.outcome;
        (self.stored)(outcome.nodes_created + outcome.nodes_existing + outcome.edges_created);
    }

    fn flush_nodes(&mut self) -> Result<()> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.nodes, Vec::with_capacity(CHUNK));
        let before = self.network.node_count();
        let outcomes = self.network.add_nodes(chunk)?;
        let added = outcomes
            .iter()
            .filter(|o| **o == AddNodeOutcome::Added)
            .count();
        self.outcome.nodes_created += added;
        self.outcome.nodes_existing += outcomes.len() - added;
        self.report();
        self.limits.check_nodes(before, added)
    }

    fn flush_edges(&mut self) -> Result<()> {
        if self.edges.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.edges, Vec::with_capacity(CHUNK));
        let count = chunk.len();
        self.limits.check_edges(self.network.edge_count(), count)?;
        let before = self.network.node_count();
        let batch = self.network.add_edges(chunk, MissingNodes::Create)?;
        self.outcome.nodes_created += batch.created_nodes.len();
        self.outcome.edges_created += count;
        self.report();
        self.limits.check_nodes(before, batch.created_nodes.len())
    }

    /// Adds what is still gathered; the outcome is then complete.
    pub(crate) fn finish(&mut self) -> Result<()> {
        self.nodes_done()
    }
}

impl ItemSink for Build<'_> {
    fn node(&mut self, node: NodeSpec, index: usize) -> Result<()> {
        check_node_item(self.limits, &node, index)?;
        self.nodes.push(node);
        if self.nodes.len() >= CHUNK {
            self.flush_nodes()?;
        }
        Ok(())
    }

    fn edge(&mut self, mut edge: EdgeSpec, index: usize) -> Result<()> {
        check_edge_item(self.limits, self.turn_around, &mut edge, index)?;
        self.edges.push(edge);
        if self.nodes_done && self.edges.len() >= CHUNK {
            self.flush_edges()?;
        }
        Ok(())
    }

    fn nodes_done(&mut self) -> Result<()> {
        self.flush_nodes()?;
        self.nodes_done = true;
        self.flush_edges()
    }
}

/// Reads a merge that adds only edges between nodes the network holds straight
/// into it, in one pass, as a run of edges ([`Network::begin_edge_run`]) that
/// its caller keeps, or undoes on any fault: a node item, an endpoint the
/// network lacks (which [`Build`] would create, after [`Check`] passed the
/// document), an invalid item, a limit, or memory `reserve` refuses. Each
/// chunk's estimated bytes are reserved before its edges go in.
pub(crate) struct Extend<'a> {
    network: &'a mut Network,
    limits: &'a Limits,
    turn_around: bool,
    edges: Vec<EdgeSpec>,
    /// The estimated bytes of the gathered edges, as [`Check`] counts them.
    bytes: usize,
    reserve: &'a mut dyn FnMut(usize) -> Result<()>,
    /// Edges added so far.
    pub(crate) added: usize,
}

impl<'a> Extend<'a> {
    /// Adds to `network`, inside a run of edges its caller began, turning each
    /// edge around when the reading says so.
    pub(crate) fn new(
        network: &'a mut Network,
        limits: &'a Limits,
        turn_around: bool,
        reserve: &'a mut dyn FnMut(usize) -> Result<()>,
    ) -> Self {
        Extend {
            network,
            limits,
            turn_around,
            edges: Vec::with_capacity(CHUNK),
            bytes: 0,
            reserve,
            added: 0,
        }
    }

    fn flush(&mut self) -> Result<()> {
        if self.edges.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.edges, Vec::with_capacity(CHUNK));
        let count = chunk.len();
        self.limits.check_edges(self.network.edge_count(), count)?;
        (self.reserve)(std::mem::take(&mut self.bytes))?;
        self.network.extend_edge_run(chunk)?;
        self.added += count;
        Ok(())
    }

    /// Adds what is still gathered.
    pub(crate) fn finish(&mut self) -> Result<()> {
        self.flush()
    }
}

impl ItemSink for Extend<'_> {
    fn node(&mut self, node: NodeSpec, index: usize) -> Result<()> {
        Err(item_error(
            "nodes",
            index,
            crate::Error::InvalidValue {
                field: "nodes".into(),
                reason: format!("node '{}' is not an edge: read the document twice", node.id),
            },
        ))
    }

    fn edge(&mut self, mut edge: EdgeSpec, index: usize) -> Result<()> {
        check_edge_item(self.limits, self.turn_around, &mut edge, index)?;
        self.bytes = self.bytes.saturating_add(edge_item_bytes(&edge.attributes));
        self.edges.push(edge);
        if self.edges.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    fn nodes_done(&mut self) -> Result<()> {
        Ok(())
    }
}

/// What an import checks of a node as it is read: as [`crate::interchange::apply`]
/// checks it, and against the item limits; a fault names the node's place.
fn check_node_item(limits: &Limits, node: &NodeSpec, index: usize) -> Result<()> {
    check_node(node)
        .and_then(|()| limits.check_item(&node.attributes, node.data.as_ref()))
        .map_err(|e| item_error("nodes", index, e))
}

/// What an import checks of an edge as it is read, after turning it around
/// when the reading says so (so that a fault names the end as it is stored):
/// the edge limit, then as [`crate::interchange::apply`] checks it and against
/// the item limits.
fn check_edge_item(
    limits: &Limits,
    turn_around: bool,
    edge: &mut EdgeSpec,
    index: usize,
) -> Result<()> {
    let most = limits.max_import_edges.min(limits.max_edges);
    if index >= most {
        return Err(Limits::import_edges_exceeded(most));
    }
    if turn_around {
        std::mem::swap(&mut edge.source, &mut edge.target);
    }
    check_edge(edge)
        .and_then(|()| limits.check_item(&edge.attributes, None))
        .map_err(|e| item_error("edges", index, e))
}

/// Checks every item as [`Build`] does and counts what they would add, storing
/// nothing: the first pass of a merge into an existing network, which must
/// find every fault before the network changes.
pub(crate) struct Check<'a> {
    limits: &'a Limits,
    turn_around: bool,
    /// The network merged into, as it is before the merge.
    existing: Option<&'a Network>,
    /// Listed nodes that exist with other values than the document gives.
    pub(crate) kept: crate::interchange::Kept,
    /// Nodes listed (each new at most).
    pub(crate) nodes: usize,
    /// Edges given.
    pub(crate) edges: usize,
    /// The estimated bytes of the items, none of them shared or existing.
    pub(crate) bytes: usize,
}

impl<'a> Check<'a> {
    /// Checks under `limits`, turning each edge around when the reading says
    /// so; listed nodes that `existing` holds with other values are counted
    /// in `kept`.
    pub(crate) fn new(
        limits: &'a Limits,
        turn_around: bool,
        existing: Option<&'a Network>,
    ) -> Self {
        Check {
            limits,
            turn_around,
            existing,
            kept: Default::default(),
            nodes: 0,
            edges: 0,
            bytes: 0,
        }
    }
}

impl ItemSink for Check<'_> {
    fn node(&mut self, node: NodeSpec, index: usize) -> Result<()> {
        check_node_item(self.limits, &node, index)?;
        self.nodes += 1;
        if let Some(existing) = self.existing {
            let no_defaults = serde_json::Map::new();
            let given = (&node.attributes, &no_defaults);
            self.kept
                .note(existing, &node.id, given, node.data.as_ref());
        }
        let bytes = node_item_bytes(&node.id, &node.attributes, node.data.as_ref());
        self.bytes = self.bytes.saturating_add(bytes);
        Ok(())
    }

    fn edge(&mut self, mut edge: EdgeSpec, index: usize) -> Result<()> {
        check_edge_item(self.limits, self.turn_around, &mut edge, index)?;
        self.edges += 1;
        self.bytes = self.bytes.saturating_add(edge_item_bytes(&edge.attributes));
        Ok(())
    }

    fn nodes_done(&mut self) -> Result<()> {
        Ok(())
    }
}

/// The graph a [`Collect`] gathered (its other fields are the reader's to fill).
impl From<Collect> for ImportedGraph {
    fn from(collect: Collect) -> Self {
        ImportedGraph {
            nodes: collect.nodes,
            edges: collect.edges,
            ..ImportedGraph::default()
        }
    }
}
