//! A small start, every tool one call away: a session turns a toolset on with
//! `network_toolsets`, is told by `notifications/tools/list_changed`, lists the new
//! tools and uses them, as an agent's script would.

use std::time::Duration;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};
use rmcp::model::CallToolRequestParams;
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::mpsc;

use crate::common;

/// A client that counts `tools/list_changed`.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

async fn call(
    client: &rmcp::service::RunningService<RoleClient, Watcher>,
    tool: &str,
    arguments: Value,
) -> Value {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = arguments {
        params = params.with_arguments(map);
    }
    let result = client.call_tool(params).await.expect("tools/call");
    let body = result.structured_content.expect("structured content");
    assert_ne!(result.is_error, Some(true), "{tool}: {body}");
    body
}

async fn names(client: &rmcp::service::RunningService<RoleClient, Watcher>) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.to_string())
        .collect()
}

#[tokio::test]
async fn a_session_starts_small_turns_on_work_and_claims_a_task() {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let (tx, mut changes) = mpsc::unbounded_channel();
    let client = Watcher(tx)
        .serve(common::serve_in_process(server))
        .await
        .expect("handshake");
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.capabilities
            .tools
            .as_ref()
            .and_then(|t| t.list_changed),
        Some(true)
    );
    let start = names(&client).await;
    assert!(start.contains(&"network_toolsets".to_string()), "{start:?}");
    assert!(
        !start.contains(&"network_claim_ready".to_string()),
        "{start:?}"
    );

    // Listing alone changes nothing and sends nothing.
    let listed = call(&client, "network_toolsets", json!({})).await;
    assert_eq!(listed["changed"], false);
    let toolset = |name: &str| -> Value {
        listed["toolsets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("the {name} toolset is listed"))
    };
    let work = toolset("work");
    assert_eq!(work["on"], false);
    assert!(
        work["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("network_claim_ready"))
    );
    // Off, it lists only the tool of it a session starts with.
    assert_eq!(
        work["listed_tools"],
        json!(["network_why_blocked"]),
        "{work}"
    );
    // A toolset that is off still names the tools of it a session starts with.
    let core = toolset("core");
    assert_eq!(core["on"], false);
    let core_listed = core["listed_tools"].as_array().unwrap();
    assert!(core_listed.contains(&json!("network_create")), "{core}");
    assert!(!core_listed.contains(&json!("network_delete")), "{core}");
    for name in core_listed {
        assert!(
            start.contains(&name.as_str().unwrap().to_string()),
            "{core}"
        );
    }

    let turned = call(&client, "network_toolsets", json!({"enable": ["work"]})).await;
    assert_eq!(turned["changed"], true);
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .expect("tools/list_changed within 5 s")
        .expect("the notification");
    assert!(
        changes.try_recv().is_err(),
        "one notification for one change"
    );
    let now = names(&client).await;
    assert!(now.contains(&"network_claim_ready".to_string()), "{now:?}");
    assert!(
        now.contains(&"network_complete_claim".to_string()),
        "{now:?}"
    );
    assert_eq!(turned["listed_tool_count"], json!(now.len()));
    let listed_now: Vec<String> = turned["toolsets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["listed_tools"].as_array().unwrap().clone())
        .map(|name| name.as_str().unwrap().to_string())
        .collect();
    // Every listed tool but network_toolsets itself, which belongs to no toolset.
    assert_eq!(listed_now.len() + 1, now.len(), "{listed_now:?} / {now:?}");
    assert!(
        listed_now.iter().all(|name| now.contains(name)),
        "{listed_now:?}"
    );

    call(&client, "network_create", json!({"network_name": "plan"})).await;
    for id in ["build", "test"] {
        call(
            &client,
            "network_add_node",
            json!({"network_name": "plan", "node_id": id}),
        )
        .await;
    }
    call(
        &client,
        "network_add_edge",
        json!({"network_name": "plan", "source": "test", "target": "build"}),
    )
    .await;
    let claimed = call(
        &client,
        "network_claim_ready",
        json!({"network_name": "plan", "worker": "w1"}),
    )
    .await;
    assert_eq!(claimed["claimed"][0]["node_id"], "build", "{claimed}");

    // Turning it off again lists the start once more.
    let off = call(&client, "network_toolsets", json!({"disable": ["work"]})).await;
    assert_eq!(off["changed"], true);
    assert_eq!(names(&client).await, start);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_toolset_is_refused_and_changes_nothing() {
    let (client, _) = common::connect(ServerOptions::default()).await;
    let before = client.list_all_tools().await.unwrap().len();
    let refused = common::err(
        &client,
        "network_toolsets",
        json!({"enable": ["everything"]}),
        "invalid_arguments",
    )
    .await;
    let message = refused["error"].as_str().unwrap();
    assert!(
        message.contains("analysis"),
        "names the toolsets: {message}"
    );
    assert_eq!(client.list_all_tools().await.unwrap().len(), before);
}

#[tokio::test]
async fn a_fixed_list_has_no_switch_and_refuses_other_toolsets() {
    let (client, _) = common::connect(ServerOptions {
        toolsets: [Toolset::Core].into_iter().collect(),
        switchable: false,
        ..ServerOptions::default()
    })
    .await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        !names.contains(&"network_toolsets".to_string()),
        "{names:?}"
    );
    let info = client.peer_info().unwrap();
    assert_ne!(
        info.capabilities
            .tools
            .as_ref()
            .and_then(|t| t.list_changed),
        Some(true)
    );
    let mut params = CallToolRequestParams::new("network_claim_ready");
    params = params.with_arguments(
        json!({"network_name": "x", "worker": "w"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let refused = client.call_tool(params).await;
    assert!(refused.is_err(), "a tool outside --toolsets is refused");
}

#[tokio::test]
async fn a_prompt_first_turns_on_the_toolsets_whose_tools_it_names() {
    let (client, _) = common::connect(ServerOptions::default()).await;
    let text = |result: rmcp::model::GetPromptResult| -> String {
        result
            .messages
            .iter()
            .filter_map(|m| m.content.as_text().map(|t| t.text.clone()))
            .collect()
    };
    let mut params = rmcp::model::GetPromptRequestParams::new("plan_dependencies");
    params.arguments = json!({"goal": "ship"}).as_object().cloned();
    let first = text(client.get_prompt(params.clone()).await.unwrap());
    assert!(first.starts_with("First call network_toolsets"), "{first}");
    assert!(first.contains("\"edit\""), "{first}");
    // Once they are on, the prompt goes straight to the plan.
    let enable: Vec<&str> = ["edit", "analysis"].into();
    let mut call = CallToolRequestParams::new("network_toolsets");
    call = call.with_arguments(json!({"enable": enable}).as_object().unwrap().clone());
    client.call_tool(call).await.unwrap();
    let then = text(client.get_prompt(params).await.unwrap());
    assert!(!then.starts_with("First call"), "{then}");
}
