//! How a tool call leaves the async runtime: on the compute pool, under a
//! [`Budget`], as a direct reply or as a task, with its progress and its
//! cancellation (see AGENTS.md, "Every call off the event loop").

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, CallToolResult, CreateTaskResult};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit};
use serde_json::Value;
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};
use tracing::{debug, info, warn};

use super::tool::{self, ToolDef};
use super::{Call, NetworksServer, client_label, compute, error_data, tasks, tool_result, tools};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Wake, Waker};
use std::time::{Duration, Instant};

use crate::budget::{Budget, Stop};
use crate::error::Error;

/// What a tool call's progress reports travel through, from its compute thread
/// to the session: `(done, total, message)`.
type ProgressReports = tokio::sync::mpsc::UnboundedReceiver<(u64, u64, String)>;

/// Where a call's progress reports go.
pub(super) enum ProgressSink {
    /// `notifications/progress` for the token the request carried.
    Notify {
        peer: rmcp::Peer<RoleServer>,
        token: rmcp::model::ProgressToken,
    },
    /// The task's status message, which `tasks/get` shows: a task outlives its
    /// request, so there is no request to attach notifications to.
    Task(TaskContext),
}

impl ProgressSink {
    async fn send(&self, done: u64, total: u64, message: String) {
        match self {
            ProgressSink::Notify { peer, token } => {
                let mut param =
                    rmcp::model::ProgressNotificationParam::new(token.clone(), done as f64)
                        .with_total(total as f64);
                if !message.is_empty() {
                    param = param.with_message(message);
                }
                if let Err(e) = peer.notify_progress(param).await {
                    debug!(error = %e, "could not send a progress notification");
                }
            }
            ProgressSink::Task(task) => {
                let status = if message.is_empty() {
                    format!("{done} of {total}")
                } else {
                    format!("{done} of {total}: {}", crate::error::clip(&message, 256))
                };
                task.set_status_message(status);
            }
        }
    }
}

