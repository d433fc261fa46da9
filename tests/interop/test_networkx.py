"""network_export / network_import against NetworkX (`networkx` on PyPI), both ways.

Ours -> NetworkX: a network built with our tools, exported as node-link JSON and as
GraphML, must read back in NetworkX (`node_link_graph(..., edges="edges")`,
`read_graphml`) as exactly the same multigraph: the same nodes, the same edges with
our edge ids as keys, the same weights, and the same attributes with the same types.

NetworkX -> ours: a MultiDiGraph with the same features, written by NetworkX
(`node_link_data(G, edges="edges")`, `generate_graphml`), imported with
network_import, must read back through network_list_nodes / network_list_edges
exactly.

The graphs have what breaks naive exporters: parallel edges, a self-loop, an isolated
node, Unicode ids, ids with quotes, spaces, backslashes and XML markup, and one
attribute name carrying int, float, bool and string values on different nodes.
GraphML cannot carry null, so the GraphML cases have no None values.
"""

from __future__ import annotations

import csv
import io
import json

import networkx as nx
import pytest

from conftest import INTERCHANGE, build_network, connect, read_network, require_tools, run_async, typed

# --- the graph, in our tool's terms ------------------------------------------------------

NODES = [
    {
        "node_id": "alpha",
        "data": {"owner": "ana", "tags": ["x", "y"], "nested": {"n": 1, "none": None}},
        "attributes": {"rank": 1, "score": 0.5, "ok": True, "label": "first"},
    },
    {"node_id": "ünïcødé ✓", "attributes": {"rank": 2.5, "ok": "yes", "label": 7}},
    {"node_id": 'say "hi"', "attributes": {"rank": "high", "ok": False}},
    {"node_id": "with space", "data": "plain string"},
    {"node_id": "back\\slash", "attributes": {"score": -3}},
    {"node_id": "日本語", "data": 42},
    {"node_id": "<b>&amp;</b>", "attributes": {"label": "a < b & c > d"}},
    {"node_id": "#hash", "attributes": {"big": 2**53, "tiny": 1e-300}},
    {"node_id": "isolated"},
]

EDGES = [
    {"source": "alpha", "target": "ünïcødé ✓", "weight": 2.5, "attributes": {"kind": "dep", "strength": 3}},
    {"source": "alpha", "target": "ünïcødé ✓", "weight": 0.25, "attributes": {"kind": 1}},
    {"source": "alpha", "target": "ünïcødé ✓"},
    {"source": 'say "hi"', "target": 'say "hi"', "weight": -1.5, "attributes": {"flag": True}},
    {"source": "with space", "target": "back\\slash", "weight": 0.001},
    {"source": "日本語", "target": "alpha", "weight": 1e6, "attributes": {"note": "line"}},
    {"source": "<b>&amp;</b>", "target": "#hash", "weight": 3},
    {"source": "ünïcødé ✓", "target": "日本語", "weight": 1.0, "attributes": {"flag": False, "kind": 2.75}},
]

# One attribute that is null: node-link JSON carries it, GraphML cannot.
NULL_ATTRIBUTE = {"node_id": "alpha", "key": "maybe"}


def nodes_with_null() -> list[dict]:
    nodes = json.loads(json.dumps(NODES))
    nodes[0]["attributes"][NULL_ATTRIBUTE["key"]] = None
    return nodes


def expected_graph(nodes: list[dict], edges: list[dict], edge_ids: list[int]) -> nx.MultiDiGraph:
    """The NetworkX form of a network in our terms: node `data` as the node attribute
    "data", edge ids as keys, weights (default 1.0) as the edge attribute "weight"."""
    g = nx.MultiDiGraph()
    for n in nodes:
        attrs = dict(n.get("attributes", {}))
        if "data" in n:
            attrs["data"] = n["data"]
        g.add_node(n["node_id"], **attrs)
    for e, edge_id in zip(edges, edge_ids, strict=True):
        g.add_edge(e["source"], e["target"], key=edge_id, weight=float(e.get("weight", 1.0)), **e.get("attributes", {}))
    return g


