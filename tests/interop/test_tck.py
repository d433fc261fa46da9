"""network_query against the openCypher TCK: every feature file of the TCK (vendored in
tests/tck/features/, one report group per directory; see tests/tck/README.md for the
tag and commit), run scenario by scenario through the server, each scenario classified as

  - pass: the rows (and column names) are the TCK's, or the TCK expects an error and the
    tool answers `status: "error"`;
  - fail: another answer (other rows, or an error where the TCK expects rows);
  - unsupported: the tool refuses the query as outside the subset ("... is not
    supported", or a function the subset does not have);
  - setup not loadable: the scenario's graph cannot be built in FalkorDB or cannot be
    held by a network (see below);
  - not read-only: the query itself writes (CREATE, MERGE, SET, DELETE, REMOVE); counted
    apart, and never run.

How a scenario runs:
  - `Given an empty graph` / `Given any graph`: an empty network. `And having executed:`
    runs its CREATE statements, as written, in a fresh graph of FalkorDB (the real Cypher
    engine of test_falkordb.py, which starts it), reads the graph back (nodes with labels
    and properties, relationships with type, endpoints and properties) and loads it into a
    fresh network with `network_import` (format `node_link_json`), under the data model of
    specs/network_query.md: a node's labels comma-joined in its attribute `labels`, a
    relationship's type in its attribute `relation`, properties as attributes.
  - `Given the binary-tree-1 graph` (a named graph of the TCK): its CREATE statements,
    vendored in tests/tck/graphs/, run first, as a setup.
  - `And there exists a procedure ...`: ignored (a network has no procedures); the
    query's `CALL` is then refused as unsupported.
  - `And parameters are:` gives the tool's `parameters`.
  - `When executing query:` runs `network_query`, paging through every row (`limit`
    10000, following `next_cursor`).
  - `Then the result should be, in any order:` / `in order:` / `(ignoring element order
    for lists)` / `Then the result should be empty`: the TCK's value notation (integers,
    floats, strings, null, booleans, lists, maps, nodes `(:A {k: v})`, relationships
    `[:T {k: v}]`, paths `<(...)-[...]->(...)>`) is parsed and compared with our rows
    rendered the same way, as multisets unless `in order`; the column names must match.
    A temporal value comes back as its string, as the TCK writes it.
    Integers and floats are told apart; floats are equal to 12 significant digits.
  - `Then a <Error> should be raised at <compile time|runtime>: <detail>`: the tool must
    answer `status: "error"` (any error: the subset does not name the TCK's error kinds).
  - `And no side effects` / `And the side effects should be:` are not checked: a query
    that passed the read-only test cannot change anything.

Adaptations to the data model (the network holds what a property graph holds, but names
some things itself):
  - Nodes get synthetic ids (`_0`, `_1`, ... in FalkorDB's id order), so every node has
    the property `id`; it is left out when a node is rendered for comparison, and so
    are the `labels` attribute (a node's labels) and a relationship's `relation` (its
    type). A setup node with a property `id`, `data` or `labels` cannot be loaded (those
    names are the node id, the node's JSON payload and its labels), and neither can a
    relationship with a property `relation` (its type), `weight`, `source`, `target` or
    `key` (reserved by node-link JSON and our edges): such scenarios are "setup not
    loadable". None of the
    TCK's relationships has a weight, so every edge has the default weight 1.0 and the
    property `weight` is left out when a relationship is rendered. A query that reads
    all properties (`properties(n)`, `keys(n)`) or `n.id` still sees them: such a
    scenario fails, and docs/tck.md says why.
  - Attributes are flat scalars: a setup with a property that is a list or a temporal
    value is "setup not loadable" (as is any setup the import refuses).
  - FalkorDB answers floats with 15 significant digits, so a float property is loaded as
    FalkorDB reports it.
  - A setup FalkorDB cannot run is "setup not loadable" (not a failure of ours).

Scenario keys, one a line in tests/tck/passing.txt: `<feature file under features/> |
<scenario name>`, and ` | example <n>` (1-based, over all Examples rows) for a Scenario
Outline. The test ASSERTS that every key there is still a scenario and still passes (a
regression guard); it prints the counts, and with TCK_REPORT set it writes the report:
Markdown to that path (`TCK_REPORT=1`: tests/tck/report.md) and JSON beside it (`.json`).
TCK_UPDATE_PASSING=1 rewrites passing.txt with the scenarios that pass now.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
from conftest import ROOT, connect
from graphs import ALGORITHMS
from test_falkordb import ResponseError, falkordb_db, fresh_graph  # noqa: F401  (the fixture)

TCK = ROOT / "tests" / "tck"
FEATURES = TCK / "features"
PASSING = TCK / "passing.txt"

# The report's groups, in order: one per directory of features/ ("clauses/match",
# "expressions/string", "useCases/triadicSelection", ...), every directory there.
GROUPS = sorted(
    (d.relative_to(FEATURES).as_posix(), [d.relative_to(FEATURES).as_posix()])
    for d in FEATURES.glob("*/*")
    if d.is_dir()
)
# The TCK's named graphs (`Given the binary-tree-1 graph`), vendored in tests/tck/graphs/.
GRAPHS = TCK / "graphs"

STATUSES = ["pass", "fail", "unsupported", "setup not loadable", "not read-only"]

NODE_RESERVED = {"id", "data", "labels"}
EDGE_RESERVED = {"relation", "weight", "source", "target", "key"}

# --- Gherkin ------------------------------------------------------------------------------


@dataclass
class Step:
    keyword: str  # Given, When, Then (And/But take the one before)
    text: str
    docstring: str | None = None
    table: list[list[str]] | None = None


@dataclass
class Scenario:
    feature: str  # path under features/
    name: str
    example: int | None  # 1-based row of a Scenario Outline's Examples
    steps: list[Step]
    status: str = ""
    detail: str = ""
    expects_error: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        key = f"{self.feature} | {self.name}"
        return key if self.example is None else f"{key} | example {self.example}"

    @property
    def group(self) -> str:
        directory = self.feature.rsplit("/", 1)[0]
        return next(title for title, dirs in GROUPS if directory in dirs)


def table_cells(line: str) -> list[str]:
    """The cells of a Gherkin table row: `\\|`, `\\\\` and `\\n` are escapes."""
    body = line.strip()
    assert body.startswith("|") and body.endswith("|"), line
    cells, cell, i = [], [], 1
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            cell.append({"|": "|", "\\": "\\", "n": "\n"}.get(nxt, "\\" + nxt))
            i += 2
            continue
        if c == "|":
            cells.append("".join(cell).strip())
            cell = []
        else:
            cell.append(c)
        i += 1
    return cells


def parse_feature(path: pathlib.Path) -> list[Scenario]:
    feature = path.relative_to(FEATURES).as_posix()
    lines = path.read_text(encoding="utf-8").split("\n")
    background: list[Step] = []
    blocks: list[tuple[str, str, list[Step], list[list[list[str]]]]] = []  # kind, name, steps, examples
    current: list[Step] | None = None
    examples: list[list[list[str]]] | None = None
    last_keyword = "Given"
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("#") or line.startswith("@"):
            continue
        if line.startswith("Feature:"):
            continue
        if line.startswith("Background:"):
            current, examples, last_keyword = background, None, "Given"
            continue
        m = re.match(r"(Scenario Outline|Scenario):\s*(.*)$", line)
        if m:
            current, examples, last_keyword = [], [], "Given"
            blocks.append((m.group(1), m.group(2).strip(), current, examples))
            continue
        if line.startswith("Examples:"):
            assert examples is not None, f"{feature}: Examples outside an outline"
            examples.append([])
            current = None
            continue
        if line.startswith("|"):
            if current is None:  # an Examples table
                examples[-1].append(table_cells(line))
            else:
                step = current[-1]
                step.table = (step.table or []) + [table_cells(line)]
            continue
        if line.startswith('"""'):
            indent = len(lines[i - 1]) - len(lines[i - 1].lstrip())
            body = []
            while not lines[i].strip().startswith('"""'):
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i].lstrip())
                i += 1
            i += 1
            current[-1].docstring = "\n".join(body)
            continue
        m = re.match(r"(Given|When|Then|And|But)\s+(.*)$", line)
        assert m and current is not None, f"{feature}: cannot read {line!r}"
        keyword = m.group(1)
        if keyword in ("And", "But"):
            keyword = last_keyword
        last_keyword = keyword
        current.append(Step(keyword, m.group(2).strip()))
    scenarios = []
    for kind, name, steps, tables in blocks:
        steps = background + steps
        if kind == "Scenario":
            scenarios.append(Scenario(feature, name, None, steps))
            continue
        n = 0
        for table in tables:
            header = table[0]
            for row in table[1:]:
                n += 1
                values = dict(zip(header, row))
                scenarios.append(Scenario(feature, name, n, [substitute(s, values) for s in steps]))
    return scenarios


