"""network_query beside a real Cypher engine: the same query templates run in FalkorDB
(see test_falkordb.py for where it comes from) and in the server, on seeded random
graphs, with parameters drawn per seed, and must give the same rows: as multisets without
ORDER BY, as sequences with it (every final ORDER BY here orders totally, ids breaking ties).

Each random network is loaded into FalkorDB as the data model of specs/network_query.md
says the server sees it: a node's `labels` attribute ("A", "B", "A,B") becomes its
labels, its other attributes its properties with `id`; an edge's `relation` attribute
its type and its weight the property `weight`. Queries return scalars (ids, counts,
numbers) and lists of them, so the two engines' encodings of nodes and relationships do not enter.

The random networks are simple (no parallel edges, no self-loops), because there FalkorDB
departs from openCypher; `test_known_differences` pins each departure down on a tiny graph,
FalkorDB's answer beside ours, so that a change on either side shows:
  - parallel edges collapse: a pattern whose relationships are not all returned (`-->`,
    `-[r1]->()-[r2]->`) matches a pair of nodes once however many edges join them;
  - relationship isomorphism is not enforced: one relationship may be matched twice in one
    pattern (a self-loop walked twice, `(a)-->(b)<--(a)` over one edge);
  - `sum()` of integers is a float (openCypher and the server: an integer), and so is
    `percentileDisc()` of integers (the templates compare it as a float);
  - a variable-length path that ends where it starts lists its inner nodes backwards
    (`nodes(p)` of a -> b -> c -> a is a, c, b, a), its relationships in order.
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
    # From here on the parameters are drawn per seed (see `parameters_for`): a callable
    # takes the seed's random.Random and gives them.
    ("MATCH (a)-[r]->(b) WHERE r.weight IN $ws RETURN a.id, b.id, r.weight", lambda g: {"ws": _weights(g)}, False),
    (
        "MATCH (n) WHERE n.x > $lo AND n.x <= $hi RETURN n.id, n.x ORDER BY n.x, n.id",
        lambda g: {"lo": g.randint(-1, 3), "hi": g.randint(2, 6)},
        True,
    ),
    (
        "MATCH (n) WHERE n.s STARTS WITH $p RETURN n.id, n.s",
        lambda g: {"p": g.choice(["f", "fi", "b", "go", ""])},
        False,
    ),
    (
        "MATCH (n) WHERE n.s ENDS WITH $e OR n.s CONTAINS $c RETURN n.id",
        lambda g: {"e": g.choice(["o", "zz", "r"]), "c": g.choice(["i", "a", "x"])},
        False,
    ),
    ("MATCH (n) WHERE n.id IN $ids RETURN n.id, n.x, n.s", lambda g: {"ids": _ids(g, 3)}, False),
    (
        "MATCH (n) WHERE n.x <> $x AND (n:A OR n.s = $s) AND NOT n:B RETURN n.id",
        lambda g: {"x": g.randint(0, 5), "s": g.choice(["foo", "bar", "go"])},
        False,
    ),
    ("MATCH (n) WHERE n.s IS NULL XOR n.x >= $x RETURN n.id", lambda g: {"x": g.randint(0, 5)}, False),
    (
        "MATCH p = (a {id: $id})-[*1..3]->(b) RETURN b.id, length(p), size(nodes(p)), size(relationships(p))",
        lambda g: {"id": _ids(g, 1)[0]},
        False,
    ),
    (
        # Not back to the start: see CYCLE_DIFFERENCES.
        "MATCH p = (a)-[:U*2..3]->(b) WHERE a.id = $id AND b.id <> $id"
        " RETURN [n IN nodes(p) | n.id], [r IN relationships(p) | r.weight]",
        lambda g: {"id": _ids(g, 1)[0]},
        False,
    ),
    ("MATCH (a {id: $id})-[*1..2]-(b) RETURN b.id", lambda g: {"id": _ids(g, 1)[0]}, False),
    (
        "MATCH (n:A) OPTIONAL MATCH (n)<-[r]-(m:B) WHERE r.weight >= $w RETURN n.id, m.id, r.weight",
        lambda g: {"w": g.choice([0.5, 1.0, 2.0, 3.0])},
        False,
    ),
    ("MATCH (n) OPTIONAL MATCH (n)-[:T]->(m) RETURN n.id, count(m) AS c ORDER BY c, n.id", {}, True),
    (
        "MATCH (a)-[r]->(b) RETURN type(r) AS t, count(*) AS c, min(r.weight), max(r.weight), avg(r.weight)"
        " ORDER BY t",
        {},
        True,
    ),
    (
        "MATCH (n) RETURN DISTINCT n.x AS x ORDER BY x DESC SKIP $skip LIMIT $limit",
        lambda g: {"skip": g.randint(0, 3), "limit": g.randint(1, 4)},
        True,
    ),
    ("MATCH (n) WITH n ORDER BY n.x DESC, n.id LIMIT $k RETURN n.id, n.x", lambda g: {"k": g.randint(1, 6)}, False),
    (
        "MATCH (n) WITH n WHERE n.x >= $x WITH n.s AS s, collect(n.id) AS ids RETURN s, size(ids) AS k ORDER BY k, s",
        lambda g: {"x": g.randint(0, 4)},
        True,
    ),
    (
        "MATCH (a)-[r1]->(b)-[r2]->(c) WHERE id(r1) <> id(r2) AND a.id <> c.id"
        " WITH a, c, count(b) AS via WHERE via >= $v RETURN a.id, c.id, via",
        lambda g: {"v": g.randint(1, 2)},
        False,
    ),
    ("UNWIND $xs AS x MATCH (n) WHERE n.x = x RETURN x, count(n)", lambda g: {"xs": g.sample(range(7), 3)}, False),
    ("MATCH (a:A), (b:B) WHERE a.x + b.x = $sum RETURN a.id, b.id", lambda g: {"sum": g.randint(0, 10)}, False),
    (
        "MATCH (n) RETURN n.id AS id, CASE WHEN n.x > $x THEN 'hi' ELSE 'lo' END AS band, coalesce(n.s, 'none') AS s",
        lambda g: {"x": g.randint(0, 5)},
        False,
    ),
    (
        "MATCH (n) RETURN n.x % 2 AS parity, sum(n.x) * 1.0 AS total, count(*) AS c, size(collect(DISTINCT n.x % 3))"
        " ORDER BY parity",
        {},
        True,
    ),
    (
        "MATCH (a)-[r]-(b) WHERE a.id = $id RETURN b.id, r.weight, startNode(r).id = a.id",
        lambda g: {"id": _ids(g, 1)[0]},
        False,
    ),
    (
        "MATCH p = (a)-[*1..2]->(b) WHERE a.id = $from AND b.id = $to"
        " RETURN length(p) AS len, [n IN nodes(p) | n.id] AS ids ORDER BY len, ids",
        lambda g: {"from": _ids(g, 1)[0], "to": _ids(g, 1)[0]},
        True,
    ),
    # The mathematical and string functions of src/query/functions.rs that FalkorDB also
    # has; then aggregates, pattern predicates and comprehensions, chained comparisons and
    # the temporal values FalkorDB has (date, localtime, localdatetime, duration; it has no
    # time() or datetime(), nor EXISTS { }).
    ("RETURN e(), pi()", {}, False),
    ("MATCH (n) RETURN n.id, exp(n.x), log(n.x + 1), log10(n.x + 1), degrees(n.x), radians(n.x)", {}, False),
    ("MATCH (n) RETURN n.id, sin(n.x), cos(n.x), tan(n.x), cot(n.x + 1), haversin(n.x)", {}, False),
    (
        "MATCH (n) RETURN n.id, asin(n.x / 5.0), acos(n.x / 5.0), atan(n.x), atan2(n.x, $y)",
        lambda g: {"y": g.randint(1, 4)},
        False,
    ),
    (
        "MATCH (n) WHERE n.s IS NOT NULL"
        " RETURN n.id, left(n.s, $k), right(n.s, $k), ltrim('  ' + n.s), rtrim(n.s + '  ')",
        lambda g: {"k": g.randint(0, 5)},
        False,
    ),
    # FalkorDB's percentileDisc() of integers is a float (openCypher and the server: the
    # value itself, an integer): compared as floats.
    (
        "MATCH (n) RETURN n.s, percentileDisc(n.x, $p) * 1.0, percentileCont(n.x, $p)",
        lambda g: {"p": g.choice([0.0, 0.25, 0.5, 0.9, 1.0])},
        False,
    ),
    ("MATCH (n) RETURN n.s, stDev(n.x), stDevP(n.x)", {}, False),
    ("MATCH (n) WHERE (n)-[:T]->(:A) RETURN n.id", {}, False),
    ("MATCH (n) WHERE NOT (n)<--() RETURN n.id", {}, False),
    # A pattern comprehension's items come in match order, which the engines do not share:
    # one item at most, or sizes.
    (
        "MATCH (n) RETURN n.id, [(n)-[r:U]->(m) WHERE m.id = $id | m.id] AS out",
        lambda g: {"id": _ids(g, 1)[0]},
        False,
    ),
    (
        "MATCH (n) RETURN n.id, size([(n)-->(m) WHERE m.x > $x | m.x])",
        lambda g: {"x": g.randint(0, 4)},
        False,
    ),
    ("MATCH (n) WHERE 1 <= n.x < $x RETURN n.id", lambda g: {"x": g.randint(1, 5)}, False),
    ("RETURN toString(date('2015-07-21')), toString(localdatetime('2015-07-21T21:40:32'))", {}, False),
    ("RETURN toString(duration({days: 1, hours: 12}))", {}, False),
    (
        "RETURN date('2015-07-21').year, date('2015-07-21').month, localdatetime('2015-07-21T21:40:32').hour",
        {},
        False,
    ),
    (
        "RETURN toString(localtime('21:40:32')), toString(date({year: 2015, month: 7, day: 21})),"
        " date('2015-07-21') < date('2015-07-22')",
        {},
        False,
    ),
    ("RETURN toString(date('2015-07-21') + duration({days: $d}))", lambda g: {"d": g.randint(0, 40)}, False),
]


def _ids(rng: random.Random, k: int) -> list[str]:
    """k node ids, mostly of nodes every random network has (n0-n5), sometimes of none."""
    return rng.sample([f"n{i}" for i in range(8)] + ["missing"], k)


def _weights(rng: random.Random) -> list[float]:
    return rng.sample([0.5, 1.0, 2.0, 3.0, 4.0], rng.randint(0, 3))


def parameters_for(seed: int) -> list[dict]:
    """Each template's parameters for one seed: as written, or drawn from the seed."""
    rng = random.Random(f"parameters {seed}")
    return [p(rng) if callable(p) else p for _, p, _ in TEMPLATES]


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
async def run_in_server(binary, tmp_path, nodes, edges, parameters: list[dict]) -> list[list[list]]:
    answers = []
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await server.ok("network_create", {"network_name": "g"})
        await server.ok("network_add_nodes", {"network_name": "g", "nodes": nodes})
        await server.ok("network_add_edges", {"network_name": "g", "edges": edges})
        for (query, _, _), given in zip(TEMPLATES, parameters):
            out = await server.ok(
                "network_query",
                {"network_name": "g", "query": query, "parameters": given, "limit": 10000},
            )
            assert not out["truncated"], (query, out)
            answers.append(out["rows"])
    return answers


