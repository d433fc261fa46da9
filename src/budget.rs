//! [`Budget`]: one bound on a call's work — a cancel flag, a deadline and a step
//! count — that every long algorithm of the crate checks in its loops.
//!
//! # How it reaches the algorithms
//!
//! A budget is *installed* on the current thread by [`Budget::run`] for the time
//! of one closure. The algorithms call [`charge`] in their loops, one step per
//! node or edge they touch (or per unit of comparable work), and waiting for a
//! network's lock calls [`checkpoint`]. When the budget runs out — its flag was
//! raised, its deadline passed or its steps were spent — `charge` unwinds the
//! stack back to `Budget::run`, which answers [`Stop`]. Nothing is printed (the
//! unwind does not go through the panic hook) and every guard on the way drops, so
//! locks are released.
//!
//! Unwinding instead of returning a `Result` from every loop keeps one rule for all
//! of them, including walks that cannot fail otherwise, and makes a lock wait
//! cancellable without changing any signature; it is the scheme salsa uses for its
//! own cancellation. Without an installed budget `charge` costs a thread-local
//! decrement and never stops anything, so library calls behave as before.
//!
//! # What may be charged
//!
//! Only work that changes nothing: reading a network, parsing a document, building
//! a new network that is not registered yet. A change to a registered network is
//! applied after the last charge, so a call stopped by its budget changes nothing.
//!
//! ```
//! use std::time::Duration;
//! use networks_mcp::budget::{Budget, Stop};
//! use networks_mcp::network::Network;
//!
//! let mut net = Network::new();
//! for i in 0..100 {
//!     net.add_node(&format!("n{i}")).unwrap();
//! }
//! let budget = Budget::unlimited().with_max_steps(10);
//! let stopped = budget.run(|| net.bfs_order("n0"));
//! assert!(matches!(stopped, Err(Stop::WorkLimit { .. })) || stopped.is_ok());
//!
//! let generous = Budget::unlimited().with_timeout(Duration::from_secs(60));
//! assert!(generous.run(|| net.node_count()).is_ok());
//! ```

pub mod threads;

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Steps between two looks at the flag and the clock. One step is a node or edge
/// touched, a few nanoseconds to a few hundred; 16,384 of them keep a look every
/// few milliseconds, well inside the 100 ms a cancelled call may still run.
const CHECK_EVERY: u64 = 16_384;

/// Why a budget stopped a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Its cancel flag was raised (the client cancelled or went away).
    Cancelled,
    /// Its deadline passed.
    DeadlineExceeded {
        /// How long the call was allowed.
        allowed: Duration,
    },
    /// It spent its steps.
    WorkLimit {
        /// The steps it was allowed.
        steps: u64,
    },
    /// The network it needs is held by another call, and as many calls as may
    /// wait for one network already do ([`Budget::with_max_waiters`]).
    NetworkBusy {
        /// The calls waiting for that network.
        waiting: usize,
    },
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Cancelled => f.write_str("cancelled"),
            Stop::DeadlineExceeded { allowed } => {
                write!(f, "ran past its {:.1} s deadline", allowed.as_secs_f64())
            }
            Stop::WorkLimit { steps } => write!(f, "spent its {steps} steps"),
            Stop::NetworkBusy { waiting } => {
                write!(f, "found its network held with {waiting} calls waiting")
            }
        }
    }
}

/// A cancel flag, a deadline and a step count for one call.
///
/// Cheap to clone: clones share the cancel flag, so raising it through
/// [`Budget::cancel`] (or the handle of [`Budget::cancel_flag`]) stops a call
/// running on another thread within a few milliseconds.
#[derive(Debug, Clone)]
pub struct Budget {
    cancel: Arc<AtomicBool>,
    started: Instant,
    timeout: Option<Duration>,
    max_steps: Option<u64>,
    work_scale: u64,
    max_waiters: Option<usize>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::unlimited()
    }
}

impl Budget {
    /// No deadline, no step count, never cancelled until [`Budget::cancel`].
    pub fn unlimited() -> Budget {
        Budget {
            cancel: Arc::new(AtomicBool::new(false)),
            started: Instant::now(),
            timeout: None,
            max_steps: None,
            work_scale: 1,
            max_waiters: None,
        }
    }

    /// The same budget, ending `timeout` after it was made.
    pub fn with_timeout(self, timeout: Duration) -> Budget {
        Budget {
            timeout: Some(timeout),
            ..self
        }
    }

    /// The same budget, stopping after `steps` steps.
    pub fn with_max_steps(self, steps: u64) -> Budget {
        Budget {
            max_steps: Some(steps),
            ..self
        }
    }

