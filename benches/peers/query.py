#!/usr/bin/env python3
"""Cypher queries beside FalkorDB and an embedded engine: the same five read-only
queries (2-hop variable length from three start packages, a filtered aggregation,
an ORDER BY/LIMIT) run by our `network_query` (over MCP stdio), by FalkorDB
(`GRAPH.RO_QUERY`) and by ladybug, Kùzu's maintained fork (or Kùzu itself), on one
seeded graph the size of Debian's package graph (68,000 packages, 300,000
dependency edges; `--nodes 680000` for ten times that), in the same run.

The graph, drawn with Python's `random` from `--seed`:

- nodes `pkg0…`, every one labelled `pkg` and one of `lib` (40%), `app` (48%)
  or `doc` (12%), with a `section` (12 values), a `priority` (1-5, mostly 3-4)
  and a `size` (an int, log-normal-ish, in KiB);
- edges: each package depends on 1 + geometric(mean 2.8) others (0.3% of the
  packages are metapackages with 40-400); targets drawn by Zipf rank (exponent
  1.05), so a few libraries have tens of thousands of dependents, most packages
  none; no self-loops, no parallel edges (FalkorDB collapses those); the edge's
  `relation` is `depends` (75%), `recommends` (17%) or `suggests` (8%), its
  `weight` 1, 2 or 3; edges are added package by package, as a Packages file
  lists them.

What each engine's load includes (the clock starts once the client has the data
in hand; each load is checked by counting nodes and edges afterwards):

- ours: the server (`--server`, default `target/release/networks-mcp`) with the
  `algorithms` toolset and `--data-root` a temporary directory, the graph loaded
  by `network_import` (`node_link_json`) by `path`, as the embedded engine copies
  from files: one node-link document of the whole graph, or at 680,000 packages,
  more than one import makes by default, three (nodes first, each file as full as
  the import's memory bound allows; the first creates the network and the others
  `merge` into it). The files are
  written before the clock starts (as the embedded engine's CSV files); timed:
  every request's round trip (the server reads, parses, validates and applies
  each file). `--ours-load inline` sends the documents in the requests instead:
  the nodes in batches of 100,000 (the first creates the network, the rest in
  `merge` mode), then the edges in batches of 60,000, each request within the
  default 16 MiB stdio line.
- FalkorDB: a private `redis-server` with `falkordb.so` on a Unix socket
  (`--falkordb-dir`, default `tests/interop/.falkordb`, as `.ci/interop.sh`
  builds it; or `falkordblite`); timed: `CREATE INDEX FOR (n:pkg) ON (n.id)`,
  then `UNWIND` batches of 5,000 `CREATE`s of nodes (labels `pkg` and the kind),
  then of edges by relationship type (`MATCH` of both ends through the index),
  including building each batch's parameter rows.
- the embedded engine (`--embedded ladybug|kuzu|none`, default ladybug): an
  in-memory database (`Database(":memory:")`) and one `Connection(db,
  num_threads=1)`, in a child process (this script with `--worker`; ladybug and
  kuzu must not share a process, and its memory stays apart from the client's).
  The parent writes the graph as headerless CSV files to a temporary directory
  (not timed; its time is in the JSON line); timed, in the child: the schema
  below and one `COPY … FROM` per table.

The embedded engine's schema, its best shot at these queries:

    CREATE NODE TABLE pkg(id STRING PRIMARY KEY, kind STRING, section STRING, priority INT64, size INT64)
    CREATE REL TABLE depends(FROM pkg TO pkg, weight INT64)      -- and recommends, suggests

so a relationship type is a rel table (as FalkorDB's per-type matrices, `[:depends]`
reads only those edges), the label `lib` is the column `kind` (the queries say
`(p:pkg) WHERE p.kind = 'lib'` for `(p:lib)`), and the start `(a:pkg {id: $id})`
is a primary-key lookup. The queries are otherwise the same text (`EMBEDDED_QUERIES`);
Kùzu's variable-length paths are walks, not Cypher's trails, but with no
self-loops and no parallel edges a walk of at most two edges repeats none, so
`count(DISTINCT b)` is the same (and the rows are checked).

The queries: for us one `tools/call` of `network_query` with `limit` 10000, every
page fetched (none has more than one); for FalkorDB one `ro_query` of the
`falkordb` client; both timed client-side, a whole round trip. For the embedded
engine one in-process `conn.execute(query, parameters).get_all()`, timed inside
the child (no IPC in its figures). Each: one warm-up, then `--runs` runs (at most
`--seconds` per query), median and p90. All engines' rows must agree (as
multisets, as sequences with ORDER BY) or the run stops. A Markdown table on
stdout (the engines' medians and p90s, ours / each other engine, ours / the
faster of them); on stderr the load times, the processes' peak resident memory
after the loads, one JSON line per query (`<engine>_p50_s`, `_p90_s`, `_runs`
for `ours`, `falkordb` and `ladybug` or `kuzu`), and the wall time. `--engines`
picks the engines that run (comma-separated among ours, falkordb, embedded;
default all); the rows are then checked among those. Run with the interop venv:

    tests/interop/.venv/bin/python benches/peers/query.py [--server PATH] [--falkordb-dir DIR]
        [--embedded ladybug|kuzu|none] [--engines ours,falkordb,embedded]
        [--nodes 68000] [--runs 20] [--seconds 10] [--seed 1]

At `--nodes 680000` (3.0 million edges) the client holds the graph and the
serialised documents (about 1.1 GB at peak), the server, redis-server and the
child a copy each (0.4-0.7 GB). An engine that answers a query with an error (ours
refuses a clause that makes more than 250,000 rows, as `MATCH (p:pkg)<-[:depends]-(q)`
does at that size) is marked "refused" in the table with its message below it,
and the others are still checked against each other and timed.
"""

