//! Changing a network after the fact: update and remove nodes and edges, and
//! atomic batch inserts. Every function validates all its input before it changes
//! anything, so a failed call leaves the network exactly as it was.

use hashbrown::HashMap;
use petgraph::stable_graph::NodeIndex;
use serde_json::{Map, Value};

use super::id_index::{GroupHint, same_id};
use super::prefetch::NodePrefetcher;
use super::structure::{Change, Changed};
use super::{AddNodeOutcome, Attributes, EdgeId, Network, validate};
use crate::error::{Error, Result};

/// How [`Network::update_node`] treats the attributes it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttributeUpdate {
    /// Set the given keys, keep the others.
    #[default]
    Merge,
    /// Replace the whole attribute map.
    Replace,
}

/// A node to add: its id, and optionally data and attributes.
///
/// Build one with [`NodeSpec::new`] and the `with_*` methods, then pass it to
/// [`Network::add_node_with`] or, many at once, [`Network::add_nodes`]. A bare
/// id converts too: `net.add_nodes(["a", "b"])`.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    /// Node id.
    pub id: String,
    /// Optional payload: any JSON value, at most
    /// [`MAX_VALUE_DEPTH`](crate::limits::MAX_VALUE_DEPTH) levels deep.
    pub data: Option<Value>,
    /// Flat attributes: scalar values only.
    pub attributes: Map<String, Value>,
}

impl NodeSpec {
    /// A node with this id, no data and no attributes.
    pub fn new(id: impl Into<String>) -> Self {
        NodeSpec {
            id: id.into(),
            data: None,
            attributes: Map::new(),
        }
    }

    /// With this JSON payload.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// With one more attribute (a string, number, boolean or null).
    pub fn with_attribute(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.attributes.insert(key.into(), value.into());
        self
    }

    /// With these attributes, added to any set before.
    pub fn with_attributes(mut self, attributes: Map<String, Value>) -> Self {
        self.attributes.extend(attributes);
        self
    }
}

impl From<&str> for NodeSpec {
    fn from(id: &str) -> Self {
        NodeSpec::new(id)
    }
}

impl From<String> for NodeSpec {
    fn from(id: String) -> Self {
        NodeSpec::new(id)
    }
}

/// One node as [`Network::add_nodes`] takes it: a [`NodeSpec`], or a bare id
/// (`&str`, `String`...), which costs no allocation beyond the node's own.
pub trait NodeItem {
    /// The node's id.
    fn id(&self) -> &str;
    /// Its data and attributes, if it has any to check.
    fn content(&self) -> Option<(Option<&Value>, &Map<String, Value>)>;
    /// Takes its data and attributes out, leaving the id.
    fn take_content(&mut self) -> (Option<Value>, Map<String, Value>);
}

impl NodeItem for NodeSpec {
    fn id(&self) -> &str {
        &self.id
    }
    fn content(&self) -> Option<(Option<&Value>, &Map<String, Value>)> {
        Some((self.data.as_ref(), &self.attributes))
    }
    fn take_content(&mut self) -> (Option<Value>, Map<String, Value>) {
        (self.data.take(), std::mem::take(&mut self.attributes))
    }
}

impl<S: AsRef<str>> NodeItem for S {
    fn id(&self) -> &str {
        self.as_ref()
    }
    fn content(&self) -> Option<(Option<&Value>, &Map<String, Value>)> {
        None
    }
    fn take_content(&mut self) -> (Option<Value>, Map<String, Value>) {
        (None, Map::new())
    }
}

/// An edge to add: endpoints, weight (default [`DEFAULT_WEIGHT`](super::DEFAULT_WEIGHT))
/// and attributes.
///
/// Build one with [`EdgeSpec::new`] and the `with_*` methods, then pass it to
/// [`Network::add_edge_with`] or, many at once, [`Network::add_edges`]. A
/// `(source, target, weight)` tuple converts too.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeSpec {
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Finite weight.
    pub weight: f64,
    /// Flat attributes: scalar values only.
    pub attributes: Map<String, Value>,
}

impl EdgeSpec {
    /// An edge `source → target` of the default weight, with no attributes.
    pub fn new(source: impl Into<String>, target: impl Into<String>) -> Self {
        EdgeSpec {
            source: source.into(),
            target: target.into(),
            weight: super::DEFAULT_WEIGHT,
            attributes: Map::new(),
        }
    }

