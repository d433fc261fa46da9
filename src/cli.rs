//! Command-line options of the `networks-mcp` binary.

mod config;
mod load;

pub use load::LoadSpec;

use std::path::PathBuf;

use clap::Parser;

use crate::limits::Limits;
use crate::logging::{LogConfig, LogFormat};
use crate::mcp::{ServerOptions, Toolset};
use crate::network::ChangeWindow;

/// An MCP server of named, directed, weighted graphs for AI agents that plan.
///
/// With no command it serves MCP over stdio: start it from an MCP client
/// (Claude Code, Claude Desktop, the MCP Inspector...), not by hand.
/// `networks-mcp demo` shows a planning session without a client.
#[derive(Debug, Parser)]
#[command(name = "networks-mcp", version, about, long_about = None, disable_help_subcommand = true)]
pub struct Cli {
    /// What to run instead of the server (none: serve MCP).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Log level or filter in RUST_LOG syntax (error, warn, info, debug, trace, or
    /// e.g. "networks_mcp=debug"). Logs go to stderr only. [env: NETWORKS_MCP_LOG] [default: info]
    #[arg(long, value_name = "LEVEL")]
    pub log_level: Option<String>,

    /// Log line format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text, env = "NETWORKS_MCP_LOG_FORMAT")]
    pub log_format: LogFormat,

    /// Also append logs to this file.
    #[arg(long, value_name = "PATH", env = "NETWORKS_MCP_LOG_FILE")]
    pub log_file: Option<PathBuf>,

    /// Append one JSON line per applied write (tool, network, arguments, result) to this file.
    #[arg(long, value_name = "FILE", env = "NETWORKS_MCP_AUDIT_LOG")]
    pub audit_log: Option<PathBuf>,

    /// Create network NAME from the file PATH at startup (repeatable). The format
    /// comes from the extension (.json node-link, .graphml, .csv edge list, .dot/.gv)
    /// or from --load-format. A network that already exists (e.g. recovered from
    /// --data-dir) is left as it is.
    #[arg(long, value_name = "NAME=PATH", value_parser = load::parse_load)]
    pub load: Vec<LoadSpec>,

    /// The format of every --load file: node_link_json, graphml, edge_list_csv or dot.
    #[arg(long, value_name = "FORMAT", value_parser = load::parse_format)]
    pub load_format: Option<crate::interchange::Format>,

