"""Copies and diffs against NetworkX and plain Python, on the same directed
multigraphs (parallel edges, self-loops, weights, node attributes and data):

- network_copy "whole": the same nodes in the same order and every edge with
  its id, weight and attributes;
- "induced": NetworkX's `G.subgraph(nodes)`, edge for edge (by our edge ids);
- "neighborhood": the union over the seeds of `nx.ego_graph(G, seed, depth)`
  for "out" (successors), of the same on `G.reverse()` for "in" (predecessors)
  and with `undirected=True` for "both", then `G.subgraph` of that ball;
- the copies are read back with the ordinary list tools; a copy of the
  Les Misérables network (it ships with NetworkX) too;
- network_diff: nodes added, removed and changed by id, edges added and removed
  as a multiset of (source, target, weight) computed with `collections.Counter`,
  in the documented order (removed in A's edge order, added in B's); a network
  and its copy are identical; paging with small limits gives every item once.
"""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx

from conftest import build_network, connect, read_network, require_tools, run_async
from graphs import ALGORITHMS, les_miserables
DIRECTIONS = ("out", "in", "both")
LISTS = ("added_node_ids", "removed_node_ids", "changed_nodes", "added_edges", "removed_edges")
# Each list's total in `counts`.
COUNT_OF = {
    "added_node_ids": "added_node_count",
    "removed_node_ids": "removed_node_count",
    "changed_nodes": "changed_node_count",
    "added_edges": "added_edge_count",
    "removed_edges": "removed_edge_count",
}


# --- graphs -------------------------------------------------------------------------------


def random_multigraph(seed: int, pool: int | None = None) -> nx.MultiDiGraph:
    """2 to 30 nodes (or nodes drawn from `n0`..`n{pool-1}`), with attributes and
    data on some, and weighted edges including self-loops and parallel edges."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    if pool is None:
        names = [f"n{i}" for i in range(rng.randint(2, 30))]
    else:
        names = [f"n{i}" for i in range(pool) if rng.random() < 0.8] or ["n0"]
    for name in names:
        attrs = {}
        if rng.random() < 0.3:
            attrs["status"] = rng.choice(["todo", "done"])
        if rng.random() < 0.2:
            attrs["data"] = {"v": rng.randint(0, 1)}
        g.add_node(name, **attrs)
    n = len(names)
    for _ in range(rng.randint(0, 3 * n)):
        u, v = names[rng.randrange(n)], names[rng.randrange(n)]
        if rng.random() < 0.1:
            v = u  # a self-loop
        g.add_edge(u, v, weight=float(rng.randint(1, 3)))
        if rng.random() < 0.15:
            g.add_edge(u, v, weight=float(rng.randint(1, 3)))  # a parallel edge
    return g


def node_item(g: nx.MultiDiGraph, n: str) -> dict:
    attrs = dict(g.nodes[n])
    item: dict = {"node_id": n}
    if "data" in attrs:
        item["data"] = attrs.pop("data")
    if attrs:
        item["attributes"] = attrs
    return item


async def load(server, name: str, g: nx.MultiDiGraph) -> dict[tuple, int]:
    """Builds `g` as network `name`; returns our edge id of each (u, v, key)."""
    keys = list(g.edges(keys=True))
    ids = await build_network(
        server,
        name,
        [node_item(g, n) for n in g.nodes],
        [{"source": u, "target": v, "weight": g.edges[u, v, k]["weight"]} for u, v, k in keys],
    )
    return dict(zip(keys, ids))


# --- what NetworkX says ----------------------------------------------------------------------


def ball(g: nx.MultiDiGraph, seeds: list[str], depth: int, direction: str) -> set[str]:
    """The nodes within `depth` hops of any seed: out = successors, in =
    predecessors, both = either way at every hop."""
    nodes: set[str] = set()
    for s in seeds:
        if direction == "out":
            nodes |= set(nx.ego_graph(g, s, radius=depth))
        elif direction == "in":
            nodes |= set(nx.ego_graph(g.reverse(copy=False), s, radius=depth))
        else:
            nodes |= set(nx.ego_graph(g, s, radius=depth, undirected=True))
    return nodes


def expected_copy(g: nx.MultiDiGraph, ids: dict[tuple, int], nodes: set[str]):
    """The node ids of `G.subgraph(nodes)` in G's order, and its edges by our id."""
    h = g.subgraph(nodes)
    order = [n for n in g.nodes if n in h]
    edges = {ids[(u, v, k)]: (u, v, w) for u, v, k, w in h.edges(keys=True, data="weight")}
    return order, edges