@pytest.mark.parametrize("seed", SEEDS)
def test_query_templates_agree_with_falkordb(binary, tmp_path, falkordb_db, seed):  # noqa: F811
    nodes, edges = random_network(seed)
    graph = fresh_graph(falkordb_db, f"g{seed}")
    load_into_falkordb(graph, nodes, edges)
    parameters = parameters_for(seed)
    ours = run_in_server(binary, tmp_path, nodes, edges, parameters)
    differences = []
    for (query, _, ordered), given, got in zip(TEMPLATES, parameters, ours):
        want = graph.query(query, given).result_set
        if rows_key(got, ordered) != rows_key(want, ordered):
            differences.append(f"{query}\n  parameters: {given}\n  ours:     {got}\n  FalkorDB: {want}")
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

# A cycle a -> b -> c -> a: a variable-length path that ends where it starts lists its
# inner nodes backwards in FalkorDB (a, c, b, a), though its relationships are in order
# (the weights 1, 2, 3 of a->b, b->c, c->a); ours lists a, b, c, a.
CYCLE_NODES = [{"node_id": v, "attributes": {}} for v in "abc"]
CYCLE_EDGES = [
    {"source": s, "target": t, "weight": w, "attributes": {"relation": "T"}}
    for s, t, w in [("a", "b", 1.0), ("b", "c", 2.0), ("c", "a", 3.0)]
]
CYCLE_DIFFERENCES = [
    (
        "MATCH p = (x {id: 'a'})-[*3]->(y) RETURN [n IN nodes(p) | n.id], [r IN relationships(p) | r.weight]",
        [[["a", "c", "b", "a"], [1.0, 2.0, 3.0]]],
        [[["a", "b", "c", "a"], [1.0, 2.0, 3.0]]],
    ),
]