    /// With this weight.
    pub fn with_weight(mut self, weight: f64) -> Self {
        self.weight = weight;
        self
    }

    /// With one more attribute (a string, number, boolean or null).
    pub fn with_attribute(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.attributes.insert(key.into(), value.into());
        self
    }

    /// With these attributes, added to any set before.
    pub fn with_attributes(mut self, attributes: Map<String, Value>) -> Self {
        self.attributes.extend(attributes);
        self
    }
}

/// One edge as [`Network::add_edges`] takes it: an [`EdgeSpec`], or a
/// `(source, target, weight)` tuple, which costs no allocation.
pub trait EdgeItem {
    /// The source node's id.
    fn source(&self) -> &str;
    /// The target node's id.
    fn target(&self) -> &str;
    /// The weight.
    fn weight(&self) -> f64;
    /// Whether it has attributes.
    fn has_attributes(&self) -> bool;
    /// Its attributes.
    fn into_attributes(self) -> Map<String, Value>;
    /// The item as an [`EdgeSpec`]: its ids copied, or, for an `EdgeSpec`,
    /// the item itself.
    fn into_spec(self) -> EdgeSpec
    where
        Self: Sized,
    {
        EdgeSpec {
            source: self.source().to_string(),
            target: self.target().to_string(),
            weight: self.weight(),
            attributes: self.into_attributes(),
        }
    }
}

impl EdgeItem for EdgeSpec {
    fn source(&self) -> &str {
        &self.source
    }
    fn target(&self) -> &str {
        &self.target
    }
    fn weight(&self) -> f64 {
        self.weight
    }
    fn has_attributes(&self) -> bool {
        !self.attributes.is_empty()
    }
    fn into_attributes(self) -> Map<String, Value> {
        self.attributes
    }
    fn into_spec(self) -> EdgeSpec {
        self
    }
}

impl<S: AsRef<str>, T: AsRef<str>> EdgeItem for (S, T, f64) {
    fn source(&self) -> &str {
        self.0.as_ref()
    }
    fn target(&self) -> &str {
        self.1.as_ref()
    }
    fn weight(&self) -> f64 {
        self.2
    }
    fn has_attributes(&self) -> bool {
        false
    }
    fn into_attributes(self) -> Map<String, Value> {
        Map::new()
    }
}

/// What [`Network::add_edges`] does with an endpoint that is not a node yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissingNodes {
    /// Fail the whole batch with [`Error::InvalidBatchItem`] naming the item.
    #[default]
    Fail,
    /// Create it as a plain node (no data, no attributes).
    Create,
}

/// What [`Network::add_edges`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeBatchOutcome {
    /// The new edges' ids, one per item, in item order.
    pub edge_ids: Vec<EdgeId>,
    /// Nodes created because `create_missing_nodes` was set, in creation order.
    pub created_nodes: Vec<String>,
}

/// An edge that was removed, as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct RemovedEdge {
    /// Its id.
    pub id: EdgeId,
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Its weight.
    pub weight: f64,
}

/// How many resolved edges [`Network::add_edges`] gathers before inserting
/// them: 1 MiB of [`ResolvedEdge`]s, which stays in the cache.
const CHUNK: usize = 1 << 16;

/// An edge ready to insert: endpoints, weight, attributes.
type ResolvedEdge = (NodeIndex, NodeIndex, f64);

/// Edges of a batch ready to insert: 16 bytes an edge, the few attributes
/// apart.
#[derive(Default)]
struct ResolvedBatch {
    edges: Vec<ResolvedEdge>,
    /// `(position in edges, attributes)`, by position.
    attributes: Vec<(usize, Attributes)>,
}

impl ResolvedBatch {
    fn with_capacity(edges: usize) -> Self {
        ResolvedBatch {
            edges: Vec::with_capacity(edges),
            attributes: Vec::new(),
        }
    }

    fn push(&mut self, (a, b, weight): ResolvedEdge, attributes: Attributes) {
        if !attributes.is_empty() {
            self.attributes.push((self.edges.len(), attributes));
        }
        self.edges.push((a, b, weight));
    }
}

