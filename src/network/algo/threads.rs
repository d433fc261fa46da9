//! Work shared among scoped threads (`std::thread::scope`): the pieces of
//! one pass, each on its own thread, joined before the pass returns. The
//! kernels cut their arrays into disjoint pieces with [`split_at_starts`], so
//! no piece is shared mutably, and charge the call's budget on the calling
//! thread between passes, never inside one (a stop unwinds only there).
//! [`in_rounds`] keeps its threads through many short passes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// `v` cut at the ascending positions `starts`, one piece per start, each up
/// to the next start; the first piece begins at 0 whatever `starts[0]` is.
pub(super) fn split_at_starts<'a, T>(mut v: &'a mut [T], starts: &[usize]) -> Vec<&'a mut [T]> {
    let mut pieces = Vec::with_capacity(starts.len());
    let mut at = 0;
    for k in 0..starts.len() {
        let end = starts.get(k + 1).map_or(v.len() + at, |&next| next.max(at));
        let (head, tail) = std::mem::take(&mut v).split_at_mut(end - at);
        pieces.push(head);
        v = tail;
        at = end;
    }
    pieces
}

/// Runs `work(k, piece)` for every piece, the first on this thread and the
/// others on scoped threads; their results, in the pieces' order. A panic in
/// one goes on unwinding here.
pub(super) fn each_piece<P: Send, R: Send>(
    pieces: Vec<P>,
    work: impl Fn(usize, P) -> R + Sync,
) -> Vec<R> {
    let mut pieces = pieces.into_iter();
    let Some(first) = pieces.next() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let work = &work;
        let others: Vec<_> = pieces
            .enumerate()
            .map(|(k, piece)| scope.spawn(move || work(k + 1, piece)))
            .collect();
        let mut out = vec![work(0, first)];
        for other in others {
            match other.join() {
                Ok(result) => out.push(result),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// How long a helper of [`in_rounds`] spins for the next round before it
/// sleeps. A kernel's rounds follow one another within microseconds; a
/// sleeping thread (on a virtual machine, a halted virtual CPU) took
/// 340–360 µs to wake here, longer than half a PageRank iteration at 64,000
/// nodes.
const SPIN_FOR: Duration = Duration::from_micros(200);

/// A round that tells the helpers of [`in_rounds`] to return.
const STOP: u64 = u64::MAX;

/// Bits of [`Rounds::round`] that hold the helpers taking part.
const ACTIVE_BITS: u32 = 16;

/// What the threads of [`in_rounds`] share.
struct Rounds<P, A, R> {
    /// The round being run, counted from 1, shifted left by [`ACTIVE_BITS`],
    /// and how many helpers take part in it (those lent for it) in the bits
    /// below: one word, so that a helper never reads one round's count with
    /// another's number. [`STOP`] to return.
    round: AtomicU64,
    arg: Mutex<Option<A>>,
    /// The next piece to take in this round.
    next_piece: AtomicUsize,
    /// Helpers that took part and have taken their last piece of the round.
    helpers_done: AtomicUsize,
    /// A helper panicked: the round will never end.
    failed: AtomicBool,
    pieces: Vec<Mutex<P>>,
    results: Vec<Mutex<Option<R>>>,
}

impl<P, A: Copy, R> Rounds<P, A, R> {
    /// Takes pieces of this round until none is left, running `work` on each.
    fn take_pieces(&self, work: &(impl Fn(&mut P, A) -> R + Sync)) {
        let arg = lock(&self.arg).expect("a round has its argument");
        loop {
            let k = self.next_piece.fetch_add(1, Ordering::AcqRel);
            let Some(piece) = self.pieces.get(k) else {
                return;
            };
            let result = work(&mut lock(piece), arg);
            *lock(&self.results[k]) = Some(result);
        }
    }
}

/// Locks `m`; a lock poisoned by a panic elsewhere (which ends the rounds)
/// still gives its data.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Waits until `ready` gives a value: spinning for [`SPIN_FOR`] when `spin`,
/// then sleeping in naps of `nap` that an unpark ends early.
fn wait_for<T>(spin: bool, nap: Duration, mut ready: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    let mut turns = 0u32;
    loop {
        if let Some(value) = ready() {
            return value;
        }
        turns = turns.wrapping_add(1);
        if spin && (!turns.is_multiple_of(64) || start.elapsed() < SPIN_FOR) {
            std::hint::spin_loop();
        } else {
            std::thread::park_timeout(nap);
        }
    }
}

/// Runs `work` on every piece, round after round, on the calling thread and
/// helpers that live through all the rounds: for kernels whose passes are too
/// short to start threads for each (each round would wait for a sleeping CPU
/// to wake). After each round, `between` gets the pieces' results in the
/// pieces' order, on the calling thread (where the call's budget is charged,
/// and may stop the rounds), and gives the next round's argument, or `None`
/// to end.
///
/// Each round asks for its threads ([`crate::budget::threads::for_pass`] of
/// `asked`) and holds them for that round only, as the kernels that start
/// threads per pass do; the threads that take part take the pieces one at a
/// time, in order, so a slow piece holds up no other. Between rounds the
/// helpers spin for [`SPIN_FOR`], then sleep; a helper not lent for a round
/// sleeps through it. The result of each piece does not depend on which
/// thread ran it, so the rounds' answers do not depend on the threads.
pub(super) fn in_rounds<P: Send, A: Copy + Send, R: Send>(
    asked: usize,
    pieces: Vec<P>,
    first: A,
    work: impl Fn(&mut P, A) -> R + Sync,
    mut between: impl FnMut(Vec<R>) -> Option<A>,
) {
    let count = pieces.len();
    let shared = Rounds {
        round: AtomicU64::new(0),
        arg: Mutex::new(None),
        next_piece: AtomicUsize::new(0),
        helpers_done: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        pieces: pieces.into_iter().map(Mutex::new).collect(),
        results: (0..count).map(|_| Mutex::new(None)).collect(),
    };
    std::thread::scope(|scope| {
        let (shared, work) = (&shared, &work);
        // Tells the helpers to return however the calling thread leaves,
        // a stop of the call's budget included.
        struct Stop<'s, P, A, R> {
            shared: &'s Rounds<P, A, R>,
            helpers: Vec<std::thread::Thread>,
        }
        impl<P, A, R> Drop for Stop<'_, P, A, R> {
            fn drop(&mut self) {
                self.shared.round.store(STOP, Ordering::Release);
                self.helpers.iter().for_each(std::thread::Thread::unpark);
            }
        }
        let mut stop = Stop {
            shared,
            helpers: Vec::new(),
        };
        let mut arg = first;
        for round in 1u64.. {
            let pass = crate::budget::threads::for_pass(asked, count);
            let active = (pass.threads() - 1).min((1 << ACTIVE_BITS) - 1);
            while stop.helpers.len() < active {
                let index = stop.helpers.len();
                let helper = scope.spawn(move || helper(shared, work, index));
                stop.helpers.push(helper.thread().clone());
            }
            *lock(&shared.arg) = Some(arg);
            shared.next_piece.store(0, Ordering::Release);
            shared.helpers_done.store(0, Ordering::Release);
            shared
                .round
                .store(round << ACTIVE_BITS | active as u64, Ordering::Release);
            stop.helpers[..active]
                .iter()
                .for_each(std::thread::Thread::unpark);
            shared.take_pieces(work);
            // Nothing wakes the calling thread: short naps past the spin.
            wait_for(true, Duration::from_micros(20), || {
                assert!(
                    !shared.failed.load(Ordering::Acquire),
                    "a helper thread of a kernel panicked"
                );
                (shared.helpers_done.load(Ordering::Acquire) == active).then_some(())
            });
            drop(pass);
            let results = shared
                .results
                .iter()
                .map(|r| lock(r).take().expect("every piece ran"))
                .collect();
            match between(results) {
                Some(next) => arg = next,
                None => break,
            }
        }
    });
}

/// Helper `index` of [`in_rounds`]: takes pieces in each round it is lent
/// for, until told to stop.
fn helper<P, A: Copy, R>(
    shared: &Rounds<P, A, R>,
    work: &(impl Fn(&mut P, A) -> R + Sync),
    index: usize,
) {
    struct Failed<'s>(&'s AtomicBool);
    impl Drop for Failed<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.store(true, Ordering::Release);
            }
        }
    }
    let _failed = Failed(&shared.failed);
    let mut seen = 0;
    let mut lent = true;
    loop {
        let round = wait_for(lent, Duration::from_millis(1), || {
            let round = shared.round.load(Ordering::Acquire);
            (round != seen).then_some(round)
        });
        if round == STOP {
            return;
        }
        seen = round;
        lent = index < (round & ((1 << ACTIVE_BITS) - 1)) as usize;
        if lent {
            shared.take_pieces(work);
            shared.helpers_done.fetch_add(1, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::budget::threads::{Lender, Loan, with_lender};
    use std::sync::Arc;

    /// Lends 0, 1, 2, 3 threads in turn, one loan a round.
    struct Turns(AtomicUsize);

    impl Lender for Turns {
        fn lend(&self, wanted: usize) -> Loan {
            let turn = self.0.fetch_add(1, Ordering::SeqCst) % 4;
            Loan::new(turn.min(wanted), ())
        }
    }

    /// 64 numbers in 16 pieces; round r adds r to each, and its pieces'
    /// sums come back in the pieces' order, whatever threads were lent.
    #[test]
    fn rounds_run_each_piece_once_a_round_whatever_threads_are_lent() {
        let mut data: Vec<u64> = (0..64).collect();
        let pieces: Vec<&mut [u64]> = data.chunks_mut(4).collect();
        let (mut round, mut added) = (0u64, 0u64);
        with_lender(Arc::new(Turns(AtomicUsize::new(0))), || {
            in_rounds(
                0,
                pieces,
                1u64,
                |piece, add| {
                    piece.iter_mut().for_each(|x| *x += add);
                    piece.iter().sum::<u64>()
                },
                |sums| {
                    round += 1;
                    added += round;
                    let want: Vec<u64> = (0..16u64)
                        .map(|k| (4 * k..4 * k + 4).map(|i| i + added).sum())
                        .collect();
                    assert_eq!(sums, want, "round {round}");
                    (round < 20).then_some(round + 1)
                },
            );
        });
        assert!(data.iter().enumerate().all(|(i, &x)| x == i as u64 + 210));
    }

    /// A stop between rounds, or a panic in a piece on any thread, ends the
    /// rounds with that panic, every helper joined.
    #[test]
    fn rounds_end_on_a_panic_anywhere() {
        for in_piece in [false, true] {
            let ended = std::panic::catch_unwind(|| {
                let mut round = 0;
                with_lender(Arc::new(Turns(AtomicUsize::new(3))), || {
                    in_rounds(
                        0,
                        (0..16).collect(),
                        0,
                        |piece: &mut usize, round: usize| {
                            assert!(!(in_piece && round == 2 && *piece == 5), "in a piece");
                        },
                        |_| {
                            round += 1;
                            assert!(in_piece || round < 3, "between rounds");
                            Some(round)
                        },
                    );
                });
            });
            assert!(ended.is_err(), "in a piece: {in_piece}");
        }
    }

    #[test]
    fn pieces_cover_the_slice_in_order_and_run_each_once() {
        let mut v: Vec<usize> = (0..10).collect();
        let pieces = split_at_starts(&mut v, &[3, 4, 8]);
        let lengths: Vec<usize> = pieces.iter().map(|p| p.len()).collect();
        assert_eq!(lengths, [4, 4, 2]);
        let sums = each_piece(pieces, |k, piece| {
            piece.iter_mut().for_each(|x| *x += 100);
            (k, piece.iter().sum::<usize>())
        });
        assert_eq!(sums, [(0, 406), (1, 422), (2, 217)]);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i + 100));
    }
}
