//! The compute pool: where every tool call runs, so that the async runtime's
//! workers only move bytes.
//!
//! Policy (see also docs/guarantees.md):
//! - **Two lanes.** A tool declares whether a call can run long
//!   ([`ToolMeta::long_running`](super::tool::ToolMeta)); those run on the *heavy*
//!   lane, the rest (single reads and writes, claims, listing) on the *light* lane.
//!   Each lane has its own threads, so a cheap call never queues behind an
//!   analysis: with every heavy thread busy, `network_get_neighbors` still answers
//!   in the time the operating system takes to schedule it.
//! - **Sizes.** The heavy lane runs `--compute-threads` calls at once (default: the
//!   number of cores). The light lane runs four times as many, at least 8: its
//!   calls hold a thread for microseconds, unless they wait for a network that a
//!   long call holds, and such a wait must not take the lane from everyone else.
//! - **Waiters per network.** A call that waits for a network's lock counts as
//!   one of its waiters; past half the light lane the next is refused at once
//!   (`server_busy`), so calls waiting for one held network leave threads to
//!   calls on every other network.
//! - **Bounded queues.** Past its running calls, each lane queues at most
//!   `--max-queued-calls` more; the next call is answered `server_busy` at once,
//!   with a retry hint. A queued call waits at most until its deadline, and leaves
//!   the queue when it is cancelled.
//! - **Kernel threads.** A heavy call's parallel kernels (PageRank's pull
//!   iterations, BFS's bottom-up levels) borrow the heavy lane's free threads, pass by pass (one
//!   iteration, one level), up to `--kernel-threads`
//!   ([`crate::budget::threads`]): an idle server puts every core on one
//!   analysis, a busy one runs each call on its own thread, and a call that
//!   arrives while a kernel holds lent threads gets one when the pass ends.
//!   A cancelled call stops at the end of its pass, on every thread.
//! - **Threads.** Heavy calls, and light calls that wait for a thread, run on
//!   tokio's blocking threads. A light call that finds a thread free runs where
//!   it was received: the calls that touch a bounded part of one network and do
//!   no I/O ([`ToolDef::runs_in_place`](super::tool::ToolDef::runs_in_place))
//!   run right on the runtime's thread, and hand it over (`block_in_place`)
//!   only if they must wait for a lock ([`crate::budget::blocking`]); the other
//!   light calls are taken out of the runtime's workers for their time
//!   (`block_in_place`). Neither pays a hand-off to another thread and back.
//!   The lanes' permits bound how many calls compute at once either way.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::error::Error;

/// The default per-call deadline: under the 60 s that common MCP clients wait
/// for a reply, so that the caller reads our advice rather than its own timeout.
pub const DEFAULT_MAX_CALL_SECONDS: u64 = 30;

/// The default deadline of a call that runs as a task: four minutes, inside the
/// five minutes a task's result is kept ([`super::tasks::DEFAULT_TASK_TTL`]).
/// The client polls instead of waiting on one reply, so a whole-graph search
/// of a million nodes (sampled betweenness, ten shortest paths) can finish.
pub const DEFAULT_MAX_TASK_SECONDS: u64 = 240;

/// The default number of calls a lane queues beyond those it runs.
pub const DEFAULT_MAX_QUEUED_CALLS: usize = 64;

/// Which lane a call runs on (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// O(1) or O(limit) calls.
    Light,
    /// Calls that can run long: whole-graph analysis, imports, exports, batches.
    Heavy,
}

impl Lane {
    fn name(self) -> &'static str {
        match self {
            Lane::Light => "light",
            Lane::Heavy => "heavy",
        }
    }
}

/// How the pool is sized, and how long a call may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComputeOptions {
    /// Heavy calls running at once.
    pub threads: usize,
    /// Calls each lane queues beyond those it runs.
    pub max_queued: usize,
    /// The deadline of one call, queueing included.
    pub max_call: Duration,
    /// The deadline of one call that runs as a task (nobody waits on its reply,
    /// so it may run longer), queueing included.
    pub max_task: Duration,
    /// Threads one heavy call's parallel kernels may use, its own included:
    /// the others are lent, pass by pass, from the heavy lane's free threads
    /// ([`crate::budget::threads`]). 1: every call on its own thread.
    pub kernel_threads: usize,
}

