//! The built binary as a child process on stdio, and a line-level MCP client.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_networks-mcp");

/// How long one reply may take before the test calls the server hung.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(120);

/// A `networks-mcp` child on stdio, read line by line on a thread; killed on drop.
pub struct StdioServer {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

/// Why no reply came.
#[derive(Debug)]
pub enum NoReply {
    /// The server closed stdout (it exited or crashed).
    Closed,
}

impl StdioServer {
    /// Spawns the binary with `args` (stderr to `stderr`) and completes the MCP
    /// handshake.
    pub fn start(args: &[&std::ffi::OsStr], stderr: Stdio) -> StdioServer {
        let mut server = Self::spawn(args, stderr);
        let init = server
            .request(
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "test", "version": "1"}}),
            )
            .expect("the server answers initialize");
        assert!(init.get("result").is_some(), "initialize: {init}");
        server.send(
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
                .to_string()
                .as_bytes(),
        );
        server
    }

    /// Spawns the binary with `args`, without a handshake.
    pub fn spawn(args: &[&std::ffi::OsStr], stderr: Stdio) -> StdioServer {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn networks-mcp");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        StdioServer {
            child,
            stdin,
            lines,
            next_id: 100,
        }
    }

    /// Writes one line (a newline is added). A closed stdin is ignored: the next
    /// read reports the server gone.
    pub fn send(&mut self, line: &[u8]) {
        if let Some(stdin) = &mut self.stdin {
            let _ = stdin
                .write_all(line)
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush());
        }
    }

    /// The next frame whose `id` is `id` and its line's length, skipping
    /// notifications. Panics after [`REPLY_TIMEOUT`] or on a line that is not JSON.
    pub fn reply_to(&mut self, id: &Value) -> Result<(Value, usize), NoReply> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let frame: Value = serde_json::from_str(&line)
                        .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:.200}"));
                    if frame.get("id") == Some(id) {
                        return Ok((frame, line.len()));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no reply to id {id} within {REPLY_TIMEOUT:?}")
                }
                Err(RecvTimeoutError::Disconnected) => return Err(NoReply::Closed),
            }
        }
    }

    /// Sends `frame` with `jsonrpc` and a fresh id added; its reply and the reply
    /// line's length.
    pub fn request_frame(&mut self, mut frame: Value) -> Result<(Value, usize), NoReply> {
        self.next_id += 1;
        let id = json!(self.next_id);
        frame["jsonrpc"] = json!("2.0");
        frame["id"] = id.clone();
        self.send(frame.to_string().as_bytes());
        self.reply_to(&id)
    }

    /// A request; `None` if the server is gone before answering.
    pub fn request(&mut self, method: &str, params: Value) -> Option<Value> {
        self.request_frame(json!({"method": method, "params": params}))
            .ok()
            .map(|(reply, _)| reply)
    }

    /// A tool call's structured result (success or error object); `None` if the
    /// server is gone before answering.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Option<Value> {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}))?;
        Some(reply["result"]["structuredContent"].clone())
    }

    /// Closes stdin (a clean shutdown) and waits for the exit.
    pub fn stop(mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.child.wait().expect("wait for networks-mcp")
    }

    /// Kills the process at once (SIGKILL) and reaps it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
