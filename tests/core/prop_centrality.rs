//! Properties of the centrality measures on small random multigraphs (parallel
//! edges and self-loops included), checked against brute force where one is
//! short: PageRank is a distribution, betweenness counts shortest paths through
//! each node (by hops, and by weight with ties of every kind: zero-weight edges
//! between nodes at equal distance, in any insertion order, against every simple
//! path enumerated), closeness stays within 0..=1, and a sample of every source
//! is the exact answer. (Agreement with NetworkX is tests/interop/test_centrality.py;
//! NetworkX miscounts zero-weight ties, so it is checked without zero weights.)

use crate::numbered;

use networks_mcp::network::centrality::{BetweennessOptions, PageRankOptions};
use proptest::prelude::*;

fn graph() -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>)> {
    (1usize..=8).prop_flat_map(|n| {
        prop::collection::vec(
            (0..n, 0..n, prop::sample::select(&[1.0, 2.0, 3.0][..])),
            0..=20,
        )
        .prop_map(move |edges| (n, edges))
    })
}

/// Brute force: for every ordered pair (s, t), s != t, t reachable, the share of
/// the hop-shortest s-t paths (counted on the simple graph) through each v.
fn brute_betweenness(n: usize, edges: &[(usize, usize, f64)]) -> Vec<f64> {
    let mut adjacent = vec![vec![false; n]; n];
    for &(a, b, _) in edges {
        if a != b {
            adjacent[a][b] = true;
        }
    }
    // dist[s][t] and count[s][t] by BFS layers.
    let mut dist = vec![vec![usize::MAX; n]; n];
    let mut count = vec![vec![0f64; n]; n];
    for s in 0..n {
        dist[s][s] = 0;
        count[s][s] = 1.0;
        let mut frontier = vec![s];
        let mut d = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &u in &frontier {
                for v in 0..n {
                    if adjacent[u][v] && dist[s][v] > d {
                        if dist[s][v] == usize::MAX {
                            dist[s][v] = d + 1;
                            next.push(v);
                        }
                        count[s][v] += count[s][u];
                    }
                }
            }
            frontier = next;
            d += 1;
        }
    }
    let mut b = vec![0.0; n];
    for s in 0..n {
        for t in 0..n {
            if s == t || dist[s][t] == usize::MAX {
                continue;
            }
            for v in 0..n {
                if v != s
                    && v != t
                    && dist[s][v] != usize::MAX
                    && dist[v][t] != usize::MAX
                    && dist[s][v] + dist[v][t] == dist[s][t]
                {
                    b[v] += count[s][v] * count[v][t] / count[s][t];
                }
            }
        }
    }
    b
}

/// Random multigraphs full of ties by weight: weights 0, 1 and 2, zero-weight
/// edges everywhere (`acyclic_zeros`: only from a lower to a higher number, so
/// that no cycle of them exists).
fn tied_graph(acyclic_zeros: bool) -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>)> {
    (1usize..=7).prop_flat_map(move |n| {
        prop::collection::vec(
            (0..n, 0..n, prop::sample::select(&[0.0, 0.0, 1.0, 2.0][..])),
            0..=16,
        )
        .prop_map(move |edges| {
            let edges = edges
                .into_iter()
                .map(|(a, b, w)| {
                    if acyclic_zeros && w == 0.0 && a > b {
                        (b, a, w)
                    } else {
                        (a, b, w)
                    }
                })
                .collect();
            (n, edges)
        })
    })
}

/// The simple graph of shortest paths: the lightest edge from a to b (a != b).
fn lightest(n: usize, edges: &[(usize, usize, f64)]) -> Vec<Vec<Option<f64>>> {
    let mut w: Vec<Vec<Option<f64>>> = vec![vec![None; n]; n];
    for &(a, b, x) in edges {
        if a != b {
            w[a][b] = Some(w[a][b].map_or(x, |y: f64| y.min(x)));
        }
    }
    w
}

