//! Relation filters: every filtered algorithm answers as the same algorithm on a
//! copy of the network that has every node and only the edges the filter keeps
//! (edge ids mapped back), on petgraph's lists and on the adjacency rows alike.

use networks_mcp::network::work::WorkAttributes;
use networks_mcp::network::{
    Direction, EdgeSpec, Network, Order, RelationFilter, TraversalOrder, TraverseOptions, Weighted,
};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;

use crate::numbered::id;

/// The relation types generated: `None` is a plain edge.
const TYPES: [Option<&str>; 4] = [None, Some("blocks"), Some("related"), Some("parent")];

type Edges = Vec<(usize, usize, f64, usize)>;

fn build(n: usize, edges: &Edges, attribute: &str) -> Network {
    let mut net = Network::new();
    for i in 0..n {
        net.add_node(&id(i)).unwrap();
    }
    for &(a, b, w, t) in edges {
        let mut spec = EdgeSpec::new(id(a), id(b)).with_weight(w);
        if let Some(r) = TYPES[t] {
            spec = spec.with_attribute(attribute, r);
        }
        net.add_edge_with(spec).unwrap();
    }
    net
}

/// The copy with only the kept edges, and the original id of each of its edges.
fn kept_copy(n: usize, edges: &Edges, keep: &dyn Fn(usize) -> bool) -> (Network, Vec<u64>) {
    let mut net = Network::new();
    for i in 0..n {
        net.add_node(&id(i)).unwrap();
    }
    let mut ids = Vec::new();
    for (k, &(a, b, w, t)) in edges.iter().enumerate() {
        if keep(t) {
            net.add_edge(&id(a), &id(b), w).unwrap();
            ids.push(k as u64);
        }
    }
    (net, ids)
}

/// A filter over the generated types: `only` or `except` a subset (bit `t` of
/// `mask` selects `TYPES[t]`, `""` for plain edges).
fn filter(only: bool, mask: u8, attribute: &str) -> (RelationFilter, impl Fn(usize) -> bool) {
    let names: Vec<&str> = (0..TYPES.len())
        .filter(|t| mask & (1 << t) != 0)
        .map(|t| TYPES[t].unwrap_or(""))
        .collect();
    let f = if only {
        RelationFilter::only(&names)
    } else {
        RelationFilter::except(&names)
    };
    let f = if attribute == "relation" {
        f
    } else {
        f.on_attribute(attribute)
    };
    (f, move |t: usize| (mask & (1 << t) != 0) == only)
}

fn arb_case() -> impl Strategy<Value = (usize, Edges, bool, u8, bool)> {
    (1usize..9).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0..n, 0u8..6, 0..TYPES.len()), 0..24).prop_map(|es| {
                es.into_iter()
                    .map(|(a, b, w, t)| (a, b, f64::from(w), t))
                    .collect()
            }),
            any::<bool>(),
            0u8..16,
            any::<bool>(),
        )
    })
}

fn map_edges(edges: &[u64], ids: &[u64]) -> Vec<u64> {
    edges.iter().map(|&e| ids[e as usize]).collect()
}

