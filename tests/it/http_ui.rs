//! The web view (`/ui`) of the real binary over HTTP: its token rules (header,
//! `?token=` once then a cookie, never the cookie for `/mcp`), the layouts its JSON
//! endpoints return, the size limit, and the live event stream after a write
//! through `/mcp`.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use reqwest::header::{AUTHORIZATION, COOKIE, HOST, LOCATION, SET_COOKIE};
use serde_json::{Value, json};

use crate::common::http::{PROTOCOL, Server, Session, client};

/// The server, with `token` as its auth token when given.
fn start(args: &[&str], token: Option<&str>) -> Server {
    let envs: Vec<(&str, &str)> = token
        .map(|t| ("NETWORKS_MCP_AUTH_TOKEN", t))
        .into_iter()
        .collect();
    Server::start(args, &envs)
}

/// Adds `source -> target` edges of weight 2.5, creating their nodes.
fn add_edges(mcp: &mut Session, network: &str, edges: &[(&str, &str)]) {
    let edges: Vec<Value> = edges
        .iter()
        .map(|(s, t)| json!({"source": s, "target": t, "weight": 2.5}))
        .collect();
    mcp.ok(
        "network_add_edges",
        json!({"network_name": network, "edges": edges, "create_missing_nodes": true}),
    );
}

fn get_json(server: &Server, path: &str) -> Value {
    let response = client().get(server.url(path)).send().unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.json().unwrap()
}

fn status(response: Response) -> StatusCode {
    response.status()
}