import argparse
import bisect
import itertools
import json
import math
import os
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]

SECTIONS = [
    "libs", "devel", "utils", "python", "net", "admin",
    "text", "web", "doc", "games", "x11", "science",
]  # fmt: skip
SECTION_WEIGHTS = [30, 14, 10, 9, 7, 6, 5, 5, 5, 3, 3, 3]
RELATIONS = ["depends", "recommends", "suggests"]
RELATION_WEIGHTS = [75, 17, 8]
MAX_LINE = 16 * 1024 * 1024  # the server's default --max-body-bytes


def make_graph(nodes: int, seed: int):
    """The seeded package graph: (nodes, edges) as
    [(id, kind, section, priority, size)] and [(source, target, relation, weight)]."""
    rng = random.Random(seed)
    ids = [f"pkg{i}" for i in range(nodes)]
    kinds = rng.choices(["lib", "app", "doc"], weights=[40, 48, 12], k=nodes)
    sections = rng.choices(SECTIONS, weights=SECTION_WEIGHTS, k=nodes)
    priorities = rng.choices([1, 2, 3, 4, 5], weights=[2, 5, 30, 55, 8], k=nodes)
    sizes = [int(math.exp(rng.gauss(5.5, 1.6))) + 1 for _ in range(nodes)]
    node_rows = list(zip(ids, kinds, sections, priorities, sizes))
    # Zipf over ranks: rank r is drawn with weight 1 / (r + 1)^1.05; the ranks are
    # a shuffle of the nodes, with the libraries first (libraries are depended on).
    order = sorted(range(nodes), key=lambda i: (kinds[i] != "lib", rng.random()))
    cum = list(itertools.accumulate(1.0 / (r + 1) ** 1.05 for r in range(nodes)))
    total = cum[-1]
    edges = []
    for u in range(nodes):
        if rng.random() < 0.003:
            degree = rng.randint(40, 400)
        else:
            degree = 1
            while rng.random() < 0.735:  # geometric, mean 1 / 0.265 - 1 ≈ 2.8 more
                degree += 1
        chosen = set()
        tries = 0
        while len(chosen) < degree and tries < 20 * degree:
            tries += 1
            v = order[bisect.bisect_left(cum, rng.random() * total)]
            if v != u:
                chosen.add(v)
        for v in sorted(chosen):
            relation = rng.choices(RELATIONS, weights=RELATION_WEIGHTS)[0]
            edges.append((ids[u], ids[v], relation, float(rng.choice([1, 2, 3]))))
    return node_rows, edges


class Refused(Exception):
    """An engine that answered a query with an error (ours: a limit such as the 250,000
    rows a clause may make); the run goes on, the table says so."""


# --- ours: a lean MCP client over the server's stdin and stdout ---------------------------


