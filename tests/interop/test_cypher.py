"""Cypher export against Neo4j's own Cypher parser (`@neo4j-cypher/language-support` on
npm, run under Node by tests/interop/cypher_parse.mjs; .ci/interop.sh installs it). No
database installs from the registries we use, so this checks what a database would parse
first: Neo4j's ANTLR grammar, and Neo4j's Cypher front-end (parser and semantic analysis,
as CYPHER 5 and CYPHER 25), which the package ships compiled to JavaScript.

A network with hostile ids and values (quotes, backslashes, a trailing backslash,
newlines and control characters in strings, Unicode, backticks and keywords as
attribute names, a `relation` with spaces and odd characters as the relationship type,
parallel edges, self-loops, node `data`, 1e300 and 1e-7, the 64-bit integer limits,
negative weights, booleans, nulls) must export statements that all parse with no error,
one per node and edge; and the literals Neo4j's lexer cuts out of each statement,
decoded by Cypher's escaping rules, must be exactly the ids, names and values of the
network. A deliberately broken document must fail, which proves the parser is real.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from conftest import INTERCHANGE, build_network, connect, require_tools, run_async

NODES = [
    {
        "node_id": "it's",
        "attributes": {
            "quote": "say \"hi\", it's",
            "path": "C:\\dir\\file\\",
            "multi": "line1\nline2\r\n\tindented",
            "controls": "\b\f\x00\x01\x1b\x7f\x85 end",
            "unicode": "ünïcødé ✓ 日本語 😀 \u2028 \ufeff",
            "escapes": "\\n is not a newline, \\u0041 is not A, \\' \\\"",
            "a`b": "backtick in the name",
            "`": "a name that is one backtick",
            "MATCH": "keyword",
            "return": 1,
            "null": True,
            "true": False,
            "with space": -0.5,
            "big": 1e300,
            "small": 1e-7,
            "tiny": 5e-324,
            "huge": 1.7976931348623157e308,
            "negative": -1e-300,
            "i64_max": 2**63 - 1,
            "i64_min": -(2**63),
            "u64_max": 2**64 - 1,
            "zero": 0,
            "empty": "",
            "maybe": None,
            "id": "shadows the id: left out",
            "data_json": "shadows the data: left out",
        },
        "data": {"quote": "it's \"x\"", "back": "\\", "nl": "a\nb", "list": [1, 2.5, None, True], "emoji": "😀"},
    },
    {"node_id": 'say "hi"', "data": "plain string"},
    {"node_id": "back\\slash", "attributes": {"ok": True}},
    {"node_id": "trailing\\"},
    {"node_id": "\\'"},
    {"node_id": "\\u0041"},
    {"node_id": "`tick`"},
    {"node_id": "ünïcødé ✓", "data": 42},
    {"node_id": "日本語", "data": None},
    {"node_id": "😀", "data": [1, "two", {"three": 3}]},
    {"node_id": "MATCH"},
    {"node_id": "null"},
    {"node_id": "a;b"},
    {"node_id": "$param"},
    {"node_id": "}) DETACH DELETE n //"},
    {"node_id": "/* not a comment"},
    {"node_id": "// not a comment"},
    {"node_id": " leading and trailing space "},
    {"node_id": "line\u2028separator"},
]

EDGES = [
    {"source": "it's", "target": 'say "hi"', "weight": -2.5, "attributes": {"relation": "depends on", "note": "x\ny"}},
    {"source": "it's", "target": 'say "hi"', "weight": 1e300, "attributes": {"relation": "depends on"}},  # parallel
    {"source": "it's", "target": 'say "hi"', "weight": -1e-7, "attributes": {"relation": "a`b (odd) -> 'x' \"y\" ✓ ;"}},
    {"source": "trailing\\", "target": "trailing\\", "attributes": {"relation": "MATCH"}},  # self-loop
    {"source": "back\\slash", "target": "`tick`", "attributes": {"relation": "line\nbreak\ttab"}},
    {"source": "😀", "target": "日本語", "weight": 0, "attributes": {"relation": "   "}},
    {"source": "MATCH", "target": "null", "attributes": {"relation": 7}},
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
            "relation": "``",
        },
    },
    {"source": "}) DETACH DELETE n //", "target": "/* not a comment", "weight": -1e300},
    {"source": "😀", "target": "😀"},  # self-loop
    {"source": "😀", "target": "😀", "attributes": {"relation": "\n"}},  # parallel self-loop
    {"source": "\\'", "target": "\\u0041", "weight": 1e-7},
    {"source": "// not a comment", "target": " leading and trailing space "},
    {"source": "line\u2028separator", "target": "it's"},
]

ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}


def decode_string(token: str) -> str:
    """A Cypher string literal's value. Strict: only the escapes Cypher defines (`\\\\`
    `\\'` `\\"` `\\n` `\\r` `\\t` `\\b` `\\f` `\\uXXXX` `\\UXXXXXXXX`); Neo4j keeps any
    other backslash pair as written, which an export must not rely on."""
    quote = token[0]
    assert quote in "'\"" and len(token) >= 2 and token[-1] == quote, f"not a string literal: {token!r}"
    body, out, i = token[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == quote:
            raise AssertionError(f"unescaped quote inside {token!r}")
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1 : i + 2]
        if e in ESCAPES:
            out.append(ESCAPES[e])
            i += 2
        elif e in ("u", "U"):
            width = 4 if e == "u" else 8
            digits = body[i + 2 : i + 2 + width]
            assert re.fullmatch(f"[0-9A-Fa-f]{{{width}}}", digits), f"bad \\{e} escape in {token!r}"
            out.append(chr(int(digits, 16)))
            i += 2 + width
        else:
            raise AssertionError(f"undefined escape \\{e} in {token!r}")
    return "".join(out)


def decode_name(token: str) -> str:
    """A backtick-quoted Cypher name (doubled backticks stand for one)."""
    assert len(token) >= 3 and token[0] == token[-1] == "`", f"not a quoted name: {token!r}"
    inner = token[1:-1]
    assert re.fullmatch(r"(?:[^`]|``)+", inner), f"stray backtick in {token!r}"
    return inner.replace("``", "`")


def number(token: str):
    """A number literal as (type, value): an integer when written without `.` or exponent."""
    if re.fullmatch(r"-?\d+", token):
        return ("int", int(token))
    return ("float", float(token))


def expected_scalar_literals(attributes: dict, skip: set[str]):
    """What the export should write for flat attributes: names, string values, numbers
    (u64 beyond i64 as a float), booleans; nulls and the reserved names left out."""
    names, strings, numbers, booleans = [], [], [], []
    for key, value in attributes.items():
        if key in skip or value is None:
            continue
        names.append(key)
        if isinstance(value, bool):
            booleans.append(value)
        elif isinstance(value, int):
            numbers.append(("int", value) if -(2**63) <= value < 2**63 else ("float", float(value)))
        elif isinstance(value, float):
            numbers.append(("float", value))
        else:
            strings.append(value)
    return names, strings, numbers, booleans


def relationship_type(attributes: dict) -> str:
    relation = attributes.get("relation")
    if not isinstance(relation, str):
        return "EDGE"
    clean = "".join(c for c in relation if not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F))
    return clean if clean.strip() else "EDGE"


def parsed_or_fail(cypher_parse, document: str) -> dict:
    proc = cypher_parse(document)
    if proc.returncode != 0:
        lines = document.split("\n")
        failing = []
        for m in re.finditer(r"^(\d+):(\d+): .*$", proc.stderr, re.M):
            n = int(m.group(1))
            failing.append(f"{m.group(0)}\n  line {n}: {lines[n - 1] if 0 < n <= len(lines) else '?'}")
        raise AssertionError("Neo4j's parser rejected the export:\n" + ("\n".join(failing) or proc.stderr))
    return json.loads(proc.stdout)


async def export_cypher(server, name: str, **extra) -> dict:
    out = await server.ok("network_export", {"network_name": name, "format": "cypher", "limit": 10000, **extra})
    assert out["status"] == "success" and out["format"] == "cypher", out
    return out


@run_async
async def test_cypher_export_parses_with_neo4js_parser(binary, tmp_path, cypher_parse):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        edge_ids = await build_network(server, "cy", NODES, EDGES)
        out = await export_cypher(server, "cy")
        assert (out["node_count"], out["edge_count"]) == (len(NODES), len(EDGES)), out
        document = out["content"]
        (tmp_path / "export.cypher").write_text(document, encoding="utf-8")

        # One statement a line, each ending with `;`. (Lines end at "\n" only: an id may hold
        # U+2028, which str.splitlines() would also split at.)
        lines = document.removesuffix("\n").split("\n")
        assert len(lines) == len(NODES) + len(EDGES) and all(line.endswith(";") for line in lines), document

        parsed = parsed_or_fail(cypher_parse, document)
        statements = parsed["statements"]
        assert len(statements) == len(NODES) + len(EDGES), (
            f"Neo4j's parser found {len(statements)} statements, want {len(NODES)} nodes + {len(EDGES)} edges"
        )
        assert [s["line"] for s in statements] == list(range(1, len(lines) + 1)), "not one statement per line"
        merges = [s for s in statements if s["text"].startswith("MERGE (n:Node {id: ")]
        creates = [s for s in statements if s["text"].startswith("MATCH (a:Node {id: ")]
        assert (len(merges), len(creates)) == (len(NODES), len(EDGES)), [s["text"] for s in statements]

        # Nodes: the id is the first string literal; then the attributes and data_json.
        want_nodes = {n["node_id"]: n for n in NODES}
        want_ids = Counter(n["node_id"] for n in NODES)
        got_ids = Counter(decode_string(s["strings"][0]) for s in merges)
        assert got_ids == want_ids, (
            f"node ids as Neo4j would read them differ:\n missing {sorted((want_ids - got_ids).elements())}"
            f"\n unexpected {sorted((got_ids - want_ids).elements())}"
        )
        for s in merges:
            node = want_nodes[decode_string(s["strings"][0])]
            names, strings, numbers, booleans = expected_scalar_literals(node.get("attributes", {}), {"id", "data_json"})
            got_strings = [decode_string(t) for t in s["strings"][1:]]
            if node.get("data") is not None:
                names.append("data_json")
                assert json.loads(got_strings.pop()) == node["data"], f"data_json differs: {s['text']}"
            context = f"node {node['node_id']!r}: {s['text']}"
            assert Counter(decode_name(t) for t in s["names"]) == Counter(names), context
            assert Counter(got_strings) == Counter(strings), context
            assert Counter(number(t) for t in s["numbers"]) == Counter(numbers), context
            assert Counter(s["booleans"]) == Counter(booleans), context

        # Edges: source and target, the relationship type, edge_id and weight, attributes.
        by_id = dict(zip(edge_ids, EDGES, strict=True))
        seen = []
        for s in creates:
            edge_id = number(s["numbers"][0])
            assert edge_id[0] == "int" and edge_id[1] in by_id, s["text"]
            edge = by_id[edge_id[1]]
            seen.append(edge_id[1])
            context = f"edge {edge_id[1]} {edge['source']!r} -> {edge['target']!r}: {s['text']}"
            assert [decode_string(t) for t in s["strings"][:2]] == [edge["source"], edge["target"]], context
            attributes = edge.get("attributes", {})
            want_type = relationship_type(attributes)
            got_type = re.search(r"\)-\[:(EDGE|`(?:[^`]|``)+`) \{edge_id: ", s["text"])
            assert got_type, context
            assert (got_type.group(1) if got_type.group(1) == "EDGE" else decode_name(got_type.group(1))) == want_type, (
                context
            )
            names, strings, numbers, booleans = expected_scalar_literals(attributes, {"edge_id", "weight"})
            got_names = [decode_name(t) for t in s["names"]]
            if want_type != "EDGE":
                assert got_names.pop(0) == want_type, context
            assert Counter(got_names) == Counter(names), context
            assert Counter(decode_string(t) for t in s["strings"][2:]) == Counter(strings), context
            weight = number(s["numbers"][1])
            assert weight[1] == float(edge.get("weight", 1.0)), f"weight {weight}: {context}"
            assert Counter(number(t) for t in s["numbers"][2:]) == Counter(numbers), context
            assert Counter(s["booleans"]) == Counter(booleans), context
        assert sorted(seen) == sorted(edge_ids), "every edge exactly once"


@run_async
async def test_cypher_export_of_edge_cases_parses(binary, tmp_path, cypher_parse):
    """An empty network, a lone node, and a subgraph export (`nodes`, `limit`)."""
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        await build_network(server, "empty", [], [])
        assert parsed_or_fail(cypher_parse, (await export_cypher(server, "empty"))["content"])["statements"] == []

        await build_network(server, "lonely", [{"node_id": "MATCH"}], [])
        (statement,) = parsed_or_fail(cypher_parse, (await export_cypher(server, "lonely"))["content"])["statements"]
        assert statement["text"] == "MERGE (n:Node {id: 'MATCH'})", statement

        await build_network(server, "cy", NODES, EDGES)
        out = await export_cypher(server, "cy", node_ids=["it's"], direction="both", limit=2)
        statements = parsed_or_fail(cypher_parse, out["content"])["statements"]
        assert out["truncated"] is True and out["node_count"] == 2, out
        assert len(statements) == out["node_count"] + out["edge_count"], (out, statements)


def test_the_parser_rejects_broken_cypher(cypher_parse):
    """Without this, a parser that accepts anything would pass every test above."""
    good = (
        "MERGE (n:Node {id: 'it\\'s'}) SET n.`a``b` = 'x\\ny', n.`data_json` = '{\"k\":1}';\n"
        "MATCH (a:Node {id: 'it\\'s'}), (b:Node {id: 'x'}) CREATE (a)-[:`depends on` {edge_id: 0, weight: -1e-7}]->(b);\n"
    )
    proc = cypher_parse(good)
    assert proc.returncode == 0, proc.stderr
    first, second = json.loads(proc.stdout)["statements"]
    assert [decode_string(t) for t in first["strings"]] == ["it's", "x\ny", '{"k":1}']
    assert [decode_name(t) for t in first["names"]] == ["a`b", "data_json"]
    assert second["numbers"] == ["0", "-1e-7"] and decode_name(second["names"][0]) == "depends on"

    broken = {
        "unbalanced quote": "MERGE (n:Node {id: 'a});\n",
        "unclosed map and node": "MERGE (n:Node {id: 'a'};\n",
        "unclosed node at the end": "MERGE (n:Node {id: 'a'}",
        "dangling relationship": "MATCH (a:Node {id: 'a'}) CREATE (a)-[:X]->;\n",
        "backslash escaping the closing quote": "MERGE (n:Node {id: 'trailing\\'});\n",
        "single backtick in a name": "MERGE (n:Node {id: 'a'}) SET n.`a`b` = 1;\n",
        "unquoted name with a space": "MATCH (a:Node {id: 'a'}), (b:Node {id: 'b'}) CREATE (a)-[:depends on]->(b);\n",
        "two statements without `;`": "MERGE (n:Node {id: 'a'})\nMERGE (n:Node {id: 'b'});\n",
        "integer beyond 64 bits": "MERGE (n:Node {id: 'a'}) SET n.`x` = 9223372036854775808;\n",
        "float beyond double": "MERGE (n:Node {id: 'a'}) SET n.`x` = 1e400;\n",
        "undefined variable": "MATCH (a:Node {id: 'a'}) CREATE (a)-[:X]->(b) RETURN c;\n",
    }
    for what, text in broken.items():
        proc = cypher_parse(text)
        assert proc.returncode == 1, f"Neo4j's parser accepted broken Cypher ({what}):\n{text}\nstdout: {proc.stdout}"
        assert re.search(r"^\d+:\d+: ", proc.stderr, re.M), f"no line:column message for {what}: {proc.stderr}"


@run_async
async def test_a_broken_copy_of_our_export_is_rejected(binary, tmp_path, cypher_parse):
    async with connect(binary, tmp_path, *INTERCHANGE) as server:
        await require_tools(server, "network_export")
        await build_network(
            server,
            "cy",
            [{"node_id": "trailing\\"}, {"node_id": "b"}],
            [{"source": "trailing\\", "target": "b"}],
        )
        document = (await export_cypher(server, "cy"))["content"]
        parsed_or_fail(cypher_parse, document)
        # What an exporter that forgot to double backslashes would write.
        assert "'trailing\\\\'" in document, document
        broken = document.replace("'trailing\\\\'", "'trailing\\'")
        proc = cypher_parse(broken)
        assert proc.returncode == 1, f"Neo4j's parser accepted:\n{broken}"
