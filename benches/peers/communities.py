#!/usr/bin/env python3
"""Times Louvain in igraph and NetworkX on the graph `examples/bench_communities.rs
--edges` (or `bench_centrality.rs --edges`) wrote: first line N, then `source
target weight` per edge.

- igraph `community_multilevel` (Blondel et al.'s Louvain; undirected only, so it
  runs on the undirected view, each pair's weights summed), resolution 1, with
  weights: median of 3 runs.
- NetworkX `louvain_communities` (directed, as ours), resolution 1, threshold
  1e-7, seed 0, with weights: one run, on graphs up to 100,000 nodes only.

Each line also gives the directed modularity (Leicht-Newman, as NetworkX and
networks-mcp compute it) of the partition found, so that quality is compared
with time. Needs `pip install igraph networkx`.
"""

import json
import statistics
import sys
import time

import igraph
import networkx as nx


def timed(fn, runs=3):
    out = []
    result = None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - started)
    return statistics.median(out), result


def main(path: str) -> None:
    with open(path) as f:
        n = int(f.readline())
        edges = [(int(a), int(b), float(w)) for a, b, w in (line.split() for line in f)]
    directed = igraph.Graph(n=n, edges=[(a, b) for a, b, _ in edges], directed=True)
    directed.es["weight"] = [w for _, _, w in edges]
    undirected = directed.as_undirected(mode="collapse", combine_edges={"weight": "sum"})

    def report(name, seconds, membership, count):
        q = directed.modularity(membership, weights="weight", directed=True)
        print(json.dumps({"measure": name, "nodes": n, "edges": len(edges), "seconds": round(seconds, 4),
                          "modularity": round(q, 6), "communities": count}))

    seconds, clusters = timed(lambda: undirected.community_multilevel(weights="weight", resolution=1))
    report("igraph community_multilevel (undirected view)", seconds, clusters.membership, len(clusters))

    if n <= 100_000:
        g = nx.DiGraph()  # the workload has no parallel edges: a DiGraph is the same multigraph
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from(edges)
        seconds, groups = timed(lambda: nx.community.louvain_communities(g, weight="weight", seed=0), runs=1)
        membership = [0] * n
        for i, group in enumerate(groups):
            for v in group:
                membership[v] = i
        report("networkx louvain_communities", seconds, membership, len(groups))


if __name__ == "__main__":
    main(sys.argv[1])
