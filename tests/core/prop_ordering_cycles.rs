//! Property tests of topological orders, cycles, critical paths, ready nodes and
//! `describe`, each checked against a brute-force computation on small graphs
//! (at most 8 nodes, 20 edges, parallel edges and self-loops included).

use crate::numbered;

use networks_mcp::Error;
use networks_mcp::network::{Direction, Network, Order};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::NodeIndexable;
use proptest::prelude::*;

/// A small graph: nodes `n0..n{n-1}` (node `i` has index `i`), edges in insertion order.
#[derive(Debug, Clone)]
struct G {
    n: usize,
    edges: Vec<(usize, usize, f64)>,
}

fn weight() -> impl Strategy<Value = f64> {
    // Half-integers: sums are exact, so float comparisons below are exact too.
    (-6i32..=20).prop_map(|x| f64::from(x) * 0.5)
}

/// Any directed multigraph: parallel edges and self-loops allowed.
fn any_graph() -> impl Strategy<Value = G> {
    (0usize..=8).prop_flat_map(|n| {
        prop::collection::vec((0..n.max(1), 0..n.max(1), weight()), 0..=20).prop_map(move |edges| {
            G {
                n,
                edges: if n == 0 { Vec::new() } else { edges },
            }
        })
    })
}

/// A DAG: edges go from lower to higher rank under a random permutation of the
/// nodes, so index order is not automatically a topological order.
fn dag() -> impl Strategy<Value = G> {
    (0usize..=8).prop_flat_map(|n| {
        let perm = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        let raw = prop::collection::vec((0..n.max(1), 0..n.max(1), weight()), 0..=20);
        (perm, raw).prop_map(move |(perm, raw)| {
            let edges = raw
                .into_iter()
                .filter(|&(a, b, _)| a != b && n > 0)
                .map(|(a, b, w)| (perm[a.min(b)], perm[a.max(b)], w))
                .collect();
            G { n, edges }
        })
    })
}

fn build(g: &G) -> Network {
    numbered::network(g.n, g.edges.iter().copied())
}

fn adjacency(g: &G) -> Vec<Vec<bool>> {
    let mut adj = vec![vec![false; g.n]; g.n];
    for &(a, b, _) in &g.edges {
        adj[a][b] = true;
    }
    adj
}

/// reach[i][j]: a path of at least one edge leads from i to j.
fn reachability(g: &G) -> Vec<Vec<bool>> {
    let mut reach = adjacency(g);
    for k in 0..g.n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (cell, &v) in row.iter_mut().zip(&via) {
                    *cell |= v;
                }
            }
        }
    }
    reach
}

fn brute_is_dag(g: &G) -> bool {
    let reach = reachability(g);
    (0..g.n).all(|i| !reach[i][i])
}

/// Mutual-reachability classes, each sorted, ordered by lowest member.
fn brute_sccs(g: &G) -> Vec<Vec<usize>> {
    let reach = reachability(g);
    let mut seen = vec![false; g.n];
    let mut classes = Vec::new();
    for i in 0..g.n {
        if seen[i] {
            continue;
        }
        let class: Vec<usize> = (0..g.n)
            .filter(|&j| j == i || (reach[i][j] && reach[j][i]))
            .collect();
        for &j in &class {
            seen[j] = true;
        }
        classes.push(class);
    }
    classes
}

/// Whether `cycle` is a real cycle of `g` with distinct nodes, all inside `within`.
fn is_real_cycle(g: &G, cycle: &[usize], within: &[usize]) -> bool {
    let adj = adjacency(g);
    let mut distinct = cycle.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    !cycle.is_empty()
        && distinct.len() == cycle.len()
        && cycle.iter().all(|v| within.contains(v))
        && (0..cycle.len()).all(|k| adj[cycle[k]][cycle[(k + 1) % cycle.len()]])
}