def graph_parts(g: nx.MultiDiGraph) -> tuple[dict, list]:
    """Type-tagged nodes (id -> attributes) and edges sorted by key."""
    nodes = {n: typed(attrs) for n, attrs in g.nodes(data=True)}
    edges = sorted(((k, u, v, typed(attrs)) for u, v, k, attrs in g.edges(keys=True, data=True)), key=repr)
    return nodes, edges


def assert_same_graph(got: nx.MultiDiGraph, want: nx.MultiDiGraph) -> None:
    assert got.is_directed() and got.is_multigraph(), f"not a directed multigraph: {type(got).__name__}"
    got_nodes, got_edges = graph_parts(got)
    want_nodes, want_edges = graph_parts(want)
    assert set(got_nodes) == set(want_nodes), (
        f"nodes differ: extra {set(got_nodes) - set(want_nodes)}, missing {set(want_nodes) - set(got_nodes)}"
    )
    for n in want_nodes:
        assert got_nodes[n] == want_nodes[n], f"node {n!r}: got {got_nodes[n]}, want {want_nodes[n]}"
    assert len(got_edges) == len(want_edges), f"{len(got_edges)} edges, want {len(want_edges)}"
    for g_edge, w_edge in zip(got_edges, want_edges, strict=True):
        assert g_edge == w_edge, f"edge differs:\n got  {g_edge}\n want {w_edge}"


def decode_graphml_data(got: nx.MultiDiGraph, want: nx.MultiDiGraph) -> None:
    """GraphML has no JSON type: an exporter writes a structured `data` payload as JSON
    text. Where the string is not already the expected value, decode it."""
    for n, attrs in got.nodes(data=True):
        value = attrs.get("data")
        expected = want.nodes[n].get("data") if n in want else None
        if isinstance(value, str) and typed(value) != typed(expected):
            try:
                attrs["data"] = json.loads(value)
            except json.JSONDecodeError:
                pass


async def export(server, name: str, fmt: str, **extra) -> dict:
    out = await server.ok("network_export", {"network_name": name, "format": fmt, "limit": 10000, **extra})
    assert out["status"] == "success" and out["format"] == fmt and out["network_name"] == name, out
    assert isinstance(out["content"], str) and out["content"], out
    return out


async def our_network_as_graph(server, name: str) -> nx.MultiDiGraph:
    """A network read back through network_list_nodes / network_list_edges, as NetworkX
    would hold it (keys are our edge ids)."""
    nodes, edges = await read_network(server, name)
    items = [{"node_id": n, **entry} for n, entry in nodes.items()]
    return expected_graph(items, edges, [e["edge_id"] for e in edges])


def without_keys(g: nx.MultiDiGraph) -> list:
    """Edges as a sorted multiset of (source, target, attributes): for imports, where the
    receiving network assigns its own edge ids."""
    return sorted(((u, v, typed(attrs)) for u, v, attrs in g.edges(data=True)), key=repr)


# --- ours -> NetworkX -----------------------------------------------------------------------


@run_async
async def test_node_link_export_reads_back_in_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        nodes = nodes_with_null()
        ids = await build_network(server, "nx", nodes, EDGES)
        out = await export(server, "nx", "node_link_json")
        assert (out["node_count"], out["edge_count"], out["truncated"]) == (len(NODES), len(EDGES), False), out

        document = json.loads(out["content"])
        assert document.get("directed") is True and document.get("multigraph") is True, {
            k: v for k, v in document.items() if k not in ("nodes", "edges")
        }
        got = nx.node_link_graph(document, edges="edges")
        assert_same_graph(got, expected_graph(nodes, EDGES, ids))
        # Node-link keeps insertion order; so should we.
        assert list(got.nodes) == [n["node_id"] for n in NODES]


@run_async
async def test_graphml_export_reads_back_in_networkx(binary, tmp_path):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        ids = await build_network(server, "nx", NODES, EDGES)
        out = await export(server, "nx", "graphml")
        assert (out["node_count"], out["edge_count"], out["truncated"]) == (len(NODES), len(EDGES), False), out

        path = tmp_path / "export.graphml"
        path.write_text(out["content"], encoding="utf-8")
        # Edge ids become keys (edge_key_type=int); force_multigraph even if no parallel edges.
        got = nx.read_graphml(path, force_multigraph=True)
        want = expected_graph(NODES, EDGES, ids)
        decode_graphml_data(got, want)
        assert_same_graph(got, want)


