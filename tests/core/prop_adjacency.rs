//! The compact adjacency rows ([`Network::adjacency`]) and petgraph's linked lists
//! must answer every query identically.
//!
//! Random networks come from random operation sequences (node and edge adds,
//! `add_edge_list` batches, parallel edges, self-loops, negative weights, removals
//! by edge id, by endpoints and of nodes, with row builds and checked neighbor reads
//! in between). Every query is then asked of several copies:
//!
//! * `plain`: a clone whose adjacency is dropped before *each* query, so that the
//!   queries that may read only part of the graph start on petgraph's lists (they
//!   switch to rows only once their list walks have cost as much as a build, which
//!   a whole walk of a graph may reach part-way);
//! * `rows`: a clone whose adjacency was built up front;
//! * `warmed`: clones on which a whole-graph query (SCC, a topological order) ran
//!   first, leaving whichever rows it builds;
//! * `live`: the original network, in whatever state its history left the cache
//!   (a stale row after a change shows up here).
//!
//! Also: `add_edge_list` against a loop of `add_edge`, its atomicity and error
//! indices, sparse edge ids (restored from data with large id gaps), and two larger
//! seeded graphs (one cyclic, one a DAG).

use std::fmt::Debug;

use networks_mcp::Error;
use networks_mcp::network::snapshot::NetworkData;
use networks_mcp::network::traversal::TraversalOrder;
use networks_mcp::network::{
    Direction, EdgeId, EdgeSpec, MissingNodes, Network, Order, TraverseOptions, Weighted,
};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::Map;

static DIRECTIONS: [Direction; 3] = [Direction::Out, Direction::In, Direction::Both];
const ORDERS: [TraversalOrder; 2] = [TraversalOrder::Bfs, TraversalOrder::Dfs];

/// Node ids: a short alphabet plus ids at and past the 24-byte inline limit.
static IDS: [&str; 13] = [
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
    "g",
    "h",
    "abcdefghijklmnopqrstuvwx",  // 24 bytes: the longest inline id
    "abcdefghijklmnopqrstuvwxy", // 25 bytes: on the heap
    "a-node-id-well-past-twenty-four-bytes",
    "another/long/node/identifier/on/the/heap",
    "ünïcödé-nödé-with-more-than-24-bytes",
];

/// Non-negative weights, 0 and fractions included.
static WEIGHTS: [f64; 7] = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.75];
static NEGATIVE: [f64; 3] = [-2.5, -1.0, -0.25];

// ---------------------------------------------------------------------------
// Random networks
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Op {
    AddNode(usize),
    /// Source and target positions in [`IDS`]; skipped (an error) if one is missing.
    AddEdge(usize, usize, f64),
    /// Removes edge `k % (edges added so far)`, which may already be gone.
    RemoveEdge(usize),
    RemoveNode(usize),
    /// Adds several edges with one `add_edge_list` (all or nothing).
    AddEdgeList(Vec<(usize, usize, f64)>),
    /// Removes every edge between two nodes.
    RemoveBetween(usize, usize),
    /// Builds (some of) the rows of the network being edited: see [`warm`].
    Build(usize),
    /// Reads every node's neighbors in one direction (charging the list walks, or
    /// using the rows) and checks them against a copy that reads the lists.
    Peek(Direction),
}

fn weight(negative: bool) -> BoxedStrategy<f64> {
    if negative {
        prop_oneof![4 => select(&WEIGHTS[..]), 1 => select(&NEGATIVE[..])].boxed()
    } else {
        select(&WEIGHTS[..]).boxed()
    }
}

/// A position in [`IDS`], biased towards the first four so that parallel edges and
/// cycles are common.
fn endpoint() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0..4usize, 2 => 0..IDS.len()]
}

fn op(negative: bool) -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..IDS.len()).prop_map(Op::AddNode),
        8 => (endpoint(), endpoint(), weight(negative)).prop_map(|(a, b, w)| Op::AddEdge(a, b, w)),
        2 => (0usize..1000).prop_map(Op::RemoveEdge),
        1 => (0..IDS.len()).prop_map(Op::RemoveNode),
        1 => prop::collection::vec((endpoint(), endpoint(), weight(negative)), 0..6)
            .prop_map(Op::AddEdgeList),
        1 => (endpoint(), endpoint()).prop_map(|(a, b)| Op::RemoveBetween(a, b)),
        2 => (0..WARMERS).prop_map(Op::Build),
        2 => select(&DIRECTIONS[..]).prop_map(Op::Peek),
    ]
}

/// An operation sequence; one in four may use negative weights.
fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop_oneof![3 => Just(false), 1 => Just(true)]
        .prop_flat_map(|negative| prop::collection::vec(op(negative), 0..80))
}

/// Applies `ops` to a new network, checking each edit's outcome on the way.
fn build(ops: &[Op]) -> Network {
    build_checked(ops, false)
}

