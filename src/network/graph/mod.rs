//! The graph data structure: [`Network`] and everything that must stay
//! consistent with it, in the manner of petgraph's `graph_impl/`.
//!
//! A `Network` is a petgraph [`StableDiGraph`] of [`Node`]s and [`Edge`]s plus an
//! id → [`NodeIndex`] index (a hash table of indices keyed by the ids in the node
//! records), an edge-id → [`EdgeIndex`] index (a vector: edge ids only grow), and a
//! lazily built compact copy of the adjacency for whole-graph algorithms
//! ([`adjacency`]).
//!
//! What belongs here: the `Network` struct and its basic accessors (ids,
//! nodes, edges, neighbours, degrees), the one structural change path
//! (`structure.rs`), the id and edge-id indices, the adjacency rows, the input
//! rules (`validate.rs`), the node and edge types, the edits and batches that
//! mutate (`edit.rs`), snapshots and the memory estimate.
//!
//! The rule: the fields of `Network` are private to this module, so only code
//! here can break the facts derived from the graph; the algorithm families of
//! `algo/` read the network through the accessors documented here and change it
//! only through [`Network::change`] and its helpers. Nothing here imports from
//! `algo/` (a helper both need lives here), and nothing here knows of MCP, the
//! registry, async or I/O: errors are `crate::error`'s, work loops charge
//! `crate::budget`. `tests/core/layers.rs` checks the imports.

pub mod adjacency;
pub(crate) mod edge_columns;
mod edge_ids;
pub mod edit;
pub mod estimate;
mod frontier;
pub mod history;
mod id_index;
pub(crate) mod interner;
pub(crate) mod node_columns;
pub(crate) mod prefetch;
pub mod query;
pub mod relations;
mod rows;
pub mod snapshot;
pub(in crate::network) mod structure;
mod types;
pub mod validate;

use hashbrown::HashSet;
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;

pub use adjacency::Adjacency;
pub use edit::{
    AttributeUpdate, EdgeBatchOutcome, EdgeItem, EdgeSpec, MissingNodes, NodeItem, NodeSpec,
    RemovedEdge,
};
pub use history::{ChangeKind, ChangeRecord, ChangeWindow, Changes};
pub use query::NodeFilter;
pub use relations::{DEFAULT_RELATION_ATTRIBUTE, PLAIN, RelationFilter};
pub use types::{AddNodeOutcome, Attributes, Direction, Edge, EdgeId, EdgeView, Node, SmolStr};

use crate::error::{Error, Result};
use adjacency::AdjacencyCache;
use edge_ids::EdgeIdIndex;
pub(crate) use frontier::{Frontier, Ranked};
pub use frontier::{Group, PlanIndex};
use id_index::{IdIndex, same_id};

/// The default weight of an edge.
pub const DEFAULT_WEIGHT: f64 = 1.0;

/// A named graph's content: a directed multigraph with string node ids, weighted
/// edges, self-loops and parallel edges allowed.
#[derive(Debug, Clone, Default)]
pub struct Network {
    graph: StableDiGraph<Node, Edge>,
    node_index: IdIndex,
    edge_index: EdgeIdIndex,
    next_edge_id: EdgeId,
    description: Option<String>,
    /// Relation types that hold nothing back in this network: followed only by
    /// calls that ask for them (see [`Network::default_relations`]).
    nonblocking_relations: Vec<String>,
    /// A label used in error messages ("network 'x'"); not part of the content.
    name: String,
    /// Derived from `graph`; built on demand, then edited by every change to
    /// nodes or edges.
    adjacency: AdjacencyCache,
    /// How many edges have a negative weight, so that Dijkstra's precondition is
    /// checked in O(1) instead of by a pass over every edge.
    negative_edges: usize,
    /// Rises with every change of content (nodes, edges, attributes, data,
    /// description); see [`Network::version`].
    version: u64,
    /// Tells this network apart from every other one made in this process.
    instance: Instance,
    /// Derived from the content at one version: the tasks a claim can take
    /// ([`work`](crate::network::work)), so that a claim does not scan the whole plan.
    frontier: Frontier,
    /// The window of recent changes ([`Network::changes_since`]), recorded by
    /// the change path as it counts each version.
    history: history::History,
    /// One allocation per distinct attribute name, value and map: every
    /// attribute stored goes through it.
    interner: interner::Interner,
    /// Attributes of every node as arrays, for reads over most nodes; derived
    /// from the content at one version (see [`node_columns`]).
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    node_columns: node_columns::NodeColumns,
}

