//! The MCP layer: one rmcp [`ServerHandler`] over the tool table.
//!
//! Thin by design: it decodes arguments, calls the registry through a tool body and
//! wraps the answer. All graph logic lives in [`crate::network`]. Every call flows
//! through [`NetworksServer::dispatch`], the one chokepoint for argument decoding,
//! read-only refusal, panic capture, error objects and logging.

// MCP logging (`logging/setLevel`) is deprecated from protocol 2026-07-28 on; clients
// of the 2025 protocol still use it, so this module keeps serving it. The items that
// touch it carry their own `#[allow(deprecated)]`, so any other deprecation in rmcp
// still warns.

pub(crate) mod answers;
pub(crate) mod app;
mod calls;
pub mod compute;
mod error_object;
pub mod files;
mod instructions;
pub(crate) mod notify;
pub(crate) mod page;
pub(crate) mod prompts;
pub mod release;
pub(crate) mod resources;
mod schema;
pub mod stdio;
mod suggest;
pub mod tasks;
pub(crate) mod tool;
pub(crate) mod tools;
pub(crate) mod toolsets;

use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

#[allow(deprecated)] // logging: see above
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
    UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::transport::streamable_http_server::session::SessionRestoreMarker;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tracing::{debug, error, info, warn};

pub use instructions::{SHARED_PARAMETERS, UNLISTED_PARAMETERS, instructions};
pub use tool::{Effect, Progress, Toolset};

use crate::budget::Budget;
use crate::error::Error;
use crate::network::Network;
use crate::registry::NetworkRegistry;
use crate::storage::{Recovered, Storage};
pub use calls::ReplyConnection;
use calls::{ProgressSink, stop_error};
use tool::{ToolContext, ToolDef};

/// How a server is set up: which tools it offers and how it treats writes.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The toolsets whose tools are callable.
    pub toolsets: BTreeSet<Toolset>,
    /// Whether each session starts with a small list and turns toolsets on with
    /// `network_toolsets` (see [`toolsets`]); when false, every tool of `toolsets`
    /// is listed, as `--toolsets` asks.
    pub switchable: bool,
    /// Refuse every tool that changes state (and do not list them).
    pub read_only: bool,
    /// Validate and report every write as if applied, but change nothing.
    pub dry_run: bool,
    /// Caps on sizes and counts.
    pub limits: crate::limits::Limits,
    /// Where claims' leases read the time; tests put a [`crate::clock::ManualClock`] here.
    pub clock: Arc<dyn crate::clock::Clock>,
    /// The compute pool's size and the per-call deadline.
    pub compute: compute::ComputeOptions,
    /// How many tasks a session may hold, and for how long (see [`tasks`]).
    pub tasks: tasks::TaskOptions,
    /// Directories whose files `network_import` may read and `network_export`
    /// write (`--data-root`; see [`files`]).
    pub data_roots: Vec<std::path::PathBuf>,
    /// Whether the client's MCP roots are allowed too (stdio; never over HTTP).
    pub client_roots: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            toolsets: Toolset::ALL.into_iter().collect(),
            switchable: true,
            read_only: false,
            dry_run: false,
            limits: crate::limits::Limits::default(),
            clock: Arc::new(crate::clock::SystemClock),
            compute: compute::ComputeOptions::default(),
            tasks: tasks::TaskOptions::default(),
            data_roots: Vec::new(),
            client_roots: false,
        }
    }
}

/// The MCP server: a registry plus the enabled tools. Cheap to clone (one per session).
#[derive(Clone)]
pub struct NetworksServer {
    registry: Arc<NetworkRegistry>,
    inner: Arc<Inner>,
    storage: Option<Arc<Storage>>,
    /// What this client session subscribed to (fresh per session, see `for_session`).
    session: Arc<notify::Session>,
    /// Whose tasks this session may read (fresh per session).
    task_owner: tasks::Owner,
    /// The toolsets this session turned on (fresh per session).
    shown: Arc<toolsets::Shown>,
    /// The directories of the client's MCP roots, as last listed (fresh per session).
    client_roots: Arc<parking_lot::Mutex<Vec<std::path::PathBuf>>>,
}

struct Inner {
    /// Applied writes, for resource notifications.
    changes: notify::ChangeFeed,
    options: ServerOptions,
    /// Every tool, whatever the toolsets: a journal replays any of them.
    tools_all: Vec<ToolDef>,
    tools: Vec<ToolDef>,
    /// Every tool a session can be shown: with `switchable`, `network_toolsets` too.
    listed: Vec<Tool>,
    /// The server's instructions (see [`instructions`]).
    instructions: String,
    /// Where every tool call runs (see [`compute`]).
    pool: compute::ComputePool,
    /// Calls running as MCP tasks, for every session (see [`tasks`]).
    tasks: tasks::Tasks,
    /// Answers kept for the later pages of paged calls (see [`answers`]).
    answers: answers::Answers,
    /// What each HTTP session holds of its own, by session id, for the parking
    /// of idle sessions ([`NetworksServer::session_is_plain`]).
    held_by_session: parking_lot::Mutex<HashMap<Arc<str>, SessionHeld>>,
}

