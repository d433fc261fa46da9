//! The HTTP command-line options, flattened into [`crate::cli::Cli`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{AUTH_TOKEN_ENV, DEFAULT_MAX_BODY_BYTES, HttpError, HttpOptions};

/// Options of the streamable HTTP server (`--http`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "HTTP service (--http)")]
#[allow(rustdoc::broken_intra_doc_links)] // the doc comments are --help text: `[::1]` is not a link
pub struct HttpArgs {
    /// Serve MCP over streamable HTTP at http://ADDR/mcp instead of stdio, with
    /// /healthz, /readyz and /metrics beside it. ADDR defaults to 127.0.0.1:8080;
    /// port 0 picks a free port (the address is logged). A non-loopback address needs
    /// a token (NETWORKS_MCP_AUTH_TOKEN or --auth-token-file) or --insecure-no-auth.
    #[arg(
        long,
        value_name = "ADDR",
        env = "NETWORKS_MCP_HTTP",
        num_args = 0..=1,
        default_missing_value = "127.0.0.1:8080"
    )]
    pub http: Option<String>,

    /// Read the bearer token that /mcp and /metrics require from this file (first
    /// line, surrounding whitespace trimmed). The token can also come from the
    /// environment variable NETWORKS_MCP_AUTH_TOKEN; it is never a command-line value.
    #[arg(long, value_name = "PATH", env = "NETWORKS_MCP_AUTH_TOKEN_FILE")]
    pub auth_token_file: Option<PathBuf>,

    /// Allow binding a non-loopback address without a token. Anyone who can reach
    /// the port can then read and change every network.
    #[arg(long, env = "NETWORKS_MCP_INSECURE_NO_AUTH")]
    pub insecure_no_auth: bool,

    /// Extra allowed Host header values (DNS-rebinding defence), comma-separated:
    /// NAME (any port) or NAME:PORT; `*` allows any. localhost, 127.0.0.1 and [::1]
    /// on the bound port are always allowed.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        value_delimiter = ',',
        env = "NETWORKS_MCP_ALLOWED_HOSTS"
    )]
    pub allowed_hosts: Vec<String>,

    /// Extra allowed Origin header values, comma-separated: SCHEME://HOST[:PORT]; `*`
    /// allows any. Requests without Origin pass; http(s) loopback origins are allowed.
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        value_delimiter = ',',
        env = "NETWORKS_MCP_ALLOWED_ORIGINS"
    )]
    pub allowed_origins: Vec<String>,

    /// Largest accepted request in bytes: an HTTP body (a larger one gets 413 before it
    /// is parsed), or one stdio line (a longer one is skipped and answered with an error).
    #[arg(long, value_name = "BYTES", env = "NETWORKS_MCP_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Most MCP sessions open at once; a new session beyond it gets 503 with Retry-After.
    #[arg(long, value_name = "N", env = "NETWORKS_MCP_MAX_SESSIONS", default_value_t = super::DEFAULT_MAX_SESSIONS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_sessions: usize,

    /// Seconds after which an MCP session with no request is closed.
    #[arg(long, value_name = "SECS", env = "NETWORKS_MCP_SESSION_IDLE_TIMEOUT", default_value_t = super::DEFAULT_SESSION_IDLE_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub session_idle_timeout: u64,

    /// Most HTTP connections open at once. At the cap, a new connection closes the
    /// oldest one that has no request in flight (idle, or still sending its header);
    /// if every connection has a request in flight, the new one gets 503 with
    /// Retry-After. The default, 512, stays under half of the common file-descriptor
    /// limit of 1024 (ulimit -n), leaving room for the data directory and the logs;
    /// raise both together.
    #[arg(long, value_name = "N", env = "NETWORKS_MCP_MAX_CONNECTIONS", default_value_t = super::DEFAULT_MAX_CONNECTIONS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_connections: usize,

    /// Seconds a client gets to send a request's header, counted from its first
    /// byte; a slower one is disconnected. A request body that pauses this long is
    /// also cut off.
    #[arg(long, value_name = "SECS", env = "NETWORKS_MCP_HTTP_HEADER_TIMEOUT", default_value_t = super::DEFAULT_HEADER_TIMEOUT.as_secs_f64(), value_parser = positive_seconds)]
    pub http_header_timeout: f64,

    /// Seconds after which a connection with no request in flight (a keep-alive
    /// connection between requests, or one that never sent anything) is closed.
    #[arg(long, value_name = "SECS", env = "NETWORKS_MCP_HTTP_IDLE_TIMEOUT", default_value_t = super::DEFAULT_IDLE_TIMEOUT.as_secs_f64(), value_parser = positive_seconds)]
    pub http_idle_timeout: f64,

    /// Most web-view event streams (/ui/events, one per open page) at once; one more
    /// gets 503 with Retry-After.
    #[arg(long, value_name = "N", env = "NETWORKS_MCP_MAX_UI_STREAMS", default_value_t = super::DEFAULT_MAX_UI_STREAMS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_ui_streams: usize,

    /// Seconds to let in-flight requests finish after SIGTERM/SIGINT before exiting.
    #[arg(
        long,
        value_name = "SECS",
        env = "NETWORKS_MCP_SHUTDOWN_TIMEOUT",
        default_value_t = 10
    )]
    pub shutdown_timeout: u64,

    /// The web view (/ui) draws at most this many nodes at once; a bigger network is
    /// shown as a summary plus the neighbourhood of a searched node.
    #[arg(
        long,
        value_name = "N",
        env = "NETWORKS_MCP_UI_MAX_NODES",
        default_value_t = crate::view::model::DEFAULT_MAX_NODES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub ui_max_nodes: usize,
}

