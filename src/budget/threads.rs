//! How many threads one pass of a parallel kernel may use: what the caller
//! asked for, or, under a runner that lends threads (the server's compute
//! pool), what that runner can spare right now.
//!
//! The kernels that run on threads (PageRank's pull iterations, BFS's
//! bottom-up levels, weak components) ask once per *pass* (one iteration, one
//! level, one round), through [`for_pass`], and hold what they got only for
//! that pass. A runner that lends threads installs a [`Lender`] for the time
//! of one call ([`with_lender`]); the server's lends the heavy lane's free
//! permits, so a kernel's helper threads count against `--compute-threads`
//! like calls do, and a call that arrives while a kernel runs gets its permit
//! back at the end of the kernel's current pass, not at the end of the kernel.
//! Without a lender (a program using the library), the threads asked for are
//! the threads used.
//!
//! Helper threads never charge the call's budget ([`crate::budget`] is
//! per thread); the kernel charges each pass on the calling thread before it
//! starts, so a cancelled call or one past its deadline stops every thread at
//! the end of the pass it is in.

use std::cell::RefCell;
use std::sync::Arc;

/// Something that can lend a call more threads: the server's compute pool.
pub trait Lender: Send + Sync {
    /// Up to `wanted` more threads for one pass, or fewer (none) when fewer
    /// are free. The loan gives them back when it drops.
    fn lend(&self, wanted: usize) -> Loan;
}

/// Threads lent for one pass; dropping it gives them back.
pub struct Loan {
    threads: usize,
    _give_back: Option<Box<dyn Send>>,
}

impl Loan {
    /// No thread lent.
    pub fn none() -> Loan {
        Loan {
            threads: 0,
            _give_back: None,
        }
    }

    /// `threads` threads, given back when `give_back` drops.
    pub fn new(threads: usize, give_back: impl Send + 'static) -> Loan {
        Loan {
            threads,
            _give_back: Some(Box::new(give_back)),
        }
    }

    /// The threads lent.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

/// The threads one pass runs on: the calling thread and those lent to it.
pub struct Pass {
    threads: usize,
    _loan: Loan,
}

impl Pass {
    /// Threads to split the pass among: at least 1 (the calling thread).
    pub fn threads(&self) -> usize {
        self.threads
    }
}

thread_local! {
    static LENDER: RefCell<Option<Arc<dyn Lender>>> = const { RefCell::new(None) };
}

/// Runs `f` (one call) with `lender` lending its kernels threads.
pub fn with_lender<T>(lender: Arc<dyn Lender>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<dyn Lender>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            LENDER.with(|slot| *slot.borrow_mut() = outer);
        }
    }
    let _restore = Restore(LENDER.with(|slot| slot.borrow_mut().replace(lender)));
    f()
}

/// The threads for one pass of a kernel that asked for `asked` threads (0:
/// as many as its runner lends, or 1 without a lender) and can use at most
/// `useful` (its pieces of work). Hold the pass for the time of the pass only.
pub fn for_pass(asked: usize, useful: usize) -> Pass {
    let useful = useful.max(1);
    let lender = LENDER.with(|slot| slot.borrow().clone());
    match lender {
        Some(lender) => {
            let wanted = match asked {
                0 => useful - 1,
                n => n.min(useful) - 1,
            };
            let loan = if wanted == 0 {
                Loan::none()
            } else {
                lender.lend(wanted)
            };
            Pass {
                threads: 1 + loan.threads().min(wanted),
                _loan: loan,
            }
        }
        None => Pass {
            threads: asked.clamp(1, useful),
            _loan: Loan::none(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Lends from a pool of `free` threads, as the server's semaphore does.
    struct Pool(Arc<AtomicUsize>);

    impl Lender for Pool {
        fn lend(&self, wanted: usize) -> Loan {
            let free = self.0.load(Ordering::SeqCst);
            let lent = wanted.min(free);
            self.0.fetch_sub(lent, Ordering::SeqCst);
            struct GiveBack(Arc<AtomicUsize>, usize);
            impl Drop for GiveBack {
                fn drop(&mut self) {
                    self.0.fetch_add(self.1, Ordering::SeqCst);
                }
            }
            Loan::new(lent, GiveBack(Arc::clone(&self.0), lent))
        }
    }

    #[test]
    fn without_a_lender_the_threads_asked_are_used() {
        assert_eq!(for_pass(0, 8).threads(), 1);
        assert_eq!(for_pass(4, 8).threads(), 4);
        assert_eq!(for_pass(4, 2).threads(), 2);
        assert_eq!(for_pass(3, 0).threads(), 1);
    }

    #[test]
    fn a_lender_lends_what_is_free_and_gets_it_back_after_the_pass() {
        let free = Arc::new(AtomicUsize::new(3));
        with_lender(Arc::new(Pool(Arc::clone(&free))), || {
            {
                let pass = for_pass(0, 100);
                assert_eq!(pass.threads(), 4);
                assert_eq!(free.load(Ordering::SeqCst), 0);
                // A second kernel meanwhile (another call) finds none free.
                assert_eq!(for_pass(0, 100).threads(), 1);
            }
            assert_eq!(free.load(Ordering::SeqCst), 3);
            // Never more than asked, nor than the work can use.
            assert_eq!(for_pass(2, 100).threads(), 2);
            assert_eq!(for_pass(0, 2).threads(), 2);
            assert_eq!(for_pass(1, 100).threads(), 1);
            assert_eq!(free.load(Ordering::SeqCst), 3);
        });
        // The lender ends with the call.
        assert_eq!(for_pass(0, 100).threads(), 1);
    }
}
