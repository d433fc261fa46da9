"""Resources, subscriptions, prompts and logging, through the official MCP Python SDK,
over stdio and over streamable HTTP (with a bearer token).

- resources/list: one `network://{name}` per network (names percent-encoded);
  resources/read of it is a JSON summary; resources/templates/list has
  `network://{name}/export/{format}`, whose documents NetworkX reads.
- resources/subscribe (2025 protocol, `ClientSession`): a change to a subscribed network
  sends notifications/resources/updated for its URI; creating or deleting a network
  sends notifications/resources/list_changed. Over HTTP, a change made by another
  client session reaches the subscriber.
- subscriptions/listen (2026-07-28, the SDK's default `mcp.Client`): the same events.
- prompts/list and prompts/get for plan_dependencies and impact_analysis: the
  messages name tools the server really has.
- logging/setLevel: a failed call is logged to the client at warning.
"""

from __future__ import annotations

import json
import re
import secrets
from contextlib import asynccontextmanager

import anyio
import networkx as nx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.shared.exceptions import MCPError

from conftest import INTERCHANGE, build_network, connect, connect_http, http_server, run_async

# subscribe_resource and set_logging_level are deprecated in the SDK for the 2026-07-28
# revision; they are how 2025-protocol clients (most of them today) do it.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

TOKEN = "interop-" + secrets.token_hex(16)
TRANSPORTS = ["stdio", "http"]

UPDATED = "notifications/resources/updated"
LIST_CHANGED = "notifications/resources/list_changed"
LOG = "notifications/message"


@asynccontextmanager
async def session(transport: str, binary: str, tmp_path, *args: str):
    if transport == "stdio":
        async with connect(binary, tmp_path, *args) as server:
            yield server
    else:
        with http_server(binary, tmp_path, TOKEN, *args) as (url, stderr_path):
            async with connect_http(url, stderr_path, TOKEN) as server:
                yield server


async def seed(server) -> None:
    await build_network(
        server,
        "plan",
        [{"node_id": "design", "attributes": {"status": "done"}}, {"node_id": "build"}, {"node_id": "ship"}],
        [{"source": "build", "target": "design", "weight": 2.0}, {"source": "ship", "target": "build"}],
    )
    await build_network(server, "a/b c ✓", [{"node_id": "x"}], [])


async def network_resources(server) -> list:
    """The network:// resources (the server may list others, e.g. its ui:// view)."""
    listed = await server.session.list_resources()
    return [r for r in listed.resources if str(r.uri).startswith("network://")]


