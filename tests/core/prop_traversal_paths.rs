//! Properties of traversal, reachability and shortest paths, checked against
//! brute-force oracles on small random multigraphs (≤ 8 nodes, ≤ 20 edges, parallel
//! edges and self-loops included), plus hand-made examples.

use crate::numbered;

use std::collections::VecDeque;

use networks_mcp::Error;
use networks_mcp::network::traversal::{Reach, Traversal, TraversalOrder, Visit};
use networks_mcp::network::{Direction, Network, TraverseOptions, Weighted};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;

const DIRECTIONS: [Direction; 3] = [Direction::Out, Direction::In, Direction::Both];

/// A random graph: node count and edges `(source, target, weight)`, weights integral.
#[derive(Debug, Clone)]
struct Spec {
    n: usize,
    edges: Vec<(usize, usize, i64)>,
}

fn spec(weights: &'static [i64]) -> impl Strategy<Value = Spec> {
    (1usize..=8).prop_flat_map(move |n| {
        prop::collection::vec((0..n, 0..n, prop::sample::select(weights)), 0..=20)
            .prop_map(move |edges| Spec { n, edges })
    })
}

/// The network of a spec: nodes "n0".."n{n-1}", edge `i` of the spec has id `i`.
fn build(spec: &Spec) -> (Network, Vec<NodeIndex>) {
    let net = numbered::network(spec.n, spec.edges.iter().map(|&(a, b, w)| (a, b, w as f64)));
    let ix = numbered::indices(&net, spec.n);
    (net, ix)
}

/// Node number of an index (the spec's numbering).
fn num(ix: &[NodeIndex], node: NodeIndex) -> usize {
    ix.iter().position(|&x| x == node).unwrap()
}

/// The edges as followed in `direction`: `(from, to)` pairs.
fn arcs(spec: &Spec, direction: Direction) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &(a, b, _) in &spec.edges {
        if matches!(direction, Direction::Out | Direction::Both) {
            out.push((a, b));
        }
        if matches!(direction, Direction::In | Direction::Both) {
            out.push((b, a));
        }
    }
    out
}

