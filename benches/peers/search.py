#!/usr/bin/env python3
"""Times node search the way a NetworkX-based graph server does it, on the nodes
`examples/bench_search.rs --nodes-file` wrote (`id<TAB>title` lines): a NetworkX
DiGraph with a `title` attribute per node, then

* substring: a loop over `G.nodes` keeping the nodes with `query in id.lower()`
  (and, for "id+title", `or query in title.lower()`);
* fuzzy: rapidfuzz's `process.extract` with `fuzz.partial_ratio` (top 20,
  `utils.default_process`), over the ids (and, for "id+title", the titles too),
  if rapidfuzz is installed; otherwise the fuzzy rows are left out.

The same queries as the Rust example; best of 5 runs; one JSON line per workload.
Needs `pip install networkx` (and optionally rapidfuzz).
"""

import json
import sys
import time

import networkx as nx

try:
    from rapidfuzz import fuzz, process, utils
except ImportError:  # the substring loop alone
    process = None

QUERIES = [
    ("substring common", "cache", "substring"),
    ("substring rare", "checkout-4242", "substring"),
    ("substring none", "zzzz", "substring"),
    ("fuzzy typo", "paymnet-gatway", "fuzzy"),
    ("fuzzy word", "recomendation", "fuzzy"),
    ("fuzzy none", "qqqqqqqqq", "fuzzy"),
]


def best_of(fn, runs=5):
    best, result = float("inf"), None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def substring(G, query, with_title):
    q = query.lower()
    if with_title:
        return [n for n, title in G.nodes(data="title") if q in n.lower() or q in title.lower()]
    return [n for n in G.nodes if q in n.lower()]


def fuzzy(G, query, with_title):
    kw = dict(scorer=fuzz.partial_ratio, processor=utils.default_process, limit=20)
    found = process.extract(query, list(G.nodes), **kw)
    if with_title:
        titles = {n: t for n, t in G.nodes(data="title")}
        found += process.extract(query, titles, **kw)
    return found


def main(path: str) -> None:
    G = nx.DiGraph()
    with open(path, encoding="utf-8") as f:
        for line in f:
            node, title = line.rstrip("\n").split("\t")
            G.add_node(node, title=title)
    n = G.number_of_nodes()
    for fields, with_title in (("id+title", True), ("id", False)):
        for label, query, mode in QUERIES:
            if mode == "fuzzy" and process is None:
                continue
            search = substring if mode == "substring" else fuzzy
            seconds, found = best_of(lambda: search(G, query, with_title))
            print(json.dumps({
                "workload": label, "fields": fields, "query": query, "nodes": n,
                "matches": len(found), "ms": round(seconds * 1e3, 1),
                "engine": "networkx loop" if mode == "substring" else "rapidfuzz partial_ratio",
            }))


if __name__ == "__main__":
    main(sys.argv[1])