    /// The same budget, refusing to wait for a network's lock when `waiters`
    /// calls already wait for it ([`Stop::NetworkBusy`]): one held network must
    /// not take every thread of the server.
    pub fn with_max_waiters(self, waiters: usize) -> Budget {
        Budget {
            max_waiters: Some(waiters),
            ..self
        }
    }

    /// The same budget, letting the tools' own work limits (a search's step cap)
    /// grow `scale` times: for a call that runs as a task, which nobody waits on.
    pub fn with_work_scale(self, scale: u64) -> Budget {
        Budget {
            work_scale: scale.max(1),
            ..self
        }
    }

    /// The same budget, cancelled when `flag` is raised.
    pub fn with_cancel_flag(self, flag: Arc<AtomicBool>) -> Budget {
        Budget {
            cancel: flag,
            ..self
        }
    }

    /// The flag that cancels this budget when raised.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Cancels every call running under this budget or its clones.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether [`Budget::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The time allowed, if any.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Steps until the next look: [`CHECK_EVERY`], or fewer when the step count
    /// ends sooner, so that a small step count is kept exactly.
    fn interval(&self, spent: u64) -> u64 {
        match self.max_steps {
            Some(steps) => CHECK_EVERY.min(steps.saturating_sub(spent).saturating_add(1)),
            None => CHECK_EVERY,
        }
    }

    /// What stops a call now, having spent `spent` steps; `None` while it may go on.
    fn exhausted(&self, spent: u64) -> Option<Stop> {
        if self.is_cancelled() {
            return Some(Stop::Cancelled);
        }
        if let Some(allowed) = self.timeout
            && self.started.elapsed() >= allowed
        {
            return Some(Stop::DeadlineExceeded { allowed });
        }
        match self.max_steps {
            Some(steps) if spent > steps => Some(Stop::WorkLimit { steps }),
            _ => None,
        }
    }

    /// The same check as the algorithms make, without running anything: `Err` when
    /// this budget is already spent.
    pub fn check(&self) -> Result<(), Stop> {
        self.exhausted(0).map_or(Ok(()), Err)
    }

    /// Runs `f` under this budget on the current thread: every [`charge`] and
    /// [`checkpoint`] inside it counts against the budget, and the first one past it
    /// stops `f` and answers [`Stop`]. A panic in `f` that is not a budget's stop
    /// goes on unwinding. Budgets nest: the inner one is in force inside, and the
    /// outer one again after.
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> Result<T, Stop> {
        if let Some(stop) = self.exhausted(0) {
            return Err(stop);
        }
        let installed = Installed::install(self.clone());
        let outcome = catch_unwind(AssertUnwindSafe(f));
        drop(installed);
        match outcome {
            Ok(value) => Ok(value),
            Err(payload) => match payload.downcast::<Unwind>() {
                Ok(unwind) => Err(unwind.0),
                Err(other) => resume_unwind(other),
            },
        }
    }
}

/// The unwind payload of a stopped budget.
struct Unwind(Stop);

/// The budget in force on this thread: the steps spent up to the last look at
/// its flag and clock, and the countdown the next look was set at.
struct Active {
    budget: Budget,
    spent: u64,
    interval: u64,
}

