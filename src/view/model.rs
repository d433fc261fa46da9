//! The JSON the `/ui` page fetches: the network list, one network's drawing (or its
//! summary when it is too big to draw), and one node's details.
//!
//! Building a drawing is split in two so the network's read lock is held only while
//! copying what the drawing needs ([`Extract::from_network`], O(V + E) of the part
//! shown), never during the layout itself ([`Extract::render`]).

use hashbrown::HashMap;
use petgraph::Direction::Outgoing;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;
use serde::Serialize;
use serde_json::{Map, Value};

use super::layout::{self, Spacing};
use crate::clock::{Clock, SystemClock};
use crate::error::{Error, Result};
use crate::network::work::{TaskState, WorkAttributes};
use crate::network::{Direction, Network};
use crate::registry::NetworkRegistry;

/// The default largest number of nodes drawn at once (`--ui-max-nodes`).
pub const DEFAULT_MAX_NODES: usize = 2000;

/// Drawn edges allowed per drawn node; a denser graph is summarised instead.
const EDGES_PER_NODE: usize = 10;

/// Labels longer than this are cut (with an ellipsis) by the page; widths match.
pub const LABEL_CHARS: usize = 28;

/// Neighbours listed per direction in a node's details.
const NEIGHBOURS_LISTED: usize = 50;

/// Entries in the summary's degree lists.
const TOP_K: usize = 10;

/// Room for the state mark (✓, ▶, ⊘) drawn before a task's label.
const STATE_MARK_WIDTH: f64 = 14.0;

/// Values of the status attribute that mark a task in progress or blocked by hand,
/// for plans whose agents set a status instead of claiming through the work tools.
const CLAIMED_VALUES: [&str; 2] = ["in_progress", "claimed"];
const BLOCKED_VALUE: &str = "blocked";

/// Where a plan keeps the state of its tasks: the work tools' attributes
/// (`network_claim_ready` and the others), with the same defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusSpec {
    /// The attribute holding a task's status. Default `status`.
    pub attribute: String,
    /// The value of [`StatusSpec::attribute`] that marks a task done. Default `done`.
    pub done_value: String,
    /// The attribute naming the worker that claimed a task. Default `claimed_by`.
    pub claim_attribute: String,
    /// The attribute holding the end of a claim's lease (ms since the Unix epoch).
    /// Default `lease_expires_ms`.
    pub lease_attribute: String,
}

impl Default for StatusSpec {
    fn default() -> Self {
        let work = WorkAttributes::default();
        let (attribute, done) = work
            .done
            .iter()
            .next()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("done").to_string()))
            .unwrap_or_else(|| ("status".into(), "done".into()));
        StatusSpec {
            attribute,
            done_value: done,
            claim_attribute: work.claimed_by,
            lease_attribute: work.lease_expires,
        }
    }
}

impl StatusSpec {
    /// The work tools' view of these names.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] (or an id error) when a name is not a valid
    /// attribute key or two of them are the same.
    pub fn work(&self) -> Result<WorkAttributes> {
        let mut done = Map::new();
        done.insert(self.attribute.clone(), Value::from(self.done_value.clone()));
        let work = WorkAttributes {
            done,
            claimed_by: self.claim_attribute.clone(),
            lease_expires: self.lease_attribute.clone(),
            prerequisites: Direction::Out,
            relations: crate::network::RelationFilter::all(),
            parent: WorkAttributes::default().parent,
        };
        work.validate()?;
        Ok(work)
    }
}

/// How the drawn tasks' states were read, sent when the drawn nodes look like a
/// plan (one of them has the status or the claim attribute).
#[derive(Debug, Clone, Serialize)]
pub struct StatusInfo {
    /// The status attribute read.
    pub attribute: String,
    /// Its value for a done task.
    pub done_value: String,
    /// The claim attribute read.
    pub claim_attribute: String,
    /// Drawn tasks done.
    pub done: usize,
    /// Drawn tasks claimed (a live lease, or a status of `in_progress` / `claimed`).
    pub claimed: usize,
    /// Drawn tasks blocked (waiting on a task not done, or a status of `blocked`).
    pub blocked: usize,
    /// Drawn tasks ready (the rest).
    pub ready: usize,
}

