//! Long calls as MCP tasks: the `io.modelcontextprotocol/tasks` extension
//! (SEP-2663) of protocol 2026-07-28.
//!
//! A client that declares the extension (at `initialize`, or in a request's
//! `_meta`) and calls one of [`TASK_TOOLS`] gets the answer directly if the call
//! ends within [`TaskOptions::answer_directly_within`], else a task handle then
//! (`resultType: "task"`) instead of waiting for the answer; it polls `tasks/get`
//! until the task is `completed` (the result is exactly what a direct call would
//! have answered, errors included) or `cancelled`, and may stop it with
//! `tasks/cancel`. The work runs where a direct call runs, on the compute pool
//! under the same budget. A client that does not declare the extension is served
//! as before: task creation is the server's choice per request (SEP-2663), never
//! the client's obligation.
//!
//! Bounds (`docs/guarantees.md`, `specs/security.md`):
//! - **Unfinished tasks per session**: at most `--max-tasks-per-session` (default
//!   [`DEFAULT_MAX_TASKS_PER_SESSION`]); the next one is refused with a
//!   `limit_exceeded` error object that says what to do.
//! - **Kept results per session**: at most [`KEPT_PER_UNFINISHED`] times as many
//!   tasks, finished or not. Past it a call is answered directly, as for a client
//!   without tasks, so a session that makes many quick tasks cannot pile up
//!   results in memory.
//! - **Expiry**: a task's result is kept for its TTL (default
//!   [`DEFAULT_TASK_TTL`]) after it finishes, then forgotten (`tasks/get` answers
//!   "unknown task"). A task still running when its TTL has passed since its
//!   creation is stopped and marked `failed`; with the defaults this cannot
//!   happen, as the TTL is longer than `--max-call-seconds`.
//! - **Cancellation**: `tasks/cancel`, or the end of the session that made the
//!   task, raises the call's budget flag; the compute thread stops within
//!   milliseconds and frees its place on the lane.
//!
//! Scope: rmcp's [`TaskManager`] is one store for the whole server; this module
//! records which session made each task and answers "unknown task" to any other
//! session, the same answer as for an id that never existed. Requests that
//! come without a session (protocol 2026-07-28 over HTTP, where every request
//! stands alone) share one scope and one bound; there the task id, a random
//! UUID, is what lets a client read its task.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::model::{DetailedTask, Task};
use rmcp::task_manager::{TaskContext, TaskFuture, TaskManager};

use crate::error::Error;

/// The default bound on one session's unfinished tasks.
pub const DEFAULT_MAX_TASKS_PER_SESSION: usize = 16;

/// The default time a task's result is kept (and the longest a task may run).
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// The default time within which a call offered as a task is answered directly
/// ([`TaskOptions::answer_directly_within`]): a second, well under the time a
/// client waits for any reply, and past what a call on a small network takes.
pub const DEFAULT_ANSWER_DIRECTLY_WITHIN: Duration = Duration::from_secs(1);

/// How many tasks, finished or not, a session may hold per unfinished task it
/// may run.
pub const KEPT_PER_UNFINISHED: usize = 4;

/// The polling interval suggested to clients: heavy calls take seconds, so
/// polling faster only costs round trips.
const POLL_INTERVAL_MS: u64 = 500;

/// The tools whose calls become tasks for clients that declared the extension:
/// the whole-graph analyses and the document transfers, the calls whose cost
/// grows with the network rather than with a `limit`. Cheap reads stay direct
/// even on the heavy lane, so that an agent's frequent calls (ready nodes,
/// listings) cost one round trip, not a poll; `network_visualize` stays direct
/// because hosts render its result in place.
pub(crate) const TASK_TOOLS: &[&str] = &[
    "network_centrality",
    "network_communities",
    "network_paths",
    "network_structure",
    "network_search",
    "network_diff",
    "network_copy",
    "network_import",
    "network_export",
];

/// Whether a call of `tool` runs as a task for a client that accepts tasks.
pub(crate) fn runs_as_task(tool: &str) -> bool {
    TASK_TOOLS.contains(&tool)
}