/// [`build`], and with `every_step` the network is checked against the lists
/// after every operation (which also builds its rows as the checks add up).
fn build_checked(ops: &[Op], every_step: bool) -> Network {
    let mut net = Network::new();
    let mut next: EdgeId = 0;
    for op in ops {
        if every_step {
            check_against_lists(&net, &[Direction::Both], 1);
        }
        match *op {
            Op::AddEdgeList(ref list) => {
                let known = list
                    .iter()
                    .all(|&(a, b, _)| net.contains_node(IDS[a]) && net.contains_node(IDS[b]));
                let before = net.edge_count();
                match add_edge_list(&mut net, list.iter().map(|&(a, b, w)| (IDS[a], IDS[b], w))) {
                    Ok(range) => {
                        assert!(known);
                        assert_eq!(range, next..next + list.len() as EdgeId);
                        next = range.end;
                    }
                    Err(e) => {
                        assert!(!known);
                        assert_eq!(e.code(), "invalid_batch_item");
                        assert_eq!(net.edge_count(), before);
                    }
                }
            }
            Op::RemoveBetween(a, b) => {
                let known = net.contains_node(IDS[a]) && net.contains_node(IDS[b]);
                assert_eq!(net.remove_edges_between(IDS[a], IDS[b]).is_ok(), known);
            }
            Op::AddNode(i) => {
                net.add_node(IDS[i]).unwrap();
            }
            Op::AddEdge(a, b, w) => {
                let known = net.contains_node(IDS[a]) && net.contains_node(IDS[b]);
                match net.add_edge(IDS[a], IDS[b], w) {
                    Ok(id) => {
                        assert!(known);
                        assert_eq!(id, next);
                        next += 1;
                    }
                    Err(e) => {
                        assert!(!known);
                        assert_eq!(e.code(), "node_not_found");
                    }
                }
            }
            Op::RemoveEdge(k) => {
                if next > 0 {
                    let id = k as EdgeId % next;
                    let existed = net.edge(id).is_some();
                    assert_eq!(net.remove_edge(id).is_ok(), existed);
                }
            }
            Op::RemoveNode(i) => {
                let existed = net.contains_node(IDS[i]);
                assert_eq!(net.remove_node(IDS[i]).is_ok(), existed);
            }
            Op::Build(kind) => warm(&net, kind),
            Op::Peek(d) => check_against_lists(&net, &[d], 2),
        }
    }
    if every_step {
        check_against_lists(&net, &[Direction::Both], 1);
    }
    net
}

/// Checks `net`, whatever its cache holds, against a copy that reads petgraph's
/// lists: every node's neighbors in `directions`, and BFS and DFS walks (both
/// ways) from the first `walks` nodes.
fn check_against_lists(net: &Network, directions: &[Direction], walks: usize) {
    let mut lists = net.clone();
    for ix in net.node_indices() {
        for &dir in directions {
            lists.drop_adjacency();
            let expected = lists.neighbor_indices(ix, dir);
            assert_eq!(
                net.neighbor_indices(ix, dir),
                expected,
                "neighbor_indices({ix:?}, {dir:?})"
            );
        }
    }
    for start in net.node_indices().take(walks) {
        for order in ORDERS {
            lists.drop_adjacency();
            let expected = lists.traverse_by_index(
                &[start],
                TraverseOptions {
                    order,
                    direction: Direction::Both,
                    max_depth: None,
                    limit: usize::MAX,
                },
            );
            let got = net.traverse_by_index(
                &[start],
                TraverseOptions {
                    order,
                    direction: Direction::Both,
                    max_depth: None,
                    limit: usize::MAX,
                },
            );
            assert_eq!(got, expected, "traverse([{start:?}], {order:?}, Both)");
        }
        lists.drop_adjacency();
        assert_eq!(
            net.bfs_order_by_index(start),
            lists.bfs_order_by_index(start),
            "bfs_order({start:?})"
        );
    }
}

// ---------------------------------------------------------------------------
// Asking every query of each representation
// ---------------------------------------------------------------------------

/// How many ways [`warm`] knows.
const WARMERS: usize = 4;

/// Runs a whole-graph query for its side effect: it builds the rows it needs
/// (both directions, or whichever one the algorithm reads), so that later
/// queries find the cache in that state.
fn warm(net: &Network, kind: usize) {
    match kind {
        0 => {
            net.adjacency();
        }
        1 => {
            net.strongly_connected_components();
        }
        2 => {
            let _ = net.topological_sort(Order::Reverse);
        }
        _ => {
            let _ = net.toposort_plain();
        }
    }
}

/// One network several times: neighbors from the lists, from all rows, from
/// whatever rows each whole-graph query left built, and as is.
struct Sides {
    plain: Network,
    rows: Network,
    /// Copies warmed by [`warm`] kinds `1..WARMERS`.
    warmed: Vec<Network>,
    live: Network,
}

impl Sides {
    fn new(live: Network) -> Self {
        let plain = live.clone();
        let rows = live.clone();
        rows.adjacency();
        let warmed = (1..WARMERS)
            .map(|kind| {
                let net = live.clone();
                warm(&net, kind);
                net
            })
            .collect();
        Sides {
            plain,
            rows,
            warmed,
            live,
        }
    }

