//! The graph kernels timed the way the GAP Benchmark Suite times them, on a graph
//! from a file benchmarkers already have, each answer verified.
//!
//! ```text
//! cargo run --release --example bench_kernels -- -f GRAPH [-n TRIALS] [-k KERNELS] [--json]
//! cargo run --release --example bench_kernels -- -g 1000000 [-n TRIALS] ...
//! ```
//!
//! * **Input** (`-f`), by extension: GAPBS `.el` (`u v` per line) and `.wel`
//!   (`u v w`); Matrix Market `.mtx` (coordinate; `general` or `symmetric`, the
//!   latter read in both directions; `pattern` entries weigh 1); anything else
//!   is read as a SNAP edge list (`u v [w]`, whitespace-separated, lines starting
//!   `#` or `%` skipped). Node numbers become the string ids `"0"`, `"1"`, …; the
//!   network has max number + 1 nodes, as GAPBS's graph does. Without weights an
//!   edge weighs 1. `-g N` generates the benchmark workload instead
//!   (`benches/workload`: N nodes, about 5N uniform random edges, weights in
//!   `[0, 1)`).
//! * **Build**: the string-id nodes and edges added in two batches, as a program
//!   holding an edge list does (`Network::add_nodes`, `Network::add_edges`),
//!   then the compact rows both ways. The list of edges by string id is made
//!   before the clock starts, as GAPBS's edge list is read before its build.
//! * **Paging**: transparent huge pages off, as the server runs by default
//!   (`--huge-pages` leaves them as the kernel's setting has them).
//! * **Kernels** (`-k`, comma-separated; all by default): `bfs` (the depth of
//!   every node from a source, `Network::bfs_depths_by_index`), `sssp` (the
//!   distances from a source, `Network::dijkstra_distances_on_threads`), `pr`
//!   (PageRank, damping 0.85, until the ranks move by less than 1e-4 in total
//!   (L1), the stopping rule of GAPBS's `pr`), `cc` (weak components: a label
//!   per node, as GAPBS's `cc` answers; `Network::weak_component_labels`), `topo` (a
//!   topological sort of the graph's DAG: its edges from a lower to a higher
//!   number), `scan` (the out-neighbours of every node, through
//!   `Network::neighbor_indices`). BFS and SSSP run from `-n` sources drawn at
//!   random (seeded) among the nodes with out-edges, the others `-n` times.
//! * **Verified**: each trial's answer is checked against a plain reference
//!   computed here on integer arrays (levels, distances to 1e-9 relative,
//!   PageRank's residual, the component partition, every edge forward in the
//!   order, the neighbour count). A wrong answer stops the program.
//!
//! `-t THREADS` runs PageRank, BFS's bottom-up levels, SSSP's large buckets
//! and weak components on that many threads (the other kernels run on one).
//! `--integer-weights` replaces the weights with integers drawn uniformly from
//! 1..=255 (as GAPBS weighs an unweighted graph), and `--write PATH` writes the
//! graph as a `.wel` file, so that GAPBS reads exactly the same graph.
//!
//! Output as GAPBS prints it (`Trial Time`, `Average Time`), with each trial's
//! edges per second (the graph's edges over the trial's time); `--json` adds one
//! line per kernel with every trial's time.

#[path = "../benches/workload/mod.rs"]
mod workload;

use petgraph::visit::NodeIndexable;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

use networks_mcp::network::{Direction, MissingNodes, Network, centrality::PageRankOptions};
use petgraph::stable_graph::NodeIndex;

/// A graph by node number: `n` nodes, weighted edges.
struct Input {
    n: usize,
    edges: Vec<(u32, u32, f64)>,
}

struct Args {
    file: Option<String>,
    generate: Option<usize>,
    trials: usize,
    kernels: Vec<String>,
    seed: u64,
    json: bool,
    integer_weights: bool,
    write: Option<String>,
    threads: usize,
    huge_pages: bool,
}

const KERNELS: [&str; 6] = ["bfs", "sssp", "pr", "cc", "topo", "scan"];

