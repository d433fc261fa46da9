//! Properties of copies and diffs on small random networks (parallel edges,
//! self-loops, negative and zero weights, attributes, data, and removals that
//! leave holes in the node and edge numbering): a whole copy is the same content
//! with the same edge ids in a new network; an induced copy holds exactly the
//! edges among its nodes; a neighbourhood is the brute-force ball; a diff
//! applied to A yields B, and A's diff with itself is empty. (Agreement with
//! NetworkX is tests/interop/test_copy_diff.py.)

use std::collections::{BTreeMap, BTreeSet};

use networks_mcp::network::snapshot::EdgeData;
use networks_mcp::network::subgraph::Extract;
use networks_mcp::network::{Direction, EdgeSpec, Network, NodeSpec};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const DIRECTIONS: [Direction; 3] = [Direction::Out, Direction::In, Direction::Both];
/// Node ids are drawn from this pool, so two random networks share most of them.
const POOL: usize = 7;

/// A random network: nodes (pool number, attribute choice, data choice), edges
/// `(source, target, weight choice, attribute choice)` by position among the
/// nodes, then the nodes and edges (by position) removed afterwards.
#[derive(Debug, Clone)]
struct Spec {
    nodes: Vec<(usize, u8, u8)>,
    edges: Vec<(usize, usize, u8, u8)>,
    remove_nodes: Vec<usize>,
    remove_edges: Vec<usize>,
}

fn spec() -> impl Strategy<Value = Spec> {
    prop::collection::btree_set(0..POOL, 1..=POOL)
        .prop_flat_map(|ids| {
            let ids: Vec<usize> = ids.into_iter().collect();
            let n = ids.len();
            (
                prop::collection::vec((0u8..5, 0u8..3), n).prop_map(move |choices| {
                    ids.iter()
                        .zip(choices)
                        .map(|(&id, (a, d))| (id, a, d))
                        .collect::<Vec<_>>()
                }),
                prop::collection::vec((0..n, 0..n, 0u8..4, 0u8..5), 0..=16),
                prop::collection::vec(0..n, 0..=1),
                prop::collection::vec(0usize..16, 0..=3),
            )
        })
        .prop_map(|(nodes, edges, remove_nodes, remove_edges)| Spec {
            nodes,
            edges,
            remove_nodes,
            remove_edges,
        })
}

fn id(i: usize) -> String {
    format!("n{i}")
}

fn attributes(choice: u8, swap: bool) -> Map<String, Value> {
    let mut map = Map::new();
    let choice = match (choice, swap) {
        (3, true) => 4,
        (4, true) => 3,
        _ => choice,
    };
    match choice {
        0 => {}
        1 => {
            map.insert("status".into(), json!("todo"));
        }
        2 => {
            map.insert("status".into(), json!("done"));
        }
        3 => {
            map.insert("status".into(), json!("done"));
            map.insert("owner".into(), json!(7));
        }
        // The same attributes as 3 in the other order: equal content.
        _ => {
            map.insert("owner".into(), json!(7));
            map.insert("status".into(), json!("done"));
        }
    }
    map
}

fn weight(choice: u8) -> f64 {
    [1.0, 2.0, -1.5, 0.0][choice as usize]
}

fn build(spec: &Spec) -> Network {
    build_with(spec, false)
}

/// The network of a spec; `swap` lists the keys of the two-key attribute maps
/// the other way round.
fn build_with(spec: &Spec, swap: bool) -> Network {
    let mut net = Network::new();
    for &(n, a, d) in &spec.nodes {
        let mut node = NodeSpec::new(id(n)).with_attributes(attributes(a, swap));
        if d > 0 {
            node = node.with_data(json!({ "v": d }));
        }
        net.add_node_with(node).unwrap();
    }
    let mut ids = Vec::new();
    for &(a, b, w, attr) in &spec.edges {
        let source = id(spec.nodes[a].0);
        let target = id(spec.nodes[b].0);
        let edge = EdgeSpec::new(source, target)
            .with_weight(weight(w))
            .with_attributes(attributes(attr, swap));
        ids.push(net.add_edge_with(edge).unwrap());
    }
    for &k in &spec.remove_edges {
        if let Some(&e) = ids.get(k) {
            let _ = net.remove_edge(e);
        }
    }
    for &k in &spec.remove_nodes {
        let _ = net.remove_node(&id(spec.nodes[k].0));
    }
    // Nodes added after a removal may reuse its index: index order is then not
    // insertion order, which copies must follow all the same.
    if !spec.remove_nodes.is_empty() {
        net.add_node("late").unwrap();
        let first = net.node_ids().next().unwrap().to_string();
        net.add_edge("late", &first, 1.0).unwrap();
    }
    net
}

