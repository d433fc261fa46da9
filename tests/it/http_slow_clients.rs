//! Slow and idle HTTP clients against the built binary: the connection cap sheds the
//! oldest idle connection, header and idle timeouts close what lingers, busy
//! connections at the cap make the newest get 503, `/ui/events` streams are capped,
//! and `/healthz` answers throughout.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::common::http::{Server, client};

/// A raw connection that has sent half of a request head.
fn half_header(port: u16) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .unwrap();
    tcp
}

/// Whether the server closed `tcp` within `limit` (it may first have written a 503).
fn closed_within(tcp: &mut TcpStream, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let mut buf = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        tcp.set_read_timeout(Some(left)).unwrap();
        match tcp.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return false;
            }
            Err(_) => return true,
        }
    }
}

/// `GET /healthz` on a fresh connection; how long it took.
fn healthz_time(server: &Server) -> Duration {
    let started = Instant::now();
    let response = client()
        .get(server.url("/healthz"))
        .timeout(Duration::from_secs(5))
        .send()
        .unwrap_or_else(|e| panic!("/healthz failed: {e}\n{}", server.stderr()));
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().unwrap(), "ok\n");
    started.elapsed()
}

/// Sends one more byte of the header on each connection still open.
fn trickle(slow: &mut [TcpStream]) {
    for tcp in slow.iter_mut() {
        let _ = tcp.write_all(b"x");
    }
}

/// The request line and headers of a response, read byte by byte (the body of an
/// event stream never ends).
fn response_head(tcp: &mut TcpStream) -> String {
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tcp.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            other => panic!(
                "response head cut short ({other:?}): {}",
                String::from_utf8_lossy(&head)
            ),
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

fn get(port: u16, path: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
    // A connection refused at the cap may be closed before the request is
    // written; the response (or its absence) says what happened.
    let _ = write!(tcp, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    tcp
}

/// A GET's response head, or `None` when the server closed or reset the
/// connection before a whole head could be read.
fn try_head(port: u16, path: &str) -> Option<String> {
    read_head(get(port, path))
}

/// A POST to /mcp with a body of `bytes` bytes sent at once; the response head.
fn post_head(port: u16, bytes: usize) -> Option<String> {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).ok()?;
    let body = "x".repeat(bytes);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {bytes}\r\n\r\n{body}"
    );
    let _ = tcp.write_all(request.as_bytes());
    read_head(tcp)
}

