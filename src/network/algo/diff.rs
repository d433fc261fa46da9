//! What changed between two networks: nodes added, removed and changed, and
//! edges added and removed, with multiplicity.
//!
//! Definition. Nodes are matched by id (node indices and edge ids mean nothing
//! across networks). A node in both whose data or attributes differ is
//! *changed*. Edges have no identity across networks either, so they are
//! compared as a **multiset** of `(source id, target id, weight, attributes)`:
//! if A has three edges `x → y` of weight 1 with no attributes and B has one,
//! the diff removes that edge with `count` 2. An edge whose weight or attributes
//! changed is therefore one edge removed (as it was) and one added (as it is).
//! Weights are compared as numbers (`-0.0` equals `0.0`), attributes as maps
//! (their order does not matter; `1` and `1.0` are different JSON values).
//!
//! Order, deterministic: removed nodes in A's index order; added and changed
//! nodes in B's index order; removed edges in A's edge-id order, added edges in
//! B's edge-id order, each distinct edge at its first occurrence.
//!
//! Complexity: O(V_A + V_B + E_A + E_B) expected time and O(V + E) space for
//! [`Network::diff`] (hash maps keyed by node id and by edge content, each edge
//! hashed once); [`Diff::apply_to`] is linear in the diff's size plus the
//! out-degrees of the sources of removed edges and the degrees of removed nodes.

use std::hash::{DefaultHasher, Hash, Hasher};

use hashbrown::{HashMap, HashSet};
use petgraph::Direction::{Incoming, Outgoing};
use petgraph::visit::EdgeRef;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::network::graph::structure::Change;
use crate::network::graph::{Attributes, Direction, EdgeId, Network, Node, validate};

/// The differences from one network (`before`, A) to another (`after`, B); see
/// the [module docs](self) for what counts as a difference and in which order.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff<'a> {
    /// Nodes of A whose id is not in B, in A's index order.
    pub nodes_removed: Vec<&'a Node>,
    /// Nodes of B whose id is not in A, in B's index order.
    pub nodes_added: Vec<&'a Node>,
    /// Nodes in both whose data or attributes differ: `(in A, in B)`, in B's
    /// index order.
    pub nodes_changed: Vec<(&'a Node, &'a Node)>,
    /// Edges A has more often than B (multiset difference A − B), in A's edge order.
    pub edges_removed: Vec<EdgeChange<'a>>,
    /// Edges B has more often than A (multiset difference B − A), in B's edge order.
    pub edges_added: Vec<EdgeChange<'a>>,
}

/// One distinct edge content and how many more times one side has it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeChange<'a> {
    /// The source node's id.
    pub source: &'a str,
    /// The target node's id.
    pub target: &'a str,
    /// The weight.
    pub weight: f64,
    /// The attributes.
    pub attributes: &'a Attributes,
    /// How many such edges were added or removed (at least 1).
    pub count: usize,
}

/// The content an edge is compared by; equality and hash ignore the sign of a
/// zero weight and the order of the attributes.
#[derive(Debug, Clone, Copy)]
struct EdgeKey<'a> {
    source: &'a str,
    target: &'a str,
    weight: f64,
    attributes: &'a Attributes,
}

impl EdgeKey<'_> {
    fn weight_bits(&self) -> u64 {
        // -0.0 == 0.0, so both hash as +0.0; weights are finite, never NaN.
        if self.weight == 0.0 {
            0
        } else {
            self.weight.to_bits()
        }
    }
}

impl PartialEq for EdgeKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
            && self.target == other.target
            && self.weight_bits() == other.weight_bits()
            && self.attributes == other.attributes
    }
}

impl Eq for EdgeKey<'_> {}

