//! A layered, left-to-right drawing of a directed graph (Sugiyama style), computed
//! on the server so that the `/ui` page needs no layout library.
//!
//! Steps, each deterministic (ties broken by input order):
//!
//! 1. **Breaking cycles.** A graph with cycles has no layering in which every edge
//!    points right, so a few edges are turned around for the layering and drawn
//!    back (right to left) afterwards: a *feedback arc set*, chosen by the greedy
//!    heuristic of Eades, Lin and Smyth (1993). It orders the nodes by repeatedly
//!    taking away sinks (to the end), sources (to the front), and otherwise the node
//!    with the largest out-degree minus in-degree (to the front); the edges that then
//!    point backwards in that order are the cut edges. With bucket queues this is
//!    O(V + E), and it cuts at most half the edges. Strongly connected components
//!    (petgraph's `kosaraju_scc`, iterative, so a long chain does not overflow the
//!    stack) only flag what lies on a cycle, for the page to colour.
//! 2. **Layers.** Longest path from the sources (Kahn) of the graph with the cut
//!    edges turned around: a node's layer is one more than the highest layer of its
//!    predecessors, so every edge that is not cut points strictly to the right. On a
//!    DAG nothing is cut and these are the layers of `network_topological_sort`.
//! 3. **Virtual nodes.** An edge spanning several layers gets one virtual node per
//!    layer it crosses, so crossing reduction sees it and the drawn edge bends
//!    around the real nodes (a cut edge goes through them right to left). They are
//!    capped ([`MAX_VIRTUAL_PER_NODE`]); past the cap long edges are kept as direct
//!    links (still used for ordering, drawn straight).
//! 4. **Crossing reduction.** Barycenter sweeps, down then up, each node moved to
//!    the mean relative position of its neighbours in the previous layer; the order
//!    with the fewest crossings (counted exactly between adjacent layers with a
//!    Fenwick tree, O(E log V)) is kept. Stops after [`MAX_SWEEPS`] rounds or when
//!    two rounds bring no improvement.
//! 5. **Coordinates.** x: columns as wide as their widest node. y: each layer is
//!    pulled towards its neighbours' mean y by isotonic regression (pool adjacent
//!    violators), which keeps the order and the minimum gaps and is optimal in the
//!    least-squares sense; a few alternating passes straighten the edges.
//!
//! Complexity: O((V + E + D) log(V + D)) per sweep, D the virtual nodes; 5,000 nodes
//! and 10,000 edges take well under a second in a release build.

use hashbrown::HashMap;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// Rounds of barycenter sweeps (each one down and one up).
pub const MAX_SWEEPS: usize = 12;

/// Virtual nodes allowed per real node (plus a fixed allowance), bounding the work
/// and the size of the reply on graphs with many long edges.
pub const MAX_VIRTUAL_PER_NODE: usize = 8;
const VIRTUAL_ALLOWANCE: usize = 10_000;

/// Passes of coordinate straightening.
const PLACEMENT_PASSES: usize = 8;

/// Distances in the drawing, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spacing {
    /// Height of a node box.
    pub node_height: f64,
    /// Vertical gap between two node boxes of one layer.
    pub node_gap: f64,
    /// Vertical gap next to a virtual node (an edge passing through a layer).
    pub virtual_gap: f64,
    /// Horizontal gap between two columns.
    pub layer_gap: f64,
    /// Margin around the whole drawing.
    pub margin: f64,
}

impl Default for Spacing {
    fn default() -> Self {
        Spacing {
            node_height: 24.0,
            node_gap: 12.0,
            virtual_gap: 10.0,
            layer_gap: 72.0,
            margin: 24.0,
        }
    }
}

/// Where one input node is drawn: the centre of its box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodePlace {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Column (0 = leftmost).
    pub layer: usize,
    /// Whether it lies on a cycle (a strongly connected component of two or more
    /// nodes, or a self-loop).
    pub cyclic: bool,
}

/// How one input edge is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeRoute {
    /// Points the edge passes through between its endpoints (virtual nodes), from
    /// its source to its target: right to left for a cut edge.
    pub bends: Vec<(f64, f64)>,
    /// Whether the edge lies on a cycle (both ends in one strongly connected
    /// component, or a self-loop).
    pub cyclic: bool,
    /// Whether the edge was cut to break a cycle: it points from a later column
    /// back to an earlier one (or within one column, never on a DAG).
    pub back: bool,
}

