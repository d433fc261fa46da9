//! Documents that never pass through the agent: `network_import` reads a file and
//! `network_export` writes one, inside `--data-root` directories or (on stdio) the
//! client's MCP roots, and nowhere else.

// MCP roots are deprecated from protocol 2026-07-28 on; 2025 clients declare them.
#![allow(deprecated)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions};
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, ListRootsResult, Root};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::common::stdio::{BIN, StdioServer};
use crate::common::{dispatch, dispatch_err, dispatch_ok, serve_in_process};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("networks-mcp-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::canonicalize(dir).unwrap()
}

fn server_with_root(root: &Path) -> NetworksServer {
    NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            data_roots: vec![root.to_path_buf()],
            ..ServerOptions::default()
        },
    )
}

/// A chain of `n` tasks as an edge list.
fn chain_csv(n: usize) -> String {
    let mut csv = String::from("source,target\n");
    for i in 1..n {
        csv.push_str(&format!("t{i},t{}\n", i - 1));
    }
    csv
}

#[test]
fn an_import_reads_a_file_inside_a_data_root() {
    let root = scratch("import");
    std::fs::write(root.join("plan.csv"), chain_csv(40)).unwrap();
    let server = server_with_root(&root);
    let reply = dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "plan", "format": "edge_list_csv", "path": "plan.csv"}),
    );
    assert_eq!(
        (reply["node_count"].clone(), reply["edge_count"].clone()),
        (json!(40), json!(39))
    );
    // An absolute path inside the root is the same file.
    let absolute = root.join("plan.csv").display().to_string();
    dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "again", "format": "edge_list_csv", "path": absolute}),
    );
    // Both, or neither, is refused.
    dispatch_err(
        &server,
        "network_import",
        json!({"network_name": "x", "format": "edge_list_csv", "path": "plan.csv", "content": "a,b\n"}),
        "invalid_arguments",
    );
    dispatch_err(
        &server,
        "network_import",
        json!({"network_name": "x", "format": "edge_list_csv"}),
        "invalid_arguments",
    );
    assert!(server.registry().get("x").is_err());
}

#[test]
fn a_path_outside_every_root_is_refused_with_the_roots_named_and_changes_nothing() {
    let root = scratch("outside");
    let outside = scratch("outside-other");
    std::fs::write(outside.join("plan.csv"), chain_csv(3)).unwrap();
    std::os::unix::fs::symlink(outside.join("plan.csv"), root.join("link.csv")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("dir")).unwrap();
    let server = server_with_root(&root);
    for path in [
        "../networks-mcp-files-outside-other/plan.csv".to_string(),
        outside.join("plan.csv").display().to_string(),
        "link.csv".into(),
        "dir/plan.csv".into(),
        "/dev/zero".into(),
        "/proc/self/environ".into(),
    ] {
        let error = dispatch(
            &server,
            "network_import",
            json!({"network_name": "plan", "format": "edge_list_csv", "path": path}),
        )
        .expect_err(&path);
        assert_eq!(error["code"], "invalid_value", "{path}: {error}");
        let message = error["error"].as_str().unwrap();
        assert!(
            message.contains(&root.display().to_string()),
            "{path}: {message}"
        );
    }
    assert!(server.registry().is_empty());
    // Without any root, a path is refused and the reply says how to allow one.
    let none = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    let error = dispatch(
        &none,
        "network_import",
        json!({"network_name": "plan", "format": "edge_list_csv", "path": "/tmp/x.csv"}),
    )
    .unwrap_err();
    assert!(
        error["error"].as_str().unwrap().contains("--data-root"),
        "{error}"
    );
}

