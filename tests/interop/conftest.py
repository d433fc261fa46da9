"""Shared helpers for the interop tests.

The tests drive the real `networks-mcp` binary (NETWORKS_MCP_BIN, default
target/debug/networks-mcp) through real MCP clients: the official Python SDK
(`mcp` on PyPI) and the MCP Inspector CLI. `.ci/interop.sh` installs both and
runs this directory; see it for the environment it sets.

The tests are plain sync functions: `run_async` runs an async body under anyio,
so no pytest plugin for asyncio is needed.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import pathlib
import stat
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Every SDK-driven scenario must finish well within this; a hang is a failure.
SCENARIO_TIMEOUT_S = 60

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

        return anyio.run(body)

    return wrapper


def text_json(result) -> Any:
    """The JSON in the single text block that mirrors structuredContent."""
    texts = [c for c in result.content if getattr(c, "type", None) == "text"]
    assert len(texts) == 1, f"expected exactly one text content block, got {result.content!r}"
    return json.loads(texts[0].text)


class Server:
    """A spawned server with an initialized `mcp.ClientSession`."""

    def __init__(self, session: ClientSession, init, stderr_path: pathlib.Path):
        self.session = session
        self.init = init
        self.stderr_path = stderr_path

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
        return {n["name"]: (n["nodes"], n["edges"]) for n in listed["networks"]}

    async def neighbors(self, network: str, node: str, **extra) -> dict[str, Any]:
        return await self.ok("network_get_neighbors", {"network_name": network, "node_id": node, **extra})


@asynccontextmanager
async def connect(binary: str, tmp_path: pathlib.Path, *args: str):
    """Spawns the binary with `args` over stdio and initializes a ClientSession.

    Fails the test if any stdout line was not a JSON-RPC message (the SDK hands
    such lines to the message handler as exceptions instead of raising)."""
    stderr_path = tmp_path / f"server-{next(_server_counter)}.stderr"
    stream_errors: list[Exception] = []

    async def on_message(message) -> None:
        if isinstance(message, Exception):
            stream_errors.append(message)

    params = StdioServerParameters(command=binary, args=list(args), env={"NO_COLOR": "1"})
    with open(stderr_path, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, message_handler=on_message, read_timeout_seconds=30) as session:
                init = await session.initialize()
                yield Server(session, init, stderr_path)
    assert not stream_errors, f"transport errors (non-JSON-RPC output on stdout?): {stream_errors!r}"