/// The result of [`layered`].
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// One entry per input node, in input order.
    pub nodes: Vec<NodePlace>,
    /// One entry per input edge, in input order.
    pub edges: Vec<EdgeRoute>,
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// Number of columns.
    pub layers: usize,
    /// Edge crossings between adjacent columns after reduction.
    pub crossings: usize,
    /// Edges cut to break cycles (self-loops not counted: they are drawn as loops).
    pub back_edges: usize,
}

/// One thing placed in a layer: a unit or a virtual node.
#[derive(Debug, Clone)]
struct Item {
    layer: usize,
    /// Height of the item (0 for a virtual node).
    extent: f64,
    /// Width of the item's column slot.
    width: f64,
    /// `Some(unit)` for a real unit, `None` for a virtual node.
    unit: Option<usize>,
}

/// Lays out a graph of `widths.len()` nodes (`widths[i]`: width of node `i`'s box)
/// and the directed `edges` (indices into `widths`; parallel edges and self-loops
/// allowed). See the module docs for the algorithm, and `a_chain_and_a_shortcut`
/// below for an example.
pub fn layered(widths: &[f64], edges: &[(usize, usize)], spacing: &Spacing) -> Layout {
    let units = Units::new(widths.len(), edges);
    let unit_layer = unit_layers(&units);
    let mut graph = ItemGraph::build(&units, &unit_layer, widths, spacing);
    let crossings = graph.reduce_crossings();
    let (ys, column_x) = graph.place(spacing);
    let nodes = place_nodes(&graph, &units, &ys, &column_x);
    let routes = route_edges(&graph, &units, edges, &ys, &column_x);
    let layers = graph.layers.len();
    let width = if layers == 0 {
        0.0
    } else {
        column_x[layers - 1] + graph.column_width[layers - 1] / 2.0 + spacing.margin
    };
    let height = graph
        .items
        .iter()
        .zip(&ys)
        .map(|(item, y)| y + item.extent / 2.0)
        .fold(0.0, f64::max)
        + spacing.margin;
    let back_edges = routes.iter().filter(|r| r.back).count();
    Layout {
        nodes,
        edges: routes,
        width,
        height,
        layers,
        crossings,
        back_edges,
    }
}

/// Node positions: the centre of each node's item.
fn place_nodes(graph: &ItemGraph, units: &Units, ys: &[f64], column_x: &[f64]) -> Vec<NodePlace> {
    let unplaced = NodePlace {
        x: 0.0,
        y: 0.0,
        layer: 0,
        cyclic: false,
    };
    let mut nodes = vec![unplaced; units.cyclic.len()];
    for (item_ix, item) in graph.items.iter().enumerate() {
        let Some(v) = item.unit else { continue };
        nodes[v] = NodePlace {
            x: column_x[item.layer],
            y: ys[item_ix],
            layer: item.layer,
            cyclic: units.cyclic[v],
        };
    }
    nodes
}

/// Each edge's bends: through the virtual nodes of its chain when it spans
/// layers, reversed for a cut edge (drawn from its source, on the right, back to
/// its target).
fn route_edges(
    graph: &ItemGraph,
    units: &Units,
    edges: &[(usize, usize)],
    ys: &[f64],
    column_x: &[f64],
) -> Vec<EdgeRoute> {
    edges
        .iter()
        .map(|&(a, b)| {
            let cyclic = a == b || (units.component[a] == units.component[b] && units.cyclic[a]);
            if a == b {
                return EdgeRoute {
                    bends: Vec::new(),
                    cyclic,
                    back: false,
                };
            }
            let back = units.pos[a] > units.pos[b];
            let key = if back { (b, a) } else { (a, b) };
            let mut bends: Vec<(f64, f64)> = graph
                .chains
                .get(&key)
                .map(|chain| {
                    chain
                        .iter()
                        .map(|&d| (column_x[graph.items[d].layer], ys[d]))
                        .collect()
                })
                .unwrap_or_default();
            if back {
                bends.reverse();
            }
            EdgeRoute {
                bends,
                cyclic,
                back,
            }
        })
        .collect()
}

/// The nodes as units of the layout (one each), in the order that breaks cycles,
/// and the edges the layering sees.
struct Units {
    /// The strongly connected component of each node (numbered by kosaraju).
    component: Vec<usize>,
    /// Whether each node lies on a cycle.
    cyclic: Vec<bool>,
    /// Each node's place in the Eades–Lin–Smyth order: an edge `a → b` with
    /// `pos[a] > pos[b]` is cut (turned around for the layering).
    pos: Vec<usize>,
    /// Distinct edges for the layering, cut edges turned around, sorted: a DAG.
    edges: Vec<(usize, usize)>,
}

