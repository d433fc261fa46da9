"""The server against the MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`).

Needs Node 22 and the Inspector, which `.ci/interop.sh` installs and names in
INTEROP_NODE (the node binary) and INTEROP_INSPECTOR (the Inspector's launcher
script). Without them these tests are skipped, unless INTEROP_REQUIRE_INSPECTOR=1
(the harness sets it), when they fail instead.

Each Inspector run spawns its own server, so every call starts from an empty registry.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

from test_python_sdk import CORE_TOOLS, DEFAULT_LISTING, EXPECTED_HINTS

# The Inspector CLI's exit codes (core/cli/error-handler.ts, EXIT_CODES).
EXIT_OK = 0
EXIT_TOOL_ERROR = 5
EXIT_SCHEMA_UNPORTABLE = 6


@pytest.fixture(scope="module")
def inspector():
    node = os.environ.get("INTEROP_NODE")
    launcher = os.environ.get("INTEROP_INSPECTOR")
    if not (node and launcher and pathlib.Path(node).is_file() and pathlib.Path(launcher).is_file()):
        message = f"Inspector not installed (INTEROP_NODE={node!r}, INTEROP_INSPECTOR={launcher!r}); run .ci/interop.sh"
        if os.environ.get("INTEROP_REQUIRE_INSPECTOR") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return node, launcher


ALL_TOOLSETS = "NETWORKS_MCP_TOOLSETS=core,edit,analysis,interchange,work,algorithms"


def run_cli(inspector, binary, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    node, launcher = inspector
    env = dict(os.environ)
    env["PATH"] = f"{pathlib.Path(node).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [node, launcher, "--cli", binary, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def envelope(proc: subprocess.CompletedProcess) -> dict:
    """The single JSON object that `--format json` prints on stdout."""
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(
            f"Inspector stdout is not one JSON object ({e}); exit {proc.returncode}\n"
            f"stdout: {proc.stdout[:2000]}\nstderr: {proc.stderr[-2000:]}"
        ) from None


def describe(proc: subprocess.CompletedProcess) -> str:
    return f"exit {proc.returncode}\nstdout: {proc.stdout[:3000]}\nstderr: {proc.stderr[-3000:]}"


def test_version_is_2x(inspector):
    node, launcher = inspector
    proc = subprocess.run([node, launcher, "--cli", "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.strip().split(".")[0].isdigit() and int(proc.stdout.strip().split(".")[0]) >= 2, proc.stdout


@pytest.mark.parametrize(
    "env,expected",
    [
        # Without --toolsets: the small start and network_toolsets.
        pytest.param((), DEFAULT_LISTING, id="small-start"),
        pytest.param(("-e", "NETWORKS_MCP_TOOLSETS=core"), CORE_TOOLS, id="toolsets-core"),
    ],
)
def test_tools_list(inspector, binary, env, expected):
    proc = run_cli(inspector, *env, binary, "--method", "tools/list", "--format", "json", "-q")
    assert proc.returncode == EXIT_OK, describe(proc)
    tools = {t["name"]: t for t in envelope(proc)["result"]["tools"]}
    assert set(tools) == expected, f"missing: {expected - set(tools)}, unexpected: {set(tools) - expected}"
    for name in expected:
        tool = tools[name]
        assert tool["inputSchema"]["type"] == "object", name
        assert tool["outputSchema"]["type"] == "object", name
        ann = tool["annotations"]
        hints = (ann.get("readOnlyHint"), ann.get("destructiveHint"), ann.get("idempotentHint"))
        assert hints == EXPECTED_HINTS[name], f"{name}: {hints}"
        assert ann["openWorldHint"] is False and tool["title"], name


@pytest.mark.parametrize(
    "env,at_least",
    [
        # Every toolset, the opt-in work toolset too.
        pytest.param(("-e", ALL_TOOLSETS), 32, id="all-toolsets"),
        # The small start, with network_toolsets (listed only without --toolsets).
        pytest.param((), len(DEFAULT_LISTING), id="small-start"),
    ],
)
def test_strict_schema_lint_has_no_errors(inspector, binary, env, at_least):
    """`--strict` lints every input and output schema for portability and exits 6
    on any error-severity finding (a bare boolean schema). Warnings (type unions
    such as ["string", "null"], an untyped `data` schema) are allowed; a `$ref`
    outside the document is not."""
    proc = run_cli(inspector, *env, binary, "--method", "tools/list", "--strict", "--format", "json", "-q")
    assert len(envelope(proc)["result"]["tools"]) >= at_least, describe(proc)
    findings = [
        {**f, "tool": entry["toolName"]}
        for entry in envelope(proc).get("schemaFindings", [])
        for f in entry["findings"]
    ]
    errors = [f for f in findings if f["severity"] == "error"]
    assert proc.returncode != EXIT_SCHEMA_UNPORTABLE and not errors, f"schema portability errors: {errors}"
    assert proc.returncode == EXIT_OK, describe(proc)
    remote = [f for f in findings if f["rule"] == "remote-ref"]
    assert not remote, f"schemas reference outside themselves: {remote}"


def test_tools_call_create(inspector, binary):
    proc = run_cli(
        inspector,
        binary,
        "--method",
        "tools/call",
        "--tool-name",
        "network_create",
        "--tool-arg",
        "network_name=x",
        "--format",
        "json",
        "-q",
    )
    assert proc.returncode == EXIT_OK, describe(proc)
    result = envelope(proc)["result"]
    assert result.get("isError") is False
    assert result["structuredContent"] == {"status": "success", "network_name": "x", "message": "Network 'x' created", "version": 0}
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_tools_call_with_coerced_argument(inspector, binary):
    """`--tool-arg limit=5` is a string on the command line; the Inspector converts it
    to the integer the inputSchema asks for."""
    proc = run_cli(
        inspector,
        binary,
        "--method",
        "tools/call",
        "--tool-name",
        "network_list",
        "--tool-arg",
        "limit=5",
        "--format",
        "json",
        "-q",
    )
    assert proc.returncode == EXIT_OK, describe(proc)
    assert envelope(proc)["result"]["structuredContent"] == {
        "status": "success",
        "networks": [],
        "total": 0,
        "truncated": False,
    }


def test_tool_error_reaches_the_user(inspector, binary):
    """A failing call must reach the Inspector user as the tool's own error (exit 5,
    the result with isError and our error object), not as a client-side failure."""
    proc = run_cli(
        inspector,
        binary,
        "--method",
        "tools/call",
        "--tool-name",
        "network_get_neighbors",
        "--tool-arg",
        "network_name=nope",
        "--tool-arg",
        "node_id=a",
        "--format",
        "json",
    )
    assert proc.returncode == EXIT_TOOL_ERROR, describe(proc)
    result = envelope(proc)["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["status"] == "error"
    assert result["structuredContent"]["code"] == "network_not_found"


def test_modern_protocol_era(inspector, binary):
    """`--protocol-era auto` negotiates the 2026-07-28 revision when the server offers
    it (this server does, via rmcp)."""
    proc = run_cli(inspector, binary, "--method", "tools/list", "--protocol-era", "auto", "--format", "json", "-q")
    assert proc.returncode == EXIT_OK, describe(proc)
    assert {t["name"] for t in envelope(proc)["result"]["tools"]} == DEFAULT_LISTING


def test_tools_call_of_a_task_tool_answers_directly(inspector, binary, tmp_path):
    """The Inspector declares the tasks extension but reads a `tools/call` reply as
    a result; a call that may run as a task but ends at once (every export of a
    small network) is answered directly, so it gets structuredContent and the
    document as an embedded resource."""
    plan = tmp_path / "plan.csv"
    plan.write_text("source,target,weight\nship,tests,1\ntests,api,2\n")
    # The Inspector calls only a tool the server lists: list the interchange toolset.
    proc = run_cli(
        inspector,
        "-e",
        "NETWORKS_MCP_TOOLSETS=core,edit,analysis,interchange",
        binary,
        f"--load=plan={plan}",
        "--method",
        "tools/call",
        "--tool-name",
        "network_export",
        "--tool-arg",
        "network_name=plan",
        "--tool-arg",
        "format=dot",
        "--format",
        "json",
        "-q",
    )
    assert proc.returncode == EXIT_OK, describe(proc)
    result = envelope(proc)["result"]
    assert result.get("isError") is False, describe(proc)
    sc = result["structuredContent"]
    assert sc["format"] == "dot" and sc["node_count"] == 3 and sc["edge_count"] == 2, sc
    [resource] = [c["resource"] for c in result["content"] if c["type"] == "resource"]
    assert resource["uri"] == sc["resource_uri"] and resource["mimeType"] == "text/vnd.graphviz", resource
    assert resource["text"].startswith("// networks-mcp export: A -> B means A depends on B\ndigraph"), resource["text"][:200]