    /// A directory whose files network_import may read and network_export write,
    /// as `path` (repeatable). On stdio the client's MCP roots are allowed too; over
    /// HTTP only these.
    #[arg(
        long,
        value_name = "DIR",
        env = "NETWORKS_MCP_DATA_ROOT",
        value_delimiter = ':'
    )]
    pub data_root: Vec<std::path::PathBuf>,

    /// Comma-separated toolsets to offer, all listed, no others callable: core,
    /// edit, analysis, interchange, work, algorithms. Without it, a session starts
    /// with a small list and turns toolsets on with network_toolsets. `work` adds the
    /// tools that let several agents execute one plan (claim, complete, release,
    /// renew, progress); `algorithms` adds centrality, communities, paths,
    /// structure, search, diff and copies.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        env = "NETWORKS_MCP_TOOLSETS",
        value_name = "LIST"
    )]
    pub toolsets: Vec<Toolset>,

    /// Offer only tools that do not change state; calls to write tools are refused.
    #[arg(long, env = "NETWORKS_MCP_READ_ONLY")]
    pub read_only: bool,

    /// Validate and log every write as if applied, but change nothing; replies say `dry_run: true`.
    #[arg(long, env = "NETWORKS_MCP_DRY_RUN")]
    pub dry_run: bool,

    /// Back the server's memory with transparent huge pages (2 MiB) where the
    /// kernel allows them: traversals of networks with millions of nodes and
    /// edges run up to a fifth faster (fewer TLB misses), but on a host whose
    /// free memory is fragmented the kernel may compact memory before handing
    /// out each fresh huge page, so a large import or the first reads after an
    /// idle spell can take half again as long, and resident memory grows in
    /// 2 MiB steps. Off by default.
    #[arg(long, env = "NETWORKS_MCP_HUGE_PAGES")]
    pub huge_pages: bool,

    /// Tool calls that can run long (analysis, imports, exports, batches) computing
    /// at once; single reads and writes have a lane of their own, four times as
    /// wide, so they never wait behind those. Default: the number of cores.
    #[arg(long, value_name = "N", env = "NETWORKS_MCP_COMPUTE_THREADS", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub compute_threads: Option<u64>,

    /// Threads one analysis (PageRank counting edges or with every weight 1) may compute on, its own
    /// included: the others are borrowed from --compute-threads while they are
    /// free, one iteration at a time, so other calls never wait long for them.
    /// 1: each call on one thread. Default: --compute-threads.
    #[arg(long, value_name = "N", env = "NETWORKS_MCP_KERNEL_THREADS", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub kernel_threads: Option<u64>,

    /// Calls each lane queues beyond those it runs; past it a call is answered
    /// server_busy at once, with a retry hint.
    #[arg(long, value_name = "N", default_value_t = crate::mcp::compute::DEFAULT_MAX_QUEUED_CALLS as u64, env = "NETWORKS_MCP_MAX_QUEUED_CALLS", value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub max_queued_calls: u64,

    /// The longest one tool call may take, queueing included; past it the call
    /// stops, changes nothing and answers deadline_exceeded with what to do instead.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::mcp::compute::DEFAULT_MAX_CALL_SECONDS, env = "NETWORKS_MCP_MAX_CALL_SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_call_seconds: u64,

    /// The longest one tool call that runs as an MCP task may take, queueing
    /// included (the client polls for it, so it may run longer than a call it
    /// waits on); the tools' own work limits grow with it. Results are kept at
    /// least a minute past it.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::mcp::compute::DEFAULT_MAX_TASK_SECONDS, env = "NETWORKS_MCP_MAX_TASK_SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_task_seconds: u64,

    /// Unfinished MCP tasks one session may have (clients that declare the tasks
    /// extension get long calls as tasks); past it a call is refused with
    /// limit_exceeded. Results are kept 5 minutes after a task finishes.
    #[arg(long, value_name = "N", default_value_t = crate::mcp::tasks::DEFAULT_MAX_TASKS_PER_SESSION as u64, env = "NETWORKS_MCP_MAX_TASKS_PER_SESSION", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub max_tasks_per_session: u64,

    /// A call that could run as an MCP task but ends within this many
    /// milliseconds is answered directly; only longer calls give the client a
    /// task to poll. 0 makes every such call a task.
    #[arg(long, value_name = "MS", default_value_t = crate::mcp::tasks::DEFAULT_ANSWER_DIRECTLY_WITHIN.as_millis() as u64, env = "NETWORKS_MCP_TASK_AFTER_MS", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub task_after_ms: u64,

    /// Keep the networks in this directory: every write is journaled (fsync) before
    /// its reply, and the state survives restarts and crashes. Without it, state is in memory only.
    #[arg(long, value_name = "DIR", env = "NETWORKS_MCP_DATA_DIR")]
    pub data_dir: Option<PathBuf>,

    /// Most networks per server.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_networks, env = "NETWORKS_MCP_MAX_NETWORKS")]
    pub max_networks: usize,

    /// Most nodes per network.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_nodes, env = "NETWORKS_MCP_MAX_NODES")]
    pub max_nodes: usize,

    /// Most edges per network.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_edges, env = "NETWORKS_MCP_MAX_EDGES")]
    pub max_edges: usize,

    /// Most attributes on one node or edge.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_attributes, env = "NETWORKS_MCP_MAX_ATTRIBUTES")]
    pub max_attributes: usize,

    /// Most bytes of attributes (as JSON) on one node or edge.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_attribute_bytes, env = "NETWORKS_MCP_MAX_ATTRIBUTE_BYTES")]
    pub max_attribute_bytes: usize,

    /// Most bytes of `data` (as JSON) on one node.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_data_bytes, env = "NETWORKS_MCP_MAX_DATA_BYTES")]
    pub max_data_bytes: usize,

    /// Most edges one import may produce (a DOT edge between subgraphs counts every
    /// edge it expands to); counted while the document is read.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_import_edges, env = "NETWORKS_MCP_MAX_IMPORT_EDGES")]
    pub max_import_edges: usize,

    /// Most bytes of one tool reply, as sent. A page stops at it (its `more` says
    /// so, and its cursor continues there); a single item larger alone (a long
    /// path) is cut and marked; a reply that still does not fit is refused with
    /// limit_exceeded. At least 65536.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_reply_bytes, env = "NETWORKS_MCP_MAX_REPLY_BYTES", value_parser = parse_reply_bytes)]
    pub max_reply_bytes: usize,
    /// Most bytes of memory one import may make (an estimate of its nodes, edges,
    /// ids, attributes and data, every copy of a GraphML `<default>` or of a DOT
    /// edge statement's attributes counted); counted while the document is read.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_import_bytes, env = "NETWORKS_MCP_MAX_IMPORT_MEMORY")]
    pub max_import_memory: usize,

    /// Most bytes of memory all networks together may hold (an estimate), checked
    /// by copies and imports; 0 switches the bound off.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_memory, env = "NETWORKS_MCP_MAX_MEMORY")]
    pub max_memory: usize,

    /// How many recent changes each network keeps for network_changes (within
    /// 4 MiB a network); 0 keeps none.
    #[arg(long, value_name = "N", default_value_t = ChangeWindow::DEFAULT.max_records, env = "NETWORKS_MCP_CHANGE_WINDOW")]
    pub change_window: usize,

    /// With --data-dir: compact the journal into a snapshot after this many writes.
    #[arg(long, value_name = "N", default_value_t = 10_000, env = "NETWORKS_MCP_SNAPSHOT_EVERY", value_parser = clap::value_parser!(u64).range(1..))]
    pub snapshot_every: u64,

    /// Read settings from this TOML file. Keys are the long option names, e.g.
    /// `http = "127.0.0.1:8080"`, `read-only = true`, `allowed-host = ["mcp.example.com"]`.
    /// Precedence: command line > environment > file > default.
    #[arg(long, value_name = "FILE", env = "NETWORKS_MCP_CONFIG")]
    pub config: Option<PathBuf>,

    /// The streamable HTTP server options.
    #[command(flatten)]
    pub http: crate::http::HttpArgs,
}