impl Units {
    fn new(n: usize, edges: &[(usize, usize)]) -> Units {
        let mut g = DiGraph::<(), ()>::with_capacity(n, edges.len());
        for _ in 0..n {
            g.add_node(());
        }
        for &(a, b) in edges {
            g.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
        }
        let mut component = vec![0; n];
        let mut cyclic = vec![false; n];
        for (c, members) in kosaraju_scc(&g).into_iter().enumerate() {
            let on_cycle = members.len() > 1;
            for v in members {
                component[v.index()] = c;
                cyclic[v.index()] = on_cycle;
            }
        }
        let mut distinct: Vec<(usize, usize)> = Vec::with_capacity(edges.len());
        for &(a, b) in edges {
            if a == b {
                cyclic[a] = true;
            } else {
                distinct.push((a, b));
            }
        }
        distinct.sort_unstable();
        distinct.dedup();
        let pos = feedback_order(n, &distinct);
        let mut layered: Vec<(usize, usize)> = distinct
            .into_iter()
            .map(|(a, b)| if pos[a] < pos[b] { (a, b) } else { (b, a) })
            .collect();
        layered.sort_unstable();
        layered.dedup();
        Units {
            component,
            cyclic,
            pos,
            edges: layered,
        }
    }

    fn count(&self) -> usize {
        self.pos.len()
    }
}

/// The Eades–Lin–Smyth order of `n` nodes for distinct `edges` without
/// self-loops: `pos[v]`, the place of node `v`. Edges pointing backwards in it form
/// a feedback arc set. O(V + E): each degree change files the node once more in a
/// bucket (stale entries are skipped when popped), and the pointer to the highest
/// non-empty bucket rises at most once per edge.
fn feedback_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut inc: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        out[a].push(b);
        inc[b].push(a);
    }
    let mut outdeg: Vec<usize> = out.iter().map(Vec::len).collect();
    let mut indeg: Vec<usize> = inc.iter().map(Vec::len).collect();
    // delta = out - in lies in [-(n-1), n-1]: bucket delta + n.
    let delta = |v: usize, outdeg: &[usize], indeg: &[usize]| outdeg[v] + n - indeg[v];
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); 2 * n + 1];
    let mut sinks: Vec<usize> = Vec::new();
    let mut sources: Vec<usize> = Vec::new();
    // Filed in reverse so that, among equals, the earliest node is taken first.
    for v in (0..n).rev() {
        if outdeg[v] == 0 {
            sinks.push(v);
        } else if indeg[v] == 0 {
            sources.push(v);
        } else {
            buckets[delta(v, &outdeg, &indeg)].push(v);
        }
    }
    let mut top = buckets.len().saturating_sub(1);
    let mut removed = vec![false; n];
    let mut front: Vec<usize> = Vec::with_capacity(n);
    let mut back: Vec<usize> = Vec::new();
    for _ in 0..n {
        let next = loop {
            if let Some(v) = sinks.pop() {
                if !removed[v] {
                    break Some((v, true));
                }
                continue;
            }
            if let Some(v) = sources.pop() {
                if !removed[v] && outdeg[v] > 0 {
                    break Some((v, false));
                }
                continue;
            }
            let Some(v) = buckets[top].pop() else {
                if top == 0 {
                    break None;
                }
                top -= 1;
                continue;
            };
            let live = !removed[v] && outdeg[v] > 0 && indeg[v] > 0;
            if live && delta(v, &outdeg, &indeg) == top {
                break Some((v, false));
            }
        };
        let Some((v, to_back)) = next else { break };
        removed[v] = true;
        if to_back {
            back.push(v);
        } else {
            front.push(v);
        }
        for &w in &out[v] {
            if removed[w] {
                continue;
            }
            indeg[w] -= 1;
            if outdeg[w] == 0 {
                continue; // already filed as a sink
            }
            if indeg[w] == 0 {
                sources.push(w);
            } else {
                let d = delta(w, &outdeg, &indeg);
                buckets[d].push(w);
                top = top.max(d);
            }
        }
        for &u in &inc[v] {
            if removed[u] {
                continue;
            }
            outdeg[u] -= 1;
            if outdeg[u] == 0 {
                sinks.push(u);
            } else if indeg[u] > 0 {
                let d = delta(u, &outdeg, &indeg);
                buckets[d].push(u);
                top = top.max(d);
            }
        }
    }
    let mut pos = vec![0usize; n];
    for (k, &v) in front.iter().chain(back.iter().rev()).enumerate() {
        pos[v] = k;
    }
    pos
}

