//! Changing a network after the fact: update and remove nodes and edges, and
//! atomic batch inserts. Every function validates all its input before it changes
//! anything, so a failed call leaves the network exactly as it was.

use petgraph::Direction::{Incoming, Outgoing};
use petgraph::stable_graph::NodeIndex;
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

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

/// One node of a batch insert.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    /// Node id.
    pub id: String,
    /// Optional payload.
    pub data: Option<Value>,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
}

/// One edge of a batch insert.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeSpec {
    /// Source node id.
    pub source: String,
    /// Target node id.
    pub target: String,
    /// Finite weight.
    pub weight: f64,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
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
        let ix = self.require("node_id", id)?;
        let node = &mut self.graph[ix];
        let before = (node.data.clone(), node.attributes.clone());
        if let Some(data) = data {
            node.data = if data.is_null() { None } else { Some(data) };
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
        node.attributes = Attributes::from_map(map);
        Ok(before != (node.data.clone(), node.attributes.clone()))
    }

    /// Removes a node and every edge touching it. Returns the number of edges removed.
    /// O(degree).
    pub fn remove_node(&mut self, id: &str) -> Result<usize> {
        validate::id("node_id", id)?;
        let ix = self.require("node_id", id)?;
        let mut edge_ids: Vec<EdgeId> = self
            .graph
            .edges_directed(ix, Outgoing)
            .chain(self.graph.edges_directed(ix, Incoming))
            .map(|e| e.weight().id)
            .collect();
        edge_ids.sort_unstable();
        edge_ids.dedup();
        for edge_id in &edge_ids {
            self.edge_index.remove(edge_id);
        }
        self.graph.remove_node(ix);
        self.node_index.remove(id);
        Ok(edge_ids.len())
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
        if let Some(ix) = self.edge_index.remove(&edge_id) {
            self.graph.remove_edge(ix);
        }
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
    /// repeats an earlier item, is a duplicate (left untouched). O(items).
    pub fn add_nodes(&mut self, items: Vec<NodeSpec>) -> Result<Vec<AddNodeOutcome>> {
        for (index, item) in items.iter().enumerate() {
            validate::id("node_id", &item.id).map_err(|e| batch_error("nodes", index, e))?;
            validate::attributes("attributes", &item.attributes)
                .map_err(|e| batch_error("nodes", index, e))?;
        }
        self.reserve(items.len(), 0);
        let mut outcomes = Vec::with_capacity(items.len());
        for item in items {
            if self.node_index.contains_key(item.id.as_str()) {
                outcomes.push(AddNodeOutcome::Duplicate);
            } else {
                self.insert_node_unchecked(
                    &item.id,
                    item.data,
                    Attributes::from_map(item.attributes),
                );
                outcomes.push(AddNodeOutcome::Added);
            }
        }
        Ok(outcomes)
    }

    /// Adds many edges atomically: every item is validated (ids, weight, attributes,
    /// endpoints) before any is added. With `create_missing_nodes`, unknown endpoints
    /// are created as plain nodes; otherwise an unknown endpoint fails the batch.
    /// O(items).
    pub fn add_edges(
        &mut self,
        items: Vec<EdgeSpec>,
        create_missing_nodes: bool,
    ) -> Result<EdgeBatchOutcome> {
        let mut missing: Vec<String> = Vec::new();
        let mut missing_seen: FxHashMap<&str, ()> = FxHashMap::default();
        // Endpoints resolved while validating, so the insert pass looks up only
        // the nodes it had to create (one hash lookup per endpoint, not two).
        let mut ends: Vec<[Option<NodeIndex>; 2]> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let check = || -> Result<()> {
                validate::id("source", &item.source)?;
                validate::id("target", &item.target)?;
                validate::weight(item.weight)?;
                validate::attributes("attributes", &item.attributes)
            };
            check().map_err(|e| batch_error("edges", index, e))?;
            let mut pair = [None, None];
            for (slot, (field, id)) in [("source", &item.source), ("target", &item.target)]
                .into_iter()
                .enumerate()
            {
                pair[slot] = self.index_of(id);
                if pair[slot].is_some() {
                    continue;
                }
                if !create_missing_nodes {
                    return Err(batch_error("edges", index, self.node_not_found(field, id)));
                }
                if missing_seen.insert(id.as_str(), ()).is_none() {
                    missing.push(id.clone());
                }
            }
            ends.push(pair);
        }
        drop(missing_seen);
        self.reserve(missing.len(), items.len());
        for id in &missing {
            self.insert_node_unchecked(id, None, Attributes::default());
        }
        let mut edge_ids = Vec::with_capacity(items.len());
        for (item, [a, b]) in items.into_iter().zip(ends) {
            let (Some(a), Some(b)) = (
                a.or_else(|| self.index_of(&item.source)),
                b.or_else(|| self.index_of(&item.target)),
            ) else {
                // Unreachable: every endpoint was checked or created above.
                return Err(Error::Internal {
                    message: "batch endpoint vanished during insert".into(),
                });
            };
            edge_ids.push(self.insert_edge_unchecked(
                a,
                b,
                item.weight,
                Attributes::from_map(item.attributes),
            ));
        }
        Ok(EdgeBatchOutcome {
            edge_ids,
            created_nodes: missing,
        })
    }

    /// Reserves room for `nodes` more nodes and `edges` more edges.
    pub fn reserve(&mut self, nodes: usize, edges: usize) {
        self.graph.reserve_nodes(nodes);
        self.graph.reserve_edges(edges);
        self.node_index.reserve(nodes);
        self.edge_index.reserve(edges);
    }

    /// Node indices in index order (insertion order until removals).
    pub fn node_indices(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.graph.node_indices()
    }
}