def text_of(result) -> tuple[str, str | None]:
    """The one text content of a resources/read result, and its mime type."""
    assert len(result.contents) == 1, result.contents
    content = result.contents[0]
    assert hasattr(content, "text"), f"expected text contents: {content!r}"
    return content.text, content.mime_type


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_capabilities(binary, tmp_path, transport):
    async with session(transport, binary, tmp_path) as server:
        caps = server.init.capabilities
        assert caps.resources is not None, f"no resources capability: {caps}"
        assert caps.resources.subscribe is True and caps.resources.list_changed is True, caps.resources
        assert caps.prompts is not None, f"no prompts capability: {caps}"
        assert caps.logging is not None, f"no logging capability: {caps}"


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_list_and_read_network_resources(binary, tmp_path, transport):
    async with session(transport, binary, tmp_path) as server:
        assert await network_resources(server) == []
        await seed(server)
        by_name = {r.name: r for r in await network_resources(server)}
        assert set(by_name) == {"plan", "a/b c ✓"}, [(r.name, str(r.uri)) for r in by_name.values()]
        assert str(by_name["plan"].uri) == "network://plan"
        odd = str(by_name["a/b c ✓"].uri)
        assert odd.startswith("network://") and "/" not in odd[len("network://") :] and " " not in odd, odd

        for name, nodes, edges in (("plan", 3, 2), ("a/b c ✓", 1, 0)):
            resource = by_name[name]
            assert resource.mime_type == "application/json", resource
            text, mime = text_of(await server.session.read_resource(str(resource.uri)))
            assert mime == "application/json"
            summary = json.loads(text)
            assert (summary.get("network_name"), summary.get("node_count"), summary.get("edge_count")) == (name, nodes, edges), (
                summary
            )

        with pytest.raises(MCPError):
            await server.session.read_resource("network://no_such_network")


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_export_resources_read_in_networkx(binary, tmp_path, transport):
    async with session(transport, binary, tmp_path) as server:
        await seed(server)
        templates = await server.session.list_resource_templates()
        uri_templates = {t.uri_template for t in templates.resource_templates}
        assert "network://{name}/export/{format}" in uri_templates, uri_templates

        text, _ = text_of(await server.session.read_resource("network://plan/export/node_link_json"))
        g = nx.node_link_graph(json.loads(text), edges="edges")
        assert set(g.nodes) == {"design", "build", "ship"}
        assert sorted((u, v, d["weight"]) for u, v, d in g.edges(data=True)) == [
            ("build", "design", 2.0),
            ("ship", "build", 1.0),
        ]
        assert g.nodes["design"]["status"] == "done"

        text, _ = text_of(await server.session.read_resource("network://plan/export/graphml"))
        path = tmp_path / "plan.graphml"
        path.write_text(text, encoding="utf-8")
        g = nx.read_graphml(path, force_multigraph=True)
        assert set(g.nodes) == {"design", "build", "ship"} and g.number_of_edges() == 2

        summary = json.loads(text_of(await server.session.read_resource("network://plan"))[0])
        exports = summary.get("exports", {})
        for fmt in ("node_link_json", "graphml", "dot", "mermaid", "cypher", "edge_list_csv"):
            uri = exports.get(fmt, f"network://plan/export/{fmt}")
            text, mime = text_of(await server.session.read_resource(uri))
            assert text.strip() and mime, (fmt, mime)


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_subscribe_and_list_changed(binary, tmp_path, transport):
    async with session(transport, binary, tmp_path) as server:
        # The server starts forwarding change notifications when it handles
        # notifications/initialized, which it may do after a request sent right behind it:
        # a network created by the very first call can go unannounced. One round trip first.
        await server.session.send_ping()
        await server.ok("network_create", {"network_name": "plan"})
        await server.inbox.wait_for(LIST_CHANGED)

        await server.session.subscribe_resource("network://plan")
        server.inbox.notifications.clear()
        await server.ok("network_add_node", {"network_name": "plan", "node_id": "design"})
        note = await server.inbox.wait_for(UPDATED, lambda n: str(n.params.uri) == "network://plan")
        assert str(note.params.uri) == "network://plan"

        # A change to another network is not reported as a change to this one.
        await server.ok("network_create", {"network_name": "other"})
        await server.inbox.wait_for(LIST_CHANGED)
        await server.ok("network_add_node", {"network_name": "other", "node_id": "x"})
        await anyio.sleep(0.5)
        assert all(str(n.params.uri) != "network://other" for n in server.inbox.of(UPDATED)), server.inbox.of(UPDATED)

        server.inbox.notifications.clear()
        await server.ok("network_delete", {"network_name": "other", "confirm": True})
        await server.inbox.wait_for(LIST_CHANGED)

        await server.session.unsubscribe_resource("network://plan")
        server.inbox.notifications.clear()
        await server.ok("network_add_node", {"network_name": "plan", "node_id": "build"})
        await anyio.sleep(0.5)
        assert not server.inbox.of(UPDATED), f"updates after unsubscribe: {server.inbox.of(UPDATED)}"


@run_async
async def test_http_subscriber_sees_changes_made_by_another_client(binary, tmp_path):
    """Every HTTP session shares one set of networks, so a change made through one
    session must reach a subscriber on another."""
    with http_server(binary, tmp_path, TOKEN) as (url, stderr_path):
        async with connect_http(url, stderr_path, TOKEN) as watcher, connect_http(url, stderr_path, TOKEN) as worker:
            await worker.ok("network_create", {"network_name": "shared"})
            await watcher.inbox.wait_for(LIST_CHANGED)
            await watcher.session.subscribe_resource("network://shared")
            await worker.ok("network_add_node", {"network_name": "shared", "node_id": "n1"})
            await watcher.inbox.wait_for(UPDATED, lambda n: str(n.params.uri) == "network://shared")


