//! The work toolset: claiming ready tasks under leases, completing, releasing,
//! renewing and progress, on a fake clock (no test sleeps), in memory and across
//! restarts of durable mode.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::clock::ManualClock;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};
use networks_mcp::storage::{Storage, StorageConfig};
use serde_json::{Value, json};

use crate::common::{dispatch as call, dispatch_err as err, dispatch_ok as ok, every_toolset};

const T0: u64 = 1_800_000_000_000;

fn options(clock: &Arc<ManualClock>) -> ServerOptions {
    ServerOptions {
        clock: Arc::clone(clock) as _,
        ..every_toolset()
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v["node_id"].as_str().unwrap().to_string())
        })
        .collect()
}

/// design -> (build, docs); build -> test; (test, docs) -> ship, written as
/// "A needs B" edges (prerequisites "out").
fn plan(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "plan"}));
    let edges = [
        ("build", "design", 5.0),
        ("docs", "design", 2.0),
        ("test", "build", 3.0),
        ("ship", "test", 1.0),
        ("ship", "docs", 1.0),
    ];
    let edges: Vec<Value> = edges
        .iter()
        .map(|(s, t, w)| json!({"source": s, "target": t, "weight": w}))
        .collect();
    let nodes = ["design", "build", "docs", "test", "ship"].map(|id| json!({"node_id": id}));
    ok(
        server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
    ok(
        server,
        "network_add_edges",
        json!({"network_name": "plan", "edges": edges}),
    );
}

fn progress(server: &NetworksServer) -> Value {
    ok(
        server,
        "network_plan_progress",
        json!({"network_name": "plan"}),
    )
}

#[test]
fn the_work_tools_are_opt_in() {
    // A session starts without them, and so does a fixed list that does not name them.
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let names: Vec<String> = server
        .session_tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        !names.contains(&"network_claim_ready".to_string()),
        "{names:?}"
    );
    let fixed = ServerOptions {
        toolsets: [Toolset::Core, Toolset::Analysis].into_iter().collect(),
        switchable: false,
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), fixed);
    let names: Vec<&str> = server.listed_tools().iter().map(|t| &*t.name).collect();
    assert!(!names.contains(&"network_claim_ready"), "{names:?}");
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    let names: Vec<&str> = server.listed_tools().iter().map(|t| &*t.name).collect();
    for tool in [
        "network_claim_ready",
        "network_complete_claim",
        "network_release_claim",
        "network_renew_claim",
        "network_plan_progress",
    ] {
        assert!(names.contains(&tool), "{tool} missing from {names:?}");
    }
}