#[test]
fn ui_needs_the_token_and_a_query_token_becomes_a_cookie_for_ui_only() {
    let token = "s3cret token";
    let server = start(&[], Some(token));
    let http = client();
    let get = |path: &str| http.get(server.url(path));

    for path in ["/ui", "/ui/api/networks", "/ui/events", "/ui/ui.js"] {
        assert_eq!(
            status(get(path).send().unwrap()),
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
    }
    assert_eq!(
        status(get("/ui?token=wrong").send().unwrap()),
        StatusCode::UNAUTHORIZED
    );

    // The query token: a redirect without it, and the cookie.
    let response = get("/ui?token=s3cret+token&x=1").send().unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/ui?x=1");
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_string();
    for part in [
        "networks_mcp_ui=",
        "HttpOnly",
        "SameSite=Strict",
        "Path=/ui",
    ] {
        assert!(cookie.contains(part), "{cookie}");
    }
    let pair = cookie.split(';').next().unwrap().to_string();

    // The cookie opens the page, its assets and the JSON.
    let page = get("/ui").header(COOKIE, &pair).send().unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("script-src 'self'")
    );
    assert!(page.text().unwrap().contains("/ui/ui.js"));
    for path in ["/ui/ui.js", "/ui/ui.css", "/ui/api/networks"] {
        assert_eq!(
            status(get(path).header(COOKIE, &pair).send().unwrap()),
            StatusCode::OK,
            "{path}"
        );
    }
    // So does the header; a query token on an API path works and sets the cookie.
    assert_eq!(
        status(get("/ui/api/networks").bearer_auth(token).send().unwrap()),
        StatusCode::OK
    );
    let api = get("/ui/api/networks?token=s3cret%20token").send().unwrap();
    assert_eq!(api.status(), StatusCode::OK);
    assert!(api.headers().contains_key(SET_COOKIE));

    // Never for /mcp or /metrics.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                   "clientInfo": {"name": "ui-test", "version": "1"}}});
    let mcp = http
        .post(server.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header(COOKIE, &pair)
        .json(&init)
        .send()
        .unwrap();
    assert_eq!(mcp.status(), StatusCode::UNAUTHORIZED);
    let mcp = http
        .post(server.url(&format!("/mcp?token={}", "s3cret%20token")))
        .header("accept", "application/json, text/event-stream")
        .json(&init)
        .send()
        .unwrap();
    assert_eq!(mcp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        status(get("/metrics").header(COOKIE, &pair).send().unwrap()),
        StatusCode::UNAUTHORIZED
    );

    // Host and Origin rules still apply to /ui.
    let rebinding = get("/ui")
        .header(COOKIE, &pair)
        .header(HOST, "evil.example")
        .send()
        .unwrap();
    assert_eq!(rebinding.status(), StatusCode::FORBIDDEN);
    let foreign = get("/ui/api/networks")
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header("origin", "https://evil.example")
        .send()
        .unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
}

#[test]
fn graph_layers_follow_edge_direction_and_cycles_are_flagged() {
    let server = start(&[], None);
    let mut mcp = Session::open(&server, None);
    mcp.ok("network_create", json!({"network_name": "deps"}));
    let dag = [
        ("app", "cli"),
        ("app", "core"),
        ("cli", "core"),
        ("core", "log"),
        ("cli", "log"),
        ("app", "log"),
        ("tests", "app"),
    ];
    add_edges(&mut mcp, "deps", &dag);

    let list = get_json(&server, "/ui/api/networks");
    assert_eq!(
        list["networks"][0],
        json!({"name": "deps", "description": null, "nodes": 5, "edges": 7})
    );

    let view = get_json(&server, "/ui/api/graph?network=deps");
    assert_eq!(view["mode"], "full");
    assert_eq!(view["summary"]["is_dag"], true);
    let nodes = view["nodes"].as_array().unwrap();
    let edges = view["edges"].as_array().unwrap();
    assert_eq!((nodes.len(), edges.len()), (5, 7));
    let id = |i: &Value| nodes[i.as_u64().unwrap() as usize]["id"].as_str().unwrap();
    let mut seen = Vec::new();
    for e in edges {
        let (s, t) = (
            &nodes[e["s"].as_u64().unwrap() as usize],
            &nodes[e["t"].as_u64().unwrap() as usize],
        );
        assert!(s["layer"].as_u64() < t["layer"].as_u64(), "{e}");
        assert!(s["x"].as_f64() < t["x"].as_f64(), "{e}");
        assert_eq!(e["cyclic"], false);
        assert_eq!(e["weights"], json!([2.5]));
        let span = t["layer"].as_u64().unwrap() - s["layer"].as_u64().unwrap();
        assert_eq!(e["bends"].as_array().unwrap().len() as u64, span - 1);
        seen.push((id(&e["s"]).to_string(), id(&e["t"]).to_string()));
    }
    seen.sort();
    let mut expected: Vec<(String, String)> = dag
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    expected.sort();
    assert_eq!(seen, expected);
    let layer_of = |name: &str| {
        nodes.iter().find(|n| n["id"] == name).unwrap()["layer"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        ["tests", "app", "cli", "core", "log"].map(layer_of),
        [0, 1, 2, 3, 4]
    );

    // Node details.
    let node = get_json(&server, "/ui/api/node?network=deps&id=cli");
    assert_eq!(
        (&node["in_degree"], &node["out_degree"]),
        (&json!(1), &json!(2))
    );
    assert_eq!(node["successors"], json!(["core", "log"]));

    // Close a cycle: log → cli. cli, core, log are flagged; one edge is cut and
    // drawn back, the others still point right.
    add_edges(&mut mcp, "deps", &[("log", "cli")]);
    let view = get_json(&server, "/ui/api/graph?network=deps");
    assert_eq!(view["summary"]["is_dag"], false);
    let nodes = view["nodes"].as_array().unwrap();
    let cyclic: Vec<&str> = nodes
        .iter()
        .filter(|n| n["cyclic"] == true)
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(cyclic, ["cli", "core", "log"]);
    assert_eq!(view["groups"].as_array().unwrap().len(), 0);
    assert_eq!(view["back_edges"], 1);
    let mut back = 0;
    for e in view["edges"].as_array().unwrap() {
        let (s, t) = (
            &nodes[e["s"].as_u64().unwrap() as usize],
            &nodes[e["t"].as_u64().unwrap() as usize],
        );
        let inside = s["cyclic"] == true && t["cyclic"] == true;
        assert_eq!(e["cyclic"], inside, "{e}");
        if e["back"] == true {
            back += 1;
            assert!(inside, "{e}");
            assert!(s["layer"].as_u64() > t["layer"].as_u64(), "{e}");
        } else {
            assert!(s["layer"].as_u64() < t["layer"].as_u64(), "{e}");
        }
    }
    assert_eq!(back, 1);
    let columns: std::collections::BTreeSet<u64> =
        nodes.iter().map(|n| n["layer"].as_u64().unwrap()).collect();
    assert_eq!(columns.len(), 5, "{view}");

    // Ancestors of core: everything that reaches it.
    let view = get_json(
        &server,
        "/ui/api/graph?network=deps&focus=core&scope=ancestors",
    );
    assert_eq!(view["mode"], "focus");
    let mut ids: Vec<&str> = view["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, ["app", "cli", "core", "log", "tests"]);

    // Errors are JSON with a code.
    let missing = client()
        .get(server.url("/ui/api/graph?network=nope"))
        .send()
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        missing.json::<Value>().unwrap()["code"],
        "network_not_found"
    );
    let bad = client()
        .get(server.url("/ui/api/graph?network=deps&focus=core&scope=sideways"))
        .send()
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
}

#[test]
fn task_states_are_read_from_the_status_attribute_named() {
    let server = start(&[], None);
    let mut mcp = Session::open(&server, None);
    mcp.ok("network_create", json!({"network_name": "plan"}));
    for (id, attributes) in [
        ("ship", json!({"status": "todo", "state": "open"})),
        ("build", json!({"status": "done", "state": "open"})),
        ("spec", json!({"status": "done", "state": "finished"})),
    ] {
        mcp.ok(
            "network_add_node",
            json!({"network_name": "plan", "node_id": id, "attributes": attributes}),
        );
    }
    add_edges(&mut mcp, "plan", &[("ship", "build"), ("build", "spec")]);
    let states = |view: &Value| -> Vec<(String, Value)> {
        view["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["id"].as_str().unwrap().to_string(), n["state"].clone()))
            .collect()
    };
    let view = get_json(&server, "/ui/api/graph?network=plan");
    assert_eq!(
        states(&view),
        [
            ("ship".to_string(), json!("ready")),
            ("build".to_string(), json!("done")),
            ("spec".to_string(), json!("done")),
        ]
    );
    assert_eq!(view["status"]["attribute"], "status");
    assert_eq!(view["status"]["done"], 2);
    let view = get_json(
        &server,
        "/ui/api/graph?network=plan&status_attribute=state&done_value=finished",
    );
    assert_eq!(
        states(&view),
        [
            ("ship".to_string(), json!("blocked")),
            ("build".to_string(), json!("ready")),
            ("spec".to_string(), json!("done")),
        ]
    );
    assert_eq!(view["status"]["attribute"], "state");
    // Two parts of the state in one attribute: refused, saying which.
    let clash = client()
        .get(server.url("/ui/api/graph?network=plan&status_attribute=claimed_by"))
        .send()
        .unwrap();
    assert_eq!(clash.status(), StatusCode::BAD_REQUEST);
    let body: Value = clash.json().unwrap();
    assert_eq!(body["code"], "invalid_value", "{body}");
}

#[test]
fn a_network_over_the_limit_is_summarised_and_searchable() {
    let server = start(&["--ui-max-nodes", "4"], None);
    let mut mcp = Session::open(&server, None);
    mcp.ok("network_create", json!({"network_name": "big"}));
    add_edges(
        &mut mcp,
        "big",
        &[("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f")],
    );
    let view = get_json(&server, "/ui/api/graph?network=big");
    assert_eq!(view["mode"], "summary");
    assert_eq!(view["nodes"], json!([]));
    assert_eq!(view["summary"]["node_count"], 6);
    assert_eq!(view["max_nodes"], 4);
    let part = get_json(&server, "/ui/api/graph?network=big&focus=c&depth=1");
    assert_eq!(part["mode"], "focus");
    let mut ids: Vec<&str> = part["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, ["b", "c", "d"]);
    let capped = get_json(
        &server,
        "/ui/api/graph?network=big&focus=a&scope=descendants",
    );
    assert_eq!(capped["nodes"].as_array().unwrap().len(), 4);
    assert_eq!(capped["truncated"], true);
}

#[test]
fn the_event_stream_reports_a_write_through_mcp() {
    let token = "tok";
    let server = start(
        &[
            "--toolsets",
            "core,edit,analysis,interchange,work,algorithms",
        ],
        Some(token),
    );
    let mut mcp = Session::open(&server, Some(token));
    mcp.ok("network_create", json!({"network_name": "live"}));
    mcp.ok("network_create", json!({"network_name": "other"}));

    let stream = Client::builder()
        .timeout(None)
        .build()
        .unwrap()
        .get(server.url("/ui/events?network=live"))
        .bearer_auth(token)
        .send()
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    assert!(
        stream.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next_event = |rx: &mpsc::Receiver<String>| -> (String, String) {
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("an event within 10 s");
            if let Some(e) = line.strip_prefix("event:") {
                event = e.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data = d.trim().to_string();
            } else if line.is_empty() && !event.is_empty() {
                return (event, data);
            }
        }
    };
    assert_eq!(next_event(&rx).0, "ready");

    // A write to another network is filtered out; the write to ours arrives.
    add_edges(&mut mcp, "other", &[("x", "y")]);
    add_edges(&mut mcp, "live", &[("a", "b")]);
    assert_eq!(next_event(&rx), ("network".into(), "\"live\"".into()));

    // A new network is a list change.
    mcp.ok("network_create", json!({"network_name": "third"}));
    assert_eq!(next_event(&rx).0, "list");

    // A copy of ours changes the list, not ours.
    mcp.ok(
        "network_copy",
        json!({"network_name": "live", "into": "live_copy", "method": "whole"}),
    );
    assert_eq!(next_event(&rx).0, "list");

    // A completion that frees work is one content change for the view: the
    // ready-work announcement that comes with it sends nothing more.
    mcp.ok(
        "network_claim_ready",
        json!({"network_name": "live", "worker": "w"}),
    );
    assert_eq!(next_event(&rx), ("network".into(), "\"live\"".into()));
    mcp.ok(
        "network_complete_claim",
        json!({"network_name": "live", "worker": "w", "node_ids": ["b"]}),
    );
    assert_eq!(next_event(&rx), ("network".into(), "\"live\"".into()));
    mcp.ok("network_create", json!({"network_name": "fourth"}));
    assert_eq!(next_event(&rx).0, "list");
}

#[test]
fn layouts_run_on_the_compute_pool_and_a_full_pool_answers_503() {
    // One heavy thread and no queue: one endless PageRank fills the lane.
    let server = start(
        &[
            "--compute-threads",
            "1",
            "--max-queued-calls",
            "0",
            "--max-call-seconds",
            "6",
            "--toolsets",
            "core,edit,interchange,algorithms",
        ],
        None,
    );
    let mut mcp = Session::open(&server, None);
    mcp.ok("network_create", json!({"network_name": "g"}));
    // A chain with a chord from each node: PageRank with damping 1 never converges on it.
    let mut csv = String::from("source,target\n");
    for i in 0..1_999 {
        csv.push_str(&format!("n{i},n{}\nn{i},n{}\n", i + 1, (i * 7 + 3) % 2_000));
    }
    mcp.ok(
        "network_import",
        json!({"network_name": "g", "format": "edge_list_csv", "content": csv, "mode": "merge"}),
    );
    let view = get_json(&server, "/ui/api/graph?network=g");
    assert!(
        view["nodes"].as_array().is_some_and(|n| !n.is_empty()),
        "{view}"
    );
    let mut heavy = Session::open(&server, None);
    let running = std::thread::spawn(move || {
        heavy.tool(
            "network_centrality",
            json!({"network_name": "g", "measure": "pagerank", "damping": 1.0,
                   "tolerance": 1e-300, "max_iterations": 100_000}),
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    // The layout needs a heavy thread like any long call: refused, not run beside.
    let response = client()
        .get(server.url("/ui/api/graph?network=g"))
        .send()
        .unwrap();
    let code = response.status();
    let body: Value = response.json().unwrap();
    assert_eq!(code, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["code"], "server_busy", "{body}");
    let ended = running.join().unwrap();
    assert_eq!(ended["code"], "deadline_exceeded", "{ended}");
    // Free again: the layout runs.
    get_json(&server, "/ui/api/graph?network=g");
}
