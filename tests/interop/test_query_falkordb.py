"""network_query beside a real Cypher engine: the same query templates run in FalkorDB
(see test_falkordb.py for where it comes from) and in the server, on seeded random
graphs, and must give the same rows: as multisets without ORDER BY, as sequences with it
(every ORDER BY here orders totally, ids breaking ties).

Each random network is loaded into FalkorDB as the data model of specs/network_query.md
says the server sees it: a node's `labels` attribute ("A", "B", "A,B") becomes its
labels, its other attributes its properties with `id`; an edge's `relation` attribute
its type and its weight the property `weight`. Queries return scalars (ids, counts,
numbers), so the two engines' encodings of nodes and relationships do not enter.

The random networks are simple (no parallel edges, no self-loops), because there FalkorDB
departs from openCypher; `test_known_differences` pins each departure down on a tiny graph,
FalkorDB's answer beside ours, so that a change on either side shows:
  - parallel edges collapse: a pattern whose relationships are not all returned (`-->`,
    `-[r1]->()-[r2]->`) matches a pair of nodes once however many edges join them;
  - relationship isomorphism is not enforced: one relationship may be matched twice in one
    pattern (a self-loop walked twice, `(a)-->(b)<--(a)` over one edge);
  - `sum()` of integers is a float (openCypher and the server: an integer).
"""

from __future__ import annotations

import math
import random

import pytest
from conftest import connect, run_async
from graphs import ALGORITHMS
from test_falkordb import falkordb_db, fresh_graph  # noqa: F401  (the fixture)

SEEDS = range(20)

# (query, parameters, ordered): `ordered` when the query's ORDER BY fixes the sequence.
TEMPLATES = [
    ("MATCH (n) RETURN n.id", {}, False),
    ("MATCH (n:A) RETURN n.id", {}, False),
    ("MATCH (n:A:B) RETURN n.id, n.x", {}, False),
    ("MATCH (a)-[:T]->(b) RETURN a.id, b.id", {}, False),
    ("MATCH (a)<-[r:U]-(b) RETURN a.id, b.id, r.weight", {}, False),
    ("MATCH (a)-[r:T|U]->(b) WHERE r.weight > 1.5 RETURN a.id, b.id, type(r)", {}, False),
    ("MATCH (a)-->(b)-->(c) RETURN a.id, b.id, c.id", {}, False),
    # Relationship isomorphism spelled out, which FalkorDB does not apply by itself.
    ("MATCH (a)-[r1]->(b)<-[r2]-(c) WHERE id(r1) <> id(r2) RETURN a.id, b.id, c.id", {}, False),
    (
        "MATCH (a)-[r1]->(b)-[r2]-(c) WHERE id(r1) <> id(r2) RETURN a.id, b.id, c.id, r1.weight + r2.weight",
        {},
        False,
    ),
    ("MATCH (a {id: $id})-[*1..3]->(b) RETURN b.id", {"id": "n0"}, False),
    ("MATCH (a {id: $id})<-[:T*1..2]-(b) RETURN b.id", {"id": "n1"}, False),
    ("MATCH p = (a {id: $id})-[*2]->(b) RETURN b.id, length(p)", {"id": "n2"}, False),
    ("MATCH (a)-->(b) RETURN a.id, count(b) AS c ORDER BY c DESC, a.id", {}, True),
    ("MATCH (n) RETURN n.s, count(*), sum(n.x) * 1.0, min(n.x), max(n.x)", {}, False),
    ("MATCH (n) WHERE n.s STARTS WITH 'f' OR n.x IN [1, 2] RETURN n.id", {}, False),
    ("MATCH (n) WHERE n.s ENDS WITH 'o' AND NOT n.s CONTAINS 'z' RETURN n.id", {}, False),
    ("MATCH (n) WHERE n.s IS NULL RETURN n.id", {}, False),
    ("MATCH (n) WHERE n.s IS NOT NULL AND n.x >= $x RETURN n.id", {"x": 3}, False),
    ("MATCH (n:A) OPTIONAL MATCH (n)-[:T]->(m) RETURN n.id, m.id", {}, False),
    ("MATCH (n) WITH n.x AS x, count(*) AS c WHERE c > 1 RETURN x, c ORDER BY x", {}, True),
    ("MATCH (n:B) RETURN DISTINCT n.s", {}, False),
    ("MATCH (n) RETURN n.id ORDER BY n.x DESC, n.id SKIP 2 LIMIT 3", {}, True),
    ("MATCH (a)-[r]->(b) RETURN a.id, sum(r.weight) AS w ORDER BY w DESC, a.id LIMIT 4", {}, True),
    ("MATCH (n) RETURN avg(n.x), count(DISTINCT n.s), size(collect(n.id))", {}, False),
    ("MATCH (n)-->(m) WITH n, count(m) AS out MATCH (n)<--(k) RETURN n.id, out, count(k)", {}, False),
    ("UNWIND [3, 1, 2] AS x RETURN x ORDER BY x", {}, True),
]


def random_network(seed: int) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    n = rng.randint(6, 12)
    nodes = []
    for i in range(n):
        attributes = {"x": rng.randint(0, 5)}
        labels = rng.choice([None, "A", "B", "A,B"])
        if labels:
            attributes["labels"] = labels
        s = rng.choice([None, "foo", "bar", "fizz", "go"])
        if s is not None:
            attributes["s"] = s
        nodes.append({"node_id": f"n{i}", "attributes": attributes})
    edges = []
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v]
    # A simple graph: see the module's docs for why.
    for u, v in rng.sample(pairs, rng.randint(n, 3 * n)):
        edges.append(
            {
                "source": f"n{u}",
                "target": f"n{v}",
                "weight": rng.choice([0.5, 1.0, 2.0, 3.0]),
                "attributes": {"relation": rng.choice(["T", "U"])},
            }
        )
    return nodes, edges