impl Hash for EdgeKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.source.hash(state);
        self.target.hash(state);
        self.weight_bits().hash(state);
        if !self.attributes.is_empty() {
            // Attribute maps are equal whatever their order, so their hash is a
            // sum of one hash per entry, taken with a fixed-key hasher.
            let mut sum = 0u64;
            for (key, value) in self.attributes.iter() {
                let mut h = DefaultHasher::new();
                key.hash(&mut h);
                hash_scalar(value, &mut h);
                sum = sum.wrapping_add(h.finish());
            }
            state.write_u64(sum);
        }
    }
}

/// Hashes an attribute value consistently with `Value`'s equality: attribute
/// values are scalars; equal numbers have the same representation, except the
/// two zeros of a float.
fn hash_scalar(value: &Value, h: &mut impl Hasher) {
    match value {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            b.hash(h);
        }
        Value::Number(n) => {
            h.write_u8(2);
            if let Some(u) = n.as_u64() {
                h.write_u8(0);
                h.write_u64(u);
            } else if let Some(i) = n.as_i64() {
                h.write_u8(1);
                h.write_i64(i);
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                h.write_u8(2);
                h.write_u64(if f == 0.0 { 0 } else { f.to_bits() });
            }
        }
        Value::String(s) => {
            h.write_u8(3);
            s.hash(h);
        }
        // Never in valid attributes (they are flat); all nested values share one
        // hash, which keeps hashing consistent with equality.
        Value::Array(_) | Value::Object(_) => h.write_u8(4),
    }
}

/// One distinct edge content seen in A or B.
struct Tally<'a> {
    /// As first seen in A, and how often A has it.
    in_a: Option<EdgeKey<'a>>,
    count_a: usize,
    /// As first seen in B, and how often B has it.
    in_b: Option<EdgeKey<'a>>,
    count_b: usize,
}

impl<'a> EdgeChange<'a> {
    fn new(key: EdgeKey<'a>, count: usize) -> Self {
        EdgeChange {
            source: key.source,
            target: key.target,
            weight: key.weight,
            attributes: key.attributes,
            count,
        }
    }

    fn key(&self) -> EdgeKey<'a> {
        EdgeKey {
            source: self.source,
            target: self.target,
            weight: self.weight,
            attributes: self.attributes,
        }
    }
}

impl Network {
    /// The differences from this network (before) to `after`; see the
    /// [module docs](self) for the definition, order and cost.
    ///
    /// ```
    /// use networks_mcp::network::{Network, NodeSpec};
    ///
    /// let mut before = Network::new();
    /// before.add_nodes(["a", "b", "c"])?;
    /// before.add_edge("a", "b", 1.0)?;
    /// before.add_edge("a", "b", 1.0)?;
    /// before.add_edge("b", "c", 1.0)?;
    ///
    /// let mut after = Network::new();
    /// after.add_node_with(NodeSpec::new("a").with_attribute("owner", "ci"))?;
    /// after.add_nodes(["b", "d"])?;
    /// after.add_edge("a", "b", 1.0)?;
    /// after.add_edge("b", "d", 2.0)?;
    ///
    /// let diff = before.diff(&after);
    /// assert_eq!(diff.nodes_removed.iter().map(|n| &*n.id).collect::<Vec<_>>(), ["c"]);
    /// assert_eq!(diff.nodes_added.iter().map(|n| &*n.id).collect::<Vec<_>>(), ["d"]);
    /// assert_eq!(diff.nodes_changed.len(), 1); // "a" has an attribute now
    /// let removed: Vec<_> = diff.edges_removed.iter().map(|e| (e.source, e.target, e.count)).collect();
    /// assert_eq!(removed, [("a", "b", 1), ("b", "c", 1)]);
    /// assert_eq!(diff.edges_added.iter().map(|e| (e.target, e.weight)).collect::<Vec<_>>(), [("d", 2.0)]);
    /// assert!(before.diff(&before).is_empty());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn diff<'a>(&'a self, after: &'a Network) -> Diff<'a> {
        let before = self;
        let nodes_removed = before
            .graph()
            .node_indices()
            .map(|ix| &before.graph()[ix])
            .filter(|n| {
                crate::budget::charge(1);
                !after.contains_node(&n.id)
            })
            .collect();
        let mut nodes_added = Vec::new();
        let mut nodes_changed = Vec::new();
        for ix in after.graph().node_indices() {
            crate::budget::charge(1);
            let b = &after.graph()[ix];
            match before.node(&b.id) {
                None => nodes_added.push(b),
                Some(a) if a.data != b.data || a.attributes != b.attributes => {
                    nodes_changed.push((a, b));
                }
                Some(_) => {}
            }
        }

