"""Mermaid export against the real Mermaid parser (`mermaid` on npm, run headless under
Node by tests/interop/mermaid_parse.mjs; .ci/interop.sh installs it).

The export of a network whose ids are Mermaid keywords (`end`, `graph`, `subgraph`,
`style`, `class`, `click`, `default`), arrow and shape syntax, quotes, markup, `#`,
`%%`, Unicode and spaces, with parallel edges and self-loops, must parse as a
flowchart whose vertices show exactly the node ids (as a rendered diagram would
show them: entity codes decoded, markup taken as markup) and whose edges are exactly
the network's edges. A deliberately broken document must fail, which proves the
parser is real.

The parser only parses: a Mermaid render lays text out with SVG getBBox(), which needs
a browser. Parsing runs the grammar and flowchart database a render starts from.
"""

from __future__ import annotations

import json
from collections import Counter

from conftest import build_network, connect, require_tools, run_async

TRICKY_IDS = [
    "end",
    "End",
    "graph",
    "subgraph",
    "style",
    "class",
    "click",
    "default",
    'say "hi"',
    "it's",
    "<b>bold</b>",
    "<script>alert(1)</script>",
    "a & b",
    "#hash",
    "#quot;",
    "%% not a comment",
    "A-->B",
    "x --o y",
    "o",
    "x",
    "|pipe|",
    "(paren)",
    "[bracket]",
    "{brace}",
    "semi;colon",
    "colon:",
    "back\\slash",
    "`tick`",
    "with space",
    "ünïcødé ✓",
    "日本語",
    "😀",
    "1",
]

TRICKY_EDGES = [
    ("end", "End"),
    ("end", "End"),  # parallel
    ("end", "end"),  # self-loop
    ("graph", "subgraph"),
    ("style", "class"),
    ("click", "default"),
    ('say "hi"', "it's"),
    ("<b>bold</b>", "<script>alert(1)</script>"),
    ("a & b", "#hash"),
    ("#quot;", "%% not a comment"),
    ("A-->B", "x --o y"),
    ("o", "x"),
    ("x", "o"),
    ("|pipe|", "(paren)"),
    ("[bracket]", "{brace}"),
    ("semi;colon", "colon:"),
    ("back\\slash", "`tick`"),
    ("with space", "ünïcødé ✓"),
    ("日本語", "😀"),
    ("😀", "😀"),
    ("1", "end"),
]


def parsed_or_fail(mermaid_parse, document: str) -> dict:
    proc = mermaid_parse(document)
    assert proc.returncode == 0, f"Mermaid rejected the export:\n{proc.stderr}\n--- document ---\n{document}"
    return json.loads(proc.stdout)


def label_edges(parsed: dict) -> tuple[Counter, Counter]:
    """Vertex labels, and edges as (source label, target label), as multisets."""
    label_of = {v["id"]: v["label"] for v in parsed["vertices"]}
    labels = Counter(label_of.values())
    edges = Counter((label_of.get(e["start"], e["start"]), label_of.get(e["end"], e["end"])) for e in parsed["edges"])
    return labels, edges


async def export_mermaid(server, name: str) -> dict:
    out = await server.ok("network_export", {"network_name": name, "format": "mermaid", "limit": 10000})
    assert out["status"] == "success" and out["format"] == "mermaid", out
    lines = [line.strip() for line in out["content"].splitlines()]
    assert "flowchart LR" in lines, f"expected a `flowchart LR` diagram:\n{out['content']}"
    return out