/// How many tasks a session may hold, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskOptions {
    /// Unfinished tasks one session may have (`--max-tasks-per-session`).
    pub max_per_session: usize,
    /// How long a result is kept after its task finishes; also the longest a task
    /// may run, counted from its creation.
    pub ttl: Duration,
    /// A call offered as a task that ends within this time is answered directly
    /// (its task is then never shown): most calls end in milliseconds, and a
    /// direct answer costs the client no polling. Also what keeps clients that
    /// declare the extension but read every `tools/call` reply as a result
    /// working for all but long calls.
    pub answer_directly_within: Duration,
}

impl Default for TaskOptions {
    fn default() -> Self {
        TaskOptions {
            max_per_session: DEFAULT_MAX_TASKS_PER_SESSION,
            ttl: DEFAULT_TASK_TTL,
            answer_directly_within: DEFAULT_ANSWER_DIRECTLY_WITHIN,
        }
    }
}

/// Who may see a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Owner {
    /// One connection (stdio) or one HTTP session of a 2025 protocol.
    Session(u64),
    /// Requests without a session (2026-07-28 over HTTP), together.
    Sessionless,
}

/// What became of a call offered as a task.
pub(crate) enum Spawned {
    /// The task runs; this is its seed state for the `CreateTaskResult`.
    Task(Task),
    /// The session keeps as many tasks as it may: answer the call directly.
    Direct,
    /// The session has as many unfinished tasks as it may.
    Refused(Error),
}

/// The server's tasks: rmcp's store, plus who made each task.
pub(crate) struct Tasks {
    manager: TaskManager,
    options: TaskOptions,
    table: Arc<Mutex<HashMap<String, Entry>>>,
    next_session: AtomicU64,
}

struct Entry {
    owner: Owner,
    created: Instant,
    /// When the task's work ended, however it ended.
    finished: Option<Instant>,
}

impl Tasks {
    /// Whether `owner` has a task, running or with its result kept.
    pub(crate) fn owns_any(&self, owner: Owner) -> bool {
        lock(&self.table).values().any(|entry| entry.owner == owner)
    }

    pub(crate) fn new(options: TaskOptions) -> Tasks {
        Tasks {
            manager: TaskManager::new(),
            options,
            table: Arc::default(),
            next_session: AtomicU64::new(0),
        }
    }

    /// A scope of its own for a new session.
    pub(crate) fn new_session(&self) -> Owner {
        Owner::Session(self.next_session.fetch_add(1, Ordering::Relaxed))
    }

    /// Starts `make`'s future as a task of `owner`, unless the session's bounds
    /// say otherwise; `make` is only called when the task starts.
    pub(crate) fn spawn(
        &self,
        owner: Owner,
        tool: &str,
        make: impl FnOnce(TaskContext) -> TaskFuture,
    ) -> Spawned {
        let max = self.options.max_per_session;
        let mut table = lock(&self.table);
        self.sweep(&mut table);
        let (unfinished, kept) = table.values().filter(|entry| entry.owner == owner).fold(
            (0, 0),
            |(unfinished, kept), entry| {
                (unfinished + usize::from(entry.finished.is_none()), kept + 1)
            },
        );
        if unfinished >= max {
            return Spawned::Refused(Error::LimitExceeded {
                what: "this session's unfinished tasks".into(),
                limit: max as u64,
                hint: "Poll tasks/get until one of your tasks finishes, or stop one with tasks/cancel, then call again; or call without declaring the tasks extension to be answered directly. The bound is --max-tasks-per-session.".into(),
            });
        }
        if kept >= max.saturating_mul(KEPT_PER_UNFINISHED) {
            return Spawned::Direct;
        }
        let ttl_ms = u64::try_from(self.options.ttl.as_millis()).unwrap_or(u64::MAX);
        let options = rmcp::task_manager::TaskOptions::new()
            .with_ttl_ms(ttl_ms)
            .with_poll_interval_ms(POLL_INTERVAL_MS.min(ttl_ms.max(1)))
            .with_status_message(format!("{tool}: working"));
        let finished_table = Arc::clone(&self.table);
        let task = self.manager.spawn(options, move |context| {
            let done = Finished {
                table: finished_table,
                id: context.task_id().to_string(),
            };
            let work = make(context);
            Box::pin(async move {
                let _done = done;
                work.await
            })
        });
        // Under the same lock as the count, so concurrent calls of one session
        // cannot both pass the bound; the task's own `Finished` waits for it.
        table.insert(
            task.task_id.clone(),
            Entry {
                owner,
                created: Instant::now(),
                finished: None,
            },
        );
        Spawned::Task(task)
    }