/// Where one session keeps what is its own (see [`NetworksServer::for_session`]).
struct SessionHeld {
    session: std::sync::Weak<notify::Session>,
    shown: std::sync::Weak<toolsets::Shown>,
    task_owner: tasks::Owner,
    /// Its notification forwarding task, which would otherwise find the session
    /// gone only at its next notification.
    forwarding: Option<tokio::task::AbortHandle>,
}

impl SessionHeld {
    fn stop_forwarding(&self) {
        if let Some(task) = &self.forwarding {
            task.abort();
        }
    }
}

impl NetworksServer {
    /// The server factory used by `main` and by tests.
    pub fn new(registry: Arc<NetworkRegistry>, options: ServerOptions) -> Self {
        let tools: Vec<ToolDef> = tools::all()
            .into_iter()
            .filter(|t| options.toolsets.contains(&t.toolset))
            .collect();
        let tools_all = tools::all();
        let mut listed: Vec<Tool> = tools
            .iter()
            .filter(|t| !(options.read_only && t.effect.writes()))
            .map(|t| t.tool.clone())
            .collect();
        if options.switchable {
            listed.push(toolsets::tool());
        }
        let instructions = instructions::instructions(options.switchable);
        let changes = notify::ChangeFeed::default();
        let pool = compute::ComputePool::new(&options.compute);
        let tasks = tasks::Tasks::new(options.tasks);
        NetworksServer {
            registry,
            storage: None,
            session: Arc::new(notify::Session::new(&changes)),
            task_owner: tasks.new_session(),
            shown: Arc::default(),
            client_roots: Arc::default(),
            inner: Arc::new(Inner {
                changes,
                options,
                tools_all,
                tools,
                listed,
                instructions,
                pool,
                tasks,
                answers: answers::Answers::default(),
                held_by_session: parking_lot::Mutex::default(),
            }),
        }
    }

    /// Makes the server durable: every applied write is journaled in `storage`
    /// before its reply. Call [`NetworksServer::recover`] first.
    pub fn with_storage(mut self, storage: Arc<Storage>) -> Self {
        self.storage = Some(storage);
        self
    }

    /// A handle for a new client session: the same registry, tools and storage,
    /// with its own subscriptions and log level.
    pub fn for_session(&self) -> Self {
        NetworksServer {
            session: Arc::new(notify::Session::new(&self.inner.changes)),
            task_owner: self.inner.tasks.new_session(),
            shown: Arc::default(),
            client_roots: Arc::default(),
            ..self.clone()
        }
    }

    /// Records that this handler serves the HTTP session `id`, so that
    /// [`NetworksServer::session_is_plain`] can look at what it holds.
    fn note_session_id(&self, id: &str, forwarding: Option<tokio::task::AbortHandle>) {
        let earlier = self.inner.held_by_session.lock().insert(
            Arc::from(id),
            SessionHeld {
                session: Arc::downgrade(&self.session),
                shown: Arc::downgrade(&self.shown),
                task_owner: self.task_owner,
                forwarding,
            },
        );
        if let Some(earlier) = earlier {
            earlier.stop_forwarding();
        }
    }

    /// Whether HTTP session `id` holds nothing of its own: no subscription, no
    /// log level, no toolset turned on, no task (running or with a result
    /// kept). Such a session is the same when made again from its `initialize`
    /// parameters, so an idle one may be parked (see `http::parking`).
    #[doc(hidden)]
    pub fn session_is_plain(&self, id: &str) -> bool {
        let held = self.inner.held_by_session.lock();
        let Some(held) = held.get(id) else {
            // Not initialized yet: nothing can have been asked of it.
            return true;
        };
        let session_plain = held
            .session
            .upgrade()
            .is_none_or(|session| session.holds_nothing());
        let shown_plain = held.shown.upgrade().is_none_or(|shown| shown.is_default());
        session_plain && shown_plain && !self.inner.tasks.owns_any(held.task_owner)
    }

    /// Forgets what [`NetworksServer::note_session_id`] recorded of session `id`
    /// (it was parked or has ended).
    #[doc(hidden)]
    pub fn forget_session(&self, id: &str) {
        let held = self.inner.held_by_session.lock().remove(id);
        if let Some(held) = held {
            held.stop_forwarding();
        }
    }

    /// The context tool bodies run in, against this server's registry.
    fn context<'a>(&'a self, progress: &'a tool::Progress) -> ToolContext<'a> {
        ToolContext::new(&self.registry, &self.inner.options.limits, progress)
            .with_clock(self.inner.options.clock.as_ref())
            .with_answers(&self.inner.answers)
    }

    /// How many answers this server's paged tools computed because none was kept
    /// for the page asked (see [`answers`]); for tests and benchmarks.
    #[doc(hidden)]
    pub fn answers_computed(&self) -> u64 {
        self.inner.answers.computed()
    }

    /// The estimated bytes and the number of answers kept now, within the
    /// cache's bounds (64 MiB, 32 answers).
    #[doc(hidden)]
    pub fn answers_held(&self) -> (usize, usize) {
        self.inner.answers.held()
    }

