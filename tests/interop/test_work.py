"""Several workers on one plan, through the official MCP Python SDK over
streamable HTTP, each its own client session:

- the work toolset and the execute_plan prompt are offered only with
  `--toolsets ...,work`;
- claims never share a task, and their results pass the SDK's check against
  each tool's outputSchema;
- a worker subscribed to `network://{name}/ready` learns of newly ready work
  without polling: a completion that unblocks tasks sends
  notifications/resources/updated for that URI, while a claim does not.
"""

from __future__ import annotations

import json
import secrets

import anyio
import pytest

from conftest import build_network, connect_http, http_server, run_async

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

TOKEN = "interop-" + secrets.token_hex(16)
WORK = ("--toolsets", "core,edit,analysis,interchange,work")
UPDATED = "notifications/resources/updated"
READY_URI = "network://plan/ready"


async def plan(server) -> None:
    # build and docs need design; ship needs both.
    await build_network(
        server,
        "plan",
        [{"node_id": n} for n in ["design", "build", "docs", "ship"]],
        [
            {"source": "build", "target": "design"},
            {"source": "docs", "target": "design"},
            {"source": "ship", "target": "build"},
            {"source": "ship", "target": "docs"},
        ],
    )


def ready_updates(server) -> list:
    return [n for n in server.inbox.of(UPDATED) if str(n.params.uri) == READY_URI]


@run_async
async def test_work_tools_and_prompt_are_opt_in(binary, tmp_path):
    with http_server(binary, tmp_path, TOKEN) as (url, stderr_path):
        async with connect_http(url, stderr_path, TOKEN) as server:
            # The small start lists no work tool; the prompt is offered, and first
            # turns the work toolset on.
            tools = {t.name for t in (await server.session.list_tools()).tools}
            prompts = {p.name for p in (await server.session.list_prompts()).prompts}
            assert "network_claim_ready" not in tools and "execute_plan" in prompts
            prompt = await server.session.get_prompt("execute_plan", {"network_name": "plan", "worker": "w1"})
            text = prompt.messages[0].content.text
            assert text.startswith('First call network_toolsets with {"enable": ["work"]}'), text
    with http_server(binary, tmp_path, TOKEN, "--toolsets", "core,edit,analysis,interchange") as (url, stderr_path):
        async with connect_http(url, stderr_path, TOKEN) as server:
            tools = {t.name for t in (await server.session.list_tools()).tools}
            prompts = {p.name for p in (await server.session.list_prompts()).prompts}
            assert "network_claim_ready" not in tools and "execute_plan" not in prompts
    with http_server(binary, tmp_path, TOKEN, *WORK) as (url, stderr_path):
        async with connect_http(url, stderr_path, TOKEN) as server:
            tools = {t.name for t in (await server.session.list_tools()).tools}
            for name in ["network_claim_ready", "network_complete_claim", "network_release_claim",
                         "network_renew_claim", "network_plan_progress"]:
                assert name in tools, tools
            prompt = await server.session.get_prompt("execute_plan", {"network_name": "plan", "worker": "w1"})
            text = prompt.messages[0].content.text
            assert "network_claim_ready" in text and 'worker "w1"' in text, text


@run_async
async def test_a_subscribed_worker_hears_of_newly_ready_work(binary, tmp_path):
    with http_server(binary, tmp_path, TOKEN, *WORK) as (url, stderr_path):
        async with connect_http(url, stderr_path, TOKEN) as alice, connect_http(url, stderr_path, TOKEN) as bob:
            await plan(alice)
            await bob.session.send_ping()
            await bob.session.subscribe_resource(READY_URI)

            first = await alice.ok("network_claim_ready", {"network_name": "plan", "worker": "alice"})
            assert [t["node_id"] for t in first["claimed"]] == ["design"], first
            waiting = await bob.ok("network_claim_ready", {"network_name": "plan", "worker": "bob"})
            assert waiting["claimed"] == [] and waiting["finished"] is False, waiting
            assert waiting["waiting"]["claimed_count"] == 1, waiting

            # A claim makes no task ready: bob is not woken for it.
            await anyio.sleep(0.5)
            assert ready_updates(bob) == [], bob.inbox.notifications

            done = await alice.ok(
                "network_complete_claim", {"network_name": "plan", "worker": "alice", "node_ids": ["design"]}
            )
            assert done["newly_ready"] == ["build", "docs"], done
            await bob.inbox.wait_for(UPDATED, lambda n: str(n.params.uri) == READY_URI)

            read = await bob.session.read_resource(READY_URI)
            progress = json.loads(read.contents[0].text)
            assert (progress["done_count"], progress["ready_count"], progress["blocked_count"]) == (1, 2, 1), progress

            mine = await bob.ok("network_claim_ready", {"network_name": "plan", "worker": "bob", "limit": 5})
            assert [t["node_id"] for t in mine["claimed"]] == ["build", "docs"], mine

            # Only the holder may complete; the error names the holder.
            refused = await alice.err(
                "network_complete_claim", {"network_name": "plan", "worker": "alice", "node_ids": ["build"]},
                "claim_not_held",
            )
            assert refused["tasks"] == [{"node_id": "build", "claimed_by": "bob", "done": False}], refused

            # A release gives work back, and wakes subscribers too.
            bob.inbox.notifications.clear()
            await bob.ok("network_release_claim", {"network_name": "plan", "worker": "bob", "node_ids": ["docs"]})
            await bob.inbox.wait_for(UPDATED, lambda n: str(n.params.uri) == READY_URI)

            renewed = await bob.ok(
                "network_renew_claim",
                {"network_name": "plan", "worker": "bob", "node_ids": ["build"], "lease_seconds": 60},
            )
            assert renewed["renewed"] == ["build"], renewed
            progress = await alice.ok("network_plan_progress", {"network_name": "plan"})
            assert progress["workers"] == [{"worker": "bob", "claimed_count": 1}], progress
            assert progress["remaining_critical_path"]["node_ids"][0] in ("build", "docs"), progress
