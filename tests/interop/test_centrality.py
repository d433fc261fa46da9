"""Centrality against NetworkX: the same directed multigraphs (parallel edges,
self-loops, weights) in both, every measure compared node by node.

- random multigraphs of 2 to 30 nodes, and a real one: the Les Misérables
  co-appearance network that ships with NetworkX (weighted, both directions);
- connected components, weak and strong: the same sets;
- degree, in- and out-degree: exact; PageRank (weighted, unweighted,
  personalised): within 1e-6 (NetworkX's tolerance); betweenness (by hops and by
  weight, normalised or not) and closeness (by hops and by weight, with and
  without the Wasserman-Faust scaling): within 1e-9.
"""

from __future__ import annotations

import networkx as nx
import pytest

from conftest import connect, run_async
from graphs import ALGORITHMS, les_miserables, random_multigraph
from graphs import load_multigraph as load


async def ours(server, name: str, measure: str, **extra) -> dict[str, float]:
    got = await server.ok(
        "network_centrality", {"network_name": name, "measure": measure, "limit": 10000, **extra}
    )
    assert got["total"] == len(got["scores"]), got
    scores = [s["score"] for s in got["scores"]]
    assert scores == sorted(scores, reverse=True), f"{measure}: not ranked highest first"
    return {s["node_id"]: s["score"] for s in got["scores"]}


def close(name: str, measure: str, mine: dict, theirs: dict, tolerance: float) -> None:
    assert mine.keys() == theirs.keys(), (name, measure)
    worst = max((abs(mine[n] - theirs[n]), n) for n in theirs) if theirs else (0.0, None)
    assert worst[0] <= tolerance, f"{name} {measure}: {worst[1]} differs by {worst[0]}: ours {mine[worst[1]]}, NetworkX {theirs[worst[1]]}"


async def compare(server, name: str, g: nx.MultiDiGraph) -> None:
    await load(server, name, g)
    close(name, "degree", await ours(server, name, "degree"), nx.degree_centrality(g), 1e-12)
    close(name, "in_degree", await ours(server, name, "in_degree"), nx.in_degree_centrality(g), 1e-12)
    close(name, "out_degree", await ours(server, name, "out_degree"), nx.out_degree_centrality(g), 1e-12)
    if g.number_of_nodes() > 0:
        close(name, "pagerank", await ours(server, name, "pagerank"), nx.pagerank(g), 1e-6)
        close(name, "pagerank hops", await ours(server, name, "pagerank", weighted=False), nx.pagerank(g, weight=None), 1e-6)
        nodes = list(g.nodes)
        p = {nodes[0]: 1.0, nodes[-1]: 3.0}
        close(name, "pagerank personalised", await ours(server, name, "pagerank", personalization=p),
              nx.pagerank(g, personalization=p), 1e-6)
    for normalized in (True, False):
        close(name, f"betweenness normalized={normalized}",
              await ours(server, name, "betweenness", normalized=normalized),
              nx.betweenness_centrality(g, normalized=normalized), 1e-9)
        close(name, f"betweenness weighted normalized={normalized}",
              await ours(server, name, "betweenness", weighted=True, normalized=normalized),
              nx.betweenness_centrality(g, normalized=normalized, weight="weight"), 1e-9)
    for wf in (True, False):
        close(name, f"closeness wf={wf}", await ours(server, name, "closeness", wf_improved=wf),
              nx.closeness_centrality(g, wf_improved=wf), 1e-9)
        close(name, f"closeness weighted wf={wf}",
              await ours(server, name, "closeness", weighted=True, wf_improved=wf),
              nx.closeness_centrality(g, distance="weight", wf_improved=wf), 1e-9)


@run_async
async def test_centrality_matches_networkx_on_random_multigraphs(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(25):
            await compare(server, f"r{seed}", random_multigraph(seed))


@run_async
async def test_centrality_matches_networkx_on_les_miserables(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await compare(server, "lesmis", les_miserables())


@run_async
async def test_a_sampled_betweenness_is_seeded_and_exact_work_is_bounded(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = les_miserables()
        await load(server, "lesmis", g)
        a = await ours(server, "lesmis", "betweenness", k=20, seed=7)
        b = await ours(server, "lesmis", "betweenness", k=20, seed=7)
        assert a == b
        # All sources sampled is the exact answer.
        full = await ours(server, "lesmis", "betweenness", k=g.number_of_nodes(), seed=1)
        close("lesmis", "betweenness k=V", full, nx.betweenness_centrality(g), 1e-9)
        await server.err("network_centrality", {"network_name": "lesmis", "measure": "pagerank", "damping": 2}, "invalid_value")


@run_async
async def test_components_match_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(25):
            g = random_multigraph(seed)
            name = f"c{seed}"
            await load(server, name, g)
            for connectivity, theirs in [
                ("weak", nx.weakly_connected_components(g)),
                ("strong", nx.strongly_connected_components(g)),
            ]:
                got = await server.ok(
                    "network_communities",
                    {"network_name": name, "method": connectivity, "limit": 10000,
                     "max_nodes_per_group": 10000},
                )
                mine = [frozenset(c["node_ids"]) for c in got["groups"]]
                assert all(c["size"] == len(c["node_ids"]) for c in got["groups"])
                assert sorted(mine, key=sorted) == sorted(map(frozenset, theirs), key=sorted), (name, connectivity)
                order = list(g.nodes)
                ranks = [(-len(c), min(order.index(n) for n in c)) for c in mine]
                assert ranks == sorted(ranks), "groups largest first, ties by their first node"
