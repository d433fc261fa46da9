"""Structure against NetworkX: the same directed multigraphs (parallel edges,
self-loops, weights) in both, every answer compared exactly.

- transitive reduction (network_structure "redundant_edges", and network_copy
  "transitive_reduction"): the (source, target) pairs left are exactly the edges
  of nx.transitive_reduction on the simple DiGraph, one edge each, the lowest id
  of each pair kept; a cyclic network is refused with cycle_detected, as NetworkX
  refuses it;
- dominators (network_structure "dominators", with and without a target): the
  dict of nx.immediate_dominators (the root left out), and the chain of a target's
  dominators up to the root;
- articulation points: the set of nx.articulation_points(G.to_undirected()), in
  insertion order;
- bridges: the edges nx.bridges finds on an nx.MultiGraph holding one undirected
  edge per directed edge, so that two edges between a pair, in either direction,
  are never a bridge. (MultiDiGraph.to_undirected() merges u->v and v->u when their
  keys are equal and can make such a pair a bridge; the graphs here check both
  readings where they agree, and ours where they do not);
- condensation (network_copy "condensation", read back with the list tools): the
  members and the component edges of nx.condensation, each node recording its
  members and size, each edge its lightest weight and how many edges it stands for.

Graphs: random multigraphs and random DAG multigraphs of 2 to 40 nodes, a random
DAG of 2,000 nodes; real ones: the Les Miserables co-appearance network that ships
with NetworkX (one direction per co-appearance, and both), and the dependency graph
of the Python distributions installed beside this test (a real DAG, from their
metadata: an edge from each distribution to each distribution it requires).
"""

from __future__ import annotations

import importlib.metadata
import random

import networkx as nx
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import build_network, connect, read_network, require_tools, run_async
from graphs import ALGORITHMS, les_miserables, load_multigraph
from graphs import random_multigraph as any_multigraph


def random_multigraph(seed: int) -> nx.MultiDiGraph:
    """2 to 40 nodes, up to 3 edges per node, 10% of them also reversed."""
    return any_multigraph(seed, nodes=(2, 40), reverse=0.1)



# --- graphs ------------------------------------------------------------------------------


def random_dag(seed: int, n: int | None = None, per_node: float = 1.5) -> nx.MultiDiGraph:
    """Edges from earlier to later nodes of a hidden shuffled order, so that
    insertion order is not a topological order; parallel edges included."""
    rng = random.Random(seed)
    n = n if n is not None else rng.randint(2, 40)
    order = list(range(n))
    rng.shuffle(order)
    g = nx.MultiDiGraph()
    g.add_nodes_from(f"n{i}" for i in range(n))
    for _ in range(int(per_node * n * rng.random()) + 1):
        a, b = sorted(rng.sample(range(n), 2))
        # Mostly near in the hidden order (implied shortcuts), sometimes far.
        if rng.random() < 0.7:
            b = min(a + rng.randint(1, 4), n - 1)
        u, v = f"n{order[a]}", f"n{order[b]}"
        g.add_edge(u, v, weight=float(rng.randint(1, 5)))
        if rng.random() < 0.15:
            g.add_edge(u, v, weight=float(rng.randint(1, 5)))  # a parallel edge
    return g


def installed_distributions() -> nx.MultiDiGraph:
    """Each distribution installed beside this test, and an edge to each
    installed distribution it requires (extras left out)."""
    dists = {}
    for d in importlib.metadata.distributions():
        dists.setdefault(canonicalize_name(d.metadata["Name"]), d)
    g = nx.MultiDiGraph()
    g.add_nodes_from(sorted(dists))
    for name in sorted(dists):
        for line in dists[name].requires or []:
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            dep = canonicalize_name(req.name)
            if dep in dists and dep != name:
                g.add_edge(name, dep, weight=1.0)
    return g


# --- our side ----------------------------------------------------------------------------


async def load(server, name: str, g: nx.MultiDiGraph) -> list[tuple[int, str, str]]:
    """Builds `g` as network `name`; returns (edge id, source, target) in edge order."""
    ids = await load_multigraph(server, name, g)
    return [(i, u, v) for i, (u, v) in zip(ids, g.edges(), strict=True)]


async def structure(server, name: str, method: str, key: str, **extra) -> list:
    """Every item of a network_structure list, following the cursors."""
    items: list = []
    cursor = None
    while True:
        args = {"network_name": name, "method": method, "limit": 10000, **extra}
        if cursor:
            args["cursor"] = cursor
        page = await server.ok("network_structure", args)
        items.extend(page[key])
        cursor = page.get("next_cursor")
        if not cursor:
            assert page["total"] == len(items), (name, method, page["total"], len(items))
            return items


# --- the comparisons ---------------------------------------------------------------------