        let mut slot: HashMap<EdgeKey<'a>, usize> =
            HashMap::with_capacity(before.edge_count().max(after.edge_count()));
        let mut tallies: Vec<Tally<'a>> = Vec::new();
        // Tallies in the order of their first edge in B.
        let mut b_order: Vec<usize> = Vec::new();
        for (net, is_a) in [(before, true), (after, false)] {
            for ix in net.edge_indices_by_id() {
                crate::budget::charge(1);
                let (Some((s, t)), Some(edge)) =
                    (net.graph().edge_endpoints(ix), net.graph().edge_weight(ix))
                else {
                    continue;
                };
                let key = EdgeKey {
                    source: &net.graph()[s].id,
                    target: &net.graph()[t].id,
                    weight: edge.weight,
                    attributes: &edge.attributes,
                };
                let at = *slot.entry(key).or_insert_with(|| {
                    tallies.push(Tally {
                        in_a: None,
                        count_a: 0,
                        in_b: None,
                        count_b: 0,
                    });
                    tallies.len() - 1
                });
                let tally = &mut tallies[at];
                if is_a {
                    tally.in_a.get_or_insert(key);
                    tally.count_a += 1;
                } else {
                    if tally.in_b.is_none() {
                        tally.in_b = Some(key);
                        b_order.push(at);
                    }
                    tally.count_b += 1;
                }
            }
        }
        // Tallies first seen in A come first, in A's order.
        let edges_removed = tallies
            .iter()
            .filter(|t| t.count_a > t.count_b)
            .filter_map(|t| Some(EdgeChange::new(t.in_a?, t.count_a - t.count_b)))
            .collect();
        let edges_added = b_order
            .iter()
            .map(|&at| &tallies[at])
            .filter(|t| t.count_b > t.count_a)
            .filter_map(|t| Some(EdgeChange::new(t.in_b?, t.count_b - t.count_a)))
            .collect();
        Diff {
            nodes_removed,
            nodes_added,
            nodes_changed,
            edges_removed,
            edges_added,
        }
    }
}

/// The error for a network that does not match the diff's `before`.
fn mismatch(what: String) -> Error {
    Error::InvalidValue {
        field: "diff".into(),
        reason: format!(
            "{what}, so the network is not the one the diff starts from; apply a diff only to a network equal in content to its `before` network (e.g. a copy of it)"
        ),
    }
}

