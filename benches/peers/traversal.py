#!/usr/bin/env python3
"""Times rustworkx and igraph on the graphs `examples/bench_traversal.rs --peers`
wrote: PATH holds the random digraph and PATH.dag its DAG variant (first line
N, then `source target weight` per edge). The operations of that table:

- build: from a string-id edge list (ids `n0…`, mapped to node indices through a
  dict, as a program holding ids does), and `build_int` from the integer pairs;
- neighbors: the out-neighbours of every node, one call per node
  (`successor_indices`, igraph `successors`);
- bfs from node 0 (`rustworkx.bfs_layers`, igraph `bfs`);
- dijkstra: weighted distances from node 0 to every node
  (`rustworkx.dijkstra_shortest_path_lengths`, igraph `distances`);
- toposort of the DAG (`rustworkx.topological_sort`, igraph
  `topological_sorting`).

Neither library keeps a lazily built copy of its adjacency, so there is no cold
or warm case: every call is as the first after a change. Median of `--runs`
runs; one JSON line per library and operation. Needs
`pip install rustworkx igraph`.

    benches/peers/traversal.py PATH [--runs 3]
"""

import argparse
import gc
import json
import statistics
import sys
import time


def read(path):
    with open(path) as f:
        n = int(f.readline())
        edges = [(int(a), int(b), float(w)) for a, b, w in (line.split() for line in f)]
    return n, edges


def timed(fn, runs):
    out = []
    result = None
    for _ in range(runs):
        result = None
        gc.collect()
        started = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - started)
    return statistics.median(out), result


def rustworkx_ops(n, edges, dag_edges, ids, str_edges):
    import rustworkx as rx

    def build_str():
        g = rx.PyDiGraph(multigraph=True)
        index = dict(zip(ids, g.add_nodes_from(ids)))
        g.add_edges_from([(index[s], index[t], w) for s, t, w in str_edges])
        return g

    def build_int(edge_list):
        g = rx.PyDiGraph(multigraph=True)
        g.add_nodes_from(range(n))
        g.add_edges_from(edge_list)
        return g

    yield "build", build_str
    yield "build_int", lambda: build_int(edges)
    g = build_int(edges)
    dag = build_int(dag_edges)
    yield "neighbors", lambda: sum(len(g.successor_indices(v)) for v in g.node_indices())
    yield "bfs", lambda: sum(len(layer) for layer in rx.bfs_layers(g, [0]))
    yield "dijkstra", lambda: len(rx.dijkstra_shortest_path_lengths(g, 0, edge_cost_fn=float)) + 1
    yield "toposort", lambda: len(rx.topological_sort(dag))


def igraph_ops(n, edges, dag_edges, ids, str_edges):
    import igraph

    def build_str():
        index = {v: i for i, v in enumerate(ids)}
        g = igraph.Graph(n=n, edges=[(index[s], index[t]) for s, t, _ in str_edges], directed=True)
        g.vs["name"] = ids
        g.es["weight"] = [w for _, _, w in str_edges]
        return g

    def build_int(edge_list):
        g = igraph.Graph(n=n, edges=[(a, b) for a, b, _ in edge_list], directed=True)
        g.es["weight"] = [w for _, _, w in edge_list]
        return g

    yield "build", build_str
    yield "build_int", lambda: build_int(edges)
    g = build_int(edges)
    dag = build_int(dag_edges)
    inf = float("inf")
    yield "neighbors", lambda: sum(len(g.successors(v)) for v in range(n))
    yield "bfs", lambda: len(g.bfs(0, mode="out")[0])
    yield "dijkstra", lambda: sum(1 for d in g.distances(source=0, weights="weight", mode="out")[0] if d != inf)
    yield "toposort", lambda: len(dag.topological_sorting(mode="out"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n, edges = read(args.path)
    _, dag_edges = read(args.path + ".dag")
    ids = [f"n{i}" for i in range(n)]
    str_edges = [(ids[a], ids[b], w) for a, b, w in edges]
    for name, ops in (("rustworkx", rustworkx_ops), ("igraph", igraph_ops)):
        try:
            __import__(name)
        except ImportError:
            print(json.dumps({"library": name, "missing": True}), flush=True)
            continue
        print(f"traversal.py: {name} on {n} nodes", file=sys.stderr, flush=True)
        for op, fn in ops(n, edges, dag_edges, ids, str_edges):
            seconds, result = timed(fn, args.runs)
            count = result if isinstance(result, int) else None
            del result
            print(json.dumps({"library": name, "op": op, "seconds": seconds, "count": count}), flush=True)
        gc.collect()


if __name__ == "__main__":
    main()