@run_async
async def test_export_our_own_import_round_trip(binary, tmp_path):
    """What network_export writes, network_import reads back to the same network."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export", "network_import")
        await build_network(server, "src", NODES, EDGES)
        source = await our_network_as_graph(server, "src")
        for fmt in ("node_link_json", "graphml", "edge_list_csv", "dot"):
            out = await export(server, "src", fmt)
            imported = await server.ok(
                "network_import", {"network_name": f"copy_{fmt}", "format": fmt, "content": out["content"]}
            )
            assert imported["status"] == "success", imported
            copy = await our_network_as_graph(server, f"copy_{fmt}")
            if fmt in ("edge_list_csv", "dot"):
                # An edge list has no isolated nodes, node attributes or data, and neither
                # it nor DOT has types: compare the structure and the weights.
                if fmt == "dot":
                    assert set(copy.nodes) == set(source.nodes), fmt
                else:
                    assert set(copy.nodes) == {n for e in EDGES for n in (e["source"], e["target"])}, fmt
                assert sorted((u, v, d["weight"]) for u, v, d in copy.edges(data=True)) == sorted(
                    (u, v, d["weight"]) for u, v, d in source.edges(data=True)
                ), fmt
                continue
            assert graph_parts(copy)[0] == graph_parts(source)[0], fmt
            assert without_keys(copy) == without_keys(source), fmt


@run_async
async def test_subgraph_export_reads_back_in_networkx(binary, tmp_path):
    """`nodes`, `depth`, `direction`, `limit`: the exported document is the induced
    subgraph on the selected nodes, and says when it was cut."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        ids = await build_network(server, "nx", NODES, EDGES)
        full = expected_graph(NODES, EDGES, ids)

        def induced(selected: set[str]) -> nx.MultiDiGraph:
            return full.subgraph(selected).copy()

        cases = [
            # (arguments, selected nodes)
            ({"node_ids": ["alpha"], "direction": "out"}, {"alpha", "ünïcødé ✓"}),
            ({"node_ids": ["alpha"], "direction": "in"}, {"alpha", "日本語"}),
            ({"node_ids": ["alpha"], "direction": "both"}, {"alpha", "ünïcødé ✓", "日本語"}),
            ({"node_ids": ["alpha"], "direction": "out", "depth": 2}, {"alpha", "ünïcødé ✓", "日本語"}),
            ({"node_ids": ['say "hi"', "isolated"], "depth": 3}, {'say "hi"', "isolated"}),
        ]
        for arguments, selected in cases:
            out = await export(server, "nx", "node_link_json", **arguments)
            got = nx.node_link_graph(json.loads(out["content"]), edges="edges")
            want = induced(selected)
            assert_same_graph(got, want)
            assert (out["node_count"], out["edge_count"], out["truncated"]) == (
                want.number_of_nodes(),
                want.number_of_edges(),
                False,
            ), (arguments, out)

        out = await export(server, "nx", "node_link_json", node_ids=["alpha"], direction="both", limit=2)
        got = nx.node_link_graph(json.loads(out["content"]), edges="edges")
        assert out["truncated"] is True, out
        assert out["node_count"] == got.number_of_nodes() == 2, out
        assert "alpha" in got, "the start node must be kept when the export is cut"
        assert set(got.nodes) <= {"alpha", "ünïcødé ✓", "日本語"}
        assert_same_graph(got, induced(set(got.nodes)))


# --- NetworkX -> ours -----------------------------------------------------------------------


