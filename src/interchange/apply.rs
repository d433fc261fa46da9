//! Adding an [`ImportedGraph`] to a network, all or nothing.

use crate::error::{Error, Result};
use crate::interchange::{Format, ImportedGraph, invalid};
use crate::network::{AddNodeOutcome, EdgeSpec, MissingNodes, Network, NodeSpec, validate};

/// What [`apply`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportOutcome {
    /// Nodes added: listed nodes that were new, plus edge endpoints created as plain nodes.
    pub nodes_created: usize,
    /// Listed nodes that already existed (or were listed twice) and were kept as they were.
    pub nodes_existing: usize,
    /// Edges added (every imported edge is added: edges are not idempotent).
    pub edges_created: usize,
}

/// What an import checks of one node before anything is added: its id,
/// attributes and data.
pub(crate) fn check_node(node: &NodeSpec) -> Result<()> {
    validate::id("node_id", &node.id)?;
    validate::attributes("attributes", &node.attributes)?;
    if let Some(data) = &node.data {
        validate::data("data", data)?;
    }
    Ok(())
}

/// What an import checks of one edge: its ends, weight and attributes.
pub(crate) fn check_edge(edge: &EdgeSpec) -> Result<()> {
    validate::id("source", &edge.source)?;
    validate::id("target", &edge.target)?;
    validate::weight(edge.weight)?;
    validate::attributes("attributes", &edge.attributes)
}

/// [`check_node`] by a reader that knows where its document gives the node:
/// a fault is the document's, named at `location` (a line, a row), which
/// says more than the node's place among the nodes read.
pub(crate) fn check_node_at(
    format: Format,
    node: &NodeSpec,
    location: impl FnOnce() -> String,
) -> Result<()> {
    check_node(node).map_err(|e| invalid(format, Some(location()), e.to_string()))
}

/// [`check_edge`] by a reader that knows where its document gives the edge,
/// as [`check_node_at`].
pub(crate) fn check_edge_at(
    format: Format,
    edge: &EdgeSpec,
    location: impl FnOnce() -> String,
) -> Result<()> {
    check_edge(edge).map_err(|e| invalid(format, Some(location()), e.to_string()))
}

/// An item's fault, named by its array and place.
pub(crate) fn item_error(field: &str, index: usize, inner: Error) -> Error {
    Error::InvalidBatchItem {
        field: field.to_string(),
        index,
        inner: Box::new(inner),
    }
}

/// Adds `graph` to `network` atomically. Every node (id, attributes) and every edge
/// (endpoint ids, weight, attributes) is validated first; an invalid item fails the
/// whole import with an [`Error::InvalidBatchItem`] naming it (`field` `"nodes"` or
/// `"edges"` and its `index`), and nothing changes. Then the nodes are added
/// (existing ids are kept as they are and counted in `nodes_existing`), then the
/// edges, in order; an endpoint that is neither in the network nor among the
/// imported nodes is created as a plain node, as NetworkX does. The description is
/// taken only when the network has none. The graph's defaults are stored once and
/// shared by every node or edge without a value of its own. O(nodes + edges).
pub fn apply(network: &mut Network, graph: ImportedGraph) -> Result<ImportOutcome> {
    // Only the checks charge the call's budget: once the network changes, the
    // import runs to its end.
    for (index, node) in graph.nodes.iter().enumerate() {
        crate::budget::charge(1);
        check_node(node).map_err(|e| item_error("nodes", index, e))?;
    }
    for (index, edge) in graph.edges.iter().enumerate() {
        crate::budget::charge(1);
        check_edge(edge).map_err(|e| item_error("edges", index, e))?;
    }
    validate::attributes("node_defaults", &graph.node_defaults)?;
    validate::attributes("edge_defaults", &graph.edge_defaults)?;
    // Everything `add_nodes` and `add_edges` check has been checked above, and every
    // endpoint either exists after the node batch or is created by the edge batch,
    // so neither call can fail past this point: the import is all or nothing.
    let edges_created = graph.edges.len();
    // A default is stored once, and each item given it holds a pointer to it.
    let node_defaults = network.shared_entries(graph.node_defaults);
    let edge_defaults = network.shared_entries(graph.edge_defaults);
    let outcomes = network.add_nodes_defaulted(graph.nodes, &node_defaults)?;
    let created = outcomes
        .iter()
        .filter(|o| **o == AddNodeOutcome::Added)
        .count();
    let batch = network.add_edges_defaulted(graph.edges, MissingNodes::Create, &edge_defaults)?;
    if network.description().is_none() && graph.description.is_some() {
        network.set_description(graph.description);
    }
    Ok(ImportOutcome {
        nodes_created: created + batch.created_nodes.len(),
        nodes_existing: outcomes.len() - created,
        edges_created,
    })
}
