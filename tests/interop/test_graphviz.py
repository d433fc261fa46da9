"""DOT export and import against Graphviz (`dot`, Debian's graphviz package).

Export: a network whose ids have quotes, spaces, backslashes, DOT keywords, DOT
punctuation and Unicode must render with `dot -Tsvg` without a warning, and the
drawing must show every id as its node's label. `dot -Tjson` (Graphviz's own parse
of the document, with the text it draws) must give the same edges, parallel edges and
self-loops included.

Import: a DOT document written by hand (chains, subgraphs, default-attribute
statements, every comment style, line continuations), and the same document after
Graphviz rewrote it (`-Tcanon`, and `-Tdot` with layout attributes), must import as
the same nodes and edges. Our own export, rewritten by Graphviz, must import back to
the network it came from.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from conftest import INTERCHANGE, build_network, connect, read_network, require_tools, run_async

SVG = "{http://www.w3.org/2000/svg}"

TRICKY_IDS = [
    'say "hi"',
    "with space",
    "back\\slash",
    "trailing\\",
    '\\"both\\"',
    "ünïcødé ✓",
    "日本語",
    "<b>&amp;</b>",
    "a->b",
    "node",
    "graph",
    "Subgraph",
    "strict",
    "-1.5",
    "x;y",
    "{brace}",
    "[bracket]",
    "#hash",
    "// not a comment",
    "/* nor this */",
    "\\N",
]

TRICKY_EDGES = [
    ('say "hi"', "with space", 2.5),
    ('say "hi"', "with space", 0.5),  # parallel
    ("back\\slash", "back\\slash", 1.0),  # self-loop
    ("trailing\\", '\\"both\\"', 3.0),
    ("ünïcødé ✓", "日本語", 1.25),
    ("<b>&amp;</b>", "a->b", 1.0),
    ("node", "graph", 1.0),
    ("Subgraph", "strict", 7.0),
    ("-1.5", "x;y", 0.0),
    ("{brace}", "[bracket]", 1.0),
    ("#hash", "// not a comment", 1.0),
    ("/* nor this */", "\\N", 1.0),
    ("\\N", "\\N", 2.0),
]


def run_dot(dot_binary: str, fmt: str, document: str) -> subprocess.CompletedProcess:
    return subprocess.run([dot_binary, f"-T{fmt}"], input=document, capture_output=True, text=True, timeout=120)


def graphviz_view(dot_binary: str, document: str) -> tuple[list[str], list[tuple[str, str]]]:
    """What Graphviz made of a DOT document: the drawn label of each node, and each edge
    as (tail label, head label), from `dot -Tjson`."""
    proc = run_dot(dot_binary, "json", document)
    assert proc.returncode == 0, f"dot -Tjson failed (exit {proc.returncode}): {proc.stderr}\n{document}"
    graph = json.loads(proc.stdout)
    labels: dict[int, str] = {}
    for obj in graph.get("objects", []):
        if "nodes" in obj or "edges" in obj:  # a subgraph
            continue
        texts = [op["text"] for op in obj.get("_ldraw_", []) if op.get("op") == "T"]
        labels[obj["_gvid"]] = "\n".join(texts)
    edges = [(labels[e["tail"]], labels[e["head"]]) for e in graph.get("edges", [])]
    return list(labels.values()), edges


def node_labels_in_svg(svg: str) -> list[str]:
    """The text drawn inside each node of an SVG written by Graphviz (XML-unescaped)."""
    root = ET.fromstring(svg)
    labels = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "node":
            labels.append("\n".join("".join(t.itertext()) for t in group.iter(f"{SVG}text")))
    return labels


@run_async
async def test_dot_export_renders_with_graphviz(binary, tmp_path, dot_binary):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        await build_network(
            server,
            "dot",
            [{"node_id": n} for n in TRICKY_IDS],
            [{"source": s, "target": t, "weight": w} for s, t, w in TRICKY_EDGES],
        )
        out = await server.ok("network_export", {"network_name": "dot", "format": "dot", "limit": 10000})
        assert (out["status"], out["node_count"], out["edge_count"]) == ("success", len(TRICKY_IDS), len(TRICKY_EDGES)), out
        document = out["content"]
        (tmp_path / "export.dot").write_text(document, encoding="utf-8")

        svg = run_dot(dot_binary, "svg", document)
        assert svg.returncode == 0, f"dot -Tsvg failed (exit {svg.returncode}): {svg.stderr}\n{document}"
        assert svg.stderr.strip() == "", f"dot -Tsvg warned: {svg.stderr}\n{document}"
        drawn = node_labels_in_svg(svg.stdout)
        assert Counter(drawn) == Counter(TRICKY_IDS), (
            f"labels drawn in the SVG differ from the node ids:\n missing {sorted(set(TRICKY_IDS) - set(drawn))}\n"
            f" unexpected {sorted(set(drawn) - set(TRICKY_IDS))}\n{document}"
        )
        edge_groups = [g for g in ET.fromstring(svg.stdout).iter(f"{SVG}g") if g.get("class") == "edge"]
        assert len(edge_groups) == len(TRICKY_EDGES), "every edge (parallel ones too) is drawn"

        labels, edges = graphviz_view(dot_binary, document)
        assert Counter(labels) == Counter(TRICKY_IDS)
        assert Counter(edges) == Counter((s, t) for s, t, _ in TRICKY_EDGES), document


@run_async
async def test_dot_export_of_empty_and_isolated_networks_renders(binary, tmp_path, dot_binary):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        await build_network(server, "empty", [], [])
        await build_network(server, "lonely", [{"node_id": "only"}], [])
        for name, want in (("empty", []), ("lonely", ["only"])):
            out = await server.ok("network_export", {"network_name": name, "format": "dot", "limit": 10000})
            svg = run_dot(dot_binary, "svg", out["content"])
            assert svg.returncode == 0 and not svg.stderr.strip(), f"{name}: {svg.stderr}\n{out['content']}"
            assert node_labels_in_svg(svg.stdout) == want


# --- import ------------------------------------------------------------------------------

HAND_WRITTEN = r"""/* written by hand, the way people write DOT */
digraph "hand made" {
    graph [rankdir=LR, label="Plan"];
    node [shape=box, color="gray"];
    edge [color=blue];
    // a line comment
# a line that starts with '#' is a comment too
    alpha [label="Alpha", priority=3];
    "with space" -> "say \"hi\"" [weight=2.5, kind=dep];
    alpha -> beta -> gamma;
    alpha -> beta [weight=0.5];
    "ünïcødé ✓" -> "ünïcødé ✓";
    subgraph cluster_x {
        label = "inner";
        delta;
        epsilon -> delta [weight=4];
    }
    "multi\
line" -> alpha;
    lonely;
}
"""

HAND_NODES = {
    "alpha",
    "with space",
    'say "hi"',
    "beta",
    "gamma",
    "ünïcødé ✓",
    "delta",
    "epsilon",
    "multiline",
    "lonely",
}
HAND_EDGES = Counter(
    [
        ("with space", 'say "hi"', 2.5),
        ("alpha", "beta", 1.0),
        ("beta", "gamma", 1.0),
        ("alpha", "beta", 0.5),
        ("ünïcødé ✓", "ünïcødé ✓", 1.0),
        ("epsilon", "delta", 4.0),
        ("multiline", "alpha", 1.0),
    ]
)


def graphviz_rewrite(dot_binary: str, fmt: str, document: str) -> str:
    proc = run_dot(dot_binary, fmt, document)
    assert proc.returncode == 0, f"dot -T{fmt} failed: {proc.stderr}"
    return proc.stdout


@pytest.mark.parametrize("writer", ["hand", "canon", "dot"])
@run_async
async def test_dot_import_of_hand_and_graphviz_written_documents(binary, tmp_path, dot_binary, writer):
    document = HAND_WRITTEN if writer == "hand" else graphviz_rewrite(dot_binary, writer, HAND_WRITTEN)
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import")
        imported = await server.ok("network_import", {"network_name": "hand", "format": "dot", "content": document})
        assert imported["status"] == "success", imported
        assert (imported["node_count"], imported["edge_count"]) == (len(HAND_NODES), sum(HAND_EDGES.values())), (
            imported,
            document,
        )
        nodes, edges = await read_network(server, "hand")
        assert set(nodes) == HAND_NODES, document
        assert Counter((e["source"], e["target"], e["weight"]) for e in edges) == HAND_EDGES, document
        dep = [e for e in edges if e["source"] == "with space"]
        assert dep and dep[0]["attributes"].get("kind") == "dep", f"edge attributes are kept: {dep}"


@run_async
async def test_our_dot_rewritten_by_graphviz_imports_back(binary, tmp_path, dot_binary):
    """export -> `dot -Tcanon` (Graphviz re-serializes our ids its own way) -> import."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export", "network_import")
        await build_network(
            server,
            "dot",
            [{"node_id": n} for n in TRICKY_IDS],
            [{"source": s, "target": t, "weight": w} for s, t, w in TRICKY_EDGES],
        )
        out = await server.ok("network_export", {"network_name": "dot", "format": "dot", "limit": 10000})
        canon = graphviz_rewrite(dot_binary, "canon", out["content"])
        await server.ok("network_import", {"network_name": "back", "format": "dot", "content": canon})
        nodes, edges = await read_network(server, "back")
        assert set(nodes) == set(TRICKY_IDS), f"{sorted(set(nodes) ^ set(TRICKY_IDS))}\n{canon}"
        assert Counter((e["source"], e["target"], e["weight"]) for e in edges) == Counter(TRICKY_EDGES), canon
