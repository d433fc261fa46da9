//! `network_topological_sort`: an order that respects every edge, in layers
//! whose nodes can run in parallel, page by page.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    Level, MAX_ANALYSIS_LIMIT, default_limit, epics_of, ids, loop_note, named_cycle, ordered_on,
};
use crate::error::Result;
use crate::mcp::page::Page;
use crate::mcp::tool::{Effect, ToolContext, ToolDef, ToolMeta, Toolset};
use crate::mcp::tools::common::{Paging, Success, check_limit, relation_filter};
use crate::network::Order;

/// Parameters of `network_topological_sort`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopoParams {
    // Self-explanatory: left undescribed to keep tools/list small.
    pub network_name: String,
    /// true: dependencies first.
    #[serde(default)]
    pub reverse: bool,
    /// Nodes per page.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = MAX_ANALYSIS_LIMIT))]
    pub limit: usize,
    // Undescribed to keep tools/list small: `more` says to pass next_cursor here.
    #[serde(default)]
    pub cursor: Option<String>,
    // The relation filter: described once, in the server instructions.
    #[serde(default)]
    pub relations: Option<Vec<String>>,
    #[serde(default)]
    pub ignore_relations: Option<Vec<String>>,
    #[serde(default)]
    pub relation_attribute: Option<String>,
    /// "epics": order whole epics (the nodes others name as parent) instead of tasks.
    #[serde(default)]
    pub level: Level,
    // The node attribute naming a node's parent, default "parent": see the specs.
    #[serde(default)]
    pub parent_attribute: Option<String>,
    /// true: one list, node_ids, instead of layers.
    #[serde(default)]
    pub flat: bool,
}

/// Result of `network_topological_sort`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct TopoOutput {
    /// "success".
    pub status: Success,
    /// With flat: this page of an order of all node IDs that respects every edge (the layers concatenated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_ids: Option<Vec<String>>,
    /// Without flat: this page by layer: `layers[i]` is layer `first_layer + i` (a page ends on a layer's end unless that layer alone fills it). Layer k holds the nodes whose longest chain of predecessors has k edges; each layer needs only earlier layers, so its nodes can run in parallel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<Vec<String>>>,
    /// The number of the page's first layer (0 on the first page).
    pub first_layer: usize,
    /// Number of layers (the length of the longest chain, in nodes).
    pub layer_count: usize,
    /// Number of nodes in the network.
    pub node_count: usize,
    /// Whether `reverse` was applied.
    pub reverse: bool,
    /// At level "epics", when parents form a loop: which nodes, and what to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How to get the rest.
    #[serde(flatten)]
    pub paging: Paging,
}

fn topological_sort(ctx: &ToolContext<'_>, p: TopoParams) -> Result<TopoOutput> {
    let limit = check_limit(p.limit, MAX_ANALYSIS_LIMIT)?;
    ctx.registry.read(&p.network_name, |net| {
        crate::mcp::tools::warn_if_empty(&p.network_name, net.node_count());
        let filter = relation_filter(
            net,
            p.relations.as_deref(),
            p.ignore_relations.as_deref(),
            p.relation_attribute.as_deref(),
        )?;
        let epics = epics_of(net, &filter, p.level, p.parent_attribute.as_deref())?;
        let (on, followed, operation) = ordered_on(net, &filter, &epics, "a topological order");
        let sorted = on
            .following(followed)
            .topological_sort(Order::from_reverse(p.reverse))
            .map_err(|e| named_cycle(e, &operation))?;
        let mut page = Page::open(
            ctx,
            net,
            "network_topological_sort",
            (p.reverse, &filter, p.level, &p.parent_attribute),
            p.cursor.as_deref(),
            limit,
            MAX_ANALYSIS_LIMIT,
        )?;
        let node_count = sorted.order.len();
        // Where each layer ends in the concatenated order.
        let mut layer_ends = Vec::with_capacity(sorted.layers.len());
        let mut at = 0usize;
        for layer in &sorted.layers {
            at += layer.len();
            layer_ends.push(at);
        }
        // The page ends on the last layer end it can hold; a layer larger than
        // the whole page is cut where the page ends.
        let last_end = |from: usize, to: usize| {
            let i = layer_ends.partition_point(|&e| e <= to);
            layer_ends[..i].last().copied().filter(|&e| e > from)
        };
        if let Some(end) = last_end(page.offset, page.end()) {
            page.shorten(end - page.offset);
        }
        let mut order: Vec<&str> =
            page.fill(page.slice(&sorted.order).iter().map(|&n| on.id_at(n)));
        // Stopped by bytes inside a later layer: back to the last layer end.
        if page.stopped_at_bytes()
            && let Some(end) = last_end(page.offset, page.offset + order.len())
        {
            order.truncate(end - page.offset);
            page.keep(order.len());
        }
        let end = page.offset + order.len();
        // The layers that overlap [offset, end) of the concatenated order.
        let mut layers = Vec::new();
        let mut first_layer = sorted.layers.len();
        let mut layer_start = 0;
        for (number, layer) in sorted.layers.iter().enumerate() {
            let layer_end = layer_start + layer.len();
            let from = page.offset.max(layer_start);
            let to = end.min(layer_end);
            if from < to {
                first_layer = first_layer.min(number);
                layers.push(ids(
                    on,
                    layer[from - layer_start..to - layer_start].iter().copied(),
                ));
            }
            if layer_end >= end {
                break;
            }
            layer_start = layer_end;
        }
        let returned = order.len();
        let order: Vec<String> = order.into_iter().map(str::to_string).collect();
        let note = loop_note(net, epics.as_ref());
        let mut paging = Paging::of(&page, returned, Some(node_count), end < node_count);
        if paging.truncated && layer_ends.binary_search(&end).is_ok() {
            paging.add_note(
                "A page ends where a layer ends, so that a layer's nodes come together."
                    .to_string(),
            );
        }
        Ok(TopoOutput {
            status: Success::Success,
            note,
            paging,
            node_ids: p.flat.then_some(order),
            layer_count: sorted.layers.len(),
            first_layer: first_layer.min(sorted.layers.len()),
            layers: (!p.flat).then_some(layers),
            node_count,
            reverse: p.reverse,
        })
    })
}

/// `network_topological_sort`.
pub fn tool() -> ToolDef {
    ToolDef::new(
        ToolMeta {
            name: "network_topological_sort",
            title: "Order and parallel layers",
            description: "Order the nodes so every edge's source comes first, in layers that can run in parallel; reverse: true puts dependencies first. A cycle is an error naming one.",
            toolset: Toolset::Analysis,
            effect: Effect::Read,
            long_running: true,
        },
        topological_sort,
    )
}
