//! Long calls as MCP tasks (the `io.modelcontextprotocol/tasks` extension), driven
//! by rmcp's own client: a handle at once, polling to the same result a direct
//! call gives, cancellation that frees the compute thread, the per-session bound,
//! the scope of a session, and expiry.

use std::sync::Arc;
use std::time::{Duration, Instant};

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use networks_mcp::network::Network;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ClientConfig, CreateTaskResult, DetailedTask, GetTaskParams, Implementation, TaskPayload,
    TaskStatus,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

use crate::common::{self, every_toolset, serve_in_process};

type TasksClient = RunningService<RoleClient, ClientConfig>;

/// A client that declares the tasks extension, on a session of `server`.
async fn tasks_client(server: &NetworksServer) -> TasksClient {
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("tasks-test", "1"),
    )
    .serve(serve_in_process(server.for_session()))
    .await
    .expect("client handshake")
}

/// A client that does not know tasks, on a session of `server`.
async fn plain_client(server: &NetworksServer) -> common::Client {
    ().serve(serve_in_process(server.for_session()))
        .await
        .expect("client handshake")
}

fn params(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(tool.to_string()).with_arguments(arguments)
}

/// Calls `tool` and expects a task handle.
async fn start(client: &TasksClient, tool: &str, arguments: Value) -> CreateTaskResult {
    match client.call_tool_once(params(tool, arguments)).await {
        Ok(CallToolResponse::Task(task)) => task,
        other => panic!("{tool} should run as a task: {other:?}"),
    }
}

/// Calls `tool` and expects a direct answer.
async fn direct(client: &TasksClient, tool: &str, arguments: Value) -> CallToolResult {
    match client.call_tool_once(params(tool, arguments)).await {
        Ok(CallToolResponse::Complete(result)) => result,
        other => panic!("{tool} should answer directly: {other:?}"),
    }
}

async fn get(client: &TasksClient, id: &str) -> Result<DetailedTask, ServiceError> {
    client
        .get_task(GetTaskParams::new(id.to_string()))
        .await
        .map(|result| result.task)
}

