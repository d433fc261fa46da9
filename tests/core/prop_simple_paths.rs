//! Properties of the simple-path family on small random multigraphs (≤ 7
//! nodes, ≤ 18 edges, parallel edges and self-loops included), checked against a
//! brute-force enumeration of every simple path: `all_simple_paths` lists
//! exactly the enumeration, in its documented depth-first order, and pages and
//! budgets cut it into prefixes; `k_shortest_paths` returns the k smallest costs
//! of the enumeration, each path simple and real. (Agreement with NetworkX is
//! tests/interop/test_paths.py.)

use crate::numbered;

use networks_mcp::Error;
use networks_mcp::network::paths::Path;
use networks_mcp::network::{Network, Weighted};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;

/// A random graph: node count and edges `(source, target, weight)`; edge `k`
/// has id `k`.
#[derive(Debug, Clone)]
struct Spec {
    n: usize,
    edges: Vec<(usize, usize, i64)>,
}

fn spec(weights: &'static [i64]) -> impl Strategy<Value = Spec> {
    (1usize..=7).prop_flat_map(move |n| {
        prop::collection::vec((0..n, 0..n, prop::sample::select(weights)), 0..=18)
            .prop_map(move |edges| Spec { n, edges })
    })
}

fn build(spec: &Spec) -> (Network, Vec<NodeIndex>) {
    let net = numbered::network(spec.n, spec.edges.iter().map(|&(a, b, w)| (a, b, w as f64)));
    let ix = numbered::indices(&net, spec.n);
    (net, ix)
}

/// The neighbours of each node in the documented order (by the oldest edge to
/// each, self-loops left out), each with its chosen edge: the lightest, ties to
/// the lowest id.
fn simple_rows(spec: &Spec) -> Vec<Vec<(usize, u64, i64)>> {
    let mut rows: Vec<Vec<(usize, u64, i64)>> = vec![Vec::new(); spec.n];
    for (id, &(a, b, w)) in spec.edges.iter().enumerate() {
        if a == b {
            continue;
        }
        match rows[a].iter_mut().find(|(t, _, _)| *t == b) {
            Some(entry) if w < entry.2 => *entry = (b, id as u64, w),
            Some(_) => {}
            None => rows[a].push((b, id as u64, w)),
        }
    }
    rows
}

/// Every simple path from `from` to `to` with at most `max_depth` edges, as
/// `(nodes, edges, weight)`, in the documented order: depth-first, neighbours
/// by oldest edge, never going on past `to`. (Recursive: the graphs are tiny.)
fn brute(
    spec: &Spec,
    from: usize,
    to: usize,
    max_depth: usize,
) -> Vec<(Vec<usize>, Vec<u64>, i64)> {
    fn go(
        rows: &[Vec<(usize, u64, i64)>],
        to: usize,
        max_depth: usize,
        nodes: &mut Vec<usize>,
        edges: &mut Vec<u64>,
        weight: i64,
        out: &mut Vec<(Vec<usize>, Vec<u64>, i64)>,
    ) {
        let v = *nodes.last().unwrap();
        if v == to {
            out.push((nodes.clone(), edges.clone(), weight));
            return;
        }
        if edges.len() == max_depth {
            return;
        }
        for &(t, id, w) in &rows[v] {
            if nodes.contains(&t) {
                continue;
            }
            nodes.push(t);
            edges.push(id);
            go(rows, to, max_depth, nodes, edges, weight + w, out);
            nodes.pop();
            edges.pop();
        }
    }
    let rows = simple_rows(spec);
    let mut out = Vec::new();
    go(
        &rows,
        to,
        max_depth,
        &mut vec![from],
        &mut Vec::new(),
        0,
        &mut out,
    );
    out
}

/// The path in spec numbering: `(nodes, edges, weight)`.
fn numbered_path(ix: &[NodeIndex], p: &Path) -> (Vec<usize>, Vec<u64>, i64) {
    let nodes = p
        .nodes
        .iter()
        .map(|n| ix.iter().position(|x| x == n).unwrap())
        .collect();
    (nodes, p.edges.clone(), p.total_weight as i64)
}

