//! What an idle HTTP session costs: live heap bytes counted by a wrapper around
//! the server's allocator (mimalloc), and the process's resident memory.
//!
//! Starts the HTTP server in-process on 127.0.0.1:0 (the code the binary runs with
//! `--http`), opens `--sessions` sessions that only `initialize` and send
//! `notifications/initialized` (only `initialize` with `--initialize-only`; each on its own connection, closed after the
//! reply), and prints the live heap bytes and allocations each session holds and
//! the growth of VmRSS per session; with `--sizes`, the allocation sizes that
//! hold the most bytes per session; with `--log`, the binary's logging (rmcp's
//! spans live as long as a session); with `--types`, the sizes of the messages
//! rmcp's per-session channels hold.
//!
//! ```text
//! cargo run --release --example session_memory -- --sessions 900 [--sizes] [--log] [--types]
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};

use networks_mcp::NetworkRegistry;
use networks_mcp::http::{HttpOptions, HttpServer};
use networks_mcp::mcp::{NetworksServer, ServerOptions};

/// mimalloc, as the server uses, counting the bytes and allocations handed out
/// and not yet taken back, and the live count of each size below `SIZES`.
struct Counting;

const SIZES: usize = 1 << 16;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);
static BY_SIZE: [AtomicI64; SIZES] = [const { AtomicI64::new(0) }; SIZES];

fn size_slot(size: usize) -> &'static AtomicI64 {
    &BY_SIZE[size.min(SIZES - 1)]
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        COUNT.fetch_add(1, Ordering::Relaxed);
        size_slot(layout.size()).fetch_add(1, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        COUNT.fetch_sub(1, Ordering::Relaxed);
        size_slot(layout.size()).fetch_sub(1, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        size_slot(layout.size()).fetch_sub(1, Ordering::Relaxed);
        size_slot(new_size).fetch_add(1, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    Some(args.get(at + 1).cloned().unwrap_or_default())
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// One POST to `/mcp` on a fresh connection; the response's session id, if any.
fn post(addr: SocketAddr, session: Option<&str>, body: &str) -> Option<String> {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if let Some(id) = session {
        request.push_str(&format!(
            "Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n"
        ));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    assert!(
        response.starts_with("HTTP/1.1 200") || response.starts_with("HTTP/1.1 202"),
        "{response}"
    );
    response.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_string())
    })
}

fn open_session(addr: SocketAddr, initialized: bool) -> String {
    let id = post(
        addr,
        None,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"m","version":"1"}}}"#,
    )
    .expect("a session id");
    if !initialized {
        return id;
    }
    post(
        addr,
        Some(&id),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    id
}

fn main() {
    let sessions: usize = arg("--sessions").map_or(900, |v| v.parse().expect("--sessions N"));
    let sizes = arg("--sizes").is_some();
    let initialized = arg("--initialize-only").is_none();
    // The binary's logging (info to stderr): rmcp's spans live as long as a session.
    if arg("--log").is_some() {
        networks_mcp::logging::setup_logging(&networks_mcp::logging::LogConfig::default())
            .expect("logging");
    }
    if arg("--types").is_some() {
        use rmcp::model::{
            ClientJsonRpcMessage, ServerJsonRpcMessage, ServerNotification, ServerRequest,
        };
        use rmcp::transport::common::server_side_http::ServerSseMessage;
        use rmcp::transport::streamable_http_server::session::local::SessionEvent;
        println!(
            "ServerJsonRpcMessage {} ClientJsonRpcMessage {} ServerSseMessage {} SessionEvent {} ServerRequest {} ServerNotification {}",
            size_of::<ServerJsonRpcMessage>(),
            size_of::<ClientJsonRpcMessage>(),
            size_of::<ServerSseMessage>(),
            size_of::<SessionEvent>(),
            size_of::<ServerRequest>(),
            size_of::<ServerNotification>(),
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let addr = runtime.block_on(async {
        let server =
            NetworksServer::new(Arc::new(NetworkRegistry::new()), ServerOptions::default());
        let http = HttpServer::bind(HttpOptions {
            addr: "127.0.0.1:0".into(),
            max_sessions: sessions + 100,
            ..HttpOptions::default()
        })
        .await
        .expect("bind 127.0.0.1:0");
        let addr = http.local_addr();
        let ready = Arc::new(AtomicBool::new(true));
        tokio::spawn(http.serve(server, ready, std::future::pending::<&str>()));
        addr
    });
    // Warm up: threads, lazily built tables, the first connections' buffers.
    let mut ids: Vec<String> = (0..20).map(|_| open_session(addr, initialized)).collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let by_size_before: Vec<i64> = BY_SIZE.iter().map(|c| c.load(Ordering::Relaxed)).collect();
    let (live, count, rss) = (
        LIVE.load(Ordering::Relaxed),
        COUNT.load(Ordering::Relaxed),
        rss_kib(),
    );
    ids.reserve(sessions);
    for _ in 0..sessions {
        ids.push(open_session(addr, initialized));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let n = sessions as f64;
    let heap = (LIVE.load(Ordering::Relaxed) as f64 - live as f64) / n;
    let allocs = (COUNT.load(Ordering::Relaxed) as f64 - count as f64) / n;
    let rss = (rss_kib() as f64 - rss as f64) / n;
    println!(
        "{{\"sessions\": {sessions}, \"heap_bytes_per_session\": {heap:.0}, \"allocations_per_session\": {allocs:.1}, \"rss_kib_per_session\": {rss:.1}}}"
    );
    if sizes {
        let mut rows: Vec<(usize, f64)> = BY_SIZE
            .iter()
            .zip(&by_size_before)
            .enumerate()
            .map(|(size, (now, before))| {
                let per = (now.load(Ordering::Relaxed) - before) as f64 / n;
                (size, per)
            })
            .filter(|(_, per)| per.abs() >= 0.5)
            .collect();
        rows.sort_by(|a, b| (b.0 as f64 * b.1).total_cmp(&(a.0 as f64 * a.1)));
        for (size, per) in rows.iter().take(30) {
            println!(
                "  size {size:>6} x {per:>5.2} = {:>8.0} bytes",
                *size as f64 * per
            );
        }
    }
    drop(ids);
}
