//! The tool list is a contract an LLM reads: any change to a name, description,
//! schema or annotation shows up here and must be accepted on purpose
//! (`INSTA_UPDATE=always cargo test --test it tools_snapshot::`, then review the diff).
//! One file per tool under `tests/it/snapshots/tools/`, so a schema diff reads as the
//! change to one tool, plus the list of names in the order `tools/list` gives them.

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions, Toolset};

#[test]
fn tools_list_is_stable() {
    // Every toolset, the opt-in ones too.
    let options = ServerOptions {
        toolsets: Toolset::ALL.into_iter().collect(),
        ..ServerOptions::default()
    };
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), options);
    let tools = server.listed_tools();
    let names: Vec<&str> = tools.iter().map(|tool| &*tool.name).collect();
    insta::with_settings!({snapshot_path => "snapshots/tools", prepend_module_to_snapshot => false}, {
        insta::assert_json_snapshot!("tools_list_names", names);
        for tool in tools {
            insta::assert_json_snapshot!(tool.name.to_string(), tool);
        }
    });
}
