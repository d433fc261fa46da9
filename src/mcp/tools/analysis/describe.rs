//! `network_describe`: a summary of a whole network, where to start with an
//! unknown one.

use petgraph::stable_graph::NodeIndex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::MAX_ANALYSIS_LIMIT;
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Success, check_range};
use crate::network::Network;
use crate::network::inventory::{KeyStats, ValueCount};

fn default_list_limit() -> usize {
    20
}

fn default_top_k() -> usize {
    5
}

/// Parameters of `network_describe`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// Sources and sinks per page.
    #[serde(default = "default_list_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub list_limit: usize,
    /// Top nodes by in- and out-degree.
    #[serde(default = "default_top_k")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub top_k: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Also list attribute keys, types and values.
    #[serde(default)]
    pub include_schema: bool,
}

/// A node with a degree.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Degree {
    /// The node ID.
    pub node_id: String,
    /// Its degree.
    pub degree: usize,
}

/// Result of `network_describe`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DescribeOutput {
    /// "success".
    pub status: Success,
    /// The network's name.
    pub network_name: String,
    /// Its description, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its version: it rises with every change.
    pub version: u64,
    /// Number of nodes.
    pub node_count: usize,
    /// Number of edges.
    pub edge_count: usize,
    /// edges / (nodes * (nodes - 1)); 0 for fewer than 2 nodes.
    pub density: f64,
    /// True when there is no cycle (a topological order exists).
    pub is_dag: bool,
    /// Number of weakly connected components (pieces when edge direction is ignored).
    pub weak_component_count: usize,
    /// Number of self-loop edges.
    pub self_loop_count: usize,
    /// Nodes nothing points to (in a depends-on graph: nothing depends on them, e.g. final goals).
    pub sources: Vec<String>,
    /// How many sources exist.
    pub source_count: usize,
    /// Nodes that point to nothing (in a depends-on graph: no dependencies; they can start first).
    pub sinks: Vec<String>,
    /// How many sinks exist.
    pub sink_count: usize,
    /// Nodes with no edge at all.
    pub isolated_count: usize,
    /// Nodes with the most incoming edges (most depended upon).
    pub top_in_degree: Vec<Degree>,
    /// Nodes with the most outgoing edges (most dependencies).
    pub top_out_degree: Vec<Degree>,
    /// Sum of all edge weights.
    pub total_weight: f64,
    /// Smallest edge weight (absent without edges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_weight: Option<f64>,
    /// Largest edge weight (absent without edges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_weight: Option<f64>,
    /// True when sources or sinks were cut at list_limit, or a list at the reply size bound.
    pub truncated: bool,
    /// Pass it as cursor for the next sources and sinks; absent on their last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// When cut: how to see more of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<String>,
    /// With include_schema: what the nodes and edges hold (see the spec for its shape).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
}

fn describe(ctx: &ToolContext<'_>, p: DescribeParams) -> Result<DescribeOutput> {
    let list_limit = check_range("list_limit", p.list_limit, MAX_ANALYSIS_LIMIT)?;
    let top_k = check_range("top_k", p.top_k, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        // One cursor pages both lists: page k shows the same positions of each.
        let page = Page::open(
            ctx,
            net,
            "network_describe",
            (),
            p.cursor.as_deref(),
            list_limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let d = net.describe(page.end(), top_k);
        let longest = d.sources.len().max(d.sinks.len());
        let end = page.end().min(longest);
        // Measured as pairs, so that the page stops at the same position of both.
        let pairs = page.fill((page.offset.min(end)..end).map(|i| {
            (
                d.sources.get(i).map(|&n| net.id_at(n)),
                d.sinks.get(i).map(|&n| net.id_at(n)),
            )
        }));
        let returned = pairs.len();
        let (sources, sinks): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        // The degree lists take what the page leaves.
        let degrees = |list: &[(NodeIndex, usize)]| -> (Vec<Degree>, bool) {
            let listed: Vec<Degree> = list
                .iter()
                .map(|&(n, degree)| Degree {
                    node_id: net.id_at(n).to_string(),
                    degree,
                })
                .take_while(|degree| page.charge(degree))
                .collect();
            let cut = listed.len() < list.len();
            (listed, cut)
        };
        let (top_in_degree, in_cut) = degrees(&d.top_in_degree);
        let (top_out_degree, out_cut) = degrees(&d.top_out_degree);
        let lists_total = d.sources_total.max(d.sinks_total);
        let next_cursor = page.next(page.end() < lists_total);
        let mut more = Vec::new();
        if next_cursor.is_some() {
            let first = page.offset.saturating_add(1);
            let last = page.offset.saturating_add(returned);
            let raise = if page.stopped_at_bytes() {
                format!(
                    " (the page stopped at the reply size bound, {} bytes, --max-reply-bytes)",
                    ctx.limits.max_reply_bytes
                )
            } else if list_limit < MAX_ANALYSIS_LIMIT {
                format!(", or raise list_limit (at most {MAX_ANALYSIS_LIMIT})")
            } else {
                String::new()
            };
            more.push(format!(
                "Sources and sinks {first}-{last} are listed. For the next ones, repeat the call with cursor set to next_cursor{raise}."
            ));
        }
        if in_cut || out_cut {
            more.push(format!(
                "The reply size bound ({} bytes, --max-reply-bytes) cut the top degree lists; ask for a smaller top_k.",
                ctx.limits.max_reply_bytes
            ));
        }
        Ok(DescribeOutput {
            status: Success::Success,
            network_name: p.network_name.clone(),
            description: net.description().map(str::to_string),
            version: net.version(),
            node_count: d.nodes,
            edge_count: d.edges,
            density: d.density,
            is_dag: d.is_dag,
            weak_component_count: d.weakly_connected_components,
            self_loop_count: d.self_loops,
            truncated: next_cursor.is_some() || in_cut || out_cut,
            next_cursor,
            more: (!more.is_empty()).then(|| more.join(" ")),
            sources: sources.into_iter().flatten().map(String::from).collect(),
            source_count: d.sources_total,
            sinks: sinks.into_iter().flatten().map(String::from).collect(),
            sink_count: d.sinks_total,
            isolated_count: d.isolated_total,
            top_in_degree,
            top_out_degree,
            total_weight: d.total_weight,
            min_weight: d.min_weight,
            max_weight: d.max_weight,
            schema: p.include_schema.then(|| schema(net)),
        })
    })
}

