//! Epics through MCP: `network_plan_progress` rolls task states up each epic's
//! descendants and walks the tree one level per call (`epic_node_id`), paged
//! like every list; `network_topological_sort` and `network_critical_path`
//! answer at `level: "epics"`; loops of parents are named; bad input is an
//! error that says what to fix.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::clock::ManualClock;
use networks_mcp::mcp::{Call, NetworksServer, ServerOptions};
use serde_json::{Value, json};

use crate::common::{dispatch_err as err, dispatch_ok as ok, every_toolset};

const T0: u64 = 1_800_000_000_000;

fn server() -> NetworksServer {
    let clock = Arc::new(ManualClock::new(T0));
    NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            clock: clock as _,
            ..every_toolset()
        },
    )
}

fn ids(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| v["node_id"].as_str().unwrap())
                .to_string()
        })
        .collect()
}

/// `release` holds `backend` (`api` done, `db` held by w1) and `web` (`ui`,
/// which needs `api` and `db`); `misc` stands alone. Edges read "A needs B".
fn launch(server: &NetworksServer) {
    ok(server, "network_create", json!({"network_name": "launch"}));
    let nodes = json!([
        {"node_id": "release"},
        {"node_id": "backend", "attributes": {"parent": "release"}},
        {"node_id": "web", "attributes": {"parent": "release"}},
        {"node_id": "api", "attributes": {"parent": "backend", "status": "done"}},
        {"node_id": "db", "attributes": {"parent": "backend", "claimed_by": "w1", "lease_expires_ms": T0 + 60_000}},
        {"node_id": "ui", "attributes": {"parent": "web"}},
        {"node_id": "misc"},
    ]);
    ok(
        server,
        "network_add_nodes",
        json!({"network_name": "launch", "nodes": nodes}),
    );
    ok(
        server,
        "network_add_edges",
        json!({"network_name": "launch", "edges": [
            {"source": "ui", "target": "api", "weight": 3.0},
            {"source": "ui", "target": "db", "weight": 2.0},
            {"source": "db", "target": "api", "weight": 1.0},
        ]}),
    );
}

fn progress(server: &NetworksServer, extra: Value) -> Value {
    let mut args = json!({"network_name": "launch"});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    ok(server, "network_plan_progress", args)
}

fn counts(epic: &Value) -> [u64; 5] {
    [
        "child_count",
        "done_count",
        "claimed_count",
        "ready_count",
        "blocked_count",
    ]
    .map(|k| epic[k].as_u64().unwrap_or_else(|| panic!("{k} in {epic}")))
}

#[test]
fn progress_rolls_states_up_each_epic_one_level_per_call() {
    let server = server();
    launch(&server);

    let top = progress(&server, json!({}));
    assert_eq!(top["task_count"], 7, "{top}");
    assert_eq!(ids(&top["epics"]), ["release"]);
    assert_eq!(top["epic_count"], 1);
    // An epic waits on its children: release on backend and web, they on theirs.
    assert_eq!(top["epics"][0]["state"], "blocked");
    // Descendants: backend and web wait on their children; api done; db
    // claimed; ui waits on db.
    assert_eq!(counts(&top["epics"][0]), [2, 1, 1, 0, 3]);
    assert_eq!(ids(&top["claims"]), ["db"]);
    assert!(top.get("loop_node_ids").is_none(), "{top}");

    let release = progress(&server, json!({"epic_node_id": "release"}));
    assert_eq!(release["task_count"], 5, "{release}");
    assert_eq!(
        [
            &release["done_count"],
            &release["claimed_count"],
            &release["ready_count"],
            &release["blocked_count"]
        ],
        [1, 1, 0, 3]
    );
    assert_eq!(ids(&release["epics"]), ["backend", "web"]);
    assert_eq!(counts(&release["epics"][0]), [2, 1, 1, 0, 0]);
    assert_eq!(counts(&release["epics"][1]), [1, 0, 0, 0, 1]);
    assert_eq!(
        release["workers"],
        json!([{"worker": "w1", "claimed_count": 1}])
    );
    assert_eq!(release["finished"], false);

    let backend = progress(&server, json!({"epic_node_id": "backend"}));
    assert_eq!(backend["task_count"], 2);
    assert_eq!(ids(&backend["epics"]), ["api", "db"]);
    assert_eq!(backend["epics"][0]["state"], "done");
    assert_eq!(backend["epics"][1]["state"], "claimed");
    assert_eq!(counts(&backend["epics"][1]), [0, 0, 0, 0, 0]);
    assert_eq!(ids(&backend["claims"]), ["db"]);
    // What is left under backend: db (api is done).
    assert_eq!(
        backend["remaining_critical_path"]["node_ids"],
        json!(["db"]),
        "{backend}"
    );

    // Web's subtree: ui alone, and no claim there.
    let web = progress(&server, json!({"epic_node_id": "web"}));
    assert_eq!(web["task_count"], 1);
    assert_eq!(web["claims"], json!([]));
    assert_eq!(web["workers"], json!([]));

    // A leaf: nothing below it.
    let leaf = progress(&server, json!({"epic_node_id": "ui"}));
    assert_eq!(leaf["task_count"], 0);
    assert_eq!(leaf["epics"], json!([]));
    assert_eq!(leaf["epic_count"], 0);
}