    /// Applies a write: journaled first when durable (compacting when due), else
    /// straight on the registry. `run` is the call itself, e.g. guarded against panics.
    fn apply_write(
        &self,
        tool: &ToolDef,
        arguments: &Value,
        run: impl FnOnce() -> Result<(Value, Option<u64>), Error>,
    ) -> Result<Value, Error> {
        let Some(storage) = &self.storage else {
            return run().map(|(output, _)| output);
        };
        // Once started, neither may stop half-way: the roll-back makes memory
        // match the disk, and the compaction follows a write already acknowledged.
        let roll_back = |durable: Recovered| crate::budget::unbudgeted(|| self.roll_back(durable));
        // The compare of a conditional write held when it was acknowledged; the
        // journal keeps the write itself, which replays onto the same state.
        let unconditional;
        let arguments = match arguments.get(tool::IF_VERSION) {
            Some(_) => {
                let mut rest = arguments.clone();
                if let Some(object) = rest.as_object_mut() {
                    object.remove(tool::IF_VERSION);
                }
                unconditional = rest;
                &unconditional
            }
            None => arguments,
        };
        let (result, compaction_due) =
            self.write_in_order(storage, tool, arguments, run, &roll_back);
        if compaction_due
            && let Err(e) = crate::budget::unbudgeted(|| storage.compact(&self.registry))
        {
            error!(error = %e, "snapshot failed and its temp file was removed; writes go on in the journal, and the snapshot is tried again after as many more");
        }
        result
    }

    /// Applies and journals a durable write, holding its network first: the
    /// network's lock is taken before the journal's order lock and lent to the
    /// call, so a write waiting for a network held by a long read waits holding
    /// nothing that writes to other networks need. Under the journal's lock the
    /// set of networks cannot change (making and deleting one are writes), so a
    /// write whose network was made after it looked is sent round again to
    /// hold it, and nothing under the journal's lock waits for a network.
    fn write_in_order(
        &self,
        storage: &Storage,
        tool: &ToolDef,
        arguments: &Value,
        run: impl FnOnce() -> Result<(Value, Option<u64>), Error>,
        roll_back: &dyn Fn(Recovered),
    ) -> (Result<Value, Error>, bool) {
        let name = arguments.get("network_name").and_then(Value::as_str);
        let mut run = Some(run);
        let retry = std::cell::Cell::new(false);
        loop {
            crate::budget::checkpoint();
            let network = name.and_then(|name| self.registry.get(name).ok());
            let holding = network.as_ref().map(|network| network.hold());
            let mut held = Some(holding);
            let (result, due) = storage.write(
                tool.name(),
                arguments,
                || {
                    let current = name.and_then(|name| self.registry.get(name).ok());
                    let in_order = match (&network, &current) {
                        (Some(held), Some(current)) => Arc::ptr_eq(held, current),
                        (None, None) => true,
                        _ => false,
                    };
                    if !in_order {
                        retry.set(true);
                        return Err(Error::Internal {
                            message: "the write's network was made or deleted meanwhile".into(),
                        });
                    }
                    let Some(run) = run.take() else {
                        return Err(Error::Internal {
                            message: "a write ran twice".into(),
                        });
                    };
                    let out = run();
                    // The network's lock goes before the journal's record, as
                    // when nothing is held ahead.
                    drop(held.take());
                    out
                },
                roll_back,
            );
            drop(held);
            if !retry.replace(false) {
                return (result, due);
            }
        }
    }

    /// Makes memory match the durable state after a write failed to reach the
    /// disk: a reader must never see a write that was not made durable.
    fn roll_back(&self, durable: Recovered) {
        let scratch = NetworkRegistry::new();
        match self.replay_into(&scratch, durable) {
            Ok(()) => {
                self.registry.replace_all(scratch);
                self.inner.changes.publish(notify::Change::List);
                warn!("memory rolled back to the last durable write");
            }
            Err(e) => {
                error!(error = %e, "could not rebuild the durable state; memory may hold writes that are not on disk")
            }
        }
    }

    /// Runs a tool body directly (no metrics, audit or journal): for resources
    /// that present a tool's answer.
    fn call_internal(&self, name: &str, arguments: Value) -> Result<Value, Error> {
        let tool = tools::find(&self.inner.tools_all, name).ok_or_else(|| Error::Internal {
            message: format!("internal tool '{name}' missing"),
        })?;
        tool.call(&self.context(&tool::Progress::NONE), &arguments)
    }

    /// Creates network `name` from a document at startup (`--load`), journaled when
    /// durable. Read-only and dry-run modes do not apply: the operator asked for it.
    pub fn preload(
        &self,
        name: &str,
        format: crate::interchange::Format,
        content: String,
        progress: &tool::Progress,
    ) -> Result<Value, Error> {
        let arguments = serde_json::json!({
            "network_name": name,
            "format": format.name(),
            "content": content,
            "mode": "create",
        });
        let tool = tools::find(&self.inner.tools_all, "network_import").ok_or_else(|| {
            Error::Internal {
                message: "network_import missing".into(),
            }
        })?;
        let ctx = self.context(progress);
        let result = self.apply_write(tool, &arguments, || {
            tool.call(&ctx, &arguments)
                .map(|output| (output, ctx.read_at.get()))
        });
        if result.is_ok() {
            self.inner.changes.publish(notify::Change::List);
        }
        result
    }