#[test]
fn workers_claim_complete_and_unblock_without_sharing_a_task() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    plan(&server);

    let first = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1", "limit": 5, "lease_seconds": 60}),
    );
    assert_eq!(strings(&first["claimed"]), ["design"]);
    assert_eq!(first["lease_expires_ms"], T0 + 60_000);
    assert_eq!(first["claimed"][0]["attributes"]["claimed_by"], "w1");
    assert_eq!(first["finished"], false);
    assert_eq!(first["waiting"]["blocked_count"], 4, "{first}");
    assert!(first["version"].is_u64());

    // Held: the second worker gets nothing, and is told when the lease ends.
    let second = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w2"}),
    );
    assert_eq!(second["claimed"], json!([]));
    assert_eq!(second["waiting"]["claimed_count"], 1);
    assert_eq!(second["waiting"]["next_lease_end_ms"], T0 + 60_000);
    assert!(
        second["note"].as_str().unwrap().contains("ends in 60 s"),
        "{second}"
    );

    // Only the holder completes; the error names the holder and changes nothing.
    let before = progress(&server);
    let e = err(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w2", "node_ids": ["design", "docs"]}),
        "claim_not_held",
    );
    let message = e["error"].as_str().unwrap();
    assert!(message.contains("'design' is claimed by 'w1'"), "{message}");
    assert!(message.contains("'docs' is not claimed"), "{message}");
    assert_eq!(progress(&server)["done_count"], before["done_count"]);

    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["design"]}),
    );
    assert_eq!(strings(&done["completed"]), ["design"]);
    assert_eq!(strings(&done["newly_ready"]), ["build", "docs"]);
    assert_eq!(done["newly_ready_count"], 2);
    // Repeating it is harmless.
    let again = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["design"]}),
    );
    assert_eq!(strings(&again["already_done"]), ["design"]);
    assert_eq!(again["version"], done["version"]);

    // Two workers, two different tasks.
    let a = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    );
    let b = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w2"}),
    );
    assert_eq!(strings(&a["claimed"]), ["build"]);
    assert_eq!(strings(&b["claimed"]), ["docs"]);

    let p = progress(&server);
    assert_eq!(
        (
            &p["done_count"],
            &p["claimed_count"],
            &p["ready_count"],
            &p["blocked_count"]
        ),
        (&json!(1), &json!(2), &json!(0), &json!(2)),
        "{p}"
    );
    assert_eq!(
        p["workers"],
        json!([{"worker": "w1", "claimed_count": 1}, {"worker": "w2", "claimed_count": 1}])
    );
    // What is left of the critical path: build (5) -> test (3) -> ship (1), in the
    // order the work runs.
    assert_eq!(
        p["remaining_critical_path"]["node_ids"],
        json!(["build", "test", "ship"])
    );
    assert_eq!(p["remaining_critical_path"]["total_weight"], 4.0);

    // Release gives a task back at once.
    let r = ok(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w2", "node_ids": ["docs"]}),
    );
    assert_eq!(strings(&r["released"]), ["docs"]);
    err(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w2", "node_ids": ["docs"]}),
        "claim_not_held",
    );
    let c = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w3", "lease_seconds": 10}),
    );
    assert_eq!(strings(&c["claimed"]), ["docs"]);

    // Renew moves the lease on from now; a lease that runs out lets another
    // worker take the task, and its old holder can no longer complete it.
    clock.advance(5_000);
    let renewed = ok(
        &server,
        "network_renew_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["build"], "lease_seconds": 100}),
    );
    assert_eq!(renewed["lease_expires_ms"], T0 + 105_000);
    clock.advance(10_000);
    let p = progress(&server);
    assert_eq!(
        (&p["claimed_count"], &p["ready_count"], &p["expired_count"]),
        (&json!(1), &json!(1), &json!(1)),
        "{p}"
    );
    let taken = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w4"}),
    );
    assert_eq!(strings(&taken["claimed"]), ["docs"]);
    assert_eq!(taken["claimed"][0]["taken_from"], "w3");
    let e = err(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w3", "node_ids": ["docs"]}),
        "claim_not_held",
    );
    assert!(
        e["error"].as_str().unwrap().contains("claimed by 'w4'"),
        "{e}"
    );

    // Finish the plan.
    for (worker, task) in [("w1", "build"), ("w4", "docs")] {
        ok(
            &server,
            "network_complete_claim",
            json!({"network_name": "plan", "worker": worker, "node_ids": [task]}),
        );
    }
    for task in ["test", "ship"] {
        let c = ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w1"}),
        );
        assert_eq!(strings(&c["claimed"]), [task]);
        ok(
            &server,
            "network_complete_claim",
            json!({"network_name": "plan", "worker": "w1", "node_ids": [task]}),
        );
    }
    let last = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    );
    assert_eq!(last["finished"], true, "{last}");
    let p = progress(&server);
    assert_eq!(
        (&p["done_count"], &p["finished"]),
        (&json!(5), &json!(true))
    );
    assert_eq!(
        (
            &p["remaining_critical_path"]["node_ids"],
            &p["remaining_critical_path"]["hops"]
        ),
        (&json!([]), &json!(0))
    );
}

