//! Epics: on random forests of parents (with loops, self-parents, dangling and
//! ill-typed parent values, numbers naming nodes) and random task states, the
//! roll-up counts, children, top-level ancestors and loops equal a brute-force
//! walk up every chain of parents, and the epic-level graph equals the merged
//! edges between top-level nodes.

use std::collections::BTreeMap;

use networks_mcp::network::hierarchy::StateCounts;
use networks_mcp::network::work::{TaskState, WorkAttributes};
use networks_mcp::network::{EdgeSpec, Network, NodeSpec, RelationFilter};
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;
use serde_json::Value;

/// What a node's parent attribute holds.
#[derive(Debug, Clone)]
enum Parent {
    None,
    /// The id of node `j`, as a string.
    Id(usize),
    /// Node `j` named by a number.
    Number(usize),
    /// An id no node has.
    Dangling,
    /// A value of another type.
    Boolean,
}

fn parent() -> impl Strategy<Value = Parent> {
    prop_oneof![
        2 => Just(Parent::None),
        6 => (0usize..64).prop_map(Parent::Id),
        1 => (0usize..64).prop_map(Parent::Number),
        1 => Just(Parent::Dangling),
        1 => Just(Parent::Boolean),
    ]
}

/// A task's work attributes: 0 none, 1 done, 2 claimed under a live lease,
/// 3 claimed with a lease that ran out.
type Work = u8;

const NOW: u64 = 1_000;

fn build(parents: &[Parent], work: &[Work], edges: &[(usize, usize, f64, bool)]) -> Network {
    let n = parents.len();
    let mut net = Network::new();
    net.add_nodes((0..n).map(|i| {
        let mut spec = NodeSpec::new(i.to_string());
        spec = match parents[i] {
            Parent::None => spec,
            Parent::Id(j) => spec.with_attribute("parent", (j % n).to_string()),
            Parent::Number(j) => spec.with_attribute("parent", (j % n) as u64),
            Parent::Dangling => spec.with_attribute("parent", "nobody"),
            Parent::Boolean => spec.with_attribute("parent", true),
        };
        match work[i] {
            1 => spec.with_attribute("status", "done"),
            2 => spec
                .with_attribute("claimed_by", "w")
                .with_attribute("lease_expires_ms", NOW + 10),
            3 => spec
                .with_attribute("claimed_by", "w")
                .with_attribute("lease_expires_ms", NOW - 10),
            _ => spec,
        }
    }))
    .unwrap();
    for &(a, b, w, related) in edges {
        let mut spec = EdgeSpec::new((a % n).to_string(), (b % n).to_string()).with_weight(w);
        if related {
            spec = spec.with_attribute("relation", "related");
        }
        net.add_edge_with(spec).unwrap();
    }
    net
}

/// The oracle: each node's parent as named (by index), before loops are cut.
fn named_parent(net: &Network, i: usize) -> Option<usize> {
    let node = net.node(&i.to_string()).unwrap();
    let id = match node.attributes.get("parent")? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    net.index_of(&id).map(NodeIndex::index)
}

struct Oracle {
    /// Each node's parent once loops are cut.
    parent: Vec<Option<usize>>,
    looped: Vec<usize>,
}

fn oracle(net: &Network, n: usize) -> Oracle {
    let named: Vec<Option<usize>> = (0..n).map(|i| named_parent(net, i)).collect();
    // On a loop: following the named parents from i comes back to i.
    let on_loop = |i: usize| {
        let mut v = named[i];
        for _ in 0..n {
            match v {
                Some(u) if u == i => return true,
                Some(u) => v = named[u],
                None => return false,
            }
        }
        false
    };
    let looped: Vec<usize> = (0..n).filter(|&i| on_loop(i)).collect();
    let parent = (0..n)
        .map(|i| if looped.contains(&i) { None } else { named[i] })
        .collect();
    Oracle { parent, looped }
}

impl Oracle {
    /// The chain of ancestors of `i`, nearest first.
    fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut v = self.parent[i];
        while let Some(u) = v {
            assert!(out.len() <= self.parent.len(), "the oracle's forest loops");
            out.push(u);
            v = self.parent[u];
        }
        out
    }

    fn top(&self, i: usize) -> usize {
        self.ancestors(i).last().copied().unwrap_or(i)
    }
}