/// Keys listed per side (nodes, edges), and relation types listed.
const MAX_SCHEMA_KEYS: usize = 50;
/// Commonest values listed per key.
const SCHEMA_TOP_VALUES: usize = 5;
/// A listed string value is cut to this many characters.
const MAX_SCHEMA_VALUE_CHARS: usize = 80;

/// The inventory in the vocabulary's words, bounded: at most 50 keys per side
/// and 50 relation types, 5 values per key, each string value cut to 80
/// characters, so the section stays a few KB whatever the network holds.
fn schema(net: &Network) -> Value {
    let inventory = net.inventory(SCHEMA_TOP_VALUES.max(MAX_SCHEMA_KEYS), "relation");
    let keys = |stats: &[KeyStats]| -> Value {
        stats
            .iter()
            .take(MAX_SCHEMA_KEYS)
            .map(|k| {
                let types: Map<String, Value> =
                    k.types.iter().map(|(t, n)| ((*t).to_string(), json!(n))).collect();
                let mut entry = json!({
                    "key": k.key,
                    "item_count": k.count,
                    "types": types,
                    "distinct_count": k.distinct_count,
                    "top_values": values(&k.top_values[..k.top_values.len().min(SCHEMA_TOP_VALUES)]),
                });
                if let Some(role) = k.role {
                    entry["role"] = json!(role);
                }
                entry
            })
            .collect()
    };
    let relations: Vec<Value> = inventory
        .relations
        .iter()
        .take(MAX_SCHEMA_KEYS)
        .map(|r| json!({"relation": clip(&r.value), "edge_count": r.count}))
        .collect();
    json!({
        "node_attributes": keys(&inventory.node_attributes),
        "node_attribute_count": inventory.node_attributes.len(),
        "edge_attributes": keys(&inventory.edge_attributes),
        "edge_attribute_count": inventory.edge_attributes.len(),
        "relations": relations,
        "relation_count": inventory.relations_total,
    })
}

fn values(list: &[ValueCount]) -> Value {
    list.iter()
        .map(|v| json!({"value": clip(&v.value), "item_count": v.count}))
        .collect()
}

/// A string value cut to [`MAX_SCHEMA_VALUE_CHARS`] characters (ids and long
/// titles would otherwise fill the reply); other scalars as they are.
fn clip(value: &Value) -> Value {
    match value {
        Value::String(text) if text.chars().count() > MAX_SCHEMA_VALUE_CHARS => {
            let cut: String = text.chars().take(MAX_SCHEMA_VALUE_CHARS).collect();
            Value::String(format!("{cut}…"))
        }
        other => other.clone(),
    }
}

/// `network_describe`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_describe",
            title: "Describe a network",
            description: "Summarise a network: counts, DAG or not, components, sources and sinks, top nodes by degree, weights. Start here with an unknown network.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        describe,
    )
}
