//! The whole-graph kernels against plain references written here, on random
//! multigraphs (parallel edges, self-loops, zero weights), before and after
//! interleaved writes (edges and nodes removed, edges added) that edit the
//! compact rows in place: direction-optimizing BFS depths, delta-stepping
//! distances (bit for bit what petgraph's Dijkstra finds), PageRank over the
//! rows (the power iteration on merged, row-stochastic links), and Afforest's
//! weak components (the union-find partition).

use std::collections::VecDeque;

use networks_mcp::network::bfs::UNREACHED;
use networks_mcp::network::centrality::PageRankOptions;
use networks_mcp::network::components::Connectivity;
use networks_mcp::network::{Network, SmolStr};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeIndexable};
use proptest::prelude::*;

use crate::numbered;

/// What is done to the network after the first check.
#[derive(Debug, Clone)]
enum Write {
    RemoveEdge(usize),
    RemoveNode(usize),
    AddEdge(usize, usize, f64),
}

fn weight() -> impl Strategy<Value = f64> {
    prop::sample::select(&[0.0, 0.5, 1.0, 2.0, 3.0, 0.1, 7.25, 1000.0][..])
}

fn case() -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>, Vec<Write>)> {
    (2usize..=24).prop_flat_map(|n| {
        let edges = prop::collection::vec((0..n, 0..n, weight()), 0..=80);
        let writes = prop::collection::vec(
            prop_oneof![
                (0usize..100).prop_map(Write::RemoveEdge),
                (0..n).prop_map(Write::RemoveNode),
                (0..n, 0..n, weight()).prop_map(|(a, b, w)| Write::AddEdge(a, b, w)),
            ],
            0..=12,
        );
        (edges, writes).prop_map(move |(edges, writes)| (n, edges, writes))
    })
}

/// The live edges as (source index, target index, weight).
fn edges(net: &Network) -> Vec<(usize, usize, f64)> {
    net.graph()
        .edge_references()
        .map(|e| (e.source().index(), e.target().index(), e.weight().weight))
        .collect()
}

fn reference_depths(net: &Network, start: NodeIndex) -> Vec<u32> {
    let bound = net.graph().node_bound();
    let mut out = vec![Vec::new(); bound];
    for (a, b, _) in edges(net) {
        out[a].push(b);
    }
    let mut depth = vec![UNREACHED; bound];
    depth[start.index()] = 0;
    let mut queue = VecDeque::from([start.index()]);
    while let Some(u) = queue.pop_front() {
        for &v in &out[u] {
            if depth[v] == UNREACHED {
                depth[v] = depth[u] + 1;
                queue.push_back(v);
            }
        }
    }
    depth
}

/// The power iteration as it stood before the rows: per node, its out-links
/// merged by target (weights summed) and divided by the out-weight.
fn reference_pagerank(net: &Network, weighted: bool) -> Vec<f64> {
    let nodes: Vec<NodeIndex> = net.graph().node_indices().collect();
    let n = nodes.len();
    let bound = net.graph().node_bound();
    let mut links = vec![Vec::new(); bound];
    for (a, b, w) in edges(net) {
        links[a].push((b, if weighted { w } else { 1.0 }));
    }
    let mut x = vec![0.0; bound];
    for u in &nodes {
        x[u.index()] = 1.0 / n as f64;
    }
    let jump = 1.0 / n as f64;
    for _ in 0..100 {
        let mut next = vec![0.0; bound];
        let mut lost = 0.0;
        for u in &nodes {
            let row = &links[u.index()];
            let total: f64 = row.iter().map(|l| l.1).sum();
            if total == 0.0 {
                lost += x[u.index()];
                continue;
            }
            for &(v, w) in row {
                next[v] += x[u.index()] * w / total;
            }
        }
        let mut moved = 0.0;
        for u in &nodes {
            let value = 0.85 * (next[u.index()] + lost * jump) + 0.15 * jump;
            moved += (value - x[u.index()]).abs();
            next[u.index()] = value;
        }
        x = next;
        if moved < n as f64 * 1e-6 {
            break;
        }
    }
    nodes.iter().map(|u| x[u.index()]).collect()
}