async def check_copy(server, into: str, got: dict, g: nx.MultiDiGraph, ids: dict[tuple, int], nodes: set[str]) -> None:
    order, edges = expected_copy(g, ids, nodes)
    assert got["network_name"] == into, got
    assert (got["node_count"], got["edge_count"]) == (len(order), len(edges)), (into, got)
    read_nodes, read_edges = await read_network(server, into)
    assert list(read_nodes) == order, into
    for n in order:
        want = node_item(g, n)
        assert read_nodes[n]["attributes"] == want.get("attributes", {}), (into, n)
        assert read_nodes[n].get("data") == want.get("data"), (into, n)
    mine = {e["edge_id"]: (e["source"], e["target"], e["weight"]) for e in read_edges}
    assert len(mine) == len(read_edges), f"{into}: an edge id repeats"
    assert mine == edges, into


# --- copies ---------------------------------------------------------------------------------


@run_async
async def test_copies_match_networkx_subgraphs(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await require_tools(server, "network_copy")
        for seed in range(20):
            rng = random.Random(1000 + seed)
            g = random_multigraph(seed)
            name = f"g{seed}"
            ids = await load(server, name, g)
            nodes = list(g.nodes)

            into = f"{name}_whole"
            got = await server.ok("network_copy", {"network_name": name, "into": into, "method": "whole"})
            await check_copy(server, into, got, g, ids, set(nodes))

            picked = [rng.choice(nodes) for _ in range(rng.randint(1, len(nodes)))]  # repeats allowed
            into = f"{name}_induced"
            got = await server.ok(
                "network_copy", {"network_name": name, "into": into, "method": "induced", "node_ids": picked}
            )
            await check_copy(server, into, got, g, ids, set(picked))

            for k, direction in enumerate(DIRECTIONS):
                seeds = rng.sample(nodes, rng.randint(1, min(3, len(nodes))))
                depth = rng.randint(0, 3)
                into = f"{name}_near{k}"
                got = await server.ok(
                    "network_copy",
                    {"network_name": name, "into": into, "method": "neighborhood", "node_ids": seeds,
                     "depth": depth, "direction": direction},
                )
                await check_copy(server, into, got, g, ids, ball(g, seeds, depth, direction))


@run_async
async def test_a_copy_is_a_network_of_its_own(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        g = les_miserables()
        ids = await load(server, "lesmis", g)
        got = await server.ok(
            "network_copy",
            {"network_name": "lesmis", "into": "valjean", "method": "neighborhood", "node_ids": ["Valjean"],
             "depth": 1, "direction": "both"},
        )
        await check_copy(server, "valjean", got, g, ids, ball(g, ["Valjean"], 1, "both"))
        # What if: removing a node from the copy leaves the original as it was.
        await server.ok("network_remove_node", {"network_name": "valjean", "node_id": "Valjean", "confirm": True})
        listed = await server.networks()
        assert listed["lesmis"] == (g.number_of_nodes(), g.number_of_edges())
        assert listed["valjean"][0] == got["node_count"] - 1
        # A new edge in the copy gets an id the original never used.
        added = await server.ok(
            "network_add_edges",
            {"network_name": "valjean", "edges": [{"source": "Myriel", "target": "Myriel"}], "include_ids": True},
        )
        assert added["edge_ids"][0] > max(ids.values())
        # An unknown node is refused and creates nothing.
        await server.err(
            "network_copy",
            {"network_name": "lesmis", "into": "nobody", "method": "induced", "node_ids": ["Valjean", "Javer"]},
            "node_not_found",
        )
        assert "nobody" not in await server.networks()


# --- diffs ----------------------------------------------------------------------------------


def edge_list(g: nx.MultiDiGraph) -> list[tuple]:
    """(source, target, weight) of every edge in our edge-id order: `load` adds
    the edges in `g.edges()` order (grouped by source, not NetworkX's insertion
    order), and our ids follow the order of adding."""
    return [(u, v, w) for u, v, w in g.edges(data="weight")]


def expected_diff(a: nx.MultiDiGraph, b: nx.MultiDiGraph) -> dict:
    def attrs(g, n):
        return {k: v for k, v in g.nodes[n].items() if k != "data"}

    nodes_removed = [n for n in a.nodes if n not in b]
    nodes_added = [n for n in b.nodes if n not in a]
    def changed(before: dict, after: dict, side: dict) -> dict:
        # Only the keys whose value differs; an absent value reads as None (null).
        keys = [k for k in list(before) + [k for k in after if k not in before] if before.get(k) != after.get(k)]
        return {k: side.get(k) for k in keys}

    nodes_changed = [
        {"node_id": n,
         "attributes_before": changed(attrs(a, n), attrs(b, n), attrs(a, n)),
         "attributes_after": changed(attrs(a, n), attrs(b, n), attrs(b, n)),
         "data_changed": a.nodes[n].get("data") != b.nodes[n].get("data")}
        for n in b.nodes
        if n in a and (attrs(a, n) != attrs(b, n) or a.nodes[n].get("data") != b.nodes[n].get("data"))
    ]
    ea, eb = edge_list(a), edge_list(b)
    removed, added = Counter(ea) - Counter(eb), Counter(eb) - Counter(ea)

    def listed(order, counts):
        out, seen = [], set()
        for e in order:
            if e in counts and e not in seen:
                seen.add(e)
                out.append({"source": e[0], "target": e[1], "weight": e[2], "edge_count": counts[e]})
        return out

    return {
        "removed_node_ids": nodes_removed,
        "added_node_ids": nodes_added,
        "changed_nodes": nodes_changed,
        "removed_edges": listed(ea, removed),
        "added_edges": listed(eb, added),
    }


async def our_diff(server, before: str, after: str, limit: int) -> tuple[dict, list[dict]]:
    """Every item of network_diff, following the cursors; and the pages."""
    collected = {k: [] for k in LISTS}
    pages = []
    cursor = None
    while True:
        args = {"network_name": before, "other": after, "limit": limit}
        if cursor:
            args["cursor"] = cursor
        page = await server.ok("network_diff", args)
        pages.append(page)
        for k in LISTS:
            assert len(page[k]) <= limit, (k, limit, page)
            collected[k].extend(page[k])
        cursor = page.get("next_cursor")
        assert page["truncated"] == bool(cursor), page
        if not cursor:
            break
        assert len(pages) < 10_000, "network_diff pages never end"
    return collected, pages


def shape(items: list[dict]) -> list[tuple]:
    return [(e["source"], e["target"], float(e["weight"]), e["edge_count"]) for e in items]


def compare_diff(label: str, got: dict, want: dict) -> None:
    assert got["removed_node_ids"] == want["removed_node_ids"], label
    assert got["added_node_ids"] == want["added_node_ids"], label
    assert [c["node_id"] for c in got["changed_nodes"]] == [c["node_id"] for c in want["changed_nodes"]], label
    for mine, theirs in zip(got["changed_nodes"], want["changed_nodes"]):
        assert mine["attributes_before"] == theirs["attributes_before"], (label, mine)
        assert mine["attributes_after"] == theirs["attributes_after"], (label, mine)
        assert mine["data_changed"] == theirs["data_changed"], (label, mine)
    assert shape(got["removed_edges"]) == shape(want["removed_edges"]), label
    assert shape(got["added_edges"]) == shape(want["added_edges"]), label


@run_async
async def test_diff_matches_a_multiset_computation(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await require_tools(server, "network_diff", "network_copy")
        for seed in range(20):
            # Node ids from one small pool, so that A and B share most nodes and edges.
            a, b = random_multigraph(2 * seed, pool=8), random_multigraph(2 * seed + 1, pool=8)
            await load(server, f"a{seed}", a)
            await load(server, f"b{seed}", b)
            want = expected_diff(a, b)
            full = await server.ok("network_diff", {"network_name": f"a{seed}", "other": f"b{seed}", "limit": 10000})
            assert not full["truncated"] and "next_cursor" not in full, full
            compare_diff(f"seed {seed}", full, want)
            # Node counts are of nodes; edge counts are of edges, parallel copies included.
            def count(k):
                return sum(e["edge_count"] for e in want[k]) if k.endswith("edges") else len(want[k])
            assert full["counts"] == {COUNT_OF[k]: count(k) for k in LISTS}, (full["counts"], seed)
            assert full["identical"] == (not any(want[k] for k in LISTS))

            # A network and its whole copy, and a network and itself, are identical.
            await server.ok("network_copy", {"network_name": f"a{seed}", "into": f"a{seed}_copy", "method": "whole"})
            for other in (f"a{seed}_copy", f"a{seed}"):
                same = await server.ok("network_diff", {"network_name": f"a{seed}", "other": other})
                assert same["identical"] is True, same
                assert all(not same[k] for k in LISTS) and set(same["counts"].values()) == {0}, same


@run_async
async def test_diff_pages_give_every_item_once(binary, tmp_path):
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        a, b = random_multigraph(7, pool=12), random_multigraph(8, pool=12)
        await load(server, "a", a)
        await load(server, "b", b)
        want = expected_diff(a, b)
        assert sum(len(want[k]) for k in LISTS) > 5, "the example should need several pages"
        full, _ = await our_diff(server, "a", "b", 10000)
        compare_diff("full", full, want)
        for limit in (1, 2, 3, 7):
            paged, pages = await our_diff(server, "a", "b", limit)
            assert len(pages) > 1, limit
            # Every item once, in the same order as in one page.
            assert paged == full, limit
        await server.err("network_diff", {"network_name": "a", "other": "nope"}, "network_not_found")