/// One line of the network list.
#[derive(Debug, Clone, Serialize)]
pub struct NetworkItem {
    /// Name.
    pub name: String,
    /// Description, if any.
    pub description: Option<String>,
    /// Node count.
    pub nodes: usize,
    /// Edge count.
    pub edges: usize,
}

/// Every network with its counts, sorted by name.
pub fn networks(registry: &NetworkRegistry) -> Vec<NetworkItem> {
    registry
        .list()
        .into_iter()
        .map(|s| NetworkItem {
            name: s.name,
            description: s.description,
            nodes: s.nodes,
            edges: s.edges,
        })
        .collect()
}

/// Which part of a network to draw around a focus node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Nodes within `depth` hops either way.
    Neighborhood,
    /// Everything that reaches the focus.
    Ancestors,
    /// Everything the focus reaches.
    Descendants,
}

impl Scope {
    /// Parses `neighborhood`, `ancestors` or `descendants`.
    pub fn parse(s: &str) -> Option<Scope> {
        match s {
            "neighborhood" | "neighbourhood" => Some(Scope::Neighborhood),
            "ancestors" => Some(Scope::Ancestors),
            "descendants" => Some(Scope::Descendants),
            _ => None,
        }
    }
}

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewRequest {
    /// Draw the part around this node instead of the whole network.
    pub focus: Option<String>,
    /// Which part (with `focus`).
    pub scope: Scope,
    /// Hops for [`Scope::Neighborhood`].
    pub depth: usize,
    /// Largest number of nodes drawn; a bigger whole network gets a summary.
    pub max_nodes: usize,
}