class Server:
    def __init__(self, binary: str, data_root: str | None = None):
        env = dict(os.environ, NETWORKS_MCP_TOOLSETS="core,edit,analysis,interchange,work,algorithms")
        self.proc = subprocess.Popen(
            [binary] + (["--data-root", data_root] if data_root else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            bufsize=1 << 20,
        )
        self.next_id = 1
        self.request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench_query", "version": "1"},
        })  # fmt: skip
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict):
        line = json.dumps(message, separators=(",", ":")).encode()
        if len(line) >= MAX_LINE:
            sys.exit(f"query.py: a request of {len(line)} bytes, over the server's 16 MiB line")
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("query.py: the server closed stdout")
            reply = json.loads(line)
            if reply.get("id") == rid and "method" not in reply:
                break
            if reply.get("id") is None and "error" in reply:  # a line the server could not take
                sys.exit(f"query.py: {method} failed: {reply['error']}")
        if "error" in reply:
            sys.exit(f"query.py: {method} failed: {reply['error']}")
        return reply["result"]

    def call(self, tool: str, arguments: dict, refusable=False) -> dict:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        out = result.get("structuredContent")
        if out is None:
            out = json.loads(result["content"][0]["text"])
        if result.get("isError") or out.get("status") != "success":
            if refusable:
                raise Refused(str(out.get("error", out))[:300])
            sys.exit(f"query.py: {tool} failed: {json.dumps(out)[:2000]}")
        return out

    def query(self, network: str, query: str, parameters: dict) -> list:
        args = {"network_name": network, "query": query, "parameters": parameters, "limit": 10000}
        out = self.call("network_query", args, refusable=True)
        rows = out["rows"]
        while out.get("truncated"):
            out = self.call("network_query", dict(args, cursor=out["next_cursor"]), refusable=True)
            rows.extend(out["rows"])
        return rows

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def node_link_document(node_rows, edge_rows) -> str:
    """Nodes and edges as one node-link JSON document, labels in `labels` as `network_import`
    reads them with `labels` "pkg,lib"."""
    return json.dumps({
        "directed": True,
        "multigraph": True,
        "graph": {},
        "nodes": [
            {"id": i, "labels": f"pkg,{kind}", "section": s, "priority": p, "size": z}
            for i, kind, s, p, z in node_rows
        ],
        "edges": [{"source": u, "target": v, "relation": r, "weight": w} for u, v, r, w in edge_rows],
    }, separators=(",", ":"))  # fmt: skip


def import_in_turn(server: Server, documents: list, nodes, edges) -> tuple:
    """`network_import` (`node_link_json`) of each document (its `content` or `path`),
    the first creating the network and the others in `merge` mode; checks the counts.
    Returns the seconds of all and of each request."""
    batches = []
    started = time.perf_counter()
    for k, document in enumerate(documents):
        arguments = {"network_name": "deb", "format": "node_link_json", **document}
        if k:
            arguments["mode"] = "merge"
        t = time.perf_counter()
        out = server.call("network_import", arguments)
        batches.append(time.perf_counter() - t)
    seconds = time.perf_counter() - started
    assert out["node_count"] == len(nodes) and out["edge_count"] == len(edges), out
    return seconds, batches


def load_ours(server: Server, nodes, edges, node_batch=100000, edge_batch=60000) -> dict:
    """`network_import` (`node_link_json`) of the nodes in batches of 100,000 (the first
    creates the network, the others `merge`), then `merge` of the edges in batches of
    60,000: a stdio line is at most 16 MiB by default (`--max-body-bytes`). The documents
    are serialised before the clock starts, one text per request."""

    document = node_link_document
    texts = [document(nodes[at : at + node_batch], ()) for at in range(0, len(nodes), node_batch)]
    texts += [document((), edges[at : at + edge_batch]) for at in range(0, len(edges), edge_batch)]
    seconds, batches = import_in_turn(server, [{"content": text} for text in texts], nodes, edges)
    return {"seconds": seconds, "requests": len(texts), "first_request_s": batches[0],
            "last_request_s": batches[-1], "slowest_request_s": max(batches)}  # fmt: skip


# What one item of this graph counts towards an import's memory bound
# (`--max-import-memory`, 512 MiB by default; `network::estimate`), measured by
# bisecting the bound over a node file and an edge file of the 680,000-package
# graph (653 and 225 bytes), with a tenth to spare.
NODE_ESTIMATE = 720
EDGE_ESTIMATE = 250
IMPORT_BOUND = 512 << 20