/// Every filtered answer of `net` equals the plain answer of `copy`.
fn check(net: &Network, copy: &Network, ids: &[u64], f: &RelationFilter, n: usize) {
    let view = net.following(f);
    let ix = |i: usize| NodeIndex::new(i);
    for direction in [Direction::Out, Direction::In, Direction::Both] {
        for order in [TraversalOrder::Bfs, TraversalOrder::Dfs] {
            let options = TraverseOptions {
                order,
                direction,
                ..Default::default()
            };
            assert_eq!(
                view.traverse_by_index(&[ix(0)], options),
                copy.traverse_by_index(&[ix(0)], options)
            );
        }
        assert_eq!(
            view.reachable_by_index(ix(0), direction, None, 100),
            copy.reachable_by_index(ix(0), direction, None, 100)
        );
        let done: Vec<bool> = (0..n).map(|i| i % 3 == 1).collect();
        assert_eq!(
            view.ready_nodes_by_index(&done, direction, 100, 100),
            copy.ready_nodes_by_index(&done, direction, 100, 100)
        );
    }
    let (from, to) = (ix(0), ix(n - 1));
    for weighted in [Weighted::Yes, Weighted::No] {
        let a = view.shortest_path_by_index(from, to, weighted);
        let b = copy.shortest_path_by_index(from, to, weighted);
        match (a, b) {
            (Ok(Some(a)), Ok(Some(b))) => {
                assert_eq!(a.nodes, b.nodes);
                assert_eq!(a.edges, map_edges(&b.edges, ids));
                assert_eq!(a.total_weight, b.total_weight);
            }
            (a, b) => assert_eq!(a.map(|p| p.is_some()), b.map(|p| p.is_some())),
        }
        let a = view.k_shortest_paths(from, to, 3, weighted, 100_000);
        let b = copy.k_shortest_paths(from, to, 3, weighted, 100_000);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.paths.len(), b.paths.len());
                for (p, q) in a.paths.iter().zip(&b.paths) {
                    assert_eq!(p.nodes, q.nodes);
                    assert_eq!(p.edges, map_edges(&q.edges, ids));
                }
                assert_eq!(a.more, b.more);
            }
            (a, b) => assert_eq!(a.is_ok(), b.is_ok()),
        }
    }
    let a = view.all_simple_paths(from, to, 4, 0, 50, 100_000);
    let b = copy.all_simple_paths(from, to, 4, 0, 50, 100_000);
    assert_eq!(a.paths.len(), b.paths.len());
    for (p, q) in a.paths.iter().zip(&b.paths) {
        assert_eq!(p.nodes, q.nodes);
        assert_eq!(p.edges, map_edges(&q.edges, ids));
    }
    for order in [Order::Forward, Order::Reverse] {
        assert_eq!(view.topological_sort(order), copy.topological_sort(order));
    }
    assert_eq!(view.is_dag(), copy.is_dag());
    assert_eq!(view.find_cycles(100), copy.find_cycles(100));
    match (view.critical_path(), copy.critical_path()) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.nodes, b.nodes);
            assert_eq!(a.edges, map_edges(&b.edges, ids));
            assert_eq!(a.total_weight, b.total_weight);
        }
        (a, b) => assert_eq!(a.err(), b.err()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

    #[test]
    fn prop_filtered_answers_are_those_of_the_kept_edges(
        (n, edges, only, mask, other_attribute) in arb_case()
    ) {
        let attribute = if other_attribute { "kind" } else { "relation" };
        let net = build(n, &edges, attribute);
        let (f, keep) = filter(only, mask, attribute);
        let (copy, ids) = kept_copy(n, &edges, &keep);
        // On petgraph's lists (a fresh network has no rows)...
        check(&net, &copy, &ids, &f, n);
        // ...and on the rows with their relation columns.
        let _ = net.adjacency();
        let _ = copy.adjacency();
        check(&net, &copy, &ids, &f, n);
    }

    #[test]
    fn prop_the_unfiltered_view_is_the_network(
        (n, edges, _, _, _) in arb_case()
    ) {
        let net = build(n, &edges, "relation");
        let all = RelationFilter::all();
        let ids: Vec<u64> = (0..edges.len() as u64).collect();
        check(&net, &net, &ids, &all, n);
    }

    #[test]
    fn prop_work_follows_only_kept_edges(
        (n, edges, only, mask, _) in arb_case(),
        lease in 1u64..10,
    ) {
        let mut net = build(n, &edges, "relation");
        let (f, keep) = filter(only, mask, "relation");
        let (mut copy, _) = kept_copy(n, &edges, &keep);
        let plan = WorkAttributes { relations: f, ..WorkAttributes::default() };
        let plain = WorkAttributes::default();
        let mut now = 0;
        for round in 0..n + 1 {
            now += lease;
            let a = net.claim_ready(&plan, "w", 2, lease, now).unwrap();
            let b = copy.claim_ready(&plain, "w", 2, lease, now).unwrap();
            prop_assert_eq!(&a, &b);
            let done: Vec<String> = a.iter().map(|c| id(c.node.index())).collect();
            let done: Vec<&str> = done.iter().map(String::as_str).collect();
            let a = net.complete_claimed(&plan, "w", &done, now).unwrap();
            let b = copy.complete_claimed(&plain, "w", &done, now).unwrap();
            prop_assert_eq!(a, b, "round {}", round);
            let a = net.work_progress(&plan, now).unwrap();
            let b = copy.work_progress(&plain, now).unwrap();
            prop_assert_eq!(a, b);
        }
        let a = net.remaining_critical_path(&plan).unwrap().map(|p| p.nodes);
        let b = copy.remaining_critical_path(&plain).unwrap().map(|p| p.nodes);
        prop_assert_eq!(a, b);
    }
}

