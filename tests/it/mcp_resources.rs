//! Resources, resource templates, subscriptions, prompts and client logging,
//! through the rmcp client against the real server factory.

// resources/subscribe and logging are the 2025-protocol ways, deprecated in rmcp.
#![allow(deprecated)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, LoggingMessageNotificationParam,
    ReadResourceRequestParams, ResourceContents, ResourceUpdatedNotificationParam,
    SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// A client that records the notifications it receives.
#[derive(Clone)]
struct Recorder(mpsc::UnboundedSender<String>);

#[allow(deprecated)]
impl ClientHandler for Recorder {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(format!("updated {}", params.uri));
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("list_changed".into());
    }

    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(format!(
            "progress {} {}",
            params.progress,
            params.total.unwrap_or(-1.0)
        ));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self
            .0
            .send(format!("log {:?} {}", params.level, params.data));
    }
}

type Client = RunningService<RoleClient, Recorder>;

async fn connect_to(server: NetworksServer) -> (Client, mpsc::UnboundedReceiver<String>) {
    let client_end = common::serve_in_process(server);
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Recorder(tx).serve(client_end).await.expect("handshake");
    (client, rx)
}

async fn call(client: &Client, tool: &str, arguments: Value) -> Value {
    let Value::Object(map) = arguments else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .expect("call");
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
    result.structured_content.expect("structured")
}

async fn next(rx: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .expect("a notification within 5 s")
        .expect("channel open")
}

fn text(contents: &ResourceContents) -> (&str, Option<&str>) {
    match contents {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => (text, mime_type.as_deref()),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn each_network_is_a_resource_with_a_summary_and_export_templates() {
    let registry = Arc::new(NetworkRegistry::new());
    let server = NetworksServer::new(registry, ServerOptions::default());
    let (client, _rx) = connect_to(server).await;
    call(
        &client,
        "network_create",
        json!({"network_name": "deps/a b"}),
    )
    .await;
    for (id, target) in [("cli", "agents"), ("agents", "logging")] {
        call(
            &client,
            "network_add_edges",
            json!({"network_name": "deps/a b", "edges": [{"source": id, "target": target}], "create_missing_nodes": true}),
        )
        .await;
    }

    let listed: Vec<_> = client
        .list_resources(None)
        .await
        .expect("list")
        .resources
        .into_iter()
        .filter(|r| r.uri.starts_with("network://"))
        .collect();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].uri, "network://deps%2Fa%20b");
    assert_eq!(listed[0].name, "deps/a b");

    let read = client
        .read_resource(ReadResourceRequestParams::new(listed[0].uri.clone()))
        .await
        .expect("read");
    let (body, mime) = text(&read.contents[0]);
    assert_eq!(mime, Some("application/json"));
    let summary: Value = serde_json::from_str(body).unwrap();
    assert_eq!(summary["node_count"], 3);
    assert_eq!(summary["edge_count"], 2);
    assert_eq!(summary["is_dag"], true);
    assert_eq!(
        summary["exports"]["graphml"],
        "network://deps%2Fa%20b/export/graphml"
    );

    let templates = client
        .list_resource_templates(None)
        .await
        .expect("templates")
        .resource_templates;
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "network://{name}/export/{format}")
    );

    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "network://deps%2Fa%20b/export/dot",
        ))
        .await
        .expect("export");
    let (dot, mime) = text(&read.contents[0]);
    assert_eq!(mime, Some("text/vnd.graphviz"));
    assert!(
        dot.starts_with("// networks-mcp export: A -> B means A depends on B\ndigraph"),
        "{dot}"
    );
    assert!(dot.contains("\"cli\""), "{dot}");

    let missing = client
        .read_resource(ReadResourceRequestParams::new("network://nope"))
        .await
        .expect_err("unknown network");
    assert!(missing.to_string().contains("nope"), "{missing}");
    let foreign = client
        .read_resource(ReadResourceRequestParams::new("file:///etc/passwd"))
        .await
        .expect_err("not ours");
    assert!(foreign.to_string().contains("network://"), "{foreign}");
}