def substitute(step: Step, values: dict[str, str]) -> Step:
    def sub(text: str) -> str:
        return re.sub(r"<([^<>\s]+)>", lambda m: values.get(m.group(1), m.group(0)), text)

    return Step(
        step.keyword,
        sub(step.text),
        None if step.docstring is None else sub(step.docstring),
        None if step.table is None else [[sub(c) for c in row] for row in step.table],
    )


def all_scenarios() -> list[Scenario]:
    out = []
    for _, dirs in GROUPS:
        for d in dirs:
            for path in sorted((FEATURES / d).glob("*.feature")):
                out.extend(parse_feature(path))
    return out


# --- the TCK's value notation -------------------------------------------------------------


class ValueParser:
    """Parses one TCK value (a table cell) into the canonical form of `canon`."""

    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def parse(self):
        v = self.value()
        self.ws()
        if self.i != len(self.s):
            raise ValueError(f"trailing text in {self.s!r} at {self.i}")
        return v

    def ws(self):
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def peek(self, k: int = 1) -> str:
        self.ws()
        return self.s[self.i : self.i + k]

    def eat(self, tok: str):
        self.ws()
        if not self.s.startswith(tok, self.i):
            raise ValueError(f"expected {tok!r} in {self.s!r} at {self.i}")
        self.i += len(tok)

    def name(self) -> str:
        self.ws()
        if self.s[self.i] == "`":
            j = self.s.index("`", self.i + 1)
            out, self.i = self.s[self.i + 1 : j], j + 1
            return out
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.s, self.i)
        if not m:
            raise ValueError(f"expected a name in {self.s!r} at {self.i}")
        self.i = m.end()
        return m.group(0)

    def value(self):
        c = self.peek()
        if c == "'":
            return ("str", self.string())
        if c == "(":
            return self.node()
        if c == "<":
            return self.path()
        if c == "{":
            return self.map()
        if c == "[":
            if self.peek(2)[1:].strip() == ":" or re.match(r"\[\s*:", self.s[self.i :]):
                return self.relationship()
            self.eat("[")
            items = []
            if self.peek() != "]":
                items.append(self.value())
                while self.peek() == ",":
                    self.eat(",")
                    items.append(self.value())
            self.eat("]")
            return ("list", tuple(items))
        m = re.compile(r"-?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+)").match(
            self.s, self.i
        )
        if m:
            self.i = m.end()
            text = m.group(0)
            if re.fullmatch(r"-?\d+", text):
                return ("int", int(text))
            return canon_float(float(text))
        for word, v in [
            ("null", ("null",)),
            ("true", ("bool", True)),
            ("false", ("bool", False)),
            ("NaN", ("float", "nan")),
            ("-Infinity", ("float", "-inf")),
            ("Infinity", ("float", "inf")),
        ]:
            if self.s.startswith(word, self.i):
                self.i += len(word)
                return v
        raise ValueError(f"cannot read a value in {self.s!r} at {self.i}")

    def string(self) -> str:
        self.eat("'")
        out = []
        while self.s[self.i] != "'":
            if self.s[self.i] == "\\":
                nxt = self.s[self.i + 1]
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                self.i += 2
            else:
                out.append(self.s[self.i])
                self.i += 1
        self.i += 1
        return "".join(out)

    def map(self):
        self.eat("{")
        entries = []
        if self.peek() != "}":
            while True:
                k = self.name()
                self.eat(":")
                entries.append((k, self.value()))
                if self.peek() != ",":
                    break
                self.eat(",")
        self.eat("}")
        return ("map", tuple(sorted(entries)))

    def labels_and_map(self, closing: str):
        labels = []
        while self.peek() == ":":
            self.eat(":")
            labels.append(self.name())
        props = self.map() if self.peek() == "{" else ("map", ())
        self.eat(closing)
        return labels, props

    def node(self):
        self.eat("(")
        labels, props = self.labels_and_map(")")
        return ("node", tuple(sorted(labels)), props)

    def relationship(self):
        self.eat("[")
        types, props = self.labels_and_map("]")
        assert len(types) == 1, self.s
        return ("rel", types[0], props)

    def path(self):
        self.eat("<")
        items = [self.node()]
        while self.peek() != ">":
            if self.peek(2) == "<-":
                self.eat("<-")
                rel = self.relationship()
                self.eat("-")
                items += [("<-", rel), self.node()]
            else:
                self.eat("-")
                rel = self.relationship()
                self.eat("->")
                items += [("->", rel), self.node()]
        self.eat(">")
        return ("path", tuple(items))


