"""The foundation acceptance, proven against the official MCP Python SDK.

Every scenario spawns the real binary through `mcp.client.stdio.stdio_client`
and talks to it with `mcp.ClientSession`, so the SDK's own checks apply: the
initialize handshake, the `tools/list` model validation of every tool, and the
validation of each successful result's structuredContent against the tool's
outputSchema.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
import tomllib

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from conftest import ROOT, connect, connect_http, http_server, run_async

CORE_TOOLS = {
    "network_create",
    "network_list",
    "network_delete",
    "network_get_neighbors",
    "network_add_node",
    "network_add_edge",
}

# Started without --toolsets, the server lists this small start and network_toolsets,
# which turns toolsets on for the session (and announces it with tools/list_changed).
START_TOOLS = {
    "network_list",
    "network_create",
    "network_add_node",
    "network_add_edge",
    "network_get_neighbors",
    "network_topological_sort",
    "network_ready_nodes",
    "network_why_blocked",
}
TOOLSETS_TOOL = "network_toolsets"
DEFAULT_LISTING = START_TOOLS | {TOOLSETS_TOOL}
TOOLSET_NAMES = ["core", "edit", "analysis", "interchange", "work", "algorithms"]
ALL_TOOLSETS = ("--toolsets", ",".join(TOOLSET_NAMES))
TOOLS_LIST_CHANGED = "notifications/tools/list_changed"
# Accepted by the tools but no longer published in their input schemas.
UNPUBLISHED_PARAMETERS = {
    "if_version",
    "claim_attribute",
    "lease_attribute",
    "exclusion_attribute",
    "parent_attribute",
    "priority_attribute",
    "relation_attribute",
}

# tool -> (readOnlyHint, destructiveHint, idempotentHint)
EXPECTED_HINTS = {
    "network_get_neighbors": (True, None, None),
    "network_list": (True, None, None),
    "network_add_node": (False, False, True),
    "network_create": (False, False, True),
    "network_add_edge": (False, False, False),
    "network_delete": (False, True, True),
    "network_topological_sort": (True, None, None),
    "network_ready_nodes": (True, None, None),
    "network_why_blocked": (True, None, None),
    # It changes what the session is shown, never a network.
    "network_toolsets": (False, False, True),
}

EXPECTED_REQUIRED = {
    "network_create": {"network_name"},
    "network_list": set(),
    "network_delete": {"network_name"},
    "network_get_neighbors": {"network_name", "node_id"},
    "network_add_node": {"network_name", "node_id"},
    "network_add_edge": {"network_name", "source", "target"},
    "network_topological_sort": {"network_name"},
    "network_ready_nodes": {"network_name"},
    "network_why_blocked": {"network_name", "node_id"},
    "network_toolsets": set(),
}


def requires_status(schema: dict) -> bool:
    """`status` is required at the top level, or in every branch of a top-level anyOf/oneOf."""
    if "status" in schema.get("required", []):
        return True
    branches = schema.get("anyOf") or schema.get("oneOf") or []
    return bool(branches) and all(requires_status(b) for b in branches)


def crate_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["package"]["version"]


async def seed(server) -> dict[str, int]:
    """The seed example: module_deps with agents, logging, cli, networks and two edges.
    Returns the edge ids by name."""
    created = await server.ok("network_create", {"network_name": "module_deps"})
    assert created["status"] == "success" and created["network_name"] == "module_deps"
    for node in ("agents", "logging", "cli"):
        added = await server.ok("network_add_node", {"network_name": "module_deps", "node_id": node})
        assert (added["status"], added["node_id"]) == ("success", node)
    added = await server.ok(
        "network_add_node",
        {"network_name": "module_deps", "node_id": "networks", "data": "Core", "attributes": {"layer": 2}},
    )
    assert (added["status"], added["node_id"]) == ("success", "networks")
    assert isinstance(added["message"], str) and added["message"]

    first = await server.ok(
        "network_add_edge",
        {
            "network_name": "module_deps",
            "source": "agents",
            "target": "logging",
            "weight": 1.0,
            "attributes": {"relation": "depends_on"},
        },
    )
    # The seed contract's fields, plus the version the write made.
    assert set(first) == {"status", "source", "target", "weight", "edge_id", "version"}, first
    assert {k: v for k, v in first.items() if k not in ("edge_id", "version")} == {
        "status": "success",
        "source": "agents",
        "target": "logging",
        "weight": 1.0,
    }
    assert type(first["edge_id"]) is int and first["edge_id"] >= 0, first

    second = await server.ok("network_add_edge", {"network_name": "module_deps", "source": "cli", "target": "agents"})
    assert (second["status"], second["source"], second["target"], second["weight"]) == (
        "success",
        "cli",
        "agents",
        1.0,
    ), second
    assert type(second["edge_id"]) is int and second["edge_id"] != first["edge_id"]
    return {"agents->logging": first["edge_id"], "cli->agents": second["edge_id"]}


# --- handshake and tool listing --------------------------------------------------------


@run_async
async def test_initialize_reports_server_and_tools_capability(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        init = server.init
        assert init.server_info.name == "networks-mcp"
        assert init.server_info.version == crate_version()
        assert init.capabilities.tools is not None
        # Without --toolsets the list can grow (network_toolsets), so the server says so.
        assert init.capabilities.tools.list_changed is True, init.capabilities.tools
        assert init.instructions and "network" in init.instructions
        assert init.protocol_version == server.session.protocol_version


@run_async
async def test_toolsets_fix_the_list(binary, tmp_path):
    """With --toolsets the operator fixes the list: every tool of the named toolsets,
    no network_toolsets, and no listChanged capability."""
    async with connect(binary, tmp_path, *ALL_TOOLSETS) as server:
        assert not server.init.capabilities.tools.list_changed, server.init.capabilities.tools
        names = {t.name for t in (await server.session.list_tools()).tools}
        assert CORE_TOOLS | START_TOOLS | {"network_claim_ready", "network_export", "network_copy"} <= names, names
        assert TOOLSETS_TOOL not in names
    async with connect(binary, tmp_path, "--toolsets", "core") as server:
        assert {t.name for t in (await server.session.list_tools()).tools} == CORE_TOOLS


LISTINGS = [
    pytest.param((), DEFAULT_LISTING, id="small-start"),
    pytest.param(("--toolsets", "core"), CORE_TOOLS, id="toolsets-core"),
]


@pytest.mark.parametrize("args,expected", LISTINGS)
@run_async
async def test_list_tools_schemas_and_annotations(binary, tmp_path, args, expected):
    async with connect(binary, tmp_path, *args) as server:
        listed = await server.session.list_tools()
        tools = {t.name: t for t in listed.tools}
        assert len(tools) == len(listed.tools), "duplicate tool names"
        assert set(tools) == expected, f"missing: {expected - set(tools)}, unexpected: {set(tools) - expected}"
        assert listed.next_cursor is None

        for name in sorted(expected):
            tool = tools[name]
            assert tool.description and len(tool.description) > 40, name
            assert tool.title, name

            for kind, schema in (("inputSchema", tool.input_schema), ("outputSchema", tool.output_schema)):
                assert isinstance(schema, dict), f"{name}.{kind} missing"
                assert schema.get("type") == "object", f"{name}.{kind} top-level type is {schema.get('type')!r}"
                Draft202012Validator.check_schema(schema)
            # Some model APIs reject an input schema with a top-level combinator.
            for combinator in ("oneOf", "anyOf", "allOf"):
                assert combinator not in tool.input_schema, f"{name}.inputSchema has a top-level {combinator}"

            required = set(tool.input_schema.get("required", []))
            assert required == EXPECTED_REQUIRED[name], f"{name} required = {required}"
            assert required <= set(tool.input_schema.get("properties", {})), name
            assert requires_status(tool.output_schema), f"{name} outputSchema must require status"

            ann = tool.annotations
            assert ann is not None, f"{name} has no annotations"
            assert tool.title, f"{name} title empty"
            hints = (ann.read_only_hint, ann.destructive_hint, ann.idempotent_hint)
            assert hints == EXPECTED_HINTS[name], f"{name} (readOnly, destructive, idempotent) = {hints}"
            assert ann.open_world_hint is False, f"{name} openWorldHint = {ann.open_world_hint}"


@pytest.mark.parametrize("args", [pytest.param((), id="small-start"), pytest.param(ALL_TOOLSETS, id="all-toolsets")])
@run_async
async def test_every_listed_tool_is_well_formed(binary, tmp_path, args):
    """The same structural rules for every tool the server lists, not only the core six:
    of the small start, and of every toolset."""
    async with connect(binary, tmp_path, *args) as server:
        listed = await server.session.list_tools()
        assert len(listed.tools) >= (len(DEFAULT_LISTING) if not args else 40), [t.name for t in listed.tools]
        for tool in listed.tools:
            name = tool.name
            assert name.startswith("network_"), name
            assert tool.description and tool.title, name
            assert tool.input_schema.get("type") == "object", name
            assert tool.output_schema is not None and tool.output_schema.get("type") == "object", name
            Draft202012Validator.check_schema(tool.input_schema)
            Draft202012Validator.check_schema(tool.output_schema)
            assert not {"oneOf", "anyOf", "allOf"} & set(tool.input_schema), name
            published = UNPUBLISHED_PARAMETERS & set(tool.input_schema.get("properties", {}))
            assert not published, f"{name} publishes {published}"
            ann = tool.annotations
            assert ann is not None and tool.title, name
            assert ann.open_world_hint is False, name
            assert ann.read_only_hint is not None, name
            if ann.read_only_hint:
                # MCP: the other hints are meaningful only when readOnlyHint is false.
                assert ann.destructive_hint is None and ann.idempotent_hint is None, name
            else:
                assert None not in (ann.destructive_hint, ann.idempotent_hint), name


# --- the seed example ------------------------------------------------------------------


@run_async
async def test_seed_example(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        edges = await seed(server)

        got = await server.neighbors("module_deps", "agents")
        assert got == {
            "status": "success",
            "node_id": "agents",
            "neighbors": ["logging", "cli"],
            "count": 2,
            "truncated": False,
            "direction": "both",
        }

        out = await server.neighbors("module_deps", "agents", direction="out")
        assert (out["neighbors"], out["count"], out["direction"]) == (["logging"], 1, "out")
        into = await server.neighbors("module_deps", "agents", direction="in")
        assert (into["neighbors"], into["count"], into["direction"]) == (["cli"], 1, "in")

        isolated = await server.neighbors("module_deps", "networks")
        assert (isolated["neighbors"], isolated["count"]) == ([], 0)

        with_edges = await server.neighbors("module_deps", "agents", include_edges=True)
        assert with_edges["edges"] == [
            {
                "edge_id": edges["agents->logging"],
                "source": "agents",
                "target": "logging",
                "weight": 1.0,
                "attributes": {"relation": "depends_on"},
            },
            {
                "edge_id": edges["cli->agents"],
                "source": "cli",
                "target": "agents",
                "weight": 1.0,
                "attributes": {},
            },
        ]

        assert await server.networks() == {"module_deps": (4, 2)}


@run_async
async def test_create_network_twice_is_duplicate(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        first = await server.ok("network_create", {"network_name": "plan", "description": "the plan"})
        again = await server.ok("network_create", {"network_name": "plan"})
        assert first["status"] == "success"
        assert again["status"] == "duplicate"
        assert again["network_name"] == "plan" and again["message"]
        listed = await server.ok("network_list", {})
        assert listed["networks"] == [{"name": "plan", "description": "the plan", "node_count": 0, "edge_count": 0, "version": 1}]
        assert (listed["total"], listed["truncated"]) == (1, False)


@run_async
async def test_add_node_twice_is_duplicate_not_error(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        await server.ok("network_create", {"network_name": "module_deps"})
        args = {"network_name": "module_deps", "node_id": "networks", "data": "Core", "attributes": {"layer": 2}}
        first = await server.ok("network_add_node", args)
        assert first["status"] == "success" and first["node_id"] == "networks"
        second = await server.ok("network_add_node", {**args, "data": "changed"})
        assert second["status"] == "duplicate"
        assert second["node_id"] == "networks"
        assert isinstance(second["message"], str) and second["message"].strip()
        assert second["message"] != first["message"]
        assert await server.networks() == {"module_deps": (1, 0)}


@run_async
async def test_add_edge_is_not_idempotent(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        await seed(server)
        args = {"network_name": "module_deps", "source": "networks", "target": "logging", "weight": 2.5}
        a = await server.ok("network_add_edge", args)
        b = await server.ok("network_add_edge", args)
        assert a["edge_id"] != b["edge_id"]
        assert (a["weight"], b["weight"]) == (2.5, 2.5)

        got = await server.neighbors("module_deps", "networks", include_edges=True)
        assert (got["neighbors"], got["count"]) == (["logging"], 1), "parallel edges must give one neighbor"
        assert [(e["edge_id"], e["source"], e["target"], e["weight"]) for e in got["edges"]] == [
            (a["edge_id"], "networks", "logging", 2.5),
            (b["edge_id"], "networks", "logging", 2.5),
        ]
        assert await server.networks() == {"module_deps": (4, 4)}


@run_async
async def test_neighbors_both_ways_are_deduplicated(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        await server.ok("network_create", {"network_name": "g"})
        for node in ("a", "b", "c"):
            await server.ok("network_add_node", {"network_name": "g", "node_id": node})
        for source, target in (("b", "a"), ("b", "c"), ("a", "b"), ("c", "b"), ("b", "a")):
            await server.ok("network_add_edge", {"network_name": "g", "source": source, "target": target})

        both = await server.neighbors("g", "b")
        assert (both["neighbors"], both["count"]) == (["a", "c"], 2)
        out = await server.neighbors("g", "b", direction="out")
        assert (out["neighbors"], out["count"]) == (["a", "c"], 2)
        into = await server.neighbors("g", "b", direction="in")
        assert (into["neighbors"], into["count"]) == (["a", "c"], 2)
        with_edges = await server.neighbors("g", "b", include_edges=True)
        assert len(with_edges["edges"]) == 5
        assert with_edges["count"] == 2


# --- errors ----------------------------------------------------------------------------

ERROR_CASES = [
    pytest.param(
        "network_add_node",
        {"network_name": "nope", "node_id": "x"},
        "network_not_found",
        id="unknown-network",
    ),
    pytest.param(
        "network_get_neighbors",
        {"network_name": "nope", "node_id": "agents"},
        "network_not_found",
        id="unknown-network-read",
    ),
    pytest.param(
        "network_add_edge",
        {"network_name": "module_deps", "source": "agents", "target": "ghost"},
        "node_not_found",
        id="unknown-node",
    ),
    pytest.param(
        "network_get_neighbors",
        {"network_name": "module_deps", "node_id": "ghost"},
        "node_not_found",
        id="unknown-node-read",
    ),
    pytest.param(
        "network_add_node",
        {"network_name": "module_deps", "node_id": ""},
        "invalid_id",
        id="empty-id",
    ),
    pytest.param(
        "network_add_node",
        {"network_name": "module_deps", "node_id": "n1", "attributes": {"a": {"b": 1}}},
        "invalid_attributes",
        id="nested-attributes",
    ),
    pytest.param(
        "network_add_edge",
        {"network_name": "module_deps", "source": "agents", "target": "logging", "weight": "heavy"},
        "invalid_arguments",
        id="non-numeric-weight",
    ),
    pytest.param(
        "network_add_edge",
        {"network_name": "module_deps", "source": "agents"},
        "invalid_arguments",
        id="missing-argument",
    ),
    pytest.param(
        "network_create",
        {"network_name": "x", "colour": "red"},
        "invalid_arguments",
        id="unknown-argument",
    ),
]


@pytest.mark.parametrize("tool,arguments,code", ERROR_CASES)
@run_async
async def test_errors_are_tool_results_and_change_nothing(binary, tmp_path, tool, arguments, code):
    async with connect(binary, tmp_path) as server:
        await seed(server)
        networks_before = await server.networks()
        agents_before = await server.neighbors("module_deps", "agents", include_edges=True)

        error = await server.err(tool, arguments, code)

        assert await server.networks() == networks_before
        assert await server.neighbors("module_deps", "agents", include_edges=True) == agents_before
        if code == "invalid_arguments" and "source" in arguments and "target" not in arguments:
            assert "target" in error["error"], f"message should name the missing field: {error}"
        if code == "network_not_found":
            assert "nope" in error["error"] and "module_deps" in error["error"], error
        if code == "node_not_found":
            assert "ghost" in error["error"], error


@run_async
async def test_error_objects_conform_to_output_schema(binary, tmp_path):
    """MCP: when a tool declares an outputSchema, its structuredContent MUST conform
    to it. The SDK checks only successful results, but other clients (the MCP
    Inspector) check error results too, so each error object must fit the schema."""
    # network_delete is not in the small start: list the core toolset.
    async with connect(binary, tmp_path, "--toolsets", "core") as server:
        await seed(server)
        listed = await server.session.list_tools()
        schemas = {t.name: t.output_schema for t in listed.tools}
        failures = [
            ("network_get_neighbors", {"network_name": "nope", "node_id": "a"}, "network_not_found"),
            ("network_get_neighbors", {"network_name": "module_deps", "node_id": "ghost"}, "node_not_found"),
            ("network_add_node", {"network_name": "module_deps", "node_id": ""}, "invalid_id"),
            ("network_add_edge", {"network_name": "module_deps", "source": "a"}, "invalid_arguments"),
            ("network_create", {"network_name": ""}, "invalid_id"),
            ("network_list", {"limit": 0}, "invalid_value"),
            ("network_delete", {"network_name": "module_deps"}, "confirmation_required"),
        ]
        mismatches = []
        for tool, arguments, code in failures:
            error = await server.err(tool, arguments, code)
            validator = Draft202012Validator(schemas[tool])
            problems = sorted(f"{e.json_path}: {e.message}" for e in validator.iter_errors(error))
            if problems:
                mismatches.append(f"{tool} ({code}): {'; '.join(problems)}")
        assert not mismatches, "error objects that violate the tool's outputSchema:\n" + "\n".join(mismatches)


@run_async
async def test_unknown_tool_is_a_protocol_error(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        with pytest.raises(MCPError) as caught:
            await server.call("network_frobnicate", {})
        assert "network_frobnicate" in str(caught.value)
        # The session is still usable afterwards.
        assert await server.networks() == {}


@run_async
async def test_delete_needs_confirmation(binary, tmp_path):
    async with connect(binary, tmp_path) as server:
        await seed(server)
        error = await server.err("network_delete", {"network_name": "module_deps"}, "confirmation_required")
        assert "confirm" in error["error"]
        error = await server.err(
            "network_delete", {"network_name": "module_deps", "confirm": False}, "confirmation_required"
        )
        assert await server.networks() == {"module_deps": (4, 2)}

        deleted = await server.ok("network_delete", {"network_name": "module_deps", "confirm": True})
        assert {k: deleted[k] for k in ("status", "network_name", "deleted", "node_count", "edge_count")} == {
            "status": "success",
            "network_name": "module_deps",
            "deleted": True,
            "node_count": 4,
            "edge_count": 2,
        }
        assert deleted["message"]
        assert await server.networks() == {}
        await server.err(
            "network_get_neighbors", {"network_name": "module_deps", "node_id": "agents"}, "network_not_found"
        )

        again = await server.ok("network_delete", {"network_name": "module_deps", "confirm": True})
        assert (again["status"], again["deleted"], again["node_count"], again["edge_count"]) == ("success", False, 0, 0)


# --- logging and the wire --------------------------------------------------------------


@run_async
async def test_trace_logging_stays_on_stderr(binary, tmp_path):
    async with connect(binary, tmp_path, "--log-level", "trace") as server:
        await seed(server)
        got = await server.neighbors("module_deps", "agents")
        assert got["neighbors"] == ["logging", "cli"]
        await server.err("network_add_node", {"network_name": "nope", "node_id": "x"}, "network_not_found")
        stderr = server.stderr()
    assert " TRACE " in stderr, "no TRACE lines on stderr with --log-level trace"
    assert "network_not_found" in stderr, "a failed call should be logged with its code"
    # connect() has already failed the test if any stdout line was not JSON-RPC.


class _LineReader:
    """Reads stdout lines straight from the pipe with select(): a buffered readline()
    could swallow a second line (a notification written with a reply) into Python's
    buffer, where select() no longer sees it."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.fd = proc.stdout.fileno()
        self.buffer = b""

    def line(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError("no reply from the server within the timeout")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                chunk = os.read(self.fd, 65536)
                assert chunk, f"server closed stdout early (exit {self.proc.poll()})"
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode() + "\n"

    def leftover(self) -> str:
        """What was read but not yet returned (it precedes anything still in the pipe)."""
        rest, self.buffer = self.buffer, b""
        return rest.decode()


def test_raw_jsonrpc_stdout_is_only_jsonrpc(binary, tmp_path):
    stderr_path = tmp_path / "raw.stderr"
    with open(stderr_path, "w") as errlog:
        proc = subprocess.Popen(
            [binary, "--log-level", "trace"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
            text=True,
            bufsize=1,
        )
        lines: list[str] = []
        reader = _LineReader(proc)
        try:

            def send(message) -> None:
                proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
                proc.stdin.flush()

            def read_reply() -> None:
                """Reads up to and including the next reply; server notifications (e.g.
                resources/list_changed after network_create) may come first."""
                while True:
                    line = reader.line()
                    lines.append(line)
                    try:
                        if "id" in json.loads(line):
                            return
                    except json.JSONDecodeError:
                        return  # the checks below report it

            send(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "raw-interop", "version": "0"},
                    },
                }
            )
            read_reply()
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
            read_reply()
            send(
                {
                    "jsonrpc": "2.0",
                    "id": 3,
                    "method": "tools/call",
                    "params": {"name": "network_create", "arguments": {"network_name": "raw"}},
                }
            )
            read_reply()
            send(
                {
                    "jsonrpc": "2.0",
                    "id": "four",
                    "method": "tools/call",
                    "params": {"name": "network_add_edge", "arguments": {"network_name": "raw", "source": "a"}},
                }
            )
            read_reply()
            send("{this is not json")
            read_reply()
            leftover = reader.leftover()
            rest, _ = proc.communicate(timeout=10)  # closes stdin: the server must then exit
            lines.extend((leftover + rest).splitlines(keepends=True))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    assert proc.returncode == 0, f"exit code {proc.returncode} after stdin closed"
    messages = []
    for line in lines:
        assert line.endswith("\n"), f"unterminated stdout line: {line!r}"
        if not line.strip():
            continue
        message = json.loads(line)  # every stdout line must be JSON...
        assert message.get("jsonrpc") == "2.0", f"not JSON-RPC 2.0: {line!r}"  # ...and JSON-RPC 2.0
        messages.append(message)
    # Server notifications (e.g. notifications/resources/list_changed after network_create)
    # may come between the replies; count the replies only.
    replies = [m for m in messages if "id" in m]
    by_id = {json.dumps(m.get("id")): m for m in replies}
    assert len(replies) == 5, f"expected exactly 5 replies (none to the notification), got {replies}"

    init = by_id["1"]["result"]
    assert init["protocolVersion"] == "2025-06-18"
    assert init["serverInfo"]["name"] == "networks-mcp"
    assert "tools" in init["capabilities"]

    assert init["capabilities"]["tools"].get("listChanged") is True, init["capabilities"]
    names = {t["name"] for t in by_id["2"]["result"]["tools"]}
    assert names == DEFAULT_LISTING, names

    created = by_id["3"]["result"]
    assert created.get("isError") in (None, False)
    assert created["structuredContent"]["status"] == "success"
    assert json.loads(created["content"][0]["text"]) == created["structuredContent"]

    failed = by_id['"four"']["result"]
    assert failed["isError"] is True
    assert failed["structuredContent"]["code"] == "invalid_arguments"
    assert "target" in failed["structuredContent"]["error"]

    garbage = by_id["null"]
    assert garbage["error"]["code"] == -32700

    stderr = stderr_path.read_text(errors="replace")
    assert " TRACE " in stderr and " INFO " in stderr, "logs must go to stderr"


