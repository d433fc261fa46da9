//! Properties of the structure family on small random multigraphs (parallel
//! edges and self-loops included), each checked against brute force: a
//! transitive reduction keeps reachability exactly and is minimal; a node
//! dominates another iff removing it cuts the other off from the root;
//! articulation points and bridges are the nodes and edges whose removal adds a
//! weak component; a condensation is a DAG over a partition into strongly
//! connected components with an edge wherever an original edge crosses.
//! (Agreement with NetworkX is tests/interop/test_topology.py.)

use crate::numbered;

use networks_mcp::network::Network;
use proptest::prelude::*;
use serde_json::{Value, json};

fn graph() -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>)> {
    (1usize..=9).prop_flat_map(|n| {
        prop::collection::vec(
            (0..n, 0..n, prop::sample::select(&[1.0, 2.0, 3.0][..])),
            0..=22,
        )
        .prop_map(move |edges| (n, edges))
    })
}

/// A DAG with parallel edges: every edge goes from the earlier to the later node
/// of a shuffled numbering, so the topological order is not the index order.
fn dag() -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>)> {
    (1usize..=10).prop_flat_map(|n| {
        let order = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        let pairs =
            prop::collection::vec((0..n, 0..n, prop::sample::select(&[1.0, 2.0][..])), 0..=30);
        (order, pairs).prop_map(move |(order, pairs)| {
            let edges = pairs
                .into_iter()
                .filter(|&(a, b, _)| a != b)
                .map(|(a, b, w)| (order[a.min(b)], order[a.max(b)], w))
                .collect();
            (n, edges)
        })
    })
}