/// Longest-path layers of the layering's DAG (Kahn's algorithm finishes).
fn unit_layers(units: &Units) -> Vec<usize> {
    let count = units.count();
    let mut pending = vec![0usize; count];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); count];
    for &(a, b) in &units.edges {
        pending[b] += 1;
        out[a].push(b);
    }
    let mut layer = vec![0usize; count];
    let mut queue: Vec<usize> = (0..count).filter(|&u| pending[u] == 0).collect();
    let mut head = 0;
    while let Some(&u) = queue.get(head) {
        head += 1;
        for &w in &out[u] {
            layer[w] = layer[w].max(layer[u] + 1);
            pending[w] -= 1;
            if pending[w] == 0 {
                queue.push(w);
            }
        }
    }
    layer
}

/// Units and virtual nodes, their layers and the links between them.
struct ItemGraph {
    items: Vec<Item>,
    /// `layers[l]`: the items of layer `l`, in drawing order (top to bottom).
    layers: Vec<Vec<usize>>,
    /// Links to items in earlier / later layers.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// The virtual nodes of each long edge between units, left to right.
    chains: HashMap<(usize, usize), Vec<usize>>,
    column_width: Vec<f64>,
}

impl ItemGraph {
    fn build(units: &Units, unit_layer: &[usize], widths: &[f64], spacing: &Spacing) -> Self {
        let mut items: Vec<Item> = (0..units.count())
            .map(|v| Item {
                layer: unit_layer[v],
                extent: spacing.node_height,
                width: widths[v],
                unit: Some(v),
            })
            .collect();
        let mut budget = MAX_VIRTUAL_PER_NODE * widths.len() + VIRTUAL_ALLOWANCE;
        let mut links = Vec::with_capacity(units.edges.len());
        let mut chains = HashMap::default();
        for &(a, b) in &units.edges {
            let span = unit_layer[b] - unit_layer[a];
            if span < 2 || span - 1 > budget {
                links.push((a, b));
                continue;
            }
            budget -= span - 1;
            let mut chain = Vec::with_capacity(span - 1);
            let mut prev = a;
            for layer in unit_layer[a] + 1..unit_layer[b] {
                let d = items.len();
                items.push(Item {
                    layer,
                    extent: 0.0,
                    width: 0.0,
                    unit: None,
                });
                links.push((prev, d));
                chain.push(d);
                prev = d;
            }
            links.push((prev, b));
            chains.insert((a, b), chain);
        }
        let layer_count = items.iter().map(|i| i.layer + 1).max().unwrap_or(0);
        let mut layers = vec![Vec::new(); layer_count];
        for (ix, item) in items.iter().enumerate() {
            layers[item.layer].push(ix);
        }
        let mut up = vec![Vec::new(); items.len()];
        let mut down = vec![Vec::new(); items.len()];
        for (a, b) in links {
            down[a].push(b);
            up[b].push(a);
        }
        let mut column_width = vec![0.0f64; layer_count];
        for item in &items {
            column_width[item.layer] = column_width[item.layer].max(item.width);
        }
        ItemGraph {
            items,
            layers,
            up,
            down,
            chains,
            column_width,
        }
    }

    /// Barycenter sweeps; leaves the best order found in `self.layers` and returns
    /// its number of crossings.
    fn reduce_crossings(&mut self) -> usize {
        let mut pos = vec![0usize; self.items.len()];
        self.index_positions(&mut pos);
        let mut best = self.layers.clone();
        let mut best_crossings = self.crossings(&pos);
        let mut stale = 0;
        for _ in 0..MAX_SWEEPS {
            if best_crossings == 0 {
                break;
            }
            for l in 1..self.layers.len() {
                self.reorder(l, true, &mut pos);
            }
            for l in (0..self.layers.len().saturating_sub(1)).rev() {
                self.reorder(l, false, &mut pos);
            }
            let crossings = self.crossings(&pos);
            if crossings < best_crossings {
                best_crossings = crossings;
                best.clone_from(&self.layers);
                stale = 0;
            } else {
                stale += 1;
                if stale >= 2 {
                    break;
                }
            }
        }
        self.layers = best;
        best_crossings
    }