impl Network {
    /// `map` as entries shared in this network, to give many items at once
    /// ([`Network::add_nodes_defaulted`], [`Network::add_edges_defaulted`]):
    /// each value is stored once however many items it is given to.
    #[cfg(feature = "interchange")]
    pub(crate) fn shared_entries(
        &mut self,
        map: serde_json::Map<String, serde_json::Value>,
    ) -> Vec<types::Entry> {
        self.interner.entries(map)
    }
}

/// A number unique to each network made in this process, so that a version
/// number of one network is never mistaken for that of another (one deleted and
/// created again under the same name starts again at version 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Instance(u64);

impl Default for Instance {
    fn default() -> Self {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Instance(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl Network {
    /// An empty network.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty network with room for `nodes` nodes and `edges` edges.
    pub fn with_capacity(nodes: usize, edges: usize) -> Self {
        Network {
            graph: StableDiGraph::with_capacity(nodes, edges),
            node_index: IdIndex::with_capacity(nodes),
            edge_index: EdgeIdIndex::with_capacity(edges),
            ..Self::default()
        }
    }

    /// An empty network whose error messages name it `name`.
    pub fn named(name: impl Into<String>) -> Self {
        Network {
            name: name.into(),
            ..Self::default()
        }
    }

    /// The name used in error messages (empty for an anonymous network).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sets the name used in error messages.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// The free-text description, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Sets the free-text description.
    pub fn set_description(&mut self, description: Option<String>) {
        if self.description != description {
            self.description = description;
            self.touch(history::Entry::Kept(Box::new(
                ChangeKind::DescriptionChanged,
            )));
        }
    }

    /// The relation types declared non-blocking for this network (informational
    /// links such as `related` or `discovered-from`), in the order given.
    pub fn nonblocking_relations(&self) -> &[String] {
        &self.nonblocking_relations
    }

    /// Declares the relation types that hold nothing back in this network
    /// (duplicates dropped, order kept); an empty list declares none. A change
    /// of content when it differs.
    ///
    /// ```
    /// use networks_mcp::network::{EdgeSpec, Network, Order};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge_with(EdgeSpec::new("a", "b"))?;
    /// net.add_edge_with(EdgeSpec::new("b", "a").with_attribute("relation", "related"))?;
    /// net.set_nonblocking_relations(["related"]);
    /// let blocking = net.default_relations();
    /// assert!(net.following(&blocking).topological_sort(Order::Forward).is_ok());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn set_nonblocking_relations<I, S>(&mut self, names: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut list: Vec<String> = Vec::new();
        for name in names {
            let name = name.into();
            if !list.contains(&name) {
                list.push(name);
            }
        }
        if list != self.nonblocking_relations {
            self.nonblocking_relations = list;
            self.touch(history::Entry::Kept(Box::new(
                ChangeKind::NonblockingRelationsChanged,
            )));
        }
    }

    /// The filter a call that names no relation types follows: every edge but
    /// those of the [non-blocking](Network::nonblocking_relations) types, read
    /// from the default attribute `relation`.
    pub fn default_relations(&self) -> RelationFilter {
        RelationFilter::except(&self.nonblocking_relations)
    }

    /// How many changes of content this network has seen: it rises with every
    /// node or edge added or removed and every change of attributes, data or
    /// description, and never falls. Equal versions of one network mean equal
    /// content, so a result computed at one version is still exact at it.
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// let before = net.version();
    /// net.add_node("a")?;
    /// assert!(net.version() > before);
    /// let after = net.version();
    /// net.add_node("a")?; // already there: nothing changes
    /// assert_eq!(net.version(), after);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn version(&self) -> u64 {
        self.version
    }

    /// A number that no other network made in this process shares (a clone keeps
    /// it). With [`Network::version`] it names one state of one network: a cursor
    /// or cache keyed by both cannot be confused by a network deleted and created
    /// again under the same name.
    pub fn instance(&self) -> u64 {
        self.instance.0
    }

    /// Continues the version count of a network restored from a snapshot, so
    /// that its version never falls across a restart.
    #[cfg(feature = "storage")]
    pub(crate) fn resume_version(&mut self, version: u64) {
        self.version = self.version.max(version);
        // What the rebuild recorded is not the network's past.
        self.history.forget(self.version);
    }

    /// Counts one change of content and records what it did in the window of
    /// recent changes, with the version it made.
    #[inline]
    fn touch(&mut self, entry: history::Entry) {
        self.next_version();
        self.history.push(self.version, entry);
    }

    /// Counts one change of content, to be recorded by the caller.
    fn next_version(&mut self) {
        // Saturating: a version restored from a hand-edited snapshot may sit at the
        // top of the range, and a write must not overflow on it.
        self.version = self.version.saturating_add(1);
    }

    /// The nodes in index (insertion) order, and each node index's position
    /// among them (`u32::MAX` at a vacant index): the dense numbering that
    /// whole-graph algorithms index their flat arrays by. O(V).
    pub(crate) fn dense_numbering(&self) -> (Vec<NodeIndex>, Vec<u32>) {
        let nodes: Vec<NodeIndex> = self.graph.node_indices().collect();
        let mut position = vec![u32::MAX; petgraph::visit::NodeIndexable::node_bound(&self.graph)];
        for (i, ix) in nodes.iter().enumerate() {
            position[ix.index()] = i as u32;
        }
        (nodes, position)
    }

    /// Number of nodes. O(1).
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// Number of edges. O(1).
    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The underlying petgraph graph, for algorithms and advanced use.
    pub fn graph(&self) -> &StableDiGraph<Node, Edge> {
        &self.graph
    }

    /// The compact adjacency of the whole network, built now if it is not yet.
    /// O(V + E) to build; after that, every write keeps it current at about the
    /// cost of the write itself.
    /// Whole-graph algorithms use it on their own; call this to read neighbor rows
    /// directly (see [`Adjacency`]).
    pub fn adjacency(&self) -> Adjacency<'_> {
        self.adjacency.both(&self.graph, &self.edge_index)
    }