/// The length (in nodes) of a shortest cycle through `s` inside `within`.
fn shortest_cycle_len(g: &G, s: usize, within: &[usize]) -> Option<usize> {
    let adj = adjacency(g);
    if adj[s][s] {
        return Some(1);
    }
    let mut dist = vec![usize::MAX; g.n];
    dist[s] = 0;
    let mut queue = std::collections::VecDeque::from([s]);
    while let Some(u) = queue.pop_front() {
        for w in within.iter().copied() {
            if adj[u][w] {
                if w == s {
                    return Some(dist[u] + 1);
                }
                if dist[w] == usize::MAX {
                    dist[w] = dist[u] + 1;
                    queue.push_back(w);
                }
            }
        }
    }
    None
}

fn indices(v: &[NodeIndex]) -> Vec<usize> {
    v.iter().map(|x| x.index()).collect()
}

fn ids_to_indices(ids: &[String]) -> Vec<usize> {
    ids.iter().map(|id| id[1..].parse().unwrap()).collect()
}

fn all_nodes(g: &G) -> Vec<usize> {
    (0..g.n).collect()
}

fn check_cycle_error(g: &G, err: Error, operation: &str) -> Result<(), TestCaseError> {
    match err {
        Error::CycleDetected {
            operation: op,
            cycle,
        } => {
            prop_assert_eq!(op, operation);
            let cycle = ids_to_indices(&cycle);
            prop_assert!(is_real_cycle(g, &cycle, &all_nodes(g)), "{cycle:?}");
            Ok(())
        }
        other => Err(TestCaseError::fail(format!("unexpected error {other:?}"))),
    }
}

/// Checks a topological order with layers in the given direction.
fn check_layers(g: &G, net: &Network, reverse: bool) -> Result<(), TestCaseError> {
    let topo = net.topological_sort(Order::from_reverse(reverse)).unwrap();
    let order = indices(&topo.order);
    let mut sorted = order.clone();
    sorted.sort_unstable();
    prop_assert_eq!(sorted, all_nodes(g));
    let position: Vec<usize> = {
        let mut p = vec![0; g.n];
        for (k, &v) in order.iter().enumerate() {
            p[v] = k;
        }
        p
    };
    // (source, target) in the chosen direction.
    let directed: Vec<(usize, usize)> = g
        .edges
        .iter()
        .map(|&(a, b, _)| if reverse { (b, a) } else { (a, b) })
        .collect();
    for &(a, b) in &directed {
        prop_assert!(position[a] < position[b], "edge {a}->{b} violated");
    }

    let concat: Vec<NodeIndex> = topo.layers.iter().flatten().copied().collect();
    prop_assert_eq!(&concat, &topo.order);
    let mut layer_of = vec![usize::MAX; g.n];
    for (k, layer) in topo.layers.iter().enumerate() {
        prop_assert!(!layer.is_empty());
        prop_assert!(layer.windows(2).all(|w| w[0] < w[1]), "layer not sorted");
        for &v in layer {
            layer_of[v.index()] = k;
        }
    }
    for &(a, b) in &directed {
        prop_assert!(layer_of[a] < layer_of[b]);
    }
    for v in 0..g.n {
        let preds: Vec<usize> = directed
            .iter()
            .filter(|&&(_, b)| b == v)
            .map(|&(a, _)| a)
            .collect();
        if layer_of[v] == 0 {
            prop_assert!(preds.is_empty());
        } else {
            prop_assert!(preds.iter().any(|&p| layer_of[p] == layer_of[v] - 1));
        }
    }
    Ok(())
}

