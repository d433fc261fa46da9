"""Mermaid export against the real Mermaid parser (`mermaid` on npm, run headless under
Node by tests/interop/mermaid_parse.mjs; .ci/interop.sh installs it).

The export of a network whose ids are Mermaid keywords (`end`, `graph`, `subgraph`,
`style`, `class`, `click`, `default`), arrow and shape syntax, quotes, markup, `#`,
`%%`, Unicode and spaces, with parallel edges and self-loops, must parse as a
flowchart whose vertices show exactly the node ids (as a rendered diagram would
show them: entity codes decoded, markup taken as markup) and whose edges are exactly
the network's edges under the reading its first-line comment states
(`%% networks-mcp export: A --> B means A depends on B`). A deliberately broken
document must fail, which proves the parser is real.

The import side: every document of tests/interop/mermaid_corpus.py, and near-miss
mutations of it, is imported and parsed by Mermaid; the import must accept exactly what
Mermaid accepts, with Mermaid's vertices, labels and edges (each link A --> B the edge
the reply's `reading` names: B -> A when it reads "B depends on A"), and refuse the
rest with a line and column. Our own export must read back exactly.

The parser only parses: a Mermaid render lays text out with SVG getBBox(), which needs
a browser. Parsing runs the grammar and flowchart database a render starts from.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
from collections import Counter

from conftest import INTERCHANGE, build_network, connect, require_tools, run_async
from mermaid_corpus import INVALID, VALID

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
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
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
        # The first line states how to read the arrows; under that reading the
        # parser's links are the network's edges.
        header = document.splitlines()[0]
        assert header.startswith("%% networks-mcp export:"), header
        if "means B depends on A" in header:
            edges = Counter({(b, a): n for (a, b), n in edges.items()})
        else:
            assert "means A depends on B" in header, header
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
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
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
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        await build_network(server, "mm", [{"node_id": "a"}, {"node_id": "b"}], [{"source": "a", "target": "b"}])
        document = (await export_mermaid(server, "mm"))["content"]
        parsed_or_fail(mermaid_parse, document)
        broken = document.rstrip("\n") + '\n    x["unterminated --> y\n'
        proc = mermaid_parse(broken)
        assert proc.returncode == 1, f"Mermaid accepted:\n{broken}"


# --- import: the real parser is the oracle -----------------------------------------------


def mutations(documents: list[str], count: int, seed: int) -> list[str]:
    """`count` documents made by 1-3 random edits (insert, delete, replace) of the
    valid corpus, with pieces of Mermaid syntax: mostly near-misses of real diagrams."""
    rng = random.Random(seed)
    pieces = list("AB C-->|[](){}<>\"'&;:#%@.=~ox/\\\n\t_1v^*,`") + [
        "end", "subgraph ", "-->", "---", "-.->", "==>", "|x|", "[x]", "(x)", "{x}", '"q"',
        "@{ shape: rect }", "#quot;", "%% c\n", "style ", "class ", "click ", "direction TB", " & ",
    ]
    out = []
    for _ in range(count):
        d = rng.choice(documents)
        for _ in range(rng.randint(1, 3)):
            i = rng.randint(0, len(d))
            op = rng.random()
            if op < 0.4:
                d = d[:i] + rng.choice(pieces) + d[i:]
            elif op < 0.7:
                d = d[:i] + d[i + 1 :]
            else:
                d = d[:i] + rng.choice(pieces) + d[i + 1 :]
        out.append(d)
    return out


def comparable(label: str | None) -> bool:
    """Whether a label can be compared: one with markup (`<`) renders as HTML in
    Mermaid, while our import keeps the text as written."""
    return label is None or "<" not in label


@run_async
async def test_import_agrees_with_the_mermaid_parser(binary, tmp_path, mermaid_parse):
    """Every document of the corpus (tests/interop/mermaid_corpus.py) and 400 near-miss
    mutations of it: our import accepts exactly what Mermaid accepts; what it accepts has
    Mermaid's edges (endpoints and text, in order) and labels, and what it refuses is
    refused with a line and column."""
    documents = VALID + INVALID + mutations(VALID, 400, seed=27)
    disagreements = []
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import", "network_export")
        for i, document in enumerate(documents):
            proc = mermaid_parse(document)
            theirs = proc.returncode == 0
            if i < len(VALID):
                assert theirs, f"corpus VALID[{i}] is rejected by Mermaid: {proc.stderr}\n{document}"
            elif i < len(VALID) + len(INVALID):
                assert not theirs, f"corpus INVALID[{i - len(VALID)}] is accepted by Mermaid:\n{document}"
            name = f"m{i}"
            result = await server.call("network_import", {"network_name": name, "format": "mermaid", "content": document})
            ours = result.is_error is not True
            reading = (result.structured_content or {}).get("reading", "") if ours else ""
            if theirs != ours:
                why = proc.stderr.strip() if not theirs else (result.structured_content or {}).get("error")
                disagreements.append(f"#{i} Mermaid {'accepts' if theirs else 'rejects'}, we do not ({why}):\n{document!r}")
                continue
            if not ours:
                error = result.structured_content
                assert error["code"] in ("invalid_import", "limit_exceeded"), error
                assert re.search(r"line \d+, column \d+", error["error"]), error
                continue
            parsed = json.loads(proc.stdout)
            out = await server.ok("network_export", {"network_name": name, "format": "node_link_json", "limit": 10000})
            graph = json.loads(out["content"])
            nodes = {n["id"]: n for n in graph["nodes"]}
            theirs_edges = [(e["start"], e["end"], e["label"] or None) for e in parsed["edges"]]
            # The reply says how the links were read: "B depends on A" is the
            # edge B -> A for the parser's link A --> B.
            assert "read as: B depends on A" in reading or "read as: A depends on B" in reading, reading
            flipped = "read as: B depends on A" in reading
            our_edges = [
                (e["target"], e["source"], e.get("relation")) if flipped else (e["source"], e["target"], e.get("relation"))
                for e in graph["edges"]
            ]
            same = len(theirs_edges) == len(our_edges) and all(
                (a, b) == (c, d) and (t == u or not (comparable(t) and comparable(u)))
                for (a, b, t), (c, d, u) in zip(theirs_edges, our_edges)
            )
            if not same:
                disagreements.append(f"#{i} edges differ: Mermaid {theirs_edges}, ours {our_edges}:\n{document!r}")
            for vertex in parsed["vertices"]:
                node = nodes.get(vertex["id"])
                if node is None:
                    disagreements.append(f"#{i} Mermaid has a vertex {vertex['id']!r}, we have no node")
                    continue
                label = node.get("label", node["id"])
                if comparable(vertex["label"]) and comparable(label) and label != vertex["label"]:
                    disagreements.append(f"#{i} label of {vertex['id']!r}: Mermaid {vertex['label']!r}, ours {label!r}")
            await server.ok("network_delete", {"network_name": name, "confirm": True})
    assert not disagreements, f"{len(disagreements)} of {len(documents)} documents:\n" + "\n".join(disagreements[:20])


def test_the_plan_fixture_is_a_mermaid_flowchart(mermaid_parse):
    """tests/fixtures/plan.mmd, which tests/it/mcp_imports.rs imports, is real Mermaid."""
    text = (pathlib.Path(__file__).parents[1] / "fixtures" / "plan.mmd").read_text(encoding="utf-8")
    proc = mermaid_parse(text)
    assert proc.returncode == 0, proc.stderr
    parsed = json.loads(proc.stdout)
    assert len(parsed["edges"]) == 7, parsed["edges"]


@run_async
async def test_our_export_reads_back_exactly(binary, tmp_path, mermaid_parse):
    """The tricky network's export parses with Mermaid, and imports back into the same
    ids, in the same order, with the same edges, weights and relations."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_import", "network_export")
        edges = [{"source": s, "target": t} for s, t in TRICKY_EDGES]
        edges[0]["weight"] = 2.5
        edges[1]["attributes"] = {"relation": "blocks (really)"}
        edges[2]["attributes"] = {"relation": "7"}
        edges[3].update(weight=-1, attributes={"relation": "|x|"})
        await build_network(server, "src", [{"node_id": n} for n in TRICKY_IDS], edges)
        document = (await export_mermaid(server, "src"))["content"]
        parsed_or_fail(mermaid_parse, document)
        await server.ok("network_import", {"network_name": "copy", "format": "mermaid", "content": document})
        graphs = []
        for name in ("src", "copy"):
            out = await server.ok("network_export", {"network_name": name, "format": "node_link_json", "limit": 10000})
            graph = json.loads(out["content"])
            graphs.append(
                (
                    [n["id"] for n in graph["nodes"]],
                    [(e["source"], e["target"], e["weight"], e.get("relation")) for e in graph["edges"]],
                )
            )
        assert graphs[1] == graphs[0]