    /// Loads what durable storage held at startup: the snapshot's networks, then
    /// the journaled writes replayed in order through the same tool bodies.
    ///
    /// Every journaled write was acknowledged, so none may be dropped: the writes are
    /// replayed without caps (caps apply to new writes; a restart with lower
    /// `--max-*` values keeps everything and only refuses further growth), and a
    /// write that fails on replay stops the recovery with an error naming the record,
    /// rather than starting with less than was acknowledged.
    pub fn recover(&self, recovered: Recovered) -> Result<(), Error> {
        let replayed = recovered.calls.len();
        self.replay_into(&self.registry, recovered)?;
        self.warn_if_over_caps();
        info!(networks = self.registry.len(), replayed, "state recovered");
        Ok(())
    }

    /// Loads a snapshot's networks into `registry` and replays the journaled calls
    /// on it, without caps; the first call that fails stops the replay.
    fn replay_into(&self, registry: &NetworkRegistry, recovered: Recovered) -> Result<(), Error> {
        for (name, network) in recovered.networks {
            registry.insert(&name, network)?;
        }
        let unlimited = crate::limits::Limits::unlimited();
        for (index, call) in recovered.calls.into_iter().enumerate() {
            // The call reads the time it read when it was made.
            let clock = crate::clock::ManualClock::new(call.now.unwrap_or(0));
            let ctx =
                ToolContext::new(registry, &unlimited, &tool::Progress::NONE).with_clock(&clock);
            let (tool, arguments) = (call.tool, call.arguments);
            let Some(tool) = tools::find(&self.inner.tools_all, &tool) else {
                return Err(Error::Internal {
                    message: format!(
                        "journal record {index} names the unknown tool '{}'; it was written by another version of networks-mcp. Start that version, or move the data directory aside",
                        crate::error::clip(&tool, 64)
                    ),
                });
            };
            if let Err(e) = tool.call(&ctx, &arguments) {
                return Err(Error::Internal {
                    message: format!(
                        "journal record {index} ({}) could not be replayed: {e}. No file was changed; the server will not start with less than it acknowledged",
                        tool.name()
                    ),
                });
            }
        }
        Ok(())
    }

    /// After recovery: says which networks hold more than the current caps allow
    /// (they keep everything; further growth is refused).
    fn warn_if_over_caps(&self) {
        let limits = &self.inner.options.limits;
        if self.registry.len() > limits.max_networks {
            warn!(
                networks = self.registry.len(),
                cap = limits.max_networks,
                "recovered more networks than --max-networks allows; all are kept, new ones are refused"
            );
        }
        for summary in self.registry.list() {
            if summary.nodes > limits.max_nodes || summary.edges > limits.max_edges {
                warn!(network = %summary.name, nodes = summary.nodes, edges = summary.edges, max_nodes = limits.max_nodes, max_edges = limits.max_edges, "recovered network is above --max-nodes/--max-edges; it is kept whole, further growth is refused");
            }
        }
    }

    /// Writes a final snapshot when durable (at clean shutdown).
    pub fn shutdown(&self) {
        if self.inner.options.read_only {
            return;
        }
        if let Some(storage) = &self.storage
            && let Err(e) = storage.compact(&self.registry)
        {
            error!(error = %e, "could not write the shutdown snapshot; the journal still holds every write");
        }
    }