/// Polls `id` until it is terminal, for at most `within`.
async fn settle(client: &TasksClient, id: &str, within: Duration) -> DetailedTask {
    let started = Instant::now();
    loop {
        let task = get(client, id).await.expect("tasks/get");
        if task.status().is_terminal() {
            return task;
        }
        assert!(
            started.elapsed() < within,
            "task {id} still {:?} after {within:?}",
            task.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn completed(task: DetailedTask) -> CallToolResult {
    match task.payload {
        TaskPayload::Completed { result } => {
            serde_json::from_value(Value::Object(result)).expect("a CallToolResult")
        }
        other => panic!("expected a completed task, got {other:?}"),
    }
}

/// `nodes` nodes on a ring with chords: exact betweenness on it is a long call
/// (tens of seconds in a debug build), just under the server's work cap.
fn heavy_network(nodes: usize) -> Network {
    let mut network = Network::new();
    for i in 0..nodes {
        network.add_node(&format!("n{i}")).expect("node");
    }
    for i in 0..nodes {
        for step in [1, 7, 31] {
            let (a, b) = (format!("n{i}"), format!("n{}", (i + step) % nodes));
            network.add_edge(&a, &b, 1.0).expect("edge");
        }
    }
    network
}

const HEAVY: &str = "heavy";

fn heavy_call() -> Value {
    json!({"network_name": HEAVY, "measure": "betweenness"})
}

/// A server with every toolset, one heavy compute thread, and `heavy_network`.
fn server(tune: impl FnOnce(&mut ServerOptions)) -> NetworksServer {
    let registry = Arc::new(NetworkRegistry::new());
    registry
        .insert(HEAVY, heavy_network(20_000))
        .expect("insert");
    // Made here rather than by calls: a batch of edges runs on the heavy lane,
    // which the tests below keep busy on purpose.
    let mut plan = Network::new();
    for (source, target, weight) in common::RELEASE_PLAN {
        for id in [source, target] {
            plan.add_node(id).expect("node");
        }
        plan.add_edge(source, target, *weight).expect("edge");
    }
    registry.insert("plan", plan).expect("insert");
    let mut options = every_toolset();
    options.compute.threads = 1;
    // Every call offered as a task becomes one, however quick: the tests below
    // are about tasks (the default answers calls that end within a second directly).
    options.tasks.answer_directly_within = Duration::ZERO;
    tune(&mut options);
    NetworksServer::new(registry, options)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_call_is_a_task_whose_result_is_the_direct_answer() {
    let server = server(|_| {});
    let plain = plain_client(&server).await;
    let client = tasks_client(&server).await;

    for (tool, arguments) in [
        (
            "network_centrality",
            json!({"network_name": "plan", "measure": "pagerank"}),
        ),
        (
            "network_export",
            json!({"network_name": "plan", "format": "graphml"}),
        ),
        (
            "network_paths",
            json!({"network_name": "plan", "source": "ship", "target": "schema", "method": "k_shortest"}),
        ),
    ] {
        let created = start(&client, tool, arguments.clone()).await;
        assert_eq!(created.task.status, TaskStatus::Working);
        assert!(created.task.ttl_ms.is_some(), "a task says when it expires");
        let from_task =
            completed(settle(&client, &created.task.task_id, Duration::from_secs(20)).await);
        let answered = plain
            .call_tool(params(tool, arguments))
            .await
            .expect("direct call");
        // The same result; only the wire's resultType may differ, as the plain
        // client speaks an older protocol version.
        assert_eq!(
            (
                &from_task.content,
                &from_task.structured_content,
                from_task.is_error
            ),
            (
                &answered.content,
                &answered.structured_content,
                answered.is_error
            ),
            "{tool}: the task's result is the direct answer"
        );
        assert_ne!(from_task.is_error, Some(true), "{from_task:?}");
    }

    // An error is a completed task carrying the error object, as a direct call
    // answers it.
    let created = start(
        &client,
        "network_centrality",
        json!({"network_name": "nope", "measure": "pagerank"}),
    )
    .await;
    let failed = completed(settle(&client, &created.task.task_id, Duration::from_secs(20)).await);
    assert_eq!(failed.is_error, Some(true));
    let body = failed.structured_content.expect("error object");
    assert_eq!(body["code"], "network_not_found", "{body}");

    // Cheap calls stay direct for a client that accepts tasks, and a client that
    // does not accept them gets every call answered directly.
    let listed = direct(&client, "network_list", json!({})).await;
    assert_ne!(listed.is_error, Some(true));
    common::ok(
        &plain,
        "network_centrality",
        json!({"network_name": "plan", "measure": "pagerank"}),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_task_stops_its_computation_and_frees_the_lane() {
    let server = server(|_| {});
    let client = tasks_client(&server).await;
    let created = start(&client, "network_centrality", heavy_call()).await;
    let id = created.task.task_id;
    // Let it start computing, and check that it is still at it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        get(&client, &id).await.expect("get").status(),
        TaskStatus::Working
    );

    let cancelled_at = Instant::now();
    client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel");
    let task = settle(&client, &id, Duration::from_secs(2)).await;
    assert_eq!(task.status(), TaskStatus::Cancelled, "{task:?}");
    assert!(
        cancelled_at.elapsed() < Duration::from_secs(1),
        "the task took {:?} to stop",
        cancelled_at.elapsed()
    );

    // The one heavy thread is free again: the next heavy call runs at once
    // instead of queueing behind a computation nobody wants.
    let plain = plain_client(&server).await;
    assert_heavy_lane_free(&plain, "the heavy lane was still busy").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_has_a_bounded_number_of_unfinished_tasks_and_sees_only_its_own() {
    let server = server(|options| options.tasks.max_per_session = 2);
    let client = tasks_client(&server).await;
    let first = start(&client, "network_centrality", heavy_call()).await;
    let second = start(&client, "network_centrality", heavy_call()).await;

    // The third is refused with an error object that says what to do.
    let refused = direct(&client, "network_centrality", heavy_call()).await;
    assert_eq!(refused.is_error, Some(true));
    let body = refused.structured_content.expect("error object");
    assert_eq!(body["code"], "limit_exceeded", "{body}");
    let message = body["error"].as_str().unwrap_or_default();
    assert!(message.contains("unfinished tasks"), "{message}");
    assert!(message.contains("tasks/cancel"), "{message}");

    // Another session has a bound of its own, and cannot see or cancel the
    // first session's tasks: to it they do not exist.
    let other = tasks_client(&server).await;
    let theirs = start(&other, "network_centrality", heavy_call()).await;
    for id in [&first.task.task_id, &second.task.task_id] {
        let error = get(&other, id).await.expect_err("another session's task");
        let ServiceError::McpError(error) = error else {
            panic!("expected a JSON-RPC error, got {error:?}")
        };
        assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("unknown task"), "{}", error.message);
        assert!(
            other
                .cancel_task(CancelTaskParams::new(id.clone()))
                .await
                .is_err()
        );
    }
    assert_eq!(
        get(&client, &first.task.task_id)
            .await
            .expect("own task")
            .status(),
        TaskStatus::Working,
        "the other session's cancel did nothing"
    );

    // A finished task no longer counts: cancel one, and a new one starts.
    client
        .cancel_task(CancelTaskParams::new(first.task.task_id.clone()))
        .await
        .expect("cancel");
    settle(&client, &first.task.task_id, Duration::from_secs(2)).await;
    let third = start(&client, "network_centrality", heavy_call()).await;

    // Leave nothing running behind the test.
    for (session, id) in [
        (&client, &second.task.task_id),
        (&client, &third.task.task_id),
        (&other, &theirs.task.task_id),
    ] {
        session
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .expect("cancel");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_expire_and_a_task_past_its_ttl_is_stopped() {
    let server = server(|options| options.tasks.ttl = Duration::from_millis(400));
    let plain = plain_client(&server).await;
    let client = tasks_client(&server).await;

    // A quick task's result is there, then forgotten one TTL later.
    let quick = start(
        &client,
        "network_centrality",
        json!({"network_name": "plan", "measure": "pagerank"}),
    )
    .await;
    assert_eq!(quick.task.ttl_ms, Some(400));
    let done = settle(&client, &quick.task.task_id, Duration::from_secs(5)).await;
    assert_eq!(done.status(), TaskStatus::Completed);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let error = get(&client, &quick.task.task_id)
        .await
        .expect_err("an expired result is gone");
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error:?}")
    };
    assert!(error.message.contains("unknown task"), "{}", error.message);

    // A task still running at its TTL is failed, and its computation stops.
    let slow = start(&client, "network_centrality", heavy_call()).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let task = get(&client, &slow.task.task_id).await.expect("get");
    assert_eq!(task.status(), TaskStatus::Failed, "{task:?}");
    assert_heavy_lane_free(&plain, "the expired task still held the heavy lane").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_that_ends_stops_its_tasks() {
    let server = server(|_| {});
    let client = tasks_client(&server).await;
    start(&client, "network_centrality", heavy_call()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    client.cancel().await.expect("close the session");

    // Nobody can read that task any more, so its thread is given back.
    let plain = plain_client(&server).await;
    assert_heavy_lane_free(
        &plain,
        "the closed session's task still held the heavy lane",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_holding_many_results_is_answered_directly() {
    let server = server(|options| options.tasks.max_per_session = 1);
    let client = tasks_client(&server).await;
    let pagerank = json!({"network_name": "plan", "measure": "pagerank"});
    for _ in 0..networks_mcp::mcp::tasks::KEPT_PER_UNFINISHED {
        let created = start(&client, "network_centrality", pagerank.clone()).await;
        settle(&client, &created.task.task_id, Duration::from_secs(20)).await;
    }
    // Every kept result is still readable, so the next call is not made a
    // task: it is answered in the reply, as for a client without tasks.
    let answered = direct(&client, "network_centrality", pagerank).await;
    assert_ne!(answered.is_error, Some(true), "{answered:?}");
    let body = answered.structured_content.expect("result");
    assert_eq!(body["total"], 6, "{body}");
}

/// Over HTTP with protocol 2026-07-28 every request stands alone: a task made by
/// one request is read by the next, and a 2025 session cannot read it.
#[test]
fn over_http_a_sessionless_task_is_read_by_a_later_request_and_not_by_a_session() {
    use crate::common::http::{Server, Session, client, jsonrpc_body};
    let server = Server::start(&["--task-after-ms", "0"], &[]);
    let http = client();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        }
    });
    let request = |id: u64, method: &str, name: &str, mut params: Value| {
        params["_meta"] = meta.clone();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let response = Session::post(&http, &server.url("/mcp"), None, &body)
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .header("mcp-name", name)
            .send()
            .expect("POST /mcp");
        jsonrpc_body(response)
    };
    let created = request(
        1,
        "tools/call",
        "network_import",
        json!({"name": "network_import", "arguments": {
            "network_name": "g", "format": "edge_list_csv", "content": "source,target\na,b\n"
        }}),
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"]
        .as_str()
        .expect("taskId")
        .to_string();

    let started = Instant::now();
    let task = loop {
        let reply = request(2, "tasks/get", &id, json!({"taskId": id}));
        if reply["result"]["status"] != "working" {
            break reply["result"].clone();
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{reply}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(
        task["result"]["structuredContent"]["created_edge_count"], 1,
        "{task}"
    );

    // A 2025 session that declares the extension on the request.
    let mut session = Session::open(&server, None);
    let declared = json!({"io.modelcontextprotocol/clientCapabilities": {
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    }});
    let reply = session.call("tasks/get", json!({"taskId": id, "_meta": declared}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("unknown task"), "{reply}");
}

#[tokio::test]
async fn a_call_that_ends_within_the_grace_is_answered_directly_and_a_long_one_is_a_task() {
    let server = server(|options| {
        options.tasks.answer_directly_within = Duration::from_millis(800);
    });
    let client = tasks_client(&server).await;
    let plain = plain_client(&server).await;
    // A quick export: the result itself, as a client without tasks gets it, so
    // that a client which declares the extension but reads every reply as a
    // result (the MCP Inspector's command line does) sees structuredContent.
    let arguments = json!({"network_name": "plan", "format": "dot"});
    let answered = direct(&client, "network_export", arguments.clone()).await;
    let expected = plain
        .call_tool(params("network_export", arguments))
        .await
        .expect("a direct export");
    assert_eq!(answered.structured_content, expected.structured_content);
    assert!(answered.structured_content.is_some());
    assert_eq!(answered.content, expected.content);
    // A long call still gives a handle at once, well before it ends.
    let started = Instant::now();
    let created = start(&client, "network_centrality", heavy_call()).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    client
        .cancel_task(CancelTaskParams::new(created.task.task_id.clone()))
        .await
        .expect("tasks/cancel");
}

/// The heavy lane's one thread is free: a heavy call answers within 2 s instead
/// of queueing behind a computation nobody wants; `held` says what held it.
async fn assert_heavy_lane_free(plain: &common::Client, held: &str) {
    let before = Instant::now();
    common::ok(
        plain,
        "network_centrality",
        json!({"network_name": "plan", "measure": "betweenness"}),
    )
    .await;
    assert!(
        before.elapsed() < Duration::from_secs(2),
        "{held}: {:?}",
        before.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_runs_under_its_own_longer_deadline() {
    // A direct call gets 100 ms; a task gets a minute. Betweenness on a
    // 2,000-node ring with chords takes far longer than the first and far
    // less than the second.
    let server = server(|options| {
        options.compute.max_call = Duration::from_millis(100);
        options.compute.max_task = Duration::from_secs(60);
    });
    let registry = server.registry();
    registry
        .insert("ring", heavy_network(2_000))
        .expect("insert");
    let plain = plain_client(&server).await;
    let client = tasks_client(&server).await;
    let arguments = json!({"network_name": "ring", "measure": "betweenness"});
    let answered = plain
        .call_tool(params("network_centrality", arguments.clone()))
        .await
        .expect("direct call");
    let body = answered.structured_content.expect("error object");
    assert_eq!(body["code"], "deadline_exceeded", "{body}");
    let created = start(&client, "network_centrality", arguments).await;
    let done = completed(settle(&client, &created.task.task_id, Duration::from_secs(60)).await);
    assert_ne!(done.is_error, Some(true), "{done:?}");
    let body = done.structured_content.expect("a result");
    assert_eq!(body["status"], "success", "{body}");
}