/// A network's content, for comparing two networks whatever their node order
/// and edge ids: node id → (data, attributes), and how many times each
/// (source, target, weight, attributes) edge occurs.
type Content = (
    BTreeMap<String, (Option<String>, BTreeMap<String, String>)>,
    BTreeMap<(String, String, u64, BTreeMap<String, String>), usize>,
);

fn canonical(attributes: &networks_mcp::network::Attributes) -> BTreeMap<String, String> {
    attributes
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn content(net: &Network) -> Content {
    let data = net.to_data();
    let nodes = data
        .nodes
        .iter()
        .map(|n| {
            (
                n.id.to_string(),
                (
                    n.data.as_ref().map(|d| d.to_string()),
                    canonical(&n.attributes),
                ),
            )
        })
        .collect();
    let mut edges = BTreeMap::new();
    for e in &data.edges {
        let w = if e.weight == 0.0 {
            0
        } else {
            e.weight.to_bits()
        };
        *edges
            .entry((
                e.source.clone(),
                e.target.clone(),
                w,
                canonical(&e.attributes),
            ))
            .or_insert(0) += 1;
    }
    (nodes, edges)
}

/// The nodes chosen by `picked`, as ids in `net`'s index order.
fn ids_in_order(net: &Network, picked: &BTreeSet<NodeIndex>) -> Vec<String> {
    net.node_indices()
        .filter(|ix| picked.contains(ix))
        .map(|ix| net.id_at(ix).to_string())
        .collect()
}

/// The edges of `net` (ids and content) with both ends among `ids`, by edge id.
fn edges_among(net: &Network, ids: &[String]) -> Vec<EdgeData> {
    net.to_data()
        .edges
        .into_iter()
        .filter(|e| ids.contains(&e.source) && ids.contains(&e.target))
        .collect()
}

/// Brute force: the nodes within `depth` hops of a seed, by relaxing every edge
/// `depth` times.
fn ball(
    net: &Network,
    seeds: &[NodeIndex],
    depth: usize,
    direction: Direction,
) -> BTreeSet<NodeIndex> {
    let mut ball: BTreeSet<NodeIndex> = seeds.iter().copied().collect();
    let edges: Vec<(NodeIndex, NodeIndex)> = net
        .edges()
        .map(|e| {
            (
                net.index_of(e.source).unwrap(),
                net.index_of(e.target).unwrap(),
            )
        })
        .collect();
    for _ in 0..depth {
        let mut next = ball.clone();
        for &(a, b) in &edges {
            if direction != Direction::In && ball.contains(&a) {
                next.insert(b);
            }
            if direction != Direction::Out && ball.contains(&b) {
                next.insert(a);
            }
        }
        ball = next;
    }
    ball
}

/// Checks that `copy` holds exactly `ids` (in that order) and the edges of
/// `original` among them with their ids, and that its derived facts agree.
fn check_copy(original: &Network, copy: &Network, ids: &[String]) {
    assert_ne!(copy.instance(), original.instance());
    assert_eq!(copy.node_ids().collect::<Vec<_>>(), ids);
    let expected = edges_among(original, ids);
    let data = copy.to_data();
    assert_eq!(data.edges, expected);
    assert_eq!(data.next_edge_id, original.to_data().next_edge_id);
    for id in ids {
        assert_eq!(copy.node(id), original.node(id));
    }
    assert_eq!(
        copy.has_negative_weights(),
        expected.iter().any(|e| e.weight < 0.0)
    );
    for e in &expected {
        let view = copy
            .edge(e.id)
            .expect("an edge is found by its original id");
        assert_eq!(
            (view.source, view.target),
            (e.source.as_str(), e.target.as_str())
        );
    }
    // Neighbours come in the same order as in the original, less the nodes
    // left out.
    for id in ids {
        for direction in DIRECTIONS {
            let kept: Vec<&str> = original
                .neighbors(id, direction)
                .unwrap()
                .into_iter()
                .filter(|n| ids.iter().any(|i| i == n))
                .collect();
            assert_eq!(copy.neighbors(id, direction).unwrap(), kept);
        }
        let ix = copy.index_of(id).unwrap();
        let adjacency = copy.adjacency();
        assert_eq!(
            copy.ids(adjacency.out_neighbors(ix)).len(),
            copy.degrees(ix).1
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_diff_applied_to_a_yields_b(a in spec(), b in spec()) {
        let (a, b) = (build(&a), build(&b));
        let diff = a.diff(&b);
        prop_assert_eq!(diff.is_empty(), content(&a) == content(&b));
        let mut net = a.extract(Extract::Whole);
        diff.apply_to(&mut net).unwrap();
        prop_assert_eq!(content(&net), content(&b));
        prop_assert!(net.diff(&b).is_empty());
        prop_assert!(b.diff(&net).is_empty());
        // Every count is positive, and the counts balance the edge totals.
        let removed: usize = diff.edges_removed.iter().map(|e| e.count).sum();
        let added: usize = diff.edges_added.iter().map(|e| e.count).sum();
        prop_assert!(diff.edges_removed.iter().chain(&diff.edges_added).all(|e| e.count > 0));
        prop_assert_eq!(a.edge_count() + added, b.edge_count() + removed);
        // The reverse diff undoes it.
        b.diff(&a).apply_to(&mut net).unwrap();
        prop_assert_eq!(content(&net), content(&a));
    }

    #[test]
    fn a_network_differs_from_itself_and_its_copy_in_nothing(a in spec()) {
        let swapped = build_with(&a, true);
        let a = build(&a);
        prop_assert!(a.diff(&a).is_empty());
        // The order of attributes is no difference.
        prop_assert!(a.diff(&swapped).is_empty());
        let copy = a.extract(Extract::Whole);
        prop_assert!(a.diff(&copy).is_empty());
        prop_assert_eq!(copy.to_data(), a.to_data());
        prop_assert_eq!(copy.version(), (a.node_count() + a.edge_count()) as u64);
        let ids: Vec<String> = a.node_ids().map(str::to_string).collect();
        check_copy(&a, &copy, &ids);
        prop_assert_eq!(a.extract_size(&Extract::Whole), (copy.node_count(), copy.edge_count()));
        // A new edge gets an id the original never used.
        let mut copy = copy;
        let next = a.to_data().next_edge_id;
        if let Some(first) = ids.first() {
            prop_assert_eq!(copy.add_edge(first, first, 1.0).unwrap(), next);
        }
    }

    #[test]
    fn an_induced_copy_holds_exactly_the_edges_among_its_nodes(
        a in spec(),
        picks in prop::collection::vec(0usize..16, 0..=10),
    ) {
        let a = build(&a);
        let all: Vec<NodeIndex> = a.node_indices().collect();
        // Repeats included, and in no particular order.
        let picked: Vec<NodeIndex> = picks.iter().map(|&p| all[p % all.len()]).collect();
        let copy = a.extract(Extract::Induced(&picked));
        let ids = ids_in_order(&a, &picked.iter().copied().collect());
        check_copy(&a, &copy, &ids);
        prop_assert_eq!(a.extract_size(&Extract::Induced(&picked)), (copy.node_count(), copy.edge_count()));
        prop_assert!(copy.description().is_none());
    }

    #[test]
    fn a_neighborhood_is_the_ball_around_its_seeds(
        a in spec(),
        seeds in prop::collection::vec(0usize..16, 0..=3),
        depth in 0usize..4,
        direction in prop::sample::select(&DIRECTIONS[..]),
    ) {
        let a = build(&a);
        let all: Vec<NodeIndex> = a.node_indices().collect();
        let seeds: Vec<NodeIndex> = seeds.iter().map(|&s| all[s % all.len()]).collect();
        let what = Extract::Neighborhood { seeds: &seeds, depth, direction };
        let copy = a.extract(what);
        let ids = ids_in_order(&a, &ball(&a, &seeds, depth, direction));
        check_copy(&a, &copy, &ids);
        prop_assert_eq!(a.extract_size(&what), (copy.node_count(), copy.edge_count()));
    }
}

#[test]
fn indices_that_are_not_nodes_are_ignored() {
    let mut net = Network::new();
    net.add_nodes(["a", "b"]).unwrap();
    net.add_edge("a", "b", 1.0).unwrap();
    let b = net.index_of("b").unwrap();
    net.remove_node("b").unwrap();
    let stale = [b, NodeIndex::new(99)];
    let copy = net.extract(Extract::Induced(&stale));
    assert_eq!((copy.node_count(), copy.edge_count()), (0, 0));
    let what = Extract::Neighborhood {
        seeds: &stale,
        depth: 2,
        direction: Direction::Both,
    };
    assert_eq!(net.extract_size(&what), (0, 0));
}
