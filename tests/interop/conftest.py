"""Shared helpers for the interop tests.

The tests drive the real `networks-mcp` binary (NETWORKS_MCP_BIN, default
target/debug/networks-mcp) through real MCP clients: the official Python SDK
(`mcp` on PyPI) and the MCP Inspector CLI; and check its import/export formats
with tools we did not write (NetworkX, Graphviz's dot, the Mermaid parser, Neo4j's
Cypher parser). `.ci/interop.sh` installs them and runs this directory; see it for
the environment it sets.

The tests are plain sync functions: `run_async` runs an async body under anyio,
so no pytest plugin for asyncio is needed.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import pathlib
import queue
import shutil
import stat
import subprocess
import tempfile
import threading
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Every SDK-driven scenario must finish well within this; a hang is a failure.
SCENARIO_TIMEOUT_S = 60

# Started without --toolsets, the server lists a small start and network_toolsets, which
# turns toolsets on per session. The format tests need the import/export tools listed,
# so they fix the list as the operator would: these toolsets (the former default).
INTERCHANGE = ("--toolsets", "core,edit,analysis,interchange")

_server_counter = itertools.count()


def binary_path() -> pathlib.Path:
    raw = os.environ.get("NETWORKS_MCP_BIN") or str(ROOT / "target" / "debug" / "networks-mcp")
    path = pathlib.Path(raw)
    if not path.is_absolute():
        path = (pathlib.Path.cwd() / path).resolve()
    return path


@pytest.fixture(scope="session")
def binary() -> str:
    path = binary_path()
    if not path.is_file() or not (path.stat().st_mode & stat.S_IXUSR):
        pytest.fail(f"server binary not found or not executable: {path} (set NETWORKS_MCP_BIN)")
    return str(path)


def run_async(fn):
    """Runs an async test body under anyio with a hard timeout; pytest sees a sync test."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        async def body():
            with anyio.fail_after(SCENARIO_TIMEOUT_S):
                return await fn(*args, **kwargs)

        try:
            return anyio.run(body)
        except BaseExceptionGroup as group:
            # A failure inside the SDK's task groups arrives wrapped; show the one cause.
            leaves = _leaves(group)
            if len(leaves) == 1:
                raise leaves[0] from None
            raise

    return wrapper


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for e in group.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out


def text_json(result) -> Any:
    """The JSON in the first text block, which mirrors structuredContent. A document
    (an export) is not a text block: it travels once, as an embedded resource."""
    texts = [c for c in result.content if getattr(c, "type", None) == "text"]
    assert len(texts) == 1, f"expected one text block, got {result.content!r}"
    return json.loads(texts[0].text)


def document(result) -> str | None:
    """The document a result carries as its embedded resource, if any; its URI and
    MIME type are the result's resource_uri and mime_type."""
    blocks = [c for c in result.content if getattr(c, "type", None) == "resource"]
    if not blocks:
        return None
    assert len(blocks) == 1, f"one document per result, got {result.content!r}"
    resource = blocks[0].resource
    sc = result.structured_content or {}
    assert str(resource.uri) == sc.get("resource_uri"), (resource.uri, sc)
    assert resource.mime_type == sc.get("mime_type"), (resource.mime_type, sc)
    return resource.text


class Inbox:
    """The server notifications a session received (its `message_handler`), in order;
    transport exceptions are kept apart in `errors`."""

    def __init__(self) -> None:
        self.notifications: list[Any] = []
        self.errors: list[Exception] = []

    async def __call__(self, message) -> None:
        if isinstance(message, Exception):
            self.errors.append(message)
        else:
            self.notifications.append(message)

    def of(self, method: str) -> list[Any]:
        return [n for n in self.notifications if getattr(n, "method", None) == method]

    async def wait_for(self, method: str, predicate=lambda n: True, timeout: float = 10.0):
        """The first notification of `method` that satisfies `predicate`, waiting up to
        `timeout` seconds for it."""
        with anyio.move_on_after(timeout):
            while True:
                for n in self.of(method):
                    if predicate(n):
                        return n
                await anyio.sleep(0.02)
        seen = [getattr(n, "method", repr(n)) for n in self.notifications]
        raise AssertionError(f"no {method} notification matching within {timeout}s; received: {seen}")