    /// Runs a write against a scratch copy of the network it names and reports
    /// what would have happened.
    fn dry_run(
        &self,
        tool: &ToolDef,
        arguments: Value,
        progress: &tool::Progress,
    ) -> Result<Value, Error> {
        // The network the call writes, copied; every other name as an empty
        // stand-in, so that the call sees which names are taken and how many
        // networks there are (a copy's `into`, an import's new name, the limit).
        let scratch = NetworkRegistry::new();
        let target = arguments.get("network_name").and_then(|n| n.as_str());
        for name in self.registry.names() {
            let network = match self.registry.get(&name) {
                Ok(network) if Some(name.as_str()) == target => network.read().clone(),
                _ => Network::new(),
            };
            scratch.insert(&name, network)?;
        }
        let ctx = ToolContext::new(&scratch, &self.inner.options.limits, progress)
            .with_clock(self.inner.options.clock.as_ref());
        let mut output = tool.call(&ctx, &arguments)?;
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

    /// The `--toolsets` value that offers what this server offers, plus `extra`.
    fn toolsets_with(&self, extra: Toolset) -> String {
        Toolset::ALL
            .into_iter()
            .filter(|set| *set == extra || self.inner.options.toolsets.contains(set))
            .map(Toolset::name)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The registry this server serves.
    pub fn registry(&self) -> &Arc<NetworkRegistry> {
        &self.registry
    }

    /// Every tool a session can be shown: all of them once every toolset is on.
    pub fn listed_tools(&self) -> &[Tool] {
        &self.inner.listed
    }

    /// The tools `tools/list` shows this session now: with `switchable`, the
    /// start and the toolsets it turned on, and `network_toolsets`.
    pub fn session_tools(&self) -> Vec<Tool> {
        if !self.inner.options.switchable {
            return self.inner.listed.clone();
        }
        self.inner
            .listed
            .iter()
            .filter(|listed| {
                listed.name == toolsets::TOOL_NAME
                    || tools::find(&self.inner.tools, &listed.name)
                        .is_some_and(|tool| self.shown.lists(tool))
            })
            .cloned()
            .collect()
    }

    /// The parameters `tool` accepts, published or explained once in the
    /// instructions (see `schema::published`); for the specs' tests.
    #[doc(hidden)]
    pub fn accepted_parameters(&self, tool: &str) -> Vec<String> {
        tools::find(&self.inner.tools_all, tool)
            .and_then(|tool| tool.accepted.get("properties"))
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Where this session's calls may read and write files: the data roots, and
    /// on stdio the client's roots as last listed.
    fn file_roots(&self) -> files::Roots {
        let mut dirs = self.inner.options.data_roots.clone();
        if self.inner.options.client_roots {
            dirs.extend(self.client_roots.lock().iter().cloned());
        }
        files::Roots::new(dirs)
    }

    /// Asks the client for its roots (when it has any and they are allowed), for a
    /// call that names a file. Roots are deprecated from protocol 2026-07-28 on;
    /// clients of the 2025 protocols declare them, so they are still asked.
    #[allow(deprecated)]
    async fn refresh_client_roots(&self, context: &RequestContext<RoleServer>) {
        if !self.inner.options.client_roots {
            return;
        }
        let declares = context
            .peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !declares {
            return;
        }
        let listed =
            tokio::time::timeout(std::time::Duration::from_secs(5), context.peer.list_roots())
                .await;
        match listed {
            Ok(Ok(result)) => {
                let dirs = files::dirs_of_uris(result.roots.iter().map(|root| root.uri.as_str()));
                *self.client_roots.lock() = dirs;
            }
            Ok(Err(error)) => debug!(%error, "roots/list failed"),
            Err(_) => debug!("roots/list not answered within 5 s"),
        }
    }

    /// A prompt's `text`, led by the `network_toolsets` call that lists the tools
    /// it names which this session is not shown yet (a host calls only listed tools).
    fn lead_with_toolsets(&self, text: &str) -> String {
        let needed: BTreeSet<&str> = self
            .inner
            .tools
            .iter()
            .filter(|tool| text.contains(tool.name()) && !self.shown.lists(tool))
            .map(|tool| tool.toolset.name())
            .collect();
        if needed.is_empty() {
            return text.to_string();
        }
        let names: Vec<String> = needed.iter().map(|name| format!("\"{name}\"")).collect();
        format!(
            "First call {} with {{\"enable\": [{}]}}: this plan uses tools of those toolsets, which are not listed yet.\n\n{text}",
            toolsets::TOOL_NAME,
            names.join(", ")
        )
    }

    /// The server's instructions, as `initialize` answers them.
    pub fn instructions(&self) -> &str {
        &self.inner.instructions
    }

    /// `network_toolsets` for this session; `true` with the reply when the list changed.
    fn switch_toolsets(&self, arguments: Value) -> Result<(Value, bool), Error> {
        toolsets::call(&self.shown, &self.inner.tools, arguments, || {
            self.session_tools().len()
        })
    }

    /// Runs one tool call: the chokepoint every call flows through. Returns `None`
    /// for a tool this server does not offer (a protocol error), else the result
    /// (a success object, or an error object). Three steps: [`Self::guard`] refuses
    /// what this server may not run, [`Self::apply`] runs the body (a write through
    /// the journal), and [`Self::record`] counts, publishes and logs the outcome.
    pub fn dispatch(&self, call: Call<'_>) -> Option<Result<Value, Error>> {
        if self.inner.options.switchable && call.tool == toolsets::TOOL_NAME {
            // This session's list, not a network: nothing to journal or publish.
            return Some(self.switch_toolsets(call.arguments).map(|(value, _)| value));
        }
        let tool = self.inner.tools.iter().find(|t| t.name() == call.tool)?;
        let started = Instant::now();
        // A file path: the roots it may be in, and an import's document read now,
        // so that the journal holds the document, not the path.
        let roots = names_a_file(&call.arguments).then(|| self.file_roots());
        let mut call = call;
        if let Some(roots) = &roots
            && tool.name() == "network_import"
            && let Err(error) = read_import_path(&mut call.arguments, roots)
        {
            let result = Err(error);
            self.record(tool, &call, &result, started, None);
            return Some(result);
        }
        // Only a write can add or remove a network.
        let networks_before = tool.effect.writes().then(|| self.registry.len());
        let result = self
            .guard(tool)
            .and_then(|()| self.apply(tool, &call, roots.as_ref()))
            .map_err(|error| suggest::with_suggestions(error, &self.registry));
        self.record(tool, &call, &result, started, networks_before);
        Some(result)
    }

    /// [`Self::dispatch`], answered as a client receives it: the
    /// `CallToolResult` of `tools/call` (a success, or an error result).
    #[doc(hidden)]
    pub fn call_result(&self, call: Call<'_>) -> Option<CallToolResult> {
        let document = match tools::find(&self.inner.tools, call.tool) {
            Some(tool) => tool.document,
            None if self.inner.options.switchable && call.tool == toolsets::TOOL_NAME => None,
            None => return None,
        };
        Some(match self.dispatch(call)? {
            Ok(value) => tool_result(value, document),
            Err(error) => CallToolResult::structured_error(error.to_object()),
        })
    }

    /// Refuses a write in read-only mode.
    fn guard(&self, tool: &ToolDef) -> Result<(), Error> {
        if self.inner.options.read_only && tool.effect.writes() {
            return Err(Error::ReadOnly {
                tool: tool.name().to_string(),
            });
        }
        Ok(())
    }

    /// Runs the tool's body: a read directly, a write through [`Self::apply_write`]
    /// (or against a scratch copy in dry-run mode). A panic in the body becomes an
    /// `internal` error: a bug in one call must not take the server down.
    fn apply(
        &self,
        tool: &ToolDef,
        call: &Call<'_>,
        roots: Option<&files::Roots>,
    ) -> Result<Value, Error> {
        let guarded = |run: &dyn Fn() -> Result<Value, Error>| {
            catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
                if crate::budget::is_stop(&*panic) {
                    // The budget's stop, for the `Budget::run` below: not a bug.
                    std::panic::resume_unwind(panic);
                }
                let message = panic_message(&panic);
                error!(tool = tool.name(), %message, backtrace = %std::backtrace::Backtrace::force_capture(), "tool call panicked");
                Err(Error::Internal { message })
            })
        };
        let ctx = self.context(call.progress).with_files(roots);
        let run = || guarded(&|| tool.call(&ctx, &call.arguments));
        let body = || match tool.effect.writes() {
            true if self.inner.options.dry_run => {
                guarded(&|| self.dry_run(tool, call.arguments.clone(), call.progress))
            }
            true => self.apply_write(tool, &call.arguments, || {
                run().map(|output| (output, ctx.read_at.get()))
            }),
            false => run(),
        };
        // The budget covers the whole call, waiting for the journal included; its
        // stop becomes an error like any other (logged, counted). Stops happen
        // only before a change (see `crate::budget`), so a stopped write changed
        // nothing and was not journaled.
        match call.budget {
            Some(budget) => budget
                .run(body)
                .unwrap_or_else(|stop| Err(stop_error(tool.name(), stop))),
            None => body(),
        }
    }

    /// Metrics, change notifications, the audit line of an applied write, and the
    /// log line of every call.
    fn record(
        &self,
        tool: &ToolDef,
        call: &Call<'_>,
        result: &Result<Value, Error>,
        started: Instant,
        networks_before: Option<usize>,
    ) {
        let name = tool.name();
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
            (result, tool.effect.writes(), self.inner.options.dry_run)
        {
            // The network the write changed: the one its result names (a copy names
            // the new network, not its source), else the one it was called on.
            let network = output
                .get("network_name")
                .or_else(|| call.arguments.get("network_name"))
                .and_then(|n| n.as_str())
                .unwrap_or("");
            if !network.is_empty() {
                self.inner
                    .changes
                    .publish(notify::Change::Network(network.to_string()));
                if tools::work::frees_work(name, output) {
                    self.inner
                        .changes
                        .publish(notify::Change::Ready(network.to_string()));
                }
            }
            if networks_before != Some(self.registry.len()) {
                self.inner.changes.publish(notify::Change::List);
            }
            info!(
                target: "audit",
                tool = name,
                network,
                client = call.client.unwrap_or("unknown"),
                arguments = %Summary(&call.arguments),
                result = %Summary(output),
                "write applied"
            );
        }
        match result {
            Ok(_) => debug!(tool = name, elapsed_us, "tool call"),
            Err(e) => {
                // Bounded like the audit line: a 10 MiB argument must not make a
                // 10 MiB log line.
                let message = e.to_string();
                let error = crate::error::clip(&message, Summary::MAX);
                let arguments = Summary(&call.arguments);
                // Lost races are how optimistic concurrency works, not faults:
                // a team of workers makes them by the thousand.
                if matches!(
                    e,
                    Error::VersionConflict { .. }
                        | Error::PreconditionFailed { .. }
                        | Error::ClaimNotHeld { .. }
                        | Error::CursorStale { .. }
                ) {
                    info!(tool = name, code = e.code(), %error, %arguments, elapsed_us, "tool call lost a race")
                } else {
                    warn!(tool = name, code = e.code(), %error, %arguments, elapsed_us, "tool call failed")
                }
            }
        }
    }
}

/// One tool call as it reaches [`NetworksServer::dispatch`]: which tool, its
/// arguments, who asked (for the audit log), and where it reports progress.
pub struct Call<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// Its arguments (`null` counts as none).
    pub arguments: Value,
    /// "name version" of the client, for the audit log.
    pub client: Option<&'a str>,
    /// Progress reporting and cancellation.
    pub progress: &'a tool::Progress,
    /// The call's cancel flag, deadline and step count, if it has any.
    pub budget: Option<&'a Budget>,
}

