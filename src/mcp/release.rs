//! Handing freed memory back to the system after a call that freed much of it.
//!
//! The server's allocator (mimalloc, see its entry in Cargo.toml) keeps what a
//! thread frees for that thread's next allocations instead of returning it, and
//! a pool thread may not allocate again for a long time. After a node-link
//! import of 68,000 nodes and 299,000 edges the thread that ran it held the
//! document and the parse's transient memory, about as much again as the
//! network (118 MB resident for a 60 MB server), until it exited ten seconds
//! later; a thread that deleted a network held its memory the same way. The
//! calls that free memory in proportion to a document or a network
//! ([`super::tool::ToolDef::frees_much`]) therefore end by handing it back, on
//! the thread that ran them, before the reply goes out.
//!
//! Other calls keep what they free: a heavy read's arrays are reused by the next
//! one, and memory returned would cost the kernel's clearing of fresh pages
//! again. The library names no allocator, so the binary says how to release
//! ([`set_release_hook`]); without a hook nothing happens.

use std::sync::OnceLock;

static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Sets how the calls that free much hand memory back: the binary's
/// allocator's collection of the calling thread's freed memory. The first
/// hook set stays; later ones are ignored.
pub fn set_release_hook(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Hands freed memory back through the hook, if one was set.
pub(crate) fn release_freed_memory() {
    if let Some(release) = RELEASE.get() {
        release();
    }
}