impl NetworksServer {
    /// Runs `work` on the heavy lane of the compute pool under a call's budget
    /// (deadline, cancellation when the future is dropped): for work outside the
    /// tools, such as the web view's layouts.
    pub(crate) async fn compute<T: Send + 'static>(
        &self,
        operation: &str,
        work: impl FnOnce() -> crate::Result<T> + Send + 'static,
    ) -> Result<T, Error> {
        let max_call = self.inner.options.compute.max_call;
        let stopped = |stop| stop_error(operation, stop);
        self.offload(
            operation,
            (compute::Lane::Heavy, false, max_call),
            &CancellationToken::new(),
            None,
            move |budget| budget.run(work),
        )
        .await?
        .map_err(stopped)?
    }

    /// Runs `work` on the compute pool (see [`compute`]) under a budget whose
    /// deadline is `max_call` from now (`--max-call-seconds`, or
    /// `--max-task-seconds` for a task) and whose flag `cancel` raises:
    /// for a request, its cancellation (`notifications/cancelled`, the session
    /// closing); for a task, `tasks/cancel` (see [`tasks`]). Dropping this future
    /// raises the flag too (the connection went away, or a task expired).
    /// Progress reports, when someone listens, go to `progress` meanwhile.
    pub(super) async fn offload<T: Send + 'static>(
        &self,
        operation: &str,
        (lane, in_place, max_call): (compute::Lane, bool, Duration),
        cancel: &CancellationToken,
        progress: Option<(ProgressSink, ProgressReports)>,
        work: impl FnOnce(&Budget) -> T + Send + 'static,
    ) -> Result<T, Error> {
        // A longer deadline lets the tools' own work limits grow with it: one
        // direct call's limit (about a second of work) per second allowed.
        let direct = self.inner.options.compute.max_call;
        let scale = if max_call > direct {
            max_call.as_secs().max(1)
        } else {
            1
        };
        let budget = Budget::unlimited()
            .with_timeout(max_call)
            .with_work_scale(scale)
            .with_max_waiters(self.inner.pool.max_waiters_per_network());
        let deadline = Instant::now() + max_call;
        let _stop_if_dropped = CancelOnDrop(budget.clone());
        let work_budget = budget.clone();
        // A light call may run on this very thread (see `compute`), where the
        // select below cannot see a cancellation: the token wakes a waker that
        // raises the budget's flag, registered here and dropped with the call.
        // (A watcher task did the same, but its spawn woke a second worker
        // thread for every light call.)
        let mut watch = std::pin::pin!(cancel.cancelled());
        if lane == compute::Lane::Light || in_place {
            raise_on_cancel(watch.as_mut(), &budget);
        }
        let run = self
            .inner
            .pool
            .run((lane, in_place), cancel, deadline, move || {
                work(&work_budget)
            });
        tokio::pin!(run);
        let (sink, mut reports) = match progress {
            Some((sink, reports)) => (Some(sink), Some(reports)),
            None => (None, None),
        };
        let outcome = loop {
            tokio::select! {
                biased;
                outcome = &mut run => break outcome,
                _ = cancel.cancelled(), if !budget.is_cancelled() => budget.cancel(),
                report = next_report(&mut reports) => {
                    let (Some(sink), Some((done, total, message))) = (&sink, report) else {
                        reports = None;
                        continue;
                    };
                    sink.send(done, total, message).await;
                }
            }
        };
        // The work has ended and dropped its reporter: what it reported last is
        // in the channel still, and goes out before the reply.
        if let (Some(sink), Some(reports)) = (&sink, reports.as_mut()) {
            while let Ok((done, total, message)) = reports.try_recv() {
                sink.send(done, total, message).await;
            }
        }
        outcome.map_err(|refused| match refused {
            compute::Refused::Busy(error) => {
                warn!(
                    operation,
                    code = error.code(),
                    "call shed: the compute lane is full"
                );
                error
            }
            compute::Refused::Cancelled => stop_error(operation, Stop::Cancelled),
            compute::Refused::Deadline => {
                stop_error(operation, Stop::DeadlineExceeded { allowed: max_call })
            }
        })
    }

    /// Runs one tool call on the compute pool: the one path of `tools/call`,
    /// whether the answer goes back in the reply or into a task (`in_task`: the
    /// longer deadline). `cancel` stops it; `progress` says where its reports
    /// go, if anywhere.
    pub(super) async fn call_off_runtime(
        &self,
        tool: &ToolDef,
        arguments: Value,
        client: Option<String>,
        cancel: &CancellationToken,
        (progress, in_task): (Option<ProgressSink>, bool),
    ) -> Result<Value, Error> {
        let (report, reports) = match progress {
            Some(sink) => {
                let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<(u64, u64, String)>();
                let report = Box::new(move |done: u64, total: u64, message: &str| {
                    let _ = tx.send((done, total, message.to_string()));
                }) as Box<tool::Report>;
                (Some(report), Some((sink, rx)))
            }
            None => (None, None),
        };
        let progress = tool::Progress::new(report, Some(cancel.clone()));
        let server = self.clone();
        let name = tool.name().to_string();
        let compute = &self.inner.options.compute;
        let max_call = if in_task {
            compute.max_task
        } else {
            compute.max_call
        };
        let lane = tool.lane();
        let reads = matches!(tool.effect, tool::Effect::Read);
        let in_place = match lane {
            // A durable write does I/O: never on the runtime's thread.
            compute::Lane::Light => tool.runs_in_place() && (self.storage.is_none() || reads),
            // A heavy read may leave the runtime's workers with its thread (see
            // `compute`). Reads report no progress (imports and batch writes
            // do), so a listener misses nothing while it runs there.
            compute::Lane::Heavy => reads && !in_task,
        };
        let outcome = self
            .offload(
                tool.name(),
                (lane, in_place, max_call),
                cancel,
                reports,
                move |budget| {
                    super::release::forget_freed();
                    let outcome = server.dispatch(
                        Call::new(&name, arguments)
                            .from_client(client.as_deref())
                            .with_progress(&progress)
                            .with_budget(budget),
                    );
                    // The call's arguments (an import's document) are dropped by now.
                    super::release::release_if_much_freed();
                    outcome
                },
            )
            .await?;
        outcome.unwrap_or_else(|| {
            Err(Error::Internal {
                message: format!("tool '{}' vanished from the table", tool.name()),
            })
        })
    }

    /// Who may read the tasks this request makes: its session, or, for a request
    /// without one (2026-07-28 over HTTP), every such request (see [`tasks`]).
    pub(super) fn task_owner(&self, context: &RequestContext<RoleServer>) -> tasks::Owner {
        match context.extensions.get::<axum::http::request::Parts>() {
            Some(parts) if !parts.headers.contains_key("mcp-session-id") => {
                tasks::Owner::Sessionless
            }
            _ => self.task_owner,
        }
    }

    /// Starts `tool` as a task when the client accepts tasks and the tool is one
    /// of [`tasks::TASK_TOOLS`]; else gives the arguments back for a direct call.
    /// A task that ends within [`tasks::TaskOptions::answer_directly_within`] is
    /// answered directly, with the result `tasks/get` would give.
    pub(super) async fn start_task(
        &self,
        tool: &ToolDef,
        arguments: Value,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, Value> {
        let accepts_tasks = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        if !accepts_tasks || !tasks::runs_as_task(tool.name()) {
            return Err(arguments);
        }
        let owner = self.task_owner(context);
        let server = self.clone();
        let client = client_label(context);
        let name = tool.name().to_string();
        // A session's tasks stop when it ends: nobody else may read them. A
        // request without a session ends with its reply, so its tasks run on.
        let session = matches!(owner, tasks::Owner::Session(_)).then(|| context.peer.clone());
        let mut arguments = Some(arguments);
        // The task's result, also sent here so that a quick call is answered
        // directly.
        let (early_tx, early_rx) = tokio::sync::oneshot::channel();
        let started = self.inner.tasks.spawn(owner, tool.name(), |task| {
            let arguments = arguments.take().unwrap_or(Value::Null);
            Box::pin(async move {
                let result = server
                    .run_task(&name, arguments, client, session, task)
                    .await;
                // Past the wait nobody listens: no copy of a long call's result.
                if let Ok(result) = &result
                    && !early_tx.is_closed()
                {
                    _ = early_tx.send(result.clone());
                }
                result
            })
        });
        match started {
            tasks::Spawned::Task(task) => {
                // Zero: every such call is a task, even one already ended.
                let wait = self.inner.tasks.answer_directly_within();
                if !wait.is_zero()
                    && let Ok(Ok(result)) = tokio::time::timeout(wait, early_rx).await
                {
                    return Ok(result.into());
                }
                info!(tool = tool.name(), task = %task.task_id, "call runs as a task");
                Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
            }
            tasks::Spawned::Refused(error) => {
                warn!(
                    tool = tool.name(),
                    code = error.code(),
                    "task refused: the session's bound is reached"
                );
                Ok(CallToolResult::structured_error(error.to_object()).into())
            }
            tasks::Spawned::Direct => Err(arguments.unwrap_or(Value::Null)),
        }
    }

    /// A task's work: the call a direct `tools/call` makes, stopped by
    /// `tasks/cancel` or by the end of `session`.
    pub(super) async fn run_task(
        &self,
        name: &str,
        arguments: Value,
        client: Option<String>,
        session: Option<rmcp::Peer<RoleServer>>,
        task: TaskContext,
    ) -> Result<CallToolResult, TaskExit> {
        let Some(tool) = tools::find(&self.inner.tools, name) else {
            return Err(TaskExit::Error(error_data(Error::Internal {
                message: format!("tool '{name}' vanished from the table"),
            })));
        };
        let cancel = CancellationToken::new();
        let stop = async {
            tokio::select! {
                _ = task.cancelled() => {}
                _ = session_closed(session.as_ref()) => {}
            }
            cancel.cancel();
            // The call sees the flag and ends; this branch must not end first.
            std::future::pending::<std::convert::Infallible>().await
        };
        let call = self.call_off_runtime(
            tool,
            arguments,
            client,
            &cancel,
            (Some(ProgressSink::Task(task.clone())), true),
        );
        let result = tokio::select! {
            result = call => result,
            never = stop => match never {},
        };
        // The last progress report would otherwise stay as the status.
        task.set_status_message(format!("{name}: finished"));
        match result {
            Ok(value) => Ok(tool_result(value, tool.document)),
            Err(Error::Cancelled { .. }) => Err(TaskExit::Cancelled),
            Err(error) => Ok(CallToolResult::structured_error(error.to_object())),
        }
    }
}