/// All paths of a DAG (using the heaviest of parallel edges): for each end node the
/// greatest length of a path ending there (a single node counts, length 0).
fn brute_longest_ending_at(g: &G) -> Vec<f64> {
    let mut heaviest: Vec<Vec<Option<f64>>> = vec![vec![None; g.n]; g.n];
    for &(a, b, w) in &g.edges {
        let h = &mut heaviest[a][b];
        *h = Some(h.map_or(w, |x: f64| x.max(w)));
    }
    let mut best = vec![0.0f64; g.n];
    // Depth-first enumeration of every path from every start.
    let mut stack: Vec<(usize, f64)> = (0..g.n).map(|s| (s, 0.0)).collect();
    while let Some((v, len)) = stack.pop() {
        best[v] = best[v].max(len);
        for (w, h) in heaviest[v].iter().enumerate() {
            if let Some(h) = h {
                stack.push((w, len + h));
            }
        }
    }
    best
}

proptest! {
    // (1) + (2): orders respect every edge, layers are Kahn levels.
    #[test]
    fn topological_order_and_layers(g in dag()) {
        let net = build(&g);
        check_layers(&g, &net, false)?;
        check_layers(&g, &net, true)?;
        let plain = indices(&net.toposort_plain().unwrap());
        let mut position = vec![0; g.n];
        for (k, &v) in plain.iter().enumerate() {
            position[v] = k;
        }
        prop_assert_eq!(plain.len(), g.n);
        for &(a, b, _) in &g.edges {
            prop_assert!(position[a] < position[b]);
        }
    }

    // (3): cyclic graphs give a real witness cycle, acyclic ones never error.
    #[test]
    fn cycles_are_reported_with_a_real_witness(g in any_graph(), reverse in any::<bool>()) {
        let net = build(&g);
        if brute_is_dag(&g) {
            check_layers(&g, &net, reverse)?;
            prop_assert!(net.toposort_plain().is_ok());
            prop_assert!(net.critical_path().is_ok());
        } else {
            check_cycle_error(&g, net.topological_sort(Order::from_reverse(reverse)).unwrap_err(), "a topological order")?;
            check_cycle_error(&g, net.toposort_plain().unwrap_err(), "a topological order")?;
            check_cycle_error(&g, net.critical_path().unwrap_err(), "a critical path")?;
        }
    }

    #[test]
    fn dags_never_error(g in dag(), reverse in any::<bool>()) {
        let net = build(&g);
        prop_assert!(net.is_dag());
        prop_assert!(net.topological_sort(Order::from_reverse(reverse)).is_ok());
        prop_assert!(net.critical_path().is_ok());
        prop_assert_eq!(net.find_any_cycle(), None);
        prop_assert_eq!(net.find_cycles(10).total, 0);
    }

    // (4): SCCs, cyclic components and witnesses against brute force.
    #[test]
    fn sccs_and_cyclic_components(g in any_graph(), limit in 0usize..4) {
        let net = build(&g);
        let classes = brute_sccs(&g);
        let sccs: Vec<Vec<usize>> = net.strongly_connected_components().iter().map(|c| indices(c)).collect();
        prop_assert_eq!(&sccs, &classes);

        // Cross-check against petgraph's (iterative) Kosaraju.
        let mut kosaraju: Vec<Vec<usize>> = petgraph::algo::kosaraju_scc(net.graph())
            .iter()
            .map(|c| { let mut c = indices(c); c.sort_unstable(); c })
            .collect();
        kosaraju.sort();
        let mut sorted_classes = classes.clone();
        sorted_classes.sort();
        prop_assert_eq!(kosaraju, sorted_classes);

        let adj = adjacency(&g);
        let expected: Vec<Vec<usize>> = classes
            .into_iter()
            .filter(|c| c.len() > 1 || adj[c[0]][c[0]])
            .collect();
        let all = net.find_cycles(usize::MAX);
        prop_assert_eq!(all.total, expected.len());
        prop_assert!(!all.truncated);
        let got: Vec<Vec<usize>> = all.components.iter().map(|c| indices(&c.nodes)).collect();
        prop_assert_eq!(&got, &expected);
        for c in &all.components {
            let nodes = indices(&c.nodes);
            let cycle = indices(&c.cycle);
            prop_assert!(is_real_cycle(&g, &cycle, &nodes), "{cycle:?} in {nodes:?}");
            prop_assert_eq!(cycle[0], nodes[0]);
            prop_assert_eq!(Some(cycle.len()), shortest_cycle_len(&g, nodes[0], &nodes));
        }

        let some = net.find_cycles(limit);
        prop_assert_eq!(some.total, all.total);
        prop_assert_eq!(some.truncated, limit < all.total);
        prop_assert_eq!(&some.components[..], &all.components[..limit.min(all.total)]);

        prop_assert_eq!(net.find_any_cycle(), all.components.first().map(|c| c.cycle.clone()));
        prop_assert_eq!(net.is_dag(), brute_is_dag(&g));
        prop_assert_eq!(net.is_dag(), all.total == 0);
    }

    // (5): critical path against enumeration of all paths.
    #[test]
    fn critical_path_is_longest(g in dag()) {
        let net = build(&g);
        let path = net.critical_path().unwrap();
        let best = brute_longest_ending_at(&g);
        if g.n == 0 {
            prop_assert!(path.nodes.is_empty() && path.edges.is_empty());
            prop_assert_eq!(path.total_weight, 0.0);
            return Ok(());
        }
        let max = best.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        prop_assert_eq!(path.total_weight, max);
        prop_assert!(path.total_weight >= 0.0);
        // Ends at the lowest index among the best ends.
        let end = (0..g.n).find(|&v| best[v] == max).unwrap();
        prop_assert_eq!(path.nodes.last().map(|v| v.index()), Some(end));

        prop_assert_eq!(path.edges.len() + 1, path.nodes.len());
        let mut sum = 0.0;
        for (k, &id) in path.edges.iter().enumerate() {
            let e = net.edge(id).unwrap();
            prop_assert_eq!(e.source, net.id_at(path.nodes[k]));
            prop_assert_eq!(e.target, net.id_at(path.nodes[k + 1]));
            // The heaviest parallel edge, lowest id among equally heavy ones.
            let (a, b) = (path.nodes[k].index(), path.nodes[k + 1].index());
            let chosen = g
                .edges
                .iter()
                .enumerate()
                .filter(|&(_, &(x, y, _))| (x, y) == (a, b))
                .max_by(|(i, (_, _, w1)), (j, (_, _, w2))| w1.total_cmp(w2).then(j.cmp(i)))
                .map(|(i, _)| i as u64);
            prop_assert_eq!(Some(id), chosen);
            sum += e.weight;
        }
        prop_assert_eq!(sum, path.total_weight);

        // Tie rules fix the path: each step comes from the lowest-index predecessor
        // reaching the best length, and the path starts where no extension is >= 0.
        let heaviest = |a: usize, b: usize| {
            g.edges.iter().filter(|e| (e.0, e.1) == (a, b)).map(|e| e.2).reduce(f64::max)
        };
        let nodes = indices(&path.nodes);
        for k in 1..nodes.len() {
            let v = nodes[k];
            let first = (0..g.n).find(|&u| heaviest(u, v).is_some_and(|w| best[u] + w == best[v]));
            prop_assert_eq!(first, Some(nodes[k - 1]));
        }
        let start = nodes[0];
        prop_assert!((0..g.n).all(|u| heaviest(u, start).is_none_or(|w| best[u] + w < 0.0)));
    }

    // (6): ready nodes against the definition.
    #[test]
    fn ready_nodes_match_definition(
        g in any_graph(),
        done_bits in prop::collection::vec(any::<bool>(), 8),
        dir in prop_oneof![Just(Direction::Out), Just(Direction::In), Just(Direction::Both)],
        limit in 0usize..10,
        blocked_limit in 0usize..10,
    ) {
        let net = build(&g);
        let done: Vec<bool> = done_bits[..g.n].to_vec();
        prop_assert_eq!(done.len(), net.graph().node_bound());
        let r = net.ready_nodes_by_index(&done, dir, limit, blocked_limit);

        let mut ready = Vec::new();
        let mut blocked = Vec::new();
        for v in 0..g.n {
            if done[v] {
                continue;
            }
            let follow_out = matches!(dir, Direction::Out | Direction::Both);
            let follow_in = matches!(dir, Direction::In | Direction::Both);
            let mut waiting = Vec::new();
            for &(a, b, _) in &g.edges {
                if follow_out && a == v && !done[b] {
                    waiting.push(b);
                }
                if follow_in && b == v && !done[a] {
                    waiting.push(a);
                }
            }
            waiting.sort_unstable();
            waiting.dedup();
            if waiting.is_empty() {
                ready.push(v);
            } else {
                blocked.push((v, waiting));
            }
        }
        prop_assert_eq!(r.ready_total, ready.len());
        prop_assert_eq!(r.blocked_total, blocked.len());
        prop_assert_eq!(r.done_total, done.iter().filter(|&&d| d).count());
        prop_assert_eq!(indices(&r.ready), ready[..ready.len().min(limit)].to_vec());
        let got: Vec<(usize, Vec<usize>)> = r.blocked.iter().map(|b| (b.node.index(), indices(&b.waiting_on))).collect();
        prop_assert_eq!(got, blocked[..blocked.len().min(blocked_limit)].to_vec());
    }

    // (7): describe against direct computation.
    #[test]
    fn describe_matches_direct_computation(g in any_graph(), list_limit in 0usize..6, top_k in 0usize..6) {
        let net = build(&g);
        let d = net.describe(list_limit, top_k);
        let mut indeg = vec![0usize; g.n];
        let mut outdeg = vec![0usize; g.n];
        for &(a, b, _) in &g.edges {
            outdeg[a] += 1;
            indeg[b] += 1;
        }
        let sources: Vec<usize> = (0..g.n).filter(|&v| indeg[v] == 0).collect();
        let sinks: Vec<usize> = (0..g.n).filter(|&v| outdeg[v] == 0).collect();
        prop_assert_eq!(d.nodes, g.n);
        prop_assert_eq!(d.edges, g.edges.len());
        prop_assert_eq!(d.sources_total, sources.len());
        prop_assert_eq!(indices(&d.sources), sources[..sources.len().min(list_limit)].to_vec());
        prop_assert_eq!(d.sinks_total, sinks.len());
        prop_assert_eq!(indices(&d.sinks), sinks[..sinks.len().min(list_limit)].to_vec());
        prop_assert_eq!(d.isolated_total, (0..g.n).filter(|&v| indeg[v] == 0 && outdeg[v] == 0).count());
        prop_assert_eq!(d.self_loops, g.edges.iter().filter(|&&(a, b, _)| a == b).count());
        prop_assert_eq!(d.is_dag, brute_is_dag(&g));

        // Weak components by a plain union-find.
        let mut parent: Vec<usize> = (0..g.n).collect();
        fn find(parent: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while parent[r] != r {
                r = parent[r];
            }
            parent[x] = r;
            r
        }
        for &(a, b, _) in &g.edges {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
        let weak = (0..g.n).filter(|&v| find(&mut parent, v) == v).count();
        prop_assert_eq!(d.weakly_connected_components, weak);

        let top = |deg: &[usize]| {
            let mut all: Vec<(usize, usize)> = (0..g.n).map(|v| (v, deg[v])).collect();
            all.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            all.truncate(top_k);
            all
        };
        let as_usize = |v: &[(NodeIndex, usize)]| v.iter().map(|&(n, d)| (n.index(), d)).collect::<Vec<_>>();
        prop_assert_eq!(as_usize(&d.top_in_degree), top(&indeg));
        prop_assert_eq!(as_usize(&d.top_out_degree), top(&outdeg));

        let density = if g.n < 2 { 0.0 } else { g.edges.len() as f64 / (g.n * (g.n - 1)) as f64 };
        prop_assert_eq!(d.density, density);
        prop_assert_eq!(d.total_weight, g.edges.iter().map(|e| e.2).sum::<f64>());
        prop_assert_eq!(d.min_weight, g.edges.iter().map(|e| e.2).reduce(f64::min));
        prop_assert_eq!(d.max_weight, g.edges.iter().map(|e| e.2).reduce(f64::max));
    }
}

/// A long chain must not overflow the stack (petgraph's recursive Tarjan would).
#[test]
fn deep_chain_does_not_overflow() {
    let n = 200_000;
    let mut net = Network::with_capacity(n, n);
    for i in 0..n {
        net.add_node(&format!("n{i}")).unwrap();
    }
    for i in 1..n {
        net.add_edge(&format!("n{}", i - 1), &format!("n{i}"), 1.0)
            .unwrap();
    }
    assert!(net.is_dag());
    assert_eq!(net.find_cycles(10).total, 0);
    assert_eq!(net.critical_path().unwrap().total_weight, (n - 1) as f64);
    assert_eq!(
        net.topological_sort(Order::Reverse).unwrap().layers.len(),
        n
    );
    net.add_edge(&format!("n{}", n - 1), "n0", 1.0).unwrap();
    let cycles = net.find_cycles(10);
    assert_eq!(cycles.total, 1);
    assert_eq!(cycles.components[0].cycle.len(), n);
    assert_eq!(net.strongly_connected_components().len(), 1);
}

/// `g` built with filler nodes `x{i}` (and edges to them) interleaved, then removed:
/// the `StableGraph` has vacant indices, and `n{i}` no longer has index `i`.
fn build_with_holes(g: &G, fillers: &[bool]) -> Network {
    let mut net = Network::new();
    for (i, &filler) in fillers.iter().enumerate().take(g.n) {
        if filler {
            net.add_node(&format!("x{i}")).unwrap();
        }
        net.add_node(&format!("n{i}")).unwrap();
    }
    for (k, &(a, b, w)) in g.edges.iter().enumerate() {
        if fillers[k % 8] && k % 8 < g.n {
            let x = format!("x{}", k % 8);
            net.add_edge(&x, &format!("n{a}"), 1.0).unwrap();
            net.add_edge(&format!("n{b}"), &x, 1.0).unwrap();
        }
        net.add_edge(&format!("n{a}"), &format!("n{b}"), w).unwrap();
    }
    for (i, &filler) in fillers.iter().enumerate().take(g.n) {
        if filler {
            net.remove_node(&format!("x{i}")).unwrap();
        }
    }
    net
}

/// Every result, as ids, is the same with and without vacant indices (all tie rules
/// go by index, and removing fillers keeps the relative index order).
fn check_holes_change_nothing(
    g: &G,
    fillers: &[bool],
    done_bits: &[bool],
) -> Result<(), TestCaseError> {
    let plain = build(g);
    let holey = build_with_holes(g, fillers);
    let ids = |net: &Network, v: &[NodeIndex]| -> Vec<String> {
        net.ids(v).into_iter().map(String::from).collect()
    };

    let sccs = |net: &Network| -> Vec<Vec<String>> {
        net.strongly_connected_components()
            .iter()
            .map(|c| ids(net, c))
            .collect()
    };
    prop_assert_eq!(sccs(&plain), sccs(&holey));
    type Witnessed = Vec<(Vec<String>, Vec<String>)>;
    let cycles = |net: &Network| -> (Witnessed, usize) {
        let c = net.find_cycles(3);
        (
            c.components
                .iter()
                .map(|c| (ids(net, &c.nodes), ids(net, &c.cycle)))
                .collect(),
            c.total,
        )
    };
    prop_assert_eq!(cycles(&plain), cycles(&holey));
    prop_assert_eq!(plain.is_dag(), holey.is_dag());

    for reverse in [false, true] {
        let topo = |net: &Network| {
            net.topological_sort(Order::from_reverse(reverse))
                .map(|t| t.layers.iter().map(|l| ids(net, l)).collect::<Vec<_>>())
        };
        prop_assert_eq!(topo(&plain), topo(&holey));
    }
    let critical = |net: &Network| {
        net.critical_path()
            .map(|p| (ids(net, &p.nodes), p.total_weight))
    };
    prop_assert_eq!(critical(&plain), critical(&holey));

    let done_for = |net: &Network| {
        let mut done = vec![false; net.graph().node_bound()];
        for i in 0..g.n {
            done[net.index_of(&format!("n{i}")).unwrap().index()] = done_bits[i];
        }
        done
    };
    for dir in [Direction::Out, Direction::In, Direction::Both] {
        let ready = |net: &Network| {
            let r = net.ready_nodes_by_index(&done_for(net), dir, 3, 3);
            let blocked: Vec<(String, Vec<String>)> = r
                .blocked
                .iter()
                .map(|b| (net.id_at(b.node).to_string(), ids(net, &b.waiting_on)))
                .collect();
            (
                ids(net, &r.ready),
                r.ready_total,
                blocked,
                r.blocked_total,
                r.done_total,
            )
        };
        prop_assert_eq!(ready(&plain), ready(&holey));
    }

    let describe = |net: &Network| {
        let d = net.describe(3, 3);
        let top = |v: &[(NodeIndex, usize)]| -> Vec<(String, usize)> {
            v.iter()
                .map(|&(n, k)| (net.id_at(n).to_string(), k))
                .collect()
        };
        (
            (
                d.nodes,
                d.edges,
                d.density,
                d.is_dag,
                d.weakly_connected_components,
                d.self_loops,
            ),
            (
                ids(net, &d.sources),
                d.sources_total,
                ids(net, &d.sinks),
                d.sinks_total,
                d.isolated_total,
            ),
            (top(&d.top_in_degree), top(&d.top_out_degree)),
            (d.total_weight, d.min_weight, d.max_weight),
        )
    };
    prop_assert_eq!(describe(&plain), describe(&holey));
    Ok(())
}

proptest! {
    // Vacant indices (after node removals) change nothing but the indices.
    #[test]
    fn vacant_indices_change_nothing(
        g in any_graph(),
        fillers in prop::collection::vec(any::<bool>(), 8),
        done_bits in prop::collection::vec(any::<bool>(), 8),
    ) {
        check_holes_change_nothing(&g, &fillers, &done_bits)?;
    }

    #[test]
    fn vacant_indices_change_nothing_in_dags(
        g in dag(),
        fillers in prop::collection::vec(any::<bool>(), 8),
        done_bits in prop::collection::vec(any::<bool>(), 8),
    ) {
        check_holes_change_nothing(&g, &fillers, &done_bits)?;
    }
}

/// Degree ties are broken by index even where selection reorders elements.
#[test]
fn describe_top_degree_ties_by_index() {
    let n = 300;
    let mut net = Network::new();
    for i in 0..n {
        net.add_node(&format!("n{i}")).unwrap();
    }
    // Out-degree of n{i} is i % 3; in-degree of n0 is large.
    for i in 0..n {
        for _ in 0..i % 3 {
            net.add_edge(&format!("n{i}"), "n0", 1.0).unwrap();
        }
    }
    let d = net.describe(5, 60);
    let expected: Vec<(NodeIndex, usize)> = (0..n)
        .filter(|i| i % 3 == 2)
        .take(60)
        .map(|i| (NodeIndex::new(i), 2))
        .collect();
    assert_eq!(d.top_out_degree, expected);
    assert_eq!(d.top_in_degree[0], (NodeIndex::new(0), n));
    assert_eq!(d.top_in_degree.len(), 60);
    assert!(
        d.top_in_degree[1..]
            .iter()
            .enumerate()
            .all(|(k, &(v, deg))| deg == 0 && v.index() == k + 1)
    );
}