/// Brute force by weight: every simple path of every ordered pair (s, t) is
/// enumerated; the lightest ones are the shortest paths, and each node inside
/// one gets its share. (Integer weights, so the sums are exact.)
fn brute_weighted_betweenness(n: usize, edges: &[(usize, usize, f64)]) -> Vec<f64> {
    fn walk(
        w: &[Vec<Option<f64>>],
        path: &mut Vec<usize>,
        length: f64,
        found: &mut Vec<Vec<(f64, Vec<usize>)>>,
    ) {
        let last = *path.last().unwrap();
        found[last].push((length, path.clone()));
        for next in 0..w.len() {
            if let Some(x) = w[last][next]
                && !path.contains(&next)
            {
                path.push(next);
                walk(w, path, length + x, found);
                path.pop();
            }
        }
    }
    let w = lightest(n, edges);
    let mut b = vec![0.0; n];
    for s in 0..n {
        // found[t]: every simple path from s to t, with its length.
        let mut found = vec![Vec::new(); n];
        walk(&w, &mut vec![s], 0.0, &mut found);
        for (t, paths) in found.iter().enumerate() {
            if t == s || paths.is_empty() {
                continue;
            }
            let best = paths.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let shortest: Vec<&Vec<usize>> =
                paths.iter().filter(|p| p.0 == best).map(|p| &p.1).collect();
            for path in &shortest {
                for &v in &path[1..path.len() - 1] {
                    b[v] += 1.0 / shortest.len() as f64;
                }
            }
        }
    }
    b
}

/// Whether the zero-weight edges (self-loops aside) close a cycle.
fn has_zero_cycle(n: usize, edges: &[(usize, usize, f64)]) -> bool {
    let w = lightest(n, edges);
    let zero = |a: usize, b: usize| w[a][b] == Some(0.0);
    // reach[a][b]: a path of zero-weight edges from a to b (Floyd–Warshall).
    let mut reach: Vec<Vec<bool>> = (0..n)
        .map(|a| (0..n).map(|b| zero(a, b)).collect())
        .collect();
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                reach[a][b] |= reach[a][k] && reach[k][b];
            }
        }
    }
    (0..n).any(|a| reach[a][a])
}

/// The same network with its nodes inserted in the order `nodes` and its edges
/// in the order `edges`: the scores by node number.
fn betweenness_in_order(
    n: usize,
    edges: &[(usize, usize, f64)],
    node_order: &[usize],
    edge_order: &[usize],
    options: &BetweennessOptions,
) -> Result<Vec<f64>, networks_mcp::Error> {
    let mut net = networks_mcp::network::Network::new();
    for &i in node_order {
        net.add_node(&numbered::id(i)).unwrap();
    }
    for &k in edge_order {
        let (a, b, w) = edges[k];
        net.add_edge(&numbered::id(a), &numbered::id(b), w).unwrap();
    }
    let scores = net.betweenness(options)?;
    let mut by_number = vec![0.0; n];
    for (ix, value) in scores.nodes.iter().zip(&scores.values) {
        let number: usize = net.id_at(*ix)[1..].parse().unwrap();
        by_number[number] = *value;
    }
    Ok(by_number)
}

const BY_WEIGHT: BetweennessOptions = BetweennessOptions {
    weighted: true,
    normalized: false,
    sample: None,
};

#[test]
fn a_zero_weight_tie_counts_in_either_insertion_order() {
    // a -> b (2), a -> c (2), c -> b (0): two shortest a-b paths, one through c.
    let edges = [(0, 1, 2.0), (0, 2, 2.0), (2, 1, 0.0)];
    for node_order in [[0, 1, 2], [0, 2, 1], [2, 1, 0], [1, 0, 2]] {
        for edge_order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let got =
                betweenness_in_order(3, &edges, &node_order, &edge_order, &BY_WEIGHT).unwrap();
            assert_eq!(
                got,
                [0.0, 0.0, 0.5],
                "nodes {node_order:?}, edges {edge_order:?}"
            );
        }
    }
}