def parts_within_the_bound(nodes, edges, bound=IMPORT_BOUND) -> list:
    """`(nodes, edges)` of each file: nodes first, each part filled until the next item
    would pass the import bound, so the fewest imports carry the graph (one at
    68,000 packages, three at 680,000) and the most of it goes into the first, which
    builds the network as it reads; a `merge` checks its file whole before it
    changes the network, so it reads it twice."""
    parts, part_nodes, part_edges, used = [], [], [], 0
    for kind, items, cost in (("n", nodes, NODE_ESTIMATE), ("e", edges, EDGE_ESTIMATE)):
        for item in items:
            if used + cost > bound and (part_nodes or part_edges):
                parts.append((part_nodes, part_edges))
                part_nodes, part_edges, used = [], [], 0
            (part_nodes if kind == "n" else part_edges).append(item)
            used += cost
    parts.append((part_nodes, part_edges))
    return parts


def load_ours_from_files(server: Server, directory: pathlib.Path, nodes, edges) -> dict:
    """`network_import` (`node_link_json`) by `path`, as the embedded engine copies from
    files: the whole graph in one document, or in as few as the import bound allows
    ([`parts_within_the_bound`]), written to `directory` (the server's `--data-root`)
    before the clock starts. The first creates the network, the others `merge`.
    Timed: every request's round trip (the server reads, parses, validates and applies
    each file)."""

    paths = []
    for k, (part_nodes, part_edges) in enumerate(parts_within_the_bound(nodes, edges)):
        path = directory / f"part{k}.json"
        path.write_text(node_link_document(part_nodes, part_edges))
        paths.append(path)
    seconds, batches = import_in_turn(server, [{"path": str(path)} for path in paths], nodes, edges)
    for path in paths:
        path.unlink()
    directory.rmdir()
    return {"seconds": seconds, "files": len(paths), "request_s": [round(b, 4) for b in batches]}


# --- FalkorDB --------------------------------------------------------------------------------


