#!/usr/bin/env python3
"""Cypher queries beside FalkorDB: the same three read-only queries run by our
`network_query` (over MCP stdio) and by FalkorDB (`GRAPH.RO_QUERY`), on one
seeded graph the size of Debian's package graph (68,000 packages, 300,000
dependency edges), in the same run.

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

Ours: the server (`--server`, default `target/release/networks-mcp`) with the
`algorithms` toolset, the graph loaded by `network_import` (`node_link_json`,
`labels` "pkg,lib"; the nodes, then the edges in batches of 60,000 in `merge` mode,
each request within the default 16 MiB stdio line); each query is one `tools/call` of `network_query` with
`limit` 10000, every page fetched (none has more than one). FalkorDB: a private
`redis-server` with `falkordb.so` on a Unix socket (`--falkordb-dir`, default
`tests/interop/.falkordb`, as `.ci/interop.sh` builds it; or `falkordblite`),
loaded with `UNWIND` batches of 5,000 `CREATE`s after `CREATE INDEX FOR (n:pkg)
ON (n.id)`, so that a start node `(a:pkg {id: $id})` is an index lookup there as
it is here; each query is one `ro_query` of the `falkordb` client. Both are
timed client-side, a whole round trip: one warm-up, then `--runs` runs (at most
`--seconds` per query), median and p90. Both engines' rows must agree (as
multisets, as sequences with ORDER BY) or the run stops. A Markdown table on
stdout, one JSON line per query on stderr. Run with the interop venv:

    tests/interop/.venv/bin/python benches/peers/query.py [--server PATH] [--falkordb-dir DIR] [--runs 20] [--seconds 10] [--seed 1]
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


# --- ours: a lean MCP client over the server's stdin and stdout ---------------------------


class Server:
    def __init__(self, binary: str):
        env = dict(os.environ, NETWORKS_MCP_TOOLSETS="core,edit,analysis,interchange,work,algorithms")
        self.proc = subprocess.Popen(
            [binary],
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
        self.proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
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

    def call(self, tool: str, arguments: dict) -> dict:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        out = result.get("structuredContent")
        if out is None:
            out = json.loads(result["content"][0]["text"])
        if result.get("isError") or out.get("status") != "success":
            sys.exit(f"query.py: {tool} failed: {json.dumps(out)[:2000]}")
        return out

    def query(self, network: str, query: str, parameters: dict) -> list:
        args = {"network_name": network, "query": query, "parameters": parameters, "limit": 10000}
        out = self.call("network_query", args)
        rows = out["rows"]
        while out.get("truncated"):
            out = self.call("network_query", dict(args, cursor=out["next_cursor"]))
            rows.extend(out["rows"])
        return rows

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def load_ours(server: Server, nodes, edges, batch=60000) -> float:
    """One `network_import` (`node_link_json`) of the nodes, then its `merge` mode in
    batches of edges: a stdio line is at most 16 MiB by default (`--max-body-bytes`)."""
    documents = [{
        "directed": True,
        "multigraph": True,
        "graph": {},
        "nodes": [
            {"id": i, "labels": f"pkg,{kind}", "section": s, "priority": p, "size": z}
            for i, kind, s, p, z in nodes
        ],
        "edges": [],
    }] + [
        {
            "directed": True,
            "multigraph": True,
            "graph": {},
            "nodes": [],
            "edges": [{"source": u, "target": v, "relation": r, "weight": w} for u, v, r, w in edges[at : at + batch]],
        }
        for at in range(0, len(edges), batch)
    ]  # fmt: skip
    texts = [json.dumps(d, separators=(",", ":")) for d in documents]
    started = time.perf_counter()
    for k, text in enumerate(texts):
        arguments = {"network_name": "deb", "format": "node_link_json", "content": text}
        if k:
            arguments["mode"] = "merge"
        out = server.call("network_import", arguments)
    seconds = time.perf_counter() - started
    assert out["node_count"] == len(nodes) and out["edge_count"] == len(edges), out
    return seconds


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=str(ROOT / "target/release/networks-mcp"))
    parser.add_argument("--falkordb-dir", default=str(ROOT / "tests/interop/.falkordb"))
    parser.add_argument("--nodes", type=int, default=68000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

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

    server = Server(args.server)
    falkor = Falkor(pathlib.Path(args.falkordb_dir))
    try:
        load_s = {"ours": load_ours(server, nodes, edges), "falkordb": load_falkordb(falkor.graph, nodes, edges)}
        print(f"query.py: loaded: {json.dumps(load_s)}", file=sys.stderr, flush=True)
        results = []
        for name, query, parameters, ordered in cases:
            ours_rows = server.query("deb", query, parameters)
            theirs_rows = falkor.graph.ro_query(query, parameters).result_set
            if rows_key(ours_rows, ordered) != rows_key(theirs_rows, ordered):
                sys.exit(
                    f"query.py: the engines disagree on {name}\n  {query}\n  {parameters}\n"
                    f"  ours:     {ours_rows[:30]}\n  FalkorDB: {theirs_rows[:30]}"
                )
            ours_t = timed(lambda: server.query("deb", query, parameters), args.runs, args.seconds)
            theirs_t = timed(lambda: falkor.graph.ro_query(query, parameters), args.runs, args.seconds)
            result = {
                "case": name,
                "query": query,
                "parameters": parameters,
                "rows": len(ours_rows),
                "first_row": ours_rows[0] if ours_rows else None,
                "ours_p50_s": statistics.median(ours_t),
                "ours_p90_s": percentile(ours_t, 0.9),
                "ours_runs": len(ours_t),
                "falkordb_p50_s": statistics.median(theirs_t),
                "falkordb_p90_s": percentile(theirs_t, 0.9),
                "falkordb_runs": len(theirs_t),
            }
            print(json.dumps(result), file=sys.stderr, flush=True)
            results.append(result)
    finally:
        server.close()
        falkor.close()

    print("| query | rows | networks-mcp median (p90) | FalkorDB median (p90) | ours / FalkorDB |")
    print("|---|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['case']} | {r['rows']} | {ms(r['ours_p50_s'])} ({ms(r['ours_p90_s'])})"
            f" | {ms(r['falkordb_p50_s'])} ({ms(r['falkordb_p90_s'])})"
            f" | {r['ours_p50_s'] / r['falkordb_p50_s']:.2f}× |"
        )
    print(f"| load ({len(nodes)} nodes, {len(edges)} edges) | | {ms(load_s['ours'])} | {ms(load_s['falkordb'])} |"
          f" {load_s['ours'] / load_s['falkordb']:.2f}× |")  # fmt: skip


if __name__ == "__main__":
    main()