def load_into_falkordb(graph, nodes: list[dict], edges: list[dict]) -> None:
    for node in nodes:
        attributes = dict(node["attributes"])
        labels = "".join(f":{label}" for label in (attributes.pop("labels", "") or "").split(",") if label)
        graph.query(f"CREATE (n{labels}) SET n = $props", {"props": {"id": node["node_id"], **attributes}})
    for edge in edges:
        relation = edge["attributes"]["relation"]
        graph.query(
            f"MATCH (a {{id: $s}}), (b {{id: $t}}) CREATE (a)-[:{relation} {{weight: $w}}]->(b)",
            {"s": edge["source"], "t": edge["target"], "w": edge["weight"]},
        )


def canonical(value):
    """A value comparable across the two engines: floats rounded, integral floats as ints
    only where both sides agree on the type (we keep the type: 2 vs 2.0 is a difference)."""
    if isinstance(value, float):
        return ("float", round(value, 9)) if math.isfinite(value) else ("float", str(value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, list):
        return ("list", tuple(canonical(v) for v in value))
    if value is None:
        return ("null",)
    return (type(value).__name__, value)


def rows_key(rows: list[list], ordered: bool):
    as_tuples = [tuple(canonical(v) for v in row) for row in rows]
    return as_tuples if ordered else sorted(as_tuples, key=repr)


@run_async
async def run_in_server(binary, tmp_path, nodes, edges) -> list[list[list]]:
    answers = []
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await server.ok("network_create", {"network_name": "g"})
        await server.ok("network_add_nodes", {"network_name": "g", "nodes": nodes})
        await server.ok("network_add_edges", {"network_name": "g", "edges": edges})
        for query, parameters, _ in TEMPLATES:
            out = await server.ok(
                "network_query",
                {"network_name": "g", "query": query, "parameters": parameters, "limit": 10000},
            )
            assert not out["truncated"], (query, out)
            answers.append(out["rows"])
    return answers


@pytest.mark.parametrize("seed", SEEDS)
def test_query_templates_agree_with_falkordb(binary, tmp_path, falkordb_db, seed):  # noqa: F811
    nodes, edges = random_network(seed)
    graph = fresh_graph(falkordb_db, f"g{seed}")
    load_into_falkordb(graph, nodes, edges)
    ours = run_in_server(binary, tmp_path, nodes, edges)
    differences = []
    for (query, parameters, ordered), got in zip(TEMPLATES, ours):
        want = graph.query(query, parameters).result_set
        if rows_key(got, ordered) != rows_key(want, ordered):
            differences.append(f"{query}\n  ours:     {got}\n  FalkorDB: {want}")
    assert not differences, f"seed {seed}:\n" + "\n".join(differences)


# (query, FalkorDB's rows, ours) on KNOWN_NODES and KNOWN_EDGES, as multisets.
KNOWN_NODES = [{"node_id": "a", "attributes": {}}, {"node_id": "b", "attributes": {}}]
KNOWN_EDGES = [
    {"source": "a", "target": "b", "weight": 3.0, "attributes": {"relation": "U"}},
    {"source": "a", "target": "b", "weight": 0.5, "attributes": {"relation": "T"}},
    {"source": "a", "target": "a", "weight": 2.0, "attributes": {"relation": "T"}},
]
KNOWN_DIFFERENCES = [
    # Parallel edges collapse.
    ("MATCH (x)-->(y) RETURN x.id, y.id", [["a", "a"], ["a", "b"]], [["a", "b"], ["a", "b"], ["a", "a"]]),
    # One relationship matched twice: the loop walked twice.
    (
        "MATCH (x)-[r1]->(y)-[r2]->(z) RETURN x.id, y.id, z.id",
        [["a", "a", "a"], ["a", "a", "b"]],
        [["a", "a", "b"], ["a", "a", "b"]],
    ),
    ("MATCH (x)-[r]->(y) WITH count(r) AS c RETURN sum(c)", [[3.0]], [[3]]),
]


@run_async
async def known_in_server(binary, tmp_path) -> list[list[list]]:
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await server.ok("network_create", {"network_name": "g"})
        await server.ok("network_add_nodes", {"network_name": "g", "nodes": KNOWN_NODES})
        await server.ok("network_add_edges", {"network_name": "g", "edges": KNOWN_EDGES})
        return [
            (await server.ok("network_query", {"network_name": "g", "query": q}))["rows"]
            for q, _, _ in KNOWN_DIFFERENCES
        ]


def test_known_differences(binary, tmp_path, falkordb_db):  # noqa: F811
    graph = fresh_graph(falkordb_db, "known")
    load_into_falkordb(graph, KNOWN_NODES, KNOWN_EDGES)
    ours = known_in_server(binary, tmp_path)
    for (query, falkordb_rows, our_rows), got in zip(KNOWN_DIFFERENCES, ours):
        want = graph.query(query).result_set
        assert rows_key(want, False) == rows_key(falkordb_rows, False), (query, want)
        assert rows_key(got, False) == rows_key(our_rows, False), (query, got)