#[tokio::test]
async fn subscribers_hear_of_changes_and_every_session_of_new_networks() {
    let registry = Arc::new(NetworkRegistry::new());
    let server = NetworksServer::new(registry, ServerOptions::default());
    // Two sessions on one registry, as over HTTP.
    let (watcher, mut heard) = connect_to(server.for_session()).await;
    let (writer, _) = connect_to(server.for_session()).await;

    call(&writer, "network_create", json!({"network_name": "plan"})).await;
    assert_eq!(next(&mut heard).await, "list_changed");

    watcher
        .subscribe(SubscribeRequestParams::new("network://plan"))
        .await
        .expect("subscribe");
    call(
        &writer,
        "network_add_node",
        json!({"network_name": "plan", "node_id": "a"}),
    )
    .await;
    assert_eq!(next(&mut heard).await, "updated network://plan");

    // A duplicate add changes nothing visible but is still an applied call; a failed
    // call is not a change at all.
    let failed = writer
        .call_tool(
            CallToolRequestParams::new("network_add_node").with_arguments(
                json!({"network_name": "plan", "node_id": ""})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));

    call(
        &writer,
        "network_delete",
        json!({"network_name": "plan", "confirm": true}),
    )
    .await;
    let mut rest = vec![next(&mut heard).await, next(&mut heard).await];
    rest.sort();
    assert_eq!(rest, ["list_changed", "updated network://plan"]);

    let error = watcher
        .subscribe(SubscribeRequestParams::new("file:///x"))
        .await
        .expect_err("only our URIs");
    assert!(error.to_string().contains("network://"), "{error}");
}

#[tokio::test]
async fn prompts_are_listed_and_rendered_with_their_arguments() {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let (client, _rx) = connect_to(server).await;
    let prompts = client.list_prompts(None).await.expect("list").prompts;
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"plan_dependencies"), "{names:?}");
    assert!(names.contains(&"impact_analysis"), "{names:?}");
    let impact = prompts
        .iter()
        .find(|p| p.name == "impact_analysis")
        .unwrap();
    let required: Vec<&str> = impact
        .arguments
        .iter()
        .flatten()
        .filter(|a| a.required == Some(true))
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(required, ["network_name", "node_id"]);

    let mut args = serde_json::Map::new();
    args.insert("network_name".into(), json!("deps"));
    args.insert("node_id".into(), json!("logging"));
    let got = client
        .get_prompt(GetPromptRequestParams::new("impact_analysis").with_arguments(args))
        .await
        .expect("get");
    let rendered = serde_json::to_string(&got.messages).unwrap();
    assert!(rendered.contains("network_ancestors"), "{rendered}");
    assert!(rendered.contains("logging"), "{rendered}");

    let error = client
        .get_prompt(GetPromptRequestParams::new("impact_analysis"))
        .await
        .expect_err("arguments are required");
    assert!(error.to_string().contains("network_name"), "{error}");
}

#[tokio::test]
async fn a_client_that_sets_a_level_receives_log_messages_and_others_do_not() {
    // The real logging setup, which installs the layer that feeds clients.
    let _ = networks_mcp::logging::setup_logging(&networks_mcp::logging::LogConfig {
        // Nothing on stderr: other tests in this process log deliberate faults.
        level: Some("off".into()),
        ..Default::default()
    });
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let (client, mut heard) = connect_to(server).await;
    let fail = |marker: &str| {
        json!({"network_name": "absent", "node_id": marker})
            .as_object()
            .unwrap()
            .clone()
    };
    // Off by default: this failure (a warning) is not sent.
    client
        .call_tool(
            CallToolRequestParams::new("network_add_node").with_arguments(fail("marker_one")),
        )
        .await
        .unwrap();
    #[allow(deprecated)]
    client
        .set_level(rmcp::model::SetLevelRequestParams::new(
            rmcp::model::LoggingLevel::Warning,
        ))
        .await
        .expect("setLevel");
    client
        .call_tool(
            CallToolRequestParams::new("network_add_node").with_arguments(fail("marker_two")),
        )
        .await
        .unwrap();
    let log = next(&mut heard).await;
    assert!(log.starts_with("log Warning"), "{log}");
    assert!(log.contains("marker_two"), "{log}");
    assert!(!log.contains("marker_one"), "{log}");
}