async def check_transitive_reduction(server, name: str, g: nx.MultiDiGraph, edges) -> None:
    theirs = set(nx.transitive_reduction(nx.DiGraph(g)).edges())
    redundant = await structure(server, name, "redundant_edges", "edges")
    gone = [e["edge_id"] for e in redundant]
    assert gone == sorted(gone), f"{name}: redundant edges not by id"
    by_id = {i: (u, v) for i, u, v in edges}
    assert all(by_id[e["edge_id"]] == (e["source"], e["target"]) for e in redundant), name
    kept = [(i, u, v) for i, u, v in edges if i not in set(gone)]
    pairs = [(u, v) for _, u, v in kept]
    assert len(pairs) == len(set(pairs)), f"{name}: a parallel edge was kept"
    assert set(pairs) == theirs, f"{name}: ours keeps {set(pairs) - theirs}, NetworkX {theirs - set(pairs)}"
    lowest = {}
    for i, u, v in edges:
        lowest.setdefault((u, v), i)
    assert all(lowest[(u, v)] == i for i, u, v in kept), f"{name}: not the lowest id of a pair kept"

    # The same as a new network.
    copy = f"{name}-reduced"
    made = await server.ok(
        "network_copy", {"network_name": name, "into": copy, "method": "transitive_reduction"}
    )
    assert (made["node_count"], made["edge_count"]) == (g.number_of_nodes(), len(theirs)), made
    nodes, copied = await read_network(server, copy)
    assert list(nodes) == list(g.nodes), f"{copy}: not the same nodes in the same order"
    assert sorted((e["source"], e["target"]) for e in copied) == sorted(theirs), copy


async def check_dominators(server, name: str, g: nx.MultiDiGraph, root: str) -> None:
    theirs = {v: d for v, d in nx.immediate_dominators(g, root).items() if v != root}
    got = await structure(server, name, "dominators", "dominators", root=root)
    mine = {e["node_id"]: e["dominator"] for e in got}
    assert mine == theirs, f"{name} from {root}: ours {mine}, NetworkX {theirs}"
    order = list(g.nodes)
    listed = [order.index(e["node_id"]) for e in got]
    assert listed == sorted(listed), f"{name}: dominators not in insertion order"
    for target in [root, *theirs][:12]:
        chain = []
        at = target
        while at != root:
            at = theirs[at]
            chain.append(at)
        page = await server.ok(
            "network_structure", {"network_name": name, "method": "dominators", "root": root, "target": target}
        )
        assert page["node_ids"] == chain and page["reachable"] is True, (name, root, target)


def undirected_multigraph(g: nx.MultiDiGraph) -> nx.MultiGraph:
    """One undirected edge per directed edge, self-loops included."""
    u = nx.MultiGraph()
    u.add_nodes_from(g.nodes)
    u.add_edges_from((a, b) for a, b in g.edges())
    return u


async def check_cuts(server, name: str, g: nx.MultiDiGraph, edges) -> None:
    points = await structure(server, name, "articulation_points", "node_ids")
    assert set(points) == set(nx.articulation_points(g.to_undirected())), name
    order = list(g.nodes)
    assert points == sorted(points, key=order.index), f"{name}: articulation points not in insertion order"

    found = await structure(server, name, "bridges", "edges")
    ids = [e["edge_id"] for e in found]
    assert ids == sorted(ids), f"{name}: bridges not by id"
    by_pair: dict[frozenset, list[int]] = {}
    for i, u, v in edges:
        by_pair.setdefault(frozenset((u, v)), []).append(i)
    theirs = set()
    for u, v in nx.bridges(undirected_multigraph(g)):
        (only,) = by_pair[frozenset((u, v))]  # a bridge is the one edge between its ends
        theirs.add(only)
    assert set(ids) == theirs, f"{name}: ours {sorted(ids)}, NetworkX {sorted(theirs)}"
    # Where no pair has edges both ways, MultiDiGraph.to_undirected() agrees.
    if not any(g.has_edge(v, u) for u, v in g.edges() if u != v):
        ends = {i: frozenset((u, v)) for i, u, v in edges}
        assert {ends[i] for i in ids} == {frozenset(b) for b in nx.bridges(g.to_undirected())}, name


