//! Properties of the centrality measures on small random multigraphs (parallel
//! edges and self-loops included), checked against brute force where one is
//! short: PageRank is a distribution, betweenness counts shortest paths through
//! each node, closeness stays within 0..=1, and a sample of every source is the
//! exact answer. (Agreement with NetworkX is tests/interop/test_centrality.py.)

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
