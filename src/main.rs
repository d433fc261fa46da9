//! The `networks-mcp` binary: parse options, set up logging, serve MCP over stdio
//! or HTTP; `networks-mcp demo` prints a worked session instead.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use networks_mcp::cli::{Cli, Command};
use networks_mcp::logging::setup_logging;
use networks_mcp::mcp::NetworksServer;
use networks_mcp::mcp::stdio::JsonLinesTransport;
use networks_mcp::registry::NetworkRegistry;
use networks_mcp::storage::{Storage, StorageConfig};
use rmcp::ServiceExt;
use tracing::{error, info, warn};

/// mimalloc, for its transparent huge pages (see its entry in Cargo.toml) when
/// `--huge-pages` asks for them, and its collection of freed memory.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What a call must free (a document, a network) before it hands memory back:
/// below it, the collection costs more than the memory is worth.
const RELEASE_FROM_BYTES: usize = 4 << 20;

/// Returns the memory this thread's allocator heap holds freed to the system
/// (see `networks_mcp::mcp::release`). Forced: without it mimalloc keeps the
/// freed pages for the thread's next allocations.
fn release_freed_memory() {
    // SAFETY: `mi_collect` has no preconditions; it only frees memory that no
    // allocation holds.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// Turns transparent huge pages off for this process (`networks_mcp::paging`),
/// or says why it could not.
fn disable_huge_pages() {
    if let Err(e) = networks_mcp::paging::disable_transparent_huge_pages() {
        // An old kernel or a sandbox that refuses it: huge pages stay as the
        // kernel's setting has them.
        warn!(
            "could not turn transparent huge pages off ({e}); continuing with the kernel's setting"
        );
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse_with_config();
    if cli.command == Some(Command::Demo) {
        return demo();
    }
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
    // stdin that is not a pipe is read on a blocking thread that a signal cannot
    // interrupt: do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

/// `networks-mcp demo`: the worked session on stdout.
fn demo() -> ExitCode {
    match networks_mcp::demo::run(&mut std::io::stdout().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        // `networks-mcp demo | head` closed the pipe: the reader has what it wanted.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("networks-mcp demo: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> ExitCode {
    if let Err(e) = setup_logging(&cli.log_config()) {
        eprintln!("networks-mcp: {e}");
        return ExitCode::from(2);
    }
    // Before any network is made.
    if !cli.huge_pages {
        disable_huge_pages();
    }
    // Before any network is made: recovery's too.
    networks_mcp::network::ChangeWindow::set_default(cli.change_window());
    networks_mcp::mcp::release::set_release_hook(release_freed_memory, RELEASE_FROM_BYTES);
    let registry = Arc::new(NetworkRegistry::new());
    let mut server = NetworksServer::new(registry, cli.server_options());
    let mut recovered = None;
    if let Some(dir) = &cli.data_dir {
        let config = StorageConfig {
            dir: dir.clone(),
            snapshot_every: cli.snapshot_every,
            read_only: cli.read_only,
        };
        let (storage, on_disk) = match Storage::open(config) {
            Ok(opened) => opened,
            Err(e) => {
                error!("{e}");
                eprintln!("networks-mcp: {e}");
                return ExitCode::FAILURE;
            }
        };
        server = server.with_storage(Arc::new(storage));
        recovered = Some(on_disk);
    }
    if cli.http.enabled() {
        // Over HTTP the port opens first and /readyz reports 503 until recovery ends.
        return serve_http(&cli, server, recovered).await;
    }
    if let Some(on_disk) = recovered
        && let Err(e) = server.recover(on_disk)
    {
        error!("recovery failed: {e}");
        eprintln!("networks-mcp: recovery failed: {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = preload(&cli, &server) {
        error!("{e}");
        eprintln!("networks-mcp: {e}");
        return ExitCode::FAILURE;
    }
    let result = serve_stdio(server.clone(), cli.http.max_body_bytes).await;
    server.shutdown();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves MCP over streamable HTTP until SIGTERM/SIGINT, then drains and returns.
async fn serve_http(
    cli: &Cli,
    server: NetworksServer,
    recovered: Option<networks_mcp::storage::Recovered>,
) -> ExitCode {
    let options = match cli.http.options() {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::from(2),
        Err(e) => {
            error!("{e}");
            return ExitCode::from(2);
        }
    };
    // Registered before binding, so an early SIGTERM still drains cleanly.
    let shutdown = shutdown_signal();
    let http = match networks_mcp::http::HttpServer::bind(options).await {
        Ok(http) => http,
        Err(e) => {
            error!("{e}");
            return match e {
                networks_mcp::http::HttpError::Config(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            };
        }
    };
    // /readyz answers 503 until this is set: set it once startup (loading the
    // registry) is complete.
    // Ready at once unless there is durable state to recover or files to load first.
    let ready = Arc::new(std::sync::atomic::AtomicBool::new(
        recovered.is_none() && cli.load.is_empty(),
    ));
    let recovery = {
        let (server, ready) = (server.clone(), Arc::clone(&ready));
        let loads = (cli.load.clone(), cli.load_format);
        async move {
            if let Some(on_disk) = recovered {
                let server = server.clone();
                let replay = tokio::task::spawn_blocking(move || server.recover(on_disk)).await;
                if !matches!(replay, Ok(Ok(()))) {
                    error!("recovery failed: {replay:?}");
                    eprintln!("networks-mcp: recovery failed: {replay:?}");
                    std::process::exit(1);
                }
            }
            let load = tokio::task::spawn_blocking({
                let server = server.clone();
                move || preload_files(&loads.0, loads.1, &server)
            })
            .await;
            if let Ok(Err(e)) | Err(e) = load.map_err(|e| e.to_string()) {
                error!("{e}");
                eprintln!("networks-mcp: {e}");
                std::process::exit(1);
            }
            ready.store(true, std::sync::atomic::Ordering::Release);
        }
    };
    let (served, ()) = tokio::join!(http.serve(server.clone(), ready, shutdown), recovery);
    // In-flight requests have finished: write the final snapshot when durable.
    server.shutdown();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Creates the `--load` networks, after recovery.
fn preload(cli: &Cli, server: &NetworksServer) -> Result<(), String> {
    preload_files(&cli.load, cli.load_format, server)
}

fn preload_files(
    loads: &[networks_mcp::cli::LoadSpec],
    forced: Option<networks_mcp::interchange::Format>,
    server: &NetworksServer,
) -> Result<(), String> {
    for spec in loads {
        if server.registry().get(&spec.name).is_ok() {
            info!(network = %spec.name, "--load: the network already exists (recovered); left as it is");
            continue;
        }
        let format = spec.format(forced)?;
        let content = std::fs::read_to_string(&spec.path).map_err(|e| {
            format!(
                "--load {}: cannot read {}: {e}",
                spec.name,
                spec.path.display()
            )
        })?;
        let started = std::time::Instant::now();
        let progress = terminal_progress(&spec.name);
        let result = server
            .preload(&spec.name, format, content, &progress)
            .map_err(|e| format!("--load {} from {}: {e}", spec.name, spec.path.display()))?;
        info!(
            network = %spec.name,
            path = %spec.path.display(),
            format = format.name(),
            nodes = result["node_count"].as_u64().unwrap_or(0),
            edges = result["edge_count"].as_u64().unwrap_or(0),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "network loaded"
        );
    }
    Ok(())
}

/// Progress of a `--load` on stderr, when stderr is a terminal (a person watches).
fn terminal_progress(name: &str) -> networks_mcp::mcp::Progress {
    if !std::io::stderr().is_terminal() {
        return networks_mcp::mcp::Progress::NONE;
    }
    let name = name.to_string();
    networks_mcp::mcp::Progress::new(
        Some(Box::new(move |done: u64, total: u64, message: &str| {
            let percent = done * 100 / total.max(1);
            let end = if done >= total { "\n" } else { "" };
            eprint!("\r\x1b[2K--load {name}: {percent:>3}% {message}{end}");
        })),
        None,
    )
}

async fn serve_stdio(
    server: NetworksServer,
    max_line_bytes: usize,
) -> Result<(), Box<dyn std::error::Error>> {
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
    let (transport, writer) = JsonLinesTransport::new(stdin_reader(), stdout_writer());
    let transport = transport.with_max_line_bytes(max_line_bytes);
    let service = tokio::select! {
        service = server.serve(transport) => match service {
            Ok(service) => service,
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
                warn!("no MCP client connected: stdin was closed before an initialize request arrived; exiting");
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        },
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

/// Standard input for the transport. A pipe (what an MCP client gives) is read
/// by the runtime's event loop: a line reaches the server without a hand-off
/// to a blocking thread and back, a tenth of a small call's round trip. The
/// pipe's read end is made non-blocking, which only this process reads.
/// Anything else (a file, a terminal) is read by tokio's blocking reader.
fn stdin_reader() -> Box<dyn tokio::io::AsyncRead + Unpin + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned()
            && let Ok(pipe) = tokio::net::unix::pipe::Receiver::from_owned_fd(fd)
        {
            return Box::new(pipe);
        }
    }
    Box::new(tokio::io::stdin())
}

/// Standard output for the transport: as [`stdin_reader`], a pipe is written
/// by the event loop, anything else by tokio's blocking writer. Only MCP frames
/// are written to it; the logs go to standard error, which an MCP client keeps
/// apart from it.
fn stdout_writer() -> Box<dyn tokio::io::AsyncWrite + Unpin + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned()
            && let Ok(pipe) = tokio::net::unix::pipe::Sender::from_owned_fd(fd)
        {
            return Box::new(pipe);
        }
    }
    Box::new(tokio::io::stdout())
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