impl<'a> Call<'a> {
    /// A call of `tool` with `arguments`, from an unnamed client, without progress.
    pub fn new(tool: &'a str, arguments: Value) -> Self {
        Call {
            tool,
            arguments,
            client: None,
            progress: &tool::Progress::NONE,
            budget: None,
        }
    }

    /// Runs the call under `budget`: it stops, changing nothing, when the budget's
    /// flag is raised, its deadline passes or its steps are spent.
    pub fn with_budget(mut self, budget: &'a Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Names the client in the audit log.
    pub fn from_client(mut self, client: Option<&'a str>) -> Self {
        self.client = client;
        self
    }

    /// Reports progress to, and observes cancellation through, `progress`.
    pub fn with_progress(mut self, progress: &'a tool::Progress) -> Self {
        self.progress = progress;
        self
    }
}

/// A JSON-RPC error carrying our error object.
fn error_data(error: Error) -> ErrorData {
    let object = error.to_object();
    let message = object["error"].as_str().unwrap_or_default().to_string();
    ErrorData::internal_error(message, Some(object))
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
/// Lazy and bounded: nothing is serialised unless the event is written, and then
/// only the first [`Summary::MAX`] bytes, however large the value.
struct Summary<'a>(&'a Value);

impl Summary<'_> {
    const MAX: usize = 512;
}