#[test]
fn a_cycle_of_zero_weight_edges_is_refused_by_weight_only() {
    use networks_mcp::network::Network;
    let mut net = Network::new();
    net.add_nodes(["s", "a", "b", "t"]).unwrap();
    net.add_edge("s", "a", 1.0).unwrap();
    net.add_edge("a", "b", 0.0).unwrap();
    net.add_edge("b", "a", 0.0).unwrap();
    net.add_edge("b", "t", 1.0).unwrap();
    let err = net.betweenness(&BY_WEIGHT).unwrap_err();
    assert_eq!(err.code(), "invalid_value");
    let message = err.to_string();
    assert!(
        message.contains("'a' → 'b' → 'a'") || message.contains("'b' → 'a' → 'b'"),
        "{message}"
    );
    assert!(message.contains("weighted false"), "{message}");
    // Sampled: refused whatever the sample, even one source that reaches nothing.
    let one = BetweennessOptions {
        sample: Some((1, 0)),
        ..BY_WEIGHT
    };
    for seed in 0..8 {
        let sampled = BetweennessOptions {
            sample: Some((1, seed)),
            ..one
        };
        assert!(net.betweenness(&sampled).is_err());
    }
    // By hops, every edge counts 1: a is inside s-b and s-t, b inside s-t and a-t.
    let hops = net.betweenness(&BetweennessOptions::default()).unwrap();
    assert_eq!(hops.values, [0.0, 2.0, 2.0, 0.0]);
    // Weighted closeness needs distances only, and they are finite.
    assert!(net.closeness(true, true).is_ok());
}

#[test]
fn edges_too_light_to_change_a_distance_are_a_zero_weight_cycle() {
    // From s, a and b are both at 1e17: 1e17 + 1 rounds to 1e17, so a -> b -> a
    // is a cycle of tight edges, though no edge weighs 0.
    use networks_mcp::network::Network;
    let mut net = Network::new();
    net.add_nodes(["s", "a", "b"]).unwrap();
    net.add_edge("s", "a", 1e17).unwrap();
    net.add_edge("a", "b", 1.0).unwrap();
    net.add_edge("b", "a", 1.0).unwrap();
    let err = net.betweenness(&BY_WEIGHT).unwrap_err();
    assert_eq!(err.code(), "invalid_value");
    assert!(err.to_string().contains("infinitely many"), "{err}");
}

#[test]
fn a_weighted_distance_past_f64_is_an_overflow() {
    use networks_mcp::network::Network;
    let mut net = Network::new();
    net.add_nodes(["a", "b", "c"]).unwrap();
    net.add_edge("a", "b", 1e308).unwrap();
    net.add_edge("b", "c", 1e308).unwrap();
    let err = net.betweenness(&BY_WEIGHT).unwrap_err();
    assert_eq!(err.code(), "weight_overflow");
}