# --- the SDK's default high-level client ------------------------------------------------


@run_async
async def test_default_high_level_client(binary, tmp_path):
    """`mcp.Client` in its default mode ("auto"): probes server/discover and, on a
    server that answers it, speaks the 2026-07-28 revision instead of the
    initialize handshake. This is what a new Python SDK user gets by default."""
    params = StdioServerParameters(command=binary, args=["--log-level", "warn"], env={"NO_COLOR": "1"})
    async with Client(params) as client:
        listed = await client.list_tools()
        assert {t.name for t in listed.tools} == DEFAULT_LISTING
        created = await client.call_tool("network_create", {"network_name": "modern"})
        assert created.is_error is not True
        assert created.structured_content == {
            "status": "success",
            "network_name": "modern",
            "message": "Network 'modern' created",
            "version": 0,
        }
        missing = await client.call_tool("network_get_neighbors", {"network_name": "modern", "node_id": "x"})
        assert missing.is_error is True
        assert missing.structured_content["code"] == "node_not_found"


# --- the small start and network_toolsets ------------------------------------------------


@run_async
async def test_toolsets_turn_on_work_and_announce_the_new_list(binary, tmp_path):
    """Started without --toolsets, the server lists the small start; network_toolsets
    turns the `work` toolset on for the session, which the SDK hears as
    notifications/tools/list_changed (through its message handler, `server.inbox`), and
    the next tools/list has the work tools, which then run a plan."""
    async with connect(binary, tmp_path) as server:
        assert server.init.capabilities.tools.list_changed is True, server.init.capabilities.tools
        before = {t.name for t in (await server.session.list_tools()).tools}
        assert before == DEFAULT_LISTING, before
        assert TOOLSETS_TOOL in before and "network_claim_ready" not in before

        # Asking changes nothing and announces nothing.
        asked = await server.ok(TOOLSETS_TOOL, {})
        assert asked["changed"] is False, asked
        assert asked["listed_tool_count"] == len(DEFAULT_LISTING), asked
        assert [t["name"] for t in asked["toolsets"]] == TOOLSET_NAMES, asked
        assert not any(t["on"] for t in asked["toolsets"]), asked

        on = await server.ok(TOOLSETS_TOOL, {"enable": ["work"]})
        assert on["status"] == "success" and on["changed"] is True, on
        assert isinstance(on["note"], str) and on["note"], on
        sets = {t["name"]: t for t in on["toolsets"]}
        assert set(sets) == set(TOOLSET_NAMES), on
        assert {name for name, t in sets.items() if t["on"]} == {"work"}, on
        assert "network_claim_ready" in sets["work"]["tools"], sets["work"]
        for t in sets.values():
            assert isinstance(t["about"], str) and t["about"] and t["tools"], t
        await server.inbox.wait_for(TOOLS_LIST_CHANGED, timeout=10)
        assert len(server.inbox.of(TOOLS_LIST_CHANGED)) == 1, server.inbox.notifications

        after = {t.name for t in (await server.session.list_tools()).tools}
        assert before < after, after
        assert "network_claim_ready" in after and set(sets["work"]["tools"]) <= after, after
        assert len(after) == on["listed_tool_count"], (len(after), on)
        assert after - before == set(sets["work"]["tools"]) - START_TOOLS, after - before

        # Turning on what is on changes nothing: no second announcement.
        again = await server.ok(TOOLSETS_TOOL, {"enable": ["work"]})
        assert again["changed"] is False, again
        await anyio.sleep(0.3)
        assert len(server.inbox.of(TOOLS_LIST_CHANGED)) == 1, server.inbox.notifications

        # A two-node plan: test needs build, so build is the one task ready to claim.
        await server.ok("network_create", {"network_name": "plan"})
        for node in ("build", "test"):
            await server.ok("network_add_node", {"network_name": "plan", "node_id": node})
        await server.ok("network_add_edge", {"network_name": "plan", "source": "test", "target": "build"})
        claimed = await server.ok("network_claim_ready", {"network_name": "plan", "worker": "w1"})
        assert [t["node_id"] for t in claimed["claimed"]] == ["build"], claimed