    /// Runs `query` on each copy, asserts the answers are equal and returns it.
    /// The adjacency of `plain` is dropped first, so it starts from the lists
    /// every time.
    fn answer<T: PartialEq + Debug>(
        &mut self,
        what: impl Fn() -> String,
        query: impl Fn(&Network) -> T,
    ) -> T {
        self.plain.drop_adjacency();
        let lists = query(&self.plain);
        let rows = query(&self.rows);
        assert_eq!(lists, rows, "lists (left) vs rows (right): {}", what());
        for (kind, net) in (1..).zip(&self.warmed) {
            let warmed = query(net);
            assert_eq!(
                lists,
                warmed,
                "lists (left) vs warmed by {kind} (right): {}",
                what()
            );
        }
        let live = query(&self.live);
        assert_eq!(lists, live, "lists (left) vs original (right): {}", what());
        lists
    }

    /// [`Sides::answer`], for when the answer itself is not needed.
    fn same<T: PartialEq + Debug>(
        &mut self,
        what: impl Fn() -> String,
        query: impl Fn(&Network) -> T,
    ) {
        self.answer(what, query);
    }
}

/// Which queries [`compare_all`] asks.
struct Plan {
    /// Indices for `neighbor_indices` (vacant and out-of-range ones included).
    indices: Vec<NodeIndex>,
    /// Ids for `neighbors` (unknown ones included).
    ids: Vec<String>,
    /// Single starts for traversals, reachability, BFS order and Dijkstra.
    starts: Vec<NodeIndex>,
    /// `(from, to)` pairs for shortest paths.
    pairs: Vec<(NodeIndex, NodeIndex)>,
    /// `(max_depth, limit)` pairs for traversals and reachability.
    bounds: Vec<(Option<usize>, usize)>,
}

impl Plan {
    /// Every node, every vacant index and one past the end; all pairs of nodes.
    fn exhaustive(net: &Network) -> Plan {
        let bound = net.graph().node_bound();
        let indices: Vec<NodeIndex> = (0..=bound).map(NodeIndex::new).collect();
        let mut starts: Vec<NodeIndex> = net.node_indices().collect();
        let pairs = starts
            .iter()
            .flat_map(|&a| starts.iter().map(move |&b| (a, b)))
            .chain([(NodeIndex::new(bound), NodeIndex::new(0))])
            .collect();
        starts.push(NodeIndex::new(bound));
        Plan {
            indices,
            ids: IDS.iter().map(|s| s.to_string()).collect(),
            starts,
            pairs,
            bounds: vec![
                (None, usize::MAX),
                (Some(0), usize::MAX),
                (Some(1), usize::MAX),
                (Some(2), 3),
                (None, 1),
                (None, 0),
            ],
        }
    }
}

/// Asks every query of the plan of each side of `s`.
fn compare_all(s: &mut Sides, plan: &Plan) {
    for &ix in &plan.indices {
        for dir in DIRECTIONS {
            s.same(
                || format!("neighbor_indices({ix:?}, {dir:?})"),
                |n| n.neighbor_indices(ix, dir),
            );
        }
    }
    for id in &plan.ids {
        for dir in DIRECTIONS {
            s.same(
                || format!("neighbors({id:?}, {dir:?})"),
                |n| {
                    n.neighbors(id, dir)
                        .map(|v| v.into_iter().map(str::to_owned).collect::<Vec<_>>())
                },
            );
        }
    }
    // Duplicates and a non-node among the starts are ignored, on both sides alike.
    let mut multi: Vec<NodeIndex> = plan.starts.iter().rev().copied().collect();
    multi.extend(plan.starts.first());
    for dir in DIRECTIONS {
        for order in ORDERS {
            for &(max_depth, limit) in &plan.bounds {
                for &start in &plan.starts {
                    s.same(
                        || {
                            format!(
                                "traverse([{start:?}], {order:?}, {dir:?}, {max_depth:?}, {limit})"
                            )
                        },
                        |n| {
                            n.traverse_by_index(
                                &[start],
                                TraverseOptions {
                                    order,
                                    direction: dir,
                                    max_depth,
                                    limit,
                                },
                            )
                        },
                    );
                }
                s.same(
                    || format!("traverse({multi:?}, {order:?}, {dir:?}, {max_depth:?}, {limit})"),
                    |n| {
                        n.traverse_by_index(
                            &multi,
                            TraverseOptions {
                                order,
                                direction: dir,
                                max_depth,
                                limit,
                            },
                        )
                    },
                );
            }
        }
        for &(max_depth, limit) in &plan.bounds {
            for &start in &plan.starts {
                s.same(
                    || format!("reachable({start:?}, {dir:?}, {max_depth:?}, {limit})"),
                    |n| n.reachable_by_index(start, dir, max_depth, limit),
                );
            }
        }
    }
    for &start in &plan.starts {
        s.same(
            || format!("bfs_order({start:?})"),
            |n| n.bfs_order_by_index(start),
        );
        let dist = s.answer(
            || format!("dijkstra_distances({start:?})"),
            |n| n.dijkstra_distances_by_index(start),
        );
        if let Ok(dist) = dist {
            // NaN would compare unequal on both sides alike; there must be none.
            assert!(dist.iter().all(|d| !d.is_nan()), "NaN distance: {dist:?}");
        }
    }
    for &(a, b) in &plan.pairs {
        for weighted in [false, true] {
            s.same(
                || format!("shortest_path({a:?}, {b:?}, {weighted})"),
                |n| n.shortest_path_by_index(a, b, Weighted::from_bool(weighted)),
            );
        }
    }
    s.same(
        || "topological_sort(false)".into(),
        |n| n.topological_sort(Order::Forward),
    );
    s.same(
        || "topological_sort(true)".into(),
        |n| n.topological_sort(Order::Reverse),
    );
    s.same(|| "toposort_plain()".into(), |n| n.toposort_plain());
    s.same(
        || "strongly_connected_components()".into(),
        |n| n.strongly_connected_components(),
    );
    for limit in [0, 1, 3, usize::MAX] {
        s.same(|| format!("find_cycles({limit})"), |n| n.find_cycles(limit));
    }
    s.same(|| "find_any_cycle()".into(), |n| n.find_any_cycle());
    s.same(|| "is_dag()".into(), |n| n.is_dag());
}

