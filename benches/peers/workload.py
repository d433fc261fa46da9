#!/usr/bin/env python3
"""The agent's workload (write a little, then ask) with rustworkx, igraph and
NetworkX, on the graph and rounds `examples/bench_workload.rs --edges PATH`
wrote: PATH holds the DAG (first line N, then `source target weight` per edge,
every edge from a lower to a higher number) and PATH.rounds one JSON object per
round:

    {"edges": [[u, v, w], ...], "done": [v, ...], "query": KIND, ...}

A round adds its edges, sets the attribute `status` to "done" on its `done`
nodes (each library's own node attributes), then runs one query, the closest
each library has to ours:

- "ancestors" (`node`): `rustworkx.ancestors`, igraph `subcomponent(mode="in")`
  (minus the node itself), `networkx.ancestors`;
- "ready": the nodes not done whose successors are all done, done-ness read from
  the node attributes, successors from each library's adjacency (none of the
  three has the call);
- "layers": `rustworkx.topological_generations`, igraph `topological_sorting`
  then each node's layer from its in-neighbours in that order,
  `networkx.topological_generations`;
- "path" (`source`, `target`): weighted Dijkstra to one target:
  `rustworkx.dijkstra_shortest_paths(target=...)`, igraph `get_shortest_path`,
  `networkx.dijkstra_path`.

Each answer is checked against ours (`expect` in the round: the number of
ancestors, of ready nodes, of layers, the hops of the path), after the timed
loop. One JSON line per library on stdout. NetworkX runs only the first
`--nx-rounds` rounds (it is slow at a million nodes). Needs
`pip install rustworkx igraph networkx`.

    benches/peers/workload.py PATH [--nx-rounds K] [--only rustworkx,igraph,networkx]
"""

import argparse
import gc
import json
import sys
import time
import warnings

# igraph warns on every search that leaves nodes unreached (most do).
warnings.filterwarnings("ignore", category=RuntimeWarning)


def read_graph(path):
    with open(path) as f:
        n = int(f.readline())
        edges = [(int(a), int(b), float(w)) for a, b, w in (line.split() for line in f)]
    with open(path + ".rounds") as f:
        rounds = [json.loads(line) for line in f]
    return n, edges, rounds


def percentile(xs, p):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[round((len(xs) - 1) * p)]


class Rustworkx:
    name = "rustworkx"

    def __init__(self, n, edges):
        import rustworkx

        self.rx = rustworkx
        g = rustworkx.PyDiGraph(multigraph=True)
        # Payloads start empty; a node marked done gets the dict {"status": "done"}.
        g.add_nodes_from([None] * n)
        g.add_edges_from(edges)
        self.g = g

    def write(self, r):
        g = self.g
        g.add_edges_from([tuple(e) for e in r["edges"]])
        for v in r["done"]:
            payload = g[v]
            if payload is None:
                g[v] = {"status": "done"}
            else:
                payload["status"] = "done"

    def ancestors(self, v):
        return len(self.rx.ancestors(self.g, v))

    def ready(self):
        g = self.g
        done = [p is not None and p.get("status") == "done" for p in g.nodes()]
        succ = g.successor_indices
        return sum(1 for v in g.node_indices() if not done[v] and all(done[s] for s in succ(v)))

    def layers(self):
        return len(self.rx.topological_generations(self.g))

    def path(self, s, t):
        found = self.rx.dijkstra_shortest_paths(self.g, s, target=t, weight_fn=float)
        return len(found[t]) - 1 if t in found else -1


class Igraph:
    name = "igraph"

    def __init__(self, n, edges):
        import igraph

        g = igraph.Graph(n=n, edges=[(a, b) for a, b, _ in edges], directed=True)
        g.es["weight"] = [w for _, _, w in edges]
        g.vs["status"] = [None] * n
        self.g = g

    def write(self, r):
        g = self.g
        g.add_edges([(u, v) for u, v, _ in r["edges"]], attributes={"weight": [w for _, _, w in r["edges"]]})
        for v in r["done"]:
            g.vs[v]["status"] = "done"

    def ancestors(self, v):
        return len(self.g.subcomponent(v, mode="in")) - 1

    def ready(self):
        g = self.g
        done = [s == "done" for s in g.vs["status"]]
        out = g.get_adjlist(mode="out")
        return sum(1 for v, succ in enumerate(out) if not done[v] and all(done[s] for s in succ))

    def layers(self):
        g = self.g
        order = g.topological_sorting(mode="out")
        into = g.get_adjlist(mode="in")
        layer = [0] * g.vcount()
        deepest = -1
        for v in order:
            preds = into[v]
            here = max(layer[u] for u in preds) + 1 if preds else 0
            layer[v] = here
            if here > deepest:
                deepest = here
        return deepest + 1

    def path(self, s, t):
        found = self.g.get_shortest_path(s, t, weights="weight", mode="out", output="vpath")
        return len(found) - 1 if found else -1