@run_async
async def test_modern_client_listen_gets_the_same_events(binary, tmp_path):
    """The SDK's default client speaks 2026-07-28 where the server offers it; there,
    change notifications come through subscriptions/listen."""
    params = StdioServerParameters(command=binary, args=["--log-level", "warn"], env={"NO_COLOR": "1"})
    async with Client(params) as client:
        await client.call_tool("network_create", {"network_name": "plan"})
        first = await client.list_resources()
        assert [str(r.uri) for r in first.resources if str(r.uri).startswith("network://")] == ["network://plan"]
        try:
            listening = client.listen(resources_list_changed=True, resource_subscriptions=["network://plan"])
            async with listening as sub:
                assert sub.honored.resources_list_changed is True, sub.honored
                assert sub.honored.resource_subscriptions == ["network://plan"], sub.honored

                async def next_event(kind, predicate=lambda e: True):
                    with anyio.fail_after(10):
                        async for event in sub:
                            if isinstance(event, kind) and predicate(event):
                                return event

                await client.call_tool("network_add_node", {"network_name": "plan", "node_id": "design"})
                await next_event(ResourceUpdated, lambda e: e.uri == "network://plan")
                await client.call_tool("network_create", {"network_name": "other"})
                await next_event(ResourcesListChanged)
        except Exception as e:  # name the protocol in the failure
            raise AssertionError(f"listen on protocol {client.protocol_version}: {e!r}") from e
        # The SDK's response cache must not hide the new network after the event.
        again = await client.list_resources()
        assert sorted(str(r.uri) for r in again.resources if str(r.uri).startswith("network://")) == [
            "network://other",
            "network://plan",
        ]


# --- prompts -------------------------------------------------------------------------------


def mentioned_tools(messages) -> set[str]:
    text = "\n".join(getattr(m.content, "text", "") for m in messages)
    return set(re.findall(r"\bnetwork_[a-z_]+\b", text)) - {"network_name"}


async def callable_after_lead(server, messages, tools: set[str]) -> set[str]:
    """The tools listed once the prompt's leading network_toolsets call (if any) is
    made: on the small start, a prompt first turns on the toolsets it needs."""
    text = "\n".join(getattr(m.content, "text", "") for m in messages)
    lead = re.match(r'First call network_toolsets with \{"enable": \[([^\]]*)\]\}', text)
    if not lead:
        return tools
    assert "network_toolsets" in tools, "a prompt leads with a tool the server does not list"
    enable = re.findall(r'"([a-z]+)"', lead.group(1))
    listing = await server.ok("network_toolsets", {})
    more = {t for s in listing["toolsets"] if s["name"] in enable for t in s["tools"]}
    return tools | more


@pytest.mark.parametrize(
    "args",
    [
        # Without --toolsets the session lists the small start: a prompt must still name
        # only tools the session is shown.
        pytest.param((), id="small-start"),
        pytest.param(INTERCHANGE, id="toolsets"),
    ],
)
@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_prompts(binary, tmp_path, transport, args):
    async with session(transport, binary, tmp_path, *args) as server:
        tools = {t.name for t in (await server.session.list_tools()).tools}
        prompts = {p.name: p for p in (await server.session.list_prompts()).prompts}
        assert {"plan_dependencies", "impact_analysis"} <= set(prompts), sorted(prompts)
        arguments = {name: {a.name: bool(a.required) for a in (p.arguments or [])} for name, p in prompts.items()}
        assert arguments["plan_dependencies"].get("goal") is True, arguments["plan_dependencies"]
        assert arguments["plan_dependencies"].get("network_name") is False, arguments["plan_dependencies"]
        required = {k for k, v in arguments["impact_analysis"].items() if v}
        assert {"network_name", "node_id"} <= required, arguments["impact_analysis"]
        for p in prompts.values():
            assert p.description, p

        plan = await server.session.get_prompt(
            "plan_dependencies", {"goal": "ship the 2.0 release", "network_name": "release_2"}
        )
        text = "\n".join(getattr(m.content, "text", "") for m in plan.messages)
        assert plan.messages and "ship the 2.0 release" in text and "release_2" in text, text
        used = mentioned_tools(plan.messages)
        assert {"network_create", "network_add_nodes", "network_add_edges"} <= used, used
        reachable = await callable_after_lead(server, plan.messages, tools)
        assert used <= reachable, f"the prompt names tools the server does not have: {used - reachable}"

        impact = await server.session.get_prompt("impact_analysis", {"network_name": "deps", "node_id": "logging"})
        text = "\n".join(getattr(m.content, "text", "") for m in impact.messages)
        assert "deps" in text and "logging" in text, text
        used = mentioned_tools(impact.messages)
        assert "network_ancestors" in used, used
        reachable = await callable_after_lead(server, impact.messages, tools)
        assert used <= reachable, f"the prompt names tools the server does not have: {used - reachable}"

        with pytest.raises(MCPError):
            await server.session.get_prompt("impact_analysis", {"network_name": "deps"})
        with pytest.raises(MCPError):
            await server.session.get_prompt("no_such_prompt", {})


