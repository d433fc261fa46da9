//! The tool list is a contract an LLM reads: any change to a name, description,
//! schema or annotation shows up here and must be accepted on purpose
//! (`INSTA_UPDATE=always cargo test --test tools_snapshot`, then review the diff).

use std::sync::Arc;

use networks_mcp::NetworkRegistry;
use networks_mcp::mcp::{NetworksServer, ServerOptions};

#[test]
fn tools_list_is_stable() {
    let server = NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
    insta::assert_json_snapshot!("tools_list", server.listed_tools());
}