#[test]
fn a_plan_from_elsewhere_names_its_own_attributes() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "plan"}));
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [
            {"node_id": "a", "attributes": {"state": "finished"}},
            {"node_id": "b"}
        ]}),
    );
    // "in": a -> b means a comes before b.
    ok(
        &server,
        "network_add_edge",
        json!({"network_name": "plan", "source": "a", "target": "b"}),
    );
    let names = json!({
        "network_name": "plan",
        "done_attributes": {"state": "finished"},
        "claim_attribute": "owner",
        "lease_attribute": "owner_until",
        "prerequisites": "in",
    });
    let mut args = names.clone();
    args["worker"] = json!("w1");
    let c = ok(&server, "network_claim_ready", args.clone());
    assert_eq!(strings(&c["claimed"]), ["b"]);
    assert_eq!(c["claimed"][0]["attributes"]["owner"], "w1");
    assert_eq!(c["claimed"][0]["attributes"]["owner_until"], T0 + 600_000);
    args["node_ids"] = json!(["b"]);
    ok(&server, "network_complete_claim", args);
    let node = ok(
        &server,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "b"}),
    );
    assert_eq!(
        node["attributes"],
        json!({"owner": "w1", "state": "finished"})
    );

    // Names that clash, or no done attributes, are refused before anything changes.
    for (field, value) in [
        ("claim_attribute", json!("state")),
        ("lease_attribute", json!("owner")),
        ("done_attributes", json!({})),
    ] {
        let mut bad = names.clone();
        bad["worker"] = json!("w1");
        bad[field] = value;
        err(&server, "network_claim_ready", bad, "invalid_value");
    }
}

#[test]
fn numbers_out_of_range_and_unknown_tasks_are_refused() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    plan(&server);
    for (field, value) in [
        ("limit", 0),
        ("limit", 101),
        ("lease_seconds", 0),
        ("lease_seconds", 86_401),
    ] {
        let mut args = json!({"network_name": "plan", "worker": "w1"});
        args[field] = json!(value);
        err(&server, "network_claim_ready", args, "invalid_value");
    }
    err(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": ""}),
        "invalid_id",
    );
    let e = err(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["desing"]}),
        "node_not_found",
    );
    assert_eq!(e["suggestions"], json!(["design"]), "{e}");
    err(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": []}),
        "invalid_value",
    );
}

#[test]
fn a_claim_is_conditional_like_every_write() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    plan(&server);
    let version = ok(&server, "network_describe", json!({"network_name": "plan"}))["version"]
        .as_u64()
        .unwrap();
    let e = err(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1", "if_version": version + 1}),
        "version_conflict",
    );
    assert_eq!(e["current_version"], version);
    let c = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1", "if_version": version}),
    );
    assert!(c["version"].as_u64().unwrap() > version);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("networks-mcp-work-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A durable server on `dir`, reading time from `clock`: what a restart makes.
fn durable(dir: &Path, clock: &Arc<ManualClock>) -> NetworksServer {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(clock));
    let (storage, recovered) = Storage::open(StorageConfig {
        dir: dir.to_path_buf(),
        snapshot_every: 1_000,
        read_only: false,
    })
    .unwrap();
    server.recover(recovered).unwrap();
    server.with_storage(Arc::new(storage))
}

#[test]
fn claims_survive_a_restart_and_replay_at_the_time_they_were_made() {
    let dir = temp_dir("restart");
    let clock = Arc::new(ManualClock::new(T0));
    {
        let server = durable(&dir, &clock);
        plan(&server);
        ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w1", "lease_seconds": 60}),
        );
        // Dropped without a shutdown snapshot: the journal alone holds the claim.
    }
    // Restarted 30 s later: the lease still ends 60 s after the claim, not after the replay.
    clock.set(T0 + 30_000);
    {
        let server = durable(&dir, &clock);
        let p = progress(&server);
        assert_eq!(
            p["claims"],
            json!([{"node_id": "design", "worker": "w1", "lease_expires_ms": T0 + 60_000, "expired": false}]),
            "{p}"
        );
        let done = ok(
            &server,
            "network_complete_claim",
            json!({"network_name": "plan", "worker": "w1", "node_ids": ["design"]}),
        );
        assert_eq!(strings(&done["newly_ready"]), ["build", "docs"]);
        ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w2", "limit": 2, "lease_seconds": 10}),
        );
    }
    // Restarted after w2's leases ran out: its tasks are back in the pool.
    clock.set(T0 + 100_000);
    let server = durable(&dir, &clock);
    let p = progress(&server);
    assert_eq!(
        (&p["claimed_count"], &p["ready_count"], &p["expired_count"]),
        (&json!(0), &json!(2), &json!(2)),
        "{p}"
    );
    let c = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w3", "limit": 2}),
    );
    assert_eq!(strings(&c["claimed"]), ["build", "docs"]);
    assert_eq!(c["claimed"][0]["taken_from"], "w2");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plan_stuck_on_a_cycle_says_so() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "plan"}));
    ok(
        &server,
        "network_add_edges",
        json!({"network_name": "plan", "create_missing_nodes": true, "edges": [
            {"source": "a", "target": "b"}, {"source": "b", "target": "a"}, {"source": "c", "target": "a"}
        ]}),
    );
    let stuck = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    );
    assert_eq!(
        (&stuck["claimed"], &stuck["finished"]),
        (&json!([]), &json!(false))
    );
    let note = stuck["note"].as_str().unwrap();
    assert!(
        note.contains("dependency cycle") && note.contains("network_find_cycles"),
        "{note}"
    );
    let p = progress(&server);
    assert_eq!(p["blocked_count"], 3);
    assert_eq!(p["remaining_critical_path"], Value::Null, "{p}");
}