impl Default for ComputeOptions {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        ComputeOptions {
            threads: cores,
            kernel_threads: cores,
            max_queued: DEFAULT_MAX_QUEUED_CALLS,
            max_call: Duration::from_secs(DEFAULT_MAX_CALL_SECONDS),
            max_task: Duration::from_secs(DEFAULT_MAX_TASK_SECONDS),
        }
    }
}

/// The two lanes of compute threads shared by every session of one server.
pub(crate) struct ComputePool {
    light: LaneSlots,
    heavy: LaneSlots,
    max_waiters: usize,
    /// Lends heavy calls' kernels the heavy lane's free threads.
    lender: Arc<HeavyLender>,
}

/// Lends a heavy call's kernels threads for one pass at a time: the heavy
/// lane's free permits, up to `max_helpers`, taken without waiting. While
/// lent they are not free for calls, so helpers count against
/// `--compute-threads`; a call queued for one gets it when the pass ends.
struct HeavyLender {
    permits: Arc<Semaphore>,
    max_helpers: usize,
}

impl crate::budget::threads::Lender for HeavyLender {
    fn lend(&self, wanted: usize) -> crate::budget::threads::Loan {
        let k = wanted
            .min(self.max_helpers)
            .min(self.permits.available_permits());
        // One try, never a wait: a call that took a permit meanwhile wins it,
        // and this pass runs on fewer threads.
        match Arc::clone(&self.permits).try_acquire_many_owned(k as u32) {
            Ok(permits) if k > 0 => {
                metrics::counter!("networks_mcp_kernel_threads_lent_total").increment(k as u64);
                crate::budget::threads::Loan::new(k, permits)
            }
            _ => crate::budget::threads::Loan::none(),
        }
    }
}

struct LaneSlots {
    lane: Lane,
    running: Arc<Semaphore>,
    /// Calls admitted: running or queued.
    admitted: Arc<AtomicUsize>,
    max_admitted: usize,
    retry_after_ms: u64,
}

/// Why a call did not get a thread.
pub(crate) enum Refused {
    /// The lane's queue is full.
    Busy(Error),
    /// The call was cancelled while it queued.
    Cancelled,
    /// Its deadline passed while it queued.
    Deadline,
}

impl ComputePool {
    pub(crate) fn new(options: &ComputeOptions) -> ComputePool {
        let heavy = options.threads.max(1);
        let light = (heavy * 4).max(8);
        let heavy_slots = LaneSlots::new(Lane::Heavy, heavy, options.max_queued, 1_000);
        let lender = Arc::new(HeavyLender {
            permits: Arc::clone(&heavy_slots.running),
            max_helpers: options.kernel_threads.max(1) - 1,
        });
        ComputePool {
            light: LaneSlots::new(Lane::Light, light, options.max_queued, 100),
            heavy: heavy_slots,
            max_waiters: light / 2,
            lender,
        }
    }

    /// How many calls may wait for one network's lock: half the light lane, so
    /// that calls waiting for one held network leave the other half to calls
    /// on every other network.
    pub(crate) fn max_waiters_per_network(&self) -> usize {
        self.max_waiters
    }