impl Default for ViewRequest {
    fn default() -> Self {
        ViewRequest {
            focus: None,
            scope: Scope::Neighborhood,
            depth: 2,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// The whole-network facts shown beside every drawing.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Nodes.
    pub node_count: usize,
    /// Edges.
    pub edge_count: usize,
    /// No cycle at all.
    pub is_dag: bool,
    /// `E / (V (V - 1))`.
    pub density: f64,
    /// Weakly connected components.
    pub weak_component_count: usize,
    /// Self-loop edges.
    pub self_loop_count: usize,
    /// Nodes without incoming edges.
    pub source_count: usize,
    /// Nodes without outgoing edges.
    pub sink_count: usize,
    /// Nodes without edges.
    pub isolated_count: usize,
    /// Highest in-degrees: `[id, degree]`.
    pub top_in_degree: Vec<(String, usize)>,
    /// Highest out-degrees: `[id, degree]`.
    pub top_out_degree: Vec<(String, usize)>,
}

/// One drawn node.
#[derive(Debug, Clone, Serialize)]
pub struct ViewNode {
    /// Node id.
    pub id: String,
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Box width.
    pub w: f64,
    /// Column.
    pub layer: usize,
    /// On a cycle (member of a cyclic component).
    pub cyclic: bool,
    /// In-degree in the whole network.
    #[serde(rename = "in")]
    pub in_degree: usize,
    /// Out-degree in the whole network.
    pub out: usize,
    /// The task's state when the drawing is a plan: `done`, `claimed`, `blocked`
    /// or `ready` (see [`StatusInfo`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<&'static str>,
    /// The worker holding a claimed task.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed_by: Option<String>,
}

/// One drawn edge: all parallel edges between two nodes, drawn once.
#[derive(Debug, Clone, Serialize)]
pub struct ViewEdge {
    /// Index of the source in `nodes`.
    pub s: usize,
    /// Index of the target in `nodes`.
    pub t: usize,
    /// Edge ids (more than one for parallel edges).
    pub ids: Vec<u64>,
    /// Their weights, same order.
    pub weights: Vec<f64>,
    /// On a cycle.
    pub cyclic: bool,
    /// Cut to break a cycle: drawn back, from a later column to an earlier one.
    pub back: bool,
    /// Points to pass through, `[x, y]`, from the source to the target.
    pub bends: Vec<(f64, f64)>,
}

/// A box around a cyclic component. None are drawn since cycles are broken by
/// cut edges instead of stacked; the field stays for pages that read it.
#[derive(Debug, Clone, Serialize)]
pub struct ViewGroup {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// What `/ui/api/graph` returns.
#[derive(Debug, Clone, Serialize)]
pub struct GraphView {
    /// Network name.
    pub network: String,
    /// `full` (everything drawn), `focus` (part around a node) or `summary` (too big: nothing drawn).
    pub mode: &'static str,
    /// The focus node, in `focus` mode.
    pub focus: Option<String>,
    /// The scope, in `focus` mode.
    pub scope: Option<Scope>,
    /// The node limit in force.
    pub max_nodes: usize,
    /// Whether the part shown was cut at `max_nodes`.
    pub truncated: bool,
    /// The whole network's facts.
    pub summary: Summary,
    /// Drawing width.
    pub width: f64,
    /// Drawing height.
    pub height: f64,
    /// Columns.
    pub layers: usize,
    /// Edge crossings left between adjacent columns.
    pub crossings: usize,
    /// Edges cut to break cycles (drawn back).
    pub back_edges: usize,
    /// Node box height.
    pub node_height: f64,
    /// Drawn nodes.
    pub nodes: Vec<ViewNode>,
    /// Drawn edges.
    pub edges: Vec<ViewEdge>,
    /// Boxes around cyclic components (empty: see [`ViewGroup`]).
    pub groups: Vec<ViewGroup>,
    /// How task states were read, when the drawing is a plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusInfo>,
}

/// One drawn node as copied out of the network.
#[derive(Debug, Clone)]
struct NodeExtract {
    id: String,
    in_degree: usize,
    out: usize,
    state: Option<&'static str>,
    claimed_by: Option<String>,
}

/// What a drawing needs, copied out of a network under its read lock.
#[derive(Debug, Clone)]
pub struct Extract {
    network: String,
    mode: &'static str,
    focus: Option<String>,
    scope: Option<Scope>,
    max_nodes: usize,
    truncated: bool,
    summary: Summary,
    nodes: Vec<NodeExtract>,
    /// `(source, target, edge id, weight)`, indices into `nodes`.
    edges: Vec<(usize, usize, u64, f64)>,
    status: Option<StatusInfo>,
}

impl Extract {
    /// Copies the part of `network` that `request` asks for, with each task's
    /// state at `now` (ms since the Unix epoch) read as `status` says. O(V + E) for
    /// the summary plus the part drawn.
    ///
    /// # Errors
    /// [`Error::NodeNotFound`] (with suggestions) for an unknown focus node, and
    /// the errors of [`StatusSpec::work`].
    pub fn from_network(
        network: &Network,
        request: &ViewRequest,
        status: &StatusSpec,
        now: u64,
    ) -> Result<Extract> {
        let work = status.work()?;
        let max_nodes = request.max_nodes.max(1);
        let summary = summary(network);
        let (mode, chosen, truncated): (&'static str, Vec<NodeIndex>, bool) = match &request.focus {
            Some(id) => {
                let focus = network.require("focus", id)?;
                let (direction, depth) = match request.scope {
                    Scope::Neighborhood => (Direction::Both, Some(request.depth)),
                    Scope::Ancestors => (Direction::In, None),
                    Scope::Descendants => (Direction::Out, None),
                };
                let reach = network.reachable_by_index(focus, direction, depth, max_nodes - 1);
                let mut chosen = vec![focus];
                chosen.extend(reach.nodes.iter().map(|&(n, _)| n));
                ("focus", chosen, reach.truncated)
            }
            None => {
                let fits = network.node_count() <= max_nodes
                    && network.edge_count() <= max_nodes * EDGES_PER_NODE;
                if fits {
                    ("full", network.graph().node_indices().collect(), false)
                } else {
                    ("summary", Vec::new(), true)
                }
            }
        };
        // Keep insertion order, so the layout's tie-breaking follows it.
        let mut chosen = chosen;
        chosen.sort_unstable();
        let local: HashMap<NodeIndex, usize> =
            chosen.iter().enumerate().map(|(k, &ix)| (ix, k)).collect();
        let g = network.graph();
        let mut edges = Vec::new();
        for (k, &ix) in chosen.iter().enumerate() {
            let mut out: Vec<_> = g
                .edges_directed(ix, Outgoing)
                .filter_map(|e| {
                    local
                        .get(&e.target())
                        .map(|&t| (k, t, e.weight().id, e.weight().weight))
                })
                .collect();
            out.sort_unstable_by_key(|e| e.2);
            if mode == "focus" && edges.len() + out.len() > max_nodes * EDGES_PER_NODE {
                break;
            }
            edges.extend(out);
        }
        let is_plan = chosen.iter().any(|&ix| {
            let a = &g[ix].attributes;
            a.get(&status.attribute).is_some() || a.get(&status.claim_attribute).is_some()
        });
        let mut info = is_plan.then(|| StatusInfo {
            attribute: status.attribute.clone(),
            done_value: status.done_value.clone(),
            claim_attribute: status.claim_attribute.clone(),
            done: 0,
            claimed: 0,
            blocked: 0,
            ready: 0,
        });
        let nodes = chosen
            .iter()
            .map(|&ix| {
                let (i, o) = network.degrees(ix);
                let (state, claimed_by) = match info.as_mut() {
                    Some(info) => {
                        let state = task_state(network, ix, &work, status, now);
                        match state {
                            "done" => info.done += 1,
                            "claimed" => info.claimed += 1,
                            "blocked" => info.blocked += 1,
                            _ => info.ready += 1,
                        }
                        let worker = (state == "claimed")
                            .then(|| network.claim_on(ix, &work).map(|(w, _)| w.to_string()))
                            .flatten();
                        (Some(state), worker)
                    }
                    None => (None, None),
                };
                NodeExtract {
                    id: network.id_at(ix).to_string(),
                    in_degree: i,
                    out: o,
                    state,
                    claimed_by,
                }
            })
            .collect();
        let focused = mode == "focus";
        Ok(Extract {
            network: network.name().to_string(),
            mode,
            focus: request.focus.clone().filter(|_| focused),
            scope: focused.then_some(request.scope),
            max_nodes,
            truncated,
            summary,
            nodes,
            edges,
            status: info,
        })
    }

    /// Lays the extract out (no lock needed).
    pub fn render(self) -> GraphView {
        let spacing = Spacing::default();
        let widths: Vec<f64> = self
            .nodes
            .iter()
            .map(|n| {
                let mark = match n.state {
                    Some("done" | "claimed" | "blocked") => STATE_MARK_WIDTH,
                    _ => 0.0,
                };
                label_width(&n.id) + mark
            })
            .collect();
        // Parallel edges are drawn once: group them by (source, target).
        let mut grouped: Vec<(usize, usize, Vec<u64>, Vec<f64>)> = Vec::new();
        let mut slot: HashMap<(usize, usize), usize> = HashMap::default();
        for &(s, t, id, w) in &self.edges {
            let k = *slot.entry((s, t)).or_insert_with(|| {
                grouped.push((s, t, Vec::new(), Vec::new()));
                grouped.len() - 1
            });
            grouped[k].2.push(id);
            grouped[k].3.push(w);
        }
        let pairs: Vec<(usize, usize)> = grouped.iter().map(|g| (g.0, g.1)).collect();
        let drawn = layout::layered(&widths, &pairs, &spacing);
        let nodes = self
            .nodes
            .into_iter()
            .zip(&drawn.nodes)
            .zip(widths)
            .map(|((n, place), w)| ViewNode {
                id: n.id,
                x: round(place.x),
                y: round(place.y),
                w,
                layer: place.layer,
                cyclic: place.cyclic,
                in_degree: n.in_degree,
                out: n.out,
                state: n.state,
                claimed_by: n.claimed_by,
            })
            .collect();
        let edges = grouped
            .into_iter()
            .zip(drawn.edges)
            .map(|((s, t, ids, weights), route)| ViewEdge {
                s,
                t,
                ids,
                weights,
                cyclic: route.cyclic,
                back: route.back,
                bends: route
                    .bends
                    .into_iter()
                    .map(|(x, y)| (round(x), round(y)))
                    .collect(),
            })
            .collect();
        GraphView {
            network: self.network,
            mode: self.mode,
            focus: self.focus,
            scope: self.scope,
            max_nodes: self.max_nodes,
            truncated: self.truncated,
            summary: self.summary,
            width: round(drawn.width),
            height: round(drawn.height),
            layers: drawn.layers,
            crossings: drawn.crossings,
            back_edges: drawn.back_edges,
            node_height: spacing.node_height,
            nodes,
            edges,
            groups: Vec::new(),
            status: self.status,
        }
    }
}

/// The drawing of one network, fetched from a registry, task states read with the
/// work tools' default attributes at the system clock's time.
///
/// # Errors
/// [`Error::NetworkNotFound`] or [`Error::NodeNotFound`].
pub fn graph(registry: &NetworkRegistry, name: &str, request: &ViewRequest) -> Result<GraphView> {
    graph_with_status(
        registry,
        name,
        request,
        &StatusSpec::default(),
        SystemClock.now_ms(),
    )
}

/// The drawing of one network, fetched from a registry: the lock is held only for
/// [`Extract::from_network`].
///
/// # Errors
/// [`Error::NetworkNotFound`], [`Error::NodeNotFound`], or the errors of
/// [`StatusSpec::work`].
pub fn graph_with_status(
    registry: &NetworkRegistry,
    name: &str,
    request: &ViewRequest,
    status: &StatusSpec,
    now: u64,
) -> Result<GraphView> {
    let extract = registry.read(name, |network| {
        let mut extract = Extract::from_network(network, request, status, now)?;
        extract.network = name.to_string();
        Ok(extract)
    })?;
    Ok(extract.render())
}

/// What `/ui/api/node` returns.
#[derive(Debug, Clone, Serialize)]
pub struct NodeDetails {
    /// Node id.
    pub id: String,
    /// Free-form data, if any.
    pub data: Option<Value>,
    /// Flat attributes.
    pub attributes: Map<String, Value>,
    /// Incoming edges.
    pub in_degree: usize,
    /// Outgoing edges.
    pub out_degree: usize,
    /// The first out-neighbours (what it points to), in edge-insertion order.
    pub successors: Vec<String>,
    /// The first in-neighbours.
    pub predecessors: Vec<String>,
    /// Whether either list was cut.
    pub truncated: bool,
}

/// One node's details.
///
/// # Errors
/// [`Error::NetworkNotFound`] or [`Error::NodeNotFound`].
pub fn node(registry: &NetworkRegistry, name: &str, id: &str) -> Result<NodeDetails> {
    registry.read(name, |network| {
        let ix = network.require("node_id", id)?;
        let node = &network.graph()[ix];
        let (in_degree, out_degree) = network.degrees(ix);
        let list = |direction| -> (Vec<String>, bool) {
            let all = network.neighbor_indices(ix, direction);
            let cut = all.len() > NEIGHBOURS_LISTED;
            let ids = all
                .into_iter()
                .take(NEIGHBOURS_LISTED)
                .map(|n| network.id_at(n).to_string())
                .collect();
            (ids, cut)
        };
        let (successors, cut_out) = list(Direction::Out);
        let (predecessors, cut_in) = list(Direction::In);
        Ok(NodeDetails {
            id: id.to_string(),
            data: node.data.as_deref().cloned(),
            attributes: node.attributes.to_map(),
            in_degree,
            out_degree,
            successors,
            predecessors,
            truncated: cut_out || cut_in,
        })
    })
}

/// The error body the page shows: `{"error", "code"}`.
pub fn error_body(error: &Error) -> Value {
    serde_json::json!({"error": error.to_string(), "code": error.code()})
}

/// A task's state as the work tools see it (`network_progress`), refined by a
/// status set by hand: `in_progress` or `claimed` count as claimed, `blocked` as
/// blocked. O(degree).
fn task_state(
    network: &Network,
    ix: NodeIndex,
    work: &WorkAttributes,
    status: &StatusSpec,
    now: u64,
) -> &'static str {
    let by_hand = network.graph()[ix]
        .attributes
        .get(&status.attribute)
        .and_then(Value::as_str);
    match network.task_state(ix, work, now) {
        TaskState::Done => "done",
        TaskState::Claimed => "claimed",
        _ if by_hand.is_some_and(|v| CLAIMED_VALUES.contains(&v)) => "claimed",
        _ if by_hand == Some(BLOCKED_VALUE) => "blocked",
        TaskState::Blocked => "blocked",
        TaskState::Ready => "ready",
    }
}

fn summary(network: &Network) -> Summary {
    let d = network.describe(0, TOP_K);
    let ids = |list: Vec<(NodeIndex, usize)>| {
        list.into_iter()
            .filter(|&(_, degree)| degree > 0)
            .map(|(ix, degree)| (network.id_at(ix).to_string(), degree))
            .collect()
    };
    Summary {
        node_count: d.nodes,
        edge_count: d.edges,
        is_dag: d.is_dag,
        density: d.density,
        weak_component_count: d.weakly_connected_components,
        self_loop_count: d.self_loops,
        source_count: d.sources_total,
        sink_count: d.sinks_total,
        isolated_count: d.isolated_total,
        top_in_degree: ids(d.top_in_degree),
        top_out_degree: ids(d.top_out_degree),
    }
}

/// Box width for a label: about 7 px per character (12 px sans-serif), cut at
/// [`LABEL_CHARS`], plus padding.
fn label_width(id: &str) -> f64 {
    (id.chars().count().min(LABEL_CHARS) as f64 * 7.0 + 16.0).max(32.0)
}

/// One decimal is plenty for pixels and keeps the reply small.
fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::AttributeUpdate;

    fn net(edges: &[(&str, &str)]) -> Network {
        let mut n = Network::named("t");
        for (a, b) in edges {
            for id in [a, b] {
                n.add_node(id).unwrap();
            }
            n.add_edge(a, b, 1.0).unwrap();
        }
        n
    }

    #[test]
    fn full_view_groups_parallel_edges() {
        let n = net(&[("a", "b"), ("a", "b"), ("b", "c")]);
        let v = Extract::from_network(&n, &ViewRequest::default(), &StatusSpec::default(), 0)
            .unwrap()
            .render();
        assert_eq!(v.mode, "full");
        assert_eq!(v.nodes.len(), 3);
        assert_eq!(v.edges.len(), 2);
        assert_eq!(v.edges[0].ids, [0, 1]);
        assert!(v.summary.is_dag);
    }

    #[test]
    fn too_big_gives_a_summary_and_focus_gives_a_part() {
        let n = net(&[("a", "b"), ("b", "c"), ("c", "d"), ("x", "c")]);
        let small = ViewRequest {
            max_nodes: 3,
            ..ViewRequest::default()
        };
        let v = Extract::from_network(&n, &small, &StatusSpec::default(), 0)
            .unwrap()
            .render();
        assert_eq!((v.mode, v.nodes.len()), ("summary", 0));
        let focus = ViewRequest {
            focus: Some("c".into()),
            scope: Scope::Ancestors,
            max_nodes: 10,
            ..ViewRequest::default()
        };
        let v = Extract::from_network(&n, &focus, &StatusSpec::default(), 0)
            .unwrap()
            .render();
        let ids: Vec<&str> = v.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c", "x"]);
        assert_eq!(v.mode, "focus");
        let unknown = ViewRequest {
            focus: Some("zz".into()),
            ..ViewRequest::default()
        };
        assert_eq!(
            Extract::from_network(&n, &unknown, &StatusSpec::default(), 0)
                .unwrap_err()
                .code(),
            "node_not_found"
        );
    }

    #[test]
    fn task_states_follow_the_work_tools() {
        // a needs b, b needs c; c done, b claimed until 10,000 ms, d blocked by hand.
        let mut n = net(&[("a", "b"), ("b", "c"), ("e", "c")]);
        let set = |n: &mut Network, id: &str, attrs: serde_json::Value| {
            let Value::Object(map) = attrs else {
                unreachable!()
            };
            n.update_node(id, None, Some(map), AttributeUpdate::Merge, &[])
                .unwrap();
        };
        set(&mut n, "c", serde_json::json!({"status": "done"}));
        set(
            &mut n,
            "b",
            serde_json::json!({"claimed_by": "w1", "lease_expires_ms": 10_000}),
        );
        n.add_node("d").unwrap();
        set(&mut n, "d", serde_json::json!({"status": "blocked"}));
        let states = |now: u64, spec: &StatusSpec| {
            let v = Extract::from_network(&n, &ViewRequest::default(), spec, now)
                .unwrap()
                .render();
            let states: Vec<(String, Option<&str>)> =
                v.nodes.iter().map(|n| (n.id.clone(), n.state)).collect();
            (states, v)
        };
        let (got, v) = states(5_000, &StatusSpec::default());
        let expected = [
            ("a", "blocked"),
            ("b", "claimed"),
            ("c", "done"),
            ("e", "ready"),
            ("d", "blocked"),
        ];
        assert_eq!(
            got,
            expected.map(|(id, s)| (id.to_string(), Some(s))).to_vec()
        );
        let info = v.status.unwrap();
        assert_eq!(
            (info.done, info.claimed, info.blocked, info.ready),
            (1, 1, 2, 1)
        );
        assert_eq!(v.nodes[1].claimed_by.as_deref(), Some("w1"));
        // The mark makes room: b's box is wider than its label alone.
        assert!(v.nodes[1].w > label_width("b"));
        // The lease ran out: b is ready again (c is done).
        let (got, _) = states(20_000, &StatusSpec::default());
        assert_eq!(got[1].1, Some("ready"));
        // Another status attribute: nothing has it and nothing is claimed there.
        let other = StatusSpec {
            attribute: "state".into(),
            claim_attribute: "owner".into(),
            ..StatusSpec::default()
        };
        let (got, v) = states(5_000, &other);
        assert!(got.iter().all(|(_, s)| s.is_none()) && v.status.is_none());
        // A clash of names is refused.
        let clash = StatusSpec {
            claim_attribute: "status".into(),
            ..StatusSpec::default()
        };
        assert!(Extract::from_network(&n, &ViewRequest::default(), &clash, 0).is_err());
    }

    #[test]
    fn a_graph_without_states_has_none() {
        let n = net(&[("a", "b")]);
        let v = Extract::from_network(&n, &ViewRequest::default(), &StatusSpec::default(), 0)
            .unwrap()
            .render();
        assert!(v.status.is_none() && v.nodes.iter().all(|n| n.state.is_none()));
    }

    #[test]
    fn a_full_cycle_has_one_back_edge() {
        let n = net(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]);
        let v = Extract::from_network(&n, &ViewRequest::default(), &StatusSpec::default(), 0)
            .unwrap()
            .render();
        assert_eq!(v.layers, 4);
        assert_eq!(v.back_edges, 1);
        assert!(v.edges.iter().all(|e| e.cyclic));
        assert_eq!(v.edges.iter().filter(|e| e.back).count(), 1);
        assert!(v.groups.is_empty());
    }
}