KNOWN_CASES = {
    "multigraph": (KNOWN_NODES, KNOWN_EDGES, KNOWN_DIFFERENCES),
    "cycle": (CYCLE_NODES, CYCLE_EDGES, CYCLE_DIFFERENCES),
}


@run_async
async def known_in_server(binary, tmp_path, nodes, edges, differences) -> list[list[list]]:
    async with connect(binary, tmp_path, *ALGORITHMS) as server:
        await server.ok("network_create", {"network_name": "g"})
        await server.ok("network_add_nodes", {"network_name": "g", "nodes": nodes})
        await server.ok("network_add_edges", {"network_name": "g", "edges": edges})
        return [
            (await server.ok("network_query", {"network_name": "g", "query": q}))["rows"] for q, _, _ in differences
        ]


@pytest.mark.parametrize("case", KNOWN_CASES)
def test_known_differences(binary, tmp_path, falkordb_db, case):  # noqa: F811
    nodes, edges, differences = KNOWN_CASES[case]
    graph = fresh_graph(falkordb_db, f"known-{case}")
    load_into_falkordb(graph, nodes, edges)
    ours = known_in_server(binary, tmp_path, nodes, edges, differences)
    for (query, falkordb_rows, our_rows), got in zip(differences, ours):
        want = graph.query(query).result_set
        assert rows_key(want, False) == rows_key(falkordb_rows, False), (query, want)
        assert rows_key(got, False) == rows_key(our_rows, False), (query, got)