    /// How long [`NetworksServer::start_task`](crate::mcp::NetworksServer)
    /// waits for a task's result before it answers with the task's handle.
    pub(crate) fn answer_directly_within(&self) -> Duration {
        self.options.answer_directly_within
    }

    /// `tasks/get`, for `owner`'s tasks only.
    pub(crate) fn get(&self, owner: Owner, id: &str) -> Result<DetailedTask, ErrorData> {
        self.check_owner(owner, id)?;
        self.manager.get_task(id)
    }

    /// `tasks/cancel`, for `owner`'s tasks only: the task's budget flag is raised,
    /// and the task settles as `cancelled` once its compute thread has stopped.
    pub(crate) fn cancel(&self, owner: Owner, id: &str) -> Result<(), ErrorData> {
        self.check_owner(owner, id)?;
        self.manager.cancel_task(id)
    }

    /// `tasks/update`, for `owner`'s tasks only. No tool asks for input mid-task,
    /// so responses are accepted and ignored, as SEP-2663 asks for unknown keys.
    pub(crate) fn update(
        &self,
        owner: Owner,
        id: &str,
        responses: impl IntoIterator<Item = (String, serde_json::Value)>,
    ) -> Result<(), ErrorData> {
        self.check_owner(owner, id)?;
        self.manager.update_task(id, responses)
    }

    /// The same answer for another session's task as for one that never existed,
    /// so that ids cannot be probed.
    fn check_owner(&self, owner: Owner, id: &str) -> Result<(), ErrorData> {
        let mut table = lock(&self.table);
        self.sweep(&mut table);
        match table.get(id) {
            Some(entry) if entry.owner == owner => Ok(()),
            _ => Err(ErrorData::invalid_params(
                format!(
                    "unknown task '{}': no task of this session has that id, or its result expired ({} s after it finished). Start the call again.",
                    crate::error::clip(id, 64),
                    self.options.ttl.as_secs()
                ),
                None,
            )),
        }
    }

    /// Forgets tasks rmcp's store has forgotten: a result one TTL after its task
    /// finished, and in any case two TTLs after creation (a task still running
    /// at one TTL is failed, then kept one more).
    fn sweep(&self, table: &mut HashMap<String, Entry>) {
        let ttl = self.options.ttl;
        table.retain(|_, entry| match entry.finished {
            Some(finished) => finished.elapsed() < ttl,
            None => entry.created.elapsed() < ttl.saturating_mul(2),
        });
    }
}

/// Marks a task's work as ended when its future ends or is dropped (finished,
/// failed, cancelled, or stopped by its TTL).
struct Finished {
    table: Arc<Mutex<HashMap<String, Entry>>>,
    id: String,
}

impl Drop for Finished {
    fn drop(&mut self) {
        if let Some(entry) = lock(&self.table).get_mut(&self.id) {
            entry.finished = Some(Instant::now());
        }
    }
}

/// The table holds plain data that every critical section leaves consistent, so
/// a panic elsewhere while it was held does not make it unusable.
fn lock(table: &Mutex<HashMap<String, Entry>>) -> MutexGuard<'_, HashMap<String, Entry>> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_tool_exists_and_runs_on_the_heavy_lane() {
        let all = crate::mcp::tools::all();
        for name in TASK_TOOLS {
            let tool = crate::mcp::tools::find(&all, name)
                .unwrap_or_else(|| panic!("{name} is not in the tool table"));
            assert_eq!(
                tool.lane(),
                crate::mcp::compute::Lane::Heavy,
                "{name} runs as a task, so it must be a long-running tool"
            );
        }
    }
}