    /// Runs `work` on a compute thread of `lane`, once one is free: at once when
    /// the lane has a free thread, after the calls ahead of it otherwise. The wait
    /// ends early when `cancel` fires or `deadline` passes, and is refused at once
    /// when the lane's queue is full.
    ///
    /// `in_place` says the call is one of the few that touch a bounded part of
    /// one network and do no I/O ([`super::tool::ToolDef::runs_in_place`]): on
    /// a free light lane it runs right here, on the runtime's thread, and hands
    /// the thread's other work elsewhere only if it must wait for a lock
    /// ([`crate::budget::blocking`]). Such a call costs what a call cost before
    /// the pool: no hand-off at all. On the heavy lane, `in_place` says the
    /// call only reads (and so reports no progress): when a heavy thread
    /// is free it runs on this thread, taken out of the runtime's workers for
    /// its time (`block_in_place`), so that a small query's reply pays no
    /// hand-off to a pool thread and back (two thread wake-ups, most of its
    /// time on an idle machine).
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        (lane, in_place): (Lane, bool),
        cancel: &CancellationToken,
        deadline: Instant,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let slots = match lane {
            Lane::Light => &self.light,
            Lane::Heavy => &self.heavy,
        };
        let admission = slots.admit()?;
        let free = Arc::clone(&slots.running).try_acquire_owned().ok();
        let found_free = free.is_some();
        let permit = match free {
            Some(permit) => permit,
            None => {
                let permit = tokio::select! {
                    biased;
                    _ = cancel.cancelled() => return Err(Refused::Cancelled),
                    _ = tokio::time::sleep_until(deadline.into()) => return Err(Refused::Deadline),
                    permit = Arc::clone(&slots.running).acquire_owned() => permit,
                };
                // The semaphore is never closed, so acquiring only fails if it were.
                let Ok(permit) = permit else {
                    return Err(Refused::Cancelled);
                };
                permit
            }
        };
        // A heavy call's kernels may borrow the lane's free threads.
        let lender: Option<Arc<dyn crate::budget::threads::Lender>> = (lane == Lane::Heavy
            && self.lender.max_helpers > 0)
            .then(|| Arc::clone(&self.lender) as Arc<dyn crate::budget::threads::Lender>);
        let work = move || match lender {
            Some(lender) => crate::budget::threads::with_lender(lender, work),
            None => work(),
        };
        let running = metrics::gauge!("networks_mcp_compute_running", "lane" => lane.name());
        running.increment(1.0);
        // These calls run on this thread: a light in-place call (see above)
        // whether or not it queued; another light call, or a heavy read, that
        // found a thread free is taken out of the runtime's workers for its
        // time (the runtime hands its other tasks to another thread). Either
        // way there is no hand-off to a pool thread and back on the way of the
        // reply, which is most of a small call's cost.
        let here = match lane {
            Lane::Light => in_place || found_free,
            Lane::Heavy => in_place && found_free,
        };
        if here && runs_on_many_workers() {
            let out = if lane == Lane::Light && in_place {
                crate::budget::run_where_blocking_is_handed_over(hand_over_the_thread, work)
            } else {
                tokio::task::block_in_place(work)
            };
            running.decrement(1.0);
            drop((permit, admission));
            return Ok(out);
        }
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _admission = admission;
            let out = work();
            running.decrement(1.0);
            out
        })
        .await;
        match joined {
            Ok(out) => Ok(out),
            // The work itself catches panics; a join error means the runtime is
            // shutting down.
            Err(_) => Err(Refused::Cancelled),
        }
    }
}

impl LaneSlots {
    fn new(lane: Lane, threads: usize, max_queued: usize, retry_after_ms: u64) -> LaneSlots {
        LaneSlots {
            lane,
            running: Arc::new(Semaphore::new(threads)),
            admitted: Arc::new(AtomicUsize::new(0)),
            max_admitted: threads + max_queued,
            retry_after_ms,
        }
    }

    /// Takes a place in the lane, or refuses when it is full.
    fn admit(&self) -> Result<Admission, Refused> {
        let admitted = self.admitted.fetch_add(1, Ordering::AcqRel);
        if admitted >= self.max_admitted {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            metrics::counter!("networks_mcp_calls_shed_total", "lane" => self.lane.name())
                .increment(1);
            return Err(Refused::Busy(Error::ServerBusy {
                queued: admitted,
                retry_after_ms: self.retry_after_ms,
            }));
        }
        Ok(Admission(Arc::clone(&self.admitted)))
    }
}