/// Node ids of the network in index order.
fn node_ids(net: &Network) -> Vec<String> {
    net.node_ids().map(str::to_owned).collect()
}

/// `add_edge_list` items as borrowed tuples.
fn borrowed(items: &[(String, String, f64)]) -> impl Iterator<Item = (&str, &str, f64)> {
    items.iter().map(|(a, b, w)| (a.as_str(), b.as_str(), *w))
}

/// An `add_edges` item for an edge-list item.
fn spec((source, target, weight): &(String, String, f64)) -> EdgeSpec {
    EdgeSpec {
        source: source.clone(),
        target: target.clone(),
        weight: *weight,
        attributes: Map::new(),
    }
}

/// Resolves random `(source, target, weight)` picks to ids of existing nodes.
fn resolve(ids: &[String], picks: &[(Index, Index, f64)]) -> Vec<(String, String, f64)> {
    picks
        .iter()
        .map(|(a, b, w)| (a.get(ids).clone(), b.get(ids).clone(), *w))
        .collect()
}

/// The same network, with at least one node so that edge lists have endpoints.
fn with_a_node(mut net: Network) -> Network {
    if net.node_count() == 0 {
        net.add_node("a").unwrap();
    }
    net
}

/// Everything that depends on each node's edge-list order: neighbors in every
/// direction and petgraph-order BFS from every node.
fn list_orders(net: &Network) -> Vec<(Vec<Vec<NodeIndex>>, Vec<NodeIndex>)> {
    net.node_indices()
        .map(|ix| {
            (
                DIRECTIONS
                    .iter()
                    .map(|&d| net.neighbor_indices(ix, d))
                    .collect(),
                net.bfs_order_by_index(ix),
            )
        })
        .collect()
}

/// A bad edge-list item and the code of the error inside the batch error.
#[derive(Debug, Clone, Copy)]
enum Bad {
    UnknownSource,
    UnknownTarget,
    EmptySource,
    EmptyTarget,
    BlankSource,
    OverlongTarget,
    NanWeight,
    InfiniteWeight,
    NegativeInfiniteWeight,
}

fn bad() -> impl Strategy<Value = Bad> {
    select(vec![
        Bad::UnknownSource,
        Bad::UnknownTarget,
        Bad::EmptySource,
        Bad::EmptyTarget,
        Bad::BlankSource,
        Bad::OverlongTarget,
        Bad::NanWeight,
        Bad::InfiniteWeight,
        Bad::NegativeInfiniteWeight,
    ])
}

impl Bad {
    /// The bad item, built around a valid one; `unknown` is an id of no node.
    fn item(self, good: &(String, String, f64), unknown: &str) -> (String, String, f64) {
        let (mut a, mut b, mut w) = good.clone();
        match self {
            Bad::UnknownSource => a = unknown.to_string(),
            Bad::UnknownTarget => b = unknown.to_string(),
            Bad::EmptySource => a = String::new(),
            Bad::EmptyTarget => b = String::new(),
            Bad::BlankSource => a = "   ".to_string(),
            Bad::OverlongTarget => b = "x".repeat(257),
            Bad::NanWeight => w = f64::NAN,
            Bad::InfiniteWeight => w = f64::INFINITY,
            Bad::NegativeInfiniteWeight => w = f64::NEG_INFINITY,
        }
        (a, b, w)
    }