def canon_float(x: float):
    if math.isnan(x):
        return ("float", "nan")
    if math.isinf(x):
        return ("float", "inf" if x > 0 else "-inf")
    return ("float", float(f"{x:.12g}"))


def canon_props(props: dict, drop: set[str]) -> tuple:
    return ("map", tuple(sorted((k, canon(v)) for k, v in props.items() if k not in drop)))


def canon(v: Any):
    """One of our JSON values in the form ValueParser gives the TCK's: nodes, relationships
    and paths recognised by their shape (specs/network_query.md, "Values in rows")."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return canon_float(v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, list):
        return ("list", tuple(canon(x) for x in v))
    if isinstance(v, dict):
        if is_node(v):
            return node_canon(v)
        if is_relationship(v):
            return rel_canon(v)
        if set(v) == {"nodes", "relationships"} and all(is_node(n) for n in v["nodes"]):
            items = [node_canon(v["nodes"][0])]
            for r, (a, b) in zip(v["relationships"], zip(v["nodes"], v["nodes"][1:])):
                forward = r["source"] == a["id"] and r["target"] == b["id"]
                items += [("->" if forward else "<-", rel_canon(r)), node_canon(b)]
            return ("path", tuple(items))
        return ("map", tuple(sorted((k, canon(x)) for k, x in v.items())))
    raise TypeError(f"unexpected value {v!r}")


def is_node(v) -> bool:
    return isinstance(v, dict) and set(v) == {"id", "labels", "properties"} and isinstance(v["labels"], list)


def is_relationship(v) -> bool:
    return isinstance(v, dict) and set(v) == {"id", "type", "source", "target", "properties"}


def node_canon(v: dict):
    return ("node", tuple(sorted(v["labels"])), canon_props(v["properties"], {"id", "labels"}))


def rel_canon(v: dict):
    return ("rel", v["type"], canon_props(v["properties"], {"weight", "relation"}))


def unordered_lists(c):
    """A canonical value with the items of every list sorted (`ignoring element order`)."""
    if not isinstance(c, tuple) or not c:
        return c
    if c[0] == "list":
        return ("list", tuple(sorted((unordered_lists(x) for x in c[1]), key=repr)))
    return tuple(unordered_lists(x) if isinstance(x, tuple) else x for x in c)


def to_json(c) -> Any:
    """A canonical scalar, list or map as the JSON of a query parameter."""
    kind = c[0]
    if kind == "null":
        return None
    if kind in ("bool", "int", "str"):
        return c[1]
    if kind == "float":
        return float(c[1])
    if kind == "list":
        return [to_json(x) for x in c[1]]
    if kind == "map":
        return {k: to_json(x) for k, x in c[1]}
    raise ValueError(f"{kind} cannot be a parameter")


# --- setup: FalkorDB, then node-link JSON -------------------------------------------------

WRITES = re.compile(r"(?<![.\w$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE)(?![\w`])", re.IGNORECASE)


def writes(query: str) -> bool:
    without_strings = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", query)
    return bool(WRITES.search(without_strings))


def load_setup(db, name: str, statements: list[str]) -> tuple[dict | None, str]:
    """The scenario's graph as a node-link document for network_import, or None and why not."""
    if not statements:
        return {"directed": True, "multigraph": True, "graph": {}, "nodes": [], "edges": []}, ""
    graph = fresh_graph(db, name)
    try:
        for statement in statements:
            try:
                graph.query(statement)
            except ResponseError as e:
                return None, f"FalkorDB cannot run the setup: {e}"
        found_nodes = graph.query("MATCH (n) RETURN id(n), labels(n), properties(n) ORDER BY id(n)").result_set
        found_edges = graph.query(
            "MATCH (a)-[r]->(b) RETURN id(r), type(r), id(a), id(b), properties(r) ORDER BY id(r)"
        ).result_set
    finally:
        if name in db.list_graphs():
            graph.delete()
    nodes, ids = [], {}
    for fid, labels, props in found_nodes:
        clash = NODE_RESERVED & set(props)
        if clash:
            return None, f"a node has the property {sorted(clash)[0]!r}, which the data model reserves"
        odd = non_scalar(props)
        if odd:
            return None, f"a node property is {odd}; attributes are scalars"
        ids[fid] = f"_{len(ids)}"
        node = {"id": ids[fid], **props}
        if labels:
            node["labels"] = ",".join(labels)
        nodes.append(node)
    edges = []
    for _, rtype, a, b, props in found_edges:
        clash = EDGE_RESERVED & set(props)
        if clash:
            return None, f"a relationship has the property {sorted(clash)[0]!r}, which the data model reserves"
        odd = non_scalar(props)
        if odd:
            return None, f"a relationship property is {odd}; attributes are scalars"
        edges.append({"source": ids[a], "target": ids[b], "relation": rtype, **props})
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "edges": edges}, ""


