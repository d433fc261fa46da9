//! The process's paging policy: transparent huge pages off.
//!
//! Without huge pages a fresh page is 4 KiB the kernel clears at once, never a
//! 2 MiB one it may first have to compact memory for: on the benchmark machine
//! a bulk load of a million nodes and five million edges took 0.83–0.88 s with
//! 4 KiB pages and 1.0–2.1 s with huge ones, the spread being the kernel
//! clearing and finding 2 MiB pages (BENCHMARKS.md). The server turns them off
//! unless `--huge-pages` is given; `examples/bench_kernels.rs` does the same, so
//! that it measures what the server runs.

/// Keeps the kernel from backing this process with transparent huge pages,
/// including memory an allocator already asked them for: the flag is the
/// process's, checked at every page fault, and inherited by children. An old
/// kernel or a sandbox may refuse it; then huge pages stay as the kernel's
/// setting has them, and the error says why.
pub fn disable_transparent_huge_pages() -> std::io::Result<()> {
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and changes only this
    // process's paging policy.
    if unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