class Falkor:
    """A private FalkorDB: redis-server with falkordb.so on a Unix socket, or falkordblite."""

    def __init__(self, directory: pathlib.Path):
        self.proc = None
        built = (directory / "redis-server").is_file() and (directory / "falkordb.so").is_file()
        if not built:
            try:
                from redislite.falkordb_client import FalkorDB
            except ImportError:
                sys.exit(
                    f"query.py: no redis-server and falkordb.so in {directory} (see .ci/interop.sh),"
                    " and no falkordblite (Python 3.12+)"
                )
        self.home = pathlib.Path(tempfile.mkdtemp(prefix="falkordb-"))
        if built:
            import falkordb

            socket = self.home / "redis.sock"
            self.proc = subprocess.Popen(
                [
                    str(directory / "redis-server"),
                    "--port", "0",
                    "--unixsocket", str(socket),
                    "--unixsocketperm", "700",
                    "--dir", str(self.home),
                    "--save", "",
                    "--appendonly", "no",
                    "--loadmodule", str(directory / "falkordb.so"),
                ],  # fmt: skip
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=directory,
            )
            deadline = time.monotonic() + 30
            while True:
                if self.proc.poll() is not None:
                    sys.exit(f"query.py: redis-server exited {self.proc.returncode}")
                if socket.exists():
                    try:
                        self.db = falkordb.FalkorDB(unix_socket_path=str(socket))
                        self.db.connection.ping()
                        break
                    except Exception:
                        if time.monotonic() > deadline:
                            raise
                elif time.monotonic() > deadline:
                    sys.exit(f"query.py: redis-server did not open {socket} in 30 s")
                time.sleep(0.05)
        else:
            self.db = FalkorDB(str(self.home / "falkordb.rdb"))
        self.graph = self.db.select_graph("deb")

    def close(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        else:
            self.db.close()
        shutil.rmtree(self.home, ignore_errors=True)


def falkordb_rows(graph, query, parameters):
    import redis

    try:
        return graph.ro_query(query, parameters).result_set
    except redis.exceptions.ResponseError as e:
        raise Refused(str(e)[:300])


def load_falkordb(graph, nodes, edges, batch=5000) -> float:
    started = time.perf_counter()
    graph.query("CREATE INDEX FOR (n:pkg) ON (n.id)")
    for kind in ("lib", "app", "doc"):
        rows = [{"id": i, "section": s, "priority": p, "size": z} for i, k, s, p, z in nodes if k == kind]
        for at in range(0, len(rows), batch):
            graph.query(
                f"UNWIND $rows AS n CREATE (:pkg:{kind} {{id: n.id, section: n.section,"
                " priority: n.priority, size: n.size})",
                {"rows": rows[at : at + batch]},
            )
    for relation in RELATIONS:
        rows = [{"s": u, "t": v, "w": w} for u, v, r, w in edges if r == relation]
        for at in range(0, len(rows), batch):
            graph.query(
                f"UNWIND $rows AS e MATCH (a:pkg {{id: e.s}}), (b:pkg {{id: e.t}})"
                f" CREATE (a)-[:{relation} {{weight: e.w}}]->(b)",
                {"rows": rows[at : at + batch]},
            )
    seconds = time.perf_counter() - started
    counts = graph.ro_query("MATCH (n) RETURN count(n)").result_set[0][0], graph.ro_query(
        "MATCH ()-[r]->() RETURN count(r)"
    ).result_set[0][0]
    assert counts == (len(nodes), len(edges)), counts
    return seconds


# --- the embedded engine: ladybug (or Kùzu) in a child process ----------------------------
#
# ladybug and kuzu crash when imported into one process, and an embedded engine's memory is
# best kept apart from ours and the client's: the engine runs in a child, this same script
# with --worker ENGINE, which takes one JSON request a line on stdin and answers one JSON
# line on stdout. The child times its own calls (an in-process `execute().get_all()`), so
# the embedded engine's figures carry no IPC.

EMBEDDED_SCHEMA = [
    "CREATE NODE TABLE pkg(id STRING PRIMARY KEY, kind STRING, section STRING, priority INT64, size INT64)",
] + [f"CREATE REL TABLE {r}(FROM pkg TO pkg, weight INT64)" for r in RELATIONS]


def worker(engine: str):
    """The child's loop: requests {"op": "load"|"query"|"time", ...}, one a line."""
    import importlib

    module = importlib.import_module(engine)
    db = module.Database(":memory:")
    conn = module.Connection(db, num_threads=1)

    def rows(query, parameters):
        return conn.execute(query, parameters).get_all()

    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but replies on the pipe
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        try:
            if op == "version":
                reply = {"version": getattr(module, "__version__", "?")}
            elif op == "load":
                directory = request["dir"]
                started = time.perf_counter()
                for statement in EMBEDDED_SCHEMA:
                    conn.execute(statement)
                conn.execute(f"COPY pkg FROM '{directory}/pkg.csv' (header=false)")
                for r in RELATIONS:
                    conn.execute(f"COPY {r} FROM '{directory}/{r}.csv' (header=false)")
                seconds = time.perf_counter() - started
                counts = [
                    rows("MATCH (n:pkg) RETURN count(n)", {})[0][0],
                    rows("MATCH ()-[r]->() RETURN count(r)", {})[0][0],
                ]
                reply = {"seconds": seconds, "counts": counts}
            elif op == "query":
                reply = {"rows": rows(request["query"], request["parameters"])}
            elif op == "time":
                query, parameters = request["query"], request["parameters"]
                reply = {"times": timed(lambda: rows(query, parameters), request["runs"], request["seconds"])}
            else:
                reply = {"error": f"unknown op {op}"}
        except Exception as e:  # the parent says which query failed
            reply = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


class Embedded:
    """The parent's end: the child started, the graph written as CSV and copied in."""

    def __init__(self, engine: str):
        self.engine = engine
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", engine],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.version = self.ask({"op": "version"})["version"]
        self.name = f"{engine} {self.version}"

    def ask(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"query.py: the {self.engine} child exited ({self.proc.wait()})")
        reply = json.loads(line)
        if "error" in reply and request["op"] == "query":
            raise Refused(reply["error"][:300])
        if "error" in reply:
            sys.exit(f"query.py: {self.engine}: {request.get('query', request['op'])}: {reply['error']}")
        return reply

    def load(self, nodes, edges) -> dict:
        """Writes pkg.csv and one CSV per relation type (not timed), then the child's
        CREATE NODE/REL TABLE and COPY FROM (timed in the child)."""
        directory = pathlib.Path(tempfile.mkdtemp(prefix="embedded-"))
        try:
            started = time.perf_counter()
            with open(directory / "pkg.csv", "w") as f:
                f.writelines(f"{i},{k},{s},{p},{z}\n" for i, k, s, p, z in nodes)
            files = {r: open(directory / f"{r}.csv", "w") for r in RELATIONS}
            for u, v, r, w in edges:
                files[r].write(f"{u},{v},{int(w)}\n")
            for f in files.values():
                f.close()
            written = time.perf_counter() - started
            reply = self.ask({"op": "load", "dir": str(directory)})
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        assert reply["counts"] == [len(nodes), len(edges)], reply["counts"]
        return {"seconds": reply["seconds"], "csv_written_s": written}

    def query(self, query, parameters) -> list:
        return self.ask({"op": "query", "query": query, "parameters": parameters})["rows"]

    def timed(self, query, parameters, runs, seconds) -> list:
        request = {"op": "time", "query": query, "parameters": parameters, "runs": runs, "seconds": seconds}
        return self.ask(request)["times"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def peak_rss(pid) -> int:
    """A process's peak resident set (VmHWM), in bytes; 0 if it cannot be read."""
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# --- the queries -----------------------------------------------------------------------------

TWO_HOP = "MATCH (a:pkg {id: $id})-[:depends*1..2]->(b) RETURN count(DISTINCT b) AS reached"
TWO_HOP_IN = "MATCH (a:pkg {id: $id})<-[:depends*1..2]-(b) RETURN count(DISTINCT b) AS reached"
FILTERED = (
    "MATCH (p:lib)<-[r:depends]-(q) WHERE q.section = $section AND q.priority <= $priority"
    " RETURN p.section AS section, count(*) AS n, avg(q.size) AS size"
)
TOP = (
    "MATCH (p:pkg)<-[:depends]-(q) RETURN p.id AS id, count(q) AS dependents"
    " ORDER BY dependents DESC, id LIMIT 20"
)
# The same queries for the embedded engine's schema: one node table `pkg` whose `kind`
# stands for the label lib/app/doc, relationship types as rel tables (so `[:depends]`
# reads only those, as FalkorDB's per-type matrices do).
EMBEDDED_QUERIES = {
    TWO_HOP: TWO_HOP,
    TWO_HOP_IN: TWO_HOP_IN,
    FILTERED: (
        "MATCH (p:pkg)<-[r:depends]-(q:pkg) WHERE p.kind = 'lib' AND q.section = $section"
        " AND q.priority <= $priority RETURN p.section AS section, count(*) AS n, avg(q.size) AS size"
    ),
    TOP: (
        "MATCH (p:pkg)<-[:depends]-(q:pkg) RETURN p.id AS id, count(q) AS dependents"
        " ORDER BY dependents DESC, id LIMIT 20"
    ),
}


def pick_starts(nodes, edges):
    """Start nodes for the 2-hop queries: a typical application (median out-degree), the
    metapackage with the most depends, and the library most depended on (its reverse depends)."""
    out, into = {}, {}
    for u, v, r, _ in edges:
        if r == "depends":
            out[u] = out.get(u, 0) + 1
            into[v] = into.get(v, 0) + 1
    apps = sorted((out.get(i, 0), i) for i, k, *_ in nodes if k == "app")
    typical = apps[len(apps) // 2]
    meta = max((d, i) for i, d in out.items())
    lib = max((d, i) for i, d in into.items())
    return [
        (f"2-hop depends, from an app ({typical[0]} direct)", TWO_HOP, {"id": typical[1]}, False),
        (f"2-hop depends, from a metapackage ({meta[0]} direct)", TWO_HOP, {"id": meta[1]}, False),
        (f"2-hop reverse depends, from the top library ({lib[0]} direct)", TWO_HOP_IN, {"id": lib[1]}, False),
    ]


def canonical(value):
    if isinstance(value, float):
        return ("num", float(f"{value:.9g}"))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, list):
        return ("list", tuple(canonical(v) for v in value))
    if value is None:
        return ("null",)
    return (type(value).__name__, value)


def rows_key(rows, ordered):
    rows = [tuple(canonical(v) for v in row) for row in rows]
    return rows if ordered else sorted(rows, key=repr)


def percentile(xs, p):
    xs = sorted(xs)
    return xs[round((len(xs) - 1) * p)]


def timed(fn, runs, seconds):
    fn()  # warm-up
    times = []
    spent = time.perf_counter()
    while len(times) < runs and (not times or time.perf_counter() - spent < seconds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def ms(x):
    if x < 0.01:
        return f"{x * 1e3:.2f} ms"
    return f"{x * 1e3:.0f} ms" if x < 1 else f"{x:.2f} s"


ENGINES = ("ours", "falkordb", "embedded")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=str(ROOT / "target/release/networks-mcp"))
    parser.add_argument("--falkordb-dir", default=str(ROOT / "tests/interop/.falkordb"))
    parser.add_argument("--embedded", choices=["ladybug", "kuzu", "none"], default="ladybug")
    parser.add_argument(
        "--engines",
        default=",".join(ENGINES),
        help="which engines run, comma-separated among ours,falkordb,embedded (default all)",
    )
    parser.add_argument("--nodes", type=int, default=68000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--ours-load",
        choices=["file", "inline"],
        default="file",
        help="ours: import node-link files by path (default, as the embedded engine copies from files) or inline documents over stdio",
    )
    parser.add_argument(
        "--write-graph",
        metavar="PATH",
        help="write the graph as one node-link JSON document to PATH and stop (for examples/bench_query)",
    )
    parser.add_argument("--worker", choices=["ladybug", "kuzu"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    if args.write_graph:
        nodes, edges = make_graph(args.nodes, args.seed)
        pathlib.Path(args.write_graph).write_text(node_link_document(nodes, edges))
        print(f"query.py: wrote {len(nodes)} nodes, {len(edges)} edges to {args.write_graph}", file=sys.stderr)
        return None
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    if not engines or any(e not in ENGINES for e in engines):
        parser.error(f"--engines: a comma-separated list among {','.join(ENGINES)}")
    if args.embedded == "none" and "embedded" in engines:
        engines.remove("embedded")
    if not engines:
        parser.error("no engine left to run")

    wall = time.perf_counter()
    started = time.perf_counter()
    nodes, edges = make_graph(args.nodes, args.seed)
    into = {}
    for _, v, r, _ in edges:
        if r == "depends":
            into[v] = into.get(v, 0) + 1
    print(
        f"query.py: {len(nodes)} nodes, {len(edges)} edges, most dependents {max(into.values())},"
        f" {sum(1 for d in into.values() if d >= 1000)} packages with 1000+, drawn in"
        f" {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    cases = pick_starts(nodes, edges) + [
        ("filtered aggregation (section utils, priority <= 3)", FILTERED, {"section": "utils", "priority": 3}, False),
        ("ORDER BY/LIMIT: the 20 most depended on", TOP, {}, True),
    ]

    # Each engine: a name for the table, how to load, how to run a query (rows), how to time one.
    server = falkor = embedded = None
    runners = {}
    load = {}
    try:
        if "ours" in engines:
            if args.ours_load == "file":
                ours_dir = pathlib.Path(tempfile.mkdtemp(prefix="ours-"))
                server = Server(args.server, str(ours_dir))
                load["ours"] = load_ours_from_files(server, ours_dir, nodes, edges)
            else:
                server = Server(args.server)
                load["ours"] = load_ours(server, nodes, edges)
            runners["ours"] = (
                "networks-mcp",
                lambda q, ps: server.query("deb", q, ps),
                lambda q, ps: timed(lambda: server.query("deb", q, ps), args.runs, args.seconds),
            )
            print(f"query.py: ours loaded: {json.dumps(load['ours'])}", file=sys.stderr, flush=True)
        if "falkordb" in engines:
            falkor = Falkor(pathlib.Path(args.falkordb_dir))
            load["falkordb"] = {"seconds": load_falkordb(falkor.graph, nodes, edges)}
            runners["falkordb"] = (
                "FalkorDB",
                lambda q, ps: falkordb_rows(falkor.graph, q, ps),
                lambda q, ps: timed(lambda: falkor.graph.ro_query(q, ps), args.runs, args.seconds),
            )
            print(f"query.py: FalkorDB loaded: {json.dumps(load['falkordb'])}", file=sys.stderr, flush=True)
        if "embedded" in engines:
            embedded = Embedded(args.embedded)
            load["embedded"] = embedded.load(nodes, edges)
            runners["embedded"] = (
                f"{embedded.name} (in memory, 1 thread)",
                lambda q, ps: embedded.query(EMBEDDED_QUERIES[q], ps),
                lambda q, ps: embedded.timed(EMBEDDED_QUERIES[q], ps, args.runs, args.seconds),
            )
            print(f"query.py: {embedded.name} loaded: {json.dumps(load['embedded'])}", file=sys.stderr, flush=True)
        memory = {}
        for engine, proc in (("ours", server), ("falkordb", falkor), ("embedded", embedded)):
            if proc is not None and proc.proc is not None:
                memory[engine] = peak_rss(proc.proc.pid)
        memory["client"] = peak_rss(os.getpid())
        print(f"query.py: peak RSS after the loads, bytes: {json.dumps(memory)}", file=sys.stderr, flush=True)

        results = []
        for name, query, parameters, ordered in cases:
            answers, refused = {}, {}
            for engine, (label, run, _) in runners.items():
                try:
                    answers[engine] = run(query, parameters)
                except Refused as e:
                    refused[engine] = str(e)
                    print(f"query.py: {label} refused {name}: {e}", file=sys.stderr, flush=True)
            if not answers:
                sys.exit(f"query.py: no engine answered {name}")
            first = next(iter(answers))
            for engine, rows in answers.items():
                if rows_key(rows, ordered) != rows_key(answers[first], ordered):
                    sys.exit(
                        f"query.py: the engines disagree on {name}\n  {query}\n  {parameters}\n"
                        f"  {runners[first][0]}: {answers[first][:30]}\n  {runners[engine][0]}: {rows[:30]}"
                    )
            result = {
                "case": name,
                "query": query,
                "parameters": parameters,
                "rows": len(answers[first]),
                "first_row": answers[first][0] if answers[first] else None,
            }
            if "embedded" in runners:
                result["embedded"] = embedded.name
                result["embedded_query"] = EMBEDDED_QUERIES[query]
            for engine, (_, _, time_it) in runners.items():
                key = args.embedded if engine == "embedded" else engine
                if engine in refused:
                    result[f"{key}_refused"] = refused[engine]
                    continue
                times = time_it(query, parameters)
                result[f"{key}_p50_s"] = statistics.median(times)
                result[f"{key}_p90_s"] = percentile(times, 0.9)
                result[f"{key}_runs"] = len(times)
            print(json.dumps(result), file=sys.stderr, flush=True)
            results.append(result)
    finally:
        for engine in (server, falkor, embedded):
            if engine is not None:
                engine.close()

    keys = {engine: args.embedded if engine == "embedded" else engine for engine in runners}
    others = [e for e in runners if e != "ours"]
    header = ["query", "rows"] + [f"{runners[e][0]} median (p90)" for e in runners]
    if "ours" in runners:
        header += [f"ours / {runners[e][0].split(' (')[0]}" for e in others]
        if len(others) > 1:
            header.append("ours / faster engine")
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))

    def ratios(ours, theirs):
        """ours / each other engine, then ours / the faster of them (named); "–" where
        an engine refused the query."""
        cells = ["–" if ours is None or theirs[e] is None else f"{ours / theirs[e]:.2f}×" for e in others]
        if len(others) > 1:
            answered = [e for e in others if theirs[e] is not None]
            if ours is None or not answered:
                cells.append("–")
            else:
                fastest = min(answered, key=lambda e: theirs[e])
                cells.append(f"{ours / theirs[fastest]:.2f}× ({runners[fastest][0].split(' ')[0]})")
        return cells

    notes = []
    for r in results:
        cells = [r["case"], str(r["rows"])]
        for e in runners:
            if f"{keys[e]}_refused" in r:
                notes.append(f"{runners[e][0]} refused {r['case']}: {r[f'{keys[e]}_refused']}")
                cells.append(f"refused[^{len(notes)}]")
            else:
                cells.append(f"{ms(r[f'{keys[e]}_p50_s'])} ({ms(r[f'{keys[e]}_p90_s'])})")
        if "ours" in runners:
            cells += ratios(r.get("ours_p50_s"), {e: r.get(f"{keys[e]}_p50_s") for e in others})
        print("| " + " | ".join(cells) + " |")
    cells = [f"load ({len(nodes)} nodes, {len(edges)} edges)", ""]
    cells += [ms(load[e]["seconds"]) for e in runners]
    if "ours" in runners:
        cells += ratios(load["ours"]["seconds"], {e: load[e]["seconds"] for e in others})
    print("| " + " | ".join(cells) + " |")
    for k, note in enumerate(notes, 1):
        print(f"\n[^{k}]: {note}")
    print(f"query.py: done in {time.perf_counter() - wall:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