fn batch_error(field: &str, index: usize, inner: Error) -> Error {
    Error::InvalidBatchItem {
        field: field.to_string(),
        index,
        inner: Box::new(inner),
    }
}

impl Network {
    /// Changes a node's payload and attributes. `data: Some(v)` replaces the payload
    /// (`Some(Value::Null)` clears it); `None` keeps it. Attributes are merged or
    /// replaced per `mode`; `remove_attributes` deletes keys. Idempotent. Returns
    /// whether anything changed. O(size of the attributes).
    ///
    /// ```
    /// use networks_mcp::network::{AttributeUpdate, Network};
    /// use serde_json::{Map, json};
    ///
    /// let mut net = Network::new();
    /// net.add_node("build")?;
    /// let mut done = Map::new();
    /// done.insert("status".into(), json!("done"));
    /// assert!(net.update_node("build", None, Some(done.clone()), AttributeUpdate::Merge, &[])?);
    /// assert!(!net.update_node("build", None, Some(done), AttributeUpdate::Merge, &[])?); // idempotent
    /// assert_eq!(net.node("build").unwrap().attributes.get("status"), Some(&json!("done")));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn update_node(
        &mut self,
        id: &str,
        data: Option<Value>,
        attributes: Option<Map<String, Value>>,
        mode: AttributeUpdate,
        remove_attributes: &[String],
    ) -> Result<bool> {
        validate::id("node_id", id)?;
        if let Some(attributes) = &attributes {
            validate::attributes("attributes", attributes)?;
        }
        if let Some(data) = &data {
            validate::data("data", data)?;
        }
        let ix = self.require("node_id", id)?;
        let node = &mut self.graph[ix];
        let before = (node.data.clone(), node.attributes.clone());
        if let Some(data) = data {
            node.data = if data.is_null() {
                None
            } else {
                Some(Box::new(data))
            };
        }
        let mut map = match (mode, attributes) {
            (AttributeUpdate::Replace, Some(new)) => new,
            (AttributeUpdate::Merge, Some(new)) => {
                let mut map = node.attributes.to_map();
                map.extend(new);
                map
            }
            (_, None) => node.attributes.to_map(),
        };
        for key in remove_attributes {
            map.shift_remove(key);
        }
        node.attributes = self.interner.attributes(map);
        let changed = before != (node.data.clone(), node.attributes.clone());
        if changed {
            let entry = super::history::Entry::node_changed(
                &node.id,
                &before.1,
                &node.attributes,
                before.0 != node.data,
            );
            self.touch(entry);
        }
        Ok(changed)
    }

    /// Removes a node and every edge touching it. Returns the number of edges removed.
    /// O(degree).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b"])?;
    /// net.add_edge("a", "b", 1.0)?;
    /// net.add_edge("b", "b", 1.0)?; // a self-loop counts once
    /// assert_eq!(net.remove_node("b")?, 2);
    /// assert_eq!((net.node_count(), net.edge_count()), (1, 0));
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn remove_node(&mut self, id: &str) -> Result<usize> {
        validate::id("node_id", id)?;
        let ix = self.require("node_id", id)?;
        match self.change(Change::RemoveNode(ix)) {
            Changed::Removed(edges) => Ok(edges),
            _ => unreachable!("removing a node yields the edges removed"),
        }
    }

    /// Removes one edge by id. O(1) expected.
    pub fn remove_edge(&mut self, edge_id: EdgeId) -> Result<RemovedEdge> {
        let Some(view) = self.edge(edge_id) else {
            return Err(Error::EdgeNotFound {
                network: self.name.clone(),
                edge_id,
            });
        };
        let removed = RemovedEdge {
            id: view.id,
            source: view.source.to_string(),
            target: view.target.to_string(),
            weight: view.weight,
        };
        self.change(Change::RemoveEdge {
            id: edge_id,
            recorded: true,
        });
        Ok(removed)
    }

    /// Removes every edge `source → target` (all parallel edges). Returns the removed
    /// edges in insertion order; none is not an error. O(out-degree of source).
    pub fn remove_edges_between(&mut self, source: &str, target: &str) -> Result<Vec<RemovedEdge>> {
        validate::id("source", source)?;
        validate::id("target", target)?;
        let a = self.require("source", source)?;
        let b = self.require("target", target)?;
        let mut ids: Vec<EdgeId> = self
            .graph
            .edges_connecting(a, b)
            .map(|e| e.weight().id)
            .collect();
        ids.sort_unstable();
        ids.into_iter().map(|id| self.remove_edge(id)).collect()
    }

    /// Adds many nodes atomically: every item is validated first, and if any is
    /// invalid nothing is added and the error names its index. An id that exists, or
    /// repeats an earlier item, is a duplicate (left untouched). Items are
    /// [`NodeSpec`]s or bare ids (`&str`, `String`...); bare ids are copied once,
    /// into the nodes. The way to load many nodes fast: the id-index memory of
    /// many insertions is fetched at once. O(items).
    pub fn add_nodes<N: NodeItem>(
        &mut self,
        items: impl IntoIterator<Item = N>,
    ) -> Result<Vec<AddNodeOutcome>> {
        self.add_nodes_defaulted(items, &[])
    }

    /// [`Network::add_nodes`], giving each node added every one of `defaults`
    /// it has no value of its own for (an import's defaults: already validated,
    /// names and values from [`Network::shared_entries`], so one allocation of
    /// each serves every node).
    pub(crate) fn add_nodes_defaulted<N: NodeItem>(
        &mut self,
        items: impl IntoIterator<Item = N>,
        defaults: &[super::types::Entry],
    ) -> Result<Vec<AddNodeOutcome>> {
        let items: Vec<N> = items.into_iter().collect();
        for (index, item) in items.iter().enumerate() {
            let check = || -> Result<()> {
                validate::id("node_id", item.id())?;
                if let Some((data, attributes)) = item.content() {
                    validate::attributes("attributes", attributes)?;
                    if let Some(data) = data {
                        validate::data("data", data)?;
                    }
                }
                Ok(())
            };
            check().map_err(|e| batch_error("nodes", index, e))?;
        }
        self.reserve(items.len(), 0);
        // Each id is hashed, and the table's control bytes and slots for it
        // fetched, `AHEAD` items before it is looked up and inserted, so that the
        // cache misses of many insertions overlap (a bulk load of a million nodes).
        const AHEAD: usize = 16;
        let mut outcomes = Vec::with_capacity(items.len());
        let mut window: std::collections::VecDeque<(u64, N)> =
            std::collections::VecDeque::with_capacity(AHEAD + 1);
        // Valid to the end: the room reserved above means the table never grows.
        let mut groups: Option<GroupHint> = None;
        let mut items = items.into_iter();
        loop {
            let next = items.next();
            if let Some(item) = next {
                let hash = self.node_index.hash(item.id());
                if let Some(groups) = groups {
                    groups.prefetch_with_slots(hash);
                }
                window.push_back((hash, item));
                if window.len() <= AHEAD {
                    continue;
                }
            }
            let Some((hash, mut item)) = window.pop_front() else {
                break;
            };
            if self
                .node_index
                .get_hashed(&self.graph, item.id(), hash)
                .is_some()
            {
                outcomes.push(AddNodeOutcome::Duplicate);
                continue;
            }
            let (data, attributes) = item.take_content();
            let attributes = self.interner.attributes_with(attributes, defaults);
            let ix = self.insert_node_hashed(item.id(), hash, data, attributes);
            outcomes.push(AddNodeOutcome::Added);
            if groups.is_none() {
                let slot = self.node_index.slot_of(ix, hash);
                groups = slot.and_then(|slot| self.node_index.group_hint(slot));
            }
        }
        Ok(outcomes)
    }

    /// Adds many edges atomically: every item is validated (ids, weight, attributes,
    /// endpoints) before any is added, and an error names the first bad item's index
    /// and changes nothing. With [`MissingNodes::Create`], unknown endpoints are
    /// created as plain nodes; with [`MissingNodes::Fail`], an unknown endpoint fails
    /// the batch. The new edges' ids are consecutive, in item order. O(items).
    ///
    /// This is the way to load many edges fast: between existing nodes and without
    /// attributes, the endpoints of many edges are looked up at once, so that the
    /// processor overlaps their memory accesses where [`Network::add_edge`] in a loop
    /// waits on each in turn.
    ///
    /// ```
    /// use networks_mcp::network::{MissingNodes, Network};
    ///
    /// let mut net = Network::new();
    /// net.add_nodes(["a", "b", "c"])?;
    /// let added = net.add_edges([("a", "b", 1.0), ("b", "c", 2.5)], MissingNodes::Fail)?;
    /// assert_eq!(added.edge_ids, [0, 1]);
    ///
    /// // One bad item, and nothing is added.
    /// assert!(net.add_edges([("a", "c", 1.0), ("a", "zz", 1.0)], MissingNodes::Fail).is_err());
    /// assert_eq!(net.edge_count(), 2);
    ///
    /// let added = net.add_edges([("c", "d", 1.0)], MissingNodes::Create)?;
    /// assert_eq!(added.created_nodes, ["d"]);
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn add_edges<E: EdgeItem>(
        &mut self,
        items: impl IntoIterator<Item = E>,
        missing: MissingNodes,
    ) -> Result<EdgeBatchOutcome> {
        self.add_edges_defaulted(items, missing, &[])
    }

    /// [`Network::add_edges`], giving each edge every one of `defaults` it has
    /// no value of its own for, as [`Network::add_nodes_defaulted`] does.
    pub(crate) fn add_edges_defaulted<E: EdgeItem>(
        &mut self,
        items: impl IntoIterator<Item = E>,
        missing: MissingNodes,
        defaults: &[super::types::Entry],
    ) -> Result<EdgeBatchOutcome> {
        if missing == MissingNodes::Fail && defaults.is_empty() {
            // Streamed: the items are never gathered, so a batch of millions costs
            // no copy of itself.
            let range = self.add_edge_list(items)?;
            return Ok(EdgeBatchOutcome {
                edge_ids: range.collect(),
                created_nodes: Vec::new(),
            });
        }
        // Each item becomes an `EdgeSpec` once (an `EdgeSpec` given is moved,
        // not copied), is validated, and its endpoints numbered in order of
        // first appearance. The distinct ids are then looked up in the network
        // together, their cache misses overlapping (`lookup_many`), and the
        // batch is resolved by number: an array read per endpoint, not a hash
        // lookup. (An edge list naming a million nodes ten million times
        // hashed each id into the network twice and into a set of missing ids
        // once; read a chunk at a time, each lookup waited on its own misses.)
        let items: Vec<EdgeSpec> = items.into_iter().map(EdgeItem::into_spec).collect();
        let create_missing_nodes = missing == MissingNodes::Create;
        let mut number: HashMap<&str, u32> = HashMap::new();
        let mut distinct_ids: Vec<&str> = Vec::new();
        let mut ends: Vec<[u32; 2]> = Vec::with_capacity(items.len());
        // The first invalid item: the items before it are still checked for
        // endpoints the network lacks, which an earlier item's error is.
        let mut invalid: Option<Error> = None;
        for (index, item) in items.iter().enumerate() {
            let check = || -> Result<()> {
                validate::id("source", &item.source)?;
                validate::id("target", &item.target)?;
                validate::weight(item.weight)?;
                validate::attributes("attributes", &item.attributes)
            };
            if let Err(e) = check() {
                invalid = Some(batch_error("edges", index, e));
                break;
            }
            ends.push([&item.source, &item.target].map(|id| {
                *number.entry(id.as_str()).or_insert_with(|| {
                    distinct_ids.push(id.as_str());
                    distinct_ids.len() as u32 - 1
                })
            }));
        }
        let mut distinct = self.lookup_many(&distinct_ids);
        if !create_missing_nodes {
            for (index, (item, pair)) in items.iter().zip(&ends).enumerate() {
                for (field, id, k) in [
                    ("source", &item.source, pair[0]),
                    ("target", &item.target, pair[1]),
                ] {
                    if distinct[k as usize].is_none() {
                        return Err(batch_error("edges", index, self.node_not_found(field, id)));
                    }
                }
            }
        }
        if let Some(e) = invalid {
            return Err(e);
        }
        let missing: Vec<u32> = (0..distinct.len() as u32)
            .filter(|&k| distinct[k as usize].is_none())
            .collect();
        let missing_ids: Vec<String> = missing
            .iter()
            .map(|&k| distinct_ids[k as usize].to_string())
            .collect();
        drop(distinct_ids);
        drop(number);
        self.reserve(missing.len(), items.len());
        for (&k, id) in missing.iter().zip(&missing_ids) {
            distinct[k as usize] =
                Some(self.insert_node_unchecked(id, None, Attributes::default()));
        }
        let mut resolved = ResolvedBatch::with_capacity(items.len());
        for (item, [a, b]) in items.into_iter().zip(ends) {
            let (Some(a), Some(b)) = (distinct[a as usize], distinct[b as usize]) else {
                // Unreachable: every endpoint was found or created above.
                return Err(Error::Internal {
                    message: "batch endpoint vanished during insert".into(),
                });
            };
            let attributes = self.interner.attributes_with(item.attributes, defaults);
            resolved.push((a, b, item.weight), attributes);
        }
        let mark = self.edge_batch_mark();
        self.insert_resolved_edges(&mut resolved);
        let edge_ids = self.record_edge_batch(mark).collect();
        Ok(EdgeBatchOutcome {
            edge_ids,
            created_nodes: missing_ids,
        })
    }

    /// Adds edges between existing nodes, atomically: every item is validated
    /// (ids, weight, attributes) and both its endpoints looked up; an error
    /// names the first bad item's index (as [`Network::add_edges`] does) and
    /// changes nothing. Returns the new edges' ids, which are consecutive.
    ///
    /// The items stream through a window of a few dozen lookups, so none is
    /// copied, and their edges go in by chunks of [`CHUNK`] once resolved: a
    /// megabyte that stays in the cache, where resolving the whole batch first
    /// kept 16 bytes an edge of fresh memory (80 MB at 5M edges) and read every
    /// endpoint's record a second time long after the first. A bad item undoes
    /// the chunks already in ([`Network::undo_edge_batch`]); versions and the
    /// records of the change window are written once the batch holds. O(items).
    fn add_edge_list<E: EdgeItem>(
        &mut self,
        edges: impl IntoIterator<Item = E>,
    ) -> Result<std::ops::Range<EdgeId>> {
        let edges = edges.into_iter();
        self.reserve(0, edges.size_hint().0);
        let mark = self.edge_batch_mark();
        match self.resolve_and_insert_edges(edges) {
            Ok(()) => Ok(self.record_edge_batch(mark)),
            Err(e) => {
                self.undo_edge_batch(mark);
                Err(e)
            }
        }
    }

    /// Starts a run of edges between nodes the network holds, added by as many
    /// calls of [`Network::extend_edge_run`] as the caller likes and then kept
    /// ([`Network::keep_edge_run`]) or undone ([`Network::undo_edge_run`]) as
    /// one change: a merge that adds only edges reads its document straight
    /// into the network this way, and undoes it on any fault. No other change
    /// may come between the start and the end: the caller holds the network.
    #[cfg(feature = "interchange")]
    pub(crate) fn begin_edge_run(&mut self) -> EdgeRun {
        EdgeRun(self.edge_batch_mark())
    }

    /// Adds `edges` to the run, as [`Network::add_edges`] with
    /// [`MissingNodes::Fail`] checks and adds them; stops at the first item
    /// that is invalid or names a node the network lacks, and then the run
    /// must be undone (the items before it are in). O(items).
    #[cfg(feature = "interchange")]
    pub(crate) fn extend_edge_run(&mut self, edges: Vec<EdgeSpec>) -> Result<()> {
        self.resolve_and_insert_edges(edges.into_iter())
    }

    /// Keeps the run: counts its edges' versions and records them in the
    /// window of recent changes, as if each had been added on its own.
    /// Returns how many edges it added.
    #[cfg(feature = "interchange")]
    pub(crate) fn keep_edge_run(&mut self, run: EdgeRun) -> usize {
        let ids = self.record_edge_batch(run.0);
        (ids.end - ids.start) as usize
    }

    /// Undoes the run: the network is as it was before it began (see
    /// [`Network::undo_edge_batch`]).
    #[cfg(feature = "interchange")]
    pub(crate) fn undo_edge_run(&mut self, run: EdgeRun) {
        self.undo_edge_batch(run.0);
    }

    /// Looks up and inserts the edges of [`Network::add_edge_list`], chunk by
    /// chunk, and stops at the first bad item; the caller records or undoes
    /// what went in.
    fn resolve_and_insert_edges<E: EdgeItem>(
        &mut self,
        edges: impl Iterator<Item = E>,
    ) -> Result<()> {
        // Each id is looked up in four stages, `STAGE` items apart, so that the
        // cache misses of many lookups overlap instead of following one another:
        // hash it and fetch the table's control bytes for it; read them to find its
        // slot and fetch the slot; read the slot and fetch the node record it names;
        // compare the id in the record (ids live in the records).
        const STAGE: usize = 8;
        /// An item on its way through the stages.
        struct Pending<E> {
            index: usize,
            item: E,
            hashes: [u64; 2],
            slots: [Option<usize>; 2],
            candidates: [Option<NodeIndex>; 2],
        }
        let mut resolved = ResolvedBatch::with_capacity(CHUNK.min(edges.size_hint().0));
        let mut window: std::collections::VecDeque<Pending<E>> =
            std::collections::VecDeque::with_capacity(3 * STAGE + 1);
        let mut groups: Option<GroupHint> = None;
        let mut records = NodePrefetcher::default();
        // An item whose middle stage has not run has no candidates: a full lookup.
        // Every id in the network passed `validate::id` when its node was added,
        // so an item whose ends both resolve needs only its weight checked; one
        // that does not takes every check in order (ids, weight, then nodes),
        // for the error it always had.
        let confirm =
            |net: &Network, p: Pending<E>| -> Result<(ResolvedEdge, Option<Map<String, Value>>)> {
                let ids = [p.item.source(), p.item.target()];
                let found = |k: usize| match p.candidates[k] {
                    Some(ix) if same_id(&net.graph[ix].id, ids[k]) => Some(ix),
                    _ => net.node_index.get_hashed(&net.graph, ids[k], p.hashes[k]),
                };
                let weight = p.item.weight();
                let ends = match (found(0), found(1)) {
                    (Some(a), Some(b)) => {
                        validate::weight(weight).map_err(|e| batch_error("edges", p.index, e))?;
                        [a, b]
                    }
                    _ => {
                        let (a, b) = net
                            .edge_error(ids[0], ids[1], weight, None)
                            .map_err(|e| batch_error("edges", p.index, e))?;
                        [a, b]
                    }
                };
                let attributes = if p.item.has_attributes() {
                    let map = p.item.into_attributes();
                    validate::attributes("attributes", &map)
                        .map_err(|e| batch_error("edges", p.index, e))?;
                    Some(map)
                } else {
                    None
                };
                Ok(((ends[0], ends[1], weight), attributes))
            };
        for (index, item) in edges.enumerate() {
            let hashes = [item.source(), item.target()].map(|id| self.node_index.hash(id));
            if let Some(groups) = groups {
                hashes.iter().for_each(|&hash| groups.prefetch(hash));
            }
            window.push_back(Pending {
                index,
                item,
                hashes,
                slots: [None; 2],
                candidates: [None; 2],
            });
            if let Some(p) = window
                .len()
                .checked_sub(STAGE + 1)
                .map(|at| &mut window[at])
            {
                p.slots = p.hashes.map(|hash| self.node_index.probe_slot(hash));
                if groups.is_none() {
                    groups = p
                        .slots
                        .into_iter()
                        .flatten()
                        .find_map(|s| self.node_index.group_hint(s));
                }
            }
            if let Some(p) = window
                .len()
                .checked_sub(2 * STAGE + 1)
                .map(|at| &mut window[at])
            {
                for k in 0..2 {
                    p.candidates[k] = p.slots[k].and_then(|s| self.node_index.slot_node(s));
                    if let Some(ix) = p.candidates[k] {
                        records.anchor(&self.graph, ix);
                        records.prefetch(ix);
                    }
                }
            }
            if window.len() > 3 * STAGE
                && let Some(p) = window.pop_front()
            {
                let (edge, map) = confirm(self, p)?;
                // Shared here, straight from the map: no copy of each name and
                // value to be looked up again when the edge is stored.
                let attributes =
                    map.map_or_else(Attributes::default, |m| self.interner.attributes(m));
                resolved.push(edge, attributes);
                if resolved.edges.len() == CHUNK {
                    self.insert_resolved_edges(&mut resolved);
                }
            }
        }
        for p in window {
            let (edge, map) = confirm(self, p)?;
            let attributes = map.map_or_else(Attributes::default, |m| self.interner.attributes(m));
            resolved.push(edge, attributes);
        }
        self.insert_resolved_edges(&mut resolved);
        Ok(())
    }

    /// The node of each of `ids`, as [`Network::index_of`] finds it, looked up
    /// in stages [`LOOKUP_STAGE`] ids apart so that the cache misses of many
    /// lookups overlap: the table's control bytes fetched; then its slot for
    /// the id found and fetched; then the node record the slot names fetched;
    /// then the id in the record compared (a full lookup when it differs).
    fn lookup_many(&self, ids: &[&str]) -> Vec<Option<NodeIndex>> {
        let n = ids.len();
        let hashes: Vec<u64> = ids.iter().map(|id| self.node_index.hash(id)).collect();
        let mut slots: Vec<Option<usize>> = vec![None; n];
        let mut records = NodePrefetcher::default();
        let mut found = Vec::with_capacity(n);
        let at = |i: usize, stage: usize| i.checked_sub(stage * LOOKUP_STAGE).filter(|&j| j < n);
        for i in 0..n + 3 * LOOKUP_STAGE {
            if i < n {
                self.node_index.prefetch_lookup(hashes[i]);
            }
            if let Some(j) = at(i, 1) {
                slots[j] = self.node_index.probe_slot(hashes[j]);
            }
            if let Some(ix) = at(i, 2)
                .and_then(|j| slots[j])
                .and_then(|s| self.node_index.slot_node(s))
            {
                records.anchor(&self.graph, ix);
                records.prefetch(ix);
            }
            if let Some(j) = at(i, 3) {
                // No slot: the id is certainly absent.
                found.push(slots[j].and_then(|s| match self.node_index.slot_node(s) {
                    Some(ix) if same_id(&self.graph[ix].id, ids[j]) => Some(ix),
                    _ => self.node_index.get_hashed(&self.graph, ids[j], hashes[j]),
                }));
            }
        }
        found
    }

    /// Inserts edges whose endpoints and content are already validated, as
    /// edges of a batch (see [`Network::insert_batch_edge`]), and empties
    /// `batch`. Touches the endpoint records a few edges ahead so that their
    /// cache misses overlap.
    fn insert_resolved_edges(&mut self, batch: &mut ResolvedBatch) {
        /// How many edges ahead the endpoint records are prefetched.
        const AHEAD: usize = 16;
        let ResolvedBatch { edges, attributes } = batch;
        let mut attributes = attributes.drain(..).peekable();
        let mut prefetcher = NodePrefetcher::default();
        if let Some(&(a, ..)) = edges.first() {
            prefetcher.anchor(&self.graph, a);
        }
        for (i, &(a, b, weight)) in edges.iter().enumerate() {
            if let Some(&(a, b, _)) = edges.get(i + AHEAD) {
                prefetcher.prefetch(a);
                prefetcher.prefetch(b);
            }
            let own = attributes
                .next_if(|(at, _)| *at == i)
                .map(|(_, attributes)| attributes)
                .unwrap_or_default();
            self.insert_batch_edge(a, b, weight, own);
        }
        drop(attributes);
        edges.clear();
    }

    /// Reserves room for `nodes` more nodes and `edges` more edges.
    pub fn reserve(&mut self, nodes: usize, edges: usize) {
        self.graph.reserve_nodes(nodes);
        self.graph.reserve_edges(edges);
        self.node_index.reserve(&self.graph, nodes);
        self.edge_index.reserve(edges);
    }

    /// Node indices in index order (insertion order until removals).
    pub fn node_indices(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.graph.node_indices()
    }
}

/// How many ids apart the stages of [`Network::lookup_many`] run.
const LOOKUP_STAGE: usize = 8;

/// A run of edges begun by [`Network::begin_edge_run`]: kept or undone as one.
#[cfg(feature = "interchange")]
#[must_use = "a run of edges must be kept or undone"]
pub(crate) struct EdgeRun(super::structure::EdgeBatchMark);