#[test]
fn a_claim_reply_carries_at_most_a_mebibyte_of_task_data() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "plan"}));
    let big = "x".repeat(600 * 1024);
    let nodes: Vec<Value> = ["a", "b", "c"]
        .iter()
        .map(|id| json!({"node_id": id, "data": big}))
        .collect();
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
    let c = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1", "limit": 3}),
    );
    let tasks = c["claimed"].as_array().unwrap();
    assert_eq!(tasks.len(), 3);
    assert_eq!(tasks[0]["data"], json!(big));
    for task in &tasks[1..] {
        assert_eq!(
            (task.get("data"), &task["data_omitted"]),
            (None, &json!(true)),
            "{}",
            task["node_id"]
        );
    }
    assert!(serde_json::to_string(&c).unwrap().len() < 700 * 1024);
}

#[test]
fn why_blocked_walks_down_to_the_work_that_can_start_now() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    plan(&server);
    let why = |node: &str| {
        ok(
            &server,
            "network_why_blocked",
            json!({"network_name": "plan", "node_id": node}),
        )
    };
    // Nothing done: ship waits on all four others; only design can start.
    let all = why("ship");
    assert_eq!(all["state"], "blocked");
    let listed: Vec<(String, u64, String, String)> = all["blockers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["node_id"].as_str().unwrap().to_string(),
                b["depth"].as_u64().unwrap(),
                b["unblocks"].as_str().unwrap().to_string(),
                b["state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let row = |n: &str, d: u64, u: &str, s: &str| (n.into(), d, u.into(), s.into());
    assert_eq!(
        listed,
        [
            row("docs", 1, "ship", "blocked"),
            row("test", 1, "ship", "blocked"),
            row("design", 2, "docs", "ready"),
            row("build", 2, "test", "blocked"),
        ]
    );
    assert_eq!((&all["total"], &all["ready_count"]), (&json!(4), &json!(1)));
    assert_eq!(
        strings(&all["blockers"][2]["chain_node_ids"]),
        ["design", "docs", "ship"]
    );

    // design done, docs claimed by w2: the spec's example.
    ok(
        &server,
        "network_update_node",
        json!({"network_name": "plan", "node_id": "design", "attributes": {"status": "done"}}),
    );
    ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1", "limit": 1}),
    );
    ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w2", "limit": 1}),
    );
    ok(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["build"]}),
    );
    let some = why("ship");
    assert_eq!(
        some["blockers"],
        json!([
            {"node_id": "docs", "depth": 1, "unblocks": "ship", "state": "claimed", "worker": "w2"},
            {"node_id": "test", "depth": 1, "unblocks": "ship", "state": "blocked"},
            {"node_id": "build", "depth": 2, "unblocks": "test", "state": "ready", "chain_node_ids": ["build", "test", "ship"]}
        ])
    );
    assert_eq!(some["ready_count"], 2, "docs's prerequisites are done too");
    // A ready task, and a done one, have no blockers.
    let build = why("build");
    assert_eq!(
        (&build["state"], &build["total"]),
        (&json!("ready"), &json!(0))
    );
    assert_eq!(why("design")["state"], "done");

    // Pages join into the whole list; an unknown task is named with suggestions.
    let first = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "ship", "limit": 2}),
    );
    assert_eq!(first["truncated"], true);
    let rest = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "ship", "limit": 2, "cursor": first["next_cursor"]}),
    );
    let mut joined = strings(&first["blockers"]);
    joined.extend(strings(&rest["blockers"]));
    assert_eq!(joined, ["docs", "test", "build"]);
    let unknown = err(
        &server,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "shipp"}),
        "node_not_found",
    );
    assert_eq!(unknown["suggestions"][0], "ship");
}