impl Diff<'_> {
    /// Whether the two networks were equal in content (nodes, their data and
    /// attributes, and the multiset of edges).
    ///
    /// ```
    /// use networks_mcp::network::Network;
    ///
    /// let mut a = Network::new();
    /// a.add_nodes(["x", "y"])?;
    /// a.add_edge("x", "y", 1.0)?;
    /// let mut b = Network::new();
    /// b.add_nodes(["y", "x"])?; // node order is no difference
    /// b.add_edge("x", "y", 1.0)?;
    /// assert!(a.diff(&b).is_empty());
    /// b.add_edge("x", "y", 1.0)?; // a second parallel edge is
    /// assert!(!a.diff(&b).is_empty());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.nodes_removed.is_empty()
            && self.nodes_added.is_empty()
            && self.nodes_changed.is_empty()
            && self.edges_removed.is_empty()
            && self.edges_added.is_empty()
    }

    /// Applies the diff to `net`, a network equal in content to the diff's
    /// `before` network, making it equal in content to `after`: the same nodes with
    /// the same data and attributes, and the same multiset of `(source, target,
    /// weight, attributes)` edges. Edge ids and node order may differ from
    /// `after`'s: removed edges are taken oldest first among the matching ones,
    /// added nodes and edges get new indices and ids.
    ///
    /// Atomic: everything is checked first, and if `net` does not match (a removed
    /// or changed node missing, an added node already there, fewer matching edges
    /// than the diff removes, an edge at a removed node that the diff does not
    /// remove), nothing changes and the error says which. Cost: see the
    /// [module docs](self).
    ///
    /// ```
    /// use networks_mcp::network::{Network, subgraph::Extract};
    ///
    /// let mut before = Network::new();
    /// before.add_nodes(["a", "b"])?;
    /// before.add_edge("a", "b", 1.0)?;
    /// let mut after = before.extract(Extract::Whole);
    /// after.add_node("c")?;
    /// after.add_edge("b", "c", 2.0)?;
    /// after.remove_node("a")?;
    ///
    /// let mut net = before.extract(Extract::Whole);
    /// before.diff(&after).apply_to(&mut net)?;
    /// assert!(net.diff(&after).is_empty());
    /// // Applied twice, it no longer matches: nothing changes.
    /// assert!(before.diff(&after).apply_to(&mut net).is_err());
    /// assert!(net.diff(&after).is_empty());
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn apply_to(&self, net: &mut Network) -> Result<()> {
        // Check everything, collecting what to do.
        let mut removed_nodes = Vec::with_capacity(self.nodes_removed.len());
        let mut removed_ids: HashSet<&str> = HashSet::with_capacity(self.nodes_removed.len());
        for node in &self.nodes_removed {
            let ix = net
                .index_of(&node.id)
                .ok_or_else(|| mismatch(format!("node '{}' to remove is missing", node.id)))?;
            if removed_ids.insert(&node.id) {
                removed_nodes.push(ix);
            }
        }
        let mut changed = Vec::with_capacity(self.nodes_changed.len());
        for (_, after) in &self.nodes_changed {
            check_node(after)?;
            match net.index_of(&after.id) {
                Some(ix) if !removed_ids.contains(&*after.id) => changed.push((ix, *after)),
                _ => {
                    return Err(mismatch(format!(
                        "node '{}' to change is missing",
                        after.id
                    )));
                }
            }
        }
        let mut added_ids: HashSet<&str> = HashSet::with_capacity(self.nodes_added.len());
        for node in &self.nodes_added {
            check_node(node)?;
            if net.contains_node(&node.id) || !added_ids.insert(&node.id) {
                return Err(mismatch(format!(
                    "node '{}' to add is there already",
                    node.id
                )));
            }
        }
        let removed_edges = self.matching_edges(net)?;
        // A removed node must have no edge left once the diff's edges are gone,
        // or removing it would remove edges the diff does not name.
        if !removed_nodes.is_empty() {
            let going: HashSet<EdgeId> = removed_edges.iter().copied().collect();
            for &ix in &removed_nodes {
                let stays = net
                    .graph()
                    .edges_directed(ix, Outgoing)
                    .chain(net.graph().edges_directed(ix, Incoming))
                    .find(|e| !going.contains(&e.weight().id));
                if let Some(e) = stays {
                    return Err(mismatch(format!(
                        "node '{}' to remove has an edge '{}' → '{}' the diff does not remove",
                        net.id_at(ix),
                        net.id_at(e.source()),
                        net.id_at(e.target())
                    )));
                }
            }
        }
        for edge in &self.edges_added {
            validate::weight(edge.weight)?;
            check_attributes(edge.attributes)?;
            for id in [edge.source, edge.target] {
                let present =
                    (net.contains_node(id) && !removed_ids.contains(id)) || added_ids.contains(id);
                if !present {
                    return Err(mismatch(format!(
                        "edge '{}' → '{}' to add has no node '{id}'",
                        edge.source, edge.target
                    )));
                }
            }
        }

        // Apply: every check above has passed, so nothing below can fail.
        for id in removed_edges {
            net.change(Change::RemoveEdge { id, recorded: true });
        }
        for ix in removed_nodes {
            net.change(Change::RemoveNode(ix));
        }
        for (ix, after) in changed {
            net.set_content_from(ix, &after.data, &after.attributes);
        }
        for node in &self.nodes_added {
            net.insert_node_unchecked(
                &node.id,
                node.data.as_deref().cloned(),
                node.attributes.clone(),
            );
        }
        for edge in &self.edges_added {
            let (Some(a), Some(b)) = (net.index_of(edge.source), net.index_of(edge.target)) else {
                unreachable!("the endpoints were checked above");
            };
            for _ in 0..edge.count {
                net.insert_edge_unchecked(a, b, edge.weight, edge.attributes.clone());
            }
        }
        Ok(())
    }

    /// The ids of the edges of `net` that [`Diff::edges_removed`] names, oldest
    /// first among equal ones; an error if `net` has too few of one.
    fn matching_edges(&self, net: &Network) -> Result<Vec<EdgeId>> {
        let mut wanted: HashMap<EdgeKey<'_>, usize> = HashMap::new();
        let mut sources = Vec::new();
        for edge in &self.edges_removed {
            let source = net.index_of(edge.source);
            let (Some(source), true) = (source, net.contains_node(edge.target)) else {
                return Err(mismatch(format!(
                    "edge '{}' → '{}' to remove has a missing endpoint",
                    edge.source, edge.target
                )));
            };
            let count = wanted.entry(edge.key()).or_insert(0);
            *count += edge.count;
            sources.push(source);
        }
        sources.sort_unstable();
        sources.dedup();
        let mut ids = Vec::new();
        for source in sources {
            for e in net.incident_edges(source, Direction::Out) {
                let key = EdgeKey {
                    source: e.source,
                    target: e.target,
                    weight: e.weight,
                    attributes: e.attributes,
                };
                if let Some(count) = wanted.get_mut(&key).filter(|c| **c > 0) {
                    *count -= 1;
                    ids.push(e.id);
                }
            }
        }
        if let Some(edge) = self
            .edges_removed
            .iter()
            .find(|e| wanted.get(&e.key()).is_some_and(|&c| c > 0))
        {
            return Err(mismatch(format!(
                "edge '{}' → '{}' of weight {} to remove is there fewer than {} times",
                edge.source, edge.target, edge.weight, edge.count
            )));
        }
        Ok(ids)
    }
}

