//! Where time comes from: the server reads one [`Clock`], so that tests can
//! replace it with a [`ManualClock`] and never sleep.
//!
//! Times are milliseconds since the Unix epoch: a lease must outlive a restart,
//! so it is wall-clock time, not a monotonic instant that starts again at boot.

use std::sync::atomic::{AtomicU64, Ordering};

/// A source of the current time, in milliseconds since the Unix epoch.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current time.
    fn now_ms(&self) -> u64;
}

/// The system's wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

/// A clock that moves only when told to: for tests, and for replaying a journal
/// at the times its writes were made.
///
/// ```
/// use networks_mcp::clock::{Clock, ManualClock};
///
/// let clock = ManualClock::new(1_000);
/// clock.advance(500);
/// assert_eq!(clock.now_ms(), 1_500);
/// ```
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock standing at `now_ms`.
    pub fn new(now_ms: u64) -> Self {
        ManualClock(AtomicU64::new(now_ms))
    }

    /// Moves the clock to `now_ms`.
    pub fn set(&self, now_ms: u64) {
        self.0.store(now_ms, Ordering::SeqCst);
    }

    /// Moves the clock `ms` milliseconds on.
    pub fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}