/// The weak partition as the smallest index of each node's component.
fn reference_weak(net: &Network) -> Vec<usize> {
    let bound = net.graph().node_bound();
    let mut label: Vec<usize> = (0..bound).collect();
    // Relabel to the smaller until nothing changes: slow and plainly right.
    loop {
        let mut changed = false;
        for (a, b, _) in edges(net) {
            let low = label[a].min(label[b]);
            for end in [a, b] {
                if label[end] != low {
                    label[end] = low;
                    changed = true;
                }
            }
        }
        if !changed {
            return label;
        }
    }
}

fn check(net: &Network) -> Result<(), TestCaseError> {
    let nodes: Vec<NodeIndex> = net.graph().node_indices().collect();
    for &start in &nodes {
        let depth = net.bfs_depths_by_index(start);
        prop_assert_eq!(&depth, &reference_depths(net, start));
        // The order visits exactly the nodes reached, level by level.
        let order = net.bfs_order_by_index(start);
        prop_assert_eq!(
            order.len(),
            depth.iter().filter(|&&d| d != UNREACHED).count()
        );
        prop_assert!(
            order
                .windows(2)
                .all(|w| depth[w[0].index()] <= depth[w[1].index()])
        );

        let dist = net.dijkstra_distances_by_index(start).unwrap();
        let want = petgraph::algo::dijkstra(net.graph(), start, None, |e| e.weight().weight);
        prop_assert_eq!(dist.len(), net.graph().node_bound());
        for (v, got) in dist.iter().enumerate() {
            let expected = want
                .get(&NodeIndex::new(v))
                .copied()
                .unwrap_or(f64::INFINITY);
            prop_assert_eq!(got.to_bits(), expected.to_bits(), "node {}", v);
        }
    }
    if !nodes.is_empty() {
        for weighted in [false, true] {
            let options = PageRankOptions {
                weighted,
                ..PageRankOptions::default()
            };
            let got = net.pagerank(&options).unwrap();
            prop_assert_eq!(&got.nodes, &nodes);
            let want = reference_pagerank(net, weighted);
            for (g, w) in got.values.iter().zip(&want) {
                prop_assert!((g - w).abs() < 1e-9, "{:?} vs {:?}", got.values, want);
            }
        }
    }
    let weak = net.components(Connectivity::Weak);
    let label = reference_weak(net);
    // The labels themselves: the smallest index of each component, on one
    // thread or two.
    let want: Vec<u32> = label.iter().map(|&l| l as u32).collect();
    for threads in [1, 2] {
        prop_assert_eq!(&net.weak_component_labels(threads), &want);
    }
    let mut seen = 0;
    for component in &weak {
        let first = label[component[0].index()];
        prop_assert!(component.iter().all(|v| label[v.index()] == first));
        seen += component.len();
    }
    prop_assert_eq!(seen, nodes.len());
    let distinct: std::collections::HashSet<usize> =
        nodes.iter().map(|v| label[v.index()]).collect();
    prop_assert_eq!(weak.len(), distinct.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn kernels_match_their_references_before_and_after_writes((n, edges, writes) in case()) {
        let mut net = numbered::network(n, edges.iter().copied());
        // Built now, so the writes below edit the rows in place.
        let _ = net.adjacency();
        check(&net)?;
        for write in writes {
            match write {
                Write::RemoveEdge(k) => {
                    let _ = net.remove_edge(k as u64);
                }
                Write::RemoveNode(i) => {
                    let _ = net.remove_node(&numbered::id(i));
                }
                Write::AddEdge(a, b, w) => {
                    let ids: [SmolStr; 2] = [numbered::id(a).into(), numbered::id(b).into()];
                    if ids.iter().all(|id| net.contains_node(id)) {
                        net.add_edge(&ids[0], &ids[1], w).unwrap();
                    }
                }
            }
        }
        check(&net)?;
    }
}

/// Weights far heavier than the mean: their distances wait past the ring of
/// buckets (or, spread over many orders of magnitude, the call falls back to
/// Dijkstra); either way the distances are Dijkstra's, bit for bit.
#[test]
fn distances_past_the_ring_of_buckets_are_dijkstras() {
    for (seed, heavy) in [(1u64, 1e6), (2, 1e9), (3, 1e15), (4, 1e300)] {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let n = 3000;
        let mut edges = Vec::new();
        // Half the nodes: a random tree of light edges from node 0, with
        // light shortcuts. The other half: ten blocks, each a light tree
        // entered only by one heavy edge, 3^j times heavier for block j, so
        // their distances spread far past the ring.
        let half = n / 2;
        for i in 1..half {
            edges.push((next() % i, i, 1.0 + (next() % 4) as f64));
        }
        for k in 0..100 {
            edges.push((next() % half, next() % half, 0.25 * (k % 3) as f64));
        }
        let block = (n - half) / 10;
        for j in 0..10 {
            let root = half + j * block;
            edges.push((next() % half, root, heavy * 3f64.powi(j as i32)));
            for i in 1..block {
                edges.push((root + next() % i, root + i, 1.0 + (next() % 4) as f64));
            }
        }
        let net = numbered::network(n, edges);
        let start = NodeIndex::new(0);
        let dist = net.dijkstra_distances_by_index(start).unwrap();
        let want = petgraph::algo::dijkstra(net.graph(), start, None, |e| e.weight().weight);
        for (v, got) in dist.iter().enumerate() {
            let expected = want[&NodeIndex::new(v)];
            assert_eq!(got.to_bits(), expected.to_bits(), "heavy {heavy}: node {v}");
        }
    }
}

/// PageRank, BFS and weak components on many threads answer as on one,
/// PageRank bit for bit (each node's rank is computed alone, and the movement
/// is summed block by block in order). On a network with vacant indices (the
/// first nodes removed) and self-loops, dense and sparse. (Weak components
/// share their forest among threads only from 131,072 node indices:
/// [`weak_labels_on_threads_answer_as_on_one`] tests that.)
#[test]
fn kernels_on_threads_answer_as_on_one() {
    for (seed, edges_per_node) in [(7, 5.0), (11, 0.55), (13, 0.9)] {
        kernels_on_threads_answer_as_on_one_in(seed, edges_per_node);
    }
}

fn kernels_on_threads_answer_as_on_one_in(seed: u64, edges_per_node: f64) {
    let n = 20_000;
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let edges: Vec<(usize, usize, f64)> = (0..(edges_per_node * n as f64) as usize)
        .map(|_| (next() % n, next() % n, 1.0))
        .collect();
    let mut net = numbered::network(n, edges);
    for i in [0, 1, 2, 4095, 4096, 9000] {
        net.remove_node(&numbered::id(i)).unwrap();
    }
    let ranks = |weighted: bool, threads: usize| {
        net.pagerank(&PageRankOptions {
            weighted,
            threads,
            ..PageRankOptions::default()
        })
        .unwrap()
    };
    let one = ranks(false, 1);
    let same_bits = |values: &[f64]| {
        values
            .iter()
            .zip(&one.values)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    };
    for threads in [2, 3, 8] {
        let many = ranks(false, threads);
        assert_eq!(many.nodes, one.nodes);
        assert!(same_bits(&many.values), "{threads} threads");
    }
    // Every weight is 1: following weights is counting edges, to the bit,
    // on any number of threads.
    for threads in [1, 2] {
        assert!(
            same_bits(&ranks(true, threads).values),
            "by weight, {threads} threads"
        );
    }
    let want = reference_pagerank(&net, false);
    for (got, want) in one.values.iter().zip(&want) {
        assert!((got - want).abs() < 1e-9);
    }
    let weak = net.components(Connectivity::Weak);
    let label = reference_weak(&net);
    let first_of = |c: &Vec<NodeIndex>| label[c[0].index()];
    assert!(
        weak.iter()
            .all(|c| c.iter().all(|v| label[v.index()] == first_of(c)))
    );
    let distinct: std::collections::HashSet<usize> = weak.iter().map(first_of).collect();
    assert_eq!(distinct.len(), weak.len());
    assert_eq!(weak.iter().map(Vec::len).sum::<usize>(), net.node_count());
    for threads in [2, 3, 8] {
        assert_eq!(
            net.components_on_threads(Connectivity::Weak, threads),
            weak,
            "{threads} threads"
        );
    }
    for start in [3, 77, 19_999] {
        let start = net.index_of(&numbered::id(start)).unwrap();
        let want = reference_depths(&net, start);
        for threads in [1, 2, 3, 8] {
            assert_eq!(
                net.bfs_depths_on_threads(start, threads),
                want,
                "{threads} threads"
            );
        }
    }
}

/// Delta-stepping with its large buckets shared among threads: the distances
/// are petgraph's Dijkstra's, bit for bit, on any number of threads, on a
/// graph of 60,000 nodes whose buckets hold tens of thousands of nodes
/// (weights from 0 to 1000, most far below the bucket width), with parallel
/// edges, self-loops and removed nodes.
#[test]
fn distances_on_threads_are_dijkstras() {
    let n = 60_000;
    let mut state = 29u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let weights = [0.0, 0.5, 1.0, 2.0, 3.0, 0.1, 7.25, 1000.0];
    let mut edges: Vec<(usize, usize, f64)> = (0..5 * n)
        .map(|_| (next() % n, next() % n, weights[next() % weights.len()]))
        .collect();
    edges.extend((0..100).map(|i| (i, i, 1.0)));
    edges.extend((0..100).map(|i| (i, i + 1, 2.0)));
    let mut net = numbered::network(n, edges);
    for i in [5, 4096, 12_345] {
        net.remove_node(&numbered::id(i)).unwrap();
    }
    for start in [0, 3, 59_999] {
        let start = net.index_of(&numbered::id(start)).unwrap();
        let want = petgraph::algo::dijkstra(net.graph(), start, None, |e| e.weight().weight);
        let reached = want.len();
        assert!(
            reached > 40_000,
            "{reached} reached: too few to share buckets"
        );
        for threads in [1, 2, 3, 8] {
            let got = net.dijkstra_distances_on_threads(start, threads).unwrap();
            for (v, got) in got.iter().enumerate() {
                let expected = want
                    .get(&NodeIndex::new(v))
                    .copied()
                    .unwrap_or(f64::INFINITY);
                assert_eq!(
                    got.to_bits(),
                    expected.to_bits(),
                    "node {v}, {threads} threads"
                );
            }
        }
    }
}

/// Weak components of a network large enough that its forest is shared among
/// threads: the same labels on two and eight threads as on one, and the
/// partition a plain union-find finds; sparse (many components, so threads
/// link the same trees at once) and dense, with removed nodes.
#[test]
fn weak_labels_on_threads_answer_as_on_one() {
    let n = 150_000;
    for (seed, edges_per_node) in [(17u64, 0.9), (19, 3.0)] {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let list: Vec<(usize, usize, f64)> = (0..(edges_per_node * n as f64) as usize)
            .map(|_| (next() % n, next() % n, 1.0))
            .collect();
        let mut net = numbered::network(n, list);
        for i in [0, 70_000, 149_999] {
            net.remove_node(&numbered::id(i)).unwrap();
        }
        let one = net.weak_component_labels(1);
        for threads in [2, 8] {
            assert!(
                net.weak_component_labels(threads) == one,
                "{threads} threads"
            );
        }
        // A plain union-find over the edges left: the same partition, and
        // each label the smallest index of its component.
        let mut parent: Vec<usize> = (0..one.len()).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for (a, b, _) in edges(&net) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
        for v in net.graph().node_indices() {
            assert_eq!(
                one[v.index()] as usize,
                root(&mut parent, v.index()),
                "node {}",
                v.index()
            );
        }
    }
}