class Server:
    """A spawned server with an initialized `mcp.ClientSession`."""

    def __init__(self, session: ClientSession, init, stderr_path: pathlib.Path, inbox: Inbox | None = None):
        self.session = session
        self.init = init
        self.stderr_path = stderr_path
        self.inbox = inbox if inbox is not None else Inbox()

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    async def call(self, name: str, arguments: dict[str, Any] | None = None):
        """A raw tools/call through the SDK (which validates successful results
        against the tool's outputSchema)."""
        return await self.session.call_tool(name, arguments)

    async def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Calls a tool that must succeed; returns its structuredContent."""
        result = await self.call(name, arguments)
        sc = result.structured_content
        assert result.is_error is not True, f"{name}({arguments}) failed: {sc or result.content}"
        assert isinstance(sc, dict), f"{name}({arguments}) returned no structuredContent: {result!r}"
        assert text_json(result) == sc, f"{name}: text content does not mirror structuredContent"
        doc = document(result)
        if doc is not None:
            # Sent once: the document is not in structuredContent. The tests read
            # it back under its field name.
            assert "content" not in sc, f"{name}: the document is sent twice"
            sc = {**sc, "content": doc}
        return sc

    async def err(self, name: str, arguments: dict[str, Any] | None, code: str) -> dict[str, Any]:
        """Calls a tool that must fail with the error object of `code`; returns it."""
        result = await self.call(name, arguments)
        sc = result.structured_content
        assert result.is_error is True, f"{name}({arguments}) should fail with {code}, got {sc or result.content}"
        assert isinstance(sc, dict), f"{name}({arguments}) error has no structuredContent: {result!r}"
        assert sc.get("status") == "error", sc
        assert isinstance(sc.get("error"), str) and sc["error"].strip(), f"empty error message: {sc}"
        assert sc.get("code") == code, f"{name}({arguments}): expected code {code!r}, got {sc}"
        assert text_json(result) == sc, f"{name}: error text does not mirror structuredContent"
        return sc

    async def networks(self) -> dict[str, tuple[int, int]]:
        """name -> (nodes, edges) from network_list."""
        listed = await self.ok("network_list", {})
        assert listed["status"] == "success"
        assert listed["total"] == len(listed["networks"])
        return {n["name"]: (n["node_count"], n["edge_count"]) for n in listed["networks"]}

    async def neighbors(self, network: str, node: str, **extra) -> dict[str, Any]:
        return await self.ok("network_get_neighbors", {"network_name": network, "node_id": node, **extra})


@asynccontextmanager
async def connect(binary: str, tmp_path: pathlib.Path, *args: str):
    """Spawns the binary with `args` over stdio and initializes a ClientSession.

    Server notifications collect in `server.inbox`. Fails the test if any stdout line
    was not a JSON-RPC message (the SDK hands such lines to the message handler as
    exceptions instead of raising)."""
    stderr_path = tmp_path / f"server-{next(_server_counter)}.stderr"
    inbox = Inbox()

    params = StdioServerParameters(command=binary, args=list(args), env={"NO_COLOR": "1"})
    with open(stderr_path, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, message_handler=inbox, read_timeout_seconds=30) as session:
                init = await session.initialize()
                yield Server(session, init, stderr_path, inbox)
    assert not inbox.errors, f"transport errors (non-JSON-RPC output on stdout?): {inbox.errors!r}"


# --- import/export helpers ---------------------------------------------------------------


def require_external(what: str, present: bool, hint: str) -> None:
    """Skips a test whose external tool is missing, or fails it under the harness
    (INTEROP_REQUIRE_TOOLS=1, set by .ci/interop.sh), where a skip would hide a gap."""
    if present:
        return
    message = f"{what} is not available ({hint}); run .ci/interop.sh"
    if os.environ.get("INTEROP_REQUIRE_TOOLS") == "1":
        pytest.fail(message)
    pytest.skip(message)


async def require_tools(server: Server, *names: str) -> None:
    """Fails with one clear message when the server does not list the tools a test needs."""
    listed = {t.name for t in (await server.session.list_tools()).tools}
    missing = [n for n in names if n not in listed]
    assert not missing, f"the server does not offer {', '.join(missing)} (tools/list has {len(listed)} tools)"


def typed(value: Any) -> Any:
    """`value` with every scalar tagged by its JSON type, so that comparisons are
    type-strict (in Python 1 == 1.0 == True)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [typed(v) for v in value]
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", value)
    if value is None:
        return ("null", None)
    return (type(value).__name__, value)