#[test]
fn why_blocked_follows_only_the_relations_that_block() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "p"}));
    ok(
        &server,
        "network_add_edges",
        json!({"network_name": "p", "create_missing_nodes": true, "edges": [
            {"source": "a", "target": "b", "attributes": {"relation": "blocks"}},
            {"source": "a", "target": "c", "attributes": {"relation": "related"}}
        ]}),
    );
    let why = |extra: Value| {
        let mut args = json!({"network_name": "p", "node_id": "a"});
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        strings(&ok(&server, "network_why_blocked", args)["blockers"])
    };
    assert_eq!(why(json!({})), ["b", "c"]);
    assert_eq!(why(json!({"ignore_relations": ["related"]})), ["b"]);
    assert_eq!(why(json!({"relations": ["related"]})), ["c"]);
    // Declared once for the network: informational links block nothing.
    ok(
        &server,
        "network_create",
        json!({"network_name": "p", "nonblocking_relations": ["related"]}),
    );
    assert_eq!(why(json!({})), ["b"]);
    assert_eq!(why(json!({"ignore_relations": []})), ["b", "c"]);
}

/// Tasks with priorities, roles and labels: ship (P0), docs (P2), lint (no
/// priority, labels "ci"), fmt (P1, role "dba", labels "db, ci"), none needing another.
fn routed_plan(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "plan"}));
    let nodes = json!([
        {"node_id": "docs", "attributes": {"priority": 2}},
        {"node_id": "lint", "attributes": {"labels": "ci"}},
        {"node_id": "migrate", "attributes": {"priority": 1, "role": "dba", "labels": "db, ci"}},
        {"node_id": "ship", "attributes": {"priority": 0}},
        {"node_id": "release", "attributes": {"priority": 0}},
    ]);
    ok(
        server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
    // release needs ship and docs: both unblock it, so they have impact 1.
    ok(
        server,
        "network_add_edges",
        json!({"network_name": "plan", "edges": [
            {"source": "release", "target": "ship"},
            {"source": "release", "target": "docs"},
        ]}),
    );
}