@run_async
async def test_toolsets_off_again_and_unlisted_tools_still_run(binary, tmp_path):
    """Every tool is callable by name, listed or not; disabling a toolset lists the
    small start again and is announced too."""
    async with connect(binary, tmp_path) as server:
        await server.ok("network_create", {"network_name": "g"})
        # network_add_nodes (edit) and network_export (interchange) are not listed, but run.
        await server.ok("network_add_nodes", {"network_name": "g", "nodes": [{"node_id": "a"}, {"node_id": "b"}]})
        out = await server.ok("network_export", {"network_name": "g", "format": "node_link_json"})
        assert {n["id"] for n in json.loads(out["content"])["nodes"]} == {"a", "b"}, out

        on = await server.ok(TOOLSETS_TOOL, {"enable": ["edit", "interchange"]})
        assert on["changed"] is True, on
        await server.inbox.wait_for(TOOLS_LIST_CHANGED, timeout=10)
        names = {t.name for t in (await server.session.list_tools()).tools}
        assert {"network_add_nodes", "network_export", "network_import"} <= names, names

        off = await server.ok(TOOLSETS_TOOL, {"disable": ["edit", "interchange"]})
        assert off["changed"] is True and not any(t["on"] for t in off["toolsets"]), off
        await server.inbox.wait_for(TOOLS_LIST_CHANGED, lambda n: len(server.inbox.of(TOOLS_LIST_CHANGED)) >= 2)
        names = {t.name for t in (await server.session.list_tools()).tools}
        assert names == DEFAULT_LISTING, names
        assert off["listed_tool_count"] == len(DEFAULT_LISTING), off

        await server.err(TOOLSETS_TOOL, {"enable": ["nope"]}, "invalid_arguments")


@run_async
async def test_toolsets_are_per_session_over_http(binary, tmp_path):
    """Over streamable HTTP each session has its own list: one session turning `work`
    on is told of it, and another session's list and inbox stay as they were."""
    token = "interop-toolsets"
    with http_server(binary, tmp_path, token) as (url, stderr_path):
        async with connect_http(url, stderr_path, token) as alice, connect_http(url, stderr_path, token) as bob:
            assert alice.init.capabilities.tools.list_changed is True, alice.init.capabilities.tools
            on = await alice.ok(TOOLSETS_TOOL, {"enable": ["work"]})
            assert on["changed"] is True, on
            await alice.inbox.wait_for(TOOLS_LIST_CHANGED, timeout=10)
            assert "network_claim_ready" in {t.name for t in (await alice.session.list_tools()).tools}
            await anyio.sleep(0.3)
            assert {t.name for t in (await bob.session.list_tools()).tools} == DEFAULT_LISTING
            assert not bob.inbox.of(TOOLS_LIST_CHANGED), bob.inbox.notifications
