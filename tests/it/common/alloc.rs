//! The test binary's allocator: the system's, counting what each thread has
//! allocated and not freed, so that a test can measure what a call on its own
//! thread really allocates (tests run in parallel, each on its own thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts per thread; see the module's doc.
pub struct Counting;

thread_local! {
    // `const` and without a destructor: reading them never allocates, so the
    // allocator can use them.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grow(bytes: usize) {
    // `try_with`: a thread being torn down has no counters left; skip it.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + bytes as isize;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrink(bytes: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get() - bytes as isize));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grow(new_size);
        shrink(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What `f` allocated on this thread: the most it held at once, and what it
/// still holds when it returns (its result included), in bytes.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let result = f();
    let peak = PEAK.with(Cell::get) - start;
    let kept = LIVE.with(Cell::get) - start;
    (result, peak.max(0) as usize, kept.max(0) as usize)
}