fn main() {
    let args = parse_args();
    // As the server runs unless told `--huge-pages` (see `networks_mcp::paging`;
    // the bare core has no paging control, and leaves the kernel's setting).
    #[cfg(feature = "storage")]
    if !args.huge_pages
        && let Err(e) = networks_mcp::paging::disable_transparent_huge_pages()
    {
        eprintln!("bench_kernels: huge pages stay on: {e}");
    }
    let started = Instant::now();
    let input = match (&args.file, args.generate) {
        (Some(path), _) => read_graph(path).unwrap_or_else(|e| fail(&format!("{path}: {e}"))),
        (None, Some(n)) => {
            let w = workload::generate(n, args.seed);
            Input { n, edges: w.edges }
        }
        (None, None) => usage("give -f GRAPH or -g NODES"),
    };
    let mut input = input;
    if args.integer_weights {
        // As GAPBS weighs the edges of an unweighted graph: uniform in 1..=255.
        let mut rng = workload::Rng::new(args.seed ^ 0x77);
        for e in &mut input.edges {
            e.2 = (1 + rng.below(255)) as f64;
        }
    }
    println!(
        "Read Time:           {:.5}",
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &args.write {
        write_weighted(path, &input).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        println!("Wrote:               {path}");
    }

    let ids: Vec<String> = (0..input.n).map(|i| i.to_string()).collect();
    // The edge list by string id is the input, made before the clock starts as
    // GAPBS reads its edge list before it times its build.
    let edges = by_id(&ids, &input.edges);
    let started = Instant::now();
    let net = build(&ids, &edges);
    drop(edges);
    println!(
        "Build Time:          {:.5}",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let _ = net.adjacency();
    println!(
        "Rows Time:           {:.5}",
        started.elapsed().as_secs_f64()
    );
    let m = input.edges.len();
    println!(
        "Graph has {} nodes and {} directed edges for degree: {}",
        input.n,
        m,
        m / input.n.max(1)
    );
    let reference = Csr::new(input.n, &input.edges);
    let index: Vec<NodeIndex> = ids
        .iter()
        .map(|id| net.index_of(id).expect("every number is a node"))
        .collect();
    let sources = pick_sources(&reference, args.trials, args.seed);

    for kernel in &args.kernels {
        println!("--- {kernel}");
        let mut times = Vec::new();
        match kernel.as_str() {
            "bfs" => {
                for &s in &sources {
                    println!("Source:              {s}");
                    let start = index[s as usize];
                    let (t, depth) = timed(|| net.bfs_depths_on_threads(start, args.threads));
                    verify_bfs(&reference, &index, s, &depth);
                    times.push(report(t, m));
                }
            }
            "sssp" => {
                for &s in &sources {
                    println!("Source:              {s}");
                    let (t, dist) = timed(|| {
                        net.dijkstra_distances_on_threads(index[s as usize], args.threads)
                    });
                    let dist = dist.unwrap_or_else(|e| fail(&format!("sssp: {e}")));
                    verify_sssp(&reference, &index, s, &dist);
                    times.push(report(t, m));
                }
            }
            "pr" => {
                let options = PageRankOptions {
                    tolerance: 1e-4 / input.n.max(1) as f64,
                    weighted: false,
                    threads: args.threads,
                    ..PageRankOptions::default()
                };
                for _ in 0..args.trials {
                    let (t, ranks) = timed(|| net.pagerank(&options));
                    let ranks = ranks.unwrap_or_else(|e| fail(&format!("pr: {e}")));
                    let by_number = by_number(&net, &ranks.nodes, &ranks.values);
                    verify_pagerank(&reference, &by_number);
                    times.push(report(t, m));
                }
            }
            "cc" => {
                for _ in 0..args.trials {
                    let (t, labels) = timed(|| net.weak_component_labels(args.threads));
                    verify_components(&reference, &net, &labels);
                    times.push(report(t, m));
                }
            }
            "topo" => {
                let dag: Vec<(u32, u32, f64)> = input
                    .edges
                    .iter()
                    .copied()
                    .filter(|&(u, v, _)| u < v)
                    .collect();
                let dag_net = build(&ids, &by_id(&ids, &dag));
                let _ = dag_net.adjacency();
                for _ in 0..args.trials {
                    let (t, order) = timed(|| dag_net.toposort_plain());
                    let order = order.unwrap_or_else(|e| fail(&format!("topo: {e}")));
                    verify_topological(&dag_net, &dag, &order);
                    times.push(report(t, dag.len()));
                }
            }
            "scan" => {
                for _ in 0..args.trials {
                    let (t, seen) = timed(|| {
                        net.node_indices()
                            .map(|ix| net.neighbor_indices(ix, Direction::Out).len())
                            .sum::<usize>()
                    });
                    check(seen == m, || format!("scan: {seen} neighbours, {m} edges"));
                    times.push(report(t, m));
                }
            }
            other => usage(&format!("unknown kernel {other}")),
        }
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        println!("Average Time:        {mean:.5}");
        if args.json {
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            println!(
                "{{\"kernel\": \"{kernel}\", \"nodes\": {}, \"edges\": {m}, \"trials\": {}, \"mean_s\": {mean}, \"median_s\": {}, \"times_s\": {:?}}}",
                input.n,
                times.len(),
                sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
                times
            );
        }
    }
}

fn parse_args() -> Args {
    let mut args = Args {
        file: None,
        generate: None,
        trials: 16,
        kernels: KERNELS.iter().map(|k| k.to_string()).collect(),
        seed: workload::SEED,
        json: false,
        integer_weights: false,
        write: None,
        threads: 1,
        huge_pages: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        let number = |text: String, name: &str| -> usize {
            text.replace('_', "")
                .parse()
                .unwrap_or_else(|_| usage(&format!("{name} needs a number")))
        };
        match a.as_str() {
            "-f" => args.file = Some(value("-f")),
            "-g" => args.generate = Some(number(value("-g"), "-g")),
            "-n" => args.trials = number(value("-n"), "-n").max(1),
            "-t" => args.threads = number(value("-t"), "-t").max(1),
            "--seed" => args.seed = number(value("--seed"), "--seed") as u64,
            "-k" => {
                args.kernels = value("-k").split(',').map(str::to_string).collect();
                if let Some(k) = args.kernels.iter().find(|k| !KERNELS.contains(&k.as_str())) {
                    usage(&format!(
                        "unknown kernel {k}; the kernels: {}",
                        KERNELS.join(",")
                    ));
                }
            }
            "--json" => args.json = true,
            "--integer-weights" => args.integer_weights = true,
            "--write" => args.write = Some(value("--write")),
            "--huge-pages" => args.huge_pages = true,
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    args
}

fn usage(message: &str) -> ! {
    if !message.is_empty() {
        eprintln!("bench_kernels: {message}");
    }
    eprintln!(
        "usage: bench_kernels (-f GRAPH.el|.wel|.mtx|.txt | -g NODES) [-n TRIALS] [-k {}] [-t THREADS] [--seed S] [--integer-weights] [--write PATH.wel] [--huge-pages] [--json]",
        KERNELS.join(",")
    );
    std::process::exit(if message.is_empty() { 0 } else { 2 })
}

fn fail(message: &str) -> ! {
    eprintln!("bench_kernels: {message}");
    std::process::exit(1)
}

fn check(ok: bool, message: impl FnOnce() -> String) {
    if !ok {
        fail(&format!("wrong answer: {}", message()));
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let started = Instant::now();
    let out = f();
    (started.elapsed().as_secs_f64(), out)
}

/// Prints a trial's time as GAPBS does, with edges per second.
fn report(seconds: f64, edges: usize) -> f64 {
    println!(
        "Trial Time:          {seconds:.5}   ({:.1} M edges/s)",
        edges as f64 / seconds.max(1e-9) / 1e6
    );
    seconds
}

/// `edges` (by number) as `(source id, target id, weight)`.
fn by_id<'a>(ids: &'a [String], edges: &[(u32, u32, f64)]) -> Vec<(&'a str, &'a str, f64)> {
    edges
        .iter()
        .map(|&(u, v, w)| (ids[u as usize].as_str(), ids[v as usize].as_str(), w))
        .collect()
}

/// The network of `ids` with `edges` (by string id), built in two batches.
fn build(ids: &[String], edges: &[(&str, &str, f64)]) -> Network {
    let mut net = Network::with_capacity(ids.len(), edges.len());
    net.add_nodes(ids.iter().map(String::as_str))
        .unwrap_or_else(|e| fail(&format!("nodes: {e}")));
    net.add_edges(edges.iter().copied(), MissingNodes::Fail)
        .unwrap_or_else(|e| fail(&format!("edges: {e}")));
    net
}

// ---- reading -------------------------------------------------------------

fn read_graph(path: &str) -> Result<Input, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let extension = path.rsplit('.').next().unwrap_or("");
    if extension == "mtx" {
        return read_matrix_market(&text);
    }
    let mut edges = Vec::new();
    let mut n = 0usize;
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let mut node = || -> Result<u32, String> {
            fields
                .next()
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| format!("line {}: expected `source target [weight]`", k + 1))
        };
        let (u, v) = (node()?, node()?);
        let w = match fields.next() {
            Some(f) => f
                .parse::<f64>()
                .map_err(|_| format!("line {}: the weight {f} is not a number", k + 1))?,
            None => 1.0,
        };
        n = n.max(u as usize + 1).max(v as usize + 1);
        edges.push((u, v, w));
    }
    Ok(Input { n, edges })
}

fn read_matrix_market(text: &str) -> Result<Input, String> {
    let mut lines = text.lines();
    let banner = lines.next().unwrap_or("").to_ascii_lowercase();
    if !banner.starts_with("%%matrixmarket matrix coordinate") {
        return Err("not a Matrix Market coordinate matrix".into());
    }
    let pattern = banner.contains(" pattern");
    let symmetric = banner.contains(" symmetric");
    let mut size = None;
    let mut edges = Vec::new();
    for line in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| -> Result<usize, String> {
            fields
                .get(i)
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| format!("bad line `{line}`"))
        };
        if size.is_none() {
            size = Some(number(0)?.max(number(1)?));
            continue;
        }
        let (i, j) = (number(0)?, number(1)?);
        if i == 0 || j == 0 {
            return Err(format!("bad line `{line}`: Matrix Market counts from 1"));
        }
        let w = if pattern {
            1.0
        } else {
            fields
                .get(2)
                .and_then(|f| f.parse::<f64>().ok())
                .ok_or_else(|| format!("bad line `{line}`: no value"))?
        };
        let (u, v) = ((i - 1) as u32, (j - 1) as u32);
        edges.push((u, v, w));
        if symmetric && u != v {
            edges.push((v, u, w));
        }
    }
    let n = size.ok_or("no size line")?;
    if let Some(&(u, v, _)) = edges
        .iter()
        .find(|&&(u, v, _)| u as usize >= n || v as usize >= n)
    {
        return Err(format!(
            "entry ({}, {}) is outside the {n}×{n} matrix",
            u + 1,
            v + 1
        ));
    }
    Ok(Input { n, edges })
}