def networkx_graph(*, with_null: bool, with_data: bool) -> nx.MultiDiGraph:
    """The same kind of graph, built by NetworkX itself (keys chosen by NetworkX)."""
    g = nx.MultiDiGraph()
    alpha = {"rank": 1, "score": 0.5, "ok": True, "label": "first"}
    if with_null:
        alpha["maybe"] = None
    if with_data:
        alpha["data"] = {"owner": "ana", "tags": ["x", "y"]}
    g.add_node("alpha", **alpha)
    g.add_node("ünïcødé ✓", rank=2.5, ok="yes", label=7)
    g.add_node('say "hi"', rank="high", ok=False)
    g.add_node("with space")
    g.add_node("back\\slash", score=-3)
    g.add_node("<b>&amp;</b>", label="a < b & c > d")
    g.add_node("isolated")
    g.add_edge("alpha", "ünïcødé ✓", weight=2.5, kind="dep", strength=3)
    g.add_edge("alpha", "ünïcødé ✓", weight=0.25, kind=1)
    g.add_edge("alpha", "ünïcødé ✓")  # no weight: ours must default to 1.0
    g.add_edge('say "hi"', 'say "hi"', weight=-1.5, flag=True)
    g.add_edge("with space", "back\\slash", weight=0.001)
    g.add_edge("<b>&amp;</b>", "alpha", weight=3, note="int weight")
    return g


