#!/usr/bin/env python3
"""Times rustworkx and igraph on the graph `examples/bench_heavy.rs --peers`
wrote (first line N, then `source target weight` per edge), the heavy
operations of that table, where each library has them:

- pagerank: damping 0.85, tolerance 1e-6, weighted (`rustworkx.pagerank`,
  igraph `pagerank`, PRPACK); pagerank_converged: the same to tolerance 1e-12
  (igraph's PRPACK solves directly, with no tolerance: its one call stands in
  both rows);
- betweenness_k256: by hops from the sources given with `--sources` (our
  sample, so the scores must agree), rescaled as NetworkX rescales a sample of
  k sources (igraph `betweenness(sources=...)`); rustworkx has no source
  sample, only exact betweenness, out of reach at this size;
- louvain: igraph `community_multilevel` on the undirected view (each pair's
  weights summed; the view is made before the timer starts), resolution 1,
  weighted; its partition scored with the directed modularity ours uses.
  rustworkx has no Louvain;
- weak_components, strong_components (`rustworkx.weakly_connected_components`,
  `strongly_connected_components`; igraph `connected_components(mode=...)`);
- k_shortest_10: the k shortest simple paths by weight from `--source` to
  `--target` (igraph `get_k_shortest_paths`, Yen). rustworkx's
  `digraph_k_shortest_path_lengths` gives the length of the k-th shortest walk
  (nodes may repeat), a different question, so it is not timed.

Median of `--runs` runs; one JSON line per library and operation, with what
the answers are compared on. Needs `pip install rustworkx igraph`.

    benches/peers/heavy.py PATH --source S --target T --sources 1,2,... [--k 10] [--runs 1]
"""

import argparse
import gc
import json
import statistics
import sys
import time


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


def emit(library, op, seconds, **fields):
    print(json.dumps({"library": library, "op": op, "seconds": seconds, **fields}), flush=True)


def log(message):
    print(f"heavy.py: {message}", file=sys.stderr, flush=True)


def rescale(raw, n, sources):
    """NetworkX's rescaling of betweenness from a sample of k sources, not
    normalized: (n - 1) / k, and (n - 1) / (k - 1) for the sources themselves."""
    k = len(sources)
    is_source = set(sources)
    return [b * ((n - 1) / (k - 1) if v in is_source else (n - 1) / k) for v, b in enumerate(raw)]


def top(values, count):
    order = sorted(range(len(values)), key=lambda v: (-values[v], v))
    return [[v, values[v]] for v in order[:count]]


def rustworkx_ops(n, edges, args):
    import rustworkx as rx

    def build(count, edge_list):
        g = rx.PyDiGraph(multigraph=True)
        g.add_nodes_from(range(count))
        g.add_edges_from(edge_list)
        return g

    # A first call loads what it needs: warm up on a tiny graph, untimed.
    tiny = build(3, [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)])
    rx.pagerank(tiny, weight_fn=float)
    rx.weakly_connected_components(tiny)
    rx.strongly_connected_components(tiny)
    g = build(n, edges)

    for op, tol in (("pagerank", 1e-6), ("pagerank_converged", 1e-12)):
        seconds, ranks = timed(lambda: rx.pagerank(g, alpha=0.85, weight_fn=float, tol=tol, max_iter=1000), args.runs)
        best = max(ranks.keys(), key=lambda v: (ranks[v], -v))
        emit("rustworkx", op, seconds, top=best, top_score=ranks[best], answer=f"top n{best} ({ranks[best]:.6e})")
        del ranks
    for op, fn in (
        ("weak_components", rx.weakly_connected_components),
        ("strong_components", rx.strongly_connected_components),
    ):
        seconds, groups = timed(lambda: fn(g), args.runs)
        largest = max(map(len, groups))
        emit("rustworkx", op, seconds, count=len(groups), largest=largest, answer=f"{len(groups)} (largest {largest})")
        del groups


def igraph_ops(n, edges, args):
    import igraph

    def build(count, edge_list):
        g = igraph.Graph(n=count, edges=[(a, b) for a, b, _ in edge_list], directed=True)
        g.es["weight"] = [w for _, _, w in edge_list]
        return g

    # A first call loads what it needs (PageRank's first takes about a second):
    # warm up on a tiny graph, untimed.
    tiny = build(3, [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)])
    tiny.pagerank(weights="weight")
    tiny.betweenness(directed=True, sources=[0])
    tiny.as_undirected(mode="collapse", combine_edges={"weight": "sum"}).community_multilevel(weights="weight")
    tiny.connected_components(mode="strong")
    tiny.get_k_shortest_paths(0, to=2, k=2, weights="weight", output="epath")
    g = build(n, edges)

    # PRPACK solves the linear system directly: it has no tolerance, so the same
    # call stands in both rows.
    seconds, ranks = timed(lambda: g.pagerank(damping=0.85, weights="weight"), args.runs)
    best = max(range(n), key=lambda v: (ranks[v], -v))
    for op in ("pagerank", "pagerank_converged"):
        emit("igraph", op, seconds, top=best, top_score=ranks[best], answer=f"top n{best} ({ranks[best]:.6e}), PRPACK")
    del ranks

    sources = [int(s) for s in args.sources.split(",")]
    log(f"igraph betweenness from {len(sources)} sources")
    seconds, raw = timed(lambda: g.betweenness(directed=True, sources=sources), args.runs)
    best = top(rescale(raw, n, sources), 5)
    emit("igraph", "betweenness_k256", seconds, top=best, answer=f"top n{best[0][0]} ({best[0][1]:.4e}), our sources")
    del raw

    undirected = g.as_undirected(mode="collapse", combine_edges={"weight": "sum"})
    seconds, clusters = timed(lambda: undirected.community_multilevel(weights="weight", resolution=1), args.runs)
    q = g.modularity(clusters.membership, weights="weight", directed=True)
    emit("igraph", "louvain", seconds, answer=f"{len(clusters)} communities, Q = {q:.4f} (undirected view)")
    del clusters, undirected

    for op, mode in (("weak_components", "weak"), ("strong_components", "strong")):
        seconds, groups = timed(lambda: g.connected_components(mode=mode), args.runs)
        largest = max(groups.sizes())
        emit("igraph", op, seconds, count=len(groups), largest=largest, answer=f"{len(groups)} (largest {largest})")
        del groups

    log(f"igraph k shortest paths {args.source} -> {args.target}")
    weight = g.es["weight"]
    seconds, paths = timed(
        lambda: g.get_k_shortest_paths(args.source, to=args.target, k=args.k, mode="out", weights="weight", output="epath"),
        args.runs,
    )
    weights = [sum(weight[e] for e in p) for p in paths]
    hops = [len(p) for p in paths]
    emit("igraph", "k_shortest_10", seconds, weights=weights,
         answer=f"{len(paths)} paths: {weights[0]:.4f} … {weights[-1]:.4f}, {min(hops)}–{max(hops)} hops")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--source", type=int, required=True)
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--sources", required=True, help="betweenness sources, comma-separated")
    args = parser.parse_args()
    with open(args.path) as f:
        n = int(f.readline())
        edges = [(int(a), int(b), float(w)) for a, b, w in (line.split() for line in f)]
    for name, ops in (("rustworkx", rustworkx_ops), ("igraph", igraph_ops)):
        try:
            __import__(name)
        except ImportError:
            print(json.dumps({"library": name, "missing": True}), flush=True)
            continue
        log(f"{name} on {n} nodes, {len(edges)} edges")
        ops(n, edges, args)
        gc.collect()


if __name__ == "__main__":
    main()
