"""Louvain against NetworkX: the same directed multigraphs (parallel edges,
self-loops, weights) in both.

Our generator is not Python's, so a seed cannot give NetworkX's partition; the
comparison is of quality. For each graph and each resolution in (1.0, 0.5,
2.0), with seeds 0..4 on both sides:

- our partition is a partition of the nodes, listed largest first (ties by
  first node in insertion order), each community's nodes in insertion order;
- the modularity we report equals `nx.community.modularity` of the partition we
  return, within 1e-9;
- the mean of our five modularities (each recomputed by NetworkX) is at least
  0.97 of the mean of NetworkX's five, and so is each one of ours. "0.97 of q"
  means `q - 0.03·|q|`, which is 0.97·q for the usual positive q and stays a
  lower bound when q is negative (possible at resolution 2).

Graphs: 20 random multigraphs of 30 to 200 nodes with planted groups (so that
communities are not trivial), Les Misérables (weighted, both directions) and
Zachary's karate club (weighted, both directions), all shipped with NetworkX.
"""

from __future__ import annotations

import random
import statistics

import networkx as nx

from conftest import build_network, connect, run_async
from graphs import ALGORITHMS, both_directions, les_miserables
from graphs import load_multigraph as load
SEEDS = range(5)
RESOLUTIONS = (1.0, 0.5, 2.0)
QUALITY = 0.97


def random_multigraph(seed: int) -> nx.MultiDiGraph:
    """n nodes in k planted groups; most edges stay inside a group, some do not;
    weights 1..5, with self-loops and parallel edges."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    n = rng.randint(30, 200)
    k = rng.randint(2, 8)
    group = [rng.randrange(k) for _ in range(n)]
    members = [[v for v in range(n) if group[v] == c] for c in range(k)]
    g.add_nodes_from(f"n{i}" for i in range(n))
    for _ in range(rng.randint(2 * n, 4 * n)):
        u = rng.randrange(n)
        v = rng.choice(members[group[u]]) if rng.random() < 0.7 else rng.randrange(n)
        if rng.random() < 0.05:
            v = u  # a self-loop
        g.add_edge(f"n{u}", f"n{v}", weight=float(rng.randint(1, 5)))
        if rng.random() < 0.15:
            g.add_edge(f"n{u}", f"n{v}", weight=float(rng.randint(1, 5)))  # a parallel edge
    return g


def karate_club() -> nx.MultiDiGraph:
    g = both_directions(nx.karate_club_graph())
    # Ids as strings, as the server keeps them.
    return nx.relabel_nodes(g, {v: f"k{v}" for v in g.nodes})


def networkx_modularities(g: nx.MultiDiGraph, resolution: float) -> list[float]:
    """NetworkX's Louvain modularity for each seed."""
    out = []
    for seed in SEEDS:
        groups = nx.community.louvain_communities(g, weight="weight", resolution=resolution, seed=seed)
        out.append(nx.community.modularity(g, groups, weight="weight", resolution=resolution))
    return out


def floor(q: float) -> float:
    """QUALITY of q, as a lower bound whatever the sign of q."""
    return q - (1 - QUALITY) * abs(q)


def check_quality(name: str, resolution: float, mine: list[float], theirs: list[float]) -> None:
    ours_mean, their_mean = statistics.mean(mine), statistics.mean(theirs)
    assert ours_mean >= floor(their_mean), (
        f"{name} γ={resolution}: our mean modularity {ours_mean:.6f} < {QUALITY} of NetworkX's {their_mean:.6f} "
        f"(ours {mine}, NetworkX {theirs})"
    )
    for seed, q in zip(SEEDS, mine):
        assert q >= floor(their_mean), (
            f"{name} γ={resolution} seed {seed}: our modularity {q:.6f} < {QUALITY} of NetworkX's mean {their_mean:.6f}"
        )