/// The graph as a GAPBS `.wel` file (`u v w` per line).
fn write_weighted(path: &str, input: &Input) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for &(u, v, w) in &input.edges {
        writeln!(out, "{u} {v} {w}")?;
    }
    out.flush()
}

// ---- references ----------------------------------------------------------

/// Compressed rows by node number, both ways, for the reference answers.
struct Csr {
    n: usize,
    out_start: Vec<usize>,
    out: Vec<(u32, f64)>,
    in_start: Vec<usize>,
    inn: Vec<u32>,
}

impl Csr {
    fn new(n: usize, edges: &[(u32, u32, f64)]) -> Csr {
        let rows = |key: fn(&(u32, u32, f64)) -> u32| {
            let mut start = vec![0usize; n + 1];
            for e in edges {
                start[key(e) as usize + 1] += 1;
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
            start
        };
        let out_start = rows(|e| e.0);
        let in_start = rows(|e| e.1);
        let mut out = vec![(0, 0.0); edges.len()];
        let mut inn = vec![0; edges.len()];
        let (mut o, mut i) = (out_start.clone(), in_start.clone());
        for &(u, v, w) in edges {
            out[o[u as usize]] = (v, w);
            o[u as usize] += 1;
            inn[i[v as usize]] = u;
            i[v as usize] += 1;
        }
        Csr {
            n,
            out_start,
            out,
            in_start,
            inn,
        }
    }

    fn out(&self, u: usize) -> &[(u32, f64)] {
        &self.out[self.out_start[u]..self.out_start[u + 1]]
    }

    fn inn(&self, v: usize) -> &[u32] {
        &self.inn[self.in_start[v]..self.in_start[v + 1]]
    }
}

/// Sources drawn at random among the nodes with out-edges, as GAPBS draws them.
fn pick_sources(g: &Csr, trials: usize, seed: u64) -> Vec<u32> {
    let mut rng = workload::Rng::new(seed ^ 0x50_u64);
    if g.out.is_empty() {
        return vec![0; trials.min(g.n)];
    }
    (0..trials)
        .map(|_| {
            loop {
                let s = rng.below(g.n);
                if !g.out(s).is_empty() {
                    break s as u32;
                }
            }
        })
        .collect()
}

/// The values of `nodes` (indices) placed by node number.
fn by_number(net: &Network, nodes: &[NodeIndex], values: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; nodes.len()];
    for (&ix, &value) in nodes.iter().zip(values) {
        let number: usize = net.id_at(ix).parse().expect("numeric ids");
        out[number] = value;
    }
    out
}

