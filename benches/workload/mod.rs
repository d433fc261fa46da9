//! The benchmark workload of issue 4, shared by `benches/traversal.rs` and
//! `examples/bench_traversal.rs` (included with `#[path]`), so both measure exactly
//! the same graphs and operations.
//!
//! * A seeded random directed graph with `n` nodes `n0 … n{n-1}` and about `5n`
//!   edges drawn uniformly, self-loops and duplicate pairs removed (first
//!   occurrence kept, in generation order), weights uniform in `[0, 1)`.
//! * The DAG variant: the same edges oriented lower index → higher index, with the
//!   pairs that become duplicates removed again.
//! * Both also as **string-id edge lists** ([`StrEdges`]): each edge's source and
//!   target id spelled out, one after another in one text buffer, as a program
//!   holds an edge list it has read from a file. Our build consumes these; the
//!   baseline builds from the integer pairs.
//!
//! Every operation exists twice: `ours_*` goes through the public
//! [`networks_mcp::network::Network`] API (string ids included where the API takes
//! them), `base_*` runs the same algorithm on a bare petgraph
//! `DiGraph<(), f64>` built from integer indices. Each returns a small checksum so
//! the optimiser cannot drop the work.

#![allow(dead_code)]

/// Every benchmark program allocates as the server binary does (mimalloc, for its
/// transparent huge pages; see its entry in Cargo.toml), so that the library's
/// figures are the ones the server's calls run at. A program using the library
/// gets the same by declaring this allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use networks_mcp::network::traversal::TraversalOrder;
use networks_mcp::network::{Direction, MissingNodes, Network, Order, TraverseOptions};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Bfs;
use std::collections::HashSet;

/// The seed every benchmark uses.
pub const SEED: u64 = 0x5eed_2025;

/// Edges per node drawn before self-loops and duplicates are removed.
pub const EDGES_PER_NODE: usize = 5;

/// SplitMix64: a tiny, fast, well-distributed seeded generator (no extra crate).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE5_E9B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is far below anything measurable).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// One weighted edge by node number.
pub type IntEdge = (u32, u32, f64);

/// A string-id edge list: every edge's ids written out in `text`, in edge order.
pub struct StrEdges {
    text: String,
    /// Per edge: where its source id starts in `text`, and the two ids' lengths.
    spans: Vec<(u32, u16, u16)>,
    weights: Vec<f64>,
}

impl StrEdges {
    /// Spells out `edges` with the ids `n{i}`.
    pub fn new(edges: &[IntEdge]) -> StrEdges {
        use std::fmt::Write;
        let mut text = String::with_capacity(edges.len() * 16);
        let mut spans = Vec::with_capacity(edges.len());
        let mut weights = Vec::with_capacity(edges.len());
        for &(u, v, w) in edges {
            let start = text.len();
            write!(text, "n{u}").expect("write to String");
            let mid = text.len();
            write!(text, "n{v}").expect("write to String");
            spans.push((
                u32::try_from(start).expect("edge list text under 4 GiB"),
                (mid - start) as u16,
                (text.len() - mid) as u16,
            ));
            weights.push(w);
        }
        StrEdges {
            text,
            spans,
            weights,
        }
    }

    /// The edges as `(source id, target id, weight)`, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, f64)> + '_ {
        self.spans
            .iter()
            .zip(&self.weights)
            .map(|(&(start, a, b), &w)| {
                let (start, mid) = (start as usize, start as usize + a as usize);
                (&self.text[start..mid], &self.text[mid..mid + b as usize], w)
            })
    }

    /// The number of edges.
    pub fn len(&self) -> usize {
        self.spans.len()
    }
}

/// The generated graphs.
pub struct Workload {
    /// Number of nodes.
    pub n: usize,
    /// Node ids, `ids[i] == format!("n{i}")`.
    pub ids: Vec<String>,
    /// The random digraph's edges, in generation order.
    pub edges: Vec<IntEdge>,
    /// The DAG variant's edges (lower number → higher number).
    pub dag_edges: Vec<IntEdge>,
    /// `edges` as a string-id edge list.
    pub str_edges: StrEdges,
    /// `dag_edges` as a string-id edge list.
    pub str_dag_edges: StrEdges,
}

