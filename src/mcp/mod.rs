//! The MCP layer: one rmcp [`ServerHandler`] over the tool table.
//!
//! Thin by design: it decodes arguments, calls the registry through a tool body and
//! wraps the answer. All graph logic lives in [`crate::network`]. Every call flows
//! through [`NetworksServer::dispatch`], the one chokepoint for argument decoding,
//! read-only refusal, panic capture, error objects and logging.

mod instructions;
mod schema;
pub mod stdio;
pub mod tool;
pub mod tools;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tracing::{debug, error, info, warn};

pub use instructions::INSTRUCTIONS;
pub use tool::{Effect, Toolset};

use crate::error::Error;
use crate::registry::NetworkRegistry;
use crate::storage::{Recovered, Storage};
use tool::{ToolContext, ToolDef};

/// How a server is set up: which tools it offers and how it treats writes.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The toolsets whose tools are listed and callable.
    pub toolsets: BTreeSet<Toolset>,
    /// Refuse every tool that changes state (and do not list them).
    pub read_only: bool,
    /// Validate and report every write as if applied, but change nothing.
    pub dry_run: bool,
    /// Caps on sizes and counts.
    pub limits: crate::limits::Limits,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            toolsets: Toolset::ALL.into_iter().collect(),
            read_only: false,
            dry_run: false,
            limits: crate::limits::Limits::default(),
        }
    }
}

/// The MCP server: a registry plus the enabled tools. Cheap to clone (one per session).
#[derive(Clone)]
pub struct NetworksServer {
    registry: Arc<NetworkRegistry>,
    inner: Arc<Inner>,
    storage: Option<Arc<Storage>>,
}

struct Inner {
    options: ServerOptions,
    /// Every tool, whatever the toolsets: a journal replays any of them.
    tools_all: Vec<ToolDef>,
    tools: Vec<ToolDef>,
    listed: Vec<Tool>,
}

impl NetworksServer {
    /// The server factory used by `main` and by tests.
    pub fn new(registry: Arc<NetworkRegistry>, options: ServerOptions) -> Self {
        let tools: Vec<ToolDef> = tools::all()
            .into_iter()
            .filter(|t| options.toolsets.contains(&t.toolset))
            .collect();
        let tools_all = tools::all();
        let listed = tools
            .iter()
            .filter(|t| !(options.read_only && t.effect.writes()))
            .map(|t| {
                let mut tool = t.tool.clone();
                let mut meta = rmcp::model::JsonObject::new();
                meta.insert("toolset".into(), Value::from(t.toolset.name()));
                tool.meta = Some(rmcp::model::MetaObject(meta));
                tool
            })
            .collect();
        NetworksServer {
            registry,
            storage: None,
            inner: Arc::new(Inner {
                options,
                tools_all,
                tools,
                listed,
            }),
        }
    }

    /// Makes the server durable: every applied write is journaled in `storage`
    /// before its reply. Call [`NetworksServer::recover`] first.
    pub fn with_storage(mut self, storage: Arc<Storage>) -> Self {
        self.storage = Some(storage);
        self
    }

    /// Loads what durable storage held at startup: the snapshot's networks, then
    /// the journaled writes replayed in order through the same tool bodies.
    pub fn recover(&self, recovered: Recovered) -> Result<(), Error> {
        for (name, network) in recovered.networks {
            self.registry.insert(&name, network)?;
        }
        let replayed = recovered.calls.len();
        for (index, (tool, arguments)) in recovered.calls.into_iter().enumerate() {
            let Some(tool) = tools::find(&self.inner.tools_all, &tool) else {
                return Err(Error::Internal {
                    message: format!("journal record {index} names unknown tool '{tool}'"),
                });
            };
            let ctx = ToolContext {
                registry: &self.registry,
                limits: &self.inner.options.limits,
            };
            if let Err(e) = tool.call(&ctx, arguments) {
                warn!(record = index, tool = tool.name(), error = %e, "journaled write failed on replay");
            }
        }
        info!(networks = self.registry.len(), replayed, "state recovered");
        Ok(())
    }

    /// Writes a final snapshot when durable (at clean shutdown).
    pub fn shutdown(&self) {
        if let Some(storage) = &self.storage
            && let Err(e) = storage.compact(&self.registry)
        {
            error!(error = %e, "could not write the shutdown snapshot; the journal still holds every write");
        }
    }

    /// Runs a write against a scratch copy of the network it names and reports
    /// what would have happened.
    fn dry_run(&self, tool: &ToolDef, arguments: Value) -> Result<Value, Error> {
        let scratch = NetworkRegistry::new();
        if let Some(name) = arguments.get("network_name").and_then(|n| n.as_str())
            && let Ok(network) = self.registry.get(name)
        {
            let copy = network.read().clone();
            scratch.insert(name, copy)?;
        }
        let ctx = ToolContext {
            registry: &scratch,
            limits: &self.inner.options.limits,
        };
        let mut output = tool.call(&ctx, arguments)?;
        if let Value::Object(map) = &mut output {
            map.insert("dry_run".into(), Value::Bool(true));
            map.insert(
                "dry_run_note".into(),
                Value::from(
                    "Dry-run mode: this is what the call would have done; nothing was changed.",
                ),
            );
        }
        info!(tool = tool.name(), "dry run: write validated, not applied");
        Ok(output)
    }

    /// The registry this server serves.
    pub fn registry(&self) -> &Arc<NetworkRegistry> {
        &self.registry
    }

    /// The tools as `tools/list` publishes them.
    pub fn listed_tools(&self) -> &[Tool] {
        &self.inner.listed
    }