class Networkx:
    name = "networkx"

    def __init__(self, n, edges):
        import networkx

        self.nx = networkx
        g = networkx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from(edges)
        self.g = g

    def write(self, r):
        # A DiGraph keeps one edge per pair: a drawn pair that exists already
        # updates its weight instead (about one round in a thousand at 100k nodes).
        self.g.add_weighted_edges_from([tuple(e) for e in r["edges"]])
        nodes = self.g.nodes
        for v in r["done"]:
            nodes[v]["status"] = "done"

    def ancestors(self, v):
        return len(self.nx.ancestors(self.g, v))

    def ready(self):
        g = self.g
        done = {v for v, s in g.nodes(data="status") if s == "done"}
        succ = g.succ
        return sum(1 for v in g if v not in done and all(s in done for s in succ[v]))

    def layers(self):
        return sum(1 for _ in self.nx.topological_generations(self.g))

    def path(self, s, t):
        try:
            return len(self.nx.dijkstra_path(self.g, s, t, weight="weight")) - 1
        except self.nx.NetworkXNoPath:
            return -1


def run(peer_class, n, edges, rounds):
    started = time.perf_counter()
    peer = peer_class(n, edges)
    build = time.perf_counter() - started
    writes = []
    kinds = {}
    answers = []
    loop_started = time.perf_counter()
    for r in rounds:
        t0 = time.perf_counter()
        peer.write(r)
        t1 = time.perf_counter()
        q = r["query"]
        if q == "ancestors":
            answer = peer.ancestors(r["node"])
        elif q == "ready":
            answer = peer.ready()
        elif q == "layers":
            answer = peer.layers()
        else:
            answer = peer.path(r["source"], r["target"])
        t2 = time.perf_counter()
        writes.append(t1 - t0)
        kinds.setdefault(q, []).append(t2 - t1)
        answers.append(answer)
    seconds = time.perf_counter() - loop_started
    # Checked after the loop, so that checking costs the timings nothing.
    mismatches = [
        {"round": i, "query": r["query"], "ours": r["expect"], "theirs": a}
        for i, (r, a) in enumerate(zip(rounds, answers))
        if a != r["expect"]
    ]
    return {
        "library": peer.name,
        "nodes": n,
        "edges": len(edges),
        "build_s": build,
        "rounds": len(rounds),
        "seconds": seconds,
        "rounds_per_s": len(rounds) / seconds,
        "write_p50_ms": percentile(writes, 0.5) * 1e3,
        "write_p99_ms": percentile(writes, 0.99) * 1e3,
        "queries": {
            k: {
                "count": len(v),
                "p50_ms": percentile(v, 0.5) * 1e3,
                "p99_ms": percentile(v, 0.99) * 1e3,
            }
            for k, v in kinds.items()
        },
        "mismatches": len(mismatches),
        "first_mismatches": mismatches[:3],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--nx-rounds", type=int, default=40)
    parser.add_argument("--only", default="rustworkx,igraph,networkx")
    args = parser.parse_args()
    n, edges, rounds = read_graph(args.path)
    peers = {"rustworkx": Rustworkx, "igraph": Igraph, "networkx": Networkx}
    for name in args.only.split(","):
        cls = peers[name]
        try:
            __import__(name)
        except ImportError:
            print(json.dumps({"library": name, "missing": True}), flush=True)
            continue
        todo = rounds[: args.nx_rounds] if name == "networkx" else rounds
        print(f"workload.py: {name}, {len(todo)} rounds on {n} nodes", file=sys.stderr, flush=True)
        print(json.dumps(run(cls, n, edges, todo)), flush=True)
        gc.collect()


if __name__ == "__main__":
    main()
