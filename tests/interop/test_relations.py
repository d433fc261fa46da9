"""Relation-filtered analysis against NetworkX: on random multigraphs whose
edges carry relation types (or none: plain edges), every tool that follows
edges, called with `relations` or `ignore_relations` (or with neither, on a
network that declares `nonblocking_relations`), answers as NetworkX does on
the subgraph of the followed edges (`G.edge_subgraph`, every node kept):

- network_descendants / network_ancestors: `nx.descendants` / `nx.ancestors`;
- network_traverse (bfs, out): the nodes and depths of
  `nx.single_source_shortest_path_length`;
- network_shortest_path, weighted and by hops: `nx.shortest_path_length`
  (or no path);
- network_paths all_simple: the node sequences of `nx.all_simple_paths`;
  k_shortest by hops: the first k lengths of `nx.shortest_simple_paths`;
- network_topological_sort: DAG or not as `nx.is_directed_acyclic_graph`,
  and the layers of `nx.topological_generations`;
- network_find_cycles: the strongly connected components with a cycle;
- network_critical_path: `nx.dag_longest_path_length`;
- network_ready_nodes and network_claim_ready: the nodes not done whose
  out-neighbours along followed edges are all done.
"""

from __future__ import annotations

import random

import networkx as nx

from conftest import build_network, connect, run_async
from graphs import random_multigraph

TOOLSETS = ("--toolsets", "core,edit,analysis,interchange,algorithms,work")
TYPES = [None, "blocks", "related", "parent"]
SEEDS = range(30)


def typed_multigraph(seed: int) -> nx.MultiDiGraph:
    """2 to 12 nodes; each edge gets a relation type, or none (plain)."""
    rng = random.Random(seed * 7919 + 1)
    g = random_multigraph(seed, nodes=(2, 12), edges_per_node=(1, 3), reverse=0.2)
    for u, v, k in g.edges(keys=True):
        g[u][v][k]["relation"] = rng.choice(TYPES)
    return g


def followed(g: nx.MultiDiGraph, keep) -> nx.MultiDiGraph:
    """The subgraph of the edges whose type `keep` accepts, every node kept."""
    edges = [(u, v, k) for u, v, k, r in g.edges(keys=True, data="relation") if keep(r or "")]
    h = g.edge_subgraph(edges).copy()
    h.add_nodes_from(g.nodes)
    return h


def filters(rng: random.Random):
    """A few filters: (tool arguments, predicate on a type name, "" for plain)."""
    names = ["", "blocks", "related", "parent"]
    out = []
    for _ in range(3):
        chosen = rng.sample(names, rng.randint(1, 3))
        out.append(({"relations": chosen}, lambda r, c=tuple(chosen): r in c))
        out.append(({"ignore_relations": chosen}, lambda r, c=tuple(chosen): r not in c))
    return out


async def load(server, name: str, g: nx.MultiDiGraph) -> None:
    edges = []
    for u, v, w, r in ((u, v, d["weight"], d["relation"]) for u, v, d in g.edges(data=True)):
        edge = {"source": u, "target": v, "weight": w}
        if r is not None:
            edge["attributes"] = {"relation": r}
        edges.append(edge)
    await build_network(server, name, [{"node_id": n} for n in g.nodes], edges)


async def all_pages(server, tool: str, args: dict, field: str) -> list:
    items, cursor = [], None
    while True:
        page = await server.ok(tool, {**args, **({"cursor": cursor} if cursor else {})})
        items.extend(page[field])
        cursor = page.get("next_cursor")
        if not cursor:
            return items