/// What the binary runs instead of serving MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// Print a worked planning session made of real tool calls, then exit
    ///
    /// The calls build a release plan, ask which steps can run in parallel and
    /// the critical path, add a dependency that makes a cycle, see it refused
    /// and remove it, and ask what is ready to start. They run in-process
    /// against a fresh in-memory server: no client, nothing saved. The server
    /// options are ignored.
    Demo,
}

/// `--max-reply-bytes`: a byte count no smaller than the envelope of a reply
/// and a page of items need.
fn parse_reply_bytes(text: &str) -> Result<usize, String> {
    let bytes: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of bytes"))?;
    let min = crate::limits::MIN_REPLY_BYTES;
    if bytes < min {
        return Err(format!(
            "{bytes} is too small: a reply needs room for its envelope and a page; give at least {min}"
        ));
    }
    Ok(bytes)
}

impl Cli {
    /// The logging settings.
    pub fn log_config(&self) -> LogConfig {
        LogConfig {
            level: self.log_level.clone(),
            format: self.log_format,
            file: self.log_file.clone(),
            audit_file: self.audit_log.clone(),
        }
    }

    /// The window of recent changes every network gets
    /// ([`ChangeWindow::set_default`], before any network is made).
    pub fn change_window(&self) -> ChangeWindow {
        ChangeWindow {
            max_records: self.change_window,
            ..ChangeWindow::DEFAULT
        }
    }

    /// The server settings.
    pub fn server_options(&self) -> ServerOptions {
        let mut options = ServerOptions {
            read_only: self.read_only,
            dry_run: self.dry_run,
            limits: Limits {
                max_networks: self.max_networks,
                max_nodes: self.max_nodes,
                max_edges: self.max_edges,
                max_attributes: self.max_attributes,
                max_attribute_bytes: self.max_attribute_bytes,
                max_data_bytes: self.max_data_bytes,
                max_import_edges: self.max_import_edges,
                max_reply_bytes: self.max_reply_bytes,
                max_import_bytes: self.max_import_memory,
                max_memory: match self.max_memory {
                    0 => usize::MAX,
                    bytes => bytes,
                },
            },
            ..ServerOptions::default()
        };
        let defaults = crate::mcp::compute::ComputeOptions::default();
        let threads = self
            .compute_threads
            .map_or(defaults.threads, |n| n as usize);
        options.compute = crate::mcp::compute::ComputeOptions {
            threads,
            kernel_threads: self.kernel_threads.map_or(threads, |n| n as usize),
            max_queued: self.max_queued_calls as usize,
            max_call: std::time::Duration::from_secs(self.max_call_seconds),
            max_task: std::time::Duration::from_secs(self.max_task_seconds),
        };
        // A task is never expired while it may still run.
        options.tasks.ttl = options
            .tasks
            .ttl
            .max(std::time::Duration::from_secs(self.max_task_seconds + 60));
        options.tasks.max_per_session = self.max_tasks_per_session as usize;
        options.tasks.answer_directly_within = std::time::Duration::from_millis(self.task_after_ms);
        options.data_roots = self.data_root.clone();
        // The client's roots are asked for over stdio only: over HTTP a client's
        // roots name its own machine, not this one.
        options.client_roots = !self.http.enabled();
        if !self.toolsets.is_empty() {
            // The operator's choice: these tools and no others, all listed.
            options.switchable = false;
            options.toolsets = self.toolsets.iter().copied().collect();
        }
        options
    }
}