impl std::fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// Keeps the first `MAX` bytes, then makes serde_json stop.
        struct Capped(Vec<u8>);
        impl std::io::Write for Capped {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                let room = Summary::MAX + 1 - self.0.len().min(Summary::MAX + 1);
                if room == 0 {
                    return Err(std::io::Error::other("summary is long enough"));
                }
                let take = buf.len().min(room);
                self.0.extend_from_slice(&buf[..take]);
                Ok(take)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut capped = Capped(Vec::with_capacity(Summary::MAX + 1));
        let complete = serde_json::to_writer(&mut capped, self.0).is_ok();
        let text = String::from_utf8_lossy(&capped.0);
        if complete && text.len() <= Summary::MAX {
            return f.write_str(&text);
        }
        let mut end = Summary::MAX.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}… (cut)", &text[..end])
    }
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

/// A successful call's result. A document field (see [`ToolDef::with_document`])
/// leaves `structuredContent` and goes once, as its own last text block.
/// The result a client receives for a tool's answer `value`: `structuredContent`,
/// and its JSON as the first text block (for clients that read only text). A
/// document (see [`ToolDef::with_document`]) leaves both and travels once, as an
/// embedded resource block whose `uri` and `mimeType` are the answer's
/// `resource_uri` and `mime_type`.
/// Whether a call's arguments name a file (`path`, see [`files`]).
fn names_a_file(arguments: &Value) -> bool {
    arguments.get("path").is_some_and(|path| !path.is_null())
}

/// Replaces an import's `path` by the document it names (`content`), read inside `roots`.
fn read_import_path(arguments: &mut Value, roots: &files::Roots) -> Result<(), Error> {
    let Some(object) = arguments.as_object_mut() else {
        return Ok(());
    };
    if object.get("content").is_some_and(|c| !c.is_null()) {
        // Both: the tool body says to give one.
        return Ok(());
    }
    let Some(Value::String(path)) = object.get("path") else {
        // Not a string: the decoder says what it must be.
        return Ok(());
    };
    let text = roots.read_text(path, tools::interchange::import::MAX_IMPORT_BYTES)?;
    object.remove("path");
    object.insert("content".into(), Value::String(text));
    Ok(())
}

fn tool_result(mut value: Value, document: Option<&str>) -> CallToolResult {
    let resource = document.and_then(|field| {
        let object = value.as_object_mut()?;
        let Value::String(text) = object.remove(field)? else {
            return None;
        };
        let uri = object.get("resource_uri").and_then(Value::as_str)?;
        let mime_type = object
            .get("mime_type")
            .and_then(Value::as_str)
            .unwrap_or("text/plain");
        Some(rmcp::model::ResourceContents::text(text, uri).with_mime_type(mime_type))
    });
    let mut result = CallToolResult::structured(value);
    if let Some(resource) = resource {
        result
            .content
            .push(rmcp::model::ContentBlock::resource(resource));
    }
    result
}

