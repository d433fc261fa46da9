"""The path families against NetworkX, through `network_paths`: the same
directed multigraphs (parallel edges, self-loops, weights) in both.

- all_simple with several max_depth: exactly the node sequences of
  `nx.all_simple_paths(G, s, t, cutoff)` (which lists a sequence once per
  combination of parallel edges; we list it once), and in its depth-first order
  with those repeats dropped; collected page by page through the cursors.
- k_shortest, by weight and by hops: compared with `nx.shortest_simple_paths`
  on the simple digraph that keeps the lightest of each set of parallel edges
  and no self-loop (NetworkX refuses multigraphs there). The multiset of costs
  equals NetworkX's first k costs, and the paths of cost strictly below the k-th
  are exactly NetworkX's (paths tied at the k-th cost may be other ones).
- every path returned is simple and real: each step is the edge named, the
  lightest between its two nodes (ties to the lowest id), and the weight and
  hops add up.

Graphs: random multigraphs of 2 to 10 nodes, and the Les Misérables
co-appearance network that ships with NetworkX (weighted, both directions).
"""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx

from conftest import connect, run_async
from graphs import ALGORITHMS, les_miserables, load_multigraph
from graphs import random_multigraph as any_multigraph


def random_multigraph(seed: int) -> nx.MultiDiGraph:
    """2 to 10 nodes, 1 to 5 edges per node: small enough to enumerate every path."""
    return any_multigraph(seed, nodes=(2, 10), edges_per_node=(1, 5))


# Paths per page: small, so that the cursors are followed.
PAGE = 7
K = 10


def pairs(g: nx.MultiDiGraph, seed: int, count: int = 4) -> list[tuple[str, str]]:
    """`count` (source, target) pairs: `count - 1` with the target reachable from
    the source (if any node is), one drawn freely (often unreachable); then a
    node with itself."""
    rng = random.Random(seed)
    nodes = list(g.nodes)
    out = []
    for _ in range(count - 1):
        s = rng.choice(nodes)
        reach = sorted(nx.descendants(g, s))
        out.append((s, rng.choice(reach) if reach else rng.choice(nodes)))
    out.append((rng.choice(nodes), rng.choice(nodes)))
    s = rng.choice(nodes)
    out.append((s, s))
    return out


def lightest(g: nx.MultiDiGraph) -> nx.DiGraph:
    """The simple digraph of g: the lightest of each set of parallel edges, no
    self-loop."""
    d = nx.DiGraph()
    d.add_nodes_from(g.nodes)
    for u, v, w in g.edges(data="weight"):
        if u != v and (not d.has_edge(u, v) or w < d[u][v]["weight"]):
            d.add_edge(u, v, weight=w)
    return d


async def load(server, name: str, g: nx.MultiDiGraph) -> dict[int, tuple[str, str, float]]:
    """Loads g (edges in g.edges order) and returns edge id -> (source, target, weight)."""
    ids = await load_multigraph(server, name, g)
    return dict(zip(ids, g.edges(data="weight")))


def check_real(path: dict, s: str, t: str, edges: dict[int, tuple[str, str, float]]) -> None:
    nodes, ids = path["node_ids"], path["edge_ids"]
    assert nodes[0] == s and nodes[-1] == t, path
    assert len(set(nodes)) == len(nodes), f"not simple: {nodes}"
    assert path["hops"] == len(ids) == len(nodes) - 1, path
    total = 0.0
    for (u, v), eid in zip(itertools.pairwise(nodes), ids):
        assert eid in edges and edges[eid][:2] == (u, v), f"edge {eid} does not join {u} -> {v}"
        best = min((w, i) for i, (a, b, w) in edges.items() if (a, b) == (u, v))
        assert eid == best[1], f"{u} -> {v}: edge {eid} taken, the lightest is {best[1]}"
        total += edges[eid][2]
    assert path["total_weight"] == total, path


async def pages(server, name: str, s: str, t: str, want: int | None = None, **args) -> list[dict]:
    """The paths of network_paths, page by page, until the last page (or `want` paths)."""
    out: list[dict] = []
    cursor = None
    while True:
        call = {"network_name": name, "source": s, "target": t, "limit": PAGE, **args}
        if cursor:
            call["cursor"] = cursor
        page = await server.ok("network_paths", call)
        assert len(page["paths"]) <= PAGE, page
        out.extend(page["paths"])
        cursor = page.get("next_cursor")
        assert page["truncated"] == bool(cursor), page
        if not cursor or (want is not None and len(out) >= want):
            return out[:want] if want is not None else out


