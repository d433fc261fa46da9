//! NetworkX node-link JSON, as `networkx.node_link_graph(data, edges="edges")` reads it:
//! `{"directed": true, "multigraph": true, "graph": {...}, "nodes": [...], "edges": [...]}`.
//!
//! A node is `{"id": <id>, <attributes>..., "data": <payload>}`; an edge is
//! `{"source", "target", "key": <edge id>, "weight", <attributes>...}`. Reserved keys
//! win: a node attribute named `id` or `data`, or an edge attribute named `source`,
//! `target`, `key` or `weight`, cannot be written separately and is left out.

use serde_json::{Map, Value, json};

use super::Selection;
use crate::interchange::values;
use crate::network::Network;

/// Node keys the format itself uses.
pub(crate) const NODE_RESERVED: [&str; 2] = ["id", "data"];
/// Edge keys the format itself uses.
pub(crate) const EDGE_RESERVED: [&str; 4] = ["source", "target", "key", "weight"];

/// Writes the selection as pretty-printed node-link JSON. O(size of the output).
pub(crate) fn write(network: &Network, selection: &Selection<'_>) -> String {
    let mut graph = Map::new();
    graph.insert("name".into(), json!(network.name()));
    if let Some(description) = network.description() {
        graph.insert("description".into(), json!(description));
    }
    let nodes: Vec<Value> = selection
        .nodes
        .iter()
        .map(|node| {
            crate::budget::charge(1);
            let mut object = Map::new();
            object.insert("id".into(), json!(&*node.id));
            for (key, value) in node.attributes.iter() {
                if !NODE_RESERVED.contains(&key) {
                    object.insert(key.to_string(), value.clone());
                }
            }
            if let Some(data) = &node.data {
                object.insert("data".into(), (**data).clone());
            }
            Value::Object(object)
        })
        .collect();
    let edges: Vec<Value> = selection
        .edges
        .iter()
        .map(|edge| {
            crate::budget::charge(1);
            let mut object = Map::new();
            object.insert("source".into(), json!(edge.source));
            object.insert("target".into(), json!(edge.target));
            object.insert("key".into(), json!(edge.id));
            object.insert(
                "weight".into(),
                values::float(edge.weight).unwrap_or(json!(1.0)),
            );
            for (key, value) in edge.attributes.iter() {
                if !EDGE_RESERVED.contains(&key) {
                    object.insert(key.to_string(), value.clone());
                }
            }
            Value::Object(object)
        })
        .collect();
    let document = json!({
        "directed": true,
        "multigraph": true,
        "graph": graph,
        "nodes": nodes,
        "edges": edges,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