async def check_condensation(server, name: str, g: nx.MultiDiGraph) -> None:
    copy = f"{name}-condensed"
    c = nx.condensation(g)
    made = await server.ok("network_copy", {"network_name": name, "into": copy, "method": "condensation"})
    assert (made["node_count"], made["edge_count"]) == (c.number_of_nodes(), c.number_of_edges()), made
    nodes, copied = await read_network(server, copy)
    order = list(g.nodes)
    members = {}
    for node_id, node in nodes.items():
        group = node["data"]["members"]
        assert group == sorted(group, key=order.index), f"{copy}: members not in insertion order"
        assert node_id == group[0], f"{copy}: a component is named after its first member"
        assert node["attributes"]["size"] == len(group)
        members[node_id] = frozenset(group)
    firsts = [order.index(n) for n in nodes]
    assert firsts == sorted(firsts), f"{copy}: components not in order of their first member"
    theirs = {frozenset(c.nodes[x]["members"]) for x in c.nodes}
    assert set(members.values()) == theirs, copy
    their_edges = {(frozenset(c.nodes[a]["members"]), frozenset(c.nodes[b]["members"])) for a, b in c.edges()}
    my_edges = {(members[e["source"]], members[e["target"]]) for e in copied}
    assert len(my_edges) == len(copied), f"{copy}: two edges for one pair of components"
    assert my_edges == their_edges, copy
    for e in copied:
        a, b = members[e["source"]], members[e["target"]]
        joining = [w for u, v, w in g.edges(data="weight") if u in a and v in b]
        assert e["weight"] == min(joining), (copy, e)
        assert e["attributes"]["edges"] == len(joining), (copy, e)
    assert nx.is_directed_acyclic_graph(nx.DiGraph([(e["source"], e["target"]) for e in copied]))


# --- the tests ---------------------------------------------------------------------------


@run_async
async def test_transitive_reduction_matches_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await require_tools(server, "network_structure", "network_copy")
        for seed in range(30):
            g = random_dag(seed)
            name = f"d{seed}"
            await check_transitive_reduction(server, name, g, await load(server, name, g))
        g = random_dag(1000, n=2000, per_node=3.0)
        await check_transitive_reduction(server, "big", g, await load(server, "big", g))
        g = installed_distributions()
        assert nx.is_directed_acyclic_graph(g) and g.number_of_edges() > 0
        await check_transitive_reduction(server, "pip", g, await load(server, "pip", g))


@run_async
async def test_a_cyclic_network_has_no_transitive_reduction(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(10):
            g = random_multigraph(seed)
            name = f"c{seed}"
            edges = await load(server, name, g)
            if nx.is_directed_acyclic_graph(g):
                await check_transitive_reduction(server, name, g, edges)
                continue
            refused = await server.err(
                "network_structure", {"network_name": name, "method": "redundant_edges"}, "cycle_detected"
            )
            cycle = refused["cycle_node_ids"]  # a witness: each node has an edge to the next, the last to the first
            assert cycle and all(g.has_edge(cycle[k], cycle[(k + 1) % len(cycle)]) for k in range(len(cycle))), cycle
            await server.err(
                "network_copy",
                {"network_name": name, "into": f"{name}-reduced", "method": "transitive_reduction"},
                "cycle_detected",
            )
        # A self-loop alone makes a network cyclic.
        await build_network(server, "loop", [{"node_id": "a"}], [{"source": "a", "target": "a"}])
        await server.err("network_structure", {"network_name": "loop", "method": "redundant_edges"}, "cycle_detected")


@run_async
async def test_dominators_match_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(30):
            g = random_multigraph(seed) if seed % 2 else random_dag(seed)
            name = f"r{seed}"
            await load(server, name, g)
            rng = random.Random(seed)
            for root in {"n0", rng.choice(list(g.nodes))}:
                await check_dominators(server, name, g, root)
        g = les_miserables(both=False)
        await load(server, "lesmis", g)
        for root in ["Valjean", "Myriel", "Napoleon"]:
            await check_dominators(server, "lesmis", g, root)
        g = installed_distributions()
        await load(server, "pip", g)
        for root in ["mcp", "pytest", "networkx"]:
            if root in g:
                await check_dominators(server, "pip", g, root)


@run_async
async def test_articulation_points_and_bridges_match_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(40):
            g = random_multigraph(seed)
            name = f"r{seed}"
            await check_cuts(server, name, g, await load(server, name, g))
        for both in (False, True):
            g = les_miserables(both)
            name = f"lesmis-{both}"
            edges = await load(server, name, g)
            await check_cuts(server, name, g, edges)
        # Both directions: every pair has two edges, so nothing is a bridge, where
        # NetworkX's MultiDiGraph.to_undirected() merges each pair into one edge.
        bridges = await structure(server, "lesmis-True", "bridges", "edges")
        assert bridges == []
        assert list(nx.bridges(les_miserables(True).to_undirected())) != []
        one_way = await structure(server, "lesmis-False", "bridges", "edges")
        assert len(one_way) == len(list(nx.bridges(nx.les_miserables_graph()))) > 0


@run_async
async def test_condensation_matches_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        for seed in range(30):
            g = random_multigraph(seed)
            name = f"r{seed}"
            await load(server, name, g)
            await check_condensation(server, name, g)
        for both in (False, True):
            g = les_miserables(both)
            name = f"lesmis-{both}"
            await load(server, name, g)
            await check_condensation(server, name, g)
        g = installed_distributions()
        await load(server, "pip", g)
        await check_condensation(server, "pip", g)