#[test]
fn an_export_writes_the_whole_network_to_a_file_and_keeps_the_reply_small() {
    let root = scratch("export");
    let server = server_with_root(&root);
    dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "plan", "format": "edge_list_csv", "content": chain_csv(500)}),
    );
    let reply = dispatch_ok(
        &server,
        "network_export",
        json!({"network_name": "plan", "format": "node_link_json", "path": "./plan.json"}),
    );
    assert_eq!(
        reply["node_count"], 500,
        "a file holds the whole network: {reply}"
    );
    assert_eq!(reply["truncated"], false);
    assert!(
        reply.get("content").is_none(),
        "the document is not in the reply"
    );
    assert!(reply.to_string().len() < 2048, "{reply}");
    let written = std::fs::read_to_string(root.join("plan.json")).unwrap();
    assert_eq!(reply["document_bytes"], written.len());
    assert_eq!(reply["path"], root.join("plan.json").display().to_string());
    // The file reads back as the same network.
    let back = dispatch_ok(
        &server,
        "network_import",
        json!({"network_name": "copy", "format": "node_link_json", "path": "plan.json"}),
    );
    assert_eq!(
        (back["node_count"].clone(), back["edge_count"].clone()),
        (json!(500), json!(499))
    );
    // A link at the target is replaced, never followed.
    let outside = scratch("export-outside");
    std::fs::write(outside.join("victim"), "keep").unwrap();
    std::os::unix::fs::symlink(outside.join("victim"), root.join("victim")).unwrap();
    dispatch_err(
        &server,
        "network_export",
        json!({"network_name": "plan", "format": "dot", "path": "victim"}),
        "invalid_value",
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("victim")).unwrap(),
        "keep"
    );
}

#[test]
fn an_imported_path_is_journaled_as_its_document() {
    let root = scratch("journal");
    let data = scratch("journal-data");
    std::fs::write(root.join("plan.csv"), chain_csv(5)).unwrap();
    let args = |dir: &Path, root: &Path| -> Vec<std::ffi::OsString> {
        vec![
            "--data-dir".into(),
            dir.as_os_str().into(),
            "--data-root".into(),
            root.as_os_str().into(),
        ]
    };
    let owned = args(&data, &root);
    let refs: Vec<&OsStr> = owned.iter().map(|a| a.as_os_str()).collect();
    let mut server = StdioServer::start(&refs, Stdio::null());
    let reply = server
        .call(
            "network_import",
            json!({"network_name": "plan", "format": "edge_list_csv", "path": "plan.csv"}),
        )
        .unwrap();
    assert_eq!(reply["node_count"], 5, "{reply}");
    server.kill();
    // The file is gone; the restarted server still has the network.
    std::fs::remove_file(root.join("plan.csv")).unwrap();
    let mut server = StdioServer::start(&refs, Stdio::null());
    let described = server
        .call("network_describe", json!({"network_name": "plan"}))
        .unwrap();
    assert_eq!(described["node_count"], 5, "{described}");
    server.stop();
    let _ = BIN;
}

/// A client whose MCP roots are `dirs`.
#[derive(Clone)]
struct RootsClient(Vec<PathBuf>);

impl ClientHandler for RootsClient {
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::new(
            self.0
                .iter()
                .map(|dir| Root::new(format!("file://{}", dir.display())))
                .collect(),
        ))
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_roots().build(),
            rmcp::model::Implementation::new("roots-client", "1"),
        )
    }
}

#[tokio::test]
async fn on_stdio_the_clients_roots_allow_paths_inside_them() {
    let root = scratch("client-roots");
    let outside = scratch("client-roots-outside");
    std::fs::write(root.join("plan.csv"), chain_csv(4)).unwrap();
    std::fs::write(outside.join("plan.csv"), chain_csv(4)).unwrap();
    let server = NetworksServer::new(
        Arc::new(NetworkRegistry::new()),
        ServerOptions {
            client_roots: true,
            ..ServerOptions::default()
        },
    );
    let client = RootsClient(vec![root.clone()])
        .serve(serve_in_process(server))
        .await
        .expect("handshake");
    let call = |path: String| {
        let client = &client;
        async move {
            let params = CallToolRequestParams::new("network_import").with_arguments(
                json!({"network_name": "plan", "format": "edge_list_csv", "path": path})
                    .as_object()
                    .unwrap()
                    .clone(),
            );
            let result = client.call_tool(params).await.unwrap();
            (
                result.is_error == Some(true),
                result.structured_content.unwrap_or(Value::Null),
            )
        }
    };
    let (failed, body) = call(root.join("plan.csv").display().to_string()).await;
    assert!(!failed, "{body}");
    assert_eq!(body["node_count"], 4);
    let (failed, body) = call(outside.join("plan.csv").display().to_string()).await;
    assert!(failed, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains(&root.display().to_string()),
        "{body}"
    );
    client.cancel().await.unwrap();
}
