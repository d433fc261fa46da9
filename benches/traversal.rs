//! Criterion benchmarks of issue 4 at N = 100,000 (override with `BENCH_NODES`):
//! each operation through the public `Network` API ("ours") beside the same
//! algorithm on a bare petgraph `DiGraph<(), f64>` ("baseline").
//!
//! `cargo bench --bench traversal`; one group per operation, with `ours` and
//! `baseline` in each. Sample sizes are small so the whole run takes a few minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main};

mod workload;
use workload::*;

fn nodes() -> usize {
    std::env::var("BENCH_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

/// Times `build`, dropping what it built outside the timed region.
fn build_bench<T>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, build: impl Fn() -> T) {
    group.bench_function(name, |b| {
        b.iter_batched(|| (), |_| build(), BatchSize::PerIteration)
    });
}

fn benches(c: &mut Criterion) {
    let w = generate(nodes(), SEED);
    let net = ours_build(&w.ids, &w.str_edges);
    let dag = ours_build(&w.ids, &w.str_dag_edges);
    let g = base_build(w.n, &w.edges);
    let gd = base_build(w.n, &w.dag_edges);
    check_agreement(&w, &net, &dag, &g, &gd);

    let mut group = c.benchmark_group("build");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    build_bench(&mut group, "ours", || ours_build(&w.ids, &w.str_edges));
    build_bench(&mut group, "baseline", || base_build(w.n, &w.edges));
    build_bench(&mut group, "ours_edge_by_edge", || {
        ours_build_edge_by_edge(&w.ids, &w.str_edges)
    });
    group.finish();

    // The compact adjacency that whole-graph queries read: built once after a
    // change. The ops below run with it built, as every query after the first
    // few since the last change does.
    let mut group = c.benchmark_group("adjacency_build");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    group.bench_function("ours", |b| {
        // The copy starts without the adjacency and is dropped outside the timing.
        b.iter_batched_ref(
            || net.clone(),
            |copy| copy.adjacency().out_neighbors(ours_n0(copy)).len(),
            BatchSize::PerIteration,
        )
    });
    group.finish();
    net.adjacency();
    dag.adjacency();

    type Op<'a> = (
        &'a str,
        Box<dyn Fn() -> usize + 'a>,
        Box<dyn Fn() -> usize + 'a>,
    );
    let ops: Vec<Op> = vec![
        (
            "neighbors",
            Box::new(|| ours_neighbors(&net)),
            Box::new(|| base_neighbors(&g)),
        ),
        (
            "neighbors_by_id",
            Box::new(|| ours_neighbors_by_id(&net, &w.ids)),
            Box::new(|| base_neighbors(&g)),
        ),
        (
            "bfs",
            Box::new(|| ours_bfs(&net)),
            Box::new(|| base_bfs(&g)),
        ),
        (
            "traverse_bfs",
            Box::new(|| ours_traverse_bfs(&net)),
            Box::new(|| base_bfs(&g)),
        ),
        (
            "dijkstra",
            Box::new(|| ours_dijkstra(&net)),
            Box::new(|| base_dijkstra(&g)),
        ),
        (
            "toposort",
            Box::new(|| ours_toposort(&dag)),
            Box::new(|| base_toposort(&gd)),
        ),
        (
            "topological_sort_layers",
            Box::new(|| ours_topological_sort(&dag)),
            Box::new(|| base_toposort(&gd)),
        ),
        (
            "scc",
            Box::new(|| ours_scc(&net)),
            Box::new(|| base_scc(&g)),
        ),
        (
            "descendants",
            Box::new(|| ours_descendants(&net)),
            Box::new(|| base_descendants(&g)),
        ),
    ];
    for (name, ours, base) in &ops {
        let mut group = c.benchmark_group(*name);
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(2));
        group.bench_function("ours", |b| b.iter(|| black_box(ours())));
        group.bench_function("baseline", |b| b.iter(|| black_box(base())));
        group.finish();
    }
}

criterion_group!(traversal, benches);
criterion_main!(traversal);