fn number(net: &Network, ix: NodeIndex) -> usize {
    net.id_at(ix).parse().expect("numeric ids")
}

fn verify_bfs(g: &Csr, index: &[NodeIndex], source: u32, depth: &[u32]) {
    let mut level = vec![u32::MAX; g.n];
    level[source as usize] = 0;
    let mut queue = VecDeque::from([source as usize]);
    while let Some(u) = queue.pop_front() {
        for &(v, _) in g.out(u) {
            if level[v as usize] == u32::MAX {
                level[v as usize] = level[u] + 1;
                queue.push_back(v as usize);
            }
        }
    }
    for (v, &want) in level.iter().enumerate() {
        let got = depth[index[v].index()];
        check(got == want, || {
            format!("bfs from {source}: node {v} at depth {got}, expected {want}")
        });
    }
}

fn verify_sssp(g: &Csr, index: &[NodeIndex], source: u32, dist: &[f64]) {
    #[derive(PartialEq)]
    struct Entry(f64, usize);
    impl Eq for Entry {}
    impl PartialOrd for Entry {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Entry {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            other.0.total_cmp(&self.0)
        }
    }
    let mut best = vec![f64::INFINITY; g.n];
    best[source as usize] = 0.0;
    let mut heap = BinaryHeap::from([Entry(0.0, source as usize)]);
    while let Some(Entry(d, u)) = heap.pop() {
        if d > best[u] {
            continue;
        }
        for &(v, w) in g.out(u) {
            let through = d + w;
            if through < best[v as usize] {
                best[v as usize] = through;
                heap.push(Entry(through, v as usize));
            }
        }
    }
    for (v, &want) in best.iter().enumerate() {
        let got = dist[index[v].index()];
        let same = (got.is_infinite() && want.is_infinite())
            || (got - want).abs() <= 1e-9 * want.abs().max(1.0);
        check(same, || {
            format!("sssp from {source}: node {v} at {got}, expected {want}")
        });
    }
}

