"""network_import of dependency graphs, from the real tools' output, against
NetworkX over the same document:

- `cargo metadata --format-version 1` of this crate: "what depends on tokio"
  (every version of it in the graph) answered by network_ancestors exactly as
  `nx.ancestors` answers it on the resolve graph, with all dependency kinds
  and with normal dependencies only (`relations: ["normal"]`);
- `go mod graph` of a small multi-module project built here (local `replace`
  directives, GOPROXY=off): the requirement edges and the main module;
- `pipdeptree --json` and `--json-tree` of this suite's own environment: the
  requirement edges, and the packages that need `anyio`.

Each document goes in inline (network_import's `content`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter

import networkx as nx

from conftest import ROOT, connect, require_external, run_async

TOOLSETS = ("--toolsets", "core,edit,analysis,interchange")


async def all_pages(server, tool: str, args: dict, field: str) -> list:
    items, cursor = [], None
    while True:
        page = await server.ok(tool, {**args, **({"cursor": cursor} if cursor else {})})
        items.extend(page[field])
        cursor = page.get("next_cursor")
        if not cursor:
            return items


async def ancestors(server, name: str, node: str, **extra) -> set[str]:
    nodes = await all_pages(
        server, "network_ancestors", {"network_name": name, "node_id": node, "limit": 1000, **extra}, "nodes"
    )
    return {n["node_id"] for n in nodes}


async def edges(server, name: str) -> Counter:
    out = await server.ok("network_export", {"network_name": name, "format": "node_link_json", "limit": 10000})
    doc = json.loads(out["content"])
    assert len(doc["edges"]) < 10000, "the export was cut"
    return Counter((e["source"], e["target"], e.get("relation")) for e in doc["edges"])


def cargo_graph(meta: dict) -> nx.MultiDiGraph:
    """The resolve graph of `cargo metadata`, nodes named `name@version` (the
    package id where two packages share one), one edge per dependency kind."""
    short = {p["id"]: f"{p['name']}@{p['version']}" for p in meta["packages"]}
    count = Counter(short.values())
    name = {pid: (s if count[s] == 1 else pid) for pid, s in short.items()}
    g = nx.MultiDiGraph()
    g.add_nodes_from(name.values())
    for node in meta["resolve"]["nodes"]:
        for dep in node["deps"]:
            for kind in dep["dep_kinds"]:
                g.add_edge(name[node["id"]], name[dep["pkg"]], relation=kind["kind"] or "normal")
    return g


def test_cargo_metadata_of_this_crate_answers_what_depends_on_tokio(binary, tmp_path):
    cargo = shutil.which("cargo")
    require_external("cargo", cargo is not None, "install Rust")
    text = subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--manifest-path", str(ROOT / "Cargo.toml")],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    meta = json.loads(text)
    g = cargo_graph(meta)
    tokio = sorted(n for n in g if n.startswith("tokio@"))
    assert tokio, "this crate depends on tokio"
    normal = g.edge_subgraph([(u, v, k) for u, v, k, r in g.edges(keys=True, data="relation") if r == "normal"]).copy()
    normal.add_nodes_from(g)

    @run_async
    async def body():
        async with connect(binary, tmp_path, *TOOLSETS) as server:
            out = await server.ok(
                "network_import", {"network_name": "crate", "format": "cargo_metadata", "content": text}
            )
            assert (out["node_count"], out["edge_count"]) == (g.number_of_nodes(), g.number_of_edges()), out
            got = await edges(server, "crate")
            assert got == Counter((u, v, r) for u, v, r in g.edges(data="relation"))
            for t in tokio:
                assert await ancestors(server, "crate", t) == nx.ancestors(g, t), t
                assert await ancestors(server, "crate", t, relations=["normal"]) == nx.ancestors(normal, t), t
            us = [f"{p['name']}@{p['version']}" for p in meta["packages"] if p["id"] in meta["workspace_members"]]
            for member in us:
                node = await server.ok("network_get_node", {"network_name": "crate", "node_id": member})
                assert node["attributes"]["workspace_member"] is True, node

    body()


GO_MODULES = {
    "lib": "module example.com/lib\n\ngo 1.19\n\nrequire example.com/util v0.2.0\n",
    "util-old": "module example.com/util\n\ngo 1.19\n",
    "util": "module example.com/util\n\ngo 1.19\n\nrequire example.com/extra v0.1.0\n",
    "extra": "module example.com/extra\n\ngo 1.19\n",
    "app": (
        "module example.com/app\n\ngo 1.19\n\n"
        "require (\n\texample.com/lib v1.2.0\n\texample.com/util v0.3.0\n)\n\n"
        "replace (\n\texample.com/extra v0.1.0 => ../extra\n\texample.com/lib v1.2.0 => ../lib\n"
        "\texample.com/util v0.2.0 => ../util-old\n\texample.com/util v0.3.0 => ../util\n)\n"
    ),
}


def test_go_mod_graph_of_a_multi_module_project(binary, tmp_path):
    go = shutil.which("go")
    require_external("go", go is not None, "apt-get install golang-go; scripts/prerequisites does")
    project = tmp_path / "go"
    for folder, mod in GO_MODULES.items():
        (project / folder).mkdir(parents=True)
        (project / folder / "go.mod").write_text(mod)
        (project / folder / "x.go").write_text("package main\n\nfunc main() {}\n" if folder == "app" else "package x\n")
    env = {
        **os.environ,
        "GOPROXY": "off",
        "GOFLAGS": "-mod=mod",
        "GOTOOLCHAIN": "local",
        "GOPATH": str(tmp_path / "gopath"),
        "GOCACHE": str(tmp_path / "gocache"),
    }
    text = subprocess.run(
        [go, "mod", "graph"], cwd=project / "app", env=env, check=True, capture_output=True, text=True, timeout=120
    ).stdout
    g = nx.DiGraph()
    for line in text.splitlines():
        a, b = line.split()
        g.add_edge(a, b)
    assert g.number_of_edges() >= 4, text

    @run_async
    async def body():
        async with connect(binary, tmp_path, *TOOLSETS) as server:
            await server.ok("network_import", {"network_name": "go", "format": "go_mod_graph", "content": text})
            assert await edges(server, "go") == Counter((u, v, "requires") for u, v in g.edges)
            main = await server.ok("network_get_node", {"network_name": "go", "node_id": "example.com/app"})
            assert main["attributes"]["main_module"] is True, main
            for n in g:
                assert await ancestors(server, "go", n) == nx.ancestors(g, n), n

    body()


def test_pipdeptree_of_this_environment(binary, tmp_path):
    have = subprocess.run([sys.executable, "-m", "pipdeptree", "--version"], capture_output=True).returncode == 0
    require_external("pipdeptree", have, "pip install -r tests/interop/requirements.txt")
    run = lambda flag: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "pipdeptree", flag, "--python", sys.executable],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    flat, tree = run("--json"), run("--json-tree")
    g = nx.DiGraph()
    for entry in json.loads(flat):
        g.add_node(entry["package"]["key"])
        for dep in entry["dependencies"]:
            g.add_edge(entry["package"]["key"], dep["key"], spec=dep["required_version"])
    assert "anyio" in g, "the MCP SDK needs anyio"

    @run_async
    async def body():
        async with connect(binary, tmp_path, *TOOLSETS) as server:
            for name, text in (("flat", flat), ("tree", tree)):
                await server.ok("network_import", {"network_name": name, "format": "pipdeptree_json", "content": text})
                assert await edges(server, name) == Counter((u, v, "requires") for u, v in g.edges), name
                assert await ancestors(server, name, "anyio") == nx.ancestors(g, "anyio"), name

    body()
