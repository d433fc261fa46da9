"""network_import of dependency graphs, from the real tools' output, against
NetworkX over the same document:

- `cargo metadata --format-version 1` of this crate: "what depends on tokio"
  (every version of it in the graph) answered by network_ancestors exactly as
  `nx.ancestors` answers it on the resolve graph, with all dependency kinds
  and with normal dependencies only (`relations: ["normal"]`);
- `go mod graph` of a small multi-module project built here (local `replace`
  directives, GOPROXY=off): the requirement edges and the main module;
- `pipdeptree --json` and `--json-tree` of this suite's own environment: the
  requirement edges, and the packages that need `anyio`;
- the `package-lock.json` files npm wrote when .ci/interop.sh installed the
  Inspector, Mermaid and the Cypher parser (registry packages, nested
  `node_modules`, peer and optional dependencies), and one of a small workspace
  project installed here offline (links, workspaces, a dev dependency): every edge
  and every node's ancestors against NetworkX over the same lockfile, resolved
  as npm resolves a name, and the edges between installed packages against
  `npm ls --all --json`.

Each document goes in inline (network_import's `content`), but for `cargo metadata`, read from a file (`path`, inside `--data-root`).
"""

from __future__ import annotations

import json
import os
import pathlib
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

    # The document goes in as a file, so it never passes through the agent.
    data = tmp_path / "data"
    data.mkdir()
    (data / "metadata.json").write_text(text)

    @run_async
    async def body():
        async with connect(binary, tmp_path, *TOOLSETS, "--data-root", str(data)) as server:
            out = await server.ok(
                "network_import", {"network_name": "crate", "format": "cargo_metadata", "path": "metadata.json"}
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


NPM_FIELDS = (
    ("optionalDependencies", "optional"),
    ("dependencies", "prod"),
    ("devDependencies", "dev"),
    ("peerDependencies", "peer"),
)


def npm_lock_graph(lock: dict) -> tuple[nx.MultiDiGraph, set[tuple[str, str, str, str]]]:
    """The dependency graph of a package-lock.json (v2/v3), built from its `packages`
    the way npm resolves a name: the package's own `node_modules` first, then each
    enclosing folder's, up to the project's. Nodes are `name@version`; a link entry
    stands for the folder it resolves to; one edge per relation (npm's edge type) and
    pair, and a `workspace` edge from the project to each workspace. Also returns each
    edge's folders and nodes (source folder, target folder, source, target), to compare
    what is installed with npm ls."""
    packages = lock["packages"]

    def target(path: str) -> str:
        entry = packages[path]
        return target(entry["resolved"]) if entry.get("link") else path

    def node_id(path: str) -> str:
        entry = packages[path]
        name = entry.get("name")
        version = entry.get("version")
        if path == "":
            name, version = name or lock.get("name"), version or lock.get("version")
        if not name:
            at = path.rfind("node_modules/")
            name = path[at + len("node_modules/") :] if at >= 0 else path.rsplit("/", 1)[-1]
        return f"{name}@{version}" if version else name

    def enclosing(path: str) -> str:
        at = path.rfind("node_modules/")
        return path[:at].rstrip("/") if at >= 0 else ""

    def resolve(path: str, name: str) -> str | None:
        folder = path
        while True:
            candidate = f"{folder}/node_modules/{name}" if folder else f"node_modules/{name}"
            if candidate in packages:
                return target(candidate)
            if folder == "":
                return None
            folder = enclosing(folder)

    def is_workspace(path: str, patterns: list[str]) -> bool:
        parts = path.split("/")
        for pattern in patterns:
            want = pattern.removeprefix("./").strip("/").split("/")
            if len(want) == len(parts) and all(w in ("*", p) for w, p in zip(want, parts)):
                return True
        return False

    g = nx.MultiDiGraph()
    folders: set[tuple[str, str, str, str]] = set()
    for path, entry in packages.items():
        if not entry.get("link"):
            g.add_node(node_id(path))

    def add(source: str, dest: str, relation: str) -> None:
        g.add_edge(node_id(source), node_id(dest), key=relation, relation=relation)
        folders.add((source, dest, node_id(source), node_id(dest)))

    workspaces = packages.get("", {}).get("workspaces") or []
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages") or []
    for path, entry in packages.items():
        if path and "node_modules/" not in path and not entry.get("link") and is_workspace(path, workspaces):
            add("", path, "workspace")
    for path, entry in packages.items():
        if entry.get("link"):
            continue
        optional = entry.get("optionalDependencies") or {}
        meta = entry.get("peerDependenciesMeta") or {}
        for field, kind in NPM_FIELDS:
            for name in entry.get(field) or {}:
                if kind == "prod" and name in optional:
                    continue  # npm: an optional dependency listed twice is optional
                relation = "peerOptional" if kind == "peer" and meta.get(name, {}).get("optional") else kind
                dest = resolve(path, name)
                if dest is not None:  # not installed: an optional or peer dependency of another platform
                    add(path, dest, relation)
    return g, folders


def npm_ls_pairs(project: pathlib.Path) -> set[tuple[str, str]]:
    """(package, dependency) as `name@version`, from `npm ls --all --json`: what npm
    reads from the installed node_modules tree."""
    proc = subprocess.run(
        ["npm", "ls", "--all", "--json", "--offline"], cwd=project, capture_output=True, text=True, timeout=120
    )
    tree = json.loads(proc.stdout)
    pairs: set[tuple[str, str]] = set()

    def walk(node: dict, me: str) -> None:
        for name, child in (node.get("dependencies") or {}).items():
            if "version" not in child:  # a missing optional peer
                continue
            them = f"{name}@{child['version']}"
            pairs.add((me, them))
            walk(child, them)

    walk(tree, f"{tree['name']}@{tree['version']}" if tree.get("version") else tree["name"])
    return pairs


def npm_projects(tmp_path: pathlib.Path) -> list[pathlib.Path]:
    """Folders holding a package-lock.json and the node_modules npm installed from it:
    the harness's own npm installs and a small workspace project installed here
    offline (no registry: its packages are its workspaces)."""
    projects = []
    for var in ("INTEROP_MERMAID_PREFIX", "INTEROP_CYPHER_PREFIX"):
        if os.environ.get(var):
            projects.append(pathlib.Path(os.environ[var]))
    if os.environ.get("INTEROP_INSPECTOR"):
        # .../inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
        launcher = pathlib.Path(os.environ["INTEROP_INSPECTOR"])
        projects.extend(p for p in launcher.parents if (p / "package-lock.json").is_file() and p.name == "inspector")
    project = tmp_path / "npm-workspaces"
    packages = {
        ".": {
            "name": "ws-root",
            "version": "1.0.0",
            "private": True,
            "workspaces": ["packages/*"],
            "devDependencies": {"tool": "file:packages/tool"},
        },
        "packages/lib": {"name": "lib", "version": "0.1.0"},
        "packages/app": {
            "name": "app",
            "version": "0.2.0",
            "dependencies": {"lib": "^0.1.0"},
            "optionalDependencies": {"tool": "*"},
            "peerDependencies": {"lib": "*"},
        },
        "packages/tool": {"name": "tool", "version": "3.0.0", "dependencies": {"lib": "0.1.0"}},
    }
    for folder, manifest in packages.items():
        (project / folder).mkdir(parents=True, exist_ok=True)
        (project / folder / "package.json").write_text(json.dumps(manifest))
    subprocess.run(
        ["npm", "install", "--offline", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error"],
        cwd=project,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    projects.append(project)
    return projects


def test_package_lock_of_real_npm_installs(binary, tmp_path):
    require_external("npm", shutil.which("npm") is not None, "apt-get install npm")
    projects = npm_projects(tmp_path)
    if os.environ.get("INTEROP_REQUIRE_TOOLS") == "1":
        assert len(projects) == 4, f"the harness's npm installs are missing: {projects}"
    cases = []
    for project in projects:
        text = (project / "package-lock.json").read_text()
        lock = json.loads(text)
        assert lock["lockfileVersion"] in (2, 3), project
        g, folders = npm_lock_graph(lock)
        # npm ls sees the installed tree only: a lockfile also lists the optional
        # packages of other platforms, which are not on disk.
        installed = {(u, v) for a, b, u, v in folders if (project / a).is_dir() and (project / b).is_dir()}
        assert installed == npm_ls_pairs(project), project
        cases.append((project.name, text, g))
    relations = Counter(r for _, _, g in cases for _, _, r in g.edges(data="relation"))
    # The lockfiles hold every kind of edge this format has.
    assert {"prod", "optional", "peer", "peerOptional", "dev", "workspace"} <= set(relations), relations

    @run_async
    async def body():
        async with connect(binary, tmp_path, *TOOLSETS) as server:
            for name, text, g in cases:
                out = await server.ok(
                    "network_import", {"network_name": name, "format": "package_lock_json", "content": text}
                )
                assert (out["node_count"], out["edge_count"]) == (g.number_of_nodes(), g.number_of_edges()), (name, out)
                assert await edges(server, name) == Counter(g.edges(data="relation")), name
                for n in g:
                    assert await ancestors(server, name, n) == nx.ancestors(g, n), (name, n)
            root = await server.ok("network_get_node", {"network_name": "npm-workspaces", "node_id": "ws-root@1.0.0"})
            assert root["attributes"]["root"] is True, root
            for member in ("app@0.2.0", "lib@0.1.0", "tool@3.0.0"):
                node = await server.ok("network_get_node", {"network_name": "npm-workspaces", "node_id": member})
                assert node["attributes"]["workspace_member"] is True, node

    body()