# --- logging ---------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_set_logging_level(binary, tmp_path, transport):
    async with session(transport, binary, tmp_path) as server:
        await server.session.set_logging_level("warning")
        await server.err("network_get_neighbors", {"network_name": "nope", "node_id": "x"}, "network_not_found")
        note = await server.inbox.wait_for(LOG, lambda n: "network_not_found" in json.dumps(n.params.data, default=str))
        assert note.params.level in ("warning", "error"), note.params

        await server.session.set_logging_level("error")
        await anyio.sleep(0.2)
        server.inbox.notifications.clear()
        await server.err("network_get_neighbors", {"network_name": "nope", "node_id": "x"}, "network_not_found")
        await anyio.sleep(0.5)
        assert not [n for n in server.inbox.of(LOG) if n.params.level == "warning"], server.inbox.of(LOG)


@pytest.mark.parametrize("transport", TRANSPORTS)
@run_async
async def test_mcp_apps_view_resource_and_visualize_tool(binary, tmp_path, transport):
    """network_visualize names its MCP Apps view; the view is an HTML resource of the
    MCP Apps type that loads nothing from outside and speaks the ui/ protocol."""
    async with session(transport, binary, tmp_path) as server:
        await seed(server)
        caps = server.init.capabilities.model_dump(by_alias=True, exclude_none=True)
        ui_ext = (caps.get("extensions") or {}).get("io.modelcontextprotocol/ui")
        assert ui_ext is not None and "text/html;profile=mcp-app" in ui_ext.get("mimeTypes", []), caps

        # network_visualize (interchange) is not in the small start: turn it on.
        tools = {t.name: t for t in (await server.session.list_tools()).tools}
        assert "network_visualize" not in tools, sorted(tools)
        on = await server.ok("network_toolsets", {"enable": ["interchange"]})
        assert on["changed"] is True, on
        await server.inbox.wait_for("notifications/tools/list_changed")
        tools = {t.name: t for t in (await server.session.list_tools()).tools}
        meta = tools["network_visualize"].meta or {}
        uri = meta.get("ui", {}).get("resourceUri")
        assert uri and uri.startswith("ui://"), meta

        listed = {str(r.uri): r for r in (await server.session.list_resources()).resources}
        assert uri in listed, list(listed)
        assert listed[uri].mime_type == "text/html;profile=mcp-app", listed[uri]

        result = await server.session.read_resource(uri)
        html, mime = text_of(result)
        assert mime == "text/html;profile=mcp-app"
        assert html.startswith("<!DOCTYPE html>")
        for needed in ("ui/initialize", "ui/notifications/initialized", "ui/notifications/tool-result"):
            assert needed in html, needed
        page = html.replace("http://www.w3.org/2000/svg", "")
        assert not re.search(r"https?://|<script[^>]+src=|<link[^>]+href=|@import", page), "the view must load nothing external"
        content_meta = result.contents[0].meta or {}
        csp = content_meta.get("ui", {}).get("csp", {})
        assert csp.get("connectDomains") == [] and csp.get("resourceDomains") == [], content_meta

        out = await server.ok("network_visualize", {"network_name": "plan"})
        assert out["ui_resource_uri"] == uri
        assert out["mode"] == "full" and out["drawn_node_count"] == 3, out
        assert "view" not in out, "the drawing stays out of the reply"
        drawing, mime = text_of(await server.session.read_resource(out["view_uri"]))
        assert mime == "application/json"
        assert {n["id"] for n in json.loads(drawing)["nodes"]} == {"design", "build", "ship"}
        assert out["mermaid"].startswith("%% networks-mcp export: A --> B means A depends on B\nflowchart"), out["mermaid"]