#[test]
fn workers_take_the_most_urgent_task_they_may_do() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    routed_plan(&server);
    let ready = |args: Value| {
        let mut all = json!({"network_name": "plan"});
        all.as_object_mut()
            .unwrap()
            .extend(args.as_object().unwrap().clone());
        ok(&server, "network_ready_nodes", all)
    };
    // The defaults keep insertion order.
    let r = ready(json!({}));
    assert_eq!(strings(&r["ready"]), ["docs", "lint", "migrate", "ship"]);
    let r = ready(json!({"order": "priority"}));
    assert_eq!(strings(&r["ready"]), ["ship", "migrate", "docs", "lint"]);
    assert_eq!(r["ready_count"], 4);
    // priority_attribute alone orders by it.
    let r = ready(json!({"priority_attribute": "priority"}));
    assert_eq!(strings(&r["ready"]), ["ship", "migrate", "docs", "lint"]);
    let r = ready(json!({"order": "impact"}));
    assert_eq!(strings(&r["ready"]), ["docs", "ship", "lint", "migrate"]);
    let r = ready(json!({"labels": ["ci"], "order": "priority"}));
    assert_eq!(strings(&r["ready"]), ["migrate", "lint"]);
    assert_eq!(r["ready_count"], 2);
    let r = ready(json!({"match_attributes": {"role": "dba"}}));
    assert_eq!(strings(&r["ready"]), ["migrate"]);
    // Pages in the order asked.
    let r = ready(json!({"order": "priority", "limit": 3}));
    assert_eq!(strings(&r["ready"]), ["ship", "migrate", "docs"]);
    let r = ready(json!({"order": "priority", "limit": 3, "cursor": r["next_cursor"]}));
    assert_eq!(strings(&r["ready"]), ["lint"]);

    // A CI worker takes the ci tasks, most urgent first; the rest are for others.
    let claim = |worker: &str, args: Value| {
        let mut all = json!({"network_name": "plan", "worker": worker});
        all.as_object_mut()
            .unwrap()
            .extend(args.as_object().unwrap().clone());
        ok(&server, "network_claim_ready", all)
    };
    let c = claim("ci", json!({"labels": ["ci"], "order": "priority"}));
    assert_eq!(strings(&c["claimed"]), ["migrate"]);
    let c = claim(
        "ci",
        json!({"labels": ["ci"], "order": "priority", "limit": 5}),
    );
    assert_eq!(strings(&c["claimed"]), ["lint"]);
    assert_eq!(c["waiting"]["ready_count"], 2, "{c}");
    let note = c["note"].as_str().unwrap();
    assert!(note.contains("2 more are ready"), "{note}");
    // A worker that may do nothing ready hears so, not of a cycle.
    let c = claim("dba", json!({"match_attributes": {"role": "dba"}}));
    assert_eq!(c["claimed"], json!([]));
    let note = c["note"].as_str().unwrap();
    assert!(!note.contains("cycle"), "{note}");
    // Anyone else takes the most urgent of the rest.
    let c = claim("w", json!({"order": "priority"}));
    assert_eq!(strings(&c["claimed"]), ["ship"]);
    ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ["ship"]}),
    );
    let c = claim("w", json!({"order": "priority", "limit": 2}));
    assert_eq!(strings(&c["claimed"]), ["docs"]);
    ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ["docs"]}),
    );
    let c = claim("w", json!({"order": "priority"}));
    assert_eq!(strings(&c["claimed"]), ["release"]);
}

#[test]
fn bad_selections_are_refused_with_their_field() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    routed_plan(&server);
    let many: Vec<String> = (0..10_000).map(|i| format!("l{i}")).collect();
    for tool in ["network_ready_nodes", "network_claim_ready"] {
        let base = json!({"network_name": "plan", "worker": "w"});
        let with = |k: &str, v: Value| {
            let mut a = base.clone();
            if tool == "network_ready_nodes" {
                a.as_object_mut().unwrap().remove("worker");
            }
            a[k] = v;
            a
        };
        for (args, code, field) in [
            (with("labels", json!(many)), "invalid_value", "labels"),
            (with("labels", json!([""])), "invalid_id", "labels"),
            (with("order", json!("urgent")), "invalid_arguments", "order"),
            (
                with("match_attributes", json!({"role": {"nested": 1}})),
                "invalid_attributes",
                "match_attributes",
            ),
            (
                {
                    let mut a = with("order", json!("impact"));
                    a["priority_attribute"] = json!("priority");
                    a
                },
                "invalid_arguments",
                "priority_attribute",
            ),
        ] {
            let e = err(&server, tool, args, code);
            assert!(e.to_string().contains(field), "{tool} {field}: {e}");
        }
    }
    err(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w", "priority_attribute": "claimed_by"}),
        "invalid_value",
    );
    // Nothing was claimed.
    assert_eq!(progress(&server)["claimed_count"], 0);
}

/// Three migrations of one database (exclusion group "db"), one of another,
/// and an epic "release" whose children are two of them.
fn grouped_plan(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "plan"}));
    let nodes = json!([
        {"node_id": "release"},
        {"node_id": "m1", "attributes": {"exclusion_group": "db", "parent": "release"}},
        {"node_id": "m2", "attributes": {"exclusion_group": "db", "parent": "release"}},
        {"node_id": "m3", "attributes": {"exclusion_group": "db"}},
        {"node_id": "cache", "attributes": {"exclusion_group": "cache"}},
    ]);
    ok(
        server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": nodes}),
    );
}