/// `reach[a][b]`: a path of at least one edge leads from a to b.
fn closure(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Vec<Vec<bool>> {
    let mut reach = vec![vec![false; n]; n];
    for (a, b) in edges {
        reach[a][b] = true;
    }
    // Warshall: after step k, paths through nodes 0..=k are known.
    for k in 0..n {
        let through = reach[k].clone();
        for row in reach.iter_mut().filter(|row| row[k]) {
            for (to, &via) in row.iter_mut().zip(&through) {
                *to |= via;
            }
        }
    }
    reach
}

/// The nodes reachable from `root` (itself included) when `skip` is removed.
fn reachable(
    n: usize,
    edges: &[(usize, usize, f64)],
    root: usize,
    skip: Option<usize>,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    if skip == Some(root) {
        return seen;
    }
    seen[root] = true;
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        for &(a, b, _) in edges {
            if a == v && Some(b) != skip && !seen[b] {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    seen
}

/// The number of weak components among the nodes other than `skip_node`,
/// without the edge numbered `skip_edge`.
fn weak_count(
    n: usize,
    edges: &[(usize, usize, f64)],
    skip_node: Option<usize>,
    skip_edge: Option<usize>,
) -> usize {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (k, &(a, b, _)) in edges.iter().enumerate() {
        if Some(k) == skip_edge || Some(a) == skip_node || Some(b) == skip_node {
            continue;
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        parent[ra] = rb;
    }
    (0..n)
        .filter(|&v| Some(v) != skip_node && find(&mut parent, v) == v)
        .count()
}

fn number(net: &Network, ix: petgraph::stable_graph::NodeIndex) -> usize {
    net.id_at(ix)[1..].parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_transitive_reduction_keeps_reachability_and_is_minimal((n, edges) in dag()) {
        let net = numbered::network(n, edges.iter().copied());
        let removed = net.transitive_reduction().unwrap();
        prop_assert!(removed.windows(2).all(|w| w[0] < w[1]), "ids ascending: {removed:?}");
        let kept: Vec<usize> = (0..edges.len()).filter(|&k| !removed.contains(&(k as u64))).collect();
        let pairs = |ks: &mut dyn Iterator<Item = usize>| -> Vec<(usize, usize)> {
            ks.map(|k| (edges[k].0, edges[k].1)).collect()
        };
        let full = closure(n, edges.iter().map(|&(a, b, _)| (a, b)));
        prop_assert_eq!(&closure(n, pairs(&mut kept.iter().copied())), &full, "reachability changed");
        for &k in &kept {
            let without = closure(n, pairs(&mut kept.iter().copied().filter(|&j| j != k)));
            prop_assert_ne!(&without, &full, "edge {} is kept but not needed", k);
        }
        // Of a kept pair's parallels, the lowest id is the one kept.
        for &k in &kept {
            let lower = (0..k).any(|j| (edges[j].0, edges[j].1) == (edges[k].0, edges[k].1));
            prop_assert!(!lower, "edge {} kept over a lower parallel", k);
        }
    }

    #[test]
    fn a_cyclic_network_has_no_transitive_reduction((n, edges) in graph()) {
        let net = numbered::network(n, edges.iter().copied());
        let full = closure(n, edges.iter().map(|&(a, b, _)| (a, b)));
        let cyclic = (0..n).any(|v| full[v][v]);
        match net.transitive_reduction() {
            Ok(_) => prop_assert!(!cyclic),
            Err(e) => {
                prop_assert!(cyclic);
                prop_assert_eq!(e.code(), "cycle_detected");
            }
        }
    }

    #[test]
    fn dominators_are_the_nodes_whose_removal_cuts_the_target_off((n, edges) in graph(), root in 0usize..9) {
        let root = root % n;
        let net = numbered::network(n, edges.iter().copied());
        let ix = numbered::indices(&net, n);
        let from_root = reachable(n, &edges, root, None);
        // strict[t]: the nodes other than t without which t is unreachable.
        let strict: Vec<Vec<usize>> = (0..n)
            .map(|t| (0..n).filter(|&d| d != t && from_root[t] && !reachable(n, &edges, root, Some(d))[t]).collect())
            .collect();
        let idom = net.immediate_dominators(ix[root]);
        let listed: Vec<usize> = idom.iter().map(|&(v, _)| number(&net, v)).collect();
        let expected: Vec<usize> = (0..n).filter(|&t| t != root && from_root[t]).collect();
        prop_assert_eq!(&listed, &expected, "the nodes listed are those the root reaches, in order");
        for &(v, d) in &idom {
            let (t, d) = (number(&net, v), number(&net, d));
            prop_assert!(strict[t].contains(&d));
            // The immediate dominator is dominated by every other strict dominator.
            for &other in &strict[t] {
                prop_assert!(other == d || strict[d].contains(&other), "{} idom {} but {} does not dominate it", t, d, other);
            }
        }
        for t in 0..n {
            let got = net.dominators_of(ix[root], ix[t]);
            if t == root {
                prop_assert_eq!(got, Some(vec![]));
            } else if !from_root[t] {
                prop_assert_eq!(got, None);
            } else {
                let chain: Vec<usize> = got.unwrap().into_iter().map(|v| number(&net, v)).collect();
                let mut sorted = chain.clone();
                sorted.sort_unstable();
                prop_assert_eq!(&sorted, &strict[t]);
                prop_assert_eq!(chain.last(), Some(&root));
                // Nearest first: each one is the immediate dominator of the one before.
                let mut below = t;
                for &d in &chain {
                    let (_, id) = idom.iter().find(|&&(v, _)| number(&net, v) == below).unwrap();
                    prop_assert_eq!(number(&net, *id), d);
                    below = d;
                }
            }
        }
    }

    #[test]
    fn articulation_points_and_bridges_add_a_weak_component((n, edges) in graph()) {
        let net = numbered::network(n, edges.iter().copied());
        let before = weak_count(n, &edges, None, None);
        let points: Vec<usize> = net.articulation_points().into_iter().map(|v| number(&net, v)).collect();
        let expected: Vec<usize> = (0..n).filter(|&v| weak_count(n, &edges, Some(v), None) > before).collect();
        prop_assert_eq!(points, expected);
        let bridges = net.bridges();
        let expected: Vec<u64> = (0..edges.len())
            .filter(|&k| weak_count(n, &edges, None, Some(k)) > before)
            .map(|k| k as u64)
            .collect();
        prop_assert_eq!(bridges, expected);
    }

    #[test]
    fn a_condensation_is_a_dag_of_the_strong_components((n, edges) in graph()) {
        let net = numbered::network(n, edges.iter().copied());
        let (dag, mapping) = net.condensation_with_mapping();
        prop_assert!(dag.is_dag());
        let full = closure(n, edges.iter().map(|&(a, b, _)| (a, b)));
        let strong = |a: usize, b: usize| a == b || (full[a][b] && full[b][a]);
        // The members: a partition into strong components, first members in order.
        let mut seen = vec![false; n];
        let mut component = vec![usize::MAX; n];
        let mut firsts = Vec::new();
        for (c, ix) in dag.node_indices().enumerate() {
            let node = &dag.graph()[ix];
            let Some(Value::Array(members)) = node.data.as_deref().and_then(|d| d.get("members")).cloned() else {
                panic!("no members on {}", node.id);
            };
            let members: Vec<usize> = members.iter().map(|m| m.as_str().unwrap()[1..].parse().unwrap()).collect();
            prop_assert!(members.windows(2).all(|w| w[0] < w[1]));
            prop_assert_eq!(&*node.id, numbered::id(members[0]));
            prop_assert_eq!(node.attributes.get("size"), Some(&json!(members.len())));
            for &m in &members {
                prop_assert!(!seen[m], "n{} in two components", m);
                seen[m] = true;
                component[m] = c;
                prop_assert!(strong(m, members[0]));
            }
            firsts.push(members[0]);
        }
        prop_assert!(seen.iter().all(|&s| s), "every node in a component");
        prop_assert!(firsts.windows(2).all(|w| w[0] < w[1]));
        for a in 0..n {
            for b in 0..n {
                prop_assert_eq!(component[a] == component[b], strong(a, b));
            }
        }
        for &(v, c) in &mapping {
            prop_assert_eq!(component[number(&net, v)], c.index());
        }
        // An edge per joined pair: the lightest weight, the count, in order of the first edge.
        let mut expected: Vec<(usize, usize, f64, u64)> = Vec::new();
        for &(a, b, w) in &edges {
            let (ca, cb) = (component[a], component[b]);
            if ca == cb {
                continue;
            }
            match expected.iter_mut().find(|e| (e.0, e.1) == (ca, cb)) {
                Some(e) => {
                    e.2 = e.2.min(w);
                    e.3 += 1;
                }
                None => expected.push((ca, cb, w, 1)),
            }
        }
        let got: Vec<(usize, usize, f64, u64)> = dag
            .edges()
            .map(|e| {
                let at = |id: &str| dag.index_of(id).unwrap().index();
                (at(e.source), at(e.target), e.weight, e.attributes.get("edges").unwrap().as_u64().unwrap())
            })
            .collect();
        let mut by_id = got.clone();
        by_id.sort_by(|x, y| {
            let first = |e: &(usize, usize, f64, u64)| expected.iter().position(|f| (f.0, f.1) == (e.0, e.1));
            first(x).cmp(&first(y))
        });
        prop_assert_eq!(&got, &by_id, "edges in order of their first original edge");
        prop_assert_eq!(got, expected);
    }
}

/// Chains far longer than any call stack allows recursion for: every algorithm
/// here walks them with a stack of its own.
#[test]
fn long_chains_do_not_overflow_the_stack() {
    let n = 300_000;
    let net = numbered::network(n, (1..n).map(|i| (i - 1, i, 1.0)));
    assert!(net.transitive_reduction().unwrap().is_empty());
    let ix = numbered::indices(&net, n);
    let idom = net.immediate_dominators(ix[0]);
    assert_eq!(idom.len(), n - 1);
    assert!(idom.iter().all(|&(v, d)| d.index() + 1 == v.index()));
    assert_eq!(net.dominators_of(ix[0], ix[n - 1]).unwrap().len(), n - 1);
    assert_eq!(net.articulation_points().len(), n - 2);
    assert_eq!(net.bridges().len(), n - 1);
    assert_eq!(net.condensation().node_count(), n);

    // Closed into one cycle: one component, no cut, and no reduction.
    let mut net = net;
    net.add_edge(&numbered::id(n - 1), &numbered::id(0), 1.0)
        .unwrap();
    assert!(net.articulation_points().is_empty());
    assert!(net.bridges().is_empty());
    let dag = net.condensation();
    assert_eq!((dag.node_count(), dag.edge_count()), (1, 0));
    assert_eq!(
        net.transitive_reduction().unwrap_err().code(),
        "cycle_detected"
    );
}

/// A chain whose every node also hangs off the root, and a ladder of shortcuts:
/// inputs on which the iterative dominator algorithms slow down.
#[test]
fn shortcuts_to_a_long_chain() {
    let n = 100_000;
    let mut edges: Vec<(usize, usize, f64)> = (1..n).map(|i| (i - 1, i, 1.0)).collect();
    edges.extend((2..n).step_by(2).map(|i| (0, i, 1.0)));
    let net = numbered::network(n, edges.iter().copied());
    let ix = numbered::indices(&net, n);
    let idom = net.immediate_dominators(ix[0]);
    // Even nodes hang off the root; an odd node's only way in is its predecessor.
    for &(v, d) in &idom {
        let v = v.index();
        assert_eq!(d.index(), if v % 2 == 0 { 0 } else { v - 1 }, "node {v}");
    }
    // Every shortcut 0 → 2k is implied by the chain.
    assert_eq!(
        net.transitive_reduction().unwrap().len(),
        n / 2 - 1 + (n % 2)
    );
}

/// A DAG with thousands of candidate edges, so that the reduction works through
/// many blocks of targets, against a direct check of every edge.
#[test]
fn a_large_random_dag_is_reduced_edge_by_edge() {
    let n = 3000;
    let mut state = 7u64;
    let mut draw = |m: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % m
    };
    // Node i points at a few nodes shortly after it and, now and then, far ahead;
    // the numbering is shuffled so that index order is not a topological order.
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, draw(i + 1));
    }
    let mut edges = Vec::new();
    for i in 0..n - 1 {
        for _ in 0..3 {
            let j = if draw(10) == 0 {
                i + 1 + draw(n - i - 1)
            } else {
                (i + 1 + draw(20)).min(n - 1)
            };
            edges.push((order[i], order[j], 1.0));
        }
    }
    let net = numbered::network(n, edges.iter().copied());
    let removed = net.transitive_reduction().unwrap();
    // reach[v]: the nodes v reaches, as a bitset, in reverse topological order.
    let words = n.div_ceil(64);
    let mut reach = vec![vec![0u64; words]; n];
    for i in (0..n).rev() {
        let v = order[i];
        for &(a, b, _) in &edges {
            if a == v {
                reach[v][b / 64] |= 1 << (b % 64);
                let below = reach[b].clone();
                for (w, r) in reach[v].iter_mut().zip(below) {
                    *w |= r;
                }
            }
        }
    }
    let mut expected = Vec::new();
    for (k, &(a, b, _)) in edges.iter().enumerate() {
        let parallel = edges[..k].iter().any(|&(x, y, _)| (x, y) == (a, b));
        let implied = edges
            .iter()
            .any(|&(x, w, _)| x == a && w != b && reach[w][b / 64] >> (b % 64) & 1 == 1);
        if parallel || implied {
            expected.push(k as u64);
        }
    }
    assert!(
        expected.len() > 1000,
        "{} redundant: too few to test blocks",
        expected.len()
    );
    assert_eq!(removed, expected);
}