impl HttpArgs {
    /// Whether `--http` was given.
    pub fn enabled(&self) -> bool {
        self.http.is_some()
    }

    /// The server options, with the token read from its file or the environment.
    /// `None` when `--http` was not given.
    pub fn options(&self) -> Result<Option<HttpOptions>, HttpError> {
        let Some(addr) = &self.http else {
            return Ok(None);
        };
        let from_file = match &self.auth_token_file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    HttpError::Config(format!(
                        "cannot read --auth-token-file {}: {e}",
                        path.display()
                    ))
                })?;
                let token = text.lines().next().unwrap_or("").trim().to_string();
                if token.is_empty() {
                    return Err(HttpError::Config(format!(
                        "--auth-token-file {} is empty",
                        path.display()
                    )));
                }
                Some(token)
            }
            None => None,
        };
        let from_env = match std::env::var(AUTH_TOKEN_ENV) {
            Ok(value) if value.trim().is_empty() => {
                return Err(HttpError::Config(format!(
                    "{AUTH_TOKEN_ENV} is set but empty; unset it or give a token"
                )));
            }
            Ok(value) => Some(value.trim().to_string()),
            Err(_) => None,
        };
        if from_file.is_some() && from_env.is_some() {
            return Err(HttpError::Config(format!(
                "both --auth-token-file and {AUTH_TOKEN_ENV} are set; give one"
            )));
        }
        Ok(Some(HttpOptions {
            addr: addr.clone(),
            auth_token: from_file.or(from_env),
            insecure_no_auth: self.insecure_no_auth,
            allowed_hosts: self.allowed_hosts.clone(),
            allowed_origins: self.allowed_origins.clone(),
            max_body_bytes: self.max_body_bytes,
            max_sessions: self.max_sessions,
            session_idle_timeout: std::time::Duration::from_secs(self.session_idle_timeout),
            shutdown_timeout: Duration::from_secs(self.shutdown_timeout),
            ui_max_nodes: self.ui_max_nodes,
            max_connections: self.max_connections,
            header_timeout: Duration::from_secs_f64(self.http_header_timeout),
            idle_timeout: Duration::from_secs_f64(self.http_idle_timeout),
            max_ui_streams: self.max_ui_streams,
        }))
    }
}

/// A timeout in seconds: positive, finite, at most a day (a fraction allows the
/// short timeouts of tests).
fn positive_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0 {
        Ok(seconds)
    } else {
        Err(format!(
            "'{text}' is not between 0 (excluded) and 86400 seconds"
        ))
    }
}