/// Generates the workload for `n` nodes (`n ≥ 2`) from `seed`.
pub fn generate(n: usize, seed: u64) -> Workload {
    assert!((2..=u32::MAX as usize).contains(&n), "need 2 ≤ n < 2^32");
    let mut rng = Rng::new(seed);
    let draws = EDGES_PER_NODE * n;
    let mut seen: HashSet<u64> = HashSet::new();
    seen.reserve(draws);
    let mut edges = Vec::with_capacity(draws);
    for _ in 0..draws {
        let u = rng.below(n) as u32;
        let v = rng.below(n) as u32;
        let w = rng.unit();
        if u != v && seen.insert((u as u64) << 32 | v as u64) {
            edges.push((u, v, w));
        }
    }
    seen.clear();
    let mut dag_edges = Vec::with_capacity(edges.len());
    for &(u, v, w) in &edges {
        let (a, b) = (u.min(v), u.max(v));
        if seen.insert((a as u64) << 32 | b as u64) {
            dag_edges.push((a, b, w));
        }
    }
    let ids = (0..n).map(|i| format!("n{i}")).collect();
    let str_edges = StrEdges::new(&edges);
    let str_dag_edges = StrEdges::new(&dag_edges);
    Workload {
        n,
        ids,
        edges,
        dag_edges,
        str_edges,
        str_dag_edges,
    }
}

// ---------------------------------------------------------------------------
// networks-mcp
// ---------------------------------------------------------------------------

/// Builds a [`Network`] from the string-id edge list through the public API:
/// `with_capacity`, `add_nodes` with every id (as the peers' `add_nodes_from`),
/// then the whole edge list through
/// `add_edges(.., MissingNodes::Fail)` (which validates every id and weight and looks
/// both ids up, all before it adds any edge; between existing nodes and without
/// attributes it takes the staged bulk path).
pub fn ours_build(ids: &[String], edges: &StrEdges) -> Network {
    let mut net = Network::with_capacity(ids.len(), edges.len());
    net.add_nodes(ids.iter().map(String::as_str))
        .expect("valid nodes");
    net.add_edges(edges.iter(), MissingNodes::Fail)
        .expect("valid edges");
    net
}

/// As [`ours_build`], but one `add_edge` call per edge (each validates and looks
/// up its two ids, then inserts the edge, before the next starts).
pub fn ours_build_edge_by_edge(ids: &[String], edges: &StrEdges) -> Network {
    let mut net = Network::with_capacity(ids.len(), edges.len());
    for id in ids {
        net.add_node(id).expect("valid node");
    }
    for (source, target, w) in edges.iter() {
        net.add_edge(source, target, w).expect("valid edge");
    }
    net
}

/// The index of `n0`.
pub fn ours_n0(net: &Network) -> petgraph::stable_graph::NodeIndex {
    net.index_of("n0").expect("n0 exists")
}

/// Out-neighbors of every node, by index (`neighbor_indices`, a `Vec` per node).
pub fn ours_neighbors(net: &Network) -> usize {
    net.node_indices()
        .map(|ix| net.neighbor_indices(ix, Direction::Out).len())
        .sum()
}

/// Out-neighbors of every node, by string id (`neighbors(id)`: hash lookup, ids back).
pub fn ours_neighbors_by_id(net: &Network, ids: &[String]) -> usize {
    ids.iter()
        .map(|id| net.neighbors(id, Direction::Out).expect("node").len())
        .sum()
}

/// BFS from `n0` along outgoing edges (`bfs_order`).
pub fn ours_bfs(net: &Network) -> usize {
    net.bfs_order_by_index(ours_n0(net)).len()
}

/// BFS from `n0` with depth and parent per node, neighbors in insertion order (`traverse`).
pub fn ours_traverse_bfs(net: &Network) -> usize {
    net.traverse_by_index(
        &[ours_n0(net)],
        TraverseOptions {
            order: TraversalOrder::Bfs,
            direction: Direction::Out,
            max_depth: None,
            limit: usize::MAX,
        },
    )
    .visits
    .len()
}

/// Dijkstra distances from `n0` (`dijkstra_distances`).
pub fn ours_dijkstra(net: &Network) -> usize {
    net.dijkstra_distances_by_index(ours_n0(net))
        .expect("non-negative weights")
        .iter()
        .filter(|d| d.is_finite())
        .count()
}

/// Topological order of the DAG (`toposort_plain`).
pub fn ours_toposort(dag: &Network) -> usize {
    dag.toposort_plain().expect("a DAG").len()
}

/// Topological order with Kahn layers (`topological_sort(Order::Forward)`).
pub fn ours_topological_sort(dag: &Network) -> usize {
    dag.topological_sort(Order::Forward)
        .expect("a DAG")
        .layers
        .len()
}

/// Strongly connected components (`strongly_connected_components`).
pub fn ours_scc(net: &Network) -> usize {
    net.strongly_connected_components().len()
}

/// Every node `n0` reaches, with hop distances (`reachable`).
pub fn ours_descendants(net: &Network) -> usize {
    net.reachable_by_index(ours_n0(net), Direction::Out, None, usize::MAX)
        .total
}