/// A CSV edge list of `edges` edges over a few thousand nodes.
fn big_csv(edges: usize) -> String {
    let mut csv = String::from("source,target,weight\n");
    for i in 0..edges {
        csv.push_str(&format!(
            "n{},n{},{}\n",
            i % 5000,
            (i * 7 + 1) % 5000,
            i % 10
        ));
    }
    csv
}

fn import_request(network: &str, mode: &str, content: String) -> CallToolRequestParams {
    use rmcp::model::RequestParamsMeta;
    let mut params = CallToolRequestParams::new("network_import").with_arguments(
        json!({"network_name": network, "mode": mode, "format": "edge_list_csv", "content": content})
            .as_object()
            .unwrap()
            .clone(),
    );
    params.set_progress_token(rmcp::model::ProgressToken(
        rmcp::model::NumberOrString::String("import-1".into()),
    ));
    params
}

#[tokio::test]
async fn an_import_with_a_progress_token_reports_rising_progress_ending_at_the_total() {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let (client, mut heard) = connect_to(server).await;
    let result = client
        .call_tool(import_request("big", "create", big_csv(50_000)))
        .await
        .expect("import");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let mut seen = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_millis(500), heard.recv()).await
    {
        if let Some(rest) = event.strip_prefix("progress ") {
            let (done, total) = rest.split_once(' ').unwrap();
            seen.push((done.parse::<f64>().unwrap(), total.parse::<f64>().unwrap()));
        }
    }
    assert!(seen.len() >= 3, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "rising: {seen:?}");
    let (last, total) = *seen.last().unwrap();
    assert_eq!(last, total, "{seen:?}");
}

#[tokio::test]
async fn a_cancelled_import_changes_nothing() {
    let registry = Arc::new(NetworkRegistry::new());
    let server = NetworksServer::new(Arc::clone(&registry), ServerOptions::default());
    let (client, mut heard) = connect_to(server).await;
    call(&client, "network_create", json!({"network_name": "kept"})).await;
    call(
        &client,
        "network_add_node",
        json!({"network_name": "kept", "node_id": "only"}),
    )
    .await;
    let request = rmcp::model::ClientRequest::CallToolRequest(rmcp::model::Request::new(
        import_request("kept", "merge", big_csv(300_000)),
    ));
    let handle = client
        .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
        .await
        .expect("sent");
    // Cancel as soon as the server says it started parsing.
    loop {
        if next(&mut heard).await.starts_with("progress") {
            break;
        }
    }
    handle
        .cancel(Some("changed my mind".into()))
        .await
        .expect("cancel sent");
    // The parse stops where it is (its loop checks the call's budget); whatever
    // progress was already on its way, none says the document is being applied.
    let mut heard_after = Vec::new();
    while let Ok(Some(note)) = tokio::time::timeout(Duration::from_secs(2), heard.recv()).await {
        heard_after.push(note);
        assert!(heard_after.len() < 100, "progress goes on: {heard_after:?}");
    }
    assert!(
        heard_after
            .iter()
            .all(|note| !note.contains("applying") && !note.starts_with("progress 1000")),
        "the cancelled import was applied: {heard_after:?}"
    );
    let net = registry.get("kept").unwrap();
    let net = net.read();
    assert_eq!((net.node_count(), net.edge_count()), (1, 0));
}