thread_local! {
    static ACTIVE: std::cell::RefCell<Option<Active>> = const { std::cell::RefCell::new(None) };
    /// Steps left before the slow path runs; `u64::MAX` when no budget is installed,
    /// so that an unbudgeted `charge` never leaves the fast path.
    static UNTIL_CHECK: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Restores the outer budget (or none) when a [`Budget::run`] ends, unwinding or not.
struct Installed {
    outer: Option<Active>,
    outer_until_check: u64,
}

impl Installed {
    fn install(budget: Budget) -> Installed {
        let interval = budget.interval(0);
        let active = Active {
            budget,
            spent: 0,
            interval,
        };
        let outer = ACTIVE.with(|slot| slot.replace(Some(active)));
        let outer_until_check = UNTIL_CHECK.with(|until| until.replace(interval));
        Installed {
            outer,
            outer_until_check,
        }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let outer = self.outer.take();
        ACTIVE.with(|active| *active.borrow_mut() = outer);
        UNTIL_CHECK.with(|until| until.set(self.outer_until_check));
    }
}

/// Counts `steps` steps of work against the budget in force on this thread, and
/// stops the call (see the [module docs](self)) once that budget is spent. Free
/// when no budget is installed.
#[inline]
pub fn charge(steps: u64) {
    let fast = UNTIL_CHECK.with(|until| {
        let left = until.get();
        if left > steps {
            until.set(left - steps);
            true
        } else {
            false
        }
    });
    if !fast {
        slow_path(steps);
    }
}

/// How many times its direct-call work limit a tool may spend in the call that
/// runs on this thread ([`Budget::with_work_scale`]); 1 without a budget.
pub fn work_scale() -> u64 {
    ACTIVE.with(|slot| slot.borrow().as_ref().map_or(1, |a| a.budget.work_scale))
}

/// How many calls may wait for one network's lock under the budget in force
/// ([`Budget::with_max_waiters`]); no bound without one.
pub fn max_waiters() -> Option<usize> {
    ACTIVE.with(|slot| slot.borrow().as_ref().and_then(|a| a.budget.max_waiters))
}

/// Stops the call in force with [`Stop::NetworkBusy`]; returns (doing nothing)
/// when no budget is installed.
pub fn refuse_busy(waiting: usize) {
    if is_active() {
        resume_unwind(Box::new(Unwind(Stop::NetworkBusy { waiting })));
    }
}

/// Looks at the flag and the clock now, whatever was charged: for waits (a
/// network's lock) and for loops whose steps are too uneven to count.
pub fn checkpoint() {
    slow_path(0);
}

/// How long one timed wait lasts in [`wait_for`] before the budget is looked at
/// again: short enough that a cancelled call stops waiting at once.
const WAIT_SLICE: Duration = Duration::from_millis(5);

/// Waits for a lock (or anything else `attempt` tries for at most the time it is
/// given) within the budget in force: a series of short timed attempts with a
/// [`checkpoint`] between them, so that a cancelled call or one past its deadline
/// stops waiting. Without a budget it waits as long as it takes.
pub fn wait_for<G>(mut attempt: impl FnMut(Duration) -> Option<G>) -> G {
    let slice = if is_active() {
        WAIT_SLICE
    } else {
        Duration::from_secs(3600)
    };
    loop {
        if let Some(guard) = attempt(slice) {
            return guard;
        }
        checkpoint();
    }
}

/// What the runner of a call does before the call's thread blocks: a call run
/// on an async runtime's own thread hands that thread's other work elsewhere
/// first (the server installs `tokio::task::block_in_place` here).
pub type BeforeBlocking = fn(&mut dyn FnMut());

thread_local! {
    /// Set while a call runs where blocking would stall other work
    /// ([`run_where_blocking_is_handed_over`]).
    static BEFORE_BLOCKING: Cell<Option<BeforeBlocking>> = const { Cell::new(None) };
}

/// Runs `f`, a call that must not block this thread unannounced: every wait
/// that may block it ([`blocking`]) goes through `hand_over` first. A call that
/// never waits pays nothing for it.
pub fn run_where_blocking_is_handed_over<T>(hand_over: BeforeBlocking, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<BeforeBlocking>);
    impl Drop for Restore {
        fn drop(&mut self) {
            BEFORE_BLOCKING.with(|slot| slot.set(self.0));
        }
    }
    let _restore = Restore(BEFORE_BLOCKING.with(|slot| slot.replace(Some(hand_over))));
    f()
}

/// Runs `wait`, which may block the thread (a lock held by someone else),
/// through the hand-over its runner installed, if any
/// ([`run_where_blocking_is_handed_over`]).
pub fn blocking<T>(wait: impl FnOnce() -> T) -> T {
    let Some(hand_over) = BEFORE_BLOCKING.with(Cell::get) else {
        return wait();
    };
    let mut wait = Some(wait);
    let mut out = None;
    hand_over(&mut || {
        if let Some(wait) = wait.take() {
            out = Some(wait());
        }
    });
    match out {
        Some(out) => out,
        // A hand-over that did not run what it was given: run it here.
        None => match wait.take() {
            Some(wait) => wait(),
            None => unreachable!("the wait ran, so it gave a value"),
        },
    }
}

/// Runs `f` with no budget in force, whatever the caller's: for work that must
/// finish once it started, such as rolling memory back to the durable state or
/// writing a snapshot after a write was acknowledged.
pub fn unbudgeted<T>(f: impl FnOnce() -> T) -> T {
    let outer = ACTIVE.with(|active| active.replace(None));
    let outer_until_check = UNTIL_CHECK.with(|until| until.replace(u64::MAX));
    let restore = Installed {
        outer,
        outer_until_check,
    };
    let out = f();
    drop(restore);
    out
}