#[test]
fn another_parent_attribute_and_numbers_as_ids() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "launch"}));
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "launch", "nodes": [
            {"node_id": "7"},
            {"node_id": "a", "attributes": {"epic": 7}},
            {"node_id": "b", "attributes": {"epic": "7", "parent": "a"}},
        ]}),
    );
    let by_epic = progress(&server, json!({"parent_attribute": "epic"}));
    assert_eq!(ids(&by_epic["epics"]), ["7"]);
    assert_eq!(by_epic["epics"][0]["child_count"], 2);
    // The work state reads a number as the same parent: 7 waits on a and b.
    assert_eq!(by_epic["epics"][0]["state"], "blocked", "{by_epic}");
    let why = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "launch", "node_id": "7", "parent_attribute": "epic"}),
    );
    assert_eq!(ids(&why["blockers"]), ["a", "b"], "{why}");
    let by_parent = progress(&server, json!({}));
    assert_eq!(ids(&by_parent["epics"]), ["a"]);
}

#[test]
fn loops_of_parents_are_named_and_count_as_top_level() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "launch"}));
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "launch", "nodes": [
            {"node_id": "a", "attributes": {"parent": "b"}},
            {"node_id": "b", "attributes": {"parent": "a"}},
            {"node_id": "c", "attributes": {"parent": "a"}},
            {"node_id": "self", "attributes": {"parent": "self"}},
            {"node_id": "lost", "attributes": {"parent": "nowhere"}},
        ]}),
    );
    let top = progress(&server, json!({}));
    assert_eq!(top["loop_node_ids"], json!(["a", "b", "self"]), "{top}");
    assert_eq!(top["loop_node_count"], 3);
    assert_eq!(ids(&top["epics"]), ["a"]);
    assert_eq!(counts(&top["epics"][0]), [1, 0, 0, 1, 0]);
    for tool in ["network_topological_sort", "network_critical_path"] {
        let reply = ok(
            &server,
            tool,
            json!({"network_name": "launch", "level": "epics"}),
        );
        assert_eq!(
            reply["note"],
            "3 nodes are on a loop of parents, each counted as a top-level epic: a, b, self. Give one of them another parent, or none.",
            "{reply}"
        );
        let tasks = ok(&server, tool, json!({"network_name": "launch"}));
        assert!(tasks.get("note").is_none(), "{tasks}");
    }
    let sorted = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "launch", "level": "epics", "flat": true}),
    );
    assert_eq!(ids(&sorted["node_ids"]), ["a", "b", "self", "lost"]);
}