    fn inner_code(self) -> &'static str {
        match self {
            Bad::UnknownSource | Bad::UnknownTarget => "node_not_found",
            Bad::EmptySource | Bad::EmptyTarget | Bad::BlankSource | Bad::OverlongTarget => {
                "invalid_id"
            }
            Bad::NanWeight | Bad::InfiniteWeight | Bad::NegativeInfiniteWeight => "invalid_weight",
        }
    }
}

/// An id that is not a node of `net`: a removed or never-added pool id if there is
/// one (its suggestions differ), else a fresh one.
fn unknown_id(net: &Network, fresh: bool) -> String {
    match IDS.iter().find(|id| !net.contains_node(id)) {
        Some(id) if !fresh => id.to_string(),
        _ => "zz-not-a-node".to_string(),
    }
}

/// Data with every edge id spread `2^21` apart (past the dense index's largest
/// gap), order kept, so that a network restored from it keeps a sparse id index.
fn spread_ids(data: &NetworkData) -> NetworkData {
    let mut data = data.clone();
    for e in &mut data.edges {
        e.id = e.id * (1 << 21) + 7;
    }
    data.next_edge_id = data.edges.last().map_or(0, |e| e.id + 1);
    data
}

proptest! {
    // No regression files: failures print their minimal case instead.
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(64)
    })]

    /// Every query gives the same answer from the lists, from the rows, and from
    /// the edited network itself.
    #[test]
    fn lists_and_rows_agree(ops in ops(), every_step in any::<bool>()) {
        let net = build_checked(&ops, every_step);
        let plan = Plan::exhaustive(&net);
        compare_all(&mut Sides::new(net), &plan);
    }

    /// `add_edge_list` does exactly what `add_edge` in a loop does: the same ids,
    /// the same data, the same edge-list order (and it drops a built adjacency).
    #[test]
    fn add_edge_list_equals_add_edge_loop(
        ops in ops(),
        picks in prop::collection::vec(
            (any::<Index>(), any::<Index>(), weight(true)), 0..60),
        build_first in any::<bool>(),
    ) {
        let net = with_a_node(build(&ops));
        let items = resolve(&node_ids(&net), &picks);
        let next = net.to_data().next_edge_id;
        let (mut bulk, mut each) = (net.clone(), net.clone());
        if build_first {
            bulk.adjacency();
            each.adjacency();
        }
        let range = add_edge_list(&mut bulk, borrowed(&items)).unwrap();
        let ids: Vec<EdgeId> = items
            .iter()
            .map(|(a, b, w)| each.add_edge(a, b, *w).unwrap())
            .collect();
        prop_assert_eq!(range.start, next);
        prop_assert_eq!(range.clone().collect::<Vec<_>>(), ids);
        prop_assert_eq!(bulk.edge_count(), net.edge_count() + items.len());
        prop_assert_eq!(bulk.to_data(), each.to_data());
        prop_assert_eq!(list_orders(&bulk), list_orders(&each));
        let plan = Plan::exhaustive(&bulk);
        compare_all(&mut Sides::new(bulk), &plan);
    }

    /// One bad item fails the whole `add_edge_list`: the batch error names its
    /// index and what was wrong, and the network (and its adjacency) is unchanged.
    #[test]
    fn add_edge_list_is_atomic(
        ops in ops(),
        picks in prop::collection::vec(
            (any::<Index>(), any::<Index>(), weight(false)), 0..40),
        at in any::<Index>(),
        bad in bad(),
        fresh in any::<bool>(),
        build_first in any::<bool>(),
    ) {
        let mut net = with_a_node(build(&ops));
        if build_first {
            net.adjacency();
        }
        let mut items = resolve(&node_ids(&net), &picks);
        let before = net.to_data();
        let k = at.index(items.len() + 1);
        let template = items.get(k).or(items.first()).cloned().unwrap_or_else(|| {
            ("a".to_string(), "a".to_string(), 1.0)
        });
        items.insert(k, bad.item(&template, &unknown_id(&net, fresh)));

        let err = add_edge_list(&mut net, borrowed(&items)).unwrap_err();
        prop_assert_eq!(err.code(), "invalid_batch_item");
        match &err {
            Error::InvalidBatchItem { field, index, inner } => {
                prop_assert_eq!(field.as_str(), "edges");
                prop_assert_eq!(*index, k);
                prop_assert_eq!(inner.code(), bad.inner_code());
            }
            other => prop_assert!(false, "not a batch error: {:?}", other),
        }
        let message = err.to_string();
        prop_assert!(message.contains(&format!("item {k} of edges")), "{}", message);
        let context = err.context();
        prop_assert_eq!(context.get("index"), Some(&serde_json::json!(k)));
        prop_assert_eq!(net.to_data(), before.clone());

        // The adjacency kept from before the failed call still matches the lists.
        let plan = Plan::exhaustive(&net);
        compare_all(&mut Sides::new(net.clone()), &plan);

        // Nothing was consumed: without the bad item the list goes in at the old next id.
        items.remove(k);
        let range = add_edge_list(&mut net, borrowed(&items)).unwrap();
        prop_assert_eq!(range, before.next_edge_id..before.next_edge_id + items.len() as u64);
    }

    /// With several bad items, `add_edge_list` fails with a batch error naming
    /// the first of them, carrying exactly that item's own error, and changes nothing.
    #[test]
    fn add_edge_list_names_the_first_of_several_bad_items(
        ops in ops(),
        picks in prop::collection::vec(
            (any::<Index>(), any::<Index>(), weight(false)), 0..40),
        bads in prop::collection::vec((any::<Index>(), bad(), any::<bool>()), 1..4),
    ) {
        let mut net = with_a_node(build(&ops));
        let mut items = resolve(&node_ids(&net), &picks);
        let before = net.to_data();
        for (at, bad, fresh) in bads {
            let k = at.index(items.len() + 1);
            let template = items.get(k).or(items.first()).cloned().unwrap_or_else(|| {
                ("a".to_string(), "a".to_string(), 1.0)
            });
            items.insert(k, bad.item(&template, &unknown_id(&net, fresh)));
        }
        // Each item's own error, as `add_edges` reports it for that item alone.
        let alone: Vec<Option<Error>> = items
            .iter()
            .map(|item| net.clone().add_edges(vec![spec(item)], MissingNodes::Fail).err())
            .collect();
        let err = add_edge_list(&mut net, borrowed(&items)).unwrap_err();
        match &err {
            Error::InvalidBatchItem { field, index, inner } => {
                prop_assert_eq!(field.as_str(), "edges");
                prop_assert_eq!(Some(*index), alone.iter().position(Option::is_some));
                let Some(Some(Error::InvalidBatchItem { inner: own, .. })) = alone.get(*index)
                else {
                    return Err(TestCaseError::fail(format!(
                        "item {index} is not bad: {:?}; bad: {:?}", items.get(*index), alone
                    )));
                };
                prop_assert_eq!(inner, own);
            }
            other => prop_assert!(false, "not a batch error: {:?}", other),
        }
        prop_assert_eq!(net.to_data(), before);
    }

    /// A network restored from data whose edge ids are far apart (a sparse edge-id
    /// index) builds the same rows, and answers like the dense restore.
    #[test]
    fn sparse_edge_ids_agree(ops in ops()) {
        let data = build(&ops).to_data();
        let dense = Network::from_data("dense", data.clone()).unwrap();
        let sparse = Network::from_data("sparse", spread_ids(&data)).unwrap();
        prop_assert_eq!(dense.edge_count(), sparse.edge_count());
        prop_assert_eq!(list_orders(&dense), list_orders(&sparse));
        sparse.adjacency();
        prop_assert_eq!(list_orders(&dense), list_orders(&sparse));
        let plan = Plan::exhaustive(&sparse);
        compare_all(&mut Sides::new(sparse), &plan);
    }
}

