//! The registry under many threads: does work on one network hold up work on
//! another? Each thread adds nodes and edges to, and reads neighbours from, a
//! network of its own ("own"), or all threads share one network ("shared"), the
//! case where they must take turns. With the `DashMap` registry and a lock per
//! network, "own" should scale with the threads up to the cores and "shared"
//! should not.
//!
//! `cargo bench --bench registry`; BENCHMARKS.md has the figures.

use std::hint::black_box;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use networks_mcp::NetworkRegistry;
use networks_mcp::network::Direction;

/// Operations per thread in one timed round.
const OPS: usize = 2_000;

/// One round: `threads` threads each run OPS writes and reads, on its own network
/// or on network `shared`. Returns the wall time of the slowest thread.
fn round(registry: &Arc<NetworkRegistry>, threads: usize, shared: bool, round: u64) -> Duration {
    let start = Arc::new(Barrier::new(threads));
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let (registry, start) = (Arc::clone(registry), Arc::clone(&start));
            std::thread::spawn(move || {
                let name = if shared {
                    "shared".to_string()
                } else {
                    format!("own{t}")
                };
                start.wait();
                let began = Instant::now();
                for i in 0..OPS {
                    let id = format!("r{round}t{t}n{i}");
                    registry
                        .write(&name, |net| {
                            net.add_node(&id)?;
                            if i > 0 {
                                net.add_edge(&format!("r{round}t{t}n{}", i - 1), &id, 1.0)?;
                            }
                            Ok(())
                        })
                        .expect("write");
                    let neighbours = registry
                        .read(&name, |net| {
                            net.neighbors(&id, Direction::Both).map(|n| n.len())
                        })
                        .expect("read");
                    black_box(neighbours);
                }
                began.elapsed()
            })
        })
        .collect();
    workers
        .into_iter()
        .map(|w| w.join().expect("a worker"))
        .max()
        .unwrap_or_default()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("registry");
    group.sample_size(10);
    for threads in [1, 2, 4, 8] {
        for shared in [false, true] {
            let label = format!("{}/{threads}", if shared { "shared" } else { "own" });
            group.bench_function(label, |b| {
                b.iter_custom(|iterations| {
                    let registry = Arc::new(NetworkRegistry::new());
                    registry.create("shared", None).expect("create");
                    for t in 0..threads {
                        registry.create(&format!("own{t}"), None).expect("create");
                    }
                    (0..iterations)
                        .map(|r| round(&registry, threads, shared, r))
                        .sum()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(registry, benches);
criterion_main!(registry);