#[test]
fn the_tree_pages_like_every_list_and_stays_small_by_default() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "launch"}));
    let mut nodes = Vec::new();
    for i in 0..300 {
        nodes.push(json!({"node_id": format!("epic-{i:03}-with-a-longer-name")}));
        for j in 0..2 {
            nodes.push(json!({
                "node_id": format!("task-{i:03}-{j}"),
                "attributes": {
                    "parent": format!("epic-{i:03}-with-a-longer-name"),
                    "claimed_by": "w", "lease_expires_ms": T0 + 1_000
                }
            }));
        }
    }
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "launch", "nodes": nodes}),
    );
    let whole = progress(&server, json!({"limit": 1000}));
    assert_eq!(whole["epic_count"], 300);
    assert_eq!(whole["epics"].as_array().unwrap().len(), 300);
    assert_eq!(whole["claims"].as_array().unwrap().len(), 600);
    assert_eq!(whole["truncated"], false);

    // Pages of 7 join into the whole list: the epics, then the claims.
    let (mut epics, mut claims) = (Vec::new(), Vec::new());
    let mut args = json!({"limit": 7});
    loop {
        let page = progress(&server, args.clone());
        assert!(
            page["epics"].as_array().unwrap().len() + page["claims"].as_array().unwrap().len() <= 7
        );
        assert_eq!(page["epic_count"], 300);
        epics.extend(page["epics"].as_array().unwrap().iter().cloned());
        claims.extend(page["claims"].as_array().unwrap().iter().cloned());
        match page.get("next_cursor") {
            Some(cursor) => args["cursor"] = cursor.clone(),
            None => break,
        }
    }
    assert_eq!(Value::from(epics), whole["epics"]);
    assert_eq!(Value::from(claims), whole["claims"]);

    // A cursor belongs to its call: another epic_node_id is another call.
    let first = progress(&server, json!({"limit": 7}));
    let e = err(
        &server,
        "network_plan_progress",
        json!({"network_name": "launch", "limit": 7, "cursor": first["next_cursor"], "epic_node_id": "epic-000-with-a-longer-name"}),
        "invalid_value",
    );
    assert_eq!(e["field"], "cursor");

    // Without limit, the reply stops at about 8 KB and says how to go on.
    let result = server
        .call_result(Call::new(
            "network_plan_progress",
            json!({"network_name": "launch"}),
        ))
        .unwrap();
    let structured = result.structured_content.clone().unwrap();
    let wire = json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
    assert!(wire.len() <= 8 * 1024, "{} bytes", wire.len());
    assert_eq!(structured["truncated"], true);
    assert!(structured["more"].as_str().unwrap().contains("cursor"));
}

#[test]
fn ordering_and_critical_path_at_the_level_of_epics() {
    let server = server();
    ok(&server, "network_create", json!({"network_name": "launch"}));
    ok(
        &server,
        "network_add_nodes",
        json!({"network_name": "launch", "nodes": [
            {"node_id": "backend"},
            {"node_id": "web"},
            {"node_id": "api", "attributes": {"parent": "backend"}},
            {"node_id": "db", "attributes": {"parent": "backend"}},
            {"node_id": "ui", "attributes": {"parent": "web"}},
        ]}),
    );
    let edge = |s: &str, t: &str, w: f64| {
        ok(
            &server,
            "network_add_edge",
            json!({"network_name": "launch", "source": s, "target": t, "weight": w}),
        )["edge_id"]
            .as_u64()
            .unwrap()
    };
    edge("api", "db", 1.0);
    let heavy = edge("ui", "api", 3.0);
    edge("ui", "db", 2.0);

    let sorted = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "launch", "reverse": true, "level": "epics"}),
    );
    assert!(sorted.get("node_ids").is_none(), "{sorted}");
    assert_eq!(sorted["layers"], json!([["backend"], ["web"]]));
    assert_eq!(sorted["node_count"], 2);
    let tasks = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "launch", "reverse": true, "level": "tasks"}),
    );
    assert_eq!(tasks["node_count"], 5);

    let path = ok(
        &server,
        "network_critical_path",
        json!({"network_name": "launch", "level": "epics"}),
    );
    assert_eq!(ids(&path["node_ids"]), ["web", "backend"]);
    assert_eq!(path["edge_ids"], json!([heavy]), "the heaviest merged edge");
    assert_eq!(path["total_weight"], 3.0);
    assert_eq!(path["hops"], 1);

    // An edge back from backend's tree to web's makes a cycle of epics,
    // though the tasks have none; ignoring its relation type removes it.
    ok(
        &server,
        "network_add_edge",
        json!({"network_name": "launch", "source": "db", "target": "web", "attributes": {"relation": "related"}}),
    );
    ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "launch"}),
    );
    for tool in ["network_topological_sort", "network_critical_path"] {
        let e = err(
            &server,
            tool,
            json!({"network_name": "launch", "level": "epics"}),
            "cycle_detected",
        );
        let mut cycle = ids(&e["cycle_node_ids"]);
        cycle.sort();
        assert_eq!(cycle, ["backend", "web"], "{e}");
        assert!(e["error"].as_str().unwrap().contains("epics"), "{e}");
        ok(
            &server,
            tool,
            json!({"network_name": "launch", "level": "epics", "ignore_relations": ["related"]}),
        );
    }
}