/// Resolves once the session of `peer` has ended; never without a peer. The
/// session's end is a closed channel that only says so when asked, hence the
/// look every 100 ms, a small cost next to a call that runs as a task.
async fn session_closed(peer: Option<&rmcp::Peer<RoleServer>>) {
    let Some(peer) = peer else {
        return std::future::pending().await;
    };
    let mut every = tokio::time::interval(std::time::Duration::from_millis(100));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while !peer.is_transport_closed() {
        every.tick().await;
    }
}

/// The next progress report, or never when there is no channel.
async fn next_report(reports: &mut Option<ProgressReports>) -> Option<(u64, u64, String)> {
    match reports {
        Some(reports) => reports.recv().await,
        None => std::future::pending().await,
    }
}

/// Cancels a call's budget when the future waiting for it is dropped (the client
/// went away), so that no thread keeps computing an answer nobody will read.
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// When a call refused for a held network should come again: a long read holds
/// a network for seconds, so sooner would only be refused again.
const NETWORK_BUSY_RETRY_MS: u64 = 1_000;

/// Passes a cancellation on to `budget` without a task: polls the token's
/// `cancelled()` future once with a waker that raises the budget's flag. The
/// token wakes it when cancelled, as long as the caller keeps the future;
/// dropping the future unregisters it.
fn raise_on_cancel(cancelled: Pin<&mut WaitForCancellationFuture<'_>>, budget: &Budget) {
    let waker = Waker::from(Arc::new(RaiseFlag(budget.cancel_flag())));
    if cancelled.poll(&mut Context::from_waker(&waker)).is_ready() {
        budget.cancel();
    }
}