/// Whether a caught unwind is a budget's stop, which belongs to the
/// [`Budget::run`] that installed it: a catcher of panics on the way must let it
/// go on (`std::panic::resume_unwind`) rather than report it as a bug.
pub fn is_stop(payload: &(dyn std::any::Any + Send)) -> bool {
    payload.is::<Unwind>()
}

/// Whether a budget is installed on this thread.
pub fn is_active() -> bool {
    ACTIVE.with(|active| active.borrow().is_some())
}

#[cold]
fn slow_path(steps: u64) {
    let stop = ACTIVE.with(|active| {
        let mut active = active.borrow_mut();
        let Some(active) = active.as_mut() else {
            UNTIL_CHECK.with(|until| until.set(u64::MAX));
            return None;
        };
        let until = UNTIL_CHECK.with(Cell::get);
        // What was charged since the last look: the countdown used up, plus this call.
        active.spent = active
            .spent
            .saturating_add(active.interval.saturating_sub(until))
            .saturating_add(steps);
        active.interval = active.budget.interval(active.spent);
        UNTIL_CHECK.with(|until| until.set(active.interval));
        active.budget.exhausted(active.spent)
    });
    if let Some(stop) = stop {
        resume_unwind(Box::new(Unwind(stop)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(steps: u64) -> u64 {
        for _ in 0..steps {
            charge(1);
        }
        steps
    }

    #[test]
    fn a_work_scale_is_read_inside_its_budget_only() {
        assert_eq!(work_scale(), 1);
        let scaled = Budget::unlimited().with_work_scale(7);
        assert_eq!(scaled.run(work_scale), Ok(7));
        assert_eq!(
            Budget::unlimited().with_work_scale(0).run(work_scale),
            Ok(1)
        );
        assert_eq!(work_scale(), 1);
    }

    #[test]
    fn without_a_budget_charge_never_stops() {
        assert_eq!(spin(1_000_000), 1_000_000);
        checkpoint();
        assert!(!is_active());
    }

    #[test]
    fn a_step_count_stops_the_closure_and_says_why() {
        let budget = Budget::unlimited().with_max_steps(100_000);
        assert_eq!(
            budget.run(|| spin(10_000_000)),
            Err(Stop::WorkLimit { steps: 100_000 })
        );
        assert_eq!(budget.run(|| spin(10)), Ok(10));
        assert!(!is_active(), "the budget is removed after the run");
    }

    #[test]
    fn a_small_step_count_is_kept_exactly() {
        for steps in [0, 1, 7, 100] {
            let budget = Budget::unlimited().with_max_steps(steps);
            assert_eq!(budget.run(|| spin(steps)), Ok(steps));
            assert_eq!(
                budget.run(|| spin(steps + 1)),
                Err(Stop::WorkLimit { steps })
            );
        }
    }

    #[test]
    fn a_raised_flag_stops_a_call_on_another_thread() {
        let budget = Budget::unlimited();
        let flag = budget.cancel_flag();
        let worker = std::thread::spawn(move || budget.run(|| spin(u64::MAX)));
        std::thread::sleep(Duration::from_millis(20));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(worker.join().expect("no panic"), Err(Stop::Cancelled));
    }

    #[test]
    fn a_deadline_stops_a_call() {
        let budget = Budget::unlimited().with_timeout(Duration::from_millis(30));
        let started = Instant::now();
        let outcome = budget.run(|| spin(u64::MAX));
        assert!(matches!(outcome, Err(Stop::DeadlineExceeded { .. })));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn budgets_nest_and_the_outer_one_comes_back() {
        let outer = Budget::unlimited().with_max_steps(50_000);
        let outcome = outer.run(|| {
            let inner = Budget::unlimited().with_max_steps(20_000);
            let inner_outcome = inner.run(|| spin(30_000));
            (inner_outcome, spin(100_000))
        });
        assert_eq!(outcome, Err(Stop::WorkLimit { steps: 50_000 }));
    }

    #[test]
    fn unbudgeted_work_runs_to_its_end_and_the_budget_comes_back() {
        let budget = Budget::unlimited().with_max_steps(20_000);
        let outcome = budget.run(|| {
            let whole = unbudgeted(|| spin(1_000_000));
            (whole, spin(100_000))
        });
        assert_eq!(outcome, Err(Stop::WorkLimit { steps: 20_000 }));
    }

    #[test]
    fn other_panics_keep_unwinding() {
        let budget = Budget::unlimited();
        let caught = catch_unwind(AssertUnwindSafe(|| budget.run(|| panic!("a real bug"))));
        assert!(caught.is_err());
        assert!(!is_active());
    }
}