/// A path is simple, goes from `from` to `to`, and is real: each step is the
/// named edge between its nodes, the lightest of them (ties to the lowest id);
/// its weight and hops add up.
fn check_path(
    spec: &Spec,
    ix: &[NodeIndex],
    p: &Path,
    from: usize,
    to: usize,
) -> Result<(), TestCaseError> {
    let (nodes, edges, _) = numbered_path(ix, p);
    prop_assert_eq!(p.hops, edges.len());
    prop_assert_eq!(nodes.len(), p.hops + 1);
    prop_assert_eq!(nodes[0], from);
    prop_assert_eq!(*nodes.last().unwrap(), to);
    let mut distinct = nodes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    prop_assert_eq!(distinct.len(), nodes.len(), "not simple: {:?}", nodes);
    let mut sum = 0i64;
    for (step, &id) in edges.iter().enumerate() {
        let (a, b, w) = spec.edges[id as usize];
        prop_assert_eq!(
            (a, b),
            (nodes[step], nodes[step + 1]),
            "edge {} is not the step",
            id
        );
        let lightest = spec
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| (e.0, e.1) == (a, b))
            .min_by_key(|&(k, e)| (e.2, k))
            .unwrap()
            .0;
        prop_assert_eq!(id as usize, lightest, "edge {} is not the lightest", id);
        sum += w;
    }
    prop_assert_eq!(p.total_weight, sum as f64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn all_simple_paths_is_the_enumeration_in_order(
        spec in spec(&[-2, 0, 1, 2, 3]),
        pick in (0usize..7, 0usize..7),
        max_depth in 0usize..=7,
    ) {
        let (net, ix) = build(&spec);
        let (from, to) = (pick.0 % spec.n, pick.1 % spec.n);
        let got = net.all_simple_paths(ix[from], ix[to], max_depth, 0, usize::MAX, u64::MAX);
        prop_assert!(!got.more && !got.stopped_early);
        for p in &got.paths {
            check_path(&spec, &ix, p, from, to)?;
            prop_assert!(p.hops <= max_depth);
        }
        let listed: Vec<_> = got.paths.iter().map(|p| numbered_path(&ix, p)).collect();
        prop_assert_eq!(listed, brute(&spec, from, to, max_depth));
    }

    #[test]
    fn pages_and_budgets_cut_the_list_into_prefixes(
        spec in spec(&[1, 2]),
        pick in (0usize..7, 0usize..7),
        max_depth in 1usize..=7,
        page in 1usize..=4,
        steps in 0u64..300,
    ) {
        let (net, ix) = build(&spec);
        let (from, to) = (ix[pick.0 % spec.n], ix[pick.1 % spec.n]);
        let full = net.all_simple_paths(from, to, max_depth, 0, usize::MAX, u64::MAX).paths;
        let mut paged = Vec::new();
        let mut skip = 0;
        loop {
            let got = net.all_simple_paths(from, to, max_depth, skip, page, u64::MAX);
            prop_assert!(!got.stopped_early);
            prop_assert!(got.paths.len() <= page);
            prop_assert_eq!(got.more, skip + page < full.len());
            paged.extend(got.paths);
            if !got.more {
                break;
            }
            skip += page;
        }
        prop_assert_eq!(&paged, &full);
        // Nothing asked for: `more` still tells whether a path exists.
        prop_assert_eq!(net.all_simple_paths(from, to, max_depth, 0, 0, u64::MAX).more, !full.is_empty());

        let cut = net.all_simple_paths(from, to, max_depth, 0, usize::MAX, steps);
        prop_assert_eq!(&cut.paths[..], &full[..cut.paths.len()]);
        if !cut.stopped_early {
            prop_assert_eq!(&cut.paths, &full);
        }
    }

    #[test]
    fn k_shortest_are_the_k_cheapest_simple_paths(
        spec in spec(&[0, 1, 2, 3, 5]),
        pick in (0usize..7, 0usize..7),
        k in 0usize..=12,
        by_weight in any::<bool>(),
    ) {
        let (net, ix) = build(&spec);
        let (from, to) = (pick.0 % spec.n, pick.1 % spec.n);
        let weighted = Weighted::from_bool(by_weight);
        let cost = |hops: usize, weight: f64| if by_weight { weight } else { hops as f64 };
        let every = brute(&spec, from, to, spec.n);
        let mut costs: Vec<f64> = every.iter().map(|(_, e, w)| cost(e.len(), *w as f64)).collect();
        costs.sort_by(f64::total_cmp);

        let got = net.k_shortest_paths(ix[from], ix[to], k, weighted, u64::MAX).unwrap();
        prop_assert!(!got.stopped_early);
        prop_assert_eq!(got.paths.len(), k.min(every.len()));
        prop_assert_eq!(got.more, every.len() > k);
        for p in &got.paths {
            check_path(&spec, &ix, p, from, to)?;
        }
        let mine: Vec<f64> = got.paths.iter().map(|p| cost(p.hops, p.total_weight)).collect();
        prop_assert!(mine.windows(2).all(|w| w[0] <= w[1]), "costs decrease: {:?}", mine);
        prop_assert_eq!(&mine[..], &costs[..mine.len()]);
        let mut sequences: Vec<&Vec<NodeIndex>> = got.paths.iter().map(|p| &p.nodes).collect();
        sequences.sort();
        sequences.dedup();
        prop_assert_eq!(sequences.len(), got.paths.len(), "a path is listed twice");
        if let Some(first) = got.paths.first() {
            let shortest = net.shortest_path_by_index(ix[from], ix[to], weighted).unwrap().unwrap();
            prop_assert_eq!(cost(first.hops, first.total_weight), cost(shortest.hops, shortest.total_weight));
        }
        // A budget stops it on a prefix of the same list.
        let cut = net.k_shortest_paths(ix[from], ix[to], k, weighted, 60).unwrap();
        prop_assert_eq!(&cut.paths[..], &got.paths[..cut.paths.len()]);
        if !cut.stopped_early {
            prop_assert_eq!(&cut.paths, &got.paths);
        }
    }

    #[test]
    fn negative_weights_rank_by_hops_only(
        spec in spec(&[-3, -1, 0, 2]),
        pick in (0usize..7, 0usize..7),
        k in 1usize..=8,
    ) {
        let (net, ix) = build(&spec);
        let (from, to) = (pick.0 % spec.n, pick.1 % spec.n);
        let by_weight = net.k_shortest_paths(ix[from], ix[to], k, Weighted::Yes, u64::MAX);
        if spec.edges.iter().any(|e| e.2 < 0) {
            let refused = matches!(by_weight, Err(Error::InvalidValue { ref field, .. }) if field == "weighted");
            prop_assert!(refused);
        }
        let every = brute(&spec, from, to, spec.n);
        let mut hops: Vec<usize> = every.iter().map(|(_, e, _)| e.len()).collect();
        hops.sort_unstable();
        let got = net.k_shortest_paths(ix[from], ix[to], k, Weighted::No, u64::MAX).unwrap();
        for p in &got.paths {
            check_path(&spec, &ix, p, from, to)?;
        }
        let mine: Vec<usize> = got.paths.iter().map(|p| p.hops).collect();
        prop_assert_eq!(&mine[..], &hops[..k.min(hops.len())]);
    }
}