def non_scalar(props: dict) -> str:
    """The kind of the first property value that is not a JSON scalar ("a list", "a date"), or ""."""
    for v in props.values():
        if v is not None and not isinstance(v, (bool, int, float, str)):
            return "a list" if isinstance(v, list) else f"a {type(v).__name__}"
    return ""


# --- running -------------------------------------------------------------------------------


def unsupported(message: str) -> bool:
    """An error that refuses the query as outside the subset (of specs/network_query.md):
    a clause or expression, or a function."""
    return any(words in message for words in ("is not supported", "there is no function"))


async def run_query(server, network: str, query: str, parameters: dict) -> tuple[dict | None, str]:
    """(columns and rows, "") or (None, the error message)."""
    rows, cursor, columns = [], None, None
    while True:
        args = {"network_name": network, "query": query, "parameters": parameters, "limit": 10000}
        if cursor:
            args["cursor"] = cursor
        result = await server.call("network_query", args)
        sc = result.structured_content or {}
        if result.is_error or sc.get("status") != "success":
            return None, sc.get("error") or str(result.content)
        columns = sc["columns"]
        rows.extend(sc["rows"])
        cursor = sc.get("next_cursor")
        if not cursor:
            return {"columns": columns, "rows": rows}, ""


def expected_rows(step: Step) -> tuple[list[str], list[tuple]]:
    table = step.table or []
    header = table[0] if table else []
    return header, [tuple(ValueParser(cell).parse() for cell in row) for row in table[1:]]