@run_async
async def test_mermaid_export_parses_with_the_real_parser(binary, tmp_path, mermaid_parse):
    async with connect(binary, tmp_path) as server:
        await require_tools(server, "network_export")
        await build_network(
            server,
            "mm",
            [{"node_id": n} for n in TRICKY_IDS],
            [{"source": s, "target": t} for s, t in TRICKY_EDGES],
        )
        out = await export_mermaid(server, "mm")
        assert (out["node_count"], out["edge_count"]) == (len(TRICKY_IDS), len(TRICKY_EDGES)), out
        document = out["content"]
        (tmp_path / "export.mmd").write_text(document, encoding="utf-8")

        parsed = parsed_or_fail(mermaid_parse, document)
        assert parsed["diagramType"].startswith("flowchart"), parsed["diagramType"]
        labels, edges = label_edges(parsed)
        assert labels == Counter(TRICKY_IDS), (
            "the labels Mermaid would draw differ from the node ids:\n"
            f" missing {sorted((Counter(TRICKY_IDS) - labels).elements())}\n"
            f" unexpected {sorted((labels - Counter(TRICKY_IDS)).elements())}\n--- document ---\n{document}"
        )
        assert edges == Counter(TRICKY_EDGES), (
            f"edges differ:\n missing {sorted((Counter(TRICKY_EDGES) - edges).elements())}\n"
            f" unexpected {sorted((edges - Counter(TRICKY_EDGES)).elements())}\n--- document ---\n{document}"
        )


@run_async
async def test_mermaid_export_of_edge_cases_parses(binary, tmp_path, mermaid_parse):
    """An empty network, a lone node, and a subgraph export (`nodes`, `limit`)."""
    async with connect(binary, tmp_path) as server:
        await require_tools(server, "network_export")
        await build_network(server, "empty", [], [])
        parsed = parsed_or_fail(mermaid_parse, (await export_mermaid(server, "empty"))["content"])
        assert (parsed["vertices"], parsed["edges"]) == ([], [])

        await build_network(server, "lonely", [{"node_id": "end"}], [])
        parsed = parsed_or_fail(mermaid_parse, (await export_mermaid(server, "lonely"))["content"])
        assert label_edges(parsed) == (Counter(["end"]), Counter())

        await build_network(
            server, "mm", [{"node_id": n} for n in TRICKY_IDS], [{"source": s, "target": t} for s, t in TRICKY_EDGES]
        )
        out = await server.ok(
            "network_export",
            {"network_name": "mm", "format": "mermaid", "node_ids": ["end"], "direction": "both", "limit": 2},
        )
        parsed = parsed_or_fail(mermaid_parse, out["content"])
        labels, _ = label_edges(parsed)
        assert "end" in labels and sum(labels.values()) == out["node_count"] == 2 and out["truncated"] is True, (out, parsed)


def test_the_parser_rejects_broken_flowcharts(mermaid_parse):
    """Without this, a parser that accepts anything would pass every test above."""
    good = 'flowchart LR\n    n0["end"] --> n1["say #quot;hi#quot;"]\n    n0 --> n0\n'
    proc = mermaid_parse(good)
    assert proc.returncode == 0, proc.stderr
    assert label_edges(json.loads(proc.stdout)) == (
        Counter(["end", 'say "hi"']),
        Counter([("end", 'say "hi"'), ("end", "end")]),
    )
    # Not every mistake is a syntax error: `n0["say "hi""]` parses, as the label `say hi`.
    # That is why the export tests compare the parsed labels with the ids too.
    broken = {
        "bare keyword id": "flowchart LR\n    end --> n1\n",
        "raw quote in label": 'flowchart LR\n    n0["a"b"] --> n1\n',
        "unclosed shape": 'flowchart LR\n    n0["open --> n1\n',
        "dangling arrow": "flowchart LR\n    n0 -->\n",
        "unknown diagram": "flowchrt LR\n    a --> b\n",
    }
    for what, text in broken.items():
        proc = mermaid_parse(text)
        assert proc.returncode == 1, f"Mermaid accepted a broken flowchart ({what}):\n{text}\nstdout: {proc.stdout}"
        assert proc.stderr.strip(), f"no parser message for {what}"


@run_async
async def test_a_broken_copy_of_our_export_is_rejected(binary, tmp_path, mermaid_parse):
    async with connect(binary, tmp_path) as server:
        await require_tools(server, "network_export")
        await build_network(server, "mm", [{"node_id": "a"}, {"node_id": "b"}], [{"source": "a", "target": "b"}])
        document = (await export_mermaid(server, "mm"))["content"]
        parsed_or_fail(mermaid_parse, document)
        broken = document.rstrip("\n") + '\n    x["unterminated --> y\n'
        proc = mermaid_parse(broken)
        assert proc.returncode == 1, f"Mermaid accepted:\n{broken}"