fn count(states: impl IntoIterator<Item = TaskState>) -> StateCounts {
    let mut counts = StateCounts::default();
    for s in states {
        counts.add(s);
    }
    counts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_rollup_counts_every_descendant(
        (parents, work, edges) in (1usize..40).prop_flat_map(|n| (
            proptest::collection::vec(parent(), n),
            proptest::collection::vec(0u8..4, n),
            proptest::collection::vec((0usize..64, 0usize..64, -2.0f64..5.0, any::<bool>()), 0..60),
        ))
    ) {
        let n = parents.len();
        let net = build(&parents, &work, &edges);
        let spec = WorkAttributes::default();
        let rollup = net.epic_rollup(&spec, NOW).unwrap();
        let tree = rollup.hierarchy();
        let o = oracle(&net, n);
        let ix = NodeIndex::new;
        let state = |i: usize| net.task_state(ix(i), &spec, NOW);

        prop_assert_eq!(tree.looped().iter().map(|v| v.index()).collect::<Vec<_>>(), o.looped.clone());
        let mut order_seen = vec![false; n];
        for &v in tree.order() {
            if let Some(p) = tree.parent(v) {
                prop_assert!(order_seen[p.index()], "a parent comes before its children");
            }
            order_seen[v.index()] = true;
        }
        prop_assert!(order_seen.iter().all(|&s| s));
        for u in 0..n {
            prop_assert_eq!(tree.parent(ix(u)).map(NodeIndex::index), o.parent[u]);
            prop_assert_eq!(tree.top(ix(u)).index(), o.top(u));
            prop_assert_eq!(rollup.state(ix(u)), state(u));
            let children: Vec<usize> = (0..n).filter(|&v| o.parent[v] == Some(u)).collect();
            prop_assert_eq!(
                tree.children(ix(u)).iter().map(|v| v.index()).collect::<Vec<_>>(),
                children
            );
            let below: Vec<usize> = (0..n).filter(|&v| o.ancestors(v).contains(&u)).collect();
            prop_assert_eq!(rollup.descendants(ix(u)), count(below.iter().map(|&v| state(v))));
            let mut listed: Vec<usize> = tree.descendants(ix(u)).iter().map(|v| v.index()).collect();
            listed.sort_unstable();
            prop_assert_eq!(&listed, &below);

            let progress = rollup.progress_under(&net, &spec, Some(ix(u)));
            let claims: Vec<usize> = below
                .iter()
                .copied()
                .filter(|&v| work[v] >= 2)
                .collect();
            prop_assert_eq!(
                progress.claims.iter().map(|v| v.index()).collect::<Vec<_>>(),
                claims.clone()
            );
            prop_assert_eq!(
                progress.expired,
                claims.iter().filter(|&&v| state(v) != TaskState::Claimed).count()
            );
        }
        let roots: Vec<usize> = (0..n).filter(|&v| o.parent[v].is_none()).collect();
        prop_assert_eq!(tree.roots().iter().map(|v| v.index()).collect::<Vec<_>>(), roots.clone());
        let epics: Vec<usize> = roots
            .iter()
            .copied()
            .filter(|&r| o.parent.contains(&Some(r)))
            .collect();
        prop_assert_eq!(tree.top_epics().iter().map(|v| v.index()).collect::<Vec<_>>(), epics);

        // The whole network: as the work calls count it.
        let whole = rollup.progress_under(&net, &spec, None);
        let progress = net.work_progress(&spec, NOW).unwrap();
        prop_assert_eq!(whole, progress);

        // The epic-level graph, following all but "related" edges.
        let filter = RelationFilter::except(["related"]);
        let by_epic = net.following(&filter).by_epic("parent").unwrap();
        let q = &by_epic.network;
        prop_assert_eq!(q.node_ids().collect::<Vec<_>>(), roots.iter().map(|r| r.to_string()).collect::<Vec<_>>());
        let mut expected: BTreeMap<(usize, usize), (f64, u64)> = BTreeMap::new();
        for (k, &(a, b, w, related)) in edges.iter().enumerate() {
            let (ta, tb) = (o.top(a % n), o.top(b % n));
            if related || ta == tb {
                continue;
            }
            let entry = expected.entry((ta, tb)).or_insert((w, k as u64));
            if w > entry.0 {
                *entry = (w, k as u64);
            }
        }
        let mut got: BTreeMap<(usize, usize), (f64, u64)> = BTreeMap::new();
        for e in q.list_edges_all() {
            got.insert((e.0.parse().unwrap(), e.1.parse().unwrap()), (e.2, e.3));
        }
        prop_assert_eq!(got, expected);
        prop_assert_eq!(
            by_epic.looped.iter().map(|v| v.index()).collect::<Vec<_>>(),
            o.looped.clone()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The remaining critical path with parents equals the critical path of
    /// the tasks not done with each parent -> child link drawn as an edge of
    /// weight 0 (a parent waits on its children): the same length, or both
    /// a cycle; and the path it gives steps along edges or parent links only.
    #[test]
    fn prop_remaining_critical_path_waits_for_children(
        (parents, work, edges) in (1usize..30).prop_flat_map(|n| (
            proptest::collection::vec(parent(), n),
            proptest::collection::vec(0u8..4, n),
            proptest::collection::vec((0usize..64, 0usize..64, -2.0f64..5.0, any::<bool>()), 0..40),
        ))
    ) {
        let n = parents.len();
        let net = build(&parents, &work, &edges);
        let spec = WorkAttributes::default();
        let open: Vec<bool> = (0..n).map(|i| work[i] != 1).collect();
        let mut oracle = Network::new();
        oracle.add_nodes((0..n).filter(|&i| open[i]).map(|i| i.to_string())).unwrap();
        for (a, b, w, _) in net.list_edges_all() {
            let (ai, bi): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
            if open[ai] && open[bi] {
                oracle.add_edge(&a, &b, w).unwrap();
            }
        }
        let mut links = Vec::new();
        for child in 0..n {
            if let Some(p) = named_parent(&net, child)
                && open[p]
                && open[child]
            {
                oracle.add_edge(&p.to_string(), &child.to_string(), 0.0).unwrap();
                links.push((p, child));
            }
        }
        let got = net.remaining_critical_path(&spec).unwrap();
        let expected = oracle.critical_path();
        prop_assert_eq!(got.is_some(), expected.is_ok(), "{:?} vs {:?}", got, expected);
        if let (Some(got), Ok(expected)) = (got, expected) {
            prop_assert!((got.total_weight - expected.total_weight).abs() < 1e-9);
            // Each step is an edge of the path's list, in order, or a link.
            let all = net.list_edges_all();
            let mut next = got.edges.iter().peekable();
            let mut sum = 0.0;
            for pair in got.nodes.windows(2) {
                let (a, b) = (pair[0].index(), pair[1].index());
                prop_assert!(open[a] && open[b]);
                let edge = next.peek().and_then(|&&id| {
                    all.iter().find(|e| e.3 == id && e.0 == a.to_string() && e.1 == b.to_string())
                });
                if let Some(edge) = edge {
                    sum += edge.2;
                    next.next();
                } else {
                    prop_assert!(links.contains(&(a, b)), "step {} -> {} is neither", a, b);
                }
            }
            prop_assert!(next.next().is_none(), "every edge of the path is a step");
            prop_assert!((sum - got.total_weight).abs() < 1e-9);
        }
    }
}

/// Every edge of `net` as `(source id, target id, weight, edge id)`.
trait AllEdges {
    fn list_edges_all(&self) -> Vec<(String, String, f64, u64)>;
}

impl AllEdges for Network {
    fn list_edges_all(&self) -> Vec<(String, String, f64, u64)> {
        use petgraph::visit::{EdgeRef, IntoEdgeReferences};
        self.graph()
            .edge_references()
            .map(|e| {
                (
                    self.id_at(e.source()).to_string(),
                    self.id_at(e.target()).to_string(),
                    e.weight().weight,
                    e.weight().id,
                )
            })
            .collect()
    }
}