async def run_scenario(server, index: int, scenario: Scenario, document: dict | None) -> None:
    query_step = next(s for s in scenario.steps if s.keyword == "When")
    query = query_step.docstring or ""
    then = next(s for s in scenario.steps if s.keyword == "Then")
    parameters = {}
    for s in scenario.steps:
        if s.text.startswith("parameters are"):
            parameters = {row[0]: to_json(ValueParser(row[1]).parse()) for row in s.table}
    network = f"tck{index}"
    imported = await server.call(
        "network_import",
        {"network_name": network, "format": "node_link_json", "content": json.dumps(document)},
    )
    if imported.is_error:
        scenario.status = "setup not loadable"
        scenario.detail = f"network_import refused it: {(imported.structured_content or {}).get('error')}"
        return
    try:
        answer, error = await run_query(server, network, query, parameters)
    finally:
        await server.ok("network_delete", {"network_name": network, "confirm": True})
    if re.match(r"an? \w+ should be raised", then.text):
        scenario.expects_error = True
        if answer is None:
            scenario.status, scenario.detail = "pass", error
        else:
            scenario.status = "fail"
            scenario.detail = f"expected an error ({then.text}), got rows {answer['rows']!r}"
        return
    if answer is None:
        scenario.status = "unsupported" if unsupported(error) else "fail"
        scenario.detail = error
        return
    if then.text.startswith("the result should be empty"):
        header, want = answer["columns"], []
    else:
        header, want = expected_rows(then)
    got = [tuple(canon(v) for v in row) for row in answer["rows"]]
    if "ignoring element order for lists" in then.text:
        got = [unordered_lists(r) for r in got]
        want = [unordered_lists(r) for r in want]
    if ", in order" not in then.text:
        got, want = sorted(got, key=repr), sorted(want, key=repr)
    if header != answer["columns"]:
        scenario.status = "fail"
        scenario.detail = f"columns {answer['columns']!r}, expected {header!r}"
    elif got != want:
        scenario.status = "fail"
        scenario.detail = f"rows {answer['rows']!r}; expected {step_table_text(then)}"
    else:
        scenario.status = "pass"