#[test]
fn bad_input_says_what_to_fix_and_changes_nothing() {
    let server = server();
    launch(&server);
    let version = |server: &NetworksServer| {
        server
            .registry()
            .read("launch", |net| Ok(net.version()))
            .unwrap()
    };
    let before = version(&server);

    let e = err(
        &server,
        "network_plan_progress",
        json!({"network_name": "launch", "epic_node_id": "bakend"}),
        "node_not_found",
    );
    assert_eq!(e["field"], "epic_node_id");
    assert_eq!(e["node_id"], "bakend");
    assert_eq!(e["suggestions"][0], "backend", "{e}");

    for tool in ["network_topological_sort", "network_critical_path"] {
        let e = err(
            &server,
            tool,
            json!({"network_name": "launch", "level": "stories"}),
            "invalid_arguments",
        );
        assert!(e["error"].as_str().unwrap().contains("epics"), "{e}");
        let e = err(
            &server,
            tool,
            json!({"network_name": "launch", "level": "epics", "parent_attribute": ""}),
            "invalid_id",
        );
        assert_eq!(e["field"], "parent_attribute");
    }
    for args in [
        json!({"network_name": "launch", "parent_attribute": " "}),
        json!({"network_name": "launch", "epic_node_id": ""}),
    ] {
        err(&server, "network_plan_progress", args, "invalid_id");
    }
    assert_eq!(version(&server), before);
}

#[test]
fn a_deep_chain_and_a_loop_of_parents_are_walked_without_recursion_and_answered_small() {
    // 20,000 tasks, each the parent of the next, every other one in one
    // exclusion group: the depth is the client's to choose, so nothing may
    // recurse on it, and every reply stays small.
    let server = server();
    ok(&server, "network_create", json!({"network_name": "launch"}));
    const DEPTH: usize = 20_000;
    for start in (0..DEPTH).step_by(10_000) {
        let nodes: Vec<Value> = (start..start + 10_000)
            .map(|k| {
                let mut attributes = serde_json::Map::new();
                if k > 0 {
                    attributes.insert("parent".into(), json!(format!("n{}", k - 1)));
                }
                if k % 2 == 1 {
                    attributes.insert("exclusion_group".into(), json!("db"));
                }
                json!({"node_id": format!("n{k}"), "attributes": attributes})
            })
            .collect();
        ok(
            &server,
            "network_add_nodes",
            json!({"network_name": "launch", "nodes": nodes}),
        );
    }
    let small = |reply: &Value| {
        let bytes = reply.to_string().len();
        assert!(bytes < 8 * 1024, "{bytes} bytes: {reply}");
    };
    let top = progress(&server, json!({}));
    small(&top);
    assert_eq!(
        (top["ready_count"].as_u64(), top["blocked_count"].as_u64()),
        (Some(1), Some(DEPTH as u64 - 1))
    );
    small(&progress(&server, json!({"epic_node_id": "n0"})));
    for tool in ["network_topological_sort", "network_critical_path"] {
        small(&ok(
            &server,
            tool,
            json!({"network_name": "launch", "level": "epics"}),
        ));
    }
    let why = ok(
        &server,
        "network_why_blocked",
        json!({"network_name": "launch", "node_id": "n0"}),
    );
    small(&why);
    assert!(why["truncated"].as_bool().unwrap(), "{why}");

    // The leaf is the one ready task; completing it with its parents closes
    // the whole chain in one call, the reply naming at most 100 of them.
    let claim = ok(
        &server,
        "network_claim_ready",
        json!({"network_name": "launch", "worker": "w"}),
    );
    assert_eq!(claim["claimed"][0]["node_id"], format!("n{}", DEPTH - 1));
    let done = ok(
        &server,
        "network_complete_claim",
        json!({"network_name": "launch", "worker": "w", "node_ids": [format!("n{}", DEPTH - 1)], "complete_parents": true}),
    );
    small(&done);
    assert_eq!(done["completed_parent_count"], DEPTH - 1);
    assert_eq!(
        done["completed_parent_node_ids"].as_array().unwrap().len(),
        100
    );

    // Closing the chain into a loop: every node is on it, each counted as
    // top-level, and the replies name only the first few.
    ok(
        &server,
        "network_update_node",
        json!({"network_name": "launch", "node_id": "n0", "attributes": {"parent": format!("n{}", DEPTH - 1)}}),
    );
    let looped = progress(&server, json!({}));
    small(&looped);
    assert_eq!(looped["loop_node_count"], DEPTH);
    let sorted = ok(
        &server,
        "network_topological_sort",
        json!({"network_name": "launch", "level": "epics"}),
    );
    small(&sorted);
    assert!(
        sorted["note"]
            .as_str()
            .unwrap()
            .starts_with("20000 nodes are on a loop")
    );
}