    /// The rows of one direction, built now if needed (for whole-graph algorithms).
    pub(crate) fn rows(&self, dir: petgraph::Direction) -> &adjacency::Rows {
        self.adjacency.rows(&self.graph, &self.edge_index, dir)
    }

    /// The rows of one direction seen through `filter` (built now if needed,
    /// with the filter's relation columns): whole-graph algorithms that follow
    /// only some relation types read these.
    pub(crate) fn follow(
        &self,
        dir: petgraph::Direction,
        filter: &RelationFilter,
    ) -> adjacency::Follow<'_> {
        adjacency::Follow::new(self, dir, filter)
    }

    /// The compact rows with each slot's edge and relation class (under
    /// `attribute`), for a read that walks edges one by one and needs each edge
    /// (see [`edge_columns`]). Built now when `build`, else only if the rows are
    /// built already: a read that may touch little of the graph should walk
    /// petgraph's lists, charging them with [`Network::walked_lists`], and ask
    /// with `build` once [`Network::rows_pay_off`] says so.
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn edge_rows(
        &self,
        attribute: &str,
        build: bool,
    ) -> Option<edge_columns::EdgeRows<'_>> {
        self.adjacency
            .edge_rows(&self.graph, &self.edge_index, attribute, build)
    }

    /// Records `edges` walked on petgraph's lists by a read that could have
    /// used the rows (the ski-rental count of [`adjacency`]).
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn walked_lists(&self, edges: usize) {
        self.adjacency.charge_walk(edges);
    }

    /// Whether the list walks so far, with `more` to come, have cost what
    /// building the rows would.
    #[cfg_attr(not(feature = "query"), allow(dead_code))]
    pub(crate) fn rows_pay_off(&self, more: usize) -> bool {
        self.adjacency.pays_off(&self.graph, more)
    }

    /// Frees the compact adjacency, if built (it is built again when next needed).
    /// For programs that hold many large networks and analyse them rarely.
    pub fn drop_adjacency(&mut self) {
        self.adjacency.drop_rows();
    }

    /// The petgraph index of a node. O(1) expected.
    pub fn index_of(&self, id: &str) -> Option<NodeIndex> {
        self.node_index.get(&self.graph, id)
    }

    /// The indices of an edge's two endpoints (`ids`, with their [`IdIndex::hash`]es,
    /// lookups already hinted by [`Network::hint_pair`]), or `None` if either is
    /// not a node. The two lookups' memory accesses overlap (each waits on the
    /// table's control bytes and slot, then a node record) rather than one
    /// following the other: each stage is issued for both ids before either is
    /// used. O(1) expected.
    #[inline(always)]
    fn find_pair(&self, ids: [&str; 2], hashes: [u64; 2]) -> Option<(NodeIndex, NodeIndex)> {
        // Written out for the two ends: `[_; 2].map` calls its closure through
        // a wrapper that was not inlined, a tenth of a single add's instructions.
        let index = &self.node_index;
        let slots = [index.probe_slot(hashes[0]), index.probe_slot(hashes[1])];
        let candidate = |slot: Option<usize>| slot.and_then(|s| index.slot_node(s));
        let candidates = [candidate(slots[0]), candidate(slots[1])];
        let record = |c: Option<NodeIndex>| c.and_then(|ix| self.graph.node_weight(ix));
        let records = [record(candidates[0]), record(candidates[1])];
        // A miss (or a tag shared with another id) looks up properly.
        let source = confirmed(candidates[0], records[0], ids[0])
            .or_else(|| index.get_hashed(&self.graph, ids[0], hashes[0]))?;
        let target = confirmed(candidates[1], records[1], ids[1])
            .or_else(|| index.get_hashed(&self.graph, ids[1], hashes[1]))?;
        Some((source, target))
    }

    /// The error an edge between `source` and `target` of this weight (and
    /// these attributes) meets, checked in the order the edge adds check it: each
    /// id, the weight, the attributes, then each id's node; `Ok` (the two
    /// nodes) only if none fails. The rare path of [`Network::add_edge`],
    /// [`Network::add_edge_with`] and a batch's items (which check attributes
    /// after nodes, so pass none), taken when an endpoint was not found.
    #[cold]
    #[inline(never)]
    fn edge_error(
        &self,
        source: &str,
        target: &str,
        weight: f64,
        attributes: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> Result<(NodeIndex, NodeIndex)> {
        validate::id("source", source)?;
        validate::id("target", target)?;
        validate::weight(weight)?;
        if let Some(attributes) = attributes {
            validate::attributes("attributes", attributes)?;
        }
        Ok((
            self.require("source", source)?,
            self.require("target", target)?,
        ))
    }

    /// Starts the lookups of an edge's two endpoints and returns their
    /// [`IdIndex::hash`]es, for [`Network::find_pair`]. Called first, so that
    /// the lookups' first cache misses are under way while the edge's other
    /// work runs: a single `add_edge` on a large network otherwise waits on
    /// memory more than it computes. Hashing an id before its check is safe: it
    /// reads the id's bytes, as the check does.
    #[inline(always)]
    fn hint_pair(&self, source: &str, target: &str) -> [u64; 2] {
        let hashes = [self.node_index.hash(source), self.node_index.hash(target)];
        self.node_index.prefetch_lookup(hashes[0]);
        self.node_index.prefetch_lookup(hashes[1]);
        hashes
    }

    /// Like [`Network::index_of`], but an unknown id is an [`Error::NodeNotFound`];
    /// `field` names the parameter in the message.
    pub fn require(&self, field: &str, id: &str) -> Result<NodeIndex> {
        self.require_hashed(field, id, self.node_index.hash(id))
    }

    /// [`Network::require`] for an id whose hash in the id index is known.
    pub(crate) fn require_hashed(&self, field: &str, id: &str, hash: u64) -> Result<NodeIndex> {
        self.node_index
            .get_hashed(&self.graph, id, hash)
            .ok_or_else(|| self.node_not_found(field, id))
    }

    /// The indices of `ids`, in order; every unknown id is named in one error
    /// ([`Error::NodeNotFound`] for one, [`Error::NodesNotFound`] for several, each
    /// once), so that a list with several mistakes is fixed in one step. O(|ids|).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["build", "test"])?;
    /// assert_eq!(net.require_all("done", ["test", "build"])?.len(), 2);
    /// let err = net.require_all("done", ["tset", "build", "biuld", "tset"]).unwrap_err();
    /// assert!(err.to_string().starts_with("2 ids of done are not nodes of the network: 'tset', 'biuld'."));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn require_all<'a>(
        &self,
        field: &str,
        ids: impl IntoIterator<Item = &'a str>,
    ) -> Result<Vec<NodeIndex>> {
        let mut found = Vec::new();
        let mut missing: Vec<&str> = Vec::new();
        let mut seen = HashSet::new();
        for id in ids {
            match self.index_of(id) {
                Some(ix) => found.push(ix),
                None if seen.insert(id) => missing.push(id),
                None => {}
            }
        }
        match missing.as_slice() {
            [] => Ok(found),
            [one] => Err(self.node_not_found(field, one)),
            _ => Err(Error::NodesNotFound {
                network: self.name.clone(),
                field: field.to_string(),
                node_ids: missing.into_iter().map(str::to_string).collect(),
                suggestions: Vec::new(),
            }),
        }
    }

    /// The error for an unknown node id. (The MCP layer adds the closest existing
    /// ids as suggestions; the core stays free of string-distance code.)
    pub fn node_not_found(&self, field: &str, id: &str) -> Error {
        Error::NodeNotFound {
            network: self.name.clone(),
            field: field.to_string(),
            node_id: id.to_string(),
            suggestions: Vec::new(),
        }
    }

    /// A node by id. O(1) expected.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.index_of(id).map(|ix| &self.graph[ix])
    }

    /// The id of the node at `ix`.
    ///
    /// # Panics
    /// If `ix` is not a node of this network (a caller bug, never input).
    pub fn id_at(&self, ix: NodeIndex) -> &str {
        &self.graph[ix].id
    }

    /// The ids of nodes given by index, in the same order: how an algorithm's
    /// answer in indices (a cycle, a traversal, an order) becomes ids. Indices that
    /// are not nodes of this network are skipped. O(len).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// net.add_edge("a", "c", 1.0)?;
    /// net.add_edge("a", "b", 1.0)?;
    /// let a = net.require("node_id", "a")?;
    /// assert_eq!(net.ids(&net.neighbor_indices(a, Direction::Out)), ["c", "b"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn ids(&self, nodes: &[NodeIndex]) -> Vec<&str> {
        nodes
            .iter()
            .filter_map(|&ix| self.graph.node_weight(ix))
            .map(|node| &*node.id)
            .collect()
    }

    /// [`Network::ids`] as owned strings, for answers and errors that outlive the borrow.
    pub(crate) fn ids_owned(&self, nodes: &[NodeIndex]) -> Vec<String> {
        self.ids(nodes).into_iter().map(String::from).collect()
    }

    /// Whether a node with this id exists. O(1) expected.
    pub fn contains_node(&self, id: &str) -> bool {
        self.index_of(id).is_some()
    }

    /// All node ids, in index order (insertion order until nodes are removed).
    pub fn node_ids(&self) -> impl Iterator<Item = &str> {
        self.graph.node_indices().map(|ix| &*self.graph[ix].id)
    }

    /// Adds a node with no data and no attributes. Idempotent: an existing id is
    /// left untouched and reported as [`AddNodeOutcome::Duplicate`]. O(1) expected.
    ///
    /// ```
    /// use networks_mcp::network::{AddNodeOutcome, Network};
    ///
    /// let mut net = Network::new();
    /// assert_eq!(net.add_node("build")?, AddNodeOutcome::Added);
    /// assert_eq!(net.add_node("build")?, AddNodeOutcome::Duplicate);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn add_node(&mut self, id: &str) -> Result<AddNodeOutcome> {
        // As `add_node_with(NodeSpec::new(id))`, without copying the id, and
        // hashing it once for the lookup and the insertion.
        validate::id("node_id", id)?;
        let hash = self.node_index.hash(id);
        if self.node_index.get_hashed(&self.graph, id, hash).is_some() {
            return Ok(AddNodeOutcome::Duplicate);
        }
        self.insert_node_hashed(id, hash, None, Attributes::default());
        Ok(AddNodeOutcome::Added)
    }

    /// Adds a node with data and attributes (see [`NodeSpec`]'s builder).
    /// Idempotent like [`Network::add_node`]: an existing node keeps what it has.
    /// Validates the id, that the attributes are flat and the data's depth.
    /// O(1) expected, plus the size of the attributes and data.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec};
    /// use serde_json::json;
    ///
    /// let mut net = Network::new();
    /// net.add_node_with(
    ///     NodeSpec::new("build")
    ///         .with_attribute("owner", "ci")
    ///         .with_data(json!({"steps": ["compile", "link"]})),
    /// )?;
    /// assert_eq!(net.node("build").unwrap().attributes.get("owner"), Some(&json!("ci")));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn add_node_with(&mut self, node: NodeSpec) -> Result<AddNodeOutcome> {
        let NodeSpec {
            id,
            data,
            attributes,
        } = node;
        validate::id("node_id", &id)?;
        validate::attributes("attributes", &attributes)?;
        if let Some(data) = &data {
            validate::data("data", data)?;
        }
        if self.contains_node(&id) {
            return Ok(AddNodeOutcome::Duplicate);
        }
        let attributes = self.interner.attributes(attributes);
        self.insert_node_unchecked(&id, data, attributes);
        Ok(AddNodeOutcome::Added)
    }

    /// Adds one directed edge `source → target` of the given weight. Not
    /// idempotent: every call adds a new edge (parallel edges and self-loops are
    /// allowed) and returns its stable id. Both nodes must exist; the weight must be
    /// finite. O(1) expected. For attributes use [`Network::add_edge_with`]; for
    /// many edges, [`Network::add_edges`].
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_node("compile")?;
    /// net.add_node("link")?;
    /// let id = net.add_edge("link", "compile", 2.5)?;
    /// assert_eq!(net.edge(id).unwrap().weight, 2.5);
    /// assert_eq!(net.add_edge("link", "test", 1.0).unwrap_err().code(), "node_not_found");
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn add_edge(&mut self, source: &str, target: &str, weight: f64) -> Result<EdgeId> {
        // As `add_edge_with(EdgeSpec::new(source, target).with_weight(weight))`,
        // without copying the ids: the same checks in the same order.
        // Every id in the network passed `validate::id` when its node was
        // added, so ids that both resolve need no check of their own; a pair
        // that does not takes every check in order, for the usual error.
        let hashes = self.hint_pair(source, target);
        let (a, b) = match self.find_pair([source, target], hashes) {
            Some(pair) => {
                validate::weight(weight)?;
                pair
            }
            None => self.edge_error(source, target, weight, None)?,
        };
        Ok(self.insert_edge_unchecked(a, b, weight, Attributes::default()))
    }

    /// Adds one directed edge with attributes (see [`EdgeSpec`]'s builder); as
    /// [`Network::add_edge`] otherwise.
    pub fn add_edge_with(&mut self, edge: EdgeSpec) -> Result<EdgeId> {
        let EdgeSpec {
            source,
            target,
            weight,
            attributes,
        } = edge;
        // As in `add_edge`: ids that resolve were checked when their nodes were added.
        let hashes = self.hint_pair(&source, &target);
        let (a, b) = match self.find_pair([&source, &target], hashes) {
            Some(pair) => {
                validate::weight(weight)?;
                validate::attributes("attributes", &attributes)?;
                pair
            }
            None => self.edge_error(&source, &target, weight, Some(&attributes))?,
        };
        let attributes = self.interner.attributes(attributes);
        Ok(self.insert_edge_unchecked(a, b, weight, attributes))
    }

    /// Whether some edge has a negative weight. O(1).
    pub fn has_negative_weights(&self) -> bool {
        self.negative_edges > 0
    }

    /// The edge with this id, with its endpoints. O(1) expected.
    pub fn edge(&self, id: EdgeId) -> Option<EdgeView<'_>> {
        let ix = self.edge_index.get(id)?;
        self.edge_view(ix)
    }

    fn edge_view(&self, ix: EdgeIndex) -> Option<EdgeView<'_>> {
        let (a, b) = self.graph.edge_endpoints(ix)?;
        let edge = self.graph.edge_weight(ix)?;
        Some(EdgeView {
            id: edge.id,
            source: &self.graph[a].id,
            target: &self.graph[b].id,
            weight: edge.weight,
            attributes: &edge.attributes,
        })
    }

    /// The edges leaving (`Out`) or entering (`In`) a node, in insertion order.
    /// `Both` gives the outgoing edges, then the incoming ones (a self-loop appears in each).
    /// O(degree).
    pub fn incident_edges(&self, ix: NodeIndex, direction: Direction) -> Vec<EdgeView<'_>> {
        let mut out = Vec::new();
        if matches!(direction, Direction::Out | Direction::Both) {
            self.push_edges(ix, Outgoing, &mut out);
        }
        if matches!(direction, Direction::In | Direction::Both) {
            self.push_edges(ix, Incoming, &mut out);
        }
        out
    }

    fn push_edges<'a>(
        &'a self,
        ix: NodeIndex,
        dir: petgraph::Direction,
        out: &mut Vec<EdgeView<'a>>,
    ) {
        let start = out.len();
        // petgraph walks a node's edge list newest first; reverse for insertion order.
        out.extend(
            self.graph
                .edges_directed(ix, dir)
                .filter_map(|e| self.edge_view(e.id())),
        );
        out[start..].reverse();
    }

    /// The neighbor indices of `ix`: out-neighbors in edge-insertion order, then
    /// in-neighbors in edge-insertion order, each node once. O(degree).
    pub fn neighbor_indices(&self, ix: NodeIndex, direction: Direction) -> Vec<NodeIndex> {
        let source = adjacency::NeighborSource::partial(self, direction);
        let mut result = Vec::new();
        for (wanted, dir) in [(Direction::Out, Outgoing), (Direction::In, Incoming)] {
            if direction == wanted || direction == Direction::Both {
                source.extend_oldest_first(ix, dir, &mut result, |_| true);
            }
        }
        dedup_keep_first(&mut result);
        result
    }

    /// The ids of the nodes joined to `id` by an edge in `direction` (see
    /// [`Network::neighbor_indices`] for the order). O(degree).
    ///
    /// ```
    /// use networks_mcp::network::{Direction, Network};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["app", "lib", "log"])?;
    /// net.add_edge("app", "lib", 1.0)?;
    /// net.add_edge("lib", "log", 1.0)?;
    /// assert_eq!(net.neighbors("lib", Direction::Out)?, ["log"]);
    /// assert_eq!(net.neighbors("lib", Direction::Both)?, ["log", "app"]);
    /// assert_eq!(net.neighbors("nope", Direction::In).unwrap_err().code(), "node_not_found");
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn neighbors(&self, id: &str, direction: Direction) -> Result<Vec<&str>> {
        let ix = self.require("node_id", id)?;
        Ok(self
            .neighbor_indices(ix, direction)
            .into_iter()
            .map(|n| self.id_at(n))
            .collect())
    }

    /// In-degree and out-degree of a node (parallel edges counted, a self-loop counts in both). O(degree).
    pub fn degrees(&self, ix: NodeIndex) -> (usize, usize) {
        (
            self.graph.edges_directed(ix, Incoming).count(),
            self.graph.edges_directed(ix, Outgoing).count(),
        )
    }
}