/// PageRank's residual: one more iteration, computed here, moves the ranks by
/// no more than the stopping rule allowed, and they sum to 1.
fn verify_pagerank(g: &Csr, ranks: &[f64]) {
    let n = g.n as f64;
    let damping = 0.85;
    let sum: f64 = ranks.iter().sum();
    check((sum - 1.0).abs() < 1e-6, || {
        format!("pr: the ranks sum to {sum}")
    });
    let out_degree = |u: usize| g.out_start[u + 1] - g.out_start[u];
    let lost: f64 = (0..g.n)
        .filter(|&u| out_degree(u) == 0)
        .map(|u| ranks[u])
        .sum();
    let mut moved = 0.0;
    for (v, &rank) in ranks.iter().enumerate() {
        let received: f64 = g
            .inn(v)
            .iter()
            .map(|&u| ranks[u as usize] / out_degree(u as usize) as f64)
            .sum();
        let next = damping * (received + lost / n) + (1.0 - damping) / n;
        moved += (next - rank).abs();
    }
    // The last iteration moved the ranks by less than 1e-4; the next moves them
    // by at most the damping times that.
    check(moved < 1e-4, || {
        format!("pr: one more iteration moves the ranks by {moved}")
    });
}

/// The labels name the reference's components one to one: two nodes share a
/// label exactly when they share a root.
fn verify_components(g: &Csr, net: &Network, labels: &[u32]) {
    let mut parent: Vec<usize> = (0..g.n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for u in 0..g.n {
        for &(v, _) in g.out(u) {
            let (a, b) = (find(&mut parent, u), find(&mut parent, v as usize));
            parent[a.max(b)] = a.min(b);
        }
    }
    check(labels.len() >= net.graph().node_bound(), || {
        format!(
            "cc: {} labels for {} node indices",
            labels.len(),
            net.graph().node_bound()
        )
    });
    // The label each root's nodes carry, and the root each label belongs to.
    let mut label_of_root = vec![u32::MAX; g.n];
    let mut root_of_label = std::collections::HashMap::new();
    for ix in net.graph().node_indices() {
        let (root, label) = (find(&mut parent, number(net, ix)), labels[ix.index()]);
        if label_of_root[root] == u32::MAX {
            label_of_root[root] = label;
        }
        let owner = *root_of_label.entry(label).or_insert(root);
        check(label_of_root[root] == label && owner == root, || {
            format!("cc: {} is in the wrong component", net.id_at(ix))
        });
    }
}

fn verify_topological(net: &Network, dag: &[(u32, u32, f64)], order: &[NodeIndex]) {
    check(order.len() == net.node_count(), || {
        format!(
            "topo: {} nodes ordered of {}",
            order.len(),
            net.node_count()
        )
    });
    let mut position = vec![usize::MAX; order.len()];
    for (k, &ix) in order.iter().enumerate() {
        position[number(net, ix)] = k;
    }
    for &(u, v, _) in dag {
        check(position[u as usize] < position[v as usize], || {
            format!("topo: the edge {u} -> {v} goes backwards")
        });
    }
}
