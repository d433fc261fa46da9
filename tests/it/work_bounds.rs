//! The work tools at scale: a write's reply stays small whatever it frees or
//! names, a held exclusion group costs the claims after it nothing, a read of
//! task states after a work call does not index the plan again, and the
//! remaining critical path counts a parent's children before it.

use networks_mcp::budget::Budget;
use networks_mcp::mcp::{Call, NetworksServer};
use networks_mcp::network::{Network, NodeSpec};
use serde_json::{Value, json};

use crate::common::{dispatch_ok as ok, unlimited_server};

/// A task id `len` bytes long, numbered `i`.
fn long_id(i: usize, len: usize) -> String {
    let head = format!("task-{i}-");
    format!("{head}{}", "x".repeat(len.saturating_sub(head.len())))
}

/// Registers `net` as "plan" on a fresh server with every toolset.
fn serve(net: Network) -> NetworksServer {
    let server = unlimited_server();
    server.registry().insert("plan", net).unwrap();
    server
}

/// What `reply` takes on the wire, about: its JSON twice (structured and as
/// text).
fn wire_bytes(reply: &Value) -> usize {
    2 * reply.to_string().len()
}

#[test]
fn a_completion_that_frees_100000_tasks_answers_in_8_kb() {
    // "root" first, then 100,000 tasks of 60-byte ids that each need it.
    const N: usize = 100_000;
    let mut net = Network::new();
    net.add_nodes(std::iter::once("root".to_string()).chain((0..N).map(|i| long_id(i, 60))))
        .unwrap();
    let edges: Vec<(String, String, f64)> = (0..N)
        .map(|i| (long_id(i, 60), "root".to_string(), 1.0))
        .collect();
    for (a, b, w) in &edges {
        net.add_edge(a, b, *w).unwrap();
    }
    let server = serve(net);
    let claimed = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w"}),
    );
    assert_eq!(claimed["claimed"][0]["node_id"], "root");
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ["root"]}),
    );
    assert_eq!(done["newly_ready_count"], N);
    let listed = done["newly_ready"].as_array().unwrap().len();
    assert!(listed > 10 && listed < 100, "{listed} listed");
    assert_eq!(done["truncated"], true);
    let more = done["more"].as_str().unwrap();
    assert!(
        more.contains(&format!("newly_ready lists {listed} of {N}"))
            && more.contains("network_claim_ready"),
        "{more}"
    );
    assert_eq!(done["completed"], json!(["root"]));
    assert!(wire_bytes(&done) <= 8 * 1024, "{} bytes", wire_bytes(&done));
}

#[test]
fn renewing_and_releasing_many_long_ids_answers_in_8_kb() {
    // 300 tasks of 200-byte ids: 120 KB of ids on the wire if listed whole.
    const N: usize = 300;
    let mut net = Network::new();
    net.add_nodes((0..N).map(|i| long_id(i, 200))).unwrap();
    let server = serve(net);
    for _ in 0..3 {
        ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w", "limit": 100}),
        );
    }
    let ids: Vec<String> = (0..N).map(|i| long_id(i, 200)).collect();
    let renewed = ok(
        &server,
        "network_renew_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ids}),
    );
    assert_eq!(renewed["truncated"], true);
    assert!(wire_bytes(&renewed) <= 8 * 1024, "{renewed}");
    let n = renewed["renewed"].as_array().unwrap().len();
    assert!(
        renewed["more"]
            .as_str()
            .unwrap()
            .contains(&format!("renewed lists {n} of {N} tasks renewed")),
        "{renewed}"
    );
    let released = ok(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ids}),
    );
    assert_eq!(released["truncated"], true);
    assert!(wire_bytes(&released) <= 8 * 1024, "{released}");
    // Every task was released, listed or not.
    let progress = ok(
        &server,
        "network_plan_progress",
        json!({"network_name": "plan"}),
    );
    assert_eq!(progress["ready_count"], N);
    // A short list is whole, and says nothing more.
    let claimed = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w", "limit": 2}),
    );
    let two: Vec<&str> = claimed["claimed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["node_id"].as_str().unwrap())
        .collect();
    let released = ok(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": two}),
    );
    assert_eq!(released["released"].as_array().unwrap().len(), 2);
    assert!(released.get("truncated").is_none() && released.get("more").is_none());
}

/// `tool` with `args` under a budget of `steps` steps: the reply, or the
/// error's code.
fn within(server: &NetworksServer, steps: u64, tool: &str, args: Value) -> Result<Value, String> {
    let budget = Budget::unlimited().with_max_steps(steps);
    server
        .dispatch(Call::new(tool, args).with_budget(&budget))
        .expect("a listed tool")
        .map_err(|e| e.code().to_string())
}