// ---------------------------------------------------------------------------
// A larger seeded graph
// ---------------------------------------------------------------------------

/// SplitMix64: a tiny deterministic generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn big_id(i: usize) -> String {
    if i.is_multiple_of(5) {
        format!("node-with-a-long-identifier-{i:05}")
    } else {
        format!("n{i}")
    }
}

/// 2,000 nodes and 10,000 random edges (half by `add_edge_list`, half by
/// `add_edge`; parallel edges and, unless `dag`, self-loops), then 500 edges and 50
/// nodes removed, then 20 nodes and 300 edges added into the freed slots. With
/// `dag`, every edge goes from a lower to a higher node number.
fn big_graph(seed: u64, dag: bool) -> Network {
    const NODES: usize = 2_000;
    const EDGES: usize = 10_000;
    let mut rng = SplitMix64(seed);
    let mut net = Network::new();
    for i in 0..NODES {
        net.add_node(&big_id(i)).unwrap();
    }
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(EDGES);
    let edge = |rng: &mut SplitMix64, pairs: &[(usize, usize)], n: usize| {
        if !pairs.is_empty() && rng.below(20) == 0 {
            return pairs[rng.below(pairs.len())]; // a parallel edge
        }
        let (a, b) = (rng.below(n), rng.below(n));
        if dag {
            (a.min(b), a.max(b) + usize::from(a == b))
        } else {
            (a, b)
        }
    };
    for _ in 0..EDGES {
        let p = edge(&mut rng, &pairs, NODES - 1);
        pairs.push(p);
    }
    let items: Vec<(String, String, f64)> = pairs
        .iter()
        .map(|&(a, b)| (big_id(a), big_id(b), WEIGHTS[rng.below(WEIGHTS.len())]))
        .collect();
    let (first, second) = items.split_at(EDGES / 2);
    assert_eq!(
        add_edge_list(&mut net, borrowed(first)).unwrap(),
        0..first.len() as u64
    );
    // Before each phase of changes the adjacency is built, and after it the network
    // must still answer like the lists: every change drops the rows.
    net.adjacency();
    for (a, b, w) in second {
        net.add_edge(a, b, *w).unwrap();
    }
    check_against_lists(&net, &DIRECTIONS, 3);
    net.adjacency();
    let mut removed = 0;
    while removed < 500 {
        if net.remove_edge(rng.below(EDGES) as EdgeId).is_ok() {
            removed += 1;
        }
    }
    check_against_lists(&net, &DIRECTIONS, 3);
    net.adjacency();
    let (mut gone, mut lost) = (0, 0);
    while gone < 50 {
        if let Ok(edges) = net.remove_node(&big_id(rng.below(NODES))) {
            gone += 1;
            lost += edges;
        }
    }
    check_against_lists(&net, &DIRECTIONS, 3);
    // New nodes and edges reuse the freed node and edge slots.
    for i in NODES..NODES + 20 {
        net.add_node(&big_id(i)).unwrap();
    }
    let mut late: Vec<(String, String, f64)> = Vec::new();
    while late.len() < 300 {
        let (a, b) = (rng.below(NODES + 20), NODES + rng.below(20));
        let (a, b) = if rng.below(2) == 0 || dag {
            (a, b)
        } else {
            (b, a)
        };
        let (a, b) = if dag && a > b { (b, a) } else { (a, b) };
        let w = WEIGHTS[rng.below(WEIGHTS.len())];
        if a != b && net.contains_node(&big_id(a)) && net.contains_node(&big_id(b)) {
            late.push((big_id(a), big_id(b), w));
        }
    }
    net.adjacency();
    for (a, b, w) in &late[..150] {
        net.add_edge(a, b, *w).unwrap();
    }
    net.adjacency();
    add_edge_list(&mut net, borrowed(&late[150..])).unwrap();
    check_against_lists(&net, &DIRECTIONS, 3);
    assert_eq!(net.node_count(), NODES - 50 + 20);
    assert_eq!(net.edge_count(), EDGES - 500 - lost + 300);
    net
}

