//! Handing freed memory back to the system after a call that freed much of it.
//!
//! The server's allocator (mimalloc, see its entry in Cargo.toml) keeps what a
//! thread frees for that thread's next allocations instead of returning it, and
//! a pool thread may not allocate again for a long time. After a node-link
//! import of 68,000 nodes and 299,000 edges the thread that ran it held the
//! document and the parse's transient memory, about as much again as the
//! network (118 MB resident for a 60 MB server), until it exited ten seconds
//! later; a thread that deleted a network held its memory the same way.
//!
//! So a call notes what it frees in proportion to a document or a network
//! ([`note_freed`]: an import its document, an export written to a file its
//! document, a delete its network), and a call that noted at least the hook's
//! threshold ends by handing memory back, on the thread that ran it, before
//! the reply goes out ([`release_if_much_freed`]). Other calls keep what they
//! free: a heavy read's arrays are reused by the next one, and memory returned
//! would cost the kernel's clearing of fresh pages again; handing back after a
//! small delete would double its time (0.13 → 0.28 ms beside a large network).
//! The library names no allocator, so the binary says how to release
//! ([`set_release_hook`]); without a hook nothing happens.

use std::cell::Cell;
use std::sync::OnceLock;

/// The hook and the bytes a call must note before it runs.
static RELEASE: OnceLock<(fn(), usize)> = OnceLock::new();

thread_local! {
    /// Bytes the call running on this thread noted as freed.
    static FREED: Cell<usize> = const { Cell::new(0) };
}

/// Sets how a call that freed at least `from_bytes` hands memory back: the
/// binary's allocator's collection of the calling thread's freed memory. The
/// first hook set stays; later ones are ignored.
pub fn set_release_hook(release: fn(), from_bytes: usize) {
    let _ = RELEASE.set((release, from_bytes));
}

/// Notes that the running call frees about `bytes` when it ends.
pub(crate) fn note_freed(bytes: usize) {
    FREED.with(|freed| freed.set(freed.get().saturating_add(bytes)));
}

/// Forgets what an earlier call on this thread noted (one not ended through
/// [`release_if_much_freed`]).
pub(crate) fn forget_freed() {
    FREED.with(|freed| freed.set(0));
}

/// Ends a call: hands freed memory back through the hook when the call noted
/// at least the hook's threshold, and forgets the note.
pub(crate) fn release_if_much_freed() {
    let freed = FREED.with(|freed| freed.replace(0));
    if let Some(&(release, from_bytes)) = RELEASE.get()
        && freed >= from_bytes
    {
        release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static RELEASED: Cell<usize> = const { Cell::new(0) };
    }

    fn count() {
        RELEASED.with(|r| r.set(r.get() + 1));
    }

    /// Only a call that noted the threshold releases, once, and a note does
    /// not carry over to the next call.
    #[test]
    fn a_call_releases_once_it_freed_the_threshold() {
        set_release_hook(count, 1000);
        let released = || RELEASED.with(Cell::get);
        note_freed(999);
        release_if_much_freed();
        assert_eq!(released(), 0);
        note_freed(600);
        note_freed(400);
        release_if_much_freed();
        assert_eq!(released(), 1);
        release_if_much_freed();
        assert_eq!(released(), 1);
        note_freed(5000);
        forget_freed();
        release_if_much_freed();
        assert_eq!(released(), 1);
    }
}