async def build_network(server: Server, name: str, nodes: list[dict], edges: list[dict]) -> list[int]:
    """Creates `name` and adds `nodes` and `edges` (network_add_nodes/_edges items) in
    one batch each; returns the new edge ids in item order."""
    await server.ok("network_create", {"network_name": name})
    if nodes:
        await server.ok("network_add_nodes", {"network_name": name, "nodes": nodes})
    if not edges:
        return []
    added = await server.ok("network_add_edges", {"network_name": name, "edges": edges, "include_ids": True})
    assert len(added["edge_ids"]) == len(edges), added
    return added["edge_ids"]


async def read_network(server: Server, name: str) -> tuple[dict[str, dict], list[dict]]:
    """A network as our list tools report it: node id -> {"attributes", "data"?} in
    insertion order, and every edge ({"edge_id", "source", "target", "weight",
    "attributes"}) in storage order. Follows the cursors."""
    nodes: dict[str, dict] = {}
    cursor = None
    while True:
        args = {"network_name": name, "include_data": True, "limit": 1000}
        if cursor:
            args["cursor"] = cursor
        page = await server.ok("network_list_nodes", args)
        for n in page["nodes"]:
            entry = {"attributes": n["attributes"]}
            if "data" in n:
                entry["data"] = n["data"]
            nodes[n["node_id"]] = entry
        cursor = page.get("next_cursor")
        if not cursor:
            break
    edges: list[dict] = []
    cursor = None
    while True:
        args = {"network_name": name, "limit": 1000}
        if cursor:
            args["cursor"] = cursor
        page = await server.ok("network_list_edges", args)
        edges.extend(page["edges"])
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return nodes, edges


def node_binary() -> str | None:
    node = os.environ.get("INTEROP_NODE") or shutil.which("node")
    return node if node and pathlib.Path(node).is_file() else None


