"""File paths inside the client's MCP roots, with the official Python SDK as the
client that declares them: on stdio, `network_import` reads a `path` inside a root
and `network_export` writes one; a path outside every root is refused, naming them.
No `--data-root` is given, so the roots alone allow the files."""

from __future__ import annotations


from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from conftest import run_async


@run_async
async def test_the_clients_roots_allow_files_inside_them(binary, tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (root / "plan.csv").write_text("source,target\ntest,build\nship,test\n")
    (outside / "plan.csv").write_text("source,target\na,b\n")
    asked = []

    async def list_roots(context):
        asked.append(True)
        return types.ListRootsResult(roots=[types.Root(uri=root.as_uri(), name="project")])

    params = StdioServerParameters(command=binary, args=[], env={"NO_COLOR": "1"})
    with open(tmp_path / "server.stderr", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, list_roots_callback=list_roots, read_timeout_seconds=30) as session:
                await session.initialize()
                result = await session.call_tool(
                    "network_import", {"network_name": "plan", "format": "edge_list_csv", "path": str(root / "plan.csv")}
                )
                assert result.is_error is not True, result
                assert result.structured_content["node_count"] == 3, result.structured_content
                assert asked, "the server asked the client for its roots"

                refused = await session.call_tool(
                    "network_import", {"network_name": "other", "format": "edge_list_csv", "path": str(outside / "plan.csv")}
                )
                assert refused.is_error is True, refused
                message = refused.structured_content["error"]
                assert str(root) in message, message

                written = await session.call_tool(
                    "network_export", {"network_name": "plan", "format": "mermaid", "path": "plan.mmd"}
                )
                assert written.is_error is not True, written
                text = (root / "plan.mmd").read_text()
                assert written.structured_content["document_bytes"] == len(text.encode()), written.structured_content
                assert "flowchart" in text, text
                assert not any(getattr(block, "resource", None) for block in written.content), "no document in the reply"
