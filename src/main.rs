//! The `networks-mcp` binary: parse options, set up logging, serve MCP over stdio.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use networks_mcp::cli::Cli;
use networks_mcp::logging::setup_logging;
use networks_mcp::mcp::NetworksServer;
use networks_mcp::mcp::stdio::JsonLinesTransport;
use networks_mcp::registry::NetworkRegistry;
use rmcp::ServiceExt;
use tracing::{error, info};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("networks-mcp: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(cli));
    // stdin is read on a blocking thread that a signal cannot interrupt: do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

async fn run(cli: Cli) -> ExitCode {
    if let Err(e) = setup_logging(&cli.log_config()) {
        eprintln!("networks-mcp: {e}");
        return ExitCode::from(2);
    }
    let registry = Arc::new(NetworkRegistry::new());
    let server = NetworksServer::new(registry, cli.server_options());
    match serve_stdio(server).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_stdio(server: NetworksServer) -> Result<(), Box<dyn std::error::Error>> {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "networks-mcp {}: an MCP server waiting for a client on stdin/stdout. Start it from an MCP client instead, e.g. `claude mcp add networks -- networks-mcp` or `npx @modelcontextprotocol/inspector networks-mcp`. Press Ctrl-C to quit.",
            env!("CARGO_PKG_VERSION")
        );
    }
    info!(
        version = env!("CARGO_PKG_VERSION"),
        "serving MCP over stdio"
    );
    // Listen for signals before the handshake, so an early SIGTERM still exits cleanly.
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    let (transport, writer) = JsonLinesTransport::new(tokio::io::stdin(), tokio::io::stdout());
    let service = tokio::select! {
        service = server.serve(transport) => service?,
        signal = &mut shutdown => {
            info!(signal, "shutting down before a client connected");
            return Ok(());
        }
    };
    let cancel = service.cancellation_token();
    tokio::select! {
        result = service.waiting() => {
            result?;
            info!("client disconnected; exiting");
        }
        signal = &mut shutdown => {
            info!(signal, "shutting down");
            cancel.cancel();
        }
    }
    // Every reply that was produced reaches stdout before the process exits.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM, naming the signal.
fn shutdown_signal() -> impl Future<Output = &'static str> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        // Registered now, when this function is called, not when the future is first polled.
        let term = signal(SignalKind::terminate());
        let int = signal(SignalKind::interrupt());
        async move {
            match (term, int) {
                (Ok(mut term), Ok(mut int)) => tokio::select! {
                    _ = int.recv() => "SIGINT",
                    _ = term.recv() => "SIGTERM",
                },
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                    "SIGINT"
                }
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}