async def compare(server, name: str, g: nx.MultiDiGraph, h: nx.MultiDiGraph, extra: dict, rng) -> None:
    base = {"network_name": name, **extra}
    nodes = list(g.nodes)
    for s in rng.sample(nodes, min(3, len(nodes))):
        down = await all_pages(server, "network_descendants", {**base, "node_id": s, "limit": 1000}, "nodes")
        assert {n["node_id"] for n in down} == nx.descendants(h, s), (s, extra)
        up = await all_pages(server, "network_ancestors", {**base, "node_id": s, "limit": 1000}, "nodes")
        assert {n["node_id"] for n in up} == nx.ancestors(h, s), (s, extra)
        walk = await all_pages(server, "network_traverse", {**base, "start_node_ids": [s], "limit": 1000}, "visited")
        assert {v["node_id"]: v["depth"] for v in walk} == nx.single_source_shortest_path_length(h, s)
        t = rng.choice(nodes)
        for weighted in (True, False):
            path = await server.ok("network_shortest_path", {**base, "source": s, "target": t, "weighted": weighted})
            try:
                expected = nx.shortest_path_length(h, s, t, weight="weight" if weighted else None)
            except nx.NetworkXNoPath:
                expected = None
            if expected is None:
                assert not path["found"], (s, t, extra, path)
            else:
                assert path["found"], (s, t, extra)
                got = path["total_weight"] if weighted else path["hops"]
                assert got == expected, (s, t, weighted, extra, path)
        if s != t:
            simple = await all_pages(
                server, "network_paths", {**base, "source": s, "target": t, "method": "all_simple", "max_depth": 4}, "paths"
            )
            ours = {tuple(p["node_ids"]) for p in simple}
            theirs = {tuple(p) for p in nx.all_simple_paths(h, s, t, cutoff=4)}
            assert ours == theirs, (s, t, extra)
            k = await server.ok(
                "network_paths", {**base, "source": s, "target": t, "method": "k_shortest", "weighted": False, "limit": 5}
            )
            d = nx.DiGraph(h)
            d.remove_edges_from(nx.selfloop_edges(d))
            try:
                lengths = [len(p) - 1 for _, p in zip(range(5), nx.shortest_simple_paths(d, s, t))]
            except nx.NetworkXNoPath:
                lengths = []
            assert [p["hops"] for p in k["paths"]] == lengths, (s, t, extra)

    dag = nx.is_directed_acyclic_graph(h)
    order = await server.call("network_topological_sort", {**base, "limit": 1000})
    critical = await server.call("network_critical_path", {**base, "limit": 1000})
    if dag:
        layers = [sorted(layer) for layer in (await server.ok("network_topological_sort", {**base, "limit": 1000}))["layers"]]
        assert layers == [sorted(gen) for gen in nx.topological_generations(h)], extra
        path = await server.ok("network_critical_path", {**base, "limit": 1000})
        assert path["total_weight"] == nx.dag_longest_path_length(h, weight="weight"), extra
    else:
        for result in (order, critical):
            assert result.is_error, extra
    cycles = await all_pages(server, "network_find_cycles", {**base, "limit": 100, "max_nodes_per_group": 100}, "groups")
    expected = {
        frozenset(c) for c in nx.strongly_connected_components(h) if len(c) > 1 or h.has_edge(next(iter(c)), next(iter(c)))
    }
    assert {frozenset(c["node_ids"]) for c in cycles} == expected, extra

    done = set(rng.sample(nodes, len(nodes) // 3))
    ready = await all_pages(server, "network_ready_nodes", {**base, "done": sorted(done), "limit": 1000}, "ready")
    expected_ready = {n for n in nodes if n not in done and all(m in done for m in h.successors(n))}
    assert set(ready) == expected_ready, extra


@run_async
async def test_filtered_analyses_agree_with_networkx_on_the_followed_subgraph(binary, tmp_path):
    async with connect(binary, tmp_path, *TOOLSETS) as server:
        for seed in SEEDS:
            rng = random.Random(seed)
            g = typed_multigraph(seed)
            name = f"g{seed}"
            await load(server, name, g)
            # No filter: every edge.
            await compare(server, name, g, followed(g, lambda r: True), {}, rng)
            for extra, keep in filters(rng):
                await compare(server, name, g, followed(g, keep), extra, rng)
            # Declared once: calls without a filter skip the non-blocking types.
            await server.ok("network_create", {"network_name": name, "nonblocking_relations": ["related", "parent"]})
            await compare(server, name, g, followed(g, lambda r: r not in ("related", "parent")), {}, rng)
            await compare(server, name, g, followed(g, lambda r: True), {"ignore_relations": []}, rng)


@run_async
async def test_claims_follow_the_declared_relations(binary, tmp_path):
    async with connect(binary, tmp_path, *TOOLSETS) as server:
        for seed in range(10):
            g = typed_multigraph(seed)
            name = f"w{seed}"
            await load(server, name, g)
            await server.ok("network_create", {"network_name": name, "nonblocking_relations": ["related"]})
            h = followed(g, lambda r: r != "related")
            claimed = await server.ok("network_claim_ready", {"network_name": name, "worker": "w", "limit": 100})
            expected = {n for n in g.nodes if not any(True for _ in h.successors(n))}
            assert {c["node_id"] for c in claimed["claimed"]} == expected, seed