/// The response head read from `tcp`, or `None` if it closed or was reset first.
fn read_head(mut tcp: TcpStream) -> Option<String> {
    tcp.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tcp.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

#[test]
fn a_flood_of_slow_clients_is_shed_and_healthz_answers() {
    // Long timeouts: whatever closes before them was shed by the cap.
    let server = Server::start(
        &[
            "--max-connections",
            "16",
            "--http-header-timeout",
            "30",
            "--http-idle-timeout",
            "30",
        ],
        &[],
    );
    let mut slow: Vec<TcpStream> = (0..48).map(|_| half_header(server.port)).collect();
    trickle(&mut slow);
    for _ in 0..3 {
        let took = healthz_time(&server);
        assert!(took < Duration::from_secs(2), "/healthz took {took:?}");
    }
    // The cap holds 16: the 32 oldest slow clients (and more, for the /healthz
    // connections) were closed long before any timeout.
    let mut closed = 0;
    for tcp in &mut slow {
        if closed_within(tcp, Duration::from_millis(200)) {
            closed += 1;
        }
    }
    assert!(
        closed >= 48 - 16,
        "only {closed} of 48 slow clients were shed"
    );
    // The newest are the ones kept.
    assert!(!closed_within(
        slow.last_mut().unwrap(),
        Duration::from_millis(200)
    ));
}

#[test]
fn slow_headers_and_idle_connections_time_out() {
    let server = Server::start(
        &["--http-header-timeout", "1", "--http-idle-timeout", "2"],
        &[],
    );
    let started = Instant::now();
    let mut slow: Vec<TcpStream> = (0..8).map(|_| half_header(server.port)).collect();
    let mut silent = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // A keep-alive connection after one answered request.
    let mut kept = get(server.port, "/healthz");
    assert!(response_head(&mut kept).starts_with("HTTP/1.1 200"));
    // A byte every 300 ms does not buy time: the head must be in within 1 s.
    while started.elapsed() < Duration::from_millis(1_900) {
        trickle(&mut slow);
        std::thread::sleep(Duration::from_millis(300));
    }
    for tcp in &mut slow {
        assert!(
            closed_within(tcp, Duration::from_millis(500)),
            "a trickling header outlived the header timeout"
        );
    }
    let took = healthz_time(&server);
    assert!(took < Duration::from_secs(2), "/healthz took {took:?}");
    // Idle ones are left alone until the idle timeout (2 s), then closed.
    assert!(closed_within(&mut silent, Duration::from_secs(2)));
    assert!(closed_within(&mut kept, Duration::from_secs(2)));
    assert!(started.elapsed() >= Duration::from_secs(2));
}

#[test]
fn a_stalled_request_body_is_cut_off() {
    let server = Server::start(&["--http-header-timeout", "1"], &[]);
    let mut tcp = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let port = server.port;
    write!(
        tcp,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{{\"jsonrpc\""
    )
    .unwrap();
    assert!(closed_within(&mut tcp, Duration::from_secs(4)));
}

#[test]
fn with_a_token_unauthenticated_connections_are_not_kept_alive() {
    let server = Server::start(
        &["--http-header-timeout", "1"],
        &[("NETWORKS_MCP_AUTH_TOKEN", "s3cret")],
    );
    let mut tcp = get(server.port, "/mcp");
    let head = response_head(&mut tcp);
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    assert!(closed_within(&mut tcp, Duration::from_secs(1)));
    // Half a header gets no more time with a token than without.
    let mut slow = half_header(server.port);
    assert!(closed_within(&mut slow, Duration::from_secs(3)));
}

#[test]
fn when_every_connection_is_busy_the_newest_gets_503() {
    let server = Server::start(&["--max-connections", "3"], &[]);
    // Event streams keep their connections busy for as long as they are open.
    let mut streams: Vec<TcpStream> = (0..3).map(|_| get(server.port, "/ui/events")).collect();
    for tcp in &mut streams {
        let head = response_head(tcp);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    // Every refused client reads its refusal whole, even one that sent a
    // request with a body at once (unread bytes at a plain close are a reset,
    // which may discard the 503 before it is read).
    for attempt in 0..20 {
        let head = if attempt % 2 == 0 {
            try_head(server.port, "/healthz")
        } else {
            post_head(server.port, 32 * 1024)
        }
        .unwrap_or_else(|| panic!("attempt {attempt}: the refusal was not read"));
        assert!(head.starts_with("HTTP/1.1 503"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("retry-after: 1"),
            "{head}"
        );
    }
    // The streams were left alone, and a slot freed lets /healthz in again.
    drop(streams.pop());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if try_head(server.port, "/healthz").is_some_and(|head| head.starts_with("HTTP/1.1 200")) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no slot freed after a stream closed"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn ui_event_streams_are_capped() {
    let server = Server::start(&["--max-ui-streams", "2"], &[]);
    let mut streams: Vec<TcpStream> = (0..2).map(|_| get(server.port, "/ui/events")).collect();
    for tcp in &mut streams {
        let head = response_head(tcp);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    let mut third = get(server.port, "/ui/events");
    let head = response_head(&mut third);
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(head.to_ascii_lowercase().contains("retry-after"), "{head}");
    // The rest of the view still answers.
    let mut page = get(server.port, "/ui/api/networks");
    let head = response_head(&mut page);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
}
