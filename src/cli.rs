//! Command-line options of the `networks-mcp` binary.

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
            ..ServerOptions::default()
        };
        if !self.toolsets.is_empty() {
            options.toolsets = self.toolsets.iter().copied().collect();
        }
        options
    }
}
