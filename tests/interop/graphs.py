"""The graphs the NetworkX differential tests share, and how they are loaded.

- random_multigraph: a seeded random directed multigraph with integer weights,
  self-loops, parallel edges and (optionally) reverse edges;
- les_miserables: the co-appearance network that ships with NetworkX, a real
  weighted graph, one edge per direction or both;
- load_multigraph: builds one as a network, returning our edge ids in
  g.edges() order.
"""

from __future__ import annotations

import random

import networkx as nx

from conftest import build_network

# The server flags that offer the algorithms toolset next to the default ones.
ALGORITHMS = ("--toolsets", "core,edit,analysis,interchange,algorithms")


def random_multigraph(
    seed: int,
    nodes: tuple[int, int] = (2, 30),
    edges_per_node: tuple[int, int] = (0, 3),
    reverse: float = 0.0,
) -> nx.MultiDiGraph:
    """`nodes` (inclusive range) nodes n0, n1, ... and edges_per_node × n edges
    (inclusive range), weights 1 to 5: 10% self-loops, 15% followed by a parallel
    edge, and with `reverse` > 0 that share followed by the reverse edge."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    n = rng.randint(*nodes)
    g.add_nodes_from(f"n{i}" for i in range(n))
    for _ in range(rng.randint(edges_per_node[0] * n, edges_per_node[1] * n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if rng.random() < 0.1:
            v = u  # a self-loop
        g.add_edge(f"n{u}", f"n{v}", weight=float(rng.randint(1, 5)))
        if rng.random() < 0.15:
            g.add_edge(f"n{u}", f"n{v}", weight=float(rng.randint(1, 5)))  # a parallel edge
        if reverse and rng.random() < reverse:
            g.add_edge(f"n{v}", f"n{u}", weight=float(rng.randint(1, 5)))  # the reverse edge
    return g


def both_directions(source: nx.Graph) -> nx.MultiDiGraph:
    """An undirected graph as a directed one: each edge both ways, its weight
    (default 1) on each."""
    g = nx.MultiDiGraph()
    g.add_nodes_from(source.nodes)
    for u, v, w in source.edges(data="weight", default=1):
        g.add_edge(u, v, weight=float(w))
        g.add_edge(v, u, weight=float(w))
    return g


def les_miserables(both: bool = True) -> nx.MultiDiGraph:
    """Les Misérables co-appearances (77 nodes, 254 weighted pairs): each pair
    both ways, or once in NetworkX's order."""
    source = nx.les_miserables_graph()
    if both:
        return both_directions(source)
    g = nx.MultiDiGraph()
    g.add_nodes_from(source.nodes)
    g.add_edges_from((u, v, {"weight": float(w)}) for u, v, w in source.edges(data="weight"))
    return g


async def load_multigraph(server, name: str, g: nx.MultiDiGraph, nodes: list[dict] | None = None) -> list[int]:
    """Creates network `name` holding `g` (its nodes, or the `nodes` items given,
    then its edges in g.edges() order); returns our edge ids in that order."""
    return await build_network(
        server,
        name,
        nodes if nodes is not None else [{"node_id": n} for n in g.nodes],
        [{"source": u, "target": v, "weight": w} for u, v, w in g.edges(data="weight")],
    )