/// The waker of [`raise_on_cancel`]: a cancellation token wakes only once it is
/// cancelled.
struct RaiseFlag(Arc<AtomicBool>);

impl Wake for RaiseFlag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The error a call stopped by its budget answers.
pub(super) fn stop_error(operation: &str, stop: Stop) -> Error {
    match stop {
        Stop::Cancelled => Error::Cancelled {
            operation: operation.to_string(),
        },
        Stop::DeadlineExceeded { allowed } => Error::DeadlineExceeded {
            operation: operation.to_string(),
            seconds: allowed.as_secs_f64(),
            hint: compute::deadline_hint(operation).to_string(),
        },
        Stop::NetworkBusy { waiting } => Error::NetworkBusy {
            waiting,
            retry_after_ms: NETWORK_BUSY_RETRY_MS,
        },
        Stop::WorkLimit { steps } => Error::LimitExceeded {
            what: format!("the work of {operation}"),
            limit: steps,
            hint: compute::deadline_hint(operation).to_string(),
        },
    }
}

/// Set by the HTTP transport in a request's extensions: cancelled when the
/// response that carries the request's reply ends, delivered or not. A call still
/// running then has lost its client, and stops.
///
/// The protocol lets a client resume a dropped stream, but an answer computed for
/// nobody holds a compute thread from everyone else; a client that wants to come
/// back for a long result uses a task, which does not stop with its connection.
#[derive(Clone, Debug)]
pub struct ReplyConnection(pub CancellationToken);

impl ReplyConnection {
    /// The token of a direct call of `context`: cancelled with the request, or when
    /// the connection carrying its reply closes.
    pub(super) fn of_call(context: &RequestContext<RoleServer>) -> CancellationToken {
        let Some(connection) = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<ReplyConnection>())
        else {
            return context.ct.clone();
        };
        let call = context.ct.child_token();
        let (gone, watched) = (connection.0.clone(), call.clone());
        // Ends when either fires; the connection's token always fires once the
        // response is over, so this task never outlives the request for long.
        tokio::spawn(async move {
            tokio::select! {
                _ = gone.cancelled() => watched.cancel(),
                _ = watched.cancelled() => {}
            }
        });
        call
    }
}