/// The candidate a staged lookup found, if its record holds the id looked up.
#[inline(always)]
fn confirmed(candidate: Option<NodeIndex>, record: Option<&Node>, id: &str) -> Option<NodeIndex> {
    match (candidate, record) {
        (Some(ix), Some(node)) if same_id(&node.id, id) => Some(ix),
        _ => None,
    }
}

/// Removes repeated entries, keeping each first occurrence in place. Neighbor lists
/// are short and rarely repeat (only parallel edges, or a node that is both an out-
/// and an in-neighbor), so up to [`SMALL_DEDUP`] entries a quadratic scan of the kept
/// prefix beats hashing and allocates nothing; longer lists use a hash set.
fn dedup_keep_first(items: &mut Vec<NodeIndex>) {
    let mut kept = 0;
    if items.len() <= SMALL_DEDUP {
        for i in 0..items.len() {
            let n = items[i];
            if !items[..kept].contains(&n) {
                items[kept] = n;
                kept += 1;
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(items.len());
        for i in 0..items.len() {
            let n = items[i];
            if seen.insert(n) {
                items[kept] = n;
                kept += 1;
            }
        }
    }
    items.truncate(kept);
}

/// The longest neighbor list [`dedup_keep_first`] deduplicates by linear scans.
const SMALL_DEDUP: usize = 32;