fn big_plan(net: &Network, seed: u64) -> Plan {
    let mut rng = SplitMix64(seed);
    let nodes: Vec<NodeIndex> = net.node_indices().collect();
    let bound = net.graph().node_bound();
    let vacant = (0..bound)
        .map(NodeIndex::new)
        .find(|&ix| !net.graph().contains_node(ix));
    let mut starts: Vec<NodeIndex> = (0..8).map(|_| nodes[rng.below(nodes.len())]).collect();
    starts.extend(vacant);
    starts.push(NodeIndex::end());
    let pairs = starts
        .iter()
        .flat_map(|&a| starts.iter().map(move |&b| (a, b)))
        .collect();
    let mut ids: Vec<String> = starts
        .iter()
        .filter_map(|&ix| net.graph().node_weight(ix).map(|n| n.id.to_string()))
        .collect();
    ids.push("n7-but-not-a-node".into());
    Plan {
        indices: (0..=bound).map(NodeIndex::new).collect(),
        ids,
        starts,
        pairs,
        bounds: vec![
            (None, usize::MAX),
            (Some(2), usize::MAX),
            (Some(3), 50),
            (None, 100),
        ],
    }
}

#[test]
fn large_random_graph_agrees() {
    let net = big_graph(0x5EED_0001, false);
    // The walks are not trivially small: most of the graph is reachable.
    let start = net.node_indices().next().unwrap();
    assert!(net.reachable_by_index(start, Direction::Out, None, 0).total > 1_000);
    assert_eq!(
        net.topological_sort(Order::Forward).unwrap_err().code(),
        "cycle_detected"
    );
    let plan = big_plan(&net, 11);
    compare_all(&mut Sides::new(net.clone()), &plan);

    // Negative weights: Bellman-Ford for weighted paths, Dijkstra refuses.
    let mut negative = net;
    let ids = node_ids(&negative);
    for k in 0..5 {
        negative
            .add_edge(&ids[k * 97], &ids[k * 131 + 1], -0.5)
            .unwrap();
    }
    let mut sides = Sides::new(negative);
    for &(a, b) in plan.pairs.iter().take(20) {
        for weighted in [false, true] {
            sides.same(
                || format!("negative shortest_path({a:?}, {b:?}, {weighted})"),
                |n| n.shortest_path_by_index(a, b, Weighted::from_bool(weighted)),
            );
        }
    }
    let dist = sides.answer(
        || "negative dijkstra_distances".into(),
        |n| n.dijkstra_distances_by_index(start),
    );
    assert_eq!(dist.unwrap_err().code(), "invalid_value");
}

#[test]
fn large_dag_agrees() {
    let net = big_graph(0x5EED_0002, true);
    assert!(net.is_dag());
    let order = net.topological_sort(Order::Reverse).unwrap();
    assert_eq!(order.order.len(), net.node_count());
    assert!(order.layers.len() > 5);
    let plan = big_plan(&net, 12);
    compare_all(&mut Sides::new(net), &plan);
}