#[test]
fn an_exclusion_group_runs_one_task_at_a_time() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    grouped_plan(&server);
    let claim = |worker: &str| {
        ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": worker, "limit": 5, "lease_seconds": 60}),
        )
    };
    let first = claim("w1");
    assert_eq!(strings(&first["claimed"]), ["m1", "cache"]);
    assert_eq!(first["waiting"]["excluded_count"], 2, "{first}");
    let note = first["note"].as_str().unwrap();
    assert!(
        note.contains("2 tasks are held back by their exclusion group (group \"db\" is held by claimed task 'm1')"),
        "{note}"
    );
    let second = claim("w2");
    assert_eq!(strings(&second["claimed"]), Vec::<String>::new());
    assert_eq!(second["waiting"]["excluded_count"], 2);
    let progress = progress(&server);
    assert_eq!(progress["excluded_count"], 2, "{progress}");
    assert_eq!(progress["ready_count"], 0);
    assert_eq!(progress["blocked_count"], 1);
    let why = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "m2"}),
    );
    assert_eq!(why["state"], "excluded");
    assert_eq!(why["excluded_by"], json!({"node_id": "m1", "worker": "w1"}));
    // Completing m1 frees the group: the next of it is newly ready.
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w1", "node_ids": ["m1"]}),
    );
    assert_eq!(strings(&done["newly_ready"]), ["m2", "m3"]);
    assert_eq!(strings(&claim("w2")["claimed"]), ["m2"]);
    // Releasing frees it too; a lease running out as well.
    ok(
        &server,
        "network_release_claim",
        json!({"network_name": "plan", "worker": "w2", "node_ids": ["m2"]}),
    );
    assert_eq!(strings(&claim("w3")["claimed"]), ["m2"]);
    clock.advance(61_000);
    // Both leases ran out: w4 takes both over.
    assert_eq!(strings(&claim("w4")["claimed"]), ["m2", "cache"]);
}

#[test]
fn an_epic_waits_for_its_children_and_can_close_with_them() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    grouped_plan(&server);
    let why = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "plan", "node_id": "release"}),
    );
    assert_eq!(why["state"], "blocked");
    assert_eq!(strings(&why["blockers"]), ["m1", "m2"]);
    let claim = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w", "limit": 1, "exclusion_attribute": "none"}),
    );
    assert_eq!(strings(&claim["claimed"]), ["m1"]);
    let claim = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w", "limit": 1, "exclusion_attribute": "none"}),
    );
    assert_eq!(strings(&claim["claimed"]), ["m2"]);
    // Without complete_parents, the epic becomes ready for a worker to close.
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ["m1"]}),
    );
    assert!(done.get("completed_parent_node_ids").is_none(), "{done}");
    // With it, the last child closes the epic too.
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "plan", "worker": "w", "node_ids": ["m2"], "complete_parents": true}),
    );
    assert_eq!(strings(&done["completed_parent_node_ids"]), ["release"]);
    assert_eq!(done["completed_parent_count"], 1);
    let node = ok(
        &server,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "release"}),
    );
    assert_eq!(node["attributes"]["status"], "done", "{node}");
}

#[test]
fn parent_and_exclusion_names_are_checked_before_anything_changes() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    grouped_plan(&server);
    let version =
        ok(&server, "network_describe", json!({"network_name": "plan"}))["version"].clone();
    for (args, field) in [
        (
            json!({"parent_attribute": "claimed_by"}),
            "parent_attribute",
        ),
        (
            json!({"exclusion_attribute": "status"}),
            "exclusion_attribute",
        ),
        (
            json!({"exclusion_attribute": "parent"}),
            "exclusion_attribute",
        ),
        (json!({"exclusion_attribute": ""}), "exclusion_attribute"),
        (
            json!({"parent_attribute": "p".repeat(257)}),
            "parent_attribute",
        ),
    ] {
        let mut call_args = json!({"network_name": "plan", "worker": "w", "limit": 5});
        for (k, v) in args.as_object().unwrap() {
            call_args[k] = v.clone();
        }
        let e = call(&server, "network_claim_ready", call_args).expect_err("refused");
        assert_eq!(e["field"], field, "{e}");
        assert!(
            e["error"].as_str().unwrap().contains(field),
            "the message names the parameter: {e}"
        );
    }
    let after = ok(&server, "network_describe", json!({"network_name": "plan"}))["version"].clone();
    assert_eq!(version, after, "nothing changed");
}

