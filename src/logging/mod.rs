//! The shared logging module: [`setup_logging`] installs a `tracing` subscriber.
//!
//! Logs go to stderr, never stdout: on stdio, stdout is the MCP channel and carries
//! JSON-RPC frames only. A log file may be added beside stderr. MCP clients may
//! also ask for the logs (`logging/setLevel`); [`client`] carries them there.

pub mod client;
mod escape;

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::Mutex;

use tracing_subscriber::Layer;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The environment variable read for the log filter when no level is given (RUST_LOG syntax).
pub const LOG_ENV: &str = "NETWORKS_MCP_LOG";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Logging settings.
#[derive(Debug, Clone, Default)]
pub struct LogConfig {
    /// A level or filter in RUST_LOG syntax (`info`, `networks_mcp=debug`). When
    /// `None`, `NETWORKS_MCP_LOG` is read, and `info` is the fallback.
    pub level: Option<String>,
    /// Text or JSON lines.
    pub format: LogFormat,
    /// Also append the logs to this file.
    pub file: Option<PathBuf>,
    /// Append every `audit` event (one per applied write) to this file as JSON lines.
    pub audit_file: Option<PathBuf>,
}

/// Why logging could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum LoggingError {
    /// The level/filter string is not valid RUST_LOG syntax.
    #[error("invalid log level or filter '{0}': {1}")]
    Filter(String, String),
    /// The log file could not be opened.
    #[error("cannot open log file {0}: {1}")]
    File(PathBuf, std::io::Error),
    /// A global subscriber was already installed.
    #[error("logging is already set up: {0}")]
    AlreadySet(String),
}

/// Opens a log file for appending, creating it if needed.
fn open_append(path: &std::path::Path) -> Result<std::fs::File, LoggingError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| LoggingError::File(path.to_path_buf(), e))
}

/// Installs the global `tracing` subscriber: stderr (and optionally a file), with the
/// configured level and format. Call once at startup.
pub fn setup_logging(config: &LogConfig) -> Result<(), LoggingError> {
    let spec = match &config.level {
        Some(level) => level.clone(),
        None => std::env::var(LOG_ENV).unwrap_or_else(|_| "info".to_string()),
    };
    // `Targets` reads the `target=level` directives of RUST_LOG without a regex
    // engine: span and field filters are not supported, and the build is lighter.
    let filter: Targets = spec
        .parse()
        .map_err(|e: tracing_subscriber::filter::ParseError| {
            LoggingError::Filter(spec.clone(), e.to_string())
        })?;

    let file_writer = match &config.file {
        Some(path) => Some(BoxMakeWriter::new(Mutex::new(open_append(path)?))),
        None => None,
    };

    let audit_layer = match &config.audit_file {
        Some(path) => {
            let file = open_append(path)?;
            Some(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_writer(Mutex::new(file))
                    .with_filter(Targets::new().with_target("audit", tracing::Level::INFO)),
            )
        }
        None => None,
    };
    // The level filter applies to stderr and the log file only, so the audit file
    // receives every applied write whatever the log level.
    let stderr = BoxMakeWriter::new(std::io::stderr);
    let logs = match config.format {
        LogFormat::Text => {
            // Text lines carry input (ids, CSV cells) verbatim: escape control
            // characters so no value can forge a log line or drive a terminal.
            // Colours are off for the same reason: escape sequences are escaped.
            let file_layer = file_writer.map(|w| {
                tracing_subscriber::fmt::layer()
                    .with_writer(escape::Escaping(w))
                    .with_ansi(false)
            });
            tracing_subscriber::fmt::layer()
                .with_writer(escape::Escaping(stderr))
                .with_ansi(false)
                .and_then(file_layer)
                .boxed()
        }
        LogFormat::Json => {
            let file_layer =
                file_writer.map(|w| tracing_subscriber::fmt::layer().json().with_writer(w));
            tracing_subscriber::fmt::layer()
                .json()
                .with_writer(stderr)
                .and_then(file_layer)
                .boxed()
        }
    };
    let result = tracing_subscriber::registry()
        .with(logs.with_filter(filter))
        .with(audit_layer)
        // Clients choose their own level, so this layer has its own filter.
        .with(
            client::ClientLogLayer
                .with_filter(Targets::new().with_target("networks_mcp", tracing::Level::DEBUG)),
        )
        .try_init();
    result.map_err(|e| LoggingError::AlreadySet(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_that_is_not_target_level_directives_is_refused_before_anything_is_installed() {
        let config = LogConfig {
            level: Some("networks_mcp=loudest".to_string()),
            ..LogConfig::default()
        };
        match setup_logging(&config) {
            Err(LoggingError::Filter(spec, message)) => {
                assert_eq!(spec, "networks_mcp=loudest");
                assert!(!message.is_empty());
            }
            other => panic!("expected a filter error, got {other:?}"),
        }
    }

    #[test]
    fn levels_and_per_target_directives_parse() {
        for spec in [
            "info",
            "warn,networks_mcp=debug",
            "networks_mcp::http=trace",
        ] {
            assert!(spec.parse::<Targets>().is_ok(), "{spec}");
        }
    }
}