/// Transitive closure by repeated relaxation: `r[i][j]` iff a walk of ≥ 1 arc leads i → j.
fn closure(spec: &Spec, direction: Direction) -> Vec<Vec<bool>> {
    let n = spec.n;
    let arcs = arcs(spec, direction);
    let mut r = vec![vec![false; n]; n];
    for &(a, b) in &arcs {
        r[a][b] = true;
    }
    loop {
        let mut changed = false;
        for row in r.iter_mut() {
            for &(k, j) in &arcs {
                if row[k] && !row[j] {
                    row[j] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return r;
        }
    }
}

/// Hop distances from a set of sources (0 for sources) by relaxation; `None` = unreachable.
fn hops_from(spec: &Spec, direction: Direction, sources: &[usize]) -> Vec<Option<usize>> {
    let mut d = vec![None; spec.n];
    for &s in sources {
        d[s] = Some(0);
    }
    let arcs = arcs(spec, direction);
    for _ in 0..spec.n {
        for &(a, b) in &arcs {
            if let Some(da) = d[a]
                && d[b].is_none_or(|db| da + 1 < db)
            {
                d[b] = Some(da + 1);
            }
        }
    }
    d
}

/// Reference BFS written the obvious way over `neighbor_indices`.
fn model_bfs(
    net: &Network,
    starts: &[NodeIndex],
    direction: Direction,
    max_depth: Option<usize>,
) -> Vec<Visit> {
    let mut seen = std::collections::HashSet::new();
    let mut visits = Vec::new();
    let mut queue = VecDeque::new();
    for &s in starts {
        if seen.insert(s) {
            visits.push(Visit {
                node: s,
                depth: 0,
                parent: None,
            });
            queue.push_back((s, 0));
        }
    }
    while let Some((u, d)) = queue.pop_front() {
        if max_depth.is_some_and(|m| d >= m) {
            continue;
        }
        for v in net.neighbor_indices(u, direction) {
            if seen.insert(v) {
                visits.push(Visit {
                    node: v,
                    depth: d + 1,
                    parent: Some(u),
                });
                queue.push_back((v, d + 1));
            }
        }
    }
    visits
}

/// Reference recursive preorder DFS over `neighbor_indices`; all starts pre-marked.
fn model_dfs(
    net: &Network,
    starts: &[NodeIndex],
    direction: Direction,
    max_depth: Option<usize>,
) -> Vec<Visit> {
    fn go(
        net: &Network,
        u: NodeIndex,
        d: usize,
        direction: Direction,
        max_depth: Option<usize>,
        seen: &mut std::collections::HashSet<NodeIndex>,
        visits: &mut Vec<Visit>,
    ) {
        if max_depth.is_some_and(|m| d >= m) {
            return;
        }
        for v in net.neighbor_indices(u, direction) {
            if seen.insert(v) {
                visits.push(Visit {
                    node: v,
                    depth: d + 1,
                    parent: Some(u),
                });
                go(net, v, d + 1, direction, max_depth, seen, visits);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let roots: Vec<NodeIndex> = starts.iter().copied().filter(|&s| seen.insert(s)).collect();
    let mut visits = Vec::new();
    for r in roots {
        visits.push(Visit {
            node: r,
            depth: 0,
            parent: None,
        });
        go(net, r, 0, direction, max_depth, &mut seen, &mut visits);
    }
    visits
}

/// Minimum weight of each ordered pair's parallel edges (self-loops excluded).
fn min_weights(spec: &Spec) -> Vec<Vec<Option<i64>>> {
    let mut m = vec![vec![None; spec.n]; spec.n];
    for &(a, b, w) in &spec.edges {
        if a != b {
            m[a][b] = Some(m[a][b].map_or(w, |x: i64| x.min(w)));
        }
    }
    m
}

/// Least weight over all simple paths from `from` to every node (0 to itself).
fn brute_min_weights(spec: &Spec, from: usize) -> Vec<Option<i64>> {
    fn go(
        m: &[Vec<Option<i64>>],
        u: usize,
        w: i64,
        on_path: &mut Vec<bool>,
        best: &mut Vec<Option<i64>>,
    ) {
        if best[u].is_none_or(|b| w < b) {
            best[u] = Some(w);
        }
        for v in 0..m.len() {
            if let (Some(e), false) = (m[u][v], on_path[v]) {
                on_path[v] = true;
                go(m, v, w + e, on_path, best);
                on_path[v] = false;
            }
        }
    }
    let m = min_weights(spec);
    let mut best = vec![None; spec.n];
    let mut on_path = vec![false; spec.n];
    on_path[from] = true;
    go(&m, from, 0, &mut on_path, &mut best);
    best
}

/// Whether some simple cycle of negative total weight has a node reachable from `from`.
fn brute_negative_cycle(spec: &Spec, from: usize) -> bool {
    fn cycle_from(
        m: &[Vec<Option<i64>>],
        start: usize,
        u: usize,
        w: i64,
        on_path: &mut Vec<bool>,
    ) -> bool {
        for v in 0..m.len() {
            let Some(e) = m[u][v] else { continue };
            if v == start && w + e < 0 {
                return true;
            }
            if !on_path[v] {
                on_path[v] = true;
                let found = cycle_from(m, start, v, w + e, on_path);
                on_path[v] = false;
                if found {
                    return true;
                }
            }
        }
        false
    }
    let m = min_weights(spec);
    let reach = closure(spec, Direction::Out);
    (0..spec.n)
        .filter(|&c| c == from || reach[from][c])
        .any(|c| {
            let negative_loop = spec
                .edges
                .iter()
                .any(|&(a, b, w)| a == c && b == c && w < 0);
            let mut on_path = vec![false; spec.n];
            on_path[c] = true;
            negative_loop || cycle_from(&m, c, c, 0, &mut on_path)
        })
}

/// Checks that `path` is a real path from `from` to `to` whose edges are the
/// best parallel edge at each step, and returns its weight.
fn check_path(
    spec: &Spec,
    ix: &[NodeIndex],
    path: &networks_mcp::network::paths::Path,
    from: usize,
    to: usize,
    weighted: bool,
) -> f64 {
    assert_eq!(path.nodes.first(), Some(&ix[from]));
    assert_eq!(path.nodes.last(), Some(&ix[to]));
    assert_eq!(path.hops, path.edges.len());
    assert_eq!(path.nodes.len(), path.hops + 1);
    let mut sum = 0.0;
    for (k, &id) in path.edges.iter().enumerate() {
        let (a, b, w) = spec.edges[id as usize];
        assert_eq!(ix[a], path.nodes[k]);
        assert_eq!(ix[b], path.nodes[k + 1]);
        // The best of the parallel edges: lightest (weighted) then lowest id.
        let best = spec
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.0 == a && e.1 == b)
            .min_by_key(|(i, e)| (if weighted { e.2 } else { 0 }, *i))
            .map(|(i, _)| i as u64);
        assert_eq!(best, Some(id));
        sum += w as f64;
    }
    assert_eq!(sum, path.total_weight);
    sum
}

fn reach_nums(ix: &[NodeIndex], reach: &Reach) -> Vec<(usize, usize)> {
    reach.nodes.iter().map(|&(n, d)| (num(ix, n), d)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `reachable` equals the brute-force closure minus the start, with BFS hop
    /// distances, sorted by distance; `max_depth` and `limit` cut it consistently.
    #[test]
    fn reachable_matches_closure(
        s in spec(&[0, 1, 2, 5]),
        start in 0usize..8,
        max_depth in prop::option::of(0usize..4),
        limit in 0usize..10,
    ) {
        let (net, ix) = build(&s);
        let start = start % s.n;
        for direction in DIRECTIONS {
            let r = closure(&s, direction);
            let hops = hops_from(&s, direction, &[start]);
            let full = net.reachable_by_index(ix[start], direction, None, usize::MAX);
            let mut expected: Vec<usize> = (0..s.n).filter(|&j| j != start && r[start][j]).collect();
            let mut got: Vec<usize> = full.nodes.iter().map(|&(n, _)| num(&ix, n)).collect();
            prop_assert!(got.windows(2).all(|w| w[0] != w[1]));
            expected.sort();
            got.sort();
            prop_assert_eq!(&got, &expected);
            for &(n, d) in &full.nodes {
                prop_assert_eq!(Some(d), hops[num(&ix, n)]);
            }
            prop_assert!(full.nodes.windows(2).all(|w| w[0].1 <= w[1].1));
            prop_assert_eq!(full.total, full.nodes.len());
            prop_assert!(!full.truncated);

            let within: Vec<(usize, usize)> = reach_nums(&ix, &full)
                .into_iter()
                .filter(|&(_, d)| max_depth.is_none_or(|m| d <= m))
                .collect();
            let cut = net.reachable_by_index(ix[start], direction, max_depth, limit);
            let cut_nums = reach_nums(&ix, &cut);
            prop_assert_eq!(&cut_nums[..], &within[..within.len().min(limit)]);
            prop_assert_eq!(cut.total, within.len());
            prop_assert_eq!(cut.truncated, within.len() > limit);
        }
    }

    /// BFS `traverse` visits the starts plus everything reachable from them, at
    /// hop distance from the nearest start, each via a real neighbor one level up;
    /// bounded runs are prefixes; DFS covers the same set; both equal the models.
    #[test]
    fn traverse_matches_models(
        s in spec(&[1]),
        starts in prop::collection::vec(0usize..8, 1..4),
        max_depth in prop::option::of(0usize..4),
        limit in 0usize..10,
    ) {
        let (net, ix) = build(&s);
        let start_nums: Vec<usize> = starts.iter().map(|&x| x % s.n).collect();
        let starts: Vec<NodeIndex> = start_nums.iter().map(|&x| ix[x]).collect();
        for direction in DIRECTIONS {
            let arcs = arcs(&s, direction);
            let r = closure(&s, direction);
            let hops = hops_from(&s, direction, &start_nums);
            let bfs = net.traverse_by_index(&starts, TraverseOptions { order: TraversalOrder::Bfs, direction, max_depth: None, limit: usize::MAX });
            prop_assert!(!bfs.truncated);
            let mut got: Vec<usize> = bfs.visits.iter().map(|v| num(&ix, v.node)).collect();
            got.sort();
            let mut expected: Vec<usize> = (0..s.n)
                .filter(|&j| start_nums.contains(&j) || start_nums.iter().any(|&a| r[a][j]))
                .collect();
            expected.sort();
            prop_assert_eq!(&got, &expected);
            for (k, v) in bfs.visits.iter().enumerate() {
                let node = num(&ix, v.node);
                prop_assert_eq!(Some(v.depth), hops[node]);
                match v.parent {
                    None => prop_assert_eq!(v.depth, 0),
                    Some(p) => {
                        let parent = bfs.visits.iter().find(|w| w.node == p).unwrap();
                        prop_assert_eq!(parent.depth + 1, v.depth);
                        prop_assert!(arcs.contains(&(num(&ix, p), node)));
                    }
                }
                if v.depth == 0 {
                    prop_assert!(start_nums.contains(&node));
                    prop_assert!(k < start_nums.len());
                }
            }
            prop_assert_eq!(&bfs.visits, &model_bfs(&net, &starts, direction, None));

            // Bounded BFS: the depth-filtered unbounded order, cut at `limit`.
            let within: Vec<Visit> = bfs
                .visits
                .iter()
                .filter(|v| max_depth.is_none_or(|m| v.depth <= m))
                .cloned()
                .collect();
            let cut = net.traverse_by_index(&starts, TraverseOptions { order: TraversalOrder::Bfs, direction, max_depth, limit });
            prop_assert_eq!(&cut.visits[..], &within[..within.len().min(limit)]);
            prop_assert_eq!(cut.truncated, within.len() > limit);

            // DFS: same set unbounded; exact model order; preorder parent structure.
            let dfs = net.traverse_by_index(&starts, TraverseOptions { order: TraversalOrder::Dfs, direction, max_depth: None, limit: usize::MAX });
            prop_assert!(!dfs.truncated);
            let mut dfs_set: Vec<usize> = dfs.visits.iter().map(|v| num(&ix, v.node)).collect();
            dfs_set.sort();
            prop_assert_eq!(&dfs_set, &expected);
            prop_assert_eq!(&dfs.visits, &model_dfs(&net, &starts, direction, None));
            for k in 1..dfs.visits.len() {
                let v = &dfs.visits[k];
                if let Some(p) = v.parent {
                    // The parent is the previous visit or one of its ancestors.
                    let mut cur = Some(&dfs.visits[k - 1]);
                    while let Some(c) = cur.filter(|c| c.node != p) {
                        cur = c.parent.and_then(|q| dfs.visits.iter().find(|w| w.node == q));
                    }
                    let parent = cur.unwrap();
                    prop_assert_eq!(parent.depth + 1, v.depth);
                    prop_assert!(arcs.contains(&(num(&ix, p), num(&ix, v.node))));
                }
            }
            let dfs_full = net.traverse_by_index(&starts, TraverseOptions { order: TraversalOrder::Dfs, direction, max_depth, limit: usize::MAX });
            prop_assert_eq!(&dfs_full.visits, &model_dfs(&net, &starts, direction, max_depth));
            prop_assert!(dfs_full.visits.iter().all(|v| max_depth.is_none_or(|m| v.depth <= m)));
            let dfs_cut = net.traverse_by_index(&starts, TraverseOptions { order: TraversalOrder::Dfs, direction, max_depth, limit });
            prop_assert_eq!(&dfs_cut.visits[..], &dfs_full.visits[..dfs_full.visits.len().min(limit)]);
            prop_assert_eq!(dfs_cut.truncated, dfs_full.visits.len() > limit);
        }
    }

    /// Weighted shortest paths (non-negative weights) are as light as the best simple
    /// path; unweighted ones have BFS hop counts; `None` exactly when unreachable.
    #[test]
    fn shortest_paths_match_exhaustive_search(s in spec(&[0, 1, 2, 3, 7])) {
        let (net, ix) = build(&s);
        let r = closure(&s, Direction::Out);
        for from in 0..s.n {
            let best = brute_min_weights(&s, from);
            let hops = hops_from(&s, Direction::Out, &[from]);
            let dist = net.dijkstra_distances_by_index(ix[from]).unwrap();
            for to in 0..s.n {
                let reachable = from == to || r[from][to];
                prop_assert_eq!(best[to].is_some(), reachable);
                prop_assert_eq!(dist[ix[to].index()], best[to].map_or(f64::INFINITY, |w| w as f64));

                let weighted = net.shortest_path_by_index(ix[from], ix[to], Weighted::Yes).unwrap();
                prop_assert_eq!(weighted.is_some(), reachable);
                if let Some(path) = &weighted {
                    let w = check_path(&s, &ix, path, from, to, true);
                    prop_assert_eq!(Some(w), best[to].map(|b| b as f64));
                }
                let fewest = net.shortest_path_by_index(ix[from], ix[to], Weighted::No).unwrap();
                prop_assert_eq!(fewest.is_some(), reachable);
                if let Some(path) = &fewest {
                    check_path(&s, &ix, path, from, to, false);
                    prop_assert_eq!(Some(path.hops), hops[to]);
                }
            }
        }
    }

    /// With negative weights: a negative cycle reachable from `from` is reported for
    /// every target; otherwise the weighted path is as light as the best simple path.
    /// Unweighted search ignores weights; Dijkstra distances refuse negative weights.
    #[test]
    fn negative_weights_match_exhaustive_search(s in spec(&[-3, -1, 0, 1, 2, 4])) {
        let (net, ix) = build(&s);
        let r = closure(&s, Direction::Out);
        let any_negative = s.edges.iter().any(|e| e.2 < 0);
        for from in 0..s.n {
            prop_assert_eq!(net.dijkstra_distances_by_index(ix[from]).is_err(), any_negative);
            let negative_cycle = brute_negative_cycle(&s, from);
            let best = brute_min_weights(&s, from);
            let hops = hops_from(&s, Direction::Out, &[from]);
            for to in 0..s.n {
                let reachable = from == to || r[from][to];
                match net.shortest_path_by_index(ix[from], ix[to], Weighted::Yes) {
                    Err(Error::NegativeCycle { source_id }) => {
                        prop_assert!(negative_cycle);
                        prop_assert_eq!(source_id, format!("n{from}"));
                    }
                    Err(other) => prop_assert!(false, "unexpected error {other}"),
                    Ok(found) => {
                        prop_assert!(!negative_cycle);
                        prop_assert_eq!(found.is_some(), reachable);
                        if let Some(path) = &found {
                            let w = check_path(&s, &ix, path, from, to, true);
                            prop_assert_eq!(Some(w), best[to].map(|b| b as f64));
                        }
                    }
                }
                let fewest = net.shortest_path_by_index(ix[from], ix[to], Weighted::No).unwrap();
                prop_assert_eq!(fewest.is_some(), reachable);
                if let Some(path) = &fewest {
                    check_path(&s, &ix, path, from, to, false);
                    prop_assert_eq!(Some(path.hops), hops[to]);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Hand-made examples
// ---------------------------------------------------------------------------

fn network(nodes: &[&str], edges: &[(&str, &str, f64)]) -> Network {
    let mut net = Network::new();
    for id in nodes {
        net.add_node(id).unwrap();
    }
    for &(a, b, w) in edges {
        net.add_edge(a, b, w).unwrap();
    }
    net
}

fn seed() -> Network {
    network(
        &["agents", "logging", "cli"],
        &[("agents", "logging", 1.0), ("cli", "agents", 1.0)],
    )
}

fn ids<'a>(net: &'a Network, reach: &Reach) -> Vec<(&'a str, usize)> {
    reach
        .nodes
        .iter()
        .map(|&(n, d)| (net.id_at(n), d))
        .collect()
}

fn visit_ids<'a>(net: &'a Network, t: &Traversal) -> Vec<(&'a str, usize, Option<&'a str>)> {
    t.visits
        .iter()
        .map(|v| (net.id_at(v.node), v.depth, v.parent.map(|p| net.id_at(p))))
        .collect()
}

#[test]
fn seed_reachability() {
    let net = seed();
    let ix = |id| net.index_of(id).unwrap();
    let all = usize::MAX;
    assert_eq!(
        ids(
            &net,
            &net.reachable_by_index(ix("cli"), Direction::Out, None, all)
        ),
        [("agents", 1), ("logging", 2)]
    );
    assert_eq!(
        ids(
            &net,
            &net.reachable_by_index(ix("logging"), Direction::In, None, all)
        ),
        [("agents", 1), ("cli", 2)]
    );
    assert_eq!(
        ids(
            &net,
            &net.reachable_by_index(ix("agents"), Direction::Both, None, all)
        ),
        [("logging", 1), ("cli", 1)]
    );
    assert!(
        net.reachable_by_index(ix("logging"), Direction::Out, None, all)
            .nodes
            .is_empty()
    );
    let near = net.reachable_by_index(ix("cli"), Direction::Out, Some(1), all);
    assert_eq!(ids(&net, &near), [("agents", 1)]);
    assert_eq!((near.total, near.truncated), (1, false));
}

#[test]
fn seed_traversal_and_paths() {
    let net = seed();
    let ix = |id| net.index_of(id).unwrap();
    let t = net.traverse_by_index(
        &[ix("agents")],
        TraverseOptions {
            order: TraversalOrder::Bfs,
            direction: Direction::Both,
            max_depth: None,
            limit: 10,
        },
    );
    assert_eq!(
        visit_ids(&net, &t),
        [
            ("agents", 0, None),
            ("logging", 1, Some("agents")),
            ("cli", 1, Some("agents"))
        ]
    );
    let p = net
        .shortest_path_by_index(ix("cli"), ix("logging"), Weighted::Yes)
        .unwrap()
        .unwrap();
    assert_eq!(p.nodes, [ix("cli"), ix("agents"), ix("logging")]);
    assert_eq!((p.edges, p.total_weight, p.hops), (vec![1, 0], 2.0, 2));
    assert_eq!(
        net.shortest_path_by_index(ix("logging"), ix("cli"), Weighted::Yes)
            .unwrap(),
        None
    );
    assert_eq!(
        net.shortest_path_by_index(ix("logging"), ix("cli"), Weighted::No)
            .unwrap(),
        None
    );
    let same = net
        .shortest_path_by_index(ix("cli"), ix("cli"), Weighted::No)
        .unwrap()
        .unwrap();
    assert_eq!(
        (same.nodes, same.edges, same.total_weight, same.hops),
        (vec![ix("cli")], vec![], 0.0, 0)
    );
}

#[test]
fn start_on_a_cycle_is_not_reachable_from_itself() {
    let net = network(
        &["a", "b", "c"],
        &[
            ("a", "a", 1.0),
            ("a", "b", 1.0),
            ("b", "a", 1.0),
            ("b", "c", 1.0),
        ],
    );
    let a = net.index_of("a").unwrap();
    let reach = net.reachable_by_index(a, Direction::Out, None, 10);
    assert_eq!(ids(&net, &reach), [("b", 1), ("c", 2)]);
    assert_eq!(reach.total, 2);
}

#[test]
fn neighbor_order_is_insertion_order() {
    // petgraph lists edges newest first; results must follow insertion order.
    let net = network(
        &["root", "w", "x", "y", "z"],
        &[
            ("root", "x", 1.0),
            ("root", "w", 1.0),
            ("root", "z", 1.0),
            ("root", "x", 1.0),
            ("y", "root", 1.0),
        ],
    );
    let root = net.index_of("root").unwrap();
    for order in [TraversalOrder::Bfs, TraversalOrder::Dfs] {
        let t = net.traverse_by_index(
            &[root],
            TraverseOptions {
                order,
                direction: Direction::Both,
                max_depth: None,
                limit: 10,
            },
        );
        let got: Vec<&str> = t.visits.iter().map(|v| net.id_at(v.node)).collect();
        assert_eq!(got, ["root", "x", "w", "z", "y"]);
    }
}

#[test]
fn dfs_is_preorder_with_tree_depths() {
    let net = network(
        &["a", "b", "c", "d"],
        &[
            ("a", "b", 1.0),
            ("b", "c", 1.0),
            ("a", "c", 1.0),
            ("c", "d", 1.0),
        ],
    );
    let a = net.index_of("a").unwrap();
    let t = net.traverse_by_index(
        &[a],
        TraverseOptions {
            order: TraversalOrder::Dfs,
            direction: Direction::Out,
            max_depth: None,
            limit: 10,
        },
    );
    assert_eq!(
        visit_ids(&net, &t),
        [
            ("a", 0, None),
            ("b", 1, Some("a")),
            ("c", 2, Some("b")),
            ("d", 3, Some("c"))
        ]
    );
    // With max_depth 2, c is visited at depth 2 via b and not expanded, so d (two
    // hops away via a -> c) is missed by DFS; BFS finds it.
    let t = net.traverse_by_index(
        &[a],
        TraverseOptions {
            order: TraversalOrder::Dfs,
            direction: Direction::Out,
            max_depth: Some(2),
            limit: 10,
        },
    );
    assert_eq!(
        visit_ids(&net, &t),
        [("a", 0, None), ("b", 1, Some("a")), ("c", 2, Some("b"))]
    );
    let t = net.traverse_by_index(
        &[a],
        TraverseOptions {
            order: TraversalOrder::Bfs,
            direction: Direction::Out,
            max_depth: Some(2),
            limit: 10,
        },
    );
    assert_eq!(
        visit_ids(&net, &t),
        [
            ("a", 0, None),
            ("b", 1, Some("a")),
            ("c", 1, Some("a")),
            ("d", 2, Some("c"))
        ]
    );
}

#[test]
fn starts_limits_and_bad_indices() {
    let net = network(&["a", "b", "c"], &[("a", "b", 1.0), ("c", "b", 1.0)]);
    let ix = |id| net.index_of(id).unwrap();
    let bogus = NodeIndex::new(99);
    for order in [TraversalOrder::Bfs, TraversalOrder::Dfs] {
        let t = net.traverse_by_index(
            &[ix("c"), bogus, ix("a"), ix("c")],
            TraverseOptions {
                order,
                direction: Direction::Out,
                max_depth: None,
                limit: 10,
            },
        );
        let depths: Vec<(&str, usize)> = t
            .visits
            .iter()
            .map(|v| (net.id_at(v.node), v.depth))
            .collect();
        let expected: &[(&str, usize)] = match order {
            TraversalOrder::Bfs => &[("c", 0), ("a", 0), ("b", 1)],
            TraversalOrder::Dfs => &[("c", 0), ("b", 1), ("a", 0)],
        };
        assert_eq!(depths, expected);
        assert!(!t.truncated);

        let none = net.traverse_by_index(
            &[ix("a")],
            TraverseOptions {
                order,
                direction: Direction::Out,
                max_depth: None,
                limit: 0,
            },
        );
        assert!(none.visits.is_empty() && none.truncated);
        let exact = net.traverse_by_index(
            &[ix("a")],
            TraverseOptions {
                order,
                direction: Direction::Out,
                max_depth: None,
                limit: 2,
            },
        );
        assert_eq!((exact.visits.len(), exact.truncated), (2, false));
        let short = net.traverse_by_index(
            &[ix("a"), ix("c")],
            TraverseOptions {
                order,
                direction: Direction::Out,
                max_depth: None,
                limit: 1,
            },
        );
        assert_eq!((short.visits.len(), short.truncated), (1, true));
        let shallow = net.traverse_by_index(
            &[ix("a")],
            TraverseOptions {
                order,
                direction: Direction::Out,
                max_depth: Some(0),
                limit: 1,
            },
        );
        assert_eq!((shallow.visits.len(), shallow.truncated), (1, false));
        assert!(
            net.traverse_by_index(
                &[],
                TraverseOptions {
                    order,
                    direction: Direction::Out,
                    max_depth: None,
                    limit: 5
                }
            )
            .visits
            .is_empty()
        );
    }
    let nothing = net.reachable_by_index(bogus, Direction::Both, None, 10);
    assert_eq!(
        (nothing.nodes.len(), nothing.total, nothing.truncated),
        (0, 0, false)
    );
    assert!(net.bfs_order_by_index(bogus).is_empty());
    assert!(matches!(
        net.shortest_path_by_index(bogus, ix("a"), Weighted::Yes),
        Err(Error::InvalidValue { ref field, .. }) if field == "from"
    ));
    assert!(matches!(
        net.shortest_path_by_index(ix("a"), bogus, Weighted::No),
        Err(Error::InvalidValue { ref field, .. }) if field == "to"
    ));
    assert!(net.dijkstra_distances_by_index(bogus).is_err());
}

#[test]
fn parallel_edges_pick_lightest_then_lowest_id() {
    let net = network(
        &["a", "b"],
        &[
            ("a", "b", 3.0),
            ("a", "b", 1.0),
            ("a", "b", 1.0),
            ("a", "b", 0.5),
        ],
    );
    let (a, b) = (net.index_of("a").unwrap(), net.index_of("b").unwrap());
    let weighted = net
        .shortest_path_by_index(a, b, Weighted::Yes)
        .unwrap()
        .unwrap();
    assert_eq!((weighted.edges, weighted.total_weight), (vec![3], 0.5));
    let fewest = net
        .shortest_path_by_index(a, b, Weighted::No)
        .unwrap()
        .unwrap();
    assert_eq!((fewest.edges, fewest.total_weight), (vec![0], 3.0));

    let tied = network(
        &["a", "b"],
        &[("a", "b", 2.0), ("a", "b", 1.0), ("a", "b", 1.0)],
    );
    let p = tied
        .shortest_path_by_index(
            tied.index_of("a").unwrap(),
            tied.index_of("b").unwrap(),
            Weighted::Yes,
        )
        .unwrap()
        .unwrap();
    assert_eq!(p.edges, [1]);
}

#[test]
fn negative_weights() {
    // A negative edge without a negative cycle: Bellman-Ford finds the detour.
    let net = network(
        &["a", "b", "c"],
        &[("a", "c", 1.0), ("a", "b", 2.0), ("b", "c", -4.0)],
    );
    let ix = |id| net.index_of(id).unwrap();
    let p = net
        .shortest_path_by_index(ix("a"), ix("c"), Weighted::Yes)
        .unwrap()
        .unwrap();
    assert_eq!((p.edges, p.total_weight), (vec![1, 2], -2.0));
    let hop = net
        .shortest_path_by_index(ix("a"), ix("c"), Weighted::No)
        .unwrap()
        .unwrap();
    assert_eq!((hop.edges, hop.total_weight), (vec![0], 1.0));
    let err = net.dijkstra_distances_by_index(ix("a")).unwrap_err();
    assert!(matches!(err, Error::InvalidValue { ref field, .. } if field == "weight"));

    // A negative cycle b -> d -> b reachable from a, but not from c.
    let net = network(
        &["a", "b", "c", "d"],
        &[
            ("a", "b", 1.0),
            ("b", "d", 1.0),
            ("d", "b", -3.0),
            ("c", "a", 1.0),
        ],
    );
    let ix = |id| net.index_of(id).unwrap();
    for to in ["a", "b", "c", "d"] {
        assert_eq!(
            net.shortest_path_by_index(ix("a"), ix(to), Weighted::Yes),
            Err(Error::NegativeCycle {
                source_id: "a".into()
            })
        );
    }
    assert!(
        net.shortest_path_by_index(ix("a"), ix("d"), Weighted::No)
            .unwrap()
            .is_some()
    );
    let loop_net = network(&["x", "y"], &[("x", "y", 1.0), ("y", "y", -1.0)]);
    let (x, y) = (
        loop_net.index_of("x").unwrap(),
        loop_net.index_of("y").unwrap(),
    );
    assert!(matches!(
        loop_net.shortest_path_by_index(x, y, Weighted::Yes),
        Err(Error::NegativeCycle { .. })
    ));
    assert!(matches!(
        loop_net.shortest_path_by_index(y, x, Weighted::Yes),
        Err(Error::NegativeCycle { .. })
    ));
    let back = network(&["p", "q"], &[("p", "q", -1.0)]);
    let (p, q) = (back.index_of("p").unwrap(), back.index_of("q").unwrap());
    assert_eq!(
        back.shortest_path_by_index(q, p, Weighted::Yes).unwrap(),
        None
    );
}

#[test]
fn dijkstra_distances_and_bfs_order() {
    let net = network(
        &["a", "b", "c", "d"],
        &[
            ("a", "b", 4.0),
            ("a", "c", 1.0),
            ("c", "b", 2.0),
            ("b", "a", 0.0),
        ],
    );
    let ix = |id| net.index_of(id).unwrap();
    let d = net.dijkstra_distances_by_index(ix("a")).unwrap();
    assert_eq!(
        [
            d[ix("a").index()],
            d[ix("b").index()],
            d[ix("c").index()],
            d[ix("d").index()]
        ],
        [0.0, 3.0, 1.0, f64::INFINITY]
    );
    let order: Vec<&str> = net
        .bfs_order_by_index(ix("a"))
        .iter()
        .map(|&n| net.id_at(n))
        .collect();
    assert_eq!(order.len(), 3);
    assert_eq!(order[0], "a");
}

#[cfg(feature = "serde")]
#[test]
fn traversal_order_serde() {
    assert_eq!(TraversalOrder::default(), TraversalOrder::Bfs);
    assert_eq!(
        serde_json::to_string(&TraversalOrder::Dfs).unwrap(),
        "\"dfs\""
    );
    let parsed: TraversalOrder = serde_json::from_str("\"bfs\"").unwrap();
    assert_eq!(parsed, TraversalOrder::Bfs);
}

/// Dijkstra's queue takes only distances at or above the last one it settled:
/// negative zero weights, zero-weight cycles and a sum that overflows to
/// infinity keep to that (a distance is never `-0.0` nor NaN).
#[test]
fn dijkstra_keeps_its_queue_monotone_on_signed_zeros_and_overflow() {
    let net = network(
        &["a", "b", "c", "d", "e", "f"],
        &[
            ("a", "b", -0.0),
            ("b", "a", 0.0),
            ("b", "c", -0.0),
            ("c", "d", f64::MAX),
            ("d", "e", f64::MAX),
            ("d", "f", f64::MAX),
            ("a", "e", 1.0),
        ],
    );
    let ix = |id| net.index_of(id).unwrap();
    let path = |to| {
        net.shortest_path_by_index(ix("a"), ix(to), Weighted::Yes)
            .unwrap()
            .unwrap()
    };
    let to_c = path("c");
    assert_eq!((to_c.total_weight, to_c.hops), (0.0, 2));
    assert!(to_c.total_weight.is_sign_positive());
    assert_eq!(path("e").total_weight, 1.0);
    // d → f overflows to infinity, which the queue takes last; the distances
    // report the overflow.
    let err = net.dijkstra_distances_by_index(ix("a")).unwrap_err();
    assert_eq!(err.code(), "weight_overflow");
}