#[test]
fn the_network_default_skips_its_nonblocking_relations() {
    let mut net = Network::new();
    net.add_nodes(["a", "b", "c"]).unwrap();
    net.add_edge_with(EdgeSpec::new("a", "b")).unwrap();
    net.add_edge_with(EdgeSpec::new("b", "a").with_attribute("relation", "related"))
        .unwrap();
    net.add_edge_with(EdgeSpec::new("c", "a").with_attribute("relation", "discovered-from"))
        .unwrap();
    assert!(!net.is_dag());
    let before = net.version();
    net.set_nonblocking_relations(["related", "discovered-from", "related"]);
    assert_eq!(net.nonblocking_relations(), ["related", "discovered-from"]);
    assert!(net.version() > before);
    let blocking = net.default_relations();
    assert!(net.following(&blocking).is_dag());
    // Kept by snapshots.
    let copy = Network::from_data("copy", net.to_data()).unwrap();
    assert_eq!(copy.nonblocking_relations(), net.nonblocking_relations());
    // The same list again is no change.
    let at = net.version();
    net.set_nonblocking_relations(["related", "discovered-from"]);
    assert_eq!(net.version(), at);
}

#[test]
fn a_filter_on_a_large_network_reads_its_rows_without_rebuilding_them() {
    // A chain whose every other edge is `related`: following only plain edges
    // splits it into pairs.
    let n = 2_000;
    let mut net = Network::new();
    for i in 0..n {
        net.add_node(&id(i)).unwrap();
    }
    for i in 0..n - 1 {
        let mut spec = EdgeSpec::new(id(i), id(i + 1));
        if i % 2 == 1 {
            spec = spec.with_attribute("relation", "related");
        }
        net.add_edge_with(spec).unwrap();
    }
    let plain = RelationFilter::only([""]);
    let rows_before = net.adjacency().out_neighbors(NodeIndex::new(0)).as_ptr();
    for _ in 0..3 {
        let layers = net
            .following(&plain)
            .topological_sort(Order::Forward)
            .unwrap()
            .layers;
        assert_eq!(layers.len(), 2);
    }
    // The rows are the same allocation: the filter did not rebuild them.
    assert_eq!(
        net.adjacency().out_neighbors(NodeIndex::new(0)).as_ptr(),
        rows_before
    );
}

/// A write of [`prop_filtered_answers_stay_exact_across_writes`]: add a typed
/// edge (endpoints and type taken modulo their ranges), or remove the k-th
/// edge still present.
#[derive(Debug, Clone)]
enum Write {
    Add(usize, usize, u8, usize),
    Remove(usize),
}

fn arb_writes() -> impl Strategy<Value = Vec<Write>> {
    prop::collection::vec(
        prop_oneof![
            3 => (0usize..9, 0usize..9, 0u8..6, 0..TYPES.len())
                .prop_map(|(a, b, w, t)| Write::Add(a, b, w, t)),
            2 => (0usize..64).prop_map(Write::Remove),
        ],
        1..24,
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(128)
    })]

    /// The rows and relation columns a filtered query built are edited by each
    /// later write, not rebuilt: after every write, every filtered answer is
    /// still that of a copy made from scratch with only the kept edges.
    #[test]
    fn prop_filtered_answers_stay_exact_across_writes(
        (n, edges, only, mask, other_attribute) in arb_case(),
        writes in arb_writes(),
    ) {
        let attribute = if other_attribute { "kind" } else { "relation" };
        let mut net = build(n, &edges, attribute);
        let (f, keep) = filter(only, mask, attribute);
        // (edge id, source, target, weight, type) of the edges present.
        let mut present: Vec<(u64, usize, usize, f64, usize)> = edges
            .iter()
            .enumerate()
            .map(|(k, &(a, b, w, t))| (k as u64, a, b, w, t))
            .collect();
        // Rows and relation columns built before the writes.
        let _ = net.adjacency();
        let (copy, ids) = kept_copy(n, &edges, &keep);
        check(&net, &copy, &ids, &f, n);
        for write in &writes {
            match *write {
                Write::Add(a, b, w, t) => {
                    let (a, b) = (a % n, b % n);
                    let mut spec = EdgeSpec::new(id(a), id(b)).with_weight(f64::from(w));
                    if let Some(r) = TYPES[t] {
                        spec = spec.with_attribute(attribute, r);
                    }
                    let e = net.add_edge_with(spec).unwrap();
                    present.push((e, a, b, f64::from(w), t));
                }
                Write::Remove(k) if !present.is_empty() => {
                    let (e, ..) = present.remove(k % present.len());
                    net.remove_edge(e).unwrap();
                }
                Write::Remove(_) => {}
            }
            let kept: Edges = present.iter().map(|&(_, a, b, w, t)| (a, b, w, t)).collect();
            let (copy, copy_ids) = kept_copy(n, &kept, &keep);
            // The copy names each of its edges by its position in `present`.
            let ids: Vec<u64> = copy_ids.iter().map(|&k| present[k as usize].0).collect();
            check(&net, &copy, &ids, &f, n);
        }
    }
}