#[test]
fn parents_completed_and_held_groups_survive_a_restart() {
    let dir = temp_dir("parents");
    let clock = Arc::new(ManualClock::new(T0));
    {
        let server = durable(&dir, &clock);
        grouped_plan(&server);
        let claim = ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w1", "limit": 5, "lease_seconds": 60}),
        );
        assert_eq!(strings(&claim["claimed"]), ["m1", "cache"]);
        ok(
            &server,
            "network_complete_claim",
            json!({"network_name": "plan", "worker": "w1", "node_ids": ["m1"]}),
        );
        ok(
            &server,
            "network_claim_ready",
            json!({"network_name": "plan", "worker": "w2", "limit": 1}),
        );
    }
    {
        // Replayed: m2 holds "db" again, so m3 waits.
        let server = durable(&dir, &clock);
        let p = progress(&server);
        assert_eq!(p["excluded_count"], 1, "{p}");
        let done = ok(
            &server,
            "network_complete_claim",
            json!({"network_name": "plan", "worker": "w2", "node_ids": ["m2"], "complete_parents": true}),
        );
        assert_eq!(strings(&done["completed_parent_node_ids"]), ["release"]);
        assert_eq!(strings(&done["newly_ready"]), ["m3"]);
    }
    let server = durable(&dir, &clock);
    let node = ok(
        &server,
        "network_get_node",
        json!({"network_name": "plan", "node_id": "release"}),
    );
    assert_eq!(node["attributes"]["status"], "done", "{node}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A claim on a network with no tasks says that nothing was planned, not that
/// the work is over.
#[test]
fn claiming_from_an_empty_network_says_it_has_no_tasks() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "empty"}));
    let reply = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "empty", "worker": "w1"}),
    );
    let note = reply["note"].as_str().unwrap_or_default();
    assert!(note.contains("has no tasks"), "{reply}");
    assert!(!note.contains("Every task is done"), "{reply}");
    let codes: Vec<String> = crate::common::warnings(&reply)
        .into_iter()
        .map(|(code, _)| code)
        .collect();
    assert_eq!(codes, ["empty_network"], "{reply}");
    // Once a task is planned and done, the note says the work is over.
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "empty", "nodes": [{"node_id": "t", "attributes": {"status": "done"}}]}),
    );
    let reply = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "empty", "worker": "w1"}),
    );
    assert_eq!(reply["note"], "Every task is done: stop.", "{reply}");
    assert!(crate::common::warnings(&reply).is_empty(), "{reply}");
}

/// Every question about a whole plan warns when the network holds no nodes,
/// whose empty answer (or `finished: true`) would read as nothing to do; once
/// it holds a task, none warns.
#[test]
fn whole_plan_questions_on_an_empty_network_warn_that_it_is_empty() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options(&clock));
    ok(&server, "network_create", json!({"network_name": "plan"}));
    let questions = [
        "network_ready_nodes",
        "network_plan_progress",
        "network_topological_sort",
        "network_critical_path",
        "network_find_cycles",
    ];
    let codes = |tool: &str| -> Vec<String> {
        let reply = ok(&server, tool, json!({"network_name": "plan"}));
        crate::common::warnings(&reply)
            .into_iter()
            .map(|(code, _)| code)
            .collect()
    };
    for tool in questions {
        assert_eq!(codes(tool), ["empty_network"], "{tool}");
    }
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "plan", "nodes": [{"node_id": "t"}]}),
    );
    for tool in questions {
        assert!(codes(tool).is_empty(), "{tool}");
    }
}
