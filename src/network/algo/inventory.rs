//! What a network holds when nobody wrote its schema down: for nodes and for
//! edges, each attribute key with how many items carry it, its value types, how
//! many distinct values it has and its commonest values; the relation types of
//! the edges; and which keys look like a status, a priority, labels, a relation
//! or a parent. One pass over every attribute: O(V + E + attributes), with a
//! count per distinct value (at most one per attribute held, so linear too).

use std::collections::HashMap;

use serde_json::Value;

use crate::network::Network;

/// What a key looks like it is for, judged by its name and its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Role {
    /// A state such as todo / doing / done (`status`, `state`).
    Status,
    /// A number or level that orders work (`priority`, `prio`, `severity`, `rank`).
    Priority,
    /// Labels or tags (`labels`, `tags`, `tag`). Not `label`: in Mermaid,
    /// GraphML and NetworkX documents that is a node's display name.
    Labels,
    /// An edge's relation type (`relation`, `type`, `kind`, `rel`), on edges only.
    Relation,
    /// The id of a parent item, such as an epic (`parent`, `epic`, `parent_id`).
    Parent,
}

impl Role {
    /// The role a key's name suggests, if its values agree (a priority is a number
    /// or a short level such as `P1` or `high`; the others are strings).
    fn of(key: &str, on_edges: bool, types: &[(&'static str, usize)]) -> Option<Role> {
        let name = key.to_ascii_lowercase();
        let strings = types.iter().any(|(t, _)| *t == "string");
        let numbers = types.iter().any(|(t, _)| *t == "integer" || *t == "number");
        let role = match name.as_str() {
            "status" | "state" => Role::Status,
            "priority" | "prio" | "severity" | "rank" => Role::Priority,
            "labels" | "tags" | "tag" => Role::Labels,
            "relation" | "type" | "kind" | "rel" | "relation_type" if on_edges => Role::Relation,
            "parent" | "epic" | "parent_id" => Role::Parent,
            _ => return None,
        };
        let fits = match role {
            Role::Priority => numbers || strings,
            _ => strings,
        };
        fits.then_some(role)
    }
}

/// A value and how many items carry it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueCount {
    /// The value.
    pub value: Value,
    /// How many items carry it.
    pub count: usize,
}

/// One attribute key across all nodes (or all edges).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KeyStats {
    /// The key.
    pub key: String,
    /// How many items carry it.
    pub count: usize,
    /// Its value types (`string`, `integer`, `number`, `boolean`) with how many
    /// items have each, commonest first.
    pub types: Vec<(&'static str, usize)>,
    /// How many distinct values it takes.
    pub distinct_count: usize,
    /// Its commonest values, commonest first (ties: the first seen first).
    pub top_values: Vec<ValueCount>,
    /// What it looks like it is for.
    pub role: Option<Role>,
}

/// A network's attribute keys and relation types.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Inventory {
    /// The node attribute keys, the most used first (ties by name).
    pub node_attributes: Vec<KeyStats>,
    /// The edge attribute keys, the most used first (ties by name).
    pub edge_attributes: Vec<KeyStats>,
    /// The values of the edges' relation attribute, commonest first (the first
    /// `top`); edges without it are counted as `null` (plain dependencies).
    pub relations: Vec<ValueCount>,
    /// How many distinct relation values there are, `null` included.
    pub relations_total: usize,
}

/// Counts of one key's values, in the order first seen.
#[derive(Default)]
struct Tally {
    count: usize,
    types: HashMap<&'static str, usize>,
    /// JSON text of a value -> its slot in `values`.
    slots: HashMap<String, usize>,
    values: Vec<ValueCount>,
}

impl Tally {
    fn add(&mut self, value: &Value) {
        self.count += 1;
        *self.types.entry(type_name(value)).or_default() += 1;
        let text = value.to_string();
        match self.slots.get(&text) {
            Some(&slot) => self.values[slot].count += 1,
            None => {
                self.slots.insert(text, self.values.len());
                self.values.push(ValueCount {
                    value: value.clone(),
                    count: 1,
                });
            }
        }
    }

