#!/usr/bin/env python3
"""Times rustworkx and igraph on the graph `examples/bench_centrality.rs --edges`
wrote (first line N, then `source target weight`): PageRank with the same
damping, tolerance and weights, and betweenness from 100 sources by hops
(igraph: `betweenness(sources=...)` over a sample; rustworkx has no source
sample, so its exact betweenness is timed on graphs up to 20,000 nodes only).
Median of 3 runs. Needs `pip install rustworkx igraph`.
"""

import json
import random
import statistics
import sys
import time

import igraph
import rustworkx


def timed(fn, runs=3):
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return statistics.median(out)


def main(path: str) -> None:
    with open(path) as f:
        n = int(f.readline())
        edges = [(int(a), int(b), float(w)) for a, b, w in (line.split() for line in f)]
    rx = rustworkx.PyDiGraph(multigraph=True)
    rx.add_nodes_from(range(n))
    rx.add_edges_from(edges)
    ig = igraph.Graph(n=n, edges=[(a, b) for a, b, _ in edges], directed=True)
    ig.es["weight"] = [w for _, _, w in edges]
    rows = {
        "rustworkx pagerank": timed(lambda: rustworkx.pagerank(rx, alpha=0.85, weight_fn=float, tol=1e-6)),
        "igraph pagerank": timed(lambda: ig.pagerank(damping=0.85, weights="weight")),
    }
    sources = random.Random(1).sample(range(n), 100)
    rows["igraph betweenness_k100"] = timed(lambda: ig.betweenness(directed=True, sources=sources))
    if n <= 20_000:
        rows["rustworkx betweenness (exact)"] = timed(lambda: rustworkx.digraph_betweenness_centrality(rx), runs=1)
    for name, seconds in rows.items():
        print(json.dumps({"measure": name, "nodes": n, "edges": len(edges), "seconds": round(seconds, 4)}))


if __name__ == "__main__":
    main(sys.argv[1])
