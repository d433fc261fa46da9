//! The real binary over streamable HTTP on 127.0.0.1 with an ephemeral port: the MCP
//! handshake and tool calls, the bearer token, the DNS-rebinding defence, health,
//! readiness and metrics, read-only mode, the body limit, the bind policy, the config
//! file and graceful shutdown.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::Response;
use serde_json::{Value, json};

use crate::common::http::{PROTOCOL, Server, Session, client, wait_exit};
use crate::common::spawn_http as spawn;

fn get(server: &Server, path: &str, token: Option<&str>) -> Response {
    let mut request = client().get(server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().unwrap()
}

/// The value of one sample line (`name{labels} value`) in a Prometheus exposition.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series) && l[series.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[test]
fn initialize_list_and_call_over_http_share_one_registry() {
    let server = Server::start(&[], &[]);
    let mut a = Session::open(&server, None);
    let names = a.tool_names();
    for tool in [
        "network_add_node",
        "network_add_edge",
        "network_get_neighbors",
    ] {
        assert!(names.iter().any(|n| n == tool), "{tool} missing: {names:?}");
    }
    let out = a.tool("network_create", json!({"network_name": "plan"}));
    assert_eq!(out["status"], "success", "{out}");
    for id in ["a", "b"] {
        let out = a.tool(
            "network_add_node",
            json!({"network_name": "plan", "node_id": id}),
        );
        assert_eq!(out["status"], "success", "{out}");
    }
    let out = a.tool(
        "network_add_edge",
        json!({"network_name": "plan", "source": "a", "target": "b"}),
    );
    assert_eq!(out["status"], "success", "{out}");

    // A second session sees the same registry.
    let mut b = Session::open(&server, None);
    assert_ne!(a.session_id, b.session_id);
    let out = b.tool(
        "network_get_neighbors",
        json!({"network_name": "plan", "node_id": "a"}),
    );
    assert_eq!(out["status"], "success", "{out}");
    assert_eq!(out["neighbors"], json!(["b"]), "{out}");

    // An error is an error object, not a protocol error.
    let reply = b.call(
        "tools/call",
        json!({"name": "network_add_edge", "arguments": {"network_name": "nope", "source": "a", "target": "b"}}),
    );
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_eq!(reply["result"]["structuredContent"]["status"], "error");
}

#[test]
fn token_guards_mcp_and_metrics_but_not_health() {
    let token = "correct-horse-battery-staple";
    let server = Server::start(&[], &[("NETWORKS_MCP_AUTH_TOKEN", token)]);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let http = client();
    for wrong in [None, Some("wrong"), Some("correct-horse-battery-stapl")] {
        let response = Session::post(&http, &server.url("/mcp"), wrong, &init)
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{wrong:?}");
        assert!(response.headers().contains_key("www-authenticate"));
        assert_eq!(
            get(&server, "/metrics", wrong).status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let mut session = Session::open(&server, Some(token));
    assert!(!session.tool_names().is_empty());
    assert_eq!(
        get(&server, "/metrics", Some(token)).status(),
        StatusCode::OK
    );
    assert_eq!(get(&server, "/healthz", None).status(), StatusCode::OK);
    assert_eq!(get(&server, "/readyz", None).status(), StatusCode::OK);
    assert!(
        !server.stderr().contains(token),
        "the token must not be logged"
    );
}

#[test]
fn token_from_a_file() {
    let dir = std::env::temp_dir().join(format!("networks-mcp-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("token");
    std::fs::write(&path, "from-file-token\n").unwrap();
    let server = Server::start(&["--auth-token-file", path.to_str().unwrap()], &[]);
    assert_eq!(
        get(&server, "/metrics", None).status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        get(&server, "/metrics", Some("from-file-token")).status(),
        StatusCode::OK
    );
}

#[test]
fn bad_host_or_origin_is_forbidden() {
    let server = Server::start(&["--allowed-origin", "https://app.example.com"], &[]);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let http = client();
    let mcp = server.url("/mcp");
    let port = server.port;
    let cases: [(&str, &str, StatusCode); 7] = [
        ("host", "evil.example", StatusCode::FORBIDDEN),
        ("host", "localhost:1", StatusCode::FORBIDDEN),
        ("origin", "http://evil.example", StatusCode::FORBIDDEN),
        ("origin", "null", StatusCode::FORBIDDEN),
        ("origin", "http://localhost:5173", StatusCode::OK),
        ("origin", "https://app.example.com", StatusCode::OK),
        ("host", "", StatusCode::OK), // replaced below by localhost:PORT
    ];
    for (name, value, expected) in cases {
        let value = if value.is_empty() {
            format!("localhost:{port}")
        } else {
            value.to_string()
        };
        let response = Session::post(&http, &mcp, None, &init)
            .header(name, &value)
            .send()
            .unwrap();
        assert_eq!(response.status(), expected, "{name}: {value}");
    }
    let metrics = client()
        .get(server.url("/metrics"))
        .header("host", "evil.example")
        .send()
        .unwrap();
    assert_eq!(metrics.status(), StatusCode::FORBIDDEN);
    // Probes stay open whatever the Host (load balancers use the pod address).
    let health = client()
        .get(server.url("/healthz"))
        .header("host", "10.0.0.7:8080")
        .send()
        .unwrap();
    assert_eq!(health.status(), StatusCode::OK);
}

#[test]
fn health_and_readiness() {
    let server = Server::start(&[], &[]);
    let health = get(&server, "/healthz", None);
    assert_eq!(health.status(), StatusCode::OK);
    assert_eq!(health.text().unwrap().trim(), "ok");
    let ready = get(&server, "/readyz", None);
    assert_eq!(ready.status(), StatusCode::OK);
    assert_eq!(ready.text().unwrap().trim(), "ready");
    assert_eq!(get(&server, "/nope", None).status(), StatusCode::NOT_FOUND);
}

#[test]
fn metrics_move_after_calls() {
    let server = Server::start(&[], &[]);
    let before = get(&server, "/metrics", None);
    assert_eq!(before.status(), StatusCode::OK);
    assert!(
        before
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let before = before.text().unwrap();
    assert_eq!(
        sample(&before, "networks_mcp_networks"),
        Some(0.0),
        "{before}"
    );

    let mut session = Session::open(&server, None);
    session.tool("network_create", json!({"network_name": "m"}));
    for id in ["x", "y", "z"] {
        session.tool(
            "network_add_node",
            json!({"network_name": "m", "node_id": id}),
        );
    }
    session.tool(
        "network_add_edge",
        json!({"network_name": "m", "source": "x", "target": "y"}),
    );
    session.tool(
        "network_add_edge",
        json!({"network_name": "m", "source": "x", "target": "missing"}),
    );

    let after = get(&server, "/metrics", None).text().unwrap();
    let series = |tool: &str, name: &str| {
        sample(&after, &format!("{name}{{tool=\"{tool}\"}}"))
            .unwrap_or_else(|| panic!("{name} {tool} in {after}"))
    };
    assert_eq!(
        series("network_add_node", "networks_mcp_tool_calls_total"),
        3.0
    );
    assert_eq!(
        series("network_add_edge", "networks_mcp_tool_calls_total"),
        2.0
    );
    assert_eq!(
        series("network_add_edge", "networks_mcp_tool_errors_total"),
        1.0
    );
    assert_eq!(
        series("network_add_node", "networks_mcp_tool_call_seconds_count"),
        3.0
    );
    assert!(
        after.contains("networks_mcp_tool_call_seconds_bucket{tool=\"network_add_node\",le=\""),
        "{after}"
    );
    assert_eq!(sample(&after, "networks_mcp_networks"), Some(1.0));
    assert_eq!(sample(&after, "networks_mcp_nodes"), Some(3.0));
    assert_eq!(sample(&after, "networks_mcp_edges"), Some(1.0));
}

#[test]
fn read_only_over_http_refuses_writes_and_changes_nothing() {
    let server = Server::start(&["--read-only"], &[]);
    let mut session = Session::open(&server, None);
    let names = session.tool_names();
    assert!(names.iter().any(|n| n == "network_get_neighbors"));
    assert!(!names.iter().any(|n| n == "network_add_node"), "{names:?}");
    assert!(!names.iter().any(|n| n == "network_create"), "{names:?}");

    let reply = session.call(
        "tools/call",
        json!({"name": "network_create", "arguments": {"network_name": "x"}}),
    );
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_eq!(
        reply["result"]["structuredContent"]["code"], "read_only",
        "{reply}"
    );
    let listed = session.tool("network_list", json!({}));
    assert_eq!(listed["networks"], json!([]), "{listed}");
    let metrics = get(&server, "/metrics", None).text().unwrap();
    assert_eq!(sample(&metrics, "networks_mcp_networks"), Some(0.0));
}

#[test]
fn oversized_bodies_are_rejected_before_parsing() {
    let server = Server::start(&["--max-body-bytes", "4096"], &[]);
    let http = client();
    let padding = "x".repeat(8192);
    let big = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": padding, "version": "1"}}});
    // With a Content-Length.
    let response = Session::post(&http, &server.url("/mcp"), None, &big)
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // Chunked, without a length: counted while streaming.
    // The server answers 413 and closes the connection with the rest of the body
    // unread, which the kernel may turn into a reset that the client sees before
    // the answer; such an attempt is retried (an accepted body never is).
    let bytes = serde_json::to_vec(&big).unwrap();
    let chunked = || {
        http.post(server.url("/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(reqwest::blocking::Body::new(std::io::Cursor::new(
                bytes.clone(),
            )))
            .send()
    };
    let response = (0..5)
        .find_map(|_| chunked().ok())
        .expect("five chunked attempts were all reset before any answer");
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // The server still serves ordinary requests.
    let mut session = Session::open(&server, None);
    assert!(!session.tool_names().is_empty());
}

#[test]
fn non_loopback_bind_needs_a_token_or_an_explicit_opt_out() {
    let mut refused = Command::new(env!("CARGO_BIN_EXE_networks-mcp"))
        .args(["--http", "0.0.0.0:0"])
        .env_remove("NETWORKS_MCP_AUTH_TOKEN")
        .env_remove("NETWORKS_MCP_INSECURE_NO_AUTH")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_exit(&mut refused, Duration::from_secs(20));
    let mut stderr = String::new();
    refused
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("refusing to serve"), "{stderr}");

    let (mut child, lines, rx) = spawn(&["--http", "0.0.0.0:0", "--insecure-no-auth"], &[]);
    let started = rx.recv_timeout(Duration::from_secs(20));
    let _ = child.kill();
    let _ = child.wait();
    assert!(started.is_ok(), "{}", lines.lock().unwrap().join("\n"));
    assert!(
        lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("WITHOUT authentication")),
        "a warning is logged"
    );
}

#[test]
fn config_file_settings_apply_and_the_command_line_wins() {
    let dir = std::env::temp_dir().join(format!("networks-mcp-http-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("networks-mcp.toml");
    std::fs::write(
        &path,
        "http = \"127.0.0.1:1\"\nread-only = true\nmax-body-bytes = 100\nallowed-host = [\"mcp.example.com\"]\n",
    )
    .unwrap();
    // `spawn` passes --http 127.0.0.1:0 and --max-body-bytes on the command line: they win.
    let server = Server::start(
        &[
            "--config",
            path.to_str().unwrap(),
            "--max-body-bytes",
            "100000",
        ],
        &[],
    );
    let mut session = Session::open(&server, None);
    let names = session.tool_names();
    assert!(
        !names.iter().any(|n| n == "network_add_node"),
        "read-only from the file"
    );
    let response = client()
        .get(server.url("/metrics"))
        .header("host", "mcp.example.com")
        .send()
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "allowed-host from the file"
    );
}

#[cfg(unix)]
#[test]
fn sigterm_drains_and_exits_zero() {
    let server = Server::start(&[], &[]);
    let mut session = Session::open(&server, None);
    session.tool("network_create", json!({"network_name": "s"}));
    // An open standalone SSE stream must not hold the shutdown up.
    let sse = client()
        .get(server.url("/mcp"))
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session.session_id)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .unwrap();
    assert_eq!(sse.status(), StatusCode::OK);
    let started = Instant::now();
    let stderr = server.stderr.clone();
    let status = server.terminate();
    let log = stderr.lock().unwrap().join("\n");
    assert!(status.success(), "exit {status:?}\n{log}");
    assert!(started.elapsed() < Duration::from_secs(8), "{log}");
    assert!(log.contains("HTTP server stopped"), "{log}");
    drop(sse);
}

/// A data directory whose journal takes a while to replay: /readyz and /mcp say 503
/// while it does, then 200 with the whole state.
#[test]
fn readiness_waits_for_durable_recovery() {
    use networks_mcp::storage::journal::encode;
    let dir = std::env::temp_dir().join(format!("networks-mcp-readyz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut journal = Vec::new();
    let records = 150_000u64;
    journal.extend(encode(
        json!({"seq": 1, "tool": "network_create", "arguments": {"network_name": "big"}})
            .to_string()
            .as_bytes(),
    ));
    for i in 0..records {
        let call = json!({"seq": i + 2, "tool": "network_add_node", "arguments": {"network_name": "big", "node_id": format!("n{i}")}});
        journal.extend(encode(call.to_string().as_bytes()));
    }
    std::fs::write(dir.join("journal.bin"), journal).unwrap();

    let data_dir = dir.to_string_lossy().to_string();
    let server = Server::start(&["--data-dir", &data_dir], &[]);
    let first = get(&server, "/readyz", None).status();
    let mcp_early = Session::post(
        &client(),
        &server.url("/mcp"),
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    )
    .send()
    .unwrap()
    .status();
    let started = std::time::Instant::now();
    while get(&server, "/readyz", None).status() != StatusCode::OK {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "never became ready"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        first,
        StatusCode::SERVICE_UNAVAILABLE,
        "not ready before recovery ends"
    );
    assert_eq!(
        mcp_early,
        StatusCode::SERVICE_UNAVAILABLE,
        "/mcp refused before recovery ends"
    );
    let mut session = Session::open(&server, None);
    let listed = session.tool("network_list", json!({}));
    assert_eq!(listed["networks"][0]["node_count"], records, "{listed}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dry_run_over_http_reports_and_changes_nothing() {
    let server = Server::start(&["--dry-run"], &[]);
    let mut session = Session::open(&server, None);
    let would = session.tool("network_create", json!({"network_name": "x"}));
    assert_eq!(would["dry_run"], true, "{would}");
    assert_eq!(would["status"], "success", "{would}");
    let listed = session.tool("network_list", json!({}));
    assert_eq!(listed["total"], 0, "{listed}");
}

/// Malformed JSON-RPC over HTTP gets the JSON-RPC error stdio gives, never 415
/// or silence, and the server keeps serving.
#[test]
fn malformed_requests_get_json_rpc_errors() {
    let server = Server::start(&[], &[]);
    let mut session = Session::open(&server, None);
    let raw = |body: &[u8]| {
        session
            .request(&Value::Null)
            .body(body.to_vec())
            .send()
            .unwrap()
    };
    let cases: [(&[u8], Value, i64); 5] = [
        (b"{not json", Value::Null, -32700),
        (b"\xff\xfe", Value::Null, -32700),
        (br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#, Value::Null, -32600),
        (br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, Value::Null, -32600),
        (br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"network_list","arguments":["x"]}}"#, json!(5), -32602),
    ];
    for (body, id, code) in cases {
        let response = raw(body);
        assert_eq!(
            response.status(),
            StatusCode::BAD_REQUEST,
            "{}",
            String::from_utf8_lossy(body)
        );
        let reply: Value = response.json().unwrap();
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(reply["id"], id, "{reply}");
    }
    assert!(!session.tool_names().is_empty(), "still serving");
}

/// Sessions are capped (503 with Retry-After beyond the cap), and an idle one
/// is closed after --session-idle-timeout, which frees its place.
#[test]
fn sessions_are_capped_and_idle_ones_expire() {
    let server = Server::start(&["--max-sessions", "2", "--session-idle-timeout", "2"], &[]);
    let mut first = Session::open(&server, None);
    let _second = Session::open(&server, None);
    let http = client();
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                   "clientInfo": {"name": "third", "version": "1"}}
    });
    let refused = Session::post(&http, &server.url("/mcp"), None, &init)
        .send()
        .unwrap();
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.headers().get("retry-after").is_some());
    let body: Value = refused.json().unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--max-sessions"),
        "{body}"
    );
    // Open sessions keep working.
    assert!(!first.tool_names().is_empty());
    // Idle sessions expire and free their places.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let response = Session::post(&http, &server.url("/mcp"), None, &init)
            .send()
            .unwrap();
        if response.status() == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "idle sessions never expired");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// A client that drops its connection while its call runs stops the call: with
/// one heavy thread and no queue, the next heavy call finds the thread free.
#[test]
fn a_call_whose_connection_closes_stops() {
    let server = Server::start(
        &[
            "--toolsets",
            "core,edit,analysis,interchange,algorithms",
            "--compute-threads",
            "1",
            "--max-queued-calls",
            "0",
        ],
        &[],
    );
    let mut session = Session::open(&server, None);
    let mut csv = String::from("source,target\n");
    for i in 0..3_000 {
        csv.push_str(&format!("n{i},n{}\nn{i},n{}\n", i + 1, (i * 7 + 3) % 3_000));
    }
    session.ok(
        "network_import",
        json!({"network_name": "g", "format": "edge_list_csv", "content": csv}),
    );
    let endless = json!({"jsonrpc": "2.0", "id": 900, "method": "tools/call", "params": {
        "name": "network_centrality",
        "arguments": {"network_name": "g", "measure": "pagerank", "damping": 1.0,
                      "tolerance": 1e-300, "max_iterations": 100_000}}});
    // Gives up after 500 ms and closes the connection.
    let impatient = session
        .request(&endless)
        .timeout(Duration::from_millis(500));
    assert!(impatient.send().and_then(|r| r.text()).is_err());
    let started = Instant::now();
    loop {
        let reply = session.tool(
            "network_centrality",
            json!({"network_name": "g", "measure": "degree"}),
        );
        if reply["status"] == "success" {
            break;
        }
        assert_eq!(reply["code"], "server_busy", "{reply}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the abandoned call still holds the heavy thread"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Idle sessions beyond the few kept live are parked (their rmcp worker
/// closed, their `initialize` parameters kept), and each comes back at its next
/// request under the same id; a session that holds state of its own (a toolset
/// turned on) is never parked, and a parked session ended by DELETE is gone.
#[test]
fn idle_sessions_are_parked_and_come_back_at_their_next_request() {
    let server = Server::start(&[], &[]);
    let mut holder = Session::open(&server, None);
    let turned = holder.tool("network_toolsets", json!({"enable": ["analysis"]}));
    assert_eq!(turned["status"], "success", "{turned}");
    let listed_before = holder.tool_names();
    assert!(
        listed_before.iter().any(|n| n == "network_shortest_path"),
        "{listed_before:?}"
    );
    let mut idle: Vec<Session> = (0..40).map(|_| Session::open(&server, None)).collect();
    let metrics = |state: &str| {
        let text = get(&server, "/metrics", None).text().unwrap();
        sample(
            &text,
            &format!("networks_mcp_http_sessions{{state=\"{state}\"}}"),
        )
        .unwrap_or(0.0)
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    // 41 sessions: at most 16 idle ones stay live, the holder among the rest.
    while metrics("parked") < 24.0 {
        assert!(Instant::now() < deadline, "sessions were never parked");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(metrics("live") <= 17.0, "live: {}", metrics("live"));
    // Every session answers, parked or not, and they share one registry.
    idle[0].ok("network_create", json!({"network_name": "parked"}));
    for (i, session) in idle.iter_mut().enumerate() {
        session.ok(
            "network_add_node",
            json!({"network_name": "parked", "node_id": format!("n{i}")}),
        );
    }
    let listed = idle[39].ok("network_list", json!({}));
    assert!(listed.to_string().contains("\"parked\""), "{listed}");
    // The holder kept its toolset: it was never parked.
    assert_eq!(holder.tool_names(), listed_before);
    // A session ended by DELETE does not come back.
    while metrics("parked") < 24.0 {
        assert!(
            Instant::now() < deadline,
            "sessions were never parked again"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let gone = idle.pop().unwrap();
    let deleted = client()
        .delete(server.url("/mcp"))
        .header("mcp-session-id", &gone.session_id)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    let after = gone
        .request(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}))
        .send()
        .unwrap();
    assert_eq!(after.status(), StatusCode::NOT_FOUND);
}