#[test]
fn a_long_chain_of_zero_weight_ties_counts_exactly() {
    // Layers of 4 nodes; every node of a layer links to every node of the next
    // with weight 0 or 1 as (i + j) says, and inside a layer node i -> i + 1
    // with weight 0: ties at equal distance everywhere. The scores do not depend
    // on the insertion order of nodes or edges.
    let (layers, width) = (35, 4);
    let n = layers * width;
    let mut edges = Vec::new();
    for l in 0..layers {
        for i in 0..width {
            let v = l * width + i;
            if i + 1 < width {
                edges.push((v, v + 1, 0.0));
            }
            if l + 1 < layers {
                for j in 0..width {
                    edges.push((v, (l + 1) * width + j, ((i + j) % 2) as f64));
                }
            }
        }
    }
    let forward: Vec<usize> = (0..n).collect();
    let backward: Vec<usize> = (0..n).rev().collect();
    let edge_forward: Vec<usize> = (0..edges.len()).collect();
    let edge_backward: Vec<usize> = (0..edges.len()).rev().collect();
    let a = betweenness_in_order(n, &edges, &forward, &edge_forward, &BY_WEIGHT).unwrap();
    let b = betweenness_in_order(n, &edges, &backward, &edge_backward, &BY_WEIGHT).unwrap();
    for v in 0..n {
        assert!(
            (a[v] - b[v]).abs() <= 1e-9 * a[v].abs().max(1.0),
            "node {v}: {} vs {}",
            a[v],
            b[v]
        );
    }
    // Every sampled source: the same answer.
    let all = betweenness_in_order(
        n,
        &edges,
        &forward,
        &edge_forward,
        &BetweennessOptions {
            sample: Some((n, 7)),
            ..BY_WEIGHT
        },
    )
    .unwrap();
    for v in 0..n {
        assert!((a[v] - all[v]).abs() <= 1e-9 * a[v].abs().max(1.0));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn weighted_betweenness_counts_every_tied_shortest_path(
        (n, edges) in tied_graph(true),
        shuffle in any::<u64>(),
    ) {
        let expected = brute_weighted_betweenness(n, &edges);
        let net = numbered::network(n, edges.iter().copied());
        let got = net.betweenness(&BY_WEIGHT).unwrap();
        for (g, want) in got.values.iter().zip(&expected) {
            prop_assert!((g - want).abs() < 1e-9, "{:?} vs {:?}", got.values, expected);
        }
        // Another insertion order of nodes and edges: the same scores.
        let mut state = shuffle;
        let mut node_order: Vec<usize> = (0..n).collect();
        let mut edge_order: Vec<usize> = (0..edges.len()).collect();
        for order in [&mut node_order, &mut edge_order] {
            for i in (1..order.len()).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                order.swap(i, (state >> 33) as usize % (i + 1));
            }
        }
        let again = betweenness_in_order(n, &edges, &node_order, &edge_order, &BY_WEIGHT).unwrap();
        for (g, want) in again.iter().zip(&expected) {
            prop_assert!((g - want).abs() < 1e-9, "{:?} vs {:?}", again, expected);
        }
        // Every source sampled, unnormalised: the exact answer.
        let all = net.betweenness(&BetweennessOptions { sample: Some((n, shuffle)), ..BY_WEIGHT }).unwrap();
        for (g, want) in all.values.iter().zip(&expected) {
            prop_assert!((g - want).abs() < 1e-9, "{:?} vs {:?}", all.values, expected);
        }
    }

    #[test]
    fn weighted_betweenness_refuses_exactly_the_zero_weight_cycles(
        (n, edges) in tied_graph(false),
        k in 1usize..=3,
        seed in any::<u64>(),
    ) {
        let net = numbered::network(n, edges.iter().copied());
        let exact = net.betweenness(&BY_WEIGHT);
        let sampled = net.betweenness(&BetweennessOptions { sample: Some((k, seed)), ..BY_WEIGHT });
        if has_zero_cycle(n, &edges) {
            prop_assert_eq!(exact.unwrap_err().code(), "invalid_value");
            prop_assert_eq!(sampled.unwrap_err().code(), "invalid_value");
        } else {
            let expected = brute_weighted_betweenness(n, &edges);
            let got = exact.unwrap();
            for (g, want) in got.values.iter().zip(&expected) {
                prop_assert!((g - want).abs() < 1e-9, "{:?} vs {:?}", got.values, expected);
            }
            prop_assert!(sampled.is_ok());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn pagerank_is_a_distribution((n, edges) in graph(), weighted in any::<bool>()) {
        let net = numbered::network(n, edges.iter().copied());
        let ranks = net.pagerank(&PageRankOptions { weighted, ..PageRankOptions::default() }).unwrap();
        prop_assert!((ranks.values.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{:?}", ranks.values);
        prop_assert!(ranks.values.iter().all(|&v| v > 0.0));
    }

    #[test]
    fn betweenness_counts_the_shortest_paths_through_each_node((n, edges) in graph()) {
        let net = numbered::network(n, edges.iter().copied());
        let exact = net.betweenness(&BetweennessOptions::default()).unwrap();
        let expected = brute_betweenness(n, &edges);
        for (got, want) in exact.values.iter().zip(&expected) {
            prop_assert!((got - want).abs() < 1e-9, "{:?} vs {:?}", exact.values, expected);
        }
        // Every source sampled, normalised: the exact normalised answer.
        let normalized = BetweennessOptions { normalized: true, ..BetweennessOptions::default() };
        let all = net.betweenness(&BetweennessOptions { sample: Some((n, 3)), ..normalized }).unwrap();
        let full = net.betweenness(&normalized).unwrap();
        for (a, b) in all.values.iter().zip(&full.values) {
            prop_assert!((a - b).abs() < 1e-9);
        }
    }

    #[test]
    fn closeness_is_between_zero_and_one((n, edges) in graph(), weighted in any::<bool>()) {
        let net = numbered::network(n, edges.iter().copied());
        let c = net.closeness(weighted, true).unwrap();
        prop_assert!(c.values.iter().all(|&v| (0.0..=1.0).contains(&v) || weighted), "{:?}", c.values);
        prop_assert!(c.values.iter().all(|&v| v >= 0.0));
    }
}