class ParserService:
    """One long-lived `node SCRIPT --serve` (tests/interop/{mermaid,cypher}_parse.mjs), so
    the parser loads once per test session rather than once per document. Calling it with a
    document returns the CompletedProcess the single-document use would give (the scripts
    answer each document with its exit code, stdout and stderr): exit 0 or 1; any other
    outcome (exit 2, a crash, a hang) fails the test with the script's stderr. The fixtures
    start it at once, so that the parser loads while the first test builds its network; it
    starts again on the next call after such a failure."""

    TIMEOUT_S = 120  # per document, as the single-document runs had

    def __init__(self, node: str, script: pathlib.Path, env: dict[str, str]):
        self.args = [node, str(script), "--serve"]
        self.env = env
        self.name = script.name
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def start(self) -> None:
        self.stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            encoding="utf-8",
            env=self.env,
        )
        self.answers: queue.Queue[str] = queue.Queue()
        stdout, answers = self.proc.stdout, self.answers

        def pump() -> None:
            for line in stdout:
                answers.put(line)
            answers.put("")  # end of output: the script exited

        threading.Thread(target=pump, daemon=True).start()

    def _fail(self, what: str) -> None:
        proc, self.proc = self.proc, None
        proc.kill()
        proc.wait()
        self.stderr.seek(0)
        pytest.fail(f"{self.name} could not run ({what}, exit {proc.returncode}): {self.stderr.read()}")

    def __call__(self, text: str) -> subprocess.CompletedProcess:
        with self.lock:
            if self.proc is None:
                self.start()
            try:
                self.proc.stdin.write(json.dumps(text) + "\n")
                self.proc.stdin.flush()
            except OSError as e:
                self._fail(f"cannot send the document: {e}")
            try:
                line = self.answers.get(timeout=self.TIMEOUT_S)
            except queue.Empty:
                self._fail(f"no answer within {self.TIMEOUT_S}s")
            if not line:
                self._fail("it exited")
            try:
                answer = json.loads(line)
            except ValueError:
                self._fail(f"answered {line!r}")
            if answer.get("exit") not in (0, 1):
                self._fail(f"answered {answer!r}")
            return subprocess.CompletedProcess(self.args, answer["exit"], answer["stdout"], answer["stderr"])

    def close(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self.stderr.close()


@pytest.fixture(scope="session")
def mermaid_parse():
    """A function that parses Mermaid text with the real `mermaid` package (through
    tests/interop/mermaid_parse.mjs, one Node process for the session) and returns a
    CompletedProcess: exit 0 and a JSON description on stdout, or exit 1 and the parser's
    message on stderr."""
    node = node_binary()
    prefix = os.environ.get("INTEROP_MERMAID_PREFIX")
    present = bool(node and prefix and (pathlib.Path(prefix) / "node_modules" / "mermaid").is_dir())
    require_external("the Mermaid parser", present, f"INTEROP_NODE={node!r}, INTEROP_MERMAID_PREFIX={prefix!r}")
    script = pathlib.Path(__file__).with_name("mermaid_parse.mjs")
    service = ParserService(node, script, dict(os.environ, INTEROP_MERMAID_PREFIX=prefix, NO_COLOR="1"))
    service.start()
    yield service
    service.close()


@pytest.fixture(scope="session")
def cypher_parse():
    """A function that checks Cypher text with Neo4j's own parser and front-end
    (`@neo4j-cypher/language-support`, through tests/interop/cypher_parse.mjs, one Node
    process for the session) and returns a CompletedProcess: exit 0 and a JSON description of
    the statements on stdout, or exit 1 and the errors (line:column) on stderr."""
    node = node_binary()
    prefix = os.environ.get("INTEROP_CYPHER_PREFIX")
    present = bool(
        node and prefix and (pathlib.Path(prefix) / "node_modules" / "@neo4j-cypher" / "language-support").is_dir()
    )
    require_external("the Neo4j Cypher parser", present, f"INTEROP_NODE={node!r}, INTEROP_CYPHER_PREFIX={prefix!r}")
    script = pathlib.Path(__file__).with_name("cypher_parse.mjs")
    service = ParserService(node, script, dict(os.environ, INTEROP_CYPHER_PREFIX=prefix, NO_COLOR="1"))
    service.start()
    yield service
    service.close()


@pytest.fixture(scope="session")
def dot_binary() -> str:
    dot = shutil.which("dot")
    require_external("Graphviz's dot", dot is not None, "apt-get install graphviz")
    return dot


# --- streamable HTTP ---------------------------------------------------------------------

HTTP_MARKER = "serving MCP over streamable HTTP at http://"


@contextmanager
def http_server(binary: str, tmp_path: pathlib.Path, token: str | None = None, *args: str):
    """Runs the binary with `--http 127.0.0.1:0`; yields (base URL of /mcp, stderr path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NETWORKS_MCP")}
    env["NO_COLOR"] = "1"
    if token:
        env["NETWORKS_MCP_AUTH_TOKEN"] = token
    stderr_path = tmp_path / f"http-{next(_server_counter)}.stderr"
    proc = subprocess.Popen(
        [binary, "--http", "127.0.0.1:0", "--log-level", "info", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    found: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        with open(stderr_path, "w") as log:
            for line in proc.stderr:
                log.write(line)
                log.flush()
                at = line.find(HTTP_MARKER)
                if at >= 0:
                    rest = line[at + len(HTTP_MARKER) :]
                    found.put("http://" + rest[: rest.find("/mcp")] + "/mcp")

    threading.Thread(target=pump, daemon=True).start()
    try:
        try:
            url = found.get(timeout=30)
        except queue.Empty:
            raise AssertionError(
                f"the HTTP server did not report its address (exit {proc.poll()}):\n"
                + (stderr_path.read_text(errors="replace") if stderr_path.exists() else "")
            ) from None
        yield url, stderr_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@asynccontextmanager
async def connect_http(url: str, stderr_path: pathlib.Path, token: str | None = None):
    """An initialized ClientSession over streamable HTTP (the SDK's
    `streamable_http_client`), sending the bearer token if one is given."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    inbox = Inbox()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write, message_handler=inbox, read_timeout_seconds=30) as session:
                init = await session.initialize()
                yield Server(session, init, stderr_path, inbox)
    assert not inbox.errors, f"transport errors over HTTP: {inbox.errors!r}"