/// Hands the runtime's other tasks on this thread to another thread while
/// `wait` blocks this one (see [`ComputePool::run`]).
fn hand_over_the_thread(wait: &mut dyn FnMut()) {
    tokio::task::block_in_place(wait)
}

/// Whether this task runs on tokio's multi-thread runtime, the only one that can
/// take a thread out of its workers for a blocking call (`block_in_place`).
fn runs_on_many_workers() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// A place in a lane, given back when the call ends, however it ends.
struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What to do instead when a tool's call runs past its deadline.
pub(crate) fn deadline_hint(tool: &str) -> &'static str {
    match tool {
        "network_centrality" => {
            "For pagerank, lower max_iterations or raise tolerance; for betweenness, pass a smaller k (each sampled source is one search of the whole network); or cut the part you need with network_copy (method induced or neighborhood) and ask about the copy; or call it as an MCP task, which may run longer (--max-task-seconds)."
        }
        "network_paths" => {
            "Lower max_depth or limit, or ask for k_shortest, which finds the best paths first; or call it as an MCP task, which may run longer (--max-task-seconds)."
        }
        "network_search" => {
            "Use a shorter query, mode substring, max_distance 1 or 2, or in_attributes to search fewer fields."
        }
        "network_query" => {
            "The query walked too many paths or rows: give a variable-length pattern an upper bound (-[*1..5]->) or a relationship type, anchor it ({id: 'x'}), narrow the MATCH with labels or a WHERE, or aggregate; or call it as an MCP task, which may run longer (--max-task-seconds)."
        }
        "network_import" => "Split the document and import it in parts (mode merge).",
        "network_export" | "network_visualize" => {
            "Export a part: pass node_ids, or cut the part you need with network_copy first."
        }
        "network_add_nodes" | "network_add_edges" | "network_update_nodes" => {
            "Send the batch in smaller parts."
        }
        _ => {
            "Work on a part: cut the nodes you need with network_copy (method induced or neighborhood) and ask about the copy, or lower the call's limits."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::threads::for_pass;

    fn pool(threads: usize, kernel_threads: usize) -> ComputePool {
        ComputePool::new(&ComputeOptions {
            threads,
            kernel_threads,
            ..ComputeOptions::default()
        })
    }

    /// The threads one pass of a heavy call's kernel gets.
    async fn lent(pool: &ComputePool, lane: Lane) -> usize {
        let deadline = Instant::now() + Duration::from_secs(10);
        let work = || for_pass(0, 1_000).threads();
        match pool
            .run((lane, false), &CancellationToken::new(), deadline, work)
            .await
        {
            Ok(threads) => threads,
            Err(_) => panic!("the call was refused"),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn heavy_kernels_borrow_the_free_heavy_threads_and_no_more() {
        // An idle lane of 4 lends its 3 free threads, up to --kernel-threads.
        assert_eq!(lent(&pool(4, 4), Lane::Heavy).await, 4);
        assert_eq!(lent(&pool(4, 2), Lane::Heavy).await, 2);
        assert_eq!(lent(&pool(4, 1), Lane::Heavy).await, 1);
        // Light calls never borrow.
        assert_eq!(lent(&pool(4, 4), Lane::Light).await, 1);

        // A call holding a heavy thread leaves fewer to lend; once it ends,
        // they are lent again.
        let pool = Arc::new(pool(3, 3));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let holder = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                let deadline = Instant::now() + Duration::from_secs(10);
                let cancel = CancellationToken::new();
                let work = move || {
                    started_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                };
                let _ = pool
                    .run((Lane::Heavy, false), &cancel, deadline, work)
                    .await;
            })
        };
        tokio::task::spawn_blocking(move || started_rx.recv().unwrap())
            .await
            .unwrap();
        assert_eq!(lent(&pool, Lane::Heavy).await, 2);
        release_tx.send(()).unwrap();
        holder.await.unwrap();
        assert_eq!(lent(&pool, Lane::Heavy).await, 3);
        // Every lent thread came back.
        assert_eq!(pool.heavy.running.available_permits(), 3);
    }
}
