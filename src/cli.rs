//! Command-line options of the `networks-mcp` binary.

mod config;

use std::path::PathBuf;

use clap::Parser;

use crate::logging::{LogConfig, LogFormat};
use crate::mcp::{ServerOptions, Toolset};

/// An MCP server of named, directed, weighted graphs for AI agents that plan.
///
/// With no options it serves MCP over stdio: start it from an MCP client
/// (Claude Code, Claude Desktop, the MCP Inspector...), not by hand.
#[derive(Debug, Parser)]
#[command(name = "networks-mcp", version, about, long_about = None)]
pub struct Cli {
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

    /// Comma-separated toolsets to offer: core, edit, analysis (default: all).
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

    /// Keep the networks in this directory: every write is journaled (fsync) before
    /// its reply, and the state survives restarts and crashes. Without it, state is in memory only.
    #[arg(long, value_name = "DIR", env = "NETWORKS_MCP_DATA_DIR")]
    pub data_dir: Option<PathBuf>,

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

impl Cli {
    /// The logging settings.
    pub fn log_config(&self) -> LogConfig {
        LogConfig {
            level: self.log_level.clone(),
            format: self.log_format,
            file: self.log_file.clone(),
        }
    }

    /// The server settings.
    pub fn server_options(&self) -> ServerOptions {
        let mut options = ServerOptions {
            read_only: self.read_only,
            dry_run: self.dry_run,
            ..ServerOptions::default()
        };
        if !self.toolsets.is_empty() {
            options.toolsets = self.toolsets.iter().copied().collect();
        }
        options
    }
}