// ---------------------------------------------------------------------------
// Baseline: bare petgraph, integer indices, no id index, no attributes
// ---------------------------------------------------------------------------

/// The baseline graph.
pub type Base = DiGraph<(), f64>;

/// Builds the baseline graph from integer indices.
pub fn base_build(n: usize, edges: &[IntEdge]) -> Base {
    let mut g = Base::with_capacity(n, edges.len());
    for _ in 0..n {
        g.add_node(());
    }
    for &(u, v, w) in edges {
        g.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), w);
    }
    g
}

/// Out-neighbors of every node, each collected into a `Vec` (as a list-returning
/// API must).
pub fn base_neighbors(g: &Base) -> usize {
    g.node_indices()
        .map(|ix| g.neighbors(ix).collect::<Vec<_>>().len())
        .sum()
}

/// petgraph's `Bfs` from node 0, collecting the visit order.
pub fn base_bfs(g: &Base) -> usize {
    let mut bfs = Bfs::new(g, NodeIndex::new(0));
    let mut order = Vec::new();
    while let Some(n) = bfs.next(g) {
        order.push(n);
    }
    order.len()
}

/// petgraph's `dijkstra` from node 0 (its result is a hash map).
pub fn base_dijkstra(g: &Base) -> usize {
    petgraph::algo::dijkstra(g, NodeIndex::new(0), None, |e| *e.weight()).len()
}

/// petgraph's DFS-based `toposort`.
pub fn base_toposort(g: &Base) -> usize {
    petgraph::algo::toposort(g, None).expect("a DAG").len()
}

/// petgraph's `tarjan_scc`. It recurses once per node on the DFS path, so it runs
/// on a thread with a stack big enough for the whole graph (reserved, not touched).
pub fn base_scc(g: &Base) -> usize {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size((256 << 20) + g.node_count() * 512)
            .spawn_scoped(s, || petgraph::algo::tarjan_scc(g).len())
            .expect("spawn")
            .join()
            .expect("tarjan_scc")
    })
}

/// Descendants of node 0: petgraph's `Bfs`, counting the nodes after the start.
pub fn base_descendants(g: &Base) -> usize {
    let mut bfs = Bfs::new(g, NodeIndex::new(0));
    let mut count = 0usize;
    while bfs.next(g).is_some() {
        count += 1;
    }
    count - 1
}

/// Sanity checks that ours and the baseline agree (run once by the programs).
pub fn check_agreement(w: &Workload, net: &Network, dag: &Network, g: &Base, gd: &Base) {
    assert_eq!(net.edge_count(), g.edge_count());
    assert_eq!(ours_neighbors(net), base_neighbors(g));
    assert_eq!(ours_bfs(net), base_bfs(g));
    assert_eq!(ours_traverse_bfs(net), base_bfs(g));
    assert_eq!(ours_dijkstra(net), base_dijkstra(g));
    assert_eq!(ours_toposort(dag), base_toposort(gd));
    assert_eq!(ours_scc(net), base_scc(g));
    assert_eq!(ours_descendants(net), base_descendants(g));
    assert_eq!(ours_neighbors_by_id(net, &w.ids), net.edge_count());
}

/// The options of the example benches: `--nodes N`, `--runs N`, and one
/// optional file named by `file_flag` (e.g. `--edges FILE`).
pub struct BenchArgs {
    /// Nodes of the generated network.
    pub nodes: usize,
    /// Runs per measurement (the median is reported).
    pub runs: usize,
    /// The file `file_flag` names, if given.
    pub file: Option<String>,
}

/// Reads [`BenchArgs`] from the command line; panics with the flag's name on a bad one.
pub fn bench_args(nodes: usize, runs: usize, file_flag: &str) -> BenchArgs {
    let mut args = BenchArgs {
        nodes,
        runs,
        file: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => args.nodes = value.parse().expect("--nodes N"),
            "--runs" => args.runs = value.parse().expect("--runs N"),
            f if f == file_flag => args.file = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    args
}

/// The median of some timings.
pub fn median(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

/// Writes `w`'s graph for the peer scripts in `benches/peers`: the node count on
/// the first line, then one `source target weight` line per edge.
pub fn write_edges(path: &str, w: &Workload) {
    write_edge_list(path, w.n, &w.edges);
}

/// Writes `n` and `edges` as [`write_edges`] does (e.g. the DAG variant).
pub fn write_edge_list(path: &str, n: usize, edges: &[IntEdge]) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    writeln!(out, "{n}").unwrap();
    for &(a, b, weight) in edges {
        writeln!(out, "{a} {b} {weight}").unwrap();
    }
}