/// The documented contract of `add_edges`: "an error names the first bad item's
/// index", although ids and weights are checked as items arrive while endpoints
/// are looked up, and attributes checked, some items later. Two bad items, of
/// every pair of kinds, at every pair of positions across the lookup window:
/// the error is the first one's, as that item alone gives it, and nothing changes.
#[test]
fn add_edges_names_the_first_bad_item_across_the_window() {
    let mut net = Network::new();
    net.add_nodes(["a", "b", "c"]).unwrap();
    let before = net.to_data();
    let good = || EdgeSpec::new("a", "b").with_attribute("path", "general");
    let kinds: [fn() -> EdgeSpec; 4] = [
        || EdgeSpec::new("zz", "b"),
        || EdgeSpec::new("a", ""),
        || EdgeSpec::new("a", "c").with_weight(f64::NAN),
        || EdgeSpec::new("a", "c").with_attribute("nested", serde_json::json!({"x": 1})),
    ];
    for (first_kind, second_kind) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
        for first in [0, 1, 7, 8, 9, 16, 17, 24, 25, 26] {
            for gap in [1, 8, 9, 17, 25, 40] {
                let mut items: Vec<EdgeSpec> = (0..first + gap + 3).map(|_| good()).collect();
                items[first] = kinds[first_kind]();
                items[first + gap] = kinds[second_kind]();
                let alone = net
                    .clone()
                    .add_edges([kinds[first_kind]()], MissingNodes::Fail)
                    .unwrap_err();
                let Error::InvalidBatchItem { inner: own, .. } = alone else {
                    panic!("kind {first_kind} alone is not a batch error: {alone:?}");
                };
                match net.add_edges(items, MissingNodes::Fail).unwrap_err() {
                    Error::InvalidBatchItem { index, inner, .. } => {
                        assert_eq!(
                            (index, &inner),
                            (first, &own),
                            "kinds {first_kind}, {second_kind}; gap {gap}"
                        );
                    }
                    other => panic!("not a batch error: {other:?}"),
                }
                assert_eq!(net.to_data(), before);
            }
        }
    }
}

/// The bulk path of `add_edges` (between existing nodes, no attributes), as the
/// range of new edge ids it returns.
fn add_edge_list<'a>(
    net: &mut Network,
    edges: impl IntoIterator<Item = (&'a str, &'a str, f64)>,
) -> Result<std::ops::Range<EdgeId>, Error> {
    let ids = net.add_edges(edges, MissingNodes::Fail)?.edge_ids;
    match (ids.first(), ids.last()) {
        (Some(&first), Some(&last)) => Ok(first..last + 1),
        _ => {
            let next = net.to_data().next_edge_id;
            Ok(next..next)
        }
    }
}

/// `add_edges` inserts a long batch chunk by chunk (65,536 edges at a time) as
/// it resolves it. A bad item after whole chunks went in leaves the network as
/// it was: its data, version, change window, rows, count of negative weights,
/// and the ids and list orders later edges get.
#[test]
fn a_batch_failing_after_whole_chunks_leaves_nothing() {
    let n = 2_000;
    let ids: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let mut net = Network::new();
    net.add_nodes(ids.iter().map(String::as_str)).unwrap();
    let gone = net.add_edge("v2", "v3", 1.0).unwrap();
    net.add_edge("v3", "v4", 2.0).unwrap();
    net.remove_edge(gone).unwrap();
    warm(&net, 0);
    let before = net.clone();
    let items: Vec<(String, String, f64)> = (0..140_000)
        .map(|i| {
            let weight = if i % 3 == 0 { -0.5 } else { 1.0 };
            (ids[i % n].clone(), ids[(i * 7 + 1) % n].clone(), weight)
        })
        .collect();
    for bad_at in [65_536, 131_073, 139_999] {
        let mut batch = items.clone();
        batch[bad_at].1 = "nowhere".into();
        match net.add_edges(borrowed(&batch), MissingNodes::Fail) {
            Err(Error::InvalidBatchItem { index, .. }) => assert_eq!(index, bad_at),
            other => panic!("{other:?}"),
        }
        assert_eq!(net.to_data(), before.to_data(), "bad item {bad_at}");
        assert_eq!(
            net.history_data(),
            before.history_data(),
            "bad item {bad_at}"
        );
        assert_eq!(net.version(), before.version());
        assert_eq!(net.edge_count(), before.edge_count());
        assert!(!net.has_negative_weights());
    }
    check_against_lists(&net, &DIRECTIONS, 5);
    let mut fresh = before.clone();
    let (a, b) = (
        net.add_edges(borrowed(&items), MissingNodes::Fail).unwrap(),
        fresh
            .add_edges(borrowed(&items), MissingNodes::Fail)
            .unwrap(),
    );
    assert_eq!(a.edge_ids, b.edge_ids);
    assert_eq!(net.to_data(), fresh.to_data());
    assert_eq!(net.history_data(), fresh.history_data());
    assert_eq!(list_orders(&net), list_orders(&fresh));
    assert!(net.has_negative_weights());
    check_against_lists(&net, &DIRECTIONS, 5);
}