    fn into_stats(self, key: String, top: usize, on_edges: bool) -> KeyStats {
        let mut types: Vec<(&'static str, usize)> = self.types.into_iter().collect();
        types.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let distinct_count = self.values.len();
        let role = Role::of(&key, on_edges, &types);
        KeyStats {
            key,
            count: self.count,
            types,
            distinct_count,
            top_values: commonest(self.values, top),
            role,
        }
    }
}

/// The `top` commonest values; a stable sort keeps first-seen order among ties.
fn commonest(mut values: Vec<ValueCount>, top: usize) -> Vec<ValueCount> {
    values.sort_by_key(|v| std::cmp::Reverse(v.count));
    values.truncate(top);
    values
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Null => "null",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Keys in the order of their first use, with their tallies.
#[derive(Default)]
struct Keys {
    order: HashMap<String, usize>,
    tallies: Vec<(String, Tally)>,
}

impl Keys {
    fn add(&mut self, key: &str, value: &Value) {
        let slot = match self.order.get(key) {
            Some(&slot) => slot,
            None => {
                self.order.insert(key.to_string(), self.tallies.len());
                self.tallies.push((key.to_string(), Tally::default()));
                self.tallies.len() - 1
            }
        };
        self.tallies[slot].1.add(value);
    }

    fn into_stats(self, top: usize, on_edges: bool) -> Vec<KeyStats> {
        let mut stats: Vec<KeyStats> = self
            .tallies
            .into_iter()
            .map(|(key, tally)| tally.into_stats(key, top, on_edges))
            .collect();
        stats.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
        stats
    }
}

impl Network {
    /// The network's attribute keys and relation types: a schema inferred from
    /// what it holds. `top` bounds the commonest values listed per key (and the
    /// relation types); `relation_key` names the edges' relation attribute.
    ///
    /// ```
    /// use networks_mcp::network::{EdgeSpec, Network, NodeSpec};
    ///
    /// let mut net = Network::new();
    /// net.add_node_with(NodeSpec::new("a").with_attribute("status", "todo"))?;
    /// net.add_node_with(NodeSpec::new("b").with_attribute("status", "done"))?;
    /// net.add_node_with(NodeSpec::new("c").with_attribute("status", "todo"))?;
    /// net.add_edge_with(EdgeSpec::new("a", "b").with_attribute("relation", "blocks"))?;
    /// net.add_edge("c", "b", 1.0)?;
    /// let inventory = net.inventory(5, "relation");
    /// let status = &inventory.node_attributes[0];
    /// assert_eq!((status.key.as_str(), status.count, status.distinct_count), ("status", 3, 2));
    /// assert_eq!(status.top_values[0].value, "todo");
    /// assert_eq!(inventory.relations.len(), 2); // "blocks" and plain (null)
    /// # Ok::<(), networks_mcp::Error>(())
    /// ```
    pub fn inventory(&self, top: usize, relation_key: &str) -> Inventory {
        let mut nodes = Keys::default();
        for ix in self.node_indices() {
            let node = &self.graph()[ix];
            crate::budget::charge(1 + node.attributes.len() as u64);
            for (key, value) in node.attributes.iter() {
                nodes.add(key, value);
            }
        }
        let mut edges = Keys::default();
        let mut relations = Tally::default();
        for edge in self.edges() {
            crate::budget::charge(1 + edge.attributes.len() as u64);
            for (key, value) in edge.attributes.iter() {
                edges.add(key, value);
            }
            relations.add(edge.attributes.get(relation_key).unwrap_or(&Value::Null));
        }
        Inventory {
            node_attributes: nodes.into_stats(top, false),
            edge_attributes: edges.into_stats(top, true),
            relations_total: relations.values.len(),
            relations: commonest(relations.values, top),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{EdgeSpec, NodeSpec};

    fn plan() -> Network {
        let mut net = Network::new();
        for (id, status, priority) in [
            ("a", "todo", 1),
            ("b", "done", 2),
            ("c", "todo", 2),
            ("d", "todo", 3),
        ] {
            net.add_node_with(
                NodeSpec::new(id)
                    .with_attribute("status", status)
                    .with_attribute("priority", priority),
            )
            .unwrap();
        }
        net.add_node_with(NodeSpec::new("e").with_attribute("labels", "db,api"))
            .unwrap();
        net.add_edge_with(EdgeSpec::new("a", "b").with_attribute("relation", "blocks"))
            .unwrap();
        net.add_edge_with(EdgeSpec::new("c", "b").with_attribute("relation", "related"))
            .unwrap();
        net.add_edge_with(EdgeSpec::new("d", "c").with_attribute("relation", "blocks"))
            .unwrap();
        net.add_edge("e", "a", 1.0).unwrap();
        net
    }

    #[test]
    fn keys_are_counted_typed_and_ranked() {
        let inventory = plan().inventory(2, "relation");
        let keys: Vec<(&str, usize)> = inventory
            .node_attributes
            .iter()
            .map(|k| (k.key.as_str(), k.count))
            .collect();
        assert_eq!(keys, [("priority", 4), ("status", 4), ("labels", 1)]);
        let status = &inventory.node_attributes[1];
        assert_eq!(status.types, [("string", 4)]);
        assert_eq!(status.distinct_count, 2);
        assert_eq!(
            status.top_values,
            [
                ValueCount {
                    value: "todo".into(),
                    count: 3
                },
                ValueCount {
                    value: "done".into(),
                    count: 1
                }
            ]
        );
        let priority = &inventory.node_attributes[0];
        // Ties keep the first seen first: 2 (twice), then 1 before 3.
        assert_eq!(
            priority
                .top_values
                .iter()
                .map(|v| (v.value.clone(), v.count))
                .collect::<Vec<_>>(),
            [(Value::from(2), 2), (Value::from(1), 1)]
        );
        assert_eq!(priority.role, Some(Role::Priority));
        assert_eq!(status.role, Some(Role::Status));
        assert_eq!(inventory.node_attributes[2].role, Some(Role::Labels));
    }

    #[test]
    fn relations_count_plain_edges_as_null() {
        let inventory = plan().inventory(10, "relation");
        let relations: Vec<(Value, usize)> = inventory
            .relations
            .iter()
            .map(|r| (r.value.clone(), r.count))
            .collect();
        assert_eq!(
            relations,
            [
                (Value::from("blocks"), 2),
                (Value::from("related"), 1),
                (Value::Null, 1)
            ]
        );
        assert_eq!(inventory.edge_attributes[0].role, Some(Role::Relation));
        // A key named like a relation on nodes is not one.
        assert_eq!(Role::of("type", false, &[("string", 1)]), None);
        // A status that is a number is not taken for a state.
        assert_eq!(Role::of("status", false, &[("integer", 1)]), None);
        // `label` is a display name (a Mermaid node's text), not labels.
        assert_eq!(Role::of("label", false, &[("string", 1)]), None);
        assert_eq!(
            Role::of("tags", false, &[("string", 1)]),
            Some(Role::Labels)
        );
    }

    #[test]
    fn an_empty_network_has_an_empty_inventory() {
        assert_eq!(
            Network::new().inventory(5, "relation"),
            Inventory::default()
        );
    }
}
