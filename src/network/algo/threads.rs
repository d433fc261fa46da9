//! Work shared among scoped threads (`std::thread::scope`): the pieces of
//! one pass, each on its own thread, joined before the pass returns. The
//! kernels cut their arrays into disjoint pieces with [`split_at_starts`], so
//! no piece is shared mutably, and charge the call's budget on the calling
//! thread between passes, never inside one (a stop unwinds only there).

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

#[cfg(test)]
mod tests {
    use super::*;

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