#[tokio::test]
async fn visualize_returns_a_laid_out_view_that_the_mcp_app_resource_renders() {
    let options = ServerOptions {
        switchable: false,
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let (client, _rx) = connect_to(server).await;
    call(&client, "network_create", json!({"network_name": "plan"})).await;
    call(
        &client,
        "network_add_edges",
        json!({"network_name": "plan", "create_missing_nodes": true, "edges": [
            {"source": "ship", "target": "test"}, {"source": "test", "target": "build"},
            {"source": "build", "target": "test"}, {"source": "ship", "target": "docs"}
        ]}),
    )
    .await;

    // The tool names its view; the view is a listed resource of the MCP Apps type.
    let tools = client.list_tools(None).await.expect("tools").tools;
    let tool = tools
        .iter()
        .find(|t| t.name == "network_visualize")
        .expect("listed");
    let meta = serde_json::to_value(&tool.meta).unwrap();
    let uri = meta["ui"]["resourceUri"]
        .as_str()
        .expect("ui.resourceUri")
        .to_string();
    assert!(uri.starts_with("ui://"), "{uri}");
    let resources = client.list_resources(None).await.unwrap().resources;
    let listed = resources
        .iter()
        .find(|r| r.uri == uri)
        .expect("view listed");
    assert_eq!(
        listed.mime_type.as_deref(),
        Some("text/html;profile=mcp-app")
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri.clone()))
        .await
        .expect("read view");
    let (html, mime) = text(&read.contents[0]);
    assert_eq!(mime, Some("text/html;profile=mcp-app"));
    assert!(html.contains("ui/initialize"));

    let out = call(
        &client,
        "network_visualize",
        json!({"network_name": "plan"}),
    )
    .await;
    assert_eq!(out["mode"], "full");
    assert_eq!(out["drawn_node_count"], 4);
    assert_eq!(out["ui_resource_uri"], uri);
    assert_eq!(out["summary"]["is_dag"], false);
    assert_eq!(out["summary"]["node_count"], 4);
    // The drawing is not in the reply: the view reads it from view_uri.
    assert!(out.get("view").is_none(), "{out}");
    let view_uri = out["view_uri"].as_str().unwrap();
    assert_eq!(view_uri, "network://plan/view?max_nodes=300");
    let read = client
        .read_resource(ReadResourceRequestParams::new(view_uri))
        .await
        .expect("read the drawing");
    let (drawing, mime) = text(&read.contents[0]);
    assert_eq!(mime, Some("application/json"));
    let view: Value = serde_json::from_str(drawing).unwrap();
    let view = &view;
    let nodes = view["nodes"].as_array().unwrap();
    let x = |id: &str| {
        nodes.iter().find(|n| n["id"] == id).unwrap()["x"]
            .as_f64()
            .unwrap()
    };
    // Left to right along the edges; the cycle is marked.
    assert!(x("ship") < x("docs"), "{view}");
    assert!(nodes.iter().any(|n| n["cyclic"] == true));
    let mermaid = out["mermaid"].as_str().unwrap();
    assert!(
        mermaid.starts_with("%% networks-mcp export: A --> B means A depends on B\nflowchart"),
        "{mermaid}"
    );

    let focus = call(
        &client,
        "network_visualize",
        json!({"network_name": "plan", "node_id": "docs", "scope": "ancestors"}),
    )
    .await;
    assert_eq!(focus["mode"], "focus");
    assert_eq!(focus["drawn_node_count"], 2);
    let view_uri = focus["view_uri"].as_str().unwrap();
    assert_eq!(
        view_uri,
        "network://plan/view?max_nodes=300&node_id=docs&scope=ancestors"
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new(view_uri))
        .await
        .expect("read the focused drawing");
    let view: Value = serde_json::from_str(text(&read.contents[0]).0).unwrap();
    assert_eq!(view["mode"], "focus");
    assert_eq!(view["nodes"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn view_and_export_part_uris_read_or_refuse_with_advice() {
    let (client, _) = common::connect(ServerOptions::default()).await;
    common::network_from_edges(&client, "p/q", &[("a", "b", 1.0), ("b", "c", 1.0)]).await;
    // An id with the query's own separators round-trips through the URI.
    common::ok(
        &client,
        "network_add_node",
        json!({"network_name": "p/q", "node_id": "x&y=z"}),
    )
    .await;
    let out = common::ok(
        &client,
        "network_visualize",
        json!({"network_name": "p/q", "node_id": "x&y=z", "depth": 1}),
    )
    .await;
    let uri = out["view_uri"].as_str().unwrap();
    assert_eq!(
        uri,
        "network://p%2Fq/view?max_nodes=300&node_id=x%26y%3Dz&scope=neighborhood&depth=1"
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("read");
    let view: Value = serde_json::from_str(text(&read.contents[0]).0).unwrap();
    assert_eq!(view["focus"], "x&y=z");
    // Out of range, repeated, unknown or unknown-node queries are refused.
    for bad in [
        "network://p%2Fq/view?max_nodes=0",
        "network://p%2Fq/view?max_nodes=5001",
        "network://p%2Fq/view?depth=11",
        "network://p%2Fq/view?max_nodes=3&max_nodes=4",
        "network://p%2Fq/view?colour=red",
        "network://p%2Fq/view?scope=sideways",
        "network://p%2Fq/view?node_id=nope",
        "network://nope/view",
    ] {
        let error = client
            .read_resource(ReadResourceRequestParams::new(bad))
            .await
            .expect_err(bad);
        assert!(error.to_string().len() > 20, "{bad}: {error}");
    }
    // A part of an export names the parameters that made it: reading it gives
    // the same document while the network is unchanged.
    for args in [
        json!({"network_name": "p/q", "format": "dot", "node_ids": ["a", "x&y=z"], "depth": 1}),
        json!({"network_name": "p/q", "format": "mermaid", "limit": 2}),
    ] {
        let out = common::ok(&client, "network_export", args.clone()).await;
        let part = out["resource_uri"].as_str().unwrap().to_string();
        assert!(part.contains("?v="), "{part}");
        let read = client
            .read_resource(ReadResourceRequestParams::new(part.clone()))
            .await
            .expect("a part reads back");
        assert_eq!(
            text(&read.contents[0]).0,
            out["content"].as_str().unwrap(),
            "{part}"
        );
    }
    let out = common::ok(
        &client,
        "network_export",
        json!({"network_name": "p/q", "format": "dot", "node_ids": ["a"]}),
    )
    .await;
    let part = out["resource_uri"].as_str().unwrap().to_string();
    // Once the network changes, reading it says so and where to go.
    common::ok(
        &client,
        "network_add_node",
        json!({"network_name": "p/q", "node_id": "late"}),
    )
    .await;
    let error = client
        .read_resource(ReadResourceRequestParams::new(part))
        .await
        .expect_err("a part of an older state is not read");
    assert!(
        error.to_string().contains("changed since")
            && error.to_string().contains("network://p%2Fq/export/dot"),
        "{error}"
    );
}

#[tokio::test]
async fn a_batch_with_a_progress_token_reports_progress_to_its_size() {
    use rmcp::model::RequestParamsMeta;
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let (client, mut heard) = connect_to(server).await;
    call(&client, "network_create", json!({"network_name": "b"})).await;
    let edges: Vec<Value> = (0..5000)
        .map(|i| json!({"source": format!("n{i}"), "target": format!("n{}", i + 1)}))
        .collect();
    let mut params = CallToolRequestParams::new("network_add_edges").with_arguments(
        json!({"network_name": "b", "edges": edges, "create_missing_nodes": true})
            .as_object()
            .unwrap()
            .clone(),
    );
    params.set_progress_token(rmcp::model::ProgressToken(
        rmcp::model::NumberOrString::Number(7),
    ));
    let result = client.call_tool(params).await.expect("batch");
    assert_ne!(result.is_error, Some(true));
    let mut seen = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout(Duration::from_millis(500), heard.recv()).await
    {
        if let Some(rest) = event.strip_prefix("progress ") {
            seen.push(rest.to_string());
        }
    }
    assert_eq!(seen, ["2500 5000", "5000 5000"]);
}