def step_table_text(step: Step) -> str:
    return " / ".join(", ".join(row) for row in (step.table or [])[1:]) or "no rows"


async def run_all(binary: str, tmp_path: pathlib.Path, runnable: list[tuple[Scenario, dict]]) -> None:
    with anyio.fail_after(900):
        async with connect(binary, tmp_path, *ALGORITHMS) as server:
            for index, (scenario, document) in enumerate(runnable):
                await run_scenario(server, index, scenario, document)


# --- the report ----------------------------------------------------------------------------


def counts(scenarios: list[Scenario]) -> dict[str, dict[str, int]]:
    out = {}
    for title, _ in GROUPS + [("all", [])]:
        mine = [s for s in scenarios if title == "all" or s.group == title]
        by = {status: sum(1 for s in mine if s.status == status) for status in STATUSES}
        read_only = len(mine) - by["not read-only"]
        out[title] = {
            "total": len(mine),
            "read-only": read_only,
            "loadable": read_only - by["setup not loadable"],
            "pass": by["pass"],
            "pass (error expected)": sum(1 for s in mine if s.status == "pass" and s.expects_error),
            "fail": by["fail"],
            "unsupported": by["unsupported"],
        }
    return out


def markdown(scenarios: list[Scenario], table: dict) -> str:
    lines = [
        "| Group | Scenarios | Read-only | Loadable | Pass | of which an error | Fail | Unsupported |",
        "|:--|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for title, c in table.items():
        name = f"**{title}**" if title == "all" else title
        lines.append(
            f"| {name} | {c['total']} | {c['read-only']} | {c['loadable']} | {c['pass']} "
            f"| {c['pass (error expected)']} | {c['fail']} | {c['unsupported']} |"
        )
    lines += ["", "| Scenario | Status | Detail |", "|:--|:--|:--|"]
    for s in scenarios:
        if s.status != "pass":
            detail = s.detail.replace("|", "\\|").replace("\n", " ")
            if len(detail) > 300:
                detail = detail[:300] + "..."
            lines.append(f"| {s.key.replace('|', '/')} | {s.status} | {detail} |")
    return "\n".join(lines) + "\n"


def test_tck_read_only_scenarios(binary, tmp_path, falkordb_db, capsys):  # noqa: F811
    started = time.monotonic()
    scenarios = all_scenarios()
    runnable = []
    for index, scenario in enumerate(scenarios):
        query = next(s for s in scenario.steps if s.keyword == "When").docstring or ""
        if writes(query):
            scenario.status, scenario.detail = "not read-only", "the query writes"
            continue
        setup = [s.docstring for s in scenario.steps if s.text.startswith("having executed") and s.docstring]
        named = [re.match(r"the (\S+) graph$", s.text) for s in scenario.steps if s.keyword == "Given"]
        setup = [(GRAPHS / m.group(1) / f"{m.group(1)}.cypher").read_text(encoding="utf-8") for m in named if m] + setup
        document, why = load_setup(falkordb_db, f"tck{index}", setup)
        if document is None:
            scenario.status, scenario.detail = "setup not loadable", why
            continue
        runnable.append((scenario, document))
    anyio.run(run_all, binary, tmp_path, runnable)

    table = counts(scenarios)
    elapsed = time.monotonic() - started
    with capsys.disabled():
        a = table["all"]
        print(
            f"\nTCK: {a['total']} scenarios, {a['read-only']} read-only, {a['loadable']} loadable: {a['pass']} pass"
            f" ({a['pass (error expected)']} of them an expected error), {a['fail']} fail,"
            f" {a['unsupported']} unsupported"
            f" ({elapsed:.1f}s)"
        )
    report = os.environ.get("TCK_REPORT")
    if report:
        path = TCK / "report.md" if report == "1" else pathlib.Path(report)
        path.write_text(markdown(scenarios, table), encoding="utf-8")
        path.with_suffix(".json").write_text(
            json.dumps(
                {
                    "counts": table,
                    "scenarios": [
                        {
                            "key": s.key,
                            "group": s.group,
                            "status": s.status,
                            "expects_error": s.expects_error,
                            "detail": s.detail,
                        }
                        for s in scenarios
                    ],
                },
                indent=1,
                ensure_ascii=False,
            )
            + "\n",
            encoding="utf-8",
        )
    passing = sorted(s.key for s in scenarios if s.status == "pass")
    if os.environ.get("TCK_UPDATE_PASSING") == "1":
        PASSING.write_text("".join(k + "\n" for k in passing), encoding="utf-8")

    keys = {s.key: s for s in scenarios}
    assert len(keys) == len(scenarios), "two scenarios share a key"
    guarded = [line for line in PASSING.read_text(encoding="utf-8").split("\n") if line and not line.startswith("#")]
    missing = [k for k in guarded if k not in keys]
    regressed = [f"{k}: {keys[k].status}: {keys[k].detail}" for k in guarded if k in keys and keys[k].status != "pass"]
    problems = []
    if missing:
        problems.append("tests/tck/passing.txt names scenarios the TCK does not have:\n" + "\n".join(missing))
    if regressed:
        problems.append("TCK scenarios of tests/tck/passing.txt that no longer pass:\n" + "\n".join(regressed))
    assert not problems, "\n".join(problems)