async def ours(server, name: str, g: nx.MultiDiGraph, resolution: float, seed: int, **extra) -> tuple[list[list[str]], float]:
    """Our partition and reported modularity, after checking the answer's shape."""
    got = await server.ok(
        "network_communities",
        {"network_name": name, "method": "louvain", "resolution": resolution, "seed": seed,
         "limit": 10000, "max_nodes_per_group": 10000, **extra},
    )
    assert got["method"] == "louvain", got
    assert got["truncated"] is False and "next_cursor" not in got, got
    communities = got["groups"]
    assert got["total"] == len(communities), got
    groups = [c["node_ids"] for c in communities]
    assert all(c["size"] == len(c["node_ids"]) for c in communities)
    assert nx.community.is_partition(g, [set(c) for c in groups]), f"{name}: not a partition of the nodes"
    order = {n: i for i, n in enumerate(g.nodes)}
    for c in groups:
        assert [order[n] for n in c] == sorted(order[n] for n in c), f"{name}: a community out of insertion order"
    keys = [(-len(c), order[c[0]]) for c in groups]
    assert keys == sorted(keys), f"{name}: communities not largest first, ties by first node"
    return groups, got["modularity"]


async def compare(server, name: str, g: nx.MultiDiGraph) -> None:
    await load(server, name, g)
    for resolution in RESOLUTIONS:
        mine = []
        for seed in SEEDS:
            groups, reported = await ours(server, name, g, resolution, seed)
            q = nx.community.modularity(g, [set(c) for c in groups], weight="weight", resolution=resolution)
            assert abs(reported - q) <= 1e-9, f"{name} γ={resolution} seed {seed}: reported {reported}, NetworkX computes {q}"
            mine.append(q)
        check_quality(name, resolution, mine, networkx_modularities(g, resolution))


@run_async
async def test_louvain_matches_networkx_on_random_multigraphs(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(10):
            await compare(server, f"r{seed}", random_multigraph(seed))


@run_async
async def test_louvain_matches_networkx_on_more_random_multigraphs(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(10, 20):
            await compare(server, f"r{seed}", random_multigraph(seed))


@run_async
async def test_louvain_matches_networkx_on_les_miserables_and_karate(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await compare(server, "lesmis", les_miserables())
        await compare(server, "karate", karate_club())


@run_async
async def test_louvain_is_seeded_counts_edges_unweighted_and_refuses_bad_input(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = les_miserables()
        await load(server, "lesmis", g)
        a = await ours(server, "lesmis", g, 1.0, 7)
        b = await ours(server, "lesmis", g, 1.0, 7)
        assert a == b, "the same seed gives the same partition"
        # Unweighted: every edge weighs 1, as NetworkX's weight=None.
        mine = []
        for seed in SEEDS:
            groups, reported = await ours(server, "lesmis", g, 1.0, seed, weighted=False)
            q = nx.community.modularity(g, [set(c) for c in groups], weight=None)
            assert abs(reported - q) <= 1e-9
            mine.append(q)
        theirs = [
            nx.community.modularity(g, nx.community.louvain_communities(g, weight=None, seed=s), weight=None)
            for s in SEEDS
        ]
        check_quality("lesmis unweighted", 1.0, mine, theirs)
        await server.err("network_communities", {"network_name": "lesmis", "method": "louvain", "resolution": -1.0}, "invalid_value")
        # Negative weights are refused by weight, and counted without.
        await build_network(server, "neg", [{"node_id": "a"}, {"node_id": "b"}],
                            [{"source": "a", "target": "b", "weight": -1.0}, {"source": "b", "target": "a", "weight": 2.0}])
        await server.err("network_communities", {"network_name": "neg", "method": "louvain"}, "invalid_value")
        groups, reported = await ours(server, "neg", nx.MultiDiGraph([("a", "b"), ("b", "a")]), 1.0, 0, weighted=False)
        assert groups == [["a", "b"]] and reported == 0.0


@run_async
async def test_no_edges_means_every_node_alone_with_modularity_zero(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = nx.MultiDiGraph()
        g.add_nodes_from(["a", "b", "c"])
        await load(server, "bare", g)
        groups, reported = await ours(server, "bare", g, 1.0, 0)
        # NetworkX gives the same partition (and cannot compute its modularity:
        # it divides by the total weight, 0).
        assert sorted(map(frozenset, groups), key=sorted) == sorted(
            map(frozenset, nx.community.louvain_communities(g, seed=0)), key=sorted
        )
        assert groups == [["a"], ["b"], ["c"]] and reported == 0.0