async def compare_all_simple(server, name, g, edges, s, t, max_depth) -> None:
    mine = await pages(server, name, s, t, method="all_simple", max_depth=max_depth)
    for p in mine:
        check_real(p, s, t, edges)
        assert p["hops"] <= max_depth, p
    got = [tuple(p["node_ids"]) for p in mine]
    theirs = list(dict.fromkeys(map(tuple, nx.all_simple_paths(g, s, t, cutoff=max_depth))))
    assert len(set(got)) == len(got), f"{name} {s}->{t} depth {max_depth}: a path is listed twice"
    assert set(got) == set(theirs), f"{name} {s}->{t} depth {max_depth}: ours {sorted(got)}, NetworkX {sorted(theirs)}"
    # NetworkX's depth-first order (neighbours in the order first linked), repeats dropped.
    assert got == theirs, f"{name} {s}->{t} depth {max_depth}: same paths, another order"


def cost(d: nx.DiGraph, nodes, weighted: bool) -> float:
    return nx.path_weight(d, list(nodes), "weight") if weighted else float(len(nodes) - 1)


async def compare_k_shortest(server, name, d, edges, s, t, k, weighted) -> None:
    mine = await pages(server, name, s, t, want=k, method="k_shortest", weighted=weighted)
    for p in mine:
        check_real(p, s, t, edges)
    try:
        theirs = [tuple(p) for p in itertools.islice(
            nx.shortest_simple_paths(d, s, t, weight="weight" if weighted else None), k)]
    except nx.NetworkXNoPath:
        theirs = []
    label = f"{name} {s}->{t} k={k} weighted={weighted}"
    my_costs = [p["total_weight"] if weighted else float(p["hops"]) for p in mine]
    assert my_costs == sorted(my_costs), f"{label}: costs decrease: {my_costs}"
    their_costs = [cost(d, p, weighted) for p in theirs]
    assert my_costs == sorted(their_costs), f"{label}: costs {my_costs}, NetworkX {their_costs}"
    got = [tuple(p["node_ids"]) for p in mine]
    assert len(set(got)) == len(got), f"{label}: a path is listed twice"
    # Below the k-th cost the paths are forced; at it, ties may pick other ones.
    bound = their_costs[-1] if len(theirs) == k else math.inf
    below_mine = {p for p, c in zip(got, my_costs) if c < bound}
    below_theirs = {p for p, c in zip(theirs, their_costs) if c < bound}
    assert below_mine == below_theirs, f"{label}: ours {sorted(below_mine)}, NetworkX {sorted(below_theirs)}"


async def compare(server, name: str, g: nx.MultiDiGraph, seed: int, depths, k: int) -> None:
    edges = await load(server, name, g)
    d = lightest(g)
    for s, t in pairs(g, seed):
        for max_depth in depths:
            await compare_all_simple(server, name, g, edges, s, t, max_depth)
        for weighted in (True, False):
            await compare_k_shortest(server, name, d, edges, s, t, k, weighted)


@run_async
async def test_paths_match_networkx_on_random_multigraphs(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(25):
            await compare(server, f"r{seed}", random_multigraph(seed), seed, (1, 2, 4, 10), K)


@run_async
async def test_paths_match_networkx_on_les_miserables(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = les_miserables()
        edges = await load(server, "lesmis", g)
        d = lightest(g)
        for s, t in [("Valjean", "Cosette"), ("Myriel", "Gavroche"), ("Napoleon", "Javert")]:
            for max_depth in (2, 3, 4):
                await compare_all_simple(server, "lesmis", g, edges, s, t, max_depth)
            for weighted in (True, False):
                await compare_k_shortest(server, "lesmis", d, edges, s, t, 30, weighted)


@run_async
async def test_k_shortest_by_weight_refuses_negative_weights(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = random_multigraph(3)
        u, v = list(g.nodes)[:2]
        g.add_edge(u, v, weight=-2.0)
        edges = await load(server, "neg", g)
        await server.err(
            "network_paths",
            {"network_name": "neg", "source": u, "target": v, "method": "k_shortest", "weighted": True},
            "invalid_value",
        )
        # By hops the weights do not matter; all_simple only sums them.
        await compare_k_shortest(server, "neg", lightest(g), edges, u, v, K, False)
        await compare_all_simple(server, "neg", g, edges, u, v, 10)
