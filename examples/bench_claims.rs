//! The cost of one claim on a large plan, through the library (no transport):
//! a random DAG of `--tasks` tasks (default 100,000; each needs up to three
//! earlier ones), with priorities (0 to 3, or none), two roles, labels, and
//! for one task in ten an exclusion group (one of 50). A worker claims one
//! task and completes it, `--claims` times (default 20,000); only the claims
//! are timed. With exclusion groups, another worker first claims one task of
//! each group and holds it throughout (a group held for the whole run): the
//! claim that meets a ready task of a held group parks it until the group is
//! freed, so the claims after it do not pass over it again. Prints one line per workload: the first claim (which builds the
//! frontier, and ranks it for an order), then the median, 99th percentile and
//! worst of the others, in microseconds.
//!
//! ```text
//! cargo run --release --example bench_claims -- --tasks 100000 --claims 20000
//! ```

use std::time::Instant;

use networks_mcp::network::work::WorkAttributes;
use networks_mcp::network::{Network, NodeSpec, TaskFilter, TaskOrder, TaskSelection};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The plan: the same for every workload (a fixed seed).
fn plan(tasks: usize) -> Network {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut net = Network::new();
    let mut specs = Vec::with_capacity(tasks);
    for i in 0..tasks {
        let mut spec = NodeSpec::new(format!("t{i}"))
            .with_attribute(
                "role",
                if next() % 2 == 0 {
                    "backend"
                } else {
                    "frontend"
                },
            )
            .with_attribute("labels", if next() % 3 == 0 { "db, api" } else { "ui" });
        if next() % 5 != 4 {
            spec = spec.with_attribute("priority", (next() % 4) as i64);
        }
        if next() % 10 == 0 {
            spec = spec.with_attribute("exclusion_group", format!("db-{}", next() % 50));
        }
        specs.push(spec);
    }
    net.add_nodes(specs).unwrap();
    for i in 1..tasks {
        for _ in 0..next() % 4 {
            let j = i - 1 - next() % i.min(200);
            net.add_edge(&format!("t{i}"), &format!("t{j}"), 1.0)
                .unwrap();
        }
    }
    net
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

/// Claims and completes `claims` tasks one at a time; prints the timings.
fn run(
    label: &str,
    base: &Network,
    work: &WorkAttributes,
    selection: &TaskSelection,
    claims: usize,
    hold: bool,
) {
    let mut net = base.clone();
    if hold {
        for g in 0..50 {
            let one_of = TaskSelection {
                filter: TaskFilter {
                    attributes: [("exclusion_group".to_string(), format!("db-{g}").into())]
                        .into_iter()
                        .collect(),
                    ..TaskFilter::default()
                },
                ..TaskSelection::default()
            };
            net.claim_ready_selected(work, &one_of, "holder", 1, u64::MAX / 2, 0)
                .unwrap();
        }
    }
    let mut times = Vec::with_capacity(claims);
    let mut first = 0.0;
    let mut now = 1;
    for k in 0..claims {
        now += 1;
        let started = Instant::now();
        let (claimed, _) = net
            .claim_ready_selected(work, selection, "w", 1, 60_000, now)
            .unwrap();
        let took = started.elapsed().as_secs_f64() * 1e6;
        if k == 0 {
            first = took;
        } else {
            times.push(took);
        }
        let Some(task) = claimed.first() else { break };
        let id = net.id_at(task.node).to_string();
        net.complete_claimed(work, "w", &[&id], now).unwrap();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "| {label} | {} | {:.1} ms | {:.1} | {:.1} | {:.0} |",
        times.len() + 1,
        first / 1e3,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0.0),
    );
}

fn main() {
    let tasks = arg("--tasks", 100_000);
    let claims = arg("--claims", 20_000);
    let started = Instant::now();
    let net = plan(tasks);
    eprintln!(
        "bench_claims: {tasks} tasks, {} edges, built in {:.0} ms",
        net.edge_count(),
        started.elapsed().as_secs_f64() * 1e3
    );
    // Exclusion groups named by an attribute no task has: none apply.
    let no_groups = WorkAttributes {
        exclusion: "no_such_attribute".into(),
        ..WorkAttributes::default()
    };
    let groups = WorkAttributes::default();
    let backend = TaskFilter {
        attributes: [("role".to_string(), "backend".into())]
            .into_iter()
            .collect(),
        ..TaskFilter::default()
    };
    let by = |order: TaskOrder, filter: &TaskFilter| TaskSelection {
        order,
        filter: filter.clone(),
    };
    let everything = TaskFilter::default();
    let priority = || TaskOrder::Priority("priority".into());
    println!("| workload | claims | first claim | median µs | p99 µs | worst µs |");
    println!("|---|---:|---:|---:|---:|---:|");
    let workloads = [
        ("insertion order", by(TaskOrder::Insertion, &everything)),
        ("priority, then impact", by(priority(), &everything)),
        ("impact", by(TaskOrder::Impact, &everything)),
        ("priority, role backend", by(priority(), &backend)),
    ];
    for (label, selection) in &workloads {
        run(label, &net, &no_groups, selection, claims, false);
    }
    for (label, selection) in &workloads {
        run(
            &format!("{label}, 50 groups held"),
            &net,
            &groups,
            selection,
            claims,
            true,
        );
    }
}
