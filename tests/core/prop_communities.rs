//! Properties of Louvain on small random multigraphs (parallel edges, self-loops,
//! zero weights, and a removed node so that indices have gaps): the groups
//! partition the nodes in the documented order, the modularity reported is that
//! of the groups, no node gains by joining a neighbour's community, a seed
//! always gives the same answer, and the answer is never worse than every node
//! alone. (Agreement with NetworkX is
//! tests/interop/test_communities.py.)

use crate::numbered;

use networks_mcp::network::Direction;
use networks_mcp::network::communities::LouvainOptions;
use petgraph::stable_graph::NodeIndex;
use proptest::prelude::*;

fn graph() -> impl Strategy<Value = (usize, Vec<(usize, usize, f64)>)> {
    (1usize..=12).prop_flat_map(|n| {
        prop::collection::vec(
            (
                0..n,
                0..n,
                prop::sample::select(&[0.0, 0.5, 1.0, 2.0, 3.0][..]),
            ),
            0..=40,
        )
        .prop_map(move |edges| (n, edges))
    })
}

fn options() -> impl Strategy<Value = LouvainOptions> {
    (
        prop::sample::select(&[0.0, 0.5, 1.0, 2.0][..]),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(resolution, seed, weighted)| LouvainOptions {
            resolution,
            seed,
            weighted,
            ..LouvainOptions::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn louvain_partitions_reports_its_modularity_and_is_seeded(
        (n, edges) in graph(),
        options in options(),
        remove in any::<prop::sample::Index>(),
    ) {
        let mut net = numbered::network(n, edges.iter().copied());
        if n > 1 {
            net.remove_node(&numbered::id(remove.index(n))).unwrap();
        }
        let found = net.louvain(&options).unwrap();

        // A partition of the nodes, each group in index order, largest first,
        // ties by first node.
        let mut all: Vec<NodeIndex> = found.groups.concat();
        prop_assert!(found.groups.iter().all(|g| !g.is_empty()));
        prop_assert!(found.groups.iter().all(|g| g.windows(2).all(|w| w[0] < w[1])));
        let keys: Vec<(std::cmp::Reverse<usize>, NodeIndex)> =
            found.groups.iter().map(|g| (std::cmp::Reverse(g.len()), g[0])).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{:?}", found.groups);
        all.sort();
        prop_assert_eq!(all, net.graph().node_indices().collect::<Vec<_>>());

        // The modularity reported is that of the groups.
        let q = net.modularity(&found.groups, options.resolution, options.weighted).unwrap();
        prop_assert!((q - found.modularity).abs() < 1e-9, "{} vs {}", q, found.modularity);

        // Never worse than every node alone.
        let alone: Vec<Vec<NodeIndex>> = net.graph().node_indices().map(|ix| vec![ix]).collect();
        let q_alone = net.modularity(&alone, options.resolution, options.weighted).unwrap();
        prop_assert!(found.modularity >= q_alone - 1e-12, "{} < {}", found.modularity, q_alone);

        // A local optimum: no node gains by joining the community of a neighbour.
        let groups = &found.groups;
        let group_of = |ix: NodeIndex| groups.iter().position(|g| g.contains(&ix)).unwrap();
        for ix in net.graph().node_indices() {
            let own = group_of(ix);
            for other in net.neighbor_indices(ix, Direction::Both) {
                let target = group_of(other);
                if target == own {
                    continue;
                }
                let mut moved = groups.clone();
                moved[own].retain(|&v| v != ix);
                moved[target].push(ix);
                let q_moved = net.modularity(&moved, options.resolution, options.weighted).unwrap();
                prop_assert!(q_moved <= found.modularity + 1e-9, "moving {:?} gains {}", ix, q_moved - found.modularity);
            }
        }

        // The same seed, the same answer.
        prop_assert_eq!(net.louvain(&options).unwrap(), found);
    }

    #[test]
    fn modularity_refuses_what_is_not_a_partition((n, edges) in graph(), drop in any::<prop::sample::Index>()) {
        let net = numbered::network(n, edges.iter().copied());
        let nodes = numbered::indices(&net, n);
        let whole = net.modularity(std::slice::from_ref(&nodes), 1.0, true).unwrap();
        // Everything in one community: Q = 1 − 1 = 0 at resolution 1 (0 too without edges).
        prop_assert!(whole.abs() < 1e-12, "{}", whole);
        let mut missing = nodes.clone();
        missing.remove(drop.index(n));
        prop_assert!(net.modularity(&[missing], 1.0, true).is_err());
        let twice = vec![nodes.clone(), vec![nodes[drop.index(n)]]];
        prop_assert!(net.modularity(&twice, 1.0, true).is_err());
    }
}