#[test]
fn a_long_held_exclusion_group_costs_the_claims_after_it_nothing() {
    // 100,000 tasks of one exclusion group, then 100 in none.
    const N: usize = 100_000;
    let mut net = Network::new();
    net.add_nodes(
        (0..N)
            .map(|i| NodeSpec::new(format!("db{i}")).with_attribute("exclusion_group", "db"))
            .chain((0..100).map(|i| NodeSpec::new(format!("f{i}")))),
    )
    .unwrap();
    let server = serve(net);
    let claim = |worker: &str| json!({"network_name": "plan", "worker": worker});
    let held = ok(&server, "network_claim_ready", claim("holder"));
    assert_eq!(held["claimed"][0]["node_id"], "db0");
    // The first claim after it meets the group's other tasks, once.
    let first = ok(&server, "network_claim_ready", claim("w"));
    assert_eq!(first["claimed"][0]["node_id"], "f0");
    // The next ones look at a handful of tasks: within 1,000 steps, where
    // skipping the held group task by task takes 100,000.
    for i in 1..20 {
        let reply = within(&server, 1_000, "network_claim_ready", claim("w"))
            .unwrap_or_else(|code| panic!("claim {i}: {code}"));
        assert_eq!(reply["claimed"][0]["node_id"], format!("f{i}"));
    }
    // A task's state after the claims reads the index they kept: why_blocked
    // on one task does not index the 100,100 tasks again.
    let why = within(
        &server,
        1_000,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "db7"}),
    )
    .unwrap();
    assert_eq!(why["state"], "excluded");
    assert_eq!(why["excluded_by"]["node_id"], "db0");
    // Completing the holder frees the group.
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "holder", "node_ids": ["db0"]}),
    );
    assert_eq!(done["newly_ready_count"], N - 1);
    let next = ok(&server, "network_claim_ready", claim("w"));
    assert_eq!(next["claimed"][0]["node_id"], "db1");
}

#[test]
fn the_remaining_critical_path_counts_a_parents_children_before_it() {
    // "ship" needs the epic "launch" (1); the epic's child "api" needs "db"
    // (2), "ui" needs "api" (4). Without the parent the longest chain is
    // db -> api -> ui (6); with it, launch waits on ui: db, api, ui, launch,
    // ship (7).
    let mut net = Network::new();
    net.add_nodes([
        NodeSpec::new("ship"),
        NodeSpec::new("launch"),
        NodeSpec::new("api").with_attribute("parent", "launch"),
        NodeSpec::new("ui").with_attribute("parent", "launch"),
        NodeSpec::new("db"),
    ])
    .unwrap();
    net.add_edge("ship", "launch", 1.0).unwrap();
    net.add_edge("api", "db", 2.0).unwrap();
    net.add_edge("ui", "api", 4.0).unwrap();
    let server = serve(net);
    let progress = ok(
        &server,
        "network_plan_progress",
        json!({"network_name": "plan"}),
    );
    let path = &progress["remaining_critical_path"];
    assert_eq!(
        path["node_ids"],
        json!(["db", "api", "ui", "launch", "ship"])
    );
    assert_eq!(path["total_weight"], 7.0);
    // Three of its four steps are edges (db -> api, api -> ui, launch ->
    // ship); ui -> launch is the parent waiting on its child: no edge.
    assert_eq!(path["hops"], 3);
    assert_eq!(path["edge_ids"].as_array().unwrap().len(), 3);
    // With edges read the other way ("in": A -> B means A comes first) the
    // same plan drawn forwards gives the same chain.
    let mut forwards = Network::new();
    forwards
        .add_nodes([
            NodeSpec::new("ship"),
            NodeSpec::new("launch"),
            NodeSpec::new("api").with_attribute("parent", "launch"),
            NodeSpec::new("ui").with_attribute("parent", "launch"),
            NodeSpec::new("db"),
        ])
        .unwrap();
    forwards.add_edge("launch", "ship", 1.0).unwrap();
    forwards.add_edge("db", "api", 2.0).unwrap();
    forwards.add_edge("api", "ui", 4.0).unwrap();
    server.registry().insert("forwards", forwards).unwrap();
    let progress = ok(
        &server,
        "network_plan_progress",
        json!({"network_name": "forwards", "prerequisites": "in"}),
    );
    let path = &progress["remaining_critical_path"];
    assert_eq!(
        path["node_ids"],
        json!(["db", "api", "ui", "launch", "ship"])
    );
    assert_eq!(path["total_weight"], 7.0);
    // Within the epic: its children only.
    let epic = ok(
        &server,
        "network_plan_progress",
        json!({"network_name": "plan", "epic_node_id": "launch"}),
    );
    assert_eq!(
        epic["remaining_critical_path"]["node_ids"],
        json!(["api", "ui"])
    );
}

#[test]
fn removing_10000_parallel_edges_answers_in_8_kb() {
    // A write outside the work tools with a list as long as the input made it.
    const N: usize = 10_000;
    let mut net = Network::new();
    net.add_nodes(["a", "b"]).unwrap();
    for _ in 0..N {
        net.add_edge("a", "b", 1.0).unwrap();
    }
    let server = serve(net);
    let removed = ok(
        &server,
        "network_remove_edge",
        json!({"network_name": "plan", "source": "a", "target": "b"}),
    );
    assert_eq!(removed["removed_count"], N);
    assert_eq!(removed["truncated"], true);
    let listed = removed["removed"].as_array().unwrap().len();
    assert!(listed > 10 && listed < N, "{listed} listed");
    assert!(
        removed["more"]
            .as_str()
            .unwrap()
            .contains(&format!("removed lists {listed} of the {N} edges")),
        "{removed}"
    );
    assert!(wire_bytes(&removed) <= 8 * 1024, "{}", wire_bytes(&removed));
    let left = ok(&server, "network_describe", json!({"network_name": "plan"}));
    assert_eq!(left["edge_count"], 0, "{left}");
}