impl ServerHandler for NetworksServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)] // enable_logging: see the module's note
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_logging()
            .enable_tasks()
            .build();
        let mut capabilities = capabilities;
        let mut ui = rmcp::model::JsonObject::new();
        ui.insert("mimeTypes".into(), serde_json::json!([app::MIME]));
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert("io.modelcontextprotocol/ui".into(), ui);
        if self.inner.options.switchable {
            // `network_toolsets` changes the list; the host is told to list again.
            capabilities
                .tools
                .get_or_insert_with(Default::default)
                .list_changed = Some(true);
        }
        let mut info =
            ServerConfig::new(capabilities).with_instructions(self.inner.instructions.clone());
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
        Ok(ListToolsResult::with_all_items(self.session_tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.inner.options.switchable && request.name == toolsets::TOOL_NAME {
            let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
            // Quick and local to this session: no compute lane needed.
            return Ok(match self.switch_toolsets(arguments) {
                Ok((value, changed)) => {
                    if changed && let Err(error) = context.peer.notify_tool_list_changed().await {
                        // The reply says what to do when the host does not follow.
                        debug!(%error, "tools/list_changed not sent");
                    }
                    CallToolResult::structured(value).into()
                }
                Err(error) => CallToolResult::structured_error(error.to_object()).into(),
            });
        }
        let Some(tool) = tools::find(&self.inner.tools, &request.name) else {
            // A protocol error: a tool of a toolset this server does not offer
            // says which flag offers it; another name gets the closest names, so
            // that a misspelt call is fixed in one step.
            let error = match tools::find(&self.inner.tools_all, &request.name) {
                Some(tool) => Error::ToolNotOffered {
                    name: tool.name().to_string(),
                    toolset: tool.toolset.name().to_string(),
                    toolsets: self.toolsets_with(tool.toolset),
                },
                None => Error::UnknownTool {
                    name: request.name.to_string(),
                    suggestions: suggest::closest(
                        &request.name,
                        self.inner.listed.iter().map(|tool| &*tool.name),
                    ),
                },
            };
            // Through the one bounded rendering: the name is echoed, and it is
            // as long as the client made it.
            let object = error.to_object();
            let message = object["error"].as_str().unwrap_or_default().to_string();
            return Err(ErrorData::invalid_params(message, Some(object)));
        };
        let arguments = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        if names_a_file(&arguments) {
            self.refresh_client_roots(&context).await;
        }
        // A client that accepts tasks gets a handle for a long call.
        let arguments = match self.start_task(tool, arguments, &context).await {
            Ok(task) => return Ok(task),
            Err(arguments) => arguments,
        };
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| ProgressSink::Notify {
                peer: context.peer.clone(),
                token,
            });
        let client = client_label(&context);
        let cancel = ReplyConnection::of_call(&context);
        let call = self.call_off_runtime(tool, arguments, client, &cancel, (progress, false));
        match call.await {
            Ok(value) => Ok(tool_result(value, tool.document).into()),
            Err(error) => Ok(CallToolResult::structured_error(error.to_object()).into()),
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // A parked HTTP session coming back replays its handshake: not news.
        let restored = context.extensions.get::<SessionRestoreMarker>().is_some();
        if restored {
            debug!("parked session restored");
        } else {
            info!("client initialized");
        }
        let id = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|id| id.to_str().ok())
            .map(str::to_string);
        let forwarding = self.start_forwarding(context);
        if let Some(id) = id {
            self.note_session_id(&id, forwarding);
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(self.resource_list())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(NetworksServer::resource_templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        // A resource presents a tool's answer (an export, a plan's progress), so
        // it is computed where tool calls are, under the same budget.
        let server = self.clone();
        let uri = request.uri.clone();
        let read = self
            .offload(
                "resources/read",
                (
                    compute::Lane::Heavy,
                    false,
                    self.inner.options.compute.max_call,
                ),
                &context.ct,
                None,
                move |budget| budget.run(|| server.resource_read(&uri)),
            )
            .await;
        match read {
            Ok(Ok(result)) => result.map(Into::into),
            Ok(Err(stop)) => Err(error_data(stop_error("resources/read", stop))),
            Err(error) => Err(error_data(error)),
        }
    }

    #[allow(deprecated)] // resources/subscribe is how 2025-protocol clients subscribe
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribe_uri(&request.uri)
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.unsubscribe_uri(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(NetworksServer::accepted_filter(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.listen_changes(context).await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompts::list(&self.inner.options.toolsets))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let mut prompt = prompts::get(
            &request.name,
            request.arguments.as_ref(),
            &self.inner.options.toolsets,
        )?;
        if self.inner.options.switchable {
            for message in &mut prompt.messages {
                if let rmcp::model::ContentBlock::Text(content) = &mut message.content {
                    content.text = self.lead_with_toolsets(&content.text);
                }
            }
        }
        Ok(prompt.into())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let owner = self.task_owner(&context);
        self.inner
            .tasks
            .get(owner, &request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = self.task_owner(&context);
        self.inner
            .tasks
            .update(owner, &request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = self.task_owner(&context);
        self.inner.tasks.cancel(owner, &request.task_id)
    }

    #[allow(deprecated)] // logging: see the module's note
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.set_log_level(request.level);
        Ok(())
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

    #[test]
    fn audit_summaries_are_whole_when_short_and_cut_when_long() {
        let short = json!({"network_name": "plan", "node_id": "ü"});
        assert_eq!(Summary(&short).to_string(), short.to_string());
        let items: Vec<Value> = (0..100_000)
            .map(|i| json!({"source": format!("é{i}"), "target": "ü"}))
            .collect();
        let long = json!({ "edges": items });
        let text = Summary(&long).to_string();
        assert!(text.ends_with("… (cut)"), "{text}");
        assert!(
            text.len() <= Summary::MAX + "… (cut)".len(),
            "{}",
            text.len()
        );
        assert!(text.starts_with("{\"edges\":[{\"source\":\"é0\""), "{text}");
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
                long_running: false,
            },
            explode,
        ));
        let result = server
            .dispatch(Call::new("network_explode", json!({})))
            .expect("tool exists");
        let error = result.expect_err("a panic is an error");
        assert_eq!(error.code(), "internal");
        assert!(error.to_string().contains("injected fault"));
        let after = server.dispatch(Call::new(
            "network_create",
            json!({"network_name": "still_here"}),
        ));
        assert!(matches!(after, Some(Ok(_))));
        assert_eq!(server.registry().names(), ["still_here"]);
    }
}