    fn index_positions(&self, pos: &mut [usize]) {
        for layer in &self.layers {
            for (k, &item) in layer.iter().enumerate() {
                pos[item] = k;
            }
        }
    }

    /// Sorts layer `l` by the mean relative position of each item's neighbours
    /// above (`from_up`) or below; an item without such neighbours keeps its own
    /// relative position. Relative positions (`(k + 0.5) / len`) make layers of
    /// different lengths comparable. The sort is stable, so ties keep their order.
    fn reorder(&mut self, l: usize, from_up: bool, pos: &mut [usize]) {
        let relative = |item: usize, pos: &[usize], layers: &[Vec<usize>], items: &[Item]| {
            (pos[item] as f64 + 0.5) / layers[items[item].layer].len() as f64
        };
        let mut keyed: Vec<(f64, usize)> = self.layers[l]
            .iter()
            .map(|&item| {
                let neighbours = if from_up {
                    &self.up[item]
                } else {
                    &self.down[item]
                };
                let key = if neighbours.is_empty() {
                    relative(item, pos, &self.layers, &self.items)
                } else {
                    neighbours
                        .iter()
                        .map(|&nb| relative(nb, pos, &self.layers, &self.items))
                        .sum::<f64>()
                        / neighbours.len() as f64
                };
                (key, item)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (k, (_, item)) in keyed.into_iter().enumerate() {
            self.layers[l][k] = item;
            pos[item] = k;
        }
    }

    /// Crossings between adjacent layers: per pair, the inversions among the
    /// links sorted by their upper end, counted with a Fenwick tree.
    fn crossings(&self, pos: &[usize]) -> usize {
        let mut total = 0;
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for l in 0..self.layers.len().saturating_sub(1) {
            pairs.clear();
            for &a in &self.layers[l] {
                for &b in &self.down[a] {
                    if self.items[b].layer == l + 1 {
                        pairs.push((pos[a], pos[b]));
                    }
                }
            }
            pairs.sort_unstable();
            let size = self.layers[l + 1].len();
            let mut tree = vec![0usize; size + 1];
            for (seen, &(_, b)) in pairs.iter().enumerate() {
                // Earlier links ending strictly below `b` cross this one.
                let mut at_most_b = 0;
                let mut i = b + 1;
                while i > 0 {
                    at_most_b += tree[i];
                    i &= i - 1;
                }
                total += seen - at_most_b;
                let mut i = b + 1;
                while i <= size {
                    tree[i] += 1;
                    i += i & i.wrapping_neg();
                }
            }
        }
        total
    }

    /// Column centres and item centres (y). See the module docs.
    fn place(&self, spacing: &Spacing) -> (Vec<f64>, Vec<f64>) {
        let mut column_x = Vec::with_capacity(self.layers.len());
        let mut left = spacing.margin;
        for &w in &self.column_width {
            column_x.push(left + w / 2.0);
            left += w + spacing.layer_gap;
        }
        let gap = |a: &Item, b: &Item| {
            let g = if a.unit.is_none() || b.unit.is_none() {
                spacing.virtual_gap
            } else {
                spacing.node_gap
            };
            (a.extent + b.extent) / 2.0 + g
        };
        // Start stacked from the top.
        let mut y = vec![0.0f64; self.items.len()];
        for layer in &self.layers {
            let mut at = 0.0;
            for (k, &item) in layer.iter().enumerate() {
                if k > 0 {
                    at += gap(&self.items[layer[k - 1]], &self.items[item]);
                }
                y[item] = at;
            }
        }
        let mut desired = Vec::new();
        let mut weights = Vec::new();
        let mut seps = Vec::new();
        for pass in 0..PLACEMENT_PASSES {
            let order: Vec<usize> = if pass % 2 == 0 {
                (0..self.layers.len()).collect()
            } else {
                (0..self.layers.len()).rev().collect()
            };
            for l in order {
                let layer = &self.layers[l];
                desired.clear();
                weights.clear();
                seps.clear();
                for (k, &item) in layer.iter().enumerate() {
                    let neighbours = self.up[item].iter().chain(&self.down[item]);
                    let count = self.up[item].len() + self.down[item].len();
                    if count == 0 {
                        desired.push(y[item]);
                        weights.push(0.5);
                    } else {
                        desired.push(neighbours.map(|&nb| y[nb]).sum::<f64>() / count as f64);
                        weights.push(count as f64);
                    }
                    if k > 0 {
                        seps.push(gap(&self.items[layer[k - 1]], &self.items[item]));
                    }
                }
                let placed = isotonic_with_gaps(&desired, &weights, &seps);
                for (&item, value) in layer.iter().zip(placed) {
                    y[item] = value;
                }
            }
        }
        // Shift so the topmost box starts at the margin.
        let top = self
            .items
            .iter()
            .zip(&y)
            .map(|(item, y)| y - item.extent / 2.0)
            .fold(f64::INFINITY, f64::min);
        if top.is_finite() {
            for v in &mut y {
                *v += spacing.margin - top;
            }
        }
        (y, column_x)
    }
}

/// The weighted least-squares fit of `desired` subject to
/// `y[k + 1] - y[k] >= seps[k]`: subtracting the cumulative gaps turns it into an
/// isotonic regression, solved by pool adjacent violators in O(n).
fn isotonic_with_gaps(desired: &[f64], weights: &[f64], seps: &[f64]) -> Vec<f64> {
    let n = desired.len();
    let mut offset = Vec::with_capacity(n);
    let mut acc = 0.0;
    for k in 0..n {
        if k > 0 {
            acc += seps[k - 1];
        }
        offset.push(acc);
    }
    // Blocks of pooled values: (mean, total weight, count).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(n);
    for k in 0..n {
        let mut block = (desired[k] - offset[k], weights[k], 1);
        while let Some(&(mean, weight, count)) = blocks.last() {
            if mean <= block.0 {
                break;
            }
            blocks.pop();
            let total = weight + block.1;
            block = (
                (mean * weight + block.0 * block.1) / total,
                total,
                count + block.2,
            );
        }
        blocks.push(block);
    }
    let mut out = Vec::with_capacity(n);
    for (mean, _, count) in blocks {
        for _ in 0..count {
            out.push(mean + offset[out.len()]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(n: usize, edges: &[(usize, usize)]) -> Layout {
        layered(&vec![40.0; n], edges, &Spacing::default())
    }

    /// No two boxes of one column overlap.
    fn assert_no_overlap(l: &Layout) {
        let h = Spacing::default().node_height;
        let mut by_x: HashMap<u64, Vec<f64>> = HashMap::default();
        for n in &l.nodes {
            by_x.entry(n.x.to_bits()).or_default().push(n.y);
        }
        for ys in by_x.values_mut() {
            ys.sort_by(f64::total_cmp);
            for w in ys.windows(2) {
                assert!(w[1] - w[0] >= h - 1e-6, "overlap: {w:?}");
            }
        }
    }

    /// A small deterministic pseudo-random generator (xorshift), so tests need no crate.
    fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut s = seed.max(1);
        move |bound| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % bound as u64) as usize
        }
    }

    #[test]
    fn a_chain_and_a_shortcut() {
        // a → b → c, a → c
        let layout = layered(&[40.0; 3], &[(0, 1), (1, 2), (0, 2)], &Spacing::default());
        let layers: Vec<usize> = layout.nodes.iter().map(|n| n.layer).collect();
        assert_eq!(layers, [0, 1, 2]);
        assert!(layout.nodes[0].x < layout.nodes[1].x && layout.nodes[1].x < layout.nodes[2].x);
        assert_eq!(layout.edges[2].bends.len(), 1); // a → c passes through column 1
    }

    #[test]
    fn empty_and_single() {
        let l = layout(0, &[]);
        assert!(l.nodes.is_empty() && l.layers == 0);
        let l = layout(1, &[]);
        assert_eq!(l.nodes[0].layer, 0);
        assert!(l.width > 0.0 && l.height > 0.0);
    }

    #[test]
    fn dag_edges_point_right() {
        let mut next = rng(7);
        let n = 60;
        let edges: Vec<(usize, usize)> = (0..150)
            .map(|_| {
                let a = next(n - 1);
                (a, a + 1 + next(n - a - 1))
            })
            .collect();
        let l = layout(n, &edges);
        for &(a, b) in &edges {
            assert!(l.nodes[a].layer < l.nodes[b].layer);
            assert!(l.nodes[a].x < l.nodes[b].x);
            let span = l.nodes[b].layer - l.nodes[a].layer;
            let route = &l.edges[edges.iter().position(|&e| e == (a, b)).unwrap()];
            assert_eq!(route.bends.len(), span - 1);
            assert!(!route.cyclic);
        }
        assert!(l.nodes.iter().all(|n| !n.cyclic));
        assert_no_overlap(&l);
    }

    #[test]
    fn layers_are_longest_path() {
        // 0 → 1 → 2 → 3 and 0 → 3: node 3 is in layer 3, not 1.
        let l = layout(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        let layers: Vec<usize> = l.nodes.iter().map(|n| n.layer).collect();
        assert_eq!(layers, [0, 1, 2, 3]);
        assert_eq!(l.edges[3].bends.len(), 2);
    }

    #[test]
    fn cycles_are_broken_and_flagged() {
        // 3 → 0, 0 → 1 → 2 → 0, 2 → 4, 5 ↺
        let edges = [(3, 0), (0, 1), (1, 2), (2, 0), (2, 4), (5, 5)];
        let l = layout(6, &edges);
        for v in [0, 1, 2, 5] {
            assert!(l.nodes[v].cyclic, "{v}");
        }
        assert!(!l.nodes[3].cyclic && !l.nodes[4].cyclic);
        let flags: Vec<bool> = l.edges.iter().map(|e| e.cyclic).collect();
        assert_eq!(flags, [false, true, true, true, false, true]);
        // One edge of the 3-cycle is cut: 2 → 0, drawn back.
        let back: Vec<bool> = l.edges.iter().map(|e| e.back).collect();
        assert_eq!(back, [false, false, false, true, false, false]);
        assert_eq!(l.back_edges, 1);
        let layer = |v: usize| l.nodes[v].layer;
        assert!(layer(3) < layer(0) && layer(0) < layer(1) && layer(1) < layer(2));
        assert!(layer(2) < layer(4));
        // The cut edge 0 ← 2 spans two columns: one bend, right to left.
        let bends = &l.edges[3].bends;
        assert_eq!(bends.len(), 1);
        assert!(l.nodes[2].x > bends[0].0 && bends[0].0 > l.nodes[0].x);
        assert_no_overlap(&l);
    }

    #[test]
    fn a_full_cycle_is_spread_over_columns() {
        // 0 → 1 → … → 5 → 0: every node on one cycle.
        let n = 6;
        let edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let l = layout(n, &edges);
        assert_eq!(l.layers, n);
        let layers: Vec<usize> = l.nodes.iter().map(|p| p.layer).collect();
        assert_eq!(layers, [0, 1, 2, 3, 4, 5]);
        assert!(l.nodes.iter().all(|p| p.cyclic));
        assert!(l.edges.iter().all(|e| e.cyclic));
        // Exactly one edge is cut, and it is drawn back through the columns between.
        assert_eq!(l.back_edges, 1);
        let cut: Vec<usize> = (0..n).filter(|&k| l.edges[k].back).collect();
        assert_eq!(cut, [n - 1]);
        let route = &l.edges[n - 1];
        assert_eq!(route.bends.len(), n - 2);
        assert!(route.bends.windows(2).all(|w| w[0].0 > w[1].0));
        // The others point right, without bends.
        for e in &l.edges[..n - 1] {
            assert!(!e.back && e.bends.is_empty());
        }
        assert_no_overlap(&l);
    }

    #[test]
    fn a_two_cycle_cuts_one_edge() {
        let l = layout(2, &[(0, 1), (1, 0), (0, 1)]);
        assert_eq!((l.nodes[0].layer, l.nodes[1].layer), (0, 1));
        let back: Vec<bool> = l.edges.iter().map(|e| e.back).collect();
        assert_eq!(back, [false, true, false]);
    }

    #[test]
    fn feedback_order_cuts_few_edges() {
        // On small random graphs the cut never exceeds half the edges (each node
        // put in front has at least as many edges out as in among those left), and
        // the rest is acyclic by construction (it follows an order).
        let mut next = rng(19);
        for _ in 0..200 {
            let n = 2 + next(7);
            let mut edges: Vec<(usize, usize)> = (0..next(3 * n))
                .map(|_| (next(n), next(n)))
                .filter(|(a, b)| a != b)
                .collect();
            edges.sort_unstable();
            edges.dedup();
            let pos = feedback_order(n, &edges);
            let mut seen = pos.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
            let cut = edges.iter().filter(|&&(a, b)| pos[a] > pos[b]).count();
            assert!(2 * cut <= edges.len(), "{cut} of {edges:?}");
        }
        // A DAG is never cut.
        let dag = [(0, 1), (1, 2), (0, 2), (3, 2)];
        let pos = feedback_order(4, &dag);
        assert!(dag.iter().all(|&(a, b)| pos[a] < pos[b]));
    }

    #[test]
    fn a_long_cycle_is_linear() {
        // 100,000 nodes on one cycle plus chords: no recursion, one cut per cycle
        // through the chain.
        let n = 100_000;
        let mut edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        edges.extend((0..n).step_by(1000).map(|i| (i, (i + 500) % n)));
        edges.sort_unstable();
        let pos = feedback_order(n, &edges);
        let cut = edges.iter().filter(|&&(a, b)| pos[a] > pos[b]).count();
        assert!(cut <= 2, "{cut}");
    }

    #[test]
    fn barycenter_untangles_a_permutation() {
        // Sources 0..20 map to targets 20..40 in a scrambled order: zero crossings exist.
        let n = 20;
        let mut next = rng(3);
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, next(i + 1));
        }
        let edges: Vec<(usize, usize)> = (0..n).map(|i| (i, n + perm[i])).collect();
        let l = layout(2 * n, &edges);
        assert_eq!(l.crossings, 0);
        // The drawing agrees: sorted by source y, targets are sorted too.
        let mut by_source: Vec<(f64, f64)> = edges
            .iter()
            .map(|&(a, b)| (l.nodes[a].y, l.nodes[b].y))
            .collect();
        by_source.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(by_source.windows(2).all(|w| w[0].1 < w[1].1));
    }

    #[test]
    fn crossings_are_reduced() {
        let mut next = rng(11);
        let n = 200;
        let edges: Vec<(usize, usize)> = (0..400)
            .map(|_| {
                let a = next(n - 1);
                (a, a + 1 + next((n - a - 1).min(5)))
            })
            .collect();
        let l = layout(n, &edges);
        // Against the insertion order, which the sweeps start from.
        let mut unswept = ItemGraph::build(
            &Units::new(n, &edges),
            &unit_layers(&Units::new(n, &edges)),
            &vec![40.0; n],
            &Spacing::default(),
        );
        let mut pos = vec![0; unswept.items.len()];
        unswept.index_positions(&mut pos);
        let before = unswept.crossings(&pos);
        assert!(l.crossings < before, "{} !< {before}", l.crossings);
        assert_eq!(unswept.reduce_crossings(), l.crossings);
    }

    #[test]
    fn deterministic() {
        let edges = [(0, 1), (1, 2), (2, 0), (3, 1), (4, 2), (0, 5)];
        assert_eq!(layout(6, &edges), layout(6, &edges));
    }

    #[test]
    fn parallel_edges_and_wide_labels() {
        let l = layered(&[200.0, 20.0], &[(0, 1), (0, 1)], &Spacing::default());
        assert_eq!(l.edges.len(), 2);
        // Column 1 starts after the 200-pixel box plus the gap.
        assert!(l.nodes[1].x - 10.0 >= l.nodes[0].x + 100.0 + Spacing::default().layer_gap - 1e-6);
    }

    #[test]
    fn long_edges_past_the_budget_stay_direct() {
        // A chain of 3,000 nodes plus edges from the first node to every other one:
        // far more virtual nodes than the budget allows.
        let n = 3000;
        let mut edges: Vec<(usize, usize)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        edges.extend((2..n).map(|i| (0, i)));
        let l = layout(n, &edges);
        let virtuals: usize = l.edges.iter().map(|e| e.bends.len()).sum();
        assert!(virtuals <= MAX_VIRTUAL_PER_NODE * n + VIRTUAL_ALLOWANCE);
        assert!(l.edges.iter().any(|e| e.bends.is_empty()));
        assert_eq!(l.nodes[n - 1].layer, n - 1);
    }

    #[test]
    fn isotonic_keeps_gaps() {
        let y = isotonic_with_gaps(&[5.0, 5.0, 5.0], &[1.0; 3], &[10.0, 10.0]);
        assert_eq!(y, [-5.0, 5.0, 15.0]);
        let y = isotonic_with_gaps(&[0.0, 100.0], &[1.0; 2], &[10.0]);
        assert_eq!(y, [0.0, 100.0]);
    }

    #[test]
    fn five_thousand_nodes() {
        let mut next = rng(5);
        let n = 5000;
        let edges: Vec<(usize, usize)> = (0..10_000)
            .map(|_| {
                let a = next(n - 1);
                (a, a + 1 + next((n - a - 1).min(50)))
            })
            .collect();
        let l = layout(n, &edges);
        for &(a, b) in &edges {
            assert!(l.nodes[a].x < l.nodes[b].x);
        }
    }
}