    /// Runs one tool call: the chokepoint every call flows through. Returns `None`
    /// for a tool this server does not offer (a protocol error), else the result
    /// (a success object, or an error object).
    pub fn dispatch(&self, name: &str, arguments: Value) -> Option<Result<Value, Error>> {
        self.dispatch_from(name, arguments, None)
    }

    /// [`NetworksServer::dispatch`], naming the client (and session) in the audit event.
    pub fn dispatch_from(
        &self,
        name: &str,
        arguments: Value,
        client: Option<&str>,
    ) -> Option<Result<Value, Error>> {
        let tool = self.inner.tools.iter().find(|t| t.name() == name)?;
        let started = Instant::now();
        let result = if self.inner.options.read_only && tool.effect.writes() {
            Err(Error::ReadOnly {
                tool: name.to_string(),
            })
        } else {
            // A bug in one call must not take the server down.
            let guarded = |run: &dyn Fn() -> Result<Value, Error>| {
                catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
                    let message = panic_message(&panic);
                    error!(tool = name, %message, backtrace = %std::backtrace::Backtrace::force_capture(), "tool call panicked");
                    Err(Error::Internal { message })
                })
            };
            let ctx = ToolContext {
                registry: &self.registry,
                limits: &self.inner.options.limits,
            };
            match (&self.storage, tool.effect.writes()) {
                (_, true) if self.inner.options.dry_run => {
                    guarded(&|| self.dry_run(tool, arguments.clone()))
                }
                (Some(storage), true) => {
                    let (result, compaction_due) = storage.write(name, &arguments, || {
                        guarded(&|| tool.call(&ctx, arguments.clone()))
                    });
                    if compaction_due && let Err(e) = storage.compact(&self.registry) {
                        error!(error = %e, "compaction failed; the journal keeps growing but no write is lost");
                    }
                    result
                }
                _ => guarded(&|| tool.call(&ctx, arguments.clone())),
            }
        };
        let elapsed = started.elapsed();
        let elapsed_us = elapsed.as_micros() as u64;
        metrics::counter!("networks_mcp_tool_calls_total", "tool" => tool.tool.name.clone())
            .increment(1);
        metrics::histogram!("networks_mcp_tool_call_seconds", "tool" => tool.tool.name.clone())
            .record(elapsed.as_secs_f64());
        if result.is_err() {
            metrics::counter!("networks_mcp_tool_errors_total", "tool" => tool.tool.name.clone())
                .increment(1);
        }
        if let (Ok(output), true, false) =
            (&result, tool.effect.writes(), self.inner.options.dry_run)
        {
            let network = arguments
                .get("network_name")
                .and_then(|n| n.as_str())
                .unwrap_or("");
            info!(
                target: "audit",
                tool = name,
                network,
                client = client.unwrap_or("unknown"),
                arguments = %summarize(&arguments),
                result = %summarize(output),
                "write applied"
            );
        }
        match &result {
            Ok(_) => debug!(tool = name, elapsed_us, "tool call"),
            Err(e) => {
                warn!(tool = name, code = e.code(), error = %e, arguments = %arguments, elapsed_us, "tool call failed")
            }
        }
        Some(result)
    }
}

/// "name version" of the client, plus the HTTP session id when there is one.
fn client_label(context: &RequestContext<RoleServer>) -> Option<String> {
    let info = context.peer.peer_info();
    let mut label = info.map(|i| format!("{} {}", i.client_info.name, i.client_info.version))?;
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>()
        && let Some(session) = parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
    {
        label.push_str(&format!(" (session {session})"));
    }
    Some(label)
}

/// A JSON value cut to a readable length for logs (batches can be megabytes).
fn summarize(value: &Value) -> String {
    const MAX: usize = 512;
    let text = value.to_string();
    if text.len() <= MAX {
        return text;
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

impl ServerHandler for NetworksServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        let mut info = ServerConfig::new(capabilities).with_instructions(INSTRUCTIONS);
        info.server_info = Implementation::new("networks-mcp", env!("CARGO_PKG_VERSION"))
            .with_title("networks-mcp: named directed weighted graphs for planning");
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // with_all_items sets resultType, which protocol 2026-07-28 requires; rmcp
        // drops it again for clients on older versions.
        Ok(ListToolsResult::with_all_items(self.inner.listed.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let client = client_label(&context);
        match self.dispatch_from(&request.name, arguments, client.as_deref()) {
            Some(Ok(value)) => Ok(CallToolResult::structured(value).into()),
            Some(Err(error)) => Ok(CallToolResult::structured_error(error.to_object()).into()),
            None => Err(ErrorData::invalid_params(
                Error::UnknownTool {
                    name: request.name.to_string(),
                }
                .to_string(),
                None,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    #[derive(Deserialize, Serialize, JsonSchema)]
    struct Nothing {}

    fn explode(_: &ToolContext<'_>, _: Nothing) -> Result<Nothing, Error> {
        panic!("injected fault")
    }

    /// The fault hook exists only in this test build: a tool whose body panics.
    #[test]
    fn a_panicking_tool_becomes_an_internal_error_and_the_server_keeps_serving() {
        let mut server =
            NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
        let inner = Arc::get_mut(&mut server.inner).expect("sole owner");
        inner.tools.push(ToolDef::new(
            tool::ToolMeta {
                name: "network_explode",
                title: "Explode",
                description: "Panics.",
                toolset: Toolset::Core,
                effect: Effect::Read,
            },
            explode,
        ));
        let result = server
            .dispatch("network_explode", json!({}))
            .expect("tool exists");
        let error = result.expect_err("a panic is an error");
        assert_eq!(error.code(), "internal");
        assert!(error.to_string().contains("injected fault"));
        let after = server.dispatch("network_create", json!({"network_name": "still_here"}));
        assert!(matches!(after, Some(Ok(_))));
        assert_eq!(server.registry().names(), ["still_here"]);
    }
}