def as_ours(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """What our network should hold after importing `g`: every edge weighted (float)."""
    h = nx.MultiDiGraph()
    h.add_nodes_from(g.nodes(data=True))
    for u, v, attrs in g.edges(data=True):
        h.add_edge(u, v, **{**attrs, "weight": float(attrs.get("weight", 1.0))})
    return h


async def import_and_compare(server, name: str, fmt: str, content: str, g: nx.MultiDiGraph) -> dict:
    imported = await server.ok("network_import", {"network_name": name, "format": fmt, "content": content})
    assert imported["status"] == "success" and imported["network_name"] == name, imported
    assert (imported["created_node_count"], imported["created_edge_count"]) == (g.number_of_nodes(), g.number_of_edges()), (
        imported
    )
    assert (imported["node_count"], imported["edge_count"]) == (g.number_of_nodes(), g.number_of_edges()), imported
    assert imported["existing_node_count"] == 0, imported

    got = await our_network_as_graph(server, name)
    want = as_ours(g)
    assert graph_parts(got)[0] == graph_parts(want)[0]
    assert without_keys(got) == without_keys(want)
    assert list(got.nodes) == list(g.nodes), "import should keep the document's node order"
    return imported


@run_async
async def test_node_link_from_networkx_imports_exactly(binary, tmp_path):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import")
        g = networkx_graph(with_null=True, with_data=True)
        content = json.dumps(nx.node_link_data(g, edges="edges"))
        await import_and_compare(server, "from_nx", "node_link_json", content, g)
        node = await server.ok("network_get_node", {"network_name": "from_nx", "node_id": "alpha"})
        assert node.get("data") == {"owner": "ana", "tags": ["x", "y"]}, (
            f"the 'data' attribute is our node data: {node}"
        )


@run_async
async def test_graphml_from_networkx_imports_exactly(binary, tmp_path):
    """NetworkX writes booleans as "True"/"False", one <key> per (name, type), and
    int weights as attr.type="long": all of it must come through typed."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import")
        g = networkx_graph(with_null=False, with_data=False)
        content = "\n".join(nx.generate_graphml(g))
        await import_and_compare(server, "from_nx", "graphml", content, g)


@run_async
async def test_import_merge_counts_existing_nodes(binary, tmp_path):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import")
        await build_network(server, "m", [{"node_id": "alpha", "attributes": {"keep": 1}}], [])
        g = nx.MultiDiGraph()
        g.add_edge("alpha", "beta", weight=2.0)
        g.add_edge("beta", "beta", weight=1.0)
        merged = await server.ok(
            "network_import",
            {
                "network_name": "m",
                "format": "node_link_json",
                "content": json.dumps(nx.node_link_data(g, edges="edges")),
                "mode": "merge",
            },
        )
        assert (merged["created_node_count"], merged["existing_node_count"], merged["created_edge_count"]) == (1, 1, 2), merged
        assert (merged["node_count"], merged["edge_count"]) == (2, 2), merged
        nodes, edges = await read_network(server, "m")
        assert list(nodes) == ["alpha", "beta"]
        assert nodes["alpha"]["attributes"] == {"keep": 1}, "merge must not replace an existing node's attributes"
        assert sorted((e["source"], e["target"], e["weight"]) for e in edges) == [
            ("alpha", "beta", 2.0),
            ("beta", "beta", 1.0),
        ]


BROKEN_IMPORTS = [
    pytest.param("node_link_json", '{"directed": true, "nodes": [{"id": "a"}', id="json-truncated"),
    pytest.param(
        "node_link_json",
        '{"directed": true, "multigraph": true, "nodes": [{"id": "a"}], "edges": [{"source": "a"}]}',
        id="json-edge-without-target",
    ),
    pytest.param(
        "graphml",
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed"><node id="a"></graph></graphml>',
        id="graphml-bad-xml",
    ),
    pytest.param("dot", "digraph { a -> ; }", id="dot-syntax"),
    pytest.param("edge_list_csv", "source,target,weight\na,b,heavy\n", id="csv-bad-weight"),
]


@pytest.mark.parametrize("fmt,content", BROKEN_IMPORTS)
@run_async
async def test_broken_documents_are_invalid_import_and_change_nothing(binary, tmp_path, fmt, content):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import")
        await build_network(server, "keep", [{"node_id": "a"}], [])
        error = await server.err(
            "network_import",
            {"network_name": "keep", "format": fmt, "content": content, "mode": "merge"},
            "invalid_import",
        )
        assert "location" in error, f"an invalid_import error should say where: {error}"
        assert await server.networks() == {"keep": (1, 0)}
        await server.err(
            "network_import", {"network_name": "fresh", "format": fmt, "content": content}, "invalid_import"
        )
        assert await server.networks() == {"keep": (1, 0)}, "a failed import must not leave a network behind"


# --- the edge list, read by Python's csv module ----------------------------------------------


@run_async
async def test_edge_list_csv_reads_with_the_csv_module(binary, tmp_path):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export", "network_import")
        ids = await build_network(server, "csv", NODES, EDGES)
        out = await export(server, "csv", "edge_list_csv")
        rows = list(csv.reader(io.StringIO(out["content"], newline="")))
        header, body = rows[0], rows[1:]
        assert header[:4] == ["source", "target", "weight", "edge_id"], header
        attribute_names = {k for e in EDGES for k in e.get("attributes", {})}
        assert set(header[4:]) == attribute_names, header
        assert len(body) == len(EDGES)
        got = sorted(
            (int(r["edge_id"]), r["source"], r["target"], float(r["weight"]))
            for r in csv.DictReader(io.StringIO(out["content"], newline=""))
        )
        want = sorted(
            (i, e["source"], e["target"], float(e.get("weight", 1.0))) for i, e in zip(ids, EDGES, strict=True)
        )
        assert got == want
        by_id = {int(r["edge_id"]): r for r in csv.DictReader(io.StringIO(out["content"], newline=""))}
        assert by_id[ids[0]]["kind"] == "dep" and by_id[ids[5]]["note"] == "line"
        assert by_id[ids[2]]["kind"] == "", "a missing attribute is an empty cell"

        # The other way: a file written by csv.writer (quoting what needs it).
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer)
        writer.writerow(["source", "target", "weight", "relation"])
        writer.writerow(['say "hi"', "a,b", "2.5", "needs, quoting"])
        writer.writerow(["ünï", "ünï", "1", "self"])
        writer.writerow(["a,b", 'say "hi"', "0.5", ""])
        imported = await server.ok(
            "network_import", {"network_name": "from_csv", "format": "edge_list_csv", "content": buffer.getvalue()}
        )
        assert (imported["created_node_count"], imported["created_edge_count"]) == (3, 3), imported
        _, edges = await read_network(server, "from_csv")
        # An empty cell is no attribute (or an empty string: either reads the same).
        assert sorted(
            (e["source"], e["target"], e["weight"], e["attributes"].get("relation") or None) for e in edges
        ) == sorted(
            [('say "hi"', "a,b", 2.5, "needs, quoting"), ("ünï", "ünï", 1.0, "self"), ("a,b", 'say "hi"', 0.5, None)]
        )