/// Checks a node the diff adds or changes by the rules of live input.
fn check_node(node: &Node) -> Result<()> {
    validate::id("node_id", &node.id)?;
    check_attributes(&node.attributes)?;
    match node.data.as_deref() {
        Some(data) => validate::data("data", data),
        None => Ok(()),
    }
}

fn check_attributes(attributes: &Attributes) -> Result<()> {
    if attributes.is_empty() {
        return Ok(());
    }
    validate::attributes("attributes", &attributes.to_map())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::subgraph::Extract;
    use crate::network::{EdgeSpec, NodeSpec};
    use serde_json::json;

    fn attrs(pairs: &[(&str, Value)]) -> serde_json::Map<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn attribute_order_and_the_sign_of_zero_do_not_matter() {
        let mut a = Network::new();
        let mut b = Network::new();
        for net in [&mut a, &mut b] {
            net.add_nodes(["x", "y"]).unwrap();
        }
        a.add_edge_with(
            EdgeSpec::new("x", "y")
                .with_weight(0.0)
                .with_attributes(attrs(&[("p", json!(1)), ("q", json!("s"))])),
        )
        .unwrap();
        b.add_edge_with(
            EdgeSpec::new("x", "y")
                .with_weight(-0.0)
                .with_attributes(attrs(&[("q", json!("s")), ("p", json!(1))])),
        )
        .unwrap();
        assert!(a.diff(&b).is_empty());
        // 1 and 1.0 are different values.
        let mut c = Network::new();
        c.add_nodes(["x", "y"]).unwrap();
        c.add_edge_with(
            EdgeSpec::new("x", "y")
                .with_weight(0.0)
                .with_attributes(attrs(&[("p", json!(1.0)), ("q", json!("s"))])),
        )
        .unwrap();
        let d = a.diff(&c);
        assert_eq!((d.edges_removed.len(), d.edges_added.len()), (1, 1));
    }

    #[test]
    fn a_changed_weight_is_one_edge_removed_and_one_added() {
        let mut a = Network::new();
        a.add_nodes(["x", "y"]).unwrap();
        a.add_edge("x", "y", 1.0).unwrap();
        a.add_edge("x", "y", 1.0).unwrap();
        a.add_edge("y", "x", 1.0).unwrap();
        let mut b = a.extract(Extract::Whole);
        b.remove_edge(1).unwrap();
        b.add_edge("x", "y", 5.0).unwrap();
        b.add_edge("y", "x", 1.0).unwrap();
        b.add_edge("y", "x", 1.0).unwrap();
        let d = a.diff(&b);
        fn show<'a>(v: &[EdgeChange<'a>]) -> Vec<(&'a str, &'a str, f64, usize)> {
            v.iter()
                .map(|e| (e.source, e.target, e.weight, e.count))
                .collect()
        }
        assert_eq!(show(&d.edges_removed), [("x", "y", 1.0, 1)]);
        assert_eq!(
            show(&d.edges_added),
            [("y", "x", 1.0, 2), ("x", "y", 5.0, 1)]
        );
        let mut net = a.extract(Extract::Whole);
        d.apply_to(&mut net).unwrap();
        assert!(net.diff(&b).is_empty());
    }

    #[test]
    fn changed_nodes_take_the_new_data_and_attributes() {
        let mut a = Network::new();
        a.add_node_with(NodeSpec::new("x").with_data(json!([1])))
            .unwrap();
        a.add_node_with(NodeSpec::new("y").with_attribute("k", "v"))
            .unwrap();
        let mut b = Network::new();
        b.add_node("y").unwrap();
        b.add_node_with(NodeSpec::new("x").with_data(json!([2])))
            .unwrap();
        let d = a.diff(&b);
        let changed: Vec<_> = d.nodes_changed.iter().map(|(_, n)| &*n.id).collect();
        assert_eq!(changed, ["y", "x"]);
        let mut net = a.extract(Extract::Whole);
        let version = net.version();
        d.apply_to(&mut net).unwrap();
        assert!(net.version() > version);
        assert!(net.diff(&b).is_empty());
        assert!(net.node("y").unwrap().attributes.is_empty());
    }

    #[test]
    fn a_network_that_does_not_match_is_left_alone() {
        let mut a = Network::new();
        a.add_nodes(["x", "y", "z"]).unwrap();
        a.add_edge("x", "y", 1.0).unwrap();
        let mut b = Network::new();
        b.add_nodes(["x", "w"]).unwrap();
        b.add_edge("x", "w", 1.0).unwrap();
        let d = a.diff(&b);

        // The node to remove has an edge the diff does not know.
        let mut extra = a.extract(Extract::Whole);
        extra.add_edge("z", "x", 1.0).unwrap();
        let before = extra.to_data();
        let err = d.apply_to(&mut extra).unwrap_err();
        assert_eq!(err.code(), "invalid_value");
        assert!(err.to_string().contains("'z' → 'x'"), "{err}");
        assert_eq!(extra.to_data(), before);

        // Too few of an edge to remove.
        let mut fewer = a.extract(Extract::Whole);
        fewer.remove_edge(0).unwrap();
        let before = fewer.to_data();
        assert!(d.apply_to(&mut fewer).is_err());
        assert_eq!(fewer.to_data(), before);

        // A node to add is there already.
        let mut taken = a.extract(Extract::Whole);
        taken.add_node("w").unwrap();
        assert!(
            d.apply_to(&mut taken)
                .unwrap_err()
                .to_string()
                .contains("'w'")
        );
    }
}
